DELETE FROM settings WHERE key = 'explanations_as_values';

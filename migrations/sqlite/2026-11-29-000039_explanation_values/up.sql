-- Explanations stored before they were values hold sentences. This marks
-- them for the one conversion Kraal runs at start-up, after the migrations
-- (src/db/explanations.rs): it rewrites them as values and marks it done,
-- in one transaction.
INSERT INTO settings (key, value) VALUES ('explanations_as_values', 'pending');

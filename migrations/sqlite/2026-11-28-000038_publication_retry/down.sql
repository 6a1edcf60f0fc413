ALTER TABLE publications DROP COLUMN last_attempt_at;

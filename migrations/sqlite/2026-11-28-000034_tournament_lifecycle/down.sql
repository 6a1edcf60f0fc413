ALTER TABLE tournaments DROP COLUMN rated;
ALTER TABLE tournaments DROP COLUMN archived;

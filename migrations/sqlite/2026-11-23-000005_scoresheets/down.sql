ALTER TABLE tournaments DROP COLUMN records_required;
ALTER TABLE rounds DROP COLUMN locked_at;
ALTER TABLE tournaments DROP COLUMN records_public;
DROP TABLE rulings;
DROP TABLE scoresheets;

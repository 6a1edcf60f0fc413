-- A round robin's or knock-out's rounds follow from its field: left empty
-- (NULL) until the first pairing fixes them. `cycles` asks for a double
-- round robin when the rounds are left to the field. The column is rebuilt
-- (added, copied, dropped, renamed) the same way on both backends, so both
-- keep the columns in one order.
ALTER TABLE tournaments ADD COLUMN planned_rounds INTEGER CHECK (planned_rounds BETWEEN 1 AND 99);
UPDATE tournaments SET planned_rounds = rounds;
ALTER TABLE tournaments DROP COLUMN rounds;
ALTER TABLE tournaments RENAME COLUMN planned_rounds TO rounds;
ALTER TABLE tournaments ADD COLUMN cycles INTEGER NOT NULL DEFAULT 1 CHECK (cycles IN (1, 2));

ALTER TABLE tournaments DROP COLUMN cycles;
ALTER TABLE tournaments ADD COLUMN fixed_rounds INTEGER NOT NULL DEFAULT 1 CHECK (fixed_rounds >= 1);
UPDATE tournaments SET fixed_rounds = COALESCE(rounds, 1);
ALTER TABLE tournaments DROP COLUMN rounds;
ALTER TABLE tournaments RENAME COLUMN fixed_rounds TO rounds;

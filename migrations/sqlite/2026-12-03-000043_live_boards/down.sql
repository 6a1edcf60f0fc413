DROP TABLE live_games;
ALTER TABLE tournaments DROP COLUMN live_boards;

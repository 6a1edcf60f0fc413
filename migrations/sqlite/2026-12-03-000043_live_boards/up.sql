-- Who may watch the games recorded at the board as they are played:
-- `public` (everyone), `referees` or `off`.
ALTER TABLE tournaments ADD COLUMN live_boards TEXT NOT NULL DEFAULT 'public';

-- A counter per game recorded at the board, moved by every ply and every
-- word on one: the live boards follow it, so that a ply never moves the
-- tournament's revision (which rebuilds its standings and pages). The
-- round is kept here so that a round's feed reads one index.
CREATE TABLE live_games (
    game_id INTEGER PRIMARY KEY NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    round_id INTEGER NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    version INTEGER NOT NULL
);
CREATE INDEX live_games_round ON live_games (round_id);

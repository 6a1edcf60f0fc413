-- A player's word on their opponent's irregular ply in a game recorded at
-- the board (OGR 5.4): rectified (the ply was taken back from both
-- records) or let stand. Recording one's next ply lets it stand without a
-- word (5.7), so only a word said is kept here. `written` is the ply as
-- it was recorded.
CREATE TABLE ply_rulings (
    id SERIAL PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    rectified BOOLEAN NOT NULL,
    written TEXT NOT NULL,
    ruled_at TIMESTAMP NOT NULL
);
CREATE INDEX ply_rulings_game ON ply_rulings (game_id, ply);

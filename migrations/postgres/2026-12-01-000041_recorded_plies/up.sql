-- Each player's record of a game as they record it at the board, ply by
-- ply (OGR 6.2.6: both players record both sides; the two records are
-- kept apart and compared). `written` is the ply as the player wrote it.
CREATE TABLE recorded_plies (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    written TEXT NOT NULL,
    recorded_at TIMESTAMP NOT NULL,
    PRIMARY KEY (game_id, player_id, ply)
);

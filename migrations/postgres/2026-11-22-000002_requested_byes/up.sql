-- Byes a player asks for: left out of one round, scoring half or nothing.
CREATE TABLE requested_byes (
    id SERIAL PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    half BOOLEAN NOT NULL DEFAULT FALSE,
    UNIQUE (player_id, round)
);

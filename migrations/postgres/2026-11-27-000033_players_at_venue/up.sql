-- Players at the venue: personal links, results they report, the round
-- clock (docs/players.md).

-- A player's personal link: the server derives the key from its secret,
-- the player and the link's version; only the key's digest is stored, and
-- a revoked link has none.
ALTER TABLE players ADD COLUMN link_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN link_digest TEXT;
CREATE UNIQUE INDEX players_link_digest ON players (link_digest);

-- Who may confirm a result the players report, the stop clocks on the
-- boards (OGR 8.1), and whether a player may take a half-point bye
-- through their link (once per event).
ALTER TABLE tournaments ADD COLUMN confirmation TEXT NOT NULL DEFAULT 'players';
ALTER TABLE tournaments ADD COLUMN clocks BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE tournaments ADD COLUMN half_point_bye BOOLEAN NOT NULL DEFAULT FALSE;

-- The round clock (OGR 8): when play starts and how long the round lasts.
ALTER TABLE rounds ADD COLUMN clock_starts_at TIMESTAMP;
ALTER TABLE rounds ADD COLUMN clock_minutes INTEGER;

-- A result stored because the players reported it (a referee's entry
-- clears this and closes reporting).
ALTER TABLE games ADD COLUMN reported BOOLEAN NOT NULL DEFAULT FALSE;

-- What each player reported of a game, from the starter's side.
CREATE TABLE reports (
    id SERIAL PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    result TEXT NOT NULL,
    reported_at TIMESTAMP NOT NULL,
    UNIQUE (game_id, player_id)
);

-- A bye the player asked for through their own link.
ALTER TABLE requested_byes ADD COLUMN by_player BOOLEAN NOT NULL DEFAULT FALSE;

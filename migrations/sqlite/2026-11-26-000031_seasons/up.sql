-- A season: events with a weight each, scored by place (docs/ratings.md).
CREATE TABLE seasons (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    name TEXT NOT NULL,
    -- JSON list of the points for places 1, 2, ...
    points TEXT NOT NULL,
    -- How many of a person's results count; NULL: all of them.
    best INTEGER,
    created_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE season_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    season_id INTEGER NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    weight REAL NOT NULL DEFAULT 1,
    UNIQUE (season_id, tournament_id)
);

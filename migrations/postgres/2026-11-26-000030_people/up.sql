-- The federation's registry: one row per person across events. An entry
-- (a player of a tournament) may point at its person; ratings are computed
-- from the games of linked entries and never stored (docs/ratings.md).
CREATE TABLE people (
    id SERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    -- NULL when the person has none; unique when given, merged people
    -- included, so that undoing a merge never meets a taken id.
    federation_id TEXT UNIQUE,
    club TEXT NOT NULL DEFAULT '',
    born INTEGER,
    -- An imported starting rating, in force after the month start_period
    -- ('YYYY-MM'); all four or none.
    start_rating DOUBLE PRECISION,
    start_rd DOUBLE PRECISION,
    start_volatility DOUBLE PRECISION,
    start_period TEXT,
    -- Set while the person is merged into another (see merges).
    merged_into INTEGER REFERENCES people (id),
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX people_name ON people (name);

ALTER TABLE players ADD COLUMN person_id INTEGER REFERENCES people (id);
CREATE INDEX players_person ON players (person_id);

-- Two people found to be one: the entries moved are listed, so that the
-- merge can be undone exactly.
CREATE TABLE merges (
    id SERIAL PRIMARY KEY,
    person_id INTEGER NOT NULL REFERENCES people (id),
    into_id INTEGER NOT NULL REFERENCES people (id),
    -- JSON list of the ids of the entries (players) moved.
    entries TEXT NOT NULL,
    merged_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    merged_at TIMESTAMP NOT NULL,
    undone_at TIMESTAMP
);

-- A round is played on a day; the rating period is its month.
ALTER TABLE rounds ADD COLUMN played_on DATE;
UPDATE rounds SET played_on = created_at::date;
ALTER TABLE rounds ALTER COLUMN played_on SET NOT NULL;

-- A person is entered once per tournament.
CREATE UNIQUE INDEX players_tournament_person ON players (tournament_id, person_id);

-- A person's page reads the games of their entries.
CREATE INDEX pairings_first_player ON pairings (first_player_id);
CREATE INDEX pairings_second_player ON pairings (second_player_id);

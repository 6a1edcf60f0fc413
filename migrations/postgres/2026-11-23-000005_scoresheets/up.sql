-- The records of a game as its players and referee sent them: every
-- submission kept verbatim, a new one for the same side superseding (not
-- replacing) the one before. The check is the rules engine's on the text
-- under the rule set stored with it; a sheet that could not be read keeps
-- the reading error (line and column) it got on arrival.
CREATE TABLE scoresheets (
    id SERIAL PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    side TEXT NOT NULL CHECK (side IN ('dark', 'light', 'referee')),
    text TEXT NOT NULL,
    rules TEXT NOT NULL,
    error TEXT,
    submitted_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    by_link BOOLEAN NOT NULL DEFAULT FALSE,
    submitted_at TIMESTAMP NOT NULL,
    superseded_at TIMESTAMP
);
-- At most one current record per game and side.
CREATE UNIQUE INDEX scoresheets_current ON scoresheets (game_id, side) WHERE superseded_at IS NULL;

-- A referee's ruling on a game whose records and entered result disagree.
CREATE TABLE rulings (
    id SERIAL PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('keep', 'board', 'other')),
    result TEXT CHECK (result IN ('1-0', '0-1', '1/2-1/2', '+-', '-+', '--', 'np')),
    reason TEXT NOT NULL,
    ruled_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    ruled_at TIMESTAMP NOT NULL
);

-- When the referee locked the round: its players' links take no more
-- records from then on.
ALTER TABLE rounds ADD COLUMN locked_at TIMESTAMP;

-- Whether the public sees a game's records and their checks once its round
-- is complete (referees always do).
ALTER TABLE tournaments ADD COLUMN records_public BOOLEAN NOT NULL DEFAULT FALSE;
-- Whether every game played must have a record: a game with a result and
-- no record is then flagged for the referee.
ALTER TABLE tournaments ADD COLUMN records_required BOOLEAN NOT NULL DEFAULT FALSE;

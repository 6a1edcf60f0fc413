-- The receiving side: events a venue's Kraal publishes here, read-only,
-- by the origin id the venue gave the tournament (docs/publishing.md).
CREATE TABLE published (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    origin_id TEXT NOT NULL UNIQUE,
    tournament_id INTEGER NOT NULL UNIQUE REFERENCES tournaments (id) ON DELETE CASCADE,
    published_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    -- The venue's name and its page of the event.
    server TEXT NOT NULL,
    link TEXT NOT NULL,
    -- The venue's revision of the event this copy is.
    revision INTEGER NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

-- An account an admin allows to publish events here.
ALTER TABLE users ADD COLUMN may_publish BOOLEAN NOT NULL DEFAULT 0;

-- The venue's side: where a tournament is published to, and what the
-- target last acknowledged.
CREATE TABLE publications (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    tournament_id INTEGER NOT NULL UNIQUE REFERENCES tournaments (id) ON DELETE CASCADE,
    origin_id TEXT NOT NULL UNIQUE,
    target TEXT NOT NULL,
    -- As it is sent: the target needs it as it is.
    token TEXT NOT NULL,
    active BOOLEAN NOT NULL,
    published_revision INTEGER,
    last_success_at TIMESTAMP,
    last_error TEXT,
    failures INTEGER NOT NULL DEFAULT 0
);

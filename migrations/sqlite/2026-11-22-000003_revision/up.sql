-- Bumped by every change to a tournament, so that pages built from it can
-- be served from a cache until it changes.
ALTER TABLE tournaments ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;

-- A tournament's lifecycle: withdrawn from public view (archived) and
-- left out of the ratings and the seasons (not rated). A deleted
-- tournament's rows go with it; the deletion itself is an audit entry of
-- no tournament (docs/api.md).
ALTER TABLE tournaments ADD COLUMN archived BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE tournaments ADD COLUMN rated BOOLEAN NOT NULL DEFAULT TRUE;

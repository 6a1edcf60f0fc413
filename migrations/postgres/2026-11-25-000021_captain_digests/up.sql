-- A captain's link is kept as the digest of its secret, as an API token
-- is: the database (a backup, a copy) no longer holds a working link. A
-- link made before is marked 'plain:' here and turned into its digest by
-- the app as it starts (the digest is computed in Rust), so it keeps
-- working.
ALTER TABLE teams ADD COLUMN captain_digest TEXT;
UPDATE teams SET captain_digest = 'plain:' || captain_token WHERE captain_token IS NOT NULL;
DROP INDEX teams_captain_token;
ALTER TABLE teams DROP COLUMN captain_token;
CREATE UNIQUE INDEX teams_captain_digest ON teams (captain_digest);

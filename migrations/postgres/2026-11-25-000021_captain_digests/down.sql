-- A digest cannot be turned back into its link: the links end, and the
-- referee makes new ones.
DROP INDEX teams_captain_digest;
ALTER TABLE teams DROP COLUMN captain_digest;
ALTER TABLE teams ADD COLUMN captain_token TEXT;
CREATE UNIQUE INDEX teams_captain_token ON teams (captain_token);

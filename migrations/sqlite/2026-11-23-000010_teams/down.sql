ALTER TABLE pairings DROP COLUMN started;
DROP INDEX teams_captain_token;
ALTER TABLE teams DROP COLUMN captain_token;

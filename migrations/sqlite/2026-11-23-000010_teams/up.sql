-- Team events: a captain's secret link per team (the referee can renew it),
-- and the referee's mark that a board has started, after which the player
-- on it can no longer be substituted (OGR 10.3.1).
ALTER TABLE teams ADD COLUMN captain_token TEXT;
CREATE UNIQUE INDEX teams_captain_token ON teams (captain_token);
ALTER TABLE pairings ADD COLUMN started BOOLEAN NOT NULL DEFAULT FALSE;

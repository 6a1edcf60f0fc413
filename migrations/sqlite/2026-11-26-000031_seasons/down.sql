DROP TABLE season_events;
DROP TABLE seasons;

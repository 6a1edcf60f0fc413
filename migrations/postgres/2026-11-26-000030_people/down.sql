DROP INDEX pairings_first_player;
DROP INDEX pairings_second_player;
DROP INDEX players_tournament_person;
ALTER TABLE rounds DROP COLUMN played_on;
DROP TABLE merges;
ALTER TABLE players DROP COLUMN person_id;
DROP TABLE people;

DROP INDEX seasons_name;

DROP TABLE recorded_plies;

DROP TABLE requested_byes;

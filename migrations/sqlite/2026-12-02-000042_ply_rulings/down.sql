DROP TABLE ply_rulings;

DROP TABLE origin_people;

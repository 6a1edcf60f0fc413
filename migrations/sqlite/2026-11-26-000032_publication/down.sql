DROP TABLE publications;
ALTER TABLE users DROP COLUMN may_publish;
DROP TABLE published;

DROP TABLE idempotent_answers;

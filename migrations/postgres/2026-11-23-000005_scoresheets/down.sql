DROP TABLE rulings;
DROP TABLE scoresheets;

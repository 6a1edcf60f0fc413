DROP TABLE live_sent;

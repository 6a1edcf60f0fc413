-- When the sender last tried the target: with the failures in a row, it
-- gives the time of the next try, and a referee's "Send now" clears both.
ALTER TABLE publications ADD COLUMN last_attempt_at TIMESTAMP;

ALTER TABLE tournaments RENAME COLUMN rules TO rule_set;

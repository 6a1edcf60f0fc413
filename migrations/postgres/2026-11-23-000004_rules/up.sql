-- One spelling for the rule set everywhere: the API, the command line,
-- forms and this column all say "rules".
ALTER TABLE tournaments RENAME COLUMN rule_set TO rules;

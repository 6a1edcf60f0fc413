-- What an audit entry is about besides its entity, as values: the round's
-- number and the players' ids, as JSON. Entries written before said the
-- round in their text ("round 3: 4 pairings") and a swap's players as
-- "players 12 and 40"; both are read once here, so nothing reads text
-- back afterwards.
ALTER TABLE audit_entries ADD COLUMN detail TEXT;
UPDATE audit_entries
   SET detail = '{"round":' || substring(coalesce(new_value, old_value) from '^round ([0-9]+)') || '}'
 WHERE coalesce(new_value, old_value) ~ '^round [0-9]+';
UPDATE audit_entries
   SET detail = '{"round":' || (SELECT number FROM rounds WHERE rounds.id = audit_entries.entity_id) || '}'
 WHERE detail IS NULL AND entity = 'round' AND action <> 'swap'
   AND EXISTS (SELECT 1 FROM rounds WHERE rounds.id = audit_entries.entity_id);
UPDATE audit_entries
   SET detail = '{' || coalesce('"round":' || (SELECT number FROM rounds WHERE rounds.id = audit_entries.entity_id) || ',', '')
             || '"players":['
             || substring(old_value from '^players ([0-9]+) and ') || ','
             || substring(old_value from ' and ([0-9]+)$') || ']}',
       old_value = NULL
 WHERE action = 'swap' AND old_value ~ '^players [0-9]+ and [0-9]+$';

UPDATE audit_entries
   SET old_value = 'players ' || json_extract(detail, '$.players[0]') || ' and ' || json_extract(detail, '$.players[1]')
 WHERE action = 'swap' AND json_extract(detail, '$.players[1]') IS NOT NULL;
ALTER TABLE audit_entries DROP COLUMN detail;

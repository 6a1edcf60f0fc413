UPDATE audit_entries
   SET old_value = 'players ' || (detail::json -> 'players' ->> 0) || ' and ' || (detail::json -> 'players' ->> 1)
 WHERE action = 'swap' AND (detail::json -> 'players' ->> 1) IS NOT NULL;
ALTER TABLE audit_entries DROP COLUMN detail;

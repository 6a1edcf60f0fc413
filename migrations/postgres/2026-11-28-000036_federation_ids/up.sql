-- Federation ids have one spelling, trimmed and upper-case, on every way
-- in (roster::federation_id_spelling). Existing ids take it, except where
-- two people would then share one: both are left as they were, and the
-- data-health page lists them for an admin to merge or correct.
UPDATE people SET federation_id = UPPER(TRIM(federation_id))
WHERE federation_id IS NOT NULL
  AND federation_id <> UPPER(TRIM(federation_id))
  AND NOT EXISTS (
    SELECT 1 FROM people other
    WHERE other.id <> people.id
      AND other.federation_id IS NOT NULL
      AND UPPER(TRIM(other.federation_id)) = UPPER(TRIM(people.federation_id))
  );
UPDATE people SET federation_id = NULL WHERE federation_id = '';
UPDATE players SET federation_id = UPPER(TRIM(federation_id))
WHERE federation_id <> UPPER(TRIM(federation_id));

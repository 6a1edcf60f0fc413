-- The spelling is kept: the old case of each id is not recorded.
SELECT 1;

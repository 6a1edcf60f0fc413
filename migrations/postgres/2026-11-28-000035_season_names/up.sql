-- Season names are unique (docs/ratings.md, "Seasons"). Seasons stored
-- before with a name another, older season has keep it with their number
-- after it, "Free State Grand Prix (7)", so that both stay recognisable and
-- every name is one season's from now on.
UPDATE seasons SET name = name || ' (' || id || ')'
WHERE EXISTS (SELECT 1 FROM seasons AS older WHERE older.name = seasons.name AND older.id < seasons.id);

CREATE UNIQUE INDEX seasons_name ON seasons (name);

-- A venue's person who has no federation id, as a published copy names
-- them: the venue's own id for them, within the origin (the id the venue
-- gave the event), and the person of this registry they are. Each new
-- revision of the copy links its entries to the same person again.
CREATE TABLE origin_people (
    id SERIAL PRIMARY KEY,
    origin_id TEXT NOT NULL,
    venue_person INTEGER NOT NULL,
    person_id INTEGER NOT NULL REFERENCES people (id),
    UNIQUE (origin_id, venue_person)
);

-- What a venue's publication target has of each game recorded at the
-- board: the game's live counter when its records were last taken there.
-- The sender sends a game's records again whenever its counter moves
-- past this, so plies reach the federation's live boards as they come,
-- without the event file being sent again for each.
CREATE TABLE live_sent (
    publication_id INTEGER NOT NULL REFERENCES publications (id) ON DELETE CASCADE,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    PRIMARY KEY (publication_id, game_id)
);

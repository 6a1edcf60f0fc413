-- The first answer to a player's write sent with an Idempotency-Key, kept
-- 24 hours so that the same write sent again (a phone that lost the
-- answer, an offline queue sending twice) gets that answer instead of
-- being done again. `link` is a digest of the personal link's key, never
-- the key; `request` a digest of the method, path and body.
CREATE TABLE idempotent_answers (
    link TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    request TEXT NOT NULL,
    status INTEGER NOT NULL,
    content_type TEXT,
    location TEXT,
    body TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (link, idempotency_key)
);
CREATE INDEX idempotent_answers_created ON idempotent_answers (created_at);

-- Kraal foundation schema. Same tables, keys and meaning on SQLite and PostgreSQL.
CREATE TABLE settings (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);

CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    name TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL CHECK (role IN ('admin', 'referee')),
    password_hash TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);

CREATE TABLE api_tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    label TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP,
    revoked_at TIMESTAMP
);

CREATE TABLE login_failures (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    name TEXT NOT NULL,
    at TIMESTAMP NOT NULL
);
CREATE INDEX login_failures_name_at ON login_failures (name, at);

CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    name TEXT NOT NULL,
    venue TEXT NOT NULL DEFAULT '',
    starts_on DATE,
    ends_on DATE,
    system TEXT NOT NULL CHECK (system IN ('swiss', 'round_robin', 'knockout', 'team_league', 'team_swiss')),
    rule_set TEXT NOT NULL CHECK (rule_set IN ('official', 'gar')),
    games_per_pairing INTEGER NOT NULL CHECK (games_per_pairing IN (2, 6)),
    rounds INTEGER NOT NULL CHECK (rounds >= 1),
    ranking TEXT NOT NULL CHECK (ranking IN ('game_points', 'match_points')),
    tiebreaks TEXT NOT NULL,
    bye_value TEXT NOT NULL DEFAULT 'win' CHECK (bye_value IN ('win', 'draw', 'none')),
    created_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE tournament_referees (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (tournament_id, user_id)
);

CREATE TABLE players (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    club TEXT NOT NULL DEFAULT '',
    rating INTEGER,
    seed INTEGER,
    federation_id TEXT NOT NULL DEFAULT '',
    withdrawn_from_round INTEGER,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX players_tournament ON players (tournament_id);

CREATE TABLE relations (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_a INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    player_b INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    CHECK (player_a < player_b),
    UNIQUE (player_a, player_b)
);

CREATE TABLE forbidden_pairs (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_a INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    player_b INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    from_round INTEGER,
    to_round INTEGER,
    waived BOOLEAN NOT NULL DEFAULT FALSE,
    note TEXT NOT NULL DEFAULT '',
    created_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL,
    CHECK (player_a < player_b)
);

CREATE TABLE teams (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    club TEXT NOT NULL DEFAULT '',
    UNIQUE (tournament_id, name)
);

CREATE TABLE team_members (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    team_id INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    board INTEGER,
    substitute BOOLEAN NOT NULL DEFAULT FALSE,
    UNIQUE (team_id, player_id)
);

CREATE TABLE rounds (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('draft', 'published')),
    explanation TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL,
    published_at TIMESTAMP,
    UNIQUE (tournament_id, number)
);

CREATE TABLE pairings (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    round_id INTEGER NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    table_no INTEGER NOT NULL,
    first_player_id INTEGER REFERENCES players (id),
    second_player_id INTEGER REFERENCES players (id),
    first_team_id INTEGER REFERENCES teams (id),
    second_team_id INTEGER REFERENCES teams (id),
    team_pairing_id INTEGER REFERENCES pairings (id) ON DELETE CASCADE,
    board INTEGER,
    bye TEXT CHECK (bye IN ('allocated', 'half', 'zero', 'forfeit')),
    explanation TEXT NOT NULL DEFAULT ''
);
CREATE INDEX pairings_round ON pairings (round_id);

CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    pairing_id INTEGER NOT NULL REFERENCES pairings (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    starter_player_id INTEGER REFERENCES players (id),
    result TEXT CHECK (result IN ('1-0', '0-1', '1/2-1/2', '+-', '-+', '--', 'np')),
    tiebreak BOOLEAN NOT NULL DEFAULT FALSE,
    scoresheet TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    updated_at TIMESTAMP,
    updated_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    UNIQUE (pairing_id, number)
);

CREATE TABLE lineups (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    round_id INTEGER NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    team_id INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    board INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (id),
    replaces_player_id INTEGER REFERENCES players (id),
    UNIQUE (round_id, team_id, board)
);

CREATE TABLE audit_entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    tournament_id INTEGER REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    at TIMESTAMP NOT NULL,
    action TEXT NOT NULL,
    entity TEXT NOT NULL,
    entity_id INTEGER,
    old_value TEXT,
    new_value TEXT
);
CREATE INDEX audit_entries_tournament ON audit_entries (tournament_id, at);

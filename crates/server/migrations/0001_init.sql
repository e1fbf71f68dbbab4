-- The Plateau server's tables. Portable SQL (SQLite and PostgreSQL): TEXT and
-- BIGINT columns, no AUTOINCREMENT, no engine-specific types.

CREATE TABLE games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    variant TEXT,
    options TEXT NOT NULL,
    seed BIGINT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    termination TEXT,
    ply BIGINT NOT NULL,
    rematch_of TEXT,
    rematch TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE INDEX games_by_status ON games (status, updated_at, id);

CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    player TEXT,
    name TEXT,
    token_hash TEXT,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games (id),
    version BIGINT NOT NULL,
    kind TEXT NOT NULL,
    seat INTEGER,
    data TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, version)
);

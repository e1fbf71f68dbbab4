-- Accounts, their login sessions and their personal access tokens. Portable
-- SQL, as 0001: TEXT and BIGINT columns. Secrets are stored only as hashes:
-- the password as an Argon2id PHC string, session ids and tokens as SHA-256.

CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE INDEX sessions_by_account ON sessions (account_id);
CREATE INDEX sessions_by_expiry ON sessions (expires_at);

CREATE TABLE access_tokens (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    label TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL
);

CREATE INDEX access_tokens_by_account ON access_tokens (account_id, created_at);

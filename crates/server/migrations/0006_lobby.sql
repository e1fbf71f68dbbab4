-- The lobby (issue 16): seeks and challenges, shared by every instance on one
-- PostgreSQL database, which keeps its copy in memory and reads these tables
-- again on each `NOTIFY plateau_lobby`. Created on SQLite too (the migrations
-- are the same), where the single instance keeps its lobby in memory only.
-- Portable SQL, as 0001: TEXT and BIGINT columns; JSON as TEXT.
--
-- `seq` orders seeks and challenges as they were posted (one more than the
-- greatest, under the lobby's advisory lock). Times are in ms since 1970:
-- `created_at` and `expires_at` by the posting instance's clock (as clients
-- see them), `alive_until` and `changed_at` by the database's.

CREATE TABLE lobby_seeks (
    id TEXT PRIMARY KEY,
    seq BIGINT NOT NULL,
    -- What the owner's caps count by: 'account:ID', or 'addr:IP' for guests.
    owner_key TEXT NOT NULL,
    -- JSON: {"account": {id, name, name_key, created_at}} or
    -- {"guest": {name, token_hash}} (the guest's token's SHA-256 only).
    owner TEXT NOT NULL,
    -- The poster's client address (IPv6: its /64).
    addr TEXT NOT NULL,
    game TEXT NOT NULL,
    -- JSON of the clock, or NULL: one seek per owner, game and clock.
    clock TEXT,
    -- JSON: game, variant, options, clock, rated.
    terms TEXT NOT NULL,
    rating_min BIGINT,
    rating_max BIGINT,
    -- JSON of the owner's rating when posted (accounts).
    rating TEXT,
    created_at BIGINT NOT NULL,
    -- 'open', 'taken' (its game being made) or 'matched'.
    state TEXT NOT NULL,
    alive_until BIGINT NOT NULL,
    changed_at BIGINT NOT NULL,
    -- Once matched (kept 10 minutes): the game, the owner's seat and token.
    game_id TEXT,
    seat BIGINT,
    seat_token TEXT
);

CREATE INDEX lobby_seeks_seq ON lobby_seeks (seq);

CREATE TABLE lobby_challenges (
    id TEXT PRIMARY KEY,
    seq BIGINT NOT NULL,
    from_id TEXT NOT NULL,
    to_id TEXT NOT NULL,
    -- JSON: {id, name, name_key, created_at} of each account.
    from_member TEXT NOT NULL,
    to_member TEXT NOT NULL,
    terms TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    -- 'open', 'taken' (its game being made), 'accepted', 'declined',
    -- 'cancelled' or 'expired' (the ended kept 10 minutes).
    status TEXT NOT NULL,
    changed_at BIGINT NOT NULL,
    -- Once accepted: the game, the challenger's seat and each party's token.
    game_id TEXT,
    from_seat BIGINT,
    from_token TEXT,
    to_token TEXT
);

CREATE INDEX lobby_challenges_seq ON lobby_challenges (seq);

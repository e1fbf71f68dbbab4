-- Leases (issue 16): which instance owns each game in memory, when several
-- instances share one PostgreSQL database. Created on SQLite too (the
-- migrations are the same), where a single instance never uses them.
--
-- `instances`: one row per running instance, its heartbeat: `expires_at` (ms
-- since 1970 by the database's clock) is pushed forward by the instance every
-- third of its lease. An instance whose row has expired (or is gone) holds
-- nothing.
--
-- `leases`: the owner of a game and the epoch of its taking. `epoch` only
-- grows: every taking adds one, and every write of the game's events is made
-- on condition that the writer's (owner, epoch) is still the row's (the
-- fencing token). `state`: `held` (by `owner`, while its heartbeat lasts),
-- `parked` (let go when the game left the owner's memory: any instance may
-- take it when asked for it) or `handed` (let go by a stopping instance: the
-- others take it over at once).

CREATE TABLE instances (
    id TEXT PRIMARY KEY,
    expires_at BIGINT NOT NULL
);

CREATE TABLE leases (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    owner TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    state TEXT NOT NULL
);

CREATE INDEX leases_by_state ON leases (state, owner);

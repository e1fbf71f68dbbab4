-- Leases (issue 16): which instance owns each live game, when several
-- instances share one PostgreSQL database. Created on SQLite too (the
-- migrations are the same), where a single instance never uses it.
--
-- `epoch` only grows: every taking of a game adds one, and every write of the
-- game's events is made on condition that the writer's (owner, epoch) is
-- still the row's (the fencing token). `expires_at` is in ms since 1970 by
-- the database's clock: 0 when the owner let the game go (parked, out of
-- memory); renewed by the owner while it holds the game.

CREATE TABLE leases (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    owner TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE INDEX leases_owner ON leases (owner);
CREATE INDEX leases_expires ON leases (expires_at);

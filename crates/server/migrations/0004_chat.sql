-- The players' chat of each game (issue 15), stored with the game so that it
-- survives a restart. Portable SQL, as 0001: TEXT and BIGINT columns. `n`
-- numbers a game's messages from 1. The spectators' room is not stored.

CREATE TABLE chat (
    game_id TEXT NOT NULL REFERENCES games (id),
    n BIGINT NOT NULL,
    seat BIGINT,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, n)
);

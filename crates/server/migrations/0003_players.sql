-- Players (issue 15): rated games and time controls, seats held by accounts,
-- each seat's outcome once a game is over, ratings per account and game and
-- their history, and the accounts of the computer levels. Portable SQL, as
-- 0001: TEXT, BIGINT and DOUBLE PRECISION columns.

ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
-- The time control as JSON ({"initial","increment"} or {"days"}), or NULL.
ALTER TABLE games ADD COLUMN clock TEXT;

ALTER TABLE seats ADD COLUMN account_id TEXT REFERENCES accounts (id);
-- 'win', 'draw' or 'loss' once the game is finished with an outcome.
ALTER TABLE seats ADD COLUMN outcome TEXT;

CREATE INDEX seats_by_account ON seats (account_id, game_id);

CREATE TABLE ratings (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    last_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, game)
);

CREATE INDEX ratings_by_game ON ratings (game, rating);

CREATE TABLE rating_history (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    game TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games (id),
    at BIGINT NOT NULL,
    before_rating DOUBLE PRECISION NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account_id, game_id)
);

CREATE INDEX rating_history_by_account ON rating_history (account_id, game, at);

-- The computer levels are rated players of their own. Their password is no
-- PHC string: nobody can log in as them, and sign-up refuses the names.
INSERT INTO accounts (id, name, name_key, password, created_at) VALUES
    ('computer-1', 'computer-1', 'computer-1', '!', 0),
    ('computer-2', 'computer-2', 'computer-2', '!', 0),
    ('computer-3', 'computer-3', 'computer-3', '!', 0),
    ('computer-4', 'computer-4', 'computer-4', '!', 0),
    ('computer-5', 'computer-5', 'computer-5', '!', 0),
    ('computer-6', 'computer-6', 'computer-6', '!', 0);

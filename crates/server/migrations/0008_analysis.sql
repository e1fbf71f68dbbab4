-- Analysis and learning (issue 19): the computer analysis of finished games,
-- and puzzles' ratings and attempts. Portable SQL, as 0001: TEXT, BIGINT and
-- DOUBLE PRECISION columns; JSON as TEXT.

-- One analysis per game, run once and served to everyone. `status`:
-- 'queued' (waiting), 'running' (claimed by the instance `claimed_by`, whose
-- heartbeat in `instances` must last, else another instance takes it over;
-- alone on SQLite, a restart takes it again), 'done' (`analysis` holds the
-- JSON of plateau_analysis::Analysis) or 'failed' (`error`). `client` is who
-- asked (an account, or a guest's hashed address), for the cap per client.
-- `evals` holds the positions judged so far (JSON), so that an analysis
-- taken over resumes where it stopped.
CREATE TABLE analyses (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    status TEXT NOT NULL,
    client TEXT NOT NULL,
    spec TEXT NOT NULL,
    requested_at BIGINT NOT NULL,
    claimed_by TEXT,
    done BIGINT NOT NULL DEFAULT 0,
    total BIGINT NOT NULL DEFAULT 0,
    evals TEXT,
    analysis TEXT,
    error TEXT,
    updated_at BIGINT NOT NULL
);

CREATE INDEX analyses_by_status ON analyses (status, requested_at);
CREATE INDEX analyses_by_client ON analyses (client, status);

-- The built-in puzzles' ratings (a puzzle is a rated player: solving it is
-- a win against it), with their first attempts and solves. A puzzle never
-- tried has no row (it is rated as new).
CREATE TABLE puzzle_ratings (
    puzzle_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    last_at BIGINT NOT NULL,
    attempts BIGINT NOT NULL,
    solves BIGINT NOT NULL
);

CREATE INDEX puzzle_ratings_by_game ON puzzle_ratings (game, rating);

-- Each client's puzzle rating per game (`client` as in `analyses`).
CREATE TABLE puzzle_players (
    client TEXT NOT NULL,
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    last_at BIGINT NOT NULL,
    PRIMARY KEY (client, game)
);

-- A client's first attempt at a puzzle, the one that counts: solved (1) or
-- failed (0), with a hint (1) or not. Later attempts are practice and are
-- not stored.
CREATE TABLE puzzle_attempts (
    client TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    game TEXT NOT NULL,
    solved BIGINT NOT NULL,
    hinted BIGINT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (client, puzzle_id)
);

CREATE INDEX puzzle_attempts_by_client ON puzzle_attempts (client, game);

-- Bot accounts (issue 17): an account marked a bot plays only through
-- challenges, through the API, driven by a program with the account's
-- personal access token. Being a bot is for good (no column goes back).
-- Portable SQL, as 0001: TEXT and BIGINT columns; JSON as TEXT.

-- 1 for a bot, 0 for a person (and the computer levels).
ALTER TABLE accounts ADD COLUMN bot BIGINT NOT NULL DEFAULT 0;
-- A bot's settings as JSON: {"games", "rated", "casual", "clocks",
-- "description"} (see docs/server.md, *Bots*); NULL for a person.
ALTER TABLE accounts ADD COLUMN bot_settings TEXT;
-- When the account became a bot (ms since 1970).
ALTER TABLE accounts ADD COLUMN bot_since BIGINT;
-- When an instance last saw one of the bot's lobby sockets open (ms since
-- 1970; renewed every 20 s while one is open, NULL once the last one on
-- an instance closed): a bot is online when seen in the last 60 s.
ALTER TABLE accounts ADD COLUMN bot_seen_at BIGINT;

CREATE INDEX accounts_by_bot ON accounts (bot, name_key);

//! What is stored of bots (migration 0007): the flag and the settings of bot
//! accounts, when each was last seen with a lobby socket open, and what the
//! list of bots shows (ratings, games played). The same statements on both
//! backends: written with `?` and numbered for PostgreSQL by [`numbered`].
//! The settings are JSON text, checked by `crate::bots` before they are
//! stored.

use super::players::{StoredRating, stored};
use super::postgres::PgStore;
use super::{BoxFut, Cols, SqliteStore, StoreError};

/// Why an account did not become a bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MadeBot {
    /// It is one now.
    Done,
    /// It was one already.
    AlreadyBot,
    /// It holds or held a seat in a rated game that was not aborted.
    RatedGames,
    /// There is no such account.
    NoAccount,
}

/// A bot as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct BotRow {
    /// The account's id.
    pub account_id: String,
    /// Its name.
    pub name: String,
    /// Its settings (JSON text).
    pub settings: Option<String>,
    /// When it became a bot (ms since 1970).
    pub since: Option<i64>,
    /// When an instance last saw a lobby socket of it open.
    pub seen_at: Option<i64>,
    /// Its finished games.
    pub played: u64,
}

/// A rating of a bot: (account id, game, rating).
pub type BotRating = (String, String, StoredRating);

/// What the server keeps of bots (a part of [`super::Storage`]).
pub trait BotStore {
    /// Make the account a bot with these settings, unless it is one, or has
    /// a seat in a rated game (not aborted).
    fn make_bot<'a>(
        &'a self,
        account_id: &'a str,
        settings: &'a str,
        at: i64,
    ) -> BoxFut<'a, Result<MadeBot, StoreError>>;
    /// Replace a bot's settings; `false` if the account is not a bot.
    fn set_bot_settings<'a>(&'a self, account_id: &'a str, settings: &'a str) -> BoxFut<'a, Result<bool, StoreError>>;
    /// A bot, or `None` if the account is not one.
    fn bot<'a>(&'a self, account_id: &'a str) -> BoxFut<'a, Result<Option<BotRow>, StoreError>>;
    /// The bots, the most recently seen first (then by name), at most `limit`.
    fn bots(&self, limit: u32) -> BoxFut<'_, Result<Vec<BotRow>, StoreError>>;
    /// Every rating of every bot: (account id, game, rating).
    fn bot_ratings(&self) -> BoxFut<'_, Result<Vec<BotRating>, StoreError>>;
    /// A lobby socket of the bot is open (`Some(now)`), or its last one on
    /// this instance closed (`None`).
    fn bot_seen<'a>(&'a self, account_id: &'a str, at: Option<i64>) -> BoxFut<'a, Result<(), StoreError>>;
}

/// A statement with `?` placeholders, numbered for PostgreSQL (`$1`…). The
/// statements here have no `?` inside a string.
pub(super) fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut n = 0;
    for c in sql.chars() {
        if c == '?' {
            n += 1;
            out.push_str(&format!("${n}"));
        } else {
            out.push(c);
        }
    }
    out
}

const MAKE: &str = "UPDATE accounts SET bot = 1, bot_settings = ?, bot_since = ? WHERE id = ? AND bot = 0 \
     AND NOT EXISTS (SELECT 1 FROM seats s JOIN games g ON g.id = s.game_id \
                     WHERE s.account_id = accounts.id AND g.rated = 1 AND g.status <> 'aborted')";
const WHY_NOT: &str = "SELECT a.bot AS bot, (SELECT COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id \
     WHERE s.account_id = a.id AND g.rated = 1 AND g.status <> 'aborted') AS rated FROM accounts a WHERE a.id = ?";
const SETTINGS: &str = "UPDATE accounts SET bot_settings = ? WHERE id = ? AND bot = 1";
const BOT_COLUMNS: &str = "SELECT a.id AS id, a.name AS name, a.bot_settings AS settings, a.bot_since AS since, \
     a.bot_seen_at AS seen_at, (SELECT COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id \
     WHERE s.account_id = a.id AND g.status = 'finished') AS played FROM accounts a";
const RATINGS: &str = "SELECT r.account_id AS account_id, r.game AS game, r.rating AS rating, \
     r.deviation AS deviation, r.volatility AS volatility, r.games AS games, r.last_at AS last_at \
     FROM ratings r JOIN accounts a ON a.id = r.account_id WHERE a.bot = 1 ORDER BY r.account_id, r.game";
const SEEN: &str = "UPDATE accounts SET bot_seen_at = ? WHERE id = ? AND bot = 1";

fn one() -> String {
    format!("{BOT_COLUMNS} WHERE a.id = ? AND a.bot = 1")
}

fn all() -> String {
    format!("{BOT_COLUMNS} WHERE a.bot = 1 ORDER BY COALESCE(a.bot_seen_at, 0) DESC, a.name_key LIMIT ?")
}

fn bot_row(r: &impl Cols) -> Result<BotRow, StoreError> {
    Ok(BotRow {
        account_id: r.text("id")?,
        name: r.text("name")?,
        settings: r.opt_text("settings")?,
        since: r.opt_int("since")?,
        seen_at: r.opt_int("seen_at")?,
        played: r.int("played")?.max(0) as u64,
    })
}

fn why_not(r: &impl Cols) -> Result<MadeBot, StoreError> {
    Ok(if r.int("bot")? != 0 {
        MadeBot::AlreadyBot
    } else if r.int("rated")? > 0 {
        MadeBot::RatedGames
    } else {
        // Changed between the two statements: try again.
        MadeBot::AlreadyBot
    })
}

fn rating_row(r: &impl Cols) -> Result<BotRating, StoreError> {
    Ok((r.text("account_id")?, r.text("game")?, stored(r)?))
}

impl BotStore for SqliteStore {
    fn make_bot<'a>(
        &'a self,
        account_id: &'a str,
        settings: &'a str,
        at: i64,
    ) -> BoxFut<'a, Result<MadeBot, StoreError>> {
        Box::pin(async move {
            let mut conn = self.writer.lock().await;
            let r = sqlx::query(MAKE).bind(settings).bind(at).bind(account_id).execute(&mut *conn).await?;
            if r.rows_affected() == 1 {
                return Ok(MadeBot::Done);
            }
            match sqlx::query(WHY_NOT).bind(account_id).fetch_optional(&mut *conn).await? {
                Some(r) => why_not(&r),
                None => Ok(MadeBot::NoAccount),
            }
        })
    }

    fn set_bot_settings<'a>(&'a self, account_id: &'a str, settings: &'a str) -> BoxFut<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let mut conn = self.writer.lock().await;
            let r = sqlx::query(SETTINGS).bind(settings).bind(account_id).execute(&mut *conn).await?;
            Ok(r.rows_affected() == 1)
        })
    }

    fn bot<'a>(&'a self, account_id: &'a str) -> BoxFut<'a, Result<Option<BotRow>, StoreError>> {
        Box::pin(async move {
            let r = sqlx::query(&one()).bind(account_id).fetch_optional(&self.pool).await?;
            r.as_ref().map(bot_row).transpose()
        })
    }

    fn bots(&self, limit: u32) -> BoxFut<'_, Result<Vec<BotRow>, StoreError>> {
        Box::pin(async move {
            let rows = sqlx::query(&all()).bind(limit as i64).fetch_all(&self.pool).await?;
            rows.iter().map(bot_row).collect()
        })
    }

    fn bot_ratings(&self) -> BoxFut<'_, Result<Vec<BotRating>, StoreError>> {
        Box::pin(async move {
            let rows = sqlx::query(RATINGS).fetch_all(&self.pool).await?;
            rows.iter().map(rating_row).collect()
        })
    }

    fn bot_seen<'a>(&'a self, account_id: &'a str, at: Option<i64>) -> BoxFut<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let mut conn = self.writer.lock().await;
            sqlx::query(SEEN).bind(at).bind(account_id).execute(&mut *conn).await?;
            Ok(())
        })
    }
}

impl BotStore for PgStore {
    fn make_bot<'a>(
        &'a self,
        account_id: &'a str,
        settings: &'a str,
        at: i64,
    ) -> BoxFut<'a, Result<MadeBot, StoreError>> {
        Box::pin(async move {
            let _w = self.writes.lock().await;
            let r = sqlx::query(&numbered(MAKE)).bind(settings).bind(at).bind(account_id).execute(&self.pool).await?;
            if r.rows_affected() == 1 {
                return Ok(MadeBot::Done);
            }
            match sqlx::query(&numbered(WHY_NOT)).bind(account_id).fetch_optional(&self.pool).await? {
                Some(r) => why_not(&r),
                None => Ok(MadeBot::NoAccount),
            }
        })
    }

    fn set_bot_settings<'a>(&'a self, account_id: &'a str, settings: &'a str) -> BoxFut<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let _w = self.writes.lock().await;
            let r = sqlx::query(&numbered(SETTINGS)).bind(settings).bind(account_id).execute(&self.pool).await?;
            Ok(r.rows_affected() == 1)
        })
    }

    fn bot<'a>(&'a self, account_id: &'a str) -> BoxFut<'a, Result<Option<BotRow>, StoreError>> {
        Box::pin(async move {
            let r = sqlx::query(&numbered(&one())).bind(account_id).fetch_optional(&self.pool).await?;
            r.as_ref().map(bot_row).transpose()
        })
    }

    fn bots(&self, limit: u32) -> BoxFut<'_, Result<Vec<BotRow>, StoreError>> {
        Box::pin(async move {
            let rows = sqlx::query(&numbered(&all())).bind(limit as i64).fetch_all(&self.pool).await?;
            rows.iter().map(bot_row).collect()
        })
    }

    fn bot_ratings(&self) -> BoxFut<'_, Result<Vec<BotRating>, StoreError>> {
        Box::pin(async move {
            let rows = sqlx::query(RATINGS).fetch_all(&self.pool).await?;
            rows.iter().map(rating_row).collect()
        })
    }

    fn bot_seen<'a>(&'a self, account_id: &'a str, at: Option<i64>) -> BoxFut<'a, Result<(), StoreError>> {
        Box::pin(async move {
            // No check-then-write: not under the write lock.
            sqlx::query(&numbered(SEEN)).bind(at).bind(account_id).execute(&self.pool).await?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn placeholders_are_numbered() {
        assert_eq!(super::numbered("a = ? AND b = ? LIMIT ?"), "a = $1 AND b = $2 LIMIT $3");
    }
}

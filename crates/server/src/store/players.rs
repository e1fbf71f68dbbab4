//! What is stored of players: ratings per account and game, their history,
//! the games an account holds a seat in, and guests' games claimed.

use plateau_rating::Rating;
use sqlx::{QueryBuilder, Row, Sqlite};

use super::{BoxFut, Cols, GAME_COLUMNS, GameRow, MOVES_SQL, SeatRow, SqliteStore, StoreError, game_row};

/// A rated game's new rating for one account (written with the result).
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    /// The account.
    pub account_id: String,
    /// The game's name (`abalone`): one rating per game, all variants.
    pub game: String,
    /// The game played.
    pub game_id: String,
    /// When.
    pub at: i64,
    /// The rating before (as stored, before widening for inactivity).
    pub before: f64,
    /// The new rating.
    pub after: Rating,
}

/// A stored rating and the time of its last rated game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StoredRating {
    /// The rating as of its last game.
    pub rating: Rating,
    /// When that game ended (ms since 1970).
    pub last_at: i64,
}

/// One point of a rating's history.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryRow {
    /// The game's name.
    pub game: String,
    /// The game played.
    pub game_id: String,
    /// When.
    pub at: i64,
    /// The rating before and after.
    pub before: f64,
    /// After.
    pub rating: f64,
    /// The deviation after.
    pub deviation: f64,
}

/// A game an account holds a seat in.
#[derive(Clone, Debug)]
pub struct AccountGame {
    /// The game.
    pub game: GameRow,
    /// All its seats.
    pub seats: Vec<SeatRow>,
    /// The account's seat.
    pub seat: usize,
    /// Moves played.
    pub moves: u64,
    /// The account's rating change in it, if rated and over.
    pub rating_change: Option<f64>,
    /// The account's outcome (`win`, `draw`, `loss`), once over.
    pub outcome: Option<String>,
}

/// How many finished games of one game an account ended with one outcome:
/// (game, outcome, count).
pub type OutcomeCount = (String, String, u64);

/// A leaderboard line.
#[derive(Clone, Debug)]
pub struct Leader {
    /// The account's name.
    pub name: String,
    /// Its id.
    pub account_id: String,
    /// Its stored rating.
    pub rating: StoredRating,
}

/// What the server keeps of players (a part of [`super::Storage`]).
pub trait PlayerStore {
    /// The stored ratings of these accounts for `game` (missing: never rated).
    fn ratings<'a>(
        &'a self,
        game: &'a str,
        accounts: &'a [String],
    ) -> BoxFut<'a, Result<Vec<(String, StoredRating)>, StoreError>>;
    /// Every rating of an account, by game.
    fn ratings_of<'a>(&'a self, account_id: &'a str) -> BoxFut<'a, Result<Vec<(String, StoredRating)>, StoreError>>;
    /// An account's rating history, oldest first, at most `per_game` points per game (the latest).
    fn history<'a>(&'a self, account_id: &'a str, per_game: u32) -> BoxFut<'a, Result<Vec<HistoryRow>, StoreError>>;
    /// Counts of each outcome of an account's finished games, by game.
    fn results<'a>(&'a self, account_id: &'a str) -> BoxFut<'a, Result<Vec<OutcomeCount>, StoreError>>;
    /// An account's games: the live and open ones (all of them) when `live`,
    /// else its most recent finished ones (at most `limit`).
    fn games_of<'a>(
        &'a self,
        account_id: &'a str,
        live: bool,
        limit: u32,
    ) -> BoxFut<'a, Result<Vec<AccountGame>, StoreError>>;
    /// The best stored ratings of a game with a deviation of at most `max_rd`.
    fn leaders<'a>(&'a self, game: &'a str, max_rd: f64, limit: u32) -> BoxFut<'a, Result<Vec<Leader>, StoreError>>;
    /// Give the account the seats these tokens hold in finished, unrated
    /// games where no account holds them (nor any other seat of the game):
    /// the ids of the games claimed.
    fn claim<'a>(
        &'a self,
        account_id: &'a str,
        seats: &'a [(String, String)],
    ) -> BoxFut<'a, Result<Vec<String>, StoreError>>;
}

/// The statements of a [`RatingChange`], in the writer's transaction.
pub(crate) fn push_rate(q: &mut QueryBuilder<Sqlite>, c: &RatingChange) {
    let r = c.after;
    q.push(" INSERT INTO ratings (account_id, game, rating, deviation, volatility, games, last_at) VALUES (");
    q.push_bind(c.account_id.clone()).push(", ").push_bind(c.game.clone()).push(", ");
    q.push_bind(r.rating).push(", ").push_bind(r.deviation).push(", ").push_bind(r.volatility).push(", ");
    q.push_bind(r.games as i64).push(", ").push_bind(c.at);
    q.push(
        ") ON CONFLICT (account_id, game) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, \
         volatility = excluded.volatility, games = excluded.games, last_at = excluded.last_at;",
    );
    q.push(" INSERT INTO rating_history (account_id, game, game_id, at, before_rating, rating, deviation) VALUES (");
    q.push_bind(c.account_id.clone()).push(", ").push_bind(c.game.clone()).push(", ");
    q.push_bind(c.game_id.clone()).push(", ").push_bind(c.at).push(", ").push_bind(c.before).push(", ");
    q.push_bind(r.rating).push(", ").push_bind(r.deviation).push(");");
}

/// A stored rating row (either backend).
pub(crate) fn stored(r: &impl Cols) -> Result<StoredRating, StoreError> {
    Ok(StoredRating {
        rating: Rating {
            rating: r.real("rating")?,
            deviation: r.real("deviation")?,
            volatility: r.real("volatility")?,
            games: r.int("games")?.clamp(0, u32::MAX as i64) as u32,
        },
        last_at: r.int("last_at")?,
    })
}

impl PlayerStore for SqliteStore {
    fn ratings<'a>(
        &'a self,
        game: &'a str,
        accounts: &'a [String],
    ) -> BoxFut<'a, Result<Vec<(String, StoredRating)>, StoreError>> {
        Box::pin(async move {
            if accounts.is_empty() {
                return Ok(Vec::new());
            }
            let mut q: QueryBuilder<Sqlite> = QueryBuilder::new(
                "SELECT account_id, rating, deviation, volatility, games, last_at FROM ratings WHERE game = ",
            );
            q.push_bind(game).push(" AND account_id IN (");
            let mut sep = q.separated(", ");
            for a in accounts {
                sep.push_bind(a.as_str());
            }
            q.push(")");
            let rows = q.build().fetch_all(&self.pool).await?;
            rows.iter().map(|r| Ok((r.try_get("account_id")?, stored(r)?))).collect()
        })
    }

    fn ratings_of<'a>(&'a self, account_id: &'a str) -> BoxFut<'a, Result<Vec<(String, StoredRating)>, StoreError>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT game, rating, deviation, volatility, games, last_at FROM ratings WHERE account_id = ? \
                 ORDER BY game",
            )
            .bind(account_id)
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(|r| Ok((r.try_get("game")?, stored(r)?))).collect()
        })
    }

    fn history<'a>(&'a self, account_id: &'a str, per_game: u32) -> BoxFut<'a, Result<Vec<HistoryRow>, StoreError>> {
        Box::pin(async move {
            // Game by game, the latest points first through the index
            // (account, game, at): the work is bounded however long the
            // history (a computer level's grows without end).
            let games = sqlx::query("SELECT game FROM ratings WHERE account_id = ? ORDER BY game")
                .bind(account_id)
                .fetch_all(&self.pool)
                .await?;
            let mut rows = Vec::new();
            for g in &games {
                let game: String = g.try_get("game")?;
                let mut part = sqlx::query(
                    "SELECT game, game_id, at, before_rating, rating, deviation FROM rating_history \
                     WHERE account_id = ? AND game = ? ORDER BY at DESC, game_id DESC LIMIT ?",
                )
                .bind(account_id)
                .bind(&game)
                .bind(per_game as i64)
                .fetch_all(&self.pool)
                .await?;
                part.reverse();
                rows.extend(part);
            }
            rows.iter()
                .map(|r| {
                    Ok(HistoryRow {
                        game: r.try_get("game")?,
                        game_id: r.try_get("game_id")?,
                        at: r.try_get("at")?,
                        before: r.try_get("before_rating")?,
                        rating: r.try_get("rating")?,
                        deviation: r.try_get("deviation")?,
                    })
                })
                .collect()
        })
    }

    fn results<'a>(&'a self, account_id: &'a str) -> BoxFut<'a, Result<Vec<OutcomeCount>, StoreError>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT g.game AS game, s.outcome AS outcome, COUNT(*) AS n FROM seats s \
                 JOIN games g ON g.id = s.game_id \
                 WHERE s.account_id = ? AND g.status = 'finished' AND s.outcome IS NOT NULL \
                 GROUP BY g.game, s.outcome ORDER BY g.game, s.outcome",
            )
            .bind(account_id)
            .fetch_all(&self.pool)
            .await?;
            rows.iter()
                .map(|r| Ok((r.try_get("game")?, r.try_get("outcome")?, r.try_get::<i64, _>("n")?.max(0) as u64)))
                .collect()
        })
    }

    fn games_of<'a>(
        &'a self,
        account_id: &'a str,
        live: bool,
        limit: u32,
    ) -> BoxFut<'a, Result<Vec<AccountGame>, StoreError>> {
        Box::pin(async move {
            let statuses = if live { "('open', 'live')" } else { "('finished')" };
            let rows = sqlx::query(&format!(
                "SELECT {GAME_COLUMNS}, s.seat AS my_seat, s.outcome AS my_outcome, \
                 {MOVES_SQL} AS moves, \
                 (SELECT h.rating - h.before_rating FROM rating_history h \
                    WHERE h.account_id = s.account_id AND h.game_id = g.id) AS change \
                 FROM seats s JOIN games g ON g.id = s.game_id \
                 WHERE s.account_id = ? AND g.status IN {statuses} \
                 ORDER BY g.updated_at DESC, g.id DESC LIMIT ?"
            ))
            .bind(account_id)
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in &rows {
                out.push(AccountGame {
                    game: game_row(r)?,
                    seats: Vec::new(),
                    seat: r.try_get::<i64, _>("my_seat")?.max(0) as usize,
                    moves: r.try_get::<i64, _>("moves")?.max(0) as u64,
                    rating_change: r.try_get("change")?,
                    outcome: r.try_get("my_outcome")?,
                });
            }
            let ids: Vec<&str> = out.iter().map(|g| g.game.id.as_str()).collect();
            for (id, s) in self.seats_of(&ids).await? {
                if let Some(g) = out.iter_mut().find(|g| g.game.id == id) {
                    g.seats.push(s);
                }
            }
            Ok(out)
        })
    }

    fn leaders<'a>(&'a self, game: &'a str, max_rd: f64, limit: u32) -> BoxFut<'a, Result<Vec<Leader>, StoreError>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT a.name AS name, r.account_id AS account_id, r.rating AS rating, r.deviation AS deviation, \
                 r.volatility AS volatility, r.games AS games, r.last_at AS last_at \
                 FROM ratings r JOIN accounts a ON a.id = r.account_id \
                 WHERE r.game = ? AND r.deviation <= ? ORDER BY r.rating DESC, a.name_key LIMIT ?",
            )
            .bind(game)
            .bind(max_rd)
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(Leader { name: r.try_get("name")?, account_id: r.try_get("account_id")?, rating: stored(r)? })
                })
                .collect()
        })
    }

    fn claim<'a>(
        &'a self,
        account_id: &'a str,
        seats: &'a [(String, String)],
    ) -> BoxFut<'a, Result<Vec<String>, StoreError>> {
        Box::pin(async move {
            use sqlx::Connection;
            let mut conn = self.writer.lock().await;
            let mut tx = conn.begin().await?;
            let mut claimed = Vec::new();
            for (game_id, token_hash) in seats {
                let r = sqlx::query(
                    "UPDATE seats SET account_id = ? WHERE game_id = ? AND token_hash = ? AND kind = 'human' \
                     AND account_id IS NULL \
                     AND NOT EXISTS (SELECT 1 FROM seats o WHERE o.game_id = seats.game_id AND o.account_id = ?) \
                     AND EXISTS (SELECT 1 FROM games g WHERE g.id = seats.game_id AND g.status = 'finished' \
                                 AND g.rated = 0)",
                )
                .bind(account_id)
                .bind(game_id)
                .bind(token_hash)
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
                if r.rows_affected() > 0 {
                    claimed.push(game_id.clone());
                }
            }
            tx.commit().await?;
            Ok(claimed)
        })
    }
}

//! What is stored of analyses and puzzles (migration 0008): the analysis of
//! each finished game asked for, with its queue status and the instance that
//! runs it; the puzzles' ratings, each client's puzzle rating and first
//! attempts. The same statements on both backends (written with `?`,
//! numbered for PostgreSQL), the same code through [`analysis_store!`].
//!
//! Several instances on one PostgreSQL database: an analysis is run by the
//! one instance whose conditional `UPDATE` claimed it (`status` from
//! `queued` to `running`, `claimed_by` its id); another takes it over only
//! when the claimer's heartbeat in `instances` has expired. Every write of
//! progress and of the result is made on condition that the row is still
//! claimed by the writer. The caps on queued analyses are checked under the
//! instance's write lock: two instances asked at the same moment may each
//! let one more in (the cap is then passed by at most one per instance).

use plateau_rating::Rating;

use super::bots::numbered;
use super::postgres::PgStore;
use super::{BoxFut, Cols, SqliteStore, StoreError};

/// An analysis as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisRow {
    /// The game analysed.
    pub game_id: String,
    /// `queued`, `running`, `done` or `failed`.
    pub status: String,
    /// Who asked.
    pub client: String,
    /// The player spec judging the positions.
    pub spec: String,
    /// When it was asked (ms since 1970).
    pub requested_at: i64,
    /// The instance running it.
    pub claimed_by: Option<String>,
    /// Positions judged.
    pub done: u64,
    /// Positions to judge (0 until it starts).
    pub total: u64,
    /// The positions judged so far (JSON).
    pub evals: Option<String>,
    /// The analysis, once done (JSON).
    pub analysis: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
}

/// The answer to an analysis asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum Requested {
    /// Queued now.
    Queued,
    /// It was asked before: as it stands.
    Exists(Box<AnalysisRow>),
    /// The queue is full (in all, or this client's share).
    Busy {
        /// Whether it is the client's share that is full.
        client: bool,
    },
}

/// A puzzle's stored rating and counts.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    /// The puzzle's id.
    pub id: String,
    /// Its rating.
    pub rating: Rating,
    /// First attempts at it.
    pub attempts: u64,
    /// Of those, solved.
    pub solves: u64,
}

/// A first attempt, rated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rated {
    /// The client's puzzle rating after it.
    pub player: Rating,
    /// The puzzle's after it.
    pub puzzle: Rating,
}

/// What the server keeps of analyses and puzzles (a part of [`super::Storage`]).
pub trait AnalysisStore {
    /// Queue the analysis of `game_id` for `client` unless it was asked
    /// before, or `max_total` analyses are waiting or running, or `max_client`
    /// of this client's.
    fn request_analysis<'a>(
        &'a self,
        game_id: &'a str,
        client: &'a str,
        spec: &'a str,
        at: i64,
        caps: (u64, u64),
    ) -> BoxFut<'a, Result<Requested, StoreError>>;
    /// The analysis of a game, if asked.
    fn analysis<'a>(&'a self, game_id: &'a str) -> BoxFut<'a, Result<Option<AnalysisRow>, StoreError>>;
    /// How many queued analyses are ahead of `row`.
    fn analyses_ahead<'a>(&'a self, row: &'a AnalysisRow) -> BoxFut<'a, Result<u64, StoreError>>;
    /// Analyses that instance `me` may take (queued, or running on an
    /// instance whose heartbeat has expired as of `now`, or on `me` itself:
    /// the caller leaves out those it runs), the oldest first,
    /// at most `limit`: (game, client).
    fn analysis_candidates<'a>(
        &'a self,
        me: &'a str,
        now: i64,
        limit: u32,
    ) -> BoxFut<'a, Result<Vec<(String, String)>, StoreError>>;
    /// Claim the analysis of `game_id` for instance `me` (never one `me`
    /// runs): whether it is its own now (nobody else's claim was valid).
    fn claim_analysis<'a>(&'a self, game_id: &'a str, me: &'a str, now: i64) -> BoxFut<'a, Result<bool, StoreError>>;
    /// Record progress of `me`'s analysis: whether `me` still holds it.
    fn analysis_progress<'a>(
        &'a self,
        game_id: &'a str,
        me: &'a str,
        done: u64,
        total: u64,
        evals: &'a str,
        now: i64,
    ) -> BoxFut<'a, Result<bool, StoreError>>;
    /// The end of `me`'s analysis: the analysis (JSON), or why it failed.
    fn finish_analysis<'a>(
        &'a self,
        game_id: &'a str,
        me: &'a str,
        result: Result<&'a str, &'a str>,
        now: i64,
    ) -> BoxFut<'a, Result<bool, StoreError>>;
    /// Give back every analysis `me` runs (it stops): queued again.
    fn release_analyses<'a>(&'a self, me: &'a str, now: i64) -> BoxFut<'a, Result<(), StoreError>>;
    /// The stored puzzles of `game`.
    fn puzzle_rows<'a>(&'a self, game: &'a str) -> BoxFut<'a, Result<Vec<PuzzleRow>, StoreError>>;
    /// A client's puzzle rating in `game` (and when it last changed), if any.
    fn puzzle_player<'a>(
        &'a self,
        client: &'a str,
        game: &'a str,
    ) -> BoxFut<'a, Result<Option<(Rating, i64)>, StoreError>>;
    /// The puzzles of `game` a client has tried.
    fn puzzles_tried<'a>(&'a self, client: &'a str, game: &'a str) -> BoxFut<'a, Result<Vec<String>, StoreError>>;
    /// A client's attempt at a puzzle, decided (`solved`, or not; `hinted`):
    /// if it is the client's first, stored and rated (the client against
    /// the puzzle, [`plateau_rating::rate_two`], the client's rating widened
    /// for its idle days first); `None` for a later one (practice).
    fn puzzle_attempt<'a>(
        &'a self,
        client: &'a str,
        puzzle_id: &'a str,
        game: &'a str,
        solved: bool,
        hinted: bool,
        at: i64,
    ) -> BoxFut<'a, Result<Option<Rated>, StoreError>>;
}

const COLUMNS: &str = "game_id, status, client, spec, requested_at, claimed_by, done, total, evals, analysis, error";
const ACTIVE: &str = "status IN ('queued', 'running')";
/// A running analysis of the instance `?` itself (the caller knows which
/// of them it runs), or of an instance whose heartbeat has expired (alone
/// on SQLite, where no instance has a heartbeat: of an earlier run): the
/// binds are `me`, `now`.
const ORPHAN: &str = "(status = 'running' AND (claimed_by = ? OR NOT EXISTS \
     (SELECT 1 FROM instances i WHERE i.id = analyses.claimed_by AND i.expires_at > ?)))";

fn one() -> String {
    format!("SELECT {COLUMNS} FROM analyses WHERE game_id = ?")
}
fn count_total() -> String {
    format!("SELECT COUNT(*) AS n FROM analyses WHERE {ACTIVE}")
}
fn count_client() -> String {
    format!("SELECT COUNT(*) AS n FROM analyses WHERE {ACTIVE} AND client = ?")
}
const INSERT: &str = "INSERT INTO analyses (game_id, status, client, spec, requested_at, updated_at) \
     VALUES (?, 'queued', ?, ?, ?, ?) ON CONFLICT (game_id) DO NOTHING";
const AHEAD: &str = "SELECT COUNT(*) AS n FROM analyses WHERE status = 'queued' \
     AND (requested_at < ? OR (requested_at = ? AND game_id < ?))";
fn candidates() -> String {
    format!(
        "SELECT game_id, client FROM analyses WHERE status = 'queued' OR {ORPHAN} ORDER BY requested_at, game_id LIMIT ?"
    )
}
fn claim() -> String {
    format!(
        "UPDATE analyses SET status = 'running', claimed_by = ?, updated_at = ? \
         WHERE game_id = ? AND (status = 'queued' OR {ORPHAN})"
    )
}
const PROGRESS: &str = "UPDATE analyses SET done = ?, total = ?, evals = ?, updated_at = ? \
     WHERE game_id = ? AND status = 'running' AND claimed_by = ?";
const DONE: &str = "UPDATE analyses SET status = 'done', analysis = ?, evals = NULL, updated_at = ? \
     WHERE game_id = ? AND status = 'running' AND claimed_by = ?";
const FAILED: &str = "UPDATE analyses SET status = 'failed', error = ?, evals = NULL, updated_at = ? \
     WHERE game_id = ? AND status = 'running' AND claimed_by = ?";
const RELEASE: &str = "UPDATE analyses SET status = 'queued', claimed_by = NULL, updated_at = ? WHERE status = 'running' AND claimed_by = ?";
const PUZZLES: &str = "SELECT puzzle_id, rating, deviation, volatility, games, last_at, attempts, solves \
     FROM puzzle_ratings WHERE game = ?";
const PUZZLE: &str = "SELECT puzzle_id, rating, deviation, volatility, games, last_at, attempts, solves \
     FROM puzzle_ratings WHERE puzzle_id = ?";
const PLAYER: &str =
    "SELECT rating, deviation, volatility, games, last_at FROM puzzle_players WHERE client = ? AND game = ?";
const TRIED: &str = "SELECT puzzle_id FROM puzzle_attempts WHERE client = ? AND game = ?";
const ATTEMPT: &str = "INSERT INTO puzzle_attempts (client, puzzle_id, game, solved, hinted, at) \
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (client, puzzle_id) DO NOTHING";
const SET_PUZZLE: &str = "INSERT INTO puzzle_ratings \
     (puzzle_id, game, rating, deviation, volatility, games, last_at, attempts, solves) \
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (puzzle_id) DO UPDATE SET rating = excluded.rating, \
     deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games, \
     last_at = excluded.last_at, attempts = excluded.attempts, solves = excluded.solves";
const SET_PLAYER: &str = "INSERT INTO puzzle_players (client, game, rating, deviation, volatility, games, last_at) \
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (client, game) DO UPDATE SET rating = excluded.rating, \
     deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games, \
     last_at = excluded.last_at";

fn analysis_row(r: &impl Cols) -> Result<AnalysisRow, StoreError> {
    Ok(AnalysisRow {
        game_id: r.text("game_id")?,
        status: r.text("status")?,
        client: r.text("client")?,
        spec: r.text("spec")?,
        requested_at: r.int("requested_at")?,
        claimed_by: r.opt_text("claimed_by")?,
        done: r.int("done")?.max(0) as u64,
        total: r.int("total")?.max(0) as u64,
        evals: r.opt_text("evals")?,
        analysis: r.opt_text("analysis")?,
        error: r.opt_text("error")?,
    })
}

fn rating_of(r: &impl Cols) -> Result<Rating, StoreError> {
    Ok(Rating {
        rating: r.real("rating")?,
        deviation: r.real("deviation")?,
        volatility: r.real("volatility")?,
        games: u32::try_from(r.int("games")?.max(0)).unwrap_or(u32::MAX),
    }
    .sanitized())
}

fn puzzle_row(r: &impl Cols) -> Result<PuzzleRow, StoreError> {
    Ok(PuzzleRow {
        id: r.text("puzzle_id")?,
        rating: rating_of(r)?,
        attempts: r.int("attempts")?.max(0) as u64,
        solves: r.int("solves")?.max(0) as u64,
    })
}

/// The statements as SQLite takes them.
fn same(sql: &str) -> String {
    sql.to_string()
}

/// The rating of a client's first attempt: the client widened for its idle
/// days, then one game against the puzzle.
fn rate(player: Option<(Rating, i64)>, puzzle: Option<&PuzzleRow>, solved: bool, at: i64) -> Rated {
    let p = match player {
        Some((r, last)) => r.after_idle(plateau_rating::idle_periods((at - last).max(0) as f64 / 86_400_000.0)),
        None => Rating::NEW,
    };
    let q = puzzle.map_or(Rating::NEW, |r| r.rating);
    let (player, puzzle) = plateau_rating::rate_two(p, q, if solved { 1.0 } else { 0.0 });
    Rated { player, puzzle }
}

/// The implementation for one backend: `$sql` turns a statement with `?`
/// into the backend's; `$write` (given the store) locks the writes and gives
/// a connection to write on, `$read` a pool to read from.
macro_rules! analysis_store {
    ($t:ty, $sql:path, |$s:ident| $write:expr) => {
        impl AnalysisStore for $t {
            fn request_analysis<'a>(
                &'a self,
                game_id: &'a str,
                client: &'a str,
                spec: &'a str,
                at: i64,
                caps: (u64, u64),
            ) -> BoxFut<'a, Result<Requested, StoreError>> {
                Box::pin(async move {
                    let $s = self;
                    let (_w, mut conn) = $write;
                    if let Some(r) = sqlx::query(&$sql(&one())).bind(game_id).fetch_optional(&mut *conn).await? {
                        return Ok(Requested::Exists(Box::new(analysis_row(&r)?)));
                    }
                    let total = sqlx::query(&$sql(&count_total())).fetch_one(&mut *conn).await?.int("n")?;
                    if total.max(0) as u64 >= caps.0 {
                        return Ok(Requested::Busy { client: false });
                    }
                    let mine =
                        sqlx::query(&$sql(&count_client())).bind(client).fetch_one(&mut *conn).await?.int("n")?;
                    if mine.max(0) as u64 >= caps.1 {
                        return Ok(Requested::Busy { client: true });
                    }
                    let r = sqlx::query(&$sql(INSERT))
                        .bind(game_id)
                        .bind(client)
                        .bind(spec)
                        .bind(at)
                        .bind(at)
                        .execute(&mut *conn)
                        .await?;
                    if r.rows_affected() == 1 {
                        return Ok(Requested::Queued);
                    }
                    // Another instance asked it in between.
                    match sqlx::query(&$sql(&one())).bind(game_id).fetch_optional(&mut *conn).await? {
                        Some(r) => Ok(Requested::Exists(Box::new(analysis_row(&r)?))),
                        None => Err(StoreError("the analysis could not be queued".into())),
                    }
                })
            }

            fn analysis<'a>(&'a self, game_id: &'a str) -> BoxFut<'a, Result<Option<AnalysisRow>, StoreError>> {
                Box::pin(async move {
                    let r = sqlx::query(&$sql(&one())).bind(game_id).fetch_optional(&self.pool).await?;
                    r.as_ref().map(analysis_row).transpose()
                })
            }

            fn analyses_ahead<'a>(&'a self, row: &'a AnalysisRow) -> BoxFut<'a, Result<u64, StoreError>> {
                Box::pin(async move {
                    let r = sqlx::query(&$sql(AHEAD))
                        .bind(row.requested_at)
                        .bind(row.requested_at)
                        .bind(&row.game_id)
                        .fetch_one(&self.pool)
                        .await?;
                    Ok(r.int("n")?.max(0) as u64)
                })
            }

            fn analysis_candidates<'a>(
                &'a self,
                me: &'a str,
                now: i64,
                limit: u32,
            ) -> BoxFut<'a, Result<Vec<(String, String)>, StoreError>> {
                Box::pin(async move {
                    let rows = sqlx::query(&$sql(&candidates()))
                        .bind(me)
                        .bind(now)
                        .bind(i64::from(limit))
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter().map(|r| Ok((r.text("game_id")?, r.text("client")?))).collect()
                })
            }

            fn claim_analysis<'a>(
                &'a self,
                game_id: &'a str,
                me: &'a str,
                now: i64,
            ) -> BoxFut<'a, Result<bool, StoreError>> {
                Box::pin(async move {
                    let $s = self;
                    let (_w, mut conn) = $write;
                    let r = sqlx::query(&$sql(&claim()))
                        .bind(me)
                        .bind(now)
                        .bind(game_id)
                        .bind(me)
                        .bind(now)
                        .execute(&mut *conn)
                        .await?;
                    Ok(r.rows_affected() == 1)
                })
            }

            fn analysis_progress<'a>(
                &'a self,
                game_id: &'a str,
                me: &'a str,
                done: u64,
                total: u64,
                evals: &'a str,
                now: i64,
            ) -> BoxFut<'a, Result<bool, StoreError>> {
                Box::pin(async move {
                    let $s = self;
                    let (_w, mut conn) = $write;
                    let r = sqlx::query(&$sql(PROGRESS))
                        .bind(done as i64)
                        .bind(total as i64)
                        .bind(evals)
                        .bind(now)
                        .bind(game_id)
                        .bind(me)
                        .execute(&mut *conn)
                        .await?;
                    Ok(r.rows_affected() == 1)
                })
            }

            fn finish_analysis<'a>(
                &'a self,
                game_id: &'a str,
                me: &'a str,
                result: Result<&'a str, &'a str>,
                now: i64,
            ) -> BoxFut<'a, Result<bool, StoreError>> {
                Box::pin(async move {
                    let $s = self;
                    let (_w, mut conn) = $write;
                    let (sql, text) = match result {
                        Ok(a) => (DONE, a),
                        Err(e) => (FAILED, e),
                    };
                    let r =
                        sqlx::query(&$sql(sql)).bind(text).bind(now).bind(game_id).bind(me).execute(&mut *conn).await?;
                    Ok(r.rows_affected() == 1)
                })
            }

            fn release_analyses<'a>(&'a self, me: &'a str, now: i64) -> BoxFut<'a, Result<(), StoreError>> {
                Box::pin(async move {
                    let $s = self;
                    let (_w, mut conn) = $write;
                    sqlx::query(&$sql(RELEASE)).bind(now).bind(me).execute(&mut *conn).await?;
                    Ok(())
                })
            }

            fn puzzle_rows<'a>(&'a self, game: &'a str) -> BoxFut<'a, Result<Vec<PuzzleRow>, StoreError>> {
                Box::pin(async move {
                    let rows = sqlx::query(&$sql(PUZZLES)).bind(game).fetch_all(&self.pool).await?;
                    rows.iter().map(puzzle_row).collect()
                })
            }

            fn puzzle_player<'a>(
                &'a self,
                client: &'a str,
                game: &'a str,
            ) -> BoxFut<'a, Result<Option<(Rating, i64)>, StoreError>> {
                Box::pin(async move {
                    let r = sqlx::query(&$sql(PLAYER)).bind(client).bind(game).fetch_optional(&self.pool).await?;
                    r.as_ref().map(|r| Ok((rating_of(r)?, r.int("last_at")?))).transpose()
                })
            }

            fn puzzles_tried<'a>(
                &'a self,
                client: &'a str,
                game: &'a str,
            ) -> BoxFut<'a, Result<Vec<String>, StoreError>> {
                Box::pin(async move {
                    let rows = sqlx::query(&$sql(TRIED)).bind(client).bind(game).fetch_all(&self.pool).await?;
                    rows.iter().map(|r| r.text("puzzle_id")).collect()
                })
            }

            fn puzzle_attempt<'a>(
                &'a self,
                client: &'a str,
                puzzle_id: &'a str,
                game: &'a str,
                solved: bool,
                hinted: bool,
                at: i64,
            ) -> BoxFut<'a, Result<Option<Rated>, StoreError>> {
                Box::pin(async move {
                    use sqlx::Connection as _;
                    let $s = self;
                    let (_w, mut conn) = $write;
                    // Dropped without a commit (a statement failed), the
                    // transaction is rolled back.
                    let mut tx = conn.begin().await?;
                    let first = sqlx::query(&$sql(ATTEMPT))
                        .bind(client)
                        .bind(puzzle_id)
                        .bind(game)
                        .bind(i64::from(solved))
                        .bind(i64::from(hinted))
                        .bind(at)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected()
                        == 1;
                    if !first {
                        return Ok(None);
                    }
                    let puzzle = sqlx::query(&$sql(PUZZLE)).bind(puzzle_id).fetch_optional(&mut *tx).await?;
                    let puzzle = puzzle.as_ref().map(puzzle_row).transpose()?;
                    let player = sqlx::query(&$sql(PLAYER)).bind(client).bind(game).fetch_optional(&mut *tx).await?;
                    let player =
                        player.as_ref().map(|r| Ok::<_, StoreError>((rating_of(r)?, r.int("last_at")?))).transpose()?;
                    let rated = rate(player, puzzle.as_ref(), solved, at);
                    let (attempts, solves) = puzzle.as_ref().map_or((0, 0), |p| (p.attempts, p.solves));
                    let q = rated.puzzle;
                    sqlx::query(&$sql(SET_PUZZLE))
                        .bind(puzzle_id)
                        .bind(game)
                        .bind(q.rating)
                        .bind(q.deviation)
                        .bind(q.volatility)
                        .bind(i64::from(q.games))
                        .bind(at)
                        .bind((attempts + 1) as i64)
                        .bind((solves + u64::from(solved)) as i64)
                        .execute(&mut *tx)
                        .await?;
                    let p = rated.player;
                    sqlx::query(&$sql(SET_PLAYER))
                        .bind(client)
                        .bind(game)
                        .bind(p.rating)
                        .bind(p.deviation)
                        .bind(p.volatility)
                        .bind(i64::from(p.games))
                        .bind(at)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(Some(rated))
                })
            }
        }
    };
}

analysis_store!(SqliteStore, same, |s| ((), s.writer.lock().await));
analysis_store!(PgStore, numbered, |s| (s.writes.lock().await, s.pool.acquire().await?));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_solve_raises_the_solver_and_lowers_the_puzzle() {
        // Two new players (1500, RD 350): Glickman's formulas give the
        // winner +162.3 and the loser -162.3 (the paper's example numbers
        // for one game at equal ratings: E = 0.5, g(φ) = 0.6690, d² from
        // 1/(q² g² E(1-E)) and r' = r ± q/(1/RD² + 1/d²) · g · 0.5).
        let r = rate(None, None, true, 0);
        let q = std::f64::consts::LN_10 / 400.0;
        let phi = 350.0_f64;
        let g = 1.0 / (1.0 + 3.0 * q * q * phi * phi / std::f64::consts::PI.powi(2)).sqrt();
        let d2 = 1.0 / (q * q * g * g * 0.25);
        let expected = 1500.0 + q / (1.0 / (phi * phi) + 1.0 / d2) * g * 0.5;
        // Glicko-1's step as a cross-check of the direction and size (the
        // Glicko-2 step differs by the volatility's small widening).
        assert!((r.player.rating - expected).abs() < 5.0, "{} vs {expected}", r.player.rating);
        assert!((r.puzzle.rating - (3000.0 - expected)).abs() < 5.0, "{}", r.puzzle.rating);
        assert_eq!(r.player.games, 1);
        let lost = rate(None, None, false, 0);
        assert!(lost.player.rating < 1500.0 && lost.puzzle.rating > 1500.0);
    }
}

//! The group-commit writer's SQLite connection, on a thread of its own
//! (issue 21, third round).
//!
//! sqlx runs each SQLite connection on a worker thread of its own: a commit
//! made through it goes from the writer's task to that thread and back, two
//! wake-ups on top of the caller's two (its task to the writer's and back).
//! Here the writer's loop itself runs on one OS thread that owns a
//! `rusqlite` connection (the same SQLite library, `libsqlite3-sys`, as
//! sqlx's): a caller's writes go from its task to this thread, which
//! commits them and answers through the caller's oneshot. The async runtime
//! never blocks on SQLite.
//!
//! Every commit of the writer goes this way (new games, seats, results,
//! chat and ratings as well as moves): one connection writes the games, in
//! the order the writer takes the groups. The accounts', sessions',
//! players' and bots' writes still go through sqlx's own writing
//! connection, straight, as before: both connections wait for each other
//! through SQLite's lock and a busy time-out.

use std::time::Duration;

use rusqlite::{Connection, OpenFlags, TransactionBehavior, params};

use super::{BlockingCommit, Durability, SeatKind, StoreError, WriteOp};

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError(e.to_string())
    }
}

/// The writer's own connection to a SQLite file.
pub(crate) struct Committer {
    conn: Connection,
}

/// Statements kept prepared (one per kind of write; the connection's cache).
const CACHED_STATEMENTS: usize = 32;

impl Committer {
    /// Open the database at `path` (already created, migrated and in WAL
    /// mode), with the pool's settings: `synchronous` as `durability` says,
    /// foreign keys checked, a busy time-out.
    pub(crate) fn open(path: &str, durability: Durability) -> Result<Committer, StoreError> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI,
        )?;
        conn.busy_timeout(Duration::from_secs(10))?;
        let mode: String = conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError(format!("the database's journal mode is {mode}, not WAL")));
        }
        let sync = match durability {
            Durability::Full => "FULL",
            Durability::Normal => "NORMAL",
        };
        conn.pragma_update(None, "synchronous", sync)?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.set_prepared_statement_cache_capacity(CACHED_STATEMENTS);
        Ok(Committer { conn })
    }
}

impl BlockingCommit for Committer {
    /// Apply these groups of writes in one transaction (`BEGIN IMMEDIATE`,
    /// each write's statement, prepared once and kept, `COMMIT`): all or
    /// nothing, durable (as `synchronous` says) when it returns `Ok`.
    fn commit(&mut self, groups: &[Vec<WriteOp>]) -> Result<(), StoreError> {
        // Dropped without `commit`, the transaction is rolled back.
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        for op in groups.iter().flatten() {
            write(&tx, op)?;
        }
        tx.commit()?;
        Ok(())
    }
}

/// One write, in the open transaction (the same statements as the sqlx
/// path, `SqliteStore::commit_inner`).
fn write(c: &Connection, op: &WriteOp) -> Result<(), StoreError> {
    match op {
        WriteOp::InsertEvent { game_id, event: e } => {
            c.prepare_cached("INSERT INTO events (game_id, version, kind, seat, data, at) VALUES (?, ?, ?, ?, ?, ?)")?
                .execute(params![game_id, e.version as i64, e.kind.as_str(), e.seat.map(|s| s as i64), e.data, e.at])?;
        }
        WriteOp::InsertGame { game, seats } => {
            let options = serde_json::to_string(&game.options).map_err(|e| StoreError(e.to_string()))?;
            c.prepare_cached(
                "INSERT INTO games (id, game, variant, options, seed, status, result, termination, ply, \
                 rematch_of, rematch, created_at, updated_at, rated, clock) \
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            )?
            .execute(params![
                game.id,
                game.game,
                game.variant,
                options,
                game.seed as i64,
                game.status.as_str(),
                game.result,
                game.termination,
                game.ply as i64,
                game.rematch_of,
                game.rematch,
                game.created_at,
                game.updated_at,
                game.rated as i64,
                game.clock.map(|c| c.to_json()),
            ])?;
            let mut insert = c.prepare_cached(
                "INSERT INTO seats (game_id, seat, kind, player, name, token_hash, account_id) \
                 VALUES (?, ?, ?, ?, ?, ?, ?)",
            )?;
            for s in seats {
                let kind = match s.kind {
                    SeatKind::Human => "human",
                    SeatKind::Computer => "computer",
                };
                insert.execute(params![game.id, s.seat as i64, kind, s.player, s.name, s.token_hash, s.account])?;
            }
        }
        WriteOp::InsertChat { game_id, message: m } => {
            c.prepare_cached("INSERT INTO chat (game_id, n, seat, name, text, at) VALUES (?, ?, ?, ?, ?, ?)")?
                .execute(params![game_id, m.n as i64, m.seat.map(|s| s as i64), m.name, m.text, m.at])?;
        }
        WriteOp::UpdateSeat { game_id, seat, name, token_hash, account } => {
            c.prepare_cached(
                "UPDATE seats SET name = ?, token_hash = ?, account_id = ? WHERE game_id = ? AND seat = ?",
            )?
            .execute(params![name, token_hash, account, game_id, *seat as i64])?;
        }
        WriteOp::Outcomes { game_id, outcomes } => {
            let mut update = c.prepare_cached("UPDATE seats SET outcome = ? WHERE game_id = ? AND seat = ?")?;
            for (seat, o) in outcomes.iter().enumerate() {
                update.execute(params![o, game_id, seat as i64])?;
            }
        }
        WriteOp::Rate(ch) => {
            let r = ch.after;
            c.prepare_cached(
                "INSERT INTO ratings (account_id, game, rating, deviation, volatility, games, last_at) \
                 VALUES (?, ?, ?, ?, ?, ?, ?) \
                 ON CONFLICT (account_id, game) DO UPDATE SET rating = excluded.rating, \
                 deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games, \
                 last_at = excluded.last_at",
            )?
            .execute(params![
                ch.account_id,
                ch.game,
                r.rating,
                r.deviation,
                r.volatility,
                r.games as i64,
                ch.at
            ])?;
            c.prepare_cached(
                "INSERT INTO rating_history (account_id, game, game_id, at, before_rating, rating, deviation) \
                 VALUES (?, ?, ?, ?, ?, ?, ?)",
            )?
            .execute(params![
                ch.account_id,
                ch.game,
                ch.game_id,
                ch.at,
                ch.before,
                r.rating,
                r.deviation
            ])?;
        }
        // One instance alone owns every game: no lease to check.
        WriteOp::Fence { .. } | WriteOp::NewLease { .. } => {}
        WriteOp::UpdateGame { game_id, status, result, termination, ply, rematch, seed, at } => {
            c.prepare_cached(
                "UPDATE games SET status = ?, result = ?, termination = ?, ply = ?, rematch = ?, seed = ?, \
                 updated_at = ? WHERE id = ?",
            )?
            .execute(params![
                status.as_str(),
                result,
                termination,
                *ply as i64,
                rematch,
                *seed as i64,
                at,
                game_id
            ])?;
        }
    }
    Ok(())
}

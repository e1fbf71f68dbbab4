//! The PostgreSQL backend: [`PgStore`], the same tables, migrations and
//! semantics as [`super::SqliteStore`], selected by a `postgres://` (or
//! `postgresql://`) URL.
//!
//! The statements are SQLite's with PostgreSQL's placeholders (`$1`…; the
//! statements built at run time use sqlx's query builder on [`Postgres`]).
//! Two differences of types are handled when reading: the `seat` columns of
//! `seats` and `events` are `INTEGER` (four bytes in PostgreSQL), and
//! PostgreSQL sums `BIGINT`s as `NUMERIC`, so the count of moves is cast back
//! to `BIGINT`.
//!
//! Every write (the group commit's transaction, accounts, sessions, tokens,
//! claims) is made under one lock, as SQLite's single writing connection
//! does: a check-then-write (the cap on tokens, a claim) sees every write
//! before it. Against the other instances sharing the database, those two
//! also take an advisory lock of the account in their transaction; a game's
//! events are fenced by its lease (`crate::cluster`). A group commit is one transaction: `BEGIN`, its statements,
//! `COMMIT`, rolled back whole if one fails. Commits are durable when they
//! return (`synchronous_commit` on) with [`Durability::Full`]; with
//! [`Durability::Normal`] `synchronous_commit` is off: a commit survives the
//! server being killed (PostgreSQL holds it) but not a crash of PostgreSQL's
//! machine in the following fraction of a second.

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{Postgres, QueryBuilder, Row};

use super::chat::{self, ChatRow};
use super::players::{AccountGame, HistoryRow, Leader, OutcomeCount, PlayerStore, RatingChange, StoredRating, stored};
use super::{
    ACCOUNT_COLUMNS, AccountRow, BoxFut, Durability, EventRow, GAME_COLUMNS, Listed, Listing, MOVES_SQL,
    ROWS_PER_INSERT, SeatKind, SeatRow, SessionRow, Storage, StoreError, StoredGame, TokenRow, WriteOp, account_row,
    event_row, game_row, seat_row,
};

/// How long a session of this server may stay idle inside a transaction.
const IDLE_IN_TRANSACTION: &str = "3s";

/// The PostgreSQL backend: a pool of connections, and one lock for writes.
pub struct PgStore {
    pub(super) pool: PgPool,
    pub(super) writes: tokio::sync::Mutex<()>,
}

impl PgStore {
    /// Connect to the database at `url` and apply the migrations.
    pub(crate) async fn open(url: &str, durability: Durability) -> Result<PgStore, StoreError> {
        let opts: PgConnectOptions = url.parse()?;
        let opts = match durability {
            Durability::Full => opts.options([("synchronous_commit", "on")]),
            Durability::Normal => opts.options([("synchronous_commit", "off")]),
        };
        // A transaction of this server is never idle for long (a commit's
        // statements follow each other; a game's rating lock lasts while it
        // ends). One left idle is a process paused or cut off in the middle:
        // PostgreSQL ends it, and the row locks it holds (a game's lease,
        // share-locked by its fence) no longer stop another instance from
        // taking the game over.
        let opts = opts.options([("idle_in_transaction_session_timeout", IDLE_IN_TRANSACTION)]);
        let pool = PgPoolOptions::new().max_connections(8).min_connections(1).connect_with(opts).await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        Ok(PgStore { pool, writes: tokio::sync::Mutex::new(()) })
    }

    async fn commit_inner(&self, groups: &[Vec<WriteOp>]) -> Result<(), StoreError> {
        let _w = self.writes.lock().await;
        // Dropped without a commit (a statement failed), the transaction is
        // rolled back.
        let mut tx = self.pool.begin().await?;
        fence(&mut tx, groups).await?;
        let mut events: Vec<(&str, &EventRow)> = Vec::new();
        let mut chats: Vec<(&str, &ChatRow)> = Vec::new();
        for op in groups.iter().flatten() {
            let mut q: QueryBuilder<Postgres> = QueryBuilder::new("");
            match op {
                // All checked at once, before the loop.
                WriteOp::Fence { .. } => continue,
                WriteOp::NewLease { game_id, owner } => {
                    sqlx::query("INSERT INTO leases (game_id, owner, epoch, state) VALUES ($1, $2, 1, 'held')")
                        .bind(game_id)
                        .bind(owner)
                        .execute(&mut *tx)
                        .await?;
                    continue;
                }
                WriteOp::InsertGame { game, seats } => {
                    let options = serde_json::to_string(&game.options).map_err(|e| StoreError(e.to_string()))?;
                    q.push(
                        "INSERT INTO games (id, game, variant, options, seed, status, result, termination, ply, \
                         rematch_of, rematch, created_at, updated_at, rated, clock) ",
                    );
                    q.push_values(std::iter::once(game), |mut b, game| {
                        b.push_bind(game.id.clone())
                            .push_bind(game.game.clone())
                            .push_bind(game.variant.clone())
                            .push_bind(options.clone())
                            .push_bind(game.seed as i64)
                            .push_bind(game.status.as_str())
                            .push_bind(game.result.clone())
                            .push_bind(game.termination.clone())
                            .push_bind(game.ply as i64)
                            .push_bind(game.rematch_of.clone())
                            .push_bind(game.rematch.clone())
                            .push_bind(game.created_at)
                            .push_bind(game.updated_at)
                            .push_bind(game.rated as i64)
                            .push_bind(game.clock.map(|c| c.to_json()));
                    });
                    q.build().execute(&mut *tx).await?;
                    if !seats.is_empty() {
                        let mut q: QueryBuilder<Postgres> = QueryBuilder::new(
                            "INSERT INTO seats (game_id, seat, kind, player, name, token_hash, account_id) ",
                        );
                        q.push_values(seats, |mut b, s| {
                            b.push_bind(game.id.clone())
                                .push_bind(s.seat as i32)
                                .push_bind(match s.kind {
                                    SeatKind::Human => "human",
                                    SeatKind::Computer => "computer",
                                })
                                .push_bind(s.player.clone())
                                .push_bind(s.name.clone())
                                .push_bind(s.token_hash.clone())
                                .push_bind(s.account.clone());
                        });
                        q.build().persistent(false).execute(&mut *tx).await?;
                    }
                    continue;
                }
                WriteOp::InsertEvent { game_id, event } => {
                    events.push((game_id, event));
                    continue;
                }
                WriteOp::InsertChat { game_id, message } => {
                    chats.push((game_id, message));
                    q.push("INSERT INTO chat (game_id, n, seat, name, text, at) ");
                    q.push_values(std::iter::once(message), |mut b, m| {
                        b.push_bind(game_id.clone())
                            .push_bind(m.n as i64)
                            .push_bind(m.seat.map(|s| s as i64))
                            .push_bind(m.name.clone())
                            .push_bind(m.text.clone())
                            .push_bind(m.at);
                    });
                }
                WriteOp::UpdateSeat { game_id, seat, name, token_hash, account } => {
                    q.push("UPDATE seats SET name = ").push_bind(name.clone());
                    q.push(", token_hash = ").push_bind(token_hash.clone());
                    q.push(", account_id = ").push_bind(account.clone());
                    q.push(" WHERE game_id = ").push_bind(game_id.clone());
                    q.push(" AND seat = ").push_bind(*seat as i32);
                }
                WriteOp::Outcomes { game_id, outcomes } => {
                    for (seat, o) in outcomes.iter().enumerate() {
                        sqlx::query("UPDATE seats SET outcome = $1 WHERE game_id = $2 AND seat = $3")
                            .bind(*o)
                            .bind(game_id)
                            .bind(seat as i32)
                            .execute(&mut *tx)
                            .await?;
                    }
                    continue;
                }
                WriteOp::Rate(c) => {
                    rate(&mut tx, c).await?;
                    continue;
                }
                WriteOp::UpdateGame { game_id, status, result, termination, ply, rematch, seed, at } => {
                    q.push("UPDATE games SET status = ").push_bind(status.as_str());
                    q.push(", result = ").push_bind(result.clone());
                    q.push(", termination = ").push_bind(termination.clone());
                    q.push(", ply = ").push_bind(*ply as i64);
                    q.push(", rematch = ").push_bind(rematch.clone());
                    q.push(", seed = ").push_bind(*seed as i64);
                    q.push(", updated_at = ").push_bind(*at);
                    q.push(" WHERE id = ").push_bind(game_id.clone());
                }
            }
            q.build().execute(&mut *tx).await?;
        }
        for chunk in events.chunks(ROWS_PER_INSERT) {
            let mut q: QueryBuilder<Postgres> =
                QueryBuilder::new("INSERT INTO events (game_id, version, kind, seat, data, at) ");
            q.push_values(chunk, |mut b, (id, e)| {
                b.push_bind(id.to_string())
                    .push_bind(e.version as i64)
                    .push_bind(e.kind.as_str())
                    .push_bind(e.seat.map(|s| s as i32))
                    .push_bind(e.data.clone())
                    .push_bind(e.at);
            });
            q.build().persistent(false).execute(&mut *tx).await?;
        }
        // Every instance hears of the events and messages once they are
        // committed (a notification is delivered only after the commit).
        for payload in crate::cluster::wire::payloads(&events, &chats) {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(crate::cluster::EVENTS)
                .bind(payload)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn seats_of(&self, ids: &[&str]) -> Result<Vec<(String, SeatRow)>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let ids: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
        let rows = sqlx::query(
            "SELECT game_id, seat, kind, player, name, token_hash, account_id FROM seats WHERE game_id = ANY($1) \
             ORDER BY game_id, seat",
        )
        .bind(ids)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok((r.try_get::<String, _>("game_id")?, seat_row(r)?))).collect()
    }

    async fn account_where(&self, sql: &str, key: &str) -> Result<Option<AccountRow>, StoreError> {
        let row = sqlx::query(sql).bind(key).fetch_optional(&self.pool).await?;
        row.as_ref().map(account_row).transpose()
    }

    async fn last_chat(&self, game_id: &str) -> Result<Vec<ChatRow>, StoreError> {
        let rows = sqlx::query("SELECT n, seat, name, text, at FROM chat WHERE game_id = $1 ORDER BY n DESC LIMIT $2")
            .bind(game_id)
            .bind(chat::HISTORY as i64)
            .fetch_all(&self.pool)
            .await?;
        let mut out = rows
            .iter()
            .map(|r| {
                Ok(ChatRow {
                    n: r.try_get::<i64, _>("n")? as u64,
                    seat: r.try_get::<Option<i64>, _>("seat")?.map(|s| s as usize),
                    name: r.try_get("name")?,
                    text: r.try_get("text")?,
                    at: r.try_get("at")?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        out.reverse();
        Ok(out)
    }
}

/// Check, in one statement, that this instance still owns every game the
/// groups write ([`WriteOp::Fence`]), and lock their leases' rows (shared)
/// until the commit: a taking over waits for this transaction, then loads
/// what it wrote; one that committed first is seen here, and the whole
/// transaction is refused (the writer then commits each group alone, and
/// only the stale one fails). A shared lock writes no new row version.
async fn fence(tx: &mut sqlx::Transaction<'_, Postgres>, groups: &[Vec<WriteOp>]) -> Result<(), StoreError> {
    let mut seen = std::collections::HashSet::new();
    let mut games = Vec::new();
    let mut owners = Vec::new();
    let mut epochs = Vec::new();
    for op in groups.iter().flatten() {
        if let WriteOp::Fence { game_id, owner, epoch } = op
            && seen.insert(game_id.as_str())
        {
            games.push(game_id.clone());
            owners.push(owner.clone());
            epochs.push(*epoch);
        }
    }
    if games.is_empty() {
        return Ok(());
    }
    let held: Vec<String> = sqlx::query_scalar(
        "SELECT l.game_id FROM leases l JOIN UNNEST($1::TEXT[], $2::TEXT[], $3::BIGINT[]) AS f (game_id, owner, epoch) \
         ON l.game_id = f.game_id AND l.owner = f.owner AND l.epoch = f.epoch FOR SHARE OF l",
    )
    .bind(&games)
    .bind(&owners)
    .bind(&epochs)
    .fetch_all(&mut **tx)
    .await?;
    if held.len() != games.len() {
        return Err(StoreError::fenced());
    }
    Ok(())
}

/// Lock an account's rows against the other instances' writes until the
/// transaction ends (a check-then-write on the account: a cap, a claim).
async fn lock_account(tx: &mut sqlx::Transaction<'_, Postgres>, account_id: &str) -> Result<(), StoreError> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 11))").bind(account_id).execute(&mut **tx).await?;
    Ok(())
}

/// The statements of a [`RatingChange`], in the commit's transaction.
async fn rate(tx: &mut sqlx::Transaction<'_, Postgres>, c: &RatingChange) -> Result<(), StoreError> {
    let r = c.after;
    sqlx::query(
        "INSERT INTO ratings (account_id, game, rating, deviation, volatility, games, last_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (account_id, game) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, \
         volatility = excluded.volatility, games = excluded.games, last_at = excluded.last_at",
    )
    .bind(&c.account_id)
    .bind(&c.game)
    .bind(r.rating)
    .bind(r.deviation)
    .bind(r.volatility)
    .bind(r.games as i64)
    .bind(c.at)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO rating_history (account_id, game, game_id, at, before_rating, rating, deviation) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&c.account_id)
    .bind(&c.game)
    .bind(&c.game_id)
    .bind(c.at)
    .bind(c.before)
    .bind(r.rating)
    .bind(r.deviation)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The number of moves of game `g`, as a `BIGINT`.
fn moves_sql() -> String {
    format!("CAST({MOVES_SQL} AS BIGINT)")
}

impl Storage for PgStore {
    fn postgres(&self) -> Option<&PgPool> {
        Some(&self.pool)
    }

    fn commit<'a>(&'a self, groups: &'a [Vec<WriteOp>]) -> BoxFut<'a, Result<(), StoreError>> {
        Box::pin(self.commit_inner(groups))
    }

    fn load<'a>(&'a self, id: &'a str) -> BoxFut<'a, Result<Option<StoredGame>, StoreError>> {
        Box::pin(async move {
            let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games g WHERE g.id = $1"))
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
            let Some(row) = row else { return Ok(None) };
            let game = game_row(&row)?;
            let seats = self.seats_of(&[id]).await?.into_iter().map(|(_, s)| s).collect();
            let rows =
                sqlx::query("SELECT version, kind, seat, data, at FROM events WHERE game_id = $1 ORDER BY version")
                    .bind(id)
                    .fetch_all(&self.pool)
                    .await?;
            let events = rows.iter().map(event_row).collect::<Result<Vec<_>, StoreError>>()?;
            let chat = self.last_chat(id).await?;
            Ok(Some(StoredGame { game, seats, events, chat }))
        })
    }

    fn list<'a>(&'a self, q: &'a Listing) -> BoxFut<'a, Result<Vec<Listed>, StoreError>> {
        Box::pin(async move {
            let mut b: QueryBuilder<Postgres> = QueryBuilder::new(format!(
                "SELECT {GAME_COLUMNS}, {} AS moves FROM games g WHERE g.status = ",
                moves_sql()
            ));
            b.push_bind(q.status.as_str());
            if let Some((at, id)) = &q.after {
                b.push(" AND (updated_at < ").push_bind(*at);
                b.push(" OR (updated_at = ").push_bind(*at).push(" AND id < ").push_bind(id.as_str()).push("))");
            }
            b.push(" ORDER BY updated_at DESC, id DESC LIMIT ").push_bind(q.limit as i64);
            let rows = b.build().fetch_all(&self.pool).await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in &rows {
                out.push(Listed { game: game_row(r)?, seats: Vec::new(), moves: r.try_get::<i64, _>("moves")? as u64 });
            }
            let ids: Vec<&str> = out.iter().map(|l| l.game.id.as_str()).collect();
            for (id, s) in self.seats_of(&ids).await? {
                if let Some(l) = out.iter_mut().find(|l| l.game.id == id) {
                    l.seats.push(s);
                }
            }
            Ok(out)
        })
    }

    fn count_live(&self) -> BoxFut<'_, Result<u64, StoreError>> {
        Box::pin(async move {
            let n: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE status = 'live'").fetch_one(&self.pool).await?;
            Ok(n as u64)
        })
    }

    fn resumable(&self) -> BoxFut<'_, Result<Vec<String>, StoreError>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT id FROM games g WHERE status = 'live' AND (clock IS NOT NULL OR EXISTS \
                 (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.kind = 'computer')) ORDER BY updated_at",
            )
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(|r| Ok(r.try_get::<String, _>("id")?)).collect()
        })
    }

    fn create_account<'a>(&'a self, a: &'a AccountRow) -> BoxFut<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let _w = self.writes.lock().await;
            let r = sqlx::query(
                "INSERT INTO accounts (id, name, name_key, password, created_at) VALUES ($1, $2, $3, $4, $5) \
                 ON CONFLICT (name_key) DO NOTHING",
            )
            .bind(&a.id)
            .bind(&a.name)
            .bind(&a.name_key)
            .bind(&a.password)
            .bind(a.created_at)
            .execute(&self.pool)
            .await?;
            Ok(r.rows_affected() == 1)
        })
    }

    fn account_by_name<'a>(&'a self, name_key: &'a str) -> BoxFut<'a, Result<Option<AccountRow>, StoreError>> {
        Box::pin(async move {
            self.account_where(&format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.name_key = $1"), name_key)
                .await
        })
    }

    fn insert_session<'a>(&'a self, s: &'a SessionRow) -> BoxFut<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let _w = self.writes.lock().await;
            sqlx::query("DELETE FROM sessions WHERE expires_at <= $1").bind(s.created_at).execute(&self.pool).await?;
            sqlx::query("INSERT INTO sessions (id_hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)")
                .bind(&s.id_hash)
                .bind(&s.account_id)
                .bind(s.created_at)
                .bind(s.expires_at)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn session_account<'a>(&'a self, id_hash: &'a str, now: i64) -> BoxFut<'a, Result<Option<AccountRow>, StoreError>> {
        Box::pin(async move {
            let row = sqlx::query(&format!(
                "SELECT {ACCOUNT_COLUMNS} FROM sessions s JOIN accounts a ON a.id = s.account_id \
                 WHERE s.id_hash = $1 AND s.expires_at > $2"
            ))
            .bind(id_hash)
            .bind(now)
            .fetch_optional(&self.pool)
            .await?;
            row.as_ref().map(account_row).transpose()
        })
    }

    fn delete_session<'a>(&'a self, id_hash: &'a str) -> BoxFut<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let _w = self.writes.lock().await;
            sqlx::query("DELETE FROM sessions WHERE id_hash = $1").bind(id_hash).execute(&self.pool).await?;
            Ok(())
        })
    }

    fn set_password<'a>(
        &'a self,
        account_id: &'a str,
        password: &'a str,
        keep: Option<&'a str>,
    ) -> BoxFut<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let _w = self.writes.lock().await;
            let mut tx = self.pool.begin().await?;
            sqlx::query("UPDATE accounts SET password = $1 WHERE id = $2")
                .bind(password)
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND id_hash <> $2")
                .bind(account_id)
                .bind(keep.unwrap_or(""))
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn insert_token<'a>(&'a self, t: &'a TokenRow, max: usize) -> BoxFut<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let _w = self.writes.lock().await;
            // Instances sharing the database: the count and the insert
            // under the account's lock, so that the cap holds across them.
            let mut tx = self.pool.begin().await?;
            lock_account(&mut tx, &t.account_id).await?;
            let r = sqlx::query(
                "INSERT INTO access_tokens (id, account_id, label, token_hash, created_at) \
                 SELECT $1, $2, $3, $4, $5 WHERE (SELECT COUNT(*) FROM access_tokens WHERE account_id = $2) < $6",
            )
            .bind(&t.id)
            .bind(&t.account_id)
            .bind(&t.label)
            .bind(&t.token_hash)
            .bind(t.created_at)
            .bind(max as i64)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(r.rows_affected() == 1)
        })
    }

    fn tokens_of<'a>(&'a self, account_id: &'a str) -> BoxFut<'a, Result<Vec<TokenRow>, StoreError>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT id, account_id, label, token_hash, created_at FROM access_tokens WHERE account_id = $1 \
                 ORDER BY created_at, id",
            )
            .bind(account_id)
            .fetch_all(&self.pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(TokenRow {
                        id: r.try_get("id")?,
                        account_id: r.try_get("account_id")?,
                        label: r.try_get("label")?,
                        token_hash: r.try_get("token_hash")?,
                        created_at: r.try_get("created_at")?,
                    })
                })
                .collect()
        })
    }

    fn delete_token<'a>(&'a self, account_id: &'a str, id: &'a str) -> BoxFut<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let _w = self.writes.lock().await;
            let r = sqlx::query("DELETE FROM access_tokens WHERE id = $1 AND account_id = $2")
                .bind(id)
                .bind(account_id)
                .execute(&self.pool)
                .await?;
            Ok(r.rows_affected() == 1)
        })
    }

    fn token_account<'a>(&'a self, token_hash: &'a str) -> BoxFut<'a, Result<Option<AccountRow>, StoreError>> {
        Box::pin(async move {
            self.account_where(
                &format!(
                    "SELECT {ACCOUNT_COLUMNS} FROM access_tokens t JOIN accounts a ON a.id = t.account_id \
                     WHERE t.token_hash = $1"
                ),
                token_hash,
            )
            .await
        })
    }
}

impl PlayerStore for PgStore {
    fn ratings<'a>(
        &'a self,
        game: &'a str,
        accounts: &'a [String],
    ) -> BoxFut<'a, Result<Vec<(String, StoredRating)>, StoreError>> {
        Box::pin(async move {
            if accounts.is_empty() {
                return Ok(Vec::new());
            }
            let rows = sqlx::query(
                "SELECT account_id, rating, deviation, volatility, games, last_at FROM ratings \
                 WHERE game = $1 AND account_id = ANY($2)",
            )
            .bind(game)
            .bind(accounts)
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(|r| Ok((r.try_get("account_id")?, stored(r)?))).collect()
        })
    }

    fn ratings_of<'a>(&'a self, account_id: &'a str) -> BoxFut<'a, Result<Vec<(String, StoredRating)>, StoreError>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT game, rating, deviation, volatility, games, last_at FROM ratings WHERE account_id = $1 \
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
            let games = sqlx::query("SELECT game FROM ratings WHERE account_id = $1 ORDER BY game")
                .bind(account_id)
                .fetch_all(&self.pool)
                .await?;
            let mut rows = Vec::new();
            for g in &games {
                let game: String = g.try_get("game")?;
                let mut part = sqlx::query(
                    "SELECT game, game_id, at, before_rating, rating, deviation FROM rating_history \
                     WHERE account_id = $1 AND game = $2 ORDER BY at DESC, game_id DESC LIMIT $3",
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
                 WHERE s.account_id = $1 AND g.status = 'finished' AND s.outcome IS NOT NULL \
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
                 {} AS moves, \
                 (SELECT h.rating - h.before_rating FROM rating_history h \
                    WHERE h.account_id = s.account_id AND h.game_id = g.id) AS change \
                 FROM seats s JOIN games g ON g.id = s.game_id \
                 WHERE s.account_id = $1 AND g.status IN {statuses} \
                 ORDER BY g.updated_at DESC, g.id DESC LIMIT $2",
                moves_sql()
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
                    seat: r.try_get::<i32, _>("my_seat")?.max(0) as usize,
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
                 WHERE r.game = $1 AND r.deviation <= $2 ORDER BY r.rating DESC, a.name_key LIMIT $3",
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
            let _w = self.writes.lock().await;
            let mut tx = self.pool.begin().await?;
            // One seat per game and account, across instances too.
            lock_account(&mut tx, account_id).await?;
            let mut claimed = Vec::new();
            for (game_id, token_hash) in seats {
                let r = sqlx::query(
                    "UPDATE seats SET account_id = $1 WHERE game_id = $2 AND token_hash = $3 AND kind = 'human' \
                     AND account_id IS NULL \
                     AND NOT EXISTS (SELECT 1 FROM seats o WHERE o.game_id = seats.game_id AND o.account_id = $1) \
                     AND EXISTS (SELECT 1 FROM games g WHERE g.id = seats.game_id AND g.status = 'finished' \
                                 AND g.rated = 0)",
                )
                .bind(account_id)
                .bind(game_id)
                .bind(token_hash)
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

//! Several instances on one PostgreSQL database (issue 16; the design is in
//! `docs/deploy.md`).
//!
//! - **Ownership.** Each game in memory is owned by one instance: a row of
//!   `leases` (owner, epoch), valid while the owner's heartbeat (a row of
//!   `instances`, renewed every third of the lease, timed by the database's
//!   clock) lasts. Taking a game (free, let go, or its owner gone) adds one
//!   to its epoch;
//!   every write of the owner carries a [`WriteOp::Fence`] on its (owner,
//!   epoch), so that a paused or cut-off owner whose game was taken over
//!   writes nothing that is kept.
//! - **Replicas.** An instance with clients of a game it does not own keeps a
//!   replica of it: it serves reads and sockets from memory, applies the
//!   events the owner commits (announced to every instance by a
//!   notification on [`EVENTS`] sent in the commit's transaction), and
//!   forwards what its clients do to the owner (a notification on the
//!   owner's own channel; the answer comes back on the replica's, after the
//!   owner's commit).
//! - **Failover.** When an owner dies its heartbeat expires; every instance
//!   looks for unfinished games of dead owners each second and takes
//!   them (a replica in memory is rebuilt from the database and becomes the
//!   owner). A stopping instance lets its games go first.
//!
//! [`WriteOp::Fence`]: crate::store::WriteOp::Fence

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use sqlx::{PgPool, Postgres, Row};
use tokio::sync::oneshot;

use crate::error::ApiError;
use crate::store::{EventRow, StoreError, event_row};
use wire::{Answer, Direct, Forwarded};

pub(crate) mod run;
pub(crate) mod wire;

/// The database's clock, in ms since 1970 (instances' clocks may differ;
/// leases are timed by the database's alone).
pub(crate) const NOW_MS: &str = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";

/// The channel of committed events and messages, heard by every instance.
pub(crate) const EVENTS: &str = "plateau_events";

/// How long a forwarded request waits for the owner's answer.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(10);

/// This instance's part in a group of instances.
pub(crate) struct Cluster {
    /// This instance's id (random, new at each start).
    pub id: String,
    pub pool: PgPool,
    /// How long a lease lasts without renewal.
    pub lease: Duration,
    /// The games this instance owns: id → epoch.
    held: Mutex<HashMap<String, i64>>,
    /// Forwarded requests waiting for their answer, with their game.
    waiting: Mutex<HashMap<u64, (String, oneshot::Sender<Answer>)>>,
    next: AtomicU64,
    /// Set when the listener's connection was lost: replicas read what they
    /// missed once the database answers again.
    pub(crate) missed: AtomicBool,
    /// Notifications to send, batched by [`run`]'s mailer.
    out: tokio::sync::mpsc::UnboundedSender<Outgoing>,
    /// The mailer's end, taken when it starts.
    pub(crate) outbox: Mutex<Option<tokio::sync::mpsc::UnboundedReceiver<Outgoing>>>,
}

/// A notification to send: on `channel`, a message of a batch (a JSON
/// object, sent in an array with the others to the same channel) or a
/// payload of its own.
pub(crate) struct Outgoing {
    pub channel: String,
    pub text: String,
    pub batched: bool,
    pub done: Option<oneshot::Sender<Result<(), StoreError>>>,
}

impl Cluster {
    pub(crate) fn new(pool: PgPool, lease: Duration) -> Result<Cluster, crate::ids::RandomError> {
        let (out, outbox) = tokio::sync::mpsc::unbounded_channel();
        Ok(Cluster {
            out,
            outbox: Mutex::new(Some(outbox)),
            id: format!("{:016x}", crate::ids::random_u64()?),
            pool,
            lease,
            held: Mutex::new(HashMap::new()),
            waiting: Mutex::new(HashMap::new()),
            next: AtomicU64::new(1),
            missed: AtomicBool::new(false),
        })
    }

    fn lease_ms(&self) -> i64 {
        self.lease.as_millis() as i64
    }

    /// This instance's own channel (requests to it, answers to it).
    pub(crate) fn channel_of(id: &str) -> String {
        format!("plateau_i_{id}")
    }

    /// Say this instance is alive for one more lease (every third of it):
    /// one row, however many games it holds (no write ever waits for it).
    pub(crate) async fn heartbeat(&self) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO instances (id, expires_at) VALUES ($1, {NOW_MS} + $2) \
             ON CONFLICT (id) DO UPDATE SET expires_at = EXCLUDED.expires_at"
        ))
        .bind(&self.id)
        .bind(self.lease_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Take game `id` if nobody holds it (no lease, let go, or its owner's
    /// heartbeat has expired), or if this instance already does: its new
    /// epoch. `None` if another live instance holds it, or the game does
    /// not exist.
    pub(crate) async fn acquire(&self, id: &str) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(&format!(
            "INSERT INTO leases (game_id, owner, epoch, state) \
             SELECT $1, $2, 1, 'held' WHERE EXISTS (SELECT 1 FROM games WHERE id = $1) \
             ON CONFLICT (game_id) DO UPDATE SET owner = EXCLUDED.owner, epoch = leases.epoch + 1, state = 'held' \
             WHERE leases.state <> 'held' OR leases.owner = EXCLUDED.owner OR NOT EXISTS \
             (SELECT 1 FROM instances i WHERE i.id = leases.owner AND i.expires_at >= {NOW_MS}) RETURNING epoch"
        ))
        .bind(id)
        .bind(&self.id)
        .fetch_optional(&self.pool)
        .await?;
        let epoch = row.map(|r| r.try_get::<i64, _>("epoch")).transpose()?;
        if let Some(e) = epoch {
            self.hold(id, e);
        }
        Ok(epoch)
    }

    /// The live instance holding game `id` now, if any.
    pub(crate) async fn owner(&self, id: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT l.owner FROM leases l JOIN instances i ON i.id = l.owner \
             WHERE l.game_id = $1 AND l.state = 'held' AND i.expires_at >= {NOW_MS}"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| r.try_get::<String, _>("owner")).transpose()?)
    }

    /// Note a lease held (a game created here holds epoch 1).
    pub(crate) fn hold(&self, id: &str, epoch: i64) {
        if let Ok(mut h) = self.held.lock() {
            h.insert(id.to_string(), epoch);
        }
    }

    /// Whether this instance holds game `id`'s lease.
    pub(crate) fn holds(&self, id: &str) -> bool {
        self.held.lock().is_ok_and(|h| h.contains_key(id))
    }

    /// The number of leases held.
    pub(crate) fn held(&self) -> usize {
        self.held.lock().map(|h| h.len()).unwrap_or(0)
    }

    /// Let game `id` go (its task left memory): any instance may take it
    /// when asked for it. Nothing if the lease has moved on.
    pub(crate) async fn release(&self, id: &str, epoch: i64) {
        self.forget(id, epoch);
        let r = sqlx::query("UPDATE leases SET state = 'parked' WHERE game_id = $1 AND owner = $2 AND epoch = $3")
            .bind(id)
            .bind(&self.id)
            .bind(epoch)
            .execute(&self.pool)
            .await;
        if let Err(e) = r {
            tracing::warn!("game {id}: its lease could not be let go (it goes with this instance's heartbeat): {e}");
        }
    }

    /// Forget a lease lost (taken over) or let go.
    pub(crate) fn forget(&self, id: &str, epoch: i64) {
        if let Ok(mut h) = self.held.lock()
            && h.get(id).is_some_and(|e| *e == epoch)
        {
            h.remove(id);
        }
    }

    /// Hand every game over (the instance stops): the other instances take
    /// the unfinished ones within a second. The heartbeat goes too.
    pub(crate) async fn release_all(&self) -> Result<u64, StoreError> {
        let done = sqlx::query("UPDATE leases SET state = 'handed' WHERE owner = $1 AND state = 'held'")
            .bind(&self.id)
            .execute(&self.pool)
            .await?;
        sqlx::query("DELETE FROM instances WHERE id = $1").bind(&self.id).execute(&self.pool).await?;
        if let Ok(mut h) = self.held.lock() {
            h.clear();
        }
        Ok(done.rows_affected())
    }

    /// Unfinished games whose owner has gone (its heartbeat expired, or it
    /// handed them over), and, with `and_unleased` (at start), the live games
    /// with a clock or a computer seat that nobody holds.
    pub(crate) async fn orphans(&self, and_unleased: bool, limit: i64) -> Result<Vec<String>, StoreError> {
        let unleased = if and_unleased {
            " OR ((l.game_id IS NULL OR l.state = 'parked') AND g.status = 'live' AND (g.clock IS NOT NULL \
             OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.kind = 'computer')))"
        } else {
            ""
        };
        let rows = sqlx::query(&format!(
            "SELECT g.id FROM games g LEFT JOIN leases l ON l.game_id = g.id \
             WHERE (g.status IN ('open', 'live') AND (l.state = 'handed' OR (l.state = 'held' AND l.owner NOT IN \
             (SELECT id FROM instances WHERE expires_at >= {NOW_MS})))){unleased} LIMIT $1"
        ))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(r.try_get::<String, _>("id")?)).collect()
    }

    /// Forget the heartbeats of instances gone for a day that hold nothing.
    pub(crate) async fn tidy(&self) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "DELETE FROM instances i WHERE i.expires_at < {NOW_MS} - 86400000 \
             AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.owner = i.id AND l.state = 'held')"
        ))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The events of game `id` after `version`, in order.
    pub(crate) async fn events_since(&self, id: &str, version: u64) -> Result<Vec<EventRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT version, kind, seat, data, at FROM events WHERE game_id = $1 AND version > $2 ORDER BY version",
        )
        .bind(id)
        .bind(version as i64)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(event_row).collect()
    }

    /// Ask the owner `owner` of game `game` to do `c`; its answer (after its
    /// commit), or an error if it does not answer in time.
    pub(crate) async fn forward(&self, owner: &str, game: &str, c: Forwarded) -> Result<Answer, ApiError> {
        let r = self.next.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        if let Ok(mut w) = self.waiting.lock() {
            w.insert(r, (game.to_string(), tx));
        }
        let msg = Direct::Req { r, from: self.id.clone(), g: game.to_string(), c };
        let sent = self.send(owner, &msg).await;
        let answer = match sent {
            Ok(()) => tokio::time::timeout(FORWARD_TIMEOUT, rx).await.ok().and_then(Result::ok),
            Err(e) => {
                tracing::warn!("game {game}: a request to its owner could not be sent: {e}");
                None
            }
        };
        if let Ok(mut w) = self.waiting.lock() {
            w.remove(&r);
        }
        answer.ok_or_else(|| {
            ApiError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "owner_unavailable",
                "the server holding this game did not answer: try again in a few seconds",
            )
        })
    }

    /// The answer to a request, from its owner.
    pub(crate) fn answered(&self, r: u64, answer: Answer) {
        if let Some((_, tx)) = self.waiting.lock().ok().and_then(|mut w| w.remove(&r)) {
            let _ = tx.send(answer);
        }
    }

    /// This instance has taken game `id` over: the requests it forwarded
    /// for it to the gone owner are answered `moved` at once (and done here
    /// by the new owner), instead of waiting for their time-out.
    pub(crate) fn taken(&self, id: &str) {
        let Ok(mut w) = self.waiting.lock() else { return };
        let mine: Vec<u64> = w.iter().filter(|(_, (g, _))| g == id).map(|(r, _)| *r).collect();
        for r in mine {
            if let Some((_, tx)) = w.remove(&r) {
                let _ = tx.send(Answer::of_error(&crate::table::moved()));
            }
        }
    }

    /// Send `msg` to instance `to` (batched with the other messages waiting
    /// for it); returns once it is sent.
    pub(crate) async fn send(&self, to: &str, msg: &Direct) -> Result<(), StoreError> {
        let text = serde_json::to_string(msg).map_err(|e| StoreError(e.to_string()))?;
        let (done, sent) = oneshot::channel();
        let o = Outgoing { channel: Cluster::channel_of(to), text, batched: true, done: Some(done) };
        self.out.send(o).map_err(|_| StoreError("the server is stopping".into()))?;
        sent.await.map_err(|_| StoreError("the server is stopping".into()))?
    }

    /// A message of a spectators' room (never stored), to every instance.
    pub(crate) fn spectators_said(&self, game: &str, m: &crate::store::chat::ChatRow) {
        let notice = wire::Notice { c: vec![wire::WireChat::of(game, m)], ..Default::default() };
        let Ok(text) = serde_json::to_string(&notice) else { return };
        let _ = self.out.send(Outgoing { channel: EVENTS.to_string(), text, batched: false, done: None });
    }

    /// Which seats of a game are there, as its owner sees them, to every
    /// instance (their replicas show it to their sockets).
    pub(crate) fn presence_said(&self, game: &str, seats: &[(usize, bool)]) {
        let p = seats.iter().map(|&(s, on)| wire::WirePresence { g: game.to_string(), s, on }).collect();
        let Ok(text) = serde_json::to_string(&wire::Notice { p, ..Default::default() }) else { return };
        let _ = self.out.send(Outgoing { channel: EVENTS.to_string(), text, batched: false, done: None });
    }

    /// Lock these accounts' ratings across every instance until the returned
    /// transaction ends (dropped: rolled back, the locks go with it).
    pub(crate) async fn lock_accounts(
        &self,
        ids: &[&String],
    ) -> Result<sqlx::Transaction<'static, Postgres>, StoreError> {
        let mut tx = self.pool.begin().await?;
        for id in ids {
            sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 7))")
                .bind(id.as_str())
                .execute(&mut *tx)
                .await?;
        }
        Ok(tx)
    }
}

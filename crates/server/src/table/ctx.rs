//! What a game's task needs of the server, and nothing more: the rules, the
//! database writer, the computer players, the limits, and the directory of
//! the games in memory (to install a rematch and to leave memory).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use plateau_core::Registry;
use tokio::sync::mpsc;

use super::{Cmd, Table};
use crate::pool::AiPool;
use crate::state::Limits;
use crate::store::{Storage, Writer};

/// The ratings of a game's players, locked (see [`TableCtx::lock_ratings`]).
pub(crate) struct RatingLocks {
    _local: Vec<tokio::sync::OwnedMutexGuard<()>>,
    _shared: Option<sqlx::Transaction<'static, sqlx::Postgres>>,
}

/// The context of every game's task.
pub(crate) struct TableCtx {
    pub registry: Registry,
    pub writer: Writer,
    pub pool: AiPool,
    pub limits: Limits,
    /// The database, for the few reads a game makes (ratings at its end).
    pub store: Arc<dyn Storage>,
    /// The metrics served at `/metrics`.
    pub metrics: crate::metrics::Metrics,
    /// The other instances sharing the database, when it is PostgreSQL.
    pub cluster: Option<Arc<crate::cluster::Cluster>>,
    /// One lock per account, held while a game reads and writes the
    /// account's rating (see `clocks::Ending`).
    ratings: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// Set when the server stops: every game's task ends (its clocks stop
    /// with it; a restart charges nobody the time down).
    halt: tokio::sync::watch::Sender<bool>,
    /// When this process started (ms since 1970): a live clocked game whose
    /// last event is older was stopped with the server, and its clocks are
    /// started again without charging the time down; one evicted since is
    /// charged as usual.
    pub started_at: i64,
    /// The clocks running in games that left memory: id → when the clock
    /// falls (ms since 1970). The server loads each game when it is due, so
    /// that the clock falls on time.
    deadlines: Mutex<HashMap<String, i64>>,
    /// The games in memory: id → (the task's generation, its sender).
    tables: Mutex<HashMap<String, (u64, mpsc::Sender<Cmd>)>>,
    next: AtomicU64,
}

impl TableCtx {
    pub(crate) fn new(
        registry: Registry,
        writer: Writer,
        pool: AiPool,
        limits: Limits,
        store: Arc<dyn Storage>,
        cluster: Option<Arc<crate::cluster::Cluster>>,
    ) -> TableCtx {
        TableCtx {
            cluster,
            metrics: crate::metrics::Metrics::new(writer.stats.clone()),
            registry,
            writer,
            pool,
            limits,
            store,
            ratings: Mutex::new(HashMap::new()),
            halt: tokio::sync::watch::Sender::new(false),
            started_at: super::now_ms(),
            deadlines: Mutex::new(HashMap::new()),
            tables: Mutex::new(HashMap::new()),
            next: AtomicU64::new(1),
        }
    }

    /// Lock the ratings of these accounts (in the order of their ids, so
    /// that two games never wait for each other): two games of one player
    /// never rate from the same old rating, and games of other players go
    /// on at once. With instances sharing the database, the locks are the
    /// database's too (advisory locks of one transaction, held until the
    /// guard is dropped).
    pub(crate) async fn lock_ratings(&self, accounts: &[String]) -> Result<RatingLocks, crate::error::ApiError> {
        let mut ids: Vec<&String> = accounts.iter().collect();
        ids.sort();
        ids.dedup();
        let locks: Vec<Arc<tokio::sync::Mutex<()>>> = match self.ratings.lock() {
            Ok(mut map) => {
                if map.len() > 10_000 {
                    // Locks nobody holds or waits for.
                    map.retain(|_, l| Arc::strong_count(l) > 1);
                }
                ids.iter().map(|id| map.entry((*id).clone()).or_default().clone()).collect()
            }
            Err(_) => Vec::new(),
        };
        let mut local = Vec::with_capacity(locks.len());
        for l in locks {
            local.push(l.lock_owned().await);
        }
        let shared = match &self.cluster {
            Some(c) => Some(c.lock_accounts(&ids).await.map_err(crate::error::ApiError::storage)?),
            None => None,
        };
        Ok(RatingLocks { _local: local, _shared: shared })
    }

    /// End every game's task (the server stops).
    pub(crate) fn halt(&self) {
        self.halt.send_replace(true);
    }

    /// What a game's task watches to end with the server.
    pub(crate) fn halted(&self) -> tokio::sync::watch::Receiver<bool> {
        self.halt.subscribe()
    }

    /// A game leaves memory with its clock running: it is loaded again when
    /// the clock falls.
    pub(crate) fn remember_deadline(&self, id: &str, deadline: i64) {
        if let Ok(mut map) = self.deadlines.lock() {
            map.insert(id.to_string(), deadline);
        }
    }

    /// The games out of memory whose clock has fallen by `now` (forgotten
    /// here: the caller loads them).
    pub(crate) fn due(&self, now: i64) -> Vec<String> {
        let Ok(mut map) = self.deadlines.lock() else { return Vec::new() };
        let due: Vec<String> = map.iter().filter(|(_, d)| **d <= now).map(|(id, _)| id.clone()).collect();
        for id in &due {
            map.remove(id);
        }
        due
    }

    /// A fresh number (watcher ids, task generations).
    pub(crate) fn next_id(&self) -> u64 {
        self.next.fetch_add(1, Ordering::Relaxed)
    }

    /// The lease of a game being created, written with it (instances
    /// sharing the database).
    pub(crate) fn new_lease(&self, id: &str) -> Option<crate::store::WriteOp> {
        let c = self.cluster.as_ref()?;
        Some(crate::store::WriteOp::NewLease { game_id: id.to_string(), owner: c.id.clone() })
    }

    /// Start the task of a game just created here (with its lease, epoch 1,
    /// when instances share the database).
    pub(crate) fn install_new(self: &Arc<Self>, mut table: Table) -> mpsc::Sender<Cmd> {
        if let Some(c) = &self.cluster {
            c.hold(table.id(), 1);
            table.set_role(super::Role::Owner(1), None);
        }
        self.install(table)
    }

    /// Start a game's task.
    pub(crate) fn install(self: &Arc<Self>, table: Table) -> mpsc::Sender<Cmd> {
        let (tx, rx) = mpsc::channel(256);
        let generation = self.next_id();
        let id = table.id().to_string();
        if let Ok(mut map) = self.tables.lock() {
            map.insert(id, (generation, tx.clone()));
        }
        tokio::spawn(table.run(rx, generation));
        tx
    }

    /// The task of a game in memory.
    pub(crate) fn lookup(&self, id: &str) -> Option<mpsc::Sender<Cmd>> {
        let mut map = self.tables.lock().ok()?;
        match map.get(id) {
            Some((_, tx)) if !tx.is_closed() => Some(tx.clone()),
            Some(_) => {
                map.remove(id);
                None
            }
            None => None,
        }
    }

    /// The ids of the games in memory.
    pub(crate) fn ids(&self) -> Vec<String> {
        self.tables.lock().map(|m| m.keys().cloned().collect()).unwrap_or_default()
    }

    /// The number of games in memory.
    pub(crate) fn in_memory(&self) -> usize {
        self.tables.lock().map(|m| m.len()).unwrap_or(0)
    }

    /// Leave memory, if no command is waiting: the game's task of this
    /// generation is forgotten and its channel closed (commands that slip in
    /// are dropped; their callers see the reply channel closed and ask again,
    /// which loads the game afresh).
    pub(crate) fn evict(&self, id: &str, generation: u64, rx: &mut mpsc::Receiver<Cmd>) -> bool {
        let Ok(mut map) = self.tables.lock() else { return false };
        if !rx.is_empty() {
            return false;
        }
        if map.get(id).is_some_and(|(g, _)| *g == generation) {
            map.remove(id);
        }
        drop(map);
        rx.close();
        while rx.try_recv().is_ok() {}
        true
    }
}

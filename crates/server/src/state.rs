//! The server's shared state: the games in memory (one task each), the
//! database writer, the computer players' pool and the limits.

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use plateau_ai::{AnyPlayer, Kind, PlayerSpec};
use plateau_core::{Options, Registry, Seat, Setup};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use crate::error::ApiError;
use crate::ids;
use crate::pool::AiPool;
use crate::store::{GameRow, SeatKind, SeatRow, Status, Storage, WriteOp, Writer};
use crate::table::{Cmd, Table, now_ms};

/// The limits the server enforces.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Largest HTTP request body, in bytes.
    pub max_body: usize,
    /// Largest WebSocket message, in bytes.
    pub max_frame: usize,
    /// WebSocket messages per second a connection may send, on average.
    pub ws_rate: f64,
    /// WebSocket messages a connection may send in a burst.
    pub ws_burst: f64,
    /// HTTP requests per second a connection may make, on average.
    pub http_rate: f64,
    /// HTTP requests a connection may make in a burst.
    pub http_burst: f64,
    /// WebSocket connections at once, in all.
    pub max_connections: usize,
    /// Watchers (sockets) of one game at once.
    pub watchers_per_game: usize,
    /// Frames queued for one socket before it is dropped as too slow.
    pub outbound_queue: usize,
    /// A reconnecting client further behind than this many events gets the
    /// full state instead of the missing events.
    pub catchup: u64,
    /// Time to say hello on a new WebSocket.
    pub hello_timeout: Duration,
    /// Time for one HTTP request.
    pub request_timeout: Duration,
    /// A socket silent this long (no message, no pong) is closed.
    pub idle_socket: Duration,
    /// A finished game nobody watches leaves memory after this long.
    pub idle_finished: Duration,
    /// A live game nobody watches (and no computer seat is thinking for)
    /// leaves memory after this long; it is loaded again when asked for.
    pub idle_live: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body: 64 * 1024,
            max_frame: 16 * 1024,
            ws_rate: 20.0,
            ws_burst: 60.0,
            http_rate: 20.0,
            http_burst: 100.0,
            max_connections: 16_000,
            watchers_per_game: 1_000,
            outbound_queue: 256,
            catchup: 200,
            hello_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(15),
            idle_socket: Duration::from_secs(90),
            idle_finished: Duration::from_secs(60),
            idle_live: Duration::from_secs(600),
        }
    }
}

/// A token bucket: `rate` tokens a second, at most `burst`.
#[derive(Clone, Copy, Debug)]
pub struct Bucket {
    tokens: f64,
    last: Instant,
}

impl Bucket {
    /// A full bucket.
    pub fn new(burst: f64) -> Bucket {
        Bucket { tokens: burst, last: Instant::now() }
    }
    /// Take a token if there is one.
    pub fn take(&mut self, rate: f64, burst: f64) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.last).as_secs_f64() * rate).min(burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Everything the handlers and the games share.
pub struct Shared {
    pub(crate) registry: Registry,
    pub(crate) writer: Writer,
    pub(crate) store: Arc<dyn Storage>,
    pub(crate) pool: AiPool,
    pub(crate) limits: Limits,
    pub(crate) tables: Mutex<HashMap<String, (u64, mpsc::Sender<Cmd>)>>,
    loader: tokio::sync::Mutex<()>,
    next: AtomicU64,
    pub(crate) connections: AtomicUsize,
    http_buckets: Mutex<HashMap<SocketAddr, Bucket>>,
}

/// The answer to a game's creation.
pub(crate) struct Created {
    pub id: String,
    pub seat: Option<Seat>,
    pub token: Option<String>,
    pub state: Value,
}

/// A seat as asked at creation.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum SeatRequest {
    /// A person's seat (open until someone takes it).
    Human,
    /// A computer player: a level `ai:1`…`ai:6` or a spec.
    Computer {
        /// The player spec.
        player: String,
    },
}

/// An option value as sent: text, a number or a boolean.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(untagged)]
pub enum OptionValue {
    /// Text.
    Text(String),
    /// A whole number.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

/// A seed as sent: a number or its decimal text.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(untagged)]
pub enum SeedValue {
    /// A number.
    Num(u64),
    /// Decimal text.
    Text(String),
}

/// `POST /api/games`.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// The game's name.
    pub game: String,
    /// The variant (default: the game's first).
    #[serde(default)]
    pub variant: Option<String>,
    /// Options on top of the variant's.
    #[serde(default)]
    pub options: BTreeMap<String, OptionValue>,
    /// The seed of the set-up (default: random, for games that use one).
    #[serde(default)]
    pub seed: Option<SeedValue>,
    /// Every seat (default: all human).
    #[serde(default)]
    pub seats: Option<Vec<SeatRequest>>,
    /// The creator's seat (default: the first human seat).
    #[serde(default)]
    pub seat: Option<usize>,
    /// The creator's display name.
    #[serde(default)]
    pub name: Option<String>,
}

/// A computer player for a server seat. Levels, `random` and `greedy` are
/// always allowed; a search needs a time limit of at most 10 s a move, so that
/// no client can tie up a worker thread.
pub fn make_player(game: &str, spec: &str) -> Result<Box<dyn AnyPlayer>, String> {
    let parsed = PlayerSpec::parse(spec).map_err(|e| e.to_string())?;
    match parsed.kind {
        Kind::Human => return Err("a human seat is {\"kind\": \"human\"}".into()),
        Kind::Level(_) | Kind::Random | Kind::Greedy => {}
        _ => match parsed.budget.time {
            Some(t) if t <= Duration::from_secs(10) => {}
            _ => return Err(format!("{spec}: a search on the server needs time=... of at most 10s")),
        },
    }
    let players = plateau_games::players(game).map_err(|e| e.to_string())?;
    players.create(&parsed).map_err(|e| e.to_string())
}

impl Shared {
    pub(crate) fn new(
        registry: Registry,
        store: Arc<dyn Storage>,
        writer: Writer,
        pool: AiPool,
        limits: Limits,
    ) -> Self {
        Shared {
            registry,
            writer,
            store,
            pool,
            limits,
            tables: Mutex::new(HashMap::new()),
            loader: tokio::sync::Mutex::new(()),
            next: AtomicU64::new(1),
            connections: AtomicUsize::new(0),
            http_buckets: Mutex::new(HashMap::new()),
        }
    }

    /// A fresh number (watcher ids, task generations).
    pub(crate) fn next_id(&self) -> u64 {
        self.next.fetch_add(1, Ordering::Relaxed)
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

    fn lookup(&self, id: &str) -> Option<mpsc::Sender<Cmd>> {
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

    /// The task of game `id`, loading the game from the database if needed.
    pub(crate) async fn table(self: &Arc<Self>, id: &str) -> Result<mpsc::Sender<Cmd>, ApiError> {
        if !ids::well_formed(id) || id.len() > 32 {
            return Err(ApiError::not_found(format!("there is no game {id:?}")));
        }
        if let Some(tx) = self.lookup(id) {
            return Ok(tx);
        }
        let _guard = self.loader.lock().await;
        if let Some(tx) = self.lookup(id) {
            return Ok(tx);
        }
        let stored = self
            .store
            .load(id)
            .await
            .map_err(ApiError::storage)?
            .ok_or_else(|| ApiError::not_found(format!("there is no game {id:?}")))?;
        let table = Table::restore(self.clone(), stored)?;
        Ok(self.install(table))
    }

    /// Send a command to game `id` and wait for its answer, loading the game
    /// again if its task has just left memory.
    pub(crate) async fn request<T>(
        self: &Arc<Self>,
        id: &str,
        mut make: impl FnMut(oneshot::Sender<Result<T, ApiError>>) -> Cmd,
    ) -> Result<T, ApiError> {
        for _ in 0..4 {
            let tx = self.table(id).await?;
            let (rtx, rrx) = oneshot::channel();
            if tx.send(make(rtx)).await.is_err() {
                continue;
            }
            if let Ok(r) = rrx.await {
                return r;
            }
        }
        Err(ApiError::internal("the game's task is not answering"))
    }

    /// Resume every live game with a computer seat (after a restart).
    pub(crate) async fn resume(self: &Arc<Self>) -> Result<usize, ApiError> {
        let ids = self.store.resumable().await.map_err(ApiError::storage)?;
        let mut n = 0;
        for id in ids {
            match self.table(&id).await {
                Ok(_) => n += 1,
                Err(e) => tracing::error!("game {id} cannot be resumed: {e}"),
            }
        }
        Ok(n)
    }

    /// May this HTTP connection make another request?
    pub(crate) fn http_allowed(&self, addr: SocketAddr) -> bool {
        let Ok(mut map) = self.http_buckets.lock() else { return true };
        if map.len() > 50_000 {
            let now = Instant::now();
            map.retain(|_, b| now.duration_since(b.last) < Duration::from_secs(60));
        }
        map.entry(addr)
            .or_insert_with(|| Bucket::new(self.limits.http_burst))
            .take(self.limits.http_rate, self.limits.http_burst)
    }

    /// Create a game.
    pub(crate) async fn create(self: &Arc<Self>, req: CreateRequest) -> Result<Created, ApiError> {
        let bad = |m: String| ApiError::bad_request("bad_setup", m);
        if req.game.len() > 64 {
            return Err(bad("the game name is too long".into()));
        }
        if req.options.len() > 64 {
            return Err(bad("too many options".into()));
        }
        let mut options = Options::new();
        for (k, v) in &req.options {
            if k.len() > 64 {
                return Err(bad("an option name is too long".into()));
            }
            let v = match v {
                OptionValue::Text(s) => s.clone(),
                OptionValue::Int(n) => n.to_string(),
                OptionValue::Bool(b) => b.to_string(),
            };
            options.set(k.clone(), v);
        }
        let entry = self.registry.get(&req.game).map_err(|e| bad(e.to_string()))?;
        let info = entry.info();
        let seed = match &req.seed {
            Some(SeedValue::Num(n)) => *n,
            Some(SeedValue::Text(t)) => {
                t.trim().parse().map_err(|_| bad(format!("the seed {t:?} is not a whole number from 0 to 2^64-1")))?
            }
            None if info.uses_seed => ids::random_u64(),
            None => 0,
        };
        if let Some(v) = &req.variant
            && v.len() > 64
        {
            return Err(bad("the variant name is too long".into()));
        }
        let setup = Setup { variant: req.variant.clone(), options, seed };
        let m = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| entry.new_match(&setup)))
            .map_err(|_| ApiError::internal("the rules engine failed on these options"))?
            .map_err(|e| bad(e.to_string()))?;
        let n = m.seats();
        let seat_reqs = req.seats.clone().unwrap_or_else(|| vec![SeatRequest::Human; n]);
        if seat_reqs.len() != n {
            return Err(bad(format!("this game has {n} seats, and {} were given", seat_reqs.len())));
        }
        let mut players: Vec<Option<Box<dyn AnyPlayer>>> = Vec::with_capacity(n);
        let mut seats: Vec<SeatRow> = Vec::with_capacity(n);
        for (i, s) in seat_reqs.iter().enumerate() {
            match s {
                SeatRequest::Human => {
                    players.push(None);
                    seats.push(SeatRow { seat: i, kind: SeatKind::Human, player: None, name: None, token_hash: None });
                }
                SeatRequest::Computer { player } => {
                    // Made off the async runtime: a search's tables take time to allocate.
                    let (game, spec) = (info.name, player.clone());
                    let p = tokio::task::spawn_blocking(move || make_player(game, &spec))
                        .await
                        .map_err(|_| ApiError::internal("the computer player could not be made"))?
                        .map_err(|e| bad(format!("seat {i}: {e}")))?;
                    players.push(Some(p));
                    seats.push(SeatRow {
                        seat: i,
                        kind: SeatKind::Computer,
                        player: Some(player.trim().to_string()),
                        name: None,
                        token_hash: None,
                    });
                }
            }
        }
        let name = match &req.name {
            Some(n) => Some(crate::protocol::clean_name(n).map_err(|e| ApiError::bad_request("bad_name", e))?),
            None => None,
        };
        let creator = match req.seat {
            Some(s) if s >= n => return Err(bad(format!("this game has seats 0 to {}", n - 1))),
            Some(s) if seats[s].kind != SeatKind::Human => {
                return Err(bad(format!("seat {s} is a computer seat")));
            }
            Some(s) => Some(s),
            None => seats.iter().position(|s| s.kind == SeatKind::Human),
        };
        let token = creator.map(|s| {
            let t = ids::new_token();
            seats[s].token_hash = Some(ids::hash_token(&t));
            seats[s].name = name.clone();
            t
        });
        let status = if seats.iter().any(|s| s.kind == SeatKind::Human && s.token_hash.is_none()) {
            Status::Open
        } else {
            Status::Live
        };
        let now = now_ms();
        let row = GameRow {
            id: ids::new_game_id(),
            game: info.name.to_string(),
            variant: req.variant.clone(),
            options: setup.options.clone(),
            seed,
            status,
            result: None,
            termination: None,
            ply: 0,
            rematch_of: None,
            rematch: None,
            created_at: now,
            updated_at: now,
        };
        self.writer
            .commit(vec![WriteOp::InsertGame { game: row.clone(), seats: seats.clone() }])
            .await
            .map_err(ApiError::storage)?;
        let id = row.id.clone();
        let table = Table::new(self.clone(), row, &seats, m, players);
        let state = table.state_json(creator, true, true);
        self.install(table);
        Ok(Created { id, seat: creator, token, state })
    }
}

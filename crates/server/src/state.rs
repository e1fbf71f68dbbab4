//! The server's shared state: the games in memory (one task each), the
//! database writer, the computer players' pool and the limits.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use plateau_ai::AnyPlayer;
use plateau_core::{Options, Registry, Seat, Setup};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use crate::error::ApiError;
use crate::ids;
use crate::pool::AiPool;
use crate::store::{GameRow, SeatKind, SeatRow, Status, Storage, WriteOp, Writer};
use crate::table::{Cmd, Remote, Role, Table, TableCtx, now_ms};

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
    /// Sockets of one seat at once (several tabs, a phone and a computer);
    /// a seat's newest socket closes its oldest past this. Seats never count
    /// against `watchers_per_game`.
    pub sockets_per_seat: usize,
    /// Games with a computer seat that one client address may have going at
    /// once (open or live).
    pub computer_games_per_client: usize,
    /// Of those, games between computers only.
    pub computer_only_games_per_client: usize,
    /// The server is behind a reverse proxy on this machine: a request from
    /// a loopback address is from the client the last `X-Forwarded-For`
    /// address names (for the limits per client).
    pub behind_proxy: bool,
    /// The server is reached over TLS (directly or through a proxy): the
    /// session cookie is marked `Secure`.
    pub secure_cookies: bool,
    /// How long a seated person must have been gone (no socket, no action)
    /// before the others may claim a live game.
    pub claim_after: Duration,
    /// Messages the players' room of one game may hold in all (they are
    /// stored with the game).
    pub chat_per_game: u64,
    /// Instances sharing a PostgreSQL database: how long an instance's
    /// heartbeat lasts unless renewed (every third of it); its games' leases
    /// hold while it does. A dead instance's games are taken over by the
    /// others this long after its last heartbeat.
    pub lease: Duration,
    /// The computer analysis of a finished game: search time per position.
    pub analysis_time: Duration,
    /// Analyses waiting or running at once, in all (every instance's).
    pub analyses_queued: usize,
    /// Of those, asked by one client (an account, or a guest's address).
    pub analyses_per_client: usize,
    /// Analyses one instance runs at once (their positions interleave on
    /// the computer pool's analysis lines).
    pub analyses_running: usize,
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
            sockets_per_seat: 8,
            computer_games_per_client: 6,
            computer_only_games_per_client: 2,
            behind_proxy: false,
            secure_cookies: false,
            claim_after: Duration::from_secs(60),
            chat_per_game: 1_000,
            lease: Duration::from_secs(5),
            analysis_time: Duration::from_millis(300),
            analyses_queued: 64,
            analyses_per_client: 2,
            analyses_running: 4,
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
        Bucket::new_at(burst, Instant::now())
    }
    /// A full bucket, as of `now`.
    pub fn new_at(burst: f64, now: Instant) -> Bucket {
        Bucket { tokens: burst, last: now }
    }
    /// Take a token if there is one.
    pub fn take(&mut self, rate: f64, burst: f64) -> bool {
        self.take_at(rate, burst, Instant::now())
    }
    /// Take a token if there is one, as of `now`.
    pub fn take_at(&mut self, rate: f64, burst: f64, now: Instant) -> bool {
        self.tokens = (self.tokens + now.duration_since(self.last).as_secs_f64() * rate).min(burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
    /// Give a token back (a try that cost nothing after all).
    pub fn give_back(&mut self, burst: f64) {
        self.tokens = (self.tokens + 1.0).min(burst);
    }
    /// When a token was last taken.
    pub fn last(&self) -> Instant {
        self.last
    }
}

/// Everything the handlers and the games share.
pub struct Shared {
    /// What the games' tasks share (the rules, the writer, the computer
    /// players, the limits, the games in memory).
    pub(crate) ctx: Arc<TableCtx>,
    pub(crate) store: Arc<dyn Storage>,
    /// Games being loaded, each with its own lock: a slow load never holds
    /// up another game's.
    loading: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    pub(crate) connections: AtomicUsize,
    http_buckets: Mutex<HashMap<IpAddr, Bucket>>,
    clients: Arc<Mutex<HashMap<IpAddr, ClientUse>>>,
}

/// What one client address has going on the computer players.
#[derive(Clone, Copy, Debug, Default)]
struct ClientUse {
    computer_games: usize,
    computer_only: usize,
}

/// A client's share of the computer players, held by a game with computer
/// seats until it ends (or leaves memory).
pub(crate) struct ComputerSlot {
    clients: Arc<Mutex<HashMap<IpAddr, ClientUse>>>,
    ip: IpAddr,
    only: bool,
}

impl Drop for ComputerSlot {
    fn drop(&mut self) {
        if let Ok(mut map) = self.clients.lock()
            && let Some(u) = map.get_mut(&self.ip)
        {
            u.computer_games = u.computer_games.saturating_sub(1);
            if self.only {
                u.computer_only = u.computer_only.saturating_sub(1);
            }
            if u.computer_games == 0 {
                map.remove(&self.ip);
            }
        }
    }
}

/// The answer to a game's creation.
pub(crate) struct Created {
    pub id: String,
    /// The creator's seat and token (the first seat given a holder).
    pub seat: Option<Seat>,
    pub token: Option<String>,
    /// The state as the creator's seat sees it.
    pub state: Value,
    /// Every seat's token, for the seats given a holder.
    pub tokens: Vec<Option<String>>,
}

/// Who takes a seat when a game is made.
#[derive(Clone, Debug)]
pub(crate) enum Holder {
    /// A logged-in account (its name is the seat's name).
    Account(crate::store::AccountRow),
    /// A guest, with a display name if given.
    Guest(Option<String>),
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
    /// The creator's display name (a guest's; an account plays under its name).
    #[serde(default)]
    pub name: Option<String>,
    /// Whether the game changes ratings (every person an account).
    #[serde(default)]
    pub rated: bool,
    /// The time control: `{"initial", "increment"}` in seconds or `{"days"}`.
    #[serde(default)]
    pub clock: Option<Value>,
}

impl Shared {
    pub(crate) fn new(
        registry: Registry,
        store: Arc<dyn Storage>,
        writer: Writer,
        pool: AiPool,
        limits: Limits,
        cluster: Option<Arc<crate::cluster::Cluster>>,
    ) -> Self {
        Shared {
            ctx: Arc::new(TableCtx::new(registry, writer, pool, limits, store.clone(), cluster)),
            store,
            loading: Mutex::new(HashMap::new()),
            connections: AtomicUsize::new(0),
            http_buckets: Mutex::new(HashMap::new()),
            clients: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// The limits enforced.
    pub(crate) fn limits(&self) -> &Limits {
        &self.ctx.limits
    }

    /// The task of game `id`, loading the game from the database if needed.
    pub(crate) async fn table(self: &Arc<Self>, id: &str) -> Result<mpsc::Sender<Cmd>, ApiError> {
        if !ids::well_formed(id) || id.len() > 32 {
            return Err(ApiError::not_found(format!("there is no game {id:?}")));
        }
        if let Some(tx) = self.ctx.lookup(id) {
            return Ok(tx);
        }
        let lock = {
            let mut map = self.loading.lock().map_err(|_| ApiError::internal("loader poisoned"))?;
            map.entry(id.to_string()).or_default().clone()
        };
        let guard = lock.lock().await;
        let r = self.load(id).await;
        drop(guard);
        if let Ok(mut map) = self.loading.lock()
            && map.get(id).is_some_and(|l| Arc::strong_count(l) <= 2)
        {
            map.remove(id);
        }
        r
    }

    async fn load(self: &Arc<Self>, id: &str) -> Result<mpsc::Sender<Cmd>, ApiError> {
        if let Some(tx) = self.ctx.lookup(id) {
            return Ok(tx);
        }
        // Instances sharing the database: the owner's copy if the game is
        // free, else a replica following the owner.
        let role = match &self.ctx.cluster {
            None => Role::Solo,
            Some(c) => match c.acquire(id).await.map_err(ApiError::storage)? {
                Some(epoch) => Role::Owner(epoch),
                None => Role::Replica,
            },
        };
        let leader = match (&self.ctx.cluster, role) {
            (Some(c), Role::Replica) => c.owner(id).await.map_err(ApiError::storage)?,
            _ => None,
        };
        let r = self.restored(id).await;
        if let (Err(_), Role::Owner(epoch), Some(c)) = (&r, role, &self.ctx.cluster) {
            c.release(id, epoch).await;
        }
        let mut table = r?;
        table.set_role(role, leader);
        Ok(self.ctx.install(table))
    }

    /// Game `id` rebuilt from the database.
    async fn restored(self: &Arc<Self>, id: &str) -> Result<Table, ApiError> {
        let stored = self
            .store
            .load(id)
            .await
            .map_err(ApiError::storage)?
            .ok_or_else(|| ApiError::not_found(format!("there is no game {id:?}")))?;
        // Replaying the moves (and a finished game's results) is CPU work:
        // off the async runtime.
        let ctx = self.ctx.clone();
        tokio::task::spawn_blocking(move || Table::restore(ctx, stored))
            .await
            .map_err(|_| ApiError::internal("loading the game failed"))?
    }

    /// Take game `id` over if nobody holds it (its owner has gone): a
    /// replica here becomes the owner; else the game is loaded as its owner.
    /// Whether this instance owns it now.
    pub(crate) async fn take_over(self: &Arc<Self>, id: &str) -> Result<bool, ApiError> {
        let Some(c) = &self.ctx.cluster else { return Ok(false) };
        // One loading of a game at a time (the start's resumption and the
        // sweep may both find it); one this instance holds is left alone.
        let lock = {
            let mut map = self.loading.lock().map_err(|_| ApiError::internal("loader poisoned"))?;
            map.entry(id.to_string()).or_default().clone()
        };
        let guard = lock.lock().await;
        let r = self.take_over_locked(c, id).await;
        drop(guard);
        if let Ok(mut map) = self.loading.lock()
            && map.get(id).is_some_and(|l| Arc::strong_count(l) <= 2)
        {
            map.remove(id);
        }
        r
    }

    async fn take_over_locked(self: &Arc<Self>, c: &crate::cluster::Cluster, id: &str) -> Result<bool, ApiError> {
        if c.holds(id) && self.ctx.lookup(id).is_some() {
            return Ok(true);
        }
        let Some(epoch) = c.acquire(id).await.map_err(ApiError::storage)? else { return Ok(false) };
        if let Some(tx) = self.ctx.lookup(id)
            && tx.send(Cmd::Remote(Remote::Promote { epoch })).await.is_ok()
        {
            // What it asked the gone owner comes back, to be done here.
            c.taken(id);
            return Ok(true);
        }
        match self.restored(id).await {
            Ok(mut table) => {
                table.set_role(Role::Owner(epoch), None);
                self.ctx.install(table);
                Ok(true)
            }
            Err(e) => {
                c.release(id, epoch).await;
                Err(e)
            }
        }
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

    /// Every second, load the games out of memory whose clock has fallen
    /// (their task ends them on time), until the server stops.
    pub(crate) fn watch_clocks(self: &Arc<Self>) {
        let shared = self.clone();
        let mut halted = self.ctx.halted();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(1));
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = halted.changed() => return,
                }
                for id in shared.ctx.due(now_ms()) {
                    if let Err(e) = shared.table(&id).await {
                        tracing::error!("game {id}: its clock fell but it cannot be loaded: {e}");
                    }
                }
            }
        });
    }

    /// Resume every live game with a computer seat or a clock (after a
    /// restart); with instances sharing the database, those nobody holds.
    pub(crate) async fn resume(self: &Arc<Self>) -> Result<usize, ApiError> {
        if let Some(c) = &self.ctx.cluster {
            let ids = c.orphans(true, i64::MAX).await.map_err(ApiError::storage)?;
            let mut n = 0;
            for id in ids {
                match self.take_over(&id).await {
                    Ok(true) => n += 1,
                    Ok(false) => {}
                    Err(e) => tracing::error!("game {id} cannot be resumed: {e}"),
                }
            }
            return Ok(n);
        }
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

    /// May this client address make another request? (Keyed by address, not
    /// by connection: a new connection gets no fresh bucket.)
    pub(crate) fn http_allowed(&self, addr: IpAddr) -> bool {
        let Ok(mut map) = self.http_buckets.lock() else { return true };
        if map.len() > 50_000 {
            let now = Instant::now();
            map.retain(|_, b| now.duration_since(b.last) < Duration::from_secs(60));
        }
        map.entry(crate::listen::address_key(addr))
            .or_insert_with(|| Bucket::new(self.ctx.limits.http_burst))
            .take(self.ctx.limits.http_rate, self.ctx.limits.http_burst)
    }

    /// Take a share of the computer players for a new game of `client` with
    /// computer seats (`only`: computers in every seat).
    fn computer_slot(self: &Arc<Self>, client: IpAddr, only: bool) -> Result<ComputerSlot, ApiError> {
        let mut map = self.clients.lock().map_err(|_| ApiError::internal("client table poisoned"))?;
        let u = map.entry(client).or_default();
        let too_many =
            |what: String| ApiError::new(axum::http::StatusCode::TOO_MANY_REQUESTS, "too_many_computer_games", what);
        if u.computer_games >= self.ctx.limits.computer_games_per_client {
            return Err(too_many(format!(
                "you already have {} games with computer players going: finish or abort one first",
                u.computer_games
            )));
        }
        if only && u.computer_only >= self.ctx.limits.computer_only_games_per_client {
            return Err(too_many(format!(
                "you already have {} games between computers going: wait for one to end",
                u.computer_only
            )));
        }
        u.computer_games += 1;
        if only {
            u.computer_only += 1;
        }
        Ok(ComputerSlot { clients: self.clients.clone(), ip: client, only })
    }

    /// Create a game for `client`, the creator's seat (`req.seat`, default
    /// the first person's) taken by `account` if logged in, else by a guest
    /// named `req.name`.
    pub(crate) async fn create(
        self: &Arc<Self>,
        req: CreateRequest,
        client: IpAddr,
        account: Option<crate::store::AccountRow>,
    ) -> Result<Created, ApiError> {
        let holder = match account {
            Some(a) => Holder::Account(a),
            None => {
                let name = match &req.name {
                    Some(n) => Some(crate::protocol::clean_name(n).map_err(|e| ApiError::bad_request("bad_name", e))?),
                    None => None,
                };
                Holder::Guest(name)
            }
        };
        self.make(req, client, Creator::Default(holder)).await
    }

    /// Create a game with these seats already taken (a seek or a challenge
    /// accepted): `holders` gives each seat taken and who takes it. The
    /// answer's `seat`/`token` are the first holder's; `tokens` has every one.
    pub(crate) async fn create_seated(
        self: &Arc<Self>,
        req: CreateRequest,
        client: IpAddr,
        holders: Vec<(Seat, Holder)>,
    ) -> Result<Created, ApiError> {
        self.make(req, client, Creator::Seated(holders)).await
    }

    async fn make(self: &Arc<Self>, req: CreateRequest, client: IpAddr, creator: Creator) -> Result<Created, ApiError> {
        let bad = |m: String| ApiError::bad_request("bad_setup", m);
        if req.game.len() > 64 {
            return Err(bad("the game name is too long".into()));
        }
        let options = options_of(&req.options)?;
        let entry = self.ctx.registry.get(&req.game).map_err(|e| bad(e.to_string()))?;
        let info = entry.info();
        let clock = match &req.clock {
            None | Some(Value::Null) => None,
            Some(v) => Some(crate::clock::TimeControl::parse(v).map_err(|e| ApiError::bad_request("bad_clock", e))?),
        };
        // A game with hidden information is dealt from a seed the server
        // draws when its last seat is taken, never from a client's (whoever
        // chose it would know every secret).
        let seed = match client_seed(req.seed.as_ref(), info)? {
            Some(s) => s,
            None if info.uses_seed && !info.hidden => ids::random_u64()?,
            None => 0,
        };
        if let Some(v) = &req.variant
            && v.len() > 64
        {
            return Err(bad("the variant name is too long".into()));
        }
        let mut setup = Setup { variant: req.variant.clone(), options, seed };
        let mut m = new_match_checked(entry, &setup)?;
        let n = m.seats();
        let seat_reqs = req.seats.clone().unwrap_or_else(|| vec![SeatRequest::Human; n]);
        if seat_reqs.len() != n {
            return Err(bad(format!("this game has {n} seats, and {} were given", seat_reqs.len())));
        }
        if req.rated {
            rated_setup(info, &req.options)?;
        }
        let mut players: Vec<Option<Box<dyn AnyPlayer>>> = Vec::with_capacity(n);
        let mut seats: Vec<SeatRow> = Vec::with_capacity(n);
        for (i, s) in seat_reqs.iter().enumerate() {
            match s {
                SeatRequest::Human => {
                    players.push(None);
                    seats.push(SeatRow::open(i));
                }
                SeatRequest::Computer { player } => {
                    let level = crate::players::level_of(player);
                    if req.rated && level.is_none() {
                        return Err(ApiError::bad_request(
                            "unrated_player",
                            format!("seat {i}: a rated game's computer seat is a level, ai:1 to ai:6"),
                        ));
                    }
                    // Made off the async runtime: a search's tables take time to allocate.
                    let (game, spec) = (info.name, player.clone());
                    let p = tokio::task::spawn_blocking(move || crate::players::make_player(game, &spec))
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
                        account: level.map(crate::players::level_account),
                    });
                }
            }
        }
        let holders: Vec<(Seat, Holder)> = match creator {
            Creator::Default(h) => {
                let seat = match req.seat {
                    Some(s) if s >= n => return Err(bad(format!("this game has seats 0 to {}", n - 1))),
                    Some(s) => Some(s),
                    None => seats.iter().position(|s| s.kind == SeatKind::Human),
                };
                seat.map(|s| (s, h)).into_iter().collect()
            }
            Creator::Seated(hs) => hs,
        };
        if req.rated && !holders.iter().any(|(_, h)| matches!(h, Holder::Account(_))) {
            // The computer levels' ratings anchor the pool: only a person
            // playing them moves them.
            return Err(ApiError::account_required("its creator plays in it: log in and take a seat"));
        }
        let mut tokens: Vec<Option<String>> = vec![None; n];
        for (s, h) in &holders {
            let s = *s;
            if s >= n {
                return Err(bad(format!("this game has seats 0 to {}", n - 1)));
            }
            if seats[s].kind != SeatKind::Human {
                return Err(bad(format!("seat {s} is a computer seat")));
            }
            if tokens[s].is_some() {
                return Err(bad(format!("seat {s} is given twice")));
            }
            let (name, account) = match h {
                Holder::Account(a) => {
                    if seats.iter().any(|x| x.account.as_deref() == Some(a.id.as_str())) {
                        return Err(ApiError::conflict("already_seated", "an account holds one seat of a game"));
                    }
                    (Some(a.name.clone()), Some(a.id.clone()))
                }
                Holder::Guest(_) if req.rated => {
                    return Err(ApiError::account_required("log in (or sign up) first"));
                }
                Holder::Guest(name) => (name.clone(), None),
            };
            let t = ids::new_token()?;
            seats[s].token_hash = Some(ids::hash_token(&t));
            seats[s].name = name;
            seats[s].account = account;
            tokens[s] = Some(t);
        }
        let status = if seats.iter().any(|s| s.kind == SeatKind::Human && s.token_hash.is_none()) {
            Status::Open
        } else {
            Status::Live
        };
        if info.hidden && info.uses_seed && status == Status::Live {
            // Every seat is taken at once: the game starts, and is dealt, now.
            setup.seed = ids::random_u64()?;
            m = new_match_checked(entry, &setup)?;
        }
        let seed = setup.seed;
        let computers = seats.iter().filter(|s| s.kind == SeatKind::Computer).count();
        let slot = if computers > 0 { Some(self.computer_slot(client, computers == n)?) } else { None };
        let now = now_ms();
        let row = GameRow {
            id: ids::new_game_id()?,
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
            rated: req.rated,
            clock,
        };
        let mut ops = vec![WriteOp::InsertGame { game: row.clone(), seats: seats.clone() }];
        ops.extend(self.ctx.new_lease(&row.id));
        self.ctx.writer.commit(ops).await.map_err(ApiError::storage)?;
        let id = row.id.clone();
        let mut table = Table::new(self.ctx.clone(), row, &seats, m, players);
        table.set_owner(client.to_string(), slot);
        let seat = holders.first().map(|(s, _)| *s);
        let state = table.state_json(seat, true, true);
        self.ctx.install_new(table);
        let token = seat.and_then(|s| tokens[s].clone());
        Ok(Created { id, seat, token, state, tokens })
    }
}

/// Who takes seats at creation.
enum Creator {
    /// The creator, in `req.seat` (default: the first person's seat).
    Default(Holder),
    /// These seats, these holders.
    Seated(Vec<(Seat, Holder)>),
}

/// Whether a set-up may be rated: options that set up a custom position
/// (text or content options, such as Abalone's `position`, Colorito's
/// `board`, Abraxas's `sheet`) make a game casual only; the variants'
/// presets are fair.
pub(crate) fn rated_setup(
    info: &plateau_core::GameInfo,
    values: &BTreeMap<String, OptionValue>,
) -> Result<(), ApiError> {
    use plateau_core::OptionKind;
    for k in values.keys() {
        if let Some(o) = info.options.iter().find(|o| o.name == k)
            && matches!(o.kind, OptionKind::Text | OptionKind::Content)
        {
            return Err(ApiError::bad_request(
                "unrated_options",
                format!("the option {k} sets up a custom position: such a game can only be casual"),
            ));
        }
    }
    Ok(())
}

/// The seed a client sent, if any: a number or its decimal text, and never
/// for a game with hidden information (whoever chose it would know every
/// secret: the server deals it when every seat is taken).
pub(crate) fn client_seed(seed: Option<&SeedValue>, info: &plateau_core::GameInfo) -> Result<Option<u64>, ApiError> {
    let bad = |m: String| ApiError::bad_request("bad_setup", m);
    match seed {
        None => Ok(None),
        Some(_) if info.hidden => Err(bad(format!(
            "{} has hidden information: its set-up is dealt by the server when every seat is taken, \
             and a seed cannot be chosen here (the command line, `plateau play --seed`, allows it for study)",
            info.title
        ))),
        Some(SeedValue::Num(n)) => Ok(Some(*n)),
        Some(SeedValue::Text(t)) => t
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| bad(format!("the seed {t:?} is not a whole number from 0 to 2^64-1"))),
    }
}

/// A client's option values as text options.
pub(crate) fn options_of(values: &BTreeMap<String, OptionValue>) -> Result<Options, ApiError> {
    let bad = |m: &str| ApiError::bad_request("bad_setup", m);
    if values.len() > 64 {
        return Err(bad("too many options"));
    }
    let mut options = Options::new();
    for (k, v) in values {
        if k.len() > 64 {
            return Err(bad("an option name is too long"));
        }
        let v = match v {
            OptionValue::Text(s) => s.clone(),
            OptionValue::Int(n) => n.to_string(),
            OptionValue::Bool(b) => b.to_string(),
        };
        options.set(k.clone(), v);
    }
    Ok(options)
}

/// A new match from a client's set-up: the game's own checks, then the caps
/// on work a client may ask of the server, guarded against a panic.
pub(crate) fn new_match_checked(
    entry: &dyn plateau_core::erased::GameEntry,
    setup: &Setup,
) -> Result<Box<dyn plateau_core::AnyMatch>, ApiError> {
    let bad = |m: String| ApiError::bad_request("bad_setup", m);
    entry.info().check_untrusted(setup).map_err(|e| bad(e.to_string()))?;
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| entry.new_match(setup)))
        .map_err(|_| ApiError::internal("the rules engine failed on these options"))?
        .map_err(|e| bad(e.to_string()))
}

//! The Plateau game server: every registered game, online, through an HTTP JSON
//! API and one WebSocket per game; games kept in SQLite; computer seats played
//! on the server.
//!
//! The API reference is `docs/server.md` (served at `/api/docs`). In short:
//!
//! - `POST /api/games` creates a game (game, variant, options, seed, and for
//!   each seat a person or a computer player); the creator gets the game's id
//!   and the secret token of their seat. `POST /api/games/{id}/join` takes an
//!   open seat and gets its own token. `GET /api/games` lists open, live,
//!   finished and aborted games, paged; `GET /api/games/{id}` and
//!   `/record` read a game as the requester may see it.
//! - Accounts (`accounts.rs`): `POST /api/accounts` signs up, `POST`,
//!   `GET` and `DELETE /api/session` log in, say who is logged in and log
//!   out (a session cookie), `/api/account/password` and
//!   `/api/account/tokens` change the password and manage personal access
//!   tokens, `GET /api/players/{name}` is a player's public page.
//! - Finding an opponent (`lobby.rs`, in memory): seeks (`/api/seeks`),
//!   quick pairing (`/api/quick`), challenges between accounts
//!   (`/api/challenges`), and the lobby's WebSocket `GET /api/lobby/ws`
//!   (the open seeks, and each owner's news).
//! - Analysis and learning (`analysis.rs`, `puzzles.rs`): the computer
//!   analysis of a finished game (`/api/games/{id}/analysis`, queued in the
//!   database and run on the computer players' pool), the analysis board
//!   (`POST /api/analyse`) and puzzles (`/api/puzzles`).
//! - `GET /api/games/{id}/ws` is the game's WebSocket: the client says hello
//!   (with its token, or none to watch, and the last version it saw), gets the
//!   missing events or a full resync, then an `update` for every change, with
//!   its own view of the position and, when it must decide, its legal moves. It
//!   sends moves in notation with the version they were chosen on, and
//!   resigns, offers draws, aborts, asks for rematches.
//!
//! # How it is built
//!
//! - Each game in memory is a task (the private `table` module) that owns the match
//!   and does everything to it in order: check, apply, write to the database
//!   and wait for the commit, then broadcast. Nothing is acknowledged or sent
//!   before it is committed; a game is rebuilt after a restart by replaying its
//!   stored events, so a server killed at any moment resumes every game at its
//!   last acknowledged move.
//! - Writes from all games go through one group-commit [`store::Writer`]: all
//!   waiting writes, of every game, in one transaction. The database is behind
//!   the narrow [`store::Storage`] trait (SQLite in WAL mode here).
//! - Computer seats play on a fixed pool of plain threads at low priority
//!   ([`pool`]), given a copy of the match, never on the async runtime.
//! - Each reader gets only its own view (`AnyMatch::view(Reader::Seat(s))`, or
//!   the spectator's): a seat's secrets never leave the server in anyone
//!   else's frame. Tokens are 256-bit random secrets stored as SHA-256 hashes.
//! - Limits: request bodies and WebSocket messages are bounded, every
//!   connection is rate-limited, open connections are capped per client
//!   address and in all and time out when idle or too slow to send a request
//!   (`listen.rs`, [`ConnLimits`]), every input is checked, every error is JSON
//!   `{"code", "message"}`, and calls into game code are guarded so that no
//!   input can bring the server down.
//!
//! [`router`] builds the HTTP routes; a web interface is merged in by passing
//! its own [`axum::Router`] (it then serves `/` and its assets; it must not set
//! a fallback). [`start`] opens the database, resumes the games and listens.

#![warn(missing_docs)]

pub mod clock;
pub mod error;
pub mod ids;
pub mod players;
pub mod pool;
pub mod protocol;
pub mod store;

mod accounts;
mod analysis;
mod api;
mod bots;
mod cluster;
mod learn;
mod listen;
mod lobby;
mod metrics;
mod position;
mod profiles;
mod puzzles;
mod state;
mod table;
mod ws;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request};
use axum::http::header;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use tokio::sync::oneshot;

/// A game's per-move path without sockets, and the group-commit writer
/// alone, for `benches/moves.rs` (not an API: it may change with the
/// server).
#[doc(hidden)]
pub mod bench {
    pub use crate::store::bench::CommitBench;
    pub use crate::table::bench::MoveBench;
}

pub use error::ApiError;
pub use listen::ConnLimits;
pub use players::{check_spec, make_player};
pub use state::{CreateRequest, Limits, OptionValue, SeatRequest, SeedValue};
pub use store::Durability;

/// The API reference, served at `/api/docs`.
pub const API_DOCS: &str = include_str!("../../../docs/server.md");

/// The state the routes share (cheap to clone).
#[derive(Clone)]
pub struct AppState(Arc<state::Shared>, Arc<accounts::Accounts>, Arc<lobby::Lobby>, Arc<analysis::Service>);

/// How to run a server.
#[derive(Clone)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The database URL: `sqlite://PATH` (or a bare path).
    pub db: String,
    /// How hard commits are made durable.
    pub durability: Durability,
    /// The group commit's delay: how long the SQLite writer waits for more
    /// writes before committing when writes come concurrently (capped at
    /// [`store::MAX_COMMIT_DELAY`]; zero: never).
    pub commit_delay: std::time::Duration,
    /// Threads of the computer players.
    pub ai_threads: usize,
    /// The limits enforced.
    pub limits: Limits,
    /// The limits on connections: time-outs, caps per address and in all.
    pub connections: ConnLimits,
    /// The web interface's routes, merged in (they serve `/`).
    pub ui: Option<Router>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: "sqlite://data/plateau.sqlite".to_string(),
            durability: Durability::Full,
            commit_delay: store::DEFAULT_COMMIT_DELAY,
            ai_threads: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
            limits: Limits::default(),
            connections: ConnLimits::default(),
            ui: None,
        }
    }
}

/// Why a server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The database could not be opened or migrated.
    #[error("database: {0}")]
    Store(#[from] store::StoreError),
    /// The operating system's random generator failed: no safe token or
    /// deal can be made, and the server does not fall back to anything weaker.
    #[error("{0}")]
    Random(#[from] ids::RandomError),
    /// The address could not be bound.
    #[error("listening on {addr}: {error}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The error.
        error: std::io::Error,
    },
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    resumed: usize,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    shared: Arc<state::Shared>,
}

impl Server {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The number of games with computer seats resumed at start.
    pub fn resumed(&self) -> usize {
        self.resumed
    }

    /// Stop accepting connections, wait for the requests in progress (at
    /// most 30 s; upgraded WebSockets are not waited for), then end every
    /// game's task (their sockets close).
    pub async fn stop(mut self) -> std::io::Result<()> {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        let r = self.task.await.unwrap_or(Ok(()));
        self.shared.ctx.halt();
        if let Some(c) = &self.shared.ctx.cluster {
            // Hand the games over: the other instances take them at once.
            match c.release_all().await {
                Ok(n) => tracing::info!("{n} games handed over to the other instances"),
                Err(e) => {
                    tracing::error!("the games could not be handed over (they will be when their leases expire): {e}")
                }
            }
        }
        r
    }

    /// Run until Ctrl-C or SIGTERM, then stop.
    pub async fn run_until_signal(self) -> std::io::Result<()> {
        shutdown_signal().await;
        tracing::info!("stopping");
        self.stop().await
    }
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(t) => t,
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Open the database, resume the games with computer seats, and listen.
pub async fn start(config: Config) -> Result<Server, StartError> {
    ids::check_random()?;
    let store = store::open(&config.db, config.durability).await?;
    let writer = store::Writer::spawn_with(store.clone(), config.commit_delay);
    let pool = pool::AiPool::new(config.ai_threads);
    let cluster = match store.postgres() {
        Some(pg) => Some(Arc::new(cluster::Cluster::new(pg.clone(), config.limits.lease)?)),
        None => None,
    };
    let shared =
        Arc::new(state::Shared::new(plateau_games::registry(), store, writer, pool, config.limits.clone(), cluster));
    // With other instances: hear them before taking any game.
    cluster::run::start(&shared).await?;
    let resumed = match shared.resume().await {
        Ok(n) => n,
        Err(e) => {
            tracing::error!("resuming games: {e}");
            0
        }
    };
    shared.watch_clocks();
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|error| StartError::Bind { addr: config.addr, error })?;
    let addr = listener.local_addr().map_err(|error| StartError::Bind { addr: config.addr, error })?;
    let accounts = Arc::new(accounts::Accounts::new());
    accounts.warm();
    let analyses = analysis::Service::start(&shared);
    let app = router(AppState(shared.clone(), accounts, lobby::Lobby::start(&shared).await, analyses), config.ui);
    let connections = config.connections.effective(listen::fd_limit());
    if connections.max_total < config.connections.max_total {
        tracing::info!(
            "at most {} connections (not {}): the limit of open files is {}",
            connections.max_total,
            config.connections.max_total,
            listen::fd_limit().unwrap_or(0)
        );
    }
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(listen::serve(listener, app, connections, async {
        let _ = stopped.await;
    }));
    Ok(Server { addr, resumed, stop: Some(stop), task, shared })
}

/// The routes of the server, with `ui` merged in (or a short index page at
/// `/` when there is none).
pub fn router(state: AppState, ui: Option<Router>) -> Router {
    let limits = state.0.limits().clone();
    let api = Router::new()
        .route("/api/health", get(api::health))
        .route("/api/docs", get(api::docs))
        .route("/api/catalog", get(api::catalog))
        .route("/api/setup", post(api::setup))
        .route("/api/position", post(position::position))
        .route("/api/learn", get(learn::list))
        .route("/api/learn/{game}/{lesson}/{step}", post(learn::try_move))
        .route("/api/stats", get(api::stats))
        .route("/metrics", get(metrics::scrape))
        .route("/api/games", get(api::list).post(api::create))
        .route("/api/games/{id}", get(api::get_game))
        .route("/api/games/{id}/join", post(api::join))
        .route("/api/games/{id}/action", post(api::action))
        .route("/api/games/{id}/record", get(api::record))
        .route("/api/games/{id}/position", get(api::position))
        .route("/api/games/{id}/ws", get(ws::upgrade))
        .route("/api/games/{id}/analysis", get(analysis::status).post(analysis::request))
        .route("/api/analyse", post(analysis::board))
        .route("/api/puzzles", get(puzzles::list))
        .route("/api/puzzles/{game}/next", get(puzzles::next))
        .route("/api/puzzles/id/{id}", get(puzzles::one))
        .route("/api/puzzles/id/{id}/move", post(puzzles::play))
        .route("/api/puzzles/id/{id}/hint", post(puzzles::hint))
        .route("/api/accounts", post(accounts::sign_up))
        .route("/api/session", get(accounts::current).post(accounts::log_in).delete(accounts::log_out))
        .route("/api/account/password", post(accounts::change_password))
        .route("/api/account/tokens", get(accounts::list_tokens).post(accounts::create_token))
        .route("/api/account/tokens/{id}", delete(accounts::revoke_token))
        .route("/api/players/{name}", get(profiles::player))
        .route("/api/leaderboard/{game}", get(profiles::leaderboard))
        .route("/api/account/games", get(profiles::my_games))
        .route("/api/account/claim", post(profiles::claim))
        .route("/api/account/bot", get(bots::get_bot).post(bots::become_bot).put(bots::update_bot))
        .route("/api/bots", get(bots::list))
        .route("/api/seeks", get(lobby::list_seeks).post(lobby::post_seek))
        .route("/api/seeks/{id}", get(lobby::get_seek).delete(lobby::cancel_seek))
        .route("/api/seeks/{id}/accept", post(lobby::accept_seek))
        .route("/api/quick", get(lobby::presets).post(lobby::quick))
        .route("/api/challenges", get(lobby::list_challenges).post(lobby::post_challenge))
        .route("/api/challenges/{id}", delete(lobby::cancel_challenge))
        .route("/api/challenges/{id}/accept", post(lobby::accept_challenge))
        .route("/api/challenges/{id}/decline", post(lobby::decline_challenge))
        .route("/api/lobby/ws", get(lobby::upgrade))
        .with_state(state.clone());
    let app = match ui {
        Some(ui) => api.merge(ui),
        None => api.route("/", get(api::index)).route("/game/{id}", get(api::index)),
    };
    app.fallback(api::not_found)
        .layer(DefaultBodyLimit::max(limits.max_body))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            limits.request_timeout,
        ))
        .layer(middleware::from_fn(accounts::cross_site))
        .layer(middleware::from_fn_with_state(state, rate_limit))
        .layer(middleware::from_fn(json_errors))
}

/// The address of the client a request comes from: the peer's, or, when the
/// server is told it is behind a reverse proxy on this machine
/// ([`Limits::behind_proxy`]) and the peer is a loopback address, the last
/// address of `X-Forwarded-For` (the one the proxy saw). Limits per client
/// (requests per second, computer games) are keyed by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub std::net::IpAddr);

fn client_ip(limits: &Limits, req: &Request) -> Option<std::net::IpAddr> {
    let ConnectInfo(peer) = req.extensions().get::<ConnectInfo<SocketAddr>>()?;
    let peer = peer.ip();
    if !(limits.behind_proxy && peer.is_loopback()) {
        return Some(peer);
    }
    let forwarded = req
        .headers()
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .last()
        .and_then(|a| a.trim().parse().ok());
    Some(forwarded.unwrap_or(peer))
}

async fn rate_limit(
    axum::extract::State(st): axum::extract::State<AppState>,
    mut req: Request,
    next: Next,
) -> Response {
    // The web interface's files are served from memory (with ETags): a page
    // load fetches dozens of them, and they do not count.
    let static_file = matches!(*req.method(), axum::http::Method::GET | axum::http::Method::HEAD)
        && req.uri().path().starts_with("/assets/");
    if let Some(ip) = client_ip(st.0.limits(), &req) {
        if !static_file && !st.0.http_allowed(ip) {
            return ApiError::rate_limited().into_response();
        }
        req.extensions_mut().insert(ClientIp(ip));
    }
    next.run(req).await
}

/// Every error response is JSON `{"code", "message"}`, including those made
/// outside the handlers (unknown method, body too large, time-out).
async fn json_errors(req: Request, next: Next) -> Response {
    let res = next.run(req).await;
    let status = res.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return res;
    }
    if res.headers().get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"application/json")) {
        return res;
    }
    let body = axum::body::to_bytes(res.into_body(), 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&body).trim().to_string();
    let message = if text.is_empty() { status.canonical_reason().unwrap_or("error").to_string() } else { text };
    ApiError::new(status, error::code_of(status), message).into_response()
}

/// Raise this process's limit of open files to its hard limit (a server and a
/// load tool hold thousands of sockets).
pub fn raise_fd_limit() {
    #[cfg(unix)]
    // SAFETY: getrlimit/setrlimit only read and write the struct passed.
    unsafe {
        let mut r = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) == 0 && r.rlim_cur < r.rlim_max {
            r.rlim_cur = r.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &r);
        }
    }
}

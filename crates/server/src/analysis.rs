//! The computer analysis of finished games and the analysis board (issue 19).
//!
//! **Analyses.** `POST /api/games/{id}/analysis` queues the analysis of a
//! finished game in the database (table `analyses`, migration 0008), at most
//! [`crate::Limits::analyses_queued`] waiting or running in all and
//! [`crate::Limits::analyses_per_client`] per client (an account, or a
//! guest's address). Each instance runs a scheduler ([`Service::start`]):
//! it claims queued analyses with a conditional `UPDATE` (so that one
//! instance only runs each), up to [`crate::Limits::analyses_running`] at
//! once, the client that least recently had one started here first, and
//! runs each one position per job on the computer pool's analysis lines
//! ([`crate::pool::Lane::Analysis`], round robin per client, taken only when
//! no search of play waits and by at most half the threads). Progress (the
//! positions judged, as JSON) is written after every position, so that an
//! analysis taken over after a restart, or by another instance when its
//! claimer's heartbeat expired, resumes where it stopped. The result is
//! stored once and served to everyone from the database.
//!
//! **The analysis board.** `POST /api/analyse` searches one position for at
//! most two seconds on the computer pool, in the lines of play (it is an
//! interactive, bounded search, as a computer's move), with a stop flag that
//! is set when the request's future is dropped (the client went away or the
//! request timed out) and when the same client starts another search: one
//! running search per client. Positions of games with hidden information are
//! searched only in finished games stored here (named by `game_id`, or by
//! their record's `Site` tag, with the same moves): a record a client makes
//! up could be a live game's.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use plateau_ai::StopFlag;
use plateau_analysis::{PositionEval, Settings};
use plateau_core::AnyMatch;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::AppState;
use crate::error::ApiError;
use crate::ids;
use crate::pool::{Lane, PoolFull};
use crate::state::{OptionValue, Shared};
use crate::store::analysis::{AnalysisRow, Requested};
use crate::store::{Status, StoredGame};
use crate::table::now_ms;

/// The analysis board's search time when none is asked.
pub const BOARD_TIME: Duration = Duration::from_millis(500);
/// The longest analysis-board search.
pub const MAX_BOARD_TIME: Duration = Duration::from_secs(2);
/// The shortest.
pub const MIN_BOARD_TIME: Duration = Duration::from_millis(10);
/// The most moves an analysis-board request may send.
pub const MAX_BOARD_MOVES: usize = 1_000;
/// The longest record it may send, in bytes.
pub const MAX_BOARD_RECORD: usize = 64 * 1024;
/// How often the scheduler looks for analyses without being woken (another
/// instance's, or one whose claimer died).
const SCHEDULE_EVERY: Duration = Duration::from_secs(2);
/// Analyses looked at per look.
const CANDIDATES: u32 = 200;

/// The analyses and analysis-board searches of this instance.
pub(crate) struct Service {
    /// This instance's id: the cluster's (its heartbeat is in `instances`),
    /// or a random one alone on SQLite.
    me: String,
    /// Set when the server stops: every analysis here stops.
    stop: StopFlag,
    wake: tokio::sync::Notify,
    /// Games whose analysis runs here.
    running: Mutex<HashSet<String>>,
    /// When each client last had an analysis started here (a sequence).
    started: Mutex<HashMap<String, u64>>,
    seq: AtomicU64,
    /// Each client's analysis-board search: its number and stop flag.
    board: Mutex<HashMap<String, (u64, StopFlag)>>,
    board_seq: AtomicU64,
}

impl Service {
    /// The service, its scheduler running until the server halts.
    pub(crate) fn start(shared: &Arc<Shared>) -> Arc<Service> {
        let me = match &shared.ctx.cluster {
            Some(c) => c.id.clone(),
            None => format!("solo-{:016x}", ids::random_u64().unwrap_or_else(|_| now_ms() as u64)),
        };
        let svc = Arc::new(Service {
            me,
            stop: Arc::new(AtomicBool::new(false)),
            wake: tokio::sync::Notify::new(),
            running: Mutex::new(HashSet::new()),
            started: Mutex::new(HashMap::new()),
            seq: AtomicU64::new(0),
            board: Mutex::new(HashMap::new()),
            board_seq: AtomicU64::new(0),
        });
        tokio::spawn(schedule(shared.clone(), svc.clone()));
        svc
    }

    fn running(&self) -> usize {
        self.running.lock().map_or(0, |r| r.len())
    }
}

/// Who a request is, for the caps and the puzzles: `account:ID` when logged
/// in, else `guest:` and a hash of the client's address (the key of the
/// server's other per-client shares).
pub(crate) async fn client_key(st: &AppState, headers: &HeaderMap, ip: IpAddr) -> Result<String, ApiError> {
    Ok(match crate::accounts::account_of(st, headers).await? {
        Some(a) => format!("account:{}", a.id),
        None => {
            let h = ids::hash_token(&crate::listen::address_key(ip).to_string());
            format!("guest:{}", &h[..16])
        }
    })
}

/// The client's address (the loopback address without connection
/// information).
pub(crate) fn ip_of(info: Option<Extension<crate::ClientIp>>) -> IpAddr {
    info.map_or(IpAddr::from([127, 0, 0, 1]), |Extension(crate::ClientIp(a))| a)
}

// ---------------------------------------------------------------------------
// The scheduler

async fn schedule(shared: Arc<Shared>, svc: Arc<Service>) {
    let mut halted = shared.ctx.halted();
    loop {
        if *halted.borrow() {
            break;
        }
        fill(&shared, &svc).await;
        tokio::select! {
            _ = svc.wake.notified() => {}
            _ = tokio::time::sleep(SCHEDULE_EVERY) => {}
            r = halted.changed() => if r.is_err() { break },
        }
    }
    svc.stop.store(true, Ordering::Relaxed);
    // Queued again for another instance, or for this one's next run.
    if let Err(e) = shared.store.release_analyses(&svc.me, now_ms()).await {
        tracing::warn!("analyses could not be handed back: {e}");
    }
}

/// Start analyses until this instance runs its share.
async fn fill(shared: &Arc<Shared>, svc: &Arc<Service>) {
    let max = shared.limits().analyses_running.max(1);
    for _ in 0..16 {
        if svc.running() >= max || svc.stop.load(Ordering::Relaxed) {
            return;
        }
        let candidates = match shared.store.analysis_candidates(&svc.me, now_ms(), CANDIDATES).await {
            Ok(c) => c,
            Err(e) => {
                tracing::warn!("reading the analyses' queue: {e}");
                return;
            }
        };
        // Fair: the client that least recently had one started here first
        // (never: first of all), then the oldest.
        let pick = {
            let (Ok(running), Ok(started)) = (svc.running.lock(), svc.started.lock()) else { return };
            candidates
                .iter()
                .enumerate()
                .filter(|(_, (g, _))| !running.contains(g))
                .min_by_key(|(i, (_, c))| (started.get(c).copied().unwrap_or(0), *i))
                .map(|(_, x)| x.clone())
        };
        let Some((game, client)) = pick else { return };
        match shared.store.claim_analysis(&game, &svc.me, now_ms()).await {
            Ok(true) => {}
            Ok(false) => continue,
            Err(e) => {
                tracing::warn!("claiming the analysis of {game}: {e}");
                return;
            }
        }
        if let Ok(mut r) = svc.running.lock() {
            r.insert(game.clone());
        }
        if let Ok(mut s) = svc.started.lock() {
            if s.len() > 10_000 {
                s.clear();
            }
            s.insert(client.clone(), svc.seq.fetch_add(1, Ordering::Relaxed) + 1);
        }
        tokio::spawn(run(shared.clone(), svc.clone(), game, client));
    }
}

/// Why an analysis ended before its end.
enum Halt {
    /// Stopped (the server stops, its claim was lost, the database failed):
    /// left to be taken again.
    Stopped,
    /// It cannot be done: stored as failed.
    Failed(String),
}

async fn run(shared: Arc<Shared>, svc: Arc<Service>, game: String, client: String) {
    match analyse_game(&shared, &svc, &game, &client).await {
        Ok(()) | Err(Halt::Stopped) => {}
        Err(Halt::Failed(error)) => {
            tracing::warn!("the analysis of {game} failed: {error}");
            match shared.store.finish_analysis(&game, &svc.me, Err(&error), now_ms()).await {
                Ok(_) => {
                    shared.ctx.metrics.analyses_done.inc();
                }
                Err(e) => tracing::warn!("storing the failure of the analysis of {game}: {e}"),
            }
        }
    }
    if let Ok(mut r) = svc.running.lock() {
        r.remove(&game);
    }
    svc.wake.notify_one();
}

/// Run `make()`'s job on the computer pool's analysis lines for `client`
/// (asking again while the pool is full).
async fn on_pool<T, F>(shared: &Shared, svc: &Service, client: &str, make: impl Fn() -> F) -> Result<T, Halt>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    loop {
        if svc.stop.load(Ordering::Relaxed) {
            return Err(Halt::Stopped);
        }
        match shared.ctx.pool.run(client, Lane::Analysis, make()) {
            Ok(rx) => {
                return match rx.await {
                    Ok(Ok(v)) => Ok(v),
                    Ok(Err(panic)) => Err(Halt::Failed(panic)),
                    Err(_) => Err(Halt::Stopped),
                };
            }
            Err(PoolFull) => tokio::time::sleep(Duration::from_millis(250)).await,
        }
    }
}

/// The finished game `id` replayed (off the async runtime), or why not.
async fn replayed(shared: &Arc<Shared>, stored: StoredGame) -> Result<Box<dyn AnyMatch>, ApiError> {
    let ctx = shared.ctx.clone();
    tokio::task::spawn_blocking(move || {
        let kinds: Vec<_> = stored.seats.iter().map(|s| s.kind).collect();
        let r = crate::table::replay(&ctx.registry, &stored.game, &kinds, &stored.events)?;
        let mut m = r.m;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| m.settle()))
            .map_err(|_| ApiError::internal("the rules engine failed on this game"))?;
        Ok(m)
    })
    .await
    .map_err(|_| ApiError::internal("replaying the game failed"))?
}

async fn analyse_game(shared: &Arc<Shared>, svc: &Arc<Service>, game: &str, client: &str) -> Result<(), Halt> {
    let store = &shared.store;
    let stopped = |_| Halt::Stopped;
    let row = store.analysis(game).await.map_err(stopped)?.ok_or(Halt::Stopped)?;
    let stored = store.load(game).await.map_err(stopped)?.ok_or_else(|| Halt::Failed("the game is gone".into()))?;
    if stored.game.status != Status::Finished {
        return Err(Halt::Failed("the game is not finished".into()));
    }
    let name = stored.game.game.clone();
    let m = replayed(shared, stored).await.map_err(|e| Halt::Failed(e.message))?;
    let settings = Settings::with_time(&name, shared.limits().analysis_time);
    let n = m.ply();
    let hidden = m.info().hidden;
    let total = (n + 1 + usize::from(hidden)) as u64;
    // Resume: the positions judged before, if they are a prefix of this
    // game's and by the same player.
    let mut evals: Vec<PositionEval> = if row.spec == settings.spec {
        row.evals.as_deref().and_then(|e| serde_json::from_str(e).ok()).unwrap_or_default()
    } else {
        Vec::new()
    };
    let good = evals.iter().enumerate().take_while(|(i, e)| e.ply == *i && *i <= n).count();
    evals.truncate(good);
    let m: Arc<Mutex<Box<dyn AnyMatch>>> = Arc::new(Mutex::new(m));
    let copy = |m: &Arc<Mutex<Box<dyn AnyMatch>>>| m.lock().map(|g| g.clone_box()).map_err(|_| Halt::Stopped);
    while evals.len() <= n {
        let ply = evals.len();
        let c = copy(&m)?;
        let c = Mutex::new(Some(c));
        let e = on_pool(shared, svc, client, || {
            let c = c.lock().ok().and_then(|mut g| g.take());
            let (s, stop) = (settings.clone(), svc.stop.clone());
            move || match c {
                Some(c) => plateau_analysis::evaluate_position(&*c, ply, &s, &stop),
                None => Err(plateau_analysis::AnalysisError("the position was lost".into())),
            }
        })
        .await?;
        let e = match e {
            Ok(e) => e,
            Err(_) if svc.stop.load(Ordering::Relaxed) => return Err(Halt::Stopped),
            Err(e) => return Err(Halt::Failed(e.0)),
        };
        evals.push(e);
        let json = serde_json::to_string(&evals).map_err(|e| Halt::Failed(e.to_string()))?;
        let held = store
            .analysis_progress(game, &svc.me, evals.len() as u64, total, &json, now_ms())
            .await
            .map_err(stopped)?;
        if !held {
            return Err(Halt::Stopped);
        }
    }
    // The hidden information (after the game, everything known) and the
    // whole analysis put together, in one more job.
    let c = Mutex::new(Some((copy(&m)?, evals)));
    let analysis = on_pool(shared, svc, client, || {
        let c = c.lock().ok().and_then(|mut g| g.take());
        let (s, stop) = (settings.clone(), svc.stop.clone());
        move || {
            let Some((c, evals)) = c else {
                return Err(plateau_analysis::AnalysisError("the position was lost".into()));
            };
            let h = if hidden { plateau_analysis::analyse_hidden(&*c, &s, &stop)? } else { None };
            plateau_analysis::assemble(&*c, &evals, h, &s)
        }
    })
    .await?;
    let analysis = match analysis {
        Ok(a) => a,
        Err(_) if svc.stop.load(Ordering::Relaxed) => return Err(Halt::Stopped),
        Err(e) => return Err(Halt::Failed(e.0)),
    };
    let json = serde_json::to_string(&analysis).map_err(|e| Halt::Failed(e.to_string()))?;
    if store.finish_analysis(game, &svc.me, Ok(&json), now_ms()).await.map_err(stopped)? {
        shared.ctx.metrics.analyses_done.inc();
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// The API of analyses

/// A game stored here, or 404.
async fn stored_game(st: &AppState, id: &str) -> Result<StoredGame, ApiError> {
    if !ids::well_formed(id) || id.len() > 32 {
        return Err(ApiError::not_found(format!("there is no game {id:?}")));
    }
    st.0.store
        .load(id)
        .await
        .map_err(ApiError::storage)?
        .ok_or_else(|| ApiError::not_found(format!("there is no game {id:?}")))
}

#[derive(Serialize)]
struct Done<'a> {
    status: &'static str,
    analysis: &'a RawValue,
}

/// An analysis's status as the API shows it.
async fn status_of(st: &AppState, row: &AnalysisRow) -> Result<Response, ApiError> {
    Ok(match row.status.as_str() {
        "queued" => {
            let ahead = st.0.store.analyses_ahead(row).await.map_err(ApiError::storage)?;
            Json(json!({ "status": "queued", "position": ahead })).into_response()
        }
        "running" => Json(json!({ "status": "running", "done": row.done, "total": row.total })).into_response(),
        "done" => {
            let text = row.analysis.as_deref().unwrap_or("null");
            let raw: &RawValue = serde_json::from_str(text).map_err(|e| ApiError::internal(e.to_string()))?;
            Json(Done { status: "done", analysis: raw }).into_response()
        }
        _ => Json(json!({ "status": "failed", "error": row.error.clone().unwrap_or_default() })).into_response(),
    })
}

/// `POST /api/games/{id}/analysis`.
pub(crate) async fn request(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    info: Option<Extension<crate::ClientIp>>,
) -> Result<Response, ApiError> {
    let stored = stored_game(&st, &id).await?;
    if stored.game.status != Status::Finished {
        return Err(ApiError::conflict(
            "not_finished",
            "only a finished game is analysed: the analysis of a game in progress would help a player cheat",
        ));
    }
    let client = client_key(&st, &headers, ip_of(info)).await?;
    let limits = st.0.limits();
    let spec = Settings::with_time(&stored.game.game, limits.analysis_time).spec;
    let caps = (limits.analyses_queued as u64, limits.analyses_per_client as u64);
    let row = match st.0.store.request_analysis(&id, &client, &spec, now_ms(), caps).await.map_err(ApiError::storage)? {
        Requested::Queued => {
            st.0.ctx.metrics.analyses_queued.inc();
            st.3.wake.notify_one();
            let row = st.0.store.analysis(&id).await.map_err(ApiError::storage)?;
            let row = row.ok_or_else(|| ApiError::internal("the analysis queued is gone"))?;
            let mut res = status_of(&st, &row).await?;
            *res.status_mut() = StatusCode::ACCEPTED;
            return Ok(res);
        }
        Requested::Exists(row) => row,
        Requested::Busy { client } => {
            let why = if client {
                format!("you already have {} analyses waiting or running: wait for one to end", caps.1)
            } else {
                "the analysis queue is full: try again in a few minutes".to_string()
            };
            return Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "analysis_busy", why));
        }
    };
    status_of(&st, &row).await
}

/// `GET /api/games/{id}/analysis`.
pub(crate) async fn status(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    if !ids::well_formed(&id) || id.len() > 32 {
        return Err(ApiError::not_found(format!("there is no game {id:?}")));
    }
    match st.0.store.analysis(&id).await.map_err(ApiError::storage)? {
        Some(row) => status_of(&st, &row).await,
        None => {
            stored_game(&st, &id).await?;
            Ok(Json(json!({ "status": "none" })).into_response())
        }
    }
}

// ---------------------------------------------------------------------------
// The analysis board

/// `POST /api/analyse`: a position (a set-up and moves, a record, or a game
/// stored here and a ply) and a search time.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct BoardRequest {
    #[serde(default)]
    game: Option<String>,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    options: BTreeMap<String, OptionValue>,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default)]
    record: Option<String>,
    /// The search time in milliseconds (default 500, at most 2000).
    #[serde(default)]
    time_ms: Option<u64>,
    /// A game stored here: its position after `ply` moves (default: all).
    #[serde(default)]
    game_id: Option<String>,
    /// With `record` or `game_id`: the position after this many of its moves.
    #[serde(default)]
    ply: Option<usize>,
}

fn bad(code: &'static str, m: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(code, m.to_string())
}

fn refused_hidden(why: &str) -> ApiError {
    ApiError::conflict(
        "hidden_in_progress",
        format!(
            "a game with hidden information is analysed only once it is finished, from this server's own record \
             of it (or its game_id): {why}"
        ),
    )
}

/// The id a record of this server names in its `Site` tag.
fn site_id(rec: &plateau_core::Record) -> Option<String> {
    rec.tag("Site").and_then(|s| s.strip_prefix("Plateau game ")).map(|s| s.trim().to_string())
}

/// Take `m` back to its position after `ply` moves.
fn back_to(m: &mut dyn AnyMatch, ply: usize) -> Result<(), ApiError> {
    if ply > m.ply() {
        return Err(bad("bad_ply", format!("there is no position after {ply} moves: there are {}", m.ply())));
    }
    while m.ply() > ply {
        if !m.undo() {
            return Err(bad("bad_ply", "the moves could not be taken back"));
        }
    }
    Ok(())
}

/// The position a board request names (off the async runtime where it
/// replays moves).
async fn board_position(st: &AppState, req: BoardRequest) -> Result<Box<dyn AnyMatch>, ApiError> {
    if req.moves.len() > MAX_BOARD_MOVES {
        return Err(bad("too_many_moves", format!("at most {MAX_BOARD_MOVES} moves")));
    }
    if req.moves.iter().any(|m| m.len() > crate::protocol::MAX_MOVE_LEN) {
        return Err(bad("bad_move", "a move's text is too long"));
    }
    let record = match &req.record {
        Some(text) => {
            if text.len() > MAX_BOARD_RECORD {
                return Err(bad("too_long", format!("a record of at most {MAX_BOARD_RECORD} bytes")));
            }
            let rec = plateau_core::Record::parse(text).map_err(|e| bad("bad_record", e))?;
            if rec.moves.len() > MAX_BOARD_MOVES {
                return Err(bad("too_many_moves", format!("at most {MAX_BOARD_MOVES} moves")));
            }
            Some(rec)
        }
        None => None,
    };
    let name = match (&req.game_id, &record, &req.game) {
        (Some(_), Some(_), _) => return Err(bad("bad_position", "send a game_id or a record, not both")),
        (Some(id), None, _) => stored_game(st, id).await?.game.game,
        (None, Some(rec), _) => rec.tag("Game").unwrap_or_default().to_string(),
        (None, None, Some(g)) => g.clone(),
        (None, None, None) => return Err(bad("bad_position", "say which game (or send a record or a game_id)")),
    };
    let hidden = st.0.ctx.registry.get(&name).is_ok_and(|e| e.info().hidden);
    // A game stored here: by its id, or, for a game with hidden
    // information, by its record's Site tag (and the same moves).
    let stored_id = match (&req.game_id, &record) {
        (Some(id), _) => Some(id.clone()),
        (None, Some(rec)) if hidden => {
            Some(site_id(rec).ok_or_else(|| refused_hidden("this record does not name a game of this server"))?)
        }
        _ if hidden => return Err(refused_hidden("send the record of the finished game")),
        _ => None,
    };
    if let Some(id) = stored_id {
        let stored = stored_game(st, &id).await.map_err(|e| if hidden { refused_hidden(&e.message) } else { e })?;
        if hidden && stored.game.status != Status::Finished {
            return Err(refused_hidden("this game is not finished"));
        }
        if hidden && !req.moves.is_empty() {
            return Err(refused_hidden("no moves may be added to it"));
        }
        let mut m = replayed(&st.0, stored).await?;
        if let Some(rec) = &record
            && rec.moves != m.history()
        {
            return Err(refused_hidden("the record's moves are not those of the finished game it names"));
        }
        let (ply, moves) = (req.ply, req.moves);
        return tokio::task::spawn_blocking(move || {
            if let Some(p) = ply {
                back_to(&mut *m, p)?;
            }
            for (i, mv) in moves.iter().enumerate() {
                m.play(mv).map_err(|e| bad("illegal_move", format!("move {} ({mv}): {e}", i + 1)))?;
            }
            Ok(m)
        })
        .await
        .map_err(|_| ApiError::internal("the position could not be made"))?;
    }
    let preq = crate::position::PositionRequest {
        game: req.game,
        variant: req.variant,
        options: req.options,
        moves: req.moves,
        record: req.record,
    };
    let (st2, ply) = (st.clone(), req.ply);
    tokio::task::spawn_blocking(move || {
        let mut m = crate::position::build(&st2, &preq)?;
        if let Some(p) = ply {
            back_to(&mut *m, p)?;
        }
        Ok(m)
    })
    .await
    .map_err(|_| ApiError::internal("the position could not be made"))?
}

/// A client's running board search: stopped when dropped (the request's
/// future dropped, or done).
struct BoardGuard {
    svc: Arc<Service>,
    client: String,
    n: u64,
    stop: StopFlag,
}

impl Drop for BoardGuard {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Ok(mut b) = self.svc.board.lock()
            && b.get(&self.client).is_some_and(|(n, _)| *n == self.n)
        {
            b.remove(&self.client);
        }
    }
}

/// `POST /api/analyse`.
pub(crate) async fn board(
    State(st): State<AppState>,
    headers: HeaderMap,
    info: Option<Extension<crate::ClientIp>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: BoardRequest = crate::api::parse_json(body)?;
    let time = req.time_ms.map_or(BOARD_TIME, Duration::from_millis).clamp(MIN_BOARD_TIME, MAX_BOARD_TIME);
    let client = client_key(&st, &headers, ip_of(info)).await?;
    let m = board_position(&st, req).await?;
    let seats = m.seats();
    if let Some(o) = m.outcome() {
        return Ok(Json(json!({
            "values": o.returns(), "best": null, "line": [], "depth": 0, "score": o.result_string(), "over": true,
        })));
    }
    let mover = m.to_move().seat().ok_or_else(|| ApiError::conflict("no_move", "no one is to move here"))?;
    let name = m.info().name;
    let spec = Settings::with_time(name, time).spec;
    // One search per client: a new one stops the one before.
    let svc = st.3.clone();
    let stop: StopFlag = Arc::new(AtomicBool::new(false));
    let n = svc.board_seq.fetch_add(1, Ordering::Relaxed);
    if let Ok(mut b) = svc.board.lock()
        && let Some((_, old)) = b.insert(client.clone(), (n, stop.clone()))
    {
        old.store(true, Ordering::Relaxed);
    }
    let _guard = BoardGuard { svc: svc.clone(), client: client.clone(), n, stop: stop.clone() };
    let ctx = st.0.ctx.clone();
    ctx.metrics.board_searches.inc();
    let flag = stop.clone();
    let job = move || {
        let mut player = crate::players::make_player(name, &spec)?;
        player.set_stop(flag.clone());
        let choice = player.choose(&*m).map_err(|e| e.to_string());
        if flag.load(Ordering::Relaxed) {
            ctx.metrics.board_stopped.inc();
        }
        choice
    };
    let rx = st.0.ctx.pool.run(&client, Lane::Play, job).map_err(|_| {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "analysis_busy", "the computer players are busy: try again")
    })?;
    let choice = rx
        .await
        .map_err(|_| ApiError::internal("the search was lost"))?
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)?;
    let info = &choice.info;
    let values = info
        .score
        .and_then(plateau_analysis::expected_return)
        .map(|v| plateau_analysis::spread(mover, v, seats))
        .unwrap_or_default();
    let line = if info.pv.is_empty() { vec![choice.mv.clone()] } else { info.pv.clone() };
    Ok(Json(json!({
        "values": values,
        "best": choice.mv,
        "line": line,
        "depth": info.depth,
        "score": info.score.map(|s| s.to_string()),
        "nodes": info.nodes,
        "time_ms": info.time.as_millis() as u64,
        "stopped": stop.load(Ordering::Relaxed),
    })))
}

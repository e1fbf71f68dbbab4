//! One seat's client: its WebSocket, its moves and their acknowledgements,
//! and the way back when its server fails.
//!
//! A move is acknowledged when the client sees its event (an update, or the
//! game's history in a welcome or a state). When the socket fails, closes,
//! or cannot be opened, the client opens one on the next server of the list
//! (round robin, with a back-off from 50 ms to 1 s, for up to
//! `reconnect_for`), says the last version it saw (`since`), and reads the
//! game's history in the welcome: a move it had sent and not seen
//! acknowledged is either there (it was applied) or sent again. A move in
//! flight for 5 s on a socket that still looks open is checked the same way,
//! with a `sync`.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::json;
use tokio::sync::Semaphore;

use super::check::Acked;
use super::{Counters, Src, random_index, spread};
use crate as client;

/// The first pause before reopening a socket; it doubles up to
/// [`MAX_BACKOFF`] while the attempts fail.
const FIRST_BACKOFF: Duration = Duration::from_millis(50);
/// The longest pause between two attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(1);
/// How long a client tries to reopen its socket once the run is over (to
/// resign its game).
const RECONNECT_AT_STOP: Duration = Duration::from_secs(5);
/// A move in flight this long on an open socket: ask for the state.
const RESYNC_AFTER: Duration = Duration::from_secs(5);
/// Refusals that a server of a group of instances gives while a game
/// changes hands: asked again in a moment.
const RETRY: [&str; 2] = ["owner_unavailable", "moved"];
/// How long after such a refusal a client asks for the state again.
const RETRY_AFTER: Duration = Duration::from_secs(1);
/// A socket silent this long (not even a pong to our pings) is dead.
const SILENT: Duration = Duration::from_secs(70);

/// One game (an id; a rematch is another): its pace and what its clients
/// saw acknowledged.
pub(super) struct Slot {
    /// The game's id.
    pub(super) id: String,
    /// Which of the run's games it is (rematches keep it).
    pub(super) lane: usize,
    /// The move in flight: its ply, and when it was first sent (for the
    /// latency its opponent sees).
    sent: Mutex<Option<(u64, Instant)>>,
    /// When the next move may be sent (pacing).
    next_at: Mutex<Option<Instant>>,
    /// Every move the game's clients saw acknowledged: seat and move, by ply.
    pub(super) acked: Mutex<Acked>,
}

impl Slot {
    fn new(id: String, lane: usize) -> Slot {
        Slot { id, lane, sent: Mutex::default(), next_at: Mutex::default(), acked: Mutex::default() }
    }
}

/// What every seat client shares.
pub(super) struct Shared {
    /// The servers, in the order of the list given.
    pub(super) servers: Vec<SocketAddr>,
    /// Every game played, by id (kept to the end, for the check).
    pub(super) slots: Mutex<HashMap<String, Arc<Slot>>>,
    pub(super) counters: Arc<Counters>,
    pub(super) connected: Arc<Semaphore>,
    pub(super) interval: Option<Duration>,
    /// The games have a clock: every state and update must carry the clocks.
    pub(super) clocked: bool,
    /// The games are rated: every state must say so, and every game that
    /// ends must end with rating changes.
    pub(super) rated: bool,
    /// How long a client tries to reopen its socket before giving up.
    pub(super) reconnect_for: Duration,
}

impl Shared {
    /// Check that a state or an update of a clocked game carries the clocks.
    fn check_clocks(&self, id: &str, clocks: &Option<Vec<i64>>) {
        if !self.clocked {
            return;
        }
        match clocks {
            Some(c) if c.len() == 2 => {
                self.counters.clock_frames.fetch_add(1, Ordering::Relaxed);
            }
            _ => self.counters.error(format!("check: a frame of game {id} without its two clocks ({clocks:?})")),
        }
    }

    /// The game `id` of lane `lane` (made on first use).
    pub(super) fn slot(&self, id: &str, lane: usize) -> Option<Arc<Slot>> {
        let mut map = self.slots.lock().ok()?;
        Some(map.entry(id.to_string()).or_insert_with(|| Arc::new(Slot::new(id.to_string(), lane))).clone())
    }
}

#[derive(Deserialize)]
struct Lite {
    #[serde(rename = "type", default)]
    kind: String,
    version: Option<u64>,
    ply: Option<u64>,
    you: Option<usize>,
    status: Option<String>,
    legal_moves: Option<Vec<String>>,
    rematch: Option<String>,
    events: Option<Vec<LiteEvent>>,
    state: Option<Box<Lite>>,
    code: Option<String>,
    message: Option<String>,
    clocks: Option<Vec<i64>>,
    rated: Option<bool>,
    result: Option<LiteResult>,
    history: Option<Vec<String>>,
    movers: Option<Vec<usize>>,
}

#[derive(Deserialize)]
struct LiteResult {
    reason: Option<String>,
    ratings: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
struct LiteEvent {
    kind: String,
    seat: Option<usize>,
    #[serde(rename = "move")]
    mv: Option<String>,
}

/// The moves of an update (`events`, after which the game has `ply_after`
/// plies): the ply of the first, and each one's seat and text.
fn moves_of(events: &[LiteEvent], ply_after: u64) -> (u64, Vec<(usize, String)>) {
    let moves: Vec<(usize, String)> = events
        .iter()
        .filter(|e| e.kind == "move")
        .filter_map(|e| Some((e.seat?, e.mv.clone().unwrap_or_default())))
        .collect();
    (ply_after.saturating_sub(moves.len() as u64), moves)
}

/// A move sent and not yet seen acknowledged.
struct Pending {
    /// The ply it is played at (0: the game's first move).
    ply: u64,
    mv: String,
    first_sent: Instant,
    /// When to ask for the state if it is not acknowledged by then.
    check_at: Instant,
    /// The socket it went on failed, or the server refused something since:
    /// the next state tells whether it was applied; if not, send it again.
    in_doubt: bool,
    /// It was sent again (a refusal as stale is then expected).
    resent: bool,
}

/// One seat's client, through its games (rematches), until told to stop.
pub(super) struct Seat {
    sh: Arc<Shared>,
    lane: usize,
    src: Src,
    /// The server its socket is on (an index into the list).
    server: usize,
    token: String,
    id: String,
    slot: Arc<Slot>,
    seed: u64,
    me: Option<usize>,
    /// The last version seen in this game.
    version: Option<u64>,
    /// The plies seen in this game.
    ply: u64,
    status: String,
    pending: Option<Pending>,
    /// The socket failed (this seat counts in an outage) and the game has
    /// made no move since: how many plies the seat knew then.
    failed: Option<u64>,
    /// Attempts to open a socket have failed since then (none: connected).
    failing_since: Option<Instant>,
    backoff: Duration,
    /// Counted among the clients connected at the start.
    counted: bool,
    last_sync: Option<Instant>,
    last_problem: String,
    /// Sockets opened so far.
    sockets: u64,
    /// The last of them that got its welcome.
    welcomed: u64,
    /// Why the server refused the last hello.
    refusal: Option<String>,
}

impl Seat {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        sh: Arc<Shared>,
        lane: usize,
        client: usize,
        src: Src,
        id: String,
        token: String,
        slot: Arc<Slot>,
        seed: u64,
    ) -> Seat {
        let server = spread::seat(lane, client, sh.servers.len());
        Seat {
            sh,
            lane,
            src,
            server,
            token,
            id,
            slot,
            seed,
            me: None,
            version: None,
            ply: 0,
            status: String::new(),
            pending: None,
            failed: None,
            failing_since: None,
            backoff: FIRST_BACKOFF,
            counted: false,
            last_sync: None,
            last_problem: String::new(),
            sockets: 0,
            welcomed: 0,
            refusal: None,
        }
    }

    fn stopping(&self) -> bool {
        self.sh.counters.stop.load(Ordering::Relaxed)
    }

    /// The socket failed (or could not be opened): count the seat in an
    /// outage until its game moves again, and go on with the next server.
    fn lost_socket(&mut self, why: String) {
        let why = match self.refusal.take() {
            Some(r) => format!("{why} after {r}"),
            None => why,
        };
        let counters = &self.sh.counters;
        if self.failed.is_none() && !self.stopping() {
            self.failed = Some(self.ply);
            counters.seat_failed();
        }
        self.failing_since.get_or_insert_with(Instant::now);
        if let Some(p) = &mut self.pending {
            p.in_doubt = true;
        }
        self.last_problem = why;
        self.server = spread::next(self.server, self.sh.servers.len());
    }

    /// Open the game's socket and say hello (with the last version seen),
    /// trying the servers in turn while it fails; `None` when giving up.
    async fn open(&mut self) -> Option<client::Ws> {
        let counters = self.sh.counters.clone();
        loop {
            if let Some(since) = self.failing_since {
                let bound = if self.stopping() { RECONNECT_AT_STOP } else { self.sh.reconnect_for };
                if since.elapsed() > bound {
                    if !self.stopping() {
                        counters.error(format!(
                            "gave up reconnecting game {} after {:.0} s: {}",
                            self.id,
                            since.elapsed().as_secs_f64(),
                            self.last_problem
                        ));
                    }
                    return None;
                }
                tokio::time::sleep(self.backoff).await;
                self.backoff = (self.backoff * 2).min(MAX_BACKOFF);
            }
            let addr = self.sh.servers[self.server];
            match self.connect(addr).await {
                Ok(ws) => {
                    self.sockets += 1;
                    if self.failing_since.is_some() {
                        counters.reconnects.fetch_add(1, Ordering::Relaxed);
                    }
                    if !self.counted {
                        self.counted = true;
                        self.sh.connected.add_permits(1);
                    }
                    return Some(ws);
                }
                Err(e) => {
                    counters.failed_connects.fetch_add(1, Ordering::Relaxed);
                    self.lost_socket(format!("{addr}: {e}"));
                }
            }
        }
    }

    async fn connect(&self, addr: SocketAddr) -> Result<client::Ws, String> {
        let mut ws = client::connect_from(self.src.ip(addr), addr, &self.id).await.map_err(|e| e.to_string())?;
        let mut hello = json!({ "type": "hello", "token": self.token, "gestures": false });
        if let Some(v) = self.version {
            hello["version"] = json!(v);
        }
        client::send(&mut ws, &hello).await.map_err(|e| e.to_string())?;
        Ok(ws)
    }

    /// Moves seen in this game, the first at ply `first`: recorded as
    /// acknowledged; a new one acknowledges this seat's move in flight,
    /// measures the opponent's, and ends this seat's part in an outage.
    fn moves_seen(&mut self, first: u64, moves: &[(usize, String)]) {
        let counters = self.sh.counters.clone();
        if let Ok(mut acked) = self.slot.acked.lock() {
            for (k, (seat, mv)) in moves.iter().enumerate() {
                let ply = (first as usize) + k;
                if acked.len() <= ply {
                    acked.resize(ply + 1, None);
                }
                match &acked[ply] {
                    None => acked[ply] = Some((*seat, mv.clone())),
                    Some((s, m)) if s == seat && m == mv => {}
                    Some((s, m)) => counters.error(format!(
                        "check: game {} ply {}: seat {s}'s {m} was acknowledged, now seat {seat}'s {mv} is there",
                        self.id,
                        ply + 1
                    )),
                }
            }
        }
        for (k, (seat, mv)) in moves.iter().enumerate() {
            let ply = first + k as u64;
            if ply < self.ply {
                continue;
            }
            if let Some(known) = self.failed
                && ply >= known
            {
                self.failed = None;
                counters.seat_moved_again();
            }
            if Some(*seat) == self.me {
                if let Some(p) = self.pending.take_if(|p| p.ply <= ply) {
                    if p.ply == ply && p.mv == *mv {
                        counters.acknowledged.fetch_add(1, Ordering::Relaxed);
                        if let Some(c) = counters.per_server.get(self.server) {
                            c.fetch_add(1, Ordering::Relaxed);
                        }
                        let stall = p.first_sent.elapsed().as_micros().min(u64::MAX as u128) as u64;
                        counters.longest_stall_us.fetch_max(stall, Ordering::Relaxed);
                    } else {
                        counters.error(format!(
                            "check: game {}: seat {seat} sent {} at ply {}, and {mv} was played at ply {}",
                            self.id,
                            p.mv,
                            p.ply + 1,
                            ply + 1
                        ));
                    }
                }
            } else {
                let sent = self.slot.sent.lock().ok().and_then(|mut s| s.take_if(|(p, _)| *p == ply));
                if let Some((_, at)) = sent
                    && counters.measuring.load(Ordering::Relaxed)
                {
                    let us = at.elapsed().as_micros().min(u32::MAX as u128) as u32;
                    counters.moves.fetch_add(1, Ordering::Relaxed);
                    if let Ok(mut l) = counters.latencies.lock() {
                        l.push(us);
                    }
                }
            }
        }
        self.ply = self.ply.max(first + moves.len() as u64);
    }

    /// A whole state (a welcome's, or the answer to a sync), with the game's
    /// history: every move in it is acknowledged; a move in flight that is
    /// not in it was not applied, and is sent again when it is our turn.
    fn resync(&mut self, s: &Lite) {
        let had = self.pending.is_some();
        if let (Some(h), Some(m)) = (&s.history, &s.movers) {
            let moves: Vec<(usize, String)> = m.iter().copied().zip(h.iter().cloned()).collect();
            self.moves_seen(0, &moves);
        }
        if had && self.pending.is_none() {
            self.sh.counters.found_applied.fetch_add(1, Ordering::Relaxed);
        }
        // The state is the truth, even behind what this client saw (a server
        // that lost acknowledged moves: the check at the end counts them).
        if let Some(p) = s.ply.or(s.history.as_ref().map(|h| h.len() as u64)) {
            self.ply = p;
        }
        if let Some(known) = self.failed
            && known > self.ply
        {
            // Behind what the client knew: any move from here is a new one.
            self.failed = Some(self.ply);
        }
        if let Some(p) = self.pending.take_if(|p| p.ply != self.ply) {
            self.sh.counters.error(format!(
                "check: game {}: a move sent at ply {}, and the game is at ply {}",
                self.id,
                p.ply + 1,
                self.ply + 1
            ));
        }
        if let Some(p) = &mut self.pending {
            p.in_doubt = true;
        }
        self.version = s.version.or(self.version);
    }

    /// A new game (a rematch): nothing seen in it yet.
    fn follow(&mut self, id: String) {
        let Some(slot) = self.sh.slot(&id, self.lane) else { return };
        self.slot = slot;
        self.id = id;
        self.src = Src::fresh();
        self.me = None;
        self.version = None;
        self.ply = 0;
        self.status.clear();
        self.pending = None;
        self.last_sync = None;
        if self.failed.is_some() {
            // Still waiting for a move since the failure: the new game's first.
            self.failed = Some(0);
        }
    }

    /// The end of this client.
    fn end(&mut self) {
        if self.failed.is_some() {
            self.sh.counters.unrecovered.fetch_add(1, Ordering::Relaxed);
        }
        if !self.counted {
            self.counted = true;
            self.sh.connected.add_permits(1);
        }
    }

    /// How long a live game may be quiet before the client asks for its
    /// state (a socket that stopped receiving the game's events, as one on
    /// an instance that lost the game, would otherwise wait for ever): three
    /// times the game's pace, at least [`RESYNC_AFTER`] twice.
    fn quiet(&self) -> Duration {
        (2 * RESYNC_AFTER).max(self.sh.interval.unwrap_or_default() * 3)
    }

    /// When to ask for the game's state, if nothing comes: a move in flight
    /// for [`RESYNC_AFTER`], or a live game quiet for [`Seat::quiet`] (not
    /// twice within [`RESYNC_AFTER`]).
    fn sync_due(&self, last_frame: Instant) -> Option<Instant> {
        let mut due = None;
        if self.status == "live" {
            due = Some(last_frame + self.quiet());
        }
        if let Some(p) = &self.pending
            && !p.in_doubt
        {
            let at = p.check_at;
            due = Some(due.map_or(at, |d: Instant| d.min(at)));
        }
        Some(due?.max(self.last_sync.map_or_else(Instant::now, |t| t + RESYNC_AFTER)))
    }

    /// How long to wait for the next frame (pings included), `last_frame`
    /// being when the last text frame came.
    fn wait(&self, last_frame: Instant) -> Duration {
        if self.stopping() {
            return Duration::from_secs(3);
        }
        let wait = match self.sync_due(last_frame) {
            Some(t) => t.saturating_duration_since(Instant::now()),
            None => Duration::from_secs(30),
        };
        wait.clamp(Duration::from_millis(100), Duration::from_secs(30))
    }

    pub(super) async fn run(mut self) {
        let sh = self.sh.clone();
        let counters = sh.counters.clone();
        'games: loop {
            let Some(mut ws) = self.open().await else { return self.end() };
            let mut result: Option<LiteResult> = None;
            let mut counted_finish = false;
            let mut asked_on: Option<u64> = None;
            // The socket the game was resigned on (again on a new socket:
            // a resignation sent to a server that died may be lost).
            let mut resigned_on: Option<u64> = None;
            let mut last_frame = Instant::now();
            loop {
                let wait = self.wait(last_frame);
                let next = tokio::time::timeout(wait, client::recv(&mut ws, wait)).await;
                let text = match next.unwrap_or(client::Incoming::Timeout) {
                    client::Incoming::Frame(t, _) => t,
                    client::Incoming::Closed(code) => {
                        if self.stopping() && self.status != "live" {
                            return self.end();
                        }
                        self.lost_socket(format!("socket closed ({code:?})"));
                        match self.open().await {
                            Some(w) => ws = w,
                            None => return self.end(),
                        }
                        last_frame = Instant::now();
                        continue;
                    }
                    client::Incoming::Timeout => {
                        if self.stopping() {
                            return self.end();
                        }
                        if last_frame.elapsed() > SILENT {
                            self.lost_socket(format!("no frame for {} s", SILENT.as_secs()));
                            match self.open().await {
                                Some(w) => ws = w,
                                None => return self.end(),
                            }
                            last_frame = Instant::now();
                            continue;
                        }
                        let message = if self.sync_due(last_frame).is_some_and(|t| t <= Instant::now()) {
                            self.last_sync = Some(Instant::now());
                            json!({ "type": "sync" })
                        } else {
                            json!({ "type": "ping" })
                        };
                        if let Err(e) = client::send(&mut ws, &message).await {
                            self.lost_socket(format!("send: {e}"));
                            match self.open().await {
                                Some(w) => ws = w,
                                None => return self.end(),
                            }
                        }
                        continue;
                    }
                };
                last_frame = Instant::now();
                let f: Lite = match serde_json::from_str(&text) {
                    Ok(f) => f,
                    Err(e) => {
                        counters.error(format!("bad frame: {e}"));
                        continue;
                    }
                };
                let (legal, rematch) = match f.kind.as_str() {
                    "welcome" | "state" => {
                        let Some(s) = f.state else { continue };
                        if f.kind == "welcome" {
                            self.welcomed = self.sockets;
                            // Connected again: the back-off starts afresh.
                            self.failing_since = None;
                            self.backoff = FIRST_BACKOFF;
                        }
                        self.me = s.you.or(self.me);
                        sh.check_clocks(&self.id, &s.clocks);
                        if sh.rated && s.rated != Some(true) {
                            counters.error(format!("check: game {} is not rated ({:?})", self.id, s.rated));
                        }
                        self.resync(&s);
                        if s.result.is_some() {
                            result = s.result;
                        }
                        self.status = s.status.unwrap_or_default();
                        (s.legal_moves, s.rematch)
                    }
                    "update" => {
                        sh.check_clocks(&self.id, &f.clocks);
                        if f.result.is_some() {
                            result = f.result;
                        }
                        if let Some(evs) = &f.events {
                            let (first, moves) = moves_of(evs, f.ply.unwrap_or(self.ply));
                            if !moves.is_empty() {
                                self.moves_seen(first, &moves);
                            }
                        }
                        self.version = f.version.or(self.version);
                        self.status = f.status.unwrap_or_default();
                        (f.legal_moves, f.rematch)
                    }
                    "error" => {
                        let code = f.code.unwrap_or_default();
                        if self.welcomed != self.sockets {
                            // The hello refused (a game reloading, changing
                            // hands…): the server closes the socket, and the
                            // client tries again, for `reconnect_for` at most.
                            counters.retry_refusals.fetch_add(1, Ordering::Relaxed);
                            self.refusal = Some(format!("{code}: {}", f.message.unwrap_or_default()));
                            continue;
                        }
                        if RETRY.contains(&code.as_str()) {
                            // The game is changing hands (a failover): ask
                            // for its state in a moment, then go on.
                            counters.retry_refusals.fetch_add(1, Ordering::Relaxed);
                            if let Some(p) = &mut self.pending {
                                p.check_at = Instant::now() + RETRY_AFTER;
                            }
                            if f.state.is_none() {
                                continue;
                            }
                        }
                        // A move may cross the fall of its clock (`game_over`):
                        // the update saying so follows. A move sent again
                        // after a resync may have crossed the first one.
                        let crossed = sh.clocked && code == "game_over";
                        let resent = self.pending.as_ref().is_some_and(|p| p.resent)
                            && (code == "stale_version" || code == "not_your_turn");
                        if code != "already_offered"
                            && code != "rematch_exists"
                            && !crossed
                            && !resent
                            && !RETRY.contains(&code.as_str())
                            && !self.stopping()
                        {
                            counters.error(format!("{code}: {}", f.message.unwrap_or_default()));
                        }
                        let Some(s) = f.state else { continue };
                        self.version = s.version.or(self.version);
                        self.status = s.status.unwrap_or_default();
                        if let Some(p) = &mut self.pending {
                            if s.ply == Some(p.ply) {
                                // Refused: sent again on this state.
                                p.in_doubt = true;
                            } else {
                                // The game went on: the state with its history tells.
                                self.last_sync = Some(Instant::now());
                                let _ = client::send(&mut ws, &json!({ "type": "sync" })).await;
                                continue;
                            }
                        }
                        (s.legal_moves, s.rematch)
                    }
                    _ => continue,
                };
                if let Some(r) = rematch {
                    // Both clients follow the rematch, seats swapped, same tokens.
                    self.follow(r);
                    continue 'games;
                }
                let status = self.status.clone();
                if self.stopping() {
                    if status == "live" && resigned_on != Some(self.sockets) {
                        resigned_on = Some(self.sockets);
                        let _ = client::send(&mut ws, &json!({ "type": "resign" })).await;
                        continue;
                    }
                    if status == "finished" && counted_finish {
                        // The rematch asked for may still come: follow it, to resign it.
                        continue;
                    }
                    let _ = client::send(&mut ws, &json!({ "type": "ping" })).await;
                    return self.end();
                }
                if status == "finished" {
                    if !counted_finish {
                        counted_finish = true;
                        if self.me == Some(0) {
                            counters.finished.fetch_add(1, Ordering::Relaxed);
                            let r = result.as_ref();
                            if r.and_then(|r| r.reason.as_deref()) == Some("time") {
                                counters.time_losses.fetch_add(1, Ordering::Relaxed);
                            }
                            if sh.rated {
                                if r.is_some_and(|r| r.ratings.is_some()) {
                                    counters.rating_changes.fetch_add(1, Ordering::Relaxed);
                                } else {
                                    counters
                                        .error(format!("check: rated game {} ended without rating changes", self.id));
                                }
                            }
                        }
                    }
                    if asked_on != Some(self.sockets) {
                        // Asked once per socket: an offer made to a server that
                        // died since may be lost (a second one is refused as
                        // already offered).
                        asked_on = Some(self.sockets);
                        let _ = client::send(&mut ws, &json!({ "type": "rematch" })).await;
                    }
                    continue;
                }
                if status == "aborted" {
                    return self.end();
                }
                let Some(moves) = legal.filter(|m| !m.is_empty()) else { continue };
                let version = self.version.unwrap_or(0);
                if let Some(p) = &mut self.pending {
                    // A move in flight: wait for it, unless it was not applied.
                    if !(p.in_doubt && p.ply == self.ply) {
                        continue;
                    }
                    if !moves.contains(&p.mv) {
                        counters.error(format!(
                            "check: game {}: {} is no longer legal at ply {}",
                            self.id,
                            p.mv,
                            p.ply + 1
                        ));
                        self.pending = None;
                        continue;
                    }
                    p.in_doubt = false;
                    p.resent = true;
                    p.check_at = Instant::now() + RESYNC_AFTER;
                    counters.resent.fetch_add(1, Ordering::Relaxed);
                    let mv = p.mv.clone();
                    if let Err(e) =
                        client::send(&mut ws, &json!({ "type": "move", "move": mv, "version": version })).await
                    {
                        self.lost_socket(format!("send: {e}"));
                        match self.open().await {
                            Some(w) => ws = w,
                            None => return self.end(),
                        }
                    }
                    continue;
                }
                let mv = moves[random_index(moves.len(), &mut self.seed)].clone();
                if let Some(every) = sh.interval {
                    // Pace the game: its next move no sooner than `every`
                    // after the previous one (the first at a random phase).
                    let now = Instant::now();
                    let at = {
                        let Ok(mut next) = self.slot.next_at.lock() else { return self.end() };
                        let at = match *next {
                            Some(t) => t.max(now),
                            None => now + every.mul_f64(random_index(1000, &mut self.seed) as f64 / 1000.0),
                        };
                        *next = Some(at + every);
                        at
                    };
                    tokio::time::sleep_until(at.into()).await;
                }
                let now = Instant::now();
                if let Ok(mut s) = self.slot.sent.lock() {
                    *s = Some((self.ply, now));
                }
                self.pending = Some(Pending {
                    ply: self.ply,
                    mv: mv.clone(),
                    first_sent: now,
                    check_at: now + RESYNC_AFTER,
                    in_doubt: false,
                    resent: false,
                });
                if let Err(e) = client::send(&mut ws, &json!({ "type": "move", "move": mv, "version": version })).await
                {
                    self.lost_socket(format!("send: {e}"));
                    match self.open().await {
                        Some(w) => ws = w,
                        None => return self.end(),
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(interval: Option<Duration>) -> Seat {
        let sh = Arc::new(Shared {
            servers: vec!["127.0.0.1:1".parse().unwrap(), "127.0.0.1:2".parse().unwrap()],
            slots: Mutex::default(),
            counters: Arc::new(Counters::new(2)),
            connected: Arc::new(Semaphore::new(0)),
            interval,
            clocked: false,
            rated: false,
            reconnect_for: Duration::from_secs(60),
        });
        let slot = sh.slot("g", 0).unwrap();
        let mut s = Seat::new(sh, 0, 1, Src { kind: 1, i: 0 }, "g".into(), "t".into(), slot, 1);
        s.me = Some(1);
        s
    }

    fn state(history: &[&str], version: u64) -> Lite {
        let movers: Vec<usize> = (0..history.len()).map(|k| k % 2).collect();
        serde_json::from_value(json!({
            "version": version, "ply": history.len(), "status": "live",
            "history": history, "movers": movers,
        }))
        .unwrap()
    }

    fn pending(ply: u64, mv: &str) -> Pending {
        let now = Instant::now();
        Pending { ply, mv: mv.into(), first_sent: now, check_at: now + RESYNC_AFTER, in_doubt: false, resent: false }
    }

    #[test]
    fn the_second_client_of_a_game_starts_on_the_other_server() {
        assert_eq!(seat(None).server, 1);
    }

    #[test]
    fn a_move_in_flight_found_in_the_history_of_a_resync_is_acknowledged() {
        let mut s = seat(None);
        s.moves_seen(0, &[(0, "a".into()), (1, "b".into()), (0, "c".into())]);
        s.pending = Some(pending(3, "d"));
        s.lost_socket("test".into());
        assert_eq!(s.server, 0, "the next server");
        assert!(s.pending.as_ref().unwrap().in_doubt);
        s.resync(&state(&["a", "b", "c", "d", "e"], 7));
        let c = &s.sh.counters;
        assert!(s.pending.is_none());
        assert_eq!(c.found_applied.load(Ordering::Relaxed), 1);
        assert_eq!(c.acknowledged.load(Ordering::Relaxed), 1);
        assert_eq!(c.per_server[0].load(Ordering::Relaxed), 1, "acknowledged through the server it reconnected to");
        assert_eq!((s.ply, s.version), (5, Some(7)));
        // The game moved again since the failure: the outage is over.
        assert!(s.failed.is_none());
        assert_eq!(c.outages.lock().unwrap().open, 0);
        assert_eq!(*s.slot.acked.lock().unwrap(), check_acked(&["a", "b", "c", "d", "e"]));
        assert_eq!(c.errors.load(Ordering::Relaxed), 0);
    }

    fn check_acked(moves: &[&str]) -> Acked {
        moves.iter().enumerate().map(|(k, m)| Some((k % 2, m.to_string()))).collect()
    }

    #[test]
    fn a_move_in_flight_not_in_the_history_is_sent_again() {
        let mut s = seat(None);
        s.moves_seen(0, &[(0, "a".into()), (1, "b".into()), (0, "c".into())]);
        s.pending = Some(pending(3, "d"));
        s.lost_socket("test".into());
        s.resync(&state(&["a", "b", "c"], 4));
        let p = s.pending.as_ref().expect("still in flight");
        assert!(p.in_doubt && p.ply == s.ply, "to be sent again on this position");
        assert!(s.failed.is_some(), "the game has not moved since the failure");
        // It is sent again and acknowledged.
        s.moves_seen(3, &[(1, "d".into())]);
        assert!(s.pending.is_none() && s.failed.is_none());
        assert_eq!(s.sh.counters.found_applied.load(Ordering::Relaxed), 0);
        assert_eq!(s.sh.counters.errors.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn a_server_behind_what_was_acknowledged_is_followed_and_reported() {
        let mut s = seat(None);
        s.moves_seen(0, &[(0, "a".into()), (1, "b".into()), (0, "c".into())]);
        s.pending = Some(pending(3, "d"));
        s.lost_socket("test".into());
        // The server lost "b" and "c" and went on with another move.
        s.resync(&state(&["a", "x"], 3));
        assert!(s.pending.is_none());
        assert_eq!(s.ply, 2);
        let errors = s.sh.counters.errors.load(Ordering::Relaxed);
        assert_eq!(errors, 2, "the move replaced at ply 2, the move in flight at a ply the game is not at");
        // What was acknowledged stays as it was seen, for the check at the end.
        assert_eq!(*s.slot.acked.lock().unwrap(), check_acked(&["a", "b", "c"]));
        // The game moves again from where the server is.
        s.moves_seen(2, &[(0, "y".into())]);
        assert!(s.failed.is_none());
    }

    #[test]
    fn a_quiet_game_or_a_move_unanswered_asks_for_the_state() {
        let now = Instant::now();
        let mut s = seat(Some(Duration::from_millis(200)));
        assert_eq!(s.quiet(), 2 * RESYNC_AFTER);
        assert_eq!(seat(Some(Duration::from_secs(10))).quiet(), Duration::from_secs(30));
        // Not live, nothing in flight: nothing to ask.
        assert!(s.sync_due(now).is_none());
        s.status = "live".into();
        let due = s.sync_due(now).unwrap();
        assert!(due >= now + 2 * RESYNC_AFTER - Duration::from_millis(50) && due <= Instant::now() + 2 * RESYNC_AFTER);
        // A move in flight: 5 s after it was sent.
        s.pending = Some(pending(0, "a"));
        let due = s.sync_due(now).unwrap();
        assert!(due <= Instant::now() + RESYNC_AFTER && due > now);
        // Not again within 5 s of the last sync.
        s.last_sync = Some(Instant::now());
        assert!(s.sync_due(now).unwrap() >= s.last_sync.unwrap() + RESYNC_AFTER);
        assert!(s.wait(now) >= Duration::from_secs(4));
    }

    #[test]
    fn the_moves_of_an_update_are_placed_by_its_ply() {
        let evs: Vec<LiteEvent> = serde_json::from_str(
            r#"[{"version": 13, "kind": "move", "seat": 0, "move": "a1b2", "at": 1},
                {"version": 14, "kind": "move", "seat": 1, "move": "c3d4", "at": 2},
                {"version": 15, "kind": "game_over", "result": "1-0"}]"#,
        )
        .unwrap();
        // Twelve plies after the update: the two moves are the 11th and 12th.
        let (first, moves) = moves_of(&evs, 12);
        assert_eq!(first, 10);
        assert_eq!(moves, [(0, "a1b2".to_string()), (1, "c3d4".to_string())]);
        let none: Vec<LiteEvent> = serde_json::from_str(r#"[{"version": 3, "kind": "join", "seat": 1}]"#).unwrap();
        assert_eq!(moves_of(&none, 4), (4, Vec::new()));
    }
}

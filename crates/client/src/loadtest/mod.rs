//! The load tool behind `plateau loadtest`: many concurrent games between
//! random movers over real WebSockets, against a running server.
//!
//! Each game has two clients (one WebSocket each). The client whose turn it is
//! picks a random legal move from its last update and sends it, no sooner than
//! the game's pace allows (`rate`: moves per second offered in all); the latency of
//! a move is the time from sending it to the opponent receiving the update that
//! carries it. When a game ends both clients ask for a rematch and go on in the
//! new game (seats swapped), so the number of games in play stays constant.
//! Optionally, games between two computer players run alongside, to show that
//! they do not slow the people's games down. At the end every live game is
//! resigned.
//!
//! Optionally the games have a clock (`clock`: live, initial time and
//! increment) and are played between accounts (`accounts`, `rated`): a small
//! pool of accounts signs up at the start (Argon2id makes each sign-up slow,
//! and sign-ups are limited per client address, so each comes from a
//! loopback address of its own, 127.253.x.y), each gets a personal access
//! token, and every game is created and joined with two of them (an account
//! holds one seat of a game, and plays many games at once). Moves are sent on
//! the WebSockets with the seats' tokens, as for guests. Such a run checks
//! that every state and update carries the clocks, that rated games end
//! with rating changes, and at the end reads a few games back to check that
//! they are rated, clocked and held by accounts.

use std::net::SocketAddr;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use crate as client;

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// The server.
    pub addr: SocketAddr,
    /// Concurrent games between random movers.
    pub games: usize,
    /// How long to measure, after every game has started.
    pub duration: Duration,
    /// Moves per second to offer in all (each game moves at most every
    /// `games / rate` seconds, as players who take some time to think); 0:
    /// as fast as the server answers (a saturation test, where latency is
    /// just the number of games over the throughput).
    pub rate: f64,
    /// The game to play.
    pub game: String,
    /// Its options (`name=value`).
    pub options: Vec<(String, String)>,
    /// Concurrent games between two computer players, alongside.
    pub computer_games: usize,
    /// The computer players' spec.
    pub computer_player: String,
    /// A live clock on every people's game (none: no clock).
    pub clock: Option<Clock>,
    /// Rated games (between accounts: `accounts` defaults to
    /// [`DEFAULT_ACCOUNTS`]).
    pub rated: bool,
    /// How many accounts play the people's games (each in many games, two
    /// different ones in each game); 0: guests, unless `rated`.
    pub accounts: usize,
}

/// The accounts a rated run signs up when not told how many (at most two
/// per game).
pub const DEFAULT_ACCOUNTS: usize = 16;

/// The most accounts a run may sign up (their names are numbered).
pub const MAX_ACCOUNTS: usize = 10_000;

/// A live time control: seconds at the start, seconds added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Seconds on each clock at the start.
    pub initial: u64,
    /// Seconds added after each move.
    pub increment: u64,
}

impl FromStr for Clock {
    type Err = String;

    /// `INITIAL+INCREMENT` in seconds (`600+5`), or `INITIAL` alone (no
    /// increment).
    fn from_str(s: &str) -> Result<Clock, String> {
        let bad = || format!("a clock is INITIAL+INCREMENT in seconds (as 600+5), not {s:?}");
        let (initial, increment) = s.split_once('+').unwrap_or((s, "0"));
        let initial: u64 = initial.trim().parse().map_err(|_| bad())?;
        let increment: u64 = increment.trim().parse().map_err(|_| bad())?;
        if initial == 0 && increment == 0 {
            return Err("a clock of 0 seconds and no increment leaves no time to move".into());
        }
        Ok(Clock { initial, increment })
    }
}

impl std::fmt::Display for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}+{}", self.initial, self.increment)
    }
}

impl LoadConfig {
    /// The accounts the run signs up (0: the games are between guests).
    pub fn account_pool(&self) -> usize {
        match self.accounts {
            0 if self.rated => DEFAULT_ACCOUNTS.min(2 * self.games).max(2),
            n => n,
        }
    }
}

impl Default for LoadConfig {
    fn default() -> Self {
        LoadConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            games: 1000,
            duration: Duration::from_secs(30),
            rate: 5000.0,
            game: "abalone".into(),
            options: vec![("max-plies".into(), "200".into())],
            computer_games: 0,
            computer_player: "greedy".into(),
            clock: None,
            rated: false,
            accounts: 0,
        }
    }
}

/// What was measured.
#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    /// Games between random movers.
    pub games: usize,
    /// The moves per second offered (0: as fast as possible).
    pub rate: f64,
    /// Time to create and join them and open their sockets.
    pub setup: Duration,
    /// Moves delivered to the opponent during the measurement.
    pub moves: u64,
    /// The measurement's length.
    pub elapsed: Duration,
    /// Latency percentiles (send → opponent's update): 50th.
    pub p50: Duration,
    /// 99th.
    pub p99: Duration,
    /// The largest.
    pub max: Duration,
    /// Games that ended during the run (people's games).
    pub finished: u64,
    /// Moves played in the computer games during the measurement.
    pub computer_moves: u64,
    /// Error frames received, and failures to connect.
    pub errors: u64,
    /// The first few error messages.
    pub error_samples: Vec<String>,
    /// The server's commits and write groups during the measurement.
    pub commits: u64,
    /// The server's write groups during the measurement.
    pub write_groups: u64,
    /// Accounts signed up to play (0: guests).
    pub accounts: usize,
    /// The time it took to sign them up and get their access tokens (part
    /// of `setup`).
    pub accounts_setup: Duration,
    /// Whether the games were rated.
    pub rated: bool,
    /// Their clock.
    pub clock: Option<Clock>,
    /// States and updates received that carried the clocks.
    pub clock_frames: u64,
    /// Games lost on time (people's games).
    pub time_losses: u64,
    /// Finished games whose result carried rating changes.
    pub rating_changes: u64,
    /// Games read back at the end and checked (rated, clocked, seats held
    /// by accounts, as asked); a failure is counted in `errors`.
    pub sampled: usize,
}

impl LoadReport {
    /// Moves per second.
    pub fn moves_per_sec(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 { self.moves as f64 / s } else { 0.0 }
    }
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

impl std::fmt::Display for LoadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "games:     {} concurrent, set up in {:.1} s", self.games, self.setup.as_secs_f64())?;
        if self.accounts > 0 {
            writeln!(
                f,
                "players:   {} accounts made (in {:.1} s), two in each game; {} games",
                self.accounts,
                self.accounts_setup.as_secs_f64(),
                if self.rated { "rated" } else { "unrated" }
            )?;
        }
        if let Some(c) = self.clock {
            writeln!(
                f,
                "clock:     {c} (clocks in {} states and updates; {} games lost on time)",
                self.clock_frames, self.time_losses
            )?;
        }
        let offered =
            if self.rate > 0.0 { format!("{:.0} moves/s offered", self.rate) } else { "as fast as possible".into() };
        writeln!(
            f,
            "moves:     {} in {:.1} s = {:.0} moves/s ({offered})",
            self.moves,
            self.elapsed.as_secs_f64(),
            self.moves_per_sec()
        )?;
        writeln!(
            f,
            "latency:   p50 {}, p99 {}, max {} (move sent -> opponent's update)",
            ms(self.p50),
            ms(self.p99),
            ms(self.max)
        )?;
        if self.rated {
            writeln!(
                f,
                "finished:  {} games (then rematched), {} with rating changes",
                self.finished, self.rating_changes
            )?;
        } else {
            writeln!(f, "finished:  {} games (then rematched)", self.finished)?;
        }
        if self.computer_moves > 0 {
            writeln!(f, "computers: {} moves in the computer games alongside", self.computer_moves)?;
        }
        if self.commits > 0 {
            writeln!(
                f,
                "server:    {} commits, {:.1} writes per commit",
                self.commits,
                self.write_groups as f64 / self.commits as f64
            )?;
        }
        if self.sampled > 0 {
            let mut what = vec![if self.rated { "rated" } else { "unrated" }.to_string()];
            if let Some(c) = self.clock {
                what.push(format!("clock {c} with clocks"));
            }
            if self.accounts > 0 {
                what.push("seats held by accounts".into());
            }
            writeln!(f, "checked:   {} games read back at the end for: {}", self.sampled, what.join(", "))?;
        }
        write!(f, "errors:    {}", self.errors)?;
        for e in &self.error_samples {
            write!(f, "\n           {e}")?;
        }
        Ok(())
    }
}

#[derive(Default)]
struct Counters {
    measuring: AtomicBool,
    stop: AtomicBool,
    moves: AtomicU64,
    finished: AtomicU64,
    computer_moves: AtomicU64,
    clock_frames: AtomicU64,
    time_losses: AtomicU64,
    rating_changes: AtomicU64,
    errors: AtomicU64,
    error_samples: Mutex<Vec<String>>,
    latencies: Mutex<Vec<u32>>,
}

impl Counters {
    fn error(&self, e: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut s) = self.error_samples.lock()
            && s.len() < 5
        {
            s.push(e);
        }
    }
}

/// A game's shared clock: when the last move was sent, and on which version;
/// when the next may be sent.
#[derive(Default)]
struct Slot {
    sent: Mutex<Option<(u64, Instant)>>,
    next_at: Mutex<Option<Instant>>,
}

#[derive(Deserialize)]
struct Lite {
    #[serde(rename = "type", default)]
    kind: String,
    version: Option<u64>,
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
}

#[derive(Deserialize)]
struct LiteResult {
    reason: Option<String>,
    ratings: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
struct LiteEvent {
    version: u64,
    kind: String,
    seat: Option<usize>,
}

fn random_index(n: usize, seed: &mut u64) -> usize {
    // xorshift64*: cheap and good enough to pick moves.
    *seed ^= *seed >> 12;
    *seed ^= *seed << 25;
    *seed ^= *seed >> 27;
    (seed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
}

/// The local address the load tool's client number `i` of kind `kind` (1:
/// people's games, 2: computer games, 3 to 252: the sockets of rematches,
/// 253: the accounts' sign-ups) uses: on loopback, each game's players come
/// from an address of their own (127.KIND.x.y), as many people would, so
/// that the server's limits per client address apply as in real life.
fn source(addr: SocketAddr, kind: u8, i: usize) -> Option<std::net::IpAddr> {
    match addr.ip() {
        std::net::IpAddr::V4(ip) if ip.is_loopback() => {
            Some(std::net::Ipv4Addr::new(127, kind, (i / 250 % 250) as u8, (i % 250 + 1) as u8).into())
        }
        _ => None,
    }
}

/// A fresh address for a rematch's socket or the next computer game: people
/// do not start several games a second, so a game that ends and starts again
/// at once (the load tool at full speed) comes from another address, cycling
/// through 127.3.0.1 to 127.252.249.250.
fn fresh_source(addr: SocketAddr) -> Option<std::net::IpAddr> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed) as usize % (250 * 62_500);
    source(addr, 3 + (n / 62_500) as u8, n % 62_500)
}

/// The kind of loopback address (see [`source`]) the accounts sign up from.
const ACCOUNTS_KIND: u8 = 253;

/// An account of the pool: its name and a personal access token.
#[derive(Clone, Debug)]
struct Account {
    name: String,
    token: String,
}

/// A request that the server may refuse for a while (429: sign-ups are
/// limited per client address), tried again after the time it asks for,
/// a few times.
async fn patiently(
    from: Option<std::net::IpAddr>,
    addr: SocketAddr,
    path: &str,
    headers: &[(&str, &str)],
    body: &Value,
) -> Result<client::Response, String> {
    let mut tries = 0;
    loop {
        let r = client::request_with(from, addr, "POST", path, None, headers, body.to_string().as_bytes())
            .await
            .map_err(|e| format!("{path}: {e}"))?;
        tries += 1;
        if r.status != 429 || tries == 6 {
            return Ok(r);
        }
        let wait = r.header("retry-after").and_then(|s| s.trim().parse::<u64>().ok()).unwrap_or(6).clamp(1, 60);
        tokio::time::sleep(Duration::from_secs(wait)).await;
    }
}

/// Sign up account `name` from `from`, and make it a personal access token
/// (with the session cookie, as the server's own page would: same-origin).
async fn sign_up(addr: SocketAddr, from: Option<std::net::IpAddr>, name: String) -> Result<Account, String> {
    let password = format!(
        "{:016x}{:016x}",
        getrandom::u64().map_err(|e| e.to_string())?,
        getrandom::u64().map_err(|e| e.to_string())?
    );
    let r = patiently(from, addr, "/api/accounts", &[], &json!({ "name": name, "password": password })).await?;
    if r.status != 201 {
        return Err(format!("sign-up of {name}: {} {}", r.status, r.body));
    }
    let cookie = r
        .header("set-cookie")
        .and_then(|c| c.split(';').next())
        .map(str::to_string)
        .ok_or_else(|| format!("sign-up of {name}: no session cookie"))?;
    let origin = format!("http://{addr}");
    let headers = [("cookie", cookie.as_str()), ("origin", origin.as_str())];
    let r = patiently(from, addr, "/api/account/tokens", &headers, &json!({ "label": "loadtest" })).await?;
    let token = r.json()["token"].as_str().unwrap_or_default().to_string();
    if r.status != 201 || token.is_empty() {
        return Err(format!("access token of {name}: {} {}", r.status, r.body));
    }
    Ok(Account { name, token })
}

/// Sign up `n` accounts, each from a loopback address of its own: their
/// names are `load-RUN-K`, RUN random (a server keeps its accounts).
async fn sign_up_pool(addr: SocketAddr, n: usize) -> Result<Vec<Account>, String> {
    let run = getrandom::u32().map_err(|e| e.to_string())?;
    let mut signing = Vec::new();
    for k in 0..n {
        let from = source(addr, ACCOUNTS_KIND, k);
        signing.push(tokio::spawn(sign_up(addr, from, format!("load-{run:08x}-{k}"))));
    }
    let mut pool = Vec::new();
    for s in signing {
        pool.push(s.await.map_err(|e| e.to_string())??);
    }
    Ok(pool)
}

/// The two accounts of game `i` (different ones, pairs varying across the
/// games): the creator's and the joiner's.
fn pair_of(pool: &[Account], i: usize) -> Option<(&Account, &Account)> {
    let m = pool.len();
    if m < 2 {
        return None;
    }
    let a = i % m;
    let b = (a + 1 + (i / m) % (m - 1)) % m;
    Some((&pool[a], &pool[b]))
}

async fn create_pair(
    cfg: &LoadConfig,
    from: Option<std::net::IpAddr>,
    players: Option<(&Account, &Account)>,
) -> Result<(String, String, String), String> {
    let options: serde_json::Map<String, Value> =
        cfg.options.iter().map(|(k, v)| (k.clone(), Value::from(v.as_str()))).collect();
    let mut body = json!({ "game": cfg.game, "options": options, "name": "load-a" });
    if let Some(c) = cfg.clock {
        body["clock"] = json!({ "initial": c.initial, "increment": c.increment });
    }
    if cfg.rated {
        body["rated"] = json!(true);
    }
    let (a, b) = match players {
        Some((a, b)) => (Some(a.token.as_str()), Some(b.token.as_str())),
        None => (None, None),
    };
    let r = client::post_from(from, cfg.addr, "/api/games", a, &body).await.map_err(|e| format!("create: {e}"))?;
    if r.status != 201 {
        return Err(format!("create: {} {}", r.status, r.body));
    }
    let v = r.json();
    let id = v["id"].as_str().unwrap_or_default().to_string();
    let t0 = v["token"].as_str().unwrap_or_default().to_string();
    let r = client::post_from(from, cfg.addr, &format!("/api/games/{id}/join"), b, &json!({ "name": "load-b" }))
        .await
        .map_err(|e| format!("join: {e}"))?;
    if r.status != 200 {
        return Err(format!("join: {} {}", r.status, r.body));
    }
    let t1 = r.json()["token"].as_str().unwrap_or_default().to_string();
    Ok((id, t0, t1))
}

/// What every seat client shares.
struct Shared {
    addr: SocketAddr,
    slots: Mutex<std::collections::HashMap<String, Arc<Slot>>>,
    counters: Arc<Counters>,
    connected: Arc<Semaphore>,
    interval: Option<Duration>,
    /// The games have a clock: every state and update must carry the clocks.
    clocked: bool,
    /// The games are rated: every state must say so, and every game that
    /// ends must end with rating changes.
    rated: bool,
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
}

/// One seat's client, through its games (rematches), until told to stop.
async fn seat_client(
    sh: Arc<Shared>,
    mut from: Option<std::net::IpAddr>,
    mut id: String,
    token: String,
    mut slot: Arc<Slot>,
    mut seed: u64,
) {
    let (addr, counters, connected, interval) = (sh.addr, &sh.counters, &sh.connected, sh.interval);
    let slots = &sh.slots;
    let mut first = true;
    'games: loop {
        if !first {
            from = fresh_source(addr);
        }
        let mut ws = match client::connect_from(from, addr, &id).await {
            Ok(ws) => ws,
            Err(e) => {
                counters.error(format!("connect: {e}"));
                return;
            }
        };
        if client::send(&mut ws, &json!({ "type": "hello", "token": token, "gestures": false })).await.is_err() {
            counters.error("hello failed".into());
            return;
        }
        if first {
            connected.add_permits(1);
            first = false;
        }
        let mut me = None;
        let mut result: Option<LiteResult> = None;
        let mut asked_rematch = false;
        let mut resigned = false;
        loop {
            let wait =
                if counters.stop.load(Ordering::Relaxed) { Duration::from_secs(3) } else { Duration::from_secs(30) };
            let text = match client::recv(&mut ws, wait).await {
                client::Incoming::Frame(t, _) => t,
                client::Incoming::Closed(code) => {
                    if !counters.stop.load(Ordering::Relaxed) {
                        counters.error(format!("socket closed ({code:?})"));
                    }
                    return;
                }
                client::Incoming::Timeout => {
                    if counters.stop.load(Ordering::Relaxed) {
                        return;
                    }
                    continue;
                }
            };
            let f: Lite = match serde_json::from_str(&text) {
                Ok(f) => f,
                Err(e) => {
                    counters.error(format!("bad frame: {e}"));
                    continue;
                }
            };
            let (version, status, legal, rematch) = match f.kind.as_str() {
                "welcome" => {
                    let Some(s) = f.state else { continue };
                    me = s.you;
                    sh.check_clocks(&id, &s.clocks);
                    if sh.rated && s.rated != Some(true) {
                        counters.error(format!("check: game {id} is not rated ({:?})", s.rated));
                    }
                    result = s.result;
                    (s.version.unwrap_or(0), s.status.unwrap_or_default(), s.legal_moves, s.rematch)
                }
                "update" => {
                    let v = f.version.unwrap_or(0);
                    sh.check_clocks(&id, &f.clocks);
                    if f.result.is_some() {
                        result = f.result;
                    }
                    if let Some(evs) = &f.events {
                        for e in evs {
                            if e.kind == "move" && e.seat.is_some() && e.seat != me {
                                let sent = slot.sent.lock().ok().and_then(|mut s| s.take());
                                if let Some((sv, at)) = sent
                                    && sv == e.version
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
                    }
                    (v, f.status.unwrap_or_default(), f.legal_moves, f.rematch)
                }
                "error" => {
                    let code = f.code.unwrap_or_default();
                    // A move may cross the fall of its clock (`game_over`):
                    // the update saying so follows.
                    let crossed = sh.clocked && code == "game_over";
                    if code != "already_offered"
                        && code != "rematch_exists"
                        && !crossed
                        && !counters.stop.load(Ordering::Relaxed)
                    {
                        counters.error(format!("{code}: {}", f.message.unwrap_or_default()));
                    }
                    match f.state {
                        Some(s) => (s.version.unwrap_or(0), s.status.unwrap_or_default(), s.legal_moves, s.rematch),
                        None => continue,
                    }
                }
                _ => continue,
            };
            if let Some(r) = rematch {
                // Both clients follow the rematch, seats swapped, same tokens.
                let new_slot = {
                    let Ok(mut map) = slots.lock() else { return };
                    map.remove(&id);
                    map.entry(r.clone()).or_default().clone()
                };
                slot = new_slot;
                id = r;
                continue 'games;
            }
            if counters.stop.load(Ordering::Relaxed) {
                if status == "live" && !resigned {
                    resigned = true;
                    let _ = client::send(&mut ws, &json!({ "type": "resign" })).await;
                    continue;
                }
                if status == "finished" && asked_rematch {
                    // The rematch asked for may still come: follow it, to resign it.
                    continue;
                }
                let _ = client::send(&mut ws, &json!({ "type": "ping" })).await;
                return;
            }
            if status == "finished" {
                if !asked_rematch {
                    asked_rematch = true;
                    if me == Some(0) {
                        counters.finished.fetch_add(1, Ordering::Relaxed);
                        let r = result.as_ref();
                        if r.and_then(|r| r.reason.as_deref()) == Some("time") {
                            counters.time_losses.fetch_add(1, Ordering::Relaxed);
                        }
                        if sh.rated {
                            if r.is_some_and(|r| r.ratings.is_some()) {
                                counters.rating_changes.fetch_add(1, Ordering::Relaxed);
                            } else {
                                counters.error(format!("check: rated game {id} ended without rating changes"));
                            }
                        }
                    }
                    let _ = client::send(&mut ws, &json!({ "type": "rematch" })).await;
                }
                continue;
            }
            if status == "aborted" {
                return;
            }
            if let Some(moves) = legal
                && !moves.is_empty()
            {
                let mv = &moves[random_index(moves.len(), &mut seed)];
                if let Some(every) = interval {
                    // Pace the game: its next move no sooner than `every`
                    // after the previous one (the first at a random phase).
                    let now = Instant::now();
                    let at = {
                        let Ok(mut next) = slot.next_at.lock() else { return };
                        let at = match *next {
                            Some(t) => t.max(now),
                            None => now + every.mul_f64(random_index(1000, &mut seed) as f64 / 1000.0),
                        };
                        *next = Some(at + every);
                        at
                    };
                    tokio::time::sleep_until(at.into()).await;
                }
                if let Ok(mut s) = slot.sent.lock() {
                    *s = Some((version + 1, Instant::now()));
                }
                if client::send(&mut ws, &json!({ "type": "move", "move": mv, "version": version })).await.is_err() {
                    counters.error("send failed".into());
                    return;
                }
            }
        }
    }
}

/// A game between two computer players, watched; a new one when it ends.
async fn computer_games(cfg: LoadConfig, counters: Arc<Counters>, mut from: Option<std::net::IpAddr>) {
    let options: serde_json::Map<String, Value> =
        cfg.options.iter().map(|(k, v)| (k.clone(), Value::from(v.as_str()))).collect();
    let mut first = true;
    while !counters.stop.load(Ordering::Relaxed) {
        if !first {
            from = fresh_source(cfg.addr);
        }
        first = false;
        let seat = json!({ "kind": "computer", "player": cfg.computer_player });
        let body = json!({ "game": cfg.game, "options": options, "seats": [seat, seat] });
        let id = match client::post_from(from, cfg.addr, "/api/games", None, &body).await {
            Ok(r) if r.status == 201 => r.json()["id"].as_str().unwrap_or_default().to_string(),
            Ok(r) => {
                counters.error(format!("computer game: {} {}", r.status, r.body));
                return;
            }
            Err(e) => {
                counters.error(format!("computer game: {e}"));
                return;
            }
        };
        let Ok(mut ws) = client::connect_from(from, cfg.addr, &id).await else { return };
        if client::send(&mut ws, &json!({ "type": "hello" })).await.is_err() {
            return;
        }
        loop {
            let Some(v) = client::recv_json(&mut ws, Duration::from_secs(60)).await else { return };
            if v["type"] == "update" {
                if counters.measuring.load(Ordering::Relaxed) {
                    let n = v["events"].as_array().map(|e| e.iter().filter(|e| e["kind"] == "move").count());
                    counters.computer_moves.fetch_add(n.unwrap_or(0) as u64, Ordering::Relaxed);
                }
                if v["status"] != "live" {
                    break;
                }
            }
            if v["type"] == "welcome" && v["state"]["status"] != "live" {
                break;
            }
        }
    }
}

async fn server_counters(addr: SocketAddr) -> (u64, u64) {
    match client::get(addr, "/api/stats", None).await {
        Ok(r) => {
            let v = r.json();
            (v["commits"].as_u64().unwrap_or(0), v["write_groups"].as_u64().unwrap_or(0))
        }
        Err(_) => (0, 0),
    }
}

fn percentile(sorted: &[u32], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    Duration::from_micros(sorted[i.min(sorted.len() - 1)] as u64)
}

/// How many games a run with clocks, ratings or accounts reads back at the end.
const SAMPLED_GAMES: usize = 4;

/// What is wrong with a game's state (`GET /api/games/{id}`) for a run of
/// `cfg` with accounts `pool`: its rating, time control, clocks, accounts.
fn check_game(cfg: &LoadConfig, pool: &[Account], state: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    if state["rated"].as_bool() != Some(cfg.rated) {
        problems.push(format!("rated is {}, not {}", state["rated"], cfg.rated));
    }
    match cfg.clock {
        Some(c) => {
            let want = json!({ "initial": c.initial, "increment": c.increment });
            if state["clock"] != want {
                problems.push(format!("its clock is {}, not {want}", state["clock"]));
            }
            if state["clocks"].as_array().is_none_or(|a| a.len() != 2 || !a.iter().all(Value::is_i64)) {
                problems.push(format!("its clocks are {}", state["clocks"]));
            }
        }
        None => {
            if !state["clock"].is_null() {
                problems.push(format!("it has a clock ({}) where none was asked", state["clock"]));
            }
        }
    }
    let seats = state["seats"].as_array().map(Vec::as_slice).unwrap_or_default();
    if seats.len() != 2 {
        problems.push(format!("it has {} seats", seats.len()));
    }
    for seat in seats {
        let account = seat["account"].as_str();
        let ours = account.is_some_and(|a| pool.iter().any(|p| p.name == a));
        if !pool.is_empty() && !ours {
            problems
                .push(format!("seat {} is held by {}, not one of the run's accounts", seat["seat"], seat["account"]));
        }
        if pool.is_empty() && account.is_some() {
            problems.push(format!("seat {} is held by account {}", seat["seat"], seat["account"]));
        }
    }
    problems
}

/// Run the load and measure.
pub async fn run(cfg: LoadConfig) -> Result<LoadReport, String> {
    let accounts = cfg.account_pool();
    if accounts == 1 || accounts > MAX_ACCOUNTS {
        return Err(format!("a pool of accounts has 2 to {MAX_ACCOUNTS} (two different ones in each game)"));
    }
    let counters = Arc::new(Counters::default());
    let t0 = Instant::now();
    let pool = Arc::new(if accounts > 0 { sign_up_pool(cfg.addr, accounts).await? } else { Vec::new() });
    let accounts_setup = t0.elapsed();
    let creating = Arc::new(Semaphore::new(32));
    let connected = Arc::new(Semaphore::new(0));
    let mut tasks = Vec::new();
    let mut seed = getrandom::u64().map_err(|e| e.to_string())? | 1;
    let interval = (cfg.rate > 0.0).then(|| Duration::from_secs_f64(cfg.games as f64 / cfg.rate));
    let mut creations = Vec::new();
    for i in 0..cfg.games {
        let cfg = cfg.clone();
        let creating = creating.clone();
        let pool = pool.clone();
        let from = source(cfg.addr, 1, i);
        creations.push(tokio::spawn(async move {
            let _permit = creating.acquire().await;
            create_pair(&cfg, from, pair_of(&pool, i)).await.map(|(id, a, b)| (from, id, a, b))
        }));
    }
    let mut pairs = Vec::new();
    for c in creations {
        match c.await {
            Ok(Ok(p)) => pairs.push(p),
            Ok(Err(e)) => return Err(e),
            Err(e) => return Err(e.to_string()),
        }
    }
    let shared = Arc::new(Shared {
        addr: cfg.addr,
        slots: Mutex::default(),
        counters: counters.clone(),
        connected: connected.clone(),
        interval,
        clocked: cfg.clock.is_some(),
        rated: cfg.rated,
    });
    for (from, id, t0k, t1k) in pairs {
        let slot: Arc<Slot> = shared.slots.lock().map_err(|e| e.to_string())?.entry(id.clone()).or_default().clone();
        for token in [t0k, t1k] {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            tasks.push(tokio::spawn(seat_client(shared.clone(), from, id.clone(), token, slot.clone(), seed | 1)));
        }
    }
    let want = (2 * cfg.games) as u32;
    let _ = tokio::time::timeout(Duration::from_secs(120), connected.acquire_many(want)).await;
    let mut computer = Vec::new();
    for i in 0..cfg.computer_games {
        computer.push(tokio::spawn(computer_games(cfg.clone(), counters.clone(), source(cfg.addr, 2, i))));
    }
    let setup = t0.elapsed();
    // Warm up for a second, then measure.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let (c0, g0) = server_counters(cfg.addr).await;
    counters.measuring.store(true, Ordering::Relaxed);
    let start = Instant::now();
    tokio::time::sleep(cfg.duration).await;
    counters.measuring.store(false, Ordering::Relaxed);
    let elapsed = start.elapsed();
    let (c1, g1) = server_counters(cfg.addr).await;
    counters.stop.store(true, Ordering::Relaxed);
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(40), t).await;
    }
    for t in computer {
        t.abort();
    }
    // Read a few of the games back, as they ended: rated, clocked, held by
    // the accounts, as asked.
    let mut sampled = 0;
    if cfg.clock.is_some() || cfg.rated || !pool.is_empty() {
        let ids: Vec<String> =
            shared.slots.lock().map_err(|e| e.to_string())?.keys().take(SAMPLED_GAMES).cloned().collect();
        for id in ids {
            match client::get(cfg.addr, &format!("/api/games/{id}"), None).await {
                Ok(r) if r.status == 200 => {
                    sampled += 1;
                    for problem in check_game(&cfg, &pool, &r.json()) {
                        counters.error(format!("check: game {id}: {problem}"));
                    }
                }
                Ok(r) => counters.error(format!("check: game {id}: {} {}", r.status, r.body)),
                Err(e) => counters.error(format!("check: game {id}: {e}")),
            }
        }
    }
    let mut lat = counters.latencies.lock().map_err(|e| e.to_string())?.clone();
    lat.sort_unstable();
    Ok(LoadReport {
        games: cfg.games,
        rate: cfg.rate,
        setup,
        moves: counters.moves.load(Ordering::Relaxed),
        elapsed,
        p50: percentile(&lat, 0.50),
        p99: percentile(&lat, 0.99),
        max: lat.last().map(|&u| Duration::from_micros(u as u64)).unwrap_or_default(),
        finished: counters.finished.load(Ordering::Relaxed),
        computer_moves: counters.computer_moves.load(Ordering::Relaxed),
        errors: counters.errors.load(Ordering::Relaxed),
        error_samples: counters.error_samples.lock().map(|s| s.clone()).unwrap_or_default(),
        commits: c1.saturating_sub(c0),
        write_groups: g1.saturating_sub(g0),
        accounts,
        accounts_setup,
        rated: cfg.rated,
        clock: cfg.clock,
        clock_frames: counters.clock_frames.load(Ordering::Relaxed),
        time_losses: counters.time_losses.load(Ordering::Relaxed),
        rating_changes: counters.rating_changes.load(Ordering::Relaxed),
        sampled,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_are_read_as_initial_plus_increment() {
        assert_eq!("600+5".parse(), Ok(Clock { initial: 600, increment: 5 }));
        assert_eq!("180".parse(), Ok(Clock { initial: 180, increment: 0 }));
        assert_eq!("0+2".parse::<Clock>().map(|c| c.to_string()), Ok("0+2".to_string()));
        for bad in ["", "+", "600+", "10m+5", "-1+5", "1+2+3", "0+0"] {
            assert!(bad.parse::<Clock>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn each_game_pairs_two_different_accounts_of_the_pool() {
        for m in 2..9 {
            let pool: Vec<Account> =
                (0..m).map(|k| Account { name: format!("a{k}"), token: format!("t{k}") }).collect();
            let mut pairs = std::collections::HashSet::new();
            for i in 0..200 {
                let (a, b) = pair_of(&pool, i).unwrap();
                assert_ne!(a.name, b.name);
                pairs.insert((a.name.clone(), b.name.clone()));
            }
            // Every ordered pair comes up: the games mix the accounts.
            assert_eq!(pairs.len(), m * (m - 1), "{m} accounts");
        }
        assert!(pair_of(&[], 0).is_none());
    }
}

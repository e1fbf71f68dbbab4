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

use std::net::SocketAddr;
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
        writeln!(f, "finished:  {} games (then rematched)", self.finished)?;
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
/// people's games, 2: computer games, 3 and on: the sockets of rematches)
/// uses: on loopback, each game's players come from an address of their own
/// (127.KIND.x.y), as many people would, so that the server's limits per
/// client address apply as in real life.
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

async fn create_pair(cfg: &LoadConfig, from: Option<std::net::IpAddr>) -> Result<(String, String, String), String> {
    let options: serde_json::Map<String, Value> =
        cfg.options.iter().map(|(k, v)| (k.clone(), Value::from(v.as_str()))).collect();
    let body = json!({ "game": cfg.game, "options": options, "name": "load-a" });
    let r = client::post_from(from, cfg.addr, "/api/games", None, &body).await.map_err(|e| format!("create: {e}"))?;
    if r.status != 201 {
        return Err(format!("create: {} {}", r.status, r.body));
    }
    let v = r.json();
    let id = v["id"].as_str().unwrap_or_default().to_string();
    let t0 = v["token"].as_str().unwrap_or_default().to_string();
    let r = client::post_from(from, cfg.addr, &format!("/api/games/{id}/join"), None, &json!({ "name": "load-b" }))
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
                    (s.version.unwrap_or(0), s.status.unwrap_or_default(), s.legal_moves, s.rematch)
                }
                "update" => {
                    let v = f.version.unwrap_or(0);
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
                    if code != "already_offered" && code != "rematch_exists" && !counters.stop.load(Ordering::Relaxed) {
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

/// Run the load and measure.
pub async fn run(cfg: LoadConfig) -> Result<LoadReport, String> {
    let counters = Arc::new(Counters::default());
    let t0 = Instant::now();
    let creating = Arc::new(Semaphore::new(32));
    let connected = Arc::new(Semaphore::new(0));
    let mut tasks = Vec::new();
    let mut seed = getrandom::u64().map_err(|e| e.to_string())? | 1;
    let interval = (cfg.rate > 0.0).then(|| Duration::from_secs_f64(cfg.games as f64 / cfg.rate));
    let mut creations = Vec::new();
    for i in 0..cfg.games {
        let cfg = cfg.clone();
        let creating = creating.clone();
        let from = source(cfg.addr, 1, i);
        creations.push(tokio::spawn(async move {
            let _permit = creating.acquire().await;
            create_pair(&cfg, from).await.map(|(id, a, b)| (from, id, a, b))
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
    })
}

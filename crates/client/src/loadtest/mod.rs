//! The load tool behind `plateau loadtest`: many concurrent games between
//! random movers over real WebSockets, against a running server, or against
//! several servers of one service (instances sharing one database).
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
//!
//! With several servers the games and sockets are spread over them (see
//! [`spread`]), and the run survives the death of a server: a client whose
//! socket fails opens one on the next server and resyncs (see `seat.rs`).
//! Every run counts its reconnections and how long its games waited, and at
//! the end reads every game's record back to check that every move a client
//! saw acknowledged is in it, at its place (`check.rs`).

mod accounts;
mod check;
mod computer;
mod seat;
pub mod spread;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::Semaphore;

use crate as client;
use accounts::{Account, pair_of, sign_up_pool};

pub use spread::parse_server;

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// The server (when `servers` is empty).
    pub addr: SocketAddr,
    /// Several servers of one service, to spread the games and sockets over
    /// (a server may appear twice); empty: `addr` alone.
    pub servers: Vec<SocketAddr>,
    /// How long a client whose socket failed tries the servers in turn
    /// before giving up (an error).
    pub reconnect_for: Duration,
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
    /// The servers of the run, in order (`servers`, or `addr` alone).
    pub fn server_list(&self) -> Vec<SocketAddr> {
        if self.servers.is_empty() { vec![self.addr] } else { self.servers.clone() }
    }

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
            servers: Vec::new(),
            reconnect_for: Duration::from_secs(60),
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

/// Moves acknowledged through one server of the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerFigures {
    /// The server.
    pub addr: SocketAddr,
    /// Moves whose sender saw them acknowledged on a socket to this server
    /// (the whole run).
    pub acknowledged: u64,
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
    /// Error frames received, failures to connect for good, and failed
    /// checks.
    pub errors: u64,
    /// The first few error messages.
    pub error_samples: Vec<String>,
    /// The server's commits and write groups during the measurement (every
    /// server's, each counted once; none when a socket failed: a restarted
    /// server counts from 0).
    pub commits: u64,
    /// The server's write groups during the measurement.
    pub write_groups: u64,
    /// The servers' processor time during the measurement, in seconds
    /// (`process_cpu_seconds_total` of their `/metrics`, every server's,
    /// each counted once; none when a server did not tell, or a socket
    /// failed).
    pub server_cpu: Option<f64>,
    /// The moves the servers committed meanwhile (`plateau_moves_total`;
    /// with `server_cpu`).
    pub server_moves: u64,
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
    /// Each server of the list, with the moves acknowledged through it.
    pub servers: Vec<ServerFigures>,
    /// Moves whose sender saw them acknowledged (the whole run).
    pub acknowledged: u64,
    /// Sockets opened again after a failure (on the next server).
    pub reconnects: u64,
    /// Attempts to open a socket that failed (refused, closed, no answer).
    pub failed_connects: u64,
    /// Moves in flight when their socket failed (or unanswered for 5 s)
    /// that the resync showed applied.
    pub found_applied: u64,
    /// Moves in flight that the resync showed not applied, sent again.
    pub resent: u64,
    /// Refusals to try again a moment later (`owner_unavailable`, `moved`:
    /// a game changing hands between instances), not errors.
    pub retry_refusals: u64,
    /// The longest time from a move sent to its sender seeing it
    /// acknowledged (a failover included).
    pub longest_stall: Duration,
    /// Outages: from a first socket failure to every client that lost its
    /// socket seeing its game move again.
    pub outages: u64,
    /// The longest of them (none: no outage, or none ended).
    pub recovery: Option<Duration>,
    /// Clients whose socket failed and whose game had not moved again when
    /// they stopped.
    pub unrecovered: u64,
    /// Games whose record was read back at the end and compared with the
    /// moves their clients saw acknowledged.
    pub records_checked: u64,
    /// Acknowledged moves compared with the records.
    pub moves_checked: u64,
    /// Acknowledged moves missing from their game's record, or with another
    /// move in their place (must be 0).
    pub lost: u64,
    /// The first few of them.
    pub lost_samples: Vec<String>,
    /// Games whose record could not be read (each also an error).
    pub records_unread: u64,
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

fn secs(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

impl std::fmt::Display for LoadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "games:     {} concurrent, set up in {:.1} s", self.games, self.setup.as_secs_f64())?;
        if self.servers.len() > 1 {
            let each: Vec<String> = self.servers.iter().map(|s| format!("{} {}", s.addr, s.acknowledged)).collect();
            writeln!(f, "servers:   {}; moves acknowledged through each: {}", self.servers.len(), each.join(", "))?;
        }
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
        writeln!(
            f,
            "stall:     longest {} from a move sent to its sender seeing it acknowledged ({} acknowledged in all)",
            ms(self.longest_stall),
            self.acknowledged
        )?;
        if self.reconnects > 0 || self.failed_connects > 0 || self.outages > 0 || self.retry_refusals > 0 {
            let moved = match self.recovery {
                Some(d) => format!("longest until the games moved again {}", secs(d)),
                None => "not over when the run ended".into(),
            };
            writeln!(
                f,
                "failover:  {} reconnects ({} failed attempts); {} outages, {moved}; {} clients whose game had not moved again at the end",
                self.reconnects, self.failed_connects, self.outages, self.unrecovered
            )?;
            writeln!(
                f,
                "in doubt:  {} moves in flight found applied on resync, {} sent again; {} refusals to try again",
                self.found_applied, self.resent, self.retry_refusals
            )?;
        }
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
        if let Some(cpu) = self.server_cpu
            && self.server_moves > 0
        {
            writeln!(
                f,
                "server CPU: {:.2} s for {} moves committed = {:.1} µs a move (its /metrics: user and system, every thread)",
                cpu,
                self.server_moves,
                cpu * 1e6 / self.server_moves as f64
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
        write!(
            f,
            "lost:      {} acknowledged moves lost ({} moves of {} games checked against their records",
            self.lost, self.moves_checked, self.records_checked
        )?;
        if self.records_unread > 0 {
            write!(f, "; {} records unread", self.records_unread)?;
        }
        writeln!(f, ")")?;
        for l in &self.lost_samples {
            writeln!(f, "           {l}")?;
        }
        write!(f, "errors:    {}", self.errors)?;
        for e in &self.error_samples {
            write!(f, "\n           {e}")?;
        }
        Ok(())
    }
}

/// Outages: from a first socket failure until every client that lost its
/// socket has seen its game move again.
#[derive(Default)]
struct Outages {
    /// Clients whose socket failed and whose game has not moved since.
    open: usize,
    /// When the outage going on began.
    since: Option<Instant>,
    count: u64,
    longest: Option<Duration>,
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
    acknowledged: AtomicU64,
    /// Moves acknowledged through each server of the list.
    per_server: Vec<AtomicU64>,
    reconnects: AtomicU64,
    failed_connects: AtomicU64,
    found_applied: AtomicU64,
    resent: AtomicU64,
    retry_refusals: AtomicU64,
    longest_stall_us: AtomicU64,
    unrecovered: AtomicU64,
    outages: Mutex<Outages>,
}

impl Counters {
    fn new(servers: usize) -> Counters {
        Counters { per_server: (0..servers).map(|_| AtomicU64::new(0)).collect(), ..Counters::default() }
    }

    fn error(&self, e: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut s) = self.error_samples.lock()
            && s.len() < 5
        {
            s.push(e);
        }
    }

    /// A client lost its socket: an outage begins, or goes on.
    fn seat_failed(&self) {
        if let Ok(mut o) = self.outages.lock() {
            if o.open == 0 {
                o.since = Some(Instant::now());
                o.count += 1;
            }
            o.open += 1;
        }
    }

    /// A client that lost its socket saw its game move again: the last one
    /// ends the outage.
    fn seat_moved_again(&self) {
        if let Ok(mut o) = self.outages.lock() {
            o.open = o.open.saturating_sub(1);
            if o.open == 0
                && let Some(t) = o.since.take()
            {
                o.longest = Some(o.longest.unwrap_or_default().max(t.elapsed()));
            }
        }
    }
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
/// 253: the accounts' sign-ups) uses to reach `addr`: on loopback, each
/// game's players come from an address of their own (127.KIND.x.y), as many
/// people would, so that the server's limits per client address apply as in
/// real life.
fn source(addr: SocketAddr, kind: u8, i: usize) -> Option<IpAddr> {
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_loopback() => {
            Some(Ipv4Addr::new(127, kind, (i / 250 % 250) as u8, (i % 250 + 1) as u8).into())
        }
        _ => None,
    }
}

/// Where a client comes from: a kind and a number (see [`source`]), the
/// same for every server it talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Src {
    kind: u8,
    i: usize,
}

impl Src {
    /// The local address to reach `addr` from.
    fn ip(self, addr: SocketAddr) -> Option<IpAddr> {
        source(addr, self.kind, self.i)
    }

    /// A fresh address for a rematch's socket or the next computer game:
    /// people do not start several games a second, so a game that ends and
    /// starts again at once (the load tool at full speed) comes from
    /// another address, cycling through 127.3.0.1 to 127.252.249.250.
    fn fresh() -> Src {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed) as usize % (250 * 62_500);
        Src { kind: 3 + (n / 62_500) as u8, i: n % 62_500 }
    }
}

/// Create game `g` on its server (the next ones if it cannot be reached)
/// and join it: its id and the two seats' tokens.
async fn create_pair(
    cfg: &LoadConfig,
    servers: &[SocketAddr],
    g: usize,
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
    let src = Src { kind: 1, i: g };
    let mut k = spread::creation(g, servers.len());
    let mut tries = 0;
    let (addr, r) = loop {
        let addr = servers[k];
        match client::post_from(src.ip(addr), addr, "/api/games", a, &body).await {
            Ok(r) => break (addr, r),
            Err(e) if tries + 1 >= servers.len() => return Err(format!("create on {addr}: {e}")),
            Err(_) => {
                tries += 1;
                k = spread::next(k, servers.len());
            }
        }
    };
    if r.status != 201 {
        return Err(format!("create on {addr}: {} {}", r.status, r.body));
    }
    let v = r.json();
    let id = v["id"].as_str().unwrap_or_default().to_string();
    let t0 = v["token"].as_str().unwrap_or_default().to_string();
    let r = client::post_from(src.ip(addr), addr, &format!("/api/games/{id}/join"), b, &json!({ "name": "load-b" }))
        .await
        .map_err(|e| format!("join on {addr}: {e}"))?;
    if r.status != 200 {
        return Err(format!("join on {addr}: {} {}", r.status, r.body));
    }
    let t1 = r.json()["token"].as_str().unwrap_or_default().to_string();
    Ok((id, t0, t1))
}

/// What the servers have counted so far (every server's, each address once).
#[derive(Clone, Copy, Debug, Default)]
struct ServerCounters {
    commits: u64,
    groups: u64,
    /// Processor seconds (none if a server did not tell).
    cpu: Option<f64>,
    moves: u64,
}

/// The counters of every server (each address once): the commits and write
/// groups of `/api/stats`, the processor time and moves of `/metrics`.
async fn server_counters(servers: &[SocketAddr]) -> ServerCounters {
    let mut seen = Vec::new();
    let mut c = ServerCounters { cpu: Some(0.0), ..Default::default() };
    for &addr in servers {
        if seen.contains(&addr) {
            continue;
        }
        seen.push(addr);
        if let Ok(r) = client::get(addr, "/api/stats", None).await {
            let v = r.json();
            c.commits += v["commits"].as_u64().unwrap_or(0);
            c.groups += v["write_groups"].as_u64().unwrap_or(0);
        }
        let metrics = match client::get(addr, "/metrics", None).await {
            Ok(r) if r.status == 200 => r.body,
            _ => String::new(),
        };
        match (metric(&metrics, "process_cpu_seconds_total"), metric(&metrics, "plateau_moves_total")) {
            (Some(cpu), Some(moves)) => {
                c.cpu = c.cpu.map(|t| t + cpu);
                c.moves += moves as u64;
            }
            _ => c.cpu = None,
        }
    }
    c
}

/// The value of an unlabelled metric in a Prometheus text exposition.
fn metric(text: &str, name: &str) -> Option<f64> {
    text.lines().find_map(|l| {
        let (n, v) = l.split_once(' ')?;
        if n == name { v.trim().parse().ok() } else { None }
    })
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

/// Run the load and measure.
pub async fn run(cfg: LoadConfig) -> Result<LoadReport, String> {
    let accounts = cfg.account_pool();
    if accounts == 1 || accounts > MAX_ACCOUNTS {
        return Err(format!("a pool of accounts has 2 to {MAX_ACCOUNTS} (two different ones in each game)"));
    }
    let servers = cfg.server_list();
    let n = servers.len();
    let counters = Arc::new(Counters::new(n));
    let t0 = Instant::now();
    let pool = Arc::new(if accounts > 0 { sign_up_pool(&servers, accounts).await? } else { Vec::new() });
    let accounts_setup = t0.elapsed();
    let creating = Arc::new(Semaphore::new(32));
    let connected = Arc::new(Semaphore::new(0));
    let mut tasks = Vec::new();
    let mut seed = getrandom::u64().map_err(|e| e.to_string())? | 1;
    let interval = (cfg.rate > 0.0).then(|| Duration::from_secs_f64(cfg.games as f64 / cfg.rate));
    let mut creations = Vec::new();
    for g in 0..cfg.games {
        let (cfg, servers) = (cfg.clone(), servers.clone());
        let creating = creating.clone();
        let pool = pool.clone();
        creations.push(tokio::spawn(async move {
            let _permit = creating.acquire().await;
            create_pair(&cfg, &servers, g, pair_of(&pool, g)).await
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
    let shared = Arc::new(seat::Shared {
        servers: servers.clone(),
        slots: Mutex::default(),
        counters: counters.clone(),
        connected: connected.clone(),
        interval,
        clocked: cfg.clock.is_some(),
        rated: cfg.rated,
        reconnect_for: cfg.reconnect_for,
    });
    for (g, (id, t0k, t1k)) in pairs.into_iter().enumerate() {
        let slot = shared.slot(&id, g).ok_or("the games' list")?;
        for (i, token) in [t0k, t1k].into_iter().enumerate() {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let src = Src { kind: 1, i: g };
            let client = seat::Seat::new(shared.clone(), g, i, src, id.clone(), token, slot.clone(), seed | 1);
            tasks.push(tokio::spawn(client.run()));
        }
    }
    let want = (2 * cfg.games) as u32;
    let _ = tokio::time::timeout(Duration::from_secs(120), connected.acquire_many(want)).await;
    let mut computer = Vec::new();
    for k in 0..cfg.computer_games {
        computer.push(tokio::spawn(computer::computer_games(cfg.clone(), servers.clone(), counters.clone(), k)));
    }
    let setup = t0.elapsed();
    // Warm up for a second, then measure.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let before = server_counters(&servers).await;
    counters.measuring.store(true, Ordering::Relaxed);
    let start = Instant::now();
    tokio::time::sleep(cfg.duration).await;
    counters.measuring.store(false, Ordering::Relaxed);
    let elapsed = start.elapsed();
    let after = server_counters(&servers).await;
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
        let games: Vec<(String, usize)> = shared
            .slots
            .lock()
            .map_err(|e| e.to_string())?
            .values()
            .take(SAMPLED_GAMES)
            .map(|s| (s.id.clone(), s.lane))
            .collect();
        for (id, lane) in games {
            let addr = servers[spread::creation(lane, n)];
            match client::get(addr, &format!("/api/games/{id}"), None).await {
                Ok(r) if r.status == 200 => {
                    sampled += 1;
                    for problem in check::check_game(&cfg, &pool, &r.json()) {
                        counters.error(format!("check: game {id}: {problem}"));
                    }
                }
                Ok(r) => counters.error(format!("check: game {id}: {} {}", r.status, r.body)),
                Err(e) => counters.error(format!("check: game {id}: {e}")),
            }
        }
    }
    // Every move a client saw acknowledged must be in its game's record.
    let kept = check::acknowledged_moves(&shared).await;
    for e in &kept.unread {
        counters.error(format!("check: record of {e}"));
    }
    let mut lat = counters.latencies.lock().map_err(|e| e.to_string())?.clone();
    lat.sort_unstable();
    let (outages, recovery) = counters.outages.lock().map(|o| (o.count, o.longest)).unwrap_or_default();
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
        // A server restarted during the measurement counts from 0 again.
        commits: if outages == 0 { after.commits.saturating_sub(before.commits) } else { 0 },
        write_groups: if outages == 0 { after.groups.saturating_sub(before.groups) } else { 0 },
        server_cpu: match (before.cpu, after.cpu) {
            (Some(b), Some(a)) if outages == 0 && a >= b => Some(a - b),
            _ => None,
        },
        server_moves: if outages == 0 { after.moves.saturating_sub(before.moves) } else { 0 },
        accounts,
        accounts_setup,
        rated: cfg.rated,
        clock: cfg.clock,
        clock_frames: counters.clock_frames.load(Ordering::Relaxed),
        time_losses: counters.time_losses.load(Ordering::Relaxed),
        rating_changes: counters.rating_changes.load(Ordering::Relaxed),
        sampled,
        servers: servers
            .iter()
            .zip(&counters.per_server)
            .map(|(&addr, c)| ServerFigures { addr, acknowledged: c.load(Ordering::Relaxed) })
            .collect(),
        acknowledged: counters.acknowledged.load(Ordering::Relaxed),
        reconnects: counters.reconnects.load(Ordering::Relaxed),
        failed_connects: counters.failed_connects.load(Ordering::Relaxed),
        found_applied: counters.found_applied.load(Ordering::Relaxed),
        resent: counters.resent.load(Ordering::Relaxed),
        retry_refusals: counters.retry_refusals.load(Ordering::Relaxed),
        longest_stall: Duration::from_micros(counters.longest_stall_us.load(Ordering::Relaxed)),
        outages,
        recovery,
        unrecovered: counters.unrecovered.load(Ordering::Relaxed),
        records_checked: kept.games,
        moves_checked: kept.moves,
        lost: kept.lost,
        lost_samples: kept.samples,
        records_unread: kept.unread.len() as u64,
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
    fn the_servers_are_the_list_or_the_one_address() {
        let a: SocketAddr = "127.0.0.1:8790".parse().unwrap();
        let b: SocketAddr = "127.0.0.1:8791".parse().unwrap();
        let one = LoadConfig { addr: a, ..LoadConfig::default() };
        assert_eq!(one.server_list(), [a]);
        let two = LoadConfig { servers: vec![a, b, a], ..LoadConfig::default() };
        assert_eq!(two.server_list(), [a, b, a]);
    }

    #[test]
    fn a_client_comes_from_the_same_address_to_every_loopback_server() {
        let src = Src { kind: 1, i: 251 };
        let a: SocketAddr = "127.0.0.1:8790".parse().unwrap();
        let b: SocketAddr = "127.0.0.2:8791".parse().unwrap();
        assert_eq!(src.ip(a), Some("127.1.1.2".parse().unwrap()));
        assert_eq!(src.ip(a), src.ip(b));
        // Not on loopback: the machine's own address.
        assert_eq!(src.ip("192.0.2.1:80".parse().unwrap()), None);
    }

    #[test]
    fn an_outage_lasts_until_every_client_that_failed_moves_again() {
        let c = Counters::new(2);
        c.seat_failed();
        c.seat_failed();
        c.seat_moved_again();
        {
            let o = c.outages.lock().unwrap();
            assert_eq!((o.open, o.count, o.longest), (1, 1, None));
        }
        std::thread::sleep(Duration::from_millis(5));
        c.seat_moved_again();
        let first = c.outages.lock().unwrap().longest.unwrap();
        assert!(first >= Duration::from_millis(5));
        // A second outage, shorter: the longest stays.
        c.seat_failed();
        c.seat_moved_again();
        let o = c.outages.lock().unwrap();
        assert_eq!((o.open, o.count, o.longest), (0, 2, Some(first)));
    }

    #[test]
    fn the_report_tells_the_failover_figures() {
        let a: SocketAddr = "127.0.0.1:8790".parse().unwrap();
        let r = LoadReport {
            servers: vec![ServerFigures { addr: a, acknowledged: 120 }, ServerFigures { addr: a, acknowledged: 80 }],
            reconnects: 2,
            outages: 1,
            recovery: Some(Duration::from_millis(1500)),
            lost: 0,
            moves_checked: 200,
            records_checked: 2,
            ..LoadReport::default()
        };
        let text = r.to_string();
        assert!(text.contains("moves acknowledged through each: 127.0.0.1:8790 120, 127.0.0.1:8790 80"), "{text}");
        assert!(text.contains("2 reconnects"), "{text}");
        assert!(text.contains("longest until the games moved again 1.50 s"), "{text}");
        assert!(text.contains("0 acknowledged moves lost (200 moves of 2 games"), "{text}");
    }

    #[test]
    fn the_report_tells_the_server_cpu_per_move() {
        let r = LoadReport { server_cpu: Some(2.5), server_moves: 50_000, ..LoadReport::default() };
        // 2.5 s / 50,000 moves = 50 µs.
        assert!(r.to_string().contains("server CPU: 2.50 s for 50000 moves committed = 50.0 µs a move"), "{r}");
        let none = LoadReport { server_cpu: None, server_moves: 50_000, ..LoadReport::default() };
        assert!(!none.to_string().contains("server CPU"));
    }

    #[test]
    fn metrics_are_read_from_the_text_exposition() {
        let text = "# HELP process_cpu_seconds x\n# TYPE process_cpu_seconds counter\nprocess_cpu_seconds_total 12.5\n\
                    plateau_moves_total 1000\nplateau_moves_totalx 3\n";
        assert_eq!(metric(text, "process_cpu_seconds_total"), Some(12.5));
        assert_eq!(metric(text, "plateau_moves_total"), Some(1000.0));
        assert_eq!(metric(text, "plateau_commits_total"), None);
    }
}

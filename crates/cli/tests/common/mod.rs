//! What the tests of real `plateau serve` processes share: starting one, and
//! a seat that plays random legal moves as fast as the server takes them,
//! writing down every move of its own it saw acknowledged (its event
//! broadcast), and going on through another server when its socket fails.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use plateau_client::{self as client, Incoming};
use serde_json::{Value, json};

pub const WAIT: Duration = Duration::from_secs(20);

/// Start `plateau serve` on database `db` (a URL) with `extra` arguments;
/// the process and the address it listens on.
pub fn start_server(db: &str, extra: &[&str]) -> (Child, SocketAddr) {
    start_server_at(db, "127.0.0.1:0", extra)
}

/// As [`start_server`], listening on `at` (an address to come back to after
/// a restart).
#[allow(dead_code)] // not every test file restarts a server on its address
pub fn start_server_at(db: &str, at: &str, extra: &[&str]) -> (Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args(["serve", "--addr", at, "--ai-threads", "1", "--db", db])
        .args(extra)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start plateau serve");
    let out = child.stdout.take().unwrap();
    let mut lines = BufReader::new(out).lines();
    let addr = loop {
        let line = lines.next().expect("the server printed its address").unwrap();
        if let Some(rest) = line.split("listening on http://").nth(1) {
            break rest.trim().parse().unwrap();
        }
    };
    // Keep reading (and dropping) what it prints, so it never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (child, addr)
}

pub async fn post(addr: SocketAddr, path: &str, body: Value) -> Value {
    let r = client::post(addr, path, None, &body).await.unwrap();
    assert!(r.status == 200 || r.status == 201, "{path}: {} {}", r.status, r.body);
    r.json()
}

pub async fn state(addr: SocketAddr, id: &str) -> Value {
    let r = client::get(addr, &format!("/api/games/{id}"), None).await.unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// Moves acknowledged to a seat: (version, move), and when each was seen.
pub type Acked = Arc<Mutex<Vec<(u64, String, Instant)>>>;

/// A seat of game `id` playing through `servers`, starting with
/// `servers[first]`; when its socket fails it tries the next, and the next,
/// for `reconnect_for` (zero: it stops), resyncing from its last version.
pub struct Seat {
    pub servers: Vec<SocketAddr>,
    pub first: usize,
    pub id: String,
    pub token: Option<String>,
    pub seed: u64,
    pub reconnect_for: Duration,
}

/// Play as `seat` until the game ends, `stop` is set, or no server answers.
/// A spectator (no token) only notes every move it sees.
pub async fn player(seat: Seat, acked: Acked, stop: Arc<AtomicBool>) {
    let mut rng = seat.seed | 1;
    let mut me: Option<u64> = None;
    let mut version: Option<u64> = None;
    let mut attempt = seat.first;
    let mut failed_at: Option<Instant> = None;
    loop {
        let addr = seat.servers[attempt % seat.servers.len()];
        attempt += 1;
        if let Some(t) = failed_at
            && t.elapsed() > seat.reconnect_for
        {
            return;
        }
        let Ok(mut ws) = client::connect(addr, &seat.id).await else {
            failed_at.get_or_insert_with(Instant::now);
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let mut hello = json!({ "type": "hello" });
        if let Some(t) = &seat.token {
            hello["token"] = json!(t);
        }
        if let Some(v) = version {
            hello["version"] = json!(v);
        }
        if client::send(&mut ws, &hello).await.is_err() {
            failed_at.get_or_insert_with(Instant::now);
            continue;
        }
        loop {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let v = match client::recv(&mut ws, WAIT).await {
                Incoming::Frame(_, v) => v,
                _ => break,
            };
            failed_at = None;
            let empty = Vec::new();
            let (s, events) = match v["type"].as_str() {
                Some("welcome") => {
                    me = v["you"].as_u64();
                    (&v["state"], v["events"].as_array().unwrap_or(&empty))
                }
                Some("update") => (&v, v["events"].as_array().unwrap_or(&empty)),
                Some("error") => match v.get("state") {
                    Some(s) => (s, &empty),
                    None => continue,
                },
                _ => continue,
            };
            {
                let mut a = acked.lock().unwrap();
                for e in events {
                    let ver = e["version"].as_u64().unwrap_or(0);
                    let mine = me.is_none() || e["seat"].as_u64() == me;
                    if e["kind"] == "move" && mine && a.last().is_none_or(|(last, _, _)| ver > *last) {
                        a.push((ver, e["move"].as_str().unwrap_or("").to_string(), Instant::now()));
                    }
                }
            }
            if let Some(n) = s["version"].as_u64() {
                version = Some(n);
            }
            if s["status"] == "finished" {
                return;
            }
            if s["status"] != "live" || seat.token.is_none() {
                continue;
            }
            if let Some(moves) = s["legal_moves"].as_array()
                && !moves.is_empty()
            {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let mv = moves[(rng % moves.len() as u64) as usize].as_str().unwrap().to_string();
                let at = s["version"].as_u64().unwrap();
                if client::send(&mut ws, &json!({ "type": "move", "move": mv, "version": at })).await.is_err() {
                    break;
                }
            }
        }
        if seat.reconnect_for.is_zero() {
            return;
        }
        failed_at.get_or_insert_with(Instant::now);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Every move acknowledged is in the game's `history`, at its place:
/// `ply_of(version)` gives the place of the move of that version.
pub fn check_acked(what: &str, history: &[Value], acked: &[(u64, String, Instant)], ply_of: impl Fn(u64) -> usize) {
    for (version, mv, _) in acked {
        let ply = ply_of(*version);
        assert!(ply < history.len(), "{what}: acknowledged move {mv} (version {version}) lost; history {history:?}");
        assert_eq!(history[ply], mv.as_str(), "{what}: move at ply {ply}");
    }
}

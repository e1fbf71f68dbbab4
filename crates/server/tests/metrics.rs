//! `GET /metrics` through the real server: moves played over HTTP are
//! counted once each (a refused move not at all), the move histogram counts
//! them too, the connections gauge follows the WebSockets open, the writer's
//! commits are there, and the text is the Prometheus format with its content
//! type, naming no game, token or address.

mod common;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

use common::*;
use plateau_client as client;
use serde_json::{Value, json};

/// A scrape: its content type and every sample, by series (name and labels).
struct Scrape {
    content_type: String,
    text: String,
    samples: HashMap<String, f64>,
}

impl Scrape {
    fn get(&self, series: &str) -> f64 {
        *self.samples.get(series).unwrap_or_else(|| panic!("no {series} in\n{}", self.text))
    }
}

async fn scrape(addr: SocketAddr) -> Scrape {
    let r = client::get(addr, "/metrics", None).await.expect("http");
    assert_eq!(r.status, 200, "{}", r.body);
    let content_type = r
        .headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    let mut samples = HashMap::new();
    for line in r.body.lines() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (series, value) = line.rsplit_once(' ').unwrap_or_else(|| panic!("bad line {line:?}"));
        let value: f64 = value.parse().unwrap_or_else(|_| panic!("bad value in {line:?}"));
        assert!(samples.insert(series.to_string(), value).is_none(), "{series} twice");
    }
    Scrape { content_type, text: r.body, samples }
}

/// The game's state as `token`'s seat sees it.
async fn state(addr: SocketAddr, id: &str, token: &str) -> Value {
    let (st, v) = get(addr, &format!("/api/games/{id}"), Some(token)).await;
    assert_eq!(st, 200, "{v}");
    v
}

/// The seat to move plays its first legal move over HTTP.
async fn play_one(addr: SocketAddr, id: &str, tokens: &[String; 2]) {
    let s = state(addr, id, &tokens[0]).await;
    let token = &tokens[s["to_move"].as_u64().expect("a seat to move") as usize];
    let s = state(addr, id, token).await;
    let mv = s["legal_moves"][0].as_str().expect("a legal move").to_string();
    let (st, v) = post(
        addr,
        &format!("/api/games/{id}/action"),
        Some(token),
        json!({ "type": "move", "move": mv, "version": s["version"] }),
    )
    .await;
    assert_eq!(st, 200, "{v}");
}

/// Scrape until `series` is `want` (the server counts a closed socket
/// when its task ends); panics after a generous bound.
async fn until(addr: SocketAddr, series: &str, want: f64) -> Scrape {
    for _ in 0..200 {
        let s = scrape(addr).await;
        if s.get(series) == want {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{series} never became {want}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_moves_commits_and_sockets() {
    let s = start().await;
    let m = scrape(s.addr).await;
    assert_eq!(m.content_type, "text/plain; version=0.0.4; charset=utf-8");
    assert_eq!(m.get("plateau_moves_total"), 0.0);
    assert_eq!(m.get("plateau_move_seconds_count"), 0.0);
    assert_eq!(m.get("plateau_connections"), 0.0);
    assert_eq!(m.get("plateau_write_failures_total"), 0.0);
    assert_eq!(m.get("plateau_ai_threads"), 2.0);
    for t in ["counter", "gauge", "histogram"] {
        assert!(m.text.contains(&format!(" {t}\n")), "no {t} in\n{}", m.text);
    }

    let (id, t0, _) = create(s.addr, json!({ "game": "abalone", "name": "Ann" })).await;
    let (_, t1) = join(s.addr, &id, "Bob").await;
    let tokens = [t0.unwrap(), t1];
    const MOVES: usize = 7;
    for _ in 0..MOVES {
        play_one(s.addr, &id, &tokens).await;
    }
    // A refused move is not counted.
    let st = state(s.addr, &id, &tokens[0]).await;
    let mover = &tokens[st["to_move"].as_u64().unwrap() as usize];
    let (code, v) = post(
        s.addr,
        &format!("/api/games/{id}/action"),
        Some(mover),
        json!({ "type": "move", "move": "nonsense", "version": st["version"] }),
    )
    .await;
    assert_eq!(code, 422, "{v}");

    // Two sockets open: a seat and a spectator.
    let (seat, _) = Client::open(s.addr, &id, Some(&tokens[0]), None).await;
    let (watcher, _) = Client::open(s.addr, &id, None, None).await;
    let m = until(s.addr, "plateau_connections", 2.0).await;
    let n = MOVES as f64;
    assert_eq!(m.get("plateau_moves_total"), n);
    assert_eq!(m.get("plateau_move_seconds_count"), n);
    assert_eq!(m.get("plateau_move_seconds_bucket{le=\"+Inf\"}"), n);
    assert!(m.get("plateau_move_seconds_sum") > 0.0);
    // Buckets are cumulative, from 0.5 ms to 2 s.
    let les = ["0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2", "+Inf"];
    let counts: Vec<f64> = les.iter().map(|le| m.get(&format!("plateau_move_seconds_bucket{{le=\"{le}\"}}"))).collect();
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
    // Every move, the creation and the join were committed.
    let commits = m.get("plateau_commits_total");
    assert!(commits >= 1.0, "{}", m.text);
    assert!(m.get("plateau_write_groups_total") >= n + 2.0, "{}", m.text);
    assert!(m.get("plateau_commit_seconds_count") >= commits, "{}", m.text);
    assert_eq!(m.get("plateau_write_failures_total"), 0.0);
    assert!(m.get("plateau_games_in_memory") >= 1.0);
    assert_eq!(m.get("plateau_ai_queued"), 0.0);
    // Nothing names the game, a seat's token or a client.
    for secret in [id.as_str(), &tokens[0], &tokens[1], "127.0.0.1"] {
        assert!(!m.text.contains(secret), "{secret} in\n{}", m.text);
    }

    // A move over the socket counts like one over HTTP.
    let mut seat = seat;
    let mut played = MOVES;
    if state(s.addr, &id, &tokens[0]).await["to_move"] != 0 {
        play_one(s.addr, &id, &tokens).await;
        played += 1;
    }
    let st = state(s.addr, &id, &tokens[0]).await;
    let mv = st["legal_moves"][0].as_str().unwrap().to_string();
    seat.send(json!({ "type": "move", "move": mv, "version": st["version"] })).await;
    played += 1;
    let m = until(s.addr, "plateau_moves_total", played as f64).await;
    assert_eq!(m.get("plateau_move_seconds_count"), played as f64);

    // Closing sockets lowers the gauge.
    drop(watcher);
    until(s.addr, "plateau_connections", 1.0).await;
    drop(seat);
    until(s.addr, "plateau_connections", 0.0).await;
}

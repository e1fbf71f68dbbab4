//! Games between two computer players alongside, watched: a new one when
//! one ends; on the next server when a server fails.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{Counters, LoadConfig, Src, spread};
use crate as client;

/// Computer game number `k`, then the next ones, on server `k % n` (the
/// next server of the list after a failure), until the run stops.
pub(super) async fn computer_games(cfg: LoadConfig, servers: Vec<SocketAddr>, counters: Arc<Counters>, k: usize) {
    let options: serde_json::Map<String, Value> =
        cfg.options.iter().map(|(k, v)| (k.clone(), Value::from(v.as_str()))).collect();
    let mut server = spread::creation(k, servers.len());
    let mut src = Src { kind: 2, i: k };
    let mut first = true;
    let mut failing_since: Option<Instant> = None;
    while !counters.stop.load(Ordering::Relaxed) {
        if !first {
            src = Src::fresh();
        }
        first = false;
        if let Some(t) = failing_since {
            if t.elapsed() > cfg.reconnect_for {
                counters.error(format!("computer game: no server answered for {:.0} s", t.elapsed().as_secs_f64()));
                return;
            }
            server = spread::next(server, servers.len());
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        let addr = servers[server];
        let from = src.ip(addr);
        let seat = json!({ "kind": "computer", "player": cfg.computer_player });
        let body = json!({ "game": cfg.game, "options": options, "seats": [seat, seat] });
        let id = match client::post_from(from, addr, "/api/games", None, &body).await {
            Ok(r) if r.status == 201 => r.json()["id"].as_str().unwrap_or_default().to_string(),
            Ok(r) if r.status >= 500 => {
                failing_since.get_or_insert_with(Instant::now);
                continue;
            }
            Ok(r) => {
                counters.error(format!("computer game: {} {}", r.status, r.body));
                return;
            }
            Err(_) => {
                failing_since.get_or_insert_with(Instant::now);
                continue;
            }
        };
        let Ok(mut ws) = client::connect_from(from, addr, &id).await else {
            failing_since.get_or_insert_with(Instant::now);
            continue;
        };
        if client::send(&mut ws, &json!({ "type": "hello" })).await.is_err() {
            failing_since.get_or_insert_with(Instant::now);
            continue;
        }
        failing_since = None;
        loop {
            let Some(v) = client::recv_json(&mut ws, Duration::from_secs(60)).await else {
                // The server failed (or the game went quiet): another game.
                failing_since.get_or_insert_with(Instant::now);
                break;
            };
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

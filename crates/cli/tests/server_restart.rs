//! The real `plateau serve` process, killed with SIGKILL in the middle of
//! games and started again on the same database: every move that was
//! acknowledged is still there, and every game goes on, computer seats
//! included.

mod common;

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::*;
use plateau_client::{self as client, Incoming};
use serde_json::json;

/// One seat on the one server, stopping when its socket ends.
fn one_server(addr: std::net::SocketAddr, id: &str, token: &str, seed: u64) -> Seat {
    Seat {
        servers: vec![addr],
        first: 0,
        id: id.to_string(),
        token: Some(token.to_string()),
        seed,
        reconnect_for: Duration::ZERO,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_loses_no_acknowledged_move() {
    let dir = std::env::temp_dir().join(format!("plateau-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("data").join("plateau.sqlite");
    let db = format!("sqlite://{}", db.display());
    let (mut server, addr) = start_server(&db, &[]);

    // Long games: nobody wins soon.
    let options = json!({ "marbles-to-win": 14, "max-plies": 100000 });
    // 1. Two people.
    let g1 = post(addr, "/api/games", json!({ "game": "abalone", "options": options, "name": "A" })).await;
    let id1 = g1["id"].as_str().unwrap().to_string();
    let a_token = g1["token"].as_str().unwrap().to_string();
    let b = post(addr, &format!("/api/games/{id1}/join"), json!({ "name": "B" })).await;
    let b_token = b["token"].as_str().unwrap().to_string();
    // 2. A person against the computer.
    let g2 = post(
        addr,
        "/api/games",
        json!({ "game": "abalone", "options": options, "seats": [{ "kind": "human" }, { "kind": "computer", "player": "greedy" }] }),
    )
    .await;
    let id2 = g2["id"].as_str().unwrap().to_string();
    let c_token = g2["token"].as_str().unwrap().to_string();
    // 3. Two computers.
    let seat = json!({ "kind": "computer", "player": "random" });
    let g3 = post(addr, "/api/games", json!({ "game": "abalone", "options": options, "seats": [seat, seat] })).await;
    let id3 = g3["id"].as_str().unwrap().to_string();

    let acked1: Acked = Arc::new(Mutex::new(Vec::new()));
    let acked2: Acked = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let acked1b: Acked = Arc::new(Mutex::new(Vec::new()));
    let players = vec![
        tokio::spawn(player(one_server(addr, &id1, &a_token, 1), acked1.clone(), stop.clone())),
        tokio::spawn(player(one_server(addr, &id1, &b_token, 2), acked1b.clone(), stop.clone())),
        tokio::spawn(player(one_server(addr, &id2, &c_token, 3), acked2.clone(), stop.clone())),
    ];
    // A spectator of the computers' game notes every move broadcast.
    let seen3 = Arc::new(Mutex::new(Vec::<String>::new()));
    let watcher = {
        let seen3 = seen3.clone();
        let id3 = id3.clone();
        tokio::spawn(async move {
            let Ok(mut ws) = client::connect(addr, &id3).await else { return };
            let _ = client::send(&mut ws, &json!({ "type": "hello" })).await;
            while let Incoming::Frame(_, v) = client::recv(&mut ws, WAIT).await {
                if v["type"] == "welcome" {
                    let h: Vec<String> =
                        v["state"]["history"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().into()).collect();
                    *seen3.lock().unwrap() = h;
                }
                if v["type"] == "update" {
                    for e in v["events"].as_array().unwrap() {
                        if e["kind"] == "move" {
                            seen3.lock().unwrap().push(e["move"].as_str().unwrap().into());
                        }
                    }
                }
            }
        })
    };

    // Play until every game has moved a good deal, then kill the server mid-move.
    let t = Instant::now();
    while (acked1.lock().unwrap().len() + acked1b.lock().unwrap().len() < 60
        || acked2.lock().unwrap().len() < 20
        || seen3.lock().unwrap().len() < 60)
        && t.elapsed() < Duration::from_secs(60)
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.kill().unwrap();
    server.wait().unwrap();
    for p in players {
        let _ = p.await;
    }
    let _ = watcher.await;
    let mut acked1 = acked1.lock().unwrap().clone();
    acked1.extend(acked1b.lock().unwrap().iter().cloned());
    let acked2 = acked2.lock().unwrap().clone();
    let seen3 = seen3.lock().unwrap().clone();
    assert!(acked1.len() >= 60 && acked2.len() >= 20 && seen3.len() >= 60, "the games did not get going");
    eprintln!(
        "killed after {} + {} acknowledged moves and {} computer moves seen",
        acked1.len(),
        acked2.len(),
        seen3.len()
    );

    // Start again on the same database.
    let (mut server, addr) = start_server(&db, &[]);
    let s1 = state(addr, &id1).await;
    let h1 = s1["history"].as_array().unwrap();
    // Versions count events: one join, then one event per move.
    check_acked("people", h1, &acked1, |v| (v - 2) as usize);
    assert_eq!(s1["status"], "live");
    let s2 = state(addr, &id2).await;
    let h2 = s2["history"].as_array().unwrap();
    // In the game against the computer, the person's moves are at even plies.
    check_acked("person v computer", h2, &acked2, |v| (v - 1) as usize);
    let s3 = state(addr, &id3).await;
    let h3 = s3["history"].as_array().unwrap().clone();
    eprintln!("kept: {} / {} / {} moves", h1.len(), h2.len(), h3.len());
    assert!(h3.len() >= seen3.len(), "computers: {} moves seen, {} kept", seen3.len(), h3.len());
    for (i, mv) in seen3.iter().enumerate() {
        assert_eq!(h3[i], mv.as_str(), "computers: move {i}");
    }

    // Every game goes on. The people reconnect with their tokens.
    let before1 = h1.len();
    let (more1, more1b, more2): (Acked, Acked, Acked) = Default::default();
    let pa = tokio::spawn(player(one_server(addr, &id1, &a_token, 5), more1, stop.clone()));
    let pb = tokio::spawn(player(one_server(addr, &id1, &b_token, 6), more1b, stop.clone()));
    let pc = tokio::spawn(player(one_server(addr, &id2, &c_token, 7), more2, stop.clone()));
    let t = Instant::now();
    loop {
        let n1 = state(addr, &id1).await["history"].as_array().unwrap().len();
        let s2 = state(addr, &id2).await;
        let n2 = s2["history"].as_array().unwrap().len();
        let n3 = state(addr, &id3).await["history"].as_array().unwrap().len();
        // The computer answered the person after the restart: two more moves at least.
        if n1 >= before1 + 4 && n2 >= h2.len() + 2 && n3 >= h3.len() + 4 {
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(60), "the games did not go on: {n1} {n2} {n3}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.kill().unwrap();
    server.wait().unwrap();
    for p in [pa, pb, pc] {
        let _ = p.await;
    }
    let _ = std::fs::remove_dir_all(&dir);
}

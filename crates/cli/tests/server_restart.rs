//! The real `plateau serve` process, killed with SIGKILL in the middle of
//! games and started again on the same database: every move that was
//! acknowledged is still there, and every game goes on, computer seats
//! included.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use plateau_client::{self as client, Incoming};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

fn start_server(db: &Path) -> (Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args(["serve", "--addr", "127.0.0.1:0", "--ai-threads", "1", "--db"])
        .arg(format!("sqlite://{}", db.display()))
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

async fn post(addr: SocketAddr, path: &str, body: Value) -> Value {
    let r = client::post(addr, path, None, &body).await.unwrap();
    assert!(r.status == 200 || r.status == 201, "{path}: {} {}", r.status, r.body);
    r.json()
}

async fn state(addr: SocketAddr, id: &str) -> Value {
    let r = client::get(addr, &format!("/api/games/{id}"), None).await.unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// A seat that plays random legal moves as fast as the server takes them,
/// and writes down every move the server acknowledged.
async fn player(addr: SocketAddr, id: String, token: String, acked: Arc<Mutex<Vec<(u64, String)>>>, seed: u64) {
    let Ok(mut ws) = client::connect(addr, &id).await else { return };
    if client::send(&mut ws, &json!({ "type": "hello", "token": token })).await.is_err() {
        return;
    }
    let mut rng = seed | 1;
    let mut me = None;
    let mut pending: Option<(u64, String)> = None;
    loop {
        let v = match client::recv(&mut ws, WAIT).await {
            Incoming::Frame(_, v) => v,
            _ => return,
        };
        let s = match v["type"].as_str() {
            Some("welcome") => {
                me = v["you"].as_u64();
                &v["state"]
            }
            Some("update") => {
                for e in v["events"].as_array().unwrap() {
                    if e["kind"] == "move"
                        && e["seat"].as_u64() == me
                        && let Some((ver, _)) = &pending
                        && e["version"].as_u64() == Some(*ver)
                    {
                        acked.lock().unwrap().push((*ver, e["move"].as_str().unwrap().to_string()));
                        pending = None;
                    }
                }
                &v
            }
            Some("error") => match v.get("state") {
                Some(s) => s,
                None => continue,
            },
            _ => continue,
        };
        if s["status"] != "live" {
            if s["status"] == "finished" {
                return;
            }
            continue;
        }
        if let Some(moves) = s["legal_moves"].as_array() {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mv = moves[(rng % moves.len() as u64) as usize].as_str().unwrap().to_string();
            let version = s["version"].as_u64().unwrap();
            pending = Some((version + 1, mv.clone()));
            if client::send(&mut ws, &json!({ "type": "move", "move": mv, "version": version })).await.is_err() {
                return;
            }
        }
    }
}

/// Every move acknowledged to a player is in the game's history, in place.
fn check_prefix(what: &str, history: &[Value], acked: &[(u64, String)], movers_version: &[(u64, String)]) {
    let _ = movers_version;
    for (version, mv) in acked {
        // Versions count events: one join, then one event per move.
        let ply = (*version - 2) as usize;
        assert!(ply < history.len(), "{what}: acknowledged move {mv} (version {version}) lost; history {history:?}");
        assert_eq!(history[ply], mv.as_str(), "{what}: move at ply {ply}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_loses_no_acknowledged_move() {
    let dir = std::env::temp_dir().join(format!("plateau-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("data").join("plateau.sqlite");
    let (mut server, addr) = start_server(&db);

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

    let acked1 = Arc::new(Mutex::new(Vec::new()));
    let acked2 = Arc::new(Mutex::new(Vec::new()));
    let players = vec![
        tokio::spawn(player(addr, id1.clone(), a_token.clone(), acked1.clone(), 1)),
        tokio::spawn(player(addr, id1.clone(), b_token.clone(), acked1.clone(), 2)),
        tokio::spawn(player(addr, id2.clone(), c_token.clone(), acked2.clone(), 3)),
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
    while (acked1.lock().unwrap().len() < 60 || acked2.lock().unwrap().len() < 20 || seen3.lock().unwrap().len() < 60)
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
    let acked1 = acked1.lock().unwrap().clone();
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
    let (mut server, addr) = start_server(&db);
    let s1 = state(addr, &id1).await;
    let h1 = s1["history"].as_array().unwrap();
    check_prefix("people", h1, &acked1, &[]);
    assert_eq!(s1["status"], "live");
    let s2 = state(addr, &id2).await;
    let h2 = s2["history"].as_array().unwrap();
    // In the game against the computer, the person's moves are at even plies.
    for (version, mv) in &acked2 {
        let ply = (*version - 1) as usize;
        assert!(ply < h2.len(), "person v computer: acknowledged move {mv} lost");
        assert_eq!(h2[ply], mv.as_str());
    }
    let s3 = state(addr, &id3).await;
    let h3 = s3["history"].as_array().unwrap().clone();
    eprintln!("kept: {} / {} / {} moves", h1.len(), h2.len(), h3.len());
    assert!(h3.len() >= seen3.len(), "computers: {} moves seen, {} kept", seen3.len(), h3.len());
    for (i, mv) in seen3.iter().enumerate() {
        assert_eq!(h3[i], mv.as_str(), "computers: move {i}");
    }

    // Every game goes on. The people reconnect with their tokens.
    let before1 = h1.len();
    let more1 = Arc::new(Mutex::new(Vec::new()));
    let pa = tokio::spawn(player(addr, id1.clone(), a_token, more1.clone(), 5));
    let pb = tokio::spawn(player(addr, id1.clone(), b_token, more1.clone(), 6));
    let more2 = Arc::new(Mutex::new(Vec::new()));
    let pc = tokio::spawn(player(addr, id2.clone(), c_token, more2.clone(), 7));
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

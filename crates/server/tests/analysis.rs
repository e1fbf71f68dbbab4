//! The computer analysis of finished games (queued on the computer pool,
//! bounded, fair, stored once, never holding up play) and the analysis
//! board (a bounded search, refused for live hidden games, stopped when the
//! client goes away). Budgets are small: 10 ms of search per position.

mod common;

use std::time::Duration;

use common::*;
use plateau_server::Limits;
use serde_json::{Value, json};

/// Limits with fast analyses (and room for the many requests that play
/// the games analysed).
fn quick() -> Limits {
    Limits { analysis_time: Duration::from_millis(10), ..roomy() }
}

fn roomy() -> Limits {
    Limits { http_rate: 10_000.0, http_burst: 10_000.0, ..Limits::default() }
}

/// The first `n` legal moves of Abalone's standard game (each the first
/// legal move in its position), from the rules themselves.
fn first_moves(n: usize) -> Vec<String> {
    let mut m = plateau_games::registry().new_match("abalone", &plateau_core::Setup::default()).unwrap();
    let mut out = Vec::new();
    for _ in 0..n {
        let mv = m.legal_moves()[0].clone();
        m.play(&mv).unwrap();
        out.push(mv);
    }
    out
}

/// An Abalone game between two people: `moves` played, then resigned by
/// the seat to move. Returns the game's id.
async fn finished(addr: std::net::SocketAddr, moves: &[String]) -> String {
    let (id, t0, v) = create(addr, json!({ "game": "abalone" })).await;
    let t0 = t0.unwrap();
    let (_, t1) = join(addr, &id, "Bob").await;
    let mut version = v["state"]["version"].as_u64().unwrap_or(0);
    let (_, g) = get(addr, &format!("/api/games/{id}"), None).await;
    if let Some(n) = g["version"].as_u64() {
        version = n;
    }
    for (i, mv) in moves.iter().enumerate() {
        let token = if i % 2 == 0 { &t0 } else { &t1 };
        let (st, r) = post(
            addr,
            &format!("/api/games/{id}/action"),
            Some(token),
            json!({ "type": "move", "move": mv, "version": version }),
        )
        .await;
        assert_eq!(st, 200, "{r}");
        version = r["version"].as_u64().unwrap();
    }
    let token = if moves.len().is_multiple_of(2) { &t0 } else { &t1 };
    let (st, r) = post(addr, &format!("/api/games/{id}/action"), Some(token), json!({ "type": "resign" })).await;
    assert_eq!(st, 200, "{r}");
    // The end is committed before the answer.
    let (_, g) = get(addr, &format!("/api/games/{id}"), None).await;
    assert_eq!(g["status"], "finished", "{g}");
    id
}

async fn analysis_of(addr: std::net::SocketAddr, id: &str) -> Value {
    let (st, v) = get(addr, &format!("/api/games/{id}/analysis"), None).await;
    assert_eq!(st, 200, "{v}");
    v
}

/// Ask for an analysis from the client at `from` (a loopback address: a
/// guest of its own).
async fn ask(addr: std::net::SocketAddr, from: &str, id: &str) -> Answer {
    request(addr, from, "POST", &format!("/api/games/{id}/analysis"), &[], None).await
}

async fn until_done(addr: std::net::SocketAddr, id: &str) -> Value {
    let deadline = tokio::time::Instant::now() + WAIT * 3;
    loop {
        let v = analysis_of(addr, id).await;
        match v["status"].as_str() {
            Some("done") => return v,
            Some("failed") => panic!("the analysis failed: {v}"),
            _ => {}
        }
        assert!(tokio::time::Instant::now() < deadline, "the analysis of {id} did not end: {v}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A counter of `/metrics`.
async fn metric(addr: std::net::SocketAddr, name: &str) -> u64 {
    let r = plateau_client::get(addr, "/metrics", None).await.unwrap();
    r.body
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .map(|v| v as u64)
        .unwrap_or_else(|| panic!("{name} missing from\n{}", r.body))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_analysed_once_and_stored() {
    let dir = temp_dir("analysis-once");
    let config = plateau_server::Config { limits: quick(), ai_threads: 2, ..config(&dir) };
    let server = plateau_server::start(config.clone()).await.unwrap();
    let addr = server.addr();
    let moves = first_moves(6);
    let id = finished(addr, &moves).await;
    assert_eq!(analysis_of(addr, &id).await, json!({ "status": "none" }));
    let a = ask(addr, "127.0.0.1", &id).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    assert!(matches!(a.body["status"].as_str(), Some("queued" | "running" | "done")), "{}", a.raw);
    let done = until_done(addr, &id).await;
    let analysis = &done["analysis"];
    assert_eq!(analysis["game"], "abalone");
    let plies = analysis["plies"].as_array().unwrap();
    // One entry per move played, in order, by alternating seats.
    assert_eq!(plies.len(), moves.len(), "{analysis}");
    for (i, p) in plies.iter().enumerate() {
        assert_eq!(p["ply"], i + 1);
        assert_eq!(p["played"], moves[i]);
        assert_eq!(p["seat"], i % 2);
        assert_eq!(p["before"].as_array().unwrap().len(), 2);
    }
    assert_eq!(analysis["seats"].as_array().unwrap().len(), 2);
    assert!(analysis["hidden"].is_null());
    // Asked again (by anyone): the stored analysis, not a new run.
    let again = ask(addr, "127.0.0.2", &id).await;
    assert_eq!(again.status, 200, "{}", again.raw);
    assert_eq!(again.body, done);
    assert_eq!(metric(addr, "plateau_analyses_queued_total").await, 1);
    assert_eq!(metric(addr, "plateau_analyses_done_total").await, 1);
    // After a restart: the same analysis, from the database.
    server.stop().await.unwrap();
    let server = plateau_server::start(config).await.unwrap();
    let s = TestServer { addr: server.addr(), server, dir };
    assert_eq!(analysis_of(s.addr, &id).await, done);
    let again = ask(s.addr, "127.0.0.1", &id).await;
    assert_eq!((again.status, &again.body), (200, &done));
    assert_eq!(metric(s.addr, "plateau_analyses_done_total").await, 0, "nothing ran again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_finished_games_are_analysed() {
    let s = start_with(quick()).await;
    let (id, _, _) = create(s.addr, json!({ "game": "abalone" })).await;
    let a = ask(s.addr, "127.0.0.1", &id).await;
    assert_eq!((a.status, a.code()), (409, Some("not_finished")), "{}", a.raw);
    assert_eq!(analysis_of(s.addr, &id).await, json!({ "status": "none" }));
    let a = ask(s.addr, "127.0.0.1", "nosuchgame").await;
    assert_eq!((a.status, a.code()), (404, Some("not_found")), "{}", a.raw);
    let (st, _) = get(s.addr, "/api/games/nosuchgame/analysis", None).await;
    assert_eq!(st, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queue_is_bounded_in_all_and_per_client() {
    // Long searches and one analysis at a time: the others wait.
    let limits = Limits {
        analysis_time: Duration::from_secs(2),
        analyses_queued: 3,
        analyses_per_client: 2,
        analyses_running: 1,
        ..roomy()
    };
    let s = start_with(limits).await;
    let moves = first_moves(4);
    let mut games = Vec::new();
    for _ in 0..5 {
        games.push(finished(s.addr, &moves).await);
    }
    for g in &games[..2] {
        let a = ask(s.addr, "127.0.0.2", g).await;
        assert_eq!(a.status, 202, "{}", a.raw);
    }
    // The client's share is full.
    let a = ask(s.addr, "127.0.0.2", &games[2]).await;
    assert_eq!((a.status, a.code()), (503, Some("analysis_busy")), "{}", a.raw);
    // Another client fills the queue.
    let b = ask(s.addr, "127.0.0.3", &games[2]).await;
    assert_eq!(b.status, 202, "{}", b.raw);
    // It is full for everyone.
    let c = ask(s.addr, "127.0.0.4", &games[3]).await;
    assert_eq!((c.status, c.code()), (503, Some("analysis_busy")), "{}", c.raw);
    // A queued one says how many are ahead of it: one analysis runs, so
    // the last one asked has at most one queued before it.
    let v = analysis_of(s.addr, &games[2]).await;
    match v["status"].as_str() {
        Some("queued") => assert!(v["position"].as_u64().unwrap() <= 1, "{v}"),
        Some("running") => assert!(v["total"].as_u64().unwrap() == moves.len() as u64 + 1, "{v}"),
        _ => panic!("{v}"),
    }
    assert_eq!(analysis_of(s.addr, &games[4]).await, json!({ "status": "none" }));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_analyses_interleave() {
    // Client A asks two analyses, then client B one: B's is not stuck
    // behind A's. Positions are served in turn per client, so B's (one
    // third of the work) ends before A's two have both ended; one after
    // the other, B's would end last. (Searches long enough that the
    // computer pool, not the database, is what they wait for.)
    let s = start_with(Limits { analysis_time: Duration::from_millis(40), ..roomy() }).await;
    let moves = first_moves(20);
    let a1 = finished(s.addr, &moves).await;
    let a2 = finished(s.addr, &moves).await;
    let b = finished(s.addr, &moves).await;
    for g in [&a1, &a2] {
        assert_eq!(ask(s.addr, "127.0.0.2", g).await.status, 202);
    }
    assert_eq!(ask(s.addr, "127.0.0.3", &b).await.status, 202);
    until_done(s.addr, &b).await;
    let (x, y) = (analysis_of(s.addr, &a1).await, analysis_of(s.addr, &a2).await);
    assert!(x["status"] != "done" || y["status"] != "done", "B's analysis waited for A's: {x} {y}");
    until_done(s.addr, &a1).await;
    until_done(s.addr, &a2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyses_never_hold_up_play() {
    // Analyses of long searches fill their share of the pool (one of the
    // two threads); a computer's move in a game is answered meanwhile.
    let limits = Limits { analysis_time: Duration::from_millis(500), ..roomy() };
    let s = start_with(limits).await;
    let moves = first_moves(8);
    let mut games = Vec::new();
    for from in ["127.0.0.2", "127.0.0.2", "127.0.0.3"] {
        let g = finished(s.addr, &moves).await;
        assert_eq!(ask(s.addr, from, &g).await.status, 202);
        games.push(g);
    }
    // Wait until an analysis runs.
    let deadline = tokio::time::Instant::now() + WAIT;
    while analysis_of(s.addr, &games[0]).await["status"] != "running" {
        assert!(tokio::time::Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // A computer that thinks (not a quick player) moves first.
    let body = json!({ "game": "abalone", "seats": [
        { "kind": "computer", "player": "alphabeta:time=200ms" }, { "kind": "human" }] });
    let (id, token, _) = create(s.addr, body).await;
    let (mut me, _) = Client::open(s.addr, &id, token.as_deref(), None).await;
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let (_, g) = get(s.addr, &format!("/api/games/{id}"), None).await;
        if g["ply"].as_u64().unwrap_or(0) >= 1 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "the computer did not move: {g}");
        if let plateau_client::Incoming::Closed(_) = me.incoming(Duration::from_millis(50)).await {
            panic!("the game's socket closed");
        }
    }
    // The analyses were not done: the move did not wait for them.
    let mut pending = 0;
    for g in &games {
        if analysis_of(s.addr, g).await["status"] != "done" {
            pending += 1;
        }
    }
    assert!(pending > 0, "every analysis ended before the computer's move");
}

// ---------------------------------------------------------------------------
// The analysis board

async fn analyse(addr: std::net::SocketAddr, body: Value) -> (u16, Value) {
    post(addr, "/api/analyse", None, body).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_judges_a_position() {
    let s = start().await;
    let moves = first_moves(3);
    let (st, v) = analyse(s.addr, json!({ "game": "abalone", "moves": moves, "time_ms": 50 })).await;
    assert_eq!(st, 200, "{v}");
    // The legal moves of that position, from the rules.
    let mut m = plateau_games::registry().new_match("abalone", &plateau_core::Setup::default()).unwrap();
    for mv in &moves {
        m.play(mv).unwrap();
    }
    let legal = m.legal_moves();
    let best = v["best"].as_str().unwrap();
    assert!(legal.iter().any(|l| l == best), "{best} is not legal");
    assert_eq!(v["line"][0], best);
    let values: Vec<f64> = v["values"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    assert_eq!(values.len(), 2);
    assert!((values[0] + values[1]).abs() < 1e-6 && values[0].abs() <= 1.0, "{values:?}");
    assert!(v["depth"].as_u64().unwrap() >= 1);
    assert!(v["score"].is_string());
    // The same from a record.
    let record = format!("[Game \"abalone\"]\n\n{}", moves.join(" "));
    let (st, r) = analyse(s.addr, json!({ "record": record, "time_ms": 50 })).await;
    assert_eq!(st, 200, "{r}");
    assert!(legal.iter().any(|l| l == r["best"].as_str().unwrap()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_refuses_bad_input() {
    let s = start().await;
    let (st, v) = analyse(s.addr, json!({ "game": "abalone", "moves": ["zz99"] })).await;
    assert_eq!((st, v["code"].as_str()), (400, Some("illegal_move")), "{v}");
    let many = vec!["a1b2"; 1001];
    let (st, v) = analyse(s.addr, json!({ "game": "abalone", "moves": many })).await;
    assert_eq!((st, v["code"].as_str()), (400, Some("too_many_moves")), "{v}");
    let (st, v) = analyse(s.addr, json!({ "game": "nosuch" })).await;
    assert_eq!(st, 400, "{v}");
    let (st, v) = analyse(s.addr, json!({ "game": "abalone", "depth": 40 })).await;
    assert_eq!((st, v["code"].as_str()), (400, Some("bad_json")), "{v}");
    // Hidden information: never a position a client makes up, nor a live
    // game's.
    let (st, v) = analyse(s.addr, json!({ "game": "kabaleo" })).await;
    assert_eq!((st, v["code"].as_str()), (409, Some("hidden_in_progress")), "{v}");
    let (st, v) = analyse(s.addr, json!({ "record": "[Game \"kabaleo\"]\n[Seed \"7\"]\n\n" })).await;
    assert_eq!((st, v["code"].as_str()), (409, Some("hidden_in_progress")), "{v}");
    let (id, _, _) = create(s.addr, json!({ "game": "kabaleo" })).await;
    let (st, v) = analyse(s.addr, json!({ "game_id": id })).await;
    assert_eq!((st, v["code"].as_str()), (409, Some("hidden_in_progress")), "{v}");
    let record = format!("[Game \"kabaleo\"]\n[Site \"Plateau game {id}\"]\n\n");
    let (st, v) = analyse(s.addr, json!({ "record": record })).await;
    assert_eq!((st, v["code"].as_str()), (409, Some("hidden_in_progress")), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_search_of_a_client_stops_its_last() {
    let s = start().await;
    let addr = s.addr;
    let slow = tokio::spawn(async move {
        analyse(addr, json!({ "game": "abalone", "moves": first_moves(2), "time_ms": 2000 })).await
    });
    let deadline = tokio::time::Instant::now() + WAIT;
    while metric(addr, "plateau_board_searches_total").await < 1 {
        assert!(tokio::time::Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let (st, quick) = analyse(addr, json!({ "game": "abalone", "time_ms": 20 })).await;
    assert_eq!(st, 200, "{quick}");
    let (st, first) = slow.await.unwrap();
    assert_eq!(st, 200, "{first}");
    assert_eq!(first["stopped"], true, "{first}");
    assert!(first["best"].is_string());
    assert_eq!(metric(addr, "plateau_board_stopped_total").await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_request_stops_its_search() {
    use tokio::io::AsyncWriteExt;
    let s = start().await;
    let body = json!({ "game": "abalone", "time_ms": 2000 }).to_string();
    let mut c = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    let head = format!(
        "POST /api/analyse HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        s.addr,
        body.len()
    );
    c.write_all(head.as_bytes()).await.unwrap();
    let deadline = tokio::time::Instant::now() + WAIT;
    while metric(s.addr, "plateau_board_searches_total").await < 1 {
        assert!(tokio::time::Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // The client goes away: the search stops early (counted as stopped:
    // a search that ran its time would not be).
    drop(c);
    while metric(s.addr, "plateau_board_stopped_total").await < 1 {
        assert!(tokio::time::Instant::now() < deadline, "the search was not stopped");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_kabaleo_game_gets_its_hidden_analysis() {
    let s = start_with(quick()).await;
    let (id, t0, _) = create(s.addr, json!({ "game": "kabaleo" })).await;
    let (_, t1) = join(s.addr, &id, "Bob").await;
    let tokens = [t0.unwrap(), t1];
    // Six moves, each the first legal move of the seat to move, then the
    // seat to move resigns.
    let mut played = Vec::new();
    for _ in 0..6 {
        let mut moved = false;
        for t in &tokens {
            let (_, st) = get(s.addr, &format!("/api/games/{id}"), Some(t)).await;
            if let Some(mv) = st["legal_moves"].as_array().and_then(|l| l.first()).and_then(Value::as_str) {
                let body = json!({ "type": "move", "move": mv, "version": st["version"] });
                let (code, r) = post(s.addr, &format!("/api/games/{id}/action"), Some(t), body).await;
                assert_eq!(code, 200, "{r}");
                played.push(mv.to_string());
                moved = true;
                break;
            }
        }
        assert!(moved, "no seat could move");
    }
    // While it is live: no analysis, and the board refuses its position.
    let a = ask(s.addr, "127.0.0.1", &id).await;
    assert_eq!((a.status, a.code()), (409, Some("not_finished")), "{}", a.raw);
    let (code, v) = analyse(s.addr, json!({ "game_id": id, "ply": 2 })).await;
    assert_eq!((code, v["code"].as_str()), (409, Some("hidden_in_progress")), "{v}");
    for t in &tokens {
        let (_, st) = get(s.addr, &format!("/api/games/{id}"), Some(t)).await;
        if st["legal_moves"].as_array().is_some_and(|l| !l.is_empty()) {
            let (code, r) =
                post(s.addr, &format!("/api/games/{id}/action"), Some(t), json!({ "type": "resign" })).await;
            assert_eq!(code, 200, "{r}");
            break;
        }
    }
    assert_eq!(ask(s.addr, "127.0.0.1", &id).await.status, 202);
    let done = until_done(s.addr, &id).await;
    let a = &done["analysis"];
    assert_eq!(a["plies"].as_array().unwrap().len(), played.len(), "{a}");
    let hidden = &a["hidden"];
    assert_eq!(hidden["secrets"].as_array().unwrap().len(), 2, "{hidden}");
    // Chances and beliefs at every position, from the start to the end.
    assert_eq!(hidden["chances"].as_array().unwrap().len(), played.len() + 1, "{hidden}");
    assert_eq!(hidden["beliefs"].as_array().unwrap().len(), played.len() + 1, "{hidden}");
    // Finished here: the board searches its positions now.
    let (code, v) = analyse(s.addr, json!({ "game_id": id, "ply": 2, "time_ms": 20 })).await;
    assert_eq!(code, 200, "{v}");
    assert!(v["best"].is_string(), "{v}");
}

/// Two instances on one PostgreSQL database: each analysis is claimed and
/// run by one of them, and served by both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: run by the PostgreSQL pass of scripts/test.sh"]
async fn two_instances_share_the_analyses() {
    assert!(postgres().is_some(), "PLATEAU_TEST_POSTGRES must name a PostgreSQL server (scripts/postgres.sh sets it)");
    let dir = temp_dir("analysis-two");
    let a = plateau_server::start(plateau_server::Config { limits: quick(), ..config(&dir) }).await.unwrap();
    let b = plateau_server::start(plateau_server::Config { limits: quick(), ..config(&dir) }).await.unwrap();
    let moves = first_moves(6);
    let mut games = Vec::new();
    for (i, from) in ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"].into_iter().enumerate() {
        let g = finished(a.addr(), &moves).await;
        // Asked on either instance.
        let at = if i % 2 == 0 { a.addr() } else { b.addr() };
        assert_eq!(ask(at, from, &g).await.status, 202);
        games.push(g);
    }
    for g in &games {
        let done = until_done(a.addr(), g).await;
        assert_eq!(analysis_of(b.addr(), g).await, done);
        // Asked again on the other: stored, not run again.
        assert_eq!(ask(b.addr(), "127.0.0.6", g).await.status, 200);
    }
    let ran =
        metric(a.addr(), "plateau_analyses_done_total").await + metric(b.addr(), "plateau_analyses_done_total").await;
    assert_eq!(ran, games.len() as u64);
    a.stop().await.unwrap();
    b.stop().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

//! Several instances on one PostgreSQL database (issue 16), in one process:
//! a game played across three instances, a stopping instance handing its
//! games over, and a stale owner whose writes are refused (fencing).
//!
//! These need PostgreSQL: they are `#[ignore]`d in the SQLite pass (listed
//! as ignored, never passing silently) and run by the PostgreSQL pass of
//! `scripts/test.sh` (`scripts/postgres.sh cargo test … -- --include-ignored`),
//! where they fail if `PLATEAU_TEST_POSTGRES` is not set. The kill -9 of a
//! real `plateau serve` process is tested in `crates/cli/tests/cluster.rs`.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::*;
use plateau_server::{Config, Limits};
use serde_json::{Value, json};

const NEEDS: &str = "needs PostgreSQL: run by the PostgreSQL pass of scripts/test.sh";

fn pg() -> String {
    postgres().expect("PLATEAU_TEST_POSTGRES must name a PostgreSQL server (scripts/postgres.sh sets it)")
}

fn lease(secs: u64) -> Limits {
    Limits { lease: Duration::from_secs(secs), ..Limits::default() }
}

/// An instance on the database of `dir` (instances on one `dir` share it;
/// the database goes with the throwaway PostgreSQL cluster).
async fn instance(dir: &Path, limits: Limits) -> Instance {
    let server = plateau_server::start(Config { limits, ..config(dir) }).await.expect("an instance starts");
    Instance { addr: server.addr(), server }
}

struct Instance {
    addr: std::net::SocketAddr,
    server: plateau_server::Server,
}

/// A query on the database of `dir`.
async fn sql(dir: &Path) -> sqlx::PgPool {
    let url = db_url(dir);
    sqlx::postgres::PgPoolOptions::new().max_connections(1).connect(&url).await.expect("connect")
}

/// The instance holding the lease of `id` (its id), its epoch and state.
async fn lease_of(db: &sqlx::PgPool, id: &str) -> (String, i64, String) {
    sqlx::query_as("SELECT owner, epoch, state FROM leases WHERE game_id = $1")
        .bind(id)
        .fetch_one(db)
        .await
        .expect("a lease")
}

/// Play one legal move from whoever's turn it is among `seats`; every
/// client in `all` (indexes into `seats` and spectators) then sees it.
async fn play_one(clients: &mut [Client], movers: &[usize]) -> String {
    let who =
        *movers.iter().find(|&&i| clients[i].legal.as_ref().is_some_and(|l| !l.is_empty())).expect("a seat to move");
    let mv = clients[who].legal.as_ref().unwrap()[0].clone();
    let v = clients[who].version;
    clients[who].send(json!({ "type": "move", "move": mv, "version": v })).await;
    for c in clients.iter_mut() {
        c.until_version(v + 1).await;
    }
    mv
}

fn moves_of(record: &Value) -> Vec<String> {
    record["moves"]
        .as_array()
        .map(|a| a.iter().filter_map(|m| m.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: run by the PostgreSQL pass of scripts/test.sh"]
async fn a_game_is_one_game_on_three_instances() {
    let _ = (pg(), NEEDS);
    let dir = temp_dir("cluster-three");
    let a = instance(&dir, lease(5)).await;
    let b = instance(&dir, lease(5)).await;
    let c = instance(&dir, lease(5)).await;
    let db = sql(&dir).await;
    // Created on a: a owns it.
    let (id, t0, _) =
        create(a.addr, json!({ "game": "abalone", "seats": [{ "kind": "human" }, { "kind": "human" }] })).await;
    let (owner, epoch, _) = lease_of(&db, &id).await;
    assert_eq!(epoch, 1);
    // The second player joins through b (forwarded to a, the token made by b).
    let (seat, t1) = join(b.addr, &id, "Bob").await;
    assert_eq!(seat, 1);
    let (p0, _) = Client::open(a.addr, &id, t0.as_deref(), None).await;
    let (p1, w1) = Client::open(b.addr, &id, Some(&t1), None).await;
    assert_eq!(w1["you"], 1, "the token made on b holds seat 1: {w1}");
    let (watcher, _) = Client::open(c.addr, &id, None, None).await;
    let mut clients = vec![p0, p1, watcher];
    let mut played = Vec::new();
    for _ in 0..12 {
        played.push(play_one(&mut clients, &[0, 1]).await);
    }
    // Every instance tells the same story, and the owner has not changed.
    for s in [&a, &b, &c] {
        let (st, rec) = get(s.addr, &format!("/api/games/{id}/record"), None).await;
        assert_eq!(st, 200, "{rec}");
        assert_eq!(moves_of(&rec), played, "the record on {}", s.addr);
    }
    assert_eq!(lease_of(&db, &id).await.0, owner);
    // Read-your-writes across instances: a move acknowledged by the owner
    // (over HTTP on a) is in what c answers right after.
    for _ in 0..5 {
        let (seat, token) = if clients[0].legal.as_ref().is_some_and(|l| !l.is_empty()) {
            (0, t0.clone().unwrap())
        } else {
            (1, t1.clone())
        };
        let mv = clients[seat].legal.clone().unwrap()[0].clone();
        let v = clients[seat].version;
        let (st, body) = post(
            a.addr,
            &format!("/api/games/{id}/action"),
            Some(&token),
            json!({ "type": "move", "move": mv, "version": v }),
        )
        .await;
        assert_eq!(st, 200, "{body}");
        let (_, rec) = get(c.addr, &format!("/api/games/{id}/record"), None).await;
        played.push(mv);
        assert_eq!(moves_of(&rec), played, "c answers with the move acknowledged on a");
        for cl in clients.iter_mut() {
            cl.until_version(v + 1).await;
        }
    }
    // A refused move from b's seat is refused with the owner's reason.
    let v = clients[1].version;
    clients[1].send(json!({ "type": "move", "move": "zz99", "version": v })).await;
    let e = clients[1].until("error").await;
    assert!(["not_your_turn", "bad_move", "illegal_move"].contains(&e["code"].as_str().unwrap()), "{e}");
    // The players' chat crosses instances; the spectators' too.
    clients[1].send(json!({ "type": "chat", "text": "hello from b" })).await;
    let m = clients[0].until("chat").await;
    assert_eq!(m["text"], "hello from b", "{m}");
    // Presence: a seat connected to b counts as there for a.
    let (_, st) = get(a.addr, &format!("/api/games/{id}"), None).await;
    assert_eq!(st["seats"][1]["online"], true, "{st}");
    // And a seat connected to a counts as there on b and c (the owner says
    // so to every instance).
    for s in [&b, &c] {
        let t = Instant::now();
        loop {
            let (_, st) = get(s.addr, &format!("/api/games/{id}"), None).await;
            if st["seats"][0]["online"] == true && st["seats"][1]["online"] == true {
                break;
            }
            assert!(t.elapsed() < WAIT, "presence on {}: {st}", s.addr);
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: run by the PostgreSQL pass of scripts/test.sh"]
async fn a_stopping_instance_hands_its_games_over() {
    let _ = pg();
    let dir = temp_dir("cluster-handover");
    let a = instance(&dir, lease(5)).await;
    let b = instance(&dir, lease(5)).await;
    let db = sql(&dir).await;
    // Two people, both connected to b; and a person against the computer,
    // connected to b too.
    let (id, t0, _) =
        create(a.addr, json!({ "game": "abalone", "seats": [{ "kind": "human" }, { "kind": "human" }] })).await;
    let (_, t1) = join(a.addr, &id, "Bob").await;
    let (cid, ct, _) = create(
        a.addr,
        json!({ "game": "abalone", "seats": [{ "kind": "human" }, { "kind": "computer", "player": "random" }] }),
    )
    .await;
    let (p0, _) = Client::open(b.addr, &id, t0.as_deref(), None).await;
    let (p1, _) = Client::open(b.addr, &id, Some(&t1), None).await;
    let mut clients = vec![p0, p1];
    let mut played = vec![play_one(&mut clients, &[0, 1]).await];
    let (mut me, _) = Client::open(b.addr, &cid, ct.as_deref(), None).await;
    let mv = me.legal.clone().unwrap()[0].clone();
    me.send(json!({ "type": "move", "move": mv, "version": me.version })).await;
    me.until_version(2).await; // my move, then the computer's
    let a_id = lease_of(&db, &id).await.0;
    a.server.stop().await.unwrap();
    // b takes both over within seconds; its sockets stay open.
    let t = Instant::now();
    for g in [&id, &cid] {
        loop {
            let (owner, _, _) = lease_of(&db, g).await;
            if owner != a_id {
                break;
            }
            assert!(t.elapsed() < WAIT, "game {g} was not taken over");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    for _ in 0..4 {
        played.push(play_one(&mut clients, &[0, 1]).await);
    }
    let (_, rec) = get(b.addr, &format!("/api/games/{id}/record"), None).await;
    assert_eq!(moves_of(&rec), played);
    // The computer seat plays on, on b.
    let mv = me.legal.clone().expect("my turn again").first().cloned().unwrap();
    let v = me.version;
    me.send(json!({ "type": "move", "move": mv, "version": v })).await;
    me.until_version(v + 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: run by the PostgreSQL pass of scripts/test.sh"]
async fn a_stale_owner_writes_nothing_that_is_kept() {
    let _ = pg();
    let dir = temp_dir("cluster-fence");
    // a beats every 10 s: it does not notice for a while that b took its
    // game (as if it had been paused).
    let a = instance(&dir, lease(30)).await;
    let b = instance(&dir, lease(2)).await;
    let db = sql(&dir).await;
    let (id, t0, _) =
        create(a.addr, json!({ "game": "abalone", "seats": [{ "kind": "human" }, { "kind": "human" }] })).await;
    let (_, t1) = join(a.addr, &id, "Bob").await;
    let (p0, _) = Client::open(a.addr, &id, t0.as_deref(), None).await;
    let (p1, _) = Client::open(b.addr, &id, Some(&t1), None).await;
    let mut clients = vec![p0, p1];
    let first = play_one(&mut clients, &[0, 1]).await;
    let (a_id, epoch, _) = lease_of(&db, &id).await;
    // a's heartbeat runs out (as if a were paused past it): b takes the
    // game.
    let t = Instant::now();
    loop {
        sqlx::query("UPDATE instances SET expires_at = 2 WHERE id = $1").bind(&a_id).execute(&db).await.unwrap();
        let (owner, e, _) = lease_of(&db, &id).await;
        if owner != a_id {
            assert!(e > epoch, "a new epoch");
            break;
        }
        assert!(t.elapsed() < WAIT, "b did not take the game over");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // a still believes it owns the game (it renews in 10 s). Seat 1 acts
    // over HTTP through a: a's write carries its old epoch and is refused;
    // nothing of it is kept, and a lets the game go.
    let mover = clients.iter().position(|c| c.legal.as_ref().is_some_and(|l| !l.is_empty())).unwrap();
    assert_eq!(mover, 1, "seat 1 moves second");
    let mv = clients[1].legal.clone().unwrap()[0].clone();
    let v = clients[1].version;
    let (st, body) = post(
        a.addr,
        &format!("/api/games/{id}/action"),
        Some(&t1),
        json!({ "type": "move", "move": mv, "version": v }),
    )
    .await;
    assert_eq!((st, body["code"].as_str()), (503, Some("moved")), "{body}");
    let (_, rec) = get(b.addr, &format!("/api/games/{id}/record"), None).await;
    assert_eq!(moves_of(&rec), vec![first.clone()], "the stale write is not kept");
    // Seat 0's socket on a is closed (a left the game): it reconnects, to a
    // again, which now follows b.
    while let plateau_client::Incoming::Frame(..) = clients[0].incoming(WAIT).await {}
    let (p0, _) = Client::open(a.addr, &id, t0.as_deref(), Some(clients[0].version)).await;
    clients[0] = p0;
    // Played again, through b: accepted, and seen on a.
    clients[1].send(json!({ "type": "move", "move": mv, "version": v })).await;
    for c in clients.iter_mut() {
        c.until_version(v + 1).await;
    }
    let (_, rec) = get(b.addr, &format!("/api/games/{id}/record"), None).await;
    assert_eq!(moves_of(&rec), vec![first, mv]);
    // Every event of the game is one of the new owner's story: versions
    // 1, 2, 3… without a gap or a double.
    let versions: Vec<i64> = sqlx::query_scalar("SELECT version FROM events WHERE game_id = $1 ORDER BY version")
        .bind(&id)
        .fetch_all(&db)
        .await
        .unwrap();
    assert_eq!(versions, (1..=versions.len() as i64).collect::<Vec<_>>());
}

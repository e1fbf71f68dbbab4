//! Computer seats: they answer people, play each other, and many of them at
//! once do not hold people's games up.

mod common;

use std::time::Instant;

use common::*;
use plateau_core::GameInfo;
use plateau_server::Limits;
use serde_json::{Value, json};

const QUICK: &[(&str, &str)] = &[
    ("marbles-to-win", "1"),
    ("max-plies", "30"),
    ("max-moves", "15"),
    ("stones-to-win", "1"),
    ("score-nodes", "20000"),
];

fn quick(info: &GameInfo) -> Value {
    Value::Object(
        QUICK.iter().filter(|(k, _)| info.option(k).is_some()).map(|(k, v)| (k.to_string(), json!(v))).collect(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_the_computer_in_every_game() {
    let s = start().await;
    let registry = plateau_games::registry();
    for g in registry.games() {
        let info = g.info();
        assert!(plateau_games::players(info.name).is_ok(), "{}: every game has computer players", info.name);
        let n = registry.new_match(info.name, &Default::default()).unwrap().seats();
        let mut seats = vec![json!({ "kind": "human" })];
        seats.extend((1..n).map(|_| json!({ "kind": "computer", "player": "ai:1" })));
        // A game with hidden information is dealt by the server: no seed.
        let mut body = json!({ "game": info.name, "options": quick(info), "seats": seats });
        if !info.hidden {
            body["seed"] = json!(4);
        }
        let (id, token, created) = create(s.addr, body).await;
        assert_eq!(created["state"]["status"], "live", "{}: {created}", info.name);
        assert_eq!(created["state"]["seats"][1]["kind"], "computer");
        assert_eq!(created["state"]["seats"][1]["online"], true);
        let (mut me, _) = Client::open(s.addr, &id, token.as_deref(), None).await;
        let mut rng = Rng(17);
        let mut plies = 0;
        while me.status == "live" {
            if let Some(moves) = me.legal.clone() {
                let mv = moves[rng.below(moves.len())].clone();
                let v = me.version;
                me.send(json!({ "type": "move", "move": mv, "version": v })).await;
            }
            me.next().await;
            plies += 1;
            assert!(plies < 20_000, "{}: no end", info.name);
        }
        assert_eq!(me.status, "finished", "{}", info.name);
        let (_, st) = get(s.addr, &format!("/api/games/{id}"), None).await;
        let movers = st["movers"].as_array().unwrap();
        assert!(movers.iter().any(|m| m != 0), "{}: the computer moved: {st}", info.name);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computers_play_each_other_to_the_end() {
    let s = start().await;
    let info = plateau_games::registry().get("abalone").unwrap().info();
    let seat = json!({ "kind": "computer", "player": "greedy" });
    let (id, token, created) =
        create(s.addr, json!({ "game": "abalone", "options": quick(info), "seats": [seat, seat] })).await;
    assert!(token.is_none(), "nobody to give a token to");
    assert!(created["seat"].is_null());
    let (mut watcher, _) = Client::open(s.addr, &id, None, None).await;
    while watcher.status != "finished" {
        watcher.next().await;
    }
    let (_, st) = get(s.addr, &format!("/api/games/{id}"), None).await;
    assert!(st["result"]["result"].is_string(), "{st}");
    assert!(st["history"].as_array().unwrap().len() >= 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn busy_computers_do_not_hold_people_up() {
    // One client (this test) may start more computer games than a stranger on
    // a public server.
    let s =
        start_with(Limits { computer_games_per_client: 10, computer_only_games_per_client: 8, ..Limits::default() })
            .await;
    // More thinking computer games than threads: the pool's queue is never empty.
    let seat = json!({ "kind": "computer", "player": "alphabeta:time=100ms" });
    let mut watchers = Vec::new();
    for _ in 0..8 {
        let (id, _, _) = create(s.addr, json!({ "game": "abalone", "seats": [seat, seat] })).await;
        watchers.push(Client::open(s.addr, &id, None, None).await.0);
    }
    // People play meanwhile.
    let (id, t0, _) = create(s.addr, json!({ "game": "abalone" })).await;
    let (_, t1) = join(s.addr, &id, "B").await;
    let (mut a, _) = Client::open(s.addr, &id, t0.as_deref(), None).await;
    let (mut b, _) = Client::open(s.addr, &id, Some(&t1), None).await;
    let started = Instant::now();
    for i in 0..20 {
        let (mover, other) = if i % 2 == 0 { (&mut a, &mut b) } else { (&mut b, &mut a) };
        let mv = mover.legal.clone().expect("to move")[0].clone();
        let v = mover.version;
        mover.send(json!({ "type": "move", "move": mv, "version": v })).await;
        other.until_version(v + 1).await;
        mover.until_version(v + 1).await;
    }
    // Reported, not asserted (tests do not time the machine).
    eprintln!("20 moves between people beside 8 busy computer games: {:?}", started.elapsed());
    let (_, stats) = get(s.addr, "/api/stats", None).await;
    eprintln!("stats: {stats}");
    // The computer games moved too.
    for w in &mut watchers {
        let v = w.until("update").await;
        assert_eq!(v["events"][0]["kind"], "move");
    }
}

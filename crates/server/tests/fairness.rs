//! The computer players are shared fairly: one client's flood of long
//! searches does not make another client's beginner computer wait. (Alone in
//! its test binary: nothing else competes for the processor.)

mod common;

use std::net::IpAddr;

use common::*;
use plateau_client as client;
use plateau_server::Limits;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_deep_searches_does_not_hold_up_a_beginner() {
    // One thread for searches (and the one for quick players).
    let s = start_threads(temp_dir("fair"), Limits::default(), 1).await;
    let flood: IpAddr = "127.0.0.3".parse().unwrap();
    let victim: IpAddr = "127.0.0.4".parse().unwrap();
    // The attacker fills its share: games between computers and games where
    // the computer moves first, every search as long as a client may ask.
    let deep = json!({ "kind": "computer", "player": "alphabeta:time=10s" });
    let mut flood_games = Vec::new();
    for seats in [json!([deep, deep]), json!([deep, deep]), json!([deep, { "kind": "human" }])] {
        loop {
            let body = json!({ "game": "abalone", "seats": seats });
            let r = client::post_from(Some(flood), s.addr, "/api/games", None, &body).await.unwrap();
            if r.status != 201 {
                assert_eq!(r.json()["code"], "too_many_computer_games", "{}", r.body);
                break;
            }
            flood_games.push(r.json()["id"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(flood_games.len(), Limits::default().computer_games_per_client);
    // Six ten-second searches wait for one thread: in one queue, first come
    // first served, the victim's computer would answer after a minute.
    let body = json!({ "game": "abalone", "seats": [{ "kind": "human" }, { "kind": "computer", "player": "ai:1" }] });
    let r = client::post_from(Some(victim), s.addr, "/api/games", None, &body).await.unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    let v = r.json();
    let id = v["id"].as_str().unwrap();
    let (mut me, _) = Client::open(s.addr, id, v["token"].as_str(), None).await;
    let mv = me.legal.clone().expect("my move")[0].clone();
    me.send(json!({ "type": "move", "move": mv, "version": me.version })).await;
    // The computer's answer (version 2) comes before the flood's searches
    // end: no flood game has moved yet (each search takes ten seconds).
    let u = me.until_version(2).await;
    assert_eq!(u["events"][0]["seat"], 1, "{u}");
    let mut flood_moves = 0;
    for g in &flood_games {
        let (_, st) = get(s.addr, &format!("/api/games/{g}"), None).await;
        flood_moves += st["ply"].as_u64().unwrap();
    }
    assert!(flood_moves <= 1, "the beginner waited behind {flood_moves} of the flood's searches");
}

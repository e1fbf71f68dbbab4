//! Lessons over HTTP: the list (no answers in it), a right move, a legal
//! move that misses the goal, an illegal move, and bad requests.

mod common;

use common::*;
use serde_json::json;

#[tokio::test]
async fn the_lessons_are_listed_with_their_setups_and_no_answers() {
    let s = start().await;
    let (status, v) = get(s.addr, "/api/learn", None).await;
    assert_eq!(status, 200, "{v}");
    let games: Vec<&str> = v.as_array().unwrap().iter().map(|g| g["game"].as_str().unwrap()).collect();
    assert_eq!(games, ["abalone", "colorito", "kabaleo", "abraxas"]);
    for g in v.as_array().unwrap() {
        for l in g["lessons"].as_array().unwrap() {
            assert!(l["title"]["en"].is_string() && l["title"]["fr"].is_string(), "{l}");
            for step in l["steps"].as_array().unwrap() {
                assert!(step["goal"]["en"].is_string() && step["goal"]["fr"].is_string(), "{step}");
                assert!(step.get("accept").is_none(), "no answers sent: {step}");
                // Each set-up is a record that POST /api/position rebuilds,
                // with the learner to move.
                let (status, p) = post(s.addr, "/api/position", None, json!({ "record": step["record"] })).await;
                assert_eq!(status, 200, "{p}");
                assert_eq!(p["to_move"], step["seat"], "{step}");
            }
        }
    }
    // Kabaleo's steps are dealt as the learner knows them: a Deal tag, never
    // a seed, and the opponent's objective unknown.
    let kabaleo = v.as_array().unwrap().iter().find(|g| g["game"] == "kabaleo").unwrap();
    let record = kabaleo["lessons"][0]["steps"][0]["record"].as_str().unwrap();
    assert!(record.contains("[Deal ") && !record.contains("[Seed ") && record.contains("objectives R ?"), "{record}");
}

#[tokio::test]
async fn moves_are_judged_by_the_rules_and_the_goal() {
    let s = start().await;
    // Abalone, push out: the standard position of the lesson (Black E7 E8
    // against White E9 on the edge): e7e8 pushes it off.
    let path = "/api/learn/abalone/pushing/1";
    let (status, v) = post(s.addr, path, None, json!({ "move": "E7E8" })).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["right"], true, "{v}");
    assert_eq!(v["move"], "e7e8");
    assert!(v["message"]["en"].as_str().unwrap().contains("Out"), "{v}");
    assert_eq!(v["position"]["view"]["captured"]["black"], 1, "one white marble pushed out by Black");
    // c3c4 pushes a marble, but not off the board: legal, misses the goal.
    let (status, v) = post(s.addr, path, None, json!({ "move": "c3c4" })).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!((v["right"].as_bool(), v["reason"].as_str()), (Some(false), Some("goal")), "{v}");
    assert!(v["message"]["fr"].as_str().unwrap().contains("aucune bille"), "{v}");
    assert!(v.get("position").is_none());
    // An illegal move: the rules' message, in both fields.
    let (status, v) = post(s.addr, path, None, json!({ "move": "e8e9" })).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!((v["right"].as_bool(), v["reason"].as_str()), (Some(false), Some("illegal")), "{v}");
    assert_eq!(v["message"]["en"], v["message"]["fr"]);
    assert!(!v["message"]["en"].as_str().unwrap().is_empty());
    // Kabaleo: cancelling the orange piece on location 1 shows red again.
    let (_, v) = post(s.addr, "/api/learn/kabaleo/colours/1", None, json!({ "move": "O1" })).await;
    assert_eq!(v["right"], true, "{v}");
    let (_, v) = post(s.addr, "/api/learn/kabaleo/colours/1", None, json!({ "move": "Y2" })).await;
    assert_eq!(v["reason"], "goal", "{v}");
}

#[tokio::test]
async fn bad_requests_are_refused() {
    let s = start().await;
    let cases = [
        ("/api/learn/chess/x/0", json!({ "move": "e4" }), 404),
        ("/api/learn/abalone/no-such/0", json!({ "move": "a1b2" }), 404),
        ("/api/learn/abalone/moving/9", json!({ "move": "a1b2" }), 404),
        ("/api/learn/abalone/moving/0", json!({ "move": "a".repeat(201) }), 400),
        ("/api/learn/abalone/moving/0", json!({ "mv": "a1b2" }), 400),
        ("/api/learn/abalone/moving/0", json!({ "move": "a1b2", "x": 1 }), 400),
    ];
    for (path, body, want) in cases {
        let (status, v) = post(s.addr, path, None, body).await;
        assert_eq!(status, want, "{path}: {v}");
    }
}

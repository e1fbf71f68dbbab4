//! `POST /api/position`: any position from a set-up and moves or from a
//! record, with its view and its legal moves and gestures.

mod common;

use common::*;
use serde_json::json;

#[tokio::test]
async fn a_position_from_moves_has_its_view_and_legal_gestures() {
    let s = start().await;
    // Abalone's standard start: 44 legal moves (the published perft(1)).
    let (status, v) = post(s.addr, "/api/position", None, json!({ "game": "abalone" })).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["ply"], 0);
    assert_eq!(v["to_move"], 0);
    assert_eq!(v["legal"].as_array().unwrap().len(), 44);
    assert_eq!(v["seats"], json!(["Black", "White"]));
    let first = &v["legal"][0];
    assert!(first["move"].is_string() && first["select"].is_array() && first["targets"].is_array(), "{first}");
    // After Black's a3b4 (Aba-Pro notation), White moves; the last move is
    // named and the moves are listed.
    let (status, v) = post(s.addr, "/api/position", None, json!({ "game": "abalone", "moves": ["a3b4"] })).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!((v["ply"].as_u64(), v["to_move"].as_u64()), (Some(1), Some(1)));
    assert_eq!(v["last_move"], "a3b4");
    assert_eq!(v["moves"], json!(["a3b4"]));
    assert_eq!(v["legal"].as_array().unwrap().len(), 44, "White's replies mirror Black's first moves");
}

#[tokio::test]
async fn a_position_from_a_record_is_the_same_as_from_moves() {
    let s = start().await;
    let record = "[Game \"abalone\"]\n[Variant \"belgian-daisy\"]\n\n1. a1b2 i5h5 *\n";
    let (status, a) = post(s.addr, "/api/position", None, json!({ "record": record })).await;
    assert_eq!(status, 200, "{a}");
    let body = json!({ "game": "abalone", "variant": "belgian-daisy", "moves": ["a1b2", "i5h5"] });
    let (_, b) = post(s.addr, "/api/position", None, body).await;
    assert_eq!(a["view"], b["view"]);
    assert_eq!(a["legal"], b["legal"]);
    assert_eq!(a["variant"], "belgian-daisy");
}

#[tokio::test]
async fn bad_positions_are_refused_with_the_reason() {
    let s = start().await;
    let cases = [
        (json!({ "game": "abalone", "moves": ["i5h5"] }), "illegal_move"),
        (json!({ "game": "chess" }), "bad_setup"),
        (json!({ "game": "abalone", "variant": "no-such" }), "bad_setup"),
        (json!({}), "bad_position"),
        (json!({ "record": "[Game \"abalone\"]\n\n1. a1a1 *\n" }), "illegal_move"),
        (json!({ "record": "not a record [[[" }), "bad_record"),
        (json!({ "record": "[Game \"abalone\"]\n\n*\n", "moves": ["a3b4"] }), "bad_position"),
        (json!({ "game": "abalone", "moves": vec!["a3b4"; 2_001] }), "too_many_moves"),
        // A work budget above what the server allows a client (Colorito's
        // score search).
        (json!({ "game": "colorito", "options": { "score-nodes": "999999999999" } }), "bad_setup"),
        (json!({ "game": "abalone", "unknown": 1 }), "bad_json"),
    ];
    for (body, code) in cases {
        let (status, v) = post(s.addr, "/api/position", None, body.clone()).await;
        assert_eq!(status, 400, "{body}: {v}");
        assert_eq!(v["code"], code, "{body}: {v}");
        assert!(!v["message"].as_str().unwrap_or_default().is_empty(), "{body}: {v}");
    }
    // A body beyond the server's limit is refused before it is read.
    let (status, v) = post(s.addr, "/api/position", None, json!({ "record": "x".repeat(300_000) })).await;
    assert_eq!((status, v["code"].as_str()), (413, Some("too_large")));
    // The illegal move's message names it and says why (the rules' words).
    let (_, v) = post(s.addr, "/api/position", None, json!({ "game": "abalone", "moves": ["a3b4", "a3b4"] })).await;
    let message = v["message"].as_str().unwrap();
    assert!(message.starts_with("move 2 (a3b4): "), "{message}");
}

#[tokio::test]
async fn a_seat_record_of_a_hidden_game_shows_that_seat_only() {
    let s = start().await;
    // A Kabaleo game's record as seat 0 has it while the game goes on: a
    // Deal tag naming seat 0's objective only. The view is seat 0's: its
    // objective, never the other's.
    let setup = plateau_core::Setup { variant: Some("standard".into()), options: Default::default(), seed: 42 };
    let mut m = plateau_games::registry().new_match("kabaleo", &setup).unwrap();
    let first = m.legal_moves()[0].clone();
    m.play(&first).unwrap();
    let truth = m.view(plateau_core::Reader::Referee)["objectives"].clone();
    let record = m.record(plateau_core::Reader::Seat(0)).to_text();
    assert!(record.contains("[Deal") && !record.contains("[Seed"), "{record}");
    let (status, v) = post(s.addr, "/api/position", None, json!({ "record": record })).await;
    assert_eq!(status, 200, "{v}");
    let objectives = &v["view"]["objectives"];
    assert_eq!(objectives[0], truth[0], "{v}");
    assert!(objectives[1].is_null(), "{v}");
    assert_eq!(v["ply"], 1);
}

//! Puzzles: the built-in sets, a client's next puzzle (never with its
//! solution), moves judged right and wrong, the first attempt rated and the
//! later ones practice, hints.

mod common;

use common::*;
use plateau_analysis::Puzzle;
use serde_json::{Value, json};

/// A built-in Abalone puzzle whose line has at least `moves` moves.
fn puzzle_with(moves: usize) -> Puzzle {
    plateau_analysis::builtin("abalone")
        .into_iter()
        .find(|p| p.solution.len() >= moves)
        .unwrap_or_else(|| panic!("no built-in Abalone puzzle of {moves} moves"))
}

async fn send(addr: std::net::SocketAddr, from: &str, path: &str, body: Value) -> Answer {
    request(addr, from, "POST", path, &[], Some(&body)).await
}

async fn play(addr: std::net::SocketAddr, from: &str, p: &Puzzle, so_far: &[String], mv: &str) -> Answer {
    send(addr, from, &format!("/api/puzzles/id/{}/move", p.id), json!({ "moves": so_far, "move": mv })).await
}

/// Play the whole line; the answer to the last move.
async fn solve(addr: std::net::SocketAddr, from: &str, p: &Puzzle) -> Answer {
    let mut last = None;
    for k in (0..p.solution.len()).step_by(2) {
        let a = play(addr, from, p, &p.solution[..k], &p.solution[k]).await;
        assert_eq!((a.status, &a.body["right"]), (200, &json!(true)), "{}", a.raw);
        assert_eq!(a.body["reply"], json!(p.solution.get(k + 1)));
        last = Some(a);
    }
    let a = last.unwrap();
    assert_eq!(a.body["solved"], true, "{}", a.raw);
    a
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sets_and_the_next_puzzle_without_its_solution() {
    let s = start().await;
    let (st, v) = get(s.addr, "/api/puzzles", None).await;
    assert_eq!(st, 200, "{v}");
    let abalone = plateau_analysis::builtin("abalone");
    assert!(!abalone.is_empty());
    let listed = v.as_array().unwrap();
    assert!(listed.contains(&json!({ "game": "abalone", "count": abalone.len() })), "{v}");
    let next = request(s.addr, "127.0.0.2", "GET", "/api/puzzles/abalone/next", &[], None).await;
    assert_eq!(next.status, 200, "{}", next.raw);
    let id = next.str("id");
    let p = abalone.iter().find(|p| p.id == id).expect("a built-in puzzle");
    for k in ["id", "game", "variant", "record", "seat", "theme", "rating", "attempts", "solves", "length"] {
        assert!(next.body.get(k).is_some(), "{k} missing from {}", next.raw);
    }
    assert!(next.body.get("solution").is_none(), "{}", next.raw);
    assert_eq!(next.body["length"], p.solution.len().div_ceil(2));
    assert_eq!(next.body["record"], p.record);
    assert_eq!((next.body["attempts"].as_u64(), next.body["rating"].as_f64()), (Some(0), Some(1500.0)));
    let (st, one) = get(s.addr, &format!("/api/puzzles/id/{id}"), None).await;
    assert_eq!(st, 200);
    assert!(one.get("solution").is_none());
    assert_eq!(one["id"], id);
    let (st, _) = get(s.addr, "/api/puzzles/id/abalone-nosuch", None).await;
    assert_eq!(st, 404);
    let (st, _) = get(s.addr, "/api/puzzles/colorito/next", None).await;
    assert_eq!(st, 404);
    // Once solved, the next puzzle is another one.
    solve(s.addr, "127.0.0.2", p).await;
    let after = request(s.addr, "127.0.0.2", "GET", "/api/puzzles/abalone/next", &[], None).await;
    if abalone.len() > 1 {
        assert_ne!(after.str("id"), id);
        assert_eq!(after.body["tried"], false);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn right_and_wrong_moves_and_the_first_attempt_rated() {
    let s = start().await;
    let p = puzzle_with(3);
    // Solved at the first attempt: a win against the puzzle.
    let a = solve(s.addr, "127.0.0.2", &p).await;
    assert_eq!(a.body["rated"], true, "{}", a.raw);
    let mine = a.body["your_rating"]["rating"].as_f64().unwrap();
    let theirs = a.body["puzzle_rating"].as_f64().unwrap();
    // Two new players (1500, RD 350), one game: ±162 by Glicko-2 (see
    // docs/ratings.md); the sum stays 3000 as both start alike.
    assert!((mine - 1662.0).abs() <= 2.0, "{}", a.raw);
    assert!((mine + theirs - 3000.0).abs() <= 1.0, "{}", a.raw);
    // Again: practice, not rated.
    let again = solve(s.addr, "127.0.0.2", &p).await;
    assert_eq!(again.body["rated"], false, "{}", again.raw);
    // Another client's wrong first move: the line's move is told, and it is
    // a loss against the puzzle.
    let m = plateau_analysis::position(&p).unwrap();
    let wrong = m.legal_moves().into_iter().find(|mv| *mv != p.solution[0]).expect("another legal move");
    let w = play(s.addr, "127.0.0.3", &p, &[], &wrong).await;
    assert_eq!(w.status, 200, "{}", w.raw);
    assert_eq!((&w.body["right"], &w.body["expected"]), (&json!(false), &json!(p.solution[0])));
    assert_eq!(w.body["rated"], true);
    assert!(w.body["your_rating"]["rating"].as_f64().unwrap() < 1500.0, "{}", w.raw);
    // The puzzle's record: two first attempts, one solved.
    let (_, one) = get(s.addr, &format!("/api/puzzles/id/{}", p.id), None).await;
    assert_eq!((one["attempts"].as_u64(), one["solves"].as_u64()), (Some(2), Some(1)), "{one}");
    // Solving it after the failure is practice.
    let later = solve(s.addr, "127.0.0.3", &p).await;
    assert_eq!(later.body["rated"], false);
    // Bad input: an illegal move, moves that are not the line's, too many.
    let bad = play(s.addr, "127.0.0.4", &p, &[], "zz99").await;
    assert_eq!((bad.status, bad.code()), (400, Some("illegal_move")), "{}", bad.raw);
    let off = play(s.addr, "127.0.0.4", &p, &[wrong.clone(), p.solution[1].clone()], &p.solution[2]).await;
    assert_eq!(off.status, 400, "{}", off.raw);
    let long: Vec<String> = vec![p.solution[0].clone(); p.solution.len()];
    let too_many = play(s.addr, "127.0.0.4", &p, &long, &p.solution[0]).await;
    assert_eq!((too_many.status, too_many.code()), (400, Some("bad_moves")), "{}", too_many.raw);
    // None of these counted.
    let (_, one) = get(s.addr, &format!("/api/puzzles/id/{}", p.id), None).await;
    assert_eq!(one["attempts"].as_u64(), Some(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_shows_the_next_move_and_counts_as_failed() {
    let s = start().await;
    let p = puzzle_with(1);
    let h = send(s.addr, "127.0.0.2", &format!("/api/puzzles/id/{}/hint", p.id), json!({ "moves": [] })).await;
    assert_eq!(h.status, 200, "{}", h.raw);
    // The gesture of the line's first move, from the rules.
    let m = plateau_analysis::position(&p).unwrap();
    let (_, g) = m.legal_gestures().into_iter().find(|(mv, _)| *mv == p.solution[0]).unwrap();
    assert_eq!((&h.body["select"], &h.body["targets"]), (&json!(g.select), &json!(g.targets)));
    assert_eq!(h.body["rated"], true);
    assert!(h.body["your_rating"]["rating"].as_f64().unwrap() < 1500.0, "{}", h.raw);
    // Solved after the hint: practice.
    let a = solve(s.addr, "127.0.0.2", &p).await;
    assert_eq!(a.body["rated"], false, "{}", a.raw);
    // A hint after moves that are not the line's is refused.
    let bad = send(s.addr, "127.0.0.3", &format!("/api/puzzles/id/{}/hint", p.id), json!({ "moves": ["x"] })).await;
    assert_eq!(bad.status, 400, "{}", bad.raw);
}

//! Puzzles: the built-in sets replay and verify, `check` judges the solver's
//! moves, ids are stable and unique, generation is deterministic for a seed.

use std::collections::HashSet;

use plateau_analysis::*;
use plateau_core::{AnyMatch, Options, Reader, Setup, Turn};

const GAMES: [&str; 2] = ["abalone", "abraxas"];

/// The naive count of what a first move wins, read from the view's own lists
/// (not the counters the generator uses): for Abalone, the opponent's marbles
/// on the board before the move less after it; for Abraxas, the stones the
/// solver took, or, when the move makes lines still to score by the solver,
/// one (the removals follow in the same turn).
fn naive_gain(game: &str, before: &dyn AnyMatch, after: &dyn AnyMatch, seat: usize) -> i64 {
    let (b, a) = (before.view(Reader::Referee), after.view(Reader::Referee));
    if game == "abalone" {
        let them = if seat == 0 { "white" } else { "black" };
        let count = |v: &serde_json::Value| v[them].as_array().map_or(0, |x| x.len() as i64);
        count(&b) - count(&a)
    } else {
        let taken = |v: &serde_json::Value| v["taken"][seat].as_i64().unwrap_or(0);
        let pending =
            a["lines_to_score"].as_array().is_some_and(|l| !l.is_empty()) && a["scorer"].as_u64() == Some(seat as u64);
        (taken(&a) - taken(&b)).max(i64::from(pending))
    }
}

fn won(m: &dyn AnyMatch, seat: usize) -> bool {
    m.outcome().is_some_and(|o| o.is_winner(seat) && !o.is_draw())
}

#[test]
fn the_builtin_sets_have_stable_unique_ids() {
    let mut ids = HashSet::new();
    for game in GAMES {
        let set = builtin(game);
        assert!(set.len() >= 30, "{game}: {} puzzles", set.len());
        assert_eq!(builtin(&game.to_uppercase()), set);
        for p in &set {
            assert_eq!(p.game, game);
            assert_eq!(p.id, puzzle_id(game, &p.record, &p.solution), "{}", p.id);
            let hex = p.id.strip_prefix(&format!("{game}-")).expect("game prefix");
            assert!(hex.len() == 8 && hex.chars().all(|c| c.is_ascii_hexdigit()), "{}", p.id);
            assert!(ids.insert(p.id.clone()), "duplicate id {}", p.id);
            assert!(!p.solution.len().is_multiple_of(2), "{}", p.id);
            assert!(["win", "push-out", "capture"].contains(&p.theme.as_str()), "{}", p.theme);
            assert_eq!(p.length(), p.solution.len().div_ceil(2));
        }
    }
    assert!(builtin("colorito").is_empty());
    assert!(builtin("").is_empty());
}

#[test]
fn ids_are_the_fnv_hash_of_record_and_solution() {
    // FNV-1a 64 of "x\na b", worked out independently (Python):
    // 0xa22f4c586641472c; the id keeps the first 8 hex digits.
    assert_eq!(puzzle_id("abalone", "x", &["a".to_string(), "b".to_string()]), "abalone-a22f4c58");
    assert_eq!(puzzle_id("Abraxas", "x", &["a".to_string(), "b".to_string()]), "abraxas-a22f4c58");
    assert_ne!(puzzle_id("abalone", "x", &["a".to_string()]), puzzle_id("abalone", "y", &["a".to_string()]));
}

#[test]
fn every_builtin_line_replays_legally_and_its_solver_moves_win() {
    for game in GAMES {
        for p in builtin(game) {
            let start = position(&p).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            assert_eq!(start.to_move(), Turn::Seat(p.seat), "{}", p.id);
            assert!(start.legal_moves().len() > 1, "{}: a forced move is no puzzle", p.id);
            let mut m = start.clone_box();
            for (i, mv) in p.solution.iter().enumerate() {
                let mover = if i % 2 == 0 { p.seat } else { 1 - p.seat };
                assert_eq!(m.to_move(), Turn::Seat(mover), "{} move {}", p.id, i + 1);
                assert_eq!(m.play(mv).as_deref(), Ok(mv.as_str()), "{} move {}", p.id, i + 1);
            }
            // Every solver move wins material at once (naively counted) or
            // the game.
            let mut walk = start.clone_box();
            for (i, mv) in p.solution.iter().enumerate() {
                let before = walk.clone_box();
                walk.play(mv).unwrap();
                if i % 2 == 0 {
                    let gain = naive_gain(game, before.as_ref(), walk.as_ref(), p.seat);
                    assert!(gain > 0 || won(walk.as_ref(), p.seat), "{} move {}: wins nothing", p.id, i + 1);
                }
            }
            if won(m.as_ref(), p.seat) {
                assert_eq!(p.theme, "win", "{}", p.id);
            }
        }
    }
}

#[test]
fn builtin_puzzles_verify_by_search() {
    // Every fourth puzzle of each set, verified again with the settings they
    // were made with (deterministic: depth and node budgets); `plateau
    // puzzles --verify` checks whole sets (see docs/puzzles.md).
    for game in GAMES {
        let settings = PuzzleSettings::for_game(game);
        for p in builtin(game).into_iter().step_by(4) {
            verify(&p, &settings).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

#[test]
fn verify_refuses_a_tampered_puzzle() {
    let settings = PuzzleSettings::for_game("abalone");
    let p = builtin("abalone").into_iter().next().expect("a puzzle");
    let mut other = p.clone();
    other.id = "abalone-00000000".into();
    assert!(verify(&other, &settings).unwrap_err().0.contains("id"));
    // Another first move (with its id made to match): not the search's unique move.
    let start = position(&p).unwrap();
    let wrong = start.legal_moves().into_iter().find(|m| *m != p.solution[0]).unwrap();
    let mut other = p.clone();
    other.solution = vec![wrong];
    other.id = puzzle_id("abalone", &other.record, &other.solution);
    assert!(verify(&other, &settings).is_err());
    // A line of even length.
    let mut other = p.clone();
    other.solution.push(start.legal_moves()[0].clone());
    other.id = puzzle_id("abalone", &other.record, &other.solution);
    assert!(verify(&other, &settings).is_err());
}

fn longest(game: &str) -> Puzzle {
    builtin(game).into_iter().max_by_key(|p| p.solution.len()).expect("a puzzle")
}

#[test]
fn check_walks_the_line() {
    for game in GAMES {
        let p = longest(game);
        let n = p.solution.len();
        for k in (0..n).step_by(2) {
            let v = check(&p, &p.solution[..k], &p.solution[k]).unwrap();
            let solved = k + 1 == n;
            assert_eq!(v, Verdict::Right { reply: p.solution.get(k + 1).cloned(), solved }, "{} step {k}", p.id);
        }
        // After the end, or with the opponent to move: errors.
        assert!(check(&p, &p.solution, &p.solution[0]).is_err());
        if n >= 3 {
            assert!(check(&p, &p.solution[..1], &p.solution[2]).is_err());
            // Moves so far that are not the line's.
            let mut m = position(&p).unwrap();
            m.play(&p.solution[0]).unwrap();
            let other_reply = m.legal_moves().into_iter().find(|r| *r != p.solution[1]).unwrap();
            let so_far = vec![p.solution[0].clone(), other_reply];
            assert!(check(&p, &so_far, &p.solution[2]).is_err());
        }
    }
}

#[test]
fn check_says_wrong_with_the_expected_move() {
    for game in GAMES {
        for p in builtin(game).into_iter().take(10) {
            let start = position(&p).unwrap();
            let wrong = start
                .legal_moves()
                .into_iter()
                .find(|mv| {
                    let mut c = start.clone_box();
                    c.play(mv).unwrap();
                    *mv != p.solution[0] && !won(c.as_ref(), p.seat)
                })
                .expect("a wrong move");
            assert_eq!(check(&p, &[], &wrong).unwrap(), Verdict::Wrong { expected: p.solution[0].clone() }, "{}", p.id);
        }
    }
}

#[test]
fn check_refuses_garbage_without_panicking() {
    let p = builtin("abalone").into_iter().next().unwrap();
    for bad in ["", "zz", "a1a1", "x:zz", "é€", "pass pass", &"a".repeat(10_000)] {
        assert!(check(&p, &[], bad).is_err(), "{bad:?}");
    }
    assert!(check(&p, &["garbage".to_string(), "more".to_string()], &p.solution[0]).is_err());
    let mut broken = p.clone();
    broken.record = "[Game \"abalone\"]\n\n1. zz9 *\n".into();
    assert!(check(&broken, &[], &p.solution[0]).is_err());
    broken.record = "[Game \"nonesuch\"]\n\n*\n".into();
    assert!(check(&broken, &[], &p.solution[0]).is_err());
    broken.game = "nonesuch".into();
    assert!(verify(&broken, &PuzzleSettings::for_game("abalone")).is_err());
    let mut seat = p.clone();
    seat.seat = 1 - p.seat;
    assert!(check(&seat, &[], &p.solution[0]).is_err());
}

/// An Abalone position, Black to move with 5 marbles pushed out: white
/// marbles on i5 and i9, each in line behind two black ones (g5 h5, g9 h9),
/// so that two different pushes each push out the sixth marble.
fn two_winning_pushes() -> Box<dyn AnyMatch> {
    let mut options = Options::new();
    options.set("position", "w3w/1b3b/2b3b/8/9/8/7/6/5 b 5 0");
    let setup = Setup { variant: None, options, seed: 0 };
    plateau_games::registry().new_match("abalone", &setup).unwrap()
}

#[test]
fn at_the_last_step_another_move_that_wins_the_game_is_right() {
    let m = two_winning_pushes();
    let winners: Vec<String> = m
        .legal_moves()
        .into_iter()
        .filter(|mv| {
            let mut c = m.clone_box();
            c.play(mv).unwrap();
            won(c.as_ref(), 0)
        })
        .collect();
    assert!(winners.len() >= 2, "{winners:?}");
    let record = m.record(Reader::Referee).to_text();
    let solution = vec![winners[0].clone()];
    let p = Puzzle {
        id: puzzle_id("abalone", &record, &solution),
        game: "abalone".into(),
        variant: m.variant().into(),
        record,
        seat: 0,
        solution,
        theme: "win".into(),
    };
    let done = Verdict::Right { reply: None, solved: true };
    assert_eq!(check(&p, &[], &winners[0]).unwrap(), done);
    assert_eq!(check(&p, &[], &winners[1]).unwrap(), done);
    let quiet = m.legal_moves().into_iter().find(|mv| !winners.contains(mv)).unwrap();
    assert_eq!(check(&p, &[], &quiet).unwrap(), Verdict::Wrong { expected: winners[0].clone() });
    // Two winning moves: not unique, so not a puzzle.
    assert!(verify(&p, &PuzzleSettings::for_game("abalone")).is_err());
}

fn tiny(game: &str) -> PuzzleSettings {
    let mut s = PuzzleSettings::for_game(game);
    s.depth = 2;
    s.nodes = Some(20_000);
    s.max_games = 3;
    s
}

#[test]
fn a_tiny_generation_is_deterministic_and_its_puzzles_verify() {
    for game in GAMES {
        let s = tiny(game);
        let mut calls = 0;
        let (a, sa) = generate(game, 2, 11, &s, &mut |_| calls += 1).unwrap();
        let (b, sb) = generate(game, 2, 11, &s, &mut |_| {}).unwrap();
        assert_eq!(a, b);
        assert_eq!(sa, sb);
        assert!(calls >= sa.games);
        assert!(sa.games <= 3 && a.len() <= 2 && sa.kept == a.len());
        assert!(sa.positions >= sa.candidates && sa.candidates >= sa.unique && sa.unique >= sa.kept);
        let rejected: usize = sa.rejected.values().sum();
        assert_eq!(rejected + sa.kept, sa.candidates, "{sa:?}");
        for p in &a {
            verify(p, &s).unwrap();
        }
    }
}

#[test]
fn generation_budgets_are_capped() {
    let s = tiny("abalone");
    let mut none = |_: &PuzzleStats| {};
    assert!(generate("abalone", caps::WANTED + 1, 1, &s, &mut none).is_err());
    assert!(generate("colorito", 1, 1, &s, &mut none).unwrap_err().0.contains("no puzzles"));
    for change in [
        (|s: &mut PuzzleSettings| s.depth = caps::DEPTH + 1) as fn(&mut PuzzleSettings),
        |s| s.depth = 1,
        |s| s.nodes = Some(caps::NODES + 1),
        |s| s.players = Vec::new(),
        |s| s.players = vec!["chess".into()],
        |s| s.margin = 0,
        |s| s.max_games = caps::GAMES + 1,
        |s| s.opening_min = s.opening_max + 1,
        |s| s.max_solver_moves = caps::SOLVER_MOVES + 1,
        |s| s.time_ms = Some(caps::TIME_MS + 1),
    ] {
        let mut bad = s.clone();
        change(&mut bad);
        assert!(generate("abalone", 1, 1, &bad, &mut none).is_err(), "{bad:?}");
        assert!(bad.check().is_err());
    }
}

#[test]
fn the_games_with_puzzles_are_those_whose_crates_say_where_material_is_counted() {
    // Abalone (marbles pushed out) and Abraxas (stones taken) say it;
    // Colorito and Kabaleo win no material.
    assert_eq!(games(), ["abalone", "abraxas"]);
    for game in ["colorito", "kabaleo", "chess"] {
        assert!(builtin(game).is_empty(), "{game}");
        let err = generate(game, 1, 1, &PuzzleSettings::for_game(game), &mut |_| {}).unwrap_err();
        assert!(err.0.contains("puzzles are made for abalone and abraxas"), "{game}: {}", err.0);
    }
}

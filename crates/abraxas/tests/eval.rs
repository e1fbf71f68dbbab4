//! The evaluation: each term of the strategy on hand-built positions (`v1`,
//! today's weights; the new terms of `v2`), the versions, the symmetry, and
//! the noisy moves of quiescence search.

use plateau_abraxas::eval::{N_TERMS, STONE, TERMS, Weights, v1_weights, weighted};
use plateau_abraxas::{Abraxas, AbraxasState, Cell, Move, Phase, Sheet};
use plateau_core::{Evaluate, Game, State, Turn};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const W: Weights = Weights::DEFAULT;

/// A position: headers, then the rows of ranks 9 down to 1 given from the
/// highest rank that is not empty.
fn pos(headers: &str, rows: &[&str]) -> AbraxasState {
    let mut t = headers.to_string();
    for _ in rows.len()..9 {
        t.push_str(".........\n");
    }
    for r in rows {
        t.push_str(r);
        t.push('\n');
    }
    Abraxas::new(Sheet::level(1).unwrap()).position(&t).unwrap_or_else(|e| panic!("{e}\n{t}"))
}

fn play(s: &mut AbraxasState, text: &str) {
    let mv = s.parse_move(text).unwrap();
    s.try_apply(mv).unwrap();
}

fn c(name: &str) -> Cell {
    Cell::parse(name).unwrap()
}

#[test]
fn an_empty_board_is_even() {
    let s = pos("", &[]);
    assert_eq!(s.evaluate_version(0, 0), 0);
    assert_eq!(s.evaluate_version(1, 0), 0);
}

#[test]
fn stones_held_count_more_near_the_goal() {
    let v = |a: u8, b: u8| pos(&format!("taken: {a} {b}\n"), &[]).evaluate_version(0, 0);
    assert!(v(1, 0) >= STONE);
    assert!(v(5, 4) > v(1, 0));
    assert!(v(10, 9) > v(5, 4), "a lead near the goal counts more");
    assert_eq!(v(3, 7), -v(7, 3));
}

#[test]
fn stop_stones_are_a_resource_and_the_last_counts_most() {
    let v = |a: u8, b: u8| pos(&format!("stops: {a} {b}\n"), &[]).evaluate_version(0, 0);
    assert!(v(3, 2) > 0);
    assert!(v(1, 0) > v(3, 2), "the last stop stone is worth more than a spare one");
    assert_eq!(v(1, 0), W.stop + W.last_stop);
}

#[test]
fn a_line_in_reach_of_the_player_to_place() {
    // a1 b1 c1: a stone on d1 makes a row that the push carries to b1–e1.
    let s = pos("", &["rrr......"]);
    assert_eq!(s.line_threats().iter().collect::<Vec<_>>(), [c("d1")]);
    // One hole, the opponent has stop stones: a capture, chain breakable.
    assert_eq!(s.evaluate_version(0, 0), W.capture);
    // Without stop stones the opponent cannot break the chain.
    let s = pos("stops: 3 0\n", &["rrr......"]);
    assert_eq!(s.evaluate_version(0, 0), W.capture + W.unstoppable + W.stop * 3 + W.last_stop);
    // Two holes in reach: one stop stone cannot block both.
    let s = pos("", &["rrr......", ".........", "rrr......"]);
    assert!(s.line_threats().len() >= 2);
    assert_eq!(s.evaluate_version(0, 0), W.capture + W.double);
    // The same for the second player to place, seen by both seats.
    let s = pos("to-move: 2\n", &["rrr......"]);
    assert_eq!(s.evaluate_version(1, 0), W.capture);
    assert_eq!(s.evaluate_version(0, 0), -W.capture);
}

#[test]
fn a_capture_that_wins_is_decided() {
    let s = pos("taken: 10 4\n", &["rrr......"]);
    assert!(s.evaluate_version(0, 0) >= W.decided);
    assert!(s.evaluate_version(1, 0) <= -W.decided);
}

/// The dots h3 i3 and a stone on f2: the push (to the right) takes the stone
/// to g2, where it makes nothing; the next push (up) takes it to g3, where
/// f3 makes the row f3–i3. The line is in reach of the opponent only.
const DOTS_H3_I3: [&str; 3] = [".......oo", ".....r...", "........."];

#[test]
fn the_opponents_line_in_reach_after_the_push() {
    let s = pos("", &DOTS_H3_I3);
    assert!(s.line_threats().is_empty(), "nothing in reach of the player to place");
    // One hole: the player to place blocks it with a stop stone.
    assert_eq!(s.evaluate_version(0, 0), -W.block);
    // Without a stop stone, the opponent captures (and chains).
    let s = pos("stops: 0 3\n", &DOTS_H3_I3);
    assert_eq!(s.evaluate_version(0, 0), -W.capture - W.unstoppable - W.stop * 3 - W.last_stop);
    // After the push and a quiet stone elsewhere, the opponent has it in reach.
    let mut s = pos("", &DOTS_H3_I3);
    play(&mut s, "a8");
    assert_eq!(s.to_move(), Turn::Seat(1));
    assert_eq!(s.line_threats().len(), 1);
    assert_eq!(s.evaluate_version(1, 0), W.capture);
}

#[test]
fn lines_being_scored_and_the_interlude() {
    let mut s = pos("", &["rrr......"]);
    play(&mut s, "d1");
    assert_eq!(s.phase(), Phase::Score);
    assert_eq!(s.evaluate_version(0, 0), W.pending + W.again);
    // The removal leaves a gap: in the interlude the opponent blocks it with
    // a stop stone (one spent), or the scorer refills it.
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    s.apply(moves[0]);
    assert_eq!(s.phase(), Phase::Interlude);
    assert_eq!(s.line_threats().len(), 1);
    let blocked = STONE + W.stop; // a stone taken, a stop stone to be spent
    assert_eq!(s.evaluate_version(0, 0), blocked + W.race / 11);
    assert_eq!(s.evaluate_version(1, 0), -s.evaluate_version(0, 0));
}

#[test]
fn the_evaluation_is_antisymmetric_in_every_phase() {
    for level in 1..=6 {
        let g = Abraxas::new(Sheet::level(level).unwrap());
        let mut rng = ChaCha8Rng::seed_from_u64(level as u64);
        let mut moves = Vec::new();
        let mut seen = [0; 3];
        for _ in 0..20 {
            let mut s = g.start(0);
            while s.to_move() != Turn::Over {
                seen[s.phase() as usize] += 1;
                assert_eq!(s.evaluate(0), -s.evaluate(1), "{s:?}");
                assert!(s.evaluate(0).abs() < 3_000);
                s.legal_moves(&mut moves);
                let mv = moves[rng.random_range(0..moves.len())];
                s.apply(mv);
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "level {level}: every phase seen {seen:?}");
    }
}

/// Removals are all noisy (a forced part of the turn); the noisy placements
/// and moves of a stone are exactly captures; interlude stop stones that are
/// noisy break a line in reach of the scorer.
#[test]
fn noisy_moves_are_captures_and_forced_decisions() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let (mut moves, mut noisy) = (Vec::new(), Vec::new());
    let mut relocations = 0;
    for level in [1, 4, 6] {
        let g = Abraxas::new(Sheet::level(level).unwrap());
        for _ in 0..20 {
            let mut s = g.start(0);
            while s.to_move() != Turn::Over {
                s.legal_moves(&mut moves);
                s.noisy_moves(&mut noisy);
                assert!(noisy.iter().all(|m| moves.contains(m)));
                match s.phase() {
                    Phase::Score => assert_eq!(noisy.len(), moves.len()),
                    Phase::Place => {
                        for &m in &noisy {
                            let mut t = s.clone();
                            t.apply(m);
                            assert!(t.phase() == Phase::Score || t.to_move() == Turn::Over, "{m:?} captures");
                            relocations += usize::from(matches!(m, Move::Relocate { .. }));
                        }
                        if s.reserve() > 0 && s.lines_after_push().is_empty() {
                            let captures = moves
                                .iter()
                                .filter(|&&m| matches!(m, Move::Place(_)))
                                .filter(|&&m| {
                                    let mut t = s.clone();
                                    t.apply(m);
                                    t.phase() == Phase::Score
                                })
                                .count();
                            assert_eq!(noisy.len(), captures);
                        }
                    }
                    Phase::Interlude => {
                        assert!(!noisy.contains(&Move::Pass));
                        for &hole in s.line_threats().iter().collect::<Vec<_>>().iter() {
                            assert!(noisy.contains(&Move::Stop(hole)));
                        }
                    }
                }
                let mv = moves[rng.random_range(0..moves.len())];
                s.apply(mv);
            }
        }
    }
    assert!(relocations > 0, "moves of a stone that capture were seen");
}

/// Positions of seeded random playouts of every sheet, every few plies.
fn playout_positions(seed: u64, games: usize, every: u32) -> Vec<(usize, AbraxasState)> {
    let mut moves = Vec::new();
    let mut out = Vec::new();
    for level in 1..=6 {
        let g = Abraxas::new(Sheet::level(level).unwrap());
        let mut rng = ChaCha8Rng::seed_from_u64(seed + level as u64);
        for _ in 0..games {
            let mut s = g.start(0);
            while s.to_move() != Turn::Over {
                if s.ply() % every == 4 % every {
                    out.push((level, s.clone()));
                }
                s.legal_moves(&mut moves);
                let mv = moves[rng.random_range(0..moves.len())];
                s.apply(mv);
            }
        }
    }
    out
}

/// `v1` is today's evaluation: the values below were computed by the
/// evaluation as it was before `v2` (2026-12-01), on the positions of these
/// seeded playouts (ply 4, 11, 18, … of three games a sheet).
#[test]
fn v1_is_unchanged() {
    let expected: [&[i32]; 6] = [
        &[
            120, -465, -310, -180, -650, 114, -773, -542, -795, -135, -795, 210, -453, 81, -1149, -1149, -1149, 81,
            -105, -420, -220, -642, 114, -218, 442, -218, 330, -330, -315, -12, 330, 450, 450, -207, 453, -207, 1149,
            125, -205, -205, 125, -205, 1025, -205, 1025, -205, 45, -75, 330, -431, -751, -1340, -705,
        ],
        &[
            -45, -330, 330, -330, 330, -430, -548, -223, -245, -683, -696, -1502, -1502, 35, 330, 535, -18, 330, -447,
            -562, -452, -683, 92, -568, -458, -453, 207, -453, 207, -453, 207, -453, -1149, -1149, 81, -1149, 0, -330,
            431, -389, 330, 111, 218, -105, -330, 330, -330, 450, -210, -87, 330, 330, 330, 330, -330, 330, -330, 330,
            -330, -330, 0, 330, -330, 205, -1025, 205, -1025, 205, 205, -1025, 205, 205, -1025,
        ],
        &[
            120, -175, -642, 18, 185, 220, -315, 198, 1269, -205, 1025, -205, 1025, -205, 80, -465, 330, -330, 540,
            455, 1135, 903, -60, 229, -330, 330, -330, -368,
        ],
        &[
            -80, 431, -525, -217, -995, -335, -1115, 165, 330, -119, 419, -114, 876, 120, 160, -229, 410, 877, 245,
            918, 146, 806, 1502,
        ],
        &[
            -15, 330, 431, -650, 221, -1028, -272, 75, -71, 540, 762, 1129, -80, -330, -535, -609, 99, 203, -447, 92,
            -330, 207,
        ],
        &[120, -420, 416, -224, 548, 120, -30, 330, -410, 2, 183, 568, 31, 205, 0, 521, -540, -635, -455, -1475],
    ];
    let mut moves = Vec::new();
    for level in 1..=6 {
        let g = Abraxas::new(Sheet::level(level).unwrap());
        let mut rng = ChaCha8Rng::seed_from_u64(100 + level as u64);
        let mut got = Vec::new();
        for _ in 0..3 {
            let mut s = g.start(0);
            while s.to_move() != Turn::Over {
                if s.ply() % 7 == 4 {
                    got.push(s.evaluate_version(0, 0));
                    assert_eq!(s.evaluate_version(1, 0), -s.evaluate_version(0, 0));
                    assert_eq!(s.evaluate_version(0, 0), s.evaluate_with(&W, 0));
                }
                s.legal_moves(&mut moves);
                let mv = moves[rng.random_range(0..moves.len())];
                s.apply(mv);
            }
        }
        assert_eq!(got, expected[level - 1], "level {level}");
    }
}

#[test]
fn the_versions_are_v1_and_v2() {
    assert_eq!(<AbraxasState as Evaluate>::EVALS, ["v1", "v2"]);
    assert_eq!(<AbraxasState as Evaluate>::TERMS, TERMS);
    assert_eq!(<AbraxasState as Evaluate>::weights().len(), TERMS.len());
}

/// With `v1`'s weights, the terms give `v1` exactly: the terms are a
/// decomposition of today's evaluation.
#[test]
fn the_terms_with_v1_weights_are_v1() {
    let w1 = v1_weights();
    let mut t = [0.0; N_TERMS];
    let ps = playout_positions(7, 20, 3);
    assert!(ps.len() > 1000);
    for (level, s) in &ps {
        for seat in 0..2 {
            s.terms(seat, &mut t);
            assert_eq!(weighted(&w1, &t), s.evaluate_version(seat, 0), "level {level}, seat {seat}: {t:?}\n{s:?}");
        }
    }
}

/// The latest evaluation is `round(Σ weights · terms)`, and the terms are
/// antisymmetric.
#[test]
fn the_latest_evaluation_is_the_weighted_sum_of_antisymmetric_terms() {
    let w = <AbraxasState as Evaluate>::weights();
    let (mut t0, mut t1) = ([0.0; N_TERMS], [0.0; N_TERMS]);
    for (level, s) in playout_positions(11, 20, 3) {
        s.terms(0, &mut t0);
        s.terms(1, &mut t1);
        for i in 0..N_TERMS {
            assert_eq!(t0[i], -t1[i], "level {level}, term {}", TERMS[i]);
            assert!(t0[i].abs() <= 100.0, "level {level}, term {} = {}", TERMS[i], t0[i]);
        }
        let want = w.iter().zip(&t0).map(|(w, t)| w * t).sum::<f32>().round() as i32;
        assert_eq!(s.evaluate(0), want);
        assert_eq!(s.evaluate(1), -want);
        assert_eq!(s.evaluate_version(0, 1), want);
    }
}

/// The terms on hand-made positions, counted by hand.
#[test]
fn the_terms_on_hand_made_positions() {
    let mut t = [0.0; N_TERMS];
    let term = |t: &[f32; N_TERMS], name: &str| t[TERMS.iter().position(|n| *n == name).unwrap()];
    // Held: 5 against 2 (need 11), stop stones 3 against 1.
    let s = pos("taken: 5 2\nstops: 3 1\n", &[]);
    s.terms(0, &mut t);
    assert_eq!(term(&t, "stone"), 3.0);
    // (25 − 4) / 11 = 1.909…, to a fifteenth toward zero: 28 / 15.
    assert_eq!(term(&t, "race"), 28.0 / 15.0);
    assert_eq!(term(&t, "stop"), 2.0);
    assert_eq!(term(&t, "last_stop"), 0.0);
    assert_eq!(t.iter().filter(|&&v| v != 0.0).count(), 3, "{t:?}");
    // The last stop stone: 1 against 0.
    pos("stops: 1 0\n", &[]).terms(1, &mut t);
    assert_eq!((term(&t, "stop"), term(&t, "last_stop")), (-1.0, -1.0));
    // A line in reach (one hole) of the player to place: one stone.
    pos("", &["rrr......"]).terms(0, &mut t);
    assert_eq!((term(&t, "capture"), term(&t, "double"), term(&t, "unstoppable")), (1.0, 0.0, 0.0));
    // The opponent without stop stones cannot break the chain.
    pos("stops: 3 0\n", &["rrr......"]).terms(0, &mut t);
    assert_eq!(
        (term(&t, "capture"), term(&t, "unstoppable"), term(&t, "stop"), term(&t, "last_stop")),
        (1.0, 1.0, 3.0, 1.0)
    );
    // The capture wins: decided, and nothing else of the placement.
    pos("taken: 10 4\n", &["rrr......"]).terms(0, &mut t);
    assert_eq!((term(&t, "decided"), term(&t, "capture")), (1.0, 0.0));
    // The opponent's line in reach after the push, blockable: − block.
    pos("", &DOTS_H3_I3).terms(0, &mut t);
    assert_eq!(term(&t, "block"), -1.0);
    // A line being scored: one stone pending, the scorer plays again.
    let mut s = pos("", &["rrr......"]);
    play(&mut s, "d1");
    s.terms(0, &mut t);
    assert_eq!((term(&t, "pending"), term(&t, "again")), (1.0, 1.0));
    // Without the opponent's stop stones: half of `unstoppable` instead.
    let mut s = pos("stops: 3 0\n", &["rrr......"]);
    play(&mut s, "d1");
    s.terms(1, &mut t);
    assert_eq!((term(&t, "pending"), term(&t, "again"), term(&t, "unstoppable")), (-1.0, 0.0, -0.5));
}

/// The side that can finish does, at a small fixed depth: the capture that
/// takes the eleventh stone, then the stone itself.
#[test]
fn the_player_ahead_finishes() {
    use plateau_ai::Budget;
    use plateau_ai::alphabeta::AlphaBeta;
    let s = pos("taken: 10 4\n", &["rrr......"]);
    let mut ab = AlphaBeta::<AbraxasState>::new(Budget { depth: Some(2), ..Budget::default() }, 16);
    let (pv, _) = ab.best_move(&s);
    assert_eq!(pv[0], Move::Place(c("d1")));
    let mut s = s.clone();
    s.apply(pv[0]);
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    s.apply(moves[0]);
    assert_eq!(s.to_move(), Turn::Over);
    assert_eq!(s.outcome().unwrap().value(0), 1.0);
}

/// Whether the player to place in `s` can capture with a placement (a red
/// stone or a stop stone), tried one by one.
fn placer_can_capture(s: &AbraxasState) -> bool {
    if s.phase() != Phase::Place {
        return false;
    }
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    moves.iter().any(|&m| {
        let mut t = s.clone();
        t.apply(m);
        t.phase() == Phase::Score || t.to_move() == Turn::Over
    })
}

/// The moves alpha-beta's latest version searches: every legal move but the
/// stop stones that break nothing; every stop stone that takes away the
/// next placer's every capture (found by trying each, when another stop
/// stone would leave one) is kept.
#[test]
fn the_searched_moves_keep_every_stop_stone_that_blocks() {
    let (mut legal, mut searched) = (Vec::new(), Vec::new());
    let (mut blocking_seen, mut pruned) = ([0usize; 2], 0usize);
    for (_, s) in playout_positions(21, 6, 1) {
        s.legal_moves(&mut legal);
        s.search_moves(&mut searched);
        assert!(!searched.is_empty());
        assert!(searched.iter().all(|m| legal.contains(m)), "{searched:?}");
        for m in &legal {
            if !matches!(m, Move::Stop(_)) {
                assert!(searched.contains(m), "{m:?} is searched");
            }
        }
        pruned += legal.len() - searched.len();
        let stops: Vec<Move> = legal.iter().copied().filter(|m| matches!(m, Move::Stop(_))).collect();
        let leaves_capture = |m: Move| {
            let mut t = s.clone();
            t.apply(m);
            placer_can_capture(&t)
        };
        let phase = s.phase();
        if phase == Phase::Score || (phase == Phase::Place && s.reserve() == 0) {
            assert_eq!(searched.len(), legal.len());
            continue;
        }
        if !stops.iter().any(|&m| leaves_capture(m)) {
            continue;
        }
        for &m in &stops {
            let mut t = s.clone();
            t.apply(m);
            // A stop stone in a placement turn that itself makes a line is
            // not a block.
            if t.phase() == Phase::Place && !placer_can_capture(&t) {
                blocking_seen[usize::from(phase == Phase::Interlude)] += 1;
                assert!(
                    searched.contains(&m),
                    "{m:?} blocks ({phase:?})\n{}",
                    s.render(plateau_core::Reader::Referee, false)
                );
            }
        }
    }
    assert!(blocking_seen[0] > 0 && blocking_seen[1] > 0, "{blocking_seen:?}");
    assert!(pruned > 0);
}

/// The removal and the interlude complete a capture: free decisions.
#[test]
fn the_removal_and_the_interlude_are_free_decisions() {
    for (_, s) in playout_positions(5, 3, 1) {
        assert_eq!(s.free_decision(), matches!(s.phase(), Phase::Score | Phase::Interlude), "{:?}", s.phase());
    }
}

/// With its pruning off (`prune=off`, as the puzzles' judge searches),
/// alpha-beta searches otherwise than with it where the game prunes (the
/// pruned stop stones searched, free decisions using depth: a different
/// number of nodes at a fixed depth; the root searches every legal move
/// either way). The built-in puzzles' verification (`plateau-analysis`)
/// depends on it.
#[test]
fn without_its_pruning_alpha_beta_searches_every_legal_move() {
    use plateau_ai::Budget;
    use plateau_ai::alphabeta::AlphaBeta;
    let (mut legal, mut searched) = (Vec::new(), Vec::new());
    let (mut on, mut off, mut positions) = (0u64, 0u64, 0usize);
    for (_, s) in playout_positions(5, 2, 3) {
        s.legal_moves(&mut legal);
        s.search_moves(&mut searched);
        if s.to_move() == Turn::Over || searched.len() == legal.len() {
            continue;
        }
        positions += 1;
        let nodes = |pruning: bool, depth: u32| {
            let mut ab = AlphaBeta::<AbraxasState>::new(Budget { depth: Some(depth), ..Budget::default() }, 14);
            ab.use_plan = false;
            ab.use_pruning = pruning;
            ab.best_move(&s).1.nodes
        };
        on += nodes(true, 2);
        off += nodes(false, 2);
    }
    assert!(positions > 0, "no position where the game prunes");
    assert_ne!(off, on, "the same nodes without the pruning as with it, over {positions} positions");
}

//! The evaluation: each term of the strategy on hand-built positions, the
//! symmetry, and the noisy moves of quiescence search.

use plateau_abraxas::eval::{STONE, Weights};
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
    assert_eq!(s.evaluate(0), 0);
    assert_eq!(s.evaluate(1), 0);
}

#[test]
fn stones_held_count_more_near_the_goal() {
    let v = |a: u8, b: u8| pos(&format!("taken: {a} {b}\n"), &[]).evaluate(0);
    assert!(v(1, 0) >= STONE);
    assert!(v(5, 4) > v(1, 0));
    assert!(v(10, 9) > v(5, 4), "a lead near the goal counts more");
    assert_eq!(v(3, 7), -v(7, 3));
}

#[test]
fn stop_stones_are_a_resource_and_the_last_counts_most() {
    let v = |a: u8, b: u8| pos(&format!("stops: {a} {b}\n"), &[]).evaluate(0);
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
    assert_eq!(s.evaluate(0), W.capture);
    // Without stop stones the opponent cannot break the chain.
    let s = pos("stops: 3 0\n", &["rrr......"]);
    assert_eq!(s.evaluate(0), W.capture + W.unstoppable + W.stop * 3 + W.last_stop);
    // Two holes in reach: one stop stone cannot block both.
    let s = pos("", &["rrr......", ".........", "rrr......"]);
    assert!(s.line_threats().len() >= 2);
    assert_eq!(s.evaluate(0), W.capture + W.double);
    // The same for the second player to place, seen by both seats.
    let s = pos("to-move: 2\n", &["rrr......"]);
    assert_eq!(s.evaluate(1), W.capture);
    assert_eq!(s.evaluate(0), -W.capture);
}

#[test]
fn a_capture_that_wins_is_decided() {
    let s = pos("taken: 10 4\n", &["rrr......"]);
    assert!(s.evaluate(0) >= W.decided);
    assert!(s.evaluate(1) <= -W.decided);
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
    assert_eq!(s.evaluate(0), -W.block);
    // Without a stop stone, the opponent captures (and chains).
    let s = pos("stops: 0 3\n", &DOTS_H3_I3);
    assert_eq!(s.evaluate(0), -W.capture - W.unstoppable - W.stop * 3 - W.last_stop);
    // After the push and a quiet stone elsewhere, the opponent has it in reach.
    let mut s = pos("", &DOTS_H3_I3);
    play(&mut s, "a8");
    assert_eq!(s.to_move(), Turn::Seat(1));
    assert_eq!(s.line_threats().len(), 1);
    assert_eq!(s.evaluate(1), W.capture);
}

#[test]
fn lines_being_scored_and_the_interlude() {
    let mut s = pos("", &["rrr......"]);
    play(&mut s, "d1");
    assert_eq!(s.phase(), Phase::Score);
    assert_eq!(s.evaluate(0), W.pending + W.again);
    // The removal leaves a gap: in the interlude the opponent blocks it with
    // a stop stone (one spent), or the scorer refills it.
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    s.apply(moves[0]);
    assert_eq!(s.phase(), Phase::Interlude);
    assert_eq!(s.line_threats().len(), 1);
    let blocked = STONE + W.stop; // a stone taken, a stop stone to be spent
    assert_eq!(s.evaluate(0), blocked + W.race / 11);
    assert_eq!(s.evaluate(1), -s.evaluate(0));
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

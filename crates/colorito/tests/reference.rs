//! The bitboard move generator against a naive one that enumerates paths
//! (steps, jump chains by depth-first search, a step then jump chains), on
//! random game positions and on random scattered positions, for every
//! combination of `just-colours` and `strict`.

mod common;

use std::collections::BTreeSet;

use common::*;
use plateau_colorito::{Cell, Colorito, Move, Piece};
use plateau_core::perft::perft;
use plateau_core::{Game, State, Turn};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const FLAGS: [(bool, bool); 4] = [(false, false), (true, false), (false, true), (true, true)];

fn game(just: bool, strict: bool) -> Colorito {
    let (j, s) = (just.to_string(), strict.to_string());
    Colorito::new("standard", &[("just-colours", j.as_str()), ("strict", s.as_str())]).unwrap()
}

fn check(g: &Colorito, s: &plateau_colorito::ColoritoState, just: bool, strict: bool) {
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    let fast: BTreeSet<Move> = v.iter().copied().collect();
    assert_eq!(fast.len(), v.len(), "duplicate moves\n{}", s.to_text());
    let slow = naive_moves(g, s, just, strict);
    assert_eq!(fast, slow, "just-colours {just} strict {strict}\n{}", s.to_text());
    assert_eq!(s.count_moves(), v.len());
}

#[test]
fn random_games_match_the_naive_generator() {
    for (just, strict) in FLAGS {
        let g = game(just, strict);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..6 {
            let mut s = g.start(0);
            let mut v = Vec::new();
            for _ in 0..200 {
                if s.to_move() == Turn::Over {
                    break;
                }
                check(&g, &s, just, strict);
                s.legal_moves(&mut v);
                s.apply(v[rng.random_range(0..v.len())]);
            }
        }
    }
}

#[test]
fn scattered_positions_match_the_naive_generator() {
    for (just, strict) in FLAGS {
        let g = game(just, strict);
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for round in 0..300 {
            // 10 to 40 pieces on random cells.
            let n = rng.random_range(10..=40);
            let mut cells: Vec<usize> = (0..100).collect();
            for i in (1..cells.len()).rev() {
                cells.swap(i, rng.random_range(0..=i));
            }
            let mut ids: Vec<usize> = (0..40).collect();
            for i in (1..ids.len()).rev() {
                ids.swap(i, rng.random_range(0..=i));
            }
            let pieces: Vec<(String, String)> = (0..n)
                .map(|k| (Cell::from_index(cells[k]).unwrap().to_string(), Piece::from_id(ids[k]).unwrap().to_string()))
                .collect();
            let side = if round % 2 == 0 { "red" } else { "blue" };
            let moves = if round % 2 == 0 { (0, 0) } else { (1, 0) };
            let s = place(&g, side, moves, &refs(&pieces));
            check(&g, &s, just, strict);
        }
    }
}

/// Perft by the naive generator.
fn naive_perft(g: &Colorito, s: &mut plateau_colorito::ColoritoState, just: bool, strict: bool, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = naive_moves(g, s, just, strict);
    let mut n = 0;
    for m in moves {
        let u = s.apply(m);
        n += naive_perft(g, s, just, strict, depth - 1);
        s.undo(m, u);
    }
    n
}

#[test]
fn perft_matches_the_naive_generator() {
    for (just, strict) in FLAGS {
        let g = game(just, strict);
        let mut s = g.start(0);
        for d in 1..=3 {
            assert_eq!(perft(&mut s, d), naive_perft(&g, &mut s, just, strict, d), "depth {d} {just} {strict}");
        }
    }
}

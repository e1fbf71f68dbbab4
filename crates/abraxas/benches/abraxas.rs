//! Speed of move generation, apply/undo and random playouts.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use plateau_abraxas::{Abraxas, AbraxasState, Move, Sheet};
use plateau_core::{Game, State, Turn};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A position `plies` random moves into a game on `level`.
fn midgame(level: usize, plies: usize, seed: u64) -> AbraxasState {
    let game = Abraxas::new(Sheet::level(level).expect("level"));
    let mut s = game.start(0);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        s.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        s.apply(mv);
    }
    s
}

/// A position of a game on `level` where the reserve is empty (stones are
/// moved within the plate) and the game goes on.
fn reserve_empty(level: usize) -> AbraxasState {
    let game = Abraxas::new(Sheet::level(level).expect("level"));
    let mut moves = Vec::new();
    for seed in 0.. {
        let mut s = game.start(0);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while s.to_move() != Turn::Over {
            if s.reserve() == 0 && s.phase() == plateau_abraxas::Phase::Place {
                return s;
            }
            s.legal_moves(&mut moves);
            // Stop stones and removals only: the reserve empties fast.
            let mv = moves[rng.random_range(0..moves.len())];
            s.apply(mv);
        }
    }
    unreachable!()
}

fn playout(s: &mut AbraxasState, rng: &mut ChaCha8Rng, moves: &mut Vec<Move>) -> u32 {
    let mut n = 0;
    while s.to_move() != Turn::Over {
        s.legal_moves(moves);
        let mv = moves[rng.random_range(0..moves.len())];
        s.apply(mv);
        n += 1;
    }
    n
}

fn benches(c: &mut Criterion) {
    let positions: Vec<AbraxasState> = (1..=6).map(|l| midgame(l, 20, l as u64)).collect();
    let late: Vec<AbraxasState> = (1..=6).map(reserve_empty).collect();
    let mut moves = Vec::with_capacity(1024);
    c.bench_function("legal_moves (6 mid-game positions)", |b| {
        b.iter(|| {
            for p in &positions {
                p.legal_moves(&mut moves);
                black_box(moves.len());
            }
        })
    });
    c.bench_function("legal_moves (6 positions, reserve empty: moves within the plate)", |b| {
        b.iter(|| {
            for p in &late {
                p.legal_moves(&mut moves);
                black_box(moves.len());
            }
        })
    });
    c.bench_function("apply+undo every move (6 mid-game positions)", |b| {
        let mut work = positions.clone();
        b.iter(|| {
            for p in work.iter_mut() {
                p.legal_moves(&mut moves);
                for &mv in &moves {
                    let u = p.apply(mv);
                    black_box(p.key());
                    p.undo(mv, u);
                }
            }
        })
    });
    c.bench_function("line_threats (6 mid-game positions)", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(p.line_threats());
            }
        })
    });
    for level in [1usize, 6] {
        let game = Abraxas::new(Sheet::level(level).expect("level"));
        let start = game.start(0);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        c.bench_function(&format!("random playout level-{level}"), |b| {
            b.iter(|| {
                let mut s = start.clone();
                black_box(playout(&mut s, &mut rng, &mut moves))
            })
        });
    }
}

criterion_group!(abraxas, benches);
criterion_main!(abraxas);

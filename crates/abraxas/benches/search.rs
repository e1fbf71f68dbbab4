//! Speed of the evaluation (the latest, `v2`: the weighted sum of the terms;
//! and `v1`) and of a fixed alpha-beta search.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use plateau_abraxas::{Abraxas, AbraxasState, Move, Phase, Sheet};
use plateau_ai::Budget;
use plateau_ai::Search;
use plateau_ai::alphabeta::AlphaBeta;
use plateau_ai::mcts::{Mcts, MctsConfig};
use plateau_core::{Evaluate, Game, State, Turn};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Positions of random games on `level`, one every few plies, not over.
fn positions(level: usize, n: usize) -> Vec<AbraxasState> {
    let game = Abraxas::new(Sheet::level(level).expect("level"));
    let mut rng = ChaCha8Rng::seed_from_u64(level as u64);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < n {
        let mut s = game.start(0);
        while s.to_move() != Turn::Over && out.len() < n {
            if s.ply() % 5 == 3 {
                out.push(s.clone());
            }
            s.legal_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            s.apply(mv);
        }
    }
    out
}

/// The position after these moves on `level`.
fn after(level: usize, moves: &str) -> AbraxasState {
    let mut s = Abraxas::new(Sheet::level(level).expect("level")).start(0);
    for m in moves.split_whitespace() {
        let mv: Move = s.parse_move(m).expect("move");
        s.try_apply(mv).expect("legal");
    }
    s
}

/// A middle game of level 1 (12 plies: a capture each, stop stones placed).
const MIDGAME: &str = "b:h6 f1 d3 c4 e4 x:f4 b:e2 h3 d6 x:c4 b:d7 h5";

fn benches(c: &mut Criterion) {
    for level in [1usize, 6] {
        let ps = positions(level, 100);
        c.bench_function(&format!("evaluate (100 positions of level-{level})"), |b| {
            b.iter(|| {
                let mut v = 0i32;
                for p in &ps {
                    v = v.wrapping_add(black_box(p).evaluate(0));
                }
                v
            })
        });
        c.bench_function(&format!("evaluate v1 (100 positions of level-{level})"), |b| {
            b.iter(|| {
                let mut v = 0i32;
                for p in &ps {
                    v = v.wrapping_add(black_box(p).evaluate_version(0, 0));
                }
                v
            })
        });
        let mut noisy = Vec::with_capacity(256);
        c.bench_function(&format!("noisy_moves (100 positions of level-{level})"), |b| {
            b.iter(|| {
                let mut n = 0;
                for p in &ps {
                    black_box(p).noisy_moves(&mut noisy);
                    n += noisy.len();
                }
                n
            })
        });
    }
    let mid = after(1, MIDGAME);
    assert_eq!(mid.phase(), Phase::Place);
    let mut group = c.benchmark_group("alpha-beta");
    group.sample_size(10);
    for depth in [4u32, 6] {
        group.bench_function(format!("depth {depth}, level-1 middle game"), |b| {
            b.iter(|| {
                let mut ab = AlphaBeta::<AbraxasState>::new(Budget { depth: Some(depth), ..Budget::default() }, 16);
                let (pv, info) = ab.best_move(black_box(&mid));
                black_box((pv, info.nodes))
            })
        });
    }
    group.bench_function("mcts 2000 iterations, level-1 middle game", |b| {
        b.iter(|| {
            let budget = Budget { iterations: Some(2_000), ..Budget::default() };
            let mut m = Mcts::<AbraxasState>::new(budget, ChaCha8Rng::seed_from_u64(1), MctsConfig::default());
            black_box(m.search(black_box(&mid), &[]))
        })
    });
    group.finish();
}

criterion_group!(search, benches);
criterion_main!(search);

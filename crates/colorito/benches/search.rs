//! Speed of the evaluation and of alpha-beta on fixed Colorito positions.
//!
//! - `eval/…`: the evaluation of 64 positions (both seats), from the start of
//!   random games and from the middle of games between alpha-beta players.
//! - `alphabeta/…`: fixed-depth searches (a fresh searcher and table each
//!   time, so every iteration does the same work); the throughput is in
//!   nodes, so criterion reports nodes per second (the endgame planner is
//!   off: these measure the search).
//! - `plan/…`: the endgame planner (v1's and v2's) on race ends where
//!   alpha-beta without it shuffled (`tests/data/race-end-shuffle.txt`, a
//!   7-move plan; `race-end-long.txt`, 8 moves).

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use plateau_ai::alphabeta::AlphaBeta;
use plateau_ai::{Budget, Search};
use plateau_colorito::{Colorito, ColoritoState, Side, plan};
use plateau_core::{Evaluate, Game, State, Turn};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// 64 positions after 4 to 60 random plies.
fn random_positions(g: &Colorito) -> Vec<ColoritoState> {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut v = Vec::new();
    (0..64)
        .map(|_| {
            let mut s = g.start(0);
            for _ in 0..rng.random_range(4..60) {
                s.legal_moves(&mut v);
                s.apply(v[rng.random_range(0..v.len())]);
            }
            s
        })
        .collect()
}

/// Positions along games between alpha-beta players (depth 2 after 4 random
/// plies): the race as it is played, every fourth ply.
fn played_positions(g: &Colorito, n: usize) -> Vec<ColoritoState> {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut v = Vec::new();
    let mut out = Vec::new();
    while out.len() < n {
        let mut s = g.start(0);
        for _ in 0..4 {
            s.legal_moves(&mut v);
            s.apply(v[rng.random_range(0..v.len())]);
        }
        let mut ab = AlphaBeta::<ColoritoState>::new(Budget { depth: Some(2), ..Budget::default() }, 14);
        while s.to_move() != Turn::Over && s.ply() < 160 && out.len() < n {
            let (pv, _) = ab.search(&s, &[]);
            s.apply(pv[0]);
            if s.ply().is_multiple_of(4) && s.to_move() != Turn::Over {
                out.push(s.clone());
            }
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let g = Colorito::standard();
    let random = random_positions(&g);
    let played = played_positions(&g, 64);
    for (name, set) in [("random openings", &random), ("played games", &played)] {
        let mut group = c.benchmark_group("eval");
        group.throughput(Throughput::Elements(2 * set.len() as u64));
        group.bench_function(format!("64 positions from {name}, both seats"), |b| {
            b.iter(|| {
                set.iter().map(|s| black_box(s).evaluate(0) as i64 + black_box(s).evaluate(1) as i64).sum::<i64>()
            })
        });
        group.finish();
    }

    let start = g.start(0);
    let mid = played[played.len() / 3].clone();
    let late = played[played.len() * 2 / 3].clone();
    for (name, s, depth) in [("start", &start, 6), ("middle game", &mid, 5), ("late game", &late, 6)] {
        let budget = Budget { depth: Some(depth), ..Budget::default() };
        let searcher = || {
            let mut ab = AlphaBeta::<ColoritoState>::new(budget, 18);
            ab.use_plan = false;
            ab
        };
        let (_, info) = searcher().search(s, &[]);
        eprintln!("alphabeta {name}: depth {depth}, {} nodes, {} legal moves", info.nodes, s.count_moves());
        let mut group = c.benchmark_group("alphabeta");
        group.throughput(Throughput::Elements(info.nodes));
        group.bench_function(format!("{name}, depth {depth}"), |b| {
            b.iter_batched(searcher, |mut ab| ab.search(black_box(s), &[]).1.nodes, BatchSize::LargeInput)
        });
        group.finish();
    }

    let end = g.position(include_str!("../tests/data/race-end-shuffle.txt")).expect("a valid position");
    let mut group = c.benchmark_group("plan");
    group.bench_function("race end, 7 moves", |b| b.iter(|| plan(black_box(&end), Side::Red, 30_000)));
    group.bench_function("race end, 7 moves, v2", |b| {
        b.iter(|| plateau_colorito::eval::plan_v2(black_box(&end), Side::Red, 60_000))
    });
    let long = g.position(include_str!("../tests/data/race-end-long.txt")).expect("a valid position");
    group.bench_function("race end, 8 moves", |b| b.iter(|| plan(black_box(&long), Side::Red, 30_000)));
    group.bench_function("race end, 8 moves, v2", |b| {
        b.iter(|| plateau_colorito::eval::plan_v2(black_box(&long), Side::Red, 60_000))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(3)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench
}
criterion_main!(benches);

//! Speed of the rules: perft, random playouts, sampling from knowledge.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use plateau_core::rand::{RngExt, SeedableRng};
use plateau_core::{Game, Hidden, State, perft::perft};
use plateau_kabaleo::{Deal, Kabaleo, Weights};
use rand_chacha::ChaCha8Rng;

fn bench(c: &mut Criterion) {
    for (players, golden) in [(2, false), (4, true)] {
        let game = Kabaleo::new(players, Deal::Random, None, golden).unwrap();
        let start = game.start(7);
        c.bench_function(&format!("perft3 {players}p golden={golden}"), |b| {
            b.iter(|| {
                let mut s = start.clone();
                black_box(perft(&mut s, 3))
            })
        });
        c.bench_function(&format!("playout {players}p golden={golden}"), |b| {
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            let mut moves = Vec::with_capacity(256);
            b.iter(|| {
                let mut s = start.clone();
                while s.to_move().seat().is_some() {
                    s.legal_moves(&mut moves);
                    let mv = moves[rng.random_range(0..moves.len())];
                    s.apply(mv);
                }
                black_box(s.outcome())
            })
        });
        let k = start.knowledge(0);
        c.bench_function(&format!("sample_uniform {players}p"), |b| {
            let mut rng = ChaCha8Rng::seed_from_u64(2);
            b.iter(|| black_box(k.sample_uniform(&mut rng)))
        });
        let weights: Weights = [[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]; 4];
        c.bench_function(&format!("sample_weighted {players}p"), |b| {
            let mut rng = ChaCha8Rng::seed_from_u64(3);
            b.iter(|| black_box(k.sample_weighted(&weights, &mut rng).unwrap()))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);

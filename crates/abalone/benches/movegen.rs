//! Move generation speed: counting and generating moves, and perft from the
//! Belgian daisy.

use criterion::{Criterion, criterion_group, criterion_main};
use plateau_abalone::{Abalone, Rules};
use plateau_core::{Game, State, perft::perft};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let game = Abalone::with_layout("belgian-daisy", Rules::default()).unwrap();
    let start = game.start(0);
    let mut buf = Vec::with_capacity(128);
    c.bench_function("abalone/count_moves belgian-daisy", |b| b.iter(|| black_box(&start).count_moves()));
    c.bench_function("abalone/legal_moves belgian-daisy", |b| {
        b.iter(|| {
            black_box(&start).legal_moves(&mut buf);
            buf.len()
        })
    });
    c.bench_function("abalone/apply+undo all moves", |b| {
        let mut s = start.clone();
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        b.iter(|| {
            for &m in &moves {
                let u = s.apply(m);
                s.undo(m, u);
            }
        })
    });
    let mut g = c.benchmark_group("abalone/perft");
    g.sample_size(10);
    g.bench_function("perft 3 belgian-daisy", |b| {
        let mut s = start.clone();
        b.iter(|| perft(&mut s, 3))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

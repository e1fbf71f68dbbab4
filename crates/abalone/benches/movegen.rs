//! Move generation speed: counting and generating moves, and perft from the
//! Belgian daisy; the evaluations' speed (`v1` and `v2`) on positions of
//! seeded random playouts.

use criterion::{Criterion, criterion_group, criterion_main};
use plateau_abalone::{Abalone, AbaloneState, Rules};
use plateau_core::{Evaluate, Game, State, perft::perft};
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

    // Positions of random playouts (every 8th ply of 12 games of 160 plies).
    let mut positions: Vec<AbaloneState> = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut moves = Vec::new();
    for _ in 0..12 {
        let mut s = start.clone();
        for ply in 0..160u32 {
            if s.outcome().is_some() {
                break;
            }
            if ply.is_multiple_of(8) {
                positions.push(s.clone());
            }
            s.legal_moves(&mut moves);
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            s.apply(moves[(seed % moves.len() as u64) as usize]);
        }
    }
    let mut g = c.benchmark_group("abalone/evaluate");
    for (v, name) in AbaloneState::EVALS.iter().enumerate() {
        g.bench_function(format!("{name} ({} positions)", positions.len()), |b| {
            b.iter(|| positions.iter().map(|s| black_box(s).evaluate_version(0, v)).sum::<i32>())
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Speed of Colorito's rules: move generation (start and mid-game positions),
//! perft, random playouts with apply/undo, and the score search.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use plateau_colorito::{Colorito, ColoritoState, Move, Side, min_moves};
use plateau_core::perft::perft;
use plateau_core::{Game, State, Turn};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// 64 positions after 20 to 120 random plies.
fn midgame(g: &Colorito) -> Vec<ColoritoState> {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut v = Vec::new();
    (0..64)
        .map(|_| {
            let mut s = g.start(0);
            let n = rng.random_range(20..120);
            for _ in 0..n {
                s.legal_moves(&mut v);
                s.apply(v[rng.random_range(0..v.len())]);
            }
            s
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    for (name, g) in [
        ("standard", Colorito::standard()),
        ("strict", Colorito::new("strict", &[]).unwrap()),
        ("just-colours", Colorito::new("just-colours", &[]).unwrap()),
    ] {
        let start = g.start(0);
        let mids = midgame(&g);
        let total: usize = mids.iter().map(|s| s.count_moves()).sum();
        eprintln!("{name}: {} moves over {} mid-game positions ({:.1} each)", total, mids.len(), total as f64 / 64.0);
        let mut buf: Vec<Move> = Vec::with_capacity(256);
        c.bench_function(&format!("{name}/legal_moves/start"), |b| {
            b.iter(|| {
                black_box(&start).legal_moves(&mut buf);
                buf.len()
            })
        });
        c.bench_function(&format!("{name}/legal_moves/64 mid-game positions"), |b| {
            b.iter(|| {
                let mut n = 0;
                for s in &mids {
                    black_box(s).legal_moves(&mut buf);
                    n += buf.len();
                }
                n
            })
        });
        c.bench_function(&format!("{name}/count_moves/64 mid-game positions"), |b| {
            b.iter(|| mids.iter().map(|s| black_box(s).count_moves()).sum::<usize>())
        });
        c.bench_function(&format!("{name}/apply+undo every move/64 mid-game positions"), |b| {
            let mut work = mids.clone();
            b.iter(|| {
                let mut k = 0u64;
                for s in work.iter_mut() {
                    s.legal_moves(&mut buf);
                    for &m in &buf {
                        let u = s.apply(m);
                        k ^= s.key();
                        s.undo(m, u);
                    }
                }
                k
            })
        });
    }

    let g = Colorito::standard();
    c.bench_function("standard/perft(3) from the start", |b| {
        let mut s = g.start(0);
        b.iter(|| perft(&mut s, 3))
    });
    c.bench_function("standard/perft(4) from the start", |b| {
        let mut s = g.start(0);
        b.iter(|| perft(&mut s, 4))
    });
    c.bench_function("standard/random playout of 600 plies", |b| {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut v = Vec::with_capacity(256);
        b.iter(|| {
            let mut s = g.start(0);
            while s.to_move() != Turn::Over {
                s.legal_moves(&mut v);
                s.apply(v[rng.random_range(0..v.len())]);
            }
            s.key()
        })
    });
    // The score search on the hand-counted position of the tests (4 moves).
    let mut text = String::from("to-move: red\nmoves: 31 31\n");
    let b = g.board().clone();
    let mut grid = vec![vec![".".to_string(); 10]; 10];
    for id in 0..40 {
        let p = plateau_colorito::Piece::from_id(id).unwrap();
        let c = match p.to_string().as_str() {
            "D1" => "b1",
            "D2" => "a1",
            "L20" => "j3",
            _ => "",
        };
        let cell = if c.is_empty() { b.target(p) } else { plateau_colorito::Cell::parse(c).unwrap() };
        grid[cell.rank()][cell.file()] = p.to_string();
    }
    for r in (0..10).rev() {
        text.push_str(&grid[r].join(" "));
        text.push('\n');
    }
    let s = g.position(&text).unwrap();
    c.bench_function("score/min_moves, 4-move hand position", |bch| {
        bch.iter(|| min_moves(black_box(&s), Side::Blue, 2_000_000))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench
}
criterion_main!(benches);

//! The server's cost of one move without sockets (issue 21), for each game:
//! a table with two seated players and two spectators subscribed (the
//! browser's form, gestures included), random legal moves.
//!
//! - `move`: the whole path of a move from a socket: the checks, the rules,
//!   the write queued to the group-commit writer and its commit awaited
//!   (SQLite in a temporary file, synchronous `NORMAL`), and the four
//!   readers' frames made and queued;
//! - `frames`: the rules and the frames only (the event published as if
//!   committed);
//! - `commit/K-moves`: the group-commit writer alone, a move of each of K
//!   of 1,000 stored games queued at once and committed in one transaction.
//!
//! `cargo bench -p plateau-server --bench moves`

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use plateau_server::Durability;
use plateau_server::bench::{CommitBench, MoveBench};

/// The allocator of the `plateau` binary, which serves the games.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn moves(c: &mut Criterion) {
    for game in ["abalone", "abraxas", "colorito", "kabaleo"] {
        let mut group = c.benchmark_group(game);
        for (name, commit) in [("move", true), ("frames", false)] {
            let mut b = MoveBench::new(game).expect("a bench table");
            group.bench_function(name, |bench| {
                bench.iter_custom(|iters| (0..iters).map(|_| b.step(commit)).sum::<Duration>())
            });
        }
        group.finish();
    }
    // The writer alone: a move of each of k of 1,000 games in one
    // transaction (as the group commit makes them under load), synchronous
    // `NORMAL`; the time is per transaction, the throughput in moves.
    let mut group = c.benchmark_group("commit");
    let mut b = CommitBench::new(1000, Durability::Normal).expect("a bench database");
    for k in [1usize, 4, 16] {
        group.throughput(Throughput::Elements(k as u64));
        group.bench_function(format!("{k}-moves"), |bench| {
            bench.iter_custom(|iters| (0..iters).map(|_| b.step(k)).sum::<Duration>())
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(3));
    targets = moves
}
criterion_main!(benches);

//! The server's cost of one move without sockets (issue 21), for each game:
//! a table with two seated players and two spectators subscribed (the
//! browser's form, gestures included), random legal moves.
//!
//! - `move`: the whole path of a move from a socket: the checks, the rules,
//!   the write queued to the group-commit writer and its commit awaited
//!   (SQLite in a temporary file, synchronous `NORMAL`), and the four
//!   readers' frames made and queued;
//! - `frames`: the rules and the frames only (the event published as if
//!   committed).
//!
//! `cargo bench -p plateau-server --bench moves`

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use plateau_server::bench::MoveBench;

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
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(3));
    targets = moves
}
criterion_main!(benches);

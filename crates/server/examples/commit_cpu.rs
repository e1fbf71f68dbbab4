//! The processor time of the group-commit writer's path (every thread of
//! the process: the caller's runtime, the writer, SQLite's), per move and
//! per transaction, with k games' moves in each transaction (the bench's
//! `commit` group, measured in CPU time rather than wall time):
//! `cargo run --release -p plateau-server --example commit_cpu [STEPS]`.

use std::time::Duration;

use plateau_server::Durability;
use plateau_server::bench::CommitBench;

fn cpu() -> (Duration, i64) {
    // SAFETY: getrusage writes the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let t = |v: libc::timeval| Duration::from_secs(v.tv_sec as u64) + Duration::from_micros(v.tv_usec as u64);
    (t(u.ru_utime) + t(u.ru_stime), u.ru_nvcsw + u.ru_nivcsw)
}

fn main() {
    let steps: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(3000);
    let mut b = CommitBench::new(1000, Durability::Normal).expect("a bench database");
    for k in [1usize, 4, 16] {
        for _ in 0..steps / 10 {
            b.step(k);
        }
        let (c0, s0) = cpu();
        let mut wall = Duration::ZERO;
        for _ in 0..steps {
            wall += b.step(k);
        }
        let (c1, s1) = cpu();
        let per_commit = (c1 - c0).as_secs_f64() * 1e6 / steps as f64;
        println!(
            "k={k:2}: {:6.1} us CPU a commit, {:5.1} us a move, {:6.1} us wall a commit, {:.1} context switches a commit",
            per_commit,
            per_commit / k as f64,
            wall.as_secs_f64() * 1e6 / steps as f64,
            (s1 - s0) as f64 / steps as f64
        );
    }
}

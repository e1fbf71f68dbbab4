//! How long the loser's score search (IDA*, option `score-nodes`) takes per
//! node budget, on positions where it runs out of budget: Blue's pieces all
//! home, Red's twenty pieces scattered over the middle ranks (seeded).
//!
//! ```text
//! cargo run --release -p plateau-colorito --example score-speed -- [BUDGET] [POSITIONS]
//! ```
//!
//! Prints, per position, the result and the time, then the worst time per
//! million nodes. The server's cap of `score-nodes`
//! ([`plateau_colorito::MAX_SERVER_SCORE_NODES`]) is chosen from it.

use std::time::Instant;

use plateau_colorito::{Colorito, Side, min_moves};
use plateau_core::rand::{RngExt, SeedableRng};

fn position(seed: u64) -> String {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    // Ranks 10 … 1; ranks 3 to 8 (rows 2 to 7 from the top) hold Red's pieces.
    let mut grid = vec![vec![".".to_string(); 10]; 10];
    grid[9] = (1..=10).map(|n| format!("D{n}")).collect();
    grid[8] = (11..=20).map(|n| format!("L{n}")).collect();
    let mut free: Vec<(usize, usize)> = (2..8).flat_map(|r| (0..10).map(move |f| (r, f))).collect();
    for name in (1..=10).map(|n| format!("R{n}")).chain((11..=20).map(|n| format!("Y{n}"))) {
        let (r, f) = free.swap_remove(rng.random_range(0..free.len()));
        grid[r][f] = name;
    }
    let mut text = String::from("to-move: red\nmoves: 40 40\n");
    for row in grid {
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    text
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let budget: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let positions: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let game = Colorito::standard();
    let mut worst = 0.0f64;
    for seed in 0..positions {
        let state = game.position(&position(seed)).expect("a valid position");
        let t = Instant::now();
        let score = min_moves(&state, Side::Red, budget);
        let secs = t.elapsed().as_secs_f64();
        let per_million = secs / (budget as f64 / 1e6);
        worst = worst.max(per_million);
        println!("position {seed}: {score:?} in {secs:.3} s ({per_million:.3} s per million nodes)");
    }
    println!("worst: {worst:.3} s per million nodes (budget {budget})");
}

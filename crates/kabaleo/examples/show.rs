//! Print a seeded game after some random moves, as one reader sees it.
//!
//! `cargo run -p plateau-kabaleo --example show -- [players] [seed] [plies] [reader] [color]`
//! where reader is a seat number from 1, `spectator` or `referee`.

use plateau_core::rand::{RngExt, SeedableRng};
use plateau_core::{Game, Reader, State};
use plateau_kabaleo::{Deal, Kabaleo};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let (players, seed, plies) = (arg(1, 2) as usize, arg(2, 0), arg(3, 0));
    let reader = match args.get(4).map(String::as_str) {
        Some("spectator") => Reader::Spectator,
        Some("referee") | None => Reader::Referee,
        Some(n) => Reader::Seat(n.parse::<usize>().unwrap_or(1).saturating_sub(1)),
    };
    let color = args.get(5).is_some_and(|c| c == "color");
    let game = match Kabaleo::new(players, Deal::Random, None, true) {
        Ok(g) => g,
        Err(e) => return eprintln!("{e}"),
    };
    let mut s = game.start(seed);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        s.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        s.apply(moves[rng.random_range(0..moves.len())]);
    }
    print!("{}", s.render(reader, color));
}

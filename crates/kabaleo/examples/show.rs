//! Print the start position of a seeded game, as the referee sees it.
//!
//! `cargo run -p plateau-kabaleo --example show -- [players] [seed] [even]`

use plateau_core::{Game, Reader, State};
use plateau_kabaleo::{Deal, Kabaleo};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2);
    let seed = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(0);
    let deal = if args.get(3).map(String::as_str) == Some("even") { Deal::Even } else { Deal::Random };
    match Kabaleo::new(players, deal, None, false) {
        Ok(game) => {
            let s = game.start(seed);
            println!("{}", s.position());
            println!("{}", s.render(Reader::Referee, false));
        }
        Err(e) => eprintln!("{e}"),
    }
}

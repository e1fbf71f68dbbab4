use plateau_colorito::*;
use plateau_core::{Game, State, perft::perft};
fn main() {
    let g = Colorito::standard();
    let mut s = g.start(0);
    print!("{}", plateau_core::State::render(&s, plateau_core::Reader::Spectator, false));
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    println!("{} moves: {:?}", v.len(), v.iter().map(|m| m.to_string()).collect::<Vec<_>>());
    for d in 1..=4 {
        let t = std::time::Instant::now();
        let n = perft(&mut s, d);
        println!("perft({d}) = {n} in {:?}", t.elapsed());
    }
}

//! Measure the difficulty of the sheets: seeded games between the same simple
//! players on every sheet, and per game the lines made, the stones captured,
//! the plies, plus the holes in reach of a line per turn.
//!
//! ```text
//! cargo run --release -p plateau-abraxas --example sheet-stats -- [--games N] [--seed S] [--random] [--sheet SHEET]...
//! ```
//!
//! Without `--sheet`, the six levels; `--sheet` takes what the `sheet` option
//! takes (a level, an inline sheet), or a sheet file's path (this tool reads
//! it). `--games` defaults to 1000 per
//! sheet. With `--random` both players choose uniformly among the legal moves;
//! otherwise the players (both the same) are:
//!
//! - placement: the red placement (or move, once the reserve is empty) whose
//!   push makes lines worth the most stones (each line counted on its own);
//!   when none scores, the one that leaves the opponent the fewest holes in
//!   reach of a line ([`AbraxasState::line_threats`]), and no line made by the
//!   push alone; ties broken at random; never a stop stone in its own turn;
//! - removals: a random legal choice;
//! - interlude: a stop stone where it takes every line out of the scorer's
//!   reach, if there is such a hole, else `pass`.

use plateau_abraxas::{Abraxas, AbraxasState, Move, Phase, Sheet};
use plateau_core::{Game, State, Turn};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Totals over the games of one sheet.
#[derive(Clone, Debug, Default)]
pub struct SheetStats {
    /// Games played.
    pub games: u64,
    /// Lines made (found after a push).
    pub lines: u64,
    /// Red stones taken.
    pub captures: u64,
    /// Moves of any kind.
    pub plies: u64,
    /// Turns (placements).
    pub turns: u64,
    /// Holes in reach of a line, summed over turns.
    pub reach: u64,
    /// Games drawn.
    pub draws: u64,
}

impl SheetStats {
    /// Lines per game.
    pub fn lines_per_game(&self) -> f64 {
        self.lines as f64 / self.games.max(1) as f64
    }
    /// Captures per game.
    pub fn captures_per_game(&self) -> f64 {
        self.captures as f64 / self.games.max(1) as f64
    }
    /// Plies per game.
    pub fn plies_per_game(&self) -> f64 {
        self.plies as f64 / self.games.max(1) as f64
    }
    /// Holes in reach of a line per turn.
    pub fn reach_per_turn(&self) -> f64 {
        self.reach as f64 / self.turns.max(1) as f64
    }
}

/// What the next player to place can expect from `s` (a state at the start
/// of a turn): the holes in reach of a line, and heavily, lines that the push
/// makes whatever is placed.
fn danger(s: &AbraxasState) -> u32 {
    s.line_threats().len() + 10 * u32::from(!s.lines_after_push().is_empty())
}

/// The simple player's choice among `moves` in `s`.
pub fn choose(s: &mut AbraxasState, moves: &[Move], rng: &mut ChaCha8Rng) -> Move {
    let mut best = Vec::with_capacity(moves.len());
    let mut best_value = i64::MIN;
    let mut consider = |mv: Move, value: i64, best: &mut Vec<Move>| {
        if value > best_value {
            best_value = value;
            best.clear();
        }
        if value == best_value {
            best.push(mv);
        }
    };
    match s.phase() {
        Phase::Score => return moves[rng.random_range(0..moves.len())],
        Phase::Interlude => {
            // A stop stone only if it takes every line out of the scorer's reach.
            for &mv in moves {
                let undo = s.apply(mv);
                let d = danger(s) as i64;
                s.undo(mv, undo);
                let value = match mv {
                    Move::Pass => 0,
                    _ if d == 0 => 1,
                    _ => -1,
                };
                consider(mv, value, &mut best);
            }
        }
        Phase::Place => {
            for &mv in moves {
                if matches!(mv, Move::Stop(_)) {
                    continue;
                }
                let undo = s.apply(mv);
                let value = if s.end().is_some() {
                    0
                } else if s.phase() == Phase::Score {
                    100 * s.pending_value() as i64
                } else {
                    -(danger(s) as i64)
                };
                s.undo(mv, undo);
                consider(mv, value, &mut best);
            }
        }
    }
    if best.is_empty() {
        return moves[rng.random_range(0..moves.len())];
    }
    best[rng.random_range(0..best.len())]
}

/// Play `games` seeded games on `sheet` and total them.
pub fn measure(sheet: &Sheet, games: u64, seed: u64, random: bool) -> SheetStats {
    let game = Abraxas::new(sheet.clone());
    let mut st = SheetStats::default();
    let mut moves = Vec::with_capacity(1024);
    for g in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(g));
        let mut s = game.start(0);
        while s.to_move() != Turn::Over {
            s.legal_moves(&mut moves);
            if s.phase() == Phase::Place {
                st.turns += 1;
                st.reach += s.line_threats().len() as u64;
            }
            let mv = if random { moves[rng.random_range(0..moves.len())] } else { choose(&mut s, &moves, &mut rng) };
            let before = s.taken(0) as u64 + s.taken(1) as u64;
            s.apply(mv);
            if matches!(mv, Move::Place(_) | Move::Relocate { .. } | Move::Stop(_)) && s.phase() == Phase::Score {
                st.lines += s.lines_made().len() as u64;
            }
            st.captures += s.taken(0) as u64 + s.taken(1) as u64 - before;
        }
        st.games += 1;
        st.plies += s.ply() as u64;
        if s.outcome().is_some_and(|o| o.is_draw()) {
            st.draws += 1;
        }
    }
    st
}

#[allow(dead_code)]
fn main() {
    let mut games = 1000u64;
    let mut seed = 1u64;
    let mut sheets: Vec<Sheet> = Vec::new();
    let mut random = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().unwrap_or_else(|| panic!("{name} needs a value"));
        match a.as_str() {
            "--games" => games = value("--games").parse().expect("--games N"),
            "--random" => random = true,
            "--seed" => seed = value("--seed").parse().expect("--seed S"),
            "--sheet" => sheets.push(load_sheet(&value("--sheet"))),
            other => panic!("unknown argument {other}; see the source for usage"),
        }
    }
    if sheets.is_empty() {
        sheets = (1..=6).map(|n| Sheet::level(n).expect("level")).collect();
    }
    println!(
        "{games} games per sheet, seeds {seed}..{}, {} players on both sides",
        seed + games,
        if random { "random" } else { "the same simple" }
    );
    println!();
    println!(
        "| sheet | dots | lines/game | captures/game | plies/game | lines/100 plies | captures/100 plies | in reach/turn | draws |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for sheet in &sheets {
        let s = measure(sheet, games, seed, random);
        println!(
            "| {} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.2} | {:.0}% |",
            sheet.name(),
            sheet.len(),
            s.lines_per_game(),
            s.captures_per_game(),
            s.plies_per_game(),
            100.0 * s.lines as f64 / s.plies.max(1) as f64,
            100.0 * s.captures as f64 / s.plies.max(1) as f64,
            s.reach_per_turn(),
            100.0 * s.draws as f64 / s.games.max(1) as f64
        );
    }
}

/// A sheet option value (a level, an inline sheet), or else a sheet file's
/// path: this tool reads the file itself (the game crate never does).
fn load_sheet(value: &str) -> Sheet {
    Sheet::from_option(value).unwrap_or_else(|e| {
        let text = std::fs::read_to_string(value).unwrap_or_else(|r| panic!("{e}; reading it as a file: {r}"));
        Sheet::parse(value, &text).unwrap_or_else(|e| panic!("{value}: {e}"))
    })
}

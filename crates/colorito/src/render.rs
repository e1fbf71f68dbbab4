//! The terminal drawing of a position.

use std::fmt::Write as _;

use plateau_core::State;

use crate::board::{Cell, Colour, SIZE, Side};
use crate::state::ColoritoState;

fn background(c: Colour) -> &'static str {
    match c {
        Colour::Red => "\x1b[41m",
        Colour::Yellow => "\x1b[43m",
        Colour::DarkBlue => "\x1b[44m",
        Colour::LightBlue => "\x1b[46m",
    }
}

/// Rank 10 at the top, as Red sees the board. A piece is shown by its short
/// name (`R3`, `Y11`, `D7`, `L15`); an empty cell by its colour in lower case
/// and its number (`r10`, `d`). With colour, each cell has its colour as
/// background.
pub(crate) fn render(s: &ColoritoState, color: bool) -> String {
    let b = &s.rules.board;
    let mut out = String::new();
    let files: String = (0..SIZE).map(|f| format!(" {:<3}", (b'a' + f as u8) as char)).collect();
    let _ = writeln!(out, "    {}", files.trim_end());
    let border: String = "─".repeat(SIZE * 4 + 1);
    let _ = writeln!(out, "   ┌{border}┐");
    for rank in (0..SIZE).rev() {
        let _ = write!(out, "{:>2} │", rank + 1);
        for file in 0..SIZE {
            let cell = Cell::new(file, rank).expect("on board");
            let text = match s.piece_at(cell) {
                Some(p) => p.to_string(),
                None => b.cell_text(cell).to_lowercase(),
            };
            if color {
                let fg = if s.piece_at(cell).is_some() { "\x1b[1;97m" } else { "\x1b[2;30m" };
                let _ = write!(out, "{}{fg} {text:<3}\x1b[0m", background(b.colour(cell)));
            } else {
                let _ = write!(out, " {text:<3}");
            }
        }
        let _ = writeln!(out, " │ {}", rank + 1);
    }
    let _ = writeln!(out, "   └{border}┘");
    let _ = writeln!(out, "    {}", files.trim_end());
    let [r, bl] = s.moves_made();
    let _ = write!(
        out,
        "Moves: Red {r}, Blue {bl} (of {}). Home: Red {}/20, Blue {}/20. ",
        s.rules.max_moves,
        s.home_count(Side::Red),
        s.home_count(Side::Blue)
    );
    match s.outcome() {
        None => {
            let extra = if s.in_extra_move() {
                format!(" ({} has finished: this is {}'s extra move)", s.rules.first.name(), s.side_to_move().name())
            } else {
                String::new()
            };
            let _ = writeln!(out, "{} to move.{extra}", s.side_to_move().name());
        }
        Some(o) => {
            match s.winner() {
                Some(w) => {
                    let _ = writeln!(out, "{} wins ({}).", w.name(), o.reason);
                }
                None => {
                    let _ = writeln!(out, "Draw ({}).", o.reason);
                }
            }
            if let Some((loser, score)) = s.score() {
                let _ = writeln!(out, "{}", score.describe(loser));
            }
        }
    }
    out
}

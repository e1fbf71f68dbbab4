//! The text form of positions, the view, and the terminal drawing.
//!
//! # Position text
//!
//! Like chess's FEN: the rows from `I` (top) to `A` (bottom) separated by `/`,
//! each row from its lowest number to its highest, `b` for a black marble, `w`
//! for a white one, and a digit for a run of empty cells; then the side to move
//! (`b` or `w`); then, optionally, the marbles pushed out by Black and by White.
//! The standard layout is
//!
//! ```text
//! wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 0 0
//! ```

use std::fmt::Write as _;

use plateau_core::{Reader, Seat};
use serde::Serialize;

use crate::board::{Bits, Cell, cells};
use crate::state::{AbaloneState, Rules, Status};

const ROW_LEN: [u8; 9] = [5, 6, 7, 8, 9, 8, 7, 6, 5];

fn row_cells(row: u8) -> impl Iterator<Item = Cell> {
    (1..=9).filter_map(move |n| Cell::new(row, n))
}

/// Parse the text form of a position.
pub fn parse_position(text: &str, rules: Rules) -> Result<AbaloneState, String> {
    let mut parts = text.split_whitespace();
    let board = parts.next().ok_or("the position is empty")?;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 9 {
        return Err(format!("a position has 9 rows separated by '/', this one has {}", rows.len()));
    }
    let mut bb: [Bits; 2] = [0, 0];
    for (i, row_text) in rows.iter().enumerate() {
        let row = 8 - i as u8;
        let name = (b'A' + row) as char;
        let mut cs = row_cells(row);
        let mut placed = 0u8;
        for ch in row_text.chars() {
            match ch {
                'b' | 'B' | 'w' | 'W' => {
                    let c =
                        cs.next().ok_or_else(|| format!("row {name} has more than {} cells", ROW_LEN[row as usize]))?;
                    bb[usize::from(ch.eq_ignore_ascii_case(&'w'))] |= c.bit();
                    placed += 1;
                }
                '1'..='9' => {
                    for _ in 0..ch as u8 - b'0' {
                        cs.next().ok_or_else(|| format!("row {name} has more than {} cells", ROW_LEN[row as usize]))?;
                        placed += 1;
                    }
                }
                _ => return Err(format!("row {name}: {ch:?} is not b, w or a digit")),
            }
        }
        if placed != ROW_LEN[row as usize] {
            return Err(format!("row {name} has {} cells, but the text gives {placed}", ROW_LEN[row as usize]));
        }
    }
    let side: Seat = match parts.next() {
        None | Some("b") | Some("B") => 0,
        Some("w") | Some("W") => 1,
        Some(s) => return Err(format!("the side to move is b or w, not {s:?}")),
    };
    let mut captured = [0u8; 2];
    for c in captured.iter_mut() {
        if let Some(t) = parts.next() {
            *c = t.parse().map_err(|_| format!("marbles pushed out must be a number, not {t:?}"))?;
            if *c > 14 {
                return Err(format!("at most 14 marbles can be pushed out, not {c}"));
            }
        }
    }
    if let Some(extra) = parts.next() {
        return Err(format!("unexpected {extra:?} after the position"));
    }
    for (side, name) in [(0, "black"), (1, "white")] {
        let on_board = bb[side].count_ones() as u8;
        if on_board + captured[1 - side] > 14 {
            return Err(format!(
                "{on_board} {name} marbles on the board and {} pushed out make more than 14",
                captured[1 - side]
            ));
        }
    }
    Ok(AbaloneState::from_parts(bb[0], bb[1], side, captured, rules))
}

/// Write the text form of a position.
pub fn format_position(s: &AbaloneState) -> String {
    let mut out = String::with_capacity(48);
    push_position(s, &mut out);
    out
}

/// [`format_position`], appended to `out` (the view's hot path: no
/// allocation, no formatting machinery; a row's run of empty cells is at
/// most 9, one digit).
pub(crate) fn push_position(s: &AbaloneState, out: &mut String) {
    for row in (0..9u8).rev() {
        let mut run = 0u8;
        for c in row_cells(row) {
            let ch = if s.bb[0] & c.bit() != 0 {
                'b'
            } else if s.bb[1] & c.bit() != 0 {
                'w'
            } else {
                run += 1;
                continue;
            };
            if run > 0 {
                out.push(char::from(b'0' + run));
                run = 0;
            }
            out.push(ch);
        }
        if run > 0 {
            out.push(char::from(b'0' + run));
        }
        if row > 0 {
            out.push('/');
        }
    }
    out.push_str(if s.side == 0 { " b " } else { " w " });
    plateau_core::json::push_u64(out, u64::from(s.captured[0]));
    out.push(' ');
    plateau_core::json::push_u64(out, u64::from(s.captured[1]));
}

/// Marbles pushed out, by the side that pushed them.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Captured {
    /// Pushed out by Black (white marbles).
    pub black: u8,
    /// Pushed out by White (black marbles).
    pub white: u8,
}

/// What anyone may see of an Abalone position (Abalone has no hidden
/// information).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct AbaloneView {
    /// The position in its text form.
    pub position: String,
    /// Cells of the black marbles.
    pub black: Vec<String>,
    /// Cells of the white marbles.
    pub white: Vec<String>,
    /// `black` or `white`; absent when the game is over.
    pub to_move: Option<&'static str>,
    /// Marbles pushed out by each side.
    pub captured: Captured,
    /// Marbles to push out to win.
    pub marbles_to_win: u8,
    /// The ply limit, if any.
    pub max_plies: Option<u32>,
    /// How many times the current position has occurred.
    pub repetitions: usize,
}

pub(crate) fn view(s: &AbaloneState, _reader: Reader) -> AbaloneView {
    AbaloneView {
        position: format_position(s),
        black: cells(s.bb[0]).map(|c| c.to_string()).collect(),
        white: cells(s.bb[1]).map(|c| c.to_string()).collect(),
        to_move: match s.status {
            Status::Ongoing => Some(if s.side == 0 { "black" } else { "white" }),
            _ => None,
        },
        captured: Captured { black: s.captured[0], white: s.captured[1] },
        marbles_to_win: s.rules.marbles_to_win,
        max_plies: s.rules.max_plies,
        repetitions: s.repetitions(),
    }
}

/// [`view`] as JSON, written straight (serde_json's compact text of the
/// same fields, in the same order): no `String` per cell, no JSON tree.
pub(crate) fn write_view_json(s: &AbaloneState, out: &mut String) {
    use plateau_core::json::push_u64;
    // The position's text is letters, digits, `/` and spaces: no escaping.
    out.push_str("{\"position\":\"");
    push_position(s, out);
    for (name, side) in [("\",\"black\":[", 0), ("],\"white\":[", 1)] {
        out.push_str(name);
        for (i, c) in cells(s.bb[side]).enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push('"');
            c.push_to(out);
            out.push('"');
        }
    }
    out.push_str("],\"to_move\":");
    out.push_str(match s.status {
        Status::Ongoing if s.side == 0 => "\"black\"",
        Status::Ongoing => "\"white\"",
        _ => "null",
    });
    out.push_str(",\"captured\":{\"black\":");
    push_u64(out, s.captured[0] as u64);
    out.push_str(",\"white\":");
    push_u64(out, s.captured[1] as u64);
    out.push_str("},\"marbles_to_win\":");
    push_u64(out, s.rules.marbles_to_win as u64);
    out.push_str(",\"max_plies\":");
    match s.rules.max_plies {
        Some(n) => push_u64(out, n as u64),
        None => out.push_str("null"),
    }
    out.push_str(",\"repetitions\":");
    push_u64(out, s.repetitions() as u64);
    out.push('}');
}

/// The board as in printed diagrams: row `I` on top, the numbers 1–5 under row
/// `A` and 6–9 at the right of rows `A`–`D`, at the foot of each diagonal.
pub(crate) fn render(s: &AbaloneState, color: bool) -> String {
    let (b, w, e) =
        if color { ("\x1b[1;94m●\x1b[0m", "\x1b[1;97m○\x1b[0m", "\x1b[2m·\x1b[0m") } else { ("●", "○", "·") };
    let mut out = String::new();
    for row in (0..9u8).rev() {
        let indent = (row as i32 - 4).unsigned_abs() as usize;
        let _ = write!(out, "{:indent$}{} ", "", (b'A' + row) as char, indent = indent + 2);
        let mut first = true;
        for c in row_cells(row) {
            if !first {
                out.push(' ');
            }
            first = false;
            out.push_str(if s.bb[0] & c.bit() != 0 {
                b
            } else if s.bb[1] & c.bit() != 0 {
                w
            } else {
                e
            });
        }
        if row <= 3 {
            let _ = write!(out, " {}", row + 6);
        }
        match row {
            8 => {
                let _ = write!(out, "      ○ White  pushed out {}", s.captured[1]);
            }
            7 => {
                let _ = write!(out, "     ● Black  pushed out {}", s.captured[0]);
            }
            6 => {
                let to_move = match s.status {
                    Status::Ongoing => format!("{} to move", if s.side == 0 { "Black ●" } else { "White ○" }),
                    Status::Won(x, why) => format!("{} wins ({why})", if x == 0 { "Black" } else { "White" }),
                    Status::Drawn(why) => format!("draw ({why})"),
                };
                let _ = write!(out, "    {to_move}");
            }
            _ => {}
        }
        out.push('\n');
    }
    out.push_str("         1 2 3 4 5\n");
    out
}

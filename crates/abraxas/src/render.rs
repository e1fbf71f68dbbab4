//! What readers see: the serializable view and the terminal drawing.

use std::fmt::Write as _;

use crate::board::{Bitboard, Cell, Line, SIZE};
use crate::state::{AbraxasState, End, Phase};

/// What any reader sees of a position (Abraxas has no hidden information).
/// Seats are counted from 0; cells are named like `d4`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct AbraxasView {
    /// The sheet's name (`level-1`, `inline`, a file path, or `position`).
    pub sheet: String,
    /// Where the plate stands (`bottom-left`, …).
    pub plate: &'static str,
    /// The cells the plate covers (`a1–h8`).
    pub plate_cells: String,
    /// Every dot of the sheet (covered or not).
    pub dots: Vec<String>,
    /// The red stones in the plate.
    pub red_stones: Vec<String>,
    /// The stop stones each seat placed.
    pub stop_stones: [Vec<String>; 2],
    /// The cells that show a red circle (red stones and uncovered dots).
    pub red_circles: Vec<String>,
    /// Red stones left in the common reserve.
    pub reserve: u8,
    /// Red stones taken by each seat.
    pub taken: [u8; 2],
    /// Stop stones each seat still holds.
    pub stops_in_hand: [u8; 2],
    /// `place`, `score`, `interlude` or `over`.
    pub phase: &'static str,
    /// The seat who made the lines being scored, or who plays again after
    /// the interlude.
    pub scorer: Option<usize>,
    /// The lines found after the last push, each as its cells.
    pub lines_made: Vec<Vec<String>>,
    /// The lines still to score, each as its cells.
    pub lines_to_score: Vec<Vec<String>>,
    /// The stones needed to win.
    pub stones_to_win: u8,
    /// Why the game ended, if it did.
    pub end: Option<&'static str>,
}

fn names(b: Bitboard) -> Vec<String> {
    b.iter().map(|c| c.to_string()).collect()
}

fn line_names(lines: &[Line]) -> Vec<Vec<String>> {
    lines.iter().map(|l| l.cells().map(|c| c.to_string()).collect()).collect()
}

pub(crate) fn view(s: &AbraxasState) -> AbraxasView {
    AbraxasView {
        sheet: s.sheet_name().to_string(),
        plate: s.plate().name(),
        plate_cells: s.plate().range(),
        dots: names(s.dots()),
        red_stones: names(s.red_stones()),
        stop_stones: [names(s.stop_stones(0)), names(s.stop_stones(1))],
        red_circles: names(s.red_circles()),
        reserve: s.reserve(),
        taken: [s.taken(0), s.taken(1)],
        stops_in_hand: [s.stops_in_hand(0), s.stops_in_hand(1)],
        phase: if s.end().is_some() {
            "over"
        } else {
            match s.phase() {
                Phase::Place => "place",
                Phase::Score => "score",
                Phase::Interlude => "interlude",
            }
        },
        scorer: s.scorer(),
        lines_made: line_names(&s.lines_made()),
        lines_to_score: line_names(&s.pending_lines()),
        stones_to_win: s.stones_to_win(),
        end: s.end().map(End::reason),
    }
}

const RED: &str = "\x1b[1;31m";
const BLUE: &str = "\x1b[1;34m";
const DIM: &str = "\x1b[2m";
const MARK: &str = "\x1b[1;33m";
const RESET: &str = "\x1b[0m";

/// The drawing: one cell is three characters wide. Legend:
///
/// - `·` a frame cell outside the plate, `•` one with a (visible, red) dot;
/// - `○` an empty hole, `◉` an empty hole over a dot (red);
/// - `●` a red stone; `◆` a stop stone of player 1, `◇` of player 2;
/// - `[ ]` around a cell: it is in a line made by the last push.
pub(crate) fn render(s: &AbraxasState, color: bool) -> String {
    let mut out = String::new();
    let paint = |out: &mut String, code: &str, glyph: &str| {
        if color {
            let _ = write!(out, "{code}{glyph}{RESET}");
        } else {
            out.push_str(glyph);
        }
    };
    let files = "    a  b  c  d  e  f  g  h  i\n";
    out.push_str(files);
    let holes = s.holes();
    let dots = s.dots();
    let made = s.made_cells();
    for rank in (0..SIZE).rev() {
        let _ = write!(out, "{} ", rank + 1);
        for file in 0..SIZE {
            let c = Cell::new(file, rank).expect("9×9");
            let marked = made.contains(c);
            if marked {
                paint(&mut out, MARK, "[");
            } else {
                out.push(' ');
            }
            let dot = dots.contains(c);
            if !holes.contains(c) {
                if dot { paint(&mut out, RED, "•") } else { paint(&mut out, DIM, "·") }
            } else if s.red_stones().contains(c) {
                paint(&mut out, RED, "●");
            } else if s.stop_stones(0).contains(c) {
                paint(&mut out, BLUE, "◆");
            } else if s.stop_stones(1).contains(c) {
                paint(&mut out, BLUE, "◇");
            } else if dot {
                paint(&mut out, RED, "◉");
            } else {
                out.push('○');
            }
            if marked {
                paint(&mut out, MARK, "]");
            } else {
                out.push(' ');
            }
        }
        let _ = writeln!(out, " {}", rank + 1);
    }
    out.push_str(files);
    let _ = writeln!(
        out,
        "Sheet {} · plate {} ({}), next push to {}",
        s.sheet_name(),
        s.plate().name(),
        s.plate().range(),
        s.plate().next().name()
    );
    let _ = writeln!(
        out,
        "Reserve {} · Player 1: {} taken, {} stop stones · Player 2: {} taken, {} stop stones · {} to win",
        s.reserve(),
        s.taken(0),
        s.stops_in_hand(0),
        s.taken(1),
        s.stops_in_hand(1),
        s.stones_to_win()
    );
    let lines = |ls: Vec<Line>| ls.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(", ");
    let made_lines = s.lines_made();
    if !made_lines.is_empty() {
        let _ = writeln!(out, "Lines made by the last push: {}", lines(made_lines));
    }
    let who = |seat: usize| format!("Player {}", seat + 1);
    match s.end() {
        Some(End::Win(w)) => {
            let _ = writeln!(out, "{} wins with {} stones.", who(w as usize), s.taken(w as usize));
        }
        Some(e) => {
            let _ = writeln!(out, "Draw: {}.", e.reason());
        }
        None => {
            let m = match plateau_core::State::to_move(s) {
                plateau_core::Turn::Seat(m) => m,
                plateau_core::Turn::Over => 0,
            };
            let _ = match s.phase() {
                Phase::Place if s.reserve() > 0 => writeln!(out, "{} to place a red stone or a stop stone.", who(m)),
                Phase::Place => {
                    writeln!(out, "{} to move a red stone (the reserve is empty) or place a stop stone.", who(m))
                }
                Phase::Score => writeln!(out, "{} takes stones from a line: {}.", who(m), lines(s.pending_lines())),
                Phase::Interlude => {
                    writeln!(out, "{} may place a stop stone before {} plays again, or pass.", who(m), who(1 - m))
                }
            };
        }
    }
    out
}

//! The text form of a position, to build any position (tests, analysis,
//! puzzles) and to print one.
//!
//! ```text
//! # a comment
//! plate: bottom-left
//! to-move: 1
//! taken: 0 0
//! stops: 3 3
//! . . . . . . . . .
//! . . . . . . . . .
//! . . o . . . . . .
//! . . . . . . . . .
//! . . . r R o . . .
//! . . . . . . . . .
//! . . s . . . . . .
//! . . . . . . . . .
//! . . . . . . . . .
//! ```
//!
//! - Header lines are `name: value`, in any order, all optional:
//!   `plate` (where the plate stands, default `bottom-left`), `to-move`
//!   (`1` or `2`, the player about to place, default 1), `taken` (the red
//!   stones each player holds, default `0 0`), `stops` (the stop stones each
//!   player still holds, default 3 less those on the board).
//! - The grid is 9 rows of 9 cells, rank 9 first, file `a` on the left, as a
//!   sheet file (spaces inside a row are ignored). A cell is `.` (nothing)
//!   or `o` (a dot, uncovered); `r` a red stone, `R` a red stone over a dot;
//!   `s` / `S` a stop stone of player 1 (over no dot / over a dot), `t` / `T`
//!   a stop stone of player 2. Stones must lie under the plate.
//! - The reserve is what is left of the 24 red stones: 24 less the stones on
//!   the board and those taken.
//!
//! The position is a turn's start: the player to move places a stone (no line
//! is being scored). The dots of the grid are the position's sheet; the
//! options (`stones-to-win`, `removal`, `max-plies`) are the game's.

use std::fmt::Write as _;
use std::sync::Arc;

use crate::board::{BOARD, Cell, PlatePos, SIZE};
use crate::sheet::{Sheet, parse_grid};
use crate::state::{AbraxasState, Phase, RED_STONES, Rules, STOP_STONES};

pub(crate) fn from_text(rules: Rules, text: &str) -> Result<AbraxasState, String> {
    let mut plate = PlatePos::BottomLeft;
    let mut mover = 0u8;
    let mut taken = [0u8; 2];
    let mut stops: Option<[u8; 2]> = None;
    let mut grid = String::with_capacity(text.len());
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if line.starts_with('#') || !line.contains(':') {
            grid.push_str(raw);
            grid.push('\n');
            continue;
        }
        grid.push('\n');
        let (name, value) = line.split_once(':').expect("contains ':'");
        let value = value.trim();
        let pair = |what: &str| -> Result<[u8; 2], String> {
            let nums: Vec<&str> =
                value.split(|c: char| c.is_whitespace() || c == ',').filter(|s| !s.is_empty()).collect();
            match nums.as_slice() {
                [a, b] => match (a.parse::<u8>(), b.parse::<u8>()) {
                    (Ok(a), Ok(b)) => Ok([a, b]),
                    _ => Err(format!("line {line_no}: {what} needs two whole numbers, got {value:?}")),
                },
                _ => Err(format!("line {line_no}: {what} needs two numbers (player 1, player 2), got {value:?}")),
            }
        };
        match name.trim().to_ascii_lowercase().as_str() {
            "plate" => {
                plate = PlatePos::from_name(value).ok_or_else(|| {
                    format!("line {line_no}: plate {value:?} is not bottom-left, bottom-right, top-right or top-left")
                })?
            }
            "to-move" => {
                mover = match value {
                    "1" => 0,
                    "2" => 1,
                    _ => return Err(format!("line {line_no}: to-move is 1 or 2, not {value:?}")),
                }
            }
            "taken" => taken = pair("taken")?,
            "stops" => stops = Some(pair("stops")?),
            other => {
                return Err(format!(
                    "line {line_no}: unknown header {other:?} (the headers are plate, to-move, taken, stops)"
                ));
            }
        }
    }
    let rows = parse_grid(&grid)?;
    let (mut dots, mut red, mut stop) = (0u128, 0u128, [0u128; 2]);
    for (row, line_no, cells) in rows {
        let rank = SIZE - 1 - row;
        for (file, ch) in cells.iter().enumerate() {
            let c = Cell::new(file as u8, rank).expect("9×9");
            let b = c.bit();
            match ch {
                '.' => {}
                'o' => dots |= b,
                'r' | 'R' => red |= b,
                's' | 'S' => stop[0] |= b,
                't' | 'T' => stop[1] |= b,
                other => {
                    return Err(format!("line {line_no}, cell {c}: {other:?} is not one of . o r R s S t T"));
                }
            }
            if ch.is_ascii_uppercase() {
                dots |= b;
            }
            if matches!(ch, 'r' | 'R' | 's' | 'S' | 't' | 'T') && !plate.holes().contains(c) {
                return Err(format!(
                    "cell {c}: a stone outside the plate (at {} it covers {})",
                    plate.name(),
                    plate.range()
                ));
            }
        }
    }
    Sheet::from_dots("position", dots)?;
    let on_board = red.count_ones();
    let used = on_board + taken[0] as u32 + taken[1] as u32;
    if used > RED_STONES as u32 {
        return Err(format!(
            "{on_board} red stones on the board and {} taken: there are only {RED_STONES}",
            taken[0] as u32 + taken[1] as u32
        ));
    }
    for (s, &t) in taken.iter().enumerate() {
        if t >= rules.stones_to_win {
            return Err(format!(
                "player {} already holds {t} stones ({} win): the game would be over",
                s + 1,
                rules.stones_to_win
            ));
        }
    }
    let placed = [stop[0].count_ones() as u8, stop[1].count_ones() as u8];
    let stops = match stops {
        Some(h) => h,
        None => [STOP_STONES.saturating_sub(placed[0]), STOP_STONES.saturating_sub(placed[1])],
    };
    for (s, (&p, &h)) in placed.iter().zip(stops.iter()).enumerate() {
        if p as u32 + h as u32 > STOP_STONES as u32 {
            return Err(format!(
                "player {} has {p} stop stones on the board and {h} in hand: each player has {STOP_STONES}",
                s + 1
            ));
        }
    }
    let rules = Rules { dots: dots & BOARD.0, ..rules };
    let mut st = AbraxasState::new(rules, Arc::from("position"), plate);
    st.c.red = red;
    st.c.stop = stop;
    st.c.reserve = (RED_STONES as u32 - used) as u8;
    st.c.taken = taken;
    st.c.stops = stops;
    st.c.mover = mover;
    st.c.key = st.compute_key();
    st.history.clear();
    st.history.push(st.c.key);
    // A position where the player to move cannot place is over at once.
    let mut probe = Vec::new();
    plateau_core::State::legal_moves(&st, &mut probe);
    if probe.is_empty() {
        return Err("the player to move has no legal placement".into());
    }
    Ok(st)
}

pub(crate) fn to_text(s: &AbraxasState) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "plate: {}", s.plate().name());
    let mover = match plateau_core::State::to_move(s) {
        plateau_core::Turn::Seat(m) => m,
        plateau_core::Turn::Over => s.c.mover as usize,
    };
    if s.phase() != Phase::Place || s.end().is_some() {
        let _ = writeln!(
            out,
            "# phase {:?} of player {}, lines to score {:?}, end {:?} (the text form keeps only the stones)",
            s.phase(),
            mover + 1,
            s.pending_lines().iter().map(|l| l.to_string()).collect::<Vec<_>>(),
            s.end()
        );
    }
    let _ = writeln!(out, "to-move: {}", mover + 1);
    let _ = writeln!(out, "taken: {} {}", s.taken(0), s.taken(1));
    let _ = writeln!(out, "stops: {} {}", s.stops_in_hand(0), s.stops_in_hand(1));
    let dots = s.dots();
    for rank in (0..SIZE).rev() {
        for file in 0..SIZE {
            let c = Cell::new(file, rank).expect("9×9");
            let dot = dots.contains(c);
            let ch = if s.red_stones().contains(c) {
                'r'
            } else if s.stop_stones(0).contains(c) {
                's'
            } else if s.stop_stones(1).contains(c) {
                't'
            } else if dot {
                'o'
            } else {
                '.'
            };
            if file > 0 {
                out.push(' ');
            }
            out.push(if dot && ch != 'o' { ch.to_ascii_uppercase() } else { ch });
        }
        out.push('\n');
    }
    out
}

impl AbraxasState {
    /// The position in the text form (see [`crate::position`]). For a state
    /// in the middle of scoring or in the interlude, a comment says so: the
    /// text form itself always describes a turn's start.
    pub fn to_text(&self) -> String {
        to_text(self)
    }
}

//! Moves as integers and positions as tensors ([`plateau_core::Encode`]),
//! for learning programs. `docs/encoding/abraxas.md` says the same with
//! tables.
//!
//! # Cells
//!
//! The board is always the 9×9 frame, whatever the sheet, the plate's start
//! or the other options: every configured game has the same action space and
//! observation shape. A cell's index is `9 × rank + file`, both counted from
//! 0: `a1` = 0, `i1` = 8, `a2` = 9, `d4` = 30, `i9` = 80. Actions and the
//! observation use the board's own squares, never the plate's holes (a hole
//! is named by the cell it lies over at that moment, as in the notation), and
//! are the same for both seats: nothing is turned round for the second
//! player (the rules are the same for both, and the red stones are common).
//!
//! # Actions
//!
//! Every action but `pass` is `plane × 81 + cell`, so that a policy head can
//! be `1107` planes of 9×9 and one more number:
//!
//! | move | action | count |
//! |---|---|---|
//! | `d4`: a red stone into the hole over `cell` | `cell` | 81 |
//! | `b:d4`: a stop stone (own turn or interlude) | `81 + cell` | 81 |
//! | `d4-f6`: move a red stone (reserve empty) | `162 + 81 × from + to` | 6,561 |
//! | `x:…`: stones taken from one line | `6723 + 81 × (256 × dir + rest) + first` | 82,944 |
//! | `pass` | `89667` | 1 |
//!
//! The action space has **89,668** actions for every variant and option.
//!
//! A removal names the line's direction `dir` (0 row `h`, 1 column `v`,
//! 2 diagonal a1–i9 `d`, 3 diagonal i1–a9 `a`), the **first** stone taken
//! (`first`: the taken cell nearest the line's start, its lowest cell: the
//! leftmost for a row, the lowest rank for the other directions) and the other stones taken as the
//! 8-bit number `rest`: bit `j` (0 to 7) is set when the cell `j + 1` steps
//! after `first` in the line's direction is taken too. The line itself is
//! the one line still to score in direction `dir` through `first` (lines to
//! score in one direction never touch), so `(dir, first, rest)` names one
//! removal in any position. A single stone taken from a line is `rest = 0`.
//!
//! Worked examples (hand-computed; the tests check them):
//!
//! - `d4` (file 3, rank 3): cell 30, action **30**; `b:d4` is **111**.
//! - `d4-f6`: f6 is 9 × 5 + 5 = 50; 162 + 81 × 30 + 50 = **2642**.
//! - `x:c2,e2` from a row: first c2 = 9 + 2 = 11, e2 is two steps after it so
//!   bit 1 of `rest` (rest = 2): 6723 + 81 × (0 + 2) + 11 = **6896**.
//! - `x:e3/v` (one stone, from a column): 6723 + 81 × 256 + 22 = **27481**.
//!
//! [`Encode::move_of`] returns `None` above 89,667, for a move of a stone to
//! its own hole (`from == to`), and for a removal when no line to score in
//! `dir` holds `first` or when `rest` reaches past that line's end. A move it
//! returns may still be illegal (the wrong phase, a covered hole, a dot
//! instead of a stone, the removal restriction): [`plateau_core::State::check`]
//! says, and the legal actions are exactly the actions of the legal moves.
//!
//! # Observation
//!
//! Shape `[21, 9, 9]` for every variant: plane `p`, row = rank index (row 0
//! is rank 1, the first player's side), column = file index (0 is `a`);
//! number `81 × p + 9 × rank + file` of the flat buffer, so that a board
//! plane lines up with the `cell` of the actions. "Mine" is the observing
//! seat's, "theirs" the other seat's. Every value is 0 or 1 except the
//! constant planes, which hold a count divided by its maximum.
//!
//! | # | name | meaning |
//! |---|---|---|
//! | 0 | `dots` | the sheet's dots (covered or not) |
//! | 1 | `holes` | the 64 cells the plate covers now (where it stands) |
//! | 2 | `red_stones` | red stones (in the plate) |
//! | 3 | `my_stops` | stop stones I placed |
//! | 4 | `their_stops` | stop stones the opponent placed |
//! | 5 | `red_circles` | cells showing a red circle: a red stone, or a dot no stone covers |
//! | 6 | `score_row` | cells of the row lines still to score |
//! | 7 | `score_column` | cells of the column lines still to score |
//! | 8 | `score_diagonal` | cells of the a1–i9 diagonal lines still to score |
//! | 9 | `score_anti_diagonal` | cells of the i1–a9 diagonal lines still to score |
//! | 10 | `reserve` | red stones in the reserve ÷ 24 |
//! | 11 | `my_taken` | stones I hold ÷ `stones-to-win` (at most 1) |
//! | 12 | `their_taken` | stones the opponent holds ÷ `stones-to-win` (at most 1) |
//! | 13 | `my_stops_in_hand` | my stop stones in hand ÷ 3 |
//! | 14 | `their_stops_in_hand` | the opponent's stop stones in hand ÷ 3 |
//! | 15 | `phase_place` | 1: a turn's placement is being decided |
//! | 16 | `phase_score` | 1: the scorer is taking stones from a line |
//! | 17 | `phase_interlude` | 1: the scorer's opponent may place a stop stone or pass |
//! | 18 | `my_decision` | 1: I decide now (0 for the other seat, and once the game is over) |
//! | 19 | `stones_to_win` | the option `stones-to-win` ÷ 12 |
//! | 20 | `ply` | moves played ÷ `max-plies` |
//!
//! Planes 10 to 20 are constant over the board. The phase planes are all 0
//! once the game is over. Who scores is the decider in `phase_score` and the
//! other seat in `phase_interlude`.
//!
//! Not in the observation: the history of positions for the draw by
//! threefold repetition, and the lines made by the last push once they are
//! scored or broken (shown by the views, not used by the rules). Everything
//! else the rules depend on is there; Abraxas has no hidden information.

use plateau_core::{Encode, Seat, State, Turn};

use crate::board::{Cell, Dir, cells};
use crate::state::{AbraxasState, Move, Phase, RED_STONES, STOP_STONES, Take};

/// Board cells, and the actions of one action plane.
pub const CELLS: usize = 81;
/// The first action of a stop stone.
pub const STOP_BASE: usize = CELLS;
/// The first action of a move of a red stone within the plate.
pub const RELOCATE_BASE: usize = 2 * CELLS;
/// The first action of a removal.
pub const TAKE_BASE: usize = RELOCATE_BASE + CELLS * CELLS;
/// The number of removal actions: 4 directions × 256 `rest` patterns × 81 cells.
pub const TAKES: usize = 4 * 256 * CELLS;
/// The action of `pass`.
pub const PASS: usize = TAKE_BASE + TAKES;
/// The number of actions, for every configured game.
pub const ACTIONS: usize = PASS + 1;
/// The number of observation planes.
pub const PLANES: usize = 21;

const NAMES: [&str; PLANES] = [
    "dots",
    "holes",
    "red_stones",
    "my_stops",
    "their_stops",
    "red_circles",
    "score_row",
    "score_column",
    "score_diagonal",
    "score_anti_diagonal",
    "reserve",
    "my_taken",
    "their_taken",
    "my_stops_in_hand",
    "their_stops_in_hand",
    "phase_place",
    "phase_score",
    "phase_interlude",
    "my_decision",
    "stones_to_win",
    "ply",
];

/// The index (`9 × rank + file`) of a cell.
#[inline]
fn index(c: Cell) -> usize {
    (c.rank() as usize * 9 + c.file() as usize).min(CELLS - 1)
}

/// The cell of an index below 81.
#[inline]
fn cell(i: usize) -> Option<Cell> {
    if i < CELLS { Cell::new((i % 9) as u8, (i / 9) as u8) } else { None }
}

#[inline]
fn take_action(t: Take) -> usize {
    let line = t.line;
    let dir = line.dir as usize;
    if !(1..=9).contains(&line.len) || !line.on_board() {
        // Never a legal move: any action in range will do.
        return TAKE_BASE + 256 * dir * CELLS + index(line.start);
    }
    let s = t.stones & ((1u16 << line.len) - 1);
    let i0 = if s == 0 { 0 } else { s.trailing_zeros() as u8 };
    let rest = ((s >> (i0 + 1)) & 0xFF) as usize;
    TAKE_BASE + (256 * dir + rest) * CELLS + index(line.cell(i0))
}

/// Set the cells of the bitboard `m` to 1 in plane `p`.
#[inline]
fn board_plane(out: &mut [f32], p: usize, m: u128) {
    let plane = &mut out[p * CELLS..(p + 1) * CELLS];
    for c in cells(m) {
        plane[index(c)] = 1.0;
    }
}

#[inline]
fn constant_plane(out: &mut [f32], p: usize, v: f32) {
    out[p * CELLS..(p + 1) * CELLS].fill(v);
}

impl Encode for AbraxasState {
    fn actions(&self) -> usize {
        ACTIONS
    }

    fn action(&self, mv: Move) -> usize {
        match mv {
            Move::Place(c) => index(c),
            Move::Stop(c) => STOP_BASE + index(c),
            Move::Relocate { from, to } => RELOCATE_BASE + CELLS * index(from) + index(to),
            Move::Take(t) => take_action(t),
            Move::Pass => PASS,
        }
    }

    fn move_of(&self, action: usize) -> Option<Move> {
        match action {
            a if a < STOP_BASE => cell(a).map(Move::Place),
            a if a < RELOCATE_BASE => cell(a - STOP_BASE).map(Move::Stop),
            a if a < TAKE_BASE => {
                let (from, to) = ((a - RELOCATE_BASE) / CELLS, (a - RELOCATE_BASE) % CELLS);
                if from == to {
                    return None;
                }
                Some(Move::Relocate { from: cell(from)?, to: cell(to)? })
            }
            a if a < PASS => {
                let q = a - TAKE_BASE;
                let (plane, first) = (q / CELLS, q % CELLS);
                let (dir, rest) = (Dir::ALL[plane / 256], (plane % 256) as u32);
                let first = cell(first)?;
                let line = self.pending_line_through(dir, first)?;
                let i0 = line.position(first)?;
                let stones = (1u32 << i0) | (rest << (i0 + 1));
                if stones >> line.len != 0 {
                    return None;
                }
                Some(Move::Take(Take { line, stones: stones as u16 }))
            }
            PASS => Some(Move::Pass),
            _ => None,
        }
    }

    fn observation_shape(&self) -> [usize; 3] {
        [PLANES, 9, 9]
    }

    fn plane_names(&self) -> Vec<String> {
        NAMES.iter().map(|s| s.to_string()).collect()
    }

    fn observe(&self, seat: Seat, out: &mut [f32]) {
        assert_eq!(out.len(), PLANES * CELLS, "an Abraxas observation is {PLANES} × 9 × 9 numbers");
        out.fill(0.0);
        let c = &self.c;
        let me = seat & 1;
        let them = 1 - me;
        board_plane(out, 0, self.rules.dots);
        board_plane(out, 1, c.pos.holes().0);
        board_plane(out, 2, c.red);
        board_plane(out, 3, c.stop[me]);
        board_plane(out, 4, c.stop[them]);
        board_plane(out, 5, self.red_circles().0);
        for d in 0..4 {
            board_plane(out, 6 + d, c.pending[d]);
        }
        let win = self.rules.stones_to_win.max(1) as f32;
        constant_plane(out, 10, c.reserve as f32 / RED_STONES as f32);
        constant_plane(out, 11, (c.taken[me] as f32 / win).min(1.0));
        constant_plane(out, 12, (c.taken[them] as f32 / win).min(1.0));
        constant_plane(out, 13, c.stops[me] as f32 / STOP_STONES as f32);
        constant_plane(out, 14, c.stops[them] as f32 / STOP_STONES as f32);
        if let Turn::Seat(s) = self.to_move() {
            let phase = match c.phase {
                Phase::Place => 15,
                Phase::Score => 16,
                Phase::Interlude => 17,
            };
            constant_plane(out, phase, 1.0);
            if s == seat {
                constant_plane(out, 18, 1.0);
            }
        }
        constant_plane(out, 19, self.rules.stones_to_win as f32 / 12.0);
        constant_plane(out, 20, (c.ply as f32 / self.rules.max_plies.max(1) as f32).min(1.0));
    }
}

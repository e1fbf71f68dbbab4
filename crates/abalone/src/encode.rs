//! Moves as integers and positions as tensors ([`plateau_core::Encode`]), for
//! learning programs. `docs/encoding/abalone.md` says the same, with more
//! examples.
//!
//! # Actions
//!
//! Every configuration (every layout, a given `position`, any
//! `marbles-to-win`, `max-plies` or `repetition`) has the same board and the
//! same **2,562** actions:
//!
//! ```text
//! action = 42·cell + 7·dir + kind        (61 cells × 6 directions × 7 kinds)
//! ```
//!
//! - `cell` (0–60) numbers the 61 cells row by row, A to I, and along a row
//!   by increasing number: `a1`–`a5` are 0–4, `b1`–`b6` 5–10, `c1`–`c7`
//!   11–17, `d1`–`d8` 18–25, `e1`–`e9` 26–34, `f2`–`f9` 35–42, `g3`–`g9`
//!   43–49, `h4`–`h9` 50–55, `i5`–`i9` 56–60. It is the **trailing** marble
//!   of an in-line move, and the end of a broadside line that comes first in
//!   that order (the lower row, or on one row the lower number: the end
//!   Plateau writes first in Aba-Pro notation).
//! - `dir` (0–5) is the direction of motion: 0 east (`e5`→`e6`), 1 north-east
//!   (`e5`→`f6`), 2 north-west (`e5`→`f5`), 3 west (`e5`→`e4`), 4 south-west
//!   (`e5`→`d4`), 5 south-east (`e5`→`d5`). Directions `dir` and `dir + 3`
//!   are opposite; the axis of a direction is `dir mod 3` (0: the rows,
//!   east–west; 1: north-east–south-west; 2: north-west–south-east).
//! - `kind` (0–6): 0, 1, 2 are in-line moves of 1, 2, 3 marbles (the line
//!   goes from `cell` in direction `dir`; it may push). 3 to 6 are broadside
//!   moves: `kind = 3 + 2·j + (marbles − 2)` for a line of 2 or 3 marbles
//!   along axis `(dir + 1 + j) mod 3`, `j` = 0 or 1 (the two axes other than
//!   the axis of motion). The line goes from `cell` along the positive
//!   direction of its axis (east, north-east or north-west).
//!
//! Worked example, standard layout, Black to move: `c3c5d4` (the line c3 c4
//! c5 moves north-east to d4 d5 d6) has `cell` = c3 = 13, `dir` = 1, a line
//! on axis 0 = (1 + 1 + 1) mod 3 so `j` = 1, three marbles so `kind` = 3 + 2 +
//! 1 = 6: action 42·13 + 7·1 + 6 = **559**. `a3b4` (a3 b4 c5 in-line
//! north-east): 42·2 + 7·1 + 2 = **93**. White's `i5h5` (in-line 3 south-east
//! from i5 = 56): 42·56 + 7·5 + 2 = **2389**.
//!
//! So each physical move has exactly one action. An action names a move
//! ([`Encode::move_of`] is `Some`) exactly when every marble it moves is on
//! the board and, for a broadside move, every cell they move into, and for a
//! single marble the cell it moves into: 1,842 of the 2,562 actions; the
//! others never name a move. A move an action names may still be illegal in
//! the position (no own marble there, a longer line, a blocked push, ...):
//! [`plateau_core::State::check`] says. A line of four marbles written in
//! notation (always illegal) gets the action of the three-marble in-line move
//! from the same cell, which has the same notation.
//!
//! # Observations
//!
//! Shape `[9, 9, 9]`: 9 planes over the 9×9 axial grid, height = row (0 is
//! row A, 8 row I), width = number − 1 (0 is diagonal 1); so cell `e5` is
//! `[4][4]`. The grid is fixed: it is not turned for White; the `is_black`
//! plane says which side the observer is. The 20 grid points off the hexagon
//! are 0 in every plane.
//!
//! | plane | name | value |
//! |---|---|---|
//! | 0 | `cell_exists` | 1 on the 61 cells of the board |
//! | 1 | `mine` | 1 where the observer has a marble |
//! | 2 | `theirs` | 1 where the opponent has a marble |
//! | 3 | `pushed_out_by_me` | marbles the observer has pushed out ÷ `marbles-to-win` (capped at 1), on every board cell |
//! | 4 | `pushed_out_by_them` | the same for the opponent |
//! | 5 | `my_turn` | 1 on every board cell when the observer is to move (0 for both once the game is over) |
//! | 6 | `is_black` | 1 on every board cell when the observer is Black (seat 0) |
//! | 7 | `repeated` | 1 on every board cell when this position, with this side to move, occurred before (once more draws, under the default `repetition=draw`) |
//! | 8 | `ply_progress` | plies played ÷ `max-plies` (capped at 1) on every board cell; 0 without `max-plies` |
//!
//! Constant planes are written on the 61 board cells only. The
//! two seats' observations mirror each other: seat 0's `mine` is seat 1's
//! `theirs` and the other way round, likewise the two `pushed_out` planes;
//! `my_turn` and `is_black` are complementary on the board (while the game
//! goes on); `cell_exists`, `repeated` and `ply_progress` are the same.
//!
//! Not in the observation: the history of earlier positions beyond
//! `repeated` (which positions would be a third occurrence after a move),
//! the configuration itself (`marbles-to-win` and `max-plies` appear only as
//! the divisors above), and why a finished game ended.

use plateau_core::{Encode, Seat, Turn};

use crate::board::{BOARD, DIRS};
use crate::state::{AbaloneState, BLACK, Move};

/// The number of actions: 61 cells × 6 directions × 7 kinds.
pub const ACTIONS: usize = 61 * 6 * 7;

/// The number of planes of an observation.
pub const PLANES: usize = 9;

/// The planes' names, in order.
pub const PLANE_NAMES: [&str; PLANES] = [
    "cell_exists",
    "mine",
    "theirs",
    "pushed_out_by_me",
    "pushed_out_by_them",
    "my_turn",
    "is_black",
    "repeated",
    "ply_progress",
];

const GRID: usize = 81;
const SIZE: usize = PLANES * GRID;

/// The grid index of each dense cell number.
const CELLS: [u8; 61] = cells_table();
/// The dense cell number of each grid index (255 off the board).
const DENSE: [u8; GRID] = dense_table();

const fn cells_table() -> [u8; 61] {
    let mut t = [0u8; 61];
    let (mut i, mut k) = (0, 0);
    while i < GRID {
        if BOARD >> i & 1 == 1 {
            t[k] = i as u8;
            k += 1;
        }
        i += 1;
    }
    t
}

const fn dense_table() -> [u8; GRID] {
    let mut t = [255u8; GRID];
    let (mut i, mut k) = (0, 0);
    while i < GRID {
        if BOARD >> i & 1 == 1 {
            t[i] = k;
            k += 1;
        }
        i += 1;
    }
    t
}

/// Is the grid index `i` a board cell?
#[inline(always)]
fn on_board(i: i32) -> bool {
    (0..GRID as i32).contains(&i) && BOARD >> i & 1 == 1
}

/// Are `from + k·step` board cells for every `k` in `1..=last`? (Checked one
/// step at a time: a step from a board cell lands on its true neighbour or
/// off the board, so the cells are a straight line of the hexagon.)
#[inline(always)]
fn line_on_board(from: i32, step: i32, last: i32) -> bool {
    (1..=last).all(|k| on_board(from + k * step))
}

impl Encode for AbaloneState {
    fn actions(&self) -> usize {
        ACTIONS
    }

    fn action(&self, mv: Move) -> usize {
        let cell = DENSE.get(mv.cell as usize).map_or(0, |&c| usize::from(c.min(60)));
        let dir = usize::from(mv.dir.min(5));
        let n = usize::from(mv.n.clamp(1, 3));
        let kind = if mv.axis == mv.dir {
            n - 1
        } else {
            // The axis is (dir + 1 + j) mod 3, j = 0 or 1.
            let j = (usize::from(mv.axis) + 5 - dir % 3) % 3;
            3 + 2 * j.min(1) + n.max(2) - 2
        };
        42 * cell + 7 * dir + kind
    }

    fn move_of(&self, action: usize) -> Option<Move> {
        if action >= ACTIONS {
            return None;
        }
        let (cell, dir, kind) = (action / 42, action / 7 % 6, action % 7);
        let t = CELLS[cell];
        let from = i32::from(t);
        let sd = DIRS[dir];
        if kind < 3 {
            let n = kind as u8 + 1;
            // The marbles in front of the trailing one, or the single
            // marble's target.
            line_on_board(from, sd, i32::from(n.max(2)) - 1).then_some(Move {
                cell: t,
                dir: dir as u8,
                axis: dir as u8,
                n,
            })
        } else {
            let j = (kind - 3) / 2;
            let n = ((kind - 3) % 2) as u8 + 2;
            let axis = (dir + 1 + j) % 3;
            let sa = DIRS[axis];
            let ok =
                line_on_board(from, sa, i32::from(n) - 1) && (0..i32::from(n)).all(|k| on_board(from + k * sa + sd));
            ok.then_some(Move { cell: t, dir: dir as u8, axis: axis as u8, n })
        }
    }

    fn observation_shape(&self) -> [usize; 3] {
        [PLANES, 9, 9]
    }

    fn plane_names(&self) -> Vec<String> {
        PLANE_NAMES.iter().map(|s| s.to_string()).collect()
    }

    fn observe(&self, seat: Seat, out: &mut [f32]) {
        assert!(seat < 2, "no seat {seat} in Abalone (seats 0 and 1)");
        assert_eq!(out.len(), SIZE, "an Abalone observation is {PLANES}×9×9 numbers");
        out.fill(0.0);
        let other = 1 - seat;
        let rules = self.rules();
        let share = |k: u8| (f32::from(k) / f32::from(rules.marbles_to_win.max(1))).min(1.0);
        let ply = match rules.max_plies {
            Some(max) if max > 0 => (self.ply as f32 / max as f32).min(1.0),
            _ => 0.0,
        };
        let constants = [
            (3, share(self.pushed_out_by(seat))),
            (4, share(self.pushed_out_by(other))),
            (5, if self.turn() == Turn::Seat(seat) { 1.0 } else { 0.0 }),
            (6, if seat == BLACK { 1.0 } else { 0.0 }),
            (7, if self.repetitions() >= 2 { 1.0 } else { 0.0 }),
            (8, ply),
        ];
        let (mine, theirs) = (self.marbles(seat), self.marbles(other));
        for &t in &CELLS {
            let i = usize::from(t);
            out[i] = 1.0;
            if mine >> i & 1 == 1 {
                out[GRID + i] = 1.0;
            }
            if theirs >> i & 1 == 1 {
                out[2 * GRID + i] = 1.0;
            }
            for &(p, v) in &constants {
                out[p * GRID + i] = v;
            }
        }
    }
}

// The grid index of a cell is its offset within a plane (row · 9 + number − 1).
const _: () = assert!(CELLS[60] == 80 && CELLS[0] == 0);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Cell;

    #[test]
    fn tables_agree_with_cells() {
        for (k, &t) in CELLS.iter().enumerate() {
            assert_eq!(DENSE[t as usize] as usize, k);
            assert!(Cell::from_index(i32::from(t)).is_some());
        }
        assert_eq!(DENSE.iter().filter(|&&d| d != 255).count(), 61);
    }
}

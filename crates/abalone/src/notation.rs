//! Aba-Pro move notation.
//!
//! - In-line move (one to three marbles, pushing or not): the trailing marble's
//!   cell, then the cell it moves to: `a1b2`. The marbles in front of it, and any
//!   pushed marbles, follow.
//! - Broadside move: the two end marbles of the line, then the cell the
//!   first-written end moves to: `c3d4d3`. On input the ends may come in either
//!   order (`d4c3c4` is the same move); on output the end on the lower row (or,
//!   on one row, the lower number) comes first.
//!
//! Input is case-insensitive and may separate the cells with `-`.

use plateau_core::{Gesture, MoveError};

use crate::board::{Cell, DIRS, opposite};
use crate::state::{AbaloneState, Move};

fn dir_between(from: Cell, to: Cell) -> Option<usize> {
    let diff = to.index() as i32 - from.index() as i32;
    DIRS.iter().position(|&s| s == diff)
}

/// Write a move.
pub fn format(mv: Move) -> String {
    let t = mv.cell();
    if mv.axis == mv.dir {
        let to = Cell::from_index(t.index() as i32 + DIRS[mv.dir as usize]).expect("in-line moves end on the board");
        format!("{t}{to}")
    } else {
        let far = Cell::from_index(t.index() as i32 + (mv.n as i32 - 1) * DIRS[mv.axis as usize])
            .expect("broadside lines are on the board");
        let to = Cell::from_index(t.index() as i32 + DIRS[mv.dir as usize]).expect("broadside moves end on the board");
        format!("{t}{far}{to}")
    }
}

fn cells(text: &str) -> Result<Vec<Cell>, MoveError> {
    let compact: String = text.trim().chars().filter(|&c| c != '-').collect();
    if !compact.is_ascii() {
        return Err(MoveError::syntax(format!("{text:?} is not a move: cells are a letter a–i and a digit 1–9")));
    }
    if compact.len() != 4 && compact.len() != 6 {
        return Err(MoveError::syntax(format!(
            "{text:?} is not a move: write two cells (in-line, a1b2) or three (broadside, c3d4d3)"
        )));
    }
    (0..compact.len() / 2)
        .map(|i| {
            let c = &compact[2 * i..2 * i + 2];
            Cell::parse(c).ok_or_else(|| MoveError::syntax(format!("{c:?} is not a cell of the board")))
        })
        .collect()
}

/// Read a move in the context of a position (the position says how many
/// marbles an in-line move carries).
pub fn parse(state: &AbaloneState, text: &str) -> Result<Move, MoveError> {
    let cs = cells(text)?;
    let own = state.marbles(state.side());
    if cs.len() == 2 {
        let (from, to) = (cs[0], cs[1]);
        let d = dir_between(from, to)
            .ok_or_else(|| MoveError::syntax(format!("{to} is not next to {from}: a move goes one cell")))?;
        let mut n = 0u8;
        let mut c = Some(from);
        while n < 4 {
            match c {
                Some(x) if own & x.bit() != 0 => {
                    n += 1;
                    c = x.step(d);
                }
                _ => break,
            }
        }
        if n == 0 {
            let colour = if state.side() == 0 { "black" } else { "white" };
            return Err(MoveError::illegal(format!("there is no {colour} marble on {from}")));
        }
        return Ok(Move { cell: from.index(), dir: d as u8, axis: d as u8, n });
    }
    let (first, other, to) = (cs[0], cs[1], cs[2]);
    let d = dir_between(first, to)
        .ok_or_else(|| MoveError::syntax(format!("{to} is not next to {first}: a move goes one cell")))?;
    let (lo, hi) = if first.index() < other.index() { (first, other) } else { (other, first) };
    let diff = hi.index() as i32 - lo.index() as i32;
    let (axis, n) = (0..3)
        .find_map(|a| {
            if diff == DIRS[a] {
                Some((a, 2u8))
            } else if diff == 2 * DIRS[a] && lo.step(a).is_some() {
                Some((a, 3u8))
            } else {
                None
            }
        })
        .ok_or_else(|| {
            MoveError::syntax(format!("{first} and {other} are not the ends of a line of two or three cells"))
        })?;
    if d == axis || d == opposite(axis) {
        return Err(MoveError::syntax(format!(
            "{first}{other}{to} moves along the line: write an in-line move as its trailing marble and the cell it moves to"
        )));
    }
    Ok(Move { cell: lo.index(), dir: d as u8, axis: axis as u8, n })
}

/// How the move is made by pointing (see [`plateau_core::State::gesture`]).
pub fn gesture(mv: Move) -> Gesture {
    let line: Vec<Cell> = mv.line().collect();
    let select = line.iter().map(|c| c.to_string()).collect();
    let dests =
        |d: usize| -> Vec<Cell> { line.iter().filter_map(|c| Cell::from_index(c.index() as i32 + DIRS[d])).collect() };
    let targets = if mv.axis == mv.dir {
        let front = mv.cell().index() as i32 + mv.n as i32 * DIRS[mv.dir as usize];
        Cell::from_index(front).into_iter().map(|c| c.to_string()).collect()
    } else {
        let axis = mv.axis as usize;
        let others: Vec<Cell> =
            (0..6).filter(|&d| d != mv.dir as usize && d != axis && d != opposite(axis)).flat_map(dests).collect();
        dests(mv.dir as usize).into_iter().filter(|c| !others.contains(c)).map(|c| c.to_string()).collect()
    };
    Gesture { select, targets }
}

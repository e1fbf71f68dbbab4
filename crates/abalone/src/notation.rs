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
    let mut out = String::with_capacity(6);
    write(mv, &mut out);
    out
}

/// Write a move at the end of `out` (as [`format`], without a `String` of
/// its own).
pub fn write(mv: Move, out: &mut String) {
    let t = mv.cell();
    t.push_to(out);
    if mv.axis != mv.dir {
        let far = Cell::from_index(t.index() as i32 + (mv.n as i32 - 1) * DIRS[mv.axis as usize])
            .expect("broadside lines are on the board");
        far.push_to(out);
    }
    let to = Cell::from_index(t.index() as i32 + DIRS[mv.dir as usize]).expect("moves end on the board");
    to.push_to(out);
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

/// Write [`gesture`] at the end of `out` as the JSON fields
/// `"select":[…],"targets":[…]` (serde_json's compact form; cells need no
/// escaping), without a `String` per cell.
pub fn write_gesture_json(mv: Move, out: &mut String) {
    out.push_str("\"select\":[");
    // A line has one to three marbles (four at most as parsed).
    let mut line = [mv.cell(); 4];
    let mut n = 0;
    for c in mv.line().take(4) {
        if n > 0 {
            out.push(',');
        }
        push_quoted(out, c);
        line[n] = c;
        n += 1;
    }
    let line = &line[..n];
    out.push_str("],\"targets\":[");
    let dest = |c: Cell, d: usize| Cell::from_index(c.index() as i32 + DIRS[d]);
    if mv.axis == mv.dir {
        let front = mv.cell().index() as i32 + mv.n as i32 * DIRS[mv.dir as usize];
        if let Some(c) = Cell::from_index(front) {
            push_quoted(out, c);
        }
    } else {
        let axis = mv.axis as usize;
        let mut first = true;
        for c in line.iter().filter_map(|&c| dest(c, mv.dir as usize)) {
            // A destination no other sideways move of the same marbles shares.
            let shared = (0..6)
                .filter(|&d| d != mv.dir as usize && d != axis && d != opposite(axis))
                .any(|d| line.iter().any(|&m| dest(m, d) == Some(c)));
            if !shared {
                if !first {
                    out.push(',');
                }
                first = false;
                push_quoted(out, c);
            }
        }
    }
    out.push(']');
}

fn push_quoted(out: &mut String, c: Cell) {
    out.push('"');
    c.push_to(out);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use plateau_core::{Game, Reader, State};

    use super::*;
    use crate::{Abalone, LAYOUTS, Rules};

    /// The notation as it was written before [`write`] (with `format!`), the
    /// reference the writers are checked against.
    fn format_before(mv: Move) -> String {
        let t = mv.cell();
        if mv.axis == mv.dir {
            let to = Cell::from_index(t.index() as i32 + DIRS[mv.dir as usize]).unwrap();
            format!("{t}{to}")
        } else {
            let far = Cell::from_index(t.index() as i32 + (mv.n as i32 - 1) * DIRS[mv.axis as usize]).unwrap();
            let to = Cell::from_index(t.index() as i32 + DIRS[mv.dir as usize]).unwrap();
            format!("{t}{far}{to}")
        }
    }

    /// Along random games from every layout (with and without a ply
    /// limit), at every ply: every legal move written straight is the old
    /// notation, its gesture written straight is serde_json's text of
    /// [`gesture`], and the view written straight is serde_json's text of
    /// the view.
    #[test]
    fn writers_equal_the_old_formatting_along_random_games() {
        let mut seed: u64 = 0x21;
        let mut next = |k: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize % k
        };
        let (mut moves_checked, mut broadside, mut ended) = (0, 0, 0);
        for (i, (layout, _, _)) in LAYOUTS.iter().enumerate() {
            let rules = Rules { marbles_to_win: 6, max_plies: (i % 2 == 1).then_some(150), repetition_draw: true };
            for g in 0..3u64 {
                let mut s = Abalone::with_layout(layout, rules).unwrap().start(g);
                let mut moves = Vec::new();
                for _ in 0..300 {
                    let mut view = String::from("x");
                    s.write_view_json(Reader::Spectator, &mut view);
                    assert_eq!(view[1..], serde_json::to_string(&s.view(Reader::Spectator)).unwrap());
                    moves.clear();
                    s.legal_moves(&mut moves);
                    if moves.is_empty() {
                        ended += 1;
                        break;
                    }
                    for &mv in &moves {
                        let mut text = String::from("x");
                        s.write_move(mv, &mut text);
                        assert_eq!(text[1..], format_before(mv));
                        assert_eq!(format(mv), format_before(mv));
                        let mut gesture = String::from("{");
                        s.write_gesture_json(mv, &mut gesture);
                        gesture.push('}');
                        let g = gesture_of(&s, mv);
                        let reference =
                            serde_json::to_string(&serde_json::json!({"select": g.select, "targets": g.targets}))
                                .unwrap();
                        assert_eq!(gesture, reference, "{}", format_before(mv));
                        moves_checked += 1;
                        broadside += usize::from(mv.axis != mv.dir);
                    }
                    // Prefer the first moves of the list (pushes come early)
                    // now and then, so that games reach their ends.
                    let k = if next(3) == 0 { moves.len().min(4) } else { moves.len() };
                    s.apply(moves[next(k)]);
                }
            }
        }
        assert!(moves_checked > 100_000 && broadside > 10_000, "{moves_checked} moves, {broadside} broadside");
        assert!(ended > 0, "no game ended");
    }

    fn gesture_of(s: &AbaloneState, mv: Move) -> Gesture {
        State::gesture(s, mv)
    }
}

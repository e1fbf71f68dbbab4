//! Colorito's lessons: every step's set-up is valid, the learner is to move,
//! and each step's `accept` list is exactly the set of legal moves that reach
//! its goal, judged here from the views before and after the move: the
//! board's layout and where the pieces stand (a naive search of jump chains
//! written for this test, never the crate's move generator).

use plateau_colorito::Colorito;
use plateau_conformance::lessons::{Tried, check};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

type Cell = (i32, i32);

fn cell(name: &str) -> Cell {
    let b = name.as_bytes();
    (b[0] as i32 - b'a' as i32, name[1..].parse::<i32>().expect("rank") - 1)
}

fn pieces(view: &Value) -> BTreeMap<Cell, String> {
    view["pieces"]
        .as_object()
        .expect("pieces")
        .iter()
        .map(|(c, p)| (cell(c), p.as_str().expect("piece").to_string()))
        .collect()
}

/// The label of a cell on the layout (`R7`, or a bare colour `Y`).
fn label(view: &Value, (f, r): Cell) -> String {
    let row = view["layout"][(9 - r) as usize].as_str().expect("layout row");
    row.split_whitespace().nth(f as usize).expect("layout cell").to_string()
}

const DIRS: [Cell; 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

fn on_board((f, r): Cell) -> bool {
    (0..10).contains(&f) && (0..10).contains(&r)
}

/// Cells reached from `from` by chains of jumps (over a piece, onto the empty
/// cell behind it), with the number of jumps of the shortest chain; the
/// moving piece has left `from`.
fn jumps(occupied: &BTreeSet<Cell>, from: Cell) -> BTreeMap<Cell, u32> {
    let mut occ = occupied.clone();
    occ.remove(&from);
    let mut seen = BTreeMap::new();
    let mut frontier = vec![from];
    let mut depth = 0;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for c in frontier {
            for (df, dr) in DIRS {
                let over = (c.0 + df, c.1 + dr);
                let land = (c.0 + 2 * df, c.1 + 2 * dr);
                if on_board(land)
                    && occ.contains(&over)
                    && !occ.contains(&land)
                    && land != from
                    && !seen.contains_key(&land)
                {
                    seen.insert(land, depth);
                    next.push(land);
                }
            }
        }
        frontier = next;
    }
    seen
}

fn mv(t: &Tried) -> (Cell, Cell) {
    let (a, b) = t.mv.split_once('-').expect("a move from-to");
    (cell(a), cell(b))
}

fn goal(t: &Tried) -> bool {
    if t.mv == "pass" {
        return false;
    }
    let (from, to) = mv(t);
    let before = pieces(t.before);
    match t.lesson.id {
        // Two jumps or more: the destination is reached by a chain of jumps
        // whose shortest has at least two, and is not next to the start.
        "jumps" => {
            let occupied: BTreeSet<Cell> = before.keys().copied().collect();
            let adjacent = (from.0 - to.0).abs() <= 1 && (from.1 - to.1).abs() <= 1;
            !adjacent && jumps(&occupied, from).get(&to).is_some_and(|&d| d >= 2)
        }
        // Home: the piece ends on the cell that carries its colour and number.
        "home" => label(t.after, to) == before[&from],
        id => panic!("no goal written for {id}"),
    }
}

#[test]
fn every_lesson_step_accepts_exactly_the_moves_that_reach_its_goal() {
    assert_eq!(check::<Colorito>(goal), 2);
}

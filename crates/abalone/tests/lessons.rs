//! Abalone's lessons: every step's set-up is valid, Black (the learner) is to
//! move, and each step's `accept` list is exactly the set of legal moves that
//! reach its goal, judged here from the marbles' cells before and after the
//! move (never from the crate's move kinds).

use plateau_abalone::Abalone;
use plateau_conformance::lessons::{Tried, check};
use serde_json::Value;
use std::collections::BTreeSet;

type Cell = (i32, i32);

fn cells(view: &Value, side: &str) -> BTreeSet<Cell> {
    view[side]
        .as_array()
        .expect("marbles")
        .iter()
        .map(|c| {
            let s = c.as_str().expect("cell").to_ascii_lowercase();
            let row = s.as_bytes()[0] as i32 - b'a' as i32;
            let n: i32 = s[1..].parse().expect("cell number");
            (row, n)
        })
        .collect()
}

/// The learner's marbles that left a cell and those that arrived on one, and
/// the opponent's marbles before and after.
fn diff(t: &Tried) -> (Vec<Cell>, Vec<Cell>, BTreeSet<Cell>, BTreeSet<Cell>) {
    let (me, them) = if t.step.seat == 0 { ("black", "white") } else { ("white", "black") };
    let (b, a) = (cells(t.before, me), cells(t.after, me));
    (
        b.difference(&a).copied().collect(),
        a.difference(&b).copied().collect(),
        cells(t.before, them),
        cells(t.after, them),
    )
}

fn goal(t: &Tried) -> bool {
    let (left, arrived, them_before, them_after) = diff(t);
    match (t.lesson.id, t.index) {
        // Three marbles along their line: one cell left at the back, one
        // reached three cells further along one of the six directions.
        ("moving", 0) => {
            left.len() == 1
                && arrived.len() == 1
                && [(0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)]
                    .iter()
                    .any(|(dr, dn)| arrived[0] == (left[0].0 + 3 * dr, left[0].1 + 3 * dn))
        }
        // Broadside: every marble of the line changes cell (an in-line move
        // changes one cell only).
        ("moving", 1) => left.len() >= 2 && arrived.len() == left.len(),
        // A push: some opponent marble moved.
        ("pushing", 0) => them_before != them_after,
        // A push off the board: the opponent has fewer marbles.
        ("pushing", 1) => them_after.len() < them_before.len(),
        (id, i) => panic!("no goal written for {id}/{}", i + 1),
    }
}

#[test]
fn every_lesson_step_accepts_exactly_the_moves_that_reach_its_goal() {
    assert_eq!(check::<Abalone>(goal), 4);
}

//! Abraxas's lessons: every step's set-up is valid, the learner is to move,
//! and each step's `accept` list is exactly the set of legal moves that reach
//! its goal, judged here from the red circles of the views: lines of four are
//! looked for by a naive scan written for this test.

use plateau_abraxas::Abraxas;
use plateau_conformance::lessons::{Tried, check};
use plateau_core::Reader;
use serde_json::Value;
use std::collections::BTreeSet;

/// Whether the view's red circles hold four in a row, column or diagonal.
fn has_line(view: &Value) -> bool {
    let red: BTreeSet<(i32, i32)> = view["red_circles"]
        .as_array()
        .expect("red circles")
        .iter()
        .map(|c| {
            let s = c.as_str().expect("cell");
            (s.as_bytes()[0] as i32 - b'a' as i32, s[1..].parse::<i32>().expect("rank"))
        })
        .collect();
    red.iter().any(|&(f, r)| {
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|(df, dr)| (0..4).all(|k| red.contains(&(f + k * df, r + k * dr))))
    })
}

fn goal(t: &Tried) -> bool {
    match t.lesson.id {
        // A line of four after the push (none before).
        "lines" => !has_line(t.before) && has_line(t.after),
        // A stop stone after which no placement of the opponent (the scorer,
        // who plays next) makes a line.
        "stops" => {
            let m = t.after_match;
            let scorer = m.to_move().seat().expect("the game goes on");
            assert_ne!(scorer, t.step.seat);
            m.legal_moves().iter().all(|mv| {
                let mut n = m.clone_box();
                n.play(mv).expect("legal");
                !has_line(&n.view(Reader::Seat(scorer)))
            })
        }
        id => panic!("no goal written for {id}"),
    }
}

#[test]
fn every_lesson_step_accepts_exactly_the_moves_that_reach_its_goal() {
    assert_eq!(check::<Abraxas>(goal), 2);
}

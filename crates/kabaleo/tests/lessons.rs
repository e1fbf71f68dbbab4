//! Kabaleo's lessons: every step's deal is valid, the learner is to move, and
//! each step's `accept` list is exactly the set of legal moves that reach its
//! goal, judged here from the locations of the learner's views: the colour a
//! location shows is worked out in this test (its top piece, else its base).

use plateau_conformance::lessons::{Tried, check};
use plateau_kabaleo::Kabaleo;
use serde_json::Value;

/// How many locations show `colour` (top piece, else the base).
fn showing(view: &Value, colour: &str) -> usize {
    view["locations"]
        .as_array()
        .expect("locations")
        .iter()
        .filter(|l| {
            let top = l["pile"].as_array().expect("pile").last().unwrap_or(&l["base"]);
            top.as_str() == Some(colour)
        })
        .count()
}

fn goal(t: &Tried) -> bool {
    let mine = t.before["objectives"][t.step.seat].as_str().expect("the learner sees its objective");
    assert_eq!(mine, "R", "the lessons are written for red");
    let (before, after) = (showing(t.before, mine), showing(t.after, mine));
    match (t.lesson.id, t.index) {
        ("colours", 0) => after > before,
        ("colours", 1) => before == 2 && after == 3,
        (id, i) => panic!("no goal written for {id}/{}", i + 1),
    }
}

#[test]
fn every_lesson_step_accepts_exactly_the_moves_that_reach_its_goal() {
    assert_eq!(check::<Kabaleo>(goal), 2);
}

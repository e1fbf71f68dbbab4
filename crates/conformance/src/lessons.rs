//! Checks of a game's lessons (`plateau_core::lesson`), for each game's
//! `tests/lessons.rs`.
//!
//! [`check`] builds every step, checks that the learner's seat is to move,
//! that both languages of every text are present, and that the step's
//! `accept` list is exactly the set of legal moves for which the test's own
//! predicate holds. The predicate judges a move from the learner's views
//! before and after it (and the move's text), never from the game crate's
//! internal move kinds: it is the independent statement of the goal.

use plateau_core::lesson::{Lesson, Step, Text};
use plateau_core::{AnyMatch, Game, Reader, entry};
use serde_json::Value;
use std::collections::BTreeSet;

/// What a predicate sees of one legal move.
pub struct Tried<'a> {
    /// The lesson and the step's index in it.
    pub lesson: &'a Lesson,
    /// The step's index in its lesson.
    pub index: usize,
    /// The step.
    pub step: &'a Step,
    /// The move, in canonical notation.
    pub mv: &'a str,
    /// The learner's view before the move.
    pub before: &'a Value,
    /// The learner's view after the move.
    pub after: &'a Value,
    /// The position after the move (for goals about what the opponent can
    /// do next).
    pub after_match: &'a dyn AnyMatch,
}

fn text_ok(t: &Text, what: &str) {
    for (lang, s) in ["en", "fr"].iter().zip(t.iter()) {
        assert!(!s.trim().is_empty(), "{what}: the {lang} text is empty");
    }
    assert_ne!(t[0], t[1], "{what}: the French text is the English one");
}

/// Check every lesson of `G` (see the module's documentation); returns the
/// number of steps checked. A step whose `accept` differs from the
/// predicate's set fails with both sets.
pub fn check<G: Game>(predicate: impl Fn(&Tried) -> bool) -> usize {
    let e = entry::<G>();
    let lessons = G::lessons();
    assert!(!lessons.is_empty(), "{} has no lessons", G::INFO.name);
    let mut ids = BTreeSet::new();
    let mut steps = 0;
    for lesson in lessons {
        assert!(ids.insert(lesson.id), "lesson id {} twice", lesson.id);
        assert!(!lesson.steps.is_empty(), "lesson {} has no steps", lesson.id);
        text_ok(&lesson.title, &format!("{} title", lesson.id));
        for (index, step) in lesson.steps.iter().enumerate() {
            let name = format!("{}/{}", lesson.id, index + 1);
            text_ok(&step.goal, &format!("{name} goal"));
            text_ok(&step.miss, &format!("{name} miss"));
            text_ok(&step.success, &format!("{name} success"));
            let m = step.start(&*e).unwrap_or_else(|err| panic!("{name}: {err}"));
            assert_eq!(m.to_move().seat(), Some(step.seat), "{name}: the learner is not to move");
            let reader = Reader::Seat(step.seat);
            let before = m.view(reader);
            let legal = m.legal_moves();
            assert!(!legal.is_empty(), "{name}: no legal move");
            let mut expected = BTreeSet::new();
            for mv in &legal {
                let mut after_m = m.clone_box();
                let canonical = after_m.play(mv).unwrap_or_else(|err| panic!("{name}: legal {mv}: {err}"));
                let after = after_m.view(reader);
                let tried = Tried {
                    lesson,
                    index,
                    step,
                    mv: &canonical,
                    before: &before,
                    after: &after,
                    after_match: &*after_m,
                };
                if predicate(&tried) {
                    expected.insert(canonical);
                }
            }
            let accept: BTreeSet<String> = step.accept.iter().map(|s| s.to_string()).collect();
            assert_eq!(accept.len(), step.accept.len(), "{name}: a move twice in accept");
            assert!(!expected.is_empty(), "{name}: no legal move reaches the goal");
            assert!(expected.len() < legal.len(), "{name}: every legal move reaches the goal: nothing to learn");
            assert_eq!(accept, expected, "{name}: accept (left) differs from the goal's moves (right)");
            // The set-up, rebuilt from its record as a client does, is the same position.
            let record = step.record(&*e).unwrap_or_else(|err| panic!("{name}: record: {err}"));
            let rec = plateau_core::Record::parse(&record).unwrap_or_else(|err| panic!("{name}: record: {err}"));
            assert_eq!(rec.moves.len(), step.moves.len(), "{name}: the record's moves");
            steps += 1;
        }
    }
    steps
}

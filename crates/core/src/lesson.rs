//! Lessons: a game's short interactive course, as data.
//!
//! A [`Lesson`] is a sequence of [`Step`]s; each step is a small position
//! (a set-up and moves from its start), the seat the learner plays, one goal,
//! and the moves that reach it. The rules judge every move the learner makes:
//! an illegal move gets the rules' own message, a legal move that misses the
//! goal gets the step's explanation. Texts are given in English and French.
//!
//! A game lists its lessons in [`Game::lessons`](crate::Game::lessons) (each
//! game crate's `lessons.rs`); each game's `tests/lessons.rs` checks that every
//! set-up is valid, that the learner is to move, and that `accept` is exactly
//! the set of legal moves that satisfy a predicate written in the test itself.
//! How to write one: `docs/learn.md`.

use crate::erased::{AnyMatch, GameEntry};
use crate::options::{Options, Setup};
use crate::{Reader, Seat};

/// A text in English and in French: `[en, fr]`.
pub type Text = [&'static str; 2];

/// One lesson of a game: a title and its steps.
#[derive(Clone, Copy, Debug)]
pub struct Lesson {
    /// A stable identifier, unique within the game (`push-out`).
    pub id: &'static str,
    /// The title, `[en, fr]`.
    pub title: Text,
    /// The steps, in order.
    pub steps: &'static [Step],
}

/// One step of a lesson: a position, the learner's seat and one goal.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The variant (`None`: the game's default).
    pub variant: Option<&'static str>,
    /// Options on top of the variant's, as `(name, value)` pairs.
    pub options: &'static [(&'static str, &'static str)],
    /// For a game whose start is dealt: the deal (see
    /// [`Game::start_from_deal`](crate::Game::start_from_deal)), naming the
    /// learner's secrets only.
    pub deal: Option<&'static str>,
    /// Moves played from the start before the learner's turn, in notation.
    pub moves: &'static [&'static str],
    /// The seat the learner plays; it is to move after `moves`.
    pub seat: Seat,
    /// The goal, `[en, fr]`.
    pub goal: Text,
    /// Every move that reaches the goal, in canonical notation.
    pub accept: &'static [&'static str],
    /// Why a legal move that misses the goal misses it, `[en, fr]`.
    pub miss: Text,
    /// What the learner is told once the goal is reached, `[en, fr]`.
    pub success: Text,
}

impl Step {
    /// The set-up of the step's game (seed 0: lessons use no randomness; a
    /// dealt game takes its start from [`Step::deal`]).
    pub fn setup(&self) -> Setup {
        let mut options = Options::new();
        for (k, v) in self.options {
            options.set(*k, *v);
        }
        Setup { variant: self.variant.map(str::to_string), options, seed: 0 }
    }

    /// The step's position: its set-up (or deal) and its moves played.
    /// Errors say which part is wrong.
    pub fn start(&self, entry: &dyn GameEntry) -> Result<Box<dyn AnyMatch>, String> {
        let setup = self.setup();
        let mut m = match self.deal {
            Some(deal) => entry.new_match_dealt(&setup, deal),
            None => entry.new_match(&setup),
        }
        .map_err(|e| format!("set-up: {e}"))?;
        for (i, mv) in self.moves.iter().enumerate() {
            m.play(mv).map_err(|e| format!("move {} ({mv}): {e}", i + 1))?;
        }
        Ok(m)
    }

    /// The step's position as a record, as the learner's seat may know it
    /// (a dealt game carries its `Deal` tag, never a seed), for clients that
    /// rebuild positions from records.
    pub fn record(&self, entry: &dyn GameEntry) -> Result<String, String> {
        Ok(self.start(entry)?.record(Reader::Seat(self.seat)).to_text())
    }

    /// Whether `canonical` (a legal move in canonical notation) reaches the
    /// goal.
    pub fn accepts(&self, canonical: &str) -> bool {
        self.accept.contains(&canonical)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_gives_its_setup_and_judges_moves() {
        let step = Step {
            variant: Some("standard"),
            options: &[("layout", "snakes"), ("marbles-to-win", "1")],
            deal: None,
            moves: &[],
            seat: 0,
            goal: ["Goal", "But"],
            accept: &["a1b2"],
            miss: ["No", "Non"],
            success: ["Yes", "Oui"],
        };
        let s = step.setup();
        assert_eq!(s.variant.as_deref(), Some("standard"));
        let pairs: Vec<(&str, &str)> = s.options.iter().collect();
        assert_eq!(pairs, [("layout", "snakes"), ("marbles-to-win", "1")]);
        assert_eq!(s.seed, 0);
        assert!(step.accepts("a1b2"));
        assert!(!step.accepts("a1b1"));
    }
}

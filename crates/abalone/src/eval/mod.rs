//! The evaluation of Abalone positions for computer players, in versions
//! (`Evaluate::EVALS`): `v1` ([`v1`], the evaluation before issue 20, kept
//! unchanged) and `v2` ([`v2`], the latest: a weighted sum of terms whose
//! weights are data, `weights.json`, with terms that press a side ahead to
//! finish the game).
//!
//! The noisy moves, for quiescence search, are the push-outs.

mod v1;
mod v2;

use plateau_core::Evaluate;

use crate::state::{AbaloneState, Move};

pub use v2::TERMS;

impl Evaluate for AbaloneState {
    const EVALS: &'static [&'static str] = &["v1", "v2"];
    const TERMS: &'static [&'static str] = &TERMS;

    fn evaluate(&self, seat: usize) -> i32 {
        self.evaluation_v2(seat)
    }

    fn evaluate_version(&self, seat: usize, version: usize) -> i32 {
        match version {
            0 => self.evaluation_v1(seat),
            _ => self.evaluation_v2(seat),
        }
    }

    fn terms(&self, seat: usize, out: &mut [f32]) {
        out[..TERMS.len()].copy_from_slice(&self.terms_v2(seat));
    }

    fn weights() -> &'static [f32] {
        &v2::WEIGHTS[..]
    }

    fn return_scale() -> f32 {
        v2::FILE.return_scale()
    }

    fn noisy_moves(&self, out: &mut Vec<Move>) {
        self.push_outs(out);
    }

    /// A marble next to an empty cell can always step there, pushing
    /// nothing: then not every move is noisy, and the moves need not be
    /// counted (which was 8.7% of alpha-beta's time).
    fn only_noisy_moves(&self, noisy: &[Move]) -> bool {
        !noisy.is_empty() && !self.has_quiet_step() && noisy.len() == self.count()
    }
}

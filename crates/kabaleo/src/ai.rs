//! What computer players need of Kabaleo: the evaluation of a complete state
//! and the secrets' interface for beliefs over the other players' objectives.
//!
//! # Evaluation
//! A location counts for the colour it shows, covered locations break ties:
//! a colour is worth `100·locations + 10·covered`. A complete state knows
//! every objective, so a seat's value is its colour's worth minus the best
//! worth among the other players' colours (the one it must beat).
//!
//! That is version `v1` (2026-11-30). The latest (`v2`) is the same written
//! as a weighted sum of terms (see [`Evaluate::TERMS`]), with weights read
//! from `weights.json` (hand-set to v1's: `100·locations + 10·covered`, the
//! other terms at 0 until tuning by self-play says otherwise).
//!
//! # Opponent model
//! A player who does not know the others' objectives judges a position by its
//! own colour's worth minus the average worth of the other colours in play
//! ([`Secrets::evaluate_as`]). Computer players that keep beliefs assume the
//! others play roughly so: a player who keeps covering green is unlikely to
//! own green.

use plateau_core::rand::Rng;
use plateau_core::{Evaluate, Seat, SecretWeights, Secrets, State};

use crate::colour::{COLOURS, Colour};
use crate::hidden::{Knowledge, Weights};
use crate::state::{KabaleoState, Move};

/// The worth of a colour on the board.
#[inline]
fn worth(s: &KabaleoState, c: Colour) -> i32 {
    let (shows, covered) = s.eval_counts(c);
    100 * shows as i32 + 10 * covered as i32
}

/// The other seat whose colour is worth most (the one `seat` must beat),
/// with that worth; ties go to the first in seat order, as v1's `max` does
/// for the worth itself.
#[inline]
fn best_other(s: &KabaleoState, seat: Seat) -> Option<(Seat, i32)> {
    let mut best: Option<(Seat, i32)> = None;
    for t in (0..s.seats()).filter(|&t| t != seat) {
        let w = worth(s, s.objective(t));
        if best.is_none_or(|(_, b)| w > b) {
            best = Some((t, w));
        }
    }
    best
}

/// The pieces of `seat`'s colour still in `seat`'s own stock: placements of
/// its colour it still controls.
#[inline]
fn own_stock(s: &KabaleoState, seat: Seat) -> i32 {
    s.stock(seat, s.objective(seat)) as i32
}

/// The evaluation of 2026-11-30 (v1): the seat's colour's worth minus the
/// best worth among the other players' colours.
fn evaluation_v1(s: &KabaleoState, seat: Seat) -> i32 {
    let mine = worth(s, s.objective(seat));
    let best_other = (0..s.seats()).filter(|&t| t != seat).map(|t| worth(s, s.objective(t))).max();
    mine - best_other.unwrap_or(0)
}

/// The latest evaluation's terms (see [`Evaluate::TERMS`]).
const TERMS: &[&str] = &["locations", "covered", "locations_vs_field", "own_stock"];

static WEIGHTS: std::sync::LazyLock<Vec<f32>> = std::sync::LazyLock::new(|| {
    plateau_core::weights::Weights::parse(include_str!("../weights.json"), TERMS).expect("crates/kabaleo/weights.json")
});

impl Evaluate for KabaleoState {
    /// A game is at most 36 placements and random play to the end is a fair
    /// sample of who shows more locations: playouts go to the end (measured:
    /// 64% of wins against three greedy players, against 46% with 6-ply
    /// playouts and the evaluation).
    const PLAYOUT_PLIES: u32 = 64;

    const EVALS: &'static [&'static str] = &["v1", "v2"];

    /// Terms, for `seat`, against "the rival": the other seat whose colour is
    /// worth most (`100·locations + 10·covered`, as v1):
    /// - `locations`: locations showing the seat's colour minus the rival's;
    /// - `covered`: the same for covered locations (the first tie-break);
    /// - `locations_vs_field`: the seat's locations minus the mean of the
    ///   other seats' colours' locations (every rival counts, not only the
    ///   first);
    /// - `own_stock`: pieces of the seat's colour in its own stock minus the
    ///   rival's pieces of its colour in the rival's stock (placements of
    ///   its colour each still controls).
    const TERMS: &'static [&'static str] = TERMS;

    fn evaluate(&self, seat: Seat) -> i32 {
        let mut t = [0f32; 4];
        self.terms(seat, &mut t);
        let w = Self::weights();
        t.iter().zip(w).map(|(t, w)| t * w).sum::<f32>().round() as i32
    }

    fn evaluate_version(&self, seat: Seat, version: usize) -> i32 {
        match version {
            0 => evaluation_v1(self, seat),
            _ => self.evaluate(seat),
        }
    }

    fn terms(&self, seat: Seat, out: &mut [f32]) {
        let mine = self.objective(seat);
        let (ms, mc) = self.eval_counts(mine);
        let (rs, rc, rstock) = match best_other(self, seat) {
            Some((t, _)) => {
                let (s, c) = self.eval_counts(self.objective(t));
                (s as i32, c as i32, own_stock(self, t))
            }
            None => (0, 0, 0),
        };
        let others = self.seats().saturating_sub(1).max(1) as f32;
        let field: usize =
            (0..self.seats()).filter(|&t| t != seat).map(|t| self.locations_showing(self.objective(t))).sum();
        out[0] = (ms as i32 - rs) as f32;
        out[1] = (mc as i32 - rc) as f32;
        out[2] = ms as f32 - field as f32 / others;
        out[3] = (own_stock(self, seat) - rstock) as f32;
    }

    fn weights() -> &'static [f32] {
        &WEIGHTS
    }
}

impl Secrets for KabaleoState {
    const VALUES: usize = COLOURS;

    fn candidates(knowledge: &Knowledge, seat: Seat) -> u64 {
        knowledge.candidates(seat).bits() as u64
    }

    fn history(knowledge: &Knowledge) -> Vec<(Seat, Move)> {
        knowledge.history().collect()
    }

    fn initial(knowledge: &Knowledge) -> KabaleoState {
        let assignment = knowledge.assignments()[0];
        let now = knowledge.complete(&assignment).expect("an assignment from the knowledge is consistent");
        let mut p = now.position();
        for (seat, mv) in knowledge.history() {
            if let Some(c) = mv.colour() {
                p.stocks[seat][c.index()] += 1;
            }
        }
        p.piles = vec![Vec::new(); p.bases.len()];
        p.to_move = now.first_mover();
        p.last_location = None;
        KabaleoState::from_position(&p).expect("the start of a game that was played is a valid position")
    }

    fn sample_weighted<R: Rng + ?Sized>(knowledge: &Knowledge, weights: &SecretWeights, rng: &mut R) -> KabaleoState {
        let mut w: Weights = [[0.0; COLOURS]; plateau_core::MAX_SEATS];
        for (row, src) in w.iter_mut().zip(weights.iter()) {
            row.copy_from_slice(&src[..COLOURS]);
        }
        match knowledge.sample_weighted(&w, rng) {
            Ok(s) => s,
            Err(_) => knowledge.sample_uniform(rng),
        }
    }

    fn evaluate_as(&self, _seat: Seat, value: usize) -> i32 {
        let Some(mine) = Colour::from_index(value) else { return 0 };
        let (mut total, mut n) = (0, 0);
        for c in self.colours().iter().filter(|&c| c != mine) {
            total += worth(self, c);
            n += 1;
        }
        worth(self, mine) - total / n.max(1)
    }

    fn secret(&self, seat: Seat) -> usize {
        self.objective(seat).index()
    }

    fn value_name(value: usize) -> String {
        Colour::from_index(value).map(|c| c.letter().to_string()).unwrap_or_else(|| value.to_string())
    }
}

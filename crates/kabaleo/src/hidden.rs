//! What one seat knows, and complete states consistent with it.
//!
//! A seat knows everything public (bases, piles, stocks, turn, the moves so
//! far and who played them) and its own objective; once the game is over, it
//! knows every objective. The unknown part is the objectives of the other
//! seats: an *assignment* gives each of them a distinct colour in play other
//! than the seat's own. Every such assignment is consistent with the
//! knowledge (the layout and the deal are drawn independently of the
//! objectives as far as a player who does not know the seed can tell), so:
//!
//! - [`Knowledge::assignments`] lists them all (at most 5·4·3 = 60);
//! - [`Knowledge::sample_uniform`] (what [`Hidden::sample`] does) draws one
//!   uniformly;
//! - [`Knowledge::sample_weighted`] draws one with probability proportional
//!   to the product of per-(seat, colour) weights, for searches that keep a
//!   belief over each opponent's objective.

use std::fmt;

use plateau_core::rand::Rng;
use plateau_core::rng::below;
use plateau_core::{Hidden, MAX_SEATS, Reader, Seat, State};

use crate::colour::{COLOURS, Colour, ColourSet};
use crate::state::{KabaleoState, Move, NONE, z_obj};
use crate::view::KabaleoView;

/// Everything one seat knows: the position with the objectives it may not
/// see removed (and their part of the hash taken out), and the moves so far.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Knowledge {
    seat: u8,
    masked: KabaleoState,
}

/// An objective for each seat (a complete assignment).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Assignment {
    objectives: [Colour; MAX_SEATS],
    seats: u8,
}

impl Assignment {
    /// An assignment from one colour per seat.
    ///
    /// # Panics
    /// If there are more than [`MAX_SEATS`] colours.
    pub fn new(objectives: &[Colour]) -> Assignment {
        let mut a = [Colour::Red; MAX_SEATS];
        a[..objectives.len()].copy_from_slice(objectives);
        Assignment { objectives: a, seats: objectives.len() as u8 }
    }

    /// The objective of `seat`.
    pub fn objective(&self, seat: Seat) -> Colour {
        self.objectives[..self.seats as usize][seat]
    }

    /// The objectives, one per seat.
    pub fn objectives(&self) -> &[Colour] {
        &self.objectives[..self.seats as usize]
    }
}

/// Weights per (seat, colour index) for [`Knowledge::sample_weighted`]:
/// `weights[seat][colour.index()]`, finite and non-negative. Rows of seats
/// whose objective is known are ignored.
pub type Weights = [[f64; COLOURS]; MAX_SEATS];

/// Why a state could not be completed or sampled.
#[derive(Clone, Debug, PartialEq)]
pub enum SampleError {
    /// A weight is negative or not finite.
    BadWeight {
        /// The seat.
        seat: Seat,
        /// The colour.
        colour: Colour,
        /// The weight.
        weight: f64,
    },
    /// Every consistent assignment has weight zero.
    ZeroWeight,
    /// The assignment contradicts the knowledge (a known objective differs,
    /// two seats share a colour, a colour is not in play, or the number of
    /// seats is wrong).
    Inconsistent(String),
}

impl fmt::Display for SampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleError::BadWeight { seat, colour, weight } => {
                write!(
                    f,
                    "weight {weight} for player {} and {} is not finite and non-negative",
                    seat + 1,
                    colour.name()
                )
            }
            SampleError::ZeroWeight => f.write_str("every consistent assignment of objectives has weight zero"),
            SampleError::Inconsistent(why) => write!(f, "inconsistent assignment: {why}"),
        }
    }
}

impl std::error::Error for SampleError {}

impl Knowledge {
    /// The seat whose knowledge this is.
    pub fn seat(&self) -> Seat {
        self.seat as Seat
    }

    /// The seat's own objective.
    pub fn objective(&self) -> Colour {
        Colour::ALL[self.masked.objectives[self.seat as usize] as usize]
    }

    /// The objective of `seat` if this seat knows it (its own; every one once
    /// the game is over).
    pub fn known_objective(&self, seat: Seat) -> Option<Colour> {
        Colour::from_index(self.masked.objectives[seat] as usize)
    }

    /// The seats whose objective is unknown, in seat order.
    pub fn unknown_seats(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..self.masked.seats as usize).filter(|&s| self.masked.objectives[s] == NONE)
    }

    /// The colours an unknown seat's objective may be: the colours in play but
    /// the known objectives. (For a known seat: its objective alone.)
    pub fn candidates(&self, seat: Seat) -> ColourSet {
        match self.known_objective(seat) {
            Some(c) => ColourSet::EMPTY.with(c),
            None => self.pool(),
        }
    }

    /// The moves so far, each with the seat that played it (public).
    pub fn history(&self) -> impl Iterator<Item = (Seat, Move)> + '_ {
        self.masked.history()
    }

    /// What this seat sees (the same as the true state's view for it).
    pub fn view(&self) -> KabaleoView {
        self.masked.view(Reader::Seat(self.seat as Seat))
    }

    /// The number of consistent assignments (1 once the game is over).
    pub fn count_assignments(&self) -> usize {
        let k = self.unknown_seats().count();
        let m = self.pool().len();
        (0..k).map(|i| m - i).product()
    }

    /// Every consistent assignment, in a fixed order (seat by seat, colours in
    /// the rules' order).
    pub fn assignments(&self) -> Vec<Assignment> {
        let mut out = Vec::with_capacity(self.count_assignments());
        self.for_each_assignment(|a| out.push(*a));
        out
    }

    /// Call `f` on every consistent assignment, in the order of
    /// [`Knowledge::assignments`], without allocating.
    pub fn for_each_assignment(&self, mut f: impl FnMut(&Assignment)) {
        let n = self.masked.seats as usize;
        let mut a = Assignment { objectives: [Colour::Red; MAX_SEATS], seats: n as u8 };
        let mut used = ColourSet::EMPTY;
        for s in 0..n {
            if let Some(c) = self.known_objective(s) {
                a.objectives[s] = c;
                used = used.with(c);
            }
        }
        self.enumerate(0, used, &mut a, &mut f);
    }

    fn enumerate(&self, seat: usize, used: ColourSet, a: &mut Assignment, f: &mut impl FnMut(&Assignment)) {
        if seat == self.masked.seats as usize {
            f(a);
            return;
        }
        if self.known_objective(seat).is_some() {
            return self.enumerate(seat + 1, used, a, f);
        }
        for c in self.masked.colours().iter() {
            if !used.contains(c) {
                a.objectives[seat] = c;
                self.enumerate(seat + 1, used.with(c), a, f);
            }
        }
    }

    /// The colours no known objective takes.
    fn pool(&self) -> ColourSet {
        let mut set = self.masked.colours();
        for s in 0..self.masked.seats as usize {
            if let Some(c) = self.known_objective(s) {
                set = set.without(c);
            }
        }
        set
    }

    /// The complete state with these objectives.
    pub fn complete(&self, assignment: &Assignment) -> Result<KabaleoState, SampleError> {
        let n = self.masked.seats as usize;
        if assignment.seats as usize != n {
            return Err(SampleError::Inconsistent(format!("{} objectives for {n} players", assignment.seats)));
        }
        let mut used = ColourSet::EMPTY;
        for (s, &c) in assignment.objectives().iter().enumerate() {
            if !self.masked.colours().contains(c) {
                return Err(SampleError::Inconsistent(format!("{} is not in play", c.name())));
            }
            if used.contains(c) {
                return Err(SampleError::Inconsistent(format!("two players have {}", c.name())));
            }
            used = used.with(c);
            if let Some(k) = self.known_objective(s)
                && k != c
            {
                return Err(SampleError::Inconsistent(format!(
                    "player {} is known to have {}, not {}",
                    s + 1,
                    k.name(),
                    c.name()
                )));
            }
        }
        Ok(self.fill(assignment))
    }

    /// The state with the unknown objectives filled in (assignment trusted).
    fn fill(&self, a: &Assignment) -> KabaleoState {
        let mut st = self.masked.clone();
        for s in 0..st.seats as usize {
            if st.objectives[s] == NONE {
                st.objectives[s] = a.objectives[s] as u8;
                st.hash ^= z_obj(s, st.objectives[s]);
            }
        }
        st
    }

    /// A complete state drawn uniformly among the consistent ones.
    pub fn sample_uniform<R: Rng + ?Sized>(&self, rng: &mut R) -> KabaleoState {
        let mut pool = [Colour::Red; COLOURS];
        let mut m = 0;
        for c in self.pool().iter() {
            pool[m] = c;
            m += 1;
        }
        let mut a = Assignment { objectives: [Colour::Red; MAX_SEATS], seats: self.masked.seats };
        let mut i = 0;
        for s in 0..self.masked.seats as usize {
            a.objectives[s] = match self.known_objective(s) {
                Some(c) => c,
                None => {
                    // A partial Fisher–Yates draw without replacement.
                    let j = i + below(rng, (m - i) as u64) as usize;
                    pool.swap(i, j);
                    i += 1;
                    pool[i - 1]
                }
            };
        }
        self.fill(&a)
    }

    /// A complete state drawn with probability proportional to the product,
    /// over the unknown seats, of `weights[seat][objective]` (exact: by
    /// enumeration of the at most 60 assignments).
    pub fn sample_weighted<R: Rng + ?Sized>(
        &self,
        weights: &Weights,
        rng: &mut R,
    ) -> Result<KabaleoState, SampleError> {
        for s in self.unknown_seats() {
            for c in self.masked.colours().iter() {
                let w = weights[s][c.index()];
                if !w.is_finite() || w < 0.0 {
                    return Err(SampleError::BadWeight { seat: s, colour: c, weight: w });
                }
            }
        }
        let weight =
            |a: &Assignment| -> f64 { self.unknown_seats().map(|s| weights[s][a.objectives[s].index()]).product() };
        let mut total = 0.0;
        self.for_each_assignment(|a| total += weight(a));
        if total.is_nan() || total <= 0.0 || !total.is_finite() {
            return Err(SampleError::ZeroWeight);
        }
        // A uniform draw in [0, total), 53 bits.
        let u = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) * total;
        let mut acc = 0.0;
        let mut chosen: Option<Assignment> = None;
        let mut last_positive: Option<Assignment> = None;
        self.for_each_assignment(|a| {
            if chosen.is_some() {
                return;
            }
            let w = weight(a);
            if w > 0.0 {
                last_positive = Some(*a);
                acc += w;
                if u < acc {
                    chosen = Some(*a);
                }
            }
        });
        // Rounding may leave u at or above the sum: take the last positive one.
        let a = chosen.or(last_positive).ok_or(SampleError::ZeroWeight)?;
        Ok(self.fill(&a))
    }
}

impl Hidden for KabaleoState {
    type Knowledge = Knowledge;

    fn knowledge(&self, seat: Seat) -> Knowledge {
        let mut masked = self.clone();
        if self.pieces_left() != 0 {
            for s in 0..self.seats as usize {
                if s != seat {
                    masked.hash ^= z_obj(s, masked.objectives[s]);
                    masked.objectives[s] = NONE;
                }
            }
        }
        Knowledge { seat: seat as u8, masked }
    }

    fn sample<R: Rng + ?Sized>(knowledge: &Knowledge, rng: &mut R) -> Self {
        knowledge.sample_uniform(rng)
    }
}

//! The final scoring: locations per colour, the two tie-breaks, ranks.

use plateau_core::{MAX_SEATS, Seat};

use crate::colour::Colour;
use crate::state::KabaleoState;

/// What a colour scores, compared in field order: the locations showing it,
/// then (first tie-break) the covered locations showing it, then (second
/// tie-break) the height of the highest pile it tops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Score {
    /// Locations showing the colour (top piece or bare base).
    pub locations: usize,
    /// Covered locations (piles of at least one piece) showing it.
    pub covered: usize,
    /// The height of the highest pile it tops (0 if none).
    pub highest_pile: usize,
}

/// Which criterion separated the winners from the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decider {
    /// One player's colour shows on the most locations.
    Locations,
    /// Tied on locations; the most covered locations decided.
    Covered,
    /// Tied on both; the highest pile decided.
    HighestPile,
    /// Still tied: the win is shared.
    Shared,
}

impl Decider {
    /// In words, for records and views.
    pub fn as_str(self) -> &'static str {
        match self {
            Decider::Locations => "most locations",
            Decider::Covered => "tie-break: most covered locations",
            Decider::HighestPile => "tie-break: highest pile",
            Decider::Shared => "shared win",
        }
    }
}

/// One player's line of the final scoring.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Standing {
    /// The seat (0-based).
    pub seat: Seat,
    /// The seat's name.
    pub player: String,
    /// The seat's objective, revealed.
    pub colour: Colour,
    /// What the colour scores.
    #[serde(flatten)]
    pub score: Score,
    /// The place, from 1; tied players share it.
    pub place: usize,
    /// Whether the player is among the winners.
    pub winner: bool,
}

impl KabaleoState {
    /// What `colour` scores now (the final score once the game is over).
    pub fn score(&self, colour: Colour) -> Score {
        Score {
            locations: self.locations_showing(colour),
            covered: self.covered_showing(colour),
            highest_pile: self.highest_pile(colour),
        }
    }

    /// The rank of each seat (0 is first; equal scores share a rank): the
    /// number of seats whose objective scores strictly better.
    pub(crate) fn ranks(&self) -> [u8; MAX_SEATS] {
        let n = self.seats as usize;
        let scores: Vec<Score> = (0..n).map(|s| self.score(self.objective(s))).collect();
        let mut ranks = [0u8; MAX_SEATS];
        for s in 0..n {
            ranks[s] = scores.iter().filter(|&&o| o > scores[s]).count() as u8;
        }
        ranks
    }

    /// The final standings, in seat order, once the game is over.
    pub fn standings(&self) -> Option<Vec<Standing>> {
        if self.pieces_left() != 0 {
            return None;
        }
        let ranks = self.ranks();
        Some(
            (0..self.seats as usize)
                .map(|s| Standing {
                    seat: s,
                    player: crate::game::seat_name(s),
                    colour: self.objective(s),
                    score: self.score(self.objective(s)),
                    place: ranks[s] as usize + 1,
                    winner: ranks[s] == 0,
                })
                .collect(),
        )
    }

    /// Which criterion decided the game, once it is over.
    pub fn decided_by(&self) -> Option<Decider> {
        if self.pieces_left() != 0 {
            return None;
        }
        let n = self.seats as usize;
        let scores: Vec<Score> = (0..n).map(|s| self.score(self.objective(s))).collect();
        let best = scores.iter().copied().max().unwrap_or_default();
        let winners = scores.iter().filter(|&&s| s == best).count();
        if winners > 1 {
            return Some(Decider::Shared);
        }
        let level = |f: fn(&Score) -> (usize, usize, usize)| scores.iter().filter(|s| f(s) == f(&best)).count();
        Some(if level(|s| (s.locations, 0, 0)) == 1 {
            Decider::Locations
        } else if level(|s| (s.locations, s.covered, 0)) == 1 {
            Decider::Covered
        } else {
            Decider::HighestPile
        })
    }
}

/// The record tags of a finished game: the objectives, the locations and
/// covered locations per colour, and what decided.
pub(crate) fn result_tags(st: &KabaleoState) -> Vec<(String, String)> {
    let Some(decider) = st.decided_by() else {
        return Vec::new();
    };
    let n = st.seats as usize;
    let objectives: Vec<String> = (0..n).map(|s| st.objective(s).letter().to_string()).collect();
    let per_colour = |f: &dyn Fn(Colour) -> usize| {
        st.colours().iter().map(|c| format!("{}={}", c.letter(), f(c))).collect::<Vec<_>>().join(" ")
    };
    vec![
        ("Objectives".to_string(), objectives.join(" ")),
        ("Locations".to_string(), per_colour(&|c| st.locations_showing(c))),
        ("Covered".to_string(), per_colour(&|c| st.covered_showing(c))),
        ("Decided".to_string(), decider.as_str().to_string()),
    ]
}

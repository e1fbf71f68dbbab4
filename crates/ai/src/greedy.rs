//! Greedy players: the best move by the game's evaluation, one decision ahead.

use std::time::Instant;

use plateau_core::rand::RngExt;
use plateau_core::{Evaluate, Hidden, Turn};

use crate::player::{Score, SearchInfo};
use crate::{HiddenSearch, PlayerRng, Search};

/// The value of a position for `seat` one decision ahead: a finished game's
/// return dominates any evaluation.
fn value<S: Evaluate>(s: &S, seat: usize, version: Option<usize>) -> i64 {
    match s.outcome() {
        Some(o) => (o.value(seat) * 1_000_000.0) as i64,
        None => crate::evaluate(s, seat, version) as i64,
    }
}

/// Greedy over the true state (perfect information). Ties are broken at random.
pub struct Greedy {
    rng: PlayerRng,
    version: Option<usize>,
}

impl Greedy {
    /// A greedy player.
    pub fn new(rng: PlayerRng) -> Self {
        Greedy { rng, version: None }
    }

    /// With the evaluation of this version (`None`: the latest).
    pub fn version(self, version: Option<usize>) -> Self {
        Greedy { version, ..self }
    }
}

fn pick<M: Copy>(rng: &mut PlayerRng, scored: &[(M, i64)]) -> (M, i64) {
    let best = scored.iter().map(|&(_, v)| v).max().expect("at least one move");
    let ties: Vec<_> = scored.iter().filter(|&&(_, v)| v == best).collect();
    *ties[rng.random_range(0..ties.len())]
}

impl<S: Evaluate> Search<S> for Greedy {
    fn search(&mut self, state: &S, _history: &[S::Move]) -> (Vec<S::Move>, SearchInfo) {
        let start = Instant::now();
        let Turn::Seat(seat) = state.to_move() else { return (Vec::new(), SearchInfo::default()) };
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let mut s = state.clone();
        let scored: Vec<(S::Move, i64)> = moves
            .iter()
            .map(|&mv| {
                let u = s.apply(mv);
                let v = value(&s, seat, self.version);
                s.undo(mv, u);
                (mv, v)
            })
            .collect();
        let (mv, v) = pick(&mut self.rng, &scored);
        let info = SearchInfo {
            depth: 1,
            nodes: moves.len() as u64,
            time: start.elapsed(),
            score: Some(Score::Eval(v.clamp(i32::MIN as i64, i32::MAX as i64) as i32)),
            pv: Vec::new(),
            returns: Vec::new(),
        };
        (vec![mv], info)
    }
}

/// Greedy for games with hidden information: each move is judged by the
/// average evaluation over states sampled from the seat's knowledge.
pub struct HiddenGreedy {
    rng: PlayerRng,
    samples: usize,
    version: Option<usize>,
}

impl HiddenGreedy {
    /// A greedy player averaging over 8 sampled states.
    pub fn new(rng: PlayerRng) -> Self {
        HiddenGreedy { rng, samples: 8, version: None }
    }

    /// With the evaluation of this version (`None`: the latest).
    pub fn version(self, version: Option<usize>) -> Self {
        HiddenGreedy { version, ..self }
    }
}

impl<S: Hidden + Evaluate> HiddenSearch<S> for HiddenGreedy {
    fn search(&mut self, knowledge: &S::Knowledge, seat: usize) -> (S::Move, SearchInfo) {
        let start = Instant::now();
        let states: Vec<S> = (0..self.samples).map(|_| S::sample(knowledge, &mut self.rng)).collect();
        let mut moves = Vec::new();
        states[0].legal_moves(&mut moves);
        let mut scored: Vec<(S::Move, i64)> = moves.iter().map(|&m| (m, 0)).collect();
        for st in &states {
            let mut s = st.clone();
            for (mv, total) in scored.iter_mut() {
                let u = s.apply(*mv);
                *total += value(&s, seat, self.version);
                s.undo(*mv, u);
            }
        }
        let (mv, v) = pick(&mut self.rng, &scored);
        let info = SearchInfo {
            depth: 1,
            nodes: (moves.len() * states.len()) as u64,
            time: start.elapsed(),
            score: Some(Score::Eval((v / states.len() as i64).clamp(i32::MIN as i64, i32::MAX as i64) as i32)),
            pv: Vec::new(),
            returns: Vec::new(),
        };
        (mv, info)
    }
}

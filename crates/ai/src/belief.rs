//! Beliefs over the other players' secrets (Kabaleo's objectives), inferred
//! from the moves they made.
//!
//! The model: a player whose secret is `v` chooses among its legal moves with
//! probability proportional to `exp(β · value_v(move))`, where `value_v` is the
//! game's opponent-model evaluation ([`Secrets::evaluate_as`]) of the position
//! after the move — a "noisily rational" player. Bayes' rule then updates, for
//! every move of every other seat, the weight of each value the seat's secret
//! may still have. A small share of every likelihood is uniform, so that one
//! surprising move never rules a value out. Beliefs are recomputed from the
//! start of the game at each decision, from the seat's knowledge only.

use plateau_core::{MAX_SEATS, MAX_SECRET_VALUES, Seat, SecretWeights, Secrets};

/// How sharply the model expects players to prefer better moves, per unit of
/// evaluation (100 units ≈ one location in Kabaleo).
pub const RATIONALITY: f64 = 0.03;

/// The share of each likelihood that is uniform over the legal moves.
const NOISE: f64 = 0.1;

/// A belief: for each seat, a probability for each value of its secret.
#[derive(Clone, Debug, PartialEq)]
pub struct Belief {
    /// `weights[seat][value]`, summing to 1 over each seat's candidates.
    pub weights: SecretWeights,
    seats: usize,
}

impl Belief {
    /// The most likely value of `seat`'s secret.
    pub fn top(&self, seat: Seat) -> usize {
        let w = &self.weights[seat];
        (0..MAX_SECRET_VALUES).max_by(|&a, &b| w[a].total_cmp(&w[b])).unwrap_or(0)
    }

    /// The number of seats.
    pub fn seats(&self) -> usize {
        self.seats
    }
}

/// What `me` believes of every seat's secret, given its knowledge.
pub fn infer<S: Secrets>(knowledge: &S::Knowledge, me: Seat, rationality: f64) -> Belief {
    let mut s = S::initial(knowledge);
    let seats = s.seats();
    let mut weights: SecretWeights = [[0.0; MAX_SECRET_VALUES]; MAX_SEATS];
    let mut open = [false; MAX_SEATS];
    for (seat, row) in weights.iter_mut().enumerate().take(seats) {
        let cands = S::candidates(knowledge, seat);
        let n = cands.count_ones() as f64;
        for (v, w) in row.iter_mut().enumerate().take(S::VALUES) {
            if cands >> v & 1 == 1 {
                *w = 1.0 / n;
            }
        }
        open[seat] = seat != me && cands.count_ones() > 1;
    }
    let mut moves = Vec::new();
    let mut values = Vec::new();
    for (seat, mv) in S::history(knowledge) {
        if open[seat] {
            s.legal_moves(&mut moves);
            if moves.len() > 1 {
                let cands = S::candidates(knowledge, seat);
                for v in (0..S::VALUES).filter(|v| cands >> v & 1 == 1) {
                    weights[seat][v] *= likelihood(&mut s, &moves, &mut values, seat, v, mv, rationality);
                }
                let total: f64 = weights[seat].iter().sum();
                if total > 0.0 {
                    for w in weights[seat].iter_mut() {
                        *w /= total;
                    }
                }
            }
        }
        if s.is_legal(mv) {
            s.apply(mv);
        } else {
            break;
        }
    }
    Belief { weights, seats }
}

/// The probability the model gives `seat`'s move `mv` among `moves` if its
/// secret is `v`: noisily rational (softmax of the evaluation at
/// `rationality`) with a floor of `NOISE` spread over the moves. `values` is
/// a reused buffer.
fn likelihood<S: Secrets>(
    s: &mut S,
    moves: &[S::Move],
    values: &mut Vec<f64>,
    seat: Seat,
    v: usize,
    mv: S::Move,
    rationality: f64,
) -> f64 {
    values.clear();
    let mut chosen = 0.0;
    for &m in moves {
        let u = s.apply(m);
        let q = s.evaluate_as(seat, v) as f64;
        s.undo(m, u);
        values.push(q);
        if m == mv {
            chosen = q;
        }
    }
    let max = values.iter().cloned().fold(f64::MIN, f64::max);
    let z: f64 = values.iter().map(|q| (rationality * (q - max)).exp()).sum();
    let p = (rationality * (chosen - max)).exp() / z;
    (1.0 - NOISE) * p + NOISE / moves.len() as f64
}

/// The prior probability, in [`infer_mixed`], that another player plays as
/// the noisily rational model says (rather than in a way the model does not
/// read). Measured with the latest ISMCTS at 100 ms (Kabaleo, the same
/// seeds paired): against two ISMCTS players of 2026-11-30 (3 players, 60
/// games), 41.7% of wins with 0.9 against 30.0% with the model alone (1.0);
/// against three greedy players (4 players, 80 games), 61.2% against 63.8%.
/// Lower priors won more of the 3-player games (48% with 0.2 or 0.05) but
/// fewer of the 4-player ones (64–65% against 71–74% with 1.0).
pub const MODEL_PRIOR: f64 = 0.9;

/// What `me` believes of every seat's secret when each other player may or
/// may not play as the model of [`infer`] says: a mixture, per seat, of the
/// model (prior `model_prior`) and of a player whose moves say nothing of its
/// secret. A player the model reads well (a greedy one) is read as by
/// [`infer`]; one whose moves the model explains no better than chance for
/// any value (another search, whose moves serve its look-ahead) leaves the
/// belief near uniform instead of misleading it.
pub fn infer_mixed<S: Secrets>(knowledge: &S::Knowledge, me: Seat, rationality: f64, model_prior: f64) -> Belief {
    infer_fitted::<S>(knowledge, me, rationality, model_prior).0
}

/// [`infer_mixed`]'s belief, and for each seat the posterior probability
/// that it plays as the model says (rather than by chance, as far as the
/// model can tell): `p·R / (p·R + 1 − p)`, where `p` is `model_prior` and
/// `R` the mean over the seat's candidate values of the likelihood ratio of
/// its moves, model against chance (each value equally likely a priori).
/// Greedy players, whom the model reads well, come near 1 after a few
/// moves; seats whose secret is known (`me`), or who made no move with a
/// choice, stay at `model_prior`.
pub fn infer_fitted<S: Secrets>(
    knowledge: &S::Knowledge,
    me: Seat,
    rationality: f64,
    model_prior: f64,
) -> (Belief, [f64; MAX_SEATS]) {
    let mut s = S::initial(knowledge);
    let seats = s.seats();
    // log of the likelihood ratio, model against chance, per seat and value.
    let mut log_ratio = [[0f64; MAX_SECRET_VALUES]; MAX_SEATS];
    let mut open = [false; MAX_SEATS];
    for (seat, o) in open.iter_mut().enumerate().take(seats) {
        *o = seat != me && S::candidates(knowledge, seat).count_ones() > 1;
    }
    let mut moves = Vec::new();
    let mut values = Vec::new();
    for (seat, mv) in S::history(knowledge) {
        if open[seat] {
            s.legal_moves(&mut moves);
            if moves.len() > 1 {
                let cands = S::candidates(knowledge, seat);
                let n = moves.len() as f64;
                for v in (0..S::VALUES).filter(|v| cands >> v & 1 == 1) {
                    log_ratio[seat][v] += (likelihood(&mut s, &moves, &mut values, seat, v, mv, rationality) * n).ln();
                }
            }
        }
        if s.is_legal(mv) {
            s.apply(mv);
        } else {
            break;
        }
    }
    let mut weights: SecretWeights = [[0.0; MAX_SECRET_VALUES]; MAX_SEATS];
    let mut fit = [model_prior; MAX_SEATS];
    for (seat, row) in weights.iter_mut().enumerate().take(seats) {
        let cands = S::candidates(knowledge, seat);
        let vals = || (0..S::VALUES).filter(|v| cands >> v & 1 == 1);
        // Scaled by the largest ratio, so that nothing overflows.
        let top = vals().map(|v| log_ratio[seat][v]).fold(0.0, f64::max);
        let mut model = 0.0;
        for v in vals() {
            let r = (log_ratio[seat][v] - top).exp();
            model += r;
            row[v] = model_prior * r + (1.0 - model_prior) * (-top).exp();
        }
        let n = cands.count_ones().max(1) as f64;
        let (m, c) = (model_prior * model / n, (1.0 - model_prior) * (-top).exp());
        if open[seat] && m + c > 0.0 {
            fit[seat] = m / (m + c);
        }
        let total: f64 = row.iter().sum();
        if total > 0.0 {
            for w in row.iter_mut() {
                *w /= total;
            }
        }
    }
    (Belief { weights, seats }, fit)
}

//! Tuning an evaluation's weights by self-play (Texel tuning).
//!
//! A game whose latest evaluation is a weighted sum of terms
//! ([`Evaluate::TERMS`], [`Evaluate::terms`], [`Evaluate::weights`]) gets
//! its weights fitted to game results:
//!
//! 1. **Data.** `games` self-play games with the game's own players (a
//!    spec, by default level 3), each from a few random moves (`openings`)
//!    so that games differ; every quiet position after the opening (the
//!    game's noisy moves empty, not over; or every position, with
//!    `all_positions`) where the seat to move decides with depth (not a
//!    [`Evaluate::free_decision`], such as Abraxas's removal of a line's
//!    stones: the search never stops there to evaluate, so the evaluation
//!    need not fit it) gives one example: the terms for
//!    the seat to move, and that seat's final result as a label in 0..1
//!    (`(return + 1) / 2`: a win 1, a draw ½, a loss 0). One game in five
//!    is held out of the fit to check it.
//! 2. **Scale.** The model is `P(win) = σ(k · Σ wᵢ·tᵢ)`; `k` is fitted
//!    first with the weights as they are (a one-dimensional search on
//!    `ln k`), then kept.
//! 3. **Weights.** With `k` fixed the log-loss is convex in the weights:
//!    Newton's method (iteratively reweighted least squares), with a ridge
//!    towards the weights as they were (`ridge` times each term's
//!    curvature, 1% by default, so that a term the data hardly sees keeps
//!    its weight; a larger ridge keeps every weight nearer where it was,
//!    which is what a small data set of one search's games can support).
//!    The terms named in [`TuneConfig::fixed`] keep their weights and the
//!    others are fitted around them.
//!
//! The result, with the command, the data's size and the log-loss before
//! and after on the fitted and held-out positions, is a
//! [`plateau_core::weights::Weights`]: the game keeps it as data.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use plateau_core::erased::Match;
use plateau_core::rand::{RngExt, SeedableRng};
use plateau_core::weights::{Term, Weights};
use plateau_core::{AnyMatch, Evaluate, Game, State, Turn};

use crate::player::Players;
use crate::spec::PlayerSpec;

/// What to tune from.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Self-play games.
    pub games: usize,
    /// The players of every seat (their seeds differ per game and seat).
    pub player: PlayerSpec,
    /// Random moves at the start of each game.
    pub openings: u32,
    /// The seed of openings, set-ups and players.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// A game still going after this many plies is left out.
    pub max_plies: usize,
    /// Keep every position of a game, not only the quiet ones (for games
    /// where most positions have noisy moves, such as Abraxas, whose every
    /// placement may threaten a line).
    pub all_positions: bool,
    /// The ridge towards the weights as they were, as a fraction of each
    /// term's curvature at them (0.01 by default; 0 for none).
    pub ridge: f64,
    /// Terms kept at their weights, out of the fit (names of
    /// [`Evaluate::TERMS`]): terms whose weight is a unit rather than a
    /// judgement, such as Colorito's moves made and moves still needed,
    /// whose sum is the race, or an exact result.
    pub fixed: Vec<String>,
}

/// One example: the terms for the seat to move and its result in 0..1.
struct Example {
    terms: Vec<f32>,
    result: f64,
    held_out: bool,
}

/// Makes a fresh match of the configured game for game number `i` (a caller
/// may spread games over variants) from a set-up seed: `new_match(i, seed)`.
pub type NewMatch<'a> = dyn Fn(usize, u64) -> Result<Box<dyn AnyMatch>, String> + Sync + 'a;

/// Play the self-play games and fit the weights (see the module
/// documentation). `progress` is told of every finished game.
pub fn tune<G: Game>(
    players: &dyn Players,
    new_match: &NewMatch<'_>,
    config: &TuneConfig,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Weights, String>
where
    G::State: Evaluate,
{
    let names = <G::State as Evaluate>::TERMS;
    if names.is_empty() {
        return Err(format!("{}'s evaluation has no terms to tune", G::INFO.name));
    }
    let before: Vec<f64> = <G::State as Evaluate>::weights().iter().map(|&w| w as f64).collect();
    if before.len() != names.len() {
        return Err(format!("{}: {} weights for {} terms", G::INFO.name, before.len(), names.len()));
    }
    let mut fixed = vec![false; names.len()];
    for name in &config.fixed {
        let i = names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| format!("{} has no term {name} (its terms: {})", G::INFO.name, names.join(", ")))?;
        fixed[i] = true;
    }
    let examples = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let error = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= config.games {
                        break;
                    }
                    match self_play::<G>(players, new_match, config, i) {
                        Ok(ex) => examples.lock().expect("examples").push((i, ex)),
                        Err(e) => {
                            *error.lock().expect("error") = Some(e);
                            break;
                        }
                    }
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, config.games);
                }
            });
        }
    });
    if let Some(e) = error.into_inner().expect("error") {
        return Err(e);
    }
    // In the games' order, whatever order the threads finished them in, so
    // that the fit's sums, and so the weights, do not depend on `threads`.
    let mut games = examples.into_inner().expect("examples");
    games.sort_unstable_by_key(|(i, _)| *i);
    let examples: Vec<Example> = games.into_iter().flat_map(|(_, ex)| ex).collect();
    let (fit, held): (Vec<&Example>, Vec<&Example>) = examples.iter().partition(|e| !e.held_out);
    if fit.len() < 10 * names.len() {
        return Err(format!("{} positions are too few to fit {} weights: play more games", fit.len(), names.len()));
    }
    let scale = fit_scale(&fit, &before);
    let after = fit_weights(&fit, &before, scale, config.ridge, &fixed);
    Ok(Weights {
        game: G::INFO.name.to_string(),
        variant: String::new(),
        command: String::new(),
        games: config.games,
        positions: examples.len(),
        scale,
        log_loss_before: log_loss(&fit, &before, scale),
        log_loss_after: log_loss(&fit, &after, scale),
        held_out_before: log_loss(&held, &before, scale),
        held_out_after: log_loss(&held, &after, scale),
        terms: names
            .iter()
            .zip(before.iter().zip(&after))
            .map(|(n, (&b, &a))| Term { name: n.to_string(), before: b, weight: (a * 1000.0).round() / 1000.0 })
            .collect(),
    })
}

/// One self-play game's examples.
fn self_play<G: Game>(
    players: &dyn Players,
    new_match: &NewMatch<'_>,
    config: &TuneConfig,
    game: usize,
) -> Result<Vec<Example>, String>
where
    G::State: Evaluate,
{
    let seed = config.seed.wrapping_mul(1_000_003).wrapping_add(game as u64);
    let mut m = new_match(game, seed)?;
    let mut rng = crate::PlayerRng::seed_from_u64(seed ^ 0x7e5a_17ab);
    let mut moves = Vec::new();
    for _ in 0..config.openings {
        if m.to_move() == Turn::Over {
            return Ok(Vec::new());
        }
        typed::<G>(&*m)?.state().legal_moves(&mut moves);
        let s = typed::<G>(&*m)?.state();
        let text = s.format_move(moves[rng.random_range(0..moves.len())]);
        m.play(&text).map_err(|e| e.to_string())?;
    }
    let seats = m.seats();
    let mut seated = Vec::with_capacity(seats);
    for seat in 0..seats {
        let mut spec = config.player.clone();
        spec.seed = Some(seed.wrapping_mul(31).wrapping_add(seat as u64));
        seated.push(players.create(&spec).map_err(|e| e.to_string())?);
    }
    let terms = <G::State as Evaluate>::TERMS.len();
    let mut positions: Vec<(usize, Vec<f32>)> = Vec::new();
    let mut noisy = Vec::new();
    while let Turn::Seat(seat) = m.to_move() {
        if m.ply() >= config.max_plies {
            return Ok(Vec::new());
        }
        let s = typed::<G>(&*m)?.state();
        if !config.all_positions {
            s.noisy_moves(&mut noisy);
        }
        if (config.all_positions || noisy.is_empty()) && !s.free_decision() {
            let mut t = vec![0f32; terms];
            s.terms(seat, &mut t);
            positions.push((seat, t));
        }
        let choice = seated[seat].choose(&*m).map_err(|e| e.to_string())?;
        m.play(&choice.mv).map_err(|e| e.to_string())?;
    }
    let outcome = m.outcome().ok_or("a finished game has an outcome")?;
    let held_out = game % 5 == 4;
    Ok(positions
        .into_iter()
        .map(|(seat, terms)| Example { terms, result: (outcome.value(seat) as f64 + 1.0) / 2.0, held_out })
        .collect())
}

fn typed<G: Game>(m: &dyn AnyMatch) -> Result<&Match<G>, String> {
    m.as_any().downcast_ref::<Match<G>>().ok_or_else(|| format!("not a match of {}", G::INFO.name))
}

fn eval(e: &Example, w: &[f64]) -> f64 {
    e.terms.iter().zip(w).map(|(&t, &w)| t as f64 * w).sum()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean log-loss of the results under `σ(k · Σ w·t)`.
fn log_loss(examples: &[&Example], w: &[f64], k: f64) -> f64 {
    if examples.is_empty() {
        return 0.0;
    }
    let sum: f64 = examples
        .iter()
        .map(|e| {
            let p = sigmoid(k * eval(e, w)).clamp(1e-12, 1.0 - 1e-12);
            -(e.result * p.ln() + (1.0 - e.result) * (1.0 - p).ln())
        })
        .sum();
    sum / examples.len() as f64
}

/// The `k` that fits the results best with weights `w` (golden-section
/// search on `ln k` over 10⁻⁶ … 1).
fn fit_scale(examples: &[&Example], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = ((1e-6f64).ln(), 0.0f64);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let f = |x: f64| log_loss(examples, w, x.exp());
    let mut a = hi - phi * (hi - lo);
    let mut b = lo + phi * (hi - lo);
    let (mut fa, mut fb) = (f(a), f(b));
    for _ in 0..80 {
        if fa < fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - phi * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + phi * (hi - lo);
            fb = f(b);
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Newton's method on the log-loss in the weights, `k` fixed, with a ridge
/// towards `w0` of `ridge` times each term's curvature at `w0`; the terms
/// marked `fixed` keep their weights in `w0`.
fn fit_weights(examples: &[&Example], w0: &[f64], k: f64, ridge: f64, fixed: &[bool]) -> Vec<f64> {
    let d = w0.len();
    let n = examples.len() as f64;
    let curvature = |w: &[f64]| -> (Vec<f64>, Vec<Vec<f64>>) {
        let mut g = vec![0.0; d];
        let mut h = vec![vec![0.0; d]; d];
        for e in examples {
            let p = sigmoid(k * eval(e, w));
            let r = (p - e.result) * k;
            let c = p * (1.0 - p) * k * k;
            for (i, &ti) in e.terms.iter().enumerate() {
                let ti = ti as f64;
                g[i] += r * ti;
                for (hij, &tj) in h[i].iter_mut().zip(&e.terms) {
                    *hij += c * ti * tj as f64;
                }
            }
        }
        (g, h)
    };
    let (_, h0) = curvature(w0);
    let ridge: Vec<f64> = (0..d).map(|i| ridge * h0[i][i] + 1e-12 * n).collect();
    let objective = |w: &[f64]| -> f64 {
        log_loss(examples, w, k) * n + (0..d).map(|i| ridge[i] * (w[i] - w0[i]).powi(2)).sum::<f64>()
    };
    let mut w = w0.to_vec();
    let mut current = objective(&w);
    for _ in 0..50 {
        let (mut g, mut h) = curvature(&w);
        for i in 0..d {
            g[i] += 2.0 * ridge[i] * (w[i] - w0[i]);
            h[i][i] += 2.0 * ridge[i];
        }
        // A fixed term's row and column become the identity's, its
        // gradient 0: its step is 0 and the others are fitted around it.
        for i in (0..d).filter(|&i| fixed[i]) {
            g[i] = 0.0;
            h[i].fill(0.0);
            for row in h.iter_mut() {
                row[i] = 0.0;
            }
            h[i][i] = 1.0;
        }
        let Some(step) = solve(h, g) else { break };
        // Damped: halve the step until the objective does not rise.
        let mut t = 1.0;
        let mut improved = false;
        for _ in 0..30 {
            let trial: Vec<f64> = w.iter().zip(&step).map(|(&w, &s)| w - t * s).collect();
            let v = objective(&trial);
            if v <= current {
                let gain = current - v;
                w = trial;
                current = v;
                improved = gain > 1e-9 * n;
                break;
            }
            t /= 2.0;
        }
        if !improved {
            break;
        }
    }
    w
}

/// Solve `a · x = b` by Gaussian elimination with partial pivoting; `None`
/// for a singular matrix.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let f = a[row][col] / a[col][col];
            if f != 0.0 {
                let (top, bottom) = a.split_at_mut(row);
                for (x, &p) in bottom[0][col..].iter_mut().zip(&top[col][col..]) {
                    *x -= f * p;
                }
                b[row] -= f * b[col];
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|c| a[row][c] * x[c]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 20,000 examples of random terms in ±100, each labelled a win with
    /// probability `σ(k · Σ truth·t)`.
    fn logistic_examples(truth: &[f64], k: f64, seed: u64) -> Vec<Example> {
        let mut rng = crate::PlayerRng::seed_from_u64(seed);
        (0..20_000)
            .map(|_| {
                let terms: Vec<f32> = truth.iter().map(|_| rng.random_range(-100.0f32..100.0)).collect();
                let z: f64 = terms.iter().zip(truth).map(|(&t, &w)| t as f64 * w).sum();
                let result = if rng.random_bool(sigmoid(k * z)) { 1.0 } else { 0.0 };
                Example { terms, result, held_out: false }
            })
            .collect()
    }

    /// Examples drawn from a known logistic model: the fit recovers its
    /// weights (the expected values come from the generator, not from the
    /// fit).
    #[test]
    fn newton_recovers_the_weights_of_a_known_logistic_model() {
        let truth = [2.0, -1.0, 0.5];
        let k = 0.01;
        let examples = logistic_examples(&truth, k, 7);
        let refs: Vec<&Example> = examples.iter().collect();
        let start = [1.0, 1.0, 1.0];
        let w = fit_weights(&refs, &start, k, 0.01, &[false; 3]);
        for (got, want) in w.iter().zip(truth) {
            assert!((got - want).abs() < 0.15, "{w:?} against {truth:?}");
        }
        assert!(log_loss(&refs, &w, k) < log_loss(&refs, &start, k));
        // And the scale: with the true weights, the fitted k is near 0.01.
        let fitted = fit_scale(&refs, &truth);
        assert!((fitted - k).abs() < 0.0015, "{fitted}");
    }

    /// The ridge: none recovers the generator's weights, a large one keeps
    /// the weights where they started.
    #[test]
    fn a_large_ridge_keeps_the_weights_near_where_they_were() {
        let truth = [2.0, -1.0];
        let k = 0.01;
        let examples = logistic_examples(&truth, k, 11);
        let refs: Vec<&Example> = examples.iter().collect();
        let start = [1.0, 1.0];
        let free = fit_weights(&refs, &start, k, 0.0, &[false; 2]);
        for (got, want) in free.iter().zip(truth) {
            assert!((got - want).abs() < 0.15, "{free:?} against {truth:?}");
        }
        let held = fit_weights(&refs, &start, k, 100.0, &[false; 2]);
        for (got, was) in held.iter().zip(start) {
            assert!((got - was).abs() < 0.05, "{held:?} should stay near {start:?}");
        }
        assert!(held != start, "a ridge still lets the data move the weights a little: {held:?}");
    }

    /// A toy game of six plies in which every other decision is free
    /// ([`Evaluate::free_decision`]): the search never evaluates there, so
    /// the tuner leaves those positions out, even with `all_positions`.
    mod free {
        use plateau_core::{
            ConfigError, Encode, Evaluate, Game, GameInfo, MoveError, OptionSpec, Outcome, Reader, Seat, Settings,
            State, Turn, VariantSpec,
        };

        #[derive(Clone, Debug, PartialEq)]
        pub struct Steps(pub u32);

        #[derive(Clone, Debug)]
        pub struct StepsGame;

        static INFO: GameInfo = GameInfo {
            name: "steps",
            title: "Steps",
            summary: "A test game.",
            min_seats: 2,
            max_seats: 2,
            hidden: false,
            uses_seed: false,
            has_draws: false,
            notation: "1",
            variants: &[VariantSpec { name: "standard", help: "", options: &[] }],
            options: &[] as &[OptionSpec],
        };

        impl Game for StepsGame {
            type State = Steps;
            const INFO: &'static GameInfo = &INFO;
            fn configure(_: &Settings) -> Result<Self, ConfigError> {
                Ok(StepsGame)
            }
            fn seats(&self) -> usize {
                2
            }
            fn seat_name(&self, seat: Seat) -> String {
                format!("P{seat}")
            }
            fn start(&self, _: u64) -> Steps {
                Steps(0)
            }
            fn ply_bound(&self) -> Option<u64> {
                Some(6)
            }
        }

        impl State for Steps {
            type Move = u32;
            type Undo = ();
            type View = u32;
            fn seats(&self) -> usize {
                2
            }
            /// Seat 0 at plies 0, 1 (free), 4 and 5 (free); seat 1 at 2 and 3 (free).
            fn to_move(&self) -> Turn {
                if self.0 >= 6 { Turn::Over } else { Turn::Seat(((self.0 / 2) % 2) as usize) }
            }
            fn ply(&self) -> u32 {
                self.0
            }
            fn legal_moves(&self, out: &mut Vec<u32>) {
                out.clear();
                if self.0 < 6 {
                    out.push(1);
                }
            }
            fn check(&self, mv: u32) -> Result<(), MoveError> {
                if mv == 1 && self.0 < 6 { Ok(()) } else { Err(MoveError::illegal("1")) }
            }
            fn apply(&mut self, _: u32) {
                self.0 += 1;
            }
            fn undo(&mut self, _: u32, _: ()) {
                self.0 -= 1;
            }
            fn outcome(&self) -> Option<Outcome> {
                (self.0 >= 6).then(|| Outcome::shared_win(2, &[0], "steps"))
            }
            fn key(&self) -> u64 {
                self.0.into()
            }
            fn format_move(&self, mv: u32) -> String {
                mv.to_string()
            }
            fn parse_move(&self, text: &str) -> Result<u32, MoveError> {
                text.parse().map_err(|_| MoveError::syntax("1"))
            }
            fn view(&self, _: Reader) -> u32 {
                self.0
            }
            fn render(&self, _: Reader, _: bool) -> String {
                self.0.to_string()
            }
        }

        impl Encode for Steps {
            fn actions(&self) -> usize {
                1
            }
            fn action(&self, _: u32) -> usize {
                0
            }
            fn move_of(&self, action: usize) -> Option<u32> {
                (action == 0).then_some(1)
            }
            fn observation_shape(&self) -> [usize; 3] {
                [1, 1, 1]
            }
            fn plane_names(&self) -> Vec<String> {
                vec!["ply".into()]
            }
            fn observe(&self, _: Seat, out: &mut [f32]) {
                out[0] = self.0 as f32 / 6.0;
            }
        }

        impl Evaluate for Steps {
            const TERMS: &'static [&'static str] = &["seat-0", "ply"];
            fn evaluate(&self, seat: Seat) -> i32 {
                if seat == 0 { 1 } else { -1 }
            }
            /// Every odd ply.
            fn free_decision(&self) -> bool {
                self.0 % 2 == 1
            }
            fn terms(&self, seat: Seat, out: &mut [f32]) {
                out[0] = if seat == 0 { 1.0 } else { -1.0 };
                out[1] = self.0 as f32;
            }
            fn weights() -> &'static [f32] {
                &[1.0, 0.0]
            }
        }
    }

    #[test]
    fn free_decisions_are_never_examples() {
        let players = crate::two_player::<free::StepsGame>();
        let new_match = |_: usize, seed: u64| {
            plateau_core::Registry::new()
                .with(plateau_core::entry::<free::StepsGame>())
                .new_match("steps", &plateau_core::Setup { seed, ..Default::default() })
                .map_err(|e| e.to_string())
        };
        let config = TuneConfig {
            games: 10,
            player: PlayerSpec::parse("random").unwrap(),
            openings: 0,
            seed: 1,
            threads: 1,
            max_plies: 100,
            all_positions: true,
            ridge: 0.01,
            fixed: Vec::new(),
        };
        let w = players.tune(&new_match, &config, &|_, _| {}).unwrap();
        // Plies 0, 2 and 4 of each game (1, 3 and 5 are free): 3 × 10.
        assert_eq!(w.positions, 30);
    }

    /// A fixed term keeps its weight exactly, right or wrong, and the others
    /// are fitted around it: with the generator's weight fixed, the others
    /// reach the generator's; with a wrong one fixed, the fit is worse than
    /// with it free.
    #[test]
    fn a_fixed_term_keeps_its_weight_and_the_others_fit_around_it() {
        let truth = [2.0, -1.0, 0.5];
        let k = 0.01;
        let examples = logistic_examples(&truth, k, 13);
        let refs: Vec<&Example> = examples.iter().collect();
        let fixed = [true, false, false];
        let w = fit_weights(&refs, &[2.0, 0.0, 0.0], k, 0.0, &fixed);
        assert_eq!(w[0], 2.0);
        for (got, want) in w.iter().zip(truth).skip(1) {
            assert!((got - want).abs() < 0.15, "{w:?} against {truth:?}");
        }
        let wrong = fit_weights(&refs, &[1.0, 0.0, 0.0], k, 0.0, &fixed);
        assert_eq!(wrong[0], 1.0);
        let free = fit_weights(&refs, &[1.0, 0.0, 0.0], k, 0.0, &[false; 3]);
        assert!((free[0] - 2.0).abs() < 0.15, "{free:?}");
        assert!(log_loss(&refs, &free, k) < log_loss(&refs, &wrong, k));
    }

    #[test]
    fn gaussian_elimination_solves_and_refuses_singular_systems() {
        // 2x + y = 5, x + 3y = 10: x = 1, y = 3 (by hand).
        let x = solve(vec![vec![2.0, 1.0], vec![1.0, 3.0]], vec![5.0, 10.0]).unwrap();
        assert!((x[0] - 1.0).abs() < 1e-12 && (x[1] - 3.0).abs() < 1e-12);
        assert!(solve(vec![vec![1.0, 2.0], vec![2.0, 4.0]], vec![1.0, 2.0]).is_none());
    }
}

//! Player ratings for Plateau (issue 15): the Glicko-2 system of Mark
//! Glickman, exactly as his paper "Example of the Glicko-2 system" describes
//! it, for two-player games and for the final ranking of a multi-player game.
//!
//! The crate is pure computation: no I/O, no clock, no storage. The server
//! keeps one [`Rating`] per player and game name, and calls these functions
//! when a game ends. The decisions (constants, rating periods, rankings,
//! inactivity, variants, computer players) and the server's use are written
//! down in `docs/ratings.md`; the short version:
//!
//! - A new player is 1500, RD 350, volatility 0.06 ([`Rating::NEW`]).
//! - The system constant τ is [`TAU`] = 0.5; the Illinois algorithm stops at
//!   ε = [`EPSILON`] = 0.000001.
//! - **Each game is a rating period of its own** (as lichess does): a
//!   two-player game updates both players at once from their ratings before
//!   the game ([`rate_two`]).
//! - **A multi-player game is one rating period** in which each player met
//!   every other player once, the result of each pair read from the final
//!   ranking (better rank wins, equal ranks draw); all pairs use the ratings
//!   from before the game ([`rate_ranking`]).
//! - RD never exceeds [`MAX_DEVIATION`] = 350 and a game never takes it below
//!   [`MIN_DEVIATION`] = 45; a rating is provisional while its RD exceeds
//!   [`PROVISIONAL_DEVIATION`] = 110 ([`Rating::is_provisional`]).
//! - Time without games only widens RD: [`Rating::after_idle`], one idle
//!   period per [`DAYS_PER_IDLE_PERIOD`] days ([`idle_periods`]).
//!
//! ```
//! use plateau_rating::{Rating, rate_two, WIN};
//!
//! let (winner, loser) = rate_two(Rating::NEW, Rating::NEW, WIN);
//! assert!(winner.rating > 1500.0 && loser.rating < 1500.0);
//! assert_eq!((winner.games, loser.games), (1, 1));
//! assert!(winner.is_provisional());
//! ```
//!
//! Displaying a rating (rounding, a "?" for provisional ratings, a
//! conservative `rating − 2·RD` for leaderboards) is left to callers.

mod glicko2;

use glicko2::{CENTRE, Mu, SCALE};
use serde::{Deserialize, Serialize};

/// The system constant τ of Glicko-2: how fast the volatility may change.
/// Glickman suggests a value between 0.3 and 1.2; 0.5 is the middle of the
/// range most implementations use (the paper's worked example uses it too).
pub const TAU: f64 = 0.5;

/// The convergence tolerance ε of the Illinois algorithm (step 5), the
/// paper's value.
pub const EPSILON: f64 = 0.000001;

/// A new player's rating.
pub const START_RATING: f64 = 1500.0;

/// A new player's rating deviation (RD), the paper's value.
pub const START_DEVIATION: f64 = 350.0;

/// A new player's volatility σ, the paper's value.
pub const START_VOLATILITY: f64 = 0.06;

/// The largest rating deviation: a new player's. Inactivity never makes a
/// player more uncertain than a stranger.
pub const MAX_DEVIATION: f64 = 350.0;

/// The smallest rating deviation a game may leave (lichess's value). With
/// one game per period, RD settles near 60 against established opponents
/// anyway (σ adds back what each game removes); the floor only keeps a very
/// active player's rating from freezing.
pub const MIN_DEVIATION: f64 = 45.0;

/// A rating whose RD is above this is provisional (lichess's value): about ten
/// games against established players bring a new player below it.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// How many days without a game make one idle rating period (see
/// [`idle_periods`]). Five days a period: a settled player (RD about 60)
/// becomes provisional again after about thirteen months without a game
/// (78 periods), and a player back after a month has RD about 65.
pub const DAYS_PER_IDLE_PERIOD: f64 = 5.0;

/// The score of a win.
pub const WIN: f64 = 1.0;
/// The score of a draw.
pub const DRAW: f64 = 0.5;
/// The score of a loss.
pub const LOSS: f64 = 0.0;

/// A player's rating in one game, on the Glicko scale (the familiar one,
/// centred on 1500).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating r.
    pub rating: f64,
    /// The rating deviation RD: one standard deviation of the uncertainty of
    /// `rating`, in rating points (a 95% interval is about `rating ± 2·RD`).
    pub deviation: f64,
    /// The volatility σ: how erratic the player's results have been.
    pub volatility: f64,
    /// The number of rated games played (a multi-player game counts once).
    pub games: u32,
}

impl Default for Rating {
    fn default() -> Self {
        Rating::NEW
    }
}

impl Rating {
    /// A new player: 1500, RD 350, volatility 0.06, no games.
    pub const NEW: Rating =
        Rating { rating: START_RATING, deviation: START_DEVIATION, volatility: START_VOLATILITY, games: 0 };

    /// Whether the rating is still provisional: its RD is above
    /// [`PROVISIONAL_DEVIATION`] (110).
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating after `periods` rating periods without a game (Glicko-2's
    /// step 6 alone, `periods` times): RD grows to √(RD² + n·(173.7178σ)²),
    /// at most [`MAX_DEVIATION`]; the rating, volatility and games do not
    /// change. `periods` may be fractional (see [`idle_periods`]); a negative
    /// or non-finite number counts as zero.
    ///
    /// The server applies it, from the time of the player's last rated game,
    /// before rating a new game and when showing a rating; it stores the
    /// rating as of the last game.
    pub fn after_idle(self, periods: f64) -> Rating {
        let r = self.sanitized();
        let periods = if periods.is_finite() && periods > 0.0 { periods } else { 0.0 };
        // Step 6 on the Glicko scale (exact when `periods` is 0):
        // SCALE·√(φ² + nσ²) = √(RD² + n(SCALE·σ)²).
        let step = SCALE * r.volatility;
        let deviation = (r.deviation * r.deviation + periods * step * step).sqrt();
        Rating { deviation: deviation.min(MAX_DEVIATION), ..r }
    }

    /// The rating with every field usable: a non-finite rating becomes 1500,
    /// a non-finite or non-positive RD 350 (an RD above 350 becomes 350), a
    /// non-finite or non-positive volatility 0.06. Every function of the
    /// crate sanitizes its inputs this way, so that a damaged stored value
    /// cannot spread NaN through the pool.
    pub fn sanitized(self) -> Rating {
        let rating = if self.rating.is_finite() { self.rating } else { START_RATING };
        let deviation = if self.deviation.is_finite() && self.deviation > 0.0 {
            self.deviation.min(MAX_DEVIATION)
        } else {
            START_DEVIATION
        };
        let volatility =
            if self.volatility.is_finite() && self.volatility > 0.0 { self.volatility } else { START_VOLATILITY };
        Rating { rating, deviation, volatility, games: self.games }
    }

    /// Step 2: to the Glicko-2 scale.
    fn to_mu(self) -> Mu {
        Mu { mu: (self.rating - CENTRE) / SCALE, phi: self.deviation / SCALE, sigma: self.volatility }
    }

    /// Step 8: back to the Glicko scale, with the bounds on RD.
    fn from_mu(m: Mu, games: u32) -> Rating {
        Rating {
            rating: CENTRE + SCALE * m.mu,
            deviation: (SCALE * m.phi).clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: m.sigma,
            games,
        }
    }
}

/// The number of idle rating periods in `days` days without a game:
/// `days / DAYS_PER_IDLE_PERIOD`, for [`Rating::after_idle`].
pub fn idle_periods(days: f64) -> f64 {
    days / DAYS_PER_IDLE_PERIOD
}

/// A score made usable: clamped to [0, 1], NaN read as a draw.
fn score(s: f64) -> f64 {
    if s.is_nan() { DRAW } else { s.clamp(LOSS, WIN) }
}

/// One rating period of `player` with the given results, counting `games`
/// games. The heart of every public function.
fn rate_period(player: Rating, results: &[(Rating, f64)], games: u32) -> Rating {
    let p = player.sanitized();
    if results.is_empty() {
        return p.after_idle(1.0);
    }
    let results: Vec<(Mu, f64)> = results.iter().map(|&(o, s)| (o.sanitized().to_mu(), score(s))).collect();
    let after = glicko2::period(p.to_mu(), &results, TAU, EPSILON).after;
    Rating::from_mu(after, p.games.saturating_add(games))
}

/// One rating period of `player`: the results are its games in the period,
/// each an opponent (as rated before the period) and the player's score (1
/// win, ½ draw, 0 loss; other values are clamped to [0, 1]). Each result
/// counts as one game. With no results, the period is idle: only RD grows
/// (as [`Rating::after_idle`] with one period).
///
/// This is the paper's algorithm as it stands; Plateau itself rates each
/// game as a period of its own ([`rate_two`], [`rate_ranking`]).
pub fn update(player: Rating, results: &[(Rating, f64)]) -> Rating {
    let games = u32::try_from(results.len()).unwrap_or(u32::MAX);
    rate_period(player, results, games)
}

/// A two-player game as one rating period: `score_a` is `a`'s score (1 a
/// win, ½ a draw, 0 a loss), `b`'s is `1 − score_a`. Both are rated from
/// their ratings before the game.
pub fn rate_two(a: Rating, b: Rating, score_a: f64) -> (Rating, Rating) {
    let s = score(score_a);
    (rate_period(a, &[(b, s)], 1), rate_period(b, &[(a, 1.0 - s)], 1))
}

/// A multi-player game as one rating period, from its final ranking: each
/// entry is a player (as rated before the game) and its rank, a smaller rank
/// being better and equal ranks a tie (ranks need not be consecutive:
/// `[1, 1, 3]` and `[0, 0, 1]` say the same). The result is in the order of
/// the input.
///
/// Each player is rated in one period against every other player of the
/// game, with a win against those ranked below, a draw against those ranked
/// equal and a loss against those ranked above; the game counts as one game.
/// With two players it is [`rate_two`]. With fewer than two players there is
/// no game and the ratings are returned unchanged.
pub fn rate_ranking(players: &[(Rating, u32)]) -> Vec<Rating> {
    if players.len() < 2 {
        return players.iter().map(|&(r, _)| r).collect();
    }
    players
        .iter()
        .enumerate()
        .map(|(i, &(me, my_rank))| {
            let results: Vec<(Rating, f64)> = players
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &(them, their_rank))| {
                    let s = match my_rank.cmp(&their_rank) {
                        std::cmp::Ordering::Less => WIN,
                        std::cmp::Ordering::Equal => DRAW,
                        std::cmp::Ordering::Greater => LOSS,
                    };
                    (them, s)
                })
                .collect();
            rate_period(me, &results, 1)
        })
        .collect()
}

/// The expected score of `a` against `b` (the probability that `a` wins,
/// counting a draw as half), from Glicko's expectation with the combined
/// deviation of both players: 1 / (1 + exp(−g(√(φa² + φb²))(μa − μb))).
/// `expected_score(a, b) + expected_score(b, a) == 1`.
///
/// The update itself uses the paper's E, which weighs only the opponent's
/// deviation; this symmetric form is the better prediction between two
/// rated players (Glickman gives it for Glicko).
pub fn expected_score(a: Rating, b: Rating) -> f64 {
    let (a, b) = (a.sanitized().to_mu(), b.sanitized().to_mu());
    let phi = (a.phi * a.phi + b.phi * b.phi).sqrt();
    1.0 / (1.0 + (-glicko2::g(phi) * (a.mu - b.mu)).exp())
}

#[cfg(test)]
mod tests {
    use super::glicko2::{self, Mu, SCALE};
    use super::*;

    /// The player and opponents of Glickman's worked example.
    fn example() -> (Rating, [(Rating, f64); 3]) {
        let r = |rating, deviation| Rating { rating, deviation, volatility: 0.06, games: 0 };
        (r(1500.0, 200.0), [(r(1400.0, 30.0), WIN), (r(1550.0, 100.0), LOSS), (r(1700.0, 300.0), LOSS)])
    }

    fn close(got: f64, want: f64, tolerance: f64) -> bool {
        (got - want).abs() <= tolerance
    }

    /// The paper prints σ' = 0.05999: σ' cut (not rounded) to five decimals
    /// (its own v and Δ give 0.0599960 too).
    fn five_decimals(sigma: f64) -> bool {
        (0.05999..0.06).contains(&sigma)
    }

    /// Every intermediate figure of "Example of the Glicko-2 system", to
    /// the decimals the paper prints. The paper rounds as it goes (E to
    /// three decimals, μ' to four before step 8), so v and Δ are checked to
    /// the precision its rounded E allows, and r' = 1464.06 is its rounded μ'
    /// converted: full precision gives 1464.0507 (pinned here, and the
    /// figure independent implementations of the paper report too).
    #[test]
    fn glickman_worked_example_step_by_step() {
        let (player, opponents) = example();
        let p = player.to_mu();
        // Step 2.
        assert!(close(p.mu, 0.0, 1e-12) && close(p.phi, 1.1513, 0.00005), "{p:?}");
        let o: Vec<(Mu, f64)> = opponents.iter().map(|&(o, s)| (o.to_mu(), s)).collect();
        let mus = [-0.5756, 0.2878, 1.1513];
        let phis = [0.1727, 0.5756, 1.7269];
        let gs = [0.9955, 0.9531, 0.7242];
        let es = [0.639, 0.432, 0.303];
        for (j, (oj, _)) in o.iter().enumerate() {
            assert!(close(oj.mu, mus[j], 0.00005), "μ{j} {}", oj.mu);
            assert!(close(oj.phi, phis[j], 0.00005), "φ{j} {}", oj.phi);
            assert!(close(glicko2::g(oj.phi), gs[j], 0.00005), "g{j}");
            assert!(close(glicko2::e(p.mu, oj.mu, oj.phi), es[j], 0.0005), "E{j}");
        }
        let period = glicko2::period(p, &o, TAU, EPSILON);
        // Steps 3 and 4: the paper's 1.7785 and −0.4834 come from E rounded
        // to three decimals; full precision differs in the fourth.
        assert!(close(period.v, 1.7785, 0.001), "v {}", period.v);
        assert!(close(period.delta, -0.4834, 0.001), "Δ {}", period.delta);
        assert!(close(period.v, V_EXACT, 1e-9), "v {}", period.v);
        assert!(close(period.delta, DELTA_EXACT, 1e-9), "Δ {}", period.delta);
        // Step 5, from the paper's own rounded v and Δ: σ' = 0.05999.
        let sigma = glicko2::volatility(p.phi, 0.06, 1.7785, -0.4834, TAU, EPSILON);
        assert!(five_decimals(sigma), "σ' {sigma}");
        // Steps 5 to 7, at full precision, to the paper's four decimals.
        let after = period.after;
        assert!(five_decimals(after.sigma), "σ' {}", after.sigma);
        assert!(close(after.sigma, SIGMA_EXACT, 1e-12), "σ' {}", after.sigma);
        assert!(close(after.phi, 0.8722, 0.00005), "φ' {}", after.phi);
        assert!(close(after.mu, -0.2069, 0.00005), "μ' {}", after.mu);
        // Step 8: the paper converts its rounded μ' and φ'.
        assert!(close(1500.0 + SCALE * -0.2069, 1464.06, 0.005));
        assert!(close(SCALE * 0.8722, 151.52, 0.005));
        // At full precision: RD' = 151.52 to the paper's decimals, r' within
        // 0.01 of the paper's 1464.06.
        assert!(close(SCALE * after.phi, 151.52, 0.005));
        assert!(close(1500.0 + SCALE * after.mu, 1464.06, 0.01));
        assert!(close(1500.0 + SCALE * after.mu, R_EXACT, 1e-9));
        assert!(close(SCALE * after.phi, RD_EXACT, 1e-9));
    }

    /// The full-precision results of the worked example (see above).
    const V_EXACT: f64 = 1.7789770897239976;
    const DELTA_EXACT: f64 = -0.4839332609836549;
    const SIGMA_EXACT: f64 = 0.059995984286488495;
    const R_EXACT: f64 = 1464.0506705393013;
    const RD_EXACT: f64 = 151.51652412385727;

    /// The same example through the public API.
    #[test]
    fn glickman_worked_example_through_update() {
        let (player, opponents) = example();
        let after = update(player, &opponents);
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.rating, R_EXACT, 1e-9), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.005), "{after:?}");
        assert!(five_decimals(after.volatility), "{after:?}");
        assert!(close(after.volatility, SIGMA_EXACT, 1e-12), "{after:?}");
        assert_eq!(after.games, 3);
    }

    /// The paper's step 6 for a player who does not compete.
    #[test]
    fn a_period_without_games_only_widens_rd() {
        let (player, _) = example();
        let after = update(player, &[]);
        let want = (200.0f64.powi(2) + (0.06 * SCALE).powi(2)).sqrt();
        assert!(close(after.deviation, want, 1e-9), "{after:?}");
        assert_eq!((after.rating, after.volatility, after.games), (1500.0, 0.06, 0));
        assert!(close(player.after_idle(1.0).deviation, want, 1e-9));
    }
}

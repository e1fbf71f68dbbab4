//! The steps of Mark Glickman's "Example of the Glicko-2 system", on the
//! Glicko-2 scale (μ, φ, σ). Step numbers are the paper's.
//!
//! Nothing here clamps or counts games: [`crate`] converts from and to the
//! Glicko scale, applies the bounds on RD and counts games.

/// Step 2: the ratio between the Glicko scale and the Glicko-2 scale.
pub const SCALE: f64 = 173.7178;

/// The rating at the centre of the scale (μ = 0).
pub const CENTRE: f64 = 1500.0;

/// A player on the Glicko-2 scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mu {
    /// μ = (r − 1500) / 173.7178.
    pub mu: f64,
    /// φ = RD / 173.7178.
    pub phi: f64,
    /// σ, the volatility (the same on both scales).
    pub sigma: f64,
}

/// The quantities of steps 3 and 4, kept for the tests of the worked example.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Period {
    /// The player after the period.
    pub after: Mu,
    /// Step 3: v, the estimated variance of the rating from the game
    /// outcomes alone (infinite when the period carries no information).
    pub v: f64,
    /// Step 4: Δ, the estimated improvement in rating.
    pub delta: f64,
}

/// g(φ) = 1 / √(1 + 3φ²/π²): how much a result against an opponent of
/// deviation φ weighs.
pub fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// E(μ, μⱼ, φⱼ) = 1 / (1 + exp(−g(φⱼ)(μ − μⱼ))): the expected score against
/// opponent j.
pub fn e(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// Step 6 alone: a player who did not compete in a rating period keeps μ and
/// σ, and φ grows to √(φ² + σ²). `periods` idle periods give √(φ² + nσ²).
pub fn idle(p: Mu, periods: f64) -> Mu {
    Mu { phi: (p.phi * p.phi + periods * p.sigma * p.sigma).sqrt(), ..p }
}

/// Steps 3 to 7: one rating period of the player `p` against the opponents
/// `results` (opponent before the period, score 1, ½ or 0), with system
/// constant `tau` and convergence tolerance `epsilon`.
///
/// A period with no results, or whose results carry no information (every
/// expected score exactly 0 or 1 in floating point), is a period without a
/// game: only φ grows (step 6 alone, as the paper says for a player who did
/// not compete).
pub fn period(p: Mu, results: &[(Mu, f64)], tau: f64, epsilon: f64) -> Period {
    // Step 3: v = [Σ g(φⱼ)² E (1 − E)]⁻¹. Step 4: Δ = v Σ g(φⱼ)(sⱼ − E).
    let mut information = 0.0;
    let mut surprise = 0.0;
    for &(o, s) in results {
        let gj = g(o.phi);
        let ej = e(p.mu, o.mu, o.phi);
        information += gj * gj * ej * (1.0 - ej);
        surprise += gj * (s - ej);
    }
    if !(information > 0.0 && information.is_finite()) {
        return Period { after: idle(p, 1.0), v: f64::INFINITY, delta: 0.0 };
    }
    let v = 1.0 / information;
    let delta = v * surprise;

    // Step 5: the new volatility.
    let sigma = volatility(p.phi, p.sigma, v, delta, tau, epsilon);

    // Step 6: the pre-period value φ* = √(φ² + σ'²).
    let phi_star = (p.phi * p.phi + sigma * sigma).sqrt();

    // Step 7: φ' = 1 / √(1/φ*² + 1/v), μ' = μ + φ'² Σ g(φⱼ)(sⱼ − E).
    let phi = 1.0 / (1.0 / (phi_star * phi_star) + information).sqrt();
    let mu = p.mu + phi * phi * surprise;
    Period { after: Mu { mu, phi, sigma }, v, delta }
}

/// The most iterations the Illinois algorithm may take. The paper's
/// algorithm converges in a handful of iterations (about ten for a
/// tolerance of 10⁻⁶); the bound only guards against a pathological input
/// looping forever.
const MAX_ITERATIONS: usize = 200;

/// Step 5: σ' by the Illinois algorithm (a regula falsi variant), as the
/// paper gives it.
pub fn volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64, epsilon: f64) -> f64 {
    // 1. a = ln(σ²), and f(x) as the paper defines it.
    let a = (sigma * sigma).ln();
    let (phi2, delta2) = (phi * phi, delta * delta);
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi2 + v + ex;
        ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };

    // 2. The initial bracket [A, B] (or [B, A]).
    let mut big_a = a;
    let mut big_b = if delta2 > phi2 + v {
        (delta2 - phi2 - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < MAX_ITERATIONS as f64 {
            k += 1.0;
        }
        a - k * tau
    };

    // 3. f(A), f(B).
    let mut fa = f(big_a);
    let mut fb = f(big_b);

    // 4. Iterate while |B − A| > ε.
    let mut iterations = 0;
    while (big_b - big_a).abs() > epsilon && iterations < MAX_ITERATIONS {
        // (a) C = A + (A − B) f(A) / (f(B) − f(A)), f(C).
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        if !c.is_finite() {
            break;
        }
        let fc = f(c);
        // (b) If f(C) f(B) ≤ 0, A ← B and f(A) ← f(B); otherwise f(A) ← f(A)/2.
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        // (c) B ← C, f(B) ← f(C).
        big_b = c;
        fb = fc;
        iterations += 1;
    }

    // 5. σ' = e^(A/2).
    (big_a / 2.0).exp()
}

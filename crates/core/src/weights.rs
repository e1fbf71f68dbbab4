//! Tuned evaluation weights as data: what `plateau tune` writes (each game's
//! `weights.json`) and what a game's evaluation reads (`Evaluate::weights`).
//!
//! The file says which command produced it, from how much data, and how well
//! the weights fit the results (log-loss before and after), so that anyone
//! can run the command again and compare.

use serde::{Deserialize, Serialize};

/// One term of an evaluation: its name, its weight before tuning and after.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Term {
    /// The term's name (one of the game's `Evaluate::TERMS`).
    pub name: String,
    /// Its weight before this tuning.
    pub before: f64,
    /// Its tuned weight: the one the evaluation uses.
    pub weight: f64,
}

/// A tuned set of weights with how it was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    /// The game.
    pub game: String,
    /// The variant the positions came from.
    pub variant: String,
    /// The command that wrote this file.
    pub command: String,
    /// Self-play games played.
    pub games: usize,
    /// Positions fitted.
    pub positions: usize,
    /// The scale `k` of the model `P(win) = 1 / (1 + exp(-k · evaluation))`,
    /// fitted with the weights before tuning and kept while tuning.
    pub scale: f64,
    /// Mean log-loss of the results with the weights before.
    pub log_loss_before: f64,
    /// Mean log-loss of the results with the tuned weights.
    pub log_loss_after: f64,
    /// The same two on positions kept out of the fit (one game in five).
    pub held_out_before: f64,
    /// See [`Weights::held_out_before`].
    pub held_out_after: f64,
    /// Every term, in the order of `Evaluate::TERMS`.
    pub terms: Vec<Term>,
}

impl Weights {
    /// The weights in the order of `names`, from a file that must name
    /// exactly those terms in that order.
    pub fn parse(json: &str, names: &[&str]) -> Result<Vec<f32>, String> {
        Ok(Weights::read(json, names)?.terms.iter().map(|t| t.weight as f32).collect())
    }

    /// The whole file, which must name exactly the terms `names` in that
    /// order.
    pub fn read(json: &str, names: &[&str]) -> Result<Weights, String> {
        let w: Weights = serde_json::from_str(json).map_err(|e| format!("weights: {e}"))?;
        let got: Vec<&str> = w.terms.iter().map(|t| t.name.as_str()).collect();
        if got != names {
            return Err(format!("weights: the file's terms {got:?} are not the evaluation's {names:?}"));
        }
        Ok(w)
    }

    /// The evaluation units a Monte-Carlo search maps to a return of
    /// `tanh(1)`: `2 / k`, so that `tanh(e / scale) = 2σ(k·e) − 1`, the
    /// expected return the fit predicts; 400 when the file has no fitted
    /// scale (hand-set weights).
    pub fn return_scale(&self) -> f32 {
        if self.scale > 0.0 { (2.0 / self.scale) as f32 } else { 400.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(names: &[&str]) -> String {
        serde_json::to_string(&Weights {
            game: "g".into(),
            variant: "v".into(),
            command: "plateau tune".into(),
            games: 1,
            positions: 2,
            scale: 0.004,
            log_loss_before: 0.6,
            log_loss_after: 0.5,
            held_out_before: 0.6,
            held_out_after: 0.55,
            terms: names
                .iter()
                .enumerate()
                .map(|(i, n)| Term { name: n.to_string(), before: 1.0, weight: i as f64 + 0.5 })
                .collect(),
        })
        .unwrap()
    }

    #[test]
    fn weights_are_read_in_the_evaluations_order_and_a_mismatch_is_refused() {
        assert_eq!(Weights::parse(&file(&["a", "b"]), &["a", "b"]).unwrap(), vec![0.5, 1.5]);
        assert!(Weights::parse(&file(&["b", "a"]), &["a", "b"]).is_err());
        assert!(Weights::parse(&file(&["a"]), &["a", "b"]).is_err());
        assert!(Weights::parse("{", &["a"]).is_err());
        // k = 0.004: 2σ(k·e) − 1 = tanh(k·e/2), so e / 500 inside tanh.
        assert_eq!(Weights::read(&file(&["a"]), &["a"]).unwrap().return_scale(), 500.0);
    }
}

//! Player specifications: `KIND[:key=value,...]`, as typed on the command line
//! and sent by clients.
//!
//! | spec | player |
//! |---|---|
//! | `random` | uniformly random legal moves |
//! | `greedy` | the best move by the game's evaluation, one decision ahead |
//! | `alphabeta:time=1s` | alpha-beta search (two-player perfect-information games) |
//! | `mcts:iterations=20000` | Monte-Carlo tree search (UCT) |
//! | `ismcts:time=500ms` | information-set MCTS (games with hidden information) |
//! | `ai:4` | level 4 of 6 of the game's computer player |
//!
//! Budgets: `time=` (`250ms`, `1s`, `1.5s`), `depth=`, `nodes=`,
//! `iterations=`; `seed=` for the player's own randomness; and for
//! information-set searches `sampling=belief` (the default: hidden secrets
//! drawn from beliefs inferred from the other players' moves) or
//! `sampling=uniform`; for alpha-beta `plan=off` never to play the game's
//! own planner's move ([`plateau_core::Evaluate::planned_move`], on by
//! default) and `prune=off` to search every legal move with every decision
//! using depth (the game's [`plateau_core::Evaluate::search_moves`] and
//! [`plateau_core::Evaluate::free_decision`] not asked: a verifier's full
//! width, as the puzzles' judge searches); `eval=v1` for the evaluation
//! (and, for alpha-beta, the search) as they were before issue 20, so that
//! the arena can play old against new (the default is the game's latest,
//! [`plateau_core::Evaluate::EVALS`]). When several limits are given the
//! search stops at the first one reached.

use std::fmt;
use std::time::Duration;

/// What a spec could not be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SpecError(pub String);

/// The kinds of players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A human (not a computer player: the caller asks a person).
    Human,
    /// Uniformly random.
    Random,
    /// One decision ahead with the evaluation.
    Greedy,
    /// Alpha-beta search.
    AlphaBeta,
    /// UCT Monte-Carlo tree search.
    Mcts,
    /// Information-set MCTS.
    IsMcts,
    /// A named level, 1 to 6.
    Level(u8),
}

/// Limits of one search. `None` means no limit of that kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Budget {
    /// Wall-clock time per move.
    pub time: Option<Duration>,
    /// Search depth in plies (alpha-beta).
    pub depth: Option<u32>,
    /// Nodes searched (alpha-beta) — deterministic, for tests.
    pub nodes: Option<u64>,
    /// Iterations (MCTS) — deterministic, for tests.
    pub iterations: Option<u64>,
}

impl Budget {
    /// Whether no limit is set at all.
    pub fn is_unlimited(&self) -> bool {
        self.time.is_none() && self.depth.is_none() && self.nodes.is_none() && self.iterations.is_none()
    }
}

/// A parsed player spec.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayerSpec {
    /// The kind.
    pub kind: Kind,
    /// The limits.
    pub budget: Budget,
    /// The seed of the player's randomness, if fixed.
    pub seed: Option<u64>,
    /// Information-set searches: sample hidden secrets uniformly instead of
    /// from beliefs inferred from the other players' moves
    /// (`sampling=uniform`; the default is `sampling=belief`).
    pub uniform_sampling: bool,
    /// Alpha-beta: search even where the game's planner has a move
    /// (`plan=off`; the default is `plan=on`).
    pub no_plan: bool,
    /// Alpha-beta: every legal move searched and every decision using
    /// depth, whatever the game's move pruning says (`prune=off`; the
    /// default is `prune=on`, which only the latest version has).
    pub no_prune: bool,
    /// The evaluation's version (`eval=v1`: the players as they were before
    /// issue 20), one of the game's [`plateau_core::Evaluate::EVALS`]
    /// (checked when the player is made); `None` for the latest.
    pub eval: Option<String>,
    /// Alpha-beta: opening variety (`variety=on`: in a game's first plies,
    /// a seeded random choice among the moves near the best; the levels
    /// have it, plain specs do not, so that analyses and tests stay
    /// deterministic).
    pub variety: bool,
}

/// The largest budgets a spec may ask for (a server must bound what a client
/// can make it do).
pub const MAX_TIME: Duration = Duration::from_secs(60);

/// A duration: `250ms`, `1s`, `1.5s` (a bare number is seconds). Refuses, with
/// a message, what is not a positive finite number or is longer than
/// [`MAX_TIME`], without ever converting a huge value (which would panic).
fn parse_duration(v: &str) -> Result<Duration, String> {
    let v = v.trim();
    let (num, scale) = if let Some(n) = v.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = v.strip_suffix('s') {
        (n, 1.0)
    } else {
        (v, 1.0)
    };
    let x: f64 = num.trim().parse().map_err(|_| format!("{v:?} is not a duration like 250ms or 1.5s"))?;
    if !x.is_finite() || x <= 0.0 {
        return Err(format!("{v:?} is not a positive duration"));
    }
    let secs = x * scale;
    if !secs.is_finite() || secs > MAX_TIME.as_secs_f64() {
        return Err(format!("{v:?} is too long: at most {}s a move", MAX_TIME.as_secs()));
    }
    Duration::try_from_secs_f64(secs).map_err(|_| format!("{v:?} is not a valid duration"))
}

impl PlayerSpec {
    /// Parse `KIND[:key=value,...]`.
    pub fn parse(text: &str) -> Result<PlayerSpec, SpecError> {
        let text = text.trim();
        if text.len() > 200 {
            return Err(SpecError("player spec too long".into()));
        }
        let (kind, params) = match text.split_once(':') {
            Some((k, p)) => (k.trim().to_ascii_lowercase(), p.trim()),
            None => (text.to_ascii_lowercase(), ""),
        };
        let mut spec = PlayerSpec {
            kind: match kind.as_str() {
                "human" => Kind::Human,
                "random" => Kind::Random,
                "greedy" => Kind::Greedy,
                "alphabeta" | "ab" => Kind::AlphaBeta,
                "mcts" | "uct" => Kind::Mcts,
                "ismcts" => Kind::IsMcts,
                "ai" | "level" => {
                    let n: u8 = params
                        .parse()
                        .ok()
                        .filter(|n| (1..=6).contains(n))
                        .ok_or_else(|| SpecError(format!("{text}: a level is ai:1 to ai:6")))?;
                    return Ok(PlayerSpec {
                        kind: Kind::Level(n),
                        budget: Budget::default(),
                        seed: None,
                        uniform_sampling: false,
                        no_plan: false,
                        no_prune: false,
                        eval: None,
                        variety: false,
                    });
                }
                _ => {
                    return Err(SpecError(format!(
                        "unknown player {kind:?}: use human, random, greedy, alphabeta, mcts, ismcts or ai:1 … ai:6"
                    )));
                }
            },
            budget: Budget::default(),
            seed: None,
            uniform_sampling: false,
            no_plan: false,
            no_prune: false,
            eval: None,
            variety: false,
        };
        for param in params.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) =
                param.split_once('=').ok_or_else(|| SpecError(format!("{param:?}: parameters are key=value")))?;
            let bad = || SpecError(format!("{text}: bad value {v:?} for {k}"));
            match k.trim() {
                "time" => {
                    let d = parse_duration(v).map_err(|e| SpecError(format!("{text}: time: {e}")))?;
                    if d > MAX_TIME {
                        return Err(SpecError(format!("{text}: at most {}s a move", MAX_TIME.as_secs())));
                    }
                    spec.budget.time = Some(d);
                }
                "depth" => {
                    spec.budget.depth = Some(v.trim().parse().ok().filter(|d| (1..=64).contains(d)).ok_or_else(bad)?)
                }
                "nodes" => spec.budget.nodes = Some(v.trim().parse().ok().filter(|&n| n > 0).ok_or_else(bad)?),
                "iterations" => {
                    spec.budget.iterations = Some(v.trim().parse().ok().filter(|&n| n > 0).ok_or_else(bad)?)
                }
                "seed" => spec.seed = Some(v.trim().parse().map_err(|_| bad())?),
                "sampling" => {
                    spec.uniform_sampling = match v.trim() {
                        "uniform" => true,
                        "belief" => false,
                        _ => return Err(bad()),
                    }
                }
                "plan" => {
                    spec.no_plan = match v.trim() {
                        "off" => true,
                        "on" => false,
                        _ => return Err(bad()),
                    }
                }
                "prune" => {
                    spec.no_prune = match v.trim() {
                        "off" => true,
                        "on" => false,
                        _ => return Err(bad()),
                    }
                }
                "variety" => {
                    spec.variety = match v.trim() {
                        "on" => true,
                        "off" => false,
                        _ => return Err(bad()),
                    }
                }
                "eval" => {
                    let v = v.trim();
                    if v.is_empty() || v.len() > 16 || !v.bytes().all(|b| b.is_ascii_alphanumeric()) {
                        return Err(bad());
                    }
                    spec.eval = Some(v.to_ascii_lowercase());
                }
                other => return Err(SpecError(format!("{text}: unknown parameter {other:?}"))),
            }
        }
        Ok(spec)
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            Kind::Human => "human",
            Kind::Random => "random",
            Kind::Greedy => "greedy",
            Kind::AlphaBeta => "alphabeta",
            Kind::Mcts => "mcts",
            Kind::IsMcts => "ismcts",
            Kind::Level(n) => return write!(f, "ai:{n}"),
        };
        f.write_str(kind)?;
        let mut params = Vec::new();
        if let Some(t) = self.budget.time {
            params.push(if t.subsec_millis() == 0 && t.as_secs() > 0 {
                format!("time={}s", t.as_secs())
            } else {
                format!("time={}ms", t.as_millis())
            });
        }
        if let Some(d) = self.budget.depth {
            params.push(format!("depth={d}"));
        }
        if let Some(n) = self.budget.nodes {
            params.push(format!("nodes={n}"));
        }
        if let Some(n) = self.budget.iterations {
            params.push(format!("iterations={n}"));
        }
        if let Some(s) = self.seed {
            params.push(format!("seed={s}"));
        }
        if self.uniform_sampling {
            params.push("sampling=uniform".to_string());
        }
        if self.no_plan {
            params.push("plan=off".to_string());
        }
        if self.no_prune {
            params.push("prune=off".to_string());
        }
        if let Some(e) = &self.eval {
            params.push(format!("eval={e}"));
        }
        if self.variety {
            params.push("variety=on".to_string());
        }
        if !params.is_empty() {
            write!(f, ":{}", params.join(","))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        for s in [
            "random",
            "greedy",
            "alphabeta:time=1s",
            "mcts:iterations=500,seed=3",
            "ai:4",
            "alphabeta:time=250ms,depth=6",
            "alphabeta:nodes=1000,plan=off",
            "alphabeta:depth=4,nodes=200000,plan=off,prune=off",
            "alphabeta:time=1s,eval=v1",
            "alphabeta:time=1s,variety=on",
            "ismcts:time=200ms,sampling=uniform,eval=v2",
        ] {
            assert_eq!(PlayerSpec::parse(s).unwrap().to_string(), s);
        }
        assert_eq!(PlayerSpec::parse("alphabeta:time=1.5s").unwrap().budget.time, Some(Duration::from_millis(1500)));
        for bad in [
            "chess",
            "ai:7",
            "ai:x",
            "alphabeta:time=-1s",
            "alphabeta:time=2h",
            "mcts:foo=1",
            "mcts:iterations",
            "alphabeta:plan=no",
            "alphabeta:time=100s",
            "alphabeta:eval=",
            "alphabeta:variety=yes",
            "alphabeta:eval=v/1",
            "alphabeta:eval=averyveryverylongname",
        ] {
            assert!(PlayerSpec::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn huge_or_not_finite_times_are_refused_without_panicking() {
        for (spec, words) in [
            ("alphabeta:time=1e300s", "too long"),
            ("alphabeta:time=1e20ms", "too long"),
            ("alphabeta:time=1e300", "too long"),
            ("alphabeta:time=61s", "too long"),
            ("alphabeta:time=infs", "not a positive duration"),
            ("alphabeta:time=inf", "not a positive duration"),
            ("mcts:time=-infms", "not a positive duration"),
            ("alphabeta:time=NaNs", "not a positive duration"),
            ("alphabeta:time=nan", "not a positive duration"),
            ("alphabeta:time=0s", "not a positive duration"),
            ("alphabeta:time=5min", "not a duration"),
        ] {
            let e = PlayerSpec::parse(spec).unwrap_err().to_string();
            assert!(e.contains(words), "{spec}: {e}");
        }
        // The largest time allowed is still accepted, in either unit.
        assert_eq!(PlayerSpec::parse("alphabeta:time=60s").unwrap().budget.time, Some(Duration::from_secs(60)));
        assert_eq!(PlayerSpec::parse("alphabeta:time=60000ms").unwrap().budget.time, Some(Duration::from_secs(60)));
    }
}

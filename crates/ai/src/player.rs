//! The object-safe face of computer players, used by the command line, the
//! arena and the server: a [`Players`] factory per game makes [`AnyPlayer`]s
//! from specs, and a player chooses a move for any match of its game.

use std::time::Duration;

use plateau_core::AnyMatch;

use crate::spec::{PlayerSpec, SpecError};

/// How a search judged its chosen move.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum Score {
    /// The evaluation, in the game's units (±1000 ≈ decided).
    Eval(i32),
    /// A forced win in this many plies.
    Win(u32),
    /// A forced loss in this many plies.
    Loss(u32),
    /// An expected return in −1..1 (Monte-Carlo searches).
    Value(f32),
    /// The game's own planner chose the move: its plan takes this many moves
    /// ([`plateau_core::Evaluate::planned_move`]).
    Plan(u32),
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Eval(v) => write!(f, "{v:+}"),
            Score::Win(n) => write!(f, "win in {n}"),
            Score::Loss(n) => write!(f, "loss in {n}"),
            Score::Value(v) => write!(f, "{v:+.3}"),
            Score::Plan(1) => write!(f, "plan of 1 move"),
            Score::Plan(n) => write!(f, "plan of {n} moves"),
        }
    }
}

/// What a search did.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct SearchInfo {
    /// Depth completed (alpha-beta) or the tree's deepest line (MCTS).
    pub depth: u32,
    /// Nodes visited (alpha-beta) or iterations (MCTS).
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// How the chosen move was judged.
    pub score: Option<Score>,
    /// The principal variation, in notation.
    pub pv: Vec<String>,
    /// Each seat's mean return over the search's iterations, in −1..1
    /// (Monte-Carlo searches; empty for the others).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub returns: Vec<f32>,
}

impl SearchInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 { (self.nodes as f64 / s) as u64 } else { 0 }
    }
}

/// A chosen move.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The move, in the game's notation.
    pub mv: String,
    /// What the search did.
    pub info: SearchInfo,
}

/// Why a player could not move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The match is not of the game this player was made for.
    #[error("this player plays {expected}, not {got}")]
    WrongGame {
        /// The player's game.
        expected: &'static str,
        /// The match's game.
        got: &'static str,
    },
}

/// A computer player of one game.
pub trait AnyPlayer: Send {
    /// The spec it was made from.
    fn spec(&self) -> &PlayerSpec;
    /// Watch `stop` from now on (see [`crate::Search::set_stop`]): once it
    /// is set, a choice under way ends at once with the best move found so
    /// far. Players that always answer at once ignore it (the default).
    fn set_stop(&mut self, stop: crate::StopFlag) {
        let _ = stop;
    }
    /// Choose a move for the seat to move in `m`. A player may keep state
    /// between calls (a search tree to reuse); it reads of `m` only what the
    /// seat to move may know.
    fn choose(&mut self, m: &dyn AnyMatch) -> Result<Choice, PlayerError>;
}

/// One level of a game's computer player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Level {
    /// 1 (beginner) to 6 (the strongest this machine allows).
    pub level: u8,
    /// The player spec it stands for.
    pub spec: &'static str,
    /// A few words for people choosing an opponent.
    pub label: &'static str,
}

/// One guess of a seat about another's secret, at the end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Guess {
    /// The seat that guessed.
    pub by: usize,
    /// The seat whose secret it guessed.
    pub of: usize,
    /// Whether the most likely value was the true one.
    pub right: bool,
}

/// What the information-set players believed during a finished game of a
/// game with secrets (see [`Players::beliefs`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BeliefTrace {
    /// The names of the secret's values ([`plateau_core::Secrets::value_name`]).
    pub values: Vec<String>,
    /// Each seat's true secret (an index into `values`).
    pub secrets: Vec<usize>,
    /// `beliefs[ply][observer][seat][value]`: what seat `observer` believed
    /// of seat `seat`'s secret in the position after `ply` moves (ply 0 to
    /// the end), from its own knowledge alone ([`crate::belief::infer`]);
    /// each row sums to 1, and an observer knows its own secret (1 on it).
    pub beliefs: Vec<Vec<Vec<Vec<f32>>>>,
}

/// The computer players of one game.
pub trait Players: Send + Sync {
    /// The game's name.
    fn game(&self) -> &'static str;
    /// Make a player (levels resolve to their spec). `Human` is not a player.
    fn create(&self, spec: &PlayerSpec) -> Result<Box<dyn AnyPlayer>, SpecError>;
    /// The six levels.
    fn levels(&self) -> &'static [Level; 6];
    /// For games with secrets, once `m` is over: each seat's most likely
    /// guess of every other seat's secret just before the end, from its
    /// knowledge alone, and whether it was right.
    fn guesses(&self, _m: &dyn AnyMatch) -> Option<Vec<Guess>> {
        None
    }
    /// For games with secrets, of a match that knows every secret (made
    /// from a seed, or the referee's deal): each seat's beliefs about every
    /// secret at every position of the game, inferred from that seat's
    /// knowledge at the time. `None` for other games and other matches, or
    /// when `stop` is set before the end (the work is quadratic in the
    /// game's length: a few milliseconds for a whole game of Kabaleo).
    fn beliefs(&self, _m: &dyn AnyMatch, _stop: &crate::StopFlag) -> Option<BeliefTrace> {
        None
    }
    /// For games with hidden information, after the game only: a player
    /// that searches the true state (it sees every secret), made from
    /// `spec` (`mcts` and `ismcts` give UCT over the true state, `greedy` the
    /// greedy player over it; levels resolve first). Its choices'
    /// [`SearchInfo::returns`] are every seat's expected return with
    /// everything known. `None` for games of perfect information (their
    /// players already see everything).
    fn omniscient(&self, _spec: &PlayerSpec) -> Option<Result<Box<dyn AnyPlayer>, SpecError>> {
        None
    }
    /// Tune the game's evaluation weights by self-play
    /// ([`crate::tune`]): `new_match` makes a fresh match of the configured
    /// game from a set-up seed. An error for a game whose evaluation has no
    /// terms.
    fn tune(
        &self,
        new_match: &crate::tune::NewMatch<'_>,
        config: &crate::tune::TuneConfig,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<plateau_core::weights::Weights, String>;
    /// Make a player from spec text.
    fn create_from(&self, text: &str) -> Result<Box<dyn AnyPlayer>, SpecError> {
        self.create(&PlayerSpec::parse(text)?)
    }
}

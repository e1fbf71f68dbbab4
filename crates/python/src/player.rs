//! `plateau.Player`: Plateau's computer players, made from the same specs as
//! `plateau arena` takes, through the catalogue (`plateau_games::players`).

use std::sync::Mutex;

use plateau_ai::{AnyPlayer, PlayerSpec, Score};
use pyo3::prelude::*;

use crate::convert::value_error;
use crate::state::State;

/// A computer player of one game, made from a player spec as ``plateau
/// arena`` takes it: ``random``, ``greedy``, ``alphabeta:time=100ms``,
/// ``alphabeta:depth=3``, ``mcts:iterations=1000``, ``ismcts:iterations=500``
/// (games with hidden information), ``ai:1`` to ``ai:6`` (the game's levels).
/// Budgets: ``time=``, ``depth=``, ``nodes=``, ``iterations=``. ``seed=`` in
/// the spec, or the ``seed`` argument, fixes the player's randomness: with a
/// fixed seed and a budget that is not a time, its choices are reproducible.
///
/// A player may keep state between moves (a search tree it reuses); use one
/// player per seat and per game. A player of a game with hidden information
/// reads only the knowledge of the seat to move: on a state built from one
/// seat's record, ask it only for that seat's moves (the other seats' secrets
/// there are made up).
#[pyclass(module = "plateau._plateau", name = "Player")]
pub struct Player {
    game: &'static str,
    spec: String,
    inner: Mutex<Box<dyn AnyPlayer>>,
}

/// What a player chose, and what its search did.
#[pyclass(module = "plateau._plateau", name = "Choice", frozen, get_all)]
pub struct Choice {
    /// The move, in the game's notation.
    #[pyo3(name = "move")]
    pub mv: String,
    /// The depth completed (alpha-beta) or the deepest line of the tree (MCTS).
    pub depth: u32,
    /// The nodes visited (alpha-beta) or iterations (MCTS).
    pub nodes: u64,
    /// The time spent, in seconds.
    pub time: f64,
    /// How the search judged the move, in words (``"+35"``, ``"win in 3"``), or ``None``.
    pub score: Option<String>,
    /// The kind of score: ``"eval"``, ``"win"``, ``"loss"``, ``"value"``, ``"plan"``, or ``None``.
    pub score_kind: Option<&'static str>,
    /// The score's number: the evaluation, the plies to a forced win or loss,
    /// the expected return (-1..1), or the plan's length.
    pub score_value: Option<f64>,
    /// The principal variation, in notation (its first move is ``move``).
    pub pv: Vec<String>,
}

#[pymethods]
impl Choice {
    fn __repr__(&self) -> String {
        format!(
            "<plateau.Choice move={:?} depth={} nodes={} time={:.3}s score={} pv={:?}>",
            self.mv,
            self.depth,
            self.nodes,
            self.time,
            self.score.as_deref().unwrap_or("None"),
            self.pv
        )
    }
}

#[pymethods]
impl Player {
    #[new]
    #[pyo3(signature = (game, spec, seed=None))]
    fn new(game: &str, spec: &str, seed: Option<u64>) -> PyResult<Self> {
        let players = plateau_games::players(game).map_err(value_error)?;
        let mut parsed = PlayerSpec::parse(spec).map_err(value_error)?;
        if seed.is_some() {
            parsed.seed = seed;
        }
        let inner = players.create(&parsed).map_err(value_error)?;
        Ok(Player { game: players.game(), spec: spec.trim().to_string(), inner: Mutex::new(inner) })
    }

    /// The game this player plays.
    #[getter]
    fn game(&self) -> &'static str {
        self.game
    }

    /// The spec it was made from.
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// Search ``state`` for the seat to move and return the chosen move with
    /// what the search did. The player reads of the state only what the seat
    /// to move may know. The GIL is released while it searches. Raises
    /// ``ValueError`` when the game is over or is not this player's game.
    fn search(&self, py: Python<'_>, state: &State) -> PyResult<Choice> {
        if state.m.info().name != self.game {
            return Err(value_error(format!("this player plays {}, not {}", self.game, state.m.info().name)));
        }
        let m = state.m.clone_box();
        let inner = &self.inner;
        let choice = py.detach(move || {
            let mut player = inner.lock().unwrap_or_else(|e| e.into_inner());
            player.choose(&*m)
        });
        let choice = choice.map_err(value_error)?;
        let info = choice.info;
        let (kind, value) = match info.score {
            None => (None, None),
            Some(Score::Eval(v)) => (Some("eval"), Some(f64::from(v))),
            Some(Score::Win(n)) => (Some("win"), Some(f64::from(n))),
            Some(Score::Loss(n)) => (Some("loss"), Some(f64::from(n))),
            Some(Score::Value(v)) => (Some("value"), Some(f64::from(v))),
            Some(Score::Plan(n)) => (Some("plan"), Some(f64::from(n))),
        };
        Ok(Choice {
            mv: choice.mv,
            depth: info.depth,
            nodes: info.nodes,
            time: info.time.as_secs_f64(),
            score: info.score.map(|s| s.to_string()),
            score_kind: kind,
            score_value: value,
            pv: info.pv,
        })
    }

    /// The move this player chooses for the seat to move in ``state``, in the
    /// game's notation (``search(state).move``).
    fn choose(&self, py: Python<'_>, state: &State) -> PyResult<String> {
        Ok(self.search(py, state)?.mv)
    }

    fn __repr__(&self) -> String {
        format!("<plateau.Player {} {:?}>", self.game, self.spec)
    }
}

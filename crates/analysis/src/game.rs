//! Computer analysis of a finished game: every position judged by a bounded
//! search, the moves that lost the most marked as inaccuracies, mistakes and
//! blunders, and for games with secrets (Kabaleo), after the game only, each
//! seat's chances and what each seat's information-set player believed.
//!
//! The steps are separate so that a server can run one position per job:
//! [`evaluate_position`] for each position `0..=n`, [`chances_at`] and
//! [`beliefs`] for games with secrets, then [`assemble`]. [`analyse`] does it
//! all in sequence (the command line). See `docs/analysis.md`.

use std::sync::atomic::Ordering;
use std::time::Duration;

use plateau_ai::{PlayerSpec, Players, Score, StopFlag};
use plateau_core::{AnyMatch, Outcome};
use serde::{Deserialize, Serialize};

/// An analysis that could not be made (bad input, an unknown game, stopped).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct AnalysisError(pub String);

impl std::fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AnalysisError {}

fn err(message: impl Into<String>) -> AnalysisError {
    AnalysisError(message.into())
}

fn stopped() -> AnalysisError {
    err("the analysis was stopped")
}

/// The default search time per position.
pub const DEFAULT_TIME: Duration = Duration::from_millis(300);

/// The least and the most time per position [`Settings::with_time`] gives.
pub const MIN_TIME: Duration = Duration::from_millis(10);
/// See [`MIN_TIME`].
pub const MAX_TIME: Duration = Duration::from_secs(10);

/// A loss of expected return (on the −1..1 scale) from which a move is an
/// inaccuracy.
pub const INACCURACY: f32 = 0.1;
/// From which a move is a mistake.
pub const MISTAKE: f32 = 0.2;
/// From which a move is a blunder.
pub const BLUNDER: f32 = 0.3;

/// How much search each position gets.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Settings {
    /// The player spec that judges each position: `alphabeta:time=300ms` for
    /// two-player games of perfect information, `ismcts:time=300ms` for games
    /// with hidden information, `mcts:time=300ms` for the others.
    pub spec: String,
}

impl Settings {
    /// The default for `game` ([`DEFAULT_TIME`] per position).
    pub fn for_game(game: &str) -> Settings {
        Settings::with_time(game, DEFAULT_TIME)
    }

    /// The game's default searcher with `per_position` of search per
    /// position, kept within [`MIN_TIME`]..=[`MAX_TIME`].
    pub fn with_time(game: &str, per_position: Duration) -> Settings {
        let ms = per_position.clamp(MIN_TIME, MAX_TIME).as_millis();
        let kind = match plateau_games::registry().get(game) {
            Ok(e) if e.info().hidden => "ismcts",
            Ok(e) if e.info().max_seats > 2 => "mcts",
            _ => "alphabeta",
        };
        Settings { spec: format!("{kind}:time={ms}ms") }
    }

    fn player_spec(&self) -> Result<PlayerSpec, AnalysisError> {
        let spec = PlayerSpec::parse(&self.spec).map_err(|e| err(format!("the analysis player: {e}")))?;
        if spec.budget.is_unlimited() && !matches!(spec.kind, plateau_ai::Kind::Level(_) | plateau_ai::Kind::Greedy) {
            return Err(err(format!(
                "the analysis player {:?} needs a budget (time=, depth=, nodes= or iterations=)",
                self.spec
            )));
        }
        Ok(spec)
    }
}

/// One position's judgement: the position before move `ply` (0-based index
/// into the moves played; `ply == moves.len()` is the final position).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct PositionEval {
    /// Which position.
    pub ply: usize,
    /// Each seat's expected return in −1..=1 with best play, as the engine
    /// sees it (two seats: v and −v). For the final position: the game's
    /// returns.
    pub values: Vec<f32>,
    /// The engine's move here, in notation (None for the final position).
    pub best: Option<String>,
    /// The engine's principal variation from here (may be empty).
    pub line: Vec<String>,
}

/// The expected return in −1..1 of the player to move that a search's
/// score stands for: `Eval(v)` → tanh(v / 500) (±1000, "decided", gives
/// ±0.96), `Win` → 1, `Loss` → −1, `Value(v)` → v. `Plan` (the game's own
/// planner chose the move, without a value) gives `None`: the analysis then
/// searches again without the planner for the value.
pub fn expected_return(score: Score) -> Option<f32> {
    match score {
        Score::Eval(v) => Some((v as f32 / 500.0).tanh()),
        Score::Win(_) => Some(1.0),
        Score::Loss(_) => Some(-1.0),
        Score::Value(v) if v.is_finite() => Some(v.clamp(-1.0, 1.0)),
        Score::Value(_) | Score::Plan(_) => None,
    }
}

/// Every seat's expected return from the mover's: the mover `v`, each other
/// seat `−v / (seats − 1)` (returns sum to zero; with two seats, `v` and `−v`).
pub fn spread(mover: usize, v: f32, seats: usize) -> Vec<f32> {
    let others = if seats > 1 { -v / (seats - 1) as f32 } else { 0.0 };
    (0..seats).map(|s| if s == mover { v } else { others }).collect()
}

/// The match `m` after its first `ply` moves (a copy, taken back from m's
/// end; the game's end by adjudication is taken back too when `ply` is
/// before the end).
fn position(m: &dyn AnyMatch, ply: usize) -> Result<Box<dyn AnyMatch>, AnalysisError> {
    let n = m.ply();
    if ply > n {
        return Err(err(format!("there is no position after {ply} moves: the game has {n}")));
    }
    let mut c = m.clone_box();
    while c.ply() > ply {
        if !c.undo() {
            return Err(err("could not take the moves back"));
        }
    }
    Ok(c)
}

fn players_of(m: &dyn AnyMatch) -> Result<Box<dyn Players>, AnalysisError> {
    plateau_games::players(m.info().name).map_err(|e| err(e.to_string()))
}

/// Judge the position after the first `ply` moves of the finished game `m`
/// (replayed from m's start), with `settings`; stops early with an error when
/// `stop` is set (before or during the search). CPU-heavy: callers run it
/// off any async runtime.
pub fn evaluate_position(
    m: &dyn AnyMatch,
    ply: usize,
    settings: &Settings,
    stop: &StopFlag,
) -> Result<PositionEval, AnalysisError> {
    if stop.load(Ordering::Relaxed) {
        return Err(stopped());
    }
    let spec = settings.player_spec()?;
    let c = position(m, ply)?;
    if let Some(o) = c.outcome() {
        return Ok(PositionEval { ply, values: o.returns().to_vec(), best: None, line: Vec::new() });
    }
    let mover = c.to_move().seat().ok_or_else(|| err("no one is to move"))?;
    let players = players_of(m)?;
    let search = |spec: &PlayerSpec| -> Result<plateau_ai::Choice, AnalysisError> {
        let mut player = players.create(spec).map_err(|e| err(format!("the analysis player: {e}")))?;
        player.set_stop(stop.clone());
        let choice = player.choose(c.as_ref()).map_err(|e| err(e.to_string()))?;
        if stop.load(Ordering::Relaxed) {
            return Err(stopped());
        }
        Ok(choice)
    };
    let choice = search(&spec)?;
    let score = choice.info.score.ok_or_else(|| err(format!("the player {:?} gives no score", settings.spec)))?;
    let v = match expected_return(score) {
        Some(v) => v,
        None => {
            // The game's planner chose the move: the value of the position
            // comes from the search without it (the move stays the plan's).
            let mut plain = spec.clone();
            plain.no_plan = true;
            let again = search(&plain)?;
            again.info.score.and_then(expected_return).ok_or_else(|| err("the search gave no value"))?
        }
    };
    let mut line = choice.info.pv.clone();
    if line.first() != Some(&choice.mv) {
        line = vec![choice.mv.clone()];
    }
    Ok(PositionEval { ply, values: spread(mover, v, c.seats()), best: Some(choice.mv), line })
}

/// For a game with secrets (Kabaleo), computed after the game only (all
/// secrets known).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct HiddenAnalysis {
    /// The names of the secret's values (Kabaleo: colour letters "R", "O", ...).
    pub values: Vec<String>,
    /// Each seat's true secret (index into `values`).
    pub secrets: Vec<usize>,
    /// `chances[ply][seat]`: each seat's chance to win (0..=1) at each
    /// position (ply 0..=n), judged with everything known.
    pub chances: Vec<Vec<f32>>,
    /// `beliefs[ply][observer][seat][value]`: what the information-set player
    /// of seat `observer` believed, from its own knowledge only, about seat
    /// `seat`'s secret at each position (ply 0..=n); for observer == seat,
    /// the known value (1.0).
    pub beliefs: Vec<Vec<Vec<Vec<f32>>>>,
}

/// Chances to win from expected returns: a seat's return `r` among `n`
/// seats, where a sole winner gets 1 and the others `−1/(n−1)`, is a chance
/// `((n−1)·r + 1) / n`, kept within 0..1; the chances are then scaled to sum
/// to 1. Two seats: `(1 + r) / 2`.
pub fn chances_from_returns(returns: &[f32]) -> Vec<f32> {
    let n = returns.len();
    if n == 0 {
        return Vec::new();
    }
    if n == 1 {
        return vec![1.0];
    }
    let raw: Vec<f32> = returns.iter().map(|&r| (((n - 1) as f32 * r + 1.0) / n as f32).clamp(0.0, 1.0)).collect();
    let total: f32 = raw.iter().sum();
    if total > 0.0 { raw.iter().map(|p| p / total).collect() } else { vec![1.0 / n as f32; n] }
}

/// The chances of a finished game: each of the k winners 1/k, the others 0.
pub fn chances_from_outcome(o: &Outcome) -> Vec<f32> {
    let winners = o.winners();
    let k = winners.len().max(1) as f32;
    (0..o.seats()).map(|s| if o.is_winner(s) { 1.0 / k } else { 0.0 }).collect()
}

fn check_all_known(m: &dyn AnyMatch) -> Result<(), AnalysisError> {
    match m.dealt_for() {
        None | Some(plateau_core::Reader::Referee) => Ok(()),
        Some(_) => {
            Err(err("this record holds one seat's knowledge: the analysis needs every secret (the referee's record)"))
        }
    }
}

/// Each seat's chance to win (0..=1, summing to 1) in the position after the
/// first `ply` moves of `m`, a game with hidden information, judged with
/// everything known: the game's player over the true state
/// ([`Players::omniscient`], UCT for `ismcts`/`mcts` specs) searches the
/// position with the budget of `settings`, and each seat's mean return over
/// its iterations becomes a chance ([`chances_from_returns`]). The final
/// position gives the result ([`chances_from_outcome`]).
pub fn chances_at(
    m: &dyn AnyMatch,
    ply: usize,
    settings: &Settings,
    stop: &StopFlag,
) -> Result<Vec<f32>, AnalysisError> {
    if stop.load(Ordering::Relaxed) {
        return Err(stopped());
    }
    check_all_known(m)?;
    let spec = settings.player_spec()?;
    let c = position(m, ply)?;
    if let Some(o) = c.outcome() {
        return Ok(chances_from_outcome(&o));
    }
    let players = players_of(m)?;
    let mut player = players
        .omniscient(&spec)
        .ok_or_else(|| err(format!("{} has no player over the true state", m.info().name)))?
        .map_err(|e| err(format!("the analysis player: {e}")))?;
    player.set_stop(stop.clone());
    let choice = player.choose(c.as_ref()).map_err(|e| err(e.to_string()))?;
    if stop.load(Ordering::Relaxed) {
        return Err(stopped());
    }
    let returns = if choice.info.returns.len() == c.seats() {
        choice.info.returns.clone()
    } else {
        let mover = c.to_move().seat().ok_or_else(|| err("no one is to move"))?;
        let v = choice.info.score.and_then(expected_return).ok_or_else(|| err("the search gave no value"))?;
        spread(mover, v, c.seats())
    };
    Ok(chances_from_returns(&returns))
}

/// What each seat's information-set player believed about every secret at
/// every position of `m` (see [`HiddenAnalysis::beliefs`]), with the names
/// of the values and the true secrets: `(values, secrets, beliefs)`.
/// `Ok(None)` for games without secrets.
#[allow(clippy::type_complexity)]
pub fn beliefs(
    m: &dyn AnyMatch,
    stop: &StopFlag,
) -> Result<Option<(Vec<String>, Vec<usize>, Vec<Vec<Vec<Vec<f32>>>>)>, AnalysisError> {
    if !m.info().hidden {
        return Ok(None);
    }
    check_all_known(m)?;
    let trace = players_of(m)?.beliefs(m, stop);
    if stop.load(Ordering::Relaxed) {
        return Err(stopped());
    }
    Ok(trace.map(|t| (t.values, t.secrets, t.beliefs)))
}

fn hidden_with(
    m: &dyn AnyMatch,
    settings: &Settings,
    stop: &StopFlag,
    progress: &mut dyn FnMut(usize),
) -> Result<Option<HiddenAnalysis>, AnalysisError> {
    let Some((values, secrets, beliefs)) = beliefs(m, stop)? else { return Ok(None) };
    let mut chances = Vec::with_capacity(m.ply() + 1);
    for ply in 0..=m.ply() {
        chances.push(chances_at(m, ply, settings, stop)?);
        progress(ply + 1);
    }
    Ok(Some(HiddenAnalysis { values, secrets, chances, beliefs }))
}

/// For a game with secrets (Kabaleo), after the game (every secret known):
/// each seat's chances at each position ([`chances_at`]) and the beliefs of
/// every seat's information-set player ([`beliefs`]). `Ok(None)` for games
/// without secrets.
pub fn analyse_hidden(
    m: &dyn AnyMatch,
    settings: &Settings,
    stop: &StopFlag,
) -> Result<Option<HiddenAnalysis>, AnalysisError> {
    hidden_with(m, settings, stop, &mut |_| {})
}

/// How bad a move was.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// A loss of at least [`INACCURACY`].
    Inaccuracy,
    /// At least [`MISTAKE`].
    Mistake,
    /// At least [`BLUNDER`].
    Blunder,
}

/// The judgement of a move that lost `loss` of the mover's expected return.
pub fn judge(loss: f32) -> Option<Judgement> {
    if loss >= BLUNDER {
        Some(Judgement::Blunder)
    } else if loss >= MISTAKE {
        Some(Judgement::Mistake)
    } else if loss >= INACCURACY {
        Some(Judgement::Inaccuracy)
    } else {
        None
    }
}

/// One move of the game, judged.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct PlyAnalysis {
    /// The 1-based number of the move.
    pub ply: usize,
    /// Who played it.
    pub seat: usize,
    /// The move played.
    pub played: String,
    /// The engine's move in the position before.
    pub best: Option<String>,
    /// The engine's line from the position before.
    pub line: Vec<String>,
    /// Each seat's expected return before the move.
    pub before: Vec<f32>,
    /// After it.
    pub after: Vec<f32>,
    /// How much the mover's expected return dropped (>= 0, rounded to 1e-4).
    pub loss: f32,
    /// Inaccuracy, mistake or blunder; never for the engine's own move or
    /// the only legal move.
    pub judgement: Option<Judgement>,
}

/// One seat's moves, summed up.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct SeatSummary {
    /// The seat.
    pub seat: usize,
    /// Its inaccuracies.
    pub inaccuracies: u32,
    /// Its mistakes.
    pub mistakes: u32,
    /// Its blunders.
    pub blunders: u32,
    /// The mean loss over its moves (0 when it made none).
    pub average_loss: f32,
}

/// The analysis of a game.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The game's name.
    pub game: String,
    /// The variant played.
    pub variant: String,
    /// The player spec that judged the positions.
    pub spec: String,
    /// Every move, judged.
    pub plies: Vec<PlyAnalysis>,
    /// Every seat, summed up.
    pub seats: Vec<SeatSummary>,
    /// For games with secrets: chances and beliefs.
    pub hidden: Option<HiddenAnalysis>,
}

/// Put together the analysis of `m` from the evaluations of its positions
/// `0..=n` (in order).
pub fn assemble(
    m: &dyn AnyMatch,
    evals: &[PositionEval],
    hidden: Option<HiddenAnalysis>,
    settings: &Settings,
) -> Result<Analysis, AnalysisError> {
    let n = m.ply();
    let seats = m.seats();
    if evals.len() != n + 1 {
        return Err(err(format!(
            "{} evaluations for a game of {n} moves: one per position, {} in all",
            evals.len(),
            n + 1
        )));
    }
    for (i, e) in evals.iter().enumerate() {
        if e.ply != i {
            return Err(err(format!("evaluation {i} is of position {}", e.ply)));
        }
        if e.values.len() != seats || e.values.iter().any(|v| !v.is_finite()) {
            return Err(err(format!("evaluation {i} does not have one finite value per seat ({seats})")));
        }
    }
    let history = m.history();
    let movers = m.movers();
    // How many legal moves each position had (a forced move is never judged).
    let mut c = position(m, 0)?;
    let mut choices = Vec::with_capacity(n);
    for mv in &history {
        choices.push(c.legal_moves().len());
        c.play(mv).map_err(|e| err(format!("replaying {mv}: {e}")))?;
    }
    let mut plies = Vec::with_capacity(n);
    for k in 0..n {
        let mover = movers[k];
        let (before, after) = (&evals[k], &evals[k + 1]);
        let drop = before.values[mover] - after.values[mover];
        let loss = ((drop.max(0.0) * 10_000.0).round() / 10_000.0).max(0.0);
        let engines = before.best.as_deref() == Some(history[k].as_str());
        let judgement = if engines || choices[k] <= 1 { None } else { judge(loss) };
        plies.push(PlyAnalysis {
            ply: k + 1,
            seat: mover,
            played: history[k].clone(),
            best: before.best.clone(),
            line: before.line.clone(),
            before: before.values.clone(),
            after: after.values.clone(),
            loss,
            judgement,
        });
    }
    let summaries = (0..seats)
        .map(|seat| {
            let mine: Vec<&PlyAnalysis> = plies.iter().filter(|p| p.seat == seat).collect();
            let count = |j: Judgement| mine.iter().filter(|p| p.judgement == Some(j)).count() as u32;
            let average_loss =
                if mine.is_empty() { 0.0 } else { mine.iter().map(|p| p.loss).sum::<f32>() / mine.len() as f32 };
            SeatSummary {
                seat,
                inaccuracies: count(Judgement::Inaccuracy),
                mistakes: count(Judgement::Mistake),
                blunders: count(Judgement::Blunder),
                average_loss,
            }
        })
        .collect();
    Ok(Analysis {
        game: m.info().name.to_string(),
        variant: m.variant().to_string(),
        spec: settings.spec.clone(),
        plies,
        seats: summaries,
        hidden,
    })
}

/// All of it in sequence (the command line): evaluate every position, then
/// for games with secrets the chances and beliefs, then assemble.
/// `progress(done, total)` after each search.
pub fn analyse(
    m: &dyn AnyMatch,
    settings: &Settings,
    stop: &StopFlag,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis, AnalysisError> {
    let n = m.ply();
    let total = if m.info().hidden { 2 * (n + 1) } else { n + 1 };
    let mut evals = Vec::with_capacity(n + 1);
    for ply in 0..=n {
        evals.push(evaluate_position(m, ply, settings, stop)?);
        progress(ply + 1, total);
    }
    let hidden = hidden_with(m, settings, stop, &mut |k| progress(n + 1 + k, total))?;
    assemble(m, &evals, hidden, settings)
}

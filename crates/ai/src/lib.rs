//! Computer players for every game of Plateau.
//!
//! - [`random`]: uniformly random legal moves.
//! - [`greedy`]: the best move by the game's [`Evaluate`] one decision ahead.
//! - [`alphabeta`]: negamax alpha-beta with iterative deepening, a
//!   transposition table on the game's hash, table-move / killer / history
//!   ordering, principal-variation search with aspiration windows, and
//!   quiescence on the game's noisy moves; for two-player games of perfect
//!   information.
//! - [`mcts`]: UCT Monte-Carlo tree search with per-seat returns (2–4 seats),
//!   tree reuse between moves, and evaluation cut-offs of the playouts.
//! - [`ismcts`]: information-set MCTS for games with hidden information. It
//!   receives only the knowledge of its seat ([`Hidden::Knowledge`]) and
//!   samples complete states from it; it cannot read the true state, by
//!   construction: its search function has no access to one.
//!
//! - [`tune`]: evaluation weights fitted to self-play results (Texel).
//!
//! Players are made from specs ([`spec`]) by a per-game [`Players`] factory:
//! [`two_player::<G>()`](two_player) for two-player perfect-information games,
//! [`hidden::<G>()`](hidden) for games with hidden information.

#![warn(missing_docs)]

pub mod alphabeta;
pub mod belief;
pub mod greedy;
pub mod mcts;
pub mod player;
pub mod random;
pub mod spec;
pub mod tune;

use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use plateau_core::erased::Match;
use plateau_core::rand::SeedableRng;
use plateau_core::{AnyMatch, Evaluate, Game, Hidden, Secrets, State, Turn};
use rand_chacha::ChaCha8Rng;

pub use player::{AnyPlayer, BeliefTrace, Choice, Guess, Level, PlayerError, Players, Score, SearchInfo};
pub use spec::{Budget, Kind, PlayerSpec, SpecError};

/// The random generator of players.
pub type PlayerRng = ChaCha8Rng;

/// A player's generator: from the spec's seed, or fresh.
pub fn player_rng(spec: &PlayerSpec) -> PlayerRng {
    ChaCha8Rng::seed_from_u64(spec.seed.unwrap_or_else(plateau_core::rng::fresh_seed))
}

/// A flag another thread sets to end a search at once (the engine
/// protocol's `stop`): the search then answers the best move it has.
pub type StopFlag = Arc<AtomicBool>;

/// A search over the true state (perfect information).
pub trait Search<S: State>: Send {
    /// Watch `stop` from now on: once it is set, a search under way ends as
    /// soon as it can with the best move found so far. Searches that always
    /// answer at once ignore it (the default).
    fn set_stop(&mut self, stop: StopFlag) {
        let _ = stop;
    }
    /// Choose a move in `state`, which is not over; `history` is every move
    /// played since the start (for tree reuse). Returns the move and the
    /// principal variation starting with it.
    fn search(&mut self, state: &S, history: &[S::Move]) -> (Vec<S::Move>, SearchInfo);
}

/// A search over what one seat knows (hidden information). It never sees a
/// state, only the seat's knowledge.
pub trait HiddenSearch<S: Hidden>: Send {
    /// As [`Search::set_stop`].
    fn set_stop(&mut self, stop: StopFlag) {
        let _ = stop;
    }
    /// Choose a move for `seat`, knowing only `knowledge`.
    fn search(&mut self, knowledge: &S::Knowledge, seat: usize) -> (S::Move, SearchInfo);
}

fn typed<G: Game>(m: &dyn AnyMatch) -> Result<&Match<G>, PlayerError> {
    m.as_any().downcast_ref::<Match<G>>().ok_or(PlayerError::WrongGame { expected: G::INFO.name, got: m.info().name })
}

struct Perfect<G: Game, P> {
    spec: PlayerSpec,
    search: P,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game, P: Search<G::State>> AnyPlayer for Perfect<G, P> {
    fn spec(&self) -> &PlayerSpec {
        &self.spec
    }
    fn set_stop(&mut self, stop: StopFlag) {
        self.search.set_stop(stop);
    }
    fn choose(&mut self, m: &dyn AnyMatch) -> Result<Choice, PlayerError> {
        if m.to_move() == Turn::Over {
            return Err(PlayerError::GameOver);
        }
        let t = typed::<G>(m)?;
        let history: Vec<_> = t.moves().collect();
        let (pv, mut info) = self.search.search(t.state(), &history);
        let mut s = t.state().clone();
        let mut texts = Vec::with_capacity(pv.len());
        for &mv in &pv {
            if !s.is_legal(mv) {
                break;
            }
            texts.push(s.format_move(mv));
            s.apply(mv);
        }
        let mv = texts.first().cloned().ok_or(PlayerError::GameOver)?;
        info.pv = texts;
        Ok(Choice { mv, info })
    }
}

struct Secretive<G: Game, P> {
    spec: PlayerSpec,
    search: P,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game, P> AnyPlayer for Secretive<G, P>
where
    G::State: Hidden,
    P: HiddenSearch<G::State>,
{
    fn spec(&self) -> &PlayerSpec {
        &self.spec
    }
    fn set_stop(&mut self, stop: StopFlag) {
        self.search.set_stop(stop);
    }
    fn choose(&mut self, m: &dyn AnyMatch) -> Result<Choice, PlayerError> {
        let seat = m.to_move().seat().ok_or(PlayerError::GameOver)?;
        let t = typed::<G>(m)?;
        // The only place the true state is touched: to take the seat's
        // knowledge, which is all the search receives.
        let knowledge = t.state().knowledge(seat);
        let (mv, mut info) = self.search.search(&knowledge, seat);
        let text = t.state().format_move(mv);
        info.pv = vec![text.clone()];
        Ok(Choice { mv: text, info })
    }
}

/// Wrap a typed search as a player of game `G`.
pub fn perfect_player<G: Game, P: Search<G::State> + 'static>(spec: PlayerSpec, search: P) -> Box<dyn AnyPlayer> {
    Box::new(Perfect::<G, P> { spec, search, _game: PhantomData })
}

/// Wrap a knowledge-only search as a player of game `G`.
pub fn hidden_player<G: Game, P: HiddenSearch<G::State> + 'static>(spec: PlayerSpec, search: P) -> Box<dyn AnyPlayer>
where
    G::State: Hidden,
{
    Box::new(Secretive::<G, P> { spec, search, _game: PhantomData })
}

/// The levels of two-player games of perfect information.
pub const TWO_PLAYER_LEVELS: [Level; 6] = [
    Level { level: 1, spec: "random", label: "beginner: plays at random" },
    Level { level: 2, spec: "greedy", label: "novice: the best move one step ahead" },
    Level { level: 3, spec: "alphabeta:depth=2,variety=on", label: "casual: looks two moves ahead" },
    Level { level: 4, spec: "alphabeta:time=200ms,variety=on", label: "club: a fifth of a second a move" },
    Level { level: 5, spec: "alphabeta:time=1s,variety=on", label: "strong: a second a move" },
    Level { level: 6, spec: "alphabeta:time=5s,variety=on", label: "expert: five seconds a move" },
];

/// The levels of games with hidden information.
pub const HIDDEN_LEVELS: [Level; 6] = [
    Level { level: 1, spec: "random", label: "beginner: plays at random" },
    Level { level: 2, spec: "greedy", label: "novice: the best move one step ahead" },
    Level { level: 3, spec: "ismcts:iterations=300", label: "casual: a quick look ahead" },
    Level { level: 4, spec: "ismcts:time=200ms", label: "club: a fifth of a second a move" },
    Level { level: 5, spec: "ismcts:time=1s", label: "strong: a second a move" },
    Level { level: 6, spec: "ismcts:time=5s", label: "expert: five seconds a move" },
];

fn resolve_level(spec: &PlayerSpec, levels: &'static [Level; 6]) -> Result<PlayerSpec, SpecError> {
    match spec.kind {
        Kind::Level(n) => {
            let mut s = PlayerSpec::parse(levels[n as usize - 1].spec)?;
            s.seed = spec.seed;
            s.uniform_sampling = spec.uniform_sampling;
            s.no_plan = spec.no_plan;
            s.no_prune = spec.no_prune;
            s.eval = spec.eval.clone();
            s.variety |= spec.variety;
            Ok(s)
        }
        _ => Ok(spec.clone()),
    }
}

/// The version a spec's `eval=` names, as an index into the game's
/// [`Evaluate::EVALS`]; `None` for the latest (the default).
pub fn eval_version<S: Evaluate>(spec: &PlayerSpec) -> Result<Option<usize>, SpecError> {
    let Some(name) = &spec.eval else { return Ok(None) };
    match S::EVALS.iter().position(|v| v == name) {
        Some(i) if i + 1 == S::EVALS.len() => Ok(None),
        Some(i) => Ok(Some(i)),
        None => Err(SpecError(format!("eval={name}: this game's evaluations are {}", S::EVALS.join(", ")))),
    }
}

/// A position's evaluation by version `version` (`None`: the latest).
#[inline]
pub(crate) fn evaluate<S: Evaluate>(s: &S, seat: usize, version: Option<usize>) -> i32 {
    match version {
        None => s.evaluate(seat),
        Some(v) => s.evaluate_version(seat, v),
    }
}

struct TwoPlayer<G>(PhantomData<fn() -> G>);

impl<G: Game> Players for TwoPlayer<G>
where
    G::State: Evaluate,
{
    fn game(&self) -> &'static str {
        G::INFO.name
    }
    fn create(&self, spec: &PlayerSpec) -> Result<Box<dyn AnyPlayer>, SpecError> {
        let spec = resolve_level(spec, &TWO_PLAYER_LEVELS)?;
        let version = eval_version::<G::State>(&spec)?;
        match spec.kind {
            Kind::Random => Ok(Box::new(random::Random::new(spec))),
            Kind::Greedy => {
                let g = greedy::Greedy::new(player_rng(&spec)).version(version);
                Ok(perfect_player::<G, _>(spec, g))
            }
            Kind::AlphaBeta => {
                if G::INFO.max_seats != 2 {
                    return Err(SpecError(format!("alpha-beta needs two players; {} has more", G::INFO.name)));
                }
                let mut ab = alphabeta::AlphaBeta::new(spec.budget, alphabeta::DEFAULT_TABLE_BITS);
                ab.use_plan = !spec.no_plan;
                ab.use_pruning = !spec.no_prune;
                ab.version = version;
                if spec.variety {
                    ab.variety = Some(player_rng(&spec));
                }
                Ok(perfect_player::<G, _>(spec, ab))
            }
            Kind::Mcts => {
                let config = mcts::MctsConfig::for_version::<G::State>(version);
                let m = mcts::Mcts::new(spec.budget, player_rng(&spec), config);
                Ok(perfect_player::<G, _>(spec, m))
            }
            Kind::Human => Err(SpecError("a human is not a computer player".into())),
            Kind::IsMcts => Err(SpecError(format!("{} has no hidden information: use mcts", G::INFO.name))),
            Kind::Level(_) => Err(SpecError("levels resolve to a player".into())),
        }
    }
    fn levels(&self) -> &'static [Level; 6] {
        &TWO_PLAYER_LEVELS
    }
    fn tune(
        &self,
        new_match: &tune::NewMatch<'_>,
        config: &tune::TuneConfig,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<plateau_core::weights::Weights, String> {
        tune::tune::<G>(self, new_match, config, progress)
    }
}

/// The computer players of a two-player game of perfect information.
pub fn two_player<G: Game>() -> Box<dyn Players>
where
    G::State: Evaluate,
{
    Box::new(TwoPlayer::<G>(PhantomData))
}

struct HiddenPlayers<G>(PhantomData<fn() -> G>);

impl<G: Game> Players for HiddenPlayers<G>
where
    G::State: Secrets,
{
    fn game(&self) -> &'static str {
        G::INFO.name
    }
    fn create(&self, spec: &PlayerSpec) -> Result<Box<dyn AnyPlayer>, SpecError> {
        let spec = resolve_level(spec, &HIDDEN_LEVELS)?;
        let version = eval_version::<G::State>(&spec)?;
        match spec.kind {
            Kind::Random => Ok(Box::new(random::Random::new(spec))),
            Kind::Greedy => {
                let g = greedy::HiddenGreedy::new(player_rng(&spec)).version(version);
                Ok(hidden_player::<G, _>(spec, g))
            }
            Kind::Human => Err(SpecError("a human is not a computer player".into())),
            Kind::AlphaBeta => Err(SpecError(format!(
                "alpha-beta needs perfect information; {} hides information: use ismcts",
                G::INFO.name
            ))),
            Kind::Mcts | Kind::IsMcts => {
                let config = mcts::MctsConfig::for_version::<G::State>(version);
                let mut m = mcts::IsMcts::new(spec.budget, player_rng(&spec), config);
                m.use_beliefs = !spec.uniform_sampling;
                Ok(hidden_player::<G, _>(spec, m))
            }
            Kind::Level(_) => Err(SpecError("levels resolve to a player".into())),
        }
    }
    fn levels(&self) -> &'static [Level; 6] {
        &HIDDEN_LEVELS
    }
    fn tune(
        &self,
        new_match: &tune::NewMatch<'_>,
        config: &tune::TuneConfig,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<plateau_core::weights::Weights, String> {
        tune::tune::<G>(self, new_match, config, progress)
    }
    fn guesses(&self, m: &dyn AnyMatch) -> Option<Vec<Guess>> {
        let t = typed::<G>(m).ok()?;
        if m.outcome().is_none() || t.state().ply() == 0 {
            return None;
        }
        // Beliefs from each seat's knowledge just before the last move, when
        // the secrets were still hidden, against the revealed secrets.
        let moves: Vec<_> = t.moves().collect();
        let mut before = G::configure(&G::INFO.resolve(m.setup().variant.as_deref(), &m.setup().options).ok()?)
            .ok()?
            .start(m.setup().seed);
        for &mv in &moves[..moves.len() - 1] {
            before.apply(mv);
        }
        let end = t.state();
        let mut out = Vec::new();
        for me in 0..end.seats() {
            let belief = belief::infer::<G::State>(&before.knowledge(me), me, belief::RATIONALITY);
            for other in (0..end.seats()).filter(|&o| o != me) {
                out.push(Guess { by: me, of: other, right: belief.top(other) == end.secret(other) });
            }
        }
        Some(out)
    }
    fn beliefs(&self, m: &dyn AnyMatch, stop: &StopFlag) -> Option<BeliefTrace> {
        use std::sync::atomic::Ordering;
        if !matches!(m.dealt_for(), None | Some(plateau_core::Reader::Referee)) {
            return None; // made from one seat's deal: the others' secrets are made up
        }
        typed::<G>(m).ok()?;
        let history = m.history();
        // The same match from its start, replayed move by move.
        let mut c = m.clone_box();
        while c.undo() {}
        let seats = m.seats();
        let mut beliefs = Vec::with_capacity(history.len() + 1);
        for ply in 0..=history.len() {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let state = typed::<G>(c.as_ref()).ok()?.state();
            let at: Vec<Vec<Vec<f32>>> = (0..seats)
                .map(|observer| {
                    let b = belief::infer::<G::State>(&state.knowledge(observer), observer, belief::RATIONALITY);
                    (0..seats)
                        .map(|seat| b.weights[seat][..G::State::VALUES].iter().map(|&w| w as f32).collect())
                        .collect()
                })
                .collect();
            beliefs.push(at);
            if let Some(mv) = history.get(ply) {
                c.play(mv).ok()?;
            }
        }
        let end = typed::<G>(m).ok()?.state();
        Some(BeliefTrace {
            values: (0..G::State::VALUES).map(G::State::value_name).collect(),
            secrets: (0..seats).map(|s| end.secret(s)).collect(),
            beliefs,
        })
    }
    fn omniscient(&self, spec: &PlayerSpec) -> Option<Result<Box<dyn AnyPlayer>, SpecError>> {
        let spec = match resolve_level(spec, &HIDDEN_LEVELS) {
            Ok(s) => s,
            Err(e) => return Some(Err(e)),
        };
        let version = match eval_version::<G::State>(&spec) {
            Ok(v) => v,
            Err(e) => return Some(Err(e)),
        };
        Some(match spec.kind {
            Kind::Mcts | Kind::IsMcts => {
                let config = mcts::MctsConfig::for_version::<G::State>(version);
                let m = mcts::Mcts::new(spec.budget, player_rng(&spec), config);
                Ok(perfect_player::<G, _>(spec, m))
            }
            Kind::Greedy => {
                let g = greedy::Greedy::new(player_rng(&spec)).version(version);
                Ok(perfect_player::<G, _>(spec, g))
            }
            _ => Err(SpecError(format!("a player over the true state of {} is mcts, ismcts or greedy", G::INFO.name))),
        })
    }
}

/// The computer players of a game with hidden information.
pub fn hidden<G: Game>() -> Box<dyn Players>
where
    G::State: Secrets,
{
    Box::new(HiddenPlayers::<G>(PhantomData))
}

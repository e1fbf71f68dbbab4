//! The shared game model of Plateau.
//!
//! Every game of Plateau (Abalone, Colorito, Kabaleo, Abraxas, and any game added
//! later) implements the two traits of this crate:
//!
//! - [`Game`]: the static facts of a configured game (its [`GameInfo`] with
//!   variants and options, the number of seats, the start position for a seed).
//!   It is cheap to clone and shared by every state of one game.
//! - [`State`]: one position: whose decision it is ([`Turn`]), the legal moves,
//!   applying and undoing a move, the outcome, a stable hash, the notation of
//!   moves, and what each reader may see of it ([`State::view`]).
//!
//! Games with hidden information also implement [`Hidden`]: what one seat knows
//! ([`Hidden::Knowledge`]) and the sampling of complete states consistent with it.
//! Searchers for such games take knowledge, never a state, so that no computer
//! player can read what its seat may not see.
//!
//! A turn made of several decisions by different players (Abraxas: the scorer's
//! removals, the opponent's stop stone, then the scorer again) is simply several
//! moves: [`State::to_move`] names whoever decides next.
//!
//! On top of the typed traits, [`erased`] wraps any game once, generically, so
//! that the command line, the server and tools drive any game by name with moves
//! as text and views as JSON; [`record`] is the one PGN-like record format of all
//! games; [`perft`] counts leaf positions for any game.

pub mod erased;
pub mod error;
pub mod json;
pub mod lesson;
pub mod options;
pub mod outcome;
pub mod perft;
pub mod puzzle;
pub mod record;
pub mod rng;
pub mod weights;

use std::fmt::Debug;
use std::hash::Hash;

pub use erased::{AnyMatch, GameEntry, Match, Registry, entry};
pub use error::{ConfigError, MoveError, MoveErrorKind, RecordError};
pub use options::{GameInfo, OptionKind, OptionSpec, Options, Settings, Setup, VariantSpec};
pub use outcome::Outcome;
pub use rand;
pub use record::Record;

/// A seat at the table, counted from 0 (the first player). Displays count from 1.
pub type Seat = usize;

/// The largest number of seats any game has.
pub const MAX_SEATS: usize = 4;

/// Whose decision it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Turn {
    /// This seat must choose the next move.
    Seat(Seat),
    /// The game is over: there is no move.
    Over,
}

impl Turn {
    /// The seat to move, if the game is not over.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Turn::Seat(s) => Some(s),
            Turn::Over => None,
        }
    }
}

/// Who looks at a state: what they may see depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reader {
    /// A player: sees everything public and their own secrets.
    Seat(Seat),
    /// A spectator: sees only what is public.
    Spectator,
    /// The referee (the rules engine itself, a replay of a full record):
    /// sees everything. Never used for what is sent to a player.
    Referee,
}

impl Reader {
    /// May this reader see the secrets of `seat`?
    pub fn may_see(self, seat: Seat) -> bool {
        match self {
            Reader::Seat(s) => s == seat,
            Reader::Spectator => false,
            Reader::Referee => true,
        }
    }
}

/// A configured game: validated options and the number of seats.
///
/// This is the static part of a game, apart from the state of any one position,
/// as OpenSpiel separates `Game` from `State`.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// The positions of this game.
    type State: Encode;

    /// The static description: name, seats, variants and options.
    const INFO: &'static GameInfo;

    /// Build a game from resolved settings (a variant's presets plus the user's
    /// options, already checked against [`GameInfo::options`]). Game-specific
    /// validation (a board file, a combination of options) happens here.
    fn configure(settings: &Settings) -> Result<Self, ConfigError>;

    /// The number of seats of this configured game.
    fn seats(&self) -> usize;

    /// The name of a seat, as players know it ("Black", "Red", "Player 3").
    fn seat_name(&self, seat: Seat) -> String;

    /// The start position. Every random choice of the set-up comes from `seed`.
    fn start(&self, seed: u64) -> Self::State;

    /// An upper bound on the number of plies (moves of any kind) of one game,
    /// when the rules guarantee one. The conformance kit checks it.
    fn ply_bound(&self) -> Option<u64>;

    /// For a game whose start is drawn from the seed (Kabaleo's deal): the
    /// start position as `reader` may know it, as one line of text in the
    /// game's own form, each secret the reader may not see written `?`. A
    /// program told only this (an engine playing one seat) rebuilds, with
    /// [`Game::start_from_deal`], a start that agrees with the true one on
    /// everything the reader may see, without ever learning the seed.
    /// `None` (the default) for games whose start does not depend on the seed.
    fn deal_text(&self, start: &Self::State, reader: Reader) -> Option<String> {
        let _ = (start, reader);
        None
    }

    /// The start position a deal text describes (see [`Game::deal_text`]),
    /// checked against this configured game, every unknown secret filled
    /// with some value consistent with the rest; and the reader whose
    /// knowledge the text is (a seat, when it names that seat's secrets
    /// only; a spectator, when it names none; the referee, when it names
    /// all). Errors say what is wrong with the text.
    fn start_from_deal(&self, text: &str) -> Result<(Self::State, Reader), ConfigError> {
        let _ = text;
        Err(ConfigError::new(format!("{} has no deal: its start does not depend on a seed", Self::INFO.title)))
    }

    /// A deal text with every secret written `?` drawn at random, uniformly
    /// among the values consistent with the rest (and with the draws of
    /// `seed`): a complete start that could be the true one for whoever
    /// knows the deal (information-set searches sample these).
    fn complete_deal(&self, text: &str, seed: u64) -> Result<String, ConfigError> {
        let _ = (text, seed);
        Err(ConfigError::new(format!("{} has no deal: its start does not depend on a seed", Self::INFO.title)))
    }

    /// The game's interactive course for beginners (see [`lesson`]); none by
    /// default.
    fn lessons() -> &'static [lesson::Lesson] {
        &[]
    }

    /// For a game where material is won (captures): how its view counts it
    /// and its built-in puzzles (see [`puzzle`]); `None` by default.
    fn puzzles() -> Option<&'static puzzle::Puzzles> {
        None
    }
}

/// One position of a game.
///
/// Moves are small `Copy` values; all move generation writes into a buffer the
/// caller owns, so that search never allocates per move.
pub trait State: Clone + PartialEq + Debug + Send + Sync + 'static {
    /// A move (one decision of one player).
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// What [`State::apply`] returns so that [`State::undo`] can restore the
    /// position exactly.
    type Undo: Clone + Debug + Send + Sync + 'static;
    /// What one reader may see of this position.
    type View: serde::Serialize;

    /// The number of seats.
    fn seats(&self) -> usize;

    /// Whose decision it is, or [`Turn::Over`].
    fn to_move(&self) -> Turn;

    /// The number of moves applied since the start.
    fn ply(&self) -> u32;

    /// Clear `out` and fill it with the legal moves, each once. Empty when the
    /// game is over.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// The number of legal moves (perft's last ply). Games may count faster
    /// than they generate.
    fn count_moves(&self) -> usize {
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        v.len()
    }

    /// Is `mv` legal here, and if not, why: the one legality test of a game,
    /// from which [`State::is_legal`] and [`State::try_apply`] are derived.
    /// It must agree exactly with [`State::legal_moves`] (the conformance kit
    /// checks that every generated move passes and that moves generated
    /// elsewhere fail). A refusal is a [`MoveError::illegal`] that says what
    /// is wrong in words a player understands, about public facts only; when
    /// the game is over it says so ("the game is over").
    fn check(&self, mv: Self::Move) -> Result<(), MoveError>;

    /// Is `mv` legal here? Derived from [`State::check`]; games do not
    /// override it, so that no game can disagree with itself.
    fn is_legal(&self, mv: Self::Move) -> bool {
        self.check(mv).is_ok()
    }

    /// Apply a move known to be legal (search). Applying an illegal move is a
    /// logic error: it may be caught by a debug assertion.
    fn apply(&mut self, mv: Self::Move) -> Self::Undo;

    /// Undo `mv`, which was the last move applied and returned `undo`.
    fn undo(&mut self, mv: Self::Move, undo: Self::Undo);

    /// Apply a move from an untrusted source (a user, a file, a network peer):
    /// an illegal move is refused with [`State::check`]'s error and changes
    /// nothing. Derived from [`State::check`] and [`State::apply`]; games do
    /// not override it.
    fn try_apply(&mut self, mv: Self::Move) -> Result<Self::Undo, MoveError> {
        self.check(mv)?;
        Ok(self.apply(mv))
    }

    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// A stable hash of everything that matters for the rules (repetition,
    /// transposition tables): equal states have equal keys, across runs and
    /// builds.
    fn key(&self) -> u64;

    /// The move in the game's notation.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Parse a move in the game's notation, in the context of this position.
    /// Errors say what was wrong. A move that parses may still be illegal:
    /// [`State::try_apply`] checks.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// What `reader` may see of this position, as a serializable value. It must
    /// not contain anything the reader may not see.
    fn view(&self, reader: Reader) -> Self::View;

    /// A drawing of the position for a terminal, as `reader` may see it; with
    /// ANSI colours when `color` is set.
    fn render(&self, reader: Reader, color: bool) -> String;

    /// How a player makes `mv` by pointing: the pieces or things to select
    /// (in any order), then one of the targets to click. Identifiers are the
    /// ones the game's drawings use (cells such as `e5`, or names such as
    /// `stock:R`, `pass`). No two legal moves have the same selection and a
    /// shared target. By default a move is one target named by its notation.
    fn gesture(&self, mv: Self::Move) -> Gesture {
        Gesture { select: Vec::new(), targets: vec![self.format_move(mv)] }
    }

    /// Write [`State::format_move`]'s text at the end of `out`. By default
    /// the text is made, then copied; a game may write it straight, without
    /// a `String` per move (the server writes every legal move after each
    /// move).
    fn write_move(&self, mv: Self::Move, out: &mut String) {
        out.push_str(&self.format_move(mv));
    }

    /// Write [`State::gesture`] at the end of `out` as the JSON fields
    /// `"select":[…],"targets":[…]` (serde_json's compact form). By default
    /// the gesture is made, then written; a game may write it straight.
    fn write_gesture_json(&self, mv: Self::Move, out: &mut String) {
        let g = self.gesture(mv);
        out.push_str("\"select\":");
        json::push_str_array(out, &g.select);
        out.push_str(",\"targets\":");
        json::push_str_array(out, &g.targets);
    }

    /// Write [`State::view`] as JSON at the end of `out`. By default the view
    /// is serialized with serde_json; a game may write it straight (the same
    /// fields and values, in any order).
    fn write_view_json(&self, reader: Reader, out: &mut String) {
        match serde_json::to_string(&self.view(reader)) {
            Ok(text) => out.push_str(&text),
            Err(_) => out.push_str("null"),
        }
    }

    /// Game-specific tags of a finished game's record (Colorito's score, say).
    /// Only called once the game is over.
    fn result_tags(&self) -> Vec<(String, String)> {
        Vec::new()
    }
}

/// Moves as integers and positions as tensors, for learning programs (the
/// Python package, its PettingZoo and Gymnasium environments), as OpenSpiel's
/// distinct actions and observation tensors.
///
/// Every game implements it in its own crate and documents its encoding
/// (`docs/python.md` gathers them). The conformance kit checks the laws
/// below on every position of its playouts.
pub trait Encode: State {
    /// The size of the action space: every move of this configured game is
    /// one integer in `0..actions()`. The same for every state of one
    /// configured game (variant and options), so that a learner's output
    /// layer has a fixed size.
    fn actions(&self) -> usize;

    /// The action of a move: below [`Encode::actions`], distinct for
    /// distinct legal moves of one position, and depending only on what
    /// every player sees (never on hidden information).
    fn action(&self, mv: Self::Move) -> usize;

    /// The move an action names in this position, `None` when it names
    /// none (out of range, or a move this position cannot even express).
    /// For a legal move `m`, `move_of(action(m)) == Some(m)`. A move it
    /// returns may still be illegal: [`State::check`] says.
    fn move_of(&self, action: usize) -> Option<Self::Move>;

    /// The shape of an observation: planes, height, width (an observation
    /// is `planes × height × width` numbers, row-major). The same for every
    /// state of one configured game.
    fn observation_shape(&self) -> [usize; 3];

    /// The name of each plane, in order (as `docs/python.md` describes).
    fn plane_names(&self) -> Vec<String>;

    /// Write what `seat` may see of this position into `out` (exactly as
    /// many numbers as [`Encode::observation_shape`] says; every one is
    /// written), from `seat`'s point of view: planes that name players
    /// name `seat` first, then the others in turn order. Every value is in
    /// `0.0..=1.0`. Nothing `seat` may not see may change it (the
    /// conformance kit checks it for hidden games as it does views).
    /// Callers pass a seat of the game and a buffer of the right size (the
    /// type-erased layer's callers check both); a game may panic otherwise.
    fn observe(&self, seat: Seat, out: &mut [f32]);
}

/// How computer players judge a position: a game's evaluation, written from the
/// game's strategy, lives in the game's crate.
pub trait Evaluate: State {
    /// How many random moves a Monte-Carlo playout makes before the
    /// evaluation judges the position. Games whose random play is short and
    /// telling (Kabaleo) play to the end; games where it is noise (Abalone)
    /// stop early.
    const PLAYOUT_PLIES: u32 = 6;

    /// A heuristic value of the position for `seat`, higher is better, in
    /// units where about ±1000 means "as good as won / lost". With two seats
    /// it is antisymmetric: `evaluate(0) == -evaluate(1)`. Only called on
    /// positions that are not over.
    fn evaluate(&self, seat: Seat) -> i32;

    /// The moves that make a search horizon unstable here (captures, lines
    /// about to score), for quiescence search. By default none.
    fn noisy_moves(&self, out: &mut Vec<Self::Move>) {
        out.clear();
    }

    /// Whether every legal move here is noisy, `noisy` being the noisy moves
    /// as [`Evaluate::noisy_moves`] gave them (a decision in the middle of a
    /// turn): quiescence search may then not judge the position statically.
    /// By default it counts the legal moves; a game that can tell faster
    /// (Abalone: a marble next to an empty cell can always step there
    /// quietly) says so here. Called at every quiescence node.
    fn only_noisy_moves(&self, noisy: &[Self::Move]) -> bool {
        !noisy.is_empty() && noisy.len() == self.count_moves()
    }

    /// The moves alpha-beta's latest version searches here, below its root:
    /// the legal moves (the default), or fewer where the game knows that the
    /// others do not matter (Abraxas: in the interlude, passing or a stop
    /// stone that breaks the scorer's line; in a placement turn, the stop
    /// stones that break the opponent's). Never empty while the game goes
    /// on. Older versions search every legal move.
    fn search_moves(&self, out: &mut Vec<Self::Move>) {
        self.legal_moves(out);
    }

    /// A key of everything the latest evaluation ([`Evaluate::evaluate`])
    /// reads of this position, for every seat, if the game has one at hand:
    /// alpha-beta's latest version then keeps evaluations in a cache under
    /// it, so that a position met again in the same search (by
    /// transposition, or in the next iteration of deepening) is not judged
    /// again. `None` (the default): no cache. A game whose evaluation reads
    /// anything beyond [`State::key`] (a move count, the history) must mix
    /// it in, or keep the default.
    fn eval_key(&self) -> Option<u64> {
        None
    }

    /// Whether the decision here completes a turn already chosen (Abraxas's
    /// removal of a line's stones and the interlude after it), so that
    /// alpha-beta's latest version does not count it against its depth and
    /// sees a capture whole. By default no (older versions never ask).
    fn free_decision(&self) -> bool {
        false
    }

    /// A move the game's own planner chooses here by a method it trusts more
    /// than a search with [`Evaluate::evaluate`] (an endgame solver, as chess
    /// engines play from endgame tables at the root), with the number of
    /// moves its plan takes; `None` to search as usual (the default).
    /// Alpha-beta plays it without searching. Its work must be bounded (a few
    /// tens of milliseconds at most) and deterministic, except that it gives
    /// up (`None`) once `deadline` has passed: alpha-beta under a time limit
    /// gives it half of its time.
    fn planned_move(&self, deadline: Option<std::time::Instant>) -> Option<(Self::Move, u32)> {
        let _ = deadline;
        None
    }

    /// The evaluation's versions, oldest first. A player spec chooses one
    /// with `eval=NAME` (so that the arena can play an old player against a
    /// new one); the last is the default and is what [`Evaluate::evaluate`]
    /// computes. `v1` is, in every game, the computer players as they were
    /// on 2026-11-30 (evaluation, planner and search), before issue 20.
    const EVALS: &'static [&'static str] = &["v1"];

    /// The evaluation of version `version` (an index into
    /// [`Evaluate::EVALS`], which callers check), as [`Evaluate::evaluate`]
    /// says. By default the one evaluation there is.
    fn evaluate_version(&self, seat: Seat, version: usize) -> i32 {
        let _ = version;
        self.evaluate(seat)
    }

    /// [`Evaluate::planned_move`] of version `version` (an index into
    /// [`Evaluate::EVALS`]). By default the one planner there is.
    fn planned_move_version(&self, deadline: Option<std::time::Instant>, version: usize) -> Option<(Self::Move, u32)> {
        let _ = version;
        self.planned_move(deadline)
    }

    /// The names of the latest evaluation's terms, for tuning its weights by
    /// self-play (`plateau tune`, `docs/strength.md`). Empty for an
    /// evaluation that is not a weighted sum of terms (the default).
    const TERMS: &'static [&'static str] = &[];

    /// The value of each of [`Evaluate::TERMS`] for `seat`, into `out` (as
    /// long as `TERMS`). The latest evaluation is
    /// `round(Σ weights()[i] · out[i])`: each game's tests check it.
    fn terms(&self, seat: Seat, out: &mut [f32]) {
        let _ = (seat, out);
    }

    /// The latest evaluation's weights, in the order of
    /// [`Evaluate::TERMS`]: data the tuner wrote (each game's
    /// `weights.json`, with the command that made it and its fit).
    fn weights() -> &'static [f32] {
        &[]
    }

    /// Evaluation units that Monte-Carlo searches map to a return of
    /// `tanh(1)` ≈ 0.76 (a playout's end judged by the latest evaluation:
    /// `tanh(evaluation / scale)`). 400 by default; a tuned evaluation says
    /// it from its fitted scale `k` ([`weights::Weights::return_scale`]:
    /// `tanh(k·e/2) = 2σ(k·e) − 1`, the expected return the fit predicts).
    fn return_scale() -> f32 {
        400.0
    }
}

/// How a move is made by pointing: select these (any order), then click one
/// of the targets. See [`State::gesture`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Gesture {
    /// What to select first (pieces, cells, a stock colour), in any order.
    pub select: Vec<String>,
    /// What to click to make the move (any one of them).
    pub targets: Vec<String>,
}

/// A game with hidden information.
pub trait Hidden: State {
    /// Everything one seat knows: built only from what that seat may see.
    type Knowledge: Clone + PartialEq + Debug + Send + Sync + 'static;

    /// What `seat` knows of this state.
    fn knowledge(&self, seat: Seat) -> Self::Knowledge;

    /// A complete state that could be the true one, given what a seat knows:
    /// every hidden element not known to the seat is drawn from `rng` among the
    /// assignments consistent with the knowledge.
    fn sample<R: rand::Rng + ?Sized>(knowledge: &Self::Knowledge, rng: &mut R) -> Self;
}

/// The most values one seat's secret can take (see [`Secrets`]).
pub const MAX_SECRET_VALUES: usize = 8;

/// Weights over each seat's secret values, `weights[seat][value]`.
pub type SecretWeights = [[f64; MAX_SECRET_VALUES]; MAX_SEATS];

/// Hidden information made of one secret value per seat (Kabaleo's objective
/// colour), so that computer players can keep a belief over each opponent's
/// secret and update it from the moves the opponent makes.
pub trait Secrets: Hidden + Evaluate {
    /// The number of values a secret can take: values are `0..VALUES`
    /// (at most [`MAX_SECRET_VALUES`]).
    const VALUES: usize;

    /// The values `seat`'s secret may have, given the knowledge, as a bit set
    /// (bit `v` for value `v`). A single bit when the secret is known.
    fn candidates(knowledge: &Self::Knowledge, seat: Seat) -> u64;

    /// The moves played so far, each with the seat that played it.
    fn history(knowledge: &Self::Knowledge) -> Vec<(Seat, Self::Move)>;

    /// The start position of the game, consistent with the knowledge (the
    /// unknown secrets set to any consistent values).
    fn initial(knowledge: &Self::Knowledge) -> Self;

    /// A complete state consistent with the knowledge, each consistent
    /// assignment of the unknown secrets drawn with probability proportional
    /// to the product of `weights[seat][value]` over the unknown seats (falling
    /// back to uniform when every assignment weighs zero).
    fn sample_weighted<R: rand::Rng + ?Sized>(
        knowledge: &Self::Knowledge,
        weights: &SecretWeights,
        rng: &mut R,
    ) -> Self;

    /// How good the position is for `seat`, as a player whose secret were
    /// `value` would judge it without knowing the others' secrets: the
    /// opponent model of belief updates.
    fn evaluate_as(&self, seat: Seat, value: usize) -> i32;

    /// The secret of `seat` in this complete state.
    fn secret(&self, seat: Seat) -> usize;

    /// The name of a secret's value, for people (Kabaleo: a colour's letter);
    /// by default its number.
    fn value_name(value: usize) -> String {
        value.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Take one or two counters from a pile of three; whoever takes the last
    /// wins. Only `check` says what is legal.
    #[derive(Clone, PartialEq, Debug)]
    struct Pile {
        left: u8,
        ply: u32,
    }

    impl State for Pile {
        type Move = u8;
        type Undo = ();
        type View = u8;
        fn seats(&self) -> usize {
            2
        }
        fn to_move(&self) -> Turn {
            if self.left == 0 { Turn::Over } else { Turn::Seat(self.ply as usize % 2) }
        }
        fn ply(&self) -> u32 {
            self.ply
        }
        fn legal_moves(&self, out: &mut Vec<u8>) {
            out.clear();
            out.extend((1..=2).filter(|&k| k <= self.left));
        }
        fn check(&self, mv: u8) -> Result<(), MoveError> {
            if self.left == 0 {
                Err(MoveError::illegal("the game is over"))
            } else if mv == 0 || mv > 2 {
                Err(MoveError::illegal(format!("take 1 or 2, not {mv}")))
            } else if mv > self.left {
                Err(MoveError::illegal(format!("only {} left", self.left)))
            } else {
                Ok(())
            }
        }
        fn apply(&mut self, mv: u8) {
            self.left -= mv;
            self.ply += 1;
        }
        fn undo(&mut self, mv: u8, _: ()) {
            self.left += mv;
            self.ply -= 1;
        }
        fn outcome(&self) -> Option<Outcome> {
            (self.left == 0).then(|| Outcome::win(2, (self.ply as usize + 1) % 2, "last counter"))
        }
        fn key(&self) -> u64 {
            self.left as u64
        }
        fn format_move(&self, mv: u8) -> String {
            mv.to_string()
        }
        fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
            text.parse().map_err(|_| MoveError::syntax("a number"))
        }
        fn view(&self, _: Reader) -> u8 {
            self.left
        }
        fn render(&self, _: Reader, _: bool) -> String {
            self.left.to_string()
        }
    }

    #[test]
    fn is_legal_and_try_apply_follow_check() {
        // Worked by hand: from 3, taking 1 or 2 is legal, 0 and 3 are not;
        // from 1, only 1.
        let mut s = Pile { left: 3, ply: 0 };
        assert!(s.is_legal(1) && s.is_legal(2));
        assert!(!s.is_legal(0) && !s.is_legal(3));
        assert_eq!(s.try_apply(3), Err(MoveError::illegal("take 1 or 2, not 3")));
        assert_eq!(s, Pile { left: 3, ply: 0 }, "a refused move changes nothing");
        s.try_apply(2).unwrap();
        assert_eq!(s, Pile { left: 1, ply: 1 });
        assert!(!s.is_legal(2));
        assert_eq!(s.try_apply(2), Err(MoveError::illegal("only 1 left")));
        s.try_apply(1).unwrap();
        assert_eq!(s.try_apply(1), Err(MoveError::illegal("the game is over")));
        assert_eq!(s.outcome().map(|o| o.winners()), Some(vec![1]));
    }
}

//! The type-erased layer: any game driven by name, with moves as text and views
//! as JSON, so that the command line, the server and tools never need to know
//! which game they run.
//!
//! A game registers itself with one line, [`entry::<MyGame>()`](entry); the
//! [`Registry`] finds games by name; a [`Match`] is one game in progress (its
//! set-up, its state and its history) behind the object-safe [`AnyMatch`].

use std::any::Any;
use std::marker::PhantomData;

use crate::error::{ConfigError, MoveError, RecordError};
use crate::options::{GameInfo, Options, Setup};
use crate::outcome::Outcome;
use crate::record::Record;
use crate::{Encode, Game, Gesture, Reader, Seat, State, Turn, perft};

/// A registered game: its static facts, and a way to start a match of it.
pub trait GameEntry: Send + Sync {
    /// The game's static description.
    fn info(&self) -> &'static GameInfo;
    /// A new match from a set-up (variant, options, seed).
    fn new_match(&self, setup: &Setup) -> Result<Box<dyn AnyMatch>, ConfigError>;
    /// A new match from a set-up whose start is given by a deal text (see
    /// [`Game::deal_text`]) instead of the seed: what one seat knows of a game
    /// with hidden information.
    fn new_match_dealt(&self, setup: &Setup, deal: &str) -> Result<Box<dyn AnyMatch>, ConfigError>;
    /// The game's lessons ([`Game::lessons`]).
    fn lessons(&self) -> &'static [crate::lesson::Lesson];
    /// The game's puzzles, if material is won in it ([`Game::puzzles`]).
    fn puzzles(&self) -> Option<&'static crate::puzzle::Puzzles>;
}

struct TypedEntry<G>(PhantomData<fn() -> G>);

impl<G: Game> GameEntry for TypedEntry<G> {
    fn info(&self) -> &'static GameInfo {
        G::INFO
    }
    fn new_match(&self, setup: &Setup) -> Result<Box<dyn AnyMatch>, ConfigError> {
        Ok(Box::new(Match::<G>::new(setup.clone())?))
    }
    fn new_match_dealt(&self, setup: &Setup, deal: &str) -> Result<Box<dyn AnyMatch>, ConfigError> {
        Ok(Box::new(Match::<G>::dealt(setup.clone(), deal)?))
    }
    fn lessons(&self) -> &'static [crate::lesson::Lesson] {
        G::lessons()
    }
    fn puzzles(&self) -> Option<&'static crate::puzzle::Puzzles> {
        G::puzzles()
    }
}

/// The registry entry of a game type.
pub fn entry<G: Game>() -> Box<dyn GameEntry> {
    Box::new(TypedEntry::<G>(PhantomData))
}

/// Games by name.
#[derive(Default)]
pub struct Registry {
    entries: Vec<Box<dyn GameEntry>>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Registry::default()
    }

    /// Add a game.
    pub fn with(mut self, entry: Box<dyn GameEntry>) -> Self {
        self.entries.push(entry);
        self
    }

    /// Every game, in registration order.
    pub fn games(&self) -> impl Iterator<Item = &dyn GameEntry> {
        self.entries.iter().map(|e| e.as_ref())
    }

    /// The game called `name` (case-insensitive).
    pub fn get(&self, name: &str) -> Result<&dyn GameEntry, ConfigError> {
        self.entries.iter().map(|e| e.as_ref()).find(|e| e.info().name.eq_ignore_ascii_case(name)).ok_or_else(|| {
            let names: Vec<_> = self.entries.iter().map(|e| e.info().name).collect();
            ConfigError::new(format!("unknown game {name:?}; the games are: {}", names.join(", ")))
        })
    }

    /// A new match of the game called `name`.
    pub fn new_match(&self, name: &str, setup: &Setup) -> Result<Box<dyn AnyMatch>, ConfigError> {
        self.get(name)?.new_match(setup)
    }

    /// Replay a record: every move is checked. The game and variant come from
    /// the record's tags, or from `game` and `variant` when given (a bare move
    /// list has no tags). A record with a `Deal` tag and no `Seed` (what one
    /// seat of a game with hidden information knows) starts from the deal.
    pub fn replay(
        &self,
        record: &Record,
        game: Option<&str>,
        variant: Option<&str>,
    ) -> Result<Box<dyn AnyMatch>, RecordError> {
        let name = game
            .or_else(|| record.tag("Game"))
            .ok_or_else(|| ConfigError::new("the record has no Game tag; say which game it is"))?;
        let mut options = Options::new();
        for pair in record.tags_named("Option") {
            let (k, v) = Options::parse_pair(pair)?;
            options.set(k, v);
        }
        let seed = match record.tag("Seed") {
            None => 0,
            Some(s) => {
                s.trim().parse().map_err(|_| ConfigError::new(format!("the Seed tag {s:?} is not a whole number")))?
            }
        };
        let setup = Setup { variant: variant.or_else(|| record.tag("Variant")).map(str::to_string), options, seed };
        let mut m = match record.tag("Deal").filter(|_| record.tag("Seed").is_none()) {
            Some(deal) => self.get(name)?.new_match_dealt(&setup, deal)?,
            None => self.new_match(name, &setup)?,
        };
        for (i, text) in record.moves.iter().enumerate() {
            m.play(text).map_err(|error| RecordError::Move { ply: i + 1, text: text.clone(), error })?;
        }
        // Descriptive tags are kept; the game's own result tags are recomputed.
        let own: Vec<String> = m.result_tags().into_iter().map(|(k, _)| k).collect();
        for (k, v) in &record.tags {
            if !own.iter().any(|o| o.eq_ignore_ascii_case(k)) {
                m.set_meta(k, v);
            }
        }
        let recorded = record.result.as_deref().or_else(|| record.tag("Result")).filter(|r| *r != "*");
        if let Some(recorded) = recorded {
            match m.outcome() {
                Some(o) => {
                    let replayed = o.result_string();
                    if replayed != recorded {
                        return Err(RecordError::Result { recorded: recorded.to_string(), replayed });
                    }
                }
                None => {
                    // A game ended off the board (resignation, agreed draw).
                    let outcome = parse_result(recorded, m.seats(), record.tag("Termination"))
                        .map_err(|message| RecordError::Syntax { line: 0, message })?;
                    m.adjudicate(outcome);
                }
            }
        }
        Ok(m)
    }
}

/// Read a result string (`1-0`, `1/2-1/2`, `0-1-0`) for `seats` seats.
pub fn parse_result(text: &str, seats: usize, reason: Option<&str>) -> Result<Outcome, String> {
    let parts: Vec<&str> = text.split('-').collect();
    if parts.len() != seats {
        return Err(format!("result {text:?} does not have one score for each of the {seats} seats"));
    }
    let winners: Vec<Seat> = parts.iter().enumerate().filter(|(_, p)| **p != "0").map(|(s, _)| s).collect();
    let k = winners.len();
    let win = if k == 1 { "1".to_string() } else { format!("1/{k}") };
    if k == 0 || parts.iter().any(|p| *p != "0" && *p != win) {
        return Err(format!("result {text:?} is not a valid result"));
    }
    let reason: &'static str = match reason.map(str::to_ascii_lowercase).as_deref() {
        Some("resignation") => "resignation",
        Some("agreement") => "agreement",
        Some("time forfeit") => "time forfeit",
        Some("abandoned") => "abandoned",
        _ => "adjudication",
    };
    Ok(Outcome::shared_win(seats, &winners, reason))
}

/// What [`AnyMatch::variant`] reports when the options give a game that no
/// variant describes.
pub const CUSTOM_VARIANT: &str = "custom";

/// One game in progress, of any game: the object-safe face of [`Match`].
pub trait AnyMatch: Send + Sync {
    /// The game's static description.
    fn info(&self) -> &'static GameInfo;
    /// The set-up it started from. Its seed reveals hidden information: never
    /// send it to a player of a game with hidden information before the end.
    fn setup(&self) -> &Setup;
    /// The variant of the game actually played: the one the set-up names (or
    /// the default), unless its options changed what that variant presets;
    /// then the variant whose presets the game has (`--variant level-1
    /// --option sheet=level-3` plays `level-3`), or [`CUSTOM_VARIANT`] when
    /// no variant has them (an inline sheet). The set-up's options are
    /// reported as they were set.
    fn variant(&self) -> &'static str;
    /// The number of seats.
    fn seats(&self) -> usize;
    /// A seat's name ("Black").
    fn seat_name(&self, seat: Seat) -> String;
    /// Whose decision it is.
    fn to_move(&self) -> Turn;
    /// The number of moves played.
    fn ply(&self) -> usize;
    /// The legal moves in notation (empty when over).
    fn legal_moves(&self) -> Vec<String>;
    /// The legal moves with how each is made by pointing (see
    /// [`State::gesture`]).
    fn legal_gestures(&self) -> Vec<(String, Gesture)>;
    /// The legal moves as JSON text, written at the end of `moves`: the
    /// array of [`AnyMatch::legal_moves`]; and, when `gestures` is given, at
    /// its end the array of [`AnyMatch::legal_gestures`] as objects
    /// `{"move","select","targets"}`. Written straight from the rules'
    /// moves (serde_json's compact form), without a `String` per move where
    /// the game writes its notation straight ([`State::write_move`]).
    fn legal_json(&self, moves: &mut String, gestures: Option<&mut String>);
    /// Play a move given in notation: on success, its canonical text; on
    /// error, nothing changed.
    fn play(&mut self, text: &str) -> Result<String, MoveError>;
    /// Take back the last move; false if there is none.
    fn undo(&mut self) -> bool;
    /// The result: the rules' result, or one set by [`AnyMatch::adjudicate`].
    fn outcome(&self) -> Option<Outcome>;
    /// End the game with this result (resignation, agreed draw).
    fn adjudicate(&mut self, outcome: Outcome);
    /// Once the game is over, do now, once, the work its results need (a
    /// game may search at the end: Colorito's loser's score), and keep it:
    /// until the next [`AnyMatch::undo`], [`AnyMatch::result_tags`] and
    /// [`AnyMatch::view`] answer from what was kept. A server calls it off
    /// its request threads, so that no later read repeats the work. Does
    /// nothing while the game goes on.
    fn settle(&mut self);
    /// The moves played, in canonical notation.
    fn history(&self) -> Vec<String>;
    /// Who made each move.
    fn movers(&self) -> Vec<Seat>;
    /// What `reader` may see of the position, as JSON.
    fn view(&self, reader: Reader) -> serde_json::Value;
    /// [`AnyMatch::view`] as JSON text (the same fields and values; written
    /// straight, without a JSON tree, where the game can:
    /// [`State::write_view_json`]).
    fn view_json(&self, reader: Reader) -> String;
    /// The position drawn for a terminal.
    fn render(&self, reader: Reader, color: bool) -> String;
    /// The game's own result fields (when over), as record tags.
    fn result_tags(&self) -> Vec<(String, String)>;
    /// The stable hash of the position. It covers hidden information too:
    /// never send it to a player of a game with hidden information.
    fn key(&self) -> u64;
    /// For a game whose start is drawn from the seed: the start as `reader`
    /// may know it (see [`Game::deal_text`]). A match made from a deal tells
    /// what both its deal and `reader` know: a full deal masked for the
    /// reader; one seat's deal to that seat and to the referee, and masked
    /// as a spectator's to anyone else.
    fn deal(&self, reader: Reader) -> Option<String>;
    /// For a match made from a deal ([`GameEntry::new_match_dealt`]): whose
    /// knowledge it holds. Secrets this reader may not see were filled with
    /// made-up values: only moves for a seat it may see make sense to
    /// search. `None` for a match made from a seed (it knows everything).
    fn dealt_for(&self) -> Option<Reader>;
    /// The deal as `reader` knows it ([`AnyMatch::deal`]) with the secrets
    /// it may not see drawn at random from `seed` ([`Game::complete_deal`]):
    /// with [`GameEntry::new_match_dealt`] and the moves played, a complete
    /// game consistent with what `reader` knows. `None` for games without a
    /// deal.
    fn sample_deal(&self, reader: Reader, seed: u64) -> Option<String>;
    /// Set a descriptive record tag (`Date`, `Event`, a seat's player name
    /// under the seat's name, such as `Black`). The tags that describe the game
    /// itself (`Game`, `Variant`, `Option`, `Seed`, `Result`, `Termination`)
    /// cannot be set this way and are ignored.
    fn set_meta(&mut self, name: &str, value: &str);
    /// The descriptive tags, in order.
    fn meta(&self) -> &[(String, String)];
    /// The record of the game so far, as `reader` may see it: for a game with
    /// hidden information still in progress, readers other than the referee
    /// get no seed (the seed would reveal the secrets).
    fn record(&self, reader: Reader) -> Record;
    /// The size of the action space ([`Encode::actions`]): every move of
    /// this game is one integer below it.
    fn action_space(&self) -> usize;
    /// Clear `out` and fill it with the legal moves as actions, in the order
    /// of [`AnyMatch::legal_moves`] (empty when over).
    fn legal_actions(&self, out: &mut Vec<usize>);
    /// The action of a move given in notation (legal here or not, as long
    /// as this position can read it).
    fn action_of(&self, text: &str) -> Result<usize, MoveError>;
    /// The move an action names here, in notation; `None` when it names none.
    fn action_text(&self, action: usize) -> Option<String>;
    /// Play a move given as an action: on success, its canonical text; on
    /// error (no such move, illegal, the game is over), nothing changed.
    fn play_action(&mut self, action: usize) -> Result<String, MoveError>;
    /// The shape of an observation: planes, height, width.
    fn observation_shape(&self) -> [usize; 3];
    /// The name of each plane of an observation.
    fn plane_names(&self) -> Vec<String>;
    /// Write `seat`'s observation of the position into `out` (see
    /// [`Encode::observe`]; `out` has the shape's size).
    fn observe(&self, seat: Seat, out: &mut [f32]);
    /// Perft from the current position.
    fn perft(&self, depth: u32) -> u64;
    /// Perft split by root move.
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// A copy.
    fn clone_box(&self) -> Box<dyn AnyMatch>;
    /// For typed access (`downcast_ref::<Match<G>>()`).
    fn as_any(&self) -> &dyn Any;
}

#[derive(Clone, Debug)]
struct Played<S: State> {
    mv: S::Move,
    undo: S::Undo,
    text: String,
    seat: Seat,
}

/// One game in progress of game `G`.
#[derive(Clone, Debug)]
pub struct Match<G: Game> {
    game: G,
    setup: Setup,
    /// The variant played, as reported (see [`AnyMatch::variant`]).
    variant: &'static str,
    /// The variant a record names: the one played, or the one the set-up
    /// resolved from when no variant describes the game (its options then
    /// override that variant's presets on replay).
    record_variant: &'static str,
    state: G::State,
    played: Vec<Played<G::State>>,
    adjudicated: Option<Outcome>,
    meta: Vec<(String, String)>,
    settled: Option<Settled>,
    /// The deal text and whose knowledge it is, for a match made from a deal.
    dealt: Option<(String, Reader)>,
}

/// A finished game's results, computed once (see [`AnyMatch::settle`]).
#[derive(Clone, Debug)]
struct Settled {
    tags: Vec<(String, String)>,
    views: Vec<(Reader, serde_json::Value)>,
}

/// Tags a record writes from the game itself.
const GAME_TAGS: [&str; 7] = ["Game", "Variant", "Option", "Seed", "Deal", "Result", "Termination"];

impl<G: Game> Match<G> {
    /// A new match.
    pub fn new(setup: Setup) -> Result<Self, ConfigError> {
        let settings = G::INFO.resolve(setup.variant.as_deref(), &setup.options)?;
        let game = G::configure(&settings)?;
        let state = game.start(setup.seed);
        Ok(Match {
            game,
            setup,
            variant: settings.played_variant().unwrap_or(CUSTOM_VARIANT),
            record_variant: settings.played_variant().unwrap_or(settings.variant()),
            state,
            played: Vec::new(),
            adjudicated: None,
            meta: Vec::new(),
            settled: None,
            dealt: None,
        })
    }

    /// A new match whose start is the deal `text` describes (see
    /// [`Game::deal_text`]); the set-up's seed is not used.
    pub fn dealt(setup: Setup, text: &str) -> Result<Self, ConfigError> {
        let mut m = Match::<G>::new(setup)?;
        let (state, reader) = m.game.start_from_deal(text)?;
        m.state = state;
        m.dealt = Some((text.trim().to_string(), reader));
        Ok(m)
    }

    /// The configured game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The current state.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// The moves played.
    pub fn moves(&self) -> impl Iterator<Item = <G::State as State>::Move> + '_ {
        self.played.iter().map(|p| p.mv)
    }

    /// Play a typed move from an untrusted source.
    pub fn play_move(&mut self, mv: <G::State as State>::Move) -> Result<(), MoveError> {
        if self.adjudicated.is_some() {
            return Err(MoveError::illegal("the game is over"));
        }
        let seat = self.state.to_move().seat().ok_or_else(|| MoveError::illegal("the game is over"))?;
        let text = self.state.format_move(mv);
        let undo = self.state.try_apply(mv)?;
        self.played.push(Played { mv, undo, text, seat });
        Ok(())
    }
}

impl<G: Game> AnyMatch for Match<G> {
    fn info(&self) -> &'static GameInfo {
        G::INFO
    }
    fn setup(&self) -> &Setup {
        &self.setup
    }
    fn variant(&self) -> &'static str {
        self.variant
    }
    fn seats(&self) -> usize {
        self.game.seats()
    }
    fn seat_name(&self, seat: Seat) -> String {
        self.game.seat_name(seat)
    }
    fn to_move(&self) -> Turn {
        if self.adjudicated.is_some() { Turn::Over } else { self.state.to_move() }
    }
    fn ply(&self) -> usize {
        self.played.len()
    }
    fn legal_moves(&self) -> Vec<String> {
        if self.adjudicated.is_some() {
            return Vec::new();
        }
        let mut v = Vec::new();
        self.state.legal_moves(&mut v);
        v.into_iter().map(|m| self.state.format_move(m)).collect()
    }
    fn legal_gestures(&self) -> Vec<(String, Gesture)> {
        if self.adjudicated.is_some() {
            return Vec::new();
        }
        let mut v = Vec::new();
        self.state.legal_moves(&mut v);
        v.into_iter().map(|m| (self.state.format_move(m), self.state.gesture(m))).collect()
    }
    fn legal_json(&self, moves: &mut String, mut gestures: Option<&mut String>) {
        let mut v = Vec::new();
        if self.adjudicated.is_none() {
            self.state.legal_moves(&mut v);
        }
        let mut text = String::new();
        moves.push('[');
        if let Some(g) = gestures.as_deref_mut() {
            g.push('[');
        }
        for (i, &mv) in v.iter().enumerate() {
            text.clear();
            self.state.write_move(mv, &mut text);
            if i > 0 {
                moves.push(',');
            }
            crate::json::push_str(moves, &text);
            if let Some(g) = gestures.as_deref_mut() {
                g.push_str(if i > 0 { ",{\"move\":" } else { "{\"move\":" });
                crate::json::push_str(g, &text);
                g.push(',');
                self.state.write_gesture_json(mv, g);
                g.push('}');
            }
        }
        moves.push(']');
        if let Some(g) = gestures {
            g.push(']');
        }
    }
    fn play(&mut self, text: &str) -> Result<String, MoveError> {
        if self.to_move() == Turn::Over {
            return Err(MoveError::illegal("the game is over"));
        }
        let mv = self.state.parse_move(text)?;
        self.play_move(mv)?;
        Ok(self.played.last().map(|p| p.text.clone()).unwrap_or_default())
    }
    fn undo(&mut self) -> bool {
        self.settled = None;
        if self.adjudicated.take().is_some() {
            return true;
        }
        match self.played.pop() {
            Some(p) => {
                self.state.undo(p.mv, p.undo);
                true
            }
            None => false,
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        self.adjudicated.or_else(|| self.state.outcome())
    }
    fn adjudicate(&mut self, outcome: Outcome) {
        if self.state.outcome().is_none() {
            self.adjudicated = Some(outcome);
            self.settled = None;
        }
    }
    fn settle(&mut self) {
        if self.outcome().is_none() || self.settled.is_some() {
            return;
        }
        let tags = if self.state.outcome().is_some() { self.state.result_tags() } else { Vec::new() };
        let readers = [Reader::Referee, Reader::Spectator].into_iter().chain((0..self.game.seats()).map(Reader::Seat));
        let views =
            readers.map(|r| (r, serde_json::to_value(self.state.view(r)).unwrap_or(serde_json::Value::Null))).collect();
        self.settled = Some(Settled { tags, views });
    }
    fn history(&self) -> Vec<String> {
        self.played.iter().map(|p| p.text.clone()).collect()
    }
    fn movers(&self) -> Vec<Seat> {
        self.played.iter().map(|p| p.seat).collect()
    }
    fn view(&self, reader: Reader) -> serde_json::Value {
        if let Some(v) = self.settled.as_ref().and_then(|s| s.views.iter().find(|(r, _)| *r == reader)) {
            return v.1.clone();
        }
        serde_json::to_value(self.state.view(reader)).unwrap_or(serde_json::Value::Null)
    }
    fn view_json(&self, reader: Reader) -> String {
        if let Some(v) = self.settled.as_ref().and_then(|s| s.views.iter().find(|(r, _)| *r == reader)) {
            return serde_json::to_string(&v.1).unwrap_or_else(|_| "null".into());
        }
        let mut out = String::new();
        self.state.write_view_json(reader, &mut out);
        out
    }
    fn render(&self, reader: Reader, color: bool) -> String {
        self.state.render(reader, color)
    }
    fn result_tags(&self) -> Vec<(String, String)> {
        if let Some(s) = &self.settled {
            return s.tags.clone();
        }
        if self.state.outcome().is_some() { self.state.result_tags() } else { Vec::new() }
    }
    fn key(&self) -> u64 {
        self.state.key()
    }
    fn deal(&self, reader: Reader) -> Option<String> {
        let Some((text, known)) = &self.dealt else {
            return self.game.deal_text(&self.game.start(self.setup.seed), reader);
        };
        // What the deal's reader knows, masked for this reader; secrets
        // this match only made up are never told as known.
        let masked = |r: Reader| self.game.start_from_deal(text).ok().and_then(|(s, _)| self.game.deal_text(&s, r));
        match (*known, reader) {
            (Reader::Referee, r) => masked(r),
            (Reader::Seat(s), Reader::Seat(t)) if s == t => Some(text.clone()),
            (Reader::Seat(_), Reader::Referee) => Some(text.clone()),
            _ => masked(Reader::Spectator),
        }
    }
    fn dealt_for(&self) -> Option<Reader> {
        self.dealt.as_ref().map(|d| d.1)
    }
    fn sample_deal(&self, reader: Reader, seed: u64) -> Option<String> {
        self.game.complete_deal(&self.deal(reader)?, seed).ok()
    }
    fn set_meta(&mut self, name: &str, value: &str) {
        // Tag names are one word of letters, digits, `_` and `-`.
        let name: String =
            name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect();
        let name = name.as_str();
        if GAME_TAGS.iter().any(|t| t.eq_ignore_ascii_case(name)) || name.is_empty() {
            return;
        }
        match self.meta.iter_mut().find(|(k, _)| k.eq_ignore_ascii_case(name)) {
            Some(t) => t.1 = value.to_string(),
            None => self.meta.push((name.to_string(), value.to_string())),
        }
    }
    fn meta(&self) -> &[(String, String)] {
        &self.meta
    }
    fn record(&self, reader: Reader) -> Record {
        let mut rec = Record::default();
        rec.tags.push(("Game".into(), G::INFO.name.into()));
        rec.tags.push(("Variant".into(), self.record_variant.into()));
        for (k, v) in self.setup.options.iter() {
            rec.tags.push(("Option".into(), format!("{k}={v}")));
        }
        let over = self.outcome().is_some();
        let hide_seed = G::INFO.hidden && !over && reader != Reader::Referee;
        if self.dealt.is_some() {
            if let Some(deal) = self.deal(reader) {
                rec.tags.push(("Deal".into(), deal));
            }
        } else if G::INFO.uses_seed && !hide_seed {
            rec.tags.push(("Seed".into(), self.setup.seed.to_string()));
        } else if let Some(deal) = self.deal(reader).filter(|_| hide_seed) {
            // What the reader knows of the start instead of the seed, so
            // that its record replays.
            rec.tags.push(("Deal".into(), deal));
        }
        rec.tags.extend(self.meta.iter().cloned());
        let result = self.outcome().map(|o| o.result_string()).unwrap_or_else(|| "*".into());
        rec.tags.push(("Result".into(), result.clone()));
        if let Some(o) = self.outcome() {
            rec.tags.push(("Termination".into(), o.reason.into()));
        }
        rec.tags.extend(self.result_tags());
        rec.moves = self.history();
        rec.movers = self.movers();
        rec.result = Some(result);
        rec
    }
    fn action_space(&self) -> usize {
        self.state.actions()
    }
    fn legal_actions(&self, out: &mut Vec<usize>) {
        out.clear();
        if self.adjudicated.is_some() {
            return;
        }
        let mut v = Vec::new();
        self.state.legal_moves(&mut v);
        out.extend(v.into_iter().map(|m| self.state.action(m)));
    }
    fn action_of(&self, text: &str) -> Result<usize, MoveError> {
        Ok(self.state.action(self.state.parse_move(text)?))
    }
    fn action_text(&self, action: usize) -> Option<String> {
        self.state.move_of(action).map(|m| self.state.format_move(m))
    }
    fn play_action(&mut self, action: usize) -> Result<String, MoveError> {
        if self.to_move() == Turn::Over {
            return Err(MoveError::illegal("the game is over"));
        }
        let n = self.state.actions();
        let mv = self.state.move_of(action).ok_or_else(|| {
            MoveError::illegal(if action < n {
                format!("the action {action} names no move here")
            } else {
                format!("the action {action} is not below {n}, the size of the action space")
            })
        })?;
        self.play_move(mv)?;
        Ok(self.played.last().map(|p| p.text.clone()).unwrap_or_default())
    }
    fn observation_shape(&self) -> [usize; 3] {
        self.state.observation_shape()
    }
    fn plane_names(&self) -> Vec<String> {
        self.state.plane_names()
    }
    fn observe(&self, seat: Seat, out: &mut [f32]) {
        self.state.observe(seat, out)
    }
    fn perft(&self, depth: u32) -> u64 {
        let mut s = self.state.clone();
        perft::perft(&mut s, depth)
    }
    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        let mut s = self.state.clone();
        perft::divide(&mut s, depth).into_iter().map(|(m, n)| (self.state.format_move(m), n)).collect()
    }
    fn clone_box(&self) -> Box<dyn AnyMatch> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

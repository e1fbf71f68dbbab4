//! Abalone, as specified in the project's `docs/rules/abalone.md`.
//!
//! - [`Abalone`] is the configured game (layout or given position,
//!   `marbles-to-win`, `max-plies`); [`AbaloneState`] a position.
//! - Move generation works on bit sets of the 61 cells ([`board`]): every kind
//!   of move in every direction is a handful of shifts and masks, so counting
//!   the legal moves needs no list at all, and generating them allocates
//!   nothing (the caller's buffer is reused).
//! - Moves are made and unmade in place (`apply`/`undo`), with an incremental
//!   Zobrist key; the keys of earlier positions are kept for threefold
//!   repetition.
//! - Notation is Aba-Pro ([`notation`]); positions have a FEN-like text form
//!   ([`text`]), accepted by the `position` option.
//! - Moves as integers and positions as tensors for learning programs
//!   ([`encode`]: 2,562 actions, 9 planes over the 9×9 grid).
//!
//! # Rules implemented
//! Black moves first. One, two or three marbles in an unbroken line move one
//! cell: in-line (along their axis, possibly pushing: 2 push 1, 3 push 1, 3 push
//! 2, never into or past an own marble) or broadside (sideways, into empty
//! cells, never pushing). The first side to push out `marbles-to-win` (default
//! 6) opponent marbles wins. Decisions of the specification: the third
//! occurrence of a position with the same side to move is a draw (option
//! `repetition=off` drops the rule, for records of other systems); a side with no
//! legal move draws; with `max-plies`, the game ends after that many plies and
//! the side that pushed out more marbles wins (equal counts draw).
//!
//! ```
//! use plateau_abalone::Abalone;
//! use plateau_core::{Game, State, Options, Setup, perft::perft};
//!
//! let settings = Abalone::INFO.resolve(Some("belgian-daisy"), &Options::new()).unwrap();
//! let game = Abalone::configure(&settings).unwrap();
//! let mut s = game.start(0);
//! assert_eq!(s.count_moves(), 52);
//! assert_eq!(perft(&mut s, 2), 2_692);
//! ```

#![warn(missing_docs)]

pub mod board;
pub mod encode;
mod eval;
pub mod lessons;
pub mod notation;
mod state;
pub mod text;

use plateau_core::{
    ConfigError, Game, GameInfo, MoveError, OptionKind, OptionSpec, Outcome, Reader, Seat, Settings, State, Turn,
    VariantSpec,
};

pub use state::{AbaloneState, BLACK, Move, MoveKind, Rules, Undo, WHITE};
pub use text::{AbaloneView, format_position, parse_position};

use board::{Bits, Cell};

/// The starting layouts: name, black marbles, white marbles.
pub const LAYOUTS: [(&str, &str, &str); 6] = [
    ("standard", "a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 b6 c3 c4 c5", "i5 i6 i7 i8 i9 h4 h5 h6 h7 h8 h9 g5 g6 g7"),
    ("belgian-daisy", "a1 a2 b1 b2 b3 c2 c3 g7 g8 h7 h8 h9 i8 i9", "a4 a5 b4 b5 b6 c5 c6 g4 g5 h4 h5 h6 i5 i6"),
    ("german-daisy", "b1 b2 c1 c2 c3 d2 d3 f7 f8 g7 g8 g9 h8 h9", "b5 b6 c5 c6 c7 d6 d7 f3 f4 g3 g4 g5 h4 h5"),
    ("alien", "b3 b4 c3 c5 f5 f6 g4 g6 g8 h5 h8 i5 i7 i9", "a1 a3 a5 b2 b5 c2 c4 c6 d4 d5 g5 g7 h6 h7"),
    ("snakes", "d3 d4 d5 d6 d7 e8 f9 g9 h9 i5 i6 i7 i8 i9", "a1 a2 a3 a4 a5 b1 c1 d1 e2 f3 f4 f5 f6 f7"),
    ("domination", "b6 c6 c7 d6 d7 d8 e4 e6 f2 f3 f4 g3 g4 h4", "b1 c1 c2 d1 d2 d3 d4 f6 f7 f8 f9 g8 g9 h9"),
];

const LAYOUT_NAMES: [&str; 6] = ["standard", "belgian-daisy", "german-daisy", "alien", "snakes", "domination"];

static INFO: GameInfo = GameInfo {
    name: "abalone",
    title: "Abalone",
    summary: "Push six of the opponent's fourteen marbles off the hexagon (Lalet & Lévi, 1987).",
    notation: "In-line move (1 to 3 marbles, pushing or not): the trailing marble's cell, then the cell it moves to (a1b2). \
               Broadside move: the two end marbles of the line, then the cell the first one moves to (c3d4d3).",
    min_seats: 2,
    max_seats: 2,
    hidden: false,
    uses_seed: false,
    has_draws: true,
    variants: &[
        VariantSpec {
            name: "standard",
            help: "The layout of the rule sheet: rows A–B and C3–C5 against H–I and G5–G7.",
            options: &[("layout", "standard")],
        },
        VariantSpec {
            name: "belgian-daisy",
            help: "The tournament layout: two daisies each.",
            options: &[("layout", "belgian-daisy")],
        },
        VariantSpec {
            name: "german-daisy",
            help: "Two daisies each, set further in.",
            options: &[("layout", "german-daisy")],
        },
        VariantSpec { name: "alien", help: "Scattered marbles in each other's camp.", options: &[("layout", "alien")] },
        VariantSpec { name: "snakes", help: "Two long snakes.", options: &[("layout", "snakes")] },
        VariantSpec { name: "domination", help: "Interlocked wedges.", options: &[("layout", "domination")] },
    ],
    options: &[
        OptionSpec {
            name: "layout",
            help: "The starting layout.",
            kind: OptionKind::Choice(&LAYOUT_NAMES),
            default: "standard",
            untrusted_max: None,
        },
        OptionSpec {
            name: "position",
            help: "Start from this position instead (text form: rows I to A, b/w/digits, side to move, pushed out by Black and White).",
            kind: OptionKind::Text,
            default: "",
            untrusted_max: None,
        },
        OptionSpec {
            name: "marbles-to-win",
            help: "Opponent marbles to push out to win.",
            kind: OptionKind::Int { min: 1, max: 14 },
            default: "6",
            untrusted_max: None,
        },
        OptionSpec {
            name: "max-plies",
            help: "End the game after this many plies: more marbles pushed out wins, equal draws.",
            kind: OptionKind::OptionalInt { min: 1, max: 1_000_000 },
            default: "none",
            untrusted_max: None,
        },
        OptionSpec {
            name: "repetition",
            help: "draw: the third occurrence of a position with the same side to move is a draw; off: no repetition rule (to replay records of systems without it, such as OpenSpiel's).",
            kind: OptionKind::Choice(&["draw", "off"]),
            default: "draw",
            untrusted_max: None,
        },
    ],
};

/// Abalone, configured.
#[derive(Clone, Debug)]
pub struct Abalone {
    start: AbaloneState,
}

fn layout_bits(list: &str) -> Bits {
    list.split_whitespace().map(|c| Cell::parse(c).expect("layouts hold board cells").bit()).fold(0, |a, b| a | b)
}

impl Abalone {
    /// The game with a layout and rules.
    pub fn with_layout(layout: &str, rules: Rules) -> Option<Abalone> {
        let (_, b, w) = LAYOUTS.iter().find(|(n, _, _)| *n == layout)?;
        Some(Abalone { start: AbaloneState::from_parts(layout_bits(b), layout_bits(w), BLACK, [0, 0], rules) })
    }

    /// The game from a position in text form.
    pub fn with_position(text: &str, rules: Rules) -> Result<Abalone, String> {
        Ok(Abalone { start: parse_position(text, rules)? })
    }
}

impl Game for Abalone {
    type State = AbaloneState;
    const INFO: &'static GameInfo = &INFO;

    fn lessons() -> &'static [plateau_core::lesson::Lesson] {
        lessons::LESSONS
    }

    /// Material is what the view counts as pushed out; the built-in set is
    /// `puzzles.json` in this crate (`plateau puzzles`, `docs/puzzles.md`).
    fn puzzles() -> Option<&'static plateau_core::puzzle::Puzzles> {
        const PUZZLES: plateau_core::puzzle::Puzzles = plateau_core::puzzle::Puzzles {
            material: ["/captured/black", "/captured/white"],
            gain: "push-out",
            builtin: include_str!("../puzzles.json"),
        };
        Some(&PUZZLES)
    }

    fn configure(settings: &Settings) -> Result<Self, ConfigError> {
        let rules = Rules {
            marbles_to_win: settings.int("marbles-to-win") as u8,
            max_plies: settings.optional_int("max-plies").map(|m| m as u32),
            repetition_draw: settings.text("repetition") == "draw",
        };
        let position = settings.text("position");
        if position.is_empty() {
            Abalone::with_layout(settings.text("layout"), rules)
                .ok_or_else(|| ConfigError::new(format!("unknown layout {}", settings.text("layout"))))
        } else {
            Abalone::with_position(position, rules).map_err(|e| ConfigError::new(format!("option position: {e}")))
        }
    }

    fn seats(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> String {
        if seat == BLACK { "Black" } else { "White" }.to_string()
    }

    fn start(&self, _seed: u64) -> AbaloneState {
        self.start.clone()
    }

    fn ply_bound(&self) -> Option<u64> {
        self.start.rules().max_plies.map(u64::from)
    }
}

impl State for AbaloneState {
    type Move = Move;
    type Undo = Undo;
    type View = AbaloneView;

    fn seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> Turn {
        self.turn()
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.generate(out)
    }
    fn count_moves(&self) -> usize {
        self.count()
    }
    fn check(&self, mv: Move) -> Result<(), MoveError> {
        self.legality(mv)
    }
    fn apply(&mut self, mv: Move) -> Undo {
        self.make(mv)
    }
    fn undo(&mut self, mv: Move, undo: Undo) {
        self.unmake(mv, undo)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.result()
    }
    fn key(&self) -> u64 {
        self.key
    }
    fn format_move(&self, mv: Move) -> String {
        notation::format(mv)
    }
    fn write_move(&self, mv: Move, out: &mut String) {
        notation::write(mv, out)
    }
    fn write_gesture_json(&self, mv: Move, out: &mut String) {
        notation::write_gesture_json(mv, out)
    }
    fn write_view_json(&self, _reader: Reader, out: &mut String) {
        text::write_view_json(self, out)
    }
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::parse(self, text)
    }
    fn view(&self, reader: Reader) -> AbaloneView {
        text::view(self, reader)
    }
    fn render(&self, _reader: Reader, color: bool) -> String {
        text::render(self, color)
    }
    fn result_tags(&self) -> Vec<(String, String)> {
        vec![("Captured".to_string(), format!("{}-{}", self.captured[0], self.captured[1]))]
    }
    /// Select the marbles that move, then click where the line goes: for an
    /// in-line move the cell the leading marble moves into (the first pushed
    /// marble's cell, when pushing); for a broadside move, a destination cell
    /// that no other sideways move of the same marbles shares.
    fn gesture(&self, mv: Move) -> plateau_core::Gesture {
        notation::gesture(mv)
    }
}

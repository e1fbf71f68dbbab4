//! Colorito (London 1892; edition by Daniel Danzer), on Plateau's shared game
//! model: [`Colorito`] is the [`Game`], [`ColoritoState`] the
//! [`State`](plateau_core::State).
//!
//! # The rules, as implemented
//!
//! The specification is `docs/rules/colorito.md`. Red (seat 0) has red pieces 1–10
//! and yellow 11–20; Blue (seat 1) dark-blue 1–10 and light-blue 11–20. The
//! board is **data**: [`Board`] reads a board file's text (the default one,
//! `boards/standard.board`, is embedded) and checks it, naming the line and
//! cell of any problem. Option `board` takes `standard` or an inline board,
//! the ten ranks on one line separated by `/` ([`Board::to_inline`]), so that
//! a record carries it; the crate never reads a file (the command line reads
//! one for `--option board=@FILE`). Each piece starts on
//! the cell of the opponent's colours with its number and must reach the cell
//! of its own colour with its number. A cell *welcomes* a piece if it has the
//! piece's colour or carries its number.
//!
//! A turn is one move of one own piece ([`Move::Go`]): a **step** to an adjacent
//! empty welcoming cell; a **chain of jumps** (over an adjacent piece of either
//! side to the empty cell behind, eight directions, changing direction at
//! will); or a **step then jumps** (a step to any adjacent empty cell, then one
//! or more jumps). Only the end cell must welcome the piece; a move cannot end
//! where it started; a move is its start and end cell whatever the path. A
//! player with no move passes ([`Move::Pass`]).
//!
//! The game ends when a player has finished: all 20 pieces home, or the
//! **blocking rule** (see below). Whoever finishes in fewer moves wins; equal
//! moves draw: if the first player finishes, the second gets one more move. A
//! pass counts as a move. Option `max-moves` (per player, default 300) ends
//! the game as a draw. The loser's score is minus the fewest moves it still
//! needs with the winner's pieces fixed ([`ColoritoState::score`], [`Score`]),
//! computed exactly by IDA* within a node budget (option `score-nodes`,
//! default 750,000, also the most a server's client may set:
//! [`MAX_SERVER_SCORE_NODES`]), or else a proven lower bound marked as such.
//!
//! Variants: `standard`; `just-colours` (numbers ignored: a cell welcomes by
//! colour only, and a piece is home on any cell of its colour in its target
//! rank); `strict` (the step of a step-then-jumps must land on a welcoming
//! cell). Both are also boolean options, so they combine
//! (`--variant strict --option just-colours=true`). Option `first` (`red` or
//! `blue`) says who moves first.
//!
//! ## Decisions where the specification is silent
//!
//! - **Blocking rule**: a player is blocked (and wins as if it had completed)
//!   when at least one of its targets holds its right piece and every other
//!   target is occupied by an opponent's piece. Without "at least one", the
//!   rule read literally would end every game at the start, where each side's
//!   targets are exactly the other side's start cells ("the only targets *not
//!   yet* occupied by its right pieces" presumes some are). A player who
//!   finishes by blocking is treated like one who completed: the extra move
//!   and the equal-moves draw apply.
//! - If a move makes the *second* player finished while the first player has
//!   one move more (the first player's move blocked it), the second player
//!   wins at once (fewer moves).
//! - Seats are fixed to colours (Red 0, Blue 1) whoever moves first, so that
//!   `1-0` always means Red won.
//! - The Zobrist key covers the pieces, the side to move and the status, not
//!   the move counts.
//!
//! # Notation
//!
//! Cells `a1` … `j10` (files a–j left to right as Red sees the board, ranks
//! 1–10 from Red's side). A move is `from-to`: `c1-c3`; input may omit the
//! hyphen and use any case (`C1C3`). A pass is `pass`.
//!
//! # Implementation
//!
//! Pieces are on `u128` bitboards (bit `rank·10 + file`). All the ends of a
//! piece's moves are found at once by one flood fill of jump landings seeded
//! with its cell and its empty neighbours (see `bits.rs`), so no path is
//! enumerated, no move is generated twice and nothing is allocated per move.
//! [`apply`](plateau_core::State::apply) and `undo` update the position and
//! the Zobrist key incrementally; the end of the game is judged with a few
//! bitboard operations per move. The score is never computed in `apply`: only
//! in views and record tags of a finished game.
//!
//! # Computer players
//!
//! [`ColoritoState`] implements [`plateau_core::Evaluate`] for the players of
//! `plateau-ai`: the value of a position is the race, each side's moves made
//! plus an estimate of the moves it still needs ([`ColoritoState::race_estimate`],
//! in hundredths of a move, [`EVAL_MOVE`]), from the pieces' distances home,
//! the jumps each piece has at hand and the pieces stranded with nobody to jump
//! over; the opponent's total minus one's own. See the [`eval`] module.
//!
//! # Learning programs
//!
//! [`ColoritoState`] implements [`plateau_core::Encode`]: 10,001 integer
//! actions (`from · 100 + to` in the mover's frame, and pass) and a
//! `[76, 10, 10]` observation from the observer's side of the board; see
//! `docs/encoding/colorito.md`.
//!
//! # Positions for study and tests
//!
//! [`Colorito::position`] builds any position from a text form (the output of
//! [`ColoritoState::to_text`]):
//!
//! ```text
//! to-move: blue          # optional, default: the first player
//! moves: 3 2             # optional: Red's and Blue's moves so far
//! .   .   .   .   .   .   .   .   .   .     # rank 10 (a10 … j10)
//! …                                          # ten rank lines in all
//! R1  .   .   .   .   .   .   .   .   .     # rank 1
//! ```
//!
//! Each rank line has ten cells: `.` or a piece (`R3`, `Y11`, `D7`, `L15`).
//! Pieces may be left off the board (a side with a piece off the board can
//! never complete). The end of the game is judged after each move, not on the
//! position as given.

#![warn(missing_docs)]

mod bits;
mod board;
mod encode;
pub mod eval;
pub mod lessons;
mod pairs;
mod render;
mod rules;
mod score;
mod state;

use std::sync::Arc;

use plateau_core::{ConfigError, Game, GameInfo, OptionKind, OptionSpec, Seat, Settings, VariantSpec};

pub use board::{Board, BoardError, CELLS, Cell, Colour, PIECES, Piece, SIZE, STANDARD_BOARD, Side};
pub use eval::EVAL_MOVE;
pub use pairs::pair_plan;
pub use score::{Score, min_moves, plan};
pub use state::{ColoritoState, ColoritoUndo, ColoritoView, Move, PerSide, PositionError, ScoreView};

use rules::Rules;

/// The default node budget of the score search (option `score-nodes`): the
/// same as [`MAX_SERVER_SCORE_NODES`], so that a game with the default
/// options is one a server accepts.
pub const DEFAULT_SCORE_NODES: u64 = MAX_SERVER_SCORE_NODES;

/// The largest node budget of the score search a server's client may set
/// (option `score-nodes`; see [`plateau_core::GameInfo::check_untrusted`]).
///
/// Measured with `cargo run --release -p plateau-colorito --example
/// score-speed` on positions where the search runs out of budget: 2.3 to 2.8
/// seconds per million nodes on the development machine (2 cores, x86-64,
/// idle), linear in the budget, at most 16 MiB of table. 750,000 nodes is
/// then at most about 2 seconds at the end of a game (the result is cached).
pub const MAX_SERVER_SCORE_NODES: u64 = 750_000;

static INFO: GameInfo = GameInfo {
    name: "colorito",
    title: "Colorito",
    summary: "Race your twenty numbered pieces across the board onto the cells of their colour and number (London, 1892).",
    notation: "From-to, like c1-c3 (the hyphen may be left out); pass when no move is possible.",
    min_seats: 2,
    max_seats: 2,
    hidden: false,
    uses_seed: false,
    has_draws: true,
    variants: &[
        VariantSpec {
            name: "standard",
            help: "The full game: cells welcome a piece by colour or number.",
            options: &[],
        },
        VariantSpec {
            name: "just-colours",
            help: "For beginners: numbers are ignored; a piece goes to any cell of its colour in its target rank.",
            options: &[("just-colours", "true")],
        },
        VariantSpec {
            name: "strict",
            help: "Harder: in a step-then-jump move the step too must land on a welcoming cell.",
            options: &[("strict", "true")],
        },
    ],
    options: &[
        OptionSpec {
            name: "first",
            help: "Who moves first.",
            kind: OptionKind::Choice(&["red", "blue"]),
            default: "red",
            untrusted_max: None,
        },
        OptionSpec {
            name: "just-colours",
            help: "Ignore numbers: welcome by colour only; home is any cell of the piece's colour in its target rank.",
            kind: OptionKind::Bool,
            default: "false",
            untrusted_max: None,
        },
        OptionSpec {
            name: "strict",
            help: "In a step-then-jump move, the step must land on a cell that welcomes the piece.",
            kind: OptionKind::Bool,
            default: "false",
            untrusted_max: None,
        },
        OptionSpec {
            name: "max-moves",
            help: "Moves per player after which the game is a draw.",
            kind: OptionKind::Int { min: 1, max: 10_000 },
            default: "300",
            untrusted_max: None,
        },
        OptionSpec {
            name: "board",
            help: "The board layout: standard (the default), or an inline board: the ten ranks, rank 10 first, separated by /, each of ten cells like R10 or D.",
            kind: OptionKind::Content,
            default: "",
            untrusted_max: None,
        },
        OptionSpec {
            name: "score-nodes",
            help: "Positions the loser's score search may expand before it reports a lower bound.",
            kind: OptionKind::Int { min: 0, max: 1_000_000_000_000 },
            default: "750000",
            untrusted_max: Some(MAX_SERVER_SCORE_NODES as i64),
        },
    ],
};

/// The game of Colorito, configured (board and options).
#[derive(Clone, Debug)]
pub struct Colorito {
    rules: Arc<Rules>,
}

impl Colorito {
    /// A configured game from a variant name and `name=value` options.
    pub fn new(variant: &str, options: &[(&str, &str)]) -> Result<Colorito, ConfigError> {
        let mut o = plateau_core::Options::new();
        for (k, v) in options {
            o.set(*k, *v);
        }
        Colorito::configure(&INFO.resolve(Some(variant), &o)?)
    }

    /// The standard game with default options.
    pub fn standard() -> Colorito {
        Colorito::new("standard", &[]).expect("the default configuration is valid")
    }

    /// The board in use.
    pub fn board(&self) -> &Board {
        &self.rules.board
    }

    /// Who moves first.
    pub fn first(&self) -> Side {
        self.rules.first
    }

    /// Build a position from its text form (see the crate documentation):
    /// optional `to-move:` and `moves:` lines, then ten rank lines (rank 10
    /// first) of ten cells, each `.` or a piece name.
    pub fn position(&self, text: &str) -> Result<ColoritoState, PositionError> {
        ColoritoState::from_text(self.rules.clone(), text)
    }
}

impl Game for Colorito {
    type State = ColoritoState;

    const INFO: &'static GameInfo = &INFO;

    fn lessons() -> &'static [plateau_core::lesson::Lesson] {
        lessons::LESSONS
    }

    fn configure(settings: &Settings) -> Result<Self, ConfigError> {
        let board =
            Board::from_option(settings.text("board")).map_err(|e| ConfigError::new(format!("option board: {e}")))?;
        let first = if settings.text("first") == "blue" { Side::Blue } else { Side::Red };
        let max_moves = u16::try_from(settings.int("max-moves"))
            .map_err(|_| ConfigError::new("option max-moves: must be from 1 to 10000"))?;
        let score_nodes = u64::try_from(settings.int("score-nodes"))
            .map_err(|_| ConfigError::new("option score-nodes: must not be negative"))?;
        let rules =
            Rules::new(board, settings.bool("just-colours"), settings.bool("strict"), first, max_moves, score_nodes)
                .map_err(ConfigError::new)?;
        Ok(Colorito { rules: Arc::new(rules) })
    }

    fn seats(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> String {
        Side::from_seat(seat).map(Side::name).unwrap_or("?").to_string()
    }

    fn start(&self, _seed: u64) -> ColoritoState {
        ColoritoState::start(self.rules.clone())
    }

    fn ply_bound(&self) -> Option<u64> {
        Some(2 * self.rules.max_moves as u64)
    }
}

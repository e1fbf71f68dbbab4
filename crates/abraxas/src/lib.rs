//! Abraxas (Michael and Johann Rüttinger, Noris Spiele 1993) on the Plateau game
//! model, as `docs/rules/abraxas.md` specifies it.
//!
//! # The game
//!
//! A frame of 9×9 cells holds a plate of 8×8 holes that stands in one of four
//! corners ([`PlatePos`]). Under it lies a sheet of red dots ([`Sheet`]); the
//! dots stay where they are printed while the plate and the stones in its
//! holes move. A cell shows a *red circle* when it holds a red stone, or when no
//! stone covers it and the sheet has a dot there (dots outside the plate count;
//! a blue stop stone hides the dot under it). A *line* is a run of 4 or more
//! red circles in a row, column or diagonal.
//!
//! A turn: place a red stone from the common reserve of 24 in an empty hole
//! (once the reserve is empty: move a red stone of the plate to another empty
//! hole), or one of one's own 3 stop stones; then the plate is pushed one step
//! counter-clockwise (bottom-left → bottom-right → top-right → top-left →
//! bottom-left). Lines are looked for only after the push. A player who made
//! lines scores each of them (a line of `L` circles gives `L − 3` of its red
//! stones, or all of them if it holds fewer), then the opponent may place a stop
//! stone (no push) or pass, then the scorer plays a new turn. The first player
//! to hold 11 stones wins.
//!
//! # Moves and notation
//!
//! Every decision is a [`Move`] of the player who makes it, so that search can
//! play them all; [`State::to_move`](plateau_core::State::to_move) names whoever
//! decides next, and [`AbraxasState::phase`] says what is being decided.
//!
//! | text | move | who, when |
//! |---|---|---|
//! | `d4` | [`Move::Place`]: a red stone from the reserve into the hole over d4 | [`Phase::Place`], reserve not empty |
//! | `d4-f6` | [`Move::Relocate`]: the red stone over d4 to the empty hole over f6 | [`Phase::Place`], reserve empty |
//! | `b:d4` | [`Move::Stop`]: one's own stop stone into the hole over d4 | [`Phase::Place`] (then push), or [`Phase::Interlude`] (no push) |
//! | `x:d4,f4` | [`Move::Take`]: the stones taken from one line | [`Phase::Score`], the scorer |
//! | `pass` | [`Move::Pass`]: no stop stone | [`Phase::Interlude`], the scorer's opponent |
//!
//! Input is case-insensitive, with the cells of `x:` in any order; output is
//! lowercase with the cells in the line's order (from its lowest cell). A hole
//! is named by the cell it lies over at that moment. When a single stone lies
//! on two lines still to score, which line it is taken from matters (the other
//! line may still stand, over a dot) and the text names the line's direction:
//! `x:e5/h` (row), `/v` (column), `/d` (diagonal a1–i9), `/a` (diagonal i1–a9);
//! this suffix is written only then, and required only then.
//!
//! Pointing ([`State::gesture`](plateau_core::State::gesture), for the web
//! UI): a red stone is a click on the cell (`d4`); a stop stone, select `stop`
//! then click the cell; a move within the plate, select the stone's cell then
//! click the destination; a removal, select the cells of the stones taken
//! then click `take` (`take/h` … `take/a` when the notation needs the
//! suffix); `pass`, click `pass`.
//!
//! # Decisions where the rules are silent
//!
//! Beyond the **Decisions** of the rules file (every visible dot counts; the
//! removal restriction's reading, option `removal`; repetition and `max-plies`
//! draws; the designed sheets), this implementation decides:
//!
//! 1. **The turn is a sequence of moves.** Push, then the scorer's removals, one
//!    [`Move::Take`] per line, then the interlude, then the scorer's new turn.
//!    The interlude comes after the removals ("before he plays again").
//! 2. **Order of lines.** The scorer picks the next line by the move it plays;
//!    the lines to score are those found after the push. A line that lost any
//!    of its red circles through an earlier removal is *broken* and no longer
//!    scores (even if a shorter run of 4 remains). Taking a stone that lies
//!    over a dot leaves the dot's red circle: a crossing line through that cell
//!    is not broken. A line that has been scored is done even if its circles
//!    still stand; no removal ever makes a new line.
//! 3. **A line with fewer stones than `L − 3`**: all its stones are taken (one
//!    move, no choice). A line with no stone cannot exist: a valid sheet has no
//!    four dots in a line, so any run of 4 holds a stone.
//! 4. **The restriction** applies only when the line holds more stones than are
//!    taken; if no choice satisfies it, any choice of `L − 3` stones is allowed
//!    ("whenever the stones of the line allow such a choice"). Default reading
//!    (`remaining-not-adjacent`): the three cells of the line not taken must not
//!    be three consecutive cells of the line. The other reading
//!    (`removed-not-adjacent`): no two taken cells are neighbours in the line.
//! 5. **The interlude is skipped** when the opponent has no stop stone left:
//!    there is nothing to decide, so no forced `pass` ply. The interlude stop
//!    stone is not followed by a push and makes no line (covering a dot only
//!    removes a red circle).
//! 6. **A stop stone in one's own turn** is followed by the push like any
//!    placement, and the lines that push makes score for the player who placed
//!    it.
//! 7. **Winning** is checked after every removal: a player reaching
//!    `stones-to-win` wins at once, even with lines left to score.
//! 8. **No legal placement** cannot happen: at most 30 stones for 64 holes, and
//!    with `stones-to-win` ≤ 12 at least two red stones stay in play while the
//!    game goes on, so a player can always place or move a red stone. Should it
//!    happen anyway, the game is drawn ("no legal placement").
//! 9. **Repetition**: a position is everything the rules depend on (stones by
//!    hole, plate position, stones taken and stop stones in hand per player,
//!    lines to score, who decides what); its third occurrence is a draw.
//!    Who placed each stop stone is shown but is not part of the position.
//!    `max-plies` counts every move (removals and interlude moves too): the game
//!    is a draw once that many were played, unless the last one won.
//!
//! # Options and variants
//!
//! - `sheet` (default `level-1`): `level-1` … `level-6`, or an inline sheet (9
//!   rows of `o`/`.` separated by `/`, rank 9 first; [`sheet`] describes the
//!   format). The variants `level-1` … `level-6` preset it; an inline sheet
//!   keeps a record self-contained. The crate never reads a file: the command
//!   line reads a sheet file for `--option sheet=@FILE` and passes its content.
//! - `plate-start` (default `bottom-left`): where the plate stands at the start.
//! - `removal` (default `remaining-not-adjacent`, or `removed-not-adjacent`).
//! - `stones-to-win` (default 11, 1 to 12).
//! - `max-plies` (default 400).
//! - `repetition` (default `draw`; `off` drops decision 9's draw by
//!   repetition, so that a record made without the rule replays; `max-plies`
//!   still bounds the game).
//!
//! # The six sheets
//!
//! Designed with `examples/sheet-gen.rs` (seeded with Plateau's stable
//! generator; kept in the repository, and a test checks that the files in
//! `sheets/` are its output). From level 1 to level 6: more dots (4, 6, 8, 14,
//! 20, 26), less regular (the symmetries of the square, then the half turn,
//! then none; dots kept apart, then allowed to touch), and more *openings*
//! (windows of four cells in a line holding two dots, where two red stones make
//! a line). No level has more than two dots in any four cells of a line: three
//! would let one stone make a line on every turn for ever, the dots never
//! moving (the specification's constraint, no four dots in a line, is checked
//! for every sheet, built-in or loaded).
//!
//! The order is measured by `cargo run --release -p plateau-abraxas --example
//! sheet-stats`: 1000 seeded games per sheet between the same simple players
//! (the placement whose push scores most, else the one leaving the opponent
//! fewest holes in reach of a line; random removals; a stop stone in the
//! interlude only where it takes every line out of the scorer's reach), and per
//! sheet the lines made, the stones captured and the plies per game, the same
//! per 100 plies, and the holes in reach of a line per turn
//! ([`AbraxasState::line_threats`]):
//!
//! | sheet | dots | lines/game | captures/game | plies/game | lines/100 plies | captures/100 plies | in reach/turn | draws |
//! |---|---|---|---|---|---|---|---|---|
//! | level-1 | 4 | 14.8 | 16.9 | 69.0 | 21.4 | 24.5 | 0.52 | 0% |
//! | level-2 | 6 | 14.2 | 16.6 | 56.3 | 25.3 | 29.5 | 0.76 | 0% |
//! | level-3 | 8 | 14.2 | 16.5 | 50.7 | 27.9 | 32.5 | 1.03 | 0% |
//! | level-4 | 14 | 14.2 | 16.8 | 48.1 | 29.5 | 34.9 | 1.58 | 0% |
//! | level-5 | 20 | 12.1 | 16.7 | 41.6 | 29.0 | 40.2 | 1.80 | 0% |
//! | level-6 | 26 | 11.3 | 16.1 | 38.7 | 29.2 | 41.7 | 2.11 | 0% |
//!
//! Games get shorter (plies per game), captures come faster (captures per 100
//! plies) and more holes are in reach of a line at every turn, strictly from
//! level 1 to level 6. Lines and captures *per game* do not order the levels
//! and cannot: a game ends when one player holds 11, so every finished game
//! has 11 plus the loser's captures (16–17 at every level), and on the sheets
//! with many dots lines are longer and give more stones each, so fewer lines
//! reach 11. Lines per 100 plies rise up to level 4 and then stay level for the
//! same reason. With uniformly random players (`--random`) the same order
//! shows, lines per 100 plies included:
//!
//! | sheet | dots | lines/game | captures/game | plies/game | lines/100 plies | captures/100 plies | in reach/turn | draws |
//! |---|---|---|---|---|---|---|---|---|
//! | level-1 | 4 | 15.2 | 17.6 | 127.6 | 11.9 | 13.8 | 2.92 | 0% |
//! | level-2 | 6 | 14.9 | 17.5 | 104.1 | 14.3 | 16.8 | 3.39 | 0% |
//! | level-3 | 8 | 14.9 | 17.2 | 84.9 | 17.6 | 20.3 | 4.30 | 0% |
//! | level-4 | 14 | 15.4 | 17.0 | 70.3 | 22.0 | 24.2 | 5.36 | 0% |
//! | level-5 | 20 | 14.6 | 17.0 | 57.4 | 25.4 | 29.6 | 6.33 | 0% |
//! | level-6 | 26 | 14.8 | 17.1 | 52.6 | 28.1 | 32.4 | 7.33 | 0% |
//!
//! # Computer players
//!
//! [`eval`] is the evaluation of the computer players of `plateau-ai`
//! (stones held and the race, lines in reach after the push for the player
//! to place and for the opponent after them, stop stones in hand, lines being
//! scored and the interlude) and their noisy moves (removals, captures, and
//! the interlude stop stones that break a line in reach). Every decision of
//! a turn is a move, so alpha-beta plays removals and interludes like any
//! other move, flipping the sign only when the player to decide changes.
//! Measured on the development machine (2 cores shared with other builds,
//! load average 6 to 8 during the runs, so per-process speed about a third
//! of an idle machine):
//!
//! | match (20 games, `--threads 2 --openings random:2`) | alpha-beta's score |
//! |---|---|
//! | `alphabeta:time=200ms` vs `greedy`, level 1 | 100% (+20 −0) |
//! | `alphabeta:time=200ms` vs `mcts:time=200ms`, level 1 | 100% (+20 −0) |
//! | `alphabeta:time=200ms` vs `greedy`, level 6 | 100% (+20 −0) |
//! | `alphabeta:time=200ms` vs `mcts:time=200ms`, level 6 | 100% (+20 −0) |
//!
//! Against the crate's first (untuned) evaluation, the same search and
//! 100 ms a move (`cargo run --release -p plateau-abraxas --example duel`,
//! 40 games): 97.5% on level 1, 75% on level 6. In the middle game alpha-beta
//! reaches depth 7 in 200 ms and 10 in 1 s (every decision is a ply: a
//! capture is a placement, a removal and an interlude), at 0.4–1.2 million
//! nodes per second under that load. `cargo bench -p plateau-abraxas --bench
//! search` measures the evaluation and fixed searches; under the same load:
//! an evaluation takes 100–120 ns, the noisy moves 170–270 ns (over 100
//! positions of random games), alpha-beta to depth 4 from a level-1 middle
//! game 6.7 ms and to depth 6 88 ms, 2000 MCTS iterations 8.9 ms.
//!
//! # Learning programs
//!
//! [`encode`] implements [`plateau_core::Encode`]: 89,668 integer actions
//! (`plane × 81 + cell` for every move but `pass`) and observations of
//! 21 planes of 9×9, the same for every variant (`docs/encoding/abraxas.md`).
//!
//! # Building positions
//!
//! [`Abraxas::position`] reads the text form of [`position`];
//! [`AbraxasState::to_text`] writes it. [`State::render`](plateau_core::State::render) draws the board
//! with the dots, the plate and its holes, the stones, what is red, and the
//! lines just made (see [`render`]).
//!
//! # Performance
//!
//! The state is a few `u128` bitboards (ten bits per rank, see [`board`]) and
//! counters; the push is a shift; lines are found with shifts and ands; the
//! Zobrist key counts stones by plate hole, so that the push changes one term
//! only; `apply` saves the small state, `undo` restores it: no allocation (the
//! repetition history is a `Vec` reserved at the start). `cargo bench -p
//! plateau-abraxas` measures move generation and random playouts. On the
//! development machine (2 cores, x86-64, release): generating the moves of a
//! mid-game position takes about 100 ns (about 900 moves once the reserve is
//! empty: 1.5 µs), an apply and undo about 30 ns, a random game 20 µs (level 6)
//! to 100 µs (level 1); `plateau perft abraxas 5` counts 28,988,098,300 leaves
//! in 16 s (perft 1–4: 128, 16,128, 1,997,904, 243,020,432).

#![warn(missing_docs)]

pub mod analysis;
pub mod board;
pub mod encode;
pub mod eval;
pub mod lessons;
pub mod position;
pub mod render;
pub mod sheet;
pub mod state;

use std::sync::Arc;

use plateau_core::{ConfigError, Game, GameInfo, OptionKind, OptionSpec, Seat, Settings, VariantSpec};

pub use board::{BOARD, Bitboard, Cell, Dir, Line, PlatePos};
pub use render::AbraxasView;
pub use sheet::Sheet;
pub use state::{AbraxasState, AbraxasUndo, End, Move, Phase, RED_STONES, Removal, STOP_STONES, Take};

use state::Rules;

/// Abraxas, configured: the sheet, where the plate starts, and the rules'
/// options.
#[derive(Clone, Debug)]
pub struct Abraxas {
    sheet: Sheet,
    sheet_name: Arc<str>,
    plate_start: PlatePos,
    rules: Rules,
}

const PLATE_NAMES: &[&str] = &["bottom-left", "bottom-right", "top-right", "top-left"];
const REMOVAL_NAMES: &[&str] = &["remaining-not-adjacent", "removed-not-adjacent"];

const fn level(
    name: &'static str,
    help: &'static str,
    options: &'static [(&'static str, &'static str)],
) -> VariantSpec {
    VariantSpec { name, help, options }
}

static INFO: GameInfo = GameInfo {
    name: "abraxas",
    title: "Abraxas",
    summary: "Place red stones in a plate that is pushed round a 9×9 frame over a sheet of red dots; lines of four red circles capture stones.",
    notation: "d4: a red stone in the hole over d4. b:d4: a stop stone. d4-f6: move a red stone (once the reserve is empty). \
               x:d4,f4: the stones taken from one line; when a single stone taken lies on two lines to score, \
               add the line's direction: x:i3/h (row), x:i3/v (column), x:i3/d (diagonal a1-i9), x:i3/a (diagonal i1-a9). \
               pass: no stop stone after the opponent made a line.",
    min_seats: 2,
    max_seats: 2,
    hidden: false,
    uses_seed: false,
    has_draws: true,
    variants: &[
        level("level-1", "sheet 1: the fewest dots, the most regular", &[("sheet", "level-1")]),
        level("level-2", "sheet 2", &[("sheet", "level-2")]),
        level("level-3", "sheet 3", &[("sheet", "level-3")]),
        level("level-4", "sheet 4", &[("sheet", "level-4")]),
        level("level-5", "sheet 5", &[("sheet", "level-5")]),
        level("level-6", "sheet 6: the most dots, the least regular", &[("sheet", "level-6")]),
    ],
    options: &[
        OptionSpec {
            name: "sheet",
            help: "the dot sheet: level-1 … level-6, or an inline sheet (9 rows of o and . separated by /, rank 9 first)",
            kind: OptionKind::Content,
            default: "level-1",
            untrusted_max: None,
        },
        OptionSpec {
            name: "plate-start",
            help: "where the plate stands at the start",
            kind: OptionKind::Choice(PLATE_NAMES),
            default: "bottom-left",
            untrusted_max: None,
        },
        OptionSpec {
            name: "removal",
            help: "the three circles left must not be side by side (remaining-not-adjacent), or the stones taken must not be neighbours (removed-not-adjacent)",
            kind: OptionKind::Choice(REMOVAL_NAMES),
            default: "remaining-not-adjacent",
            untrusted_max: None,
        },
        OptionSpec {
            name: "stones-to-win",
            help: "red stones a player must hold to win",
            kind: OptionKind::Int { min: 1, max: 12 },
            default: "11",
            untrusted_max: None,
        },
        OptionSpec {
            name: "max-plies",
            help: "moves (of any kind) after which the game is a draw",
            kind: OptionKind::Int { min: 1, max: 100_000 },
            default: "400",
            untrusted_max: None,
        },
        OptionSpec {
            name: "repetition",
            help: "draw: the third occurrence of a position is a draw; off: no repetition rule (max-plies still ends the game), to replay records made without the rule",
            kind: OptionKind::Choice(&["draw", "off"]),
            default: "draw",
            untrusted_max: None,
        },
    ],
};

impl Abraxas {
    /// A game on `sheet` with the default options.
    pub fn new(sheet: Sheet) -> Abraxas {
        let rules = Rules {
            dots: sheet.dots(),
            stones_to_win: 11,
            max_plies: 400,
            removal: Removal::RemainingNotAdjacent,
            repetition_draw: true,
        };
        Abraxas { sheet_name: Arc::from(sheet.name()), sheet, plate_start: PlatePos::BottomLeft, rules }
    }

    /// The same game with the plate starting at `pos`.
    pub fn with_plate_start(mut self, pos: PlatePos) -> Abraxas {
        self.plate_start = pos;
        self
    }

    /// The same game with another reading of the removal restriction.
    pub fn with_removal(mut self, removal: Removal) -> Abraxas {
        self.rules.removal = removal;
        self
    }

    /// The same game with another number of stones to win (1 to 12).
    pub fn with_stones_to_win(mut self, n: u8) -> Abraxas {
        self.rules.stones_to_win = n.clamp(1, 12);
        self
    }

    /// The same game with another move cap (at least 1).
    pub fn with_max_plies(mut self, n: u32) -> Abraxas {
        self.rules.max_plies = n.max(1);
        self
    }

    /// The same game with (`true`, the default) or without the draw by
    /// threefold repetition (option `repetition=draw|off`).
    pub fn with_repetition_draw(mut self, draw: bool) -> Abraxas {
        self.rules.repetition_draw = draw;
        self
    }

    /// The sheet.
    pub fn sheet(&self) -> &Sheet {
        &self.sheet
    }

    /// Where the plate starts.
    pub fn plate_start(&self) -> PlatePos {
        self.plate_start
    }

    /// A position from its text form (see [`position`]), with this game's
    /// options. Errors name the line or cell and the problem.
    pub fn position(&self, text: &str) -> Result<AbraxasState, String> {
        position::from_text(self.rules, text)
    }
}

impl Game for Abraxas {
    type State = AbraxasState;

    const INFO: &'static GameInfo = &INFO;

    fn lessons() -> &'static [plateau_core::lesson::Lesson] {
        lessons::LESSONS
    }

    /// Material is what the view counts as taken; the built-in set is
    /// `puzzles.json` in this crate (`plateau puzzles`, `docs/puzzles.md`).
    fn puzzles() -> Option<&'static plateau_core::puzzle::Puzzles> {
        const PUZZLES: plateau_core::puzzle::Puzzles = plateau_core::puzzle::Puzzles {
            material: ["/taken/0", "/taken/1"],
            gain: "capture",
            builtin: include_str!("../puzzles.json"),
        };
        Some(&PUZZLES)
    }

    fn configure(settings: &Settings) -> Result<Self, ConfigError> {
        let sheet =
            Sheet::from_option(settings.text("sheet")).map_err(|e| ConfigError::new(format!("option sheet: {e}")))?;
        let plate = PlatePos::from_name(settings.text("plate-start"))
            .ok_or_else(|| ConfigError::new("option plate-start: unknown position"))?;
        let removal = match settings.text("removal") {
            "removed-not-adjacent" => Removal::RemovedNotAdjacent,
            _ => Removal::RemainingNotAdjacent,
        };
        let win = settings.int("stones-to-win");
        let max = settings.int("max-plies");
        Ok(Abraxas::new(sheet)
            .with_plate_start(plate)
            .with_removal(removal)
            .with_stones_to_win(win.clamp(1, 12) as u8)
            .with_max_plies(max.clamp(1, 100_000) as u32)
            .with_repetition_draw(settings.text("repetition") == "draw"))
    }

    fn seats(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> String {
        format!("Player {}", seat + 1)
    }

    fn start(&self, _seed: u64) -> AbraxasState {
        AbraxasState::new(self.rules, self.sheet_name.clone(), self.plate_start)
    }

    fn ply_bound(&self) -> Option<u64> {
        Some(self.rules.max_plies as u64)
    }
}

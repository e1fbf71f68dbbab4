//! Integer actions and observation planes ([`plateau_core::Encode`]) for
//! learning programs. The same text is in `docs/encoding/colorito.md`.
//!
//! # Frames: everything from one side's point of view
//!
//! Every Colorito board is 10 × 10, and Red and Blue race in opposite
//! directions, so both actions and observations are written in a *frame*: a
//! side's own view of the board, turned so that it plays "upwards".
//!
//! - Red's frame is the board as it is: the frame index of cell `(file, rank)`
//!   (both from 0, `a1` = `(0, 0)`) is `rank·10 + file`, the cell's own index
//!   ([`Cell::index`]).
//! - Blue's frame is the board turned half a turn: the frame index of the cell
//!   of index `c` is `99 − c` (`j10` ↦ 0, `a10` ↦ 9, `a1` ↦ 99).
//!
//! In either frame, index `k` is row `k / 10` (row 0 is the side's own edge:
//! rank 1 for Red, rank 10 for Blue) and column `k % 10` (column 0 is the
//! side's left: file a for Red, file j for Blue). On the standard board each
//! side's pieces then start on rows 0–1 and go home to rows 8–9, with piece
//! *n* of each colour in the same place in both frames.
//!
//! # Actions
//!
//! An action is written in the frame of the **side to move** (Red's frame
//! when Red is to move, Blue's when Blue is; once the game is over, the side
//! that would move next):
//!
//! - `Go { from, to }` ↦ `frame(from) · 100 + frame(to)`, in `0..10_000`;
//! - `Pass` ↦ `10_000`.
//!
//! The action space has **10,001** actions in every variant and with every
//! option (the board is always 10 × 10). The 100 actions `k · 101`
//! (`from == to`) name no move (a move cannot end where it started):
//! [`Encode::move_of`] returns `None` for them and for every action above
//! `10_000`. Any other action below `10_000` names a move, legal or not.
//!
//! Worked example, the standard board: at the start, Red's `c1-c3` (piece R3
//! on `c1` jumps over Y13 on `c2` to the red cell `c3`) is `2 · 100 + 22 =
//! 222`. Blue's `c10-c8` (D8 jumps over L18 to the dark-blue cell `c8`): `c10`
//! has index 92, frame index `99 − 92 = 7`; `c8` has index 72, frame index 27;
//! the action is `7 · 100 + 27 = 727`.
//!
//! # Observation
//!
//! Shape `[76, 10, 10]` in every variant: plane, row, column, rows and
//! columns in the **observer's** frame (so an observation of the side to move
//! and its actions share one grid). "My" and "their" are the observer's and
//! the opponent's; a side's *low* colour is the colour of its pieces 1–10
//! (red for Red, dark blue for Blue) and its *high* colour that of its pieces
//! 11–20 (yellow, light blue). Every value is 0 or 1 except the move counts.
//!
//! | planes | name | meaning |
//! |---|---|---|
//! | 0 | `mine` | a piece of mine stands here |
//! | 1 | `theirs` | a piece of the opponent stands here |
//! | 2–21 | `my_piece_1` … `my_piece_20` | my piece with number *n* stands here (1–10 low colour, 11–20 high colour) |
//! | 22–41 | `their_piece_1` … `their_piece_20` | the opponent's piece with number *n* stands here |
//! | 42 | `my_home` | a piece of mine stands here and is home (on its target; just-colours: on a cell of its colour in its target rank) |
//! | 43 | `their_home` | the same for the opponent |
//! | 44 | `cell_my_low` | the cell has my low colour |
//! | 45 | `cell_my_high` | the cell has my high colour |
//! | 46 | `cell_their_low` | the cell has the opponent's low colour |
//! | 47 | `cell_their_high` | the cell has the opponent's high colour |
//! | 48–67 | `cell_number_1` … `cell_number_20` | the cell carries number *n* |
//! | 68 | `my_targets` | a piece of mine would be home on this cell (the union of my pieces' homes) |
//! | 69 | `their_targets` | the same for the opponent's pieces |
//! | 70 | `my_moves` | constant: the moves I have made (passes count) ÷ `max-moves` |
//! | 71 | `their_moves` | constant: the opponent's moves ÷ `max-moves` |
//! | 72 | `to_move` | constant: 1 if the game is not over and I decide next |
//! | 73 | `first_player` | constant: 1 if I moved first (option `first`) |
//! | 74 | `extra_move` | constant: 1 if the first player has finished and the second is making its extra move |
//! | 75 | `game_over` | constant: 1 once the game is over |
//!
//! The board planes (44–69) are the same at every position of one configured
//! game, but they depend on the board (option `board`), the variant and the
//! observer. Under just-colours the cell numbers (48–67) do not decide where a
//! piece may go; they are still shown.
//!
//! The two points of view mirror each other: Red's observation of a position
//! equals Blue's observation of its mirror image (board and pieces turned
//! half a turn, red ↔ dark blue and yellow ↔ light blue, the sides' counts,
//! turn and first player swapped), and the mover's actions are the same
//! numbers in both.
//!
//! Colorito has no hidden information and no rule about history, so the
//! observation is Markov: the position, the move counts, who moved first and
//! the status decide everything the rules decide. Not in it: the option
//! `score-nodes` (the work budget of the loser's score, not a rule of play),
//! and the loser's score of a finished game.

use plateau_core::{Encode, Seat};

use crate::bits::Bits;
use crate::board::{CELLS, Cell, Colour, SIZE, Side};
use crate::state::{ColoritoState, Move, NONE};

/// The action of a pass: the last one.
const PASS: usize = CELLS * CELLS;
/// The size of the action space.
const ACTIONS: usize = PASS + 1;

/// Plane offsets.
const MINE: usize = 0;
const THEIRS: usize = 1;
const MY_PIECE: usize = 2;
const THEIR_PIECE: usize = 22;
const MY_HOME: usize = 42;
const THEIR_HOME: usize = 43;
const CELL_COLOUR: usize = 44;
const CELL_NUMBER: usize = 48;
const MY_TARGETS: usize = 68;
const THEIR_TARGETS: usize = 69;
const MY_MOVES: usize = 70;
const THEIR_MOVES: usize = 71;
const TO_MOVE: usize = 72;
const FIRST_PLAYER: usize = 73;
const EXTRA_MOVE: usize = 74;
const GAME_OVER: usize = 75;
/// The number of planes.
const PLANES: usize = 76;

/// The frame index of a cell index for `side` (an involution).
#[inline(always)]
fn frame(side: Side, cell: usize) -> usize {
    match side {
        Side::Red => cell,
        Side::Blue => CELLS - 1 - cell,
    }
}

/// The piece's number, 1–20, from its id (0–9 low 1–10, 10–19 high 11–20,
/// and the same for Blue from 20).
#[inline(always)]
fn number_of_id(id: usize) -> usize {
    id % 20 + 1
}

impl Encode for ColoritoState {
    fn actions(&self) -> usize {
        ACTIONS
    }

    #[inline]
    fn action(&self, mv: Move) -> usize {
        match mv {
            Move::Go { from, to } => frame(self.side, from.index()) * CELLS + frame(self.side, to.index()),
            Move::Pass => PASS,
        }
    }

    #[inline]
    fn move_of(&self, action: usize) -> Option<Move> {
        if action == PASS {
            return Some(Move::Pass);
        }
        if action > PASS {
            return None;
        }
        let (f, t) = (action / CELLS, action % CELLS);
        if f == t {
            return None;
        }
        let from = Cell::from_index(frame(self.side, f))?;
        let to = Cell::from_index(frame(self.side, t))?;
        Some(Move::Go { from, to })
    }

    fn observation_shape(&self) -> [usize; 3] {
        [PLANES, SIZE, SIZE]
    }

    fn plane_names(&self) -> Vec<String> {
        let mut v: Vec<String> = vec!["mine".into(), "theirs".into()];
        v.extend((1..=20).map(|n| format!("my_piece_{n}")));
        v.extend((1..=20).map(|n| format!("their_piece_{n}")));
        for s in ["my_home", "their_home", "cell_my_low", "cell_my_high", "cell_their_low", "cell_their_high"] {
            v.push(s.into());
        }
        v.extend((1..=20).map(|n| format!("cell_number_{n}")));
        for s in [
            "my_targets",
            "their_targets",
            "my_moves",
            "their_moves",
            "to_move",
            "first_player",
            "extra_move",
            "game_over",
        ] {
            v.push(s.into());
        }
        v
    }

    /// Write `seat`'s observation (see the module documentation). A seat
    /// other than 0 (Red) and 1 (Blue) observes as Blue.
    fn observe(&self, seat: Seat, out: &mut [f32]) {
        assert_eq!(out.len(), PLANES * CELLS, "a Colorito observation has {PLANES} × 10 × 10 numbers");
        out.fill(0.0);
        let me = if seat == 0 { Side::Red } else { Side::Blue };
        let r = &*self.rules;
        let mut set = |plane: usize, cell: usize| out[plane * CELLS + frame(me, cell)] = 1.0;

        // Pieces, and whether they are home.
        for cell in 0..CELLS {
            let p = self.at[cell];
            if p == NONE {
                continue;
            }
            let id = p as usize;
            let mine = (id / 20) == me as usize;
            let n = number_of_id(id);
            let (any, piece, home) = if mine { (MINE, MY_PIECE, MY_HOME) } else { (THEIRS, THEIR_PIECE, THEIR_HOME) };
            set(any, cell);
            set(piece + n - 1, cell);
            if self.held & (1u128 << cell) != 0 {
                set(home, cell);
            }
        }

        // The board: colours relative to the observer, numbers, targets.
        let b = &r.board;
        for cell in 0..CELLS {
            let c = Cell::from_index(cell).expect("in range");
            let colour = b.colour(c) as usize;
            // Red's colours are 0 (low) and 1 (high), Blue's 2 and 3: the
            // observer's relative index turns Blue's into 0 and 1.
            let relative = match me {
                Side::Red => colour,
                Side::Blue => (colour + 2) % 4,
            };
            set(CELL_COLOUR + relative, cell);
            if let Some(n) = b.number(c) {
                set(CELL_NUMBER + n as usize - 1, cell);
            }
        }
        for cell in Bits(r.targets[me as usize]) {
            set(MY_TARGETS, cell);
        }
        for cell in Bits(r.targets[me.other() as usize]) {
            set(THEIR_TARGETS, cell);
        }

        // Constant planes.
        let max = f32::from(r.max_moves.max(1));
        let over = plateau_core::State::to_move(self) == plateau_core::Turn::Over;
        let constants = [
            (MY_MOVES, (f32::from(self.moves[me as usize]) / max).min(1.0)),
            (THEIR_MOVES, (f32::from(self.moves[me.other() as usize]) / max).min(1.0)),
            (TO_MOVE, if !over && self.side == me { 1.0 } else { 0.0 }),
            (FIRST_PLAYER, if r.first == me { 1.0 } else { 0.0 }),
            (EXTRA_MOVE, if self.in_extra_move() { 1.0 } else { 0.0 }),
            (GAME_OVER, if over { 1.0 } else { 0.0 }),
        ];
        for (plane, v) in constants {
            out[plane * CELLS..(plane + 1) * CELLS].fill(v);
        }
    }
}

// The colour order the relative index above relies on.
const _: () = assert!(
    Colour::Red as usize == 0
        && Colour::Yellow as usize == 1
        && Colour::DarkBlue as usize == 2
        && Colour::LightBlue as usize == 3
);

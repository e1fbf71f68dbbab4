//! The position, move generation, and applying and undoing moves.

use plateau_core::rng::zobrist_table;
use plateau_core::{MoveError, Outcome, Seat, Turn};

use crate::board::{BOARD, Bits, Cell, DIR_NAMES, DIRS, ahead, opposite, shift};

/// Black, the first player.
pub const BLACK: Seat = 0;
/// White.
pub const WHITE: Seat = 1;

const ZOBRIST: [u64; 163] = zobrist_table::<163>(0x00AB_A10E);
const SIDE_KEY: u64 = ZOBRIST[162];

#[inline]
fn zkey(side: usize, cell: u32) -> u64 {
    ZOBRIST[side * 81 + cell as usize]
}

/// One move: an in-line move of 1–3 marbles (which may push), or a broadside
/// move of a line of 2 or 3.
///
/// In-line: `cell` is the trailing marble and `dir` the direction of motion
/// (`axis == dir`). Broadside: `cell` is the end of the line with the lower
/// index, `axis` the line's direction (0, 1 or 2, towards the other end), `dir`
/// the direction of motion, not along the axis.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub(crate) cell: u8,
    pub(crate) dir: u8,
    pub(crate) axis: u8,
    pub(crate) n: u8,
}

/// The kinds of moves, as the specification counts them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// One marble.
    Single,
    /// Two or three marbles along their line (possibly pushing).
    InLine(u8),
    /// Two or three marbles sideways.
    Broadside(u8),
}

impl Move {
    /// The kind of the move.
    pub fn kind(self) -> MoveKind {
        if self.axis != self.dir {
            MoveKind::Broadside(self.n)
        } else if self.n == 1 {
            MoveKind::Single
        } else {
            MoveKind::InLine(self.n)
        }
    }

    /// The trailing marble (in-line) or the lower end of the line (broadside).
    pub fn cell(self) -> Cell {
        Cell::from_index(self.cell as i32).expect("moves hold board cells")
    }

    /// The direction of motion, an index into [`DIRS`](crate::board::DIRS).
    pub fn dir(self) -> usize {
        self.dir as usize
    }

    /// The number of own marbles moved.
    pub fn marbles(self) -> u8 {
        self.n
    }

    /// The cells of the moved marbles.
    pub fn line(self) -> impl Iterator<Item = Cell> {
        let step = DIRS[self.axis as usize];
        (0..self.n as i32).filter_map(move |i| Cell::from_index(self.cell as i32 + i * step))
    }
}

/// How the game stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Status {
    Ongoing,
    Won(u8, &'static str),
    Drawn(&'static str),
}

/// What undoing a move needs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Undo {
    key: u64,
    status: Status,
    since_capture: u32,
    /// Opponent marbles pushed (0 if none), and whether the last fell off.
    pushed: u8,
    out: bool,
}

/// Rules that vary with options.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rules {
    /// Marbles to push out to win (1–14).
    pub marbles_to_win: u8,
    /// The game ends after this many plies, if set.
    pub max_plies: Option<u32>,
    /// Whether the third occurrence of a position (same side to move) is a
    /// draw (option `repetition=draw`, the default), or no rule at all
    /// (`repetition=off`, for records of systems without the rule).
    pub repetition_draw: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { marbles_to_win: 6, max_plies: None, repetition_draw: true }
    }
}

/// An Abalone position, with the history needed for threefold repetition.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AbaloneState {
    pub(crate) bb: [Bits; 2],
    pub(crate) side: u8,
    /// Marbles pushed out by each side.
    pub(crate) captured: [u8; 2],
    pub(crate) ply: u32,
    pub(crate) key: u64,
    pub(crate) status: Status,
    /// Plies since the last push-out (positions before it cannot recur).
    pub(crate) since_capture: u32,
    /// The key of the position before each ply.
    pub(crate) history: Vec<u64>,
    pub(crate) rules: Rules,
}

#[derive(Clone, Copy)]
struct Masks {
    own: Bits,
    opp: Bits,
    empty: Bits,
    occ: Bits,
}

/// In-line moves in direction `D` (index step `S`).
#[inline(always)]
fn inline_masks<const D: usize, const S: i32>(m: &Masks, f: &mut impl FnMut(Bits, usize, usize, u8)) {
    let Masks { own, opp, empty, occ } = *m;
    let o1 = ahead(own, S);
    let o2 = ahead(own, 2 * S);
    let o3 = ahead(own, 3 * S);
    // One marble: to an empty cell.
    f(own & ahead(empty, S), D, D, 1);
    // Two in line: to empty, or 2 push 1.
    let two = own & o1 & !o2;
    f(two & (ahead(empty, 2 * S) | (ahead(opp, 2 * S) & !ahead(occ, 3 * S))), D, D, 2);
    // Three in line: to empty, 3 push 1, 3 push 2.
    let three = own & o1 & o2 & !o3;
    let push = ahead(opp, 3 * S) & (!ahead(occ, 4 * S) | (ahead(opp, 4 * S) & !ahead(occ, 5 * S)));
    f(three & (ahead(empty, 3 * S) | push), D, D, 3);
}

/// Push-outs by `own` in direction `D` (index step `S`): in-line moves whose
/// pushed run ends off the board.
#[inline(always)]
fn push_out_mask<const S: i32>(own: Bits, opp: Bits) -> [Bits; 2] {
    let o1 = ahead(own, S);
    let o2 = ahead(own, 2 * S);
    let o3 = ahead(own, 3 * S);
    let off = |k: i32| !ahead(BOARD, k * S);
    let two = own & o1 & !o2 & ahead(opp, 2 * S) & off(3);
    let p3 = ahead(opp, 3 * S);
    let three = own & o1 & o2 & !o3 & p3 & (off(4) | (ahead(opp, 4 * S) & off(5)));
    [two, three]
}

/// Broadside moves of lines along axis `A` (step `SA`) in direction `D` (step `SD`).
#[inline(always)]
fn broadside_masks<const A: usize, const SA: i32, const D: usize, const SD: i32>(
    m: &Masks,
    f: &mut impl FnMut(Bits, usize, usize, u8),
) {
    let Masks { own, empty, .. } = *m;
    let line2 = own & ahead(own, SA) & ahead(empty, SD) & ahead(empty, SA + SD);
    f(line2, D, A, 2);
    f(line2 & ahead(own, 2 * SA) & ahead(empty, 2 * SA + SD), D, A, 3);
}

impl AbaloneState {
    /// A position from the marbles of each side, the side to move and the
    /// marbles each side has pushed out. The status (a finished game, a side
    /// with no move) is computed.
    pub fn from_parts(black: Bits, white: Bits, to_move: Seat, captured: [u8; 2], rules: Rules) -> Self {
        let mut s = AbaloneState {
            bb: [black & BOARD, white & BOARD & !black],
            side: to_move as u8,
            captured,
            ply: 0,
            key: 0,
            status: Status::Ongoing,
            since_capture: 0,
            history: Vec::with_capacity(256),
            rules,
        };
        s.key = s.compute_key();
        s.status = s.compute_status(false);
        s
    }

    pub(crate) fn compute_key(&self) -> u64 {
        let mut k = if self.side == 1 { SIDE_KEY } else { 0 };
        for side in 0..2 {
            let mut b = self.bb[side];
            while b != 0 {
                k ^= zkey(side, b.trailing_zeros());
                b &= b - 1;
            }
        }
        k
    }

    /// The marbles of a side.
    pub fn marbles(&self, side: Seat) -> Bits {
        self.bb[side]
    }

    /// The marbles pushed out by a side.
    pub fn pushed_out_by(&self, side: Seat) -> u8 {
        self.captured[side]
    }

    /// The side whose turn it is (also when the game is over: the side that
    /// would move).
    pub fn side(&self) -> Seat {
        self.side as Seat
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    #[inline(always)]
    fn masks(&self) -> Masks {
        let own = self.bb[self.side as usize];
        let opp = self.bb[1 - self.side as usize];
        let occ = own | opp;
        Masks { own, opp, empty: BOARD & !occ, occ }
    }

    /// Visit every legal move's set of trailing cells, by kind: `f(mask, dir,
    /// axis, n)` with the cells of the moves as a bit set. Both generation and
    /// counting are this one function. Each direction is a separate
    /// monomorphised call so that every shift is by a constant.
    #[inline(always)]
    fn for_each_mask(&self, mut f: impl FnMut(Bits, usize, usize, u8)) {
        let m = self.masks();
        inline_masks::<0, 1>(&m, &mut f);
        inline_masks::<1, 10>(&m, &mut f);
        inline_masks::<2, 9>(&m, &mut f);
        inline_masks::<3, -1>(&m, &mut f);
        inline_masks::<4, -10>(&m, &mut f);
        inline_masks::<5, -9>(&m, &mut f);
        // Broadside: axis E (1) moving NE, NW, SW, SE; axis NE (10) moving E,
        // NW, W, SE; axis NW (9) moving E, NE, W, SW.
        broadside_masks::<0, 1, 1, 10>(&m, &mut f);
        broadside_masks::<0, 1, 2, 9>(&m, &mut f);
        broadside_masks::<0, 1, 4, -10>(&m, &mut f);
        broadside_masks::<0, 1, 5, -9>(&m, &mut f);
        broadside_masks::<1, 10, 0, 1>(&m, &mut f);
        broadside_masks::<1, 10, 2, 9>(&m, &mut f);
        broadside_masks::<1, 10, 3, -1>(&m, &mut f);
        broadside_masks::<1, 10, 5, -9>(&m, &mut f);
        broadside_masks::<2, 9, 0, 1>(&m, &mut f);
        broadside_masks::<2, 9, 1, 10>(&m, &mut f);
        broadside_masks::<2, 9, 3, -1>(&m, &mut f);
        broadside_masks::<2, 9, 4, -10>(&m, &mut f);
    }

    /// Generate the legal moves into `out` (cleared first).
    pub fn generate(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.status != Status::Ongoing {
            return;
        }
        self.for_each_mask(|mut m, d, a, n| {
            while m != 0 {
                let i = m.trailing_zeros() as u8;
                m &= m - 1;
                out.push(Move { cell: i, dir: d as u8, axis: a as u8, n });
            }
        });
    }

    /// The number of legal moves.
    pub fn count(&self) -> usize {
        if self.status != Status::Ongoing {
            return 0;
        }
        let mut total = 0;
        self.for_each_mask(|m, _, _, _| total += m.count_ones() as usize);
        total
    }

    fn push_out_masks(&self, side: Seat) -> [[Bits; 2]; 6] {
        let (own, opp) = (self.bb[side], self.bb[1 - side]);
        [
            push_out_mask::<1>(own, opp),
            push_out_mask::<10>(own, opp),
            push_out_mask::<9>(own, opp),
            push_out_mask::<-1>(own, opp),
            push_out_mask::<-10>(own, opp),
            push_out_mask::<-9>(own, opp),
        ]
    }

    /// Whether the side to move has a marble next to an empty cell: a
    /// single-marble step there is legal and pushes nothing.
    pub fn has_quiet_step(&self) -> bool {
        let own = self.bb[self.side as usize];
        let empty = BOARD & !(self.bb[0] | self.bb[1]);
        DIRS.iter().any(|&d| shift(own, d) & empty != 0)
    }

    /// How many moves of `side` (were it to move) would push a marble off the
    /// board.
    pub fn push_out_count(&self, side: Seat) -> u32 {
        self.push_out_masks(side).iter().flatten().map(|m| m.count_ones()).sum()
    }

    /// The legal moves of the side to move that push a marble off the board.
    pub fn push_outs(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.status != Status::Ongoing {
            return;
        }
        for (d, masks) in self.push_out_masks(self.side as Seat).iter().enumerate() {
            for (k, &mask) in masks.iter().enumerate() {
                let mut m = mask;
                while m != 0 {
                    let i = m.trailing_zeros() as u8;
                    m &= m - 1;
                    out.push(Move { cell: i, dir: d as u8, axis: d as u8, n: k as u8 + 2 });
                }
            }
        }
    }

    fn side_has_move(&self) -> bool {
        let Masks { own, empty, .. } = self.masks();
        let near_empty = (0..6).fold(0, |acc, d| acc | shift(empty, DIRS[d]));
        if own & near_empty != 0 {
            return true;
        }
        let mut total = 0;
        self.for_each_mask(|m, _, _, _| total += m.count_ones());
        total > 0
    }

    /// Why `mv` is not legal here, or `Ok` if it is. Mirrors generation
    /// exactly. The body of [`State::check`](plateau_core::State::check).
    pub(crate) fn legality(&self, mv: Move) -> Result<(), MoveError> {
        if self.status != Status::Ongoing {
            return Err(MoveError::illegal("the game is over"));
        }
        let Masks { own, opp, occ, .. } = self.masks();
        let colour = if self.side == 0 { "black" } else { "white" };
        let (d, a, n) = (mv.dir as usize, mv.axis as usize, mv.n);
        let start = Cell::from_index(mv.cell as i32).ok_or_else(|| MoveError::illegal("no such cell"))?;
        if d >= 6 || a >= 6 {
            return Err(MoveError::illegal("no such direction"));
        }
        if own & start.bit() == 0 {
            return Err(MoveError::illegal(format!("there is no {colour} marble on {start}")));
        }
        let at = |i: i32, step: i32| Cell::from_index(mv.cell as i32 + i * step);
        if a == d {
            let s = DIRS[d];
            let mut k = 0;
            while k < 4 && at(k, s).is_some_and(|c| own & c.bit() != 0) {
                k += 1;
            }
            if k >= 4 {
                return Err(MoveError::illegal("four or more marbles never move"));
            }
            if k != n as i32 {
                return Err(MoveError::illegal(format!(
                    "the line from {start} going {} has {k} marbles, not {n}",
                    DIR_NAMES[d]
                )));
            }
            let front = at(k, s).ok_or_else(|| MoveError::illegal("a marble cannot move off the board"))?;
            if occ & front.bit() == 0 {
                return Ok(());
            }
            // An opponent marble in front: sumito?
            if k == 1 {
                return Err(MoveError::illegal(format!("a single marble never pushes ({front} is occupied)")));
            }
            let mut m = 0;
            while at(k + m, s).is_some_and(|c| opp & c.bit() != 0) {
                m += 1;
            }
            if m >= k {
                return Err(MoveError::illegal(format!(
                    "{k} against {m} cannot push: only 2 push 1, 3 push 1 and 3 push 2"
                )));
            }
            match at(k + m, s) {
                Some(c) if own & c.bit() != 0 => {
                    Err(MoveError::illegal(format!("no push: your own marble on {c} is behind the pushed marbles")))
                }
                _ => Ok(()),
            }
        } else {
            if a >= 3 || d == opposite(a) || !(2..=3).contains(&n) {
                return Err(MoveError::illegal("not a broadside move"));
            }
            let (sa, sd) = (DIRS[a], DIRS[d]);
            for i in 0..n as i32 {
                let c = at(i, sa).ok_or_else(|| MoveError::illegal("the line leaves the board"))?;
                if own & c.bit() == 0 {
                    return Err(MoveError::illegal(format!("there is no {colour} marble on {c}")));
                }
                let to = Cell::from_index(c.index() as i32 + sd)
                    .ok_or_else(|| MoveError::illegal(format!("{c} cannot move off the board")))?;
                if occ & to.bit() != 0 {
                    return Err(MoveError::illegal(format!("a broadside move needs empty cells: {to} is occupied")));
                }
            }
            Ok(())
        }
    }

    /// Apply a legal move.
    pub fn make(&mut self, mv: Move) -> Undo {
        debug_assert!(self.legality(mv).is_ok(), "illegal move {mv:?}");
        let side = self.side as usize;
        let other = 1 - side;
        let mut undo =
            Undo { key: self.key, status: self.status, since_capture: self.since_capture, pushed: 0, out: false };
        self.history.push(self.key);
        let mut key = self.key ^ SIDE_KEY;
        let (d, a, n) = (mv.dir as usize, mv.axis as usize, mv.n as i32);
        let t = mv.cell as i32;
        if a == d {
            let s = DIRS[d];
            let front = t + n * s;
            // The line moves: the trailing cell empties, the front fills.
            self.bb[side] ^= 1 << t;
            key ^= zkey(side, t as u32);
            let front_bit: Bits = if (0..128).contains(&front) { 1 << front } else { 0 };
            if self.bb[other] & front_bit != 0 {
                let mut m = 1;
                while (0..128).contains(&(front + m * s)) && self.bb[other] >> (front + m * s) & 1 == 1 {
                    m += 1;
                }
                let behind = front + m * s;
                self.bb[other] ^= front_bit;
                key ^= zkey(other, front as u32);
                undo.pushed = m as u8;
                match Cell::from_index(behind) {
                    Some(c) => {
                        self.bb[other] |= c.bit();
                        key ^= zkey(other, behind as u32);
                    }
                    None => {
                        undo.out = true;
                        self.captured[side] += 1;
                    }
                }
            }
            self.bb[side] |= front_bit;
            key ^= zkey(side, front as u32);
        } else {
            let (sa, sd) = (DIRS[a], DIRS[d]);
            for i in 0..n {
                let c = t + i * sa;
                self.bb[side] ^= (1 << c) | (1 << (c + sd));
                key ^= zkey(side, c as u32) ^ zkey(side, (c + sd) as u32);
            }
        }
        self.key = key;
        self.side ^= 1;
        self.ply += 1;
        self.since_capture = if undo.out { 0 } else { self.since_capture + 1 };
        self.status = self.compute_status(undo.out);
        undo
    }

    /// Undo `mv`, the last move made.
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        self.side ^= 1;
        self.ply -= 1;
        self.history.pop();
        let side = self.side as usize;
        let other = 1 - side;
        let (d, a, n) = (mv.dir as usize, mv.axis as usize, mv.n as i32);
        let t = mv.cell as i32;
        if a == d {
            let s = DIRS[d];
            let front = t + n * s;
            self.bb[side] ^= (1 << t) | (1 << front);
            if undo.pushed > 0 {
                let behind = front + undo.pushed as i32 * s;
                self.bb[other] |= 1 << front;
                if undo.out {
                    self.captured[side] -= 1;
                } else {
                    self.bb[other] ^= 1 << behind;
                }
            }
        } else {
            let (sa, sd) = (DIRS[a], DIRS[d]);
            for i in 0..n {
                let c = t + i * sa;
                self.bb[side] ^= (1 << c) | (1 << (c + sd));
            }
        }
        self.key = undo.key;
        self.status = undo.status;
        self.since_capture = undo.since_capture;
    }

    /// The status after a move (or of a new position).
    fn compute_status(&self, captured_now: bool) -> Status {
        let mover = 1 - self.side as usize;
        let to_win = self.rules.marbles_to_win;
        if captured_now && self.captured[mover] >= to_win {
            return Status::Won(mover as u8, "push-out");
        }
        if self.ply == 0 {
            // A given position: it may already be decided.
            for s in 0..2 {
                if self.captured[s] >= to_win {
                    return Status::Won(s as u8, "push-out");
                }
            }
        }
        if self.rules.repetition_draw && self.repetitions() >= 3 {
            return Status::Drawn("threefold repetition");
        }
        if let Some(max) = self.rules.max_plies
            && self.ply >= max
        {
            return match self.captured[0].cmp(&self.captured[1]) {
                std::cmp::Ordering::Greater => Status::Won(0, "max-plies"),
                std::cmp::Ordering::Less => Status::Won(1, "max-plies"),
                std::cmp::Ordering::Equal => Status::Drawn("max-plies"),
            };
        }
        if !self.side_has_move() {
            return Status::Drawn("no legal move");
        }
        Status::Ongoing
    }

    /// How many times the current position (with the same side to move) has
    /// occurred, this time included.
    pub fn repetitions(&self) -> usize {
        let h = &self.history;
        let back = (self.since_capture as usize).min(h.len());
        let mut count = 1;
        // Same side to move: every second earlier position.
        let mut i = 2;
        while i <= back {
            if h[h.len() - i] == self.key {
                count += 1;
            }
            i += 2;
        }
        count
    }

    pub(crate) fn turn(&self) -> Turn {
        match self.status {
            Status::Ongoing => Turn::Seat(self.side as Seat),
            _ => Turn::Over,
        }
    }

    pub(crate) fn result(&self) -> Option<Outcome> {
        match self.status {
            Status::Ongoing => None,
            Status::Won(s, why) => Some(Outcome::win(2, s as Seat, why)),
            Status::Drawn(why) => Some(Outcome::draw(2, why)),
        }
    }
}

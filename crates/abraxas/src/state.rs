//! The position, the moves and the rules.

use std::sync::Arc;

use plateau_core::rng::zobrist_table;
use plateau_core::{MoveError, Outcome, Reader, Seat, State, Turn};

use crate::board::{BOARD, Bitboard, Cell, Dir, Line, PlatePos, cells, for_each_run, run4_cells};

/// The number of red stones of the game.
pub const RED_STONES: u8 = 24;
/// The number of stop stones of each player.
pub const STOP_STONES: u8 = 3;

/// How the restriction on the stones taken from a line is read (option `removal`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Removal {
    /// `remaining-not-adjacent` (default): the three circles of the line that
    /// are not taken must not be three consecutive cells of the line.
    RemainingNotAdjacent,
    /// `removed-not-adjacent`: no two stones taken may be neighbours in the
    /// line.
    RemovedNotAdjacent,
}

impl Removal {
    /// The option value.
    pub const fn name(self) -> &'static str {
        match self {
            Removal::RemainingNotAdjacent => "remaining-not-adjacent",
            Removal::RemovedNotAdjacent => "removed-not-adjacent",
        }
    }

    /// Whether taking the cells `which` (bit `i` = the line's `i`-th cell) of a
    /// line of `len` cells satisfies the restriction. Only asked when the
    /// line holds more stones than are taken (otherwise there is no choice).
    #[inline]
    pub const fn allows(self, which: u16, len: u8) -> bool {
        match self {
            Removal::RemainingNotAdjacent => {
                let rem = full(len) & !which;
                rem & (rem >> 1) & (rem >> 2) == 0
            }
            Removal::RemovedNotAdjacent => which & (which >> 1) == 0,
        }
    }
}

#[inline]
const fn full(len: u8) -> u16 {
    ((1u32 << len) - 1) as u16
}

/// The rules in force (from the options) and the sheet's dots.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Rules {
    pub dots: u128,
    pub stones_to_win: u8,
    pub max_plies: u32,
    pub removal: Removal,
    /// The third occurrence of a position is a draw (option `repetition`).
    pub repetition_draw: bool,
}

/// What the player to move is deciding.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// A turn: place a red stone (or move one, once the reserve is empty) or
    /// one's own stop stone; the plate is then pushed.
    Place,
    /// The player who made lines takes stones from one of them (`x:…`).
    Score,
    /// The opponent of the player who made lines may place a stop stone
    /// (`b:…`, no push) or `pass`; then the scorer plays again.
    Interlude,
}

impl Phase {
    const fn index(self) -> usize {
        self as usize
    }
}

/// Why the game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum End {
    /// This seat holds the stones to win.
    Win(u8),
    /// The third repetition of a position with the same player to decide.
    Repetition,
    /// `max-plies` moves were played.
    MoveCap,
    /// The player to place has no legal placement (impossible with the
    /// allowed options; kept so that a game can never be stuck).
    Blocked,
}

impl End {
    /// The reason, as the outcome states it.
    pub const fn reason(self) -> &'static str {
        match self {
            End::Win(_) => "stones taken",
            End::Repetition => "threefold repetition",
            End::MoveCap => "move cap",
            End::Blocked => "no legal placement",
        }
    }
}

/// Stones taken from one line: the line and which of its cells (bit `i` is the
/// `i`-th cell from [`Line::start`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Take {
    /// The line being scored.
    pub line: Line,
    /// The cells whose red stones are taken.
    pub stones: u16,
}

impl Take {
    /// The cells taken, as a bitboard.
    pub fn mask(self) -> u128 {
        if !self.line.on_board() || self.line.len > 9 {
            return 0;
        }
        let mut m = 0u128;
        for i in 0..self.line.len.min(9) {
            if self.stones & (1 << i) != 0 {
                m |= self.line.cell(i).bit();
            }
        }
        m
    }

    /// The number of stones taken.
    pub const fn count(self) -> u32 {
        self.stones.count_ones()
    }
}

/// One decision of one player.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// `d4`: a red stone from the reserve into the hole over this cell.
    Place(Cell),
    /// `b:d4`: one of the mover's stop stones into the hole over this cell.
    Stop(Cell),
    /// `d4-f6`: once the reserve is empty, the red stone in the hole over
    /// `from` moves to the empty hole over `to`.
    Relocate {
        /// The hole the stone leaves.
        from: Cell,
        /// The hole it goes to.
        to: Cell,
    },
    /// `x:d4,f4`: the stones taken from one line.
    Take(Take),
    /// `pass`: no stop stone in the interlude.
    Pass,
}

/// The mutable part of a position: small, `Copy`, restored whole by undo.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Core {
    /// Red stones (board cells).
    pub red: u128,
    /// Stop stones of each player (board cells).
    pub stop: [u128; 2],
    /// Cells of the lines still to score, by direction.
    pub pending: [u128; 4],
    /// Cells of the lines found after the last push (for display).
    pub made: u128,
    pub key: u64,
    pub ply: u32,
    /// The ply after the last move that cannot be undone by play (a stone
    /// from the reserve, a stop stone, a capture): no earlier position can
    /// come back.
    pub irrev: u32,
    pub pos: PlatePos,
    pub reserve: u8,
    pub taken: [u8; 2],
    pub stops: [u8; 2],
    pub phase: Phase,
    pub mover: u8,
    pub end: Option<End>,
}

/// What [`State::apply`] returns: the previous small state.
#[derive(Clone, Copy, Debug)]
pub struct AbraxasUndo(Core);

/// A position of Abraxas.
#[derive(Clone, PartialEq, Eq)]
pub struct AbraxasState {
    pub(crate) c: Core,
    pub(crate) rules: Rules,
    pub(crate) sheet: Arc<str>,
    /// The key after every ply (index = ply), for repetition.
    pub(crate) history: Vec<u64>,
}

const Z_RED: [u64; 64] = zobrist_table::<64>(0xAB_0001);
const Z_STOP: [u64; 64] = zobrist_table::<64>(0xAB_0002);
const Z_POS: [u64; 4] = zobrist_table::<4>(0xAB_0003);
const Z_TAKEN: [u64; 50] = zobrist_table::<50>(0xAB_0004);
const Z_STOPS: [u64; 8] = zobrist_table::<8>(0xAB_0005);
const Z_PHASE: [u64; 3] = zobrist_table::<3>(0xAB_0006);
const Z_MOVER: [u64; 2] = zobrist_table::<2>(0xAB_0007);
const Z_PEND: [u64; 360] = zobrist_table::<360>(0xAB_0008);

/// The plate hole over board bit `i` (which the plate covers).
#[inline]
fn hole(pos: PlatePos, i: u32) -> usize {
    let (dx, dy) = pos.offset();
    let (f, r) = (i % 10, i / 10);
    ((r - dy as u32) * 8 + (f - dx as u32)) as usize & 63
}

#[inline]
fn pend_key(dir: usize, mut m: u128) -> u64 {
    let mut k = 0;
    while m != 0 {
        k ^= Z_PEND[dir * 90 + m.trailing_zeros() as usize];
        m &= m - 1;
    }
    k
}

impl AbraxasState {
    pub(crate) fn new(rules: Rules, sheet: Arc<str>, pos: PlatePos) -> Self {
        let c = Core {
            red: 0,
            stop: [0; 2],
            pending: [0; 4],
            made: 0,
            key: 0,
            ply: 0,
            irrev: 0,
            pos,
            reserve: RED_STONES,
            taken: [0; 2],
            stops: [STOP_STONES; 2],
            phase: Phase::Place,
            mover: 0,
            end: None,
        };
        let mut s = AbraxasState { c, rules, sheet, history: Vec::new() };
        s.c.key = s.compute_key();
        s.history.reserve((rules.max_plies as usize + 1).min(1024));
        s.history.push(s.c.key);
        s
    }

    /// The key computed from scratch (the incremental key must equal it).
    pub fn compute_key(&self) -> u64 {
        let c = &self.c;
        let mut k = Z_POS[c.pos as usize];
        for cell in cells(c.red) {
            k ^= Z_RED[hole(c.pos, cell.index() as u32)];
        }
        for cell in cells(c.stop[0] | c.stop[1]) {
            k ^= Z_STOP[hole(c.pos, cell.index() as u32)];
        }
        for s in 0..2 {
            k ^= Z_TAKEN[s * 25 + c.taken[s] as usize] ^ Z_STOPS[s * 4 + c.stops[s] as usize];
        }
        k ^= Z_PHASE[c.phase.index()] ^ Z_MOVER[c.mover as usize];
        for d in 0..4 {
            k ^= pend_key(d, c.pending[d]);
        }
        k
    }

    // ----- accessors -----

    /// Where the plate stands.
    pub fn plate(&self) -> PlatePos {
        self.c.pos
    }

    /// The holes of the plate (the cells it covers now).
    pub fn holes(&self) -> Bitboard {
        self.c.pos.holes()
    }

    /// The sheet's dots.
    pub fn dots(&self) -> Bitboard {
        Bitboard(self.rules.dots)
    }

    /// The name of the sheet.
    pub fn sheet_name(&self) -> &str {
        &self.sheet
    }

    /// The red stones in the plate.
    pub fn red_stones(&self) -> Bitboard {
        Bitboard(self.c.red)
    }

    /// The stop stones placed by `seat`.
    pub fn stop_stones(&self, seat: Seat) -> Bitboard {
        Bitboard(self.c.stop[seat & 1])
    }

    /// Every cell covered by a stone.
    pub fn covered(&self) -> Bitboard {
        Bitboard(self.c.red | self.c.stop[0] | self.c.stop[1])
    }

    /// The empty holes.
    pub fn empty_holes(&self) -> Bitboard {
        Bitboard(self.c.pos.holes().0 & !self.covered().0)
    }

    /// The cells that show a red circle: a red stone, or a dot no stone covers.
    #[inline]
    pub fn red_circles(&self) -> Bitboard {
        Bitboard(red_of(self.c.red, self.c.stop[0] | self.c.stop[1], self.rules.dots))
    }

    /// The red stones left in the common reserve.
    pub fn reserve(&self) -> u8 {
        self.c.reserve
    }

    /// The red stones `seat` has taken.
    pub fn taken(&self, seat: Seat) -> u8 {
        self.c.taken[seat & 1]
    }

    /// The stop stones `seat` still has in hand.
    pub fn stops_in_hand(&self, seat: Seat) -> u8 {
        self.c.stops[seat & 1]
    }

    /// What the player to move is deciding (meaningless once the game is over).
    pub fn phase(&self) -> Phase {
        self.c.phase
    }

    /// The player who made the lines being scored or who plays again after
    /// the interlude, if any.
    pub fn scorer(&self) -> Option<Seat> {
        match self.c.phase {
            Phase::Place => None,
            Phase::Score => Some(self.c.mover as Seat),
            Phase::Interlude => Some(1 - self.c.mover as Seat),
        }
    }

    /// Why the game ended, if it did.
    pub fn end(&self) -> Option<End> {
        self.c.end
    }

    /// The stones needed to win.
    pub fn stones_to_win(&self) -> u8 {
        self.rules.stones_to_win
    }

    /// The reading of the removal restriction.
    pub fn removal(&self) -> Removal {
        self.rules.removal
    }

    /// The move cap.
    pub fn max_plies(&self) -> u32 {
        self.rules.max_plies
    }

    /// The cells of the lines found after the last push (they stay marked
    /// until the next push; empty if that push made none).
    pub fn lines_made(&self) -> Vec<Line> {
        let mut out = Vec::new();
        for dir in Dir::ALL {
            for_each_run(run4_cells(self.c.made, dir), dir, |l| out.push(l));
        }
        out
    }

    /// The cells of [`AbraxasState::lines_made`].
    pub fn made_cells(&self) -> Bitboard {
        Bitboard(self.c.made)
    }

    /// The lines still to score, in the order [`State::legal_moves`] offers them.
    pub fn pending_lines(&self) -> Vec<Line> {
        let mut out = Vec::new();
        for dir in Dir::ALL {
            for_each_run(self.c.pending[dir as usize], dir, |l| out.push(l));
        }
        out
    }

    /// The red stones among the cells of `line` (bit `i` = its `i`-th cell).
    #[inline]
    pub fn line_stones(&self, line: Line) -> u16 {
        if !line.on_board() || line.len > 9 {
            return 0;
        }
        let mut s = 0u16;
        for i in 0..line.len.min(9) {
            if self.c.red & line.cell(i).bit() != 0 {
                s |= 1 << i;
            }
        }
        s
    }

    // ----- the rules -----

    #[inline]
    fn set_turn(&mut self, phase: Phase, mover: u8) {
        let c = &mut self.c;
        c.key ^= Z_PHASE[c.phase.index()] ^ Z_MOVER[c.mover as usize];
        c.phase = phase;
        c.mover = mover;
        c.key ^= Z_PHASE[phase.index()] ^ Z_MOVER[mover as usize];
    }

    #[inline]
    fn set_pending(&mut self, dir: usize, m: u128) {
        self.c.key ^= pend_key(dir, self.c.pending[dir] ^ m);
        self.c.pending[dir] = m;
    }

    /// Push the plate, look for lines, and decide who plays next.
    fn push_and_score(&mut self) {
        let c = &mut self.c;
        let old = c.pos;
        let new = old.next();
        c.red = old.push_mask(c.red);
        c.stop = [old.push_mask(c.stop[0]), old.push_mask(c.stop[1])];
        c.key ^= Z_POS[old as usize] ^ Z_POS[new as usize];
        c.pos = new;
        let red = red_of(c.red, c.stop[0] | c.stop[1], self.rules.dots);
        let mut made = 0;
        for dir in Dir::ALL {
            let m = run4_cells(red, dir);
            made |= m;
            if m != 0 {
                self.set_pending(dir as usize, m);
            }
        }
        self.c.made = made;
        let mover = self.c.mover;
        if made != 0 {
            self.set_turn(Phase::Score, mover);
        } else {
            self.set_turn(Phase::Place, 1 - mover);
        }
    }

    fn apply_take(&mut self, t: Take) {
        let m = self.c.mover as usize;
        let taken = t.mask() & self.c.red;
        for cell in cells(taken) {
            self.c.key ^= Z_RED[hole(self.c.pos, cell.index() as u32)];
        }
        self.c.red &= !taken;
        let n = taken.count_ones() as u8;
        let old = self.c.taken[m];
        let new = (old + n).min(RED_STONES);
        self.c.key ^= Z_TAKEN[m * 25 + old as usize] ^ Z_TAKEN[m * 25 + new as usize];
        self.c.taken[m] = new;
        // The scored line is done; lines that lost a circle are broken.
        let d = t.line.dir as usize;
        self.set_pending(d, self.c.pending[d] & !t.line.mask());
        let red = self.red_circles().0;
        for dir in Dir::ALL {
            let p = self.c.pending[dir as usize];
            if p & !red != 0 {
                let mut keep = p;
                for_each_run(p, dir, |l| {
                    if l.mask() & !red != 0 {
                        keep &= !l.mask();
                    }
                });
                self.set_pending(dir as usize, keep);
            }
        }
        if new >= self.rules.stones_to_win {
            self.c.end = Some(End::Win(m as u8));
        } else if self.c.pending == [0; 4] {
            let opp = 1 - m as u8;
            if self.c.stops[opp as usize] > 0 {
                self.set_turn(Phase::Interlude, opp);
            } else {
                self.set_turn(Phase::Place, m as u8);
            }
        }
    }

    fn check_end(&mut self) {
        if self.c.end.is_some() {
            return;
        }
        let key = self.c.key;
        let window = &self.history[self.c.irrev as usize..];
        if self.rules.repetition_draw && window.len() >= 5 && window.iter().filter(|&&k| k == key).count() >= 3 {
            self.c.end = Some(End::Repetition);
        } else if self.c.ply >= self.rules.max_plies {
            self.c.end = Some(End::MoveCap);
        } else if self.c.phase == Phase::Place && !self.has_placement() {
            self.c.end = Some(End::Blocked);
        }
    }

    fn has_placement(&self) -> bool {
        let empty = self.empty_holes().0;
        empty != 0 && (self.c.reserve > 0 || self.c.red != 0 || self.c.stops[self.c.mover as usize] > 0)
    }

    /// The stone choices of one pending line, each passed to `f`.
    #[inline]
    fn for_each_take(&self, line: Line, mut f: impl FnMut(u16)) {
        let s = self.line_stones(line);
        let k = line.len.saturating_sub(3) as u32;
        if s.count_ones() <= k {
            f(s);
            return;
        }
        let removal = self.rules.removal;
        let mut any = false;
        for pass in 0..2 {
            let mut sub = 0u16;
            loop {
                sub = sub.wrapping_sub(s) & s;
                if sub == 0 {
                    break;
                }
                if sub.count_ones() == k && (pass == 1 || removal.allows(sub, line.len)) {
                    f(sub);
                    any = true;
                }
            }
            if any {
                return;
            }
        }
    }

    /// The pending line in direction `dir` through `cell`, if any.
    pub(crate) fn pending_line_through(&self, dir: Dir, cell: Cell) -> Option<Line> {
        let p = self.c.pending[dir as usize];
        if p & cell.bit() == 0 {
            return None;
        }
        let mut start = cell;
        while let Some(prev) = prev_cell(start, dir) {
            if p & prev.bit() == 0 {
                break;
            }
            start = prev;
        }
        let mut len = 1u8;
        let mut c = start;
        while let Some(n) = c.step(dir) {
            if p & n.bit() == 0 {
                break;
            }
            len += 1;
            c = n;
        }
        Some(Line { start, dir, len })
    }

    fn is_pending_line(&self, line: Line) -> bool {
        if !(4..=9).contains(&line.len) || !line.on_board() {
            return false;
        }
        let p = self.c.pending[line.dir as usize];
        let m = line.mask();
        let s = line.dir.step();
        p & m == m && p & ((m << s) | (m >> s)) & !m == 0
    }

    fn seat_name(seat: usize) -> String {
        format!("Player {}", seat + 1)
    }

    /// Why `mv` is not legal here, or `Ok`: the body of
    /// [`State::check`](plateau_core::State::check).
    fn legality(&self, mv: Move) -> Result<(), String> {
        if self.c.end.is_some() {
            return Err("the game is over".into());
        }
        let me = Self::seat_name(self.c.mover as usize);
        let holes = self.c.pos.holes().0;
        let covered = self.covered().0;
        let empty_hole = |c: Cell| -> Result<(), String> {
            if holes & c.bit() == 0 {
                Err(format!("{c} is not under the plate (it covers {})", self.c.pos.range()))
            } else if covered & c.bit() != 0 {
                Err(format!("the hole over {c} is not empty"))
            } else {
                Ok(())
            }
        };
        match (self.c.phase, mv) {
            (Phase::Score, Move::Take(t)) => self.check_take(t),
            (Phase::Score, _) => {
                Err(format!("{me} made a line and must first take stones from it (x:…, one line at a time)"))
            }
            (Phase::Interlude, Move::Pass) => Ok(()),
            (Phase::Interlude, Move::Stop(c)) => empty_hole(c),
            (Phase::Interlude, _) => Err(format!(
                "{} made a line: {me} may now place a stop stone (b:d4) or pass",
                Self::seat_name(1 - self.c.mover as usize)
            )),
            (Phase::Place, Move::Place(c)) => {
                if self.c.reserve == 0 {
                    return Err("the reserve is empty: move a red stone of the plate instead (like d4-f6)".into());
                }
                empty_hole(c)
            }
            (Phase::Place, Move::Stop(c)) => {
                if self.c.stops[self.c.mover as usize] == 0 {
                    return Err(format!("{me} has no stop stone left"));
                }
                empty_hole(c)
            }
            (Phase::Place, Move::Relocate { from, to }) => {
                if self.c.reserve > 0 {
                    return Err(format!(
                        "red stones are moved only once the reserve is empty ({} left): place one (like d4)",
                        self.c.reserve
                    ));
                }
                if self.c.red & from.bit() == 0 {
                    return Err(format!("there is no red stone over {from}"));
                }
                empty_hole(to)
            }
            (Phase::Place, Move::Take(_)) => Err("there is no line to score now".into()),
            (Phase::Place, Move::Pass) => {
                Err("pass is only for declining a stop stone after the opponent made a line".into())
            }
        }
    }

    fn check_take(&self, t: Take) -> Result<(), String> {
        let line = t.line;
        if !self.is_pending_line(line) {
            return Err(format!("there is no line to score from {line}"));
        }
        if t.stones == 0 || t.stones & !full(line.len) != 0 {
            return Err("take at least one stone of the line".into());
        }
        let s = self.line_stones(line);
        if t.stones & !s != 0 {
            let c = line.cell((t.stones & !s).trailing_zeros() as u8);
            return Err(format!("{c} holds no red stone (a dot cannot be taken)"));
        }
        let k = line.len as u32 - 3;
        if s.count_ones() <= k {
            if t.stones != s {
                return Err(format!(
                    "the line {line} has {} circles but only {} stones: take them all",
                    line.len,
                    s.count_ones()
                ));
            }
            return Ok(());
        }
        if t.count() != k {
            return Err(format!("the line {line} has {} circles: take exactly {k} of its stones", line.len));
        }
        let removal = self.rules.removal;
        if removal.allows(t.stones, line.len) {
            return Ok(());
        }
        let mut possible = false;
        self.for_each_take(line, |w| possible |= removal.allows(w, line.len));
        if !possible {
            return Ok(());
        }
        let names = |bits: u16| -> String {
            (0..line.len)
                .filter(|i| bits & (1 << i) != 0)
                .map(|i| line.cell(i).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        Err(match removal {
            Removal::RemainingNotAdjacent => format!(
                "the three circles left ({}) would stand side by side: take other stones",
                names(full(line.len) & !t.stones)
            ),
            Removal::RemovedNotAdjacent => {
                format!("the stones taken ({}) must not be neighbours: take other stones", names(t.stones))
            }
        })
    }

    fn takes_ambiguous(&self, t: Take) -> bool {
        if t.count() != 1 || t.line.len > 9 {
            return false;
        }
        let m = t.mask();
        self.c.pending.iter().filter(|&&p| p & m != 0).count() > 1
    }

    fn parse_take(&self, body: &str) -> Result<Move, MoveError> {
        let (list, dir) = match body.split_once('/') {
            Some((l, d)) => {
                let mut ch = d.trim().chars();
                let dir = match (ch.next(), ch.next()) {
                    (Some(c), None) => Dir::from_letter(c),
                    _ => None,
                };
                let dir = dir.ok_or_else(|| {
                    MoveError::syntax(format!(
                        "{d:?} is not a direction: h (row), v (column), d (diagonal a1–i9), a (diagonal i1–a9)"
                    ))
                })?;
                (l, Some(dir))
            }
            None => (body, None),
        };
        let mut cells_taken: Vec<Cell> = Vec::with_capacity(6);
        for part in list.split(',') {
            let c = Cell::parse(part).map_err(MoveError::syntax)?;
            if cells_taken.contains(&c) {
                return Err(MoveError::syntax(format!("{c} is named twice")));
            }
            cells_taken.push(c);
            if cells_taken.len() > 9 {
                return Err(MoveError::syntax("more cells than a line has"));
            }
        }
        if self.c.phase != Phase::Score || self.c.end.is_some() {
            return Err(MoveError::illegal("there is no line to score now"));
        }
        let mut found: Vec<Line> = Vec::new();
        for d in Dir::ALL {
            if dir.is_some_and(|x| x != d) {
                continue;
            }
            if let Some(line) = self.pending_line_through(d, cells_taken[0])
                && cells_taken.iter().all(|&c| line.mask() & c.bit() != 0)
            {
                found.push(line);
            }
        }
        let names: Vec<String> = cells_taken.iter().map(Cell::to_string).collect();
        let line = match found.as_slice() {
            [] if dir.is_some() => {
                // The suffix names a direction: say which lines hold the cells.
                let want = dir.expect("matched");
                let holders: Vec<Line> = Dir::ALL
                    .into_iter()
                    .filter_map(|d| self.pending_line_through(d, cells_taken[0]))
                    .filter(|l| cells_taken.iter().all(|&c| l.mask() & c.bit() != 0))
                    .collect();
                let what = names.join(", ");
                if holders.is_empty() {
                    let lines: Vec<String> = self.pending_lines().iter().map(Line::to_string).collect();
                    return Err(MoveError::illegal(format!(
                        "no line to score holds {what} (the lines to score: {})",
                        lines.join(", ")
                    )));
                }
                let on: Vec<String> = holders.iter().map(|l| format!("the {} {l}", dir_name(l.dir))).collect();
                let write: Vec<String> =
                    holders.iter().map(|l| format!("x:{}/{}", names.join(","), l.dir.letter())).collect();
                return Err(MoveError::illegal(format!(
                    "no {} line to score holds {what}: {} on {}; write {}",
                    dir_name(want),
                    if cells_taken.len() == 1 { "it lies" } else { "they lie" },
                    on.join(" and "),
                    write.join(" or ")
                )));
            }
            [] => {
                let lines: Vec<String> = self.pending_lines().iter().map(Line::to_string).collect();
                return Err(MoveError::illegal(format!(
                    "no line to score holds {} (the lines to score: {})",
                    names.join(", "),
                    lines.join(", ")
                )));
            }
            [l] => *l,
            _ => {
                let opts: Vec<String> = found.iter().map(|l| format!("x:{}/{}", names[0], l.dir.letter())).collect();
                return Err(MoveError::illegal(format!(
                    "{} lies on {} lines to score: say which, {}",
                    names[0],
                    found.len(),
                    opts.join(" or ")
                )));
            }
        };
        let mut stones = 0u16;
        for c in cells_taken {
            let i = line.position(c).expect("checked");
            stones |= 1 << i;
        }
        Ok(Move::Take(Take { line, stones }))
    }
}

/// A direction in words, with its letter: "row (h)".
fn dir_name(d: Dir) -> &'static str {
    match d {
        Dir::Row => "row (h)",
        Dir::Column => "column (v)",
        Dir::Diagonal => "diagonal a1–i9 (d)",
        Dir::AntiDiagonal => "diagonal i1–a9 (a)",
    }
}

#[inline]
pub(crate) const fn red_of(red: u128, stops: u128, dots: u128) -> u128 {
    red | (dots & !(red | stops) & BOARD.0)
}

fn prev_cell(c: Cell, dir: Dir) -> Option<Cell> {
    let i = c.index() as i32 - dir.step() as i32;
    if i < 0 {
        return None;
    }
    let p = Cell::from_index(i as u8)?;
    // The previous cell must be one step back (no wrap).
    (p.step(dir) == Some(c)).then_some(p)
}

impl State for AbraxasState {
    type Move = Move;
    type Undo = AbraxasUndo;
    type View = crate::render::AbraxasView;

    fn seats(&self) -> usize {
        2
    }

    fn to_move(&self) -> Turn {
        if self.c.end.is_some() { Turn::Over } else { Turn::Seat(self.c.mover as Seat) }
    }

    fn ply(&self) -> u32 {
        self.c.ply
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.c.end.is_some() {
            return;
        }
        let empty = self.empty_holes().0;
        match self.c.phase {
            Phase::Place => {
                if self.c.reserve > 0 {
                    out.extend(cells(empty).map(Move::Place));
                } else {
                    for from in cells(self.c.red) {
                        out.extend(cells(empty).map(|to| Move::Relocate { from, to }));
                    }
                }
                if self.c.stops[self.c.mover as usize] > 0 {
                    out.extend(cells(empty).map(Move::Stop));
                }
            }
            Phase::Score => {
                for dir in Dir::ALL {
                    for_each_run(self.c.pending[dir as usize], dir, |line| {
                        self.for_each_take(line, |stones| out.push(Move::Take(Take { line, stones })));
                    });
                }
            }
            Phase::Interlude => {
                out.push(Move::Pass);
                out.extend(cells(empty).map(Move::Stop));
            }
        }
    }

    fn count_moves(&self) -> usize {
        if self.c.end.is_some() {
            return 0;
        }
        let empty = self.empty_holes().0.count_ones() as usize;
        match self.c.phase {
            Phase::Place => {
                let reds = if self.c.reserve > 0 { empty } else { self.c.red.count_ones() as usize * empty };
                reds + if self.c.stops[self.c.mover as usize] > 0 { empty } else { 0 }
            }
            Phase::Score => {
                let mut n = 0;
                for dir in Dir::ALL {
                    for_each_run(self.c.pending[dir as usize], dir, |line| self.for_each_take(line, |_| n += 1));
                }
                n
            }
            Phase::Interlude => 1 + empty,
        }
    }

    fn check(&self, mv: Move) -> Result<(), MoveError> {
        self.legality(mv).map_err(MoveError::illegal)
    }

    fn apply(&mut self, mv: Move) -> AbraxasUndo {
        let undo = AbraxasUndo(self.c);
        let m = self.c.mover as usize;
        match mv {
            Move::Place(cell) => {
                self.c.red |= cell.bit();
                self.c.key ^= Z_RED[hole(self.c.pos, cell.index() as u32)];
                self.c.reserve -= 1;
                self.c.irrev = self.c.ply + 1;
                self.push_and_score();
            }
            Move::Relocate { from, to } => {
                self.c.red ^= from.bit() | to.bit();
                self.c.key ^= Z_RED[hole(self.c.pos, from.index() as u32)] ^ Z_RED[hole(self.c.pos, to.index() as u32)];
                self.push_and_score();
            }
            Move::Stop(cell) => {
                self.c.stop[m] |= cell.bit();
                self.c.key ^= Z_STOP[hole(self.c.pos, cell.index() as u32)];
                let old = self.c.stops[m];
                self.c.stops[m] = old - 1;
                self.c.key ^= Z_STOPS[m * 4 + old as usize] ^ Z_STOPS[m * 4 + old as usize - 1];
                self.c.irrev = self.c.ply + 1;
                if self.c.phase == Phase::Interlude {
                    self.set_turn(Phase::Place, 1 - m as u8);
                } else {
                    self.push_and_score();
                }
            }
            Move::Take(t) => {
                self.c.irrev = self.c.ply + 1;
                self.apply_take(t);
            }
            Move::Pass => self.set_turn(Phase::Place, 1 - m as u8),
        }
        self.c.ply += 1;
        self.history.push(self.c.key);
        self.check_end();
        debug_assert_eq!(self.c.key, self.compute_key(), "incremental key after {mv:?}");
        undo
    }

    fn undo(&mut self, _mv: Move, undo: AbraxasUndo) {
        self.c = undo.0;
        self.history.pop();
    }

    fn outcome(&self) -> Option<Outcome> {
        self.c.end.map(|e| match e {
            End::Win(s) => Outcome::win(2, s as Seat, e.reason()),
            _ => Outcome::draw(2, e.reason()),
        })
    }

    fn key(&self) -> u64 {
        self.c.key
    }

    fn format_move(&self, mv: Move) -> String {
        let mut s = String::with_capacity(8);
        self.write_move(mv, &mut s);
        s
    }

    fn write_move(&self, mv: Move, out: &mut String) {
        match mv {
            Move::Place(c) => c.push_to(out),
            Move::Stop(c) => {
                out.push_str("b:");
                c.push_to(out);
            }
            Move::Relocate { from, to } => {
                from.push_to(out);
                out.push('-');
                to.push_to(out);
            }
            Move::Pass => out.push_str("pass"),
            Move::Take(t) if !t.line.on_board() || t.line.len > 9 => out.push_str("x:?"),
            Move::Take(t) => {
                out.push_str("x:");
                let mut first = true;
                for i in 0..t.line.len.min(9) {
                    if t.stones & (1 << i) != 0 {
                        if !first {
                            out.push(',');
                        }
                        first = false;
                        t.line.cell(i).push_to(out);
                    }
                }
                if self.takes_ambiguous(t) {
                    out.push('/');
                    out.push(t.line.dir.letter());
                }
            }
        }
    }

    fn write_gesture_json(&self, mv: Move, out: &mut String) {
        // Cell names, `stop`, `take/…` and `pass` need no JSON escaping.
        let quoted = |out: &mut String, c: Cell| {
            out.push('"');
            c.push_to(out);
            out.push('"');
        };
        match mv {
            Move::Place(c) => {
                out.push_str("\"select\":[],\"targets\":[");
                quoted(out, c);
            }
            Move::Stop(c) => {
                out.push_str("\"select\":[\"stop\"],\"targets\":[");
                quoted(out, c);
            }
            Move::Relocate { from, to } => {
                out.push_str("\"select\":[");
                quoted(out, from);
                out.push_str("],\"targets\":[");
                quoted(out, to);
            }
            Move::Pass => out.push_str("\"select\":[],\"targets\":[\"pass\""),
            Move::Take(t) => {
                out.push_str("\"select\":[");
                for (i, c) in cells(t.mask()).enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    quoted(out, c);
                }
                out.push_str("],\"targets\":[\"take");
                if self.takes_ambiguous(t) {
                    out.push('/');
                    out.push(t.line.dir.letter());
                }
                out.push('"');
            }
        }
        out.push(']');
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim().to_ascii_lowercase();
        if t.is_empty() {
            return Err(MoveError::syntax("empty move"));
        }
        if t == "pass" {
            return Ok(Move::Pass);
        }
        if let Some(rest) = t.strip_prefix("x:") {
            return self.parse_take(rest);
        }
        if let Some(rest) = t.strip_prefix("b:") {
            return Cell::parse(rest).map(Move::Stop).map_err(MoveError::syntax);
        }
        if let Some((a, b)) = t.split_once('-') {
            let from = Cell::parse(a).map_err(MoveError::syntax)?;
            let to = Cell::parse(b).map_err(MoveError::syntax)?;
            if from == to {
                return Err(MoveError::syntax(format!("{t}: a stone must move to another hole")));
            }
            return Ok(Move::Relocate { from, to });
        }
        Cell::parse(&t).map(Move::Place).map_err(|e| {
            MoveError::syntax(format!(
                "{e}; the moves are d4 (red stone), b:d4 (stop stone), d4-f6 (move a red stone), \
                 x:d4,f4 (stones taken from a line), pass"
            ))
        })
    }

    fn view(&self, _reader: Reader) -> crate::render::AbraxasView {
        crate::render::view(self)
    }

    fn render(&self, _reader: Reader, color: bool) -> String {
        crate::render::render(self, color)
    }

    /// A red stone: click its hole's cell (`d4`). A stop stone: select
    /// `stop`, click the cell. A move within the plate: select the stone's
    /// cell, click the destination. A removal: select the cells of the stones
    /// taken, click `take` (`take/h`, `take/v`, `take/d`, `take/a` when a
    /// single stone lies on two lines to score: the line's direction, as in
    /// the notation). `pass`: click `pass`.
    fn gesture(&self, mv: Move) -> plateau_core::Gesture {
        let (select, target) = match mv {
            Move::Place(c) => (Vec::new(), c.to_string()),
            Move::Stop(c) => (vec!["stop".to_string()], c.to_string()),
            Move::Relocate { from, to } => (vec![from.to_string()], to.to_string()),
            Move::Pass => (Vec::new(), "pass".to_string()),
            Move::Take(t) => {
                let select = cells(t.mask()).map(|c| c.to_string()).collect();
                let target =
                    if self.takes_ambiguous(t) { format!("take/{}", t.line.dir.letter()) } else { "take".to_string() };
                (select, target)
            }
        };
        plateau_core::Gesture { select, targets: vec![target] }
    }

    fn result_tags(&self) -> Vec<(String, String)> {
        vec![("Taken".into(), format!("{}-{}", self.c.taken[0], self.c.taken[1]))]
    }
}

impl std::fmt::Debug for AbraxasState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "AbraxasState {{ ply {}, {:?} for player {}, end {:?}, key {:016x}, pending {:?}, made {:?}, irrev {}, sheet {} }}",
            self.c.ply,
            self.c.phase,
            self.c.mover + 1,
            self.c.end,
            self.c.key,
            self.pending_lines(),
            self.made_cells(),
            self.c.irrev,
            self.sheet
        )?;
        f.write_str(&self.to_text())
    }
}

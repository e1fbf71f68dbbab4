//! One position of Colorito: pieces on bitboards, move generation, apply and
//! undo, the end of the game.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use plateau_core::rng::zobrist_table;
use plateau_core::{MoveError, Outcome, Reader, State, Turn};

use crate::bits::{BOARD, Bits, NEIGHBOURS, jump_closure};
use crate::board::{CELLS, Cell, PIECES, Piece, SIZE, Side};
use crate::rules::{FAR, Rules};
use crate::score::{self, Score};

/// No piece on a cell / a piece off the board.
pub(crate) const NONE: u8 = u8::MAX;

const Z_PIECES: usize = PIECES * CELLS;
const Z_SIDE: usize = Z_PIECES;
const Z_STATUS: usize = Z_PIECES + 1;
const Z_LEN: usize = Z_STATUS + 16;
static ZOBRIST: [u64; Z_LEN] = zobrist_table::<Z_LEN>(0xC010_2170_1892);

#[inline(always)]
fn zp(piece: usize, cell: usize) -> u64 {
    ZOBRIST[piece * CELLS + cell]
}

/// A move: one piece from its cell to where its step, jumps or step-then-jumps
/// end (whatever the path), or a pass when no such move exists.
///
/// Notation: `c1-c3` (input: any case, hyphen optional), `pass`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Move {
    /// The piece on `from` ends its move on `to`.
    Go {
        /// Where the piece stands.
        from: Cell,
        /// Where its move ends.
        to: Cell,
    },
    /// No legal move: the turn passes.
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Go { from, to } => write!(f, "{from}-{to}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl Move {
    /// Parse a move: `c1-c3`, `C1C3`, `pass` (any case, surrounding blanks
    /// ignored).
    pub fn parse(text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        let bad = |why: String| {
            MoveError::syntax(format!("{t:?} is not a move: {why} (a move is written like c1-c3, or pass)"))
        };
        if t.is_empty() {
            return Err(bad("it is empty".into()));
        }
        if !t.is_ascii() {
            return Err(bad("it has characters other than letters, digits and -".into()));
        }
        let (a, b) = match t.split_once('-') {
            Some((a, b)) => (a, b),
            None => {
                // The second cell starts at the second letter.
                match t.char_indices().skip(1).find(|(_, c)| c.is_ascii_alphabetic()) {
                    Some((i, _)) => t.split_at(i),
                    None => return Err(bad("it does not name two cells".into())),
                }
            }
        };
        let from = Cell::parse(a).map_err(&bad)?;
        let to = Cell::parse(b).map_err(&bad)?;
        Ok(Move::Go { from, to })
    }
}

/// How a side whose targets are `targets` has finished, if it has, when the
/// cells holding their right piece are `held` and the opponent's pieces stand
/// on `opponent`: all pieces home, or the blocking rule (at least one target
/// holds its right piece and every other target is occupied by an opponent's
/// piece).
pub(crate) fn finish_of(targets: u128, held: u128, opponent: u128) -> Option<Finish> {
    let held = held & targets;
    if held.count_ones() == 20 {
        return Some(Finish::Complete);
    }
    if held != 0 && targets & !held & !opponent == 0 {
        return Some(Finish::Blocked);
    }
    None
}

/// How a player finished: all pieces home, or the blocking rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Finish {
    Complete,
    Blocked,
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Status {
    /// Normal play.
    Playing,
    /// The first player has finished (how): the second player has one more move.
    Extra(Finish),
    /// Over: this side won, by completing or by the blocking rule.
    Won(Side, Finish),
    /// Over: both finished in the same number of moves.
    DrawEqual,
    /// Over: `max-moves` reached.
    DrawLimit,
}

impl Status {
    fn code(self) -> usize {
        match self {
            Status::Playing => 0,
            Status::Extra(Finish::Complete) => 1,
            Status::Extra(Finish::Blocked) => 2,
            Status::Won(s, f) => 3 + 2 * s as usize + (f == Finish::Blocked) as usize,
            Status::DrawEqual => 7,
            Status::DrawLimit => 8,
        }
    }

    fn is_over(self) -> bool {
        !matches!(self, Status::Playing | Status::Extra(_))
    }
}

/// Where piece `p` standing on `from` may end a move when the pieces stand
/// on `occ` (`from` included) and those on `walls` cannot be jumped over:
/// steps onto welcoming empty neighbours, and every welcoming end of a chain
/// of jumps from `from` or from an empty neighbour (a welcoming one when
/// strict), found by one flood fill.
#[inline]
pub(crate) fn reach(r: &Rules, p: usize, from: usize, occ: u128, walls: u128) -> u128 {
    let me = 1u128 << from;
    let occ = occ & !me;
    let empty = BOARD & !occ;
    let welcome = r.welcome[p];
    let steps = NEIGHBOURS[from] & empty;
    let seeds = me | if r.strict { steps & welcome } else { steps };
    (steps | jump_closure(seeds, occ & !walls, empty)) & welcome & !me
}

/// What [`ColoritoState::apply`] returns to undo the move: the status before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColoritoUndo(Status);

/// A position of Colorito.
///
/// Compact: the pieces on two occupancy bitboards, a cell→piece and a
/// piece→cell table, the cells whose piece is home, the side to move, each
/// side's move count, the status, and the incremental Zobrist key. The
/// configured rules are shared (`Arc`).
#[derive(Clone)]
pub struct ColoritoState {
    pub(crate) rules: Arc<Rules>,
    pub(crate) occ: [u128; 2],
    pub(crate) at: [u8; CELLS],
    pub(crate) pos: [u8; PIECES],
    pub(crate) held: u128,
    pub(crate) side: Side,
    pub(crate) moves: [u16; 2],
    pub(crate) status: Status,
    pub(crate) hash: u64,
}

impl PartialEq for ColoritoState {
    fn eq(&self, o: &Self) -> bool {
        (Arc::ptr_eq(&self.rules, &o.rules) || *self.rules == *o.rules)
            && self.occ == o.occ
            && self.at == o.at
            && self.pos == o.pos
            && self.held == o.held
            && self.side == o.side
            && self.moves == o.moves
            && self.status == o.status
            && self.hash == o.hash
    }
}

impl fmt::Debug for ColoritoState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ColoritoState {{ status: {:?}, hash: {:016x}\n{}}}", self.status, self.hash, self.to_text())
    }
}

/// A problem in a position's text form.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PositionError(pub String);

impl ColoritoState {
    /// An empty board with Red and Blue to play (internal builder).
    pub(crate) fn empty(rules: Arc<Rules>) -> Self {
        let side = rules.first;
        let mut s = ColoritoState {
            rules,
            occ: [0; 2],
            at: [NONE; CELLS],
            pos: [NONE; PIECES],
            held: 0,
            side,
            moves: [0; 2],
            status: Status::Playing,
            hash: 0,
        };
        s.hash = s.compute_hash();
        s
    }

    /// The start position.
    pub(crate) fn start(rules: Arc<Rules>) -> Self {
        let mut s = ColoritoState::empty(rules);
        for p in 0..PIECES {
            let c = s.rules.start[p] as usize;
            s.put(p, c);
        }
        s.hash = s.compute_hash();
        s
    }

    /// Place a piece that is off the board (builders only).
    fn put(&mut self, p: usize, c: usize) {
        debug_assert!(self.at[c] == NONE && self.pos[p] == NONE);
        self.at[c] = p as u8;
        self.pos[p] = c as u8;
        self.occ[p / 20] |= 1u128 << c;
        if self.rules.home[p] & (1u128 << c) != 0 {
            self.held |= 1u128 << c;
        }
    }

    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = ZOBRIST[Z_STATUS + self.status.code()];
        if self.side == Side::Blue {
            h ^= ZOBRIST[Z_SIDE];
        }
        for (p, &c) in self.pos.iter().enumerate() {
            if c != NONE {
                h ^= zp(p, c as usize);
            }
        }
        h
    }

    /// The piece on a cell.
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        let p = self.at[cell.index()];
        if p == NONE { None } else { Piece::from_id(p as usize) }
    }

    /// Where a piece stands (`None` if it is not on the board, which only a
    /// study position built with [`crate::Colorito::position`] can have).
    pub fn cell_of(&self, piece: Piece) -> Option<Cell> {
        let c = self.pos[piece.id()];
        if c == NONE { None } else { Cell::from_index(c as usize) }
    }

    /// The side whose turn it is (also once the game is over: the side that
    /// would move next).
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The moves (turns, passes included) each side has made: `[Red, Blue]`.
    pub fn moves_made(&self) -> [u16; 2] {
        self.moves
    }

    /// Whether a piece is home: on its target (just-colours: on a cell of its
    /// colour in its target rank).
    pub fn is_home(&self, piece: Piece) -> bool {
        let c = self.pos[piece.id()];
        c != NONE && self.rules.home[piece.id()] & (1u128 << c) != 0
    }

    /// How many of a side's pieces are home.
    pub fn home_count(&self, side: Side) -> u32 {
        (self.held & self.rules.targets[side as usize]).count_ones()
    }

    /// A side's remaining race distance: the sum over its pieces of a lower
    /// bound on the moves each still needs to get home. Cheap (twenty table
    /// look-ups) and admissible: the side cannot complete its set in fewer
    /// moves, whatever the other pieces do. It is the bound the score search
    /// uses.
    ///
    /// A piece's bound is its distance home in a relaxed game where every other
    /// cell may be occupied or empty as the piece likes: 0 at home; 1 wherever
    /// one step, one chain of jumps or one step-then-jumps could end on home
    /// (jump chains are unbounded, so under the standard rules every piece not
    /// home counts exactly 1); more only under `strict`, where a piece in the
    /// wrong parity class must first step onto a welcoming cell of another
    /// class. `u32::MAX` if a piece is off the board or can never get home.
    pub fn race_distance(&self, side: Side) -> u32 {
        let mut sum = 0u32;
        for p in side as usize * 20..side as usize * 20 + 20 {
            let c = self.pos[p];
            if c == NONE {
                return u32::MAX;
            }
            let d = self.rules.dist[p][c as usize];
            if d == FAR {
                return u32::MAX;
            }
            sum += d as u32;
        }
        sum
    }

    /// Where the piece on `from` may end a move (empty when there is no piece):
    /// steps onto welcoming empty neighbours, and every welcoming end of a chain
    /// of jumps from `from` or from an empty neighbour (a welcoming one when
    /// strict), found by one flood fill.
    #[inline]
    pub(crate) fn destinations(&self, from: usize) -> u128 {
        self.destinations_past(from, 0)
    }

    /// [`Self::destinations`] as if the pieces on `walls` could not be jumped
    /// over (nor landed on): a subset of the real destinations.
    #[inline]
    pub(crate) fn destinations_past(&self, from: usize, walls: u128) -> u128 {
        let p = self.at[from];
        if p == NONE {
            return 0;
        }
        reach(&self.rules, p as usize, from, self.occ[0] | self.occ[1], walls)
    }

    /// The cells a piece may end its move on, as cells.
    pub fn targets_from(&self, from: Cell) -> Vec<Cell> {
        Bits(self.destinations(from.index())).filter_map(Cell::from_index).collect()
    }

    /// Push every move of `side`'s pieces (no pass).
    #[inline]
    pub(crate) fn gen_side(&self, side: Side, out: &mut Vec<Move>) {
        for from in Bits(self.occ[side as usize]) {
            let f = Cell::from_index(from).expect("on board");
            for to in Bits(self.destinations(from)) {
                out.push(Move::Go { from: f, to: Cell::from_index(to).expect("on board") });
            }
        }
    }

    fn count_side(&self, side: Side) -> usize {
        Bits(self.occ[side as usize]).map(|from| self.destinations(from).count_ones() as usize).sum()
    }

    fn has_move(&self, side: Side) -> bool {
        Bits(self.occ[side as usize]).any(|from| self.destinations(from) != 0)
    }

    /// Move the piece on `from` to `to`, updating everything but the turn.
    #[inline]
    pub(crate) fn move_piece(&mut self, from: usize, to: usize) {
        let p = self.at[from] as usize;
        debug_assert!(p != NONE as usize && self.at[to] == NONE);
        self.at[from] = NONE;
        self.at[to] = p as u8;
        self.pos[p] = to as u8;
        let (bf, bt) = (1u128 << from, 1u128 << to);
        self.occ[p / 20] ^= bf | bt;
        let home = self.rules.home[p];
        self.held &= !bf;
        self.held |= home & bt;
        self.hash ^= zp(p, from) ^ zp(p, to);
    }

    /// How `side` has finished, if it has: all pieces home, or the blocking
    /// rule (at least one target holds its right piece and every other target
    /// is occupied by an opponent's piece).
    pub(crate) fn finish(&self, side: Side) -> Option<Finish> {
        finish_of(self.rules.targets[side as usize], self.held, self.occ[side.other() as usize])
    }

    /// The status after `mover` has moved from status `prev`.
    fn judge(&self, mover: Side, prev: Status) -> Status {
        let first = self.rules.first;
        let second = first.other();
        match prev {
            Status::Extra(f) => {
                if self.finish(second).is_some() {
                    Status::DrawEqual
                } else {
                    Status::Won(first, f)
                }
            }
            Status::Playing if mover == second => match (self.finish(first), self.finish(second)) {
                (Some(_), Some(_)) => Status::DrawEqual,
                (Some(f), None) => Status::Won(first, f),
                (None, Some(f)) => Status::Won(second, f),
                (None, None) if self.moves[second as usize] >= self.rules.max_moves => Status::DrawLimit,
                (None, None) => Status::Playing,
            },
            Status::Playing => {
                if let Some(f) = self.finish(second) {
                    // The second player finished with fewer moves.
                    Status::Won(second, f)
                } else if let Some(f) = self.finish(first) {
                    Status::Extra(f)
                } else {
                    Status::Playing
                }
            }
            over => over,
        }
    }

    fn set_status(&mut self, s: Status) {
        if s != self.status {
            self.hash ^= ZOBRIST[Z_STATUS + self.status.code()] ^ ZOBRIST[Z_STATUS + s.code()];
            self.status = s;
        }
    }

    /// The winner, once the game is over (`None` for a draw or a game in
    /// progress).
    pub fn winner(&self) -> Option<Side> {
        match self.status {
            Status::Won(s, _) => Some(s),
            _ => None,
        }
    }

    /// Whether the first player has finished and the second is making its
    /// extra move.
    pub fn in_extra_move(&self) -> bool {
        matches!(self.status, Status::Extra(_))
    }

    /// The loser's score once the game is over and someone lost: the minimum
    /// number of moves the loser still needs to complete its set with the
    /// winner's pieces fixed (reported negated as the score), found by IDA*
    /// under the `score-nodes` budget. Expensive: call it on finished games
    /// only; results are cached.
    pub fn score(&self) -> Option<(Side, Score)> {
        let winner = self.winner()?;
        let loser = winner.other();
        Some((loser, score::cached(self, loser)))
    }

    /// The position in its text form (see [`crate::Colorito::position`]),
    /// which parses back to an equal position during normal play (the text
    /// does not record an extra move in progress or a finished game).
    pub fn to_text(&self) -> String {
        let mut out = format!("to-move: {}\nmoves: {} {}\n", self.side.lower(), self.moves[0], self.moves[1]);
        for rank in (0..SIZE).rev() {
            let cells: Vec<String> = (0..SIZE)
                .map(|f| match self.at[rank * SIZE + f] {
                    NONE => format!("{:<3}", "."),
                    p => format!("{:<3}", Piece::from_id(p as usize).expect("valid").to_string()),
                })
                .collect();
            out.push_str(cells.join(" ").trim_end());
            out.push('\n');
        }
        out
    }

    /// Build a position from its text form (see [`crate::Colorito::position`]).
    pub(crate) fn from_text(rules: Arc<Rules>, text: &str) -> Result<Self, PositionError> {
        let err = |line: usize, m: String| PositionError(format!("line {line}: {m}"));
        let mut s = ColoritoState::empty(rules);
        let mut to_move: Option<Side> = None;
        let mut moves: Option<[u16; 2]> = None;
        let mut rows: Vec<(usize, Vec<&str>)> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if let Some((k, v)) = line.split_once(':') {
                let v = v.trim();
                match k.trim().to_ascii_lowercase().as_str() {
                    "to-move" => {
                        to_move = Some(match v.to_ascii_lowercase().as_str() {
                            "red" => Side::Red,
                            "blue" => Side::Blue,
                            _ => return Err(err(i + 1, format!("to-move is red or blue, not {v:?}"))),
                        })
                    }
                    "moves" => {
                        let n: Vec<Result<u16, _>> = v.split_whitespace().map(str::parse::<u16>).collect();
                        match n.as_slice() {
                            [Ok(r), Ok(b)] => moves = Some([*r, *b]),
                            _ => return Err(err(i + 1, format!("moves needs Red's and Blue's counts, got {v:?}"))),
                        }
                    }
                    other => return Err(err(i + 1, format!("unknown field {other:?} (to-move, moves)"))),
                }
                continue;
            }
            rows.push((i + 1, line.split_whitespace().collect()));
        }
        if rows.len() != SIZE {
            return Err(PositionError(format!("a position has {SIZE} rank lines (rank 10 first), not {}", rows.len())));
        }
        for (k, (line, tokens)) in rows.iter().enumerate() {
            let rank = SIZE - 1 - k;
            if tokens.len() != SIZE {
                return Err(err(*line, format!("rank {} has {} cells, not {SIZE}", rank + 1, tokens.len())));
            }
            for (file, tok) in tokens.iter().enumerate() {
                let c = rank * SIZE + file;
                let cell = Cell::from_index(c).expect("on board");
                if *tok == "." {
                    continue;
                }
                let p = Piece::parse(tok).map_err(|e| err(*line, format!("cell {cell}: {e}")))?;
                if let Some(other) = s.cell_of(p) {
                    return Err(err(*line, format!("cell {cell}: piece {p} is already on {other}")));
                }
                s.put(p.id(), c);
            }
        }
        let first = s.rules.first;
        let side = to_move.unwrap_or(first);
        let m = moves.unwrap_or(if side == first {
            [0, 0]
        } else {
            [(first == Side::Red) as u16, (first == Side::Blue) as u16]
        });
        let lead = if side == first { 0 } else { 1 };
        if m[first as usize] != m[first.other() as usize] + lead {
            return Err(PositionError(format!(
                "with {} to move and {} moving first, {} must have made {} than {}",
                side.name(),
                first.name(),
                first.name(),
                if lead == 0 { "as many moves" } else { "one move more" },
                first.other().name()
            )));
        }
        if m[side as usize] >= s.rules.max_moves {
            return Err(PositionError(format!(
                "{} has already made {} moves, the max-moves of this game",
                side.name(),
                m[side as usize]
            )));
        }
        s.side = side;
        s.moves = m;
        s.hash = s.compute_hash();
        Ok(s)
    }

    fn outcome_of(&self) -> Option<Outcome> {
        match self.status {
            Status::Playing | Status::Extra(_) => None,
            Status::Won(s, Finish::Complete) => Some(Outcome::win(2, s as usize, "set completed")),
            Status::Won(s, Finish::Blocked) => Some(Outcome::win(2, s as usize, "blocking rule")),
            Status::DrawEqual => Some(Outcome::draw(2, "equal moves")),
            Status::DrawLimit => Some(Outcome::draw(2, "max-moves")),
        }
    }
}

impl State for ColoritoState {
    type Move = Move;
    type Undo = ColoritoUndo;
    type View = ColoritoView;

    fn seats(&self) -> usize {
        2
    }

    fn to_move(&self) -> Turn {
        if self.status.is_over() { Turn::Over } else { Turn::Seat(self.side as usize) }
    }

    fn ply(&self) -> u32 {
        self.moves[0] as u32 + self.moves[1] as u32
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.status.is_over() {
            return;
        }
        self.gen_side(self.side, out);
        if out.is_empty() {
            out.push(Move::Pass);
        }
    }

    fn count_moves(&self) -> usize {
        if self.status.is_over() {
            return 0;
        }
        self.count_side(self.side).max(1)
    }

    fn check(&self, mv: Move) -> Result<(), MoveError> {
        let refuse = |why: String| Err(MoveError::illegal(format!("{mv} is not legal: {why}")));
        if self.status.is_over() {
            return refuse("the game is over".into());
        }
        let side = self.side;
        match mv {
            Move::Pass => {
                if self.has_move(side) {
                    refuse(format!("{} may pass only when no move is possible", side.name()))
                } else {
                    Ok(())
                }
            }
            Move::Go { from, to } => {
                let Some(p) = self.piece_at(from) else {
                    return refuse(format!("there is no piece on {from}"));
                };
                if p.side() != side {
                    return refuse(format!(
                        "{p} on {from} is {}'s piece; it is {}'s turn",
                        p.side().name(),
                        side.name()
                    ));
                }
                if from == to {
                    return refuse("a move cannot end where it started".into());
                }
                if self.destinations(from.index()) & (1u128 << to.index()) != 0 {
                    return Ok(());
                }
                if let Some(q) = self.piece_at(to) {
                    return refuse(format!("{p} cannot end on {to}: {q} stands there"));
                }
                let welcome = self.rules.welcome[p.id()] & (1u128 << to.index()) != 0;
                if !welcome {
                    let b = &self.rules.board;
                    let why = if self.rules.just_colours {
                        format!("{to} is {} and only cells of its colour welcome it", b.colour(to).name())
                    } else {
                        format!(
                            "{to} is {}{} and welcomes only its colour or its number",
                            b.colour(to).name(),
                            b.number(to).map(|n| format!(" numbered {n}")).unwrap_or_default()
                        )
                    };
                    return refuse(format!("{p} cannot end on {to}: {why}"));
                }
                refuse(format!("{p} on {from} cannot reach {to} by a step, jumps, or a step then jumps"))
            }
        }
    }

    #[inline]
    fn apply(&mut self, mv: Move) -> ColoritoUndo {
        let prev = self.status;
        let mover = self.side;
        debug_assert!(!prev.is_over());
        if let Move::Go { from, to } = mv {
            self.move_piece(from.index(), to.index());
        }
        self.moves[mover as usize] += 1;
        self.side = mover.other();
        self.hash ^= ZOBRIST[Z_SIDE];
        let next = self.judge(mover, prev);
        self.set_status(next);
        ColoritoUndo(prev)
    }

    #[inline]
    fn undo(&mut self, mv: Move, undo: ColoritoUndo) {
        self.set_status(undo.0);
        self.side = self.side.other();
        self.hash ^= ZOBRIST[Z_SIDE];
        self.moves[self.side as usize] -= 1;
        if let Move::Go { from, to } = mv {
            self.move_piece(to.index(), from.index());
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome_of()
    }

    fn key(&self) -> u64 {
        self.hash
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    /// Select the piece on the start cell, then click the cell where the move
    /// ends; a pass is the target `pass`.
    fn gesture(&self, mv: Move) -> plateau_core::Gesture {
        match mv {
            Move::Go { from, to } => {
                plateau_core::Gesture { select: vec![from.to_string()], targets: vec![to.to_string()] }
            }
            Move::Pass => plateau_core::Gesture { select: Vec::new(), targets: vec!["pass".to_string()] },
        }
    }

    fn write_move(&self, mv: Move, out: &mut String) {
        match mv {
            Move::Go { from, to } => {
                from.push_to(out);
                out.push('-');
                to.push_to(out);
            }
            Move::Pass => out.push_str("pass"),
        }
    }

    fn write_gesture_json(&self, mv: Move, out: &mut String) {
        // Cell names and `pass` need no JSON escaping.
        match mv {
            Move::Go { from, to } => {
                out.push_str("\"select\":[\"");
                from.push_to(out);
                out.push_str("\"],\"targets\":[\"");
                to.push_to(out);
                out.push_str("\"]");
            }
            Move::Pass => out.push_str("\"select\":[],\"targets\":[\"pass\"]"),
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        Move::parse(text)
    }

    fn view(&self, _reader: Reader) -> ColoritoView {
        ColoritoView::of(self)
    }

    fn render(&self, _reader: Reader, color: bool) -> String {
        crate::render::render(self, color)
    }

    fn result_tags(&self) -> Vec<(String, String)> {
        let mut tags = vec![
            ("RedMoves".to_string(), self.moves[0].to_string()),
            ("BlueMoves".to_string(), self.moves[1].to_string()),
        ];
        if !self.status.is_over() {
            return tags;
        }
        tags.push(("Winner".into(), self.winner().map(Side::name).unwrap_or("none").into()));
        if let Some((loser, score)) = self.score() {
            tags.push(("Loser".into(), loser.name().into()));
            tags.push(("Score".into(), score.tag_value()));
            tags.push(("ScoreExact".into(), score.is_exact().to_string()));
        }
        tags
    }
}

/// Two numbers, one per side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PerSide<T> {
    /// Red's.
    pub red: T,
    /// Blue's.
    pub blue: T,
}

/// The loser's score, as shown in views.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ScoreView {
    /// The loser.
    pub side: Side,
    /// The score: minus the moves the loser still needs (exact), or minus a
    /// proven lower bound on them (not exact); `null` if the loser can never
    /// complete its set.
    pub value: Option<i32>,
    /// Whether `value` is exact (false: the search budget ran out and `value`
    /// is minus a proven lower bound).
    pub exact: bool,
    /// The same in words.
    pub text: String,
}

/// Everything about a position, for any reader (Colorito has no secrets).
/// Its fields are flattened into `plateau replay --json`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ColoritoView {
    /// The board layout, one string per rank, rank 10 first, in the board-file
    /// format (`R10 R9 …`).
    pub layout: Vec<String>,
    /// The pieces, by cell (`"c1": "R3"`).
    pub pieces: BTreeMap<String, String>,
    /// Whose turn it is (`null` once over).
    pub side_to_move: Option<Side>,
    /// Who moved first.
    pub first: Side,
    /// The moves each side has made (passes count).
    pub moves: PerSide<u16>,
    /// The moves per player after which the game is a draw.
    pub max_moves: u16,
    /// Whether the second player is making its extra move.
    pub extra_move: bool,
    /// The pieces each side has home.
    pub home: PerSide<u32>,
    /// Each side's race distance (see `ColoritoState::race_distance`; `null`
    /// if it cannot finish).
    pub race: PerSide<Option<u32>>,
    /// Once over: the winner (`null` for a draw).
    pub winner: Option<Side>,
    /// Once over: why (`set completed`, `blocking rule`, `equal moves`,
    /// `max-moves`).
    pub ending: Option<&'static str>,
    /// Once over with a loser: the loser's score.
    pub score: Option<ScoreView>,
}

impl ColoritoView {
    fn of(s: &ColoritoState) -> Self {
        let b = &s.rules.board;
        let layout = b.to_text().lines().map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect();
        let pieces = (0..CELLS)
            .filter(|&c| s.at[c] != NONE)
            .map(|c| {
                (
                    Cell::from_index(c).expect("on board").to_string(),
                    Piece::from_id(s.at[c] as usize).expect("valid").to_string(),
                )
            })
            .collect();
        let race = |side| Some(s.race_distance(side)).filter(|&d| d != u32::MAX);
        let over = s.status.is_over();
        ColoritoView {
            layout,
            pieces,
            side_to_move: (!over).then_some(s.side),
            first: s.rules.first,
            moves: PerSide { red: s.moves[0], blue: s.moves[1] },
            max_moves: s.rules.max_moves,
            extra_move: s.in_extra_move(),
            home: PerSide { red: s.home_count(Side::Red), blue: s.home_count(Side::Blue) },
            race: PerSide { red: race(Side::Red), blue: race(Side::Blue) },
            winner: s.winner(),
            ending: s.outcome_of().map(|o| o.reason),
            score: s.score().map(|(side, sc)| ScoreView {
                side,
                value: sc.value(),
                exact: sc.is_exact(),
                text: sc.describe(side),
            }),
        }
    }
}

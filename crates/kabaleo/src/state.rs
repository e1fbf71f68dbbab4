//! Positions, moves, and the rules of a turn.

use std::fmt;

use plateau_core::rng::zobrist_table;
use plateau_core::{MAX_SEATS, MoveError, Outcome, Reader, Seat, State, Turn};

use crate::colour::{COLOURS, Colour, ColourSet};
use crate::position::Position;
use crate::view::KabaleoView;

/// The most locations of any game (4 bases of each of the 6 colours).
pub const MAX_LOCATIONS: usize = 24;

/// The tallest pile the representation holds (3 bits a piece in a `u128`).
/// Real games never come near: there are at most 36 pieces in all.
pub const MAX_HEIGHT: usize = 42;

/// The most pieces of one game (6 of each of the 6 colours).
pub const MAX_PIECES: usize = 36;

/// The most plies the history of one state holds: one placement per piece,
/// with at most `seats − 1` passes before each.
pub(crate) const HISTORY_CAP: usize = MAX_PIECES * MAX_SEATS;

/// "No colour" (a masked objective) and "no location".
pub(crate) const NONE: u8 = u8::MAX;

/// A move: a piece of one colour placed on one location, or a pass.
///
/// Locations are indexed from 0 here; the notation numbers them from 1
/// (`R7` is a red piece on index 6). The move is one byte: colour in the high
/// bits, location in the low five, `0xFF` for a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// The pass (only legal with no legal placement).
    pub const PASS: Move = Move(u8::MAX);

    /// A piece of `colour` on the location of index `location` (0-based).
    ///
    /// # Panics
    /// If `location` is not below [`MAX_LOCATIONS`].
    pub fn place(colour: Colour, location: usize) -> Move {
        assert!(location < MAX_LOCATIONS, "location index {location} out of range");
        Move(((colour as u8) << 5) | location as u8)
    }

    /// Whether this is the pass.
    #[inline]
    pub fn is_pass(self) -> bool {
        self == Move::PASS
    }

    /// The colour placed (none for a pass).
    #[inline]
    pub fn colour(self) -> Option<Colour> {
        if self.is_pass() { None } else { Colour::from_index((self.0 >> 5) as usize) }
    }

    /// The location index (0-based; none for a pass).
    #[inline]
    pub fn location(self) -> Option<usize> {
        if self.is_pass() { None } else { Some((self.0 & 31) as usize) }
    }

    #[inline]
    fn c(self) -> usize {
        (self.0 >> 5) as usize
    }

    #[inline]
    fn l(self) -> usize {
        (self.0 & 31) as usize
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.colour(), self.location()) {
            (Some(c), Some(l)) => write!(f, "{}{}", c.letter(), l + 1),
            _ => f.write_str("pass"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// What [`State::apply`] returns so that [`State::undo`] restores the
/// position: the previous golden-rule location and whether the placement
/// cancelled (took the top piece off) or covered (was pushed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    last: u8,
    cancelled: bool,
}

// Zobrist keys: one per (location, level, colour) of a pile, per (seat,
// colour, count) of a stock, per seat to move, per golden-rule location, per
// (seat, objective) and per (location, base colour).
const Z_PILE: usize = 0;
const Z_STOCK: usize = Z_PILE + MAX_LOCATIONS * MAX_HEIGHT * COLOURS;
const STOCK_STRIDE: usize = 8;
const Z_TURN: usize = Z_STOCK + MAX_SEATS * COLOURS * STOCK_STRIDE;
const Z_LAST: usize = Z_TURN + MAX_SEATS;
const Z_OBJ: usize = Z_LAST + MAX_LOCATIONS;
const Z_BASE: usize = Z_OBJ + MAX_SEATS * COLOURS;
const Z_LEN: usize = Z_BASE + MAX_LOCATIONS * COLOURS;
static ZOBRIST: [u64; Z_LEN] = zobrist_table::<Z_LEN>(0x4B41_4241_4C45_4F21);

#[inline]
fn z_pile(l: usize, level: usize, c: usize) -> u64 {
    ZOBRIST[Z_PILE + (l * MAX_HEIGHT + level) * COLOURS + c]
}
#[inline]
fn z_stock(s: usize, c: usize, count: u8) -> u64 {
    ZOBRIST[Z_STOCK + (s * COLOURS + c) * STOCK_STRIDE + count as usize]
}
#[inline]
fn z_turn(s: usize) -> u64 {
    ZOBRIST[Z_TURN + s]
}
#[inline]
pub(crate) fn z_obj(s: usize, c: u8) -> u64 {
    if c == NONE { 0 } else { ZOBRIST[Z_OBJ + s * COLOURS + c as usize] }
}

/// A position of Kabaleo: the bases, the piles on them, the stocks, the
/// objectives, the seat to move, the golden rule's last location, and the
/// moves played since the start (or since the position was built).
///
/// A pile is a stack of 3-bit colours in a `u128` (top in the low bits) with
/// its height beside it: pushing and popping are shifts, so a cancel (pop) is
/// undone by pushing the placed colour back. Counts of the locations and the
/// covered locations showing each colour, and the Zobrist key, are kept up to
/// date by every move.
#[derive(Clone, PartialEq, Eq)]
pub struct KabaleoState {
    pub(crate) seats: u8,
    pub(crate) n_loc: u8,
    pub(crate) in_play: ColourSet,
    pub(crate) golden: bool,
    pub(crate) turn: u8,
    pub(crate) start_turn: u8,
    pub(crate) last: u8,
    pub(crate) remaining: u8,
    pub(crate) hist_len: u8,
    pub(crate) ply: u32,
    pub(crate) objectives: [u8; MAX_SEATS],
    pub(crate) bases: [u8; MAX_LOCATIONS],
    pub(crate) base_mask: [u32; COLOURS],
    pub(crate) bare: u32,
    pub(crate) heights: [u8; MAX_LOCATIONS],
    pub(crate) piles: [u128; MAX_LOCATIONS],
    pub(crate) stocks: [[u8; COLOURS]; MAX_SEATS],
    pub(crate) shows: [u8; COLOURS],
    pub(crate) covered: [u8; COLOURS],
    pub(crate) history: [Move; HISTORY_CAP],
    pub(crate) hash: u64,
}

impl KabaleoState {
    /// Build a state from a hand-made position (checked: see [`Position`]).
    /// Its history starts empty.
    pub fn from_position(position: &Position) -> Result<KabaleoState, crate::PositionError> {
        Self::from_parts(position)
    }

    pub(crate) fn from_parts(p: &Position) -> Result<KabaleoState, crate::PositionError> {
        p.check()?;
        let seats = p.stocks.len();
        let n_loc = p.bases.len();
        let mut st = KabaleoState {
            seats: seats as u8,
            n_loc: n_loc as u8,
            in_play: p.bases.iter().fold(ColourSet::EMPTY, |s, &c| s.with(c)),
            golden: p.golden_rule,
            turn: p.to_move as u8,
            start_turn: p.to_move as u8,
            last: p.last_location.map(|l| l as u8).unwrap_or(NONE),
            remaining: 0,
            hist_len: 0,
            ply: 0,
            objectives: [NONE; MAX_SEATS],
            bases: [0; MAX_LOCATIONS],
            base_mask: [0; COLOURS],
            bare: 0,
            heights: [0; MAX_LOCATIONS],
            piles: [0; MAX_LOCATIONS],
            stocks: [[0; COLOURS]; MAX_SEATS],
            shows: [0; COLOURS],
            covered: [0; COLOURS],
            history: [Move::PASS; HISTORY_CAP],
            hash: 0,
        };
        for (s, &c) in p.objectives.iter().enumerate() {
            st.objectives[s] = c as u8;
        }
        for (l, &b) in p.bases.iter().enumerate() {
            st.bases[l] = b as u8;
            st.base_mask[b.index()] |= 1 << l;
            let pile = p.piles.get(l).map(Vec::as_slice).unwrap_or(&[]);
            for &c in pile {
                st.piles[l] = (st.piles[l] << 3) | c as u128;
            }
            st.heights[l] = pile.len() as u8;
            if pile.is_empty() {
                st.bare |= 1 << l;
            }
            st.add_contrib(l);
        }
        for (s, stock) in p.stocks.iter().enumerate() {
            st.stocks[s] = *stock;
            st.remaining += stock.iter().sum::<u8>();
        }
        st.hash = st.compute_hash();
        Ok(st)
    }

    /// The position as parts (everything but the history), the inverse of
    /// [`KabaleoState::from_position`]. It holds every objective: it is the
    /// referee's, never for a player.
    pub fn position(&self) -> Position {
        Position {
            golden_rule: self.golden,
            bases: (0..self.locations()).map(|l| self.base(l)).collect(),
            piles: (0..self.locations()).map(|l| self.pile(l)).collect(),
            stocks: self.stocks[..self.seats as usize].to_vec(),
            objectives: (0..self.seats as usize)
                .filter_map(|s| Colour::from_index(self.objectives[s] as usize))
                .collect(),
            to_move: self.turn as Seat,
            last_location: self.last_location(),
        }
    }

    /// The Zobrist key computed from scratch (the incremental one must equal it).
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = z_turn(self.turn as usize);
        if self.golden && self.last != NONE {
            h ^= ZOBRIST[Z_LAST + self.last as usize];
        }
        for l in 0..self.n_loc as usize {
            h ^= ZOBRIST[Z_BASE + l * COLOURS + self.bases[l] as usize];
            let hgt = self.heights[l] as usize;
            for level in 0..hgt {
                let c = (self.piles[l] >> (3 * (hgt - 1 - level))) & 7;
                h ^= z_pile(l, level, c as usize);
            }
        }
        for s in 0..self.seats as usize {
            for c in 0..COLOURS {
                h ^= z_stock(s, c, self.stocks[s][c]);
            }
            h ^= z_obj(s, self.objectives[s]);
        }
        h
    }

    #[inline]
    fn z_last(&self, l: u8) -> u64 {
        if self.golden && l != NONE { ZOBRIST[Z_LAST + l as usize] } else { 0 }
    }

    /// The colour index a location shows.
    #[inline]
    fn shows_at(&self, l: usize) -> usize {
        if self.heights[l] == 0 { self.bases[l] as usize } else { (self.piles[l] & 7) as usize }
    }

    #[inline]
    fn add_contrib(&mut self, l: usize) {
        let c = self.shows_at(l);
        self.shows[c] += 1;
        if self.heights[l] > 0 {
            self.covered[c] += 1;
        }
    }

    #[inline]
    fn remove_contrib(&mut self, l: usize) {
        let c = self.shows_at(l);
        self.shows[c] -= 1;
        if self.heights[l] > 0 {
            self.covered[c] -= 1;
        }
    }

    #[inline]
    fn push(&mut self, l: usize, c: usize) {
        let h = self.heights[l] as usize;
        debug_assert!(h < MAX_HEIGHT);
        self.piles[l] = (self.piles[l] << 3) | c as u128;
        self.heights[l] = h as u8 + 1;
        self.bare &= !(1 << l);
        self.hash ^= z_pile(l, h, c);
    }

    #[inline]
    fn pop(&mut self, l: usize) {
        let h = self.heights[l] as usize;
        debug_assert!(h > 0);
        let c = (self.piles[l] & 7) as usize;
        self.piles[l] >>= 3;
        self.heights[l] = h as u8 - 1;
        if h == 1 {
            self.bare |= 1 << l;
        }
        self.hash ^= z_pile(l, h - 1, c);
    }

    /// The locations a piece of colour index `c` may go on now (a bit per
    /// location), for the seat to move; the stock is not checked.
    #[inline]
    fn allowed_mask(&self, c: usize) -> u32 {
        let all = if self.n_loc as usize >= 32 { u32::MAX } else { (1u32 << self.n_loc) - 1 };
        let mut m = all & !(self.bare & self.base_mask[c]);
        if self.golden && self.last != NONE {
            m &= !(1 << self.last);
        }
        m
    }

    /// Whether the seat to move has at least one legal placement.
    fn can_place(&self) -> bool {
        let stock = &self.stocks[self.turn as usize];
        (0..COLOURS).any(|c| stock[c] > 0 && self.allowed_mask(c) != 0)
    }

    fn next_seat(&self, s: u8) -> u8 {
        if s + 1 == self.seats { 0 } else { s + 1 }
    }

    // ----- Public accessors -------------------------------------------------

    /// The number of locations.
    pub fn locations(&self) -> usize {
        self.n_loc as usize
    }

    /// The colours in play.
    pub fn colours(&self) -> ColourSet {
        self.in_play
    }

    /// Whether the golden rule is on.
    pub fn golden_rule(&self) -> bool {
        self.golden
    }

    /// The colour of the base of location `l` (0-based).
    pub fn base(&self, l: usize) -> Colour {
        Colour::ALL[self.bases[l] as usize]
    }

    /// The number of pieces on location `l`.
    pub fn height(&self, l: usize) -> usize {
        self.heights[l] as usize
    }

    /// The top piece of location `l`, if it is covered.
    pub fn top(&self, l: usize) -> Option<Colour> {
        if self.heights[l] == 0 { None } else { Colour::from_index((self.piles[l] & 7) as usize) }
    }

    /// The colour location `l` shows: its top piece, or its bare base.
    pub fn shows(&self, l: usize) -> Colour {
        Colour::ALL[self.shows_at(l)]
    }

    /// The pieces of location `l`, bottom to top.
    pub fn pile(&self, l: usize) -> Vec<Colour> {
        let h = self.heights[l] as usize;
        (0..h).map(|level| Colour::ALL[((self.piles[l] >> (3 * (h - 1 - level))) & 7) as usize]).collect()
    }

    /// The pieces of `colour` left in `seat`'s stock.
    pub fn stock(&self, seat: Seat, colour: Colour) -> usize {
        self.stocks[seat][colour.index()] as usize
    }

    /// The pieces left in `seat`'s stock.
    pub fn stock_total(&self, seat: Seat) -> usize {
        self.stocks[seat].iter().map(|&n| n as usize).sum()
    }

    /// The pieces left in all stocks (the game ends at 0).
    pub fn pieces_left(&self) -> usize {
        self.remaining as usize
    }

    /// The location (0-based) of the last placement, if any: the golden rule
    /// forbids it to the next player. A pass does not change it.
    pub fn last_location(&self) -> Option<usize> {
        if self.last == NONE { None } else { Some(self.last as usize) }
    }

    /// The location the golden rule forbids to the seat to move, if any
    /// (none once the game is over).
    pub fn forbidden_location(&self) -> Option<usize> {
        if self.golden && self.remaining > 0 { self.last_location() } else { None }
    }

    /// The objective of `seat` in this state. This is the referee's
    /// knowledge (or a sampled guess, in a state from [`crate::Knowledge`]):
    /// never show it to another player before the end.
    pub fn objective(&self, seat: Seat) -> Colour {
        Colour::ALL[self.objectives[seat] as usize]
    }

    /// The seat that moved first in this state's history.
    pub fn first_mover(&self) -> Seat {
        self.start_turn as Seat
    }

    /// The moves played since the start (or since the position was built),
    /// each with the seat that played it. Public: every player saw them.
    pub fn history(&self) -> impl Iterator<Item = (Seat, Move)> + '_ {
        let n = self.seats as usize;
        let first = self.start_turn as usize;
        self.history[..self.hist_len as usize].iter().enumerate().map(move |(i, &m)| ((first + i) % n, m))
    }

    /// The number of locations showing `colour` (cheap: kept up to date).
    #[inline]
    pub fn locations_showing(&self, colour: Colour) -> usize {
        self.shows[colour.index()] as usize
    }

    /// The number of covered locations (piles of at least one piece) showing
    /// `colour` (cheap: kept up to date).
    #[inline]
    pub fn covered_showing(&self, colour: Colour) -> usize {
        self.covered[colour.index()] as usize
    }

    /// The evaluation helper: `(locations showing colour, covered locations
    /// showing colour)`, the first two criteria of the final scoring, in
    /// constant time. A search's static evaluation for a player with a
    /// (believed) objective can start from it; neither count reveals anything,
    /// the board being public.
    #[inline]
    pub fn eval_counts(&self, colour: Colour) -> (usize, usize) {
        (self.locations_showing(colour), self.covered_showing(colour))
    }

    /// The height of the highest pile topped by `colour` (0 if none): the
    /// last tie-break. Looks at every location.
    pub fn highest_pile(&self, colour: Colour) -> usize {
        let c = colour.index() as u128;
        (0..self.n_loc as usize)
            .filter(|&l| self.heights[l] > 0 && self.piles[l] & 7 == c)
            .map(|l| self.heights[l] as usize)
            .max()
            .unwrap_or(0)
    }
}

impl State for KabaleoState {
    type Move = Move;
    type Undo = Undo;
    type View = KabaleoView;

    fn seats(&self) -> usize {
        self.seats as usize
    }

    #[inline]
    fn to_move(&self) -> Turn {
        if self.remaining == 0 { Turn::Over } else { Turn::Seat(self.turn as Seat) }
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.remaining == 0 {
            return;
        }
        let stock = &self.stocks[self.turn as usize];
        for (c, &colour) in Colour::ALL.iter().enumerate() {
            if stock[c] == 0 {
                continue;
            }
            let mut m = self.allowed_mask(c);
            while m != 0 {
                out.push(Move::place(colour, m.trailing_zeros() as usize));
                m &= m - 1;
            }
        }
        if out.is_empty() {
            out.push(Move::PASS);
        }
    }

    fn count_moves(&self) -> usize {
        if self.remaining == 0 {
            return 0;
        }
        let stock = &self.stocks[self.turn as usize];
        let n: usize = (0..COLOURS).filter(|&c| stock[c] > 0).map(|c| self.allowed_mask(c).count_ones() as usize).sum();
        n.max(1)
    }

    /// The reasons are about public facts only.
    fn check(&self, mv: Move) -> Result<(), MoveError> {
        let refuse = |why: String| Err(MoveError::illegal(why));
        if self.remaining == 0 {
            return refuse("the game is over".to_string());
        }
        let s = self.turn as usize;
        let who = crate::game::seat_name(s);
        if mv.is_pass() {
            return if self.can_place() {
                refuse(format!("{who} may not pass: a pass is only allowed with no legal placement"))
            } else {
                Ok(())
            };
        }
        let (c, l) = (mv.c(), mv.l());
        let colour = Colour::ALL[c];
        if l >= self.n_loc as usize {
            return refuse(format!("there is no location {}; the locations are 1 to {}", l + 1, self.n_loc));
        }
        if !self.in_play.contains(colour) {
            return refuse(format!("{} ({}) is not in play", colour.name(), colour.letter()));
        }
        if self.stocks[s][c] == 0 {
            return refuse(format!("{who} has no {} piece left", colour.name()));
        }
        if self.heights[l] == 0 && self.bases[l] as usize == c {
            return refuse(format!(
                "location {} is a bare {} base: a {} piece may not be placed on it",
                l + 1,
                colour.name(),
                colour.name()
            ));
        }
        if self.golden && self.last as usize == l {
            return refuse(format!("the golden rule forbids location {}, where the previous piece was placed", l + 1));
        }
        Ok(())
    }

    fn apply(&mut self, mv: Move) -> Undo {
        debug_assert!(self.is_legal(mv), "illegal move {mv} applied");
        let s = self.turn as usize;
        let mut undo = Undo { last: self.last, cancelled: false };
        if !mv.is_pass() {
            let (c, l) = (mv.c(), mv.l());
            self.remove_contrib(l);
            if self.heights[l] > 0 && (self.piles[l] & 7) as usize == c {
                self.pop(l);
                undo.cancelled = true;
            } else {
                self.push(l, c);
            }
            self.add_contrib(l);
            let k = self.stocks[s][c];
            self.hash ^= z_stock(s, c, k) ^ z_stock(s, c, k - 1);
            self.stocks[s][c] = k - 1;
            self.remaining -= 1;
            self.hash ^= self.z_last(self.last) ^ self.z_last(l as u8);
            self.last = l as u8;
        }
        let next = self.next_seat(self.turn);
        self.hash ^= z_turn(s) ^ z_turn(next as usize);
        self.turn = next;
        self.history[self.hist_len as usize] = mv;
        self.hist_len += 1;
        self.ply += 1;
        undo
    }

    fn undo(&mut self, mv: Move, undo: Undo) {
        self.ply -= 1;
        self.hist_len -= 1;
        self.history[self.hist_len as usize] = Move::PASS;
        let prev = if self.turn == 0 { self.seats - 1 } else { self.turn - 1 };
        self.hash ^= z_turn(self.turn as usize) ^ z_turn(prev as usize);
        self.turn = prev;
        if !mv.is_pass() {
            let s = prev as usize;
            let (c, l) = (mv.c(), mv.l());
            self.hash ^= self.z_last(self.last) ^ self.z_last(undo.last);
            self.last = undo.last;
            let k = self.stocks[s][c];
            self.hash ^= z_stock(s, c, k) ^ z_stock(s, c, k + 1);
            self.stocks[s][c] = k + 1;
            self.remaining += 1;
            self.remove_contrib(l);
            if undo.cancelled {
                self.push(l, c);
            } else {
                self.pop(l);
            }
            self.add_contrib(l);
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.remaining != 0 {
            return None;
        }
        let ranks = self.ranks();
        Some(Outcome::ranked(&ranks[..self.seats as usize], "all pieces placed"))
    }

    fn key(&self) -> u64 {
        self.hash
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    /// Select a colour of one's stock (`stock:R`), then click a location
    /// (`loc:7`); a pass is the target `pass`.
    fn gesture(&self, mv: Move) -> plateau_core::Gesture {
        match (mv.colour(), mv.location()) {
            (Some(c), Some(l)) => plateau_core::Gesture {
                select: vec![format!("stock:{}", c.letter())],
                targets: vec![format!("loc:{}", l + 1)],
            },
            _ => plateau_core::Gesture { select: Vec::new(), targets: vec!["pass".to_string()] },
        }
    }

    fn write_move(&self, mv: Move, out: &mut String) {
        match (mv.colour(), mv.location()) {
            (Some(c), Some(l)) => {
                out.push(c.letter());
                plateau_core::json::push_u64(out, l as u64 + 1);
            }
            _ => out.push_str("pass"),
        }
    }

    fn write_gesture_json(&self, mv: Move, out: &mut String) {
        // `stock:R`, `loc:7` and `pass` need no JSON escaping.
        match (mv.colour(), mv.location()) {
            (Some(c), Some(l)) => {
                out.push_str("\"select\":[\"stock:");
                out.push(c.letter());
                out.push_str("\"],\"targets\":[\"loc:");
                plateau_core::json::push_u64(out, l as u64 + 1);
                out.push_str("\"]");
            }
            _ => out.push_str("\"select\":[],\"targets\":[\"pass\"]"),
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        let hint = "a move is a colour letter and a location number, like R7, or pass";
        let Some(first) = t.chars().next() else {
            return Err(MoveError::syntax(format!("empty move: {hint}")));
        };
        if t.eq_ignore_ascii_case("pass") {
            return Ok(Move::PASS);
        }
        let colour = Colour::from_letter(first)
            .ok_or_else(|| MoveError::syntax(format!("{first:?} is not a colour letter (R O Y G B V): {hint}")))?;
        if !self.in_play.contains(colour) {
            return Err(MoveError::syntax(format!(
                "{} ({}) is not in play; the colours in play are {}",
                colour.name(),
                colour.letter(),
                self.in_play
            )));
        }
        let rest = &t[first.len_utf8()..];
        if rest.is_empty() {
            return Err(MoveError::syntax(format!("{t:?} has no location number: {hint}")));
        }
        if !rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(MoveError::syntax(format!("{rest:?} is not a location number: {hint}")));
        }
        let n = rest.trim_start_matches('0');
        let number: usize = if n.len() > 3 { usize::MAX } else { n.parse().unwrap_or(0) };
        if number == 0 || number > self.n_loc as usize {
            return Err(MoveError::syntax(format!(
                "there is no location {rest}; the locations are 1 to {}",
                self.n_loc
            )));
        }
        Ok(Move::place(colour, number - 1))
    }

    fn view(&self, reader: Reader) -> KabaleoView {
        KabaleoView::new(self, reader)
    }

    fn render(&self, reader: Reader, color: bool) -> String {
        crate::view::render(self, reader, color)
    }

    fn result_tags(&self) -> Vec<(String, String)> {
        crate::score::result_tags(self)
    }
}

impl fmt::Debug for KabaleoState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut locs = String::new();
        for l in 0..self.n_loc as usize {
            if l > 0 {
                locs.push(' ');
            }
            locs.push_str(&format!("{}:{}", l + 1, self.base(l)));
            if self.heights[l] > 0 {
                locs.push('[');
                locs.extend(self.pile(l).iter().map(|c| c.letter()));
                locs.push(']');
            }
        }
        let stocks: Vec<String> = (0..self.seats as usize)
            .map(|s| self.in_play.iter().map(|c| format!("{}{}", c.letter(), self.stock(s, c))).collect::<String>())
            .collect();
        let objectives: String = self.objectives[..self.seats as usize]
            .iter()
            .map(|&c| Colour::from_index(c as usize).map(|c| c.letter()).unwrap_or('?'))
            .collect();
        let history: Vec<String> = self.history().map(|(_, m)| m.to_string()).collect();
        f.debug_struct("KabaleoState")
            .field("seats", &self.seats)
            .field("turn", &self.turn)
            .field("ply", &self.ply)
            .field("golden", &self.golden)
            .field("last", &self.last_location().map(|l| l + 1))
            .field("locations", &locs)
            .field("stocks", &stocks)
            .field("objectives", &objectives)
            .field("history", &history.join(" "))
            .field("hash", &format_args!("{:016x}", self.hash))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Deal, Kabaleo};
    use plateau_core::Game;
    use plateau_core::rand::{RngExt, SeedableRng};

    /// The incremental key and counts equal those computed from scratch,
    /// after every apply and every undo, over random games of every size.
    #[test]
    fn incremental_hash_and_counts() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        for players in 2..=4 {
            for golden in [false, true] {
                let game = Kabaleo::new(players, Deal::Random, None, golden).unwrap();
                for seed in 0..20 {
                    let mut st = game.start(seed);
                    let mut stack = Vec::new();
                    let mut moves = Vec::new();
                    loop {
                        check(&st);
                        st.legal_moves(&mut moves);
                        if moves.is_empty() {
                            break;
                        }
                        let mv = moves[rng.random_range(0..moves.len())];
                        stack.push((mv, st.clone(), st.apply(mv)));
                    }
                    while let Some((mv, before, u)) = stack.pop() {
                        st.undo(mv, u);
                        check(&st);
                        assert_eq!(st, before);
                    }
                }
            }
        }
    }

    fn check(st: &KabaleoState) {
        assert_eq!(st.hash, st.compute_hash(), "{st:?}");
        let fresh = KabaleoState::from_parts(&st.position()).unwrap();
        assert_eq!(fresh.shows, st.shows);
        assert_eq!(fresh.covered, st.covered);
        assert_eq!(fresh.bare, st.bare);
        assert_eq!(fresh.remaining, st.remaining);
    }

    #[test]
    fn moves_are_one_byte() {
        assert_eq!(std::mem::size_of::<Move>(), 1);
        let m = Move::place(Colour::Violet, 23);
        assert_eq!((m.colour(), m.location()), (Some(Colour::Violet), Some(23)));
        assert_eq!(Move::PASS.colour(), None);
        assert!(std::mem::size_of::<KabaleoState>() <= 1024, "{}", std::mem::size_of::<KabaleoState>());
    }
}

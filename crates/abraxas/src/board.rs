//! The geometry of Abraxas: cells, bitboards, the four plate positions,
//! directions and lines.
//!
//! A [`Bitboard`] holds one bit per board cell in a `u128`, ten bits per rank:
//! cell (file `f`, rank `r`), both counted from 0, is bit `10·r + f`. The tenth
//! column (bit `10·r + 9`) is a guard that is always empty, so that a shift by
//! one step in a direction ([`Dir::step`]) never wraps from one edge of the
//! board to the other. The 81 cells use bits 0 to 88.

use std::fmt;

/// The number of files and of ranks of the board.
pub const SIZE: u8 = 9;
/// The number of holes on a side of the plate.
pub const PLATE_SIZE: u8 = 8;
/// Bits per rank in a [`Bitboard`] (nine cells and a guard bit).
pub const STRIDE: u8 = 10;

/// A cell of the 9×9 board, `a1` … `i9`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell on `file` (0 = `a`) and `rank` (0 = rank 1), if on the board.
    pub const fn new(file: u8, rank: u8) -> Option<Cell> {
        if file < SIZE && rank < SIZE { Some(Cell(rank * STRIDE + file)) } else { None }
    }

    /// The cell whose bit is `index` in a [`Bitboard`], if it is a board cell.
    pub const fn from_index(index: u8) -> Option<Cell> {
        if index < SIZE * STRIDE && index % STRIDE < SIZE { Some(Cell(index)) } else { None }
    }

    /// Its file, 0 (`a`) to 8 (`i`).
    pub const fn file(self) -> u8 {
        self.0 % STRIDE
    }

    /// Its rank, 0 (rank 1) to 8 (rank 9).
    pub const fn rank(self) -> u8 {
        self.0 / STRIDE
    }

    /// Its bit index in a [`Bitboard`].
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The bitboard of this cell alone.
    pub const fn bit(self) -> u128 {
        1u128 << self.0
    }

    /// The next cell in direction `dir`, if on the board.
    pub const fn step(self, dir: Dir) -> Option<Cell> {
        let f = self.file() as i8 + dir.df();
        let r = self.rank() as i8 + dir.dr();
        if f < 0 || r < 0 { None } else { Cell::new(f as u8, r as u8) }
    }

    /// Parse a cell name such as `d4` (case-insensitive).
    pub fn parse(text: &str) -> Result<Cell, String> {
        let t = text.trim();
        let mut chars = t.chars();
        let (Some(f), Some(r), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(format!("{t:?} is not a cell: a cell is a file a–i and a rank 1–9, like d4"));
        };
        let f = f.to_ascii_lowercase();
        if !('a'..='i').contains(&f) {
            return Err(format!("{t:?} is not a cell: the files are a to i"));
        }
        if !('1'..='9').contains(&r) {
            return Err(format!("{t:?} is not a cell: the ranks are 1 to 9"));
        }
        Ok(Cell((r as u8 - b'1') * STRIDE + (f as u8 - b'a')))
    }
}

impl Cell {
    /// Write the cell's name (`d4`) at the end of `out`, as [`Display`](fmt::Display)
    /// does, without a formatter (the server writes every legal move).
    pub fn push_to(self, out: &mut String) {
        out.push((b'a' + self.file()) as char);
        out.push((b'1' + self.rank()) as char);
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A set of board cells (see the [module documentation](self) for the layout).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

/// Every cell of the board.
pub const BOARD: Bitboard = Bitboard(board_mask());

const fn board_mask() -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < SIZE {
        m |= 0x1FFu128 << (r * STRIDE);
        r += 1;
    }
    m
}

impl Bitboard {
    /// No cell.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// Whether `cell` is in the set.
    pub const fn contains(self, cell: Cell) -> bool {
        self.0 & cell.bit() != 0
    }

    /// The number of cells.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cells, in index order (`a1`, `b1`, … `i1`, `a2`, …).
    pub fn iter(self) -> BitIter {
        BitIter(self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Cell> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        Bitboard(iter.into_iter().fold(0, |m, c| m | c.bit()))
    }
}

/// The cells of a [`Bitboard`], in index order.
#[derive(Clone, Debug)]
pub struct BitIter(u128);

impl Iterator for BitIter {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Cell(i))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitIter {}

/// Iterate the set bits of a raw mask as cells.
#[inline]
pub(crate) fn cells(mask: u128) -> BitIter {
    BitIter(mask)
}

/// Where the 8×8 plate stands in the 9×9 frame.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PlatePos {
    /// Covers a1–h8.
    BottomLeft = 0,
    /// Covers b1–i8.
    BottomRight = 1,
    /// Covers b2–i9.
    TopRight = 2,
    /// Covers a2–h9.
    TopLeft = 3,
}

impl PlatePos {
    /// The four positions, in the order of the push.
    pub const ALL: [PlatePos; 4] = [PlatePos::BottomLeft, PlatePos::BottomRight, PlatePos::TopRight, PlatePos::TopLeft];

    /// The option value and display name (`bottom-left`).
    pub const fn name(self) -> &'static str {
        match self {
            PlatePos::BottomLeft => "bottom-left",
            PlatePos::BottomRight => "bottom-right",
            PlatePos::TopRight => "top-right",
            PlatePos::TopLeft => "top-left",
        }
    }

    /// The position called `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<PlatePos> {
        PlatePos::ALL.into_iter().find(|p| p.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Where one push (counter-clockwise: right along the bottom, up the
    /// right side, left along the top, down the left side) takes the plate.
    pub const fn next(self) -> PlatePos {
        PlatePos::ALL[(self as usize + 1) % 4]
    }

    /// The position before [`PlatePos::next`].
    pub const fn prev(self) -> PlatePos {
        PlatePos::ALL[(self as usize + 3) % 4]
    }

    /// The (file, rank) of the cell under the plate's first hole.
    pub const fn offset(self) -> (u8, u8) {
        match self {
            PlatePos::BottomLeft => (0, 0),
            PlatePos::BottomRight => (1, 0),
            PlatePos::TopRight => (1, 1),
            PlatePos::TopLeft => (0, 1),
        }
    }

    /// The 64 cells the plate covers.
    pub const fn holes(self) -> Bitboard {
        Bitboard(PLATE_MASKS[self as usize])
    }

    /// The covered cells as a range (`a1–h8`).
    pub fn range(self) -> String {
        let (dx, dy) = self.offset();
        let lo = Cell::new(dx, dy).map(|c| c.to_string()).unwrap_or_default();
        let hi = Cell::new(dx + PLATE_SIZE - 1, dy + PLATE_SIZE - 1).map(|c| c.to_string()).unwrap_or_default();
        format!("{lo}–{hi}")
    }

    /// The hole (0..64, row by row from the plate's bottom-left hole) over
    /// `cell`, if the plate covers it.
    pub const fn hole(self, cell: Cell) -> Option<u8> {
        let (dx, dy) = self.offset();
        let (f, r) = (cell.file(), cell.rank());
        if f < dx || r < dy || f >= dx + PLATE_SIZE || r >= dy + PLATE_SIZE {
            None
        } else {
            Some((r - dy) * PLATE_SIZE + (f - dx))
        }
    }

    /// Move a set of stones riding in the plate along with one push.
    #[inline]
    pub const fn push_mask(self, m: u128) -> u128 {
        match self {
            PlatePos::BottomLeft => m << 1,
            PlatePos::BottomRight => m << STRIDE,
            PlatePos::TopRight => m >> 1,
            PlatePos::TopLeft => m >> STRIDE,
        }
    }
}

impl PlatePos {
    /// The inverse of [`PlatePos::push_mask`]: where cells seen after the
    /// push from this position were before it.
    #[inline]
    pub const fn unpush_mask(self, m: u128) -> u128 {
        match self {
            PlatePos::BottomLeft => m >> 1,
            PlatePos::BottomRight => m >> STRIDE,
            PlatePos::TopRight => m << 1,
            PlatePos::TopLeft => m << STRIDE,
        }
    }
}

const PLATE_MASKS: [u128; 4] = {
    let mut out = [0u128; 4];
    let mut p = 0;
    while p < 4 {
        let (dx, dy) = PlatePos::ALL[p].offset();
        let mut r = 0;
        while r < PLATE_SIZE {
            out[p] |= 0xFFu128 << ((r + dy) * STRIDE + dx);
            r += 1;
        }
        p += 1;
    }
    out
};

/// A direction of lines: the four directions of the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Dir {
    /// Along a rank, towards file i (`h`).
    Row = 0,
    /// Along a file, towards rank 9 (`v`).
    Column = 1,
    /// Diagonal towards i9 (`d`: a1–i9).
    Diagonal = 2,
    /// Diagonal towards a9 (`a`: i1–a9).
    AntiDiagonal = 3,
}

impl Dir {
    /// The four directions.
    pub const ALL: [Dir; 4] = [Dir::Row, Dir::Column, Dir::Diagonal, Dir::AntiDiagonal];

    /// The shift of one step in a [`Bitboard`].
    pub const fn step(self) -> u32 {
        match self {
            Dir::Row => 1,
            Dir::Column => STRIDE as u32,
            Dir::Diagonal => STRIDE as u32 + 1,
            Dir::AntiDiagonal => STRIDE as u32 - 1,
        }
    }

    const fn df(self) -> i8 {
        match self {
            Dir::Row | Dir::Diagonal => 1,
            Dir::Column => 0,
            Dir::AntiDiagonal => -1,
        }
    }

    const fn dr(self) -> i8 {
        match self {
            Dir::Row => 0,
            _ => 1,
        }
    }

    /// Its letter in the notation (`h`, `v`, `d`, `a`).
    pub const fn letter(self) -> char {
        match self {
            Dir::Row => 'h',
            Dir::Column => 'v',
            Dir::Diagonal => 'd',
            Dir::AntiDiagonal => 'a',
        }
    }

    /// The direction of a letter (case-insensitive).
    pub fn from_letter(c: char) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.letter() == c.to_ascii_lowercase())
    }

    /// Its name in words.
    pub const fn name(self) -> &'static str {
        match self {
            Dir::Row => "row",
            Dir::Column => "column",
            Dir::Diagonal => "diagonal",
            Dir::AntiDiagonal => "anti-diagonal",
        }
    }
}

/// A line: `len` cells from `start` in direction `dir`. The start is the
/// line's cell with the lowest index (its bottom or left end).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Line {
    /// The first cell.
    pub start: Cell,
    /// The direction.
    pub dir: Dir,
    /// The number of cells (4 to 9 for a line that scores).
    pub len: u8,
}

impl Line {
    /// The `i`-th cell from the start.
    pub const fn cell(self, i: u8) -> Cell {
        Cell(self.start.0 + i * self.dir.step() as u8)
    }

    /// The cells, from the start.
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        (0..self.len).map(move |i| self.cell(i))
    }

    /// The cells as a bitboard.
    pub const fn mask(self) -> u128 {
        let mut m = 0u128;
        let mut i = 0;
        while i < self.len {
            m |= 1u128 << (self.start.0 as u32 + i as u32 * self.dir.step());
            i += 1;
        }
        m
    }

    /// The position in the line of `cell`, if it is one of its cells.
    pub fn position(self, cell: Cell) -> Option<u8> {
        (0..self.len).find(|&i| self.cell(i) == cell)
    }

    /// Whether the line's cells all lie on the board (for a line value from an
    /// untrusted source). [`Line::cell`], [`Line::mask`] and the other
    /// methods assume it.
    pub fn on_board(self) -> bool {
        let mut c = self.start;
        for _ in 1..self.len {
            match c.step(self.dir) {
                Some(n) => c = n,
                None => return false,
            }
        }
        self.len > 0
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}–{}", self.start, self.cell(self.len.saturating_sub(1)))
    }
}

/// The cells of `m` that start a run of at least 4 in direction `dir`.
#[inline]
pub const fn run4_starts(m: u128, dir: Dir) -> u128 {
    let s = dir.step();
    m & (m >> s) & (m >> (2 * s)) & (m >> (3 * s))
}

/// The cells of `m` that belong to a run of at least 4 in direction `dir`.
#[inline]
pub const fn run4_cells(m: u128, dir: Dir) -> u128 {
    let s = dir.step();
    let x = run4_starts(m, dir);
    (x | (x << s) | (x << (2 * s)) | (x << (3 * s))) & BOARD.0
}

/// The cells of `m` that belong to a run of at least 4 in any direction.
#[inline]
pub const fn lines_mask(m: u128) -> u128 {
    run4_cells(m, Dir::Row)
        | run4_cells(m, Dir::Column)
        | run4_cells(m, Dir::Diagonal)
        | run4_cells(m, Dir::AntiDiagonal)
}

/// The maximal runs (of any length ≥ 1) of `m` in direction `dir`, as lines,
/// calling `f` for each, in order of their start.
#[inline]
pub fn for_each_run(m: u128, dir: Dir, mut f: impl FnMut(Line)) {
    let s = dir.step();
    let mut starts = m & !(m << s);
    while starts != 0 {
        let i = starts.trailing_zeros();
        starts &= starts - 1;
        let mut len = 1u8;
        while m & (1u128 << (i + len as u32 * s)) != 0 {
            len += 1;
        }
        f(Line { start: Cell(i as u8), dir, len });
    }
}

/// The empty cells `t` of `BOARD & !m` such that adding `t` to `m` makes a run
/// of at least 4 through `t` in some direction.
#[inline]
pub const fn completions(m: u128) -> u128 {
    let mut out = 0u128;
    let mut d = 0;
    while d < 4 {
        let s = Dir::ALL[d].step();
        let (a1, a2, a3) = (m >> s, m >> (2 * s), m >> (3 * s));
        let (b1, b2, b3) = (m << s, m << (2 * s), m << (3 * s));
        out |= (a1 & a2 & a3) | (b1 & a1 & a2) | (b2 & b1 & a1) | (b3 & b2 & b1);
        d += 1;
    }
    out & BOARD.0 & !m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip() {
        for r in 0..9 {
            for f in 0..9 {
                let c = Cell::new(f, r).unwrap();
                assert_eq!(Cell::parse(&c.to_string()).unwrap(), c);
                assert!(BOARD.contains(c));
            }
        }
        assert_eq!(BOARD.len(), 81);
        assert!(Cell::parse("j1").is_err());
        assert!(Cell::parse("a0").is_err());
        assert!(Cell::parse("a10").is_err());
        assert!(Cell::parse("").is_err());
        assert_eq!(Cell::parse("D4").unwrap().to_string(), "d4");
    }

    #[test]
    fn plates_and_push() {
        for p in PlatePos::ALL {
            assert_eq!(p.holes().len(), 64);
            assert_eq!(p.push_mask(p.holes().0), p.next().holes().0);
            assert_eq!(p.next().prev(), p);
        }
        assert_eq!(PlatePos::BottomLeft.range(), "a1–h8");
        assert_eq!(PlatePos::TopRight.range(), "b2–i9");
        let d4 = Cell::parse("d4").unwrap();
        assert_eq!(PlatePos::BottomLeft.hole(d4), Some(3 * 8 + 3));
        assert_eq!(PlatePos::TopRight.hole(d4), Some(2 * 8 + 2));
        assert_eq!(PlatePos::TopRight.hole(Cell::parse("a4").unwrap()), None);
    }

    #[test]
    fn runs_do_not_wrap() {
        // h1 i1 a2 b2 is not a line.
        let m: Bitboard = ["h1", "i1", "a2", "b2"].iter().map(|c| Cell::parse(c).unwrap()).collect();
        assert_eq!(lines_mask(m.0), 0);
        let m: Bitboard = ["i1", "h2", "g3", "f4"].iter().map(|c| Cell::parse(c).unwrap()).collect();
        assert_eq!(lines_mask(m.0), m.0);
        let m: Bitboard = ["a1", "b2", "c3", "e5"].iter().map(|c| Cell::parse(c).unwrap()).collect();
        assert_eq!(lines_mask(m.0), 0);
        assert_eq!(completions(m.0), Cell::parse("d4").unwrap().bit());
        let m: Bitboard = ["g1", "h1", "i1"].iter().map(|c| Cell::parse(c).unwrap()).collect();
        assert_eq!(completions(m.0), Cell::parse("f1").unwrap().bit());
    }
}

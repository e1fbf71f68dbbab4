//! Cells, directions and bit sets of the Abalone board.
//!
//! The 61 cells are embedded in a 9×9 grid of rows `A`–`I` (0–8) and diagonals
//! `1`–`9` (0–8): cell index `9·row + (number − 1)`. A cell is on the board when
//! `row − 4 ≤ number − 1 ≤ row + 4`. In this embedding the six directions are
//! the constant index steps ±1, ±9 and ±10, and a step from a board cell lands
//! either on its true neighbour or on a cell off the board (never on another
//! board cell across a row's end), so that a direction is one shift of a bit
//! set. The 81-cell grid needs a `u128` (the 61 cells alone would fit a `u64`,
//! but then a direction is no longer a single shift).

use std::fmt;

/// A set of cells, one bit per grid index.
pub type Bits = u128;

/// The 61 cells of the board.
pub const BOARD: Bits = board_mask();

const fn board_mask() -> Bits {
    let mut m: Bits = 0;
    let mut r = 0;
    while r < 9 {
        let mut c = 0;
        while c < 9 {
            if c + 4 >= r && c <= r + 4 {
                m |= 1 << (r * 9 + c);
            }
            c += 1;
        }
        r += 1;
    }
    m
}

/// The six directions, as index steps: E (number + 1), NE (row + 1, number + 1),
/// NW (row + 1), W, SW, SE. Direction `i + 3` is the opposite of `i`; 0, 1 and 2
/// are the three axes used to name lines.
pub const DIRS: [i32; 6] = [1, 10, 9, -1, -10, -9];

/// The names of the directions, for messages.
pub const DIR_NAMES: [&str; 6] = ["east", "north-east", "north-west", "west", "south-west", "south-east"];

/// The opposite direction.
#[inline]
pub const fn opposite(d: usize) -> usize {
    (d + 3) % 6
}

/// The set `x` moved by `step` indices, cut to the board.
#[inline(always)]
pub const fn shift(x: Bits, step: i32) -> Bits {
    (if step >= 0 { x << step } else { x >> -step }) & BOARD
}

/// The cells `t` such that `t + step` is in `x` (no cut to the board).
#[inline(always)]
pub const fn ahead(x: Bits, step: i32) -> Bits {
    if step >= 0 { x >> step } else { x << -step }
}

/// A board cell.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `row` (0 = A) and `number` (1–9), if on the board.
    pub fn new(row: u8, number: u8) -> Option<Cell> {
        if row > 8 || !(1..=9).contains(&number) {
            return None;
        }
        Cell::from_index(row as i32 * 9 + number as i32 - 1)
    }

    /// The cell of a grid index, if on the board.
    #[inline]
    pub fn from_index(i: i32) -> Option<Cell> {
        if (0..81).contains(&i) && BOARD >> i & 1 == 1 { Some(Cell(i as u8)) } else { None }
    }

    /// The grid index.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The row, 0 (`A`) to 8 (`I`).
    pub const fn row(self) -> u8 {
        self.0 / 9
    }

    /// The number along the row's diagonal, 1 to 9.
    pub const fn number(self) -> u8 {
        self.0 % 9 + 1
    }

    /// The bit of this cell.
    #[inline]
    pub const fn bit(self) -> Bits {
        1 << self.0
    }

    /// The neighbour in direction `d`, if on the board.
    #[inline]
    pub fn step(self, d: usize) -> Option<Cell> {
        Cell::from_index(self.0 as i32 + DIRS[d])
    }

    /// Parse `e5` (case-insensitive).
    pub fn parse(text: &str) -> Option<Cell> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let row = b[0].to_ascii_lowercase().checked_sub(b'a')?;
        let number = b[1].checked_sub(b'0')?;
        Cell::new(row, number)
    }

    /// Every cell of the board, A1 first, I9 last.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..81).filter_map(Cell::from_index)
    }
}

impl Cell {
    /// Write the cell's name (`e5`) at the end of `out`, as `Display` does.
    pub fn push_to(self, out: &mut String) {
        out.push((b'a' + self.row()) as char);
        out.push((b'0' + self.number()) as char);
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.row()) as char, self.number())
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The cells of a set, in index order.
pub fn cells(mut bits: Bits) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let i = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        Some(Cell(i))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixty_one_cells() {
        assert_eq!(BOARD.count_ones(), 61);
        assert_eq!(Cell::parse("a1").unwrap().to_string(), "a1");
        assert!(Cell::parse("a6").is_none());
        assert!(Cell::parse("i4").is_none());
        assert!(Cell::parse("E9").is_some());
        assert!(Cell::parse("j1").is_none());
        assert!(Cell::parse("e0").is_none());
    }

    #[test]
    fn steps_land_on_neighbours_or_off_board() {
        // The specification's neighbours of (r, n): (r, n−1), (r, n+1), (r+1, n),
        // (r+1, n+1), (r−1, n), (r−1, n−1).
        for c in Cell::all() {
            let (r, n) = (c.row() as i32, c.number() as i32);
            let mut expected: Vec<Cell> =
                [(r, n + 1), (r + 1, n + 1), (r + 1, n), (r, n - 1), (r - 1, n - 1), (r - 1, n)]
                    .into_iter()
                    .filter(|&(r, n)| (0..9).contains(&r) && (1..=9).contains(&n))
                    .filter_map(|(r, n)| Cell::new(r as u8, n as u8))
                    .collect();
            let mut got: Vec<Cell> = (0..6).filter_map(|d| c.step(d)).collect();
            expected.sort();
            got.sort();
            assert_eq!(got, expected, "{c}");
            for (d, &step) in DIRS.iter().enumerate() {
                assert_eq!(shift(c.bit(), step), c.step(d).map_or(0, Cell::bit), "{c} {d}");
            }
        }
    }
}

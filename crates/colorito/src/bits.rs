//! Bitboards of the 100 cells on a `u128`: bit `rank·10 + file`.
//!
//! Jump chains are computed by a flood fill over empty landing cells: from a
//! set of cells, one jump in each of the eight directions is two shifts and
//! three masks, so the closure of every chain of a piece costs a few dozen word
//! operations per ring of landing cells, whatever the number of paths.

use crate::board::{CELLS, SIZE};

/// Every cell of the board.
pub(crate) const BOARD: u128 = (1u128 << CELLS) - 1;

const fn file_mask(file: usize) -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < SIZE {
        m |= 1u128 << (r * SIZE + file);
        r += 1;
    }
    m
}

/// Cells not on file a (a shift towards file a must not start there).
const NOT_A: u128 = BOARD & !file_mask(0);
/// Cells not on file j.
const NOT_J: u128 = BOARD & !file_mask(SIZE - 1);

/// One cell in direction `D` (a shift of the index) from every cell of `x`,
/// without wrapping around the edges.
#[inline(always)]
fn shift<const D: i32>(x: u128) -> u128 {
    let x = match D {
        1 | 11 | -9 => x & NOT_J,
        -1 | 9 | -11 => x & NOT_A,
        _ => x,
    };
    if D > 0 { (x << D) & BOARD } else { x >> (-D) }
}

/// The landing cells of one jump in direction `D` from `from`: over an
/// occupied cell onto the empty cell behind it.
#[inline(always)]
fn jump<const D: i32>(from: u128, occ: u128, empty: u128) -> u128 {
    shift::<D>(shift::<D>(from) & occ) & empty
}

/// The landing cells of one jump, in any of the eight directions, from any cell
/// of `from`.
#[inline(always)]
pub(crate) fn jumps(from: u128, occ: u128, empty: u128) -> u128 {
    jump::<1>(from, occ, empty)
        | jump::<-1>(from, occ, empty)
        | jump::<10>(from, occ, empty)
        | jump::<-10>(from, occ, empty)
        | jump::<11>(from, occ, empty)
        | jump::<9>(from, occ, empty)
        | jump::<-9>(from, occ, empty)
        | jump::<-11>(from, occ, empty)
}

/// Every cell reached by a chain of one or more jumps from any cell of
/// `seeds` (breadth-first flood fill; each landing cell is expanded once).
#[inline]
pub(crate) fn jump_closure(seeds: u128, occ: u128, empty: u128) -> u128 {
    let mut reached = 0u128;
    let mut frontier = seeds;
    loop {
        let next = jumps(frontier, occ, empty) & !reached;
        if next == 0 {
            return reached;
        }
        reached |= next;
        frontier = next;
    }
}

/// The cells adjacent (eight directions) to some cell of `x`.
pub(crate) const fn neighbours_of(x: u128) -> u128 {
    let e = (x & NOT_J) << 1;
    let w = (x & NOT_A) >> 1;
    let row = x | e | w;
    ((row << SIZE) | (row >> SIZE) | e | w) & BOARD
}

const fn neighbour_table() -> [u128; CELLS] {
    let mut t = [0u128; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = neighbours_of(1u128 << i);
        i += 1;
    }
    t
}

/// The neighbours of each cell.
pub(crate) static NEIGHBOURS: [u128; CELLS] = neighbour_table();

/// The cells of the same parity class (file and rank parities) as each cell:
/// where jump chains from it may land.
const fn parity_table() -> [u128; CELLS] {
    let mut t = [0u128; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut j = 0;
        while j < CELLS {
            if (i % SIZE) % 2 == (j % SIZE) % 2 && (i / SIZE) % 2 == (j / SIZE) % 2 {
                t[i] |= 1u128 << j;
            }
            j += 1;
        }
        i += 1;
    }
    t
}

/// The parity class of each cell.
pub(crate) static PARITY: [u128; CELLS] = parity_table();

const fn corner_mask() -> u128 {
    let mut m = 0u128;
    let mut i = 0;
    while i < CELLS {
        if neighbours_of(1u128 << i).count_ones() == 3 {
            m |= 1u128 << i;
        }
        i += 1;
    }
    m
}

/// The corners of the board: the cells with three neighbours.
pub(crate) const CORNERS: u128 = corner_mask();

/// Iterate over the set bits of a bitboard, lowest first.
pub(crate) struct Bits(pub(crate) u128);

impl Iterator for Bits {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_do_not_wrap() {
        // a1 (0): b1, a2, b2.
        assert_eq!(NEIGHBOURS[0], (1 << 1) | (1 << 10) | (1 << 11));
        // j1 (9): i1, i2, j2.
        assert_eq!(NEIGHBOURS[9], (1 << 8) | (1 << 18) | (1 << 19));
        // e5 (44): eight neighbours.
        assert_eq!(NEIGHBOURS[44].count_ones(), 8);
        // j10 (99): three.
        assert_eq!(NEIGHBOURS[99].count_ones(), 3);
        for (i, &n) in NEIGHBOURS.iter().enumerate() {
            assert_eq!(n & !BOARD, 0);
            for j in Bits(n) {
                let (fi, ri, fj, rj) = (i % 10, i / 10, j % 10, j / 10);
                assert!(fi.abs_diff(fj) <= 1 && ri.abs_diff(rj) <= 1 && i != j);
            }
        }
    }

    #[test]
    fn the_corners_are_the_four_corner_cells() {
        let named = ["a1", "j1", "a10", "j10"]
            .iter()
            .fold(0u128, |m, c| m | 1u128 << crate::board::Cell::parse(c).unwrap().index());
        assert_eq!(CORNERS, named);
    }

    #[test]
    fn jumps_do_not_wrap() {
        // From j5 (49) a jump east would wrap onto a6/b6 (50, 51): only the
        // jump west onto h5 (47) exists.
        let from = 1u128 << 49;
        let empty = (1u128 << 51) | (1u128 << 47);
        let occ = BOARD & !from & !empty;
        assert_eq!(jumps(from, occ, empty), 1u128 << 47);
    }
}

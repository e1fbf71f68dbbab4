//! The dot sheets: the six designed levels and user sheets.
//!
//! A sheet is a grid of 9 rows of 9 cells, rank 9 first (the top of the board
//! as the first player sees it), file `a` on the left; `o` is a dot, `.` is no
//! dot. White space inside a row is ignored, as are blank lines and lines
//! starting with `#`. On one line (the inline form of the `sheet` option) the
//! rows are separated by `/`:
//!
//! ```text
//! # level 0: a sheet with three dots
//! . . . . . . . . .
//! . . . . . . . . .
//! . . . . o . . . .
//! . . . . . . . . .
//! . . o . . . o . .
//! . . . . . . . . .
//! . . . . . . . . .
//! . . . . . . . . .
//! . . . . . . . . .
//! ```
//!
//! A sheet may not have four dots in a row, column or diagonal (no line made of
//! dots alone); [`Sheet::parse`] refuses such a sheet and names the dots.

use std::fmt;

use crate::board::{BOARD, Cell, Dir, SIZE, run4_starts};

/// The built-in sheets, `level-1` to `level-6`, as text.
pub const LEVELS: [(&str, &str); 6] = [
    ("level-1", include_str!("../sheets/level-1.txt")),
    ("level-2", include_str!("../sheets/level-2.txt")),
    ("level-3", include_str!("../sheets/level-3.txt")),
    ("level-4", include_str!("../sheets/level-4.txt")),
    ("level-5", include_str!("../sheets/level-5.txt")),
    ("level-6", include_str!("../sheets/level-6.txt")),
];

/// A dot sheet.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Sheet {
    name: String,
    dots: u128,
}

impl Sheet {
    /// The built-in level `n` (1 to 6).
    pub fn level(n: usize) -> Option<Sheet> {
        let (name, text) = LEVELS.get(n.checked_sub(1)?)?;
        Some(Sheet::parse(*name, text).expect("built-in sheets are valid (tested)"))
    }

    /// A sheet from its dots. Errors if four dots stand in a line.
    pub fn from_dots(name: impl Into<String>, dots: u128) -> Result<Sheet, String> {
        let dots = dots & BOARD.0;
        check_no_four(dots)?;
        Ok(Sheet { name: name.into(), dots })
    }

    /// Parse a sheet grid (see the [module documentation](self)); rows may be
    /// separated by new lines or by `/`.
    pub fn parse(name: impl Into<String>, text: &str) -> Result<Sheet, String> {
        let rows = parse_grid(text)?;
        let mut dots = 0u128;
        for (row, line_no, cells) in rows {
            let rank = SIZE - 1 - row;
            for (file, ch) in cells.iter().enumerate() {
                let cell = Cell::new(file as u8, rank).expect("9×9");
                match ch {
                    'o' | 'O' => dots |= cell.bit(),
                    '.' => {}
                    other => {
                        return Err(format!(
                            "line {line_no}, cell {cell}: {other:?} is neither o (a dot) nor . (no dot)"
                        ));
                    }
                }
            }
        }
        Sheet::from_dots(name, dots)
    }

    /// The sheet an option value names: `level-1` … `level-6`, or an inline
    /// grid (9 rows of `o` and `.` separated by `/`). Never reads a file: the
    /// error for a file path says only that the value is neither, echoing at
    /// most its first 60 characters.
    pub fn from_option(value: &str) -> Result<Sheet, String> {
        let v = value.trim();
        if let Some((name, text)) = LEVELS.iter().find(|(n, _)| n.eq_ignore_ascii_case(v)) {
            return Sheet::parse(*name, text);
        }
        if Sheet::looks_inline(v) {
            return Sheet::parse("inline", v).map_err(|e| format!("inline sheet: {e}"));
        }
        let shown: String = v.chars().take(60).collect();
        let more = if v.chars().count() > 60 { "…" } else { "" };
        Err(format!(
            "sheet {shown:?}{more} is neither level-1 … level-6 nor an inline sheet (9 rows of o and . \
             separated by /, rank 9 first); a sheet file is read only by the command line (sheet=@FILE)"
        ))
    }

    /// Whether `text` is meant as an inline sheet: one line with a `/`, made
    /// only of `o`, `.`, white space and `/`, or with the 8 `/` of 9 rows (so
    /// that a mistyped cell gets a precise error). A file path such as
    /// `/etc/shadow` is not.
    pub fn looks_inline(text: &str) -> bool {
        !text.contains('\n')
            && text.contains('/')
            && (text.chars().all(|c| matches!(c, '.' | 'o' | 'O' | '/') || c.is_whitespace())
                || text.matches('/').count() == SIZE as usize - 1)
    }

    /// Its name (`level-3`, or `inline`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The dots, as a bitboard (see [`crate::board`]).
    pub fn dots(&self) -> u128 {
        self.dots
    }

    /// The number of dots.
    pub fn len(&self) -> u32 {
        self.dots.count_ones()
    }

    /// Whether the sheet has no dot.
    pub fn is_empty(&self) -> bool {
        self.dots == 0
    }

    /// The sheet as a grid (the file format), rank 9 first.
    pub fn to_grid(&self) -> String {
        let mut out = String::new();
        for rank in (0..SIZE).rev() {
            for file in 0..SIZE {
                let c = Cell::new(file, rank).expect("9×9");
                if file > 0 {
                    out.push(' ');
                }
                out.push(if self.dots & c.bit() != 0 { 'o' } else { '.' });
            }
            out.push('\n');
        }
        out
    }

    /// The sheet as a one-line grid (the inline form of the `sheet` option).
    pub fn to_inline(&self) -> String {
        self.to_grid().replace(' ', "").trim_end().replace('\n', "/")
    }
}

impl fmt::Debug for Sheet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sheet({} {})", self.name, self.to_inline())
    }
}

/// Fails if four dots stand in a line, naming them.
fn check_no_four(dots: u128) -> Result<(), String> {
    for dir in Dir::ALL {
        let starts = run4_starts(dots, dir);
        if starts != 0 {
            let first = Cell::from_index(starts.trailing_zeros() as u8).expect("board bit");
            let mut cells = vec![first];
            while cells.len() < 4 {
                let next = cells[cells.len() - 1].step(dir).expect("run on the board");
                cells.push(next);
            }
            let names: Vec<String> = cells.iter().map(Cell::to_string).collect();
            return Err(format!(
                "the dots {} stand in a line of four ({}): a sheet may not have four dots in a line",
                names.join(", "),
                dir.name()
            ));
        }
    }
    Ok(())
}

/// The rows of a grid: (row from the top 0..9, line number from 1, 9 cells).
pub(crate) fn parse_grid(text: &str) -> Result<Vec<(u8, usize, Vec<char>)>, String> {
    let single_line = !text.contains('\n') && text.contains('/');
    let lines: Vec<(usize, &str)> = if single_line {
        text.split('/').enumerate().map(|(i, l)| (i + 1, l)).collect()
    } else {
        text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect()
    };
    let mut rows = Vec::with_capacity(9);
    for (line_no, raw) in lines {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cells: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
        let row = rows.len() as u8;
        if row >= SIZE {
            return Err(format!("line {line_no}: more than 9 rows"));
        }
        let rank = SIZE - row;
        if cells.len() != SIZE as usize {
            return Err(format!("line {line_no} (rank {rank}): {} cells, a row has 9 (files a to i)", cells.len()));
        }
        rows.push((row, line_no, cells));
    }
    if rows.len() != SIZE as usize {
        return Err(format!("{} rows, a grid has 9 (ranks 9 down to 1)", rows.len()));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_round_trip() {
        for n in 1..=6 {
            let s = Sheet::level(n).unwrap();
            let back = Sheet::from_option(&s.to_inline()).unwrap();
            assert_eq!(back.dots(), s.dots());
            let back = Sheet::parse("x", &s.to_grid()).unwrap();
            assert_eq!(back.dots(), s.dots());
        }
    }
}

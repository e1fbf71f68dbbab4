//! The board as data: cells, colours, numbers, pieces, and the board file that
//! describes a layout (see `boards/standard.board`, the default layout of the
//! specification).

use std::fmt;

/// The number of files (columns) and of ranks (rows) of a Colorito board.
pub const SIZE: usize = 10;
/// The number of cells.
pub const CELLS: usize = SIZE * SIZE;
/// The number of pieces (20 a side).
pub const PIECES: usize = 40;

/// The text of the default board file shipped with the crate.
pub const STANDARD_BOARD: &str = include_str!("../boards/standard.board");

/// A player: Red (red and yellow pieces) or Blue (dark-blue and light-blue pieces).
///
/// Red is seat 0 and Blue seat 1, whoever moves first (option `first`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Red and yellow pieces; seat 0.
    Red = 0,
    /// Dark-blue and light-blue pieces; seat 1.
    Blue = 1,
}

impl Side {
    /// Both sides, Red first.
    pub const BOTH: [Side; 2] = [Side::Red, Side::Blue];

    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Red => Side::Blue,
            Side::Blue => Side::Red,
        }
    }

    /// The side of a seat (0 Red, 1 Blue).
    pub fn from_seat(seat: usize) -> Option<Side> {
        match seat {
            0 => Some(Side::Red),
            1 => Some(Side::Blue),
            _ => None,
        }
    }

    /// The seat of this side.
    pub fn seat(self) -> usize {
        self as usize
    }

    /// `"Red"` or `"Blue"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Red => "Red",
            Side::Blue => "Blue",
        }
    }

    /// `"red"` or `"blue"`.
    pub fn lower(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Blue => "blue",
        }
    }

    /// The two colours of this side's pieces.
    pub fn colours(self) -> [Colour; 2] {
        match self {
            Side::Red => [Colour::Red, Colour::Yellow],
            Side::Blue => [Colour::DarkBlue, Colour::LightBlue],
        }
    }
}

/// The colour of a cell or of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Colour {
    /// Red (`R`): Red's pieces 1–10.
    Red = 0,
    /// Yellow (`Y`): Red's pieces 11–20.
    Yellow = 1,
    /// Dark blue (`D`): Blue's pieces 1–10.
    DarkBlue = 2,
    /// Light blue (`L`): Blue's pieces 11–20.
    LightBlue = 3,
}

impl Colour {
    /// All four, in the order of their letters R, Y, D, L.
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Yellow, Colour::DarkBlue, Colour::LightBlue];

    /// The letter of the colour: `R`, `Y`, `D`, `L`.
    pub fn letter(self) -> char {
        ['R', 'Y', 'D', 'L'][self as usize]
    }

    /// The colour of a letter (either case).
    pub fn from_letter(c: char) -> Option<Colour> {
        match c.to_ascii_uppercase() {
            'R' => Some(Colour::Red),
            'Y' => Some(Colour::Yellow),
            'D' => Some(Colour::DarkBlue),
            'L' => Some(Colour::LightBlue),
            _ => None,
        }
    }

    /// The colour's name in words.
    pub fn name(self) -> &'static str {
        ["red", "yellow", "dark blue", "light blue"][self as usize]
    }

    /// The side whose pieces have this colour.
    pub fn side(self) -> Side {
        if (self as usize) < 2 { Side::Red } else { Side::Blue }
    }

    /// The numbers of the pieces of this colour.
    pub fn numbers(self) -> std::ops::RangeInclusive<u8> {
        match self {
            Colour::Red | Colour::DarkBlue => 1..=10,
            Colour::Yellow | Colour::LightBlue => 11..=20,
        }
    }
}

/// A cell of the board, `a1` … `j10`: index `rank·10 + file`, both from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `file` (0 = a) and `rank` (0 = rank 1), if on the board.
    pub fn new(file: usize, rank: usize) -> Option<Cell> {
        (file < SIZE && rank < SIZE).then(|| Cell((rank * SIZE + file) as u8))
    }

    /// The cell with this index (0..100).
    pub fn from_index(index: usize) -> Option<Cell> {
        (index < CELLS).then_some(Cell(index as u8))
    }

    /// Its index, `rank·10 + file`.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Its file, 0 (a) to 9 (j).
    pub fn file(self) -> usize {
        self.0 as usize % SIZE
    }

    /// Its rank, 0 (rank 1) to 9 (rank 10).
    pub fn rank(self) -> usize {
        self.0 as usize / SIZE
    }

    /// Parse a cell name, `a1` … `j10`, in either case.
    pub fn parse(text: &str) -> Result<Cell, String> {
        let t = text.trim();
        let mut chars = t.chars();
        let f = chars.next().ok_or_else(|| "an empty cell name".to_string())?;
        let file = match f.to_ascii_lowercase() {
            c @ 'a'..='j' => c as usize - 'a' as usize,
            _ => return Err(format!("{t:?} is not a cell: files are a to j")),
        };
        let rest = chars.as_str();
        if rest.is_empty() || rest.len() > 2 || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("{t:?} is not a cell: cells are a1 to j10"));
        }
        let rank: usize = rest.parse().map_err(|_| format!("{t:?} is not a cell"))?;
        if !(1..=SIZE).contains(&rank) || rest.starts_with('0') {
            return Err(format!("{t:?} is not a cell: ranks are 1 to 10"));
        }
        Ok(Cell(((rank - 1) * SIZE + file) as u8))
    }
}

impl Cell {
    /// Write the cell's name (`c3`, `a10`) at the end of `out`, as
    /// [`Display`](fmt::Display) does, without a formatter (the server writes
    /// every legal move).
    pub fn push_to(self, out: &mut String) {
        out.push((b'a' + self.file() as u8) as char);
        let rank = self.rank() as u8 + 1;
        if rank >= 10 {
            out.push((b'0' + rank / 10) as char);
        }
        out.push((b'0' + rank % 10) as char);
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file() as u8) as char, self.rank() + 1)
    }
}

/// A piece: its colour and its number. Ids 0–9 are red 1–10, 10–19 yellow
/// 11–20, 20–29 dark blue 1–10, 30–39 light blue 11–20; Red's pieces are 0–19.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(u8);

impl Piece {
    /// The piece with this id (0..40).
    pub fn from_id(id: usize) -> Option<Piece> {
        (id < PIECES).then_some(Piece(id as u8))
    }

    /// The piece of this colour and number, if it exists.
    pub fn new(colour: Colour, number: u8) -> Option<Piece> {
        if !colour.numbers().contains(&number) {
            return None;
        }
        let k = (number - 1) % 10;
        Some(Piece(colour as u8 * 10 + k))
    }

    /// Its id, 0..40.
    pub fn id(self) -> usize {
        self.0 as usize
    }

    /// Its colour.
    pub fn colour(self) -> Colour {
        Colour::ALL[self.0 as usize / 10]
    }

    /// Its number (1–10 for red and dark blue, 11–20 for yellow and light blue).
    pub fn number(self) -> u8 {
        let k = self.0 % 10;
        match self.colour() {
            Colour::Red | Colour::DarkBlue => k + 1,
            Colour::Yellow | Colour::LightBlue => k + 11,
        }
    }

    /// Its owner.
    pub fn side(self) -> Side {
        self.colour().side()
    }

    /// Parse a short name (`R1`, `y11`, `D10`, `L20`).
    pub fn parse(text: &str) -> Result<Piece, String> {
        let t = text.trim();
        let mut chars = t.chars();
        let colour = chars
            .next()
            .and_then(Colour::from_letter)
            .ok_or_else(|| format!("{t:?} is not a piece: pieces are R1-R10, Y11-Y20, D1-D10, L11-L20"))?;
        let n: u8 =
            chars.as_str().parse().map_err(|_| format!("{t:?} is not a piece: a colour letter, then the number"))?;
        Piece::new(colour, n).ok_or_else(|| {
            let r = colour.numbers();
            format!("{t:?} is not a piece: {} pieces are numbered {} to {}", colour.name(), r.start(), r.end())
        })
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.colour().letter(), self.number())
    }
}

/// A problem in a board file: where (line and cell, when known) and what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct BoardError {
    /// The line of the file (from 1), when the problem is on one line.
    pub line: Option<usize>,
    /// The cell concerned, when there is one.
    pub cell: Option<Cell>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.cell) {
            (Some(l), Some(c)) => write!(f, "line {l}, cell {c}: {}", self.message),
            (Some(l), None) => write!(f, "line {l}: {}", self.message),
            (None, Some(c)) => write!(f, "cell {c}: {}", self.message),
            (None, None) => f.write_str(&self.message),
        }
    }
}

/// A board layout: the colour of every cell and the number it carries, if any.
///
/// Built from a board file by [`Board::parse`], which checks that every piece
/// has exactly one start and one target.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    colour: [Colour; CELLS],
    number: [u8; CELLS],
}

impl Board {
    /// The default layout of the specification (the shipped board file).
    pub fn standard() -> Board {
        Board::parse(STANDARD_BOARD).expect("the shipped board file is valid")
    }

    /// The colour of a cell.
    pub fn colour(&self, cell: Cell) -> Colour {
        self.colour[cell.index()]
    }

    /// The number a cell carries, if any.
    pub fn number(&self, cell: Cell) -> Option<u8> {
        let n = self.number[cell.index()];
        (n != 0).then_some(n)
    }

    /// The cell's text as in a board file (`R10`, `D`).
    pub fn cell_text(&self, cell: Cell) -> String {
        match self.number(cell) {
            Some(n) => format!("{}{n}", self.colour(cell).letter()),
            None => self.colour(cell).letter().to_string(),
        }
    }

    /// Where a piece starts: the cell of the opponent's colours with its number.
    pub fn start(&self, piece: Piece) -> Cell {
        let n = piece.number();
        let side = piece.side();
        (0..CELLS)
            .map(|i| Cell(i as u8))
            .find(|&c| self.number[c.index()] == n && self.colour(c).side() != side)
            .expect("validated: every piece has a start")
    }

    /// The target of a piece: the cell of its own colour with its number.
    pub fn target(&self, piece: Piece) -> Cell {
        let n = piece.number();
        (0..CELLS)
            .map(|i| Cell(i as u8))
            .find(|&c| self.number[c.index()] == n && self.colour(c) == piece.colour())
            .expect("validated: every piece has a target")
    }

    /// The board in the board-file format (rank 10 first), which parses back
    /// to the same board.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for rank in (0..SIZE).rev() {
            let cells: Vec<String> =
                (0..SIZE).map(|f| format!("{:<3}", self.cell_text(Cell((rank * SIZE + f) as u8)))).collect();
            out.push_str(cells.join(" ").trim_end());
            out.push('\n');
        }
        out
    }

    /// The board in the inline form (one line, the ranks separated by `/`),
    /// which parses back to the same board.
    pub fn to_inline(&self) -> String {
        self.to_text().lines().map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect::<Vec<_>>().join("/")
    }

    /// Whether `text` is meant as an inline board: one line with a `/`, made
    /// only of what a board is written with (colour letters, digits, white
    /// space, `/`), or with the 9 `/` of ten ranks (so that a mistyped cell
    /// gets a precise error). A file path such as `/etc/passwd` is not.
    pub fn looks_inline(text: &str) -> bool {
        !text.contains('\n')
            && text.contains('/')
            && (text
                .chars()
                .all(|c| c == '/' || c.is_whitespace() || c.is_ascii_digit() || Colour::from_letter(c).is_some())
                || text.matches('/').count() == SIZE - 1)
    }

    /// The board an option value names: empty, `standard` or `default` for
    /// the default layout, or an inline board (see [`Board::parse`]). Never
    /// reads a file: the error for a file path says only that the value is
    /// neither, echoing at most its first 60 characters.
    pub fn from_option(value: &str) -> Result<Board, String> {
        let v = value.trim();
        if v.is_empty() || v.eq_ignore_ascii_case("default") || v.eq_ignore_ascii_case("standard") {
            return Ok(Board::standard());
        }
        if Board::looks_inline(v) {
            return Board::parse(v).map_err(|e| format!("not a valid inline board: {e}"));
        }
        let shown: String = v.chars().take(60).collect();
        let more = if v.chars().count() > 60 { "…" } else { "" };
        Err(format!(
            "{shown:?}{more} is neither standard nor an inline board (the ten ranks, rank 10 first, \
             separated by /, each of ten cells like R10 or D); a board file is read only by the command line \
             (board=@FILE)"
        ))
    }

    /// Read and check a board file, or an inline board.
    ///
    /// The format: one line per rank, rank 10 first and rank 1 last, each with
    /// the 10 cells from file a to j separated by white space. A cell is a
    /// colour letter (`R` red, `Y` yellow, `D` dark blue, `L` light blue, either
    /// case) followed by the number it carries, if any (`R10`, `d3`, `Y`). Blank
    /// lines and text after `#` are ignored.
    ///
    /// The inline form (the value of option `board`) is the same on one line:
    /// the ranks separated by `/`, no comments (`L11 L12 … L20/Y11 … Y20/…`);
    /// its "lines" in errors are counted between the `/`.
    ///
    /// The checks: 10 ranks of 10 cells; numbers 1–10 only on red and dark-blue
    /// cells and 11–20 only on yellow and light-blue cells; every number once in
    /// each of its two colours, so that every piece has exactly one start (the
    /// cell of the opponent's colours with its number) and one target (the cell
    /// of its own colour with its number). Errors name the line and the cell.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let err = |line: Option<usize>, cell: Option<Cell>, message: String| BoardError { line, cell, message };
        let inline = !text.contains('\n') && text.contains('/');
        if inline && text.contains('#') {
            return Err(err(None, None, "an inline board has no comments (#)".to_string()));
        }
        let lines: Vec<&str> = if inline { text.split('/').collect() } else { text.lines().collect() };
        let mut rows: Vec<(usize, Vec<&str>)> = Vec::new();
        for (i, raw) in lines.into_iter().enumerate() {
            let line = raw.split('#').next().unwrap_or("");
            let tokens: Vec<&str> = line.split_whitespace().collect();
            if tokens.is_empty() {
                continue;
            }
            if rows.len() == SIZE {
                return Err(err(
                    Some(i + 1),
                    None,
                    format!("more than {SIZE} ranks: a Colorito board has {SIZE} ranks (one line each, rank 10 first)"),
                ));
            }
            rows.push((i + 1, tokens));
        }
        if rows.len() != SIZE {
            return Err(err(
                None,
                None,
                format!(
                    "the board has {} rank{}; a Colorito board has {SIZE} (one line each, rank 10 first)",
                    rows.len(),
                    if rows.len() == 1 { "" } else { "s" }
                ),
            ));
        }
        let mut colour = [Colour::Red; CELLS];
        let mut number = [0u8; CELLS];
        let mut lines = [0usize; CELLS];
        for (k, (line, tokens)) in rows.iter().enumerate() {
            let rank = SIZE - 1 - k;
            if tokens.len() != SIZE {
                return Err(err(
                    Some(*line),
                    None,
                    format!("rank {} has {} cells; a rank has {SIZE} (files a to j)", rank + 1, tokens.len()),
                ));
            }
            for (file, tok) in tokens.iter().enumerate() {
                let cell = Cell((rank * SIZE + file) as u8);
                let here = |m: String| err(Some(*line), Some(cell), m);
                let mut chars = tok.chars();
                let c = chars.next().and_then(Colour::from_letter).ok_or_else(|| {
                    here(format!(
                        "{tok:?} does not start with a colour letter (R red, Y yellow, D dark blue, L light blue)"
                    ))
                })?;
                let rest = chars.as_str();
                let n = if rest.is_empty() {
                    0
                } else {
                    let n: u32 = rest
                        .parse()
                        .map_err(|_| here(format!("{tok:?}: after the colour letter comes a number or nothing")))?;
                    if !(1..=20).contains(&n) {
                        return Err(here(format!("{tok:?}: number {n} is out of range; cells carry 1 to 20")));
                    }
                    let n = n as u8;
                    if !c.numbers().contains(&n) {
                        let r = c.numbers();
                        return Err(here(format!(
                            "{tok:?}: a {} cell may carry only {}–{} (the numbers of the {} pieces)",
                            c.name(),
                            r.start(),
                            r.end(),
                            c.name()
                        )));
                    }
                    n
                };
                colour[cell.index()] = c;
                number[cell.index()] = n;
                lines[cell.index()] = *line;
            }
        }
        // Every number once in each of its two colours.
        for c in Colour::ALL {
            for n in c.numbers() {
                let mut cells: Vec<usize> = (0..CELLS).filter(|&i| colour[i] == c && number[i] == n).collect();
                // In reading order (rank 10 first), so that "again" is the later one.
                cells.sort_by_key(|&i| (SIZE - 1 - i / SIZE, i % SIZE));
                let piece = Piece::new(c, n).expect("valid");
                // The piece of the other side with the same number starts here.
                let partner = Colour::ALL[(c as usize + 2) % 4];
                match cells.len() {
                    0 => {
                        return Err(err(
                            None,
                            None,
                            format!(
                                "no {} cell carries {n}: piece {piece} has no target, and {} has no start",
                                c.name(),
                                Piece::new(partner, n).expect("valid")
                            ),
                        ));
                    }
                    1 => {}
                    _ => {
                        let second = cells[1];
                        return Err(err(
                            Some(lines[second]),
                            Some(Cell(second as u8)),
                            format!(
                                "{}{n} appears again (also on {}): piece {piece} must have exactly one target",
                                c.letter(),
                                Cell(cells[0] as u8)
                            ),
                        ));
                    }
                }
            }
        }
        Ok(Board { colour, number })
    }
}

//! Helpers shared by the tests: positions from piece lists, and a naive move
//! generator that enumerates paths one by one (a reference for the bitboard
//! flood fill).
#![allow(dead_code)]

use std::collections::BTreeSet;

use plateau_colorito::{Cell, Colorito, ColoritoState, Colour, Move, Piece, SIZE, Side};
use plateau_core::{State, Turn};

/// The text form of a position with these pieces (`("c1", "R3")`).
pub fn text(to_move: &str, moves: (u16, u16), pieces: &[(&str, &str)]) -> String {
    let mut grid = vec![vec![".".to_string(); SIZE]; SIZE];
    for (cell, piece) in pieces {
        let c = Cell::parse(cell).unwrap();
        Piece::parse(piece).unwrap();
        assert_eq!(grid[c.rank()][c.file()], ".", "two pieces on {cell}");
        grid[c.rank()][c.file()] = piece.to_string();
    }
    let mut out = format!("to-move: {to_move}\nmoves: {} {}\n", moves.0, moves.1);
    for rank in (0..SIZE).rev() {
        out.push_str(&grid[rank].join(" "));
        out.push('\n');
    }
    out
}

/// A position of `game` with these pieces.
pub fn place(game: &Colorito, to_move: &str, moves: (u16, u16), pieces: &[(&str, &str)]) -> ColoritoState {
    game.position(&text(to_move, moves, pieces)).unwrap_or_else(|e| panic!("{e}"))
}

/// Every piece on its target (standard board), as (cell, piece) pairs.
pub fn all_home() -> Vec<(String, String)> {
    let b = plateau_colorito::Board::standard();
    (0..40)
        .map(|id| {
            let p = Piece::from_id(id).unwrap();
            (b.target(p).to_string(), p.to_string())
        })
        .collect()
}

/// All pieces home except those listed, which stand where given.
pub fn home_except(moved: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> =
        all_home().into_iter().filter(|(_, p)| !moved.iter().any(|(_, q)| q == p)).collect();
    v.extend(moved.iter().map(|(c, p)| (c.to_string(), p.to_string())));
    v
}

pub fn refs(v: &[(String, String)]) -> Vec<(&str, &str)> {
    v.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect()
}

/// The legal moves as sorted texts.
pub fn moves(s: &ColoritoState) -> Vec<String> {
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    let mut t: Vec<String> = v.iter().map(|m| m.to_string()).collect();
    t.sort();
    t
}

/// Play a move given as text, which must be legal.
pub fn play(s: &mut ColoritoState, mv: &str) {
    let m = s.parse_move(mv).unwrap();
    s.try_apply(m).unwrap_or_else(|e| panic!("{mv}: {e}\n{}", s.to_text()));
}

fn welcomes(game: &Colorito, just_colours: bool, cell: Cell, p: Piece) -> bool {
    let b = game.board();
    b.colour(cell) == p.colour() || (!just_colours && b.number(cell) == Some(p.number()))
}

fn neighbours(c: Cell) -> Vec<(i32, i32)> {
    let mut v = Vec::new();
    for df in -1..=1 {
        for dr in -1..=1 {
            if (df, dr) != (0, 0) {
                v.push((df, dr));
            }
        }
    }
    let _ = c;
    v
}

fn offset(c: Cell, df: i32, dr: i32) -> Option<Cell> {
    let f = c.file() as i32 + df;
    let r = c.rank() as i32 + dr;
    if (0..SIZE as i32).contains(&f) && (0..SIZE as i32).contains(&r) {
        Cell::new(f as usize, r as usize)
    } else {
        None
    }
}

/// Ends of the moves of the piece on `from`, by enumerating paths: steps, jump
/// chains by depth-first search with a visited set, and a step to each empty
/// neighbour followed by jump chains.
pub fn naive_targets(
    game: &Colorito,
    s: &ColoritoState,
    just_colours: bool,
    strict: bool,
    from: Cell,
) -> BTreeSet<Cell> {
    naive_targets_over(game, s, just_colours, strict, from, &|_| true)
}

/// [`naive_targets`] where only the pieces on cells `jumpable` accepts may be
/// jumped over (the others are obstacles all the same).
pub fn naive_targets_over(
    game: &Colorito,
    s: &ColoritoState,
    just_colours: bool,
    strict: bool,
    from: Cell,
    jumpable: &dyn Fn(Cell) -> bool,
) -> BTreeSet<Cell> {
    let p = s.piece_at(from).expect("a piece");
    let occupied = |c: Cell| c != from && s.piece_at(c).is_some();
    let mut ends = BTreeSet::new();
    fn chain(c: Cell, occupied: &dyn Fn(Cell) -> bool, jumpable: &dyn Fn(Cell) -> bool, seen: &mut BTreeSet<Cell>) {
        for (df, dr) in neighbours(c) {
            if let (Some(over), Some(land)) = (offset(c, df, dr), offset(c, 2 * df, 2 * dr))
                && occupied(over)
                && jumpable(over)
                && !occupied(land)
                && seen.insert(land)
            {
                chain(land, occupied, jumpable, seen);
            }
        }
    }
    for (df, dr) in neighbours(from) {
        if let Some(w) = offset(from, df, dr)
            && !occupied(w)
        {
            if welcomes(game, just_colours, w, p) {
                ends.insert(w);
            }
            if !strict || welcomes(game, just_colours, w, p) {
                let mut seen = BTreeSet::new();
                chain(w, &occupied, jumpable, &mut seen);
                ends.extend(seen.into_iter().filter(|&c| welcomes(game, just_colours, c, p)));
            }
        }
    }
    let mut seen = BTreeSet::new();
    chain(from, &occupied, jumpable, &mut seen);
    ends.extend(seen.into_iter().filter(|&c| welcomes(game, just_colours, c, p)));
    ends.remove(&from);
    ends
}

/// The legal moves by the naive generator.
pub fn naive_moves(game: &Colorito, s: &ColoritoState, just_colours: bool, strict: bool) -> BTreeSet<Move> {
    let mut out = BTreeSet::new();
    let Turn::Seat(seat) = s.to_move() else { return out };
    let side = Side::from_seat(seat).unwrap();
    for i in 0..100 {
        let c = Cell::from_index(i).unwrap();
        if let Some(p) = s.piece_at(c)
            && p.side() == side
        {
            for to in naive_targets(game, s, just_colours, strict, c) {
                out.insert(Move::Go { from: c, to });
            }
        }
    }
    if out.is_empty() {
        out.insert(Move::Pass);
    }
    out
}

/// The colour of a cell of the game's board.
pub fn colour(game: &Colorito, cell: &str) -> Colour {
    game.board().colour(Cell::parse(cell).unwrap())
}

/// `s` after Red's move `mv`, with Red to move again (Blue "passes"), or
/// as it is once Red has finished and Blue has its extra move.
pub fn red_moves_again(s: &ColoritoState, mv: Move) -> ColoritoState {
    let mut next = s.clone();
    next.try_apply(mv).unwrap();
    if next.in_extra_move() {
        return next;
    }
    let text = next.to_text().replace("to-move: blue", "to-move: red");
    let n = next.moves_made()[0];
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[1] = format!("moves: {n} {n}");
    Colorito::standard().position(&lines.join("\n")).unwrap()
}

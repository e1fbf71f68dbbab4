//! The configured rules: the board and options turned into per-piece bitboard
//! tables (which cells welcome a piece, which cells are its home) and the
//! admissible per-piece distance table used by the score and the race
//! distance.

use std::hash::{DefaultHasher, Hash, Hasher};

use crate::bits::{BOARD, Bits, NEIGHBOURS, PARITY};
use crate::board::{Board, CELLS, Cell, Colour, PIECES, Piece, SIZE, Side};

/// "No distance": the piece can never get home from that cell.
pub(crate) const FAR: u8 = u8::MAX;

/// Everything fixed for one configured game.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Rules {
    pub board: Board,
    pub just_colours: bool,
    pub strict: bool,
    pub first: Side,
    pub max_moves: u16,
    pub score_nodes: u64,
    /// The cells that welcome each piece (by colour, or by number unless
    /// just-colours).
    pub welcome: [u128; PIECES],
    /// The cells where each piece counts as home: its target, or under
    /// just-colours every cell of its colour in its target rank.
    pub home: [u128; PIECES],
    /// The start cell of each piece.
    pub start: [u8; PIECES],
    /// The cells each side must fill (the union of its pieces' homes).
    pub targets: [u128; 2],
    /// Per piece and cell: a lower bound on the moves that piece needs to get
    /// home (see [`crate::ColoritoState::race_distance`]); [`FAR`] if never.
    pub dist: Box<[[u8; CELLS]; PIECES]>,
    /// The evaluation's tables (see `eval.rs`).
    pub eval: Box<crate::eval::Tables>,
    /// A fingerprint of all the above (for the score cache).
    pub fingerprint: u64,
}

impl std::fmt::Debug for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rules")
            .field("just_colours", &self.just_colours)
            .field("strict", &self.strict)
            .field("first", &self.first)
            .field("max_moves", &self.max_moves)
            .field("score_nodes", &self.score_nodes)
            .field("board", &self.board.to_text())
            .finish()
    }
}

impl Rules {
    /// Build the tables; errors are problems of the combination (a
    /// just-colours home too small for ten pieces).
    pub fn new(
        board: Board,
        just_colours: bool,
        strict: bool,
        first: Side,
        max_moves: u16,
        score_nodes: u64,
    ) -> Result<Rules, String> {
        let mut welcome = [0u128; PIECES];
        let mut home = [0u128; PIECES];
        let mut start = [0u8; PIECES];
        let mut targets = [0u128; 2];
        let cells = || (0..CELLS).map(|i| Cell::from_index(i).expect("in range"));
        for id in 0..PIECES {
            let p = Piece::from_id(id).expect("in range");
            for c in cells() {
                let by_colour = board.colour(c) == p.colour();
                let by_number = !just_colours && board.number(c) == Some(p.number());
                if by_colour || by_number {
                    welcome[id] |= 1u128 << c.index();
                }
            }
            start[id] = board.start(p).index() as u8;
            home[id] = if just_colours { colour_home(&board, p.colour()) } else { 1u128 << board.target(p).index() };
            targets[p.side() as usize] |= home[id];
        }
        if just_colours {
            for c in Colour::ALL {
                let n = colour_home(&board, c).count_ones();
                if n < 10 {
                    return Err(format!(
                        "under just-colours the {} pieces go to the {} cells of their target rank, \
                         but this board has only {n} there (10 are needed)",
                        c.name(),
                        c.name()
                    ));
                }
            }
        }
        let mut dist = Box::new([[FAR; CELLS]; PIECES]);
        for id in 0..PIECES {
            dist[id] = relaxed_distances(welcome[id], home[id], strict);
        }
        let eval = Box::new(crate::eval::Tables::new(&home));
        let mut h = DefaultHasher::new();
        board.hash(&mut h);
        (just_colours, strict, first, max_moves, score_nodes).hash(&mut h);
        Ok(Rules {
            board,
            just_colours,
            strict,
            first,
            max_moves,
            score_nodes,
            welcome,
            home,
            start,
            targets,
            dist,
            eval,
            fingerprint: h.finish(),
        })
    }
}

/// Under just-colours, the home of a colour: its cells in the ranks that hold
/// the numbered targets of that colour (rank 10 for red on the default board).
fn colour_home(board: &Board, colour: Colour) -> u128 {
    let mut ranks = [false; SIZE];
    let mut m = 0u128;
    for i in 0..CELLS {
        let c = Cell::from_index(i).expect("in range");
        if board.colour(c) == colour && board.number(c).is_some() {
            ranks[c.rank()] = true;
        }
    }
    for i in 0..CELLS {
        let c = Cell::from_index(i).expect("in range");
        if board.colour(c) == colour && ranks[c.rank()] {
            m |= 1u128 << i;
        }
    }
    m
}

/// The cells one move can reach from `cell` when any other cell may be
/// occupied or empty as needed (a relaxation of the real rules: every real move
/// is one of these): a step onto a welcoming neighbour; a chain of jumps to a
/// welcoming cell of the same parity class; a step onto a neighbour (a
/// welcoming one when strict) and then jumps to a welcoming cell of that
/// neighbour's parity class.
fn relaxed_reach(cell: usize, welcome: u128, strict: bool) -> u128 {
    let n = NEIGHBOURS[cell];
    let mut reach = (n & welcome) | (PARITY[cell] & welcome);
    let steps = if strict { n & welcome } else { n };
    for w in Bits(steps) {
        reach |= PARITY[w] & welcome;
    }
    reach & !(1u128 << cell) & BOARD
}

/// The fewest relaxed moves from each cell into `home` (breadth-first, from
/// home outwards). Each real move changes a piece's value by at most one, so
/// the sum over pieces is an admissible and consistent bound.
fn relaxed_distances(welcome: u128, home: u128, strict: bool) -> [u8; CELLS] {
    let reach: Vec<u128> = (0..CELLS).map(|c| relaxed_reach(c, welcome, strict)).collect();
    let mut dist = [FAR; CELLS];
    let mut layer = home;
    for c in Bits(home) {
        dist[c] = 0;
    }
    let mut d = 0u8;
    while layer != 0 {
        d += 1;
        let mut next = 0u128;
        for c in 0..CELLS {
            if dist[c] == FAR && reach[c] & layer != 0 {
                dist[c] = d;
                next |= 1u128 << c;
            }
        }
        layer = next;
    }
    dist
}

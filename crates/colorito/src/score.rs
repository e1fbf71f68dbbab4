//! The loser's score: the fewest moves the loser still needs to complete its
//! set, the winner's pieces staying where they are.
//!
//! This is a single-player shortest-path problem (the loser moves alone, every
//! move costs one). It is solved by IDA* with the admissible and consistent
//! bound of [`crate::ColoritoState::race_distance`], a transposition table
//! (a position already searched at the same or a smaller depth in the current
//! iteration is not searched again) and moves that bring a piece home tried
//! first. The search stops after `score-nodes` expanded positions: the result
//! is then the deepest threshold that was not completely refuted, a proven
//! lower bound, and is marked as not exact.

use std::sync::Mutex;
use std::time::Instant;

use crate::bits::Bits;
use crate::board::{CELLS, Cell, PIECES, Side};
use crate::rules::FAR;
use crate::state::{ColoritoState, Move, NONE};

/// The result of the score search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// The loser needs exactly this many more moves (the score is its negation).
    Exact(u32),
    /// The loser needs at least this many more moves: the search budget ran out
    /// before the exact number was found.
    AtLeast(u32),
    /// The loser can never complete its set (the winner's pieces hold some of
    /// its targets, or no sequence of moves exists).
    Unreachable,
}

impl Score {
    /// Whether the number is exact (also true for a proven [`Score::Unreachable`]).
    pub fn is_exact(self) -> bool {
        !matches!(self, Score::AtLeast(_))
    }

    /// The score: minus the moves still needed (or minus the lower bound);
    /// `None` when unreachable.
    pub fn value(self) -> Option<i32> {
        match self {
            Score::Exact(n) | Score::AtLeast(n) => Some(-(n as i32)),
            Score::Unreachable => None,
        }
    }

    /// The value of the record's `Score` tag: `-7`, or `unreachable`.
    pub fn tag_value(self) -> String {
        match self.value() {
            Some(v) => v.to_string(),
            None => "unreachable".to_string(),
        }
    }

    /// The score in words.
    pub fn describe(self, loser: Side) -> String {
        let s = loser.name();
        let moves = |n: u32| if n == 1 { "1 more move".to_string() } else { format!("{n} more moves") };
        match self {
            Score::Exact(n) => format!("{s} needs {} to complete the set: score -{n}", moves(n)),
            Score::AtLeast(n) => format!(
                "{s} needs at least {} to complete the set: score -{n} or lower \
                 (a proven lower bound; the search budget ran out)",
                moves(n)
            ),
            Score::Unreachable => format!("{s} can no longer complete the set with the winner's pieces where they are"),
        }
    }
}

const CACHE_SIZE: usize = 64;

type CacheKey = (u64, [u8; PIECES], Side);

static CACHE: Mutex<Vec<(CacheKey, Score)>> = Mutex::new(Vec::new());

/// The score of `loser` in `state`, from a small process-wide cache (views and
/// records of one finished game ask for it several times).
pub(crate) fn cached(state: &ColoritoState, loser: Side) -> Score {
    let key = (state.rules.fingerprint, state.pos, loser);
    if let Ok(c) = CACHE.lock()
        && let Some((_, s)) = c.iter().find(|(k, _)| *k == key)
    {
        return *s;
    }
    let s = min_moves(state, loser, state.rules.score_nodes);
    if let Ok(mut c) = CACHE.lock() {
        if c.len() >= CACHE_SIZE {
            c.remove(0);
        }
        c.push((key, s));
    }
    s
}

/// The fewest moves `side` needs to complete its set from `state` if it moved
/// alone (the other side's pieces fixed), searching at most `budget` positions.
pub fn min_moves(state: &ColoritoState, side: Side, budget: u64) -> Score {
    match solve(state, side, budget, Goal::Complete, None) {
        Solved::Found { length, .. } => Score::Exact(length),
        Solved::OutOfBudget { bound } => Score::AtLeast(bound),
        Solved::Unreachable => Score::Unreachable,
    }
}

/// The shortest way for `side` to finish from `state` if it moved alone (the
/// other side's pieces fixed): by completing its set or by the blocking rule,
/// whichever comes first (targets held by the other side's pieces then need
/// no piece), jumping only over its own pieces and the other side's pieces
/// that are home (the others may leave). Returns the first move and the
/// number of moves, or `None` when there is no such way or `budget` positions
/// did not suffice to find the shortest. Not for the just-colours variant
/// (returns `None`).
///
/// Computer players use it near the end of a race, where the evaluation's
/// estimate cannot see the several quiet moves that make a path for a last
/// piece (see [`crate::eval`]).
pub fn plan(state: &ColoritoState, side: Side, budget: u64) -> Option<(Move, u32)> {
    plan_until(state, side, budget, None)
}

/// [`plan`], giving up (`None`) once `deadline` has passed.
pub(crate) fn plan_until(
    state: &ColoritoState,
    side: Side,
    budget: u64,
    deadline: Option<Instant>,
) -> Option<(Move, u32)> {
    if state.rules.just_colours {
        return None;
    }
    match solve(state, side, budget, Goal::Finish, deadline) {
        Solved::Found { first: Some((from, to)), length } => {
            Some((Move::Go { from: cell(from), to: cell(to) }, length))
        }
        _ => None,
    }
}

fn cell(i: u8) -> Cell {
    Cell::from_index(i as usize).expect("a board cell")
}

/// What the single-player search must reach.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Goal {
    /// Every piece home.
    Complete,
    /// Every piece home whose target the fixed opponent does not occupy
    /// (completion, or the blocking rule), without jumping over opponent
    /// pieces that are not home: they may move away, and a plan that relies
    /// on them is undone as soon as they do.
    Finish,
}

/// What the single-player search found.
enum Solved {
    /// The shortest way, of `length` moves, starting with `first` (from,
    /// to); none when already there.
    Found { first: Option<(u8, u8)>, length: u32 },
    /// The budget ran out; every way takes at least `bound` moves.
    OutOfBudget { bound: u32 },
    /// There is no way.
    Unreachable,
}

/// The single-player search (IDA*).
fn solve(state: &ColoritoState, side: Side, budget: u64, goal: Goal, deadline: Option<Instant>) -> Solved {
    let r = &*state.rules;
    let opp = side.other() as usize;
    let pieces = side as usize * 20..side as usize * 20 + 20;
    // Static impossibility: a piece off the board or with no path home, or
    // homes held by the fixed opponent.
    let fixed = state.occ[opp];
    let mut dist = r.dist.clone();
    for p in pieces.clone() {
        let c = state.pos[p];
        if c == NONE || r.dist[p][c as usize] == FAR {
            return Solved::Unreachable;
        }
    }
    if r.just_colours {
        for base in [side as usize * 20, side as usize * 20 + 10] {
            if (r.home[base] & !fixed).count_ones() < 10 {
                return Solved::Unreachable;
            }
        }
    } else {
        for p in pieces.clone() {
            if r.home[p] & fixed != 0 {
                match goal {
                    Goal::Complete => return Solved::Unreachable,
                    // That target will never need its piece: the blocking rule.
                    Goal::Finish => dist[p] = [0; CELLS],
                }
            }
        }
    }
    let h0: u32 = pieces.map(|p| dist[p][state.pos[p] as usize] as u32).sum();
    if h0 == 0 {
        return Solved::Found { first: None, length: 0 };
    }
    let mut search = Search {
        st: state.clone(),
        side,
        dist,
        walls: match goal {
            Goal::Complete => 0,
            Goal::Finish => fixed & !state.held,
        },
        length: 0,
        nodes: 0,
        budget,
        deadline,
        table: vec![Entry::default(); table_size(budget)],
        stamp: 0,
        bufs: Vec::new(),
        first: None,
    };
    let mut bound = h0;
    loop {
        search.stamp = search.stamp.wrapping_add(1);
        let mut next = u32::MAX;
        match search.dfs(0, h0, bound, &mut next) {
            Flow::Found => return Solved::Found { first: search.first, length: search.length },
            Flow::OutOfBudget => return Solved::OutOfBudget { bound },
            Flow::NotFound if next == u32::MAX => return Solved::Unreachable,
            Flow::NotFound => bound = next,
        }
    }
}

/// Transposition table entries: a power of two, at most 2^20 (16 MiB), about
/// twice the node budget.
fn table_size(budget: u64) -> usize {
    (budget.saturating_mul(2).clamp(1024, 1 << 20) as usize).next_power_of_two()
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    stamp: u32,
    g: u32,
}

enum Flow {
    Found,
    NotFound,
    OutOfBudget,
}

struct Search {
    st: ColoritoState,
    side: Side,
    /// Per piece and cell, the admissible distance home (zero for pieces
    /// whose target the blocking rule excuses).
    dist: Box<[[u8; CELLS]; PIECES]>,
    /// Pieces not to jump over.
    walls: u128,
    /// The number of moves of the way found.
    length: u32,
    nodes: u64,
    budget: u64,
    /// When to give up, checked every 1,024 positions.
    deadline: Option<Instant>,
    table: Vec<Entry>,
    stamp: u32,
    /// One move list per depth: (bound after the move, from, to).
    bufs: Vec<Vec<(u32, u8, u8)>>,
    /// The first move of the solution found (from, to).
    first: Option<(u8, u8)>,
}

impl Search {
    fn dfs(&mut self, g: u32, h: u32, bound: u32, next: &mut u32) -> Flow {
        if h == 0 {
            self.length = g;
            return Flow::Found;
        }
        let f = g + h;
        if f > bound {
            *next = (*next).min(f);
            return Flow::NotFound;
        }
        let key = self.st.hash;
        let slot = (key as usize) & (self.table.len() - 1);
        let e = self.table[slot];
        if e.key == key && e.stamp == self.stamp && e.g <= g {
            return Flow::NotFound;
        }
        self.table[slot] = Entry { key, stamp: self.stamp, g };
        self.nodes += 1;
        if self.nodes > self.budget
            || (self.nodes.is_multiple_of(1024) && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            return Flow::OutOfBudget;
        }
        let depth = g as usize;
        if self.bufs.len() <= depth {
            self.bufs.resize_with(depth + 1, || Vec::with_capacity(256));
        }
        let mut buf = std::mem::take(&mut self.bufs[depth]);
        buf.clear();
        let dist = &self.dist;
        for from in Bits(self.st.occ[self.side as usize]) {
            let p = self.st.at[from] as usize;
            let d_from = dist[p][from] as u32;
            for to in Bits(self.st.destinations_past(from, self.walls)) {
                let d_to = dist[p][to];
                if d_to == FAR {
                    continue;
                }
                buf.push((h - d_from + d_to as u32, from as u8, to as u8));
            }
        }
        buf.sort_unstable_by_key(|m| m.0);
        let mut flow = Flow::NotFound;
        for &(h2, from, to) in buf.iter() {
            self.st.move_piece(from as usize, to as usize);
            let r = self.dfs(g + 1, h2, bound, next);
            self.st.move_piece(to as usize, from as usize);
            match r {
                Flow::NotFound => {}
                other => {
                    if g == 0 && matches!(other, Flow::Found) {
                        self.first = Some((from, to));
                    }
                    flow = other;
                    break;
                }
            }
        }
        self.bufs[depth] = buf;
        flow
    }
}

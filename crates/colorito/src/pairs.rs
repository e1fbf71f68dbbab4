//! The two-piece planner: how the last pieces of a race get home when no
//! plan is in the IDA* planner's reach.
//!
//! Near the end of a race a side's last pieces often stand far from home with
//! nobody to jump over. The board's colour pattern puts no two cells of a
//! colour side by side in the middle ranks, so such a piece cannot step at
//! all: another piece must come and stand where it can be jumped over, and
//! the two then climb like a ladder, one jumping over the other in turn, for
//! fifteen moves or more. That is far beyond the reach of the IDA* planner
//! ([`crate::eval`]'s `helper_plan`), and a search sees no progress within
//! its horizon, so it shuffled until `max-moves`.
//!
//! This planner searches the moves of **two** pieces only, every other piece
//! standing still: a piece away from home and a helper (another piece away,
//! or one of the home pieces nearest to it, which must then go back). Each
//! piece only ever stands on cells that welcome it, so a pair has at most a
//! few thousand positions and a breadth-first search finds the shortest way
//! for both to be home, however long, in a fraction of a millisecond. A plan
//! is a pair to bring home first and then each other piece away with its best
//! helper ([`pair_plan`] says how its length is counted); the shortest plan's
//! first move is played. As with the IDA* planner, a new plan is made every
//! move, so the opponent's moves are taken into account. It never jumps
//! over an opponent piece, not even one that is home: a home piece that
//! steps out and back, as a shuffling opponent does, would otherwise change
//! the plan at every move, and the plan with it.

use std::time::Instant;

use crate::board::{CELLS, Cell, Side};
use crate::eval::king;
use crate::rules::Rules;
use crate::state::{ColoritoState, Move, NONE, reach};

/// The planner is asked when at most this many pieces of the side to move
/// are away from home (a helper on its way counts as away).
pub(crate) const PAIR_GATE: usize = 6;

/// For each piece away, how many of the pieces of each colour nearest to it
/// are tried as its helper, and every two of them as its two helpers (in a
/// group of three).
const HELPERS: usize = 3;

/// The longest plan looked for, in moves of the pair.
const MAX_LEN: u16 = 80;

/// The most group positions one call may reach, over all its searches (a
/// pair has at most a few thousand, a group of three some tens of
/// thousands): beyond it the planner gives up, the same way every time.
const STATE_BUDGET: u64 = 1_000_000;

/// The first move of the best plan that moves two or three pieces at a
/// time, and the plan's estimated length in moves (see below). A piece whose
/// target an opponent piece holds needs no plan: once the others are home,
/// the blocking rule finishes the set. `None` when more than six (`PAIR_GATE`)
/// pieces of `side` are away, none is, such an excused piece stands on
/// another of the side's targets, some piece away has no way home that this
/// planner finds, the work exceeds `STATE_BUDGET` (a million positions
/// reached, over all its searches), or `deadline` passes first.
///
/// A plan is a **group** to move first: two pieces away, or a piece away
/// and one or two helpers (among the three pieces of each colour nearest to
/// it), brought all home by the shortest way with every other piece
/// standing still; then each other piece away with its best helper (or two).
/// Its length is the group's moves plus, for each other piece away, its
/// moves with its best helpers on the board where the other pieces away have
/// gone home (so a piece standing on another's target does not block it,
/// and may help). The group whose plan is shortest is played. So a helper
/// that has left home to serve a piece still counts that piece's whole way:
/// going straight back home is never shorter than finishing the job, and the
/// plans' lengths fall move by move, where choosing the shortest group alone
/// would send the helper back and forth.
pub fn pair_plan(state: &ColoritoState, side: Side, deadline: Option<Instant>) -> Option<(Move, u32)> {
    let r = &*state.rules;
    if r.just_colours {
        return None;
    }
    let base = side as usize * 20;
    let pos = |p: usize| state.pos[p] as usize;
    let opponent = state.occ[side.other() as usize];
    let mut away = [0usize; PAIR_GATE];
    let mut n = 0;
    for p in base..base + 20 {
        if state.pos[p] == NONE {
            return None;
        }
        if r.home[p] >> pos(p) & 1 == 1 {
            continue;
        }
        if r.home[p] & opponent != 0 {
            // Its target is held by an opponent piece: once the others are
            // home, the blocking rule finishes the set without it, unless it
            // stands on another of the side's targets.
            if r.targets[side as usize] >> pos(p) & 1 == 1 {
                return None;
            }
            continue;
        }
        if n == PAIR_GATE {
            return None;
        }
        away[n] = p;
        n += 1;
    }
    if n == 0 {
        return None;
    }
    let away = &away[..n];
    let mut bfs = Bfs::default();
    // Never jumping over an opponent piece first; then, if some piece has no
    // way, over the opponent's pieces that are home.
    plan_over(state, side, away, opponent, &mut bfs, deadline)
        .or_else(|| plan_over(state, side, away, opponent & !state.held, &mut bfs, deadline))
}

/// [`pair_plan`] for the pieces `away`, never jumping over the pieces on
/// `walls`.
fn plan_over(
    state: &ColoritoState,
    side: Side,
    away: &[usize],
    walls: u128,
    bfs: &mut Bfs,
    deadline: Option<Instant>,
) -> Option<(Move, u32)> {
    let r = &*state.rules;
    let base = side as usize * 20;
    let pos = |p: usize| state.pos[p] as usize;
    let n = away.len();
    let occ = state.occ[0] | state.occ[1];
    let out_of_budget = |bfs: &Bfs| bfs.states > STATE_BUDGET || deadline.is_some_and(|d| Instant::now() >= d);
    // The `k` pieces of each colour nearest to piece `s` (on the cells `at`
    // gives), among the home pieces and `also`: the two colours of a side
    // stand on different cells, and a ladder often needs both.
    let nearest = |s: usize, at: &dyn Fn(usize) -> usize, also: &[usize], k: usize| {
        let mut near: Vec<usize> =
            (base..base + 20).filter(|&h| h != s && (!away.contains(&h) || also.contains(&h))).collect();
        near.sort_by_key(|&h| (king(at(h), pos(s)), h));
        let colour = |h: usize| (h - base) / 10;
        let mut taken = [0usize; 2];
        near.retain(|&h| {
            taken[colour(h)] += 1;
            taken[colour(h)] <= k
        });
        near
    };
    // Alone: each piece away with its best helper (or two), the other pieces
    // away gone home (they may then help too).
    let home_cell = |p: usize| r.home[p].trailing_zeros() as usize;
    let mut alone = [None::<u16>; PAIR_GATE];
    for (i, &s) in away.iter().enumerate() {
        let others: Vec<usize> = away.iter().copied().filter(|&o| o != s).collect();
        let at = |p: usize| if others.contains(&p) { home_cell(p) } else { pos(p) };
        let board = others.iter().fold(occ, |b, &o| b & !(1u128 << pos(o)) | 1u128 << home_cell(o));
        let near = nearest(s, &at, &others, HELPERS);
        let mut best = None::<u16>;
        for &h in &near {
            let limit = best.map_or(MAX_LEN, |b| b - 1);
            if let Some((len, ..)) = bfs.run(r, &[s, h], &[pos(s), at(h)], board, walls, limit) {
                best = Some(len);
            }
        }
        if best.is_none() {
            for (j, &h) in near.iter().enumerate() {
                for &k in near.iter().skip(j + 1) {
                    let limit = best.map_or(MAX_LEN, |b| b - 1);
                    if let Some((len, ..)) = bfs.run(r, &[s, h, k], &[pos(s), at(h), at(k)], board, walls, limit) {
                        best = Some(len);
                    }
                }
            }
        }
        alone[i] = best;
        if out_of_budget(bfs) {
            return None;
        }
    }
    if alone.iter().take(n).any(Option::is_none) {
        // A piece no group of this planner brings home: the search decides.
        return None;
    }
    // The other pieces' moves alone.
    let rest = |group: &[usize]| -> u16 {
        away.iter().zip(alone).filter(|(p, _)| !group.contains(p)).map(|(_, a)| a.unwrap_or(MAX_LEN)).sum()
    };
    // The groups on the real board.
    let mut best: Option<(u16, u8, u8)> = None;
    let mut consider = |bfs: &mut Bfs, group: &[usize]| {
        let other = rest(group);
        let bound = best.map_or(MAX_LEN, |b| b.0.saturating_sub(other + 1));
        if bound == 0 {
            return;
        }
        let at: Vec<usize> = group.iter().map(|&p| pos(p)).collect();
        if let Some((len, from, to)) = bfs.run(r, group, &at, occ, walls, bound) {
            best = Some((len + other, from, to));
        }
    };
    for (i, &s) in away.iter().enumerate() {
        for &t in &away[i + 1..] {
            consider(bfs, &[s, t]);
        }
        let near = nearest(s, &pos, away, HELPERS);
        for &h in &near {
            consider(bfs, &[s, h]);
        }
        for (j, &h) in near.iter().enumerate() {
            for &k in near.iter().skip(j + 1) {
                consider(bfs, &[s, h, k]);
            }
        }
        if out_of_budget(bfs) {
            return None;
        }
    }
    let (total, from, to) = best?;
    let cell = |i: u8| Cell::from_index(i as usize).expect("a board cell");
    Some((Move::Go { from: cell(from), to: cell(to) }, total as u32))
}

/// A breadth-first search over the cells of two or three pieces.
struct Bfs {
    /// Per group of cells (`Bfs::index`): 0 if not reached, else the first
    /// move of the way there (`from << 8 | to`, plus one).
    first: Vec<u16>,
    /// The entries of `first` set, to clear them for the next search.
    touched: Vec<u32>,
    frontier: Vec<[u8; 3]>,
    next: Vec<[u8; 3]>,
    /// Positions reached, over all searches.
    states: u64,
}

impl Default for Bfs {
    fn default() -> Bfs {
        Bfs {
            first: vec![0; CELLS * CELLS * CELLS],
            touched: Vec::new(),
            frontier: Vec::new(),
            next: Vec::new(),
            states: 0,
        }
    }
}

impl Bfs {
    fn index(cells: &[u8; 3], k: usize) -> usize {
        cells[..k].iter().fold(0, |i, &c| i * CELLS + c as usize)
    }

    /// The shortest way, of at most `limit` moves, for `pieces` (two or
    /// three) standing on cells `at` to be all home, moving only them, the
    /// pieces on `occ` (theirs included) standing still and those on
    /// `walls` not jumped over: its length and first move.
    fn run(
        &mut self,
        r: &Rules,
        pieces: &[usize],
        at: &[usize],
        occ: u128,
        walls: u128,
        limit: u16,
    ) -> Option<(u16, u8, u8)> {
        let k = pieces.len();
        debug_assert!((2..=3).contains(&k) && at.len() == k);
        for i in self.touched.drain(..) {
            self.first[i as usize] = 0;
        }
        let mut start = [0u8; 3];
        let mut fixed = occ;
        for (c, &a) in start.iter_mut().zip(at) {
            *c = a as u8;
            fixed &= !(1u128 << a);
        }
        let goal = |cells: &[u8; 3]| pieces.iter().zip(cells).all(|(&p, &c)| r.home[p] >> c & 1 == 1);
        self.frontier.clear();
        self.frontier.push(start);
        let i0 = Bfs::index(&start, k);
        self.first[i0] = u16::MAX;
        self.touched.push(i0 as u32);
        let mut depth = 0u16;
        while !self.frontier.is_empty() && depth < limit {
            depth += 1;
            self.next.clear();
            for f in 0..self.frontier.len() {
                let cells = self.frontier[f];
                let here = self.first[Bfs::index(&cells, k)];
                let o = cells[..k].iter().fold(fixed, |o, &c| o | 1u128 << c);
                for m in 0..k {
                    let from = cells[m];
                    let mut dest = reach(r, pieces[m], from as usize, o, walls);
                    while dest != 0 {
                        let to = dest.trailing_zeros() as u8;
                        dest &= dest - 1;
                        let mut next = cells;
                        next[m] = to;
                        let i = Bfs::index(&next, k);
                        if self.first[i] != 0 {
                            continue;
                        }
                        let code = if depth == 1 { ((from as u16) << 8 | to as u16) + 1 } else { here };
                        self.first[i] = code;
                        self.touched.push(i as u32);
                        self.states += 1;
                        if goal(&next) {
                            let m = code - 1;
                            return Some((depth, (m >> 8) as u8, m as u8));
                        }
                        self.next.push(next);
                    }
                }
            }
            std::mem::swap(&mut self.frontier, &mut self.next);
        }
        None
    }
}

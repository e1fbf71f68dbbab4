//! The evaluation of Colorito positions for computer players
//! ([`plateau_core::Evaluate`]), written from the game's strategy: Colorito is
//! a race, so a position is judged by **how many moves each side still needs**
//! to bring its twenty pieces home, the side needing fewer being ahead.
//!
//! # The estimate of the moves a side still needs
//!
//! Every piece not yet home costs, in hundredths of a move
//! ([`EVAL_MOVE`] = 100 units = one move):
//!
//! - **Distance.** `COST[d]`, where `d` is the king distance (eight directions,
//!   as jumps go) from the piece to its nearest home cell: one move for the
//!   last step or jump onto the target, plus about a third to a half of a move
//!   for each further cell. The table is convex, most of all at its far end
//!   (a piece still in or next to its start rows costs 4.5 to 5.6 moves), so
//!   that pieces left behind weigh more than the same total distance spread
//!   over the army: the last pieces of a race have nobody left to jump over,
//!   and a piece left in the opponent's home is walled in as the opponent
//!   arrives. A piece home costs nothing.
//! - **Jumps at hand.** Jump chains make long moves possible, but only where
//!   pieces stand to be jumped over: the piece's actual destinations are
//!   computed (the move generator's flood fill of jump landings) and the
//!   nearest to home, at distance `d1`, shows what its next move can do. When
//!   one move to there and the cost from there (`EVAL_MOVE + COST[d1]`) beats
//!   `COST[d]`, 40% of the difference is credited: the jump is likely but not
//!   certain (the opponent moves first, or the side has better things to do).
//! - **Stranded pieces.** A piece with no piece (of either side) within two
//!   cells and no welcoming empty neighbour cannot move at all (a step needs a
//!   welcoming cell, a jump a piece next to it): it waits for others to come
//!   back for it, which costs them moves. It costs 1.5 moves more.
//!
//! - **Blocked targets.** A side whose every target not yet held by its right
//!   piece is occupied by the opponent has finished (the blocking rule). So
//!   when at most three pieces must still come home besides those whose
//!   targets are held by opponent pieces, the estimate is the cheaper of the
//!   full race and this route: the pieces kept out by the opponent cost
//!   nothing if the opponent piece cannot move at all, and one move if it can
//!   (it may leave; the search sees whether it does), plus one move if they
//!   stand on another of their side's targets, which they must leave. An
//!   opponent piece left in one's home is thus an asset, one's own piece left
//!   in the opponent's home a liability. Counting only opponent pieces that
//!   cannot move at all left alpha-beta unable to finish won positions
//!   (three steps from a blocking win, it shuffled for 300 moves): against
//!   greedy with 200,000 nodes a move over the same 20 openings, that gave
//!   +15 =5 −0 (87.5%), this +19 =1 −0 (97.5%); counting them free gave
//!   +17 =1 −2 (the opponent does leave).
//!
//! The weights were chosen by matches between alpha-beta players using
//! variants of this evaluation and the greedy player (which uses it too), over
//! dozens of openings with node budgets, then with the endgame planner below
//! at 200 ms a move against MCTS. Raising only the far end of the table
//! (from 410 and 470 for distances 8 and 9) took alpha-beta with the planner
//! from 85% to 95% against MCTS over the same 20 openings, and left it at
//! 92.5% against greedy (final figures in `docs/strength.md`). Did worse: a
//! table steeper throughout, stronger penalties for stuck pieces, and extra
//! costs for a piece still on its start cell (growing as the opponent comes
//! home, or when it cannot move): the search then shuffles rather than race,
//! or strands the pieces it hurries out.
//!
//! # The value
//!
//! Colorito counts moves: whoever completes in fewer moves wins, and the extra
//! move of the second player makes the count fair. So each side's total is the
//! moves it has made plus the moves it still needs, and the evaluation for a
//! side is the opponent's total minus its own. This is the tempo: a side that
//! has made one move more than the other must be one move further ahead to be
//! even, so the evaluation does not swing between odd and even search depths.
//! ±1000 (ten moves) is about decided.
//!
//! During the second player's extra move the value is exact: a draw if one
//! move can complete its set (or finish it by the blocking rule), else a lost
//! game for it.
//!
//! The evaluation is antisymmetric (`evaluate(0) == -evaluate(1)`) and
//! allocates nothing: per piece a table look-up and one flood fill of jump
//! landings. No move is noisy: a race has no captures, and the jumps at hand
//! are already in the static value.
//!
//! # The endgame planner
//!
//! Near the end of a race the last pieces often have nothing to jump over,
//! and a home full of one's own pieces leaves no welcoming cell in reach:
//! home pieces must step out to make a ladder and go back, several quiet
//! moves whose worth no static estimate shows within a search horizon.
//! Alpha-beta then shuffles until `max-moves`. So when at most
//! `PLAN_GATE` (5) pieces of the side to move are not home,
//! [`Evaluate::planned_move`] asks [`crate::plan`] for the shortest way to
//! finish if the other side stood still (jumping only over its pieces that
//! are home, which do not leave), within `PLAN_NODES` (30,000) positions and
//! half the move's time, and alpha-beta plays its first move (a new plan is
//! made every move, so an opponent that does move is taken into account).
//! Where the planner finds nothing within its budget, the search decides as
//! before.

use plateau_core::Evaluate;

use std::time::Instant;

use crate::bits::{BOARD, Bits, NEIGHBOURS, neighbours_of};
use crate::board::{CELLS, PIECES, SIZE, Side};
use crate::score::plan_until;
use crate::state::{ColoritoState, Move, NONE, Status, finish_of};

/// One move, in evaluation units.
pub const EVAL_MOVE: i32 = 100;

/// The cost of a piece not home by its king distance to home (index 0 is
/// never used: a piece home costs nothing).
const COST: [i32; 10] = [0, 100, 135, 170, 210, 250, 300, 360, 450, 560];

/// The share (in %) of the gain of the best move at hand that is credited.
const JUMP_CREDIT: i32 = 40;

/// The extra cost of a stranded piece.
const STRANDED: i32 = 150;

/// The cost of a piece off the board (study positions only): that side can
/// never complete.
const OFF_BOARD: i32 = 50 * EVAL_MOVE;

/// The blocking route is considered when at most this many pieces must still
/// come home besides those whose targets are held by opponent pieces.
const BLOCK_GATE: u32 = 3;

/// In the blocking route, the cost of a target held by an opponent piece
/// that can still move.
const MOVABLE_BLOCKER: i32 = EVAL_MOVE;

/// The value of a decided game short of a won one (the second player's extra
/// move that cannot complete).
const DECIDED: i32 = 3000;

/// The planner is asked when at most this many pieces of the side to move
/// are not home.
const PLAN_GATE: u32 = 5;

/// The planner's budget, in positions (about 2 µs each).
const PLAN_NODES: u64 = 30_000;

/// Cells within king distance 2 of each cell, the cell itself excluded.
static NEAR2: [u128; CELLS] = {
    let mut t = [0u128; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = neighbours_of(neighbours_of(1u128 << i)) & !(1u128 << i);
        i += 1;
    }
    t
};

/// The evaluation's per-piece tables, built once per configured game.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Tables {
    /// King distance (at most 9) from each cell to the piece's nearest home cell.
    dist: Box<[[u8; CELLS]; PIECES]>,
    /// Per piece, the cells at distance at most k (k = 0..9) of its home.
    within: Box<[[u128; 10]; PIECES]>,
}

fn king(a: usize, b: usize) -> usize {
    let (fa, ra, fb, rb) = (a % SIZE, a / SIZE, b % SIZE, b / SIZE);
    fa.abs_diff(fb).max(ra.abs_diff(rb))
}

impl Tables {
    /// The tables for pieces whose home cells are `home`.
    pub(crate) fn new(home: &[u128; PIECES]) -> Tables {
        let mut dist = Box::new([[0u8; CELLS]; PIECES]);
        let mut within = Box::new([[0u128; 10]; PIECES]);
        for p in 0..PIECES {
            for c in 0..CELLS {
                let d = Bits(home[p]).map(|h| king(c, h)).min().unwrap_or(9).min(9);
                dist[p][c] = d as u8;
                for w in within[p].iter_mut().skip(d) {
                    *w |= 1u128 << c;
                }
            }
        }
        Tables { dist, within }
    }
}

impl ColoritoState {
    /// The evaluation's estimate of the moves `side` still needs to complete
    /// its set, in hundredths of a move (see the module documentation of the
    /// evaluation: distance, jumps at hand, stranded pieces, blocked targets).
    /// Zero when every piece is home.
    pub fn race_estimate(&self, side: Side) -> i32 {
        let t = &*self.rules.eval;
        let occ = self.occ[0] | self.occ[1];
        let empty = BOARD & !occ;
        let opp = self.occ[side.other() as usize];
        let mut sum = 0;
        // The pieces whose target is held by an opponent piece, and the cost
        // of the others.
        let mut behind_blockers = 0u32;
        let mut others = 0;
        let mut free = 0;
        for p in side as usize * 20..side as usize * 20 + 20 {
            let c = self.pos[p];
            if c == NONE {
                sum += OFF_BOARD;
                others += OFF_BOARD;
                free += 1;
                continue;
            }
            let c = c as usize;
            if self.held >> c & 1 == 1 {
                continue;
            }
            let d = t.dist[p][c] as usize;
            let mut cost = COST[d];
            let dest = self.destinations(c);
            if dest != 0 {
                let mut d1 = 0;
                while dest & t.within[p][d1] == 0 {
                    d1 += 1;
                }
                let gain = cost - (EVAL_MOVE + COST[d1]);
                if gain > 0 {
                    cost -= gain * JUMP_CREDIT / 100;
                }
            } else if NEAR2[c] & occ == 0 && NEIGHBOURS[c] & empty & self.rules.welcome[p] == 0 {
                cost += STRANDED;
            }
            sum += cost;
            if !self.rules.just_colours && self.rules.home[p] & opp != 0 {
                behind_blockers |= 1 << (p % 20);
            } else {
                others += cost;
                free += 1;
            }
        }
        let targets = self.rules.targets[side as usize];
        if behind_blockers != 0 && free <= BLOCK_GATE && (free > 0 || self.held & targets != 0) {
            // The blocking rule: if every target this side does not hold is
            // occupied by the opponent, it has finished. Targets held by
            // opponent pieces need not be filled: free if the piece cannot
            // move at all, one move if it can (it may leave, and the search
            // sees whether it does); an own piece standing on another target
            // must still make way.
            let mut route = others;
            for k in Bits(behind_blockers as u128) {
                let p = side as usize * 20 + k;
                let home = self.rules.home[p].trailing_zeros() as usize;
                if self.destinations(home) != 0 {
                    route += MOVABLE_BLOCKER;
                }
                if targets >> self.pos[p] & 1 == 1 {
                    route += EVAL_MOVE;
                }
            }
            sum = sum.min(route);
        }
        sum
    }

    /// Whether `side`, to move, can finish with one move: complete its set or
    /// leave every target it does not hold occupied by the opponent.
    fn can_finish_now(&self, side: Side) -> bool {
        let targets = self.rules.targets[side as usize];
        let opp = self.occ[side.other() as usize];
        for p in side as usize * 20..side as usize * 20 + 20 {
            let c = self.pos[p];
            if c == NONE || self.held >> c & 1 == 1 {
                continue;
            }
            for x in Bits(self.destinations(c as usize)) {
                let held = self.held | (self.rules.home[p] & 1u128 << x);
                if finish_of(targets, held, opp).is_some() {
                    return true;
                }
            }
        }
        false
    }

    /// The evaluation for `side`: the opponent's moves made and still needed,
    /// minus its own, in hundredths of a move (see the module documentation
    /// of the evaluation).
    pub fn evaluation(&self, side: Side) -> i32 {
        if self.in_extra_move() {
            // The side to move is the second player, with one move left.
            let second = self.side;
            let v = if self.can_finish_now(second) { 0 } else { -DECIDED };
            return if side == second { v } else { -v };
        }
        let total = |s: Side| self.moves[s as usize] as i32 * EVAL_MOVE + self.race_estimate(s);
        total(side.other()) - total(side)
    }
}

impl Evaluate for ColoritoState {
    fn evaluate(&self, seat: usize) -> i32 {
        self.evaluation(if seat == 0 { Side::Red } else { Side::Blue })
    }

    fn planned_move(&self, deadline: Option<Instant>) -> Option<(Move, u32)> {
        if self.status != Status::Playing {
            return None;
        }
        if 20 - self.home_count(self.side) > PLAN_GATE {
            return None;
        }
        plan_until(self, self.side, PLAN_NODES, deadline)
    }
}

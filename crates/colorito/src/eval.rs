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
//!
//! # Versions
//!
//! All of the above is `v1` ([`Evaluate::EVALS`]), kept as it was for the
//! arena (`alphabeta:…,eval=v1`). `v2`, the default:
//!
//! - **The evaluation as a weighted sum of terms** ([`TERMS`], weights in
//!   `crates/colorito/weights.json`): v1's parts (tempo, distance, jumps at
//!   hand, stranded pieces, the blocking route's saving, the decided extra
//!   move) with v1's weights, and four new terms: pieces still on their
//!   start cells and pieces on the opponent's targets, each weighted by the
//!   opponent's share of pieces home; the distance beyond four cells of
//!   pieces away weighted by one's own share home (the last pieces have
//!   nobody to jump over); and (2026-12-04) pieces still on a start cell
//!   in a corner of the board, unweighted. A corner piece
//!   leaves only by a jump or a step then a jump (no cell next to its start
//!   welcomes it), and on the standard board the corner piece of each
//!   side's longest trip (Red's R10 on j1, Blue's D1 on j10) has a way out
//!   only now and then in the opening; once the opponent's pieces are home
//!   around it, none at all, and the race it leads ends in a draw at
//!   `max-moves`. Weighted by the opponent's share home, as the start-cells
//!   term is, it came too late to matter; unweighted, the search takes the
//!   way out when it opens.
//! - **A planner with a longer reach**: up to eight pieces away (v1: five),
//!   IDA* on a stronger bound ([`finish_bound`]): besides one move per
//!   piece away, the cells a piece's best way home must jump over that are
//!   empty now (another piece must move there first) or hold an own piece
//!   already home (it must leave and come back). Its budget counts every
//!   position whose bound is computed (the bound is most of the work), at
//!   most `PLAN2_NODES` (60,000, about 25–60 ms on this machine) and half
//!   the move's time: it finds the shortest plans of the recorded race ends
//!   (7 and 8 moves) in 6,700 and 40,000 positions (1.2 and 29 ms). Counting
//!   only the positions searched past their bound, as it first did, let one
//!   plan take seconds where no time limit held (a depth-limited level).
//! - **The group planner** ([`crate::pair_plan`]), when at most six pieces
//!   are away and the IDA* planner finds nothing: the last pieces of a race
//!   with nobody to jump over, brought home by one or two helpers, plans of
//!   any length found by a breadth-first search over the cells of two or
//!   three pieces.
//! - **A plan found is followed**: the IDA* planner's whole plan is kept
//!   (per thread), and at the next move, if its remaining moves still
//!   finish the set from the new position (each checked legal, the opponent
//!   standing still), the next one is played without searching again. A
//!   plan a little beyond the planner's time was found on some moves and
//!   not on others, and alpha-beta alternated it with the group planner's
//!   longer plan or the search's move. Being checked, a kept plan is only a
//!   hint: one from another game fails the check.

use plateau_core::Evaluate;
use plateau_core::weights::Weights;

use std::cell::RefCell;
use std::sync::LazyLock;
use std::time::Instant;

use crate::bits::{BOARD, Bits, CORNERS, NEIGHBOURS, jumps, neighbours_of};
use crate::board::{CELLS, Cell, PIECES, SIZE, Side};
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

/// The king distance between two cells.
pub(crate) fn king(a: usize, b: usize) -> usize {
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
        let p = self.parts(side);
        p.distance - p.credit + p.stranded * STRANDED - p.blocking
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
    const EVALS: &'static [&'static str] = &["v1", "v2"];
    const TERMS: &'static [&'static str] = TERMS;

    fn evaluate(&self, seat: usize) -> i32 {
        self.evaluation_v2(Side::from_seat(seat).unwrap_or(Side::Blue))
    }

    fn evaluate_version(&self, seat: usize, version: usize) -> i32 {
        let side = Side::from_seat(seat).unwrap_or(Side::Blue);
        match version {
            0 => self.evaluation(side),
            _ => self.evaluation_v2(side),
        }
    }

    /// v2 reads the pieces, the side to move and the status (all in
    /// [`plateau_core::State::key`]) and each side's count of moves (the tempo term),
    /// mixed in here; the rules are those of the search's game.
    fn eval_key(&self) -> Option<u64> {
        let moves = u64::from(self.moves[0]) << 16 | u64::from(self.moves[1]);
        Some(self.hash ^ moves.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    fn terms(&self, seat: usize, out: &mut [f32]) {
        self.terms_v2(Side::from_seat(seat).unwrap_or(Side::Blue), out);
    }

    fn weights() -> &'static [f32] {
        &WEIGHTS
    }

    fn planned_move(&self, deadline: Option<Instant>) -> Option<(Move, u32)> {
        self.planned_move_version(deadline, Self::EVALS.len() - 1)
    }

    fn planned_move_version(&self, deadline: Option<Instant>, version: usize) -> Option<(Move, u32)> {
        if self.status != Status::Playing {
            return None;
        }
        let away = 20 - self.home_count(self.side);
        if version == 0 {
            // v1: the shortest way when at most five pieces are away.
            if away > PLAN_GATE {
                return None;
            }
            return plan_until(self, self.side, PLAN_NODES, deadline);
        }
        if self.rules.just_colours || away > PLAN2_GATE {
            return None;
        }
        if let Some(plan) = remembered(self, self.side) {
            return Some(plan);
        }
        // The two-piece planner first (a few milliseconds at most), for when
        // the IDA* planner, whose plans are the shortest, finds none in time.
        let pairs = if away as usize <= crate::pairs::PAIR_GATE {
            crate::pairs::pair_plan(self, self.side, deadline)
        } else {
            None
        };
        helper_plan(self, self.side, PLAN2_NODES, deadline).or(pairs)
    }
}

// ---------------------------------------------------------------------------
// v2: the evaluation as a weighted sum of terms, and the planner's longer reach.
// ---------------------------------------------------------------------------

/// The names of v2's terms (see [`ColoritoState::terms_v2`]).
pub const TERMS: &[&str] = &[
    "tempo",
    "distance",
    "jumps",
    "stranded",
    "blocking",
    "decided",
    "start-cells-late",
    "in-opponent-home",
    "stragglers",
    "corner-start",
];

/// Indices of the terms.
pub mod term {
    /// Moves made by the opponent minus one's own.
    pub const TEMPO: usize = 0;
    /// The distance costs (moves) of the opponent's pieces minus one's own.
    pub const DISTANCE: usize = 1;
    /// The gain (moves) of the best move at hand of each piece, one's own minus the opponent's.
    pub const JUMPS: usize = 2;
    /// Stranded pieces, the opponent's minus one's own.
    pub const STRANDED: usize = 3;
    /// What the blocking route saves (moves), one's own minus the opponent's.
    pub const BLOCKING: usize = 4;
    /// The second player's extra move: +30 for the side that wins, -30 for the other, 0 for a draw.
    pub const DECIDED: usize = 5;
    /// Pieces on their start cells weighted by the opponent's share of pieces home, the opponent's minus one's own.
    pub const START_LATE: usize = 6;
    /// Pieces on the opponent's targets weighted by the opponent's share home, the opponent's minus one's own.
    pub const IN_OPP_HOME: usize = 7;
    /// Distance beyond four cells of pieces away, weighted by one's share of pieces home, the opponent's minus one's own.
    pub const STRAGGLERS: usize = 8;
    /// Pieces still on a start cell in a corner of the board, the opponent's minus one's own.
    pub const CORNER_START: usize = 9;
}

static WEIGHTS: LazyLock<Vec<f32>> =
    LazyLock::new(|| Weights::parse(include_str!("../weights.json"), TERMS).expect("crates/colorito/weights.json"));

/// The per-side quantities the terms are made of.
#[derive(Clone, Copy, Debug, Default)]
struct Parts {
    /// Σ COST[d] (hundredths of a move).
    distance: i32,
    /// Σ the gain of the best move at hand (hundredths of a move).
    gain: i32,
    /// Σ the part of each piece's gain credited to the estimate
    /// (`gain * JUMP_CREDIT / 100`, rounded down per piece).
    credit: i32,
    /// Stranded pieces.
    stranded: i32,
    /// What the blocking route saves on the estimate (hundredths of a move).
    blocking: i32,
    /// Pieces on their start cells.
    on_start: i32,
    /// Pieces on the other side's targets.
    in_opp_home: i32,
    /// Σ max(0, d - 4) over pieces away.
    beyond4: i32,
    /// Pieces on their start cells in a corner of the board.
    corner_on_start: i32,
}

impl ColoritoState {
    /// The quantities of `side`'s race: v1's estimate ([`Self::race_estimate`]) is made of them,
    /// and v2's terms count them.
    fn parts(&self, side: Side) -> Parts {
        let t = &*self.rules.eval;
        let occ = self.occ[0] | self.occ[1];
        let empty = BOARD & !occ;
        let opp = self.occ[side.other() as usize];
        let opp_targets = self.rules.targets[side.other() as usize];
        let mut out = Parts::default();
        let mut sum = 0;
        let mut behind_blockers = 0u32;
        let mut others = 0;
        let mut free = 0;
        for p in side as usize * 20..side as usize * 20 + 20 {
            let c = self.pos[p];
            if c == NONE {
                out.distance += OFF_BOARD;
                sum += OFF_BOARD;
                others += OFF_BOARD;
                free += 1;
                continue;
            }
            let c = c as usize;
            if self.held >> c & 1 == 1 {
                continue;
            }
            if self.rules.start[p] as usize == c {
                out.on_start += 1;
                out.corner_on_start += (CORNERS >> c & 1) as i32;
            }
            if opp_targets >> c & 1 == 1 {
                out.in_opp_home += 1;
            }
            let d = t.dist[p][c] as usize;
            out.distance += COST[d];
            out.beyond4 += d.saturating_sub(4) as i32;
            let mut cost = COST[d];
            let dest = self.destinations(c);
            if dest != 0 {
                let mut d1 = 0;
                while dest & t.within[p][d1] == 0 {
                    d1 += 1;
                }
                let gain = cost - (EVAL_MOVE + COST[d1]);
                if gain > 0 {
                    out.gain += gain;
                    out.credit += gain * JUMP_CREDIT / 100;
                    cost -= gain * JUMP_CREDIT / 100;
                }
            } else if NEAR2[c] & occ == 0 && NEIGHBOURS[c] & empty & self.rules.welcome[p] == 0 {
                out.stranded += 1;
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
            // must still make way. The estimate is the cheaper route.
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
            out.blocking = (sum - route).max(0);
        }
        out
    }

    /// v2's terms for `side` (see [`TERMS`] and [`term`]): each is the
    /// opponent's quantity minus one's own for costs, one's own minus the
    /// opponent's for assets, so that every weight is positive and the terms
    /// of the two sides are opposite. In moves (one move = 1.0).
    pub fn terms_v2(&self, side: Side, out: &mut [f32]) {
        out.iter_mut().for_each(|x| *x = 0.0);
        if self.in_extra_move() {
            let second = self.side;
            let v = if self.can_finish_now(second) { 0.0 } else { -(DECIDED as f32) / EVAL_MOVE as f32 };
            out[term::DECIDED] = if side == second { v } else { -v };
            return;
        }
        let other = side.other();
        let (me, op) = (self.parts(side), self.parts(other));
        let m = EVAL_MOVE as f32;
        let home = |s: Side| self.home_count(s) as f32 / 20.0;
        out[term::TEMPO] = self.moves[other as usize] as f32 - self.moves[side as usize] as f32;
        out[term::DISTANCE] = (op.distance - me.distance) as f32 / m;
        out[term::JUMPS] = (me.gain - op.gain) as f32 / m;
        out[term::STRANDED] = (op.stranded - me.stranded) as f32;
        out[term::BLOCKING] = (me.blocking - op.blocking) as f32 / m;
        out[term::START_LATE] = op.on_start as f32 * home(side) - me.on_start as f32 * home(other);
        out[term::IN_OPP_HOME] = op.in_opp_home as f32 * home(side) - me.in_opp_home as f32 * home(other);
        out[term::STRAGGLERS] = op.beyond4 as f32 * home(other) - me.beyond4 as f32 * home(side);
        out[term::CORNER_START] = (op.corner_on_start - me.corner_on_start) as f32;
    }

    /// v2's evaluation for `side`: `round(Σ weights · terms)`.
    pub fn evaluation_v2(&self, side: Side) -> i32 {
        let mut t = [0f32; TERMS.len()];
        self.terms_v2(side, &mut t);
        t.iter().zip(WEIGHTS.iter()).map(|(t, w)| t * w).sum::<f32>().round() as i32
    }
}

/// v2's planner gate: pieces away at most.
const PLAN2_GATE: u32 = 8;

/// v2: the planner's budget, in positions whose bound is computed.
const PLAN2_NODES: u64 = 60_000;

/// v2: the IDA* planner searches only where its first bound is at most the
/// pieces away plus this (a piece or two needing one helper's move): beyond,
/// it nearly never finds a plan within its budget, and a search that fails
/// takes the time of the move's search. Measured on 588 positions of 20
/// arena games (the `plan-speed` example: every third position with at
/// most eight pieces away, 60,000 positions' budget): 95 of its 96 plans
/// were found at a bound of the pieces away plus 2 or less, 79 at plus 1 or
/// less; the 140 positions at plus 2 gave 10 plans for about 19 ms each.
/// With the gate, 95 plans for 3.8 ms a call, against 12.0 ms.
const PLAN2_SLACK: u32 = 2;

/// A lower bound on the moves `side` needs to bring the piece `p` on `from`
/// home, counting the moves of other pieces its way needs: `1` per move of
/// the piece, `1` per empty cell it must jump over that is not one of its
/// side's targets (another piece must move there first) and `1` per own
/// piece already home that it must jump onto (that piece must leave and come
/// back). Cells on `walls` can be neither jumped over nor landed on, nor the
/// cells of `fixed`. At most `cap`.
#[allow(clippy::too_many_arguments)]
fn helper_bound(st: &ColoritoState, p: usize, from: usize, own: u128, fixed: u128, walls: u128, cap: u32) -> u32 {
    let r = &*st.rules;
    let target = r.home[p];
    if target >> from & 1 == 1 {
        return 0;
    }
    let welcome = r.welcome[p];
    let side = p / 20;
    let own_home = own & st.held;
    // Jumping over these costs nothing: own pieces, the other side's pieces
    // that are home, the side's targets.
    let free_mid = own | (fixed & !walls) | r.targets[side];
    let any_mid = BOARD & !walls;
    let land0 = BOARD & !fixed & !own_home;
    let land = BOARD & !fixed;
    let close = |mut b: u128, mut j: u128| loop {
        let nj = j | jumps(j, free_mid, land0);
        let nb = b | (nj & welcome);
        if nj == j && nb == b {
            return (b, j);
        }
        j = nj;
        b = nb;
    };
    let (mut b, mut j) = (1u128 << from, 0u128);
    for k in 1..=cap {
        let step_to = neighbours_of(b) & land;
        let starts = b | if st.rules.strict { step_to & welcome } else { step_to };
        let nb = b | (step_to & welcome);
        let nj = j | starts | jumps(j, any_mid, land);
        let (b2, j2) = close(nb, nj);
        if b2 & target != 0 {
            return k;
        }
        if (b2, j2) == (b, j) {
            // Nothing new within reach: home cannot be reached (the cap,
            // which callers may pass as "unbounded", would loop for ever).
            return cap;
        }
        (b, j) = (b2, j2);
    }
    cap
}

/// The shortest way for `side` to finish if the other side stood still (as
/// [`crate::plan`]: jumping only over its own pieces and the other side's
/// pieces that are home), by IDA* on a stronger bound than the race
/// distance: the pieces away, less one, plus the largest `helper_bound` of
/// one of them. Returns the first move and the length, or `None` when the
/// budget or the deadline ran out first, or when that bound is more than
/// [`PLAN2_SLACK`] above the pieces away (no search then).
pub(crate) fn helper_plan(
    state: &ColoritoState,
    side: Side,
    budget: u64,
    deadline: Option<Instant>,
) -> Option<(Move, u32)> {
    let r = &*state.rules;
    if r.just_colours {
        return None;
    }
    let fixed = state.occ[side.other() as usize];
    let base = side as usize * 20;
    let mut excused = 0u32;
    for k in 0..20 {
        let c = state.pos[base + k];
        if c == NONE || r.dist[base + k][c as usize] == crate::rules::FAR {
            return None;
        }
        if r.home[base + k] & fixed != 0 {
            excused |= 1 << k;
        }
    }
    let mut s = HelperSearch {
        st: state.clone(),
        base,
        fixed,
        walls: fixed & !state.held,
        excused,
        nodes: 0,
        budget,
        deadline,
        table: vec![(0u64, 0u32, 0u32); (budget.saturating_mul(2).clamp(1024, 1 << 20) as usize).next_power_of_two()],
        stamp: 0,
        bufs: Vec::new(),
        path: Vec::new(),
        length: 0,
    };
    let mut bound = s.h(0, u32::MAX / 2);
    if bound == 0 || bound > s.away() + PLAN2_SLACK {
        return None;
    }
    loop {
        s.stamp += 1;
        let mut next = u32::MAX;
        match s.dfs(0, bound, &mut next) {
            Some(true) => {
                s.path.reverse();
                let &(from, to) = s.path.first()?;
                remember(side, &s.path);
                return Some((go(from, to), s.length));
            }
            None => return None,
            Some(false) if next == u32::MAX || next > 200 => return None,
            Some(false) => bound = next,
        }
    }
}

fn go(from: u8, to: u8) -> Move {
    let cell = |i: u8| Cell::from_index(i as usize).expect("a board cell");
    Move::Go { from: cell(from), to: cell(to) }
}

thread_local! {
    /// The last whole plan `helper_plan` found on this thread, and whose.
    static LAST_PLAN: RefCell<(Side, Vec<(u8, u8)>)> = const { RefCell::new((Side::Red, Vec::new())) };
}

fn remember(side: Side, plan: &[(u8, u8)]) {
    LAST_PLAN.with_borrow_mut(|(s, p)| {
        *s = side;
        p.clear();
        p.extend_from_slice(plan);
    });
}

/// The rest of the last plan `helper_plan` found on this thread, when it
/// still finishes `side`'s set from `state`: after the plan's first move
/// (or its first two, or none) its remaining moves are replayed on `state`,
/// the other side standing still, each checked as `helper_plan` checks its
/// own. So a plan found once is followed to its end, move by move, as long
/// as the opponent does not get in its way, instead of being searched for
/// again within each move's time, which a plan a little beyond the budget
/// may or may not fit, one move to the next. Being checked, a remembered
/// plan is only a hint: one from another game on the same thread simply
/// fails the check. The first move and the remaining length, or `None`.
fn remembered(state: &ColoritoState, side: Side) -> Option<(Move, u32)> {
    LAST_PLAN.with_borrow_mut(|(whose, plan)| {
        if *whose != side || plan.is_empty() {
            return None;
        }
        let r = &*state.rules;
        let fixed = state.occ[side.other() as usize];
        let walls = fixed & !state.held;
        let base = side as usize * 20;
        for skip in [1, 2, 0] {
            let rest = plan.get(skip..).filter(|rest| !rest.is_empty())?;
            let mut st = state.clone();
            let valid = rest.iter().all(|&(from, to)| {
                let (from, to) = (from as usize, to as usize);
                let p = st.at[from] as usize;
                let ok = st.occ[side as usize] >> from & 1 == 1
                    && r.dist[p][to] != crate::rules::FAR
                    && st.destinations_past(from, walls) >> to & 1 == 1;
                if ok {
                    st.move_piece(from, to);
                }
                ok
            });
            let done = (base..base + 20).all(|p| {
                let c = st.pos[p];
                c != NONE && (r.home[p] >> c & 1 == 1 || r.home[p] & fixed != 0)
            });
            if valid && done {
                let n = rest.len() as u32;
                let (from, to) = rest[0];
                plan.drain(..skip);
                return Some((go(from, to), n));
            }
        }
        None
    })
}

struct HelperSearch {
    st: ColoritoState,
    base: usize,
    fixed: u128,
    walls: u128,
    /// The pieces (0..20) whose target the fixed side holds.
    excused: u32,
    nodes: u64,
    budget: u64,
    deadline: Option<Instant>,
    /// (key, stamp, g).
    table: Vec<(u64, u32, u32)>,
    stamp: u32,
    bufs: Vec<Vec<(i32, u8, u8)>>,
    /// The plan found, last move first.
    path: Vec<(u8, u8)>,
    length: u32,
}

impl HelperSearch {
    /// The bound, exact up to `limit` (anything above `limit` may be
    /// reported as `limit + 1`).
    fn h(&self, _g: u32, limit: u32) -> u32 {
        let r = &*self.st.rules;
        let own = self.st.occ[self.base / 20];
        let away = self.away();
        if away == 0 {
            return 0;
        }
        let cap = (limit + 2).saturating_sub(away).max(1);
        let mut worst = 1;
        for k in 0..20 {
            let c = self.st.pos[self.base + k];
            if self.excused >> k & 1 == 0 && r.home[self.base + k] >> c & 1 == 0 {
                worst = worst.max(helper_bound(&self.st, self.base + k, c as usize, own, self.fixed, self.walls, cap));
                if worst >= cap {
                    break;
                }
            }
        }
        away - 1 + worst
    }

    /// The pieces away, those the blocking rule excuses left out.
    fn away(&self) -> u32 {
        let r = &*self.st.rules;
        (0..20)
            .filter(|&k| {
                let c = self.st.pos[self.base + k];
                self.excused >> k & 1 == 0 && r.home[self.base + k] >> c & 1 == 0
            })
            .count() as u32
    }

    /// `Some(true)`: found; `Some(false)`: not within `bound`; `None`: out of budget.
    fn dfs(&mut self, g: u32, bound: u32, next: &mut u32) -> Option<bool> {
        // Every position counts against the budget, those cut off by their
        // bound too: the bound is most of the work.
        self.nodes += 1;
        if self.nodes > self.budget || (self.nodes % 64 == 1 && self.deadline.is_some_and(|d| Instant::now() >= d)) {
            return None;
        }
        let h = self.h(g, bound.saturating_sub(g));
        if h == 0 {
            self.length = g;
            return Some(true);
        }
        if g + h > bound {
            *next = (*next).min(g + h);
            return Some(false);
        }
        let key = self.st.hash;
        let slot = (key as usize) & (self.table.len() - 1);
        let e = self.table[slot];
        if e.0 == key && e.1 == self.stamp && e.2 <= g {
            return Some(false);
        }
        self.table[slot] = (key, self.stamp, g);
        let depth = g as usize;
        if self.bufs.len() <= depth {
            self.bufs.resize_with(depth + 1, || Vec::with_capacity(256));
        }
        let mut buf = std::mem::take(&mut self.bufs[depth]);
        buf.clear();
        let r = &*self.st.rules;
        let t = &*r.eval;
        for from in Bits(self.st.occ[self.base / 20]) {
            let p = self.st.at[from] as usize;
            let k = p - self.base;
            let cost = |c: usize| if self.excused >> k & 1 == 1 { 0 } else { COST[t.dist[p][c] as usize] };
            let c_from = cost(from);
            for to in Bits(self.st.destinations_past(from, self.walls)) {
                if r.dist[p][to] == crate::rules::FAR {
                    continue;
                }
                buf.push((cost(to) - c_from, from as u8, to as u8));
            }
        }
        buf.sort_unstable_by_key(|m| m.0);
        let mut out = Some(false);
        for &(_, from, to) in buf.iter() {
            self.st.move_piece(from as usize, to as usize);
            let res = self.dfs(g + 1, bound, next);
            self.st.move_piece(to as usize, from as usize);
            match res {
                Some(false) => {}
                Some(true) => {
                    // Pushed on the way back up: the plan's moves in reverse.
                    self.path.push((from, to));
                    out = Some(true);
                    break;
                }
                None => {
                    out = None;
                    break;
                }
            }
        }
        self.bufs[depth] = buf;
        out
    }
}

/// v2's planner: the shortest way for `side` to finish if the other side
/// stood still (see `helper_plan`), searching at most `budget` positions,
/// and only where its first bound is at most two above the pieces away;
/// the first move and the length, or `None`.
pub fn plan_v2(state: &ColoritoState, side: Side, budget: u64) -> Option<(Move, u32)> {
    helper_plan(state, side, budget, None)
}

/// The lower bound v2's planner searches with, for `side` in `state` (the
/// other side standing still): the pieces away (not counting those the
/// blocking rule excuses), less one, plus the largest `helper_bound` of
/// one of them; 0 when finished. `None` where the planner does not apply
/// (a piece off the board or that can never get home, just-colours).
pub fn finish_bound(state: &ColoritoState, side: Side) -> Option<u32> {
    let r = &*state.rules;
    if r.just_colours {
        return None;
    }
    let fixed = state.occ[side.other() as usize];
    let base = side as usize * 20;
    let mut excused = 0u32;
    for k in 0..20 {
        let c = state.pos[base + k];
        if c == NONE || r.dist[base + k][c as usize] == crate::rules::FAR {
            return None;
        }
        if r.home[base + k] & fixed != 0 {
            excused |= 1 << k;
        }
    }
    let s = HelperSearch {
        st: state.clone(),
        base,
        fixed,
        walls: fixed & !state.held,
        excused,
        nodes: 0,
        budget: 0,
        deadline: None,
        table: Vec::new(),
        stamp: 0,
        bufs: Vec::new(),
        path: Vec::new(),
        length: 0,
    };
    Some(s.h(0, 1000))
}

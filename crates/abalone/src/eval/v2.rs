//! The evaluation `v2`: `round(Σ weight · term)` over [`TERMS`], the weights
//! read from the crate's `weights.json` (hand-set or written by `plateau tune`).
//! Every term is "mine minus theirs" (antisymmetric: the terms of one side are
//! minus the other's) and a handful of bit operations.
//!
//! `v1`'s terms, unchanged in meaning:
//! - `material`: marbles pushed out, mine minus theirs (scaled to 6 to win);
//! - `centre`: the summed distance of their marbles to the reference point of
//!   `v1` (between the two centres of mass and the board's centre) minus mine;
//! - `cohesion`: pairs of own marbles side by side;
//! - `threat_to_move`, `threat_waiting`: push-out moves (at most 3 counted) of
//!   the side to move and of the other side;
//! - `edge`: their marbles on the outer ring minus mine.
//!
//! Terms that press a side ahead to finish the game (a side that only keeps
//! its lead shuffles until the ply cap):
//! - `edge_ahead`: the lead (in marbles, when positive) times their marbles
//!   on the edge: the further ahead, the more their edge marbles are worth
//!   (and minus the same for them);
//! - `progress`: marbles pushed out, squared, mine minus theirs: each push-out
//!   is worth more the nearer it brings the end;
//! - `press`: my marble right behind one of theirs on the edge, in line
//!   towards the off-board cell (one more marble and it is a push-out threat);
//! - `isolated`: their marbles with no neighbour of their own minus mine (a
//!   broken group is pushed about);
//! - `stall`: when ahead, minus the plies since the last push-out (÷ 10,
//!   at most 10): the side ahead prefers the lines that push out sooner;
//! - `sumito`: my pushing moves (2 push 1, 3 push 1 or 2, out or not), were
//!   I to move, minus theirs: the side with the stronger lines presses.

use std::sync::LazyLock;

use plateau_core::weights::Weights;

use super::v1::{EDGE, adjacent_pairs};
use crate::board::{BOARD, Bits, DIRS, ahead, shift};
use crate::state::AbaloneState;

/// The names of the terms of `v2`, in the order of `weights.json`.
pub const TERMS: [&str; 12] = [
    "material",
    "centre",
    "cohesion",
    "threat_to_move",
    "threat_waiting",
    "edge",
    "edge_ahead",
    "progress",
    "press",
    "isolated",
    "stall",
    "sumito",
];

const N: usize = TERMS.len();

/// The weights file of `v2`.
pub(super) static FILE: LazyLock<Weights> =
    LazyLock::new(|| Weights::read(include_str!("../../weights.json"), &TERMS).expect("crates/abalone/weights.json"));

/// The weights of `v2`, from `weights.json`.
pub(super) static WEIGHTS: LazyLock<[f32; N]> = LazyLock::new(|| {
    let w: Vec<f32> = FILE.terms.iter().map(|t| t.weight as f32).collect();
    w.try_into().expect("one weight a term")
});

/// For each direction, the board cells whose neighbour that way is off the
/// board.
const EDGE_TOWARDS: [Bits; 6] = {
    let mut m = [0; 6];
    let mut d = 0;
    while d < 6 {
        m[d] = BOARD & !ahead(BOARD, DIRS[d]);
        d += 1;
    }
    m
};

/// The cells of each row (`LINES[r]`) and of each diagonal (`LINES[9 + n]`)
/// of the 9×9 grid.
const LINES: [Bits; 18] = {
    let mut m = [0; 18];
    let mut i = 0;
    while i < 81 {
        m[i / 9] |= 1 << i;
        m[9 + i % 9] |= 1 << i;
        i += 1;
    }
    m
};

/// Row and diagonal index of each grid cell, as floats.
const ROW_COL: [(f32, f32); 81] = {
    let mut t = [(0.0, 0.0); 81];
    let mut i = 0;
    while i < 81 {
        t[i] = ((i / 9) as f32, (i % 9) as f32);
        i += 1;
    }
    t
};

/// The sums of the rows and of the diagonals of a set's cells, and their
/// number (as `v1`'s centre of mass, by counting each line's cells).
#[inline(always)]
fn centre_of_mass(b: Bits) -> (f32, f32, f32) {
    let (mut sr, mut sc) = (0u32, 0u32);
    let mut k = 1;
    while k < 9 {
        sr += k as u32 * (b & LINES[k]).count_ones();
        sc += k as u32 * (b & LINES[9 + k]).count_ones();
        k += 1;
    }
    (sr as f32, sc as f32, b.count_ones() as f32)
}

/// The summed distance of a set's cells to the point (`pr`, `pc`).
#[inline(always)]
fn spread(mut b: Bits, pr: f32, pc: f32) -> f32 {
    let mut sum = 0.0;
    while b != 0 {
        let (r, c) = ROW_COL[b.trailing_zeros() as usize];
        b &= b - 1;
        let (dr, dc) = (r - pr, c - pc);
        sum += dr.abs().max(dc.abs()).max((dr - dc).abs());
    }
    sum
}

/// My marbles right behind their edge marbles, in line towards the edge.
#[inline(always)]
fn press(mine: Bits, theirs: Bits) -> u32 {
    let mut n = 0;
    let mut d = 0;
    while d < 6 {
        n += (theirs & EDGE_TOWARDS[d] & shift(mine, DIRS[d])).count_ones();
        d += 1;
    }
    n
}

/// In-line moves of `own` (were it to move) that push marbles of `opp` in
/// direction step `S`: 2 push 1 and 3 push 1 or 2, into an empty cell or off
/// the board (the move generator's conditions).
#[inline(always)]
fn pushes_towards<const S: i32>(own: Bits, opp: Bits) -> u32 {
    let occ = own | opp;
    let (o1, o2, o3) = (ahead(own, S), ahead(own, 2 * S), ahead(own, 3 * S));
    let two = own & o1 & !o2 & ahead(opp, 2 * S) & !ahead(occ, 3 * S);
    let push = ahead(opp, 3 * S) & (!ahead(occ, 4 * S) | (ahead(opp, 4 * S) & !ahead(occ, 5 * S)));
    let three = own & o1 & o2 & !o3 & push;
    two.count_ones() + three.count_ones()
}

/// Every pushing move of `own` (sumito), in the six directions.
#[inline(always)]
fn pushes(own: Bits, opp: Bits) -> u32 {
    pushes_towards::<1>(own, opp)
        + pushes_towards::<10>(own, opp)
        + pushes_towards::<9>(own, opp)
        + pushes_towards::<-1>(own, opp)
        + pushes_towards::<-10>(own, opp)
        + pushes_towards::<-9>(own, opp)
}

/// Marbles with no neighbour of their own.
#[inline(always)]
fn isolated(b: Bits) -> u32 {
    let near = shift(b, 1) | shift(b, -1) | shift(b, 9) | shift(b, -9) | shift(b, 10) | shift(b, -10);
    (b & !near).count_ones()
}

impl AbaloneState {
    /// The terms of `v2` for `side` (see the module documentation).
    pub(super) fn terms_v2(&self, side: usize) -> [f32; N] {
        let me = side;
        let them = 1 - side;
        let (mine, theirs) = (self.bb[me], self.bb[them]);
        let scale = 6.0 / self.rules.marbles_to_win.max(1) as f32;
        let (cm, ct) = (self.captured[me] as f32 * scale, self.captured[them] as f32 * scale);
        let lead = cm - ct;

        let (r1, c1, n1) = centre_of_mass(mine);
        let (r2, c2, n2) = centre_of_mass(theirs);
        let com = |sum: f32, n: f32| if n > 0.0 { sum / n } else { 4.0 };
        let pr = (com(r1, n1) + com(r2, n2) + 4.0) / 3.0;
        let pc = (com(c1, n1) + com(c2, n2) + 4.0) / 3.0;

        let sign = if self.side as usize == me { 1.0 } else { -1.0 };
        let to_move = self.push_out_count(self.side as usize).min(3) as f32;
        let waiting = self.push_out_count(1 - self.side as usize).min(3) as f32;
        let (edge_mine, edge_theirs) = ((mine & EDGE).count_ones() as f32, (theirs & EDGE).count_ones() as f32);
        let stall = (self.since_capture.min(100) as f32 / 10.0) * -lead.signum();

        [
            lead,
            spread(theirs, pr, pc) - spread(mine, pr, pc),
            (adjacent_pairs(mine) - adjacent_pairs(theirs)) as f32,
            sign * to_move,
            -sign * waiting,
            edge_theirs - edge_mine,
            lead.max(0.0) * edge_theirs - (-lead).max(0.0) * edge_mine,
            cm * cm - ct * ct,
            press(mine, theirs) as f32 - press(theirs, mine) as f32,
            isolated(theirs) as f32 - isolated(mine) as f32,
            if lead == 0.0 { 0.0 } else { stall },
            pushes(mine, theirs) as f32 - pushes(theirs, mine) as f32,
        ]
    }

    /// The evaluation `v2` for `side`: `round(Σ weight · term)`.
    pub fn evaluation_v2(&self, side: usize) -> i32 {
        let t = self.terms_v2(side);
        let w = &*WEIGHTS;
        let mut sum = 0.0f32;
        for i in 0..N {
            sum += w[i] * t[i];
        }
        sum.round() as i32
    }
}

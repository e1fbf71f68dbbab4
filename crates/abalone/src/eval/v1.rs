//! The evaluation `v1`: Abalone's evaluation as it was before issue 20, kept
//! unchanged so that `eval=v1` players measure the newer one. Written from
//! the game's strategy:
//!
//! - **material**: marbles pushed out, weighted so that `marbles-to-win`
//!   push-outs are worth a decided game;
//! - **centre**: each side's marbles' distance to a reference point between the
//!   two centres of mass and the board's centre (the side that holds the
//!   centre, compactly, cannot be pushed out);
//! - **cohesion**: pairs of own marbles side by side (a cohesive group can
//!   neither be broken nor outnumbered);
//! - **danger**: marbles the opponent could push off the board at the next move,
//!   and the edge cells each side occupies.

use crate::board::{BOARD, Bits, cells};
use crate::state::AbaloneState;

const W_MATERIAL_TOTAL: i32 = 1_100;
const W_CENTRE: f32 = 7.0;
const W_COHESION: i32 = 3;
const W_THREAT_TO_MOVE: i32 = 90;
const W_THREAT_WAITING: i32 = 35;
const W_EDGE: i32 = 4;

/// Cells on the outer ring of the board.
pub(super) const EDGE: Bits = edge_mask();

const fn edge_mask() -> Bits {
    let mut m: Bits = 0;
    let mut i = 0;
    while i < 81 {
        if BOARD >> i & 1 == 1 {
            let (r, c) = (i / 9, i % 9);
            if hex_dist(r, c, 4, 4) == 4 {
                m |= 1 << i;
            }
        }
        i += 1;
    }
    m
}

pub(super) const fn hex_dist(r1: i32, c1: i32, r2: i32, c2: i32) -> i32 {
    let dx = r1 - r2;
    let dy = c1 - c2;
    let a = if dx < 0 { -dx } else { dx };
    let b = if dy < 0 { -dy } else { dy };
    let d = if dx - dy < 0 { dy - dx } else { dx - dy };
    let m = if a > b { a } else { b };
    if m > d { m } else { d }
}

/// Distance of a cell (row, col) to a point in the same axial coordinates.
pub(super) fn dist_to(r: f32, c: f32, pr: f32, pc: f32) -> f32 {
    let dx = r - pr;
    let dy = c - pc;
    dx.abs().max(dy.abs()).max((dx - dy).abs())
}

pub(super) fn centre_of_mass(b: Bits) -> (f32, f32, f32) {
    let (mut sr, mut sc, mut n) = (0.0, 0.0, 0.0);
    for c in cells(b) {
        sr += (c.index() / 9) as f32;
        sc += (c.index() % 9) as f32;
        n += 1.0;
    }
    (sr, sc, n)
}

pub(super) fn adjacent_pairs(b: Bits) -> i32 {
    // Each pair once: along the three axes.
    ((b & (b >> 1)).count_ones() + (b & (b >> 9)).count_ones() + (b & (b >> 10)).count_ones()) as i32
}

impl AbaloneState {
    /// The evaluation `v1` for `side` (see the module documentation).
    pub fn evaluation_v1(&self, side: usize) -> i32 {
        let me = side;
        let them = 1 - side;
        let to_win = self.rules.marbles_to_win.max(1) as i32;
        let material = (self.captured[me] as i32 - self.captured[them] as i32) * W_MATERIAL_TOTAL / to_win;

        let (r1, c1, n1) = centre_of_mass(self.bb[me]);
        let (r2, c2, n2) = centre_of_mass(self.bb[them]);
        let com = |sum: f32, n: f32| if n > 0.0 { sum / n } else { 4.0 };
        let pr = (com(r1, n1) + com(r2, n2) + 4.0) / 3.0;
        let pc = (com(c1, n1) + com(c2, n2) + 4.0) / 3.0;
        let spread = |b: Bits| -> f32 {
            cells(b).map(|c| dist_to((c.index() / 9) as f32, (c.index() % 9) as f32, pr, pc)).sum()
        };
        let centre = ((spread(self.bb[them]) - spread(self.bb[me])) * W_CENTRE) as i32;

        let cohesion = (adjacent_pairs(self.bb[me]) - adjacent_pairs(self.bb[them])) * W_COHESION;

        let my_threats = self.push_out_count(me) as i32;
        let their_threats = self.push_out_count(them) as i32;
        let (w_me, w_them) = if self.side as usize == me {
            (W_THREAT_TO_MOVE, W_THREAT_WAITING)
        } else {
            (W_THREAT_WAITING, W_THREAT_TO_MOVE)
        };
        let danger = my_threats.min(3) * w_me - their_threats.min(3) * w_them;
        let edge = ((self.bb[them] & EDGE).count_ones() as i32 - (self.bb[me] & EDGE).count_ones() as i32) * W_EDGE;

        material + centre + cohesion + danger + edge
    }
}

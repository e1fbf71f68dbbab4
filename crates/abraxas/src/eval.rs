//! A first evaluation for computer players ([`plateau_core::Evaluate`]): the
//! stones taken, what the lines being scored will give, and who has lines in
//! reach. Cheap (a few bitboard operations); a later issue tunes it.

use plateau_core::{Evaluate, Seat};

use crate::state::{AbraxasState, Move, Phase};

/// One red stone taken, in evaluation units.
pub const STONE: i32 = 100;

impl AbraxasState {
    /// The evaluation for seat 0 (see [`Evaluate::evaluate`]).
    fn value_for_first(&self) -> i32 {
        let t = |s: Seat| self.taken(s) as i32;
        let mut v = STONE * (t(0) - t(1));
        // Nearer the win, each stone counts more.
        let need = self.stones_to_win() as i32;
        v += 15 * ((need - t(1)).max(0).pow(2) - (need - t(0)).max(0).pow(2)) / need.max(1);
        v += 10 * (self.stops_in_hand(0) as i32 - self.stops_in_hand(1) as i32);
        let sign = |s: Seat| if s == 0 { 1 } else { -1 };
        match (self.phase(), self.scorer()) {
            (Phase::Score, Some(s)) => v += sign(s) * (STONE * self.pending_value() as i32 * 9 / 10 + 40),
            (Phase::Interlude, Some(s)) => v += sign(s) * 40,
            _ => {
                if let plateau_core::Turn::Seat(m) = plateau_core::State::to_move(self) {
                    // The player to place scores at once if a line is in reach.
                    if !self.lines_after_push().is_empty() {
                        v += sign(m) * 70;
                    } else if !self.line_threats().is_empty() {
                        v += sign(m) * 50;
                    }
                }
            }
        }
        v
    }
}

impl Evaluate for AbraxasState {
    fn evaluate(&self, seat: Seat) -> i32 {
        let v = self.value_for_first();
        if seat == 0 { v } else { -v }
    }

    /// Removals while scoring; otherwise the red placements that make a line
    /// through the stone placed.
    fn noisy_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.end().is_some() {
            return;
        }
        match self.phase() {
            Phase::Score => plateau_core::State::legal_moves(self, out),
            Phase::Place if self.reserve() > 0 => out.extend(self.line_threats().iter().map(Move::Place)),
            _ => {}
        }
    }
}

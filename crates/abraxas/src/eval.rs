//! The evaluation for computer players ([`plateau_core::Evaluate`]), written
//! from the game's strategy.
//!
//! # What matters in Abraxas
//!
//! - **The race.** The first player to hold `stones-to-win` stones wins, so a
//!   stone counts more the nearer its holder is to the goal.
//! - **Lines in reach.** Lines are looked for after the push, so what a
//!   placement makes is seen one plate position ahead: the player to place
//!   captures at once when a hole is *in reach* (a red stone there makes a line
//!   once the plate moves, [`AbraxasState::line_threats`]) or when the push
//!   alone makes a line ([`AbraxasState::lines_after_push`]).
//! - **Chains and stop stones.** A line of stones rides with the plate; once
//!   scored, its remaining stones have a gap (the three left may not stand side
//!   by side), and the scorer, who plays again, refills it and scores again.
//!   Only the opponent's interlude stop stone kills such a chain; a player
//!   without stop stones loses to any chain. A stop stone is also the only
//!   defence against a line in reach of the opponent (a red stone in the
//!   opponent's hole would ride into the line), and the only placement that
//!   adds no red circle. So stop stones in hand are a resource, worth most
//!   when they are the last.
//! - **Threats against.** After the mover's placement and push, the opponent
//!   places: the lines in reach two plate positions ahead are the opponent's,
//!   and the mover must spend a stop stone on them (when one suffices) or
//!   concede a capture.
//!
//! # The terms
//!
//! The value is computed for the first seat and negated for the second, so it
//! is antisymmetric. With [`Weights::DEFAULT`], in units where a stone is
//! [`STONE`] and ±1000 is about decided:
//!
//! | term | value |
//! |---|---|
//! | stones held | `stone` each, plus `race · (t_me² − t_them²) / need` (convex: the nearer the goal, the more a stone counts) |
//! | stop stones in hand | `stop` each, plus `last_stop` for holding at least one |
//! | the placer can capture now | `capture` per stone; `double` more if one stop stone cannot block every line in reach; `unstoppable` more if the opponent has no stop stone (chains) |
//! | the capture wins (stones held + capture ≥ need) | `decided` |
//! | the placer cannot capture, the opponent has lines in reach next turn | − `block` if the placer can block them with one stop stone; else − `capture` per stone (− `unstoppable` more without stop stones; − `decided` if it wins) |
//! | lines being scored | `pending` per stone they give, and `again` (the scorer plays again; `unstoppable`/2 if the opponent has no stop stone to break the chain) |
//! | interlude | the scorer places next at this plate position: as a placement, except that a threat one stop stone can block is blocked (the opponent's stop stone is spent) |
//!
//! Every term is a few bitboard operations (no allocation, no move applied):
//! about [`AbraxasState::red_after_push`] and [`crate::board::completions`]
//! twice.
//!
//! # Versions
//!
//! `v1` ([`Evaluate::evaluate_version`] 0) is the evaluation above with
//! [`Weights::DEFAULT`], as it was before issue 20. `v2`, the latest and
//! [`Evaluate::evaluate`], is `round(Σ w · t)` over the same terms
//! ([`TERMS`], [`Evaluate::terms`]) with the weights of
//! `crates/abraxas/weights.json`, fitted to the results of self-play by
//! `plateau tune` (Texel tuning; the file keeps the command and the fit):
//! a stop stone in hand and a capture in reach are each worth some eight
//! or nine stones held. `pending` and `again` are terms of the removal
//! and the interlude, free decisions the search never stops at, so the
//! tuner has no example of them and they keep their weights. With `v1`'s
//! weights ([`v1_weights`]) the terms give `v1` exactly (a test checks it
//! on random playouts).
//! Abraxas games end by the stones taken (none were seen to reach
//! `max-plies` or a repetition), so no term presses a side ahead to finish.
//!
//! # What the latest search looks at
//!
//! Alpha-beta's latest version asks the game which moves to search
//! ([`Evaluate::search_moves`]) and which decisions are free
//! ([`Evaluate::free_decision`]); `v1` searches as before. In the interlude
//! it searches passing and the stop stones that break a line in reach of the
//! scorer (as for noisy moves, below), not a stop stone in every empty hole;
//! in a placement turn, every red placement but only the stop stones that
//! break a line the opponent would have in reach after the next push (in the
//! hole in reach, over a dot within three cells of it, or over a dot of a
//! line the next push alone makes). The removal of a line's stones and the
//! interlude do not use up depth: a capture is seen whole. Against the same
//! evaluation searched as before, at 30,000 nodes a move on level 1 (the
//! `duel` example, 200 games each): the free decisions with the interlude's
//! moves 63.2%, then the placement turn's stop stones 56.8% and 54.2% (two
//! seeds) on top.
//!
//! # Noisy moves
//!
//! For quiescence search ([`Evaluate::noisy_moves`]): every removal (a
//! removal is a forced part of the turn: when every legal move is noisy the
//! search does not stand pat), the red placements that make a line (and,
//! once the reserve is empty, the moves of a red stone that do), and in the
//! interlude the stop stones that break a line in reach of the scorer (in the
//! hole, or over a dot of the line once the plate moves). `pass` is quiet: the
//! static value of an interlude is what the scorer gets if nothing is blocked.

use plateau_core::{Evaluate, Seat, State};

use crate::board::{Cell, Dir, PlatePos, cells, completions, lines_mask, run4_cells, run4_starts};
use crate::state::{AbraxasState, Move, Phase, red_of};

/// One red stone held, in evaluation units.
pub const STONE: i32 = 100;

/// The weights of the evaluation (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per stone held.
    pub stone: i32,
    /// The race: the squared stones held, scaled by `1 / need`.
    pub race: i32,
    /// Per stop stone in hand.
    pub stop: i32,
    /// For holding at least one stop stone.
    pub last_stop: i32,
    /// Per stone the player to place can capture at once.
    pub capture: i32,
    /// The lines in reach cannot all be blocked by one stop stone.
    pub double: i32,
    /// A capture whose chain the opponent cannot break (no stop stone).
    pub unstoppable: i32,
    /// A capture that wins.
    pub decided: i32,
    /// Spending a stop stone on the opponent's lines in reach.
    pub block: i32,
    /// Per stone of the lines being scored.
    pub pending: i32,
    /// The scorer plays again.
    pub again: i32,
}

impl Weights {
    /// The weights of [`Evaluate::evaluate`].
    pub const DEFAULT: Weights = Weights {
        stone: STONE,
        race: 15,
        stop: 45,
        last_stop: 45,
        capture: 80,
        double: 40,
        unstoppable: 250,
        decided: 900,
        block: 60,
        pending: 95,
        again: 20,
    };
}

impl Default for Weights {
    fn default() -> Self {
        Weights::DEFAULT
    }
}

/// What one placement at plate position `pos` can make once the plate is
/// pushed.
#[derive(Clone, Copy, Debug)]
struct Reach {
    /// Stones the best capture gives at once (0: none).
    gain: u32,
    /// Cells (after the push) where a red stone makes a line.
    holes: u128,
    /// Whether the push alone makes a line.
    push_lines: bool,
}

impl Reach {
    /// One stop stone (in the hole in reach) takes every line out of reach.
    #[inline]
    fn blockable(self) -> bool {
        !self.push_lines && self.holes.count_ones() <= 1
    }
}

/// The stones the lines of `circles` give (each line on its own), counting
/// only the red stones among them.
#[inline]
fn lines_value(circles: u128, stones: u128) -> u32 {
    let mut v = 0;
    for dir in Dir::ALL {
        if run4_starts(circles, dir) == 0 {
            continue;
        }
        let m = run4_cells(circles, dir);
        let runs = (m & !(m << dir.step())).count_ones();
        v += (m.count_ones() - 3 * runs).min((m & stones).count_ones());
    }
    v
}

/// The reach of the player who places now with these stones (board cells)
/// at plate position `pos`.
#[inline]
fn reach(red: u128, stops: u128, dots: u128, pos: PlatePos) -> Reach {
    let empty = pos.holes().0 & !(red | stops);
    let r1 = pos.push_mask(red);
    let circles = red_of(r1, pos.push_mask(stops), dots);
    let push_value = lines_value(circles, r1);
    let holes = completions(circles) & pos.push_mask(empty);
    let gain = if push_value > 0 { push_value } else { u32::from(holes != 0) };
    Reach { gain, holes, push_lines: push_value > 0 }
}

impl AbraxasState {
    /// The reach of the player placing now (at this plate position).
    #[inline]
    fn reach_now(&self) -> Reach {
        reach(self.c.red, self.c.stop[0] | self.c.stop[1], self.rules.dots, self.c.pos)
    }

    /// The reach of the player placing after the next push (ignoring the
    /// stone placed now).
    #[inline]
    fn reach_next(&self) -> Reach {
        let p = self.c.pos;
        reach(p.push_mask(self.c.red), p.push_mask(self.c.stop[0] | self.c.stop[1]), self.rules.dots, p.next())
    }

    /// The value of the stones and stop stones held, for `seat`, with
    /// `stops` stop stones in hand per seat.
    fn holdings(&self, w: &Weights, seat: Seat, stops: [u8; 2]) -> i32 {
        let need = self.rules.stones_to_win.max(1) as i32;
        let t = |s: Seat| self.c.taken[s] as i32;
        let o = 1 - seat;
        let mut v = w.stone * (t(seat) - t(o));
        // Convex: a stone counts more the nearer its holder is to the goal.
        v += w.race * (t(seat).min(need).pow(2) - t(o).min(need).pow(2)) / need;
        let st = |s: Seat| w.stop * stops[s] as i32 + if stops[s] > 0 { w.last_stop } else { 0 };
        v + st(seat) - st(o)
    }

    /// The value for `m`, who places next at this plate position, of what
    /// the next two placements can capture; `stops` are the stop stones in
    /// hand.
    fn placing(&self, w: &Weights, m: Seat, me: Reach, stops: [u8; 2]) -> i32 {
        let o = 1 - m;
        let need = self.rules.stones_to_win as u32;
        if me.gain > 0 {
            if self.c.taken[m] as u32 + me.gain >= need {
                return w.decided;
            }
            let mut v = w.capture * me.gain as i32;
            if stops[o] == 0 {
                v += w.unstoppable;
            } else if !me.blockable() {
                v += w.double;
            }
            return v;
        }
        let them = self.reach_next();
        if them.gain == 0 {
            return 0;
        }
        if stops[m] > 0 && them.blockable() {
            return -w.block;
        }
        if self.c.taken[o] as u32 + them.gain >= need {
            return -w.decided;
        }
        -(w.capture * them.gain as i32 + if stops[m] == 0 { w.unstoppable } else { 0 })
    }

    /// The evaluation for `seat` with the given weights (see the [module
    /// documentation](self)); [`Evaluate::evaluate`] uses
    /// [`Weights::DEFAULT`]. Only meaningful while the game goes on.
    pub fn evaluate_with(&self, w: &Weights, seat: Seat) -> i32 {
        let seat = seat & 1;
        let stops = self.c.stops;
        let mover = self.c.mover as Seat;
        // The value for the player `s` whose position it is, then signed.
        let (s, v) = match self.c.phase {
            Phase::Place => (mover, self.holdings(w, mover, stops) + self.placing(w, mover, self.reach_now(), stops)),
            Phase::Score => {
                let need = self.rules.stones_to_win as u32;
                let pending = self.pending_value();
                let o = 1 - mover;
                let v = if self.c.taken[mover] as u32 + pending.min(1) >= need {
                    w.decided
                } else {
                    w.pending * pending as i32 + if stops[o] == 0 { w.unstoppable / 2 } else { w.again }
                };
                (mover, self.holdings(w, mover, stops) + v)
            }
            Phase::Interlude => {
                // The opponent of the scorer decides; the scorer places next.
                let scorer = 1 - mover;
                let me = self.reach_now();
                if me.gain > 0 && me.blockable() {
                    // The threat is blocked: a stop stone is spent (what the
                    // opponent would have in reach after the scorer's push
                    // runs through the blocked hole too: not counted).
                    let mut after = stops;
                    after[mover] -= 1;
                    (scorer, self.holdings(w, scorer, after))
                } else {
                    (scorer, self.holdings(w, scorer, stops) + self.placing(w, scorer, me, stops))
                }
            }
        };
        if s == seat { v } else { -v }
    }

    /// The interlude stop stones that break a line in reach of the scorer:
    /// in a hole in reach, over a dot of a line the push alone makes, or over
    /// a dot near a hole in reach (once the plate moves). A mask of holes,
    /// named by the cells they are over now.
    fn blocking_holes(&self) -> u128 {
        let me = self.reach_now();
        if me.gain == 0 {
            return 0;
        }
        let p = self.c.pos;
        let empty_after = p.push_mask(self.empty_holes().0);
        let mut near = me.holes;
        for dir in Dir::ALL {
            let s = dir.step();
            let (mut up, mut down) = (me.holes, me.holes);
            for _ in 0..3 {
                up <<= s;
                down >>= s;
                near |= up | down;
            }
        }
        let dots = self.rules.dots & empty_after;
        p.unpush_mask(me.holes | (near & dots)) | self.push_line_blockers().0
    }
}

/// The cells within three steps of `m` in any direction.
#[inline]
fn near(m: u128) -> u128 {
    let mut out = m;
    for dir in Dir::ALL {
        let s = dir.step();
        let (mut up, mut down) = (m, m);
        for _ in 0..3 {
            up <<= s;
            down >>= s;
            out |= up | down;
        }
    }
    out
}

impl AbraxasState {
    /// The stop stones worth placing in a placement turn: those that, once
    /// the plate has moved twice, break a line the opponent would have in
    /// reach (in the hole in reach, over a dot near it, or over a dot of a
    /// line the second push alone makes). Holes named by their cells now.
    fn useful_stops(&self) -> u128 {
        let them = self.reach_next();
        if them.gain == 0 {
            return 0;
        }
        let (p, p1) = (self.c.pos, self.c.pos.next());
        let twice = |m: u128| p1.push_mask(p.push_mask(m));
        let empty2 = twice(self.empty_holes().0);
        let dots = self.rules.dots;
        let mut blocks = them.holes | (near(them.holes) & dots);
        if them.push_lines {
            let circles = red_of(twice(self.c.red), twice(self.c.stop[0] | self.c.stop[1]), dots);
            blocks |= lines_mask(circles) & dots;
        }
        p.unpush_mask(p1.unpush_mask(blocks & empty2))
    }
}

/// The terms of the latest evaluation (`v2`), in the order of
/// [`Evaluate::TERMS`]: each is how many times its weight counts, for the
/// player whose position it is (then signed for the seat asked). They are
/// the terms of [`Weights`], so that `v1` is exactly these with the weights
/// of [`Weights::DEFAULT`] ([`v1_weights`]); `v2` gives them the weights of
/// `crates/abraxas/weights.json`, fitted to self-play results.
pub const TERMS: [&str; N_TERMS] =
    ["stone", "race", "stop", "last_stop", "capture", "double", "unstoppable", "decided", "block", "pending", "again"];

/// The number of terms.
pub const N_TERMS: usize = 11;

const STONE_T: usize = 0;
const RACE_T: usize = 1;
const STOP_T: usize = 2;
const LAST_STOP_T: usize = 3;
const CAPTURE_T: usize = 4;
const DOUBLE_T: usize = 5;
const UNSTOPPABLE_T: usize = 6;
const DECIDED_T: usize = 7;
const BLOCK_T: usize = 8;
const PENDING_T: usize = 9;
const AGAIN_T: usize = 10;

/// The race term's resolution: `v1` computed `race · x / need` in integers
/// (rounded toward zero) with `race` = 15, so the term is `x / need` rounded
/// toward zero to a fifteenth, and `v1`'s weights reproduce `v1` exactly.
const RACE_STEP: i32 = 15;

/// The weights that make the terms `v1`: [`Weights::DEFAULT`] in the order
/// of [`TERMS`].
pub fn v1_weights() -> [f32; N_TERMS] {
    let w = Weights::DEFAULT;
    let mut out = [0.0; N_TERMS];
    for (i, v) in [
        w.stone,
        w.race,
        w.stop,
        w.last_stop,
        w.capture,
        w.double,
        w.unstoppable,
        w.decided,
        w.block,
        w.pending,
        w.again,
    ]
    .into_iter()
    .enumerate()
    {
        out[i] = v as f32;
    }
    out
}

static WEIGHTS: std::sync::LazyLock<Vec<f32>> = std::sync::LazyLock::new(|| {
    plateau_core::weights::Weights::parse(include_str!("../weights.json"), &TERMS)
        .expect("crates/abraxas/weights.json names the evaluation's terms")
});

/// The latest evaluation's weights (`crates/abraxas/weights.json`).
pub fn weights() -> &'static [f32] {
    &WEIGHTS
}

/// `round(Σ w · t)`.
#[inline]
pub fn weighted(w: &[f32], t: &[f32]) -> i32 {
    w.iter().zip(t).map(|(w, t)| w * t).sum::<f32>().round() as i32
}

impl AbraxasState {
    /// The terms for the stones and stop stones held, for `seat`, with
    /// `stops` stop stones in hand per seat (as [`AbraxasState::holdings`]).
    fn holdings_terms(&self, t: &mut [f32; N_TERMS], seat: Seat, stops: [u8; 2]) {
        let need = self.rules.stones_to_win.max(1) as i32;
        let taken = |s: Seat| self.c.taken[s] as i32;
        let o = 1 - seat;
        t[STONE_T] += (taken(seat) - taken(o)) as f32;
        let x = taken(seat).min(need).pow(2) - taken(o).min(need).pow(2);
        t[RACE_T] += (RACE_STEP * x / need) as f32 / RACE_STEP as f32;
        t[STOP_T] += stops[seat] as f32 - stops[o] as f32;
        t[LAST_STOP_T] += f32::from(u8::from(stops[seat] > 0)) - f32::from(u8::from(stops[o] > 0));
    }

    /// The terms of what the next two placements can capture, for `m` who
    /// places next (as [`AbraxasState::placing`]).
    fn placing_terms(&self, t: &mut [f32; N_TERMS], m: Seat, me: Reach, stops: [u8; 2]) {
        let o = 1 - m;
        let need = self.rules.stones_to_win as u32;
        if me.gain > 0 {
            if self.c.taken[m] as u32 + me.gain >= need {
                t[DECIDED_T] += 1.0;
                return;
            }
            t[CAPTURE_T] += me.gain as f32;
            if stops[o] == 0 {
                t[UNSTOPPABLE_T] += 1.0;
            } else if !me.blockable() {
                t[DOUBLE_T] += 1.0;
            }
            return;
        }
        let them = self.reach_next();
        if them.gain == 0 {
            return;
        }
        if stops[m] > 0 && them.blockable() {
            t[BLOCK_T] -= 1.0;
            return;
        }
        if self.c.taken[o] as u32 + them.gain >= need {
            t[DECIDED_T] -= 1.0;
            return;
        }
        t[CAPTURE_T] -= them.gain as f32;
        if stops[m] == 0 {
            t[UNSTOPPABLE_T] -= 1.0;
        }
    }

    /// The terms for the player whose position it is (the placer, the
    /// scorer), and that player.
    fn terms_for_placer(&self) -> (Seat, [f32; N_TERMS]) {
        let mut t = [0.0f32; N_TERMS];
        let stops = self.c.stops;
        let mover = self.c.mover as Seat;
        match self.c.phase {
            Phase::Place => {
                self.holdings_terms(&mut t, mover, stops);
                self.placing_terms(&mut t, mover, self.reach_now(), stops);
                (mover, t)
            }
            Phase::Score => {
                let need = self.rules.stones_to_win as u32;
                let pending = self.pending_value();
                let o = 1 - mover;
                self.holdings_terms(&mut t, mover, stops);
                if self.c.taken[mover] as u32 + pending.min(1) >= need {
                    t[DECIDED_T] += 1.0;
                } else {
                    t[PENDING_T] += pending as f32;
                    if stops[o] == 0 {
                        t[UNSTOPPABLE_T] += 0.5;
                    } else {
                        t[AGAIN_T] += 1.0;
                    }
                }
                (mover, t)
            }
            Phase::Interlude => {
                let scorer = 1 - mover;
                let me = self.reach_now();
                if me.gain > 0 && me.blockable() {
                    let mut after = stops;
                    after[mover] -= 1;
                    self.holdings_terms(&mut t, scorer, after);
                } else {
                    self.holdings_terms(&mut t, scorer, stops);
                    self.placing_terms(&mut t, scorer, me, stops);
                }
                (scorer, t)
            }
        }
    }
}

impl Evaluate for AbraxasState {
    const EVALS: &'static [&'static str] = &["v1", "v2"];
    const TERMS: &'static [&'static str] = &TERMS;

    fn evaluate(&self, seat: Seat) -> i32 {
        let mut t = [0.0f32; N_TERMS];
        self.terms(seat, &mut t);
        weighted(weights(), &t)
    }

    fn evaluate_version(&self, seat: Seat, version: usize) -> i32 {
        match version {
            0 => self.evaluate_with(&Weights::DEFAULT, seat),
            _ => self.evaluate(seat),
        }
    }

    fn terms(&self, seat: Seat, out: &mut [f32]) {
        let (s, t) = self.terms_for_placer();
        let sign = if s == seat & 1 { 1.0 } else { -1.0 };
        for (o, v) in out.iter_mut().zip(t) {
            *o = sign * v;
        }
    }

    fn weights() -> &'static [f32] {
        weights()
    }

    fn search_moves(&self, out: &mut Vec<Move>) {
        if self.c.phase == Phase::Interlude && self.c.end.is_none() {
            out.clear();
            out.push(Move::Pass);
            out.extend(cells(self.blocking_holes()).map(Move::Stop));
        } else if self.c.phase == Phase::Place
            && self.c.end.is_none()
            && self.c.reserve > 0
            && self.c.stops[self.c.mover as usize] > 0
        {
            out.clear();
            let empty = self.empty_holes().0;
            out.extend(cells(empty).map(Move::Place));
            out.extend(cells(self.useful_stops() & empty).map(Move::Stop));
        } else {
            self.legal_moves(out);
        }
    }

    fn free_decision(&self) -> bool {
        matches!(self.c.phase, Phase::Score | Phase::Interlude)
    }

    fn noisy_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.c.end.is_some() {
            return;
        }
        match self.c.phase {
            Phase::Score => self.legal_moves(out),
            Phase::Place if self.c.reserve > 0 => out.extend(self.line_threats().iter().map(Move::Place)),
            Phase::Place => {
                // Moves of a red stone to a hole in reach, from a hole whose
                // stone no line through the destination needs (or whose cell
                // shows a dot once the plate moves).
                let holes = self.reach_now().holes;
                let p = self.c.pos;
                let (red, stops, dots) =
                    (p.push_mask(self.c.red), p.push_mask(self.c.stop[0] | self.c.stop[1]), self.rules.dots);
                let circles = red_of(red, stops, dots);
                for to in cells(holes) {
                    let needed = lines_mask(circles | to.bit()) & !dots;
                    let from = p.unpush_mask(red & !needed);
                    let to = Cell::from_index(p.unpush_mask(to.bit()).trailing_zeros() as u8).expect("a hole");
                    out.extend(cells(from).map(|from| Move::Relocate { from, to }));
                }
            }
            Phase::Interlude => out.extend(cells(self.blocking_holes()).map(Move::Stop)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_value_counts_stones_per_line() {
        // A row of five circles, four of them stones: 5 − 3 = 2.
        assert_eq!(lines_value(0b11111, 0b11110), 2);
        // A row of four with one stone: 1 (the dots cannot be taken).
        assert_eq!(lines_value(0b1111, 0b0100), 1);
        assert_eq!(lines_value(0b0111, 0b0111), 0);
    }
}

//! Cheap facts about a position for computer players: what the next push
//! will show, and where a red stone would make a line. All are a few bitboard
//! operations, without applying a move.

use crate::board::{Bitboard, Dir, Line, completions, for_each_run, lines_mask, run4_cells};
use crate::state::{AbraxasState, red_of};

impl AbraxasState {
    /// The red circles the board would show if the plate were pushed now
    /// with nothing placed: the stones ride one step, the dots stay.
    #[inline]
    pub fn red_after_push(&self) -> Bitboard {
        let p = self.c.pos;
        let red = p.push_mask(self.c.red);
        let stops = p.push_mask(self.c.stop[0] | self.c.stop[1]);
        Bitboard(red_of(red, stops, self.rules.dots))
    }

    /// The cells of the lines the next push makes whatever red stone is
    /// placed (a red stone only adds a red circle): if this is not empty,
    /// every red placement scores, unless the mover places a stop stone that
    /// breaks those lines instead. Cells are named as after the push.
    #[inline]
    pub fn lines_after_push(&self) -> Bitboard {
        Bitboard(lines_mask(self.red_after_push().0))
    }

    /// The empty holes, named by the cells they are over now, where a red
    /// stone placed now makes, after the push, a line through itself (one the
    /// push alone would not make). These are the lines in reach of the player
    /// to place; the number of holes is [`Bitboard::len`].
    #[inline]
    pub fn line_threats(&self) -> Bitboard {
        let p = self.c.pos;
        let after = self.red_after_push().0;
        let empty_after = p.push_mask(self.empty_holes().0);
        Bitboard(p.unpush_mask(completions(after) & empty_after))
    }

    /// The empty holes, named by the cells they are over now, where a stop
    /// stone placed now breaks a line that the push alone would make (it
    /// covers one of its dots). Cells are named before the push.
    #[inline]
    pub fn push_line_blockers(&self) -> Bitboard {
        let p = self.c.pos;
        let lines = self.lines_after_push().0;
        let empty_after = p.push_mask(self.empty_holes().0);
        Bitboard(p.unpush_mask(lines & empty_after & self.rules.dots))
    }

    /// The stones scoring `line` would take, if it were scored now on its
    /// own: `len − 3`, or fewer when the line holds fewer red stones.
    #[inline]
    pub fn line_value(&self, line: Line) -> u32 {
        let stones = self.line_stones(line).count_ones();
        stones.min(line.len.saturating_sub(3) as u32)
    }

    /// The stones the lines still to score would give if each were scored on
    /// its own (an upper bound: an earlier removal may break a later line).
    pub fn pending_value(&self) -> u32 {
        let mut v = 0;
        for dir in Dir::ALL {
            for_each_run(self.c.pending[dir as usize], dir, |l| v += self.line_value(l));
        }
        v
    }

    /// The lines of a set of red circles (maximal runs of 4 or more), calling
    /// `f` for each.
    pub fn for_each_line(red: Bitboard, mut f: impl FnMut(Line)) {
        for dir in Dir::ALL {
            for_each_run(run4_cells(red.0, dir), dir, &mut f);
        }
    }
}

//! Integer actions and observation planes ([`plateau_core::Encode`]) for
//! learning programs. `docs/encoding/kabaleo.md` says the same with tables.
//!
//! Throughout, `k` is the number of colours in play (players + 2: 4, 5 or
//! 6), `L = 4k` the number of locations (16, 20 or 24), `n` the number of
//! seats and `P = 6k` the number of pieces (24, 30 or 36). A colour is
//! numbered by its **rank among the colours in play**, in the rules' order
//! R O Y G B V: with the default colours the rank is the colour's index
//! (red 0, orange 1, …); with `colours=GBVR` the colours in play are R G B V
//! and red is 0, green 1, blue 2, violet 3. The rules treat all colours
//! alike, so nothing is lost, and the spaces stay dense.
//!
//! # Actions
//!
//! `actions() = k·L + 1` (65, 101 or 145; see the table in the doc), fixed by
//! the configured game:
//!
//! - placing a piece of the colour of rank `r` on location number `N`
//!   (index `l = N − 1`) is `r·L + l`;
//! - the pass is the last action, `k·L`.
//!
//! Worked example (2 players, default colours, `L = 16`): `G7` is green
//! (rank 3) on location 7 (index 6): `3·16 + 6 = 54`; `R1` is 0; `pass` is
//! `4·16 = 64`. With 4 players (`L = 24`) `G7` is `3·24 + 6 = 78` and `pass`
//! is 144.
//!
//! Every action below `actions()` names a move ([`Encode::move_of`]); those
//! above name none. A [`Move`] value that is no move of this configured game
//! (a colour not in play, a location beyond the last: [`State::parse_move`](plateau_core::State::parse_move)
//! never makes one) has the action `actions()`, which names no move.
//!
//! # Observation
//!
//! Shape `[planes, 1, L]`: one column per location, in location order
//! (number 1 first). The layout of the bases has no effect on the rules, so
//! there is no grid: treat the columns as a set of `L` tokens. Every value
//! is 0 or 1 except the normalised counts. Planes, in order (`<c>` runs over
//! the colours in play by rank, named by their English names, `red` …):
//!
//! | planes | count | value at location `l` |
//! |---|---|---|
//! | `base_<c>` | k | 1 if `l`'s base is of colour `c` |
//! | `shows_<c>` | k | 1 if `l` shows `c` (its top piece, or its bare base) |
//! | `covered` | 1 | 1 if `l` has at least one piece |
//! | `height` | 1 | the number of pieces on `l` / P |
//! | `forbidden` | 1 | 1 if the golden rule forbids `l` to the seat to move |
//! | `depth<d>_<c>` | P·k | 1 if the piece `d` below the top of `l` (d = 0 the top piece) is of colour `c`; d = 0 … P−1 |
//! | `objective_<c>` | k | constant: 1 if the observer's own objective is `c` |
//! | `stock_p<i>_<c>` | n·k | constant: pieces of `c` in the stock of seat `i` after the observer / 6 |
//! | `to_move_p<i>` | n | constant: 1 if seat `i` after the observer is to move (all 0 once the game is over) |
//! | `pieces_left` | 1 | constant: the pieces left in all stocks / P |
//! | `golden_rule` | 1 | constant: 1 if the golden rule is on |
//!
//! `p0` is the observer, `p1` the seat that plays after it, and so on in
//! turn order (seat order). The pile planes hold every piece of every pile
//! (a pile never exceeds the `P` pieces of the game), so the observation is
//! Markov for the rules: a cancel reveals the piece below, and it is there.
//!
//! Not in the observation: the other seats' objectives (never, not even at
//! the end when the view reveals them: no decision follows the end, and the
//! outcome gives the returns), and the history of moves (who placed what,
//! where), which is what a player infers the others' objectives from; a
//! learner that wants it must keep it (a recurrent policy, or the moves the
//! environment reports). The location of the previous placement is there
//! only as `forbidden`, when the golden rule makes it matter.

use plateau_core::{Encode, Seat};

use crate::colour::{COLOURS, Colour};
use crate::game::PIECES_PER_COLOUR;
use crate::state::{KabaleoState, Move, NONE};

impl KabaleoState {
    /// The number of colours in play (`k`).
    #[inline]
    fn k(&self) -> usize {
        self.in_play.len()
    }

    /// The rank of colour index `c` among the colours in play.
    #[inline]
    fn rank(&self, c: usize) -> usize {
        (self.in_play.bits() & ((1u8 << c) - 1)).count_ones() as usize
    }

    /// The colour index of rank `r` among the colours in play (`r < k`).
    #[inline]
    fn colour_of_rank(&self, r: usize) -> usize {
        let mut bits = self.in_play.bits();
        for _ in 0..r {
            bits &= bits - 1;
        }
        bits.trailing_zeros() as usize
    }

    /// The number of pieces of the game (`P`), also the most a pile holds.
    #[inline]
    fn pieces(&self) -> usize {
        PIECES_PER_COLOUR * self.k()
    }

    /// The number of planes: `6k² + 3k + nk + n + 5`, with `P = 6k`.
    #[inline]
    fn planes(&self) -> usize {
        let (k, n) = (self.k(), self.seats as usize);
        2 * k + 3 + self.pieces() * k + k + n * k + n + 2
    }
}

impl Encode for KabaleoState {
    fn actions(&self) -> usize {
        self.k() * self.n_loc as usize + 1
    }

    fn action(&self, mv: Move) -> usize {
        let n_loc = self.n_loc as usize;
        if mv.is_pass() {
            return self.k() * n_loc;
        }
        match (mv.colour(), mv.location()) {
            (Some(c), Some(l)) if l < n_loc && self.in_play.contains(c) => self.rank(c.index()) * n_loc + l,
            _ => self.actions(),
        }
    }

    fn move_of(&self, action: usize) -> Option<Move> {
        let n_loc = self.n_loc as usize;
        let places = self.k() * n_loc;
        if action < places {
            let c = self.colour_of_rank(action / n_loc);
            Some(Move::place(Colour::ALL[c], action % n_loc))
        } else if action == places {
            Some(Move::PASS)
        } else {
            None
        }
    }

    fn observation_shape(&self) -> [usize; 3] {
        [self.planes(), 1, self.n_loc as usize]
    }

    fn plane_names(&self) -> Vec<String> {
        let names: Vec<&str> = self.in_play.iter().map(Colour::name).collect();
        let mut out = Vec::with_capacity(self.planes());
        out.extend(names.iter().map(|c| format!("base_{c}")));
        out.extend(names.iter().map(|c| format!("shows_{c}")));
        out.extend(["covered", "height", "forbidden"].map(String::from));
        for d in 0..self.pieces() {
            out.extend(names.iter().map(|c| format!("depth{d}_{c}")));
        }
        out.extend(names.iter().map(|c| format!("objective_{c}")));
        for i in 0..self.seats as usize {
            out.extend(names.iter().map(|c| format!("stock_p{i}_{c}")));
        }
        out.extend((0..self.seats as usize).map(|i| format!("to_move_p{i}")));
        out.extend(["pieces_left", "golden_rule"].map(String::from));
        out
    }

    fn observe(&self, seat: Seat, out: &mut [f32]) {
        let n = self.seats as usize;
        let w = self.n_loc as usize;
        let k = self.k();
        let p = self.pieces();
        assert!(seat < n, "seat {seat} observes, but there are {n} seats");
        assert_eq!(out.len(), self.planes() * w, "the observation buffer has the wrong size");
        out.fill(0.0);
        // Rank of each colour index (colours not in play are never used).
        let mut rank = [0usize; COLOURS];
        for (c, r) in rank.iter_mut().enumerate() {
            *r = self.rank(c);
        }
        let base = 0;
        let shows = k;
        let covered = 2 * k;
        let height = covered + 1;
        let forbidden = covered + 2;
        let depth = covered + 3;
        let objective = depth + p * k;
        let stock = objective + k;
        let to_move = stock + n * k;
        let pieces_left = to_move + n;
        let golden = pieces_left + 1;
        let mut set = |plane: usize, l: usize, v: f32| out[plane * w + l] = v;

        for l in 0..w {
            let h = self.heights[l] as usize;
            set(base + rank[self.bases[l] as usize], l, 1.0);
            let top = if h == 0 { self.bases[l] as usize } else { (self.piles[l] & 7) as usize };
            set(shows + rank[top], l, 1.0);
            if h > 0 {
                set(covered, l, 1.0);
                set(height, l, h as f32 / p as f32);
            }
            let mut pile = self.piles[l];
            for d in 0..h.min(p) {
                set(depth + d * k + rank[(pile & 7) as usize], l, 1.0);
                pile >>= 3;
            }
        }
        if self.golden && self.remaining > 0 && self.last != NONE {
            set(forbidden, self.last as usize, 1.0);
        }
        let mut constant = |plane: usize, v: f32| out[plane * w..(plane + 1) * w].fill(v);
        let own = self.objectives[seat];
        if own != NONE {
            constant(objective + rank[own as usize], 1.0);
        }
        for i in 0..n {
            let s = (seat + i) % n;
            for c in self.in_play.iter() {
                let count = self.stocks[s][c.index()];
                if count > 0 {
                    constant(stock + i * k + rank[c.index()], count as f32 / PIECES_PER_COLOUR as f32);
                }
            }
        }
        if self.remaining > 0 {
            let i = (self.turn as usize + n - seat) % n;
            constant(to_move + i, 1.0);
        }
        constant(pieces_left, self.remaining as f32 / p as f32);
        if self.golden {
            constant(golden, 1.0);
        }
    }
}

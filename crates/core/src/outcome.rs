//! The result of a finished game: who won, per-seat returns for search, and why
//! the game ended.

use crate::{MAX_SEATS, Seat};

/// The result of a finished game.
///
/// Returns are in `-1.0..=1.0`, one per seat, higher is better; they sum to zero.
/// Two players: win 1, loss −1, draw 0. More players: by rank (see
/// [`Outcome::ranked`]). Winners are the seats ranked first; when every seat is
/// a winner the game is a draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    seats: u8,
    winners: u8,
    returns: [f32; MAX_SEATS],
    /// Why the game ended, in a few words ("push-out", "threefold repetition").
    pub reason: &'static str,
}

impl Outcome {
    /// `seat` wins alone; every other seat shares last place.
    pub fn win(seats: usize, seat: Seat, reason: &'static str) -> Self {
        let mut ranks = [1u8; MAX_SEATS];
        ranks[seat] = 0;
        Outcome::ranked(&ranks[..seats], reason)
    }

    /// Every seat draws.
    pub fn draw(seats: usize, reason: &'static str) -> Self {
        Outcome::ranked(&[0u8; MAX_SEATS][..seats], reason)
    }

    /// The seats in `winners` share first place; the others share last place.
    pub fn shared_win(seats: usize, winners: &[Seat], reason: &'static str) -> Self {
        let mut ranks = [1u8; MAX_SEATS];
        for &w in winners {
            ranks[w] = 0;
        }
        Outcome::ranked(&ranks[..seats], reason)
    }

    /// From a rank per seat (0 is first; equal ranks are ties). A seat's return
    /// is `1 − 2·p/(n−1)` where `p` is the average of the places (0-based) its
    /// rank group occupies: 4 seats ranked 0,1,2,3 get 1, ⅓, −⅓, −1.
    ///
    /// # Panics
    /// If there are fewer than 1 or more than [`MAX_SEATS`] seats.
    pub fn ranked(ranks: &[u8], reason: &'static str) -> Self {
        let n = ranks.len();
        assert!((1..=MAX_SEATS).contains(&n), "bad number of seats {n}");
        let mut returns = [0f32; MAX_SEATS];
        let mut winners = 0u8;
        let best = *ranks.iter().min().unwrap_or(&0);
        for (s, &r) in ranks.iter().enumerate() {
            let better = ranks.iter().filter(|&&o| o < r).count();
            let equal = ranks.iter().filter(|&&o| o == r).count();
            let place = better as f32 + (equal as f32 - 1.0) / 2.0;
            returns[s] = if n == 1 { 0.0 } else { 1.0 - 2.0 * place / (n as f32 - 1.0) };
            if r == best {
                winners |= 1 << s;
            }
        }
        Outcome { seats: n as u8, winners, returns, reason }
    }

    /// The number of seats.
    pub fn seats(&self) -> usize {
        self.seats as usize
    }

    /// The return of `seat`.
    pub fn value(&self, seat: Seat) -> f32 {
        self.returns[seat]
    }

    /// All returns, one per seat.
    pub fn returns(&self) -> &[f32] {
        &self.returns[..self.seats as usize]
    }

    /// Whether `seat` is among the winners.
    pub fn is_winner(&self, seat: Seat) -> bool {
        self.winners & (1 << seat) != 0
    }

    /// The winners.
    pub fn winners(&self) -> Vec<Seat> {
        (0..self.seats()).filter(|&s| self.is_winner(s)).collect()
    }

    /// Whether every seat is a winner (a draw).
    pub fn is_draw(&self) -> bool {
        self.winners.count_ones() as usize == self.seats()
    }

    /// The result in PGN style: one score per seat, `1` for a sole winner,
    /// `1/k` for a win shared by k, `0` otherwise: `1-0`, `0-1`, `1/2-1/2`,
    /// `0-1-0`, `1/2-0-1/2-0`.
    pub fn result_string(&self) -> String {
        let k = self.winners.count_ones();
        let win = if k == 1 { "1".to_string() } else { format!("1/{k}") };
        (0..self.seats()).map(|s| if self.is_winner(s) { win.as_str() } else { "0" }).collect::<Vec<_>>().join("-")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_player_returns() {
        let w = Outcome::win(2, 1, "x");
        assert_eq!(w.returns(), &[-1.0, 1.0]);
        assert_eq!(w.result_string(), "0-1");
        let d = Outcome::draw(2, "x");
        assert_eq!(d.returns(), &[0.0, 0.0]);
        assert!(d.is_draw());
        assert_eq!(d.result_string(), "1/2-1/2");
    }

    #[test]
    fn ranked_returns_sum_to_zero() {
        for ranks in [&[0u8, 1, 2, 3][..], &[1, 0, 0, 2], &[0, 0, 1], &[2, 2, 0, 1], &[0, 0, 0, 0]] {
            let o = Outcome::ranked(ranks, "x");
            let sum: f32 = o.returns().iter().sum();
            assert!(sum.abs() < 1e-5, "{ranks:?} {:?}", o.returns());
            for s in 0..ranks.len() {
                for t in 0..ranks.len() {
                    if ranks[s] < ranks[t] {
                        assert!(o.value(s) > o.value(t));
                    }
                }
            }
        }
        let o = Outcome::ranked(&[0, 1, 2, 3], "x");
        assert_eq!(o.result_string(), "1-0-0-0");
        let o = Outcome::shared_win(4, &[0, 2], "x");
        assert_eq!(o.result_string(), "1/2-0-1/2-0");
        assert_eq!(o.winners(), vec![0, 2]);
    }
}

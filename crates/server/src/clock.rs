//! Time controls and the clocks of a game.
//!
//! The server's clock is the truth. A game's clocks are rebuilt from its
//! events alone (each event carries the time it was committed), so that they
//! need no column of their own and survive a restart: a `clock` event written
//! when a live game is loaded again sets every seat's time as of the last
//! event before the stop, so that time while the server was down is charged
//! to nobody.
//!
//! Rules (docs/server.md, *Clocks*):
//! - the clock of the seat to move runs once the game has had its first move
//!   (the very first move is free: the players may still be arriving);
//! - a move charges the time since the turn began, then adds the increment
//!   (live) or sets the time back to the days per move (correspondence);
//! - computer seats have no clock: their time is their level's, nothing is
//!   charged to them;
//! - a seat whose time reaches zero while its clock runs loses on time.

use plateau_core::Seat;
use serde_json::{Value, json};

/// The longest initial time of a live game, in seconds (3 hours).
pub const MAX_INITIAL: u64 = 3 * 3600;
/// The largest increment, in seconds.
pub const MAX_INCREMENT: u64 = 180;
/// The most days per move of a correspondence game.
pub const MAX_DAYS: u64 = 14;

const DAY_MS: i64 = 24 * 3600 * 1000;

/// A game's time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Initial time and an increment per move, in seconds.
    Live {
        /// Seconds at the start.
        initial: u64,
        /// Seconds added after each move.
        increment: u64,
    },
    /// Days per move.
    Correspondence {
        /// Days for each move.
        days: u64,
    },
}

impl TimeControl {
    /// From a client's JSON: `{"initial": S, "increment": S}` or `{"days": N}`.
    pub fn parse(v: &Value) -> Result<TimeControl, String> {
        let Value::Object(o) = v else {
            return Err("a clock is {\"initial\": seconds, \"increment\": seconds} or {\"days\": n}".into());
        };
        let num = |k: &str| -> Result<Option<u64>, String> {
            match o.get(k) {
                None => Ok(None),
                Some(x) => {
                    x.as_u64().map(Some).ok_or_else(|| format!("the clock's {k} is a whole number of at least 0"))
                }
            }
        };
        if let Some(k) = o.keys().find(|k| !matches!(k.as_str(), "initial" | "increment" | "days")) {
            return Err(format!("a clock has no field {k:?}: use initial and increment, or days"));
        }
        match (num("initial")?, num("increment")?, num("days")?) {
            (None, None, Some(days)) => {
                if !(1..=MAX_DAYS).contains(&days) {
                    return Err(format!("a correspondence clock has 1 to {MAX_DAYS} days per move"));
                }
                Ok(TimeControl::Correspondence { days })
            }
            (Some(initial), increment, None) => {
                let increment = increment.unwrap_or(0);
                if initial > MAX_INITIAL {
                    return Err(format!("the initial time is at most {MAX_INITIAL} seconds"));
                }
                if increment > MAX_INCREMENT {
                    return Err(format!("the increment is at most {MAX_INCREMENT} seconds"));
                }
                if initial == 0 && increment == 0 {
                    return Err("a clock of 0 seconds and no increment leaves no time to move".into());
                }
                Ok(TimeControl::Live { initial, increment })
            }
            _ => Err("a clock is {\"initial\": seconds, \"increment\": seconds} or {\"days\": n}, not both".into()),
        }
    }

    /// Its JSON form (as clients send it).
    pub fn json(self) -> Value {
        match self {
            TimeControl::Live { initial, increment } => json!({ "initial": initial, "increment": increment }),
            TimeControl::Correspondence { days } => json!({ "days": days }),
        }
    }

    /// Its stored form.
    pub fn to_json(self) -> String {
        self.json().to_string()
    }

    /// From its stored form.
    pub fn from_json(s: &str) -> Result<TimeControl, String> {
        let v: Value = serde_json::from_str(s).map_err(|e| e.to_string())?;
        TimeControl::parse(&v)
    }

    /// Whether this is a correspondence game.
    pub fn is_correspondence(self) -> bool {
        matches!(self, TimeControl::Correspondence { .. })
    }

    /// Each seat's time at the start, in ms.
    pub fn start_ms(self) -> i64 {
        match self {
            TimeControl::Live { initial, .. } => initial as i64 * 1000,
            TimeControl::Correspondence { days } => days as i64 * DAY_MS,
        }
    }

    /// A seat's time after a move that left it `left` ms.
    fn after_move(self, left: i64) -> i64 {
        match self {
            TimeControl::Live { increment, .. } => left + increment as i64 * 1000,
            TimeControl::Correspondence { days } => days as i64 * DAY_MS,
        }
    }
}

/// The clocks of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    tc: TimeControl,
    /// Each seat's time, as of `since` for the running seat.
    left: Vec<i64>,
    /// The seat whose clock runs, and since when (ms since 1970).
    running: Option<(Seat, i64)>,
}

impl Clocks {
    /// Full clocks for `seats` seats, none running.
    pub fn new(tc: TimeControl, seats: usize) -> Clocks {
        Clocks { tc, left: vec![tc.start_ms(); seats], running: None }
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.tc
    }

    /// The seat whose clock runs.
    pub fn running(&self) -> Option<Seat> {
        self.running.map(|(s, _)| s)
    }

    /// Each seat's time at `now`, in ms (never below 0).
    pub fn at(&self, now: i64) -> Vec<i64> {
        let mut v = self.left.clone();
        if let Some((s, since)) = self.running {
            v[s] = (v[s] - (now - since).max(0)).max(0);
        }
        v
    }

    /// When the running seat's time runs out (ms since 1970).
    pub fn deadline(&self) -> Option<i64> {
        self.running.map(|(s, since)| since + self.left[s])
    }

    /// Stop the running clock at `at`, charging its seat.
    pub fn stop(&mut self, at: i64) {
        if let Some((s, since)) = self.running.take() {
            self.left[s] = (self.left[s] - (at - since).max(0)).max(0);
        }
    }

    /// `seat` moved at `at`: charge it, add the increment.
    pub fn moved(&mut self, seat: Seat, at: i64) {
        let was_running = self.running.is_some_and(|(s, _)| s == seat);
        self.stop(at);
        if was_running && seat < self.left.len() {
            self.left[seat] = self.tc.after_move(self.left[seat]);
        }
    }

    /// Start the clock of `seat` at `at` (none: no clock runs).
    pub fn start(&mut self, seat: Option<Seat>, at: i64) {
        self.stop(at);
        self.running = seat.filter(|&s| s < self.left.len()).map(|s| (s, at));
    }

    /// Set every seat's time (a `clock` event), none running.
    pub fn set(&mut self, left: &[i64]) {
        self.running = None;
        for (l, &v) in self.left.iter_mut().zip(left) {
            *l = v.max(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_limits() {
        assert_eq!(
            TimeControl::parse(&json!({"initial": 300, "increment": 3})),
            Ok(TimeControl::Live { initial: 300, increment: 3 })
        );
        assert_eq!(TimeControl::parse(&json!({"initial": 60})), Ok(TimeControl::Live { initial: 60, increment: 0 }));
        assert_eq!(TimeControl::parse(&json!({"days": 3})), Ok(TimeControl::Correspondence { days: 3 }));
        for bad in [
            json!({"initial": 0, "increment": 0}),
            json!({"initial": 10801}),
            json!({"initial": 60, "increment": 181}),
            json!({"days": 0}),
            json!({"days": 15}),
            json!({"days": 2, "initial": 60}),
            json!({"initial": -1}),
            json!({"initial": 1.5}),
            json!({"minutes": 5}),
            json!({}),
            json!(5),
        ] {
            assert!(TimeControl::parse(&bad).is_err(), "{bad}");
        }
        let tc = TimeControl::Live { initial: 300, increment: 3 };
        assert_eq!(TimeControl::from_json(&tc.to_json()), Ok(tc));
    }

    #[test]
    fn charging_by_hand() {
        // 5+3: seat 0 moves after 10 s (its clock was started), seat 1 after 4 s.
        let mut c = Clocks::new(TimeControl::Live { initial: 300, increment: 3 }, 2);
        c.start(Some(0), 1_000);
        assert_eq!(c.at(6_000), vec![295_000, 300_000]);
        assert_eq!(c.deadline(), Some(301_000));
        c.moved(0, 11_000);
        assert_eq!(c.at(11_000), vec![293_000, 300_000]);
        c.start(Some(1), 11_000);
        c.moved(1, 15_000);
        c.start(Some(0), 15_000);
        assert_eq!(c.at(15_000), vec![293_000, 299_000]);
        // Past the deadline the time reads 0.
        assert_eq!(c.at(15_000 + 400_000), vec![0, 299_000]);
        // A move by a seat whose clock did not run is not charged, and gets
        // no increment.
        let mut d = Clocks::new(TimeControl::Live { initial: 60, increment: 2 }, 2);
        d.moved(0, 5_000);
        assert_eq!(d.at(9_000), vec![60_000, 60_000]);
        // Correspondence: the time goes back to the days per move.
        let mut e = Clocks::new(TimeControl::Correspondence { days: 2 }, 2);
        e.start(Some(1), 0);
        e.moved(1, 3_600_000);
        assert_eq!(e.at(3_600_000), vec![2 * DAY_MS, 2 * DAY_MS]);
        // A clock event sets the times, none running.
        e.start(Some(0), 0);
        e.set(&[5, 7]);
        assert_eq!(e.running(), None);
        assert_eq!(e.at(1_000_000), vec![5, 7]);
    }
}

//! Time and players at the table: the clocks (charged from the committed
//! events, falling by a timer, started again after a stop), absence and
//! abandonment claims, and what the end of a game writes (each seat's
//! outcome, and the new ratings of a rated game).

use plateau_rating::Rating;

use super::*;
use crate::clock::Clocks;
use crate::store::players::RatingChange;

/// Apply one committed event to the clocks (live, and when replaying).
pub(super) fn clock_event(c: &mut Clocks, e: &EventRow) {
    match e.kind {
        EventKind::Move => {
            if let Some(s) = e.seat {
                c.moved(s, e.at);
            }
        }
        EventKind::Clock => {
            let v: Value = serde_json::from_str(&e.data).unwrap_or(Value::Null);
            let left: Vec<i64> =
                v["clocks"].as_array().map(|a| a.iter().filter_map(Value::as_i64).collect()).unwrap_or_default();
            c.set(&left);
        }
        EventKind::GameOver => c.stop(e.at),
        _ => {}
    }
}

/// Run the clock that should run at `at`: the seat to move, if a person,
/// once the game is going and has had its first move.
pub(super) fn clock_sync(c: &mut Clocks, m: &dyn AnyMatch, kinds: &[SeatKind], going: bool, at: i64) {
    let want = if going && m.ply() >= 1 && m.outcome().is_none() {
        m.to_move().seat().filter(|&s| kinds.get(s) == Some(&SeatKind::Human))
    } else {
        None
    };
    if c.running() != want {
        c.start(want, at);
    }
}

/// Each seat's outcome once over: `win`, `draw` or `loss`.
fn outcomes(o: &Outcome) -> Vec<&'static str> {
    (0..o.seats())
        .map(|s| {
            if o.is_draw() {
                "draw"
            } else if o.is_winner(s) {
                "win"
            } else {
                "loss"
            }
        })
        .collect()
}

/// The new ratings of a finished game's seats, from their ratings before
/// (docs/ratings.md): two seats, `rate_two` from the first seat's score;
/// more, `rate_ranking` with each seat ranked by how many did strictly better.
pub(crate) fn rate(o: &Outcome, before: &[Rating]) -> Vec<Rating> {
    let n = before.len();
    if n == 2 {
        let (a, b) = (o.value(0), o.value(1));
        let score = if a > b {
            plateau_rating::WIN
        } else if a < b {
            plateau_rating::LOSS
        } else {
            plateau_rating::DRAW
        };
        let (ra, rb) = plateau_rating::rate_two(before[0], before[1], score);
        return vec![ra, rb];
    }
    let ranked: Vec<(Rating, u32)> =
        (0..n).map(|s| (before[s], (0..n).filter(|&t| o.value(t) > o.value(s)).count() as u32)).collect();
    plateau_rating::rate_ranking(&ranked)
}

/// What the end of a game writes beyond its events.
pub(super) struct Ending {
    /// The `game_over` event's data.
    pub data: Value,
    /// The writes: the status, each seat's outcome, the ratings.
    pub ops: Vec<WriteOp>,
    /// Held until the writes are committed: ratings are read and written
    /// by one game at a time, so that two games of one player never rate
    /// from the same old rating.
    pub _guard: Option<super::ctx::RatingLocks>,
}

impl Table {
    /// How long a seated person must be gone before the others may claim, in ms.
    pub(super) fn claim_after_ms(&self) -> i64 {
        self.ctx.limits.claim_after.as_millis() as i64
    }

    /// When the running clock falls (a second after a failed try).
    pub(super) fn flag_instant(&self) -> Option<tokio::time::Instant> {
        // The owner's clock falls, not a replica's.
        if self.row.status != Status::Live || self.role == Role::Replica {
            return None;
        }
        let deadline = self.clocks.as_ref()?.deadline()?;
        let wait = (deadline - now_ms()).max(0) as u64;
        let at = tokio::time::Instant::now() + Duration::from_millis(wait);
        Some(self.flag_failed.map_or(at, |f| at.max(f + Duration::from_secs(1))))
    }

    /// The running clock has fallen: its seat loses on time (with more than
    /// two seats, every other seat shares the win, as after a resignation).
    pub(super) async fn time_out(&mut self) {
        let Some(c) = &self.clocks else { return };
        let Some(seat) = c.running() else { return };
        if self.row.status != Status::Live || c.deadline().is_some_and(|d| d > now_ms()) {
            return;
        }
        let n = self.m.seats();
        let others: Vec<Seat> = (0..n).filter(|&s| s != seat).collect();
        match self.finish_with(seat, EventKind::Flag, String::new(), Outcome::shared_win(n, &others, "time")).await {
            Ok(()) => self.flag_failed = None,
            Err(e) => {
                tracing::error!("game {}: the fall of the clock could not be recorded: {e}", self.row.id);
                self.flag_failed = Some(tokio::time::Instant::now());
            }
        }
    }

    /// A live clocked game loaded after a stop: every seat's time as of the
    /// last event is written as a `clock` event, and the clock of the seat
    /// to move runs again from now. The time the server was down is charged
    /// to nobody.
    pub(super) async fn restart_clock(&mut self) {
        let Some(c) = &self.clocks else { return };
        if self.row.status != Status::Live {
            return;
        }
        let last = self.events.last().map_or(self.row.updated_at, |e| e.at);
        let left = c.at(last);
        match self.commit(vec![(EventKind::Clock, None, json!({ "clocks": left }).to_string())], Vec::new()).await {
            Ok(rows) => self.publish(rows, false),
            Err(e) => tracing::error!("game {}: the clocks could not be restarted: {e}", self.row.id),
        }
    }

    /// Apply committed events to the clocks, then run the right one.
    pub(super) fn clocks_after(&mut self, rows: &[EventRow]) {
        let Some(c) = self.clocks.as_mut() else { return };
        for r in rows {
            clock_event(c, r);
        }
        let at = rows.last().map_or_else(now_ms, |r| r.at);
        let kinds: Vec<SeatKind> = self.seats.iter().map(|s| s.kind).collect();
        clock_sync(c, &*self.m, &kinds, self.row.status == Status::Live, at);
    }

    /// Every seated person without a socket counts as gone from `now` (a
    /// game loaded or started without them).
    pub(super) fn mark_absent(&mut self, now: i64) {
        for s in 0..self.seats.len() {
            let here = self.subs.iter().any(|x| x.seat == Some(s));
            if self.human_seated(s) && !here && self.seats[s].gone_since.is_none() {
                self.seats[s].gone_since = Some(now);
            }
        }
    }

    /// When the position last changed: the turn of the seat to move began then.
    pub(super) fn turn_since(&self) -> i64 {
        self.events.iter().rev().find(|e| e.kind.changes_position()).map_or(self.row.created_at, |e| e.at)
    }

    /// The seat that may be claimed against at `now`: the seat to move, a
    /// person with no socket open, gone (and not acting) for the claim time
    /// since its turn began. A player is never claimed against on another's
    /// turn (a program playing over HTTP acts only on its own).
    fn gone(&self, now: i64) -> Option<Seat> {
        let s = self.to_move()?;
        let turn_began = self.turn_since();
        let away = self.seats[s].gone_since?.max(turn_began);
        (self.human_seated(s) && !self.subs.iter().any(|x| x.seat == Some(s)) && now - away >= self.claim_after_ms())
            .then_some(s)
    }

    /// `seat` claims the game of the players gone for a minute or more: the
    /// win (the gone seats lose, everyone else shares the win) or a draw.
    pub(super) async fn claim(&mut self, seat: Seat, draw: bool) -> Result<(), ApiError> {
        if self.row.status != Status::Live || self.m.outcome().is_some() {
            return Err(self.not_live());
        }
        if self.clocks.as_ref().is_some_and(|c| c.control().is_correspondence()) {
            return Err(ApiError::conflict(
                "correspondence",
                "a correspondence game cannot be claimed: the clock gives each player days per move",
            ));
        }
        let Some(gone) = self.gone(now_ms()).filter(|&s| s != seat) else {
            return Err(ApiError::conflict(
                "nobody_gone",
                format!(
                    "a game can be claimed once the player to move has been gone for {} s on their turn",
                    self.claim_after_ms() / 1000
                ),
            ));
        };
        let gone = vec![gone];
        let n = self.m.seats();
        let outcome = if draw {
            let info = self.m.info();
            if !info.has_draws {
                return Err(ApiError::conflict("no_draws", format!("{} has no draws", info.title)));
            }
            Outcome::draw(n, "abandoned")
        } else {
            let winners: Vec<Seat> = (0..n).filter(|s| !gone.contains(s)).collect();
            Outcome::shared_win(n, &winners, "abandoned")
        };
        let data = json!({ "gone": gone, "draw": draw }).to_string();
        self.finish_with(seat, EventKind::Claim, data, outcome).await
    }

    /// What the end of the game writes: its result (computed off the
    /// runtime, once), each seat's outcome, and for a rated game the new
    /// ratings (read and written under the locks of its players' ratings).
    pub(super) async fn ending(&mut self, o: &Outcome) -> Result<Ending, ApiError> {
        self.settle().await;
        let mut data = outcome_json(&*self.m, o);
        let mut ops = vec![
            self.status_op(Status::Finished),
            WriteOp::Outcomes { game_id: self.row.id.clone(), outcomes: outcomes(o) },
        ];
        let accounts: Option<Vec<String>> = self.seats.iter().map(|s| s.account.clone()).collect();
        let Some(accounts) = accounts.filter(|_| self.row.rated) else {
            return Ok(Ending { data, ops, _guard: None });
        };
        // A game that ends before every seat has moved (a resignation at
        // the start, a first move never made) changes no rating, as an
        // abort would not.
        let movers = self.m.movers();
        if (0..self.seats.len()).any(|s| !movers.contains(&s)) {
            data["unrated"] = json!("before every player moved");
            return Ok(Ending { data, ops, _guard: None });
        }
        let mut distinct = accounts.clone();
        distinct.sort();
        distinct.dedup();
        if distinct.len() != accounts.len() {
            tracing::warn!("game {}: rated, but an account holds two seats: not rated", self.row.id);
            return Ok(Ending { data, ops, _guard: None });
        }
        let guard = self.ctx.lock_ratings(&accounts).await?;
        let at = now_ms();
        let stored = self.ctx.store.ratings(&self.row.game, &accounts).await.map_err(ApiError::storage)?;
        let before: Vec<Rating> = accounts
            .iter()
            .map(|a| match stored.iter().find(|(id, _)| id == a) {
                Some((_, s)) => {
                    let days = (at - s.last_at).max(0) as f64 / 86_400_000.0;
                    s.rating.after_idle(plateau_rating::idle_periods(days))
                }
                None => Rating::NEW,
            })
            .collect();
        let after = rate(o, &before);
        let mut shown = Vec::with_capacity(accounts.len());
        for (s, account) in accounts.iter().enumerate() {
            ops.push(WriteOp::Rate(RatingChange {
                account_id: account.clone(),
                game: self.row.game.clone(),
                game_id: self.row.id.clone(),
                at,
                before: before[s].rating,
                after: after[s],
            }));
            shown.push(json!({
                "seat": s,
                "account": self.seats[s].name.clone().unwrap_or_else(|| account.clone()),
                "before": before[s].rating,
                "after": after[s].rating,
                "deviation": after[s].deviation,
                "provisional": after[s].is_provisional(),
            }));
        }
        data["ratings"] = Value::Array(shown);
        Ok(Ending { data, ops, _guard: Some(guard) })
    }
}

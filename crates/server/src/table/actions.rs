//! What seats do: moves, resignations, draws, aborts, leaving and joining
//! seats, rematches. Each checks, writes and waits for the commit, then
//! publishes.

use super::*;

impl Table {
    pub(super) async fn act(&mut self, seat: Option<Seat>, action: Action) -> Result<u64, ApiError> {
        let Some(s) = seat else {
            return Err(ApiError::forbidden(
                "read_only",
                "spectators only watch: take an open seat, or use your seat's token",
            ));
        };
        match action {
            Action::Move { text, version } => self.play(s, &text, Some(version)).await?,
            Action::Resign => self.resign(s).await?,
            Action::OfferDraw => self.offer_draw(s, false).await?,
            Action::AcceptDraw => self.offer_draw(s, true).await?,
            Action::DeclineDraw => self.decline_draw(s).await?,
            Action::Abort => self.abort(s).await?,
            Action::Rematch => self.rematch(s).await?,
            Action::Leave => self.leave(s).await?,
            Action::TakebackOffer => self.takeback_offer(s).await?,
            Action::TakebackAccept => self.takeback_accept(s).await?,
            Action::TakebackDecline => self.takeback_decline(s).await?,
            Action::ClaimVictory => self.claim(s, false).await?,
            Action::ClaimDraw => self.claim(s, true).await?,
        }
        Ok(self.version)
    }

    pub(super) fn not_live(&self) -> ApiError {
        match self.row.status {
            Status::Open => ApiError::conflict("not_started", "the game has not started: a seat is still open"),
            Status::Finished => ApiError::conflict("game_over", "the game is over"),
            Status::Aborted => ApiError::conflict("game_over", "the game was aborted"),
            Status::Live => ApiError::internal("the game is live"),
        }
    }

    /// Play a move for `seat` (a person's, checked against `version`, or a
    /// computer's).
    pub(super) async fn play(&mut self, seat: Seat, text: &str, version: Option<u64>) -> Result<(), ApiError> {
        let taken = std::time::Instant::now();
        let gestures = self.acting_gestures;
        let state = |t: &Table| t.state_json(Some(seat), false, gestures);
        if self.row.status != Status::Live {
            return Err(self.not_live().with_state(state(self)));
        }
        match self.m.to_move() {
            Turn::Seat(s) if s == seat => {}
            Turn::Seat(s) => {
                return Err(ApiError::conflict(
                    "not_your_turn",
                    format!("it is {}'s turn, not yours", self.m.seat_name(s)),
                )
                .with_state(state(self)));
            }
            Turn::Over => return Err(ApiError::conflict("game_over", "the game is over").with_state(state(self))),
        }
        if let Some(v) = version
            && (v < self.pos_version || v > self.version)
        {
            return Err(ApiError::conflict(
                "stale_version",
                format!(
                    "your move was chosen on version {v}, but the game has changed since (it is at version {}): \
                     here is the current state",
                    self.version
                ),
            )
            .with_state(state(self)));
        }
        if self
            .clocks
            .as_ref()
            .is_some_and(|c| c.running() == Some(seat) && c.deadline().is_some_and(|d| d <= now_ms()))
        {
            // The time ran out before the move came: the clock has fallen.
            self.time_out().await;
            return Err(ApiError::conflict("game_over", "your time ran out").with_state(state(self)));
        }
        if text.len() > MAX_MOVE_LEN {
            return Err(ApiError::bad_request("bad_move", format!("a move is at most {MAX_MOVE_LEN} bytes"))
                .with_state(state(self)));
        }
        let played = match catch(|| self.m.play(text)) {
            Ok(p) => p,
            Err(e) => {
                self.rebuild();
                return Err(e);
            }
        };
        let canonical = match played {
            Ok(c) => c,
            Err(e) => {
                let code = if e.kind == MoveErrorKind::Syntax { "bad_move" } else { "illegal_move" };
                return Err(ApiError::new(axum::http::StatusCode::UNPROCESSABLE_ENTITY, code, e.message)
                    .with_state(state(self)));
            }
        };
        let mut evs = vec![(EventKind::Move, Some(seat), canonical)];
        let mut ops = Vec::new();
        let over = self.m.outcome();
        let mut _guard = None;
        if let Some(o) = &over {
            // The result may need a search: off the runtime, once, stored
            // with the game_over event (and the ratings of a rated game).
            let end = match self.ending(o).await {
                Ok(end) => end,
                Err(e) => {
                    self.m.undo();
                    return Err(e);
                }
            };
            evs.push((EventKind::GameOver, None, end.data.to_string()));
            ops.extend(end.ops);
            _guard = end._guard;
        }
        let rows = self.commit_or_undo(evs, ops).await?;
        drop(_guard);
        self.draw_offers.clear();
        self.takeback_offers.clear();
        if over.is_some() {
            self.row.status = Status::Finished;
        }
        self.publish(rows, false);
        self.ctx.metrics.moved(taken);
        self.maybe_start_ai();
        Ok(())
    }

    /// Write what changed the match, and wait; if the database refuses,
    /// the match's last change (a move, an adjudication) is undone.
    async fn commit_or_undo(
        &mut self,
        evs: Vec<(EventKind, Option<Seat>, String)>,
        ops: Vec<WriteOp>,
    ) -> Result<Vec<EventRow>, ApiError> {
        let r = self.commit(evs, ops).await;
        if r.is_err() {
            self.m.undo();
        }
        r
    }

    /// A new match of this game's set-up with another seed (a deal, a
    /// rematch).
    fn new_match_with_seed(&self, seed: u64) -> Result<Box<dyn AnyMatch>, ApiError> {
        let setup = Setup { variant: self.row.variant.clone(), options: self.row.options.clone(), seed };
        catch(|| self.ctx.registry.new_match(&self.row.game, &setup))?
            .map_err(|e| ApiError::internal(format!("the game cannot be set up again: {e}")))
    }

    pub(super) fn human_seated(&self, seat: Seat) -> bool {
        self.seats[seat].kind == SeatKind::Human && self.seats[seat].token_hash.is_some()
    }

    /// End the game off the board.
    pub(super) async fn finish(&mut self, seat: Seat, kind: EventKind, outcome: Outcome) -> Result<(), ApiError> {
        self.finish_with(seat, kind, String::new(), outcome).await
    }

    /// End the game off the board, the first event with `data`.
    pub(super) async fn finish_with(
        &mut self,
        seat: Seat,
        kind: EventKind,
        data: String,
        outcome: Outcome,
    ) -> Result<(), ApiError> {
        self.m.adjudicate(outcome);
        let end = match self.ending(&outcome).await {
            Ok(end) => end,
            Err(e) => {
                self.m.undo();
                return Err(e);
            }
        };
        let evs = vec![(kind, Some(seat), data), (EventKind::GameOver, None, end.data.to_string())];
        let rows = self.commit_or_undo(evs, end.ops).await?;
        drop(end._guard);
        self.draw_offers.clear();
        self.takeback_offers.clear();
        self.row.status = Status::Finished;
        self.publish(rows, false);
        Ok(())
    }

    pub(super) async fn resign(&mut self, seat: Seat) -> Result<(), ApiError> {
        if self.row.status != Status::Live || self.m.outcome().is_some() {
            return Err(self.not_live());
        }
        let n = self.m.seats();
        let others: Vec<Seat> = (0..n).filter(|&s| s != seat).collect();
        self.finish(seat, EventKind::Resign, Outcome::shared_win(n, &others, "resignation")).await
    }

    pub(super) async fn offer_draw(&mut self, seat: Seat, accept: bool) -> Result<(), ApiError> {
        let info = self.m.info();
        if !info.has_draws {
            return Err(ApiError::conflict("no_draws", format!("{} has no draws", info.title)));
        }
        if self.row.status != Status::Live || self.m.outcome().is_some() {
            return Err(self.not_live());
        }
        if self.seats.iter().any(|s| s.kind == SeatKind::Computer) {
            return Err(ApiError::conflict("no_draws_with_computers", "computer players do not agree to draws"));
        }
        let offered_by_others = self.draw_offers.iter().any(|&s| s != seat);
        if accept && !offered_by_others {
            return Err(ApiError::conflict("no_draw_offer", "nobody has offered a draw"));
        }
        if self.draw_offers.contains(&seat) {
            return Err(ApiError::conflict("already_offered", "you have already offered a draw"));
        }
        let everyone = (0..self.seats.len()).all(|s| s == seat || self.draw_offers.contains(&s));
        if everyone {
            let n = self.m.seats();
            return self.finish(seat, EventKind::DrawOffer, Outcome::draw(n, "agreement")).await;
        }
        let rows = self.commit(vec![(EventKind::DrawOffer, Some(seat), String::new())], Vec::new()).await?;
        self.draw_offers.push(seat);
        self.publish(rows, false);
        Ok(())
    }

    pub(super) async fn decline_draw(&mut self, seat: Seat) -> Result<(), ApiError> {
        if self.row.status != Status::Live {
            return Err(self.not_live());
        }
        if !self.draw_offers.iter().any(|&s| s != seat) {
            return Err(ApiError::conflict("no_draw_offer", "nobody has offered a draw"));
        }
        let rows = self.commit(vec![(EventKind::DrawDecline, Some(seat), String::new())], Vec::new()).await?;
        self.draw_offers.clear();
        self.publish(rows, false);
        Ok(())
    }

    /// Whether the game has not had its first move yet (open, or live at
    /// ply 0 with no move ever made: moves taken back back to the start do
    /// not make a game new again).
    pub(super) fn before_first_move(&self) -> bool {
        match self.row.status {
            Status::Open => true,
            Status::Live => self.m.ply() == 0 && !self.events.iter().any(|e| e.kind == EventKind::Move),
            _ => false,
        }
    }

    pub(super) async fn abort(&mut self, seat: Seat) -> Result<(), ApiError> {
        if !self.before_first_move() {
            return Err(ApiError::conflict("too_late", "a game can be aborted only before its first move"));
        }
        if !self.founders.contains(&seat) {
            return Err(ApiError::forbidden(
                "not_creator",
                "only the player who created the game can call it off: leave it instead",
            ));
        }
        let rows = self
            .commit(vec![(EventKind::Abort, Some(seat), String::new())], vec![self.status_op(Status::Aborted)])
            .await?;
        self.row.status = Status::Aborted;
        self.publish(rows, false);
        Ok(())
    }

    /// Give a seat back before the first move: the seat opens again (a game
    /// that had started waits for a player again, and a game with hidden
    /// information is dealt afresh when its seats are full again); the last
    /// person leaving aborts the game.
    pub(super) async fn leave(&mut self, seat: Seat) -> Result<(), ApiError> {
        if !self.before_first_move() {
            return Err(ApiError::conflict(
                "too_late",
                "a seat can be left only before the first move: resign instead",
            ));
        }
        let nobody_left = (0..self.seats.len()).all(|s| s == seat || !self.human_seated(s));
        let mut evs = vec![(EventKind::Leave, Some(seat), String::new())];
        let mut ops = vec![WriteOp::UpdateSeat {
            game_id: self.row.id.clone(),
            seat,
            name: None,
            token_hash: None,
            account: None,
        }];
        let status = if nobody_left {
            evs.push((EventKind::Abort, Some(seat), String::new()));
            Status::Aborted
        } else {
            Status::Open
        };
        if status != self.row.status {
            ops.push(self.status_op(status));
        }
        let rows = self.commit(evs, ops).await?;
        self.seats[seat].token_hash = None;
        self.seats[seat].name = None;
        self.seats[seat].account = None;
        self.seats[seat].gone_since = None;
        self.founders.retain(|&s| s != seat);
        self.draw_offers.clear();
        self.row.status = status;
        self.set_meta();
        self.publish(rows, true);
        Ok(())
    }

    pub(super) async fn join(
        &mut self,
        seat: Option<usize>,
        name: Option<String>,
        account: Option<(String, String)>,
        token_hash: Option<String>,
    ) -> Result<Joined, ApiError> {
        if self.row.status != Status::Open {
            return Err(ApiError::conflict("not_open", "this game has no open seat"));
        }
        if self.row.rated && account.is_none() {
            return Err(ApiError::account_required("log in (or sign up) to take a seat"));
        }
        if let Some((id, _)) = &account
            && self.seats.iter().any(|s| s.account.as_deref() == Some(id.as_str()))
        {
            return Err(ApiError::conflict("already_seated", "you already hold a seat of this game"));
        }
        // An account plays under its own name.
        let name = match &account {
            Some((_, n)) => Some(n.clone()),
            None => name,
        };
        let account_id = account.map(|(id, _)| id);
        let s = match seat {
            Some(s) if s >= self.seats.len() => {
                return Err(ApiError::bad_request(
                    "bad_seat",
                    format!("this game has seats 0 to {}", self.seats.len() - 1),
                ));
            }
            Some(s) if !self.seats[s].is_open() => {
                return Err(ApiError::conflict("seat_taken", format!("seat {s} is not open")));
            }
            Some(s) => s,
            None => self
                .seats
                .iter()
                .position(SeatSlot::is_open)
                .ok_or_else(|| ApiError::conflict("not_open", "this game has no open seat"))?,
        };
        // A replica made the token (forwarded): only its hash comes here.
        let (token, hash) = match token_hash {
            Some(h) => (String::new(), h),
            None => {
                let t = ids::new_token()?;
                let h = ids::hash_token(&t);
                (t, h)
            }
        };
        let filled = (0..self.seats.len()).all(|i| i == s || !self.seats[i].is_open());
        let mut ops = vec![WriteOp::UpdateSeat {
            game_id: self.row.id.clone(),
            seat: s,
            name: name.clone(),
            token_hash: Some(hash.clone()),
            account: account_id.clone(),
        }];
        // The last seat taken starts the game; a game with hidden information
        // is dealt now, from a seed drawn now, so that nobody could read a
        // secret before.
        let info = self.m.info();
        let deal = if filled && info.hidden && info.uses_seed {
            let seed = ids::random_u64()?;
            Some((seed, self.new_match_with_seed(seed)?))
        } else {
            None
        };
        if filled {
            let mut op = self.status_op(Status::Live);
            if let (WriteOp::UpdateGame { seed, .. }, Some((s, _))) = (&mut op, &deal) {
                *seed = *s;
            }
            ops.push(op);
        }
        let rows = self.commit(vec![(EventKind::Join, Some(s), json!({ "player": name }).to_string())], ops).await?;
        self.seats[s].token_hash = Some(hash);
        self.seats[s].name = name;
        self.seats[s].account = account_id;
        self.mark_absent(now_ms());
        if let Some((seed, m)) = deal {
            self.row.seed = seed;
            self.m = m;
        }
        if filled {
            self.row.status = Status::Live;
        }
        self.set_meta();
        self.publish(rows, true);
        self.maybe_start_ai();
        Ok(Joined { seat: s, token, state: self.state_json(Some(s), true, true) })
    }

    pub(super) async fn rematch(&mut self, seat: Seat) -> Result<(), ApiError> {
        if self.row.status != Status::Finished {
            return Err(ApiError::conflict("not_finished", "a rematch can be asked once the game is over"));
        }
        if let Some(r) = &self.row.rematch {
            return Err(ApiError::conflict("rematch_exists", format!("the rematch is game {r}")));
        }
        if self.rematch_offers.contains(&seat) {
            return Err(ApiError::conflict("already_offered", "you have already asked for a rematch"));
        }
        let everyone = (0..self.seats.len())
            .all(|s| s == seat || self.seats[s].kind == SeatKind::Computer || self.rematch_offers.contains(&s));
        if !everyone {
            let rows = self.commit(vec![(EventKind::RematchOffer, Some(seat), String::new())], Vec::new()).await?;
            self.rematch_offers.push(seat);
            self.publish(rows, false);
            return Ok(());
        }
        // Everyone agrees: the same game with every player one seat further on
        // (the two seats swapped for two players).
        let n = self.seats.len();
        let info = self.m.info();
        let seed = if info.uses_seed { ids::random_u64()? } else { self.row.seed };
        let m = self.new_match_with_seed(seed)?;
        let now = now_ms();
        let new_id = ids::new_game_id()?;
        let mut seats: Vec<SeatRow> = (0..n).map(SeatRow::open).collect();
        for (i, old) in self.seats.iter().enumerate() {
            let j = (i + 1) % n;
            seats[j] = SeatRow {
                seat: j,
                kind: old.kind,
                player: old.spec.clone(),
                name: old.name.clone(),
                token_hash: old.token_hash.clone(),
                account: old.account.clone(),
            };
        }
        let row = GameRow {
            id: new_id.clone(),
            game: self.row.game.clone(),
            variant: self.row.variant.clone(),
            options: self.row.options.clone(),
            seed,
            status: Status::Live,
            result: None,
            termination: None,
            ply: 0,
            rematch_of: Some(self.row.id.clone()),
            rematch: None,
            created_at: now,
            updated_at: now,
            rated: self.row.rated,
            clock: self.row.clock,
        };
        let mut update = self.status_op(Status::Finished);
        if let WriteOp::UpdateGame { rematch, .. } = &mut update {
            *rematch = Some(new_id.clone());
        }
        let mut ops = vec![WriteOp::InsertGame { game: row.clone(), seats: seats.clone() }, update];
        ops.extend(self.ctx.new_lease(&new_id));
        let evs = vec![
            (EventKind::RematchOffer, Some(seat), String::new()),
            (EventKind::Rematch, None, json!({ "rematch": new_id }).to_string()),
        ];
        let rows = self.commit(evs, ops).await?;
        self.rematch_offers.push(seat);
        self.row.rematch = Some(new_id);
        let mut table = Table::new(self.ctx.clone(), row, &seats, m, Vec::new());
        // The rematch waits in the same line of the computer players' queue.
        table.set_owner(self.owner.clone(), None);
        self.ctx.install_new(table);
        self.publish(rows, false);
        Ok(())
    }
}

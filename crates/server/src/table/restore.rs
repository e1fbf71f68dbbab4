//! Rebuilding a game from its stored events, after a restart or a panic,
//! and a finished game's results computed once, off the async runtime.

use super::*;

/// The seats holding their token since the game was made: every seat with a
/// token that no `join` or `leave` event has touched.
pub(super) fn founders_of(seats: &[SeatRow], events: &[EventRow]) -> Vec<Seat> {
    (0..seats.len())
        .filter(|&s| seats[s].token_hash.is_some())
        .filter(|&s| !events.iter().any(|e| e.seat == Some(s) && matches!(e.kind, EventKind::Join | EventKind::Leave)))
        .collect()
}

/// A match rebuilt from its set-up and its committed events, with the draw
/// and rematch offers standing at the end.
pub(crate) struct Replayed {
    pub m: Box<dyn AnyMatch>,
    /// The clocks as of the last event (a clocked game).
    pub clocks: Option<crate::clock::Clocks>,
    pub draw_offers: Vec<Seat>,
    pub rematch_offers: Vec<Seat>,
    /// The takeback asked, if any: the asker, then who accepted.
    pub takeback_offers: Vec<Seat>,
}

/// Replay a game's events through the rules.
pub(crate) fn replay(
    registry: &plateau_core::Registry,
    row: &GameRow,
    kinds: &[SeatKind],
    events: &[EventRow],
) -> Result<Replayed, ApiError> {
    let setup = Setup { variant: row.variant.clone(), options: row.options.clone(), seed: row.seed };
    let mut m = catch(|| registry.new_match(&row.game, &setup))?
        .map_err(|e| ApiError::internal(format!("stored game {} cannot be set up: {e}", row.id)))?;
    let mut draw_offers = Vec::new();
    let mut rematch_offers = Vec::new();
    let mut takeback_offers = Vec::new();
    let mut clocks = row.clock.map(|tc| crate::clock::Clocks::new(tc, kinds.len()));
    for e in events {
        apply_event(m.as_mut(), &mut draw_offers, &mut rematch_offers, &mut takeback_offers, e, &row.id)?;
        if let Some(c) = clocks.as_mut() {
            super::clocks::clock_event(c, e);
            super::clocks::clock_sync(c, &*m, kinds, true, e.at);
        }
    }
    Ok(Replayed { m, clocks, draw_offers, rematch_offers, takeback_offers })
}

/// One committed event applied to a match and to the offers standing (the
/// clocks apart): when replaying a game, and on a replica as the owner's
/// events come.
pub(super) fn apply_event(
    m: &mut dyn AnyMatch,
    draw_offers: &mut Vec<Seat>,
    rematch_offers: &mut Vec<Seat>,
    takeback_offers: &mut Vec<Seat>,
    e: &EventRow,
    id: &str,
) -> Result<(), ApiError> {
    match e.kind {
        EventKind::Move => {
            catch(|| m.play(&e.data))?.map_err(|err| {
                ApiError::internal(format!("stored game {id}: move {} ({}): {err}", e.version, e.data))
            })?;
            draw_offers.clear();
        }
        EventKind::DrawOffer => {
            if let Some(s) = e.seat
                && !draw_offers.contains(&s)
            {
                draw_offers.push(s);
            }
        }
        EventKind::DrawDecline => draw_offers.clear(),
        EventKind::RematchOffer => {
            if let Some(s) = e.seat
                && !rematch_offers.contains(&s)
            {
                rematch_offers.push(s);
            }
        }
        EventKind::GameOver => {
            draw_offers.clear();
            if m.outcome().is_none() {
                let data: Value = serde_json::from_str(&e.data).unwrap_or(Value::Null);
                let result = data["result"].as_str().unwrap_or("");
                let o = parse_result(result, m.seats(), data["reason"].as_str())
                    .map_err(|err| ApiError::internal(format!("stored game {id}: {err}")))?;
                m.adjudicate(o);
            }
        }
        _ => {}
    }
    super::takeback::replay_event(m, takeback_offers, draw_offers, e, id)?;
    Ok(())
}

impl Table {
    /// A stored game, rebuilt by replaying its events. CPU work: call it
    /// off the async runtime. A finished game's results are computed here
    /// too ([`AnyMatch::settle`]), so that no read of it repeats the work.
    pub(crate) fn restore(ctx: Arc<TableCtx>, stored: StoredGame) -> Result<Table, ApiError> {
        let row = stored.game;
        let kinds: Vec<SeatKind> = stored.seats.iter().map(|s| s.kind).collect();
        let Replayed { mut m, clocks, draw_offers, rematch_offers, takeback_offers } =
            replay(&ctx.registry, &row, &kinds, &stored.events)?;
        if stored.seats.len() != m.seats() || stored.seats.iter().enumerate().any(|(i, s)| s.seat != i) {
            return Err(ApiError::internal(format!(
                "stored game {} has {} seats where its set-up has {}",
                row.id,
                stored.seats.len(),
                m.seats()
            )));
        }
        catch(|| m.settle())?;
        let mut t = Table::new(ctx, row, &stored.seats, m, Vec::new());
        t.founders = founders_of(&stored.seats, &stored.events);
        t.draw_offers = draw_offers;
        t.rematch_offers = rematch_offers;
        t.takeback_offers = takeback_offers;
        t.chat = super::chat::ChatLog::restored(stored.chat);
        // Stopped with the server (its last event is older than this
        // process): the clocks start again without charging the time down.
        // Merely out of memory since: charged as usual.
        let last = stored.events.last().map_or(t.row.updated_at, |e| e.at);
        t.resume_clock = clocks.is_some() && t.row.status == Status::Live && last < t.ctx.started_at;
        t.clocks = clocks;
        for e in stored.events {
            if e.kind.changes_position() {
                t.pos_version = e.version;
            }
            t.version = e.version;
            t.events.push(e);
        }
        Ok(t)
    }

    /// After a panic in the rules while the match was being changed: rebuild
    /// it from the committed events instead of going on with a half-changed
    /// one.
    pub(super) fn rebuild(&mut self) {
        let kinds: Vec<SeatKind> = self.seats.iter().map(|s| s.kind).collect();
        match replay(&self.ctx.registry, &self.row, &kinds, &self.events) {
            Ok(r) => {
                self.m = r.m;
                self.clocks = r.clocks;
                self.set_meta();
                tracing::warn!("game {}: the match was rebuilt from its stored events", self.row.id);
            }
            Err(e) => tracing::error!("game {}: the match cannot be rebuilt: {e}", self.row.id),
        }
    }

    /// Compute a finished game's results off the async runtime (they may
    /// take a search: Colorito's loser's score), once.
    pub(super) async fn settle(&mut self) {
        if self.m.outcome().is_none() {
            return;
        }
        let mut c = self.m.clone_box();
        match tokio::task::spawn_blocking(move || {
            c.settle();
            c
        })
        .await
        {
            Ok(c) => self.m = c,
            Err(e) => tracing::error!("game {}: computing the result failed: {e}", self.row.id),
        }
    }
}

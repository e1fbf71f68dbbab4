//! The sockets watching a game: subscription (seats always get in,
//! spectators share a cap), presence, and the broadcast of committed events.

use serde_json::value::RawValue;

use super::frames::{UpdateHead, events_text, update_text};
use super::*;

impl Table {
    pub(super) fn subscribe(
        &mut self,
        token: Option<&str>,
        account: Option<(String, String)>,
        since: Option<u64>,
        gestures: bool,
        tx: mpsc::Sender<Utf8Bytes>,
    ) -> Result<Subscribed, ApiError> {
        let seat = self.auth(token, account.as_ref().map(|(id, _)| id.as_str()))?;
        match seat {
            // Spectators share a cap; a seat never counts against it.
            None if self.spectators() >= self.ctx.limits.watchers_per_game => {
                return Err(ApiError::new(
                    axum::http::StatusCode::SERVICE_UNAVAILABLE,
                    "too_many_watchers",
                    "this game has too many watchers",
                ));
            }
            None => {}
            // A seat always gets in: its newest socket replaces its oldest
            // past the cap (a tab left open elsewhere).
            Some(s) => {
                // Sockets of the seat, oldest first (ids grow with time; the
                // list's order does not keep it).
                let mut mine: Vec<u64> = self.subs.iter().filter(|x| x.seat == Some(s)).map(|x| x.id).collect();
                mine.sort_unstable();
                let excess = (mine.len() + 1).saturating_sub(self.ctx.limits.sockets_per_seat.max(1));
                let replaced = Utf8Bytes::from(
                    ApiError::conflict("replaced", "this seat opened a newer connection elsewhere: this one is closed")
                        .frame()
                        .to_string(),
                );
                for old in mine.into_iter().take(excess) {
                    if let Some(i) = self.subs.iter().position(|x| x.id == old) {
                        // Told why, then closed (its channel is dropped).
                        let _ = self.subs.remove(i).tx.try_send(replaced.clone());
                    }
                }
            }
        }
        let catchup = self.ctx.limits.catchup;
        let events: Option<Vec<Value>> = match since {
            Some(v) if v <= self.version && self.version - v <= catchup => {
                Some(self.events.get(v as usize..).unwrap_or_default().iter().map(event_json).collect())
            }
            _ => None,
        };
        let id = self.ctx.next_id();
        let was_online = seat.is_some_and(|s| self.online(s));
        if let Some(s) = seat
            && !was_online
        {
            self.seats[s].gone_since = None;
            self.presence(s, true);
            self.tell_presence(s, true);
        }
        let account_name = account.map(|(_, name)| name);
        self.subs.push(Sub { id, seat, gestures, tx, account_name });
        if seat.is_none() {
            self.spectators_changed();
        }
        let mut welcome = json!({
            "type": "welcome",
            "you": seat,
            "resync": events.is_none(),
            "state": self.state_json(seat, true, gestures),
            "chat": self.chat_json(seat),
        });
        if let Some(evs) = events {
            welcome["events"] = Value::Array(evs);
        }
        Ok(Subscribed { sub: id, welcome: Utf8Bytes::from(welcome.to_string()) })
    }

    pub(super) fn online(&self, seat: Seat) -> bool {
        self.seats[seat].kind == SeatKind::Computer
            || self.subs.iter().any(|s| s.seat == Some(seat))
            || self.remote_here(seat, now_ms())
    }

    pub(super) fn presence(&mut self, seat: Seat, online: bool) {
        if let (Role::Owner(_), Some(c)) = (self.role, &self.ctx.cluster) {
            c.presence_said(&self.row.id, &[(seat, online)]);
        }
        let frame = Utf8Bytes::from(json!({ "type": "presence", "seat": seat, "online": online }).to_string());
        for s in &self.subs {
            let _ = s.tx.try_send(frame.clone());
        }
    }

    pub(super) fn drop_sub(&mut self, id: u64) {
        let Some(i) = self.subs.iter().position(|s| s.id == id) else { return };
        let sub = self.subs.swap_remove(i);
        if let Some(s) = sub.seat
            && !self.online(s)
        {
            self.seats[s].gone_since = Some(now_ms());
            self.presence(s, false);
            self.tell_presence(s, false);
        }
        if sub.seat.is_none() {
            self.spectators_changed();
        }
    }

    /// The number of spectators watching (sockets without a seat).
    pub(super) fn spectators(&self) -> usize {
        self.subs.iter().filter(|s| s.seat.is_none()).count()
    }

    /// Tell the seated players how many watch. (Spectators learn it from the
    /// state and the next update: telling every watcher of every arrival
    /// would cost the square of the watchers.)
    pub(super) fn spectators_changed(&mut self) {
        let frame = Utf8Bytes::from(json!({ "type": "spectators", "count": self.spectators() }).to_string());
        for s in self.subs.iter().filter(|s| s.seat.is_some()) {
            let _ = s.tx.try_send(frame.clone());
        }
    }

    pub(super) fn send_to(&mut self, sub: u64, frame: &Value) {
        if let Some(s) = self.subs.iter().find(|s| s.id == sub)
            && s.tx.try_send(Utf8Bytes::from(frame.to_string())).is_err()
        {
            self.drop_sub(sub);
        }
    }

    /// Record committed events and broadcast them.
    pub(super) fn publish(&mut self, rows: Vec<EventRow>, seats_changed: bool) {
        if matches!(self.row.status, Status::Finished | Status::Aborted) {
            // The creating client's share of the computer players is free.
            self.slot = None;
        }
        self.clocks_after(&rows);
        self.broadcast(rows, seats_changed);
    }

    /// Record events whose effects are already in the match and the clocks
    /// (a replica rebuilt from the database), and broadcast them.
    ///
    /// Each frame is made once per audience: the part the same for every
    /// reader is serialized once, each different view once (one for all
    /// in a game without hidden information), the legal moves once and only
    /// for the seat that must decide; a reader's frame is those texts
    /// joined, and readers with the same seat and form share one buffer.
    pub(super) fn broadcast(&mut self, rows: Vec<EventRow>, seats_changed: bool) {
        let events = if self.subs.is_empty() { None } else { Some(events_text(&rows)) };
        for r in rows {
            if r.kind.changes_position() {
                self.pos_version = r.version;
            }
            self.version = r.version;
            self.events.push(r);
        }
        let Some(events) = events else { return };
        let Ok(events) = RawValue::from_string(events) else { return };
        // What every reader gets alike, serialized once.
        let result = (self.row.status == Status::Finished).then(|| self.result_json());
        let seat_frames = seats_changed.then(|| self.seat_frames());
        let to_move = self.to_move();
        let clocks = self.clocks.as_ref().map(|c| c.at(now_ms()));
        let head = UpdateHead {
            ty: "update",
            version: self.version,
            events: &events,
            ply: self.m.ply(),
            status: self.row.status,
            to_move,
            draw_offers: &self.draw_offers,
            takeback_offers: &self.takeback_offers,
            spectators: self.spectators(),
            dealt: self.dealt(),
            clocks: clocks.as_deref(),
            clock_running: self.clocks.as_ref().and_then(|c| c.running()),
            result: result.as_ref(),
            seats: seat_frames.as_deref(),
            rematch: self.row.rematch.as_deref(),
        };
        let Ok(head) = serde_json::to_string(&head) else { return };
        // A game without hidden information (or not dealt yet) shows everyone
        // the same view.
        let shared_view =
            if !self.m.info().hidden || !self.dealt() { Some(view_text(&*self.m, Reader::Spectator)) } else { None };
        // The decider's legal moves, made when first needed.
        let mut legal: Option<(String, Option<String>)> = None;
        let mut cache: Vec<((Option<Seat>, bool), Utf8Bytes)> = Vec::new();
        let mut dead = Vec::new();
        for i in 0..self.subs.len() {
            let seat = self.subs[i].seat;
            let deciding = seat.is_some() && seat == to_move;
            // Only the decider's frame depends on the form it asked for.
            let key = (seat, deciding && self.subs[i].gestures);
            let frame = match cache.iter().find(|(k, _)| *k == key) {
                Some((_, f)) => f.clone(),
                None => {
                    let own_view = match &shared_view {
                        Some(_) => None,
                        None => Some(view_text(&*self.m, reader_of(seat))),
                    };
                    let view = shared_view.as_deref().or(own_view.as_deref()).unwrap_or("null");
                    let with_gestures = key.1;
                    if deciding && (legal.is_none() || with_gestures && legal.as_ref().is_some_and(|l| l.1.is_none())) {
                        legal = Some(self.legal_texts(with_gestures));
                    }
                    let (moves, gestures) = match (&legal, deciding) {
                        (Some((m, g)), true) => (Some(m.as_str()), if with_gestures { g.as_deref() } else { None }),
                        _ => (None, None),
                    };
                    let f = Utf8Bytes::from(update_text(&head, view, gestures, moves));
                    cache.push((key, f.clone()));
                    f
                }
            };
            if self.subs[i].tx.try_send(frame).is_err() {
                // A watcher that cannot keep up is dropped; it reconnects and
                // catches up from its last version.
                dead.push(self.subs[i].id);
            }
        }
        for d in dead {
            self.drop_sub(d);
        }
    }
}

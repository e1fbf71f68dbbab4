//! What readers are sent: the state as a seat or a spectator may see it,
//! update frames, records and earlier positions.

use serde::Serialize;

use super::*;

/// An event as clients get it: the same for every reader (a move's text is
/// public; what a move reveals lives in the views).
#[derive(Serialize)]
struct EventFrame<'a> {
    version: u64,
    kind: EventKind,
    at: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    seat: Option<Seat>,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    mv: Option<&'a str>,
    /// The event's own fields (`player`, `rematch`, a result's fields).
    #[serde(flatten)]
    data: serde_json::Map<String, Value>,
}

/// An event as clients get it: a move's notation under `move`, other
/// events' stored fields inline.
fn event_frame(e: &EventRow) -> EventFrame<'_> {
    let (mv, data) = match e.kind {
        EventKind::Move => (Some(e.data.as_str()), serde_json::Map::new()),
        _ => match serde_json::from_str::<Value>(&e.data) {
            Ok(Value::Object(data)) => (None, data),
            _ => (None, serde_json::Map::new()),
        },
    };
    EventFrame { version: e.version, kind: e.kind, at: e.at, seat: e.seat, mv, data }
}

/// The public form of an event.
pub(crate) fn event_json(e: &EventRow) -> Value {
    serde_json::to_value(event_frame(e)).unwrap_or(Value::Null)
}

/// A result as clients get it (and as the `game_over` event stores it).
#[derive(Serialize)]
struct OutcomeFrame<'a> {
    result: String,
    winners: Vec<Seat>,
    reason: &'static str,
    returns: &'a [f32],
    draw: bool,
    /// The game's own result tags (Colorito's score…).
    tags: Vec<(String, String)>,
}

pub(super) fn outcome_json(m: &dyn AnyMatch, o: &Outcome) -> Value {
    let frame = OutcomeFrame {
        result: o.result_string(),
        winners: o.winners(),
        reason: o.reason,
        returns: o.returns(),
        draw: o.is_draw(),
        tags: catch(|| m.result_tags()).unwrap_or_default(),
    };
    serde_json::to_value(frame).unwrap_or(Value::Null)
}

/// A seat as clients get it.
#[derive(Serialize)]
pub(super) struct SeatFrame<'a> {
    seat: Seat,
    name: String,
    kind: SeatKind,
    player: Option<&'a str>,
    spec: Option<&'a str>,
    open: bool,
    online: bool,
    /// The account holding the seat (its name), if any.
    account: Option<&'a str>,
    /// Since when a seated person has been gone (ms since 1970).
    gone_since: Option<i64>,
}

/// How a legal move is made by pointing, borrowed from the rules' list.
#[derive(Serialize)]
struct LegalRef<'a> {
    #[serde(rename = "move")]
    mv: &'a str,
    select: &'a [String],
    targets: &'a [String],
}

/// The rules' moves with their gestures, as clients get them.
fn legal_refs(gestures: &[(String, plateau_core::Gesture)]) -> Vec<LegalRef<'_>> {
    gestures.iter().map(|(mv, g)| LegalRef { mv: mv.as_str(), select: &g.select, targets: &g.targets }).collect()
}

/// Everything a reader may know of a game (the `state`).
#[derive(Serialize)]
struct StateFrame<'a> {
    id: &'a str,
    game: &'static str,
    title: &'static str,
    variant: &'static str,
    options: &'a plateau_core::Options,
    status: Status,
    version: u64,
    ply: usize,
    to_move: Option<Seat>,
    you: Option<Seat>,
    seats: Vec<SeatFrame<'a>>,
    spectators: usize,
    has_draws: bool,
    draw_offers: &'a [Seat],
    /// The takeback asked: the asker first, then who accepted.
    takeback_offers: &'a [Seat],
    rematch_offers: &'a [Seat],
    rematch: Option<&'a str>,
    rematch_of: Option<&'a str>,
    result: Value,
    created_at: i64,
    dealt: bool,
    rated: bool,
    /// The time control.
    clock: Option<Value>,
    /// Each seat's time in ms, as of now.
    clocks: Option<Vec<i64>>,
    clock_running: Option<Seat>,
    /// How long a player must be gone before the others may claim, in ms.
    claim_after_ms: i64,
    /// When the position last changed (ms since 1970): the turn began then.
    turn_since: i64,
    view: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal_moves: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    history: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    movers: Option<Vec<Seat>>,
}

/// The part of an update the same for every reader (everything but the
/// view and the legal moves), serialized once per change: each reader's
/// frame is this text with its view and legal moves spliced in
/// ([`update_text`]).
#[derive(Serialize)]
pub(super) struct UpdateHead<'a> {
    #[serde(rename = "type")]
    pub ty: &'static str,
    pub version: u64,
    /// The events, serialized once ([`events_text`]).
    pub events: &'a serde_json::value::RawValue,
    pub ply: usize,
    pub status: Status,
    pub to_move: Option<Seat>,
    pub draw_offers: &'a [Seat],
    pub takeback_offers: &'a [Seat],
    pub spectators: usize,
    /// Whether the set-up is dealt (false while a game with hidden
    /// information waits for players).
    pub dealt: bool,
    /// Each seat's time in ms, as of when the frame was built (clocked games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clocks: Option<&'a [i64]>,
    pub clock_running: Option<Seat>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<&'a [SeatFrame<'a>]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch: Option<&'a str>,
}

/// One reader's update: the shared `head` (a JSON object, as serialized)
/// with the reader's `view` and, for the seat to decide, its `legal`
/// gestures and `legal_moves` (each already JSON text) added as its last
/// fields. Nothing is parsed or serialized again: the frame is the texts
/// joined.
pub(super) fn update_text(head: &str, view: &str, legal: Option<&str>, legal_moves: Option<&str>) -> String {
    let body = head.strip_suffix('}').unwrap_or(head);
    let mut s = String::with_capacity(
        body.len() + view.len() + legal.map_or(0, |l| l.len() + 10) + legal_moves.map_or(0, |l| l.len() + 16) + 10,
    );
    s.push_str(body);
    // The head always has fields (its type first): the view follows a comma.
    s.push_str(",\"view\":");
    s.push_str(view);
    if let Some(l) = legal {
        s.push_str(",\"legal\":");
        s.push_str(l);
    }
    if let Some(l) = legal_moves {
        s.push_str(",\"legal_moves\":");
        s.push_str(l);
    }
    s.push('}');
    s
}

/// Events as clients get them ([`event_json`]'s form), as one JSON array's
/// text, serialized straight from the rows.
pub(super) fn events_text(rows: &[EventRow]) -> String {
    let frames: Vec<EventFrame<'_>> = rows.iter().map(event_frame).collect();
    serde_json::to_string(&frames).unwrap_or_else(|_| "[]".into())
}

impl Table {
    pub(super) fn to_move(&self) -> Option<Seat> {
        if self.row.status == Status::Live { self.m.to_move().seat() } else { None }
    }

    pub(super) fn seat_frames(&self) -> Vec<SeatFrame<'_>> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatFrame {
                seat: i,
                name: self.m.seat_name(i),
                kind: s.kind,
                player: s.name.as_deref(),
                spec: s.spec.as_deref(),
                open: s.is_open(),
                online: self.online(i),
                account: if s.account.is_some() && s.kind == SeatKind::Human { s.name.as_deref() } else { None },
                gone_since: if self.online(i) { None } else { s.gone_since },
            })
            .collect()
    }

    /// The result as the `game_over` event stored it (with the ratings of
    /// a rated game), once finished.
    pub(super) fn result_json(&self) -> Value {
        if self.row.status != Status::Finished {
            return Value::Null;
        }
        let stored = self.events.iter().rev().find(|e| e.kind == EventKind::GameOver);
        match (stored.and_then(|e| serde_json::from_str::<Value>(&e.data).ok()), self.m.outcome()) {
            (Some(v @ Value::Object(_)), _) => v,
            (_, Some(o)) => outcome_json(&*self.m, &o),
            _ => Value::Null,
        }
    }

    /// Whether the set-up is dealt: a game with hidden information is dealt
    /// when its last seat is taken, and shows nobody a secret before.
    pub(super) fn dealt(&self) -> bool {
        let info = self.m.info();
        !(info.hidden && info.uses_seed && self.row.status == Status::Open)
    }

    /// How `seat` (or a spectator) reads the position now: a seat reads no
    /// secret of a game not yet dealt.
    pub(super) fn reader(&self, seat: Option<Seat>) -> Reader {
        if self.dealt() { reader_of(seat) } else { Reader::Spectator }
    }

    /// Whether the seed may be shown: it reveals nothing (no hidden
    /// information, or the game is over).
    pub(super) fn seed_visible(&self) -> bool {
        let info = self.m.info();
        info.uses_seed && (!info.hidden || self.row.status == Status::Finished)
    }

    /// Everything `seat` (or a spectator) may know of the game.
    pub(crate) fn state_json(&self, seat: Option<Seat>, history: bool, gestures: bool) -> Value {
        let info = self.m.info();
        let (legal_moves, legal) = match seat {
            Some(s) if self.to_move() == Some(s) => {
                let (moves, legal) = self.legal_json(gestures);
                (Some(moves), gestures.then_some(legal))
            }
            _ => (None, None),
        };
        let frame = StateFrame {
            id: &self.row.id,
            game: info.name,
            title: info.title,
            variant: self.m.variant(),
            options: &self.row.options,
            status: self.row.status,
            version: self.version,
            ply: self.m.ply(),
            to_move: self.to_move(),
            you: seat,
            seats: self.seat_frames(),
            spectators: self.spectators(),
            has_draws: info.has_draws,
            draw_offers: &self.draw_offers,
            takeback_offers: &self.takeback_offers,
            rematch_offers: &self.rematch_offers,
            rematch: self.row.rematch.as_deref(),
            rematch_of: self.row.rematch_of.as_deref(),
            result: self.result_json(),
            created_at: self.row.created_at,
            dealt: self.dealt(),
            rated: self.row.rated,
            clock: self.row.clock.map(|c| c.json()),
            clocks: self.clocks.as_ref().map(|c| c.at(now_ms())),
            clock_running: self.clocks.as_ref().and_then(|c| c.running()),
            claim_after_ms: self.claim_after_ms(),
            turn_since: self.turn_since(),
            view: view_of(&*self.m, self.reader(seat)),
            seed: self.seed_visible().then_some(self.row.seed),
            legal_moves,
            legal,
            history: history.then(|| self.m.history()),
            movers: history.then(|| self.m.movers()),
        };
        serde_json::to_value(frame).unwrap_or(Value::Null)
    }

    /// The legal moves in notation, and with how each is made by pointing
    /// (`{"move", "select", "targets"}`).
    pub(super) fn legal_json(&self, with_gestures: bool) -> (Value, Value) {
        if !with_gestures {
            return (Value::from(catch(|| self.m.legal_moves()).unwrap_or_default()), Value::Null);
        }
        let gestures = catch(|| self.m.legal_gestures()).unwrap_or_default();
        let moves = gestures.iter().map(|(m, _)| Value::from(m.as_str())).collect();
        (Value::Array(moves), serde_json::to_value(legal_refs(&gestures)).unwrap_or(Value::Null))
    }

    /// The legal moves in notation as JSON text, and, with `with_gestures`,
    /// how each is made by pointing, written straight from the rules' moves
    /// ([`AnyMatch::legal_json`]; for updates: no JSON tree, and for a game
    /// that writes its notation straight, no `String` per move). A panic
    /// of the game's code gives empty lists.
    pub(super) fn legal_texts(&self, with_gestures: bool) -> (String, Option<String>) {
        catch(|| {
            let mut moves = String::new();
            let mut gestures = with_gestures.then(String::new);
            self.m.legal_json(&mut moves, gestures.as_mut());
            (moves, gestures)
        })
        .unwrap_or_else(|_| ("[]".into(), with_gestures.then(|| "[]".into())))
    }

    pub(super) fn record_json(&self, seat: Option<Seat>) -> Value {
        let Ok(rec) = catch(|| self.m.record(self.reader(seat))) else {
            return json!({ "text": "", "tags": [], "moves": [], "movers": [], "result": null });
        };
        json!({
            "text": rec.to_text(),
            "tags": rec.tags,
            "moves": rec.moves,
            "movers": rec.movers,
            "result": rec.result,
        })
    }

    pub(super) async fn position_json(&mut self, seat: Option<Seat>, ply: u64) -> Result<Value, ApiError> {
        let history = self.m.history();
        if ply > history.len() as u64 {
            return Err(ApiError::bad_request(
                "bad_ply",
                format!("the game has {} moves; ask for a ply from 0 to {}", history.len(), history.len()),
            ));
        }
        let reader = if self.row.status == Status::Finished { Reader::Referee } else { self.reader(seat) };
        let last_move = if ply > 0 { Some(history[ply as usize - 1].clone()) } else { None };
        let (view, to_move) = if ply == history.len() as u64 {
            // The position now (settled once the game is over).
            (view_of(&*self.m, reader), self.m.to_move().seat())
        } else {
            // An earlier position: replayed off the async runtime.
            let ctx = self.ctx.clone();
            let (game, setup) = (self.row.game.clone(), self.m.setup().clone());
            let replayed = tokio::task::spawn_blocking(move || {
                catch(|| -> Result<(Value, Option<Seat>), String> {
                    let mut m = ctx.registry.new_match(&game, &setup).map_err(|e| e.to_string())?;
                    for mv in &history[..ply as usize] {
                        m.play(mv).map_err(|e| e.to_string())?;
                    }
                    Ok((m.view(reader), m.to_move().seat()))
                })
            })
            .await
            .map_err(|_| ApiError::internal("replaying the game failed"))?;
            replayed?.map_err(ApiError::internal)?
        };
        Ok(json!({ "ply": ply, "last_move": last_move, "to_move": to_move, "view": view }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_events() {
        let e = EventRow { version: 3, kind: EventKind::Move, seat: Some(1), data: "a1b2".into(), at: 7 };
        assert_eq!(event_json(&e), json!({"version": 3, "kind": "move", "seat": 1, "move": "a1b2", "at": 7}));
        let e =
            EventRow { version: 4, kind: EventKind::Join, seat: Some(0), data: r#"{"player":"Ann"}"#.into(), at: 8 };
        assert_eq!(event_json(&e), json!({"version": 4, "kind": "join", "seat": 0, "player": "Ann", "at": 8}));
        let e = EventRow { version: 5, kind: EventKind::GameOver, seat: None, data: "{}".into(), at: 9 };
        assert_eq!(event_json(&e), json!({"version": 5, "kind": "game_over", "at": 9}));
    }

    #[test]
    fn events_serialized_straight_are_their_public_form() {
        let rows = vec![
            EventRow { version: 3, kind: EventKind::Move, seat: Some(0), data: "a1b2".into(), at: 7 },
            EventRow { version: 4, kind: EventKind::Join, seat: Some(1), data: r#"{"player":"Ann"}"#.into(), at: 8 },
            EventRow { version: 5, kind: EventKind::GameOver, seat: None, data: r#"{"result":"1-0"}"#.into(), at: 9 },
        ];
        let text = events_text(&rows);
        assert_eq!(
            serde_json::from_str::<Value>(&text).unwrap(),
            json!([
                {"version": 3, "kind": "move", "seat": 0, "move": "a1b2", "at": 7},
                {"version": 4, "kind": "join", "seat": 1, "player": "Ann", "at": 8},
                {"version": 5, "kind": "game_over", "result": "1-0", "at": 9},
            ])
        );
        assert_eq!(events_text(&[]), "[]");
    }

    #[test]
    fn an_update_is_the_shared_head_with_the_readers_parts() {
        let events = serde_json::value::RawValue::from_string(r#"[{"version":2}]"#.into()).unwrap();
        let head = UpdateHead {
            ty: "update",
            version: 2,
            events: &events,
            ply: 1,
            status: Status::Live,
            to_move: Some(1),
            draw_offers: &[],
            takeback_offers: &[0],
            spectators: 2,
            dealt: true,
            clocks: Some(&[1000, 2000]),
            clock_running: Some(1),
            result: None,
            seats: None,
            rematch: None,
        };
        let head = serde_json::to_string(&head).unwrap();
        let common = json!({
            "type": "update", "version": 2, "events": [{"version": 2}], "ply": 1, "status": "live", "to_move": 1,
            "draw_offers": [], "takeback_offers": [0], "spectators": 2, "dealt": true, "clocks": [1000, 2000],
            "clock_running": 1,
        });
        let with = |extra: Value| {
            let mut v = common.clone();
            for (k, x) in extra.as_object().unwrap() {
                v[k] = x.clone();
            }
            v
        };
        let parse = |t: String| serde_json::from_str::<Value>(&t).unwrap();
        // A spectator, or the seat that just moved: the view alone.
        assert_eq!(parse(update_text(&head, r#"{"b":[1,2]}"#, None, None)), with(json!({"view": {"b": [1, 2]}})));
        // The seat to decide: its legal moves, with gestures if it asked.
        assert_eq!(
            parse(update_text(&head, "3", None, Some(r#"["a1","b2"]"#))),
            with(json!({"view": 3, "legal_moves": ["a1", "b2"]}))
        );
        let t = update_text(&head, "3", Some(r#"[{"move":"a1","select":[],"targets":["a1"]}]"#), Some(r#"["a1"]"#));
        assert_eq!(
            parse(t),
            with(json!({"view": 3, "legal": [{"move": "a1", "select": [], "targets": ["a1"]}], "legal_moves": ["a1"]}))
        );
    }

    #[test]
    fn event_kinds_round_trip_their_stored_names() {
        for k in EventKind::ALL {
            assert_eq!(EventKind::parse(k.as_str()), Some(k));
            assert_eq!(serde_json::to_value(k).unwrap(), Value::from(k.as_str()));
        }
        assert_eq!(EventKind::parse("fly"), None);
        // Only moves, joins, leaves, resignations, aborts, the end and
        // takebacks change what a move is chosen on.
        let changing: Vec<&str> = EventKind::ALL.iter().filter(|k| k.changes_position()).map(|k| k.as_str()).collect();
        assert_eq!(changing, ["move", "join", "leave", "resign", "abort", "game_over", "flag", "claim", "takeback"]);
    }
}

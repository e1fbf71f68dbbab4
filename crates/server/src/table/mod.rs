//! One game in play: a task (an actor) that owns the match, its seats, its
//! event log and its watchers, and does everything to the game in order.
//!
//! Every change follows the same path: check, apply to the match, write the
//! events to the database and wait for the commit, then broadcast, each reader
//! getting its own frame (its view of the position, and its legal moves when it
//! must decide). A change the database refuses is undone and reported.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use plateau_ai::AnyPlayer;
use plateau_core::erased::parse_result;
use plateau_core::{AnyMatch, MoveErrorKind, Outcome, Reader, Seat, Setup, Turn};
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

use crate::error::ApiError;
use crate::ids;
use crate::pool::JobResult;
use crate::protocol::{Action, MAX_MOVE_LEN};
use crate::state::{ComputerSlot, Shared};
use crate::store::{EventRow, GameRow, SeatKind, SeatRow, Status, StoredGame, WriteOp};

/// What a game's task is asked to do.
pub(crate) enum Cmd {
    /// A WebSocket watcher (a seat with its token, or a spectator).
    Subscribe {
        token: Option<String>,
        since: Option<u64>,
        gestures: bool,
        tx: mpsc::Sender<Utf8Bytes>,
        reply: oneshot::Sender<Result<Subscribed, ApiError>>,
    },
    /// A watcher has gone.
    Unsubscribe { sub: u64 },
    /// A watcher asks for the full state.
    Sync { sub: u64 },
    /// A seat acts: from a watcher (errors go back on its socket) or with a
    /// token over HTTP (errors go back on `reply`).
    Act { who: Who, action: Action, reply: Option<oneshot::Sender<Result<u64, ApiError>>> },
    /// Someone takes an open seat.
    Join { seat: Option<usize>, name: Option<String>, reply: oneshot::Sender<Result<Joined, ApiError>> },
    /// A read, as the token's seat (or a spectator) may see it.
    Query { token: Option<String>, what: Query, reply: oneshot::Sender<Result<Value, ApiError>> },
}

/// Who acts.
pub(crate) enum Who {
    Sub(u64),
    Token(String),
}

/// What is read.
pub(crate) enum Query {
    /// The full state.
    State,
    /// The record.
    Record,
    /// The view after this many moves.
    Position(u64),
}

/// A new watcher's seat and first frame.
pub(crate) struct Subscribed {
    pub sub: u64,
    pub welcome: Utf8Bytes,
}

/// A seat taken.
pub(crate) struct Joined {
    pub seat: Seat,
    pub token: String,
    pub state: Value,
}

struct SeatSlot {
    kind: SeatKind,
    spec: Option<String>,
    name: Option<String>,
    token_hash: Option<String>,
    player: Option<Box<dyn AnyPlayer>>,
}

impl SeatSlot {
    fn from_row(r: &SeatRow) -> SeatSlot {
        SeatSlot {
            kind: r.kind,
            spec: r.player.clone(),
            name: r.name.clone(),
            token_hash: r.token_hash.clone(),
            player: None,
        }
    }
    fn is_open(&self) -> bool {
        self.kind == SeatKind::Human && self.token_hash.is_none()
    }
}

struct Sub {
    id: u64,
    seat: Option<Seat>,
    gestures: bool,
    tx: mpsc::Sender<Utf8Bytes>,
}

struct AiWait {
    seat: Seat,
    pos_version: u64,
    rx: oneshot::Receiver<JobResult>,
}

/// One game's task state.
pub(crate) struct Table {
    shared: Arc<Shared>,
    row: GameRow,
    m: Box<dyn AnyMatch>,
    seats: Vec<SeatSlot>,
    /// The number of events so far.
    version: u64,
    /// The version of the last event that changed the position, the status or
    /// the seats: a move chosen on an older version is stale.
    pos_version: u64,
    events: Vec<EventRow>,
    draw_offers: Vec<Seat>,
    rematch_offers: Vec<Seat>,
    subs: Vec<Sub>,
    ai: Option<AiWait>,
    /// Whether whoever acts now wants gestures with the legal moves (for the
    /// state attached to a refusal).
    acting_gestures: bool,
    /// Whose line of the computer players' queue this game's searches wait
    /// in: the creating client's address (`game:ID` for a game loaded from
    /// the database).
    owner: String,
    /// The creating client's share of the computer players, given back when
    /// the game ends.
    slot: Option<ComputerSlot>,
    /// The seats held by the same person since the game was made (its
    /// creator; every player of a rematch): only they may call it off.
    founders: Vec<Seat>,
    /// When to ask the computer players again after their queue was full.
    ai_retry: Option<tokio::time::Instant>,
}

/// Milliseconds since 1970.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// Does an event of this kind change what a move is chosen on?
fn changes_position(kind: &str) -> bool {
    !matches!(kind, "draw_offer" | "draw_decline" | "rematch_offer" | "rematch")
}

/// The public form of an event: the same for every reader (a move's text is
/// public; what a move reveals lives in the views).
pub(crate) fn event_json(e: &EventRow) -> Value {
    let mut v = json!({ "version": e.version, "kind": e.kind, "at": e.at });
    if let Some(s) = e.seat {
        v["seat"] = Value::from(s);
    }
    if e.kind == "move" {
        v["move"] = Value::from(e.data.as_str());
    } else if let Ok(Value::Object(data)) = serde_json::from_str::<Value>(&e.data) {
        for (k, x) in data {
            v.as_object_mut().map(|o| o.entry(k).or_insert(x));
        }
    }
    v
}

fn outcome_json(m: &dyn AnyMatch, o: &Outcome) -> Value {
    json!({
        "result": o.result_string(),
        "winners": o.winners(),
        "reason": o.reason,
        "returns": o.returns(),
        "draw": o.is_draw(),
        "tags": catch(|| m.result_tags()).unwrap_or_default(),
    })
}

/// A calendar date (`2026.11.29`) from milliseconds since 1970.
fn date_of(ms: i64) -> String {
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    format!("{:04}.{m:02}.{d:02}", yoe + era * 400 + i64::from(m <= 2))
}

/// The seats holding their token since the game was made: every seat with a
/// token that no `join` or `leave` event has touched.
fn founders_of(seats: &[SeatRow], events: &[EventRow]) -> Vec<Seat> {
    (0..seats.len())
        .filter(|&s| seats[s].token_hash.is_some())
        .filter(|&s| !events.iter().any(|e| e.seat == Some(s) && matches!(e.kind.as_str(), "join" | "leave")))
        .collect()
}

/// A match rebuilt from its set-up and its committed events, with the draw
/// and rematch offers standing at the end.
pub(crate) struct Replayed {
    pub m: Box<dyn AnyMatch>,
    pub draw_offers: Vec<Seat>,
    pub rematch_offers: Vec<Seat>,
}

/// Replay a game's events through the rules.
pub(crate) fn replay(
    registry: &plateau_core::Registry,
    row: &GameRow,
    events: &[EventRow],
) -> Result<Replayed, ApiError> {
    let setup = Setup { variant: row.variant.clone(), options: row.options.clone(), seed: row.seed };
    let mut m = catch(|| registry.new_match(&row.game, &setup))?
        .map_err(|e| ApiError::internal(format!("stored game {} cannot be set up: {e}", row.id)))?;
    let mut draw_offers = Vec::new();
    let mut rematch_offers = Vec::new();
    for e in events {
        match e.kind.as_str() {
            "move" => {
                catch(|| m.play(&e.data))?.map_err(|err| {
                    ApiError::internal(format!("stored game {}: move {} ({}): {err}", row.id, e.version, e.data))
                })?;
                draw_offers.clear();
            }
            "draw_offer" => {
                if let Some(s) = e.seat
                    && !draw_offers.contains(&s)
                {
                    draw_offers.push(s);
                }
            }
            "draw_decline" => draw_offers.clear(),
            "rematch_offer" => {
                if let Some(s) = e.seat
                    && !rematch_offers.contains(&s)
                {
                    rematch_offers.push(s);
                }
            }
            "game_over" => {
                draw_offers.clear();
                if m.outcome().is_none() {
                    let data: Value = serde_json::from_str(&e.data).unwrap_or(Value::Null);
                    let result = data["result"].as_str().unwrap_or("");
                    let o = parse_result(result, m.seats(), data["reason"].as_str())
                        .map_err(|err| ApiError::internal(format!("stored game {}: {err}", row.id)))?;
                    m.adjudicate(o);
                }
            }
            _ => {}
        }
    }
    Ok(Replayed { m, draw_offers, rematch_offers })
}

fn catch<T>(f: impl FnOnce() -> T) -> Result<T, ApiError> {
    std::panic::catch_unwind(AssertUnwindSafe(f))
        .map_err(|_| ApiError::internal("the rules engine failed on this input"))
}

fn reader_of(seat: Option<Seat>) -> Reader {
    seat.map_or(Reader::Spectator, Reader::Seat)
}

/// A view, guarded: a panic in the game's code gives `null` (and a log
/// line), never a dead task.
fn view_of(m: &dyn AnyMatch, reader: Reader) -> Value {
    catch(|| m.view(reader)).unwrap_or_else(|_| {
        tracing::error!("the {} view failed", m.info().name);
        Value::Null
    })
}

impl Table {
    /// A new game, as created (or as a rematch).
    pub(crate) fn new(
        shared: Arc<Shared>,
        row: GameRow,
        seats: &[SeatRow],
        m: Box<dyn AnyMatch>,
        players: Vec<Option<Box<dyn AnyPlayer>>>,
    ) -> Table {
        let mut slots: Vec<SeatSlot> = seats.iter().map(SeatSlot::from_row).collect();
        for (slot, p) in slots.iter_mut().zip(players) {
            slot.player = p;
        }
        let owner = format!("game:{}", row.id);
        let founders = founders_of(seats, &[]);
        let mut t = Table {
            shared,
            row,
            m,
            seats: slots,
            version: 0,
            pos_version: 0,
            events: Vec::new(),
            draw_offers: Vec::new(),
            rematch_offers: Vec::new(),
            subs: Vec::new(),
            ai: None,
            acting_gestures: true,
            owner,
            slot: None,
            founders,
            ai_retry: None,
        };
        t.set_meta();
        t
    }

    /// Whose line of the computer players' queue this game waits in, and the
    /// creating client's share it holds until it ends.
    pub(crate) fn set_owner(&mut self, owner: String, slot: Option<ComputerSlot>) {
        self.owner = owner;
        self.slot = slot;
    }

    /// A stored game, rebuilt by replaying its events. CPU work: call it
    /// off the async runtime. A finished game's results are computed here
    /// too ([`AnyMatch::settle`]), so that no read of it repeats the work.
    pub(crate) fn restore(shared: Arc<Shared>, stored: StoredGame) -> Result<Table, ApiError> {
        let row = stored.game;
        let Replayed { mut m, draw_offers, rematch_offers } = replay(&shared.registry, &row, &stored.events)?;
        if stored.seats.len() != m.seats() || stored.seats.iter().enumerate().any(|(i, s)| s.seat != i) {
            return Err(ApiError::internal(format!(
                "stored game {} has {} seats where its set-up has {}",
                row.id,
                stored.seats.len(),
                m.seats()
            )));
        }
        catch(|| m.settle())?;
        let mut t = Table::new(shared, row, &stored.seats, m, Vec::new());
        t.founders = founders_of(&stored.seats, &stored.events);
        t.draw_offers = draw_offers;
        t.rematch_offers = rematch_offers;
        for e in stored.events {
            if changes_position(&e.kind) {
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
    fn rebuild(&mut self) {
        match replay(&self.shared.registry, &self.row, &self.events) {
            Ok(r) => {
                self.m = r.m;
                self.set_meta();
                tracing::warn!("game {}: the match was rebuilt from its stored events", self.row.id);
            }
            Err(e) => tracing::error!("game {}: the match cannot be rebuilt: {e}", self.row.id),
        }
    }

    /// Compute a finished game's results off the async runtime (they may
    /// take a search: Colorito's loser's score), once.
    async fn settle(&mut self) {
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

    /// The game's id.
    pub(crate) fn id(&self) -> &str {
        &self.row.id
    }

    fn set_meta(&mut self) {
        self.m.set_meta("Event", "Plateau online game");
        self.m.set_meta("Site", &format!("Plateau game {}", self.row.id));
        self.m.set_meta("Date", &date_of(self.row.created_at));
        for s in 0..self.seats.len() {
            let seat_name = self.m.seat_name(s);
            if !seat_name.is_empty() && seat_name.chars().all(|c| c.is_ascii_alphanumeric()) {
                let who = match &self.seats[s] {
                    SeatSlot { kind: SeatKind::Computer, spec, .. } => {
                        format!("computer ({})", spec.as_deref().unwrap_or("?"))
                    }
                    SeatSlot { name: Some(n), .. } => n.clone(),
                    _ => "?".to_string(),
                };
                self.m.set_meta(&seat_name, &who);
            }
        }
    }

    /// The task: handle commands and computer moves until evicted.
    pub(crate) async fn run(mut self, mut rx: mpsc::Receiver<Cmd>, generation: u64) {
        self.maybe_start_ai();
        loop {
            let idle = self.idle_timeout();
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(c) => self.handle(c).await,
                    None => return,
                },
                res = wait_ai(&mut self.ai) => self.ai_done(res).await,
                _ = sleep_until_opt(self.ai_retry) => {
                    self.ai_retry = None;
                    self.maybe_start_ai();
                }
                _ = sleep_opt(idle) => {
                    if self.try_evict(&mut rx, generation) {
                        return;
                    }
                }
            }
        }
    }

    fn idle_timeout(&self) -> Option<Duration> {
        if !self.subs.is_empty() || self.ai.is_some() || self.ai_retry.is_some() {
            return None;
        }
        Some(match self.row.status {
            Status::Finished | Status::Aborted => self.shared.limits.idle_finished,
            Status::Open | Status::Live => self.shared.limits.idle_live,
        })
    }

    fn try_evict(&mut self, rx: &mut mpsc::Receiver<Cmd>, generation: u64) -> bool {
        let Ok(mut map) = self.shared.tables.lock() else { return false };
        if !rx.is_empty() {
            return false;
        }
        if map.get(&self.row.id).is_some_and(|(g, _)| *g == generation) {
            map.remove(&self.row.id);
        }
        drop(map);
        rx.close();
        // Commands that slipped in are dropped: their callers see the reply
        // channel closed and ask again, which loads the game afresh.
        while rx.try_recv().is_ok() {}
        true
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Subscribe { token, since, gestures, tx, reply } => {
                let r = self.subscribe(token.as_deref(), since, gestures, tx);
                let _ = reply.send(r);
            }
            Cmd::Unsubscribe { sub } => self.drop_sub(sub),
            Cmd::Sync { sub } => {
                if let Some((seat, g)) = self.subs.iter().find(|s| s.id == sub).map(|s| (s.seat, s.gestures)) {
                    let frame = json!({ "type": "state", "state": self.state_json(seat, true, g) });
                    self.send_to(sub, &frame);
                }
            }
            Cmd::Act { who, action, reply } => {
                let (seat, sub) = match who {
                    Who::Sub(id) => match self.subs.iter().find(|s| s.id == id) {
                        Some(s) => {
                            self.acting_gestures = s.gestures;
                            (Ok(s.seat), Some(id))
                        }
                        None => return,
                    },
                    Who::Token(t) => {
                        self.acting_gestures = true;
                        (self.auth(Some(&t)), None)
                    }
                };
                let r = match seat {
                    Ok(seat) => self.act(seat, action).await,
                    Err(e) => Err(e),
                };
                match (reply, sub) {
                    (Some(tx), _) => {
                        let _ = tx.send(r);
                    }
                    (None, Some(sub)) => {
                        if let Err(e) = r {
                            self.send_to(sub, &e.frame());
                        }
                    }
                    (None, None) => {}
                }
            }
            Cmd::Join { seat, name, reply } => {
                let r = self.join(seat, name).await;
                let _ = reply.send(r);
            }
            Cmd::Query { token, what, reply } => {
                let r = match self.auth(token.as_deref()) {
                    Err(e) => Err(e),
                    Ok(seat) => match what {
                        Query::State => Ok(self.state_json(seat, true, true)),
                        Query::Record => Ok(self.record_json(seat)),
                        Query::Position(ply) => self.position_json(seat, ply).await,
                    },
                };
                let _ = reply.send(r);
            }
        }
    }

    /// The seat of a token: `None` for no token (a spectator).
    fn auth(&self, token: Option<&str>) -> Result<Option<Seat>, ApiError> {
        let Some(token) = token else { return Ok(None) };
        if !ids::well_formed(token) {
            return Err(ApiError::bad_token());
        }
        let h = ids::hash_token(token);
        self.seats
            .iter()
            .position(|s| s.token_hash.as_deref().is_some_and(|t| ids::same_hash(t, &h)))
            .map(Some)
            .ok_or_else(ApiError::bad_token)
    }

    fn subscribe(
        &mut self,
        token: Option<&str>,
        since: Option<u64>,
        gestures: bool,
        tx: mpsc::Sender<Utf8Bytes>,
    ) -> Result<Subscribed, ApiError> {
        let seat = self.auth(token)?;
        match seat {
            // Spectators share a cap; a seat never counts against it.
            None if self.spectators() >= self.shared.limits.watchers_per_game => {
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
                let mine: Vec<u64> = self.subs.iter().filter(|x| x.seat == Some(s)).map(|x| x.id).collect();
                let excess = (mine.len() + 1).saturating_sub(self.shared.limits.sockets_per_seat.max(1));
                for old in mine.into_iter().take(excess) {
                    let frame = ApiError::conflict(
                        "replaced",
                        "this seat opened a newer connection elsewhere: this one is closed",
                    )
                    .frame();
                    if let Some(x) = self.subs.iter().find(|x| x.id == old) {
                        let _ = x.tx.try_send(Utf8Bytes::from(frame.to_string()));
                    }
                    if let Some(i) = self.subs.iter().position(|x| x.id == old) {
                        self.subs.remove(i);
                    }
                }
            }
        }
        let catchup = self.shared.limits.catchup;
        let events: Option<Vec<Value>> = match since {
            Some(v) if v <= self.version && self.version - v <= catchup => {
                Some(self.events.get(v as usize..).unwrap_or_default().iter().map(event_json).collect())
            }
            _ => None,
        };
        let id = self.shared.next_id();
        let was_online = seat.is_some_and(|s| self.online(s));
        if let Some(s) = seat
            && !was_online
        {
            self.presence(s, true);
        }
        self.subs.push(Sub { id, seat, gestures, tx });
        if seat.is_none() {
            self.spectators_changed();
        }
        let mut welcome = json!({
            "type": "welcome",
            "you": seat,
            "resync": events.is_none(),
            "state": self.state_json(seat, true, gestures),
        });
        if let Some(evs) = events {
            welcome["events"] = Value::Array(evs);
        }
        Ok(Subscribed { sub: id, welcome: Utf8Bytes::from(welcome.to_string()) })
    }

    fn online(&self, seat: Seat) -> bool {
        self.seats[seat].kind == SeatKind::Computer || self.subs.iter().any(|s| s.seat == Some(seat))
    }

    fn presence(&mut self, seat: Seat, online: bool) {
        let frame = Utf8Bytes::from(json!({ "type": "presence", "seat": seat, "online": online }).to_string());
        for s in &self.subs {
            let _ = s.tx.try_send(frame.clone());
        }
    }

    fn drop_sub(&mut self, id: u64) {
        let Some(i) = self.subs.iter().position(|s| s.id == id) else { return };
        let sub = self.subs.swap_remove(i);
        if let Some(s) = sub.seat
            && !self.online(s)
        {
            self.presence(s, false);
        }
        if sub.seat.is_none() {
            self.spectators_changed();
        }
    }

    /// The number of spectators watching (sockets without a seat).
    fn spectators(&self) -> usize {
        self.subs.iter().filter(|s| s.seat.is_none()).count()
    }

    /// Tell the seated players how many watch. (Spectators learn it from the
    /// state and the next update: telling every watcher of every arrival
    /// would cost the square of the watchers.)
    fn spectators_changed(&mut self) {
        let frame = Utf8Bytes::from(json!({ "type": "spectators", "count": self.spectators() }).to_string());
        for s in self.subs.iter().filter(|s| s.seat.is_some()) {
            let _ = s.tx.try_send(frame.clone());
        }
    }

    fn send_to(&mut self, sub: u64, frame: &Value) {
        if let Some(s) = self.subs.iter().find(|s| s.id == sub)
            && s.tx.try_send(Utf8Bytes::from(frame.to_string())).is_err()
        {
            self.drop_sub(sub);
        }
    }

    fn to_move(&self) -> Option<Seat> {
        if self.row.status == Status::Live { self.m.to_move().seat() } else { None }
    }

    fn seats_json(&self) -> Value {
        Value::Array(
            self.seats
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    json!({
                        "seat": i,
                        "name": self.m.seat_name(i),
                        "kind": s.kind,
                        "player": s.name,
                        "spec": s.spec,
                        "open": s.is_open(),
                        "online": self.online(i),
                    })
                })
                .collect(),
        )
    }

    fn result_json(&self) -> Value {
        match self.m.outcome() {
            Some(o) if self.row.status == Status::Finished => outcome_json(&*self.m, &o),
            _ => Value::Null,
        }
    }

    /// Whether the set-up is dealt: a game with hidden information is dealt
    /// when its last seat is taken, and shows nobody a secret before.
    fn dealt(&self) -> bool {
        let info = self.m.info();
        !(info.hidden && info.uses_seed && self.row.status == Status::Open)
    }

    /// How `seat` (or a spectator) reads the position now: a seat reads no
    /// secret of a game not yet dealt.
    fn reader(&self, seat: Option<Seat>) -> Reader {
        if self.dealt() { reader_of(seat) } else { Reader::Spectator }
    }

    fn seed_visible(&self, seat: Option<Seat>) -> bool {
        let info = self.m.info();
        let _ = seat;
        info.uses_seed && (!info.hidden || self.row.status == Status::Finished)
    }

    /// Everything `seat` (or a spectator) may know of the game.
    pub(crate) fn state_json(&self, seat: Option<Seat>, history: bool, gestures: bool) -> Value {
        let info = self.m.info();
        let mut v = json!({
            "id": self.row.id,
            "game": info.name,
            "title": info.title,
            "variant": self.m.variant(),
            "options": self.row.options,
            "status": self.row.status,
            "version": self.version,
            "ply": self.m.ply(),
            "to_move": self.to_move(),
            "you": seat,
            "seats": self.seats_json(),
            "spectators": self.spectators(),
            "has_draws": info.has_draws,
            "draw_offers": self.draw_offers,
            "rematch_offers": self.rematch_offers,
            "rematch": self.row.rematch,
            "rematch_of": self.row.rematch_of,
            "result": self.result_json(),
            "created_at": self.row.created_at,
            "dealt": self.dealt(),
            "view": view_of(&*self.m, self.reader(seat)),
        });
        if self.seed_visible(seat) {
            v["seed"] = Value::from(self.row.seed);
        }
        if let Some(s) = seat
            && self.to_move() == Some(s)
        {
            let (moves, legal) = self.legal_json(gestures);
            v["legal_moves"] = moves;
            if gestures {
                v["legal"] = legal;
            }
        }
        if history {
            v["history"] = Value::from(self.m.history());
            v["movers"] = Value::from(self.m.movers());
        }
        v
    }

    /// The legal moves in notation, and with how each is made by pointing
    /// (`{"move", "select", "targets"}`).
    fn legal_json(&self, with_gestures: bool) -> (Value, Value) {
        if !with_gestures {
            return (Value::from(catch(|| self.m.legal_moves()).unwrap_or_default()), Value::Null);
        }
        let gestures = catch(|| self.m.legal_gestures()).unwrap_or_default();
        let moves = gestures.iter().map(|(m, _)| Value::from(m.as_str())).collect();
        let legal =
            gestures.into_iter().map(|(m, g)| json!({ "move": m, "select": g.select, "targets": g.targets })).collect();
        (Value::Array(moves), Value::Array(legal))
    }

    /// The part of an update frame that is the same for every reader (without
    /// the closing brace).
    fn update_common(&self, events: &[Value], seats_changed: bool) -> String {
        let mut v = json!({
            "type": "update",
            "version": self.version,
            "events": events,
            "ply": self.m.ply(),
            "status": self.row.status,
            "to_move": self.to_move(),
            "draw_offers": self.draw_offers,
            "spectators": self.spectators(),
        });
        if self.row.status == Status::Finished {
            v["result"] = self.result_json();
        }
        if seats_changed {
            v["seats"] = self.seats_json();
        }
        if let Some(r) = &self.row.rematch {
            v["rematch"] = Value::from(r.as_str());
        }
        let mut s = v.to_string();
        s.pop();
        s
    }

    fn record_json(&self, seat: Option<Seat>) -> Value {
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

    async fn position_json(&mut self, seat: Option<Seat>, ply: u64) -> Result<Value, ApiError> {
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
            let shared = self.shared.clone();
            let (game, setup) = (self.row.game.clone(), self.m.setup().clone());
            let replayed = tokio::task::spawn_blocking(move || {
                catch(|| -> Result<(Value, Option<Seat>), String> {
                    let mut m = shared.registry.new_match(&game, &setup).map_err(|e| e.to_string())?;
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

    /// Write events (and other writes) and wait for the commit.
    async fn commit(
        &mut self,
        evs: Vec<(&str, Option<Seat>, String)>,
        mut ops: Vec<WriteOp>,
    ) -> Result<Vec<EventRow>, ApiError> {
        let at = now_ms();
        let rows: Vec<EventRow> = evs
            .into_iter()
            .enumerate()
            .map(|(i, (kind, seat, data))| EventRow {
                version: self.version + i as u64 + 1,
                kind: kind.to_string(),
                seat,
                data,
                at,
            })
            .collect();
        ops.extend(rows.iter().map(|e| WriteOp::InsertEvent { game_id: self.row.id.clone(), event: e.clone() }));
        self.shared.writer.commit(ops).await.map_err(ApiError::storage)?;
        Ok(rows)
    }

    fn status_op(&self, status: Status) -> WriteOp {
        let o = if status == Status::Finished { self.m.outcome() } else { None };
        WriteOp::UpdateGame {
            game_id: self.row.id.clone(),
            status,
            result: o.map(|o| o.result_string()),
            termination: o.map(|o| o.reason.to_string()),
            ply: self.m.ply() as u64,
            rematch: self.row.rematch.clone(),
            seed: self.row.seed,
            at: now_ms(),
        }
    }

    /// Record committed events and broadcast them.
    fn publish(&mut self, rows: Vec<EventRow>, seats_changed: bool) {
        if matches!(self.row.status, Status::Finished | Status::Aborted) {
            // The creating client's share of the computer players is free.
            self.slot = None;
        }
        let evs: Vec<Value> = rows.iter().map(event_json).collect();
        for r in rows {
            if changes_position(&r.kind) {
                self.pos_version = r.version;
            }
            self.version = r.version;
            self.events.push(r);
        }
        if self.subs.is_empty() {
            return;
        }
        let common = self.update_common(&evs, seats_changed);
        // A game without hidden information shows everyone the same view:
        // compute it once.
        let shared_view =
            (!self.m.info().hidden || !self.dealt()).then(|| view_of(&*self.m, Reader::Spectator).to_string());
        let to_move = self.to_move();
        let mut legal: Option<String> = None;
        let mut gestures: Option<String> = None;
        let mut cache: Vec<((Option<Seat>, bool), Utf8Bytes)> = Vec::new();
        let mut dead = Vec::new();
        for i in 0..self.subs.len() {
            let seat = self.subs[i].seat;
            let with_gestures = self.subs[i].gestures;
            let key = (seat, with_gestures);
            let frame = match cache.iter().find(|(k, _)| *k == key) {
                Some((_, f)) => f.clone(),
                None => {
                    let view = match &shared_view {
                        Some(v) => v.clone(),
                        None => view_of(&*self.m, reader_of(seat)).to_string(),
                    };
                    let mut f = String::with_capacity(common.len() + view.len() + 512);
                    f.push_str(&common);
                    f.push_str(",\"view\":");
                    f.push_str(&view);
                    if seat.is_some() && seat == to_move {
                        if with_gestures {
                            if gestures.is_none() {
                                let (m, g) = self.legal_json(true);
                                legal = Some(m.to_string());
                                gestures = Some(g.to_string());
                            }
                            f.push_str(",\"legal\":");
                            f.push_str(gestures.as_deref().unwrap_or("[]"));
                        }
                        let moves = legal.get_or_insert_with(|| self.legal_json(false).0.to_string());
                        f.push_str(",\"legal_moves\":");
                        f.push_str(moves);
                    }
                    f.push('}');
                    let f = Utf8Bytes::from(f);
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

    async fn act(&mut self, seat: Option<Seat>, action: Action) -> Result<u64, ApiError> {
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
        }
        Ok(self.version)
    }

    fn not_live(&self) -> ApiError {
        match self.row.status {
            Status::Open => ApiError::conflict("not_started", "the game has not started: a seat is still open"),
            Status::Finished => ApiError::conflict("game_over", "the game is over"),
            Status::Aborted => ApiError::conflict("game_over", "the game was aborted"),
            Status::Live => ApiError::internal("the game is live"),
        }
    }

    /// Play a move for `seat` (a person's, checked against `version`, or a
    /// computer's).
    async fn play(&mut self, seat: Seat, text: &str, version: Option<u64>) -> Result<(), ApiError> {
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
        let mut evs = vec![("move", Some(seat), canonical)];
        let mut ops = Vec::new();
        let over = self.m.outcome();
        if let Some(o) = &over {
            // The result may need a search: off the runtime, once, stored
            // with the game_over event.
            self.settle().await;
            evs.push(("game_over", None, outcome_json(&*self.m, o).to_string()));
            ops.push(self.status_op(Status::Finished));
        }
        let rows = match self.commit(evs, ops).await {
            Ok(r) => r,
            Err(e) => {
                self.m.undo();
                return Err(e);
            }
        };
        self.draw_offers.clear();
        if over.is_some() {
            self.row.status = Status::Finished;
        }
        self.publish(rows, false);
        self.maybe_start_ai();
        Ok(())
    }

    fn human_seated(&self, seat: Seat) -> bool {
        self.seats[seat].kind == SeatKind::Human && self.seats[seat].token_hash.is_some()
    }

    /// End the game off the board.
    async fn finish(&mut self, seat: Seat, kind: &'static str, outcome: Outcome) -> Result<(), ApiError> {
        self.m.adjudicate(outcome);
        self.settle().await;
        let evs =
            vec![(kind, Some(seat), String::new()), ("game_over", None, outcome_json(&*self.m, &outcome).to_string())];
        let ops = vec![self.status_op(Status::Finished)];
        let rows = match self.commit(evs, ops).await {
            Ok(r) => r,
            Err(e) => {
                self.m.undo();
                return Err(e);
            }
        };
        self.draw_offers.clear();
        self.row.status = Status::Finished;
        self.publish(rows, false);
        Ok(())
    }

    async fn resign(&mut self, seat: Seat) -> Result<(), ApiError> {
        if self.row.status != Status::Live || self.m.outcome().is_some() {
            return Err(self.not_live());
        }
        let n = self.m.seats();
        let others: Vec<Seat> = (0..n).filter(|&s| s != seat).collect();
        self.finish(seat, "resign", Outcome::shared_win(n, &others, "resignation")).await
    }

    async fn offer_draw(&mut self, seat: Seat, accept: bool) -> Result<(), ApiError> {
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
            return self.finish(seat, "draw_offer", Outcome::draw(n, "agreement")).await;
        }
        let rows = self.commit(vec![("draw_offer", Some(seat), String::new())], Vec::new()).await?;
        self.draw_offers.push(seat);
        self.publish(rows, false);
        Ok(())
    }

    async fn decline_draw(&mut self, seat: Seat) -> Result<(), ApiError> {
        if self.row.status != Status::Live {
            return Err(self.not_live());
        }
        if !self.draw_offers.iter().any(|&s| s != seat) {
            return Err(ApiError::conflict("no_draw_offer", "nobody has offered a draw"));
        }
        let rows = self.commit(vec![("draw_decline", Some(seat), String::new())], Vec::new()).await?;
        self.draw_offers.clear();
        self.publish(rows, false);
        Ok(())
    }

    /// Whether the game has not had its first move yet (open, or live at
    /// ply 0).
    fn before_first_move(&self) -> bool {
        match self.row.status {
            Status::Open => true,
            Status::Live => self.m.ply() == 0,
            _ => false,
        }
    }

    async fn abort(&mut self, seat: Seat) -> Result<(), ApiError> {
        if !self.before_first_move() {
            return Err(ApiError::conflict("too_late", "a game can be aborted only before its first move"));
        }
        if !self.founders.contains(&seat) {
            return Err(ApiError::forbidden(
                "not_creator",
                "only the player who created the game can call it off: leave it instead",
            ));
        }
        let rows =
            self.commit(vec![("abort", Some(seat), String::new())], vec![self.status_op(Status::Aborted)]).await?;
        self.row.status = Status::Aborted;
        self.publish(rows, false);
        Ok(())
    }

    /// Give a seat back before the first move: the seat opens again (a game
    /// that had started waits for a player again, and a game with hidden
    /// information is dealt afresh when its seats are full again); the last
    /// person leaving aborts the game.
    async fn leave(&mut self, seat: Seat) -> Result<(), ApiError> {
        if !self.before_first_move() {
            return Err(ApiError::conflict(
                "too_late",
                "a seat can be left only before the first move: resign instead",
            ));
        }
        let nobody_left = (0..self.seats.len()).all(|s| s == seat || !self.human_seated(s));
        let mut evs = vec![("leave", Some(seat), String::new())];
        let mut ops = vec![WriteOp::UpdateSeat { game_id: self.row.id.clone(), seat, name: None, token_hash: None }];
        let status = if nobody_left {
            evs.push(("abort", Some(seat), String::new()));
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
        self.founders.retain(|&s| s != seat);
        self.draw_offers.clear();
        self.row.status = status;
        self.set_meta();
        self.publish(rows, true);
        Ok(())
    }

    async fn join(&mut self, seat: Option<usize>, name: Option<String>) -> Result<Joined, ApiError> {
        if self.row.status != Status::Open {
            return Err(ApiError::conflict("not_open", "this game has no open seat"));
        }
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
        let token = ids::new_token()?;
        let hash = ids::hash_token(&token);
        let filled = (0..self.seats.len()).all(|i| i == s || !self.seats[i].is_open());
        let mut ops = vec![WriteOp::UpdateSeat {
            game_id: self.row.id.clone(),
            seat: s,
            name: name.clone(),
            token_hash: Some(hash.clone()),
        }];
        // The last seat taken starts the game; a game with hidden information
        // is dealt now, from a seed drawn now, so that nobody could read a
        // secret before.
        let info = self.m.info();
        let deal = if filled && info.hidden && info.uses_seed {
            let seed = ids::random_u64()?;
            let setup = Setup { variant: self.row.variant.clone(), options: self.row.options.clone(), seed };
            let m = catch(|| self.shared.registry.new_match(&self.row.game, &setup))?
                .map_err(|e| ApiError::internal(format!("the game cannot be dealt: {e}")))?;
            Some((seed, m))
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
        let rows = self.commit(vec![("join", Some(s), json!({ "player": name }).to_string())], ops).await?;
        self.seats[s].token_hash = Some(hash);
        self.seats[s].name = name;
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

    async fn rematch(&mut self, seat: Seat) -> Result<(), ApiError> {
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
            let rows = self.commit(vec![("rematch_offer", Some(seat), String::new())], Vec::new()).await?;
            self.rematch_offers.push(seat);
            self.publish(rows, false);
            return Ok(());
        }
        // Everyone agrees: the same game with every player one seat further on
        // (the two seats swapped for two players).
        let n = self.seats.len();
        let info = self.m.info();
        let setup = Setup {
            variant: self.row.variant.clone(),
            options: self.row.options.clone(),
            seed: if info.uses_seed { ids::random_u64()? } else { self.row.seed },
        };
        let m = catch(|| self.shared.registry.new_match(&self.row.game, &setup))?
            .map_err(|e| ApiError::internal(format!("the rematch cannot be set up: {e}")))?;
        let now = now_ms();
        let new_id = ids::new_game_id()?;
        let mut seats: Vec<SeatRow> = (0..n)
            .map(|i| SeatRow { seat: i, kind: SeatKind::Human, player: None, name: None, token_hash: None })
            .collect();
        for (i, old) in self.seats.iter().enumerate() {
            let j = (i + 1) % n;
            seats[j] = SeatRow {
                seat: j,
                kind: old.kind,
                player: old.spec.clone(),
                name: old.name.clone(),
                token_hash: old.token_hash.clone(),
            };
        }
        let row = GameRow {
            id: new_id.clone(),
            game: self.row.game.clone(),
            variant: self.row.variant.clone(),
            options: self.row.options.clone(),
            seed: setup.seed,
            status: Status::Live,
            result: None,
            termination: None,
            ply: 0,
            rematch_of: Some(self.row.id.clone()),
            rematch: None,
            created_at: now,
            updated_at: now,
        };
        let mut update = self.status_op(Status::Finished);
        if let WriteOp::UpdateGame { rematch, .. } = &mut update {
            *rematch = Some(new_id.clone());
        }
        let ops = vec![WriteOp::InsertGame { game: row.clone(), seats: seats.clone() }, update];
        let evs = vec![
            ("rematch_offer", Some(seat), String::new()),
            ("rematch", None, json!({ "rematch": new_id }).to_string()),
        ];
        let rows = self.commit(evs, ops).await?;
        self.rematch_offers.push(seat);
        self.row.rematch = Some(new_id);
        let mut table = Table::new(self.shared.clone(), row, &seats, m, Vec::new());
        // The rematch waits in the same line of the computer players' queue.
        table.set_owner(self.owner.clone(), None);
        self.shared.install(table);
        self.publish(rows, false);
        Ok(())
    }

    fn maybe_start_ai(&mut self) {
        if self.ai.is_some() || self.row.status != Status::Live {
            return;
        }
        let Turn::Seat(s) = self.m.to_move() else { return };
        let slot = &mut self.seats[s];
        if slot.kind != SeatKind::Computer {
            return;
        }
        let player = slot.player.take();
        let spec = slot.spec.clone().unwrap_or_else(|| "random".to_string());
        match self.shared.pool.submit(&self.owner, player, &spec, self.m.clone_box()) {
            Ok(rx) => self.ai = Some(AiWait { seat: s, pos_version: self.pos_version, rx }),
            Err(e) => {
                // The player was dropped with the job: it is made again from
                // its spec next time. Ask again in a second.
                tracing::warn!("game {}: {e}; asking again in a second", self.row.id);
                self.ai_retry = Some(tokio::time::Instant::now() + Duration::from_secs(1));
            }
        }
    }

    fn random_move(&self) -> Option<String> {
        let moves = self.m.legal_moves();
        let r = ids::random_u64().ok()?;
        if moves.is_empty() { None } else { Some(moves[(r % moves.len() as u64) as usize].clone()) }
    }

    async fn ai_done(&mut self, (player, choice): JobResult) {
        let Some(wait) = self.ai.take() else { return };
        if let Some(p) = player {
            self.seats[wait.seat].player = Some(p);
        }
        if wait.pos_version != self.pos_version
            || self.row.status != Status::Live
            || self.m.to_move() != Turn::Seat(wait.seat)
        {
            self.maybe_start_ai();
            return;
        }
        let mv = match choice {
            Ok(c) => Some(c.mv),
            Err(e) => {
                tracing::warn!("game {}: computer player failed ({e}); playing a random move", self.row.id);
                self.random_move()
            }
        };
        let Some(mv) = mv else { return };
        match self.play(wait.seat, &mv, None).await {
            Ok(()) => {}
            Err(e) if e.code == "storage" => {
                tracing::error!("game {}: computer move not stored: {e}; trying again in a second", self.row.id);
                tokio::time::sleep(Duration::from_secs(1)).await;
                self.maybe_start_ai();
            }
            Err(e) => {
                tracing::warn!("game {}: computer move {mv} refused ({e}); playing a random move", self.row.id);
                if let Some(mv) = self.random_move()
                    && let Err(e) = self.play(wait.seat, &mv, None).await
                {
                    tracing::error!("game {}: random move {mv} refused: {e}", self.row.id);
                }
            }
        }
    }
}

async fn wait_ai(ai: &mut Option<AiWait>) -> JobResult {
    match ai {
        Some(w) => (&mut w.rx).await.unwrap_or((None, Err("the computer player's thread stopped".to_string()))),
        None => std::future::pending().await,
    }
}

async fn sleep_until_opt(t: Option<tokio::time::Instant>) {
    match t {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}

async fn sleep_opt(d: Option<Duration>) {
    match d {
        Some(d) => tokio::time::sleep(d).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(date_of(0), "1970.01.01");
        assert_eq!(date_of(20_786 * 86_400_000 + 5_000), "2026.11.29");
        assert_eq!(date_of(11_016 * 86_400_000), "2000.02.29");
    }

    #[test]
    fn public_events() {
        let e = EventRow { version: 3, kind: "move".into(), seat: Some(1), data: "a1b2".into(), at: 7 };
        assert_eq!(event_json(&e), json!({"version": 3, "kind": "move", "seat": 1, "move": "a1b2", "at": 7}));
        let e = EventRow { version: 4, kind: "join".into(), seat: Some(0), data: r#"{"player":"Ann"}"#.into(), at: 8 };
        assert_eq!(event_json(&e)["player"], "Ann");
    }
}

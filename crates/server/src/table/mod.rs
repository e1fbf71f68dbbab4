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
use crate::state::ComputerSlot;

use crate::store::{EventKind, EventRow, GameRow, SeatKind, SeatRow, Status, StoredGame, WriteOp};
pub(crate) use ctx::TableCtx;
pub(crate) use replica::{Remote, moved};

mod actions;
pub(crate) mod bench;
pub(crate) mod chat;
mod clocks;
mod computer;
mod ctx;
mod frames;
mod replica;
mod restore;
pub(crate) use restore::replay;
mod takeback;
#[cfg(test)]
mod tests;
mod watchers;

use computer::wait_ai;
use frames::{event_json, outcome_json};
use restore::founders_of;

/// What a game's task is asked to do.
pub(crate) enum Cmd {
    /// A WebSocket watcher (a seat with its token, or a spectator).
    Subscribe {
        token: Option<String>,
        /// The account of the socket's session (id and name), if logged in
        /// from a page of this server: it acts for the seat it holds when no
        /// token is given.
        account: Option<(String, String)>,
        since: Option<u64>,
        gestures: bool,
        tx: mpsc::Sender<Utf8Bytes>,
        reply: oneshot::Sender<Result<Subscribed, ApiError>>,
    },
    /// A watcher has gone.
    Unsubscribe { sub: u64 },
    /// A watcher says something (checked by [`chat::admit`]).
    Chat { sub: u64, text: String },
    /// A watcher asks for the full state.
    Sync { sub: u64 },
    /// A seat acts: from a watcher (errors go back on its socket) or with a
    /// token over HTTP (errors go back on `reply`).
    Act { who: Who, action: Action, reply: Option<oneshot::Sender<Result<u64, ApiError>>> },
    /// Someone takes an open seat.
    Join {
        seat: Option<usize>,
        name: Option<String>,
        /// The account taking the seat (id and name), if logged in.
        account: Option<(String, String)>,
        /// The hash of the seat's token, when a replica made the token
        /// (forwarded; the reply's token is then empty).
        token_hash: Option<String>,
        reply: oneshot::Sender<Result<Joined, ApiError>>,
    },
    /// A message forwarded by a replica for a watcher of its own (already
    /// admitted by its rate limit); the version in reply.
    ChatAs {
        seat: Option<Seat>,
        account_name: Option<String>,
        text: String,
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// From the other instances sharing the database (`crate::cluster`).
    Remote(Remote),
    /// A read, as the token's seat (or the account's, or a spectator) may see it.
    Query {
        token: Option<String>,
        account: Option<String>,
        what: Query,
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
}

/// Who acts.
#[derive(Clone)]
pub(crate) enum Who {
    Sub(u64),
    Token(String),
    /// A logged-in account, for the seat it holds.
    Account(String),
    /// A seat (or a spectator) as a replica on another instance checked it
    /// (`crate::cluster`; never from a client).
    Forwarded(Option<Seat>),
}

/// What this instance is to a game in its memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// The only instance (SQLite): it owns every game, without a lease.
    Solo,
    /// The owner, by the lease of this epoch: it alone writes the game.
    Owner(i64),
    /// A copy kept for this instance's clients; the owner is elsewhere.
    Replica,
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
    /// The account holding the seat.
    account: Option<String>,
    player: Option<Box<dyn AnyPlayer>>,
    /// Since when (ms since 1970) a seated person has had no socket open
    /// and has not acted: `None` while present.
    gone_since: Option<i64>,
}

impl SeatSlot {
    fn from_row(r: &SeatRow) -> SeatSlot {
        SeatSlot {
            kind: r.kind,
            spec: r.player.clone(),
            name: r.name.clone(),
            token_hash: r.token_hash.clone(),
            account: r.account.clone(),
            player: None,
            gone_since: None,
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
    /// The name of the socket's account, if logged in (a spectator writes
    /// under it in the spectators' room).
    account_name: Option<String>,
}

struct AiWait {
    seat: Seat,
    pos_version: u64,
    rx: oneshot::Receiver<JobResult>,
}

/// One game's task state.
pub(crate) struct Table {
    ctx: Arc<TableCtx>,
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
    /// The takeback asked: the asker, then the seats that accepted.
    takeback_offers: Vec<Seat>,
    /// The last messages of both chat rooms.
    chat: chat::ChatLog,
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
    /// The clocks, for a game with a time control.
    clocks: Option<crate::clock::Clocks>,
    /// A live clocked game loaded from the database: its clocks start again
    /// (a `clock` event) as soon as its task runs.
    resume_clock: bool,
    /// When recording the fall of the clock last failed (tried again a
    /// second later).
    flag_failed: Option<tokio::time::Instant>,
    /// Owner, replica, or the only instance.
    role: Role,
    /// A replica: the instance owning the game, when known.
    leader: Option<String>,
    /// An owner: when another instance last said each seat has a socket
    /// open there (ms since 1970).
    remote_seen: Vec<Option<i64>>,
    /// The lease was lost: the task ends (its sockets close; their clients
    /// reconnect and find the game's new owner).
    lost: bool,
}

/// Milliseconds since 1970.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
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

/// A view as JSON text ([`AnyMatch::view_json`]: written straight where the
/// game can), guarded as [`view_of`].
fn view_text(m: &dyn AnyMatch, reader: Reader) -> String {
    catch(|| m.view_json(reader)).unwrap_or_else(|_| {
        tracing::error!("the {} view failed", m.info().name);
        "null".into()
    })
}

impl Table {
    /// A new game, as created (or as a rematch).
    pub(crate) fn new(
        ctx: Arc<TableCtx>,
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
        let clocks = row.clock.map(|tc| crate::clock::Clocks::new(tc, slots.len()));
        let mut t = Table {
            ctx,
            row,
            m,
            seats: slots,
            version: 0,
            pos_version: 0,
            events: Vec::new(),
            draw_offers: Vec::new(),
            rematch_offers: Vec::new(),
            takeback_offers: Vec::new(),
            chat: chat::ChatLog::default(),
            subs: Vec::new(),
            ai: None,
            acting_gestures: true,
            owner,
            slot: None,
            founders,
            ai_retry: None,
            clocks,
            resume_clock: false,
            flag_failed: None,
            role: Role::Solo,
            leader: None,
            remote_seen: Vec::new(),
            lost: false,
        };
        t.remote_seen = vec![None; t.seats.len()];
        t.set_meta();
        t
    }

    /// Whose line of the computer players' queue this game waits in, and the
    /// creating client's share it holds until it ends.
    pub(crate) fn set_owner(&mut self, owner: String, slot: Option<ComputerSlot>) {
        self.owner = owner;
        self.slot = slot;
    }

    /// The game's id.
    pub(crate) fn id(&self) -> &str {
        &self.row.id
    }

    fn set_meta(&mut self) {
        self.m.set_meta("Event", "Plateau online game");
        self.m.set_meta("Site", &format!("Plateau game {}", self.row.id));
        self.m.set_meta("Date", &plateau_core::record::date_tag(self.row.created_at));
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
        if self.role == Role::Replica {
            // What was committed between its loading and now.
            self.catch_up().await;
            self.ask_seats();
        } else {
            self.start_owning().await;
        }
        let mut halted = self.ctx.halted();
        let mut beat = tokio::time::interval(replica::PRESENCE_BEAT);
        loop {
            if *halted.borrow() {
                return;
            }
            if self.lost {
                if let (Role::Owner(epoch), Some(c)) = (self.role, &self.ctx.cluster) {
                    c.forget(&self.row.id, epoch);
                }
                self.ctx.evict(&self.row.id, generation, &mut rx);
                tracing::info!("game {}: taken over by another instance, left here", self.row.id);
                return;
            }
            let idle = self.idle_timeout();
            let flag = self.flag_instant();
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(c) => self.handle(c).await,
                    None => return,
                },
                _ = beat.tick() => self.presence_beat(),
                res = wait_ai(&mut self.ai) => self.ai_done(res).await,
                _ = sleep_until_opt(self.ai_retry) => {
                    self.ai_retry = None;
                    self.maybe_start_ai();
                }
                _ = sleep_until_opt(flag) => self.time_out().await,
                _ = halted.changed() => return,
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
            // A replica nobody watches here is soon dropped: it is read
            // again from the database when wanted.
            _ if self.role == Role::Replica => self.ctx.limits.idle_finished,
            Status::Finished | Status::Aborted => self.ctx.limits.idle_finished,
            Status::Open | Status::Live => self.ctx.limits.idle_live,
        })
    }

    /// What an owner does when its task starts: the clocks again after a
    /// stop, the absent players, the computer's move.
    async fn start_owning(&mut self) {
        if self.resume_clock {
            self.resume_clock = false;
            self.restart_clock().await;
        }
        self.mark_absent(now_ms());
        self.maybe_start_ai();
    }

    fn try_evict(&mut self, rx: &mut mpsc::Receiver<Cmd>, generation: u64) -> bool {
        let gone = self.ctx.evict(&self.row.id, generation, rx);
        if gone && let (Role::Owner(epoch), Some(c)) = (self.role, self.ctx.cluster.clone()) {
            // Out of memory: any instance may take the game at once.
            let id = self.row.id.clone();
            tokio::spawn(async move { c.release(&id, epoch).await });
        }
        // A running clock must still fall: the server loads the game again then.
        if gone
            && self.role != Role::Replica
            && self.row.status == Status::Live
            && let Some(d) = self.clocks.as_ref().and_then(|c| c.deadline())
        {
            self.ctx.remember_deadline(&self.row.id, d);
        }
        gone
    }

    async fn handle(&mut self, cmd: Cmd) {
        let cmd = if self.role == Role::Replica {
            match self.replica_takes(cmd).await {
                Some(c) => c,
                None => return,
            }
        } else {
            cmd
        };
        match cmd {
            Cmd::Remote(r) => self.remote(r).await,
            Cmd::ChatAs { seat, account_name, text, reply } => {
                let r = self.post_chat(seat, account_name, text).await.map(|()| self.version);
                let _ = reply.send(r);
            }
            Cmd::Subscribe { token, account, since, gestures, tx, reply } => {
                let r = self.subscribe(token.as_deref(), account, since, gestures, tx);
                let _ = reply.send(r);
            }
            Cmd::Unsubscribe { sub } => self.drop_sub(sub),
            Cmd::Chat { sub, text } => self.chat(sub, text).await,
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
                        (self.auth(Some(&t), None), None)
                    }
                    Who::Account(a) => {
                        self.acting_gestures = true;
                        (self.auth(None, Some(&a)), None)
                    }
                    Who::Forwarded(seat) => {
                        self.acting_gestures = false;
                        (Ok(seat), None)
                    }
                };
                if let Ok(Some(s)) = seat
                    && sub.is_none()
                    && self.seats[s].gone_since.is_some()
                {
                    // Acting over HTTP counts as being there.
                    self.seats[s].gone_since = Some(now_ms());
                }
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
                            let e = self.with_state(e, sub);
                            self.send_to(sub, &e.frame());
                        }
                    }
                    (None, None) => {}
                }
            }
            Cmd::Join { seat, name, account, token_hash, reply } => {
                let r = self.join(seat, name, account, token_hash).await;
                let _ = reply.send(r);
            }
            Cmd::Query { token, account, what, reply } => {
                let r = match self.auth(token.as_deref(), account.as_deref()) {
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

    /// A refusal of socket `sub`'s action with the state as that socket
    /// reads it, if it has none: whatever refused the action (the rules, the
    /// database, a bug), the client acts again on the true state, never on
    /// a guess. A refusal is never left without it: a client whose move the
    /// database refused (nothing changed) waits for nothing otherwise.
    fn with_state(&self, e: ApiError, sub: u64) -> ApiError {
        if e.state.is_some() {
            return e;
        }
        match self.subs.iter().find(|s| s.id == sub) {
            Some(s) => {
                let state = self.state_json(s.seat, false, s.gestures);
                e.with_state(state)
            }
            None => e,
        }
    }

    /// The seat of a token, else of the account: `None` for neither (a
    /// spectator; an account that holds no seat here watches).
    fn auth(&self, token: Option<&str>, account: Option<&str>) -> Result<Option<Seat>, ApiError> {
        let Some(token) = token else {
            return Ok(account.and_then(|a| {
                self.seats.iter().position(|s| s.kind == SeatKind::Human && s.account.as_deref() == Some(a))
            }));
        };
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

    /// Write events (and other writes) and wait for the commit.
    async fn commit(
        &mut self,
        evs: Vec<(EventKind, Option<Seat>, String)>,
        mut ops: Vec<WriteOp>,
    ) -> Result<Vec<EventRow>, ApiError> {
        let at = now_ms();
        let rows: Vec<EventRow> = evs
            .into_iter()
            .enumerate()
            .map(|(i, (kind, seat, data))| EventRow { version: self.version + i as u64 + 1, kind, seat, data, at })
            .collect();
        ops.extend(rows.iter().map(|e| WriteOp::InsertEvent { game_id: self.row.id.clone(), event: e.clone() }));
        self.write(ops).await?;
        Ok(rows)
    }

    /// Write, as the game's owner: with its lease's fencing token when
    /// instances share the database. A write refused for a stale lease ends
    /// the task (the game has a new owner).
    async fn write(&mut self, mut ops: Vec<WriteOp>) -> Result<(), ApiError> {
        if self.role == Role::Replica {
            // Only the owner writes a game.
            return Err(replica::moved());
        }
        if let (Role::Owner(epoch), Some(c)) = (self.role, &self.ctx.cluster) {
            ops.insert(0, WriteOp::Fence { game_id: self.row.id.clone(), owner: c.id.clone(), epoch });
        }
        match self.ctx.writer.commit(ops).await {
            Ok(()) => Ok(()),
            Err(e) if e.is_fenced() => {
                self.lost = true;
                Err(replica::moved())
            }
            Err(e) => Err(ApiError::storage(e)),
        }
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

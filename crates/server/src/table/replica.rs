//! A game when several instances share the database (`crate::cluster`):
//! what a replica does (serve its own sockets from memory, apply the
//! owner's committed events, forward what its clients do to the owner and
//! give them the owner's answer), what an owner does for the replicas
//! (presence of seats connected elsewhere), and becoming the owner.

use super::restore::apply_event;
use super::*;
use crate::cluster::wire::{Answer, Forwarded};
use crate::store::chat::ChatRow;

/// How often a replica tells the owner which seats have sockets open on it.
pub(super) const PRESENCE_BEAT: Duration = Duration::from_secs(15);

/// How long such a word counts for the owner (ms).
const PRESENCE_TTL: i64 = 40_000;

/// What comes to a game's task from the other instances.
pub(crate) enum Remote {
    /// Events committed by the owner, in order.
    Events(Vec<EventRow>),
    /// Events were committed that this copy may have missed: read them.
    Behind,
    /// A chat message said on another instance (`n` 0: spectators' room).
    Chat(ChatRow),
    /// A replica says a seat has sockets open there, or no more.
    Presence { seat: Seat, online: bool },
    /// The owner says whether a seat is there (on some instance).
    Online { seat: Seat, online: bool },
    /// A new replica asks the owner to say who is there.
    Seats,
    /// This instance has taken the game over, with this epoch.
    Promote { epoch: i64 },
    /// The owner's answer to a request forwarded for a client.
    Answered { answer: Result<Answer, ApiError>, to: Reply, asked: Forwarded },
}

/// Who waits for the answer of a forwarded request.
pub(crate) enum Reply {
    /// A socket of this instance (a refusal goes back on it).
    Sub(u64),
    /// An HTTP action.
    Act(oneshot::Sender<Result<u64, ApiError>>),
    /// An HTTP join, with the token this instance gave.
    Join { reply: oneshot::Sender<Result<Joined, ApiError>>, token: String },
    /// Nobody (presence).
    Nobody,
}

/// The refusal of a write by an instance that no longer owns the game.
pub(crate) fn moved() -> ApiError {
    ApiError::new(
        axum::http::StatusCode::SERVICE_UNAVAILABLE,
        "moved",
        "this game has just moved to another server: reconnect, or try again",
    )
}

/// Events a replica applies as they come; any other (seats, status, deal,
/// takeback, end) makes it rebuild the game from the database.
fn simple(kind: EventKind) -> bool {
    matches!(
        kind,
        EventKind::Move
            | EventKind::DrawOffer
            | EventKind::DrawDecline
            | EventKind::RematchOffer
            | EventKind::TakebackOffer
            | EventKind::TakebackDecline
            | EventKind::Clock
    )
}

impl Table {
    /// Owner, replica, or alone; a replica's owner if known.
    pub(crate) fn set_role(&mut self, role: Role, leader: Option<String>) {
        self.role = role;
        self.leader = leader;
    }

    /// Whether another instance said lately that `seat` has a socket there.
    pub(super) fn remote_here(&self, seat: Seat, now: i64) -> bool {
        self.remote_seen.get(seat).copied().flatten().is_some_and(|t| now - t < PRESENCE_TTL)
    }

    /// What the other instances say, to an owner (or the only instance).
    pub(super) async fn remote(&mut self, r: Remote) {
        match r {
            Remote::Events(rows) => {
                // Another writer: this instance is no longer the owner.
                if self.role != Role::Solo && rows.iter().any(|r| r.version > self.version) {
                    self.lost = true;
                }
            }
            // Its own messages, heard back.
            Remote::Behind | Remote::Chat(_) | Remote::Online { .. } => {}
            Remote::Seats => self.say_seats(),
            Remote::Presence { seat, online } => self.remote_presence(seat, online),
            Remote::Promote { epoch } => self.promote(epoch).await,
            Remote::Answered { answer, to, asked } => self.answered(answer, to, asked).await,
        }
    }

    /// Another instance says whether `seat` is there: to an owner, a
    /// replica with sockets of the seat; to a replica, the owner.
    fn remote_presence(&mut self, seat: Seat, online: bool) {
        if seat >= self.seats.len() {
            return;
        }
        let now = now_ms();
        let was = self.online(seat);
        self.remote_seen[seat] = online.then_some(now);
        let is = self.online(seat);
        if is && !was {
            self.seats[seat].gone_since = None;
            self.presence(seat, true);
        } else if was && !is {
            self.seats[seat].gone_since = Some(now);
            self.presence(seat, false);
        }
    }

    /// A command to a replica: what changes the game goes to the owner;
    /// reads and sockets are served here. `None` once handled.
    pub(super) async fn replica_takes(&mut self, cmd: Cmd) -> Option<Cmd> {
        match cmd {
            Cmd::Remote(r) => {
                match r {
                    Remote::Events(rows) => self.absorb(rows).await,
                    Remote::Behind => self.catch_up().await,
                    Remote::Chat(m) => {
                        if let Some(room) = self.chat.heard(&m) {
                            self.deliver_chat(room, m);
                        }
                    }
                    Remote::Presence { .. } | Remote::Seats => {}
                    // Kept as the owner's word, refreshed at its beat.
                    Remote::Online { seat, online } => self.remote_presence(seat, online),
                    Remote::Promote { epoch } => self.promote(epoch).await,
                    Remote::Answered { answer, to, asked } => self.answered(answer, to, asked).await,
                }
                None
            }
            Cmd::Act { who, action, reply } => {
                let (seat, sub) = match who {
                    Who::Sub(id) => match self.subs.iter().find(|s| s.id == id) {
                        Some(s) => (Ok(s.seat), Some(id)),
                        None => return None,
                    },
                    Who::Token(t) => (self.auth(Some(&t), None), None),
                    Who::Account(a) => (self.auth(None, Some(&a)), None),
                    // Never forwarded twice.
                    Who::Forwarded(_) => (Err(moved()), None),
                };
                let to = match (reply, sub) {
                    (Some(tx), _) => Reply::Act(tx),
                    (None, Some(sub)) => Reply::Sub(sub),
                    (None, None) => Reply::Nobody,
                };
                match seat {
                    Ok(seat) => self.forward(Forwarded::Act { seat, action }, to),
                    Err(e) => self.deliver(to, Err(e)),
                }
                None
            }
            Cmd::Join { seat, name, account, token_hash, reply } => {
                if token_hash.is_some() {
                    let _ = reply.send(Err(moved()));
                    return None;
                }
                let token = match ids::new_token() {
                    Ok(t) => t,
                    Err(e) => {
                        let _ = reply.send(Err(e.into()));
                        return None;
                    }
                };
                let token_hash = ids::hash_token(&token);
                self.forward(Forwarded::Join { seat, name, account, token_hash }, Reply::Join { reply, token });
                None
            }
            Cmd::Chat { sub, text } => {
                let (seat, account_name) =
                    self.subs.iter().find(|s| s.id == sub).map(|s| (s.seat, s.account_name.clone()))?;
                self.forward(Forwarded::Chat { seat, account_name, text }, Reply::Sub(sub));
                None
            }
            Cmd::ChatAs { reply, .. } => {
                let _ = reply.send(Err(moved()));
                None
            }
            // A read sees what was acknowledged before it, on any instance:
            // this copy reads what the owner committed that it has not heard
            // of yet (one query; nothing when none).
            Cmd::Query { .. } => {
                self.catch_up().await;
                Some(cmd)
            }
            // A socket coming back with a version this copy has not reached
            // (acknowledged by the owner, not yet heard of here).
            Cmd::Subscribe { since: Some(v), .. } if v > self.version => {
                self.catch_up().await;
                Some(cmd)
            }
            other => Some(other),
        }
    }

    /// Ask the owner to do `c`; its answer comes back to this task.
    fn forward(&mut self, c: Forwarded, to: Reply) {
        let (Some(cluster), Some(me)) = (self.ctx.cluster.clone(), self.ctx.lookup(&self.row.id)) else {
            return self.deliver(to, Err(moved()));
        };
        let leader = self.leader.clone();
        let id = self.row.id.clone();
        tokio::spawn(async move {
            let answer = match leader {
                Some(o) => cluster.forward(&o, &id, c.clone()).await,
                None => match cluster.owner(&id).await {
                    Ok(Some(o)) => cluster.forward(&o, &id, c.clone()).await,
                    Ok(None) => Err(moved()),
                    Err(e) => Err(ApiError::storage(e)),
                },
            };
            let _ = me.send(Cmd::Remote(Remote::Answered { answer, to, asked: c })).await;
        });
    }

    /// The owner's answer: given to whoever waits, once this copy has the
    /// events it speaks of. If the owner has gone, this instance tries to
    /// take the game and do the request itself.
    async fn answered(&mut self, answer: Result<Answer, ApiError>, to: Reply, asked: Forwarded) {
        let e = match answer {
            Ok(Answer::Ok { version, seat }) => {
                if self.version < version {
                    self.catch_up().await;
                }
                if let Reply::Join { reply, token } = to {
                    let seat = seat.unwrap_or(0);
                    let _ = reply.send(Ok(Joined { seat, token, state: self.state_json(Some(seat), true, true) }));
                } else {
                    self.deliver(to, Ok(version));
                }
                return;
            }
            Ok(Answer::Err { status, code, message, with_state }) => {
                let mut e = Answer::error(status, &code, &message);
                if with_state && let Forwarded::Act { seat, .. } = &asked {
                    e = e.with_state(self.state_json(*seat, false, true));
                }
                e
            }
            Err(e) => e,
        };
        if matches!(e.code, "moved" | "owner_unavailable") {
            if self.role == Role::Replica {
                self.leader = None;
                if let Some(c) = self.ctx.cluster.clone() {
                    match c.acquire(&self.row.id).await {
                        Ok(Some(epoch)) => self.promote(epoch).await,
                        Ok(None) => self.leader = c.owner(&self.row.id).await.ok().flatten(),
                        Err(err) => tracing::warn!("game {}: {err}", self.row.id),
                    }
                }
            }
            // The owner has gone and this instance took the game over (now
            // or before the answer came): done here.
            if matches!(self.role, Role::Owner(_)) && !self.lost {
                return self.serve(asked, to).await;
            }
        }
        self.deliver(to, Err(e));
    }

    /// Do a request here, as the owner (after taking the game over).
    async fn serve(&mut self, asked: Forwarded, to: Reply) {
        match asked {
            Forwarded::Act { seat, action } => {
                let r = self.act(seat, action).await;
                self.deliver(to, r);
            }
            Forwarded::Join { seat, name, account, token_hash } => {
                let r = self.join(seat, name, account, Some(token_hash)).await;
                match to {
                    Reply::Join { reply, token } => {
                        let _ = reply.send(r.map(|j| Joined { token, ..j }));
                    }
                    other => self.deliver(other, r.map(|_| self.version)),
                }
            }
            Forwarded::Chat { seat, account_name, text } => {
                let r = self.post_chat(seat, account_name, text).await.map(|()| self.version);
                self.deliver(to, r);
            }
            Forwarded::Presence { .. } | Forwarded::Seats => {}
        }
    }

    /// Give a result to whoever waits for it.
    fn deliver(&mut self, to: Reply, r: Result<u64, ApiError>) {
        match to {
            Reply::Sub(sub) => {
                if let Err(e) = r {
                    self.send_to(sub, &e.frame());
                }
            }
            Reply::Act(tx) => {
                let _ = tx.send(r);
            }
            Reply::Join { reply, .. } => {
                let _ = reply.send(r.and_then(|_| Err(ApiError::internal("the join was not answered"))));
            }
            Reply::Nobody => {}
        }
    }

    /// A replica tells the owner that a seat's sockets here came or went.
    pub(super) fn tell_presence(&mut self, seat: Seat, online: bool) {
        if self.role == Role::Replica {
            self.forward(Forwarded::Presence { seat, online }, Reply::Nobody);
        }
    }

    /// Every [`PRESENCE_BEAT`], a replica says again which seats have sockets
    /// here (the owner forgets what it is not told again).
    pub(super) fn presence_beat(&mut self) {
        if matches!(self.role, Role::Owner(_)) {
            // The owner says again who is there, for the replicas.
            if self.row.status == Status::Live {
                self.say_seats();
            }
            return;
        }
        if self.role != Role::Replica {
            return;
        }
        let mut seats: Vec<Seat> = self.subs.iter().filter_map(|s| s.seat).collect();
        seats.sort_unstable();
        seats.dedup();
        for s in seats {
            self.forward(Forwarded::Presence { seat: s, online: true }, Reply::Nobody);
        }
    }

    /// An owner says to every instance which seats are there.
    fn say_seats(&self) {
        if let (Role::Owner(_), Some(c)) = (self.role, &self.ctx.cluster) {
            let seats: Vec<(usize, bool)> = (0..self.seats.len()).map(|s| (s, self.online(s))).collect();
            c.presence_said(&self.row.id, &seats);
        }
    }

    /// A replica just made asks its owner who is there.
    pub(super) fn ask_seats(&mut self) {
        self.forward(Forwarded::Seats, Reply::Nobody);
    }

    /// Events announced by the owner: applied if they follow this copy's
    /// last, read from the database if some were missed.
    async fn absorb(&mut self, rows: Vec<EventRow>) {
        let rows: Vec<EventRow> = rows.into_iter().filter(|r| r.version > self.version).collect();
        if rows.is_empty() {
            return;
        }
        let follows = rows.iter().enumerate().all(|(i, r)| r.version == self.version + 1 + i as u64);
        if follows {
            self.apply(rows).await;
        } else {
            self.catch_up().await;
        }
    }

    /// Read the events committed since this copy's last, and apply them.
    pub(super) async fn catch_up(&mut self) {
        let Some(c) = self.ctx.cluster.clone() else { return };
        match c.events_since(&self.row.id, self.version).await {
            Ok(rows) if rows.is_empty() => {}
            Ok(rows) => self.apply(rows).await,
            Err(e) => tracing::warn!("game {}: its new events cannot be read now: {e}", self.row.id),
        }
    }

    /// Apply events that follow this copy's last: moves and offers at once,
    /// anything else by rebuilding the game from the database.
    async fn apply(&mut self, rows: Vec<EventRow>) {
        if !rows.iter().all(|r| simple(r.kind)) {
            return self.reload().await;
        }
        for r in &rows {
            let id = self.row.id.clone();
            let done = apply_event(
                self.m.as_mut(),
                &mut self.draw_offers,
                &mut self.rematch_offers,
                &mut self.takeback_offers,
                r,
                &id,
            );
            if let Err(e) = done {
                tracing::error!("game {id}: an event of its owner does not apply here ({e}): rebuilt");
                return self.reload().await;
            }
        }
        self.publish(rows, false);
    }

    /// Rebuild the game from the database, keeping this task's sockets, and
    /// send them what changed.
    async fn reload(&mut self) {
        let id = self.row.id.clone();
        let stored = match self.ctx.store.load(&id).await {
            Ok(Some(s)) => s,
            Ok(None) => {
                self.lost = true;
                return;
            }
            Err(e) => {
                tracing::warn!("game {id}: cannot be read again now: {e}");
                return;
            }
        };
        let ctx = self.ctx.clone();
        let fresh = match tokio::task::spawn_blocking(move || Table::restore(ctx, stored)).await {
            Ok(Ok(t)) => t,
            Ok(Err(e)) => {
                tracing::error!("game {id}: cannot be rebuilt: {e}");
                self.lost = true;
                return;
            }
            Err(_) => {
                self.lost = true;
                return;
            }
        };
        self.adopt(fresh);
    }

    /// Take the state of `fresh` (the same game, rebuilt), keeping what
    /// belongs to this task; the events this copy did not have yet are sent
    /// to its sockets.
    fn adopt(&mut self, mut fresh: Table) {
        let known = (self.version as usize).min(fresh.events.len());
        let new_rows = fresh.events.split_off(known);
        fresh.version = fresh.events.last().map_or(0, |e| e.version);
        fresh.pos_version = fresh.events.iter().rev().find(|e| e.kind.changes_position()).map_or(0, |e| e.version);
        fresh.subs = std::mem::take(&mut self.subs);
        fresh.role = self.role;
        fresh.leader = self.leader.take();
        if self.remote_seen.len() == fresh.remote_seen.len() {
            fresh.remote_seen = std::mem::take(&mut self.remote_seen);
        }
        if self.seats.len() == fresh.seats.len() {
            for (f, s) in fresh.seats.iter_mut().zip(&self.seats) {
                f.gone_since = s.gone_since;
            }
        }
        fresh.chat.carry(&mut self.chat);
        fresh.owner = std::mem::take(&mut self.owner);
        fresh.slot = self.slot.take();
        *self = fresh;
        self.broadcast(new_rows, true);
    }

    /// This instance has taken the game over (epoch `epoch`): rebuilt from
    /// what is committed, it then does what an owner does (clocks, the
    /// computer's move).
    async fn promote(&mut self, epoch: i64) {
        self.role = Role::Owner(epoch);
        self.leader = None;
        self.ai = None;
        self.reload().await;
        if !self.lost {
            tracing::info!("game {}: taken over (epoch {epoch})", self.row.id);
            self.start_owning().await;
        }
    }
}

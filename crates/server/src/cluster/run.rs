//! The tasks of an instance among others: the listener (events to the
//! replicas in memory, requests to the games owned here, answers to whoever
//! waits), the renewal of the leases held, and the taking over of games
//! whose owner has gone. All end when the server stops.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use sqlx::postgres::PgListener;
use tokio::sync::{mpsc, oneshot};

use super::wire::{self, Answer, Direct, Forwarded};
use super::{Cluster, EVENTS};
use crate::error::ApiError;
use crate::state::Shared;
use crate::store::StoreError;
use crate::table::{Cmd, Remote, Who, moved};

/// Games taken over per sweep at most (the rest at the next, a second later).
const SWEEP: i64 = 200;

/// Start the tasks, once the listener listens (so that no event committed
/// after a game is loaded here goes unheard). Nothing without a cluster.
pub(crate) async fn start(shared: &Arc<Shared>) -> Result<(), StoreError> {
    let Some(c) = shared.ctx.cluster.clone() else { return Ok(()) };
    c.heartbeat().await?;
    let mut listener = PgListener::connect_with(&c.pool).await?;
    let mine = Cluster::channel_of(&c.id);
    listener.listen_all([EVENTS, mine.as_str()]).await?;
    tracing::info!("instance {} among others on PostgreSQL: leases of {:?}", c.id, c.lease);
    tokio::spawn(listen(shared.clone(), c.clone(), listener));
    if let Some(outbox) = c.outbox.lock().ok().and_then(|mut o| o.take()) {
        tokio::spawn(mail(c.clone(), outbox));
    }
    tokio::spawn(renew(shared.clone(), c.clone()));
    tokio::spawn(sweep(shared.clone(), c));
    Ok(())
}

/// The mailer: every notification waiting, sent in one statement (group
/// commit, as the writer's): the messages to one instance packed in arrays
/// under the payload limit. Under load, one round trip carries many
/// requests and answers; alone, a message goes at once.
async fn mail(c: Arc<Cluster>, mut outbox: mpsc::UnboundedReceiver<super::Outgoing>) {
    let mut batch = Vec::new();
    while let Some(first) = outbox.recv().await {
        batch.push(first);
        while batch.len() < 1024 {
            match outbox.try_recv() {
                Ok(o) => batch.push(o),
                Err(_) => break,
            }
        }
        let mut channels: Vec<String> = Vec::new();
        let mut payloads: Vec<String> = Vec::new();
        let mut by_channel: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, o) in batch.iter().enumerate() {
            if o.batched {
                by_channel.entry(o.channel.as_str()).or_default().push(i);
            } else {
                channels.push(o.channel.clone());
                payloads.push(o.text.clone());
            }
        }
        let mut refused = Vec::new();
        for (channel, idx) in &by_channel {
            let texts: Vec<&str> = idx.iter().map(|&i| batch[i].text.as_str()).collect();
            let (packed, too_long) = wire::pack(&texts);
            refused.extend(too_long.into_iter().map(|k| idx[k]));
            for p in packed {
                channels.push(channel.to_string());
                payloads.push(p);
            }
        }
        let r = sqlx::query("SELECT pg_notify(c, p) FROM UNNEST($1::TEXT[], $2::TEXT[]) AS t (c, p)")
            .bind(&channels)
            .bind(&payloads)
            .execute(&c.pool)
            .await
            .map(|_| ())
            .map_err(StoreError::from);
        if let Err(e) = &r {
            tracing::warn!("notifying the other instances: {e}");
        }
        for (i, o) in batch.drain(..).enumerate() {
            if let Some(done) = o.done {
                let res = if refused.contains(&i) { Err(StoreError("a message too long".into())) } else { r.clone() };
                let _ = done.send(res);
            }
        }
    }
}

/// Send `cmd` to a game's task without making the listener wait for a slow
/// game (a full queue is waited on by a task of its own).
fn dispatch(tx: &mpsc::Sender<Cmd>, cmd: Cmd) {
    match tx.try_send(cmd) {
        Ok(()) | Err(mpsc::error::TrySendError::Closed(_)) => {}
        Err(mpsc::error::TrySendError::Full(cmd)) => {
            let tx = tx.clone();
            tokio::spawn(async move {
                let _ = tx.send(cmd).await;
            });
        }
    }
}

async fn listen(shared: Arc<Shared>, c: Arc<Cluster>, mut listener: PgListener) {
    let mut halted = shared.ctx.halted();
    loop {
        let n = tokio::select! {
            n = listener.try_recv() => n,
            _ = halted.changed() => return,
        };
        match n {
            Ok(Some(n)) if n.channel() == EVENTS => {
                let Some(notice) = wire::notice(n.payload()) else { continue };
                heard(&shared, notice);
            }
            Ok(Some(n)) => {
                for d in wire::direct(n.payload()) {
                    match d {
                        Direct::Req { r, from, g, c: asked } => {
                            let (shared, c) = (shared.clone(), c.clone());
                            tokio::spawn(async move {
                                let answer = serve(&shared, &g, asked).await;
                                if let Err(e) = c.send(&from, &Direct::Rep { r, answer }).await {
                                    tracing::warn!("game {g}: the answer to instance {from} was not sent: {e}");
                                }
                            });
                        }
                        Direct::Rep { r, answer } => c.answered(r, answer),
                    }
                }
            }
            Ok(None) => {
                // The connection was lost (the next call connects again and
                // listens again): what was said meanwhile is read from the
                // tables once the database answers.
                tracing::warn!("the listener lost its connection to PostgreSQL: reconnecting");
                c.missed.store(true, Ordering::Relaxed);
            }
            Err(e) => {
                tracing::warn!("listening to PostgreSQL: {e}");
                c.missed.store(true, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// Committed events and messages, to the games in memory here.
fn heard(shared: &Shared, notice: wire::Notice) {
    let mut by_game: HashMap<&str, (Vec<crate::store::EventRow>, bool)> = HashMap::new();
    for e in &notice.e {
        let entry = by_game.entry(e.g.as_str()).or_default();
        match e.row() {
            Some(row) => entry.0.push(row),
            None => entry.1 = true,
        }
    }
    for (g, (rows, partial)) in by_game {
        if let Some(tx) = shared.ctx.lookup(g) {
            let cmd = if partial { Remote::Behind } else { Remote::Events(rows) };
            dispatch(&tx, Cmd::Remote(cmd));
        }
    }
    for m in &notice.c {
        if let Some(tx) = shared.ctx.lookup(&m.g) {
            dispatch(&tx, Cmd::Remote(Remote::Chat(m.row())));
        }
    }
    for p in &notice.p {
        if let Some(tx) = shared.ctx.lookup(&p.g) {
            dispatch(&tx, Cmd::Remote(Remote::Online { seat: p.s, online: p.on }));
        }
    }
}

/// A request forwarded by a replica, done by the game's task here if this
/// instance has it (never loaded for it: a game not here has moved).
async fn serve(shared: &Shared, game: &str, asked: Forwarded) -> Answer {
    let Some(tx) = shared.ctx.lookup(game) else { return Answer::of_error(&moved()) };
    let result: Result<(u64, Option<usize>), ApiError> = match asked {
        Forwarded::Act { seat, action } => {
            let (rtx, rrx) = oneshot::channel();
            ask(&tx, Cmd::Act { who: Who::Forwarded(seat), action, reply: Some(rtx) }, rrx).await.map(|v| (v, seat))
        }
        Forwarded::Join { seat, name, account, token_hash } => {
            let (rtx, rrx) = oneshot::channel();
            let cmd = Cmd::Join { seat, name, account, token_hash: Some(token_hash), reply: rtx };
            ask(&tx, cmd, rrx).await.map(|j| (0, Some(j.seat)))
        }
        Forwarded::Chat { seat, account_name, text } => {
            let (rtx, rrx) = oneshot::channel();
            ask(&tx, Cmd::ChatAs { seat, account_name, text, reply: rtx }, rrx).await.map(|v| (v, seat))
        }
        Forwarded::Presence { seat, online } => {
            dispatch(&tx, Cmd::Remote(Remote::Presence { seat, online }));
            Ok((0, Some(seat)))
        }
        Forwarded::Seats => {
            dispatch(&tx, Cmd::Remote(Remote::Seats));
            Ok((0, None))
        }
    };
    match result {
        Ok((version, seat)) => Answer::Ok { version, seat },
        Err(e) => Answer::of_error(&e),
    }
}

async fn ask<T>(tx: &mpsc::Sender<Cmd>, cmd: Cmd, rrx: oneshot::Receiver<Result<T, ApiError>>) -> Result<T, ApiError> {
    if tx.send(cmd).await.is_err() {
        return Err(moved());
    }
    rrx.await.unwrap_or_else(|_| Err(moved()))
}

/// Beat the heart every third of the lease. After the listener lost its
/// connection, the replicas read what they missed once the database answers
/// again. (A lease lost while this instance was cut off shows when its next
/// write is refused, or when the new owner's events come.)
async fn renew(shared: Arc<Shared>, c: Arc<Cluster>) {
    let mut halted = shared.ctx.halted();
    let mut tick = tokio::time::interval(c.lease / 3);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut beats: u64 = 0;
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = halted.changed() => return,
        }
        match c.heartbeat().await {
            Ok(()) => {
                if c.missed.swap(false, Ordering::Relaxed) {
                    for id in shared.ctx.ids() {
                        if let Some(tx) = shared.ctx.lookup(&id) {
                            dispatch(&tx, Cmd::Remote(Remote::Behind));
                        }
                    }
                }
            }
            Err(e) => tracing::warn!("the heartbeat failed: {e}"),
        }
        beats += 1;
        if beats.is_multiple_of(1000)
            && let Err(e) = c.tidy().await
        {
            tracing::warn!("forgetting old heartbeats: {e}");
        }
    }
}

/// Every second, take over the unfinished games whose owner has gone.
async fn sweep(shared: Arc<Shared>, c: Arc<Cluster>) {
    let mut halted = shared.ctx.halted();
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = halted.changed() => return,
        }
        let ids = match c.orphans(false, SWEEP).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!("looking for games to take over: {e}");
                continue;
            }
        };
        for id in ids {
            match shared.take_over(&id).await {
                Ok(true) => tracing::info!("game {id}: taken over"),
                Ok(false) => {}
                Err(e) => tracing::error!("game {id}: cannot be taken over: {e}"),
            }
        }
    }
}

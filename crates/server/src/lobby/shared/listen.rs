//! Reading the shared tables into this instance's copy: the read itself,
//! applied to the copy with the news it brings to this instance's sockets;
//! the listener (`LISTEN plateau_lobby`, a read after every notification and
//! reconnection); the upkeep (expiry, renewals, a periodic read).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use sqlx::PgPool;
use sqlx::postgres::PgListener;
use tokio::sync::oneshot;

use super::super::{Inner, Lobby, SWEEP_EVERY, Seek, SeekState};
use super::{CHALLENGE_COLS, CHANNEL, ChallengeRow, Db, RENEW_EVERY, RESYNC_EVERY, SEEK_COLS, renew};

impl Db {
    /// Read both tables and bring this instance's copy in step, telling its
    /// sockets what changed.
    pub(in crate::lobby) async fn sync(&self, lobby: &Lobby) -> Result<(), sqlx::Error> {
        let mut known = self.known.lock().await;
        let seeks =
            sqlx::query(&format!("SELECT {SEEK_COLS} FROM lobby_seeks ORDER BY seq, id")).fetch_all(&self.pool).await?;
        let challenges = sqlx::query(&format!("SELECT {CHALLENGE_COLS} FROM lobby_challenges ORDER BY seq, id"))
            .fetch_all(&self.pool)
            .await?;
        let seeks: Vec<Seek> = seeks.iter().filter_map(|r| skip_bad("seek", self.seek_of(r))).collect();
        let challenges: Vec<ChallengeRow> =
            challenges.iter().filter_map(|r| skip_bad("challenge", self.challenge_of(r))).collect();
        let mut inner = lobby.lock();
        apply_seeks(&mut inner, seeks);
        apply_challenges(&mut inner, &mut known, challenges);
        drop(inner);
        lobby.changed();
        Ok(())
    }
}

fn skip_bad<T>(what: &str, r: Result<T, String>) -> Option<T> {
    r.map_err(|e| tracing::warn!("lobby: a stored {what} is left out: {e}")).ok()
}

/// The copy's seeks become the stored ones: followers and sockets are
/// kept; a seek newly matched tells its followers here.
fn apply_seeks(inner: &mut Inner, rows: Vec<Seek>) {
    let present: HashSet<&str> = rows.iter().map(|s| s.id.as_str()).collect();
    let gone: Vec<String> =
        inner.seeks.values().filter(|s| !present.contains(s.id.as_str())).map(|s| s.id.clone()).collect();
    for id in gone {
        inner.remove_seek(&id);
    }
    for row in rows {
        let Some(s) = inner.seek_mut(&row.id) else {
            inner.insert_seek(row);
            continue;
        };
        let same = matches!(
            (&s.state, &row.state),
            (SeekState::Open, SeekState::Open)
                | (SeekState::Taken, SeekState::Taken)
                | (SeekState::Matched { .. }, SeekState::Matched { .. })
        );
        if same {
            continue;
        }
        let was_open = s.is_open();
        s.state = row.state;
        let news = s.matched_frame();
        let open = s.is_open();
        if was_open != open {
            inner.version += 1;
        }
        if let Some(f) = news {
            inner.send_followers(&row.id, &f);
        }
    }
}

/// The copy's open challenges become the stored ones; both parties'
/// sockets here hear of every change seen.
fn apply_challenges(inner: &mut Inner, known: &mut HashMap<String, String>, rows: Vec<ChallengeRow>) {
    let present: HashSet<String> = rows.iter().map(|r| r.c.id.clone()).collect();
    for row in rows {
        let id = row.c.id.clone();
        let prev = known.insert(id.clone(), row.status.clone());
        let was_live = matches!(prev.as_deref(), Some("open" | "taken"));
        match row.status.as_str() {
            "open" => {
                if inner.challenge(&id).is_none() {
                    if prev.is_none() {
                        inner.tell_both(&row.c, "open");
                    }
                    inner.insert_challenge(row.c);
                }
            }
            "taken" => {
                inner.remove_challenge(&id);
            }
            status => {
                inner.remove_challenge(&id);
                if was_live {
                    match &row.accepted {
                        Some((game, seat, from_token, to_token)) => super::super::challenges::tell_accepted(
                            inner,
                            &row.c,
                            game,
                            *seat,
                            from_token.as_deref(),
                            to_token.as_deref(),
                        ),
                        None => inner.tell_both(&row.c, status),
                    }
                }
            }
        }
    }
    known.retain(|id, _| {
        let kept = present.contains(id);
        if !kept {
            inner.remove_challenge(id);
        }
        kept
    });
}

/// Start the lobby's tasks on the database: its listener, and its upkeep
/// (expiry, renewals, a periodic read). Both end when `halted` does (the
/// lobby was dropped).
pub(in crate::lobby) fn spawn(lobby: &Arc<Lobby>, halted: oneshot::Receiver<()>) {
    let Some(db) = &lobby.db else { return };
    let pool = db.pool.clone();
    let (weak, weak2) = (Arc::downgrade(lobby), Arc::downgrade(lobby));
    let (stop, stopped) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        let _ = halted.await;
        let _ = stop.send(true);
    });
    let mut stopped2 = stopped.clone();
    tokio::spawn(async move {
        let mut stopped = stopped;
        tokio::select! {
            _ = listen(weak, pool) => {}
            _ = stopped.wait_for(|s| *s) => {}
        }
    });
    tokio::spawn(async move {
        tokio::select! {
            _ = upkeep(weak2) => {}
            _ = stopped2.wait_for(|s| *s) => {}
        }
    });
}

/// Read the tables again if the lobby still exists; false once it is gone.
async fn sync(weak: &Weak<Lobby>) -> bool {
    let Some(lobby) = weak.upgrade() else { return false };
    lobby.sync().await;
    true
}

/// The listener: a connection of its own, `LISTEN plateau_lobby`; a read of
/// the tables after every (re)connection and every burst of notifications.
async fn listen(weak: Weak<Lobby>, pool: PgPool) {
    loop {
        let mut listener = match PgListener::connect_with(&pool).await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!("lobby: the listener cannot connect: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        listener.eager_reconnect(true);
        if let Err(e) = listener.listen(CHANNEL).await {
            tracing::warn!("lobby: LISTEN {CHANNEL}: {e}");
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        // Subscribed: what was sent before is read now.
        if !sync(&weak).await {
            return;
        }
        loop {
            match listener.try_recv().await {
                Ok(Some(_)) => while listener.next_buffered().is_some() {},
                // The connection was lost and made again (and listens
                // again): what was sent meanwhile is read now.
                Ok(None) => tracing::info!("lobby: the listener reconnected"),
                Err(e) => {
                    tracing::warn!("lobby: the listener failed: {e}");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    break;
                }
            }
            if !sync(&weak).await {
                return;
            }
        }
    }
}

/// Every [`SWEEP_EVERY`]: remove what expired; renew the seeks followed
/// here when a socket followed one or [`RENEW_EVERY`] passed; write the
/// grace of seeks left by sockets dropped for being slow; and every
/// [`RESYNC_EVERY`], read the tables again.
async fn upkeep(weak: Weak<Lobby>) {
    let mut tick = tokio::time::interval(SWEEP_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let (mut renewed, mut read) = (Instant::now(), Instant::now());
    loop {
        tick.tick().await;
        let Some(lobby) = weak.upgrade() else { return };
        let Some(db) = &lobby.db else { return };
        if let Err(e) = db.sweep().await {
            tracing::warn!("lobby: removing what expired: {e:?}");
        }
        let (followed, released) = {
            let mut inner = lobby.lock();
            let due = std::mem::take(&mut inner.followed) || renewed.elapsed() >= RENEW_EVERY;
            let followed: Vec<String> = if due {
                inner.seeks.values().filter(|s| s.is_open() && !s.followers.is_empty()).map(|s| s.id.clone()).collect()
            } else {
                Vec::new()
            };
            (due.then_some(followed), std::mem::take(&mut inner.released))
        };
        if let Some(ids) = followed {
            renewed = Instant::now();
            if !ids.is_empty()
                && let Err(e) = renew(&db.pool, &ids).await
            {
                tracing::warn!("lobby: renewing {} seeks: {e}", ids.len());
            }
        }
        if !released.is_empty() {
            db.release(released);
        }
        if read.elapsed() >= RESYNC_EVERY {
            read = Instant::now();
            lobby.sync().await;
        }
    }
}

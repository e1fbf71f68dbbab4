//! The lobby's WebSocket: `GET /api/lobby/ws`.
//!
//! On connect: `{"type": "seeks", "seeks": [...]}`, then for an account its
//! open challenges (`{"type": "challenges", "incoming", "outgoing"}`) and its
//! seeks matched lately (`matched`); after that the list again on every
//! change, and the owner's news. An account is recognised by its session
//! cookie (from this server's own pages only) or its access token; a guest
//! follows its seeks by sending `{"type": "hello", "seeks": [{"id",
//! "token"}]}` (first, or later for seeks posted since). The limits are the
//! game sockets': frame size, messages per second, silence, slow readers.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::State;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::{mpsc, watch};

use super::{Inner, Lobby, Member, Sock, frame};
use crate::AppState;
use crate::error::ApiError;
use crate::ids;
use crate::state::{Limits, Shared};
use crate::ws::{Guard, Heard, READ_BUFFER, TRY_AGAIN, close, send};

/// What a client sends. Fields a message does not have are ignored.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum LobbyMsg {
    /// Follow these seeks (a guest's, by their tokens).
    Hello {
        #[serde(default)]
        seeks: Vec<SeekKey>,
    },
    /// Ask for a `pong`.
    Ping,
}

#[derive(Deserialize)]
struct SeekKey {
    id: String,
    token: String,
}

/// `GET /api/lobby/ws`.
pub(crate) async fn upgrade(
    State(st): State<AppState>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // The cookie's account only from this server's own pages (another
    // site's page must not read a visitor's challenges); a program sends
    // its access token.
    let row = if headers.contains_key(axum::http::header::AUTHORIZATION) || crate::accounts::same_origin(&headers) {
        crate::accounts::account_of(&st, &headers).await?
    } else {
        None
    };
    let account = row.as_ref().map(Member::of);
    // A bot is online while a lobby socket of it is open.
    let bot = row.filter(|a| a.bot).map(|a| a.id);
    let shared = st.0.clone();
    if shared.connections.load(Ordering::Relaxed) >= shared.limits().max_connections {
        return Err(ApiError::new(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            "too_many_connections",
            "the server has too many connections",
        ));
    }
    let lobby = st.2.clone();
    let max = shared.limits().max_frame;
    Ok(ws
        .max_message_size(max)
        .max_frame_size(max)
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .on_upgrade(move |socket| async move {
            shared.connections.fetch_add(1, Ordering::Relaxed);
            let presence = bot.map(|id| crate::bots::Presence::start(&shared, id));
            run(&lobby, &shared, socket, account).await;
            if let Some(p) = presence {
                p.end(&shared, &lobby).await;
            }
            shared.connections.fetch_sub(1, Ordering::Relaxed);
        })
        .into_response())
}

/// Unregisters its socket however its task ends.
struct Registered<'a> {
    lobby: &'a Lobby,
    sock: u64,
}

impl Drop for Registered<'_> {
    fn drop(&mut self) {
        self.lobby.close(self.sock);
    }
}

impl Lobby {
    /// Whether a lobby socket of this account is open on this instance.
    pub(crate) fn connected(&self, account: &str) -> bool {
        self.lock().by_account.contains_key(account)
    }

    /// Whether this account has a seek open (in this instance's copy).
    pub(crate) fn has_seeks(&self, account: &str) -> bool {
        self.lock().seeks.values().any(|s| s.is_open() && s.account().is_some_and(|a| a.id == account))
    }

    /// Register a socket: it follows its account's seeks. Returns its id,
    /// its subscription to the list and the frames it gets first.
    fn open_sock(
        &self,
        account: Option<&Member>,
        tx: mpsc::Sender<Utf8Bytes>,
    ) -> (u64, watch::Receiver<Utf8Bytes>, Vec<Utf8Bytes>) {
        let mut inner = self.lock();
        let sock = inner.next_seq();
        // Subscribed under the lock: every list sent later is newer than
        // the one sent now.
        let list = self.list.subscribe();
        let mut first = vec![inner.list().frame.clone()];
        inner.socks.insert(sock, Sock { account: account.map(|m| m.id.clone()), tx, seeks: Default::default() });
        if let Some(m) = account {
            inner.by_account.entry(m.id.clone()).or_default().insert(sock);
            let mine: Vec<String> = inner
                .seeks
                .values()
                .filter(|s| s.account().is_some_and(|a| a.id == m.id))
                .map(|s| s.id.clone())
                .collect();
            for id in &mine {
                inner.follow(sock, id);
            }
            let (incoming, outgoing) = inner.challenges_of(&m.id);
            first.push(frame(&json!({ "type": "challenges", "incoming": incoming, "outgoing": outgoing })));
            first.extend(matched(&inner, &mine));
            first.extend(inner.accepted_for(&m.id));
        }
        (sock, list, first)
    }

    /// On PostgreSQL, a hello may name a seek posted on another instance a
    /// moment ago, not yet in this copy: if one of those it names is stored
    /// but unknown here, the tables are read again first.
    async fn catch_up(&self, keys: &[SeekKey]) {
        let Some(db) = &self.db else { return };
        let unknown: Vec<String> = {
            let inner = self.lock();
            keys.iter()
                .take(super::HELLO_SEEKS)
                .filter(|k| ids::well_formed(&k.id) && inner.seek(&k.id).is_none())
                .map(|k| k.id.clone())
                .collect()
        };
        if !unknown.is_empty() && db.stored(&unknown).await {
            self.sync().await;
        }
    }

    /// A guest's hello: follow the seeks whose tokens are right. Answers
    /// `{"type": "following", "seeks": [ids]}` (every seek this socket
    /// follows), then the news of those already matched.
    fn hello(&self, sock: u64, keys: &[SeekKey]) -> Vec<Utf8Bytes> {
        // The tokens are hashed (in `token_is`) under the lobby's lock: a
        // hello names a few seeks only.
        let mut inner = self.lock();
        let mut added = Vec::new();
        for k in keys.iter().take(super::HELLO_SEEKS) {
            if ids::well_formed(&k.id)
                && ids::well_formed(&k.token)
                && inner.seek(&k.id).is_some_and(|s| s.token_is(&k.token))
            {
                inner.follow(sock, &k.id);
                added.push(k.id.clone());
            }
        }
        let Some(s) = inner.socks.get(&sock) else { return Vec::new() };
        let mut following: Vec<&String> = s.seeks.iter().collect();
        following.sort();
        let mut out = vec![frame(&json!({ "type": "following", "seeks": following }))];
        out.extend(matched(&inner, &added));
        out
    }
}

/// The `matched` frames of those of these seeks that are matched.
fn matched(inner: &Inner, ids: &[String]) -> Vec<Utf8Bytes> {
    ids.iter().filter_map(|id| inner.seek(id)?.matched_frame()).collect()
}

fn error(e: &ApiError) -> Message {
    Message::Text(Utf8Bytes::from(e.frame().to_string()))
}

async fn run(lobby: &Arc<Lobby>, shared: &Arc<Shared>, mut socket: WebSocket, account: Option<Member>) {
    let limits: Limits = shared.limits().clone();
    let (tx, mut rx) = mpsc::channel::<Utf8Bytes>(limits.outbound_queue);
    let (sock, mut list, first) = lobby.open_sock(account.as_ref(), tx);
    let _registered = Registered { lobby, sock };
    for f in first {
        if send(&mut socket, Message::Text(f)).await.is_err() {
            return;
        }
    }
    let mut guard = Guard::new(&limits).await;
    loop {
        tokio::select! {
            changed = list.changed() => {
                if changed.is_err() {
                    break;
                }
                let f = list.borrow_and_update().clone();
                if send(&mut socket, Message::Text(f)).await.is_err() {
                    break;
                }
            }
            out = rx.recv() => match out {
                Some(f) => {
                    if send(&mut socket, Message::Text(f)).await.is_err() {
                        break;
                    }
                }
                None => {
                    close(&mut socket, TRY_AGAIN, "closed by the server (too slow): reconnect").await;
                    break;
                }
            },
            inc = socket.recv() => {
                let t = match guard.heard(&mut socket, inc).await {
                    Heard::Text(t) => t,
                    Heard::Next => continue,
                    Heard::Stop => break,
                };
                let replies: Vec<Message> = match serde_json::from_str::<LobbyMsg>(&t) {
                    Err(err) => vec![error(&ApiError::bad_request("bad_message", format!("{err}")))],
                    Ok(LobbyMsg::Ping) => vec![Message::Text(Utf8Bytes::from(json!({ "type": "pong" }).to_string()))],
                    Ok(LobbyMsg::Hello { seeks }) => {
                        lobby.catch_up(&seeks).await;
                        lobby.hello(sock, &seeks).into_iter().map(Message::Text).collect()
                    }
                };
                for r in replies {
                    if send(&mut socket, r).await.is_err() {
                        return;
                    }
                }
            },
            _ = guard.tick() => {
                if !guard.ping(&mut socket).await {
                    break;
                }
            }
        }
    }
}

//! The WebSocket of a game: `GET /api/games/{id}/ws`.
//!
//! The client's first message is `{"type": "hello", "token": ..., "version":
//! ...}`; the server answers `welcome` (the missing events since `version`, or
//! a full resync) and then pushes an `update` for every change. Messages are
//! JSON text frames, at most [`Limits::max_frame`](crate::Limits) bytes, at
//! most `ws_rate` a second on average.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::AppState;
use crate::error::ApiError;
use crate::protocol::ClientMsg;
use crate::state::{Bucket, Limits, Shared};
use crate::table::{Cmd, Who};

/// Close codes.
pub(crate) const POLICY: u16 = 1008;
pub(crate) const TOO_BIG: u16 = 1009;
pub(crate) const TRY_AGAIN: u16 = 1013;

/// The read buffer of a socket. (tungstenite zeroes the buffer's free part,
/// up to this size, before every read: with the default, 128 KiB, most of
/// the server's time went there, and with 8 KiB still 3%. A client's
/// messages are a few dozen bytes; a longer one is read in several reads.)
pub(crate) const READ_BUFFER: usize = 1024;

/// `GET /api/games/{id}/ws`.
pub(crate) async fn upgrade(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // The session's account acts for its seat, but only from this server's
    // own pages: another site's page must not reach a seat through the
    // visitor's cookie. (A program sends its access token instead.)
    let account = if headers.contains_key(axum::http::header::AUTHORIZATION) || crate::accounts::same_origin(&headers) {
        crate::accounts::account_of(&st, &headers).await?.map(|a| (a.id, a.name))
    } else {
        None
    };
    let shared = st.0;
    // Refuse unknown games before upgrading, with a plain JSON 404.
    let table = shared.table(&id).await?;
    if shared.connections.load(Ordering::Relaxed) >= shared.limits().max_connections {
        return Err(ApiError::new(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            "too_many_connections",
            "the server has too many connections",
        ));
    }
    let max = shared.limits().max_frame;
    Ok(ws
        .max_message_size(max)
        .max_frame_size(max)
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .on_upgrade(move |socket| async move {
            shared.connections.fetch_add(1, Ordering::Relaxed);
            session(&shared, &id, table, socket, account).await;
            shared.connections.fetch_sub(1, Ordering::Relaxed);
        })
        .into_response())
}

/// A client that does not read for this long is dropped.
const SEND_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Send, or fail if the client has not taken the frame in time.
///
/// The send is tried once first: a frame the socket's buffer takes at once
/// (nearly every frame) is sent without arming a timer; only one that must
/// wait for the client is given its time-out.
pub(crate) async fn send(socket: &mut WebSocket, m: Message) -> Result<(), ()> {
    let mut sending = std::pin::pin!(socket.send(m));
    let first = std::future::poll_fn(|cx| std::task::Poll::Ready(sending.as_mut().poll(cx))).await;
    let r = match first {
        std::task::Poll::Ready(r) => r,
        std::task::Poll::Pending => match tokio::time::timeout(SEND_TIMEOUT, sending).await {
            Ok(r) => r,
            Err(_) => return Err(()),
        },
    };
    r.map_err(|_| ())
}

fn text(v: &Value) -> Message {
    Message::Text(Utf8Bytes::from(v.to_string()))
}

pub(crate) async fn close(socket: &mut WebSocket, code: u16, reason: &str) {
    let _ = send(socket, Message::Close(Some(CloseFrame { code, reason: Utf8Bytes::from(reason) }))).await;
}

async fn fail(socket: &mut WebSocket, e: &ApiError, code: u16) {
    let _ = send(socket, text(&e.frame())).await;
    close(socket, code, e.code).await;
}

/// What every socket of the server (a game's, the lobby's) checks of its
/// client: the kind of each frame, the rate of messages (a bucket of
/// `ws_burst` filling at `ws_rate` a second; past it, each message is
/// answered `rate_limited`, and the hundred-and-first such closes the
/// socket), and silence (a ping every third of `idle_socket`; a client that
/// sent no frame, pongs included, for `idle_socket` is closed).
pub(crate) struct Guard {
    rate: f64,
    burst: f64,
    idle: std::time::Duration,
    bucket: Bucket,
    strikes: u32,
    last_heard: Instant,
    ping: tokio::time::Interval,
}

/// What a socket's loop does with a frame its client sent.
pub(crate) enum Heard {
    /// A text message, within the rate: act on it.
    Text(Utf8Bytes),
    /// Nothing to act on (answered here, or a ping or pong).
    Next,
    /// The socket is done (closed by the client, or here).
    Stop,
}

impl Guard {
    /// A socket's checks under these limits, from now (the ping's first
    /// tick, at once, is taken here).
    pub(crate) async fn new(limits: &Limits) -> Guard {
        let mut ping = tokio::time::interval(limits.idle_socket / 3);
        ping.tick().await;
        Guard {
            rate: limits.ws_rate,
            burst: limits.ws_burst,
            idle: limits.idle_socket,
            bucket: Bucket::new(limits.ws_burst),
            strikes: 0,
            last_heard: Instant::now(),
            ping,
        }
    }

    /// Take a frame the client sent (`socket.recv()`'s answer), answering or
    /// closing here what is not a message to act on.
    pub(crate) async fn heard(&mut self, socket: &mut WebSocket, inc: Option<Result<Message, axum::Error>>) -> Heard {
        let msg = match inc {
            None => return Heard::Stop,
            Some(Err(_)) => {
                // Oversized or malformed frame: the stream cannot go on.
                close(socket, TOO_BIG, "message too big or malformed").await;
                return Heard::Stop;
            }
            Some(Ok(m)) => m,
        };
        self.last_heard = Instant::now();
        let t = match msg {
            Message::Text(t) => t,
            Message::Binary(_) => {
                let e = ApiError::bad_request("bad_message", "send JSON text frames");
                return answer(socket, &e).await;
            }
            Message::Close(_) => return Heard::Stop,
            Message::Ping(_) | Message::Pong(_) => return Heard::Next,
        };
        if !self.bucket.take(self.rate, self.burst) {
            self.strikes += 1;
            if self.strikes > 100 {
                close(socket, POLICY, "rate limit").await;
                return Heard::Stop;
            }
            return answer(socket, &ApiError::rate_limited()).await;
        }
        Heard::Text(t)
    }

    /// The ping's next tick (for the socket's `select!`).
    pub(crate) async fn tick(&mut self) {
        self.ping.tick().await;
    }

    /// At the ping's tick: close a client silent for too long, else ping
    /// it. `false`: the socket is done.
    pub(crate) async fn ping(&mut self, socket: &mut WebSocket) -> bool {
        if self.last_heard.elapsed() > self.idle {
            close(socket, POLICY, "silent for too long").await;
            return false;
        }
        send(socket, Message::Ping(Default::default())).await.is_ok()
    }
}

/// Send this error's frame: [`Heard::Next`], or [`Heard::Stop`] if the
/// client does not take it.
async fn answer(socket: &mut WebSocket, e: &ApiError) -> Heard {
    match send(socket, text(&e.frame())).await {
        Ok(()) => Heard::Next,
        Err(()) => Heard::Stop,
    }
}

async fn session(
    shared: &Arc<Shared>,
    id: &str,
    table: mpsc::Sender<Cmd>,
    mut socket: WebSocket,
    account: Option<(String, String)>,
) {
    let limits = &shared.limits();
    // 1. Hello.
    let hello = match tokio::time::timeout(limits.hello_timeout, socket.recv()).await {
        Ok(Some(Ok(Message::Text(t)))) => serde_json::from_str::<ClientMsg>(&t),
        Ok(Some(Ok(Message::Close(_)))) | Ok(None) => return,
        Ok(Some(Err(_))) => {
            close(&mut socket, TOO_BIG, "bad frame").await;
            return;
        }
        Ok(Some(Ok(_))) => {
            let e =
                ApiError::bad_request("bad_message", "the first message must be a text frame: {\"type\":\"hello\"}");
            fail(&mut socket, &e, POLICY).await;
            return;
        }
        Err(_) => {
            let e = ApiError::bad_request("timeout", "no hello in time");
            fail(&mut socket, &e, POLICY).await;
            return;
        }
    };
    let (token, since, gestures) = match hello {
        Ok(ClientMsg::Hello { token, version, gestures }) => (token, version, gestures.unwrap_or(true)),
        Ok(_) => {
            let e = ApiError::bad_request("bad_message", "the first message must be {\"type\":\"hello\", ...}");
            fail(&mut socket, &e, POLICY).await;
            return;
        }
        Err(err) => {
            let e = ApiError::bad_request("bad_message", format!("{err}"));
            fail(&mut socket, &e, POLICY).await;
            return;
        }
    };
    // 2. Subscribe.
    let (tx, mut rx) = mpsc::channel::<Utf8Bytes>(limits.outbound_queue);
    let (rtx, rrx) = tokio::sync::oneshot::channel();
    let subscribed = match table.send(Cmd::Subscribe { token, account, since, gestures, tx, reply: rtx }).await {
        Ok(()) => rrx.await.unwrap_or_else(|_| {
            Err(ApiError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "try_again",
                "the game is reloading: connect again",
            ))
        }),
        Err(_) => Err(ApiError::new(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            "try_again",
            "the game is reloading: connect again",
        )),
    };
    let sub = match subscribed {
        Ok(s) => s,
        Err(e) => {
            let code = if e.code == "bad_token" { POLICY } else { TRY_AGAIN };
            fail(&mut socket, &e, code).await;
            return;
        }
    };
    if send(&mut socket, Message::Text(sub.welcome)).await.is_err() {
        let _ = table.send(Cmd::Unsubscribe { sub: sub.sub }).await;
        return;
    }
    // 3. Play.
    let mut chat_bucket = Bucket::new(crate::table::chat::BURST);
    let mut guard = Guard::new(limits).await;
    loop {
        tokio::select! {
            out = rx.recv() => match out {
                Some(frame) => {
                    if send(&mut socket, Message::Text(frame)).await.is_err() {
                        break;
                    }
                }
                None => {
                    close(&mut socket, TRY_AGAIN, "closed by the server (too slow, or replaced): reconnect with your last version").await;
                    break;
                }
            },
            inc = socket.recv() => {
                let t = match guard.heard(&mut socket, inc).await {
                    Heard::Text(t) => t,
                    Heard::Next => continue,
                    Heard::Stop => break,
                };
                let reply = match serde_json::from_str::<ClientMsg>(&t) {
                    Err(err) => Some(ApiError::bad_request("bad_message", format!("{err}")).frame()),
                    Ok(ClientMsg::Ping) => Some(json!({ "type": "pong" })),
                    Ok(ClientMsg::Hello { .. }) => {
                        Some(ApiError::bad_request("bad_message", "hello is only the first message").frame())
                    }
                    Ok(ClientMsg::Sync) => {
                        if table.send(Cmd::Sync { sub: sub.sub }).await.is_err() {
                            break;
                        }
                        None
                    }
                    Ok(ClientMsg::Chat { text }) => match crate::table::chat::admit(&text, &mut chat_bucket) {
                        Ok(text) => {
                            if table.send(Cmd::Chat { sub: sub.sub, text }).await.is_err() {
                                break;
                            }
                            None
                        }
                        Err(e) => Some(e.frame()),
                    },
                    Ok(msg) => match msg.action() {
                        Some(action) => {
                            let cmd = Cmd::Act { who: Who::Sub(sub.sub), action, reply: None };
                            if table.send(cmd).await.is_err() {
                                break;
                            }
                            None
                        }
                        None => None,
                    },
                };
                if let Some(r) = reply
                    && send(&mut socket, text(&r)).await.is_err()
                {
                    break;
                }
            },
            _ = guard.tick() => {
                if !guard.ping(&mut socket).await {
                    break;
                }
            }
        }
    }
    if table.send(Cmd::Unsubscribe { sub: sub.sub }).await.is_err() {
        tracing::debug!("game {id}: task gone at unsubscribe");
    }
}

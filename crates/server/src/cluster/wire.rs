//! What instances say to each other through PostgreSQL's notifications: the
//! events and messages committed (to every instance, on [`super::EVENTS`]),
//! and the requests forwarded to a game's owner with their answers (to one
//! instance, on its own channel). JSON, each notification under
//! [`MAX_PAYLOAD`] bytes (PostgreSQL's limit is 8,000).

use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::protocol::Action;
use crate::store::chat::ChatRow;
use crate::store::{EventKind, EventRow};

/// The most bytes of one notification's payload.
pub(crate) const MAX_PAYLOAD: usize = 7_000;

/// An event's data longer than this is not sent: the instances read it
/// from the table.
const MAX_DATA: usize = 1_500;

/// Events and messages committed together.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Notice {
    /// Events.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub e: Vec<WireEvent>,
    /// Chat messages.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub c: Vec<WireChat>,
    /// Seats present or gone, as their game's owner sees them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub p: Vec<WirePresence>,
}

/// Whether a seat of game `g` is there (a socket open on some instance).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct WirePresence {
    pub g: String,
    pub s: usize,
    pub on: bool,
}

/// One event of one game; without its kind and data when they were too long
/// to send (the instances then read the event from the table).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct WireEvent {
    pub g: String,
    pub v: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub s: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub d: Option<String>,
    pub t: i64,
}

impl WireEvent {
    /// The event, when it came whole.
    pub fn row(&self) -> Option<EventRow> {
        let kind = EventKind::parse(self.k.as_deref()?)?;
        Some(EventRow { version: self.v, kind, seat: self.s, data: self.d.clone()?, at: self.t })
    }
}

/// One chat message of one game; `n` 0 for the spectators' room.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct WireChat {
    pub g: String,
    pub n: u64,
    pub s: Option<usize>,
    pub name: String,
    pub text: String,
    pub at: i64,
}

impl WireChat {
    pub fn of(game: &str, m: &ChatRow) -> WireChat {
        WireChat { g: game.to_string(), n: m.n, s: m.seat, name: m.name.clone(), text: m.text.clone(), at: m.at }
    }
    pub fn row(&self) -> ChatRow {
        ChatRow { n: self.n, seat: self.s, name: self.name.clone(), text: self.text.clone(), at: self.at }
    }
}

/// The notifications announcing a commit's events and messages, each under
/// [`MAX_PAYLOAD`] bytes.
pub(crate) fn payloads(events: &[(&str, &EventRow)], chats: &[(&str, &ChatRow)]) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = Notice::default();
    let mut size = 0;
    let mut flush = |cur: &mut Notice, size: &mut usize| {
        if (!cur.e.is_empty() || !cur.c.is_empty())
            && let Ok(s) = serde_json::to_string(&std::mem::take(cur))
        {
            out.push(s);
        }
        *size = 0;
    };
    for (g, e) in events {
        let whole = e.data.len() <= MAX_DATA;
        let w = WireEvent {
            g: g.to_string(),
            v: e.version,
            k: whole.then(|| e.kind.as_str().to_string()),
            s: e.seat,
            d: whole.then(|| e.data.clone()),
            t: e.at,
        };
        let n = 64 + g.len() + if whole { e.data.len() * 2 } else { 0 };
        if size + n > MAX_PAYLOAD {
            flush(&mut cur, &mut size);
        }
        size += n;
        cur.e.push(w);
    }
    for (g, m) in chats {
        let n = 64 + g.len() + 2 * (m.name.len() + m.text.len());
        if size + n > MAX_PAYLOAD {
            flush(&mut cur, &mut size);
        }
        size += n;
        cur.c.push(WireChat::of(g, m));
    }
    flush(&mut cur, &mut size);
    out
}

/// What a replica asks a game's owner to do for one of its clients (the
/// replica has already checked who the client is).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub(crate) enum Forwarded {
    /// A seat acts.
    Act { seat: Option<usize>, action: Action },
    /// Someone takes a seat, with the hash of the token the replica gave
    /// them (the token itself never leaves the replica).
    Join { seat: Option<usize>, name: Option<String>, account: Option<(String, String)>, token_hash: String },
    /// A watcher writes in a chat room (already admitted by the replica's
    /// rate limit).
    Chat { seat: Option<usize>, account_name: Option<String>, text: String },
    /// A seat's sockets on the replica: present or gone.
    Presence { seat: usize, online: bool },
    /// A new replica asks who is there (the owner says it to all).
    Seats,
}

/// A message on one instance's channel.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub(crate) enum Direct {
    /// A request for the game `g`, from instance `from`, numbered `r` there.
    Req { r: u64, from: String, g: String, c: Forwarded },
    /// The answer to request `r`.
    Rep { r: u64, answer: Answer },
}

/// The owner's answer to a forwarded request.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub(crate) enum Answer {
    /// Done: the game's version after it, and the seat concerned (a join's).
    Ok { version: u64, seat: Option<usize> },
    /// Refused.
    Err { status: u16, code: String, message: String, with_state: bool },
}

impl Answer {
    pub fn of_error(e: &ApiError) -> Answer {
        Answer::Err {
            status: e.status.as_u16(),
            code: e.code.to_string(),
            message: e.message.clone(),
            with_state: e.state.is_some(),
        }
    }

    /// The error again, on the replica (without a state: the replica adds
    /// its own when `with_state`).
    pub fn error(status: u16, code: &str, message: &str) -> ApiError {
        let status = axum::http::StatusCode::from_u16(status).unwrap_or(axum::http::StatusCode::INTERNAL_SERVER_ERROR);
        ApiError::new(status, crate::error::intern(code), message)
    }
}

/// A whole notice, read back (a malformed one is ignored with a log line).
pub(crate) fn notice(payload: &str) -> Option<Notice> {
    serde_json::from_str(payload).map_err(|e| tracing::error!("unreadable notification: {e}")).ok()
}

/// The direct messages of one notification (a JSON array), read back.
pub(crate) fn direct(payload: &str) -> Vec<Direct> {
    serde_json::from_str(payload)
        .map_err(|e| tracing::error!("unreadable requests between instances: {e}"))
        .unwrap_or_default()
}

/// Pack JSON objects into arrays of at most [`MAX_PAYLOAD`] bytes, in order;
/// an object too long to go alone is returned apart.
pub(crate) fn pack(items: &[&str]) -> (Vec<String>, Vec<usize>) {
    let mut out = Vec::new();
    let mut too_long = Vec::new();
    let mut cur = String::from("[");
    for (i, it) in items.iter().enumerate() {
        if it.len() + 2 > MAX_PAYLOAD {
            too_long.push(i);
            continue;
        }
        if cur.len() + it.len() + 2 > MAX_PAYLOAD {
            cur.push(']');
            out.push(std::mem::replace(&mut cur, String::from("[")));
        }
        if cur.len() > 1 {
            cur.push(',');
        }
        cur.push_str(it);
    }
    if cur.len() > 1 {
        cur.push(']');
        out.push(cur);
    }
    (out, too_long)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(v: u64, data: &str) -> EventRow {
        EventRow { version: v, kind: EventKind::Move, seat: Some(0), data: data.to_string(), at: 5 }
    }

    #[test]
    fn events_come_back_whole_and_in_order_within_the_limit() {
        let rows: Vec<EventRow> = (1..=400).map(|v| ev(v, "a1b2")).collect();
        let evs: Vec<(&str, &EventRow)> = rows.iter().map(|e| ("g1", e)).collect();
        let out = payloads(&evs, &[]);
        assert!(out.len() > 1, "400 events do not fit one notification");
        let mut back = Vec::new();
        for p in &out {
            assert!(p.len() <= MAX_PAYLOAD, "{} bytes", p.len());
            back.extend(notice(p).unwrap().e.iter().map(|w| w.row().unwrap()));
        }
        assert_eq!(back, rows);
    }

    #[test]
    fn a_long_event_is_announced_without_its_data() {
        let long = "x".repeat(5_000);
        let rows = [ev(7, &long)];
        let out = payloads(&[("g", &rows[0])], &[]);
        assert_eq!(out.len(), 1);
        let n = notice(&out[0]).unwrap();
        assert_eq!(n.e[0].v, 7);
        assert!(n.e[0].row().is_none());
    }

    #[test]
    fn messages_are_packed_in_order_under_the_limit() {
        let items: Vec<String> = (0..500).map(|i| format!("{{\"r\":{i},\"pad\":\"{}\"}}", "x".repeat(40))).collect();
        let long = format!("{{\"pad\":\"{}\"}}", "y".repeat(MAX_PAYLOAD));
        let mut refs: Vec<&str> = items.iter().map(String::as_str).collect();
        refs.insert(7, &long);
        let (packed, too_long) = pack(&refs);
        assert_eq!(too_long, vec![7]);
        assert!(packed.len() > 1);
        let mut back = Vec::new();
        for p in &packed {
            assert!(p.len() <= MAX_PAYLOAD, "{}", p.len());
            let v: Vec<serde_json::Value> = serde_json::from_str(p).unwrap();
            back.extend(v.into_iter().map(|x| x["r"].as_u64().unwrap()));
        }
        assert_eq!(back, (0..500).collect::<Vec<u64>>());
    }

    #[test]
    fn requests_and_answers_round_trip() {
        let d = Direct::Req {
            r: 3,
            from: "abc".into(),
            g: "G".into(),
            c: Forwarded::Act { seat: Some(1), action: Action::Move { text: "a1".into(), version: 4 } },
        };
        let s = serde_json::to_string(&d).unwrap();
        let (packed, _) = pack(&[&s, &s]);
        assert_eq!(packed.len(), 1);
        let both = direct(&packed[0]);
        assert_eq!(both.len(), 2);
        match both.into_iter().next().unwrap() {
            Direct::Req { r: 3, c: Forwarded::Act { seat: Some(1), action }, .. } => {
                assert_eq!(action, Action::Move { text: "a1".into(), version: 4 })
            }
            other => panic!("{other:?}"),
        }
        let e = ApiError::conflict("not_your_turn", "wait");
        let a = Answer::of_error(&e);
        let s = serde_json::to_string(&Direct::Rep { r: 9, answer: a }).unwrap();
        match direct(&format!("[{s}]")).pop().unwrap() {
            Direct::Rep { r: 9, answer: Answer::Err { status: 409, code, .. } } => assert_eq!(code, "not_your_turn"),
            other => panic!("{other:?}"),
        }
    }
}

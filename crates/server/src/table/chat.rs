//! Chat at the table: two rooms, each seen only by its own readers. The
//! players' room is every seated person's (their sockets only); the
//! spectators' room is the spectators', and only logged-in spectators may
//! write in it.
//!
//! Players' messages are stored with the game (table `chat`), the commit
//! awaited before anyone sees them, and the last 50 are loaded with the
//! game. Spectators' messages stay in memory: the last 50, lost when the
//! game leaves memory or the server stops.
//!
//! A message is one line of 1 to 300 characters (after trimming), without
//! control or formatting characters ([`clean_chat`]); each socket may send
//! one a second on average, five in a burst ([`admit`], called by the
//! socket's own loop). Chat does not change the game's version: a message is
//! an unversioned frame, and a reconnecting client reads the room's last
//! messages in its welcome.

use std::collections::VecDeque;

use serde::Serialize;

use super::*;
use crate::protocol::{MAX_MARKS, unshowable};
use crate::state::Bucket;
use crate::store::chat::{ChatRow, HISTORY};

/// The longest message, in characters (after trimming).
pub(crate) const MAX_CHARS: usize = 300;
/// Messages a socket may send a second, on average.
pub(crate) const RATE: f64 = 1.0;
/// Messages a socket may send in a burst.
pub(crate) const BURST: f64 = 5.0;
/// Messages the spectators' room takes a second, from all its writers (each
/// goes to every spectator: a thousand spectators each at their own limit
/// would make a million frames a second).
pub(crate) const ROOM_RATE: f64 = 5.0;
/// Messages the spectators' room takes in a burst.
pub(crate) const ROOM_BURST: f64 = 20.0;

/// A chat room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Room {
    /// The seated persons'.
    Players,
    /// The spectators'.
    Spectators,
}

/// The last messages of both rooms.
pub(crate) struct ChatLog {
    players: VecDeque<ChatRow>,
    spectators: VecDeque<ChatRow>,
    /// The number of the next players' message.
    next: u64,
    /// The spectators' room's own bucket.
    room: Bucket,
}

impl Default for ChatLog {
    fn default() -> Self {
        ChatLog { players: VecDeque::new(), spectators: VecDeque::new(), next: 1, room: Bucket::new(ROOM_BURST) }
    }
}

impl ChatLog {
    /// The log of a game loaded from the database: its players' last
    /// messages, oldest first.
    pub(crate) fn restored(players: Vec<ChatRow>) -> ChatLog {
        let next = players.iter().map(|m| m.n + 1).max().unwrap_or(1);
        let mut players: VecDeque<ChatRow> = players.into();
        while players.len() > HISTORY {
            players.pop_front();
        }
        ChatLog { players, spectators: VecDeque::new(), next, room: Bucket::new(ROOM_BURST) }
    }

    /// A message another instance announced: its room, or `None` if this
    /// copy already has it.
    pub(super) fn heard(&mut self, m: &ChatRow) -> Option<Room> {
        if m.n == 0 {
            return Some(Room::Spectators);
        }
        if m.n < self.next {
            return None;
        }
        self.next = m.n + 1;
        Some(Room::Players)
    }

    /// This log rebuilt from the database takes over what is not stored:
    /// the spectators' room and its bucket.
    pub(super) fn carry(&mut self, old: &mut ChatLog) {
        self.spectators = std::mem::take(&mut old.spectators);
        self.room = std::mem::replace(&mut old.room, Bucket::new(ROOM_BURST));
    }

    fn room_mut(&mut self, room: Room) -> &mut VecDeque<ChatRow> {
        match room {
            Room::Players => &mut self.players,
            Room::Spectators => &mut self.spectators,
        }
    }
}

/// A message as readers get it (`type` only on its own frame, not in a
/// welcome's list).
#[derive(Serialize)]
struct ChatFrame<'a> {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    ty: Option<&'static str>,
    room: Room,
    seat: Option<Seat>,
    name: &'a str,
    text: &'a str,
    at: i64,
}

fn frame_of<'a>(m: &'a ChatRow, room: Room, ty: Option<&'static str>) -> ChatFrame<'a> {
    ChatFrame { ty, room, seat: m.seat, name: &m.name, text: &m.text, at: m.at }
}

/// Check and tidy a chat message: NFC-normalised and trimmed; 1 to
/// [`MAX_CHARS`] characters; one line; no character that is invisible or
/// changes how the text around it is drawn (the rule of names,
/// [`crate::protocol::clean_name`]: control and formatting characters,
/// separators, private-use, unassigned and non-character code points, more
/// than two marks on one character). Punctuation, symbols, emoji and spaces
/// inside the text are kept as written.
pub(crate) fn clean_chat(text: &str) -> Result<String, String> {
    use unicode_normalization::UnicodeNormalization;
    use unicode_properties::{GeneralCategory as G, UnicodeGeneralCategory};
    let text: String = text.trim().nfc().collect();
    let mut count = 0usize;
    let mut marks = 0usize;
    for c in text.chars() {
        if matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}') {
            return Err(format!("the message has a line break (U+{:04X}): a message is one line", c as u32));
        }
        if let Some(what) = unshowable(c) {
            return Err(format!(
                "the message has {what} (U+{:04X}): use letters, digits, punctuation, symbols and spaces",
                c as u32
            ));
        }
        if matches!(c.general_category(), G::NonspacingMark | G::EnclosingMark) {
            marks += 1;
            if marks > MAX_MARKS {
                return Err(format!("the message has more than {MAX_MARKS} accents or marks on one character"));
            }
        } else {
            marks = 0;
        }
        count += 1;
        if count > MAX_CHARS {
            return Err(format!("a message is at most {MAX_CHARS} characters"));
        }
    }
    if text.is_empty() {
        return Err("the message is empty".into());
    }
    Ok(text)
}

/// A message a socket wants to send, checked ([`clean_chat`]: `bad_chat`)
/// and counted against the socket's own bucket (`chat_rate`): the text to
/// hand to the game's task.
pub(crate) fn admit(text: &str, bucket: &mut Bucket) -> Result<String, ApiError> {
    let text = clean_chat(text).map_err(|m| ApiError::bad_request("bad_chat", m))?;
    if !bucket.take(RATE, BURST) {
        return Err(ApiError::new(
            axum::http::StatusCode::TOO_MANY_REQUESTS,
            "chat_rate",
            "one message a second (five in a burst): wait a moment",
        ));
    }
    Ok(text)
}

impl Table {
    /// A message from watcher `sub` (already checked by [`admit`]); a
    /// refusal goes back on its socket.
    pub(super) async fn chat(&mut self, sub: u64, text: String) {
        let Some((seat, account)) = self.subs.iter().find(|s| s.id == sub).map(|s| (s.seat, s.account_name.clone()))
        else {
            return;
        };
        if let Err(e) = self.post_chat(seat, account, text).await {
            self.send_to(sub, &e.frame());
        }
    }

    pub(super) async fn post_chat(
        &mut self,
        seat: Option<Seat>,
        account: Option<String>,
        text: String,
    ) -> Result<(), ApiError> {
        let at = now_ms();
        let (room, message) = match seat {
            Some(s) => {
                let max = self.ctx.limits.chat_per_game;
                if self.chat.next > max {
                    return Err(ApiError::conflict(
                        "chat_full",
                        format!("this game's chat has its {max} messages: no more can be written"),
                    ));
                }
                let name = self.seats[s].name.clone().unwrap_or_else(|| self.m.seat_name(s));
                let message = ChatRow { n: self.chat.next, seat: Some(s), name, text, at };
                let op = WriteOp::InsertChat { game_id: self.row.id.clone(), message: message.clone() };
                self.write(vec![op]).await?;
                self.chat.next += 1;
                (Room::Players, message)
            }
            None => {
                let name = account.ok_or_else(|| {
                    ApiError::forbidden(
                        "login_required",
                        "only logged-in spectators may write in the spectators' room: log in, then open the game again",
                    )
                })?;
                if !self.chat.room.take(ROOM_RATE, ROOM_BURST) {
                    return Err(ApiError::new(
                        axum::http::StatusCode::TOO_MANY_REQUESTS,
                        "chat_busy",
                        "the spectators' room is busy: wait a moment",
                    ));
                }
                (Room::Spectators, ChatRow { n: 0, seat: None, name, text, at })
            }
        };
        if room == Room::Spectators
            && let Some(c) = self.ctx.cluster.clone()
        {
            // Never stored: the other instances' spectators hear it now.
            c.spectators_said(&self.row.id, &message);
        }
        self.deliver_chat(room, message);
        Ok(())
    }

    /// Send a message to this instance's watchers of its room, and keep it
    /// in the room's recent messages.
    pub(super) fn deliver_chat(&mut self, room: Room, message: ChatRow) {
        let Ok(frame) = serde_json::to_string(&frame_of(&message, room, Some("chat"))) else { return };
        let frame = Utf8Bytes::from(frame);
        let mut dead = Vec::new();
        for s in self.subs.iter().filter(|s| (s.seat.is_some()) == (room == Room::Players)) {
            if s.tx.try_send(frame.clone()).is_err() {
                // Too slow: dropped, it reconnects and reads the room's last
                // messages in its welcome.
                dead.push(s.id);
            }
        }
        for d in dead {
            self.drop_sub(d);
        }
        let log = self.chat.room_mut(room);
        log.push_back(message);
        while log.len() > HISTORY {
            log.pop_front();
        }
    }

    /// The last messages of the room `seat` (or a spectator) reads, oldest
    /// first, for the welcome.
    pub(super) fn chat_json(&self, seat: Option<Seat>) -> Value {
        let (room, log) = match seat {
            Some(_) => (Room::Players, &self.chat.players),
            None => (Room::Spectators, &self.chat.spectators),
        };
        let frames: Vec<ChatFrame<'_>> = log.iter().map(|m| frame_of(m, room, None)).collect();
        serde_json::to_value(frames).unwrap_or(Value::Array(Vec::new()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line_of_showable_text() {
        assert_eq!(clean_chat("  good game!  ").unwrap(), "good game!");
        assert_eq!(clean_chat("a  b\t").unwrap(), "a  b");
        let kept = "Łukasz: 王 🙂 <b>&amp;</b> \"quoted\" 'x' (1+1=2) ?!";
        assert_eq!(clean_chat(kept).unwrap(), kept);
        // Normalised: e + combining acute becomes U+00E9.
        assert_eq!(clean_chat("e\u{301}").unwrap(), "\u{E9}");
        // 300 characters, not bytes: 300 three-byte characters fit.
        assert!(clean_chat(&"王".repeat(300)).is_ok());
        assert!(clean_chat(&"x".repeat(300)).is_ok());
        assert!(clean_chat(&"x".repeat(301)).unwrap_err().contains("300"));
        // Trimmed before counting.
        assert!(clean_chat(&format!("  {}  ", "x".repeat(300))).is_ok());
        for empty in ["", "   ", "\n\t "] {
            assert_eq!(clean_chat(empty).unwrap_err(), "the message is empty", "{empty:?}");
        }
        for bad in [
            "a\nb",
            "a\rb",
            "a\u{2028}b",
            "a\u{2029}b",
            "a\tb",
            "a\u{7}b",
            "a\u{0}b",
            "evil\u{202E}txt",
            "a\u{200B}b",
            "a\u{200D}b",
            "a\u{FEFF}b",
            "a\u{AD}b",
            "a\u{E000}b",
            "a\u{FFFF}b",
            "a\u{3164}b",
            "a\u{E0041}b",
        ] {
            let e = clean_chat(bad).expect_err(bad);
            assert!(e.contains("U+"), "{bad:?}: {e}");
        }
        assert!(clean_chat("x\u{301}\u{302}").is_ok());
        assert!(clean_chat("x\u{301}\u{302}\u{303}").is_err());
    }

    #[test]
    fn a_socket_sends_five_at_once_then_one_a_second() {
        let t0 = std::time::Instant::now();
        let mut b = Bucket::new_at(BURST, t0);
        for _ in 0..5 {
            assert!(b.take_at(RATE, BURST, t0));
        }
        assert!(!b.take_at(RATE, BURST, t0));
        assert!(!b.take_at(RATE, BURST, t0 + std::time::Duration::from_millis(900)));
        assert!(b.take_at(RATE, BURST, t0 + std::time::Duration::from_millis(1000)));
        // A refused message is counted before the bucket: bad text costs nothing.
        let mut b = Bucket::new(BURST);
        for _ in 0..10 {
            assert_eq!(admit("a\nb", &mut b).unwrap_err().code, "bad_chat");
        }
        for _ in 0..5 {
            assert_eq!(admit(" hi ", &mut b).unwrap(), "hi");
        }
        assert_eq!(admit("hi", &mut b).unwrap_err().code, "chat_rate");
    }

    #[test]
    fn a_restored_log_numbers_on() {
        let m = |n| ChatRow { n, seat: Some(0), name: "Ann".into(), text: "hi".into(), at: 1 };
        assert_eq!(ChatLog::restored(Vec::new()).next, 1);
        let log = ChatLog::restored(vec![m(70), m(71)]);
        assert_eq!((log.next, log.players.len()), (72, 2));
        let log = ChatLog::restored((1..=60).map(m).collect());
        assert_eq!((log.next, log.players.len(), log.players[0].n), (61, HISTORY, 11));
    }
}

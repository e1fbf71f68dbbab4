//! The messages clients send, on the WebSocket and to `POST /api/games/{id}/action`.

use serde::Deserialize;

/// A message from a client. Fields the message does not have are ignored (a
/// client may add its own, such as a request id).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// The first message on a WebSocket: the seat's token (none to watch) and
    /// the last version the client saw (none for a full state).
    Hello {
        /// The seat's secret token.
        #[serde(default)]
        token: Option<String>,
        /// The last version seen.
        #[serde(default)]
        version: Option<u64>,
        /// Whether to send, with the legal moves, how each is made by pointing
        /// (`legal`: `{"move", "select", "targets"}`); default true. Programs
        /// that only need the notation say false.
        #[serde(default)]
        gestures: Option<bool>,
    },
    /// Play a move, in the game's notation, on the state of `version`.
    Move {
        /// The move.
        #[serde(rename = "move")]
        mv: String,
        /// The version of the state the move was chosen on.
        version: u64,
    },
    /// Resign: every other seat wins.
    Resign,
    /// Offer a draw (games with draws; every person must agree).
    OfferDraw,
    /// Accept the draw offered.
    AcceptDraw,
    /// Decline the draw offered.
    DeclineDraw,
    /// Call the game off before its first move.
    Abort,
    /// Ask for a rematch with the seats rotated (swapped for two players).
    Rematch,
    /// Give the seat back before the game starts.
    Leave,
    /// Ask for the full state again.
    Sync,
    /// Ask for a `pong`.
    Ping,
}

/// What a seat asks the game to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play a move.
    Move {
        /// The move.
        text: String,
        /// The version it was chosen on.
        version: u64,
    },
    /// Resign.
    Resign,
    /// Offer a draw.
    OfferDraw,
    /// Accept a draw.
    AcceptDraw,
    /// Decline a draw.
    DeclineDraw,
    /// Abort before the first move.
    Abort,
    /// Ask for a rematch.
    Rematch,
    /// Leave before the start.
    Leave,
}

impl ClientMsg {
    /// The action this message asks for, if it is one.
    pub fn action(self) -> Option<Action> {
        Some(match self {
            ClientMsg::Move { mv, version } => Action::Move { text: mv, version },
            ClientMsg::Resign => Action::Resign,
            ClientMsg::OfferDraw => Action::OfferDraw,
            ClientMsg::AcceptDraw => Action::AcceptDraw,
            ClientMsg::DeclineDraw => Action::DeclineDraw,
            ClientMsg::Abort => Action::Abort,
            ClientMsg::Rematch => Action::Rematch,
            ClientMsg::Leave => Action::Leave,
            ClientMsg::Hello { .. } | ClientMsg::Sync | ClientMsg::Ping => return None,
        })
    }
}

/// The longest move text accepted.
pub const MAX_MOVE_LEN: usize = 256;

/// The longest player name accepted, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// Check and tidy a player's display name: trimmed, 1 to 40 characters, no
/// control characters.
pub fn clean_name(name: &str) -> Result<String, String> {
    let n = name.trim();
    if n.is_empty() {
        return Err("the name is empty".into());
    }
    if n.chars().count() > MAX_NAME_CHARS {
        return Err(format!("the name is longer than {MAX_NAME_CHARS} characters"));
    }
    if n.chars().any(char::is_control) {
        return Err("the name has control characters".into());
    }
    Ok(n.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_parse() {
        let m: ClientMsg = serde_json::from_str(r#"{"type":"move","move":"a1b2","version":3}"#).unwrap();
        assert_eq!(m, ClientMsg::Move { mv: "a1b2".into(), version: 3 });
        let h: ClientMsg = serde_json::from_str(r#"{"type":"hello"}"#).unwrap();
        assert_eq!(h, ClientMsg::Hello { token: None, version: None, gestures: None });
        assert!(serde_json::from_str::<ClientMsg>(r#"{"type":"move","move":"a1b2"}"#).is_err());
        assert!(serde_json::from_str::<ClientMsg>(r#"{"type":"fly"}"#).is_err());
        assert_eq!(serde_json::from_str::<ClientMsg>(r#"{"type":"resign","id":1}"#).unwrap(), ClientMsg::Resign);
        assert!(serde_json::from_str::<ClientMsg>(r#"{"type":"move","move":7,"version":1}"#).is_err());
        assert!(serde_json::from_str::<ClientMsg>(r#"[1,2]"#).is_err());
    }

    #[test]
    fn names() {
        assert_eq!(clean_name("  Ann ").unwrap(), "Ann");
        assert!(clean_name("").is_err());
        assert!(clean_name("a\u{7}b").is_err());
        assert!(clean_name(&"x".repeat(41)).is_err());
    }
}

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
    /// Claim the win: another player has been gone for a minute.
    ClaimVictory,
    /// Claim a draw: another player has been gone for a minute.
    ClaimDraw,
    /// Ask to take back one's last move (casual games).
    TakebackOffer,
    /// Accept the takeback asked.
    TakebackAccept,
    /// Decline the takeback asked.
    TakebackDecline,
    /// Say something: to the players' room from a seat, to the spectators'
    /// room from a (logged-in) spectator.
    Chat {
        /// The message.
        text: String,
    },
    /// Ask for the full state again.
    Sync,
    /// Ask for a `pong`.
    Ping,
}

/// What a seat asks the game to do.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(tag = "a", rename_all = "snake_case")]
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
    /// Claim the win against players gone too long.
    ClaimVictory,
    /// Claim a draw against players gone too long.
    ClaimDraw,
    /// Ask to take back one's last move.
    TakebackOffer,
    /// Accept a takeback.
    TakebackAccept,
    /// Decline a takeback.
    TakebackDecline,
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
            ClientMsg::ClaimVictory => Action::ClaimVictory,
            ClientMsg::ClaimDraw => Action::ClaimDraw,
            ClientMsg::TakebackOffer => Action::TakebackOffer,
            ClientMsg::TakebackAccept => Action::TakebackAccept,
            ClientMsg::TakebackDecline => Action::TakebackDecline,
            ClientMsg::Hello { .. } | ClientMsg::Sync | ClientMsg::Ping | ClientMsg::Chat { .. } => return None,
        })
    }
}

/// The longest move text accepted.
pub const MAX_MOVE_LEN: usize = 256;

/// The longest player name accepted, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// Combining marks allowed on one character (more is "zalgo" text that
/// spills over the lines around it).
pub(crate) const MAX_MARKS: usize = 2;

/// Characters that draw nothing although Unicode calls them letters or
/// symbols (Hangul fillers, the Braille blank, Khmer inherent vowels,
/// Mongolian free variation selectors).
fn invisible_letter(c: char) -> bool {
    matches!(
        c,
        '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' | '\u{2800}' | '\u{17B4}' | '\u{17B5}' | '\u{180B}'
            ..='\u{180F}'
    )
}

/// What is wrong with showing `c` in a name or a chat message, if anything:
/// a control or formatting character (bidirectional overrides and isolates,
/// zero-width spaces and joiners, the byte-order mark, line breaks), a line
/// or paragraph separator, a private-use, unassigned or non-character code
/// point, or a letter that draws nothing.
pub(crate) fn unshowable(c: char) -> Option<&'static str> {
    use unicode_properties::{GeneralCategory as G, UnicodeGeneralCategory};
    let cat = c.general_category();
    let refused = match cat {
        G::Control | G::Format | G::PrivateUse | G::Surrogate | G::Unassigned => true,
        G::LineSeparator | G::ParagraphSeparator => true,
        _ => invisible_letter(c) || (c as u32 & 0xFFFE) == 0xFFFE || ('\u{FDD0}'..='\u{FDEF}').contains(&c),
    };
    refused.then_some(match cat {
        G::Control => "a control character",
        G::Format => "an invisible formatting character",
        _ => "a character that cannot be shown",
    })
}

/// Check and tidy a player's display name, the one rule for every place a
/// name is accepted: NFC-normalised; every run of spaces (any Unicode space)
/// becomes one ASCII space and the ends are trimmed; 1 to 40 characters; at
/// most two combining marks on a character; and no character that is
/// invisible or changes how text around it is drawn: control and format
/// characters (bidirectional overrides and isolates such as U+202E, zero-width
/// spaces and joiners, the byte-order mark U+FEFF), line and paragraph
/// separators, private-use, unassigned and non-character code points, and
/// letters that draw nothing (Hangul fillers). Such a name is refused with a
/// message naming the character, rather than silently changed.
pub fn clean_name(name: &str) -> Result<String, String> {
    use unicode_normalization::UnicodeNormalization;
    use unicode_properties::{GeneralCategory as G, UnicodeGeneralCategory};
    let mut out = String::with_capacity(name.len());
    let mut marks = 0usize;
    let mut space = false;
    let mut count = 0usize;
    for c in name.nfc() {
        let cat = c.general_category();
        if let Some(what) = unshowable(c) {
            return Err(format!(
                "the name has {what} (U+{:04X}): use letters, digits, punctuation and spaces",
                c as u32
            ));
        }
        if cat == G::SpaceSeparator {
            space = true;
            marks = 0;
            continue;
        }
        if matches!(cat, G::NonspacingMark | G::EnclosingMark) {
            marks += 1;
            if marks > MAX_MARKS {
                return Err(format!("the name has more than {MAX_MARKS} accents or marks on one character"));
            }
        } else {
            marks = 0;
        }
        if space && !out.is_empty() {
            out.push(' ');
            count += 1;
        }
        space = false;
        out.push(c);
        count += 1;
        if count > MAX_NAME_CHARS {
            return Err(format!("the name is longer than {MAX_NAME_CHARS} characters"));
        }
    }
    if out.is_empty() {
        return Err("the name is empty".into());
    }
    if out.chars().all(|c| matches!(c.general_category(), G::NonspacingMark | G::EnclosingMark)) {
        return Err("the name has only accents or marks".into());
    }
    Ok(out)
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
        let c: ClientMsg = serde_json::from_str(r#"{"type":"chat","text":"gg"}"#).unwrap();
        assert_eq!(c, ClientMsg::Chat { text: "gg".into() });
        assert_eq!(c.action(), None);
        assert!(serde_json::from_str::<ClientMsg>(r#"{"type":"chat"}"#).is_err());
        let t: ClientMsg = serde_json::from_str(r#"{"type":"takeback_offer"}"#).unwrap();
        assert_eq!(t.action(), Some(Action::TakebackOffer));
    }

    #[test]
    fn names() {
        assert_eq!(clean_name("  Ann ").unwrap(), "Ann");
        assert_eq!(clean_name(&"x".repeat(40)).unwrap().len(), 40);
        assert!(clean_name("").is_err());
        assert!(clean_name("   ").is_err());
        assert!(clean_name("a\u{7}b").is_err());
        assert!(clean_name(&"x".repeat(41)).is_err());
    }

    #[test]
    fn names_are_normalised() {
        // "é" as e + combining acute (two code points) becomes U+00E9.
        assert_eq!(clean_name("Ame\u{301}lie").unwrap(), "Am\u{E9}lie");
        // Runs of any Unicode space become one ASCII space.
        assert_eq!(clean_name("Ann\u{3000}\u{A0} Lee").unwrap(), "Ann Lee");
        // Letters of other scripts and emoji are welcome.
        assert_eq!(clean_name("Łukasz 王 🙂").unwrap(), "Łukasz 王 🙂");
        // A length is counted after normalisation: 40 e + acute fit.
        assert!(clean_name(&"e\u{301}".repeat(40)).is_ok());
    }

    #[test]
    fn invisible_and_format_characters_are_refused() {
        for bad in [
            "evil\u{202E}gnp.exe", // right-to-left override
            "a\u{2066}b",          // left-to-right isolate
            "a\u{200F}b",          // right-to-left mark
            "a\u{200B}b",          // zero-width space
            "a\u{200D}b",          // zero-width joiner
            "a\u{2060}b",          // word joiner
            "\u{FEFF}",            // a lone byte-order mark
            "\u{FEFF}Ann",         // a leading one
            "a\u{00AD}b",          // soft hyphen
            "a\u{2028}b",          // line separator
            "a\u{E000}b",          // private use
            "\u{3164}",            // Hangul filler
            "a\u{115F}b",          // Hangul choseong filler
            "a\u{FFFF}b",          // a non-character
            "a\u{E0041}b",         // a tag character
            "a\u{0}b",
            "a\nb",
        ] {
            let e = clean_name(bad).expect_err(bad);
            assert!(e.contains("U+"), "{bad:?}: {e}");
        }
        // Zalgo: more than two marks on one letter.
        assert!(clean_name("x\u{301}\u{302}\u{303}").is_err());
        assert!(clean_name("x\u{301}\u{302}").is_ok());
        // Marks alone are no name.
        assert!(clean_name("\u{301}").is_err());
    }
}

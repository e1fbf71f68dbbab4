//! Fuzzing what a client sends: the JSON frames (`ClientMsg`, read with
//! serde_json as the server reads them) and player names (`clean_name`).
//! Arbitrary strings and valid frames and names with random edits. A frame
//! read is written back (by the protocol's documented form, here) to the same
//! message; a name is cleaned once and for all; an error says something;
//! never a panic.

#[path = "../../core/tests/fuzz_common/mod.rs"]
mod fuzz_common;

use fuzz_common::*;
use plateau_server::protocol::{ClientMsg, MAX_NAME_CHARS, clean_name};
use proptest::prelude::*;
use serde_json::{Value, json};

fn frames() -> Vec<String> {
    [
        r#"{"type":"hello","token":"abc123","version":4,"gestures":false}"#,
        r#"{"type":"hello"}"#,
        r#"{"type":"move","move":"a1b2","version":0}"#,
        r#"{"type":"move","move":"x:d4,f4","version":18446744073709551615,"id":7}"#,
        r#"{"type":"resign"}"#,
        r#"{"type":"offer_draw"}"#,
        r#"{"type":"accept_draw"}"#,
        r#"{"type":"decline_draw"}"#,
        r#"{"type":"abort"}"#,
        r#"{"type":"rematch"}"#,
        r#"{"type":"leave"}"#,
        r#"{"type":"claim_victory"}"#,
        r#"{"type":"claim_draw"}"#,
        r#"{"type":"takeback_offer"}"#,
        r#"{"type":"takeback_accept"}"#,
        r#"{"type":"takeback_decline"}"#,
        r#"{"type":"chat","text":"gg"}"#,
        r#"{"type":"sync"}"#,
        r#"{"type":"ping","id":"x"}"#,
    ]
    .map(String::from)
    .to_vec()
}

/// The message in the protocol's JSON form (`docs/server.md`).
fn write(m: &ClientMsg) -> Value {
    match m {
        ClientMsg::Hello { token, version, gestures } => {
            json!({ "type": "hello", "token": token, "version": version, "gestures": gestures })
        }
        ClientMsg::Move { mv, version } => json!({ "type": "move", "move": mv, "version": version }),
        ClientMsg::Resign => json!({ "type": "resign" }),
        ClientMsg::OfferDraw => json!({ "type": "offer_draw" }),
        ClientMsg::AcceptDraw => json!({ "type": "accept_draw" }),
        ClientMsg::DeclineDraw => json!({ "type": "decline_draw" }),
        ClientMsg::Abort => json!({ "type": "abort" }),
        ClientMsg::Rematch => json!({ "type": "rematch" }),
        ClientMsg::Leave => json!({ "type": "leave" }),
        ClientMsg::ClaimVictory => json!({ "type": "claim_victory" }),
        ClientMsg::ClaimDraw => json!({ "type": "claim_draw" }),
        ClientMsg::TakebackOffer => json!({ "type": "takeback_offer" }),
        ClientMsg::TakebackAccept => json!({ "type": "takeback_accept" }),
        ClientMsg::TakebackDecline => json!({ "type": "takeback_decline" }),
        ClientMsg::Chat { text } => json!({ "type": "chat", "text": text }),
        ClientMsg::Sync => json!({ "type": "sync" }),
        ClientMsg::Ping => json!({ "type": "ping" }),
    }
}

fn names() -> Vec<String> {
    let mut v: Vec<String> = ["Ann", "  Bob   the  Builder ", "Zoë", "Zoe\u{301}", "李小龍", "O'Brien-Smith", "a"]
        .map(String::from)
        .to_vec();
    v.push("x".repeat(40));
    v
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn frames_read_back_or_say_why(text in inputs(frames(), 120)) {
        match serde_json::from_str::<ClientMsg>(&text) {
            Ok(m) => {
                let written = write(&m);
                let back = serde_json::from_value::<ClientMsg>(written.clone());
                prop_assert_eq!(back.ok(), Some(m.clone()), "{:?} -> {}", text, written);
                let _ = m.action();
            }
            Err(e) => clear(&e.to_string(), &text)?,
        }
    }

    #[test]
    fn names_are_cleaned_once_or_refused_clearly(text in inputs(names(), 50)) {
        match clean_name(&text) {
            Ok(n) => {
                prop_assert_eq!(clean_name(&n), Ok(n.clone()), "{:?}: cleaning again changes it", text);
                let count = n.chars().count();
                prop_assert!((1..=MAX_NAME_CHARS).contains(&count), "{:?} -> {:?}", text, n);
                prop_assert_eq!(n.trim(), n.as_str());
                prop_assert!(!n.contains("  ") && !n.chars().any(char::is_control), "{:?} -> {:?}", text, n);
            }
            Err(e) => clear(&e, &text)?,
        }
    }
}

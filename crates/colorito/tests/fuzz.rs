//! Fuzzing Colorito's texts: boards (`Board::parse`, `Board::from_option`),
//! positions (`Colorito::position`) and moves. Arbitrary strings and valid
//! texts with random edits; a text read is written back to the same value;
//! an error says something; never a panic.

#[path = "../../core/tests/fuzz_common/mod.rs"]
mod fuzz_common;

use fuzz_common::*;
use plateau_colorito::{Board, Colorito};
use plateau_core::{Game, State};
use proptest::prelude::*;

fn game() -> Colorito {
    Colorito::new("standard", &[]).unwrap()
}

fn boards() -> Vec<String> {
    let b = Board::standard().to_text();
    vec![b.clone(), b.lines().collect::<Vec<_>>().join("/"), "standard".into()]
}

fn positions() -> Vec<String> {
    let g = game();
    let mut s = g.start(0);
    let mut out = vec![s.to_text()];
    let mut v = Vec::new();
    for i in 0..30 {
        s.legal_moves(&mut v);
        let mv = v[(i * 13) % v.len()];
        s.apply(mv);
        out.push(s.to_text());
    }
    out
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn boards_read_back_or_say_why(text in inputs(boards(), 120)) {
        match Board::parse(&text) {
            Ok(b) => prop_assert_eq!(Board::parse(&b.to_text()).ok(), Some(b)),
            Err(e) => clear(&e.to_string(), &text)?,
        }
        match Board::from_option(&text) {
            Ok(b) => prop_assert_eq!(Board::parse(&b.to_text()).ok(), Some(b)),
            Err(e) => clear(&e, &text)?,
        }
    }

    #[test]
    fn positions_read_back_or_say_why(text in inputs(positions(), 200)) {
        let g = game();
        match g.position(&text) {
            Ok(s) => {
                let written = s.to_text();
                let back = g.position(&written);
                prop_assert!(back.is_ok(), "{:?} -> {:?}: {:?}", text, written, back.err());
                let back = back.unwrap();
                prop_assert_eq!(back.to_text(), written);
                prop_assert_eq!(back.key(), s.key());
            }
            Err(e) => clear(&e.to_string(), &text)?,
        }
    }

    #[test]
    fn moves_read_back_or_say_why(text in inputs(vec!["c3-d4".into(), "a1-j10".into(), "pass".into(), "b2c3".into()], 12)) {
        let s = game().start(0);
        match s.parse_move(&text) {
            Ok(mv) => prop_assert_eq!(s.parse_move(&s.format_move(mv)).ok(), Some(mv)),
            Err(e) => clear(&e.message, &text)?,
        }
    }
}

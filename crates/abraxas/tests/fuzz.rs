//! Fuzzing Abraxas's texts: sheets (`Sheet::parse`, `Sheet::from_option`),
//! positions (`Abraxas::position`) and moves. Arbitrary strings and valid
//! texts with random edits; a text read is written back to the same value;
//! an error says something; never a panic.

#[path = "../../core/tests/fuzz_common/mod.rs"]
mod fuzz_common;

use fuzz_common::*;
use plateau_abraxas::{Abraxas, Sheet};
use plateau_core::{Game, State, Turn};
use proptest::prelude::*;

fn sheets() -> Vec<String> {
    let mut v = Vec::new();
    for level in 1..=6 {
        let s = Sheet::level(level).unwrap();
        v.push(s.to_grid());
        v.push(s.to_inline());
        v.push(format!("level-{level}"));
    }
    v
}

fn positions() -> Vec<String> {
    let g = Abraxas::new(Sheet::level(4).unwrap());
    let mut s = g.start(0);
    let mut out = Vec::new();
    let mut v = Vec::new();
    for i in 0..80 {
        if i % 4 == 0 {
            out.push(s.to_text());
        }
        if s.to_move() == Turn::Over {
            break;
        }
        s.legal_moves(&mut v);
        s.apply(v[(i * 11) % v.len()]);
    }
    out
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn sheets_read_back_or_say_why(text in inputs(sheets(), 120)) {
        match Sheet::parse("fuzz", &text) {
            Ok(s) => {
                prop_assert_eq!(Sheet::parse("fuzz", &s.to_grid()).map(|b| b.dots()).ok(), Some(s.dots()));
                prop_assert_eq!(Sheet::from_option(&s.to_inline()).map(|b| b.dots()).ok(), Some(s.dots()));
            }
            Err(e) => clear(&e, &text)?,
        }
        match Sheet::from_option(&text) {
            Ok(s) => prop_assert_eq!(Sheet::from_option(&s.to_inline()).map(|b| b.dots()).ok(), Some(s.dots())),
            Err(e) => clear(&e, &text)?,
        }
    }

    #[test]
    fn positions_read_back_or_say_why(text in inputs(positions(), 200)) {
        let g = Abraxas::new(Sheet::level(4).unwrap());
        match g.position(&text) {
            Ok(s) => {
                let written = s.to_text();
                let back = g.position(&written);
                prop_assert!(back.as_ref().is_ok_and(|b| *b == s), "{:?} -> {:?}: {:?}", text, written, back.err());
            }
            Err(e) => clear(&e, &text)?,
        }
    }

    #[test]
    fn moves_read_back_or_say_why(
        text in inputs(vec!["d4".into(), "b:d4".into(), "d4-f6".into(), "x:d4,f4".into(), "x:e5/h".into(), "pass".into()], 16)
    ) {
        let s = Abraxas::new(Sheet::level(1).unwrap()).start(0);
        match s.parse_move(&text) {
            Ok(mv) => prop_assert_eq!(s.parse_move(&s.format_move(mv)).ok(), Some(mv)),
            Err(e) => clear(&e.message, &text)?,
        }
    }
}

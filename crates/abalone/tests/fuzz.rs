//! Fuzzing Abalone's position text (the `position` option) and its move
//! notation: arbitrary strings and valid texts with random edits. A text
//! read is written back to the same value; an error says something; never a
//! panic. (Moves through the type-erased layer: `plateau-games`'s fuzz test.)

#[path = "../../core/tests/fuzz_common/mod.rs"]
mod fuzz_common;

use fuzz_common::*;
use plateau_abalone::{Abalone, LAYOUTS, Rules, format_position, parse_position};
use plateau_core::{Game, State};
use proptest::prelude::*;

fn positions() -> Vec<String> {
    let mut v: Vec<String> = LAYOUTS
        .iter()
        .map(|(name, _, _)| format_position(&Abalone::with_layout(name, Rules::default()).unwrap().start(0)))
        .collect();
    v.push("5/6/7/8/4b4/8/7/6/5 w 5 3".into());
    v.push("wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb".into());
    v
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn positions_read_back_or_say_why(text in inputs(positions(), 80)) {
        match parse_position(&text, Rules::default()) {
            Ok(s) => {
                let written = format_position(&s);
                let back = parse_position(&written, Rules::default());
                prop_assert!(back.as_ref().is_ok_and(|b| *b == s), "{:?} -> {:?} -> {:?}", text, written, back);
            }
            Err(e) => clear(&e, &text)?,
        }
    }

    #[test]
    fn moves_read_back_or_say_why(
        layout in 0..LAYOUTS.len(),
        text in inputs(vec!["a1b2".into(), "c3c5d3".into(), "C5-C3-D5".into(), "i5h5".into(), "e5f6".into()], 12)
    ) {
        let s = Abalone::with_layout(LAYOUTS[layout].0, Rules::default()).unwrap().start(0);
        match s.parse_move(&text) {
            Ok(mv) => {
                let written = s.format_move(mv);
                prop_assert_eq!(s.parse_move(&written).ok(), Some(mv), "{:?} -> {:?}", text, written);
            }
            Err(e) => clear(&e.message, &text)?,
        }
    }
}

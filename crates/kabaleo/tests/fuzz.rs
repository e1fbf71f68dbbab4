//! Fuzzing Kabaleo's position text (`Position::parse`, then
//! `KabaleoState::from_position`, which checks it) and its moves. Arbitrary
//! strings and valid texts with random edits; a position read is written
//! back to the same value; an error says something; never a panic.

#[path = "../../core/tests/fuzz_common/mod.rs"]
mod fuzz_common;

use fuzz_common::*;
use plateau_core::{Game, Options, Setup, State, Turn};
use plateau_kabaleo::{Kabaleo, KabaleoState, Position};
use proptest::prelude::*;

fn positions() -> Vec<String> {
    let mut out = vec![
        "bases ROYG ROYG ROYG ROYG\npiles 1:YO 2:YGR\nstock R1 G1\nstock O2\nobjectives R O\nto-move 2\n\
         golden-rule on\nlast 2\n"
            .to_string(),
        "bases ROYGBV ROYGBV ROYGBV ROYGBV\nstock R1\nstock O1\nstock Y1\nobjectives R O Y\n".to_string(),
    ];
    for players in ["2", "3", "4"] {
        let settings = Kabaleo::INFO.resolve(None, Options::new().set("players", players)).unwrap();
        let g = Kabaleo::configure(&settings).unwrap();
        let mut s = g.start(7);
        let mut v = Vec::new();
        for i in 0..8 {
            out.push(s.position().to_string());
            if s.to_move() == Turn::Over {
                break;
            }
            s.legal_moves(&mut v);
            s.apply(v[(i * 5) % v.len()]);
        }
    }
    let _ = Setup::default();
    out
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn positions_read_back_or_say_why(text in inputs(positions(), 200)) {
        match Position::parse(&text) {
            Ok(p) => {
                let written = p.to_string();
                prop_assert_eq!(Position::parse(&written).ok(), Some(p.clone()), "{:?} -> {:?}", text, written);
                match KabaleoState::from_position(&p) {
                    Ok(s) => prop_assert_eq!(s.position(), p),
                    Err(e) => clear(&e.to_string(), &text)?,
                }
            }
            Err(e) => clear(&e.to_string(), &text)?,
        }
    }

    #[test]
    fn moves_read_back_or_say_why(text in inputs(vec!["1:R".into(), "12:OY".into(), "3:G".into(), "pass".into()], 12)) {
        let p = Position::parse(&positions()[0]).unwrap();
        let s = KabaleoState::from_position(&p).unwrap();
        match s.parse_move(&text) {
            Ok(mv) => prop_assert_eq!(s.parse_move(&s.format_move(mv)).ok(), Some(mv)),
            Err(e) => clear(&e.message, &text)?,
        }
    }
}

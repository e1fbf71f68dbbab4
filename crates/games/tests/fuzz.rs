//! Fuzzing what the type-erased layer reads from outside, for every game:
//! move text (`AnyMatch::play`, through each game's notation), options and
//! variants (`GameInfo::resolve`, then each game's configuration, which
//! reads position, board and sheet texts), and records (`Record::parse`,
//! then `Registry::replay`). Inputs are arbitrary strings and valid texts
//! with random edits. Every input gives a value that reads back the same,
//! or an error that says something; never a panic, and a refused move
//! changes nothing.

#[path = "../../core/tests/fuzz_common/mod.rs"]
mod fuzz_common;

use fuzz_common::*;
use plateau_core::{AnyMatch, Options, Reader, Record, Setup, Turn};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

/// For every game, matches a few plies into a seeded game (the first moves
/// of the list, shifted by the seed).
fn matches() -> Vec<Box<dyn AnyMatch>> {
    let registry = plateau_games::registry();
    let mut out = Vec::new();
    for g in registry.games() {
        for (seed, plies) in [(1u64, 0usize), (2, 3), (3, 12), (4, 40)] {
            let mut m = registry.new_match(g.info().name, &Setup { seed, ..Setup::default() }).unwrap();
            for p in 0..plies {
                if m.to_move() == Turn::Over {
                    break;
                }
                let legal = m.legal_moves();
                m.play(&legal[(p * 7 + seed as usize) % legal.len()].clone()).unwrap();
            }
            out.push(m);
        }
    }
    out
}

#[test]
fn move_text_is_played_or_refused_clearly() {
    let ms = matches();
    let mut samples: Vec<String> = ms.iter().flat_map(|m| m.legal_moves().into_iter().take(40)).collect();
    samples.extend(["pass", "x:e5/h", "b:d4", "d4-f6", "c3c5d3", "1:R", "a1 b2", "resign"].map(String::from));
    let strategy = (0..ms.len(), inputs(samples, 16));
    TestRunner::new(config())
        .run(&strategy, |(i, text)| {
            let mut m = ms[i].clone_box();
            let (key, ply, legal) = (m.key(), m.ply(), m.legal_moves());
            let name = m.info().name;
            match m.play(&text) {
                Ok(canon) => {
                    prop_assert!(
                        legal.contains(&canon),
                        "{}: {:?} played as {:?}, not a legal move",
                        name,
                        text,
                        canon
                    );
                    prop_assert_eq!(m.ply(), ply + 1);
                    let mut again = ms[i].clone_box();
                    prop_assert_eq!(again.play(&canon).ok(), Some(canon.clone()));
                    prop_assert_eq!(again.key(), m.key());
                    prop_assert!(m.undo());
                    prop_assert_eq!(m.key(), key);
                }
                Err(e) => {
                    clear(&e.message, &text)?;
                    prop_assert!(!legal.contains(&text), "{}: the legal move {:?} was refused: {}", name, text, e);
                    prop_assert_eq!(m.key(), key, "{}: a refused move changed the state", name);
                    prop_assert_eq!(m.ply(), ply);
                }
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn options_and_variants_configure_or_say_why() {
    let registry = plateau_games::registry();
    let infos: Vec<_> = registry.games().map(|g| g.info()).collect();
    // Valid names and values: every option's default, every variant's.
    let mut names: Vec<String> = Vec::new();
    let mut values: Vec<String> = vec!["none".into(), "0".into(), "-1".into(), "99999999999999999999".into()];
    let mut variants: Vec<String> = Vec::new();
    for info in &infos {
        for o in info.options {
            names.push(o.name.to_string());
            values.push(o.default.to_string());
        }
        for v in info.variants {
            variants.push(v.name.to_string());
            values.extend(v.options.iter().map(|(_, x)| x.to_string()));
        }
    }
    values.retain(|v| !v.is_empty());
    let pair = (prop_oneof![proptest::sample::select(names.clone()), inputs(names, 16)], inputs(values, 60));
    let strategy = (
        0..infos.len(),
        proptest::option::of(inputs(variants, 16)),
        proptest::collection::vec(pair, 0..4),
        any::<u64>(),
    );
    TestRunner::new(config())
        .run(&strategy, |(i, variant, pairs, seed)| {
            let info = infos[i];
            let mut options = Options::new();
            for (k, v) in &pairs {
                options.set(k.clone(), v.clone());
            }
            match info.resolve(variant.as_deref(), &options) {
                Ok(_) => {
                    let setup = Setup { variant: variant.clone(), options: options.clone(), seed };
                    match registry.new_match(info.name, &setup) {
                        Ok(m) => {
                            // The record of the set-up makes the same game.
                            let text = m.record(Reader::Referee).to_text();
                            let back = registry.replay(&Record::parse(&text).unwrap(), None, None);
                            prop_assert!(back.is_ok(), "{}: {:?}: {:?}", info.name, text, back.err());
                            prop_assert_eq!(back.unwrap().key(), m.key());
                        }
                        Err(e) => clear(&e.to_string(), &format!("{variant:?} {pairs:?}"))?,
                    }
                }
                Err(e) => clear(&e.to_string(), &format!("{variant:?} {pairs:?}"))?,
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn records_replay_or_say_why() {
    let registry = plateau_games::registry();
    let records: Vec<String> = matches().iter().map(|m| m.record(Reader::Referee).to_text()).collect();
    TestRunner::new(config())
        .run(&inputs(records, 200), |text| {
            match Record::parse(&text) {
                Ok(r) => match registry.replay(&r, None, None) {
                    Ok(m) => {
                        let again = m.record(Reader::Referee).to_text();
                        let back = registry.replay(&Record::parse(&again).unwrap(), None, None);
                        prop_assert!(back.is_ok(), "{:?} replayed, its record {:?} did not", text, again);
                        let back = back.unwrap();
                        prop_assert_eq!(back.key(), m.key());
                        prop_assert_eq!(back.history(), m.history());
                    }
                    Err(e) => clear(&e.to_string(), &text)?,
                },
                Err(e) => clear(&e.to_string(), &text)?,
            }
            Ok(())
        })
        .unwrap();
}

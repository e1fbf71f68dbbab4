//! The conformance kit over all six sheets and the options.

use plateau_abraxas::Abraxas;
use plateau_conformance::Kit;

fn kit() -> Kit {
    Kit::new(80)
}

/// Run the kit; every playout ends (by stones taken, repetition or the move
/// cap of 400 plies).
fn run(k: &Kit, variant: &str, options: &[(&str, &str)]) {
    let stats = k.run::<Abraxas>(variant, options);
    println!("{variant} {options:?}: {stats}");
    assert_eq!(stats.finished, stats.playouts, "{variant} {options:?}: {stats}");
    assert!(stats.endings.contains_key("stones taken"), "{variant} {options:?}: {stats}");
}

#[test]
fn level_1() {
    run(&kit(), "level-1", &[]);
}

#[test]
fn level_2() {
    run(&kit(), "level-2", &[]);
}

#[test]
fn level_3() {
    run(&kit(), "level-3", &[]);
}

#[test]
fn level_4() {
    run(&kit(), "level-4", &[]);
}

#[test]
fn level_5() {
    run(&kit(), "level-5", &[]);
}

#[test]
fn level_6() {
    run(&kit(), "level-6", &[]);
}

#[test]
fn options() {
    let k = Kit::new(30);
    run(&k, "level-6", &[("removal", "removed-not-adjacent"), ("plate-start", "top-right")]);
    run(&k, "level-4", &[("stones-to-win", "3"), ("max-plies", "120")]);
    run(&k, "level-2", &[("plate-start", "top-left"), ("stones-to-win", "12")]);
}

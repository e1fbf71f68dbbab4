//! The conformance kit over all six sheets and the options.

use plateau_abraxas::Abraxas;
use plateau_conformance::Kit;

fn kit() -> Kit {
    Kit::new(80)
}

#[test]
fn level_1() {
    println!("{}", kit().run::<Abraxas>("level-1", &[]));
}

#[test]
fn level_2() {
    println!("{}", kit().run::<Abraxas>("level-2", &[]));
}

#[test]
fn level_3() {
    println!("{}", kit().run::<Abraxas>("level-3", &[]));
}

#[test]
fn level_4() {
    println!("{}", kit().run::<Abraxas>("level-4", &[]));
}

#[test]
fn level_5() {
    println!("{}", kit().run::<Abraxas>("level-5", &[]));
}

#[test]
fn level_6() {
    println!("{}", kit().run::<Abraxas>("level-6", &[]));
}

#[test]
fn options() {
    let k = Kit::new(30);
    println!("{}", k.run::<Abraxas>("level-6", &[("removal", "removed-not-adjacent"), ("plate-start", "top-right")]));
    println!("{}", k.run::<Abraxas>("level-4", &[("stones-to-win", "3"), ("max-plies", "120")]));
    println!("{}", k.run::<Abraxas>("level-2", &[("plate-start", "top-left"), ("stones-to-win", "12")]));
}

//! Fuzzing the player spec parser (`PlayerSpec::parse`, which reads what
//! users and clients of the server write): arbitrary strings and valid specs
//! with random edits. A spec read is written back to the same value; an
//! error says something; never a panic.

#[path = "../../core/tests/fuzz_common/mod.rs"]
mod fuzz_common;

use fuzz_common::*;
use plateau_ai::PlayerSpec;
use proptest::prelude::*;

fn specs() -> Vec<String> {
    [
        "human",
        "random",
        "random:seed=7",
        "greedy",
        "alphabeta:depth=4",
        "alphabeta:time=250ms,plan=off",
        "mcts:iterations=2000,seed=3",
        "mcts:time=1.5s",
        "ismcts:time=200ms,sampling=uniform",
        "alphabeta:nodes=100000",
        "ai:1",
        "ai:6",
    ]
    .map(String::from)
    .to_vec()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn specs_read_back_or_say_why(text in inputs(specs(), 60)) {
        match PlayerSpec::parse(&text) {
            Ok(spec) => {
                let written = spec.to_string();
                prop_assert_eq!(PlayerSpec::parse(&written).ok(), Some(spec), "{:?} -> {:?}", text, written);
            }
            Err(e) => clear(&e.0, &text)?,
        }
    }
}

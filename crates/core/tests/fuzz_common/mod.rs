//! Shared by the fuzz tests of every crate (`tests/fuzz.rs`, which include
//! this file by path): text inputs for parsers, arbitrary and mutated.
//!
//! The number of cases is proptest's: 256 by default, `PROPTEST_CASES` in
//! the environment (`scripts/fuzz.sh` runs them long).
#![allow(dead_code)]

use proptest::prelude::*;

/// Characters that parsers treat specially, and some that no parser
/// expects: separators, digits, signs, quotes, braces, whitespace of every
/// kind, a combining mark, a right-to-left override, a zero-width joiner,
/// a replacement character, NUL.
const INTERESTING: &[char] = &[
    '/', ' ', '\t', '\n', '\r', ':', ',', ';', '-', '+', '=', '.', '@', '"', '\'', '\\', '{', '}', '[', ']', '(', ')',
    '#', '*', '0', '1', '2', '5', '9', 'a', 'b', 'e', 'i', 'o', 'r', 'w', 'x', 'z', 'A', 'E', 'I', 'R', 'Z', '\u{0}',
    '\u{7f}', '\u{a0}', '\u{301}', '\u{202e}', '\u{200d}', '\u{fffd}', '\u{feff}', '\u{2028}', 'é', 'ß', '●', '–', '𝄞',
];

/// One character: usually an interesting one, sometimes any.
pub fn any_char() -> impl Strategy<Value = char> {
    prop_oneof![4 => proptest::sample::select(INTERESTING), 1 => any::<char>()]
}

/// An arbitrary string of up to `max` characters, biased towards the
/// interesting ones.
pub fn arbitrary(max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(any_char(), 0..=max).prop_map(|v| v.into_iter().collect())
}

/// One of `valid`, with 1 to 6 random edits: a character inserted, deleted,
/// replaced, or a slice of the text duplicated.
pub fn mutated(valid: Vec<String>) -> impl Strategy<Value = String> {
    assert!(!valid.is_empty());
    let edit = (0..4u8, any::<proptest::sample::Index>(), any::<proptest::sample::Index>(), any_char());
    (proptest::sample::select(valid), proptest::collection::vec(edit, 1..=6)).prop_map(|(base, edits)| {
        let mut v: Vec<char> = base.chars().collect();
        for (kind, at, len, c) in edits {
            let i = if v.is_empty() { 0 } else { at.index(v.len() + 1) };
            match kind {
                0 => v.insert(i, c),
                1 if i < v.len() => {
                    v.remove(i);
                }
                2 if i < v.len() => v[i] = c,
                3 if i < v.len() => {
                    let n = len.index((v.len() - i).min(12)) + 1;
                    let piece: Vec<char> = v[i..i + n].to_vec();
                    v.splice(i..i, piece);
                }
                _ => v.push(c),
            }
        }
        v.into_iter().collect()
    })
}

/// Arbitrary and mutated inputs, half and half.
pub fn inputs(valid: Vec<String>, max: usize) -> impl Strategy<Value = String> {
    prop_oneof![arbitrary(max), mutated(valid)]
}

/// An error message must say something.
pub fn clear(message: &str, input: &str) -> Result<(), TestCaseError> {
    prop_assert!(!message.trim().is_empty(), "empty error message for {:?}", input);
    Ok(())
}

/// proptest's configuration from the environment (`PROPTEST_CASES`,
/// `PROPTEST_RNG_SEED`), without files of saved failures (a failure prints
/// its minimal input). Without either variable (the short run of CI), the
/// seed is fixed so that CI is repeatable; long runs draw a random seed.
pub fn config() -> ProptestConfig {
    let mut c = ProptestConfig { failure_persistence: None, ..ProptestConfig::default() };
    if std::env::var_os("PROPTEST_CASES").is_none() && std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        c.rng_seed = proptest::test_runner::RngSeed::Fixed(0x5eed);
    }
    c
}

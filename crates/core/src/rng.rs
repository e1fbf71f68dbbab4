//! Seeded randomness with algorithms that never change, so that a record's seed
//! rebuilds the same set-up in every version of Plateau.
//!
//! The generator is ChaCha8 seeded from a `u64` (a documented, portable stream);
//! the uniform draw and the shuffle below are written here, not taken from
//! `rand`'s helpers, whose algorithms may change between releases.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The generator of every set-up.
pub type SetupRng = ChaCha8Rng;

/// The set-up generator for a seed.
pub fn setup_rng(seed: u64) -> SetupRng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A uniform integer in `0..n` (Lemire's nearly-divisionless method, with
/// rejection, so that it is exactly uniform).
///
/// # Panics
/// If `n` is 0.
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    assert!(n > 0, "below(0)");
    let mut m = (rng.next_u64() as u128) * (n as u128);
    if (m as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u64) < threshold {
            m = (rng.next_u64() as u128) * (n as u128);
        }
    }
    (m >> 64) as u64
}

/// Shuffle in place (Fisher–Yates, from the last element down).
pub fn shuffle<T, R: Rng + ?Sized>(rng: &mut R, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// A fresh seed from the operating system's entropy (for new games).
pub fn fresh_seed() -> u64 {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    let mut h = RandomState::new().build_hasher();
    h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0));
    h.finish()
}

/// A fixed table of pseudo-random 64-bit keys for Zobrist hashing, the same in
/// every build (SplitMix64 from a constant).
pub const fn zobrist_table<const N: usize>(salt: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ salt;
    let mut i = 0;
    while i < N {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        out[i] = z ^ (z >> 31);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_draws_and_shuffles_are_permutations() {
        // The values themselves are pinned against independent
        // reimplementations in tests/rng.rs (a change of algorithm breaks
        // every recorded Kabaleo game).
        let mut r = setup_rng(42);
        let v: Vec<u64> = (0..5).map(|_| below(&mut r, 10)).collect();
        let mut r = setup_rng(42);
        let w: Vec<u64> = (0..5).map(|_| below(&mut r, 10)).collect();
        assert_eq!(v, w);
        let mut items: Vec<u32> = (0..10).collect();
        shuffle(&mut setup_rng(7), &mut items);
        let mut sorted = items.clone();
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn below_is_roughly_uniform() {
        let mut r = setup_rng(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[below(&mut r, 6) as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn zobrist_keys_differ() {
        const T: [u64; 64] = zobrist_table::<64>(3);
        let mut s = T.to_vec();
        s.sort();
        s.dedup();
        assert_eq!(s.len(), 64);
    }
}

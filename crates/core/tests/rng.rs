//! The set-up randomness and the Zobrist tables never change: a record's seed
//! must rebuild the same game in every version, and keys are stable.
//!
//! Each documented algorithm is written again here from its description,
//! without `rand` (ChaCha8 from RFC 7539's quarter round with 8 rounds, seeded
//! by `rand_core`'s documented PCG32 expansion of the `u64`; Lemire's draw;
//! Fisher–Yates from the last element; SplitMix64), and compared with the
//! crate's output; the first values are also pinned as numbers, so that a
//! change of algorithm, or of a dependency's, fails.

use plateau_core::rng::{below, setup_rng, shuffle, zobrist_table};
use rand::Rng;

/// `rand_core`'s `seed_from_u64`: 32 bytes from PCG32 (XSH RR), 4 at a time.
fn seed_bytes(mut state: u64) -> [u8; 32] {
    let mut out = [0u8; 32];
    for chunk in out.chunks_exact_mut(4) {
        state = state.wrapping_mul(0x5851_F42D_4C95_7F2D).wrapping_add(0xA176_54E4_6FBE_17F3);
        let xorshifted = (((state >> 18) ^ state) >> 27) as u32;
        let rot = (state >> 59) as u32;
        chunk.copy_from_slice(&xorshifted.rotate_right(rot).to_le_bytes());
    }
    out
}

/// ChaCha with 8 rounds: key from the seed, a 64-bit block counter from 0,
/// stream 0; the words of the blocks in order, two words to a `u64` (low
/// first).
struct Stream {
    key: [u32; 8],
    counter: u64,
    words: Vec<u32>,
}

impl Stream {
    fn new(seed: u64) -> Stream {
        let b = seed_bytes(seed);
        let key = std::array::from_fn(|i| u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]));
        Stream { key, counter: 0, words: Vec::new() }
    }

    fn block(&mut self) {
        let mut init = [0u32; 16];
        init[..4].copy_from_slice(&[0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]);
        init[4..12].copy_from_slice(&self.key);
        init[12] = self.counter as u32;
        init[13] = (self.counter >> 32) as u32;
        let mut x = init;
        fn qr(x: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
            x[a] = x[a].wrapping_add(x[b]);
            x[d] = (x[d] ^ x[a]).rotate_left(16);
            x[c] = x[c].wrapping_add(x[d]);
            x[b] = (x[b] ^ x[c]).rotate_left(12);
            x[a] = x[a].wrapping_add(x[b]);
            x[d] = (x[d] ^ x[a]).rotate_left(8);
            x[c] = x[c].wrapping_add(x[d]);
            x[b] = (x[b] ^ x[c]).rotate_left(7);
        }
        for _ in 0..4 {
            qr(&mut x, 0, 4, 8, 12);
            qr(&mut x, 1, 5, 9, 13);
            qr(&mut x, 2, 6, 10, 14);
            qr(&mut x, 3, 7, 11, 15);
            qr(&mut x, 0, 5, 10, 15);
            qr(&mut x, 1, 6, 11, 12);
            qr(&mut x, 2, 7, 8, 13);
            qr(&mut x, 3, 4, 9, 14);
        }
        for i in 0..16 {
            self.words.push(x[i].wrapping_add(init[i]));
        }
        self.counter += 1;
    }

    fn words_next(&mut self) -> u32 {
        if self.words.is_empty() {
            self.block();
        }
        self.words.remove(0)
    }

    fn next_u64(&mut self) -> u64 {
        while self.words.len() < 2 {
            self.block();
        }
        let lo = self.words.remove(0) as u64;
        let hi = self.words.remove(0) as u64;
        lo | hi << 32
    }

    /// Lemire: the high half of `x · n`, drawing again while the low half is
    /// below `2^64 mod n`.
    fn below(&mut self, n: u64) -> u64 {
        let reject = ((1u128 << 64) % n as u128) as u64;
        loop {
            let m = self.next_u64() as u128 * n as u128;
            if m as u64 >= reject {
                return (m >> 64) as u64;
            }
        }
    }
}

#[test]
fn the_setup_stream_is_chacha8_from_the_pcg32_seed() {
    for seed in [0, 1, 7, 42, 0xDEAD_BEEF, u64::MAX] {
        // Past several buffers of 4 blocks.
        let mut ours = Stream::new(seed);
        let mut theirs = setup_rng(seed);
        for i in 0..700 {
            assert_eq!(theirs.next_u64(), ours.next_u64(), "seed {seed}, draw {i}");
        }
        // One 32-bit word first: every later u64 straddles two words, and
        // some straddle two buffers.
        let mut ours = Stream::new(seed);
        let mut theirs = setup_rng(seed);
        assert_eq!(theirs.next_u32(), ours.words_next());
        for i in 0..700 {
            assert_eq!(theirs.next_u64(), ours.next_u64(), "seed {seed}, draw {i} after a word");
        }
    }
    // Pinned.
    let mut r = setup_rng(42);
    let first: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
    assert_eq!(first, PINNED_STREAM_42);
}

#[test]
fn below_is_lemires_method_with_rejection() {
    for seed in [1, 42, 99] {
        // Small bounds, and bounds near 2^63 and 2^64 where rejection is
        // frequent (so the number of draws used must agree too).
        for n in [1, 2, 3, 6, 10, 61, 1000, (1 << 63) + 1, u64::MAX - 1, u64::MAX] {
            let mut ours = Stream::new(seed);
            let mut theirs = setup_rng(seed);
            for i in 0..200 {
                assert_eq!(below(&mut theirs, n), ours.below(n), "seed {seed}, n {n}, draw {i}");
            }
            assert_eq!(theirs.next_u64(), ours.next_u64(), "seed {seed}, n {n}: draws used");
        }
    }
    let mut r = setup_rng(42);
    let v: Vec<u64> = (0..10).map(|_| below(&mut r, 10)).collect();
    assert_eq!(v, PINNED_BELOW_42);
}

#[test]
fn shuffle_is_fisher_yates_from_the_last_element() {
    for seed in [3, 7, 2024] {
        for len in [0, 1, 2, 10, 52, 100] {
            let mut ours: Vec<usize> = (0..len).collect();
            let mut s = Stream::new(seed);
            for i in (1..len).rev() {
                let j = s.below(i as u64 + 1) as usize;
                ours.swap(i, j);
            }
            let mut theirs: Vec<usize> = (0..len).collect();
            shuffle(&mut setup_rng(seed), &mut theirs);
            assert_eq!(theirs, ours, "seed {seed}, {len} items");
        }
    }
    let mut items: Vec<u32> = (0..10).collect();
    shuffle(&mut setup_rng(7), &mut items);
    assert_eq!(items, PINNED_SHUFFLE_7);
}

/// SplitMix64 from `golden ^ salt`, one key per step.
fn splitmix(salt: u64, n: usize) -> Vec<u64> {
    const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut x = GOLDEN ^ salt;
    (0..n)
        .map(|_| {
            x = x.wrapping_add(GOLDEN);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        })
        .collect()
}

#[test]
fn zobrist_tables_are_splitmix64_from_the_salt() {
    const A: [u64; 163] = zobrist_table::<163>(0x00AB_A10E);
    const B: [u64; 64] = zobrist_table::<64>(3);
    const C: [u64; 8] = zobrist_table::<8>(0);
    assert_eq!(A.to_vec(), splitmix(0x00AB_A10E, 163));
    assert_eq!(B.to_vec(), splitmix(3, 64));
    assert_eq!(C.to_vec(), splitmix(0, 8));
    // SplitMix64 seeded with 0 (the first outputs of the reference
    // implementation, Vigna's splitmix64.c, with x = 0): the table of salt
    // `golden` starts from x = 0.
    let d = zobrist_table::<2>(0x9E37_79B9_7F4A_7C15);
    assert_eq!(d, [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4]);
    // Distinct keys.
    let mut s = A.to_vec();
    s.sort();
    s.dedup();
    assert_eq!(s.len(), A.len());
}

// The values of the reimplementation above (which the crate matched when
// they were written down).
const PINNED_STREAM_42: [u64; 3] = [12578764544318200737, 17529487244874322312, 7886285670807131020];
const PINNED_BELOW_42: [u64; 10] = [6, 9, 4, 6, 2, 1, 3, 8, 7, 2];
const PINNED_SHUFFLE_7: [u32; 10] = [4, 6, 2, 0, 8, 3, 7, 5, 9, 1];

//! Game ids, seat tokens and their hashes.
//!
//! Ids are 16 characters of URL-safe base64 from 12 random bytes; tokens are 43
//! characters from 32 random bytes (256 bits) of the operating system's
//! generator. Only the SHA-256 of a token is stored.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

/// The operating system's random generator failed: no id, token or seed can
/// be made safely, and none is made from anything weaker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the operating system's random number generator failed")]
pub struct RandomError;

fn random_bytes<const N: usize>() -> Result<[u8; N], RandomError> {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).map_err(|_| RandomError)?;
    Ok(b)
}

/// Check that the operating system's generator works (the server refuses to
/// start otherwise).
pub fn check_random() -> Result<(), RandomError> {
    random_bytes::<32>().map(|_| ())
}

/// A new game id.
pub fn new_game_id() -> Result<String, RandomError> {
    Ok(URL_SAFE_NO_PAD.encode(random_bytes::<12>()?))
}

/// A new secret seat token.
pub fn new_token() -> Result<String, RandomError> {
    Ok(URL_SAFE_NO_PAD.encode(random_bytes::<32>()?))
}

/// A random 64-bit number (seeds, random fallback moves).
pub fn random_u64() -> Result<u64, RandomError> {
    Ok(u64::from_le_bytes(random_bytes::<8>()?))
}

/// The stored form of a token: its SHA-256, in hex.
pub fn hash_token(token: &str) -> String {
    let d = Sha256::digest(token.as_bytes());
    let mut s = String::with_capacity(64);
    for b in d {
        s.push(char::from(b"0123456789abcdef"[(b >> 4) as usize]));
        s.push(char::from(b"0123456789abcdef"[(b & 15) as usize]));
    }
    s
}

/// Whether two hashes are equal, in time independent of where they differ.
pub fn same_hash(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether `s` can be a game id or a token: 1 to 128 URL-safe base64 characters.
pub fn well_formed(s: &str) -> bool {
    !s.is_empty() && s.len() <= 128 && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_tokens() {
        check_random().unwrap();
        let a = new_game_id().unwrap();
        assert_eq!(a.len(), 16);
        assert!(well_formed(&a));
        let t = new_token().unwrap();
        assert_eq!(t.len(), 43);
        assert!(well_formed(&t));
        assert_ne!(t, new_token().unwrap());
        let h = hash_token(&t);
        assert_eq!(h.len(), 64);
        assert!(same_hash(&h, &hash_token(&t)));
        assert!(!same_hash(&h, &hash_token("x")));
        assert!(!well_formed("a b"));
        assert!(!well_formed(""));
        assert!(!well_formed(&"a".repeat(129)));
    }
}

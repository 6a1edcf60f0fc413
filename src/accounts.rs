//! Secrets: password hashes, session and API tokens, CSRF tokens.
//!
//! Passwords are slow-hashed with argon2 because they are guessable; tokens
//! are 256 random bits, so a fast keyed-free BLAKE2b digest is enough to keep
//! a stolen database from yielding usable tokens.

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use blake2::{Blake2b512, Digest};
use rand::RngCore;

/// The shortest password accepted, long enough to resist guessing at a venue.
pub const MIN_PASSWORD_LEN: usize = 8;

/// Hashes a password to a PHC string.
pub fn hash_password(password: &str) -> Result<String, String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| format!("cannot hash the password: {e}"))
}

/// True when `password` matches the stored PHC string.
pub fn verify_password(password: &str, stored: &str) -> bool {
    match PasswordHash::new(stored) {
        Ok(parsed) => Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

/// Checks a new password against the policy; the message names the problem.
pub fn check_new_password(password: &str) -> Result<(), String> {
    if password.chars().count() < MIN_PASSWORD_LEN {
        return Err(format!(
            "the password must have at least {MIN_PASSWORD_LEN} characters"
        ));
    }
    Ok(())
}

/// A fresh random token: 32 bytes as 64 lowercase hex digits.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    hex(&bytes)
}

/// The digest under which a token is stored.
pub fn token_digest(token: &str) -> String {
    hex(&Blake2b512::digest(token.as_bytes())[..32])
}

/// Compares two secrets in time independent of where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[(b >> 4) as usize] as char);
        out.push(DIGITS[(b & 15) as usize] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_only_against_its_own_hash() {
        let stored = hash_password("correct horse").unwrap();
        assert!(verify_password("correct horse", &stored));
        assert!(!verify_password("correct hors", &stored));
        assert!(!verify_password("correct horse", "not a hash"));
    }

    #[test]
    fn tokens_are_random_and_digests_stable() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_eq!(token_digest(&a), token_digest(&a));
        assert_ne!(token_digest(&a), token_digest(&b));
        assert!(same_secret(&a, &a.clone()));
        assert!(!same_secret(&a, &b));
    }
}

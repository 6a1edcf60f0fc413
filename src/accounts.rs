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

/// Argon2 needs about 19 MiB for each hash it computes, and the allocator
/// keeps what a thread once used: hashed on any of the server's blocking
/// threads, a hundred sign-ins at once would leave gigabytes behind. So all
/// hashing runs on a few threads of its own (one per core), whatever the
/// number of sign-ins; the others wait their turn in a queue.
fn on_hashing_thread<T: Send + 'static>(job: impl FnOnce() -> T + Send + 'static) -> T {
    use std::sync::mpsc;
    use std::sync::{Mutex, OnceLock};
    type Job = Box<dyn FnOnce() + Send>;
    static QUEUE: OnceLock<Mutex<mpsc::Sender<Job>>> = OnceLock::new();
    let queue = QUEUE.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = std::sync::Arc::new(Mutex::new(rx));
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        for i in 0..threads {
            let rx = rx.clone();
            std::thread::Builder::new()
                .name(format!("kraal-hash-{i}"))
                .spawn(move || loop {
                    let next = rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    match next {
                        Ok(job) => job(),
                        Err(_) => return,
                    }
                })
                .expect("start a password hashing thread");
        }
        Mutex::new(tx)
    });
    let (done, result) = mpsc::channel();
    let sent = queue
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send(Box::new(move || {
            let _ = done.send(job());
        }));
    match sent {
        Ok(()) => result.recv().expect("the hashing thread answers"),
        Err(mpsc::SendError(_)) => unreachable!("the hashing threads never stop"),
    }
}

/// Hashes a password to a PHC string.
pub fn hash_password(password: &str) -> Result<String, String> {
    let password = password.to_string();
    on_hashing_thread(move || {
        Argon2::default()
            .hash_password(password.as_bytes())
            .map(|h| h.to_string())
            .map_err(|e| format!("cannot hash the password: {e}"))
    })
}

/// True when `password` matches the stored PHC string.
pub fn verify_password(password: &str, stored: &str) -> bool {
    let (password, stored) = (password.to_string(), stored.to_string());
    on_hashing_thread(move || match PasswordHash::new(&stored) {
        Ok(parsed) => Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    })
}

/// Spends the time of a real check on a name that has no account, so that
/// the answer's timing does not tell which names exist.
pub fn verify_unknown(password: &str) {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let stored =
        DUMMY.get_or_init(|| hash_password("not a password of anyone").unwrap_or_default());
    verify_password(password, stored);
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

//! Secrets: password hashes, session and API tokens, CSRF tokens.
//!
//! Passwords are slow-hashed with argon2 because they are guessable; tokens
//! are 256 random bits, so a fast keyed-free BLAKE2b digest is enough to keep
//! a stolen database from yielding usable tokens.

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::PasswordHasher;
use argon2::Argon2;
use blake2::{Blake2b512, Digest};
use rand::RngCore;

/// The shortest password accepted, long enough to resist guessing at a venue.
pub const MIN_PASSWORD_LEN: usize = 8;

/// The threads that run argon2, and nothing else: one per core.
///
/// Argon2 needs about 19 MiB for each hash it computes. Run on whatever
/// thread asks, a hundred sign-ins at once would want 2 GB, and the
/// allocator keeps what a thread once used. So every hash runs here, one
/// per core at a time, each thread in one buffer of its own that it keeps
/// and reuses ([`verify_in_place`]); the sign-ins waiting their turn are
/// a closure each in a queue, and a waiting request holds no thread (see
/// [`check_password`]).
fn hashing_queue() -> &'static std::sync::Mutex<std::sync::mpsc::Sender<HashJob>> {
    use std::sync::{mpsc, Mutex, OnceLock};
    static QUEUE: OnceLock<Mutex<mpsc::Sender<HashJob>>> = OnceLock::new();
    QUEUE.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<HashJob>();
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
    })
}

type HashJob = Box<dyn FnOnce() + Send>;

fn submit(job: HashJob) {
    let sent = hashing_queue()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send(job);
    if sent.is_err() {
        unreachable!("the hashing threads never stop");
    }
}

/// Runs `job` on a hashing thread and waits for it (for the command line
/// and the rare account changes; a sign-in awaits instead).
fn on_hashing_thread<T: Send + 'static>(job: impl FnOnce() -> T + Send + 'static) -> T {
    let (done, result) = std::sync::mpsc::channel();
    submit(Box::new(move || {
        let _ = done.send(job());
    }));
    result.recv().expect("the hashing thread answers")
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
    on_hashing_thread(move || verify_in_place(password.as_bytes(), &stored))
}

/// The sign-in's check, awaited without holding a thread: `stored` is the
/// account's hash, or `None` for a name no account has, which costs the
/// same time as a real check so that the answer does not tell which names
/// exist.
pub async fn check_password(password: String, stored: Option<String>) -> bool {
    let (done, result) = tokio::sync::oneshot::channel();
    submit(Box::new(move || {
        let ok = match &stored {
            Some(hash) => verify_in_place(password.as_bytes(), hash),
            None => {
                verify_in_place(password.as_bytes(), dummy_hash());
                false
            }
        };
        let _ = done.send(ok);
    }));
    result.await.unwrap_or(false)
}

/// A hash of nobody's password, with the parameters of real ones.
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| {
        Argon2::default()
            .hash_password(b"not a password of anyone")
            .map(|h| h.to_string())
            .unwrap_or_default()
    })
}

/// Checks `password` against a PHC string in this thread's own argon2
/// buffer, allocated once (at the largest cost met) and reused, so that
/// checking never allocates the 19 MiB anew.
fn verify_in_place(password: &[u8], stored: &str) -> bool {
    use argon2::{Algorithm, Block, Params, Version};
    use std::cell::RefCell;
    thread_local! {
        static MEMORY: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
    }
    let Ok(parsed) = PasswordHash::new(stored) else {
        return false;
    };
    let Ok(algorithm) = Algorithm::try_from(parsed.algorithm.as_str()) else {
        return false;
    };
    let version = match parsed.version.map(Version::try_from) {
        None => Version::default(),
        Some(Ok(v)) => v,
        Some(Err(_)) => return false,
    };
    let Ok(params) = Params::try_from(&parsed) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (&parsed.salt, &parsed.hash) else {
        return false;
    };
    let expected = expected.as_bytes();
    let mut out = vec![0u8; expected.len()];
    let computed = MEMORY.with(|memory| {
        let mut memory = memory.borrow_mut();
        let need = params.block_count();
        if memory.len() < need {
            memory.resize(need, Block::default());
        }
        Argon2::new(algorithm, version, params)
            .hash_password_into_with_memory(password, salt.as_ref(), &mut out, &mut memory[..need])
            .is_ok()
    });
    // Every byte compared, whatever the first difference.
    computed
        && out
            .iter()
            .zip(expected)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// Checks a new password against the policy; the message names the problem.
pub fn check_new_password(password: &str) -> Result<(), crate::field::FieldError> {
    if password.chars().count() < MIN_PASSWORD_LEN {
        return Err(crate::field::FieldError::new(
            "password",
            crate::field::Problem::TooShort {
                min: MIN_PASSWORD_LEN,
            },
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

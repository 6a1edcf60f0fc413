//! A crowd signing in at once (the start of a round at a big venue) does not
//! swell the server: every one of 100 correct and 100 unknown-name sign-ins
//! at the same moment gets its answer, and (in the performance run) the
//! served binary stays under 150 MiB meanwhile. In a test binary of its
//! own: it measures a process.

#![allow(clippy::unwrap_used)]

mod common;

use kraal::db::users::Role;
use kraal::db::Database;

/// The server's peak resident memory so far, in MiB (the kernel's own
/// high-water mark).
fn peak_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Every one of a crowd signing in at once gets its own answer.
#[test]
fn a_crowd_signing_in_at_once_gets_every_answer() {
    let crowd = crowd_signs_in();
    eprintln!(
        "the server peaked at {:.0} MiB (from {:.0} MiB)",
        crowd.peak, crowd.before
    );
}

/// The same, measured (the performance run: `cargo test --release --test
/// sign_in_memory -- --ignored`): the server stays under 150 MiB.
#[test]
#[ignore = "memory: part of the performance run (docs/performance.md)"]
fn a_crowd_signing_in_at_once_keeps_the_server_under_150_mib() {
    if !std::path::Path::new("/proc/self/status").exists() {
        eprintln!("no /proc here: the memory of the server cannot be read");
        return;
    }
    let Crowd { before, peak } = crowd_signs_in();
    assert!(
        peak < 150.0,
        "the server peaked at {peak:.0} MiB (from {before:.0} MiB) for 200 sign-ins at once"
    );
}

/// The served binary's peak memory before and after a crowd's sign-in.
struct Crowd {
    before: f64,
    peak: f64,
}

/// 100 referees and 100 unknown names sign in at the same moment; each
/// referee is let in and each unknown name refused.
fn crowd_signs_in() -> Crowd {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("kraal.db").display());
    {
        let pool = Database::parse(&url, false).unwrap().open(2).unwrap();
        let mut conn = pool.get().unwrap();
        // One real hash, shared: a hundred accounts hashed one by one
        // would take the test's time, not the server's.
        let hash = kraal::accounts::hash_password(common::PASSWORD).unwrap();
        for i in 0..100 {
            kraal::director::commit(&mut conn, None, |w| {
                kraal::db::users::create(w, &format!("referee{i}"), Role::Referee, &hash)
            })
            .unwrap();
        }
    }
    let server = common::Served::start(&url, |_| {});
    let base = server.base.clone();
    let before = peak_mib(server.child.id());

    let crowd: Vec<std::thread::JoinHandle<u16>> = (0..200)
        .map(|i| {
            let base = base.clone();
            std::thread::spawn(move || {
                let mut c = common::Client::new(&base);
                c.get("/login");
                let name = if i < 100 {
                    format!("referee{i}")
                } else {
                    format!("visitor{i}")
                };
                c.post("/login", &[("name", &name), ("password", common::PASSWORD)])
                    .status
            })
        })
        .collect();
    let statuses: Vec<u16> = crowd.into_iter().map(|t| t.join().unwrap()).collect();
    let peak = peak_mib(server.child.id());
    drop(server);

    assert_eq!(
        statuses.iter().filter(|&&s| s == 303).count(),
        100,
        "every referee is signed in: {statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|&&s| s == 401).count(),
        100,
        "every unknown name is refused: {statuses:?}"
    );
    Crowd { before, peak }
}

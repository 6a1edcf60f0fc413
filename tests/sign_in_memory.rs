//! A crowd signing in at once (the start of a round at a big venue) does not
//! swell the server: the served binary stays under 150 MiB through 100
//! correct and 100 unknown-name sign-ins at the same moment, and every one
//! gets its answer. In a test binary of its own: it measures a process.

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

#[test]
fn a_crowd_signing_in_at_once_keeps_the_server_under_150_mib() {
    if !std::path::Path::new("/proc/self/status").exists() {
        eprintln!("no /proc here: the memory of the server cannot be read");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("kraal.db").display());
    {
        let pool = Database::parse(&url, false).unwrap().open(2).unwrap();
        let mut conn = pool.get().unwrap();
        // One real hash, shared: a hundred accounts hashed one by one
        // would take the test's time, not the server's.
        let hash = kraal::accounts::hash_password(common::PASSWORD).unwrap();
        for i in 0..100 {
            kraal::db::users::create(&mut conn, &format!("referee{i}"), Role::Referee, &hash)
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
    eprintln!("the server peaked at {peak:.0} MiB (from {before:.0} MiB)");

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
    assert!(
        peak < 150.0,
        "the server peaked at {peak:.0} MiB (from {before:.0} MiB) for 200 sign-ins at once"
    );
}

//! An unknown name costs the same time to refuse as a known one, so the
//! sign-in form does not tell which names have accounts. In a test binary
//! of its own: timings taken beside other tests' password checks would
//! measure those instead.

mod common;

use common::TestApp;
use kraal::db::users::Role;

/// An unknown name gets the answer a wrong password gets: the same status
/// and the same page but for the name typed in.
#[test]
fn an_unknown_name_is_refused_as_a_wrong_password_is() {
    let app = TestApp::start("sqlite");
    app.user("thandi", Role::Referee);
    let refuse = |name: &str| {
        let mut c = app.client();
        c.get("/login");
        let reply = c.post("/login", &[("name", name), ("password", "wrong")]);
        let csrf = c.cookies.get("kraal_csrf").cloned().unwrap_or_default();
        (
            reply.status,
            reply.body.replace(name, "NAME").replace(&csrf, "CSRF"),
        )
    };
    let (known, unknown) = (refuse("thandi"), refuse("nobody-here"));
    assert_eq!(known.0, 401);
    assert_eq!(known, unknown, "the answer tells a known name from another");
}

/// Timed: part of the performance run (docs/performance.md), `cargo test
/// --release --test sign_in_timing -- --ignored`.
#[test]
#[ignore = "timing: part of the performance run (docs/performance.md)"]
fn an_unknown_name_takes_as_long_to_refuse_as_a_known_one() {
    let app = TestApp::start("sqlite");
    app.user("thandi0", Role::Referee);
    app.user("thandi1", Role::Referee);
    // Known and unknown in turn, so that both meet the same load; the best
    // of eight of each is the cost of the check itself.
    let once = |name: &str, i: usize| {
        let mut c = app.client();
        c.get("/login");
        let start = std::time::Instant::now();
        let reply = c.post(
            "/login",
            &[("name", name), ("password", &format!("wrong {i}"))],
        );
        assert_eq!(reply.status, 401);
        start.elapsed()
    };
    let (mut known, mut unknown) = (std::time::Duration::MAX, std::time::Duration::MAX);
    for i in 0..8 {
        // Four wrong passwords per name: below the throttle's five.
        let name = format!("thandi{}", i / 4);
        known = known.min(once(&name, i));
        unknown = unknown.min(once(&format!("nobody-here-{i}"), i));
    }
    let ratio = unknown.as_secs_f64() / known.as_secs_f64();
    assert!(
        (0.6..1.6).contains(&ratio),
        "known name {known:?}, unknown name {unknown:?}: the timing tells them apart"
    );
}

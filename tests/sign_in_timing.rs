//! An unknown name costs the same time to refuse as a known one, so the
//! sign-in form does not tell which names have accounts. In a test binary
//! of its own: timings taken beside other tests' password checks would
//! measure those instead.

mod common;

use common::TestApp;
use kraal::db::users::Role;

#[test]
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

//! What an attacker tries at the door: a sign-in that sends the browser to
//! another site, a `next` that cannot go into a header, and refusals that
//! leave without the security headers.

#![allow(clippy::unwrap_used)]

mod common;

use common::TestApp;
use kraal::db::users::Role;

#[test]
fn after_sign_in_only_a_path_of_this_site_is_followed() {
    for app in TestApp::all() {
        app.user("thandi", Role::Referee);
        for (next, to) in [
            ("/t/3/standings?x=1", "/t/3/standings?x=1"),
            ("/\t/evil.example", "/"),
            ("//evil.example", "/"),
            ("/\\evil.example", "/"),
            ("https://evil.example/", "/"),
            ("/\n", "/"),
            ("/\r\nSet-Cookie: x=1", "/"),
            ("/\u{b}", "/"),
            ("/caf\u{e9}", "/"),
        ] {
            let mut c = app.client();
            c.get("/login");
            let reply = c.post(
                "/login",
                &[
                    ("name", "thandi"),
                    ("password", common::PASSWORD),
                    ("next", next),
                ],
            );
            assert_eq!(reply.status, 303, "next={next:?}: {}", reply.body);
            assert_eq!(reply.location.as_deref(), Some(to), "next={next:?}");
        }
    }
}

#[test]
fn every_refusal_carries_the_security_headers() {
    let app = TestApp::start("sqlite");
    let admin = app.user("admin", Role::Admin);
    let t = common::tournament(&app, &admin, "Header Open");
    let mut signed_in = app.client_as(&admin);
    let revoked = {
        let token = kraal::accounts::new_token();
        kraal::db::auth::create_token(
            &mut app.conn(),
            admin.id,
            "old",
            &kraal::accounts::token_digest(&token),
        )
        .unwrap();
        let id = kraal::db::auth::tokens_of(&mut app.conn(), admin.id).unwrap()[0].id;
        kraal::db::auth::revoke_token(&mut app.conn(), admin.id, id).unwrap();
        token
    };
    let big = "x".repeat(5 * 1024 * 1024);
    let replies = [
        (
            "a form without its CSRF token",
            signed_in.post_raw(&format!("/t/{}/rounds", t.id), &[]),
            403,
        ),
        (
            "a revoked token",
            app.script(&revoked).get("/api/v1/me"),
            401,
        ),
        (
            "a bad Authorization header",
            app.client()
                .get_with_header("/api/v1/me", "Authorization", "Basic abc"),
            400,
        ),
        (
            "an over-size form",
            signed_in.post(&format!("/t/{}/edit", t.id), &[("name", &big)]),
            413,
        ),
        (
            "a page that does not exist",
            app.client().get("/nowhere"),
            404,
        ),
    ];
    for (what, reply, status) in replies {
        assert_eq!(reply.status, status, "{what}: {}", reply.body);
        for header in [
            "content-security-policy",
            "x-frame-options",
            "x-content-type-options",
            "referrer-policy",
        ] {
            assert!(
                reply.headers.contains_key(header),
                "{what} ({status}) has no {header}: {:?}",
                reply.headers
            );
        }
    }
}

#[test]
fn an_api_path_with_an_impossible_id_answers_in_json() {
    let app = TestApp::start("sqlite");
    for path in [
        "/api/v1/tournaments/99999999999999999999/standings",
        "/api/v1/tournaments/99999999999999999999/rounds/1",
    ] {
        let reply = app.client().get(path);
        assert_eq!(reply.status, 404, "{path}");
        assert!(
            reply.content_type.contains("json"),
            "{path}: {}",
            reply.content_type
        );
        assert_eq!(reply.json()["code"], "not_found", "{path}: {}", reply.body);
    }
    let page = app.client().get("/t/99999999999999999999");
    assert_eq!(page.status, 404);
    assert!(page.content_type.contains("html"));
}

#[test]
fn the_page_that_shows_a_new_token_is_never_cached() {
    let app = TestApp::start("sqlite");
    let sipho = app.user("sipho", Role::Referee);
    let mut c = app.client_as(&sipho);
    let reply = c.post("/account/tokens", &[("label", "results uploader")]);
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.headers.get("cache-control").map(String::as_str),
        Some("no-store")
    );
    let refused = c.post("/account/tokens", &[("label", "")]);
    assert_eq!(refused.status, 422, "{}", refused.body);
}

#[test]
fn sixty_simultaneous_wrong_passwords_get_at_most_five_checks() {
    for app in TestApp::all() {
        app.user("nomsa", Role::Referee);
        let statuses: Vec<u16> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..60)
                .map(|i| {
                    let app = &app;
                    s.spawn(move || {
                        let mut c = app.client();
                        c.sign_in("nomsa", &format!("guess number {i}")).status
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let checked = statuses.iter().filter(|&&s| s == 401).count();
        let refused = statuses.iter().filter(|&&s| s == 429).count();
        assert_eq!(checked + refused, 60, "[{}] {statuses:?}", app.backend);
        assert!(
            checked <= 5,
            "[{}] {checked} passwords were checked",
            app.backend
        );
        // The right password is refused too while the name is locked.
        assert_eq!(app.client().sign_in("nomsa", common::PASSWORD).status, 429);
    }
}

#[test]
fn ten_people_signing_in_at_once_with_the_right_password_all_get_in() {
    // A results desk whose helpers share one account all sign in at the
    // same moment: the throttle is for wrong passwords, and no helper is
    // turned away while the others' right ones are being checked.
    for app in TestApp::all() {
        app.user("desk", Role::Referee);
        let statuses: Vec<u16> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..10)
                .map(|_| {
                    let app = &app;
                    s.spawn(move || app.client().sign_in("desk", common::PASSWORD).status)
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(
            statuses.iter().all(|&s| s == 303),
            "[{}] {statuses:?}",
            app.backend
        );
        // Five wrong ones still lock the name afterwards.
        for _ in 0..5 {
            assert_eq!(app.client().sign_in("desk", "not the password").status, 401);
        }
        assert_eq!(app.client().sign_in("desk", common::PASSWORD).status, 429);
    }
}

#[test]
fn a_control_character_in_a_text_field_is_refused_by_name_on_both_backends() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut api = app.script_for(&admin);
        let t = common::tournament(&app, &admin, "Control Open");
        for (path, body, field) in [
            (
                format!("/api/v1/tournaments/{}/players", t.id),
                serde_json::json!({"name": "nul\u{0}byte"}),
                "name",
            ),
            (
                format!("/api/v1/tournaments/{}/players", t.id),
                serde_json::json!({"name": "Sipho Dlamini", "club": "bell\u{7}club"}),
                "club",
            ),
            (
                "/api/v1/tournaments".to_string(),
                serde_json::json!({"name": "Open\u{1b}[31m", "rounds": 5}),
                "name",
            ),
        ] {
            let reply = api.send_json("POST", &path, body);
            assert_eq!(
                reply.status, 422,
                "[{}] {path}: {}",
                app.backend, reply.body
            );
            let json = reply.json();
            assert_eq!(json["field"], field, "[{}] {}", app.backend, reply.body);
            assert_eq!(json["code"], "control_character", "{}", reply.body);
        }
        assert!(kraal::db::players::list(&mut app.conn(), t.id)
            .unwrap()
            .is_empty());
        // The sign-in form with a NUL in the name is a wrong sign-in, not a 500.
        let mut c = app.client();
        c.get("/login");
        let reply = c.post("/login", &[("name", "a\u{0}b"), ("password", "whatever1")]);
        assert_eq!(reply.status, 401, "[{}] {}", app.backend, reply.body);
        // A form says it by the field too.
        let mut page = app.client_as(&admin);
        let reply = page.post(
            &format!("/t/{}/players", t.id),
            &[("name", "Thabo\u{0}Mokoena")],
        );
        assert_eq!(reply.status, 422, "[{}] {}", app.backend, reply.body);
        assert!(
            reply.body.contains("data-error-field=\"name\"") && reply.body.contains("(U+0000)"),
            "{}",
            reply.body
        );
    }
}

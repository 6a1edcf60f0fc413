//! What an attacker tries at the door: a sign-in that sends the browser to
//! another site, a `next` that cannot go into a header, and refusals that
//! leave without the security headers.

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
            400,
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
        assert_eq!(reply.json()["error"], "No such page.");
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

//! Setup, sign-in, sign-out, throttling, referees and API tokens, over HTTP.

#![allow(clippy::unwrap_used)]

mod common;

use common::{attr_values, field_error, has_attr, text_of, TestApp, PASSWORD};
use kraal::db::users::Role;

#[test]
fn the_first_visitor_creates_the_admin_once() {
    for app in TestApp::all() {
        let mut c = app.client();
        let home = c.get("/");
        assert!(
            home.body.contains("href=\"/setup\""),
            "{}: home should point to setup",
            app.backend
        );
        assert_eq!(c.get("/login").location.as_deref(), Some("/setup"));

        let form = c.get("/setup");
        assert_eq!(form.status, 200);
        // Mismatched passwords come back next to the field, the name kept.
        let bad = c.post(
            "/setup",
            &[
                ("name", "thandi"),
                ("password", "secret123"),
                ("password2", "secret124"),
            ],
        );
        assert_eq!(bad.status, 422, "{}", app.backend);
        assert!(
            field_error(&bad.body, "password2").is_some(),
            "{}",
            bad.body
        );
        assert!(bad.body.contains("value=\"thandi\""));

        let ok = c.post(
            "/setup",
            &[
                ("name", "thandi"),
                ("password", "secret123"),
                ("password2", "secret123"),
            ],
        );
        assert_eq!(ok.status, 303, "{}: {}", app.backend, ok.body);
        assert_eq!(
            attr_values(&c.get("/account").body, "data-account"),
            ["thandi"]
        );

        // Setup is closed for everyone once an account exists.
        let mut other = app.client();
        assert_eq!(other.get("/setup").status, 404);
        let again = other.post(
            "/setup",
            &[
                ("name", "mallory"),
                ("password", "secret123"),
                ("password2", "secret123"),
            ],
        );
        assert_eq!(again.status, 403, "no CSRF cookie yet");
        other.get("/login");
        let again = other.post(
            "/setup",
            &[
                ("name", "mallory"),
                ("password", "secret123"),
                ("password2", "secret123"),
            ],
        );
        assert_eq!(again.status, 404);
        assert!(kraal::db::users::find_by_name(&mut app.conn(), "mallory")
            .unwrap()
            .is_none());
    }
}

#[test]
fn signing_in_rotates_the_session_and_signing_out_ends_it() {
    for app in TestApp::all() {
        app.user("sipho", Role::Referee);
        let mut c = app.client();
        c.get("/login");
        let pre_csrf = c.cookies.get("kraal_csrf").cloned().unwrap();
        let wrong = c.post(
            "/login",
            &[("name", "sipho"), ("password", "wrong-password")],
        );
        assert_eq!(wrong.status, 401);
        assert!(has_attr(&wrong.body, "id", "login-error"), "{}", wrong.body);
        assert!(wrong.body.contains("value=\"sipho\""));

        let ok = c.post(
            "/login",
            &[
                ("name", "sipho"),
                ("password", PASSWORD),
                ("next", "/account"),
            ],
        );
        assert_eq!(ok.status, 303);
        assert_eq!(ok.location.as_deref(), Some("/account"));
        let session = c
            .cookies
            .get("kraal_session")
            .cloned()
            .expect("session cookie");
        assert_ne!(
            c.cookies.get("kraal_csrf").unwrap(),
            &pre_csrf,
            "CSRF token rotated at sign-in"
        );
        assert_eq!(c.get("/account").status, 200);

        // A second sign-in gets a new session id, and the old one is dead.
        let mut stale = app.client();
        stale.cookies = c.cookies.clone();
        c.post("/login", &[("name", "sipho"), ("password", PASSWORD)]);
        assert_ne!(c.cookies.get("kraal_session").unwrap(), &session);
        assert_eq!(stale.get("/account").status, 401);

        // An off-site "next" is ignored.
        let mut d = app.client();
        d.get("/login");
        let r = d.post(
            "/login",
            &[
                ("name", "sipho"),
                ("password", PASSWORD),
                ("next", "//evil.example/"),
            ],
        );
        assert_eq!(r.location.as_deref(), Some("/"));

        let copy = c.cookies.clone();
        assert_eq!(c.post("/logout", &[]).status, 303);
        assert_eq!(c.get("/account").status, 401);
        let mut replay = app.client();
        replay.cookies = copy;
        assert_eq!(
            replay.get("/account").status,
            401,
            "a signed-out session cannot be replayed"
        );
    }
}

#[test]
fn repeated_failures_throttle_sign_in_for_that_name() {
    for app in TestApp::all() {
        app.user("lerato", Role::Referee);
        app.user("naledi", Role::Referee);
        let mut c = app.client();
        c.get("/login");
        for _ in 0..5 {
            assert_eq!(
                c.post("/login", &[("name", "lerato"), ("password", "guess-guess")])
                    .status,
                401
            );
        }
        let blocked = c.post("/login", &[("name", "lerato"), ("password", PASSWORD)]);
        assert_eq!(blocked.status, 429, "{}", app.backend);
        assert!(
            has_attr(&blocked.body, "data-status", "429")
                && text_of(&blocked.body, "role", "alert").is_some_and(|e| e.contains("'lerato'")),
            "the refusal names the account: {}",
            blocked.body
        );
        // Another account is not affected.
        assert_eq!(
            c.post("/login", &[("name", "naledi"), ("password", PASSWORD)])
                .status,
            303
        );
    }
}

#[test]
fn forms_without_the_csrf_token_are_refused() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut c = app.client_as(&admin);
        let r = c.post_raw("/t", &[("name", "Forged Open"), ("rounds", "5")]);
        assert_eq!(r.status, 403);
        assert_eq!(common::refusal_of(&r.body).0, "foreign_form", "{}", r.body);
        let r = c.post_raw(
            "/t",
            &[
                ("name", "Forged Open"),
                ("rounds", "5"),
                ("csrf", &"0".repeat(64)),
            ],
        );
        assert_eq!(r.status, 403);
        assert!(kraal::db::tournaments::list(&mut app.conn())
            .unwrap()
            .is_empty());
    }
}

#[test]
fn an_admin_creates_a_referee_who_edits_only_assigned_tournaments() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut a = app.client_as(&admin);
        let dup = a.post(
            "/admin/users",
            &[
                ("name", "admin"),
                ("role", "referee"),
                ("password", "secret123"),
            ],
        );
        assert_eq!(dup.status, 422);
        assert!(field_error(&dup.body, "name").is_some(), "{}", dup.body);
        let short = a.post(
            "/admin/users",
            &[("name", "mpho"), ("role", "referee"), ("password", "short")],
        );
        assert_eq!(short.status, 422);
        assert!(
            field_error(&short.body, "password").is_some(),
            "{}",
            short.body
        );
        assert_eq!(
            a.post(
                "/admin/users",
                &[
                    ("name", "mpho"),
                    ("role", "referee"),
                    ("password", "mpho-pass-1")
                ]
            )
            .status,
            303
        );
        assert!(a.get("/admin/users").body.contains("mpho"));

        let t = common::tournament(&app, &admin, "Limpopo Championship");
        let mut r = app.client();
        assert_eq!(r.sign_in("mpho", "mpho-pass-1").status, 303);
        assert_eq!(r.get("/admin/users").status, 403);
        let edit = format!("/t/{}/edit", t.id);
        assert_eq!(r.get(&edit).status, 403);
        assert_eq!(
            r.post(
                &format!("/t/{}/players", t.id),
                &[("name", "Kagiso Molefe")]
            )
            .status,
            403
        );

        let mpho = kraal::db::users::find_by_name(&mut app.conn(), "mpho")
            .unwrap()
            .unwrap();
        let uid = mpho.id.to_string();
        assert_eq!(
            a.post(&format!("/t/{}/referees", t.id), &[("user_id", &uid)])
                .status,
            303
        );
        assert!(a
            .get(&format!("/t/{}", t.id))
            .body
            .contains("<dd>mpho</dd>"));
        assert_eq!(r.get(&edit).status, 200);
        assert_eq!(
            r.post(
                &format!("/t/{}/players", t.id),
                &[("name", "Kagiso Molefe")]
            )
            .status,
            303
        );

        assert_eq!(
            a.post(&format!("/t/{}/referees/{}/remove", t.id, mpho.id), &[])
                .status,
            303
        );
        assert_eq!(r.get(&edit).status, 403);

        // A referee's own new tournament is theirs to run.
        let created = r.post("/t", &[("name", "Mpho's Friday Swiss"), ("rounds", "4")]);
        assert_eq!(created.status, 303);
        let own = created.location.unwrap();
        assert_eq!(r.get(&format!("{own}/edit")).status, 200);
    }
}

#[test]
fn api_tokens_act_for_scripts_until_revoked() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut a = app.client_as(&admin);
        let page = a.post("/account/tokens", &[("label", "results uploader")]);
        assert_eq!(page.status, 200);
        let token = page
            .body
            .split("<code id=\"new-token\">")
            .nth(1)
            .and_then(|s| s.split('<').next())
            .expect("the new token is shown once")
            .to_string();
        assert_eq!(token.len(), 64);
        assert!(
            !a.get("/account").body.contains(&token),
            "the token is never shown again"
        );

        let mut s = app.script(&token);
        let me = s.get("/api/v1/me");
        assert_eq!(me.status, 200);
        assert_eq!(me.json()["name"], "admin");
        // A script needs no CSRF token: the bearer header is not sent by browsers on their own.
        let created = s.post_raw("/t", &[("name", "Scripted Open"), ("rounds", "6")]);
        assert_eq!(created.status, 303, "{}", created.body);
        assert!(a.get("/account").body.contains("results uploader"));

        let id = kraal::db::auth::tokens_of(&mut app.conn(), admin.id).unwrap()[0].id;
        assert_eq!(
            a.post(&format!("/account/tokens/{id}/revoke"), &[]).status,
            303
        );
        assert_eq!(s.get("/api/v1/me").status, 401);
        assert_eq!(app.script("not-a-token").get("/api/v1/me").status, 401);
    }
}

#[test]
fn unknown_pages_answer_404_in_the_site_layout() {
    for app in TestApp::all() {
        let mut c = app.client();
        for path in ["/no/such/page", "/t/999999", "/t/abc"] {
            let r = c.get(path);
            assert_eq!(r.status, 404, "{path}");
            assert!(r.body.contains("<header class=\"site\">"), "{path}");
        }
    }
}

/// Someone who learnt a referee's password is locked out by the change:
/// the referee's other sessions end and their API tokens stop working; the
/// browser the password was changed from stays signed in.
#[test]
fn a_new_password_ends_the_other_sessions_and_the_tokens() {
    for app in TestApp::all() {
        let user = app.user("palesa", Role::Referee);
        let mut here = app.client();
        here.sign_in("palesa", common::PASSWORD);
        let mut elsewhere = app.client();
        elsewhere.sign_in("palesa", common::PASSWORD);
        let mut script = app.script_for(&user);
        assert_eq!(elsewhere.get("/account").status, 200);
        assert_eq!(script.get("/api/v1/me").status, 200);

        let r = here.post(
            "/account/password",
            &[
                ("current", common::PASSWORD),
                ("password", "a-fresh-pass-2026"),
                ("password2", "a-fresh-pass-2026"),
            ],
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(has_attr(&r.body, "role", "status"), "a notice: {}", r.body);

        assert_eq!(
            here.get("/account").status,
            200,
            "[{}] still signed in here",
            app.backend
        );
        let other = elsewhere.get("/account");
        assert!(
            other.status == 303 || other.status == 401,
            "[{}] the other session must end: {}",
            app.backend,
            other.status
        );
        assert_eq!(
            script.get("/api/v1/me").status,
            401,
            "[{}] the token is revoked",
            app.backend
        );
        let mut fresh = app.client();
        let signed = fresh.sign_in("palesa", "a-fresh-pass-2026");
        assert_eq!(signed.status, 303, "the new password signs in");
    }
}

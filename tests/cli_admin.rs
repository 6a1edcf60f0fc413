//! The command line of an installation: accounts, tokens, migrations, and
//! plain one-line refusals of bad database URLs.

#![allow(clippy::unwrap_used)]

mod common;

use common::cli::kraal;

#[test]
fn bad_database_urls_stop_with_one_line_naming_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("typo.db");
    let cases = [
        (missing.to_str().unwrap().to_string(), "does not exist"),
        (
            "mysql://localhost/kraal".to_string(),
            "unsupported database URL scheme 'mysql'",
        ),
        (
            "postgres://kraal:hunter22@127.0.0.1:1/kraal".to_string(),
            "cannot connect to postgres://kraal:***@127.0.0.1:1/kraal",
        ),
        (
            format!("sqlite://{}/no/such/folder/k.db", dir.path().display()),
            "folder",
        ),
    ];
    for (url, says) in cases {
        let (code, _, err) = kraal(&["migrate", "--database", &url]).run();
        assert_eq!(code, 2, "{url}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{url}: one line, got {err}");
        assert!(err.contains(says), "{url}: {err}");
        assert!(
            !err.contains("hunter22") && !err.contains("panicked"),
            "{err}"
        );
    }
    assert!(!missing.exists(), "a typo never creates a database");
}

#[test]
fn scripted_installs_add_users_and_tokens() {
    for backend in common::backends() {
        let app = common::TestApp::start(backend);
        let url = app.database_url.clone();
        let account_changes = || kraal::db::audit::count(&mut app.conn(), None).unwrap();
        let before = account_changes();
        let (code, out, err) = kraal(&["user", "add", "zanele", "--admin", "--database", &url])
            .stdin("zanele-pass\n")
            .run();
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("created admin zanele"));
        assert_eq!(
            account_changes(),
            before + 1,
            "[{backend}] an account made from the command line is recorded like one made on the page"
        );
        let (code, _, err) = kraal(&["user", "add", "zanele", "--referee", "--database", &url])
            .stdin("another-pass\n")
            .run();
        assert_eq!(code, 1);
        assert!(err.contains("already exists"), "{err}");
        assert_eq!(
            account_changes(),
            before + 1,
            "a refused account records nothing"
        );
        for (args, recorded) in [
            (vec!["user", "publisher", "zanele"], 2),
            (vec!["user", "publisher", "zanele"], 2),
            (vec!["user", "publisher", "zanele", "--revoke"], 3),
        ] {
            let mut args = args.clone();
            args.extend(["--database", &url]);
            let (code, _, err) = kraal(&args).run();
            assert_eq!(code, 0, "{err}");
            assert_eq!(
                account_changes(),
                before + recorded,
                "[{backend}] {args:?}: the right to publish is recorded when it changes"
            );
        }
        let (code, _, err) = kraal(&["user", "add", "bheki", "--referee", "--database", &url])
            .stdin("short\n")
            .run();
        assert_eq!(code, 2);
        assert!(err.contains("at least 8 characters"));

        let (code, token, err) = kraal(&[
            "token",
            "create",
            "zanele",
            "--label",
            "league sync",
            "--database",
            &url,
        ])
        .run();
        assert_eq!(code, 0, "{err}");
        let me = app.script(token.trim()).get("/api/v1/me");
        assert_eq!(me.status, 200);
        assert_eq!(me.json()["role"], "admin");
        let mut c = app.client();
        assert_eq!(
            c.sign_in("zanele", "zanele-pass").status,
            303,
            "[{backend}] the piped password signs in"
        );

        let (code, _, err) = kraal(&["token", "create", "nobody", "--database", &url]).run();
        assert_eq!(code, 1);
        assert!(err.contains("no user named 'nobody'"));
    }
}

#[test]
fn a_new_sqlite_file_is_created_and_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fresh.db");
    let url = format!("sqlite://{}", file.display());
    let (code, out, err) = kraal(&["migrate", "--database", &url]).run();
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("up to date"));
    assert!(file.exists());
    // Running again is harmless, and a bare path now works since the file exists.
    let (code, _, _) = kraal(&["migrate", "--database", file.to_str().unwrap()]).run();
    assert_eq!(code, 0);
}

/// A backup taken while the app serves and a referee saves results holds
/// every tournament and result saved before it, and opens as a Kraal
/// database of its own; an existing file is never overwritten.
#[test]
fn a_backup_of_a_running_app_holds_what_was_saved() {
    let app = common::TestApp::start("sqlite");
    let admin = app.user("thandi", kraal::db::users::Role::Admin);
    let mut api = app.script_for(&admin);
    let tid = api.create(
        "/api/v1/tournaments",
        serde_json::json!({"name": "Polokwane Open", "rules": "official", "rounds": 3}),
    )["id"]
        .as_i64()
        .unwrap();
    for name in [
        "Tshepo Molefe",
        "Lerato Nkosi",
        "Karabo Dube",
        "Mpho Sithole",
    ] {
        api.create(
            &format!("/api/v1/tournaments/{tid}/players"),
            serde_json::json!({ "name": name }),
        );
    }
    let pairings = common::pair(&mut api, tid);
    common::put(&mut api, &pairings[0]["games"][0], "1-0");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("kraal-backup.db");
    let (code, out, err) = kraal(&["backup", file.to_str().unwrap()])
        .database_url(&app.database_url)
        .run();
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("backed up to"), "{out}");
    // The copy is a database the app opens: same standings, same result.
    let (code, copy, err) = kraal(&["export", "standings", &tid.to_string()])
        .database_url(&format!("sqlite://{}", file.display()))
        .run();
    assert_eq!(code, 0, "{err}");
    let (_, live, _) = kraal(&["export", "standings", &tid.to_string()])
        .database_url(&app.database_url)
        .run();
    assert_eq!(copy, live);
    assert!(copy.contains("Tshepo Molefe") || copy.contains("Lerato Nkosi"));
    let (code, _, err) = kraal(&["backup", file.to_str().unwrap()])
        .database_url(&app.database_url)
        .run();
    assert_eq!(code, 2);
    assert!(err.contains("already exists"), "{err}");
}

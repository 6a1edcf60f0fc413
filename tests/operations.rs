//! Running Kraal as an operator does: the health check a load balancer
//! polls, one log line per request (without the secrets of links), and a
//! clean stop on SIGTERM.

#![allow(clippy::unwrap_used)]

mod common;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Served, TestApp};
use kraal::db::users::Role;

#[test]
fn the_health_check_says_the_database_answers() {
    for app in TestApp::all() {
        let r = app.client().get("/healthz");
        assert_eq!(r.status, 200, "[{}] {}", app.backend, r.body);
        assert_eq!(r.json()["status"], "ok");
    }
}

#[test]
fn a_served_app_logs_each_request_and_stops_cleanly_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let mut served = Served::start(
        &format!("sqlite://{}", dir.path().join("kraal.db").display()),
        |c| {
            c.env("KRAAL_LOG", "warn,kraal::request=info")
                .stderr(Stdio::piped());
        },
    );
    let server = &mut served.child;
    let agent = ureq::AgentBuilder::new().redirects(0).build();
    let base = served.base.clone();
    let _ = agent
        .get(&format!("{base}/captain/a-captains-secret-link"))
        .call();
    let _ = agent.get(&format!("{base}/login")).call();

    let stop = Instant::now();
    // The shell's own `kill`: no procps needed.
    let killed = Command::new("sh")
        .args(["-c", &format!("kill -TERM {}", server.id())])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = loop {
        if let Some(s) = server.try_wait().unwrap() {
            break s;
        }
        assert!(
            stop.elapsed() < Duration::from_secs(10),
            "no stop after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "SIGTERM ends the app cleanly: {status:?}");
    let mut log = String::new();
    server
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    assert!(log.contains("GET /healthz 200"), "{log}");
    assert!(
        log.contains("GET /login 303"),
        "the first visit goes to setup: {log}"
    );
    assert!(log.contains("GET /captain/… 404"), "{log}");
    assert!(
        !log.contains("a-captains-secret-link"),
        "a link's secret stays out of the log: {log}"
    );
}

/// SIGTERM with nothing under way: a live page left open (its event
/// stream) and an idle kept-alive connection do not hold the app up: it
/// exits cleanly, well before the 30 s a write under way may take.
#[test]
fn sigterm_with_only_open_pages_stops_cleanly() {
    let took = stop_with_open_pages(Duration::from_secs(20));
    eprintln!("stopped {took:?} after SIGTERM");
}

/// The same, timed (a performance test: `cargo test --release --test
/// operations -- --ignored`): within two seconds.
#[test]
#[ignore = "timing: part of the performance run (docs/performance.md)"]
fn sigterm_with_only_open_pages_stops_within_two_seconds() {
    stop_with_open_pages(Duration::from_secs(2));
}

/// Serves, opens a live page and an idle connection, sends SIGTERM and
/// returns how long the app took to exit, failing past `within`.
fn stop_with_open_pages(within: Duration) -> Duration {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let mut served = Served::start(
        &format!("sqlite://{}", dir.path().join("kraal.db").display()),
        |_| {},
    );
    let address = served.base.trim_start_matches("http://").to_string();
    let mut page = std::net::TcpStream::connect(&address).unwrap();
    write!(page, "GET /t/1/events HTTP/1.1\r\nHost: {address}\r\n\r\n").unwrap();
    let mut first = [0u8; 64];
    let n = page.read(&mut first).unwrap();
    assert!(
        String::from_utf8_lossy(&first[..n]).starts_with("HTTP/1.1 200"),
        "the live page is open"
    );
    let mut idle = std::net::TcpStream::connect(&address).unwrap();
    write!(idle, "GET /healthz HTTP/1.1\r\nHost: {address}\r\n\r\n").unwrap();
    let _ = idle.read(&mut first).unwrap();

    let stop = Instant::now();
    let pid = served.child.id();
    Command::new("sh")
        .args(["-c", &format!("kill -TERM {pid}")])
        .status()
        .unwrap();
    let exit = loop {
        if let Some(s) = served.child.try_wait().unwrap() {
            break s;
        }
        assert!(
            stop.elapsed() < within,
            "no stop within {within:?} of SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(exit.success(), "{exit:?}");
    stop.elapsed()
}

/// Two app processes behind one load balancer share one PostgreSQL
/// database: a result saved through either shows on the pages of both.
#[test]
fn two_processes_on_one_postgresql_show_each_others_results() {
    two_processes_show_each_others_results(Duration::from_secs(20));
}

/// The same, timed (the performance run): within a second, as each
/// process's page cache rechecks the tournament's revision at most 250 ms
/// apart.
#[test]
#[ignore = "timing: part of the performance run (docs/performance.md)"]
fn two_processes_on_one_postgresql_show_each_others_results_within_a_second() {
    two_processes_show_each_others_results(Duration::from_secs(1));
}

fn two_processes_show_each_others_results(within: Duration) {
    let Some(app) = common::postgres_app() else {
        return;
    };
    let other = Served::start(&app.database_url, |_| {});
    let b = other.base.clone();
    let agent = ureq::AgentBuilder::new().redirects(0).build();
    let admin = app.user("director", kraal::db::users::Role::Admin);
    let mut here = app.script_for(&admin);
    let mut there = app.script_for(&admin);
    there.base = b.clone();
    let tid = here.create(
        "/api/v1/tournaments",
        serde_json::json!({"name": "Two Halls Open", "rules": "official", "rounds": 3}),
    )["id"]
        .as_i64()
        .unwrap();
    for name in [
        "Ayanda Zulu",
        "Bongi Mokoena",
        "Cebo Nkosi",
        "Dineo Dlamini",
    ] {
        there.create(
            &format!("/api/v1/tournaments/{tid}/players"),
            serde_json::json!({ "name": name }),
        );
    }
    let pairings = common::pair(&mut here, tid);
    let page = |base: &str| {
        agent
            .get(&format!("{base}/t/{tid}/standings"))
            .call()
            .unwrap()
            .into_string()
            .unwrap()
    };
    let games: Vec<&serde_json::Value> = pairings
        .iter()
        .flat_map(|p| p["games"].as_array().unwrap())
        .collect();
    // Both processes have the standings cached before the results, every
    // result missing.
    let missing = |page: &str| common::attr_values(page, "data-missing");
    for base in [&app.base, &b] {
        assert_eq!(missing(&page(base)), [games.len().to_string()], "{base}");
    }
    for (k, g) in games.iter().enumerate() {
        // Alternate processes: each result goes through one of the two.
        let client = if k % 2 == 0 { &mut here } else { &mut there };
        common::put(client, g, "1-0");
        let saved = Instant::now();
        for base in [&app.base, &b] {
            loop {
                let round = agent
                    .get(&format!("{base}/api/v1/tournaments/{tid}/rounds/1"))
                    .call()
                    .unwrap()
                    .into_json::<serde_json::Value>()
                    .unwrap();
                let entered = round["pairings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .flat_map(|p| p["games"].as_array().unwrap())
                    .filter(|g| g["result"] != "")
                    .count();
                if entered == k + 1 {
                    break;
                }
                assert!(
                    saved.elapsed() < within,
                    "{base}: result {} not shown after {within:?}",
                    k + 1
                );
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
    // The cached standings pages of both processes come to agree.
    let settled = Instant::now();
    loop {
        let (a, c) = (page(&app.base), page(&b));
        let strip = |s: &str| s.split("Last updated").next().unwrap_or("").to_string();
        if strip(&a) == strip(&c) && missing(&a) == ["0"] {
            break;
        }
        assert!(
            settled.elapsed() < within,
            "the two standings pages still differ after {within:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The OpenAPI description lists exactly the API's routes, each with its
/// path parameters and its answers.
#[test]
fn the_openapi_description_matches_the_route_table() {
    let app = TestApp::start("sqlite");
    let r = app.client().get("/api/v1/openapi.json");
    assert_eq!(r.status, 200);
    let doc = r.json();
    assert_eq!(doc["openapi"], "3.0.3");
    let paths = doc["paths"].as_object().unwrap();
    let mut described = std::collections::BTreeSet::new();
    for (path, ops) in paths {
        for (method, op) in ops.as_object().unwrap() {
            described.insert((method.to_uppercase(), path.clone()));
            assert!(
                op["responses"].as_object().is_some_and(|r| !r.is_empty()),
                "{method} {path}"
            );
            let params: Vec<&str> = op["parameters"]
                .as_array()
                .map(|a| a.iter().map(|p| p["name"].as_str().unwrap()).collect())
                .unwrap_or_default();
            for segment in path.split('/').filter(|s| s.starts_with('{')) {
                let name = segment.trim_matches(|c| c == '{' || c == '}');
                assert!(
                    params.contains(&name),
                    "{method} {path}: no parameter {name}"
                );
            }
        }
    }
    let routes: std::collections::BTreeSet<(String, String)> = kraal::web::routes::ROUTES
        .iter()
        .filter(|r| r.path.starts_with("/api/"))
        .map(|r| {
            let plain: Vec<String> = r
                .path
                .split('/')
                .map(|s| match s.strip_prefix('{') {
                    Some(rest) => format!("{{{}}}", rest.split([':', '}']).next().unwrap()),
                    None => s.to_string(),
                })
                .collect();
            (r.method.to_string(), plain.join("/"))
        })
        .collect();
    assert_eq!(
        described, routes,
        "docs/openapi.json and src/web/routes.rs list the same routes"
    );
}

/// A method a path does not have is 405 with the methods it has in
/// `Allow`, on every path of the route table (pages and API, signed in
/// or not), and never the page that does not exist; a path the app does
/// not have is still 404.
#[test]
fn a_method_a_path_does_not_have_is_405_with_the_methods_it_has() {
    let app = TestApp::start("sqlite");
    let admin = app.user("thandi", Role::Admin);
    let mut api = app.script_for(&admin);

    let r = api.send_bytes("TRACE", "/api/v1/me", "application/json", b"");
    assert_eq!(r.status, 405, "{}", r.body);
    assert_eq!(r.headers["allow"], "GET, HEAD");
    let body = r.json();
    assert_eq!(body["code"], "method_not_allowed");
    assert_eq!(body["params"]["method"], "TRACE");
    assert!(body["error"].as_str().unwrap().contains("TRACE"));

    let r = api.send_json("DELETE", "/api/v1/tournaments", serde_json::json!({}));
    assert_eq!(r.status, 405, "{}", r.body);
    assert_eq!(r.headers["allow"], "POST, GET, HEAD");

    // A page's form posted where only GET is: 405 before any CSRF check,
    // for a visitor and for a signed-in browser alike.
    let mut visitor = app.client();
    let r = visitor.post_raw("/login/nowhere", &[]);
    assert_eq!(r.status, 404, "a path the app does not have");
    let r = visitor.post_raw("/ratings", &[("q", "x")]);
    assert_eq!(r.status, 405, "{}", r.body);
    assert_eq!(r.headers["allow"], "GET, HEAD");
    let mut browser = app.client_as(&admin);
    let r = browser.post_raw("/admin/health", &[]);
    assert_eq!(r.status, 405, "{}", r.body);
    // The live stream answers GET alone.
    let r = visitor.head("/t/1/events");
    assert_eq!(r.status, 405);
    assert_eq!(r.headers["allow"], "GET");

    // Every path of the table, with a method none of them has.
    for path in kraal::web::routes::paths() {
        let sample: Vec<String> = path
            .split('/')
            .map(|s| match s.strip_prefix('{') {
                Some(p) if p.contains("\\d+") => "1".to_string(),
                Some(_) => "0123456789abcdef0123456789abcdef".to_string(),
                None => s.to_string(),
            })
            .collect();
        let sample = sample.join("/");
        for client in [&mut api, &mut visitor] {
            let r = client.send_bytes("PROPFIND", &sample, "text/plain", b"");
            assert_eq!(r.status, 405, "PROPFIND {sample}: {}", r.body);
            assert_eq!(
                r.headers.get("allow"),
                Some(&kraal::web::routes::allow(path).join(", ")),
                "PROPFIND {sample}"
            );
        }
    }
}

/// SIGTERM in the middle of a write: a result whose request has begun
/// (half its body sent when the signal comes) is still read, stored and
/// answered, and only then does the app exit.
#[test]
fn sigterm_lets_a_write_under_way_finish_and_store_it() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("kraal.db").display());
    let token = {
        let pool = kraal::db::Database::parse(&url, false)
            .unwrap()
            .open(1)
            .unwrap();
        let mut conn = pool.get().unwrap();
        let hash = kraal::accounts::hash_password(common::PASSWORD).unwrap();
        let admin = kraal::director::commit(&mut conn, None, |w| {
            kraal::db::users::create(w, "thandi", Role::Admin, &hash)
        })
        .unwrap();
        let token = kraal::accounts::new_token();
        kraal::db::auth::create_token(
            &mut conn,
            admin.id,
            "script",
            &kraal::accounts::token_digest(&token),
        )
        .unwrap();
        token
    };
    let mut server = Served::start(&url, |_| {});
    let mut api = common::Client::new(&server.base);
    api.bearer = Some(token.clone());
    let tid = api.create(
        "/api/v1/tournaments",
        serde_json::json!({"name": "Provincial Open", "rules": "gar", "rounds": 5}),
    )["id"]
        .as_i64()
        .unwrap();
    for name in [
        "Thabo Nkosi",
        "Sipho Dlamini",
        "Lerato Mokoena",
        "Zanele Khumalo",
    ] {
        api.create(
            &format!("/api/v1/tournaments/{tid}/players"),
            serde_json::json!({ "name": name }),
        );
    }
    let game = common::pair(&mut api, tid)[0]["games"][0]["id"]
        .as_i64()
        .unwrap();

    let body = br#"{"result": "1/2-1/2"}"#;
    let address = server.base.trim_start_matches("http://").to_string();
    // A live page: its stream ends when the app begins to stop.
    let mut page = std::net::TcpStream::connect(&address).unwrap();
    write!(
        page,
        "GET /t/{tid}/events HTTP/1.1\r\nHost: {address}\r\n\r\n"
    )
    .unwrap();
    // The stream is open once its head has come: a page whose request the
    // app had not read yet when it stopped would be reset, not ended.
    let head = read_head(&mut page);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let mut stream = std::net::TcpStream::connect(&address).unwrap();
    write!(
        stream,
        "PUT /api/v1/games/{game} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    // The app has read the request's head and waits for its body.
    let head = read_head(&mut stream);
    assert!(head.starts_with("HTTP/1.1 100"), "{head}");
    stream.write_all(&body[..8]).unwrap();
    stream.flush().unwrap();
    let pid = server.child.id();
    Command::new("sh")
        .args(["-c", &format!("kill -TERM {pid}")])
        .status()
        .unwrap();
    // The app is stopping once the live page's stream ends; the rest of
    // the body arrives after.
    page.set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut live = Vec::new();
    page.read_to_end(&mut live)
        .expect("the live page's stream ends within 20 s of SIGTERM");
    stream.write_all(&body[8..]).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(
        answer.starts_with("HTTP/1.1 200"),
        "the write under way is answered: {answer}"
    );
    let stop = Instant::now();
    let exit = loop {
        if let Some(s) = server.child.try_wait().unwrap() {
            break s;
        }
        assert!(
            stop.elapsed() < Duration::from_secs(30),
            "no stop after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(exit.success(), "{exit:?}");
    let pool = kraal::db::Database::parse(&url, false)
        .unwrap()
        .open(1)
        .unwrap();
    let stored =
        kraal::db::rounds::game_context(&mut pool.get().unwrap(), kraal::ids::GameId(game as i32))
            .unwrap()
            .game
            .result;
    assert_eq!(
        stored.map(|r| r.as_str()),
        Some("1/2-1/2"),
        "the result sent during the stop is stored"
    );
}

/// The head of a response (up to its blank line), read byte by byte so
/// that nothing after it is taken.
fn read_head(stream: &mut std::net::TcpStream) -> String {
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8];
    while !head.ends_with(b"\r\n\r\n") {
        let n = stream.read(&mut byte).expect("a response head within 20 s");
        assert_eq!(n, 1, "the connection closed after {head:?}");
        head.push(byte[0]);
    }
    String::from_utf8_lossy(&head).to_string()
}

/// A PostgreSQL test database goes with its test: none is left on the
/// server after its app is dropped.
#[test]
fn a_postgresql_test_database_is_dropped_with_its_app() {
    let Some(app) = common::postgres_app() else {
        return;
    };
    let admin = app.user("thandi", Role::Admin);
    common::tournament(&app, &admin, "Soweto Open");
    let url = app.database_url.clone();
    assert!(kraal::db::Database::parse(&url, false)
        .unwrap()
        .connect()
        .is_ok());
    drop(app);
    assert!(
        kraal::db::Database::parse(&url, false)
            .unwrap()
            .connect()
            .is_err(),
        "{url} is still there after its test"
    );
}

/// Under CI a PostgreSQL-only test without a PostgreSQL server fails
/// rather than passing without having run: this test binary, run again
/// with `CI` set and no server, must fail that test.
#[test]
fn a_postgresql_test_without_postgresql_fails_under_ci() {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "two_processes_on_one_postgresql_show_each_others_results",
        ])
        .env("CI", "true")
        .env_remove("KRAAL_TEST_POSTGRES_URL")
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "passed under CI without PostgreSQL:\n{said}"
    );
    assert!(
        said.contains("KRAAL_TEST_POSTGRES_URL is not set under CI"),
        "{said}"
    );
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "two_processes_on_one_postgresql_show_each_others_results",
        ])
        .env_remove("CI")
        .env_remove("KRAAL_TEST_POSTGRES_URL")
        .output()
        .unwrap();
    assert!(out.status.success(), "outside CI it is skipped");
}

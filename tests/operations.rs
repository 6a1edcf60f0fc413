//! Running Kraal as an operator does: the health check a load balancer
//! polls, one log line per request (without the secrets of links), and a
//! clean stop on SIGTERM.

mod common;

use std::io::Read;
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::TestApp;

#[test]
fn the_health_check_says_the_database_answers() {
    for app in TestApp::all() {
        let r = app.client().get("/healthz");
        assert_eq!(r.status, 200, "[{}] {}", app.backend, r.body);
        assert_eq!(r.json()["status"], "ok");
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn a_served_app_logs_each_request_and_stops_cleanly_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut server = Command::new(env!("CARGO_BIN_EXE_kraal"))
        .args([
            "serve",
            "--bind",
            &format!("127.0.0.1:{port}"),
            "--database",
            &format!("sqlite://{}", dir.path().join("kraal.db").display()),
        ])
        .env("KRAAL_LOG", "warn,kraal::request=info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let agent = ureq::AgentBuilder::new().redirects(0).build();
    let base = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    while agent.get(&format!("{base}/healthz")).call().is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the app did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = agent
        .get(&format!("{base}/captain/a-captains-secret-link"))
        .call();
    let _ = agent.get(&format!("{base}/login")).call();

    let stop = Instant::now();
    let killed = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
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

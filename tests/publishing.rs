//! A venue's Kraal (SQLite) keeps a federation's Kraal (PostgreSQL when
//! the run has it) up to date, as two real `kraal serve` processes: rounds
//! paired and scored at the venue appear at the target; while the target
//! is down the venue says so and keeps working, and after the target comes
//! back it catches up; a venue killed (SIGKILL) around its sends leaves no
//! duplicate and loses no round. And the targets that misbehave: an
//! endless error answer, words of the target's own, a silent target beside
//! a good one, an address that is not a base, a private address the admin
//! has not allowed.

#![allow(clippy::unwrap_used)]

mod common;

use std::time::{Duration, Instant};

use common::{attr_values, has_attr, Client, Served, TestApp};
use kraal::db::users::Role;
use serde_json::{json, Value};

/// Polls `done` every 100 ms for up to `limit`; how long it took.
fn within(limit: Duration, mut done: impl FnMut() -> bool) -> Option<Duration> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if done() {
            return Some(started.elapsed());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    None
}

fn get(base: &str, path: &str) -> Option<String> {
    ureq::get(&format!("{base}{path}"))
        .call()
        .ok()
        .and_then(|r| r.into_string().ok())
}

/// The target's copy of the venue's event, if there is one (exactly one is
/// checked): its id.
fn copy_at(target: &str, origin: &str) -> Option<i64> {
    let list: Value = serde_json::from_str(&get(target, "/api/v1/tournaments")?).ok()?;
    let copies: Vec<i64> = list["tournaments"]
        .as_array()?
        .iter()
        .filter(|t| t["origin"]["id"] == origin)
        .map(|t| t["id"].as_i64().unwrap())
        .collect();
    assert!(copies.len() <= 1, "one copy only: {copies:?}");
    copies.first().copied()
}

/// Whether the target shows the venue's standings and crosstable.
fn caught_up(venue: &str, vid: i64, target: &str, origin: &str) -> bool {
    let Some(tid) = copy_at(target, origin) else {
        return false;
    };
    ["standings.csv", "crosstable.csv"].iter().all(|what| {
        let here = get(venue, &format!("/t/{vid}/{what}"));
        here.is_some() && here == get(target, &format!("/t/{tid}/{what}"))
    })
}

/// A page's text as a reader sees it, without the moment it was last
/// updated (each server stamps its own).
fn visible(html: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = text.split("Last updated").next().unwrap_or("").to_string();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn play_round(api: &mut Client, tid: i64, result: &str) {
    for p in common::pair(api, tid) {
        if p["second_id"].is_null() {
            continue;
        }
        for g in p["games"].as_array().unwrap() {
            common::put(api, g, result);
        }
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The target's database, its publishing account's token, and the venue's
/// database with an eight-player Swiss set to publish there.
struct Setup {
    target_db: TestApp,
    venue_db: TestApp,
    target_port: u16,
    venue_api: Client,
    vid: i64,
    origin: String,
    /// The token the target issued to the venue's account.
    token: String,
}

fn setup(target_backend: &'static str) -> Setup {
    let target_db = TestApp::start(target_backend);
    let token = common::publisher_token(&target_db, "venue-laptop");
    let venue_db = TestApp::start("sqlite");
    let referee = venue_db.user("palesa", Role::Referee);
    let mut venue_api = venue_db.script_for(&referee);
    let names = [
        "Thabo Nkosi",
        "Lerato Dlamini",
        "Sipho Mokoena",
        "Naledi Khumalo",
        "Zanele Mahlangu",
        "Bongani Zulu",
        "Ayanda Shabalala",
        "Karabo Sithole",
    ];
    let entries: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(i, n)| json!({"name": n, "club": format!("Club {i}"), "rating": 1900 - 25 * i as i64}))
        .collect();
    let (vid, _) = common::api_tournament(
        &mut venue_api,
        json!({"name": "Free State Open", "rules": "official", "rounds": 3}),
        &entries,
    );
    let target_port = free_port();
    let set = venue_api.send_json(
        "PUT",
        &format!("/api/v1/tournaments/{vid}/publication"),
        json!({"to": format!("http://127.0.0.1:{target_port}"), "token": token}),
    );
    assert_eq!(set.status, 200, "{}", set.body);
    let origin = set.json()["origin"].as_str().unwrap().to_string();
    assert!(!set.body.contains(&token), "the token is never shown again");
    Setup {
        target_db,
        venue_db,
        target_port,
        venue_api,
        vid,
        origin,
        token,
    }
}

/// The venue's `kraal serve`, allowed to publish to this machine (its
/// targets here listen on loopback).
fn venue_process(s: &Setup, port: u16) -> Served {
    Served::start_on(port, &s.venue_db.database_url, |c| {
        c.args(["--site-name", "Bloemfontein City Hall"]);
        c.arg("--publish-allow-private");
    })
}

fn target_process(s: &Setup) -> Served {
    Served::start_on(s.target_port, &s.target_db.database_url, |_| {})
}

#[test]
fn a_venue_keeps_the_federation_up_to_date_and_catches_up_after_the_target_was_down() {
    let backend = if common::backends().contains(&"postgres") {
        "postgres"
    } else {
        "sqlite"
    };
    let mut s = setup(backend);
    let venue_port = free_port();
    let _venue = venue_process(&s, venue_port);
    let venue = format!("http://127.0.0.1:{venue_port}");
    let target = format!("http://127.0.0.1:{}", s.target_port);
    let mut target_served = target_process(&s);

    play_round(&mut s.venue_api, s.vid, "1-0");
    let took = within(Duration::from_secs(30), || {
        caught_up(&venue, s.vid, &target, &s.origin)
    });
    assert!(took.is_some(), "round 1 reached the target");
    let state = s
        .venue_api
        .get(&format!("/api/v1/tournaments/{}/publication", s.vid))
        .json();
    assert_eq!(state["state"], "current", "{state}");
    assert!(state["last_success_at"].is_string());

    // The target goes away for a round: the venue keeps working and says so.
    drop(target_served);
    play_round(&mut s.venue_api, s.vid, "0-1");
    let failing = within(Duration::from_secs(15), || {
        let st = s
            .venue_api
            .get(&format!("/api/v1/tournaments/{}/publication", s.vid))
            .json();
        st["state"] == "failing"
            && st["last_error"]
                .as_str()
                .is_some_and(|e| e.contains("did not answer"))
    });
    assert!(
        failing.is_some(),
        "the venue says it cannot reach the target"
    );

    target_served = target_process(&s);
    let took = within(Duration::from_secs(30), || {
        caught_up(&venue, s.vid, &target, &s.origin)
    });
    assert!(
        took.is_some(),
        "round 2 reached the target within 30 s of its return"
    );
    play_round(&mut s.venue_api, s.vid, "1/2-1/2");
    assert!(
        within(Duration::from_secs(30), || caught_up(
            &venue, s.vid, &target, &s.origin
        ))
        .is_some(),
        "round 3 reached the target"
    );
    // Every player's page reads the same on both (their ids differ).
    let tid = copy_at(&target, &s.origin).unwrap();
    let ids = |base: &str, t: i64| -> Vec<(String, i64)> {
        let st: Value = serde_json::from_str(
            &get(base, &format!("/api/v1/tournaments/{t}/standings")).unwrap(),
        )
        .unwrap();
        let mut v: Vec<(String, i64)> = st["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["name"].as_str().unwrap().to_string(),
                    r["player"].as_i64().unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let (here, there) = (ids(&venue, s.vid), ids(&target, tid));
    assert_eq!(here.len(), 8);
    for ((name, a), (_, b)) in here.iter().zip(&there) {
        let read = |base: &str, t: i64, p: i64| {
            visible(&get(base, &format!("/t/{t}/players/{p}")).unwrap())
        };
        assert_eq!(
            read(&venue, s.vid, *a),
            read(&target, tid, *b),
            "{name}'s page"
        );
    }
    let page = get(&target, &format!("/t/{tid}")).unwrap();
    assert!(page.contains("Published from"), "{page}");
    assert!(page.contains("Bloemfontein City Hall"));
    drop(target_served);
}

#[test]
fn a_venue_killed_around_its_sends_leaves_one_copy_and_loses_no_round() {
    let mut s = setup("sqlite");
    let target = format!("http://127.0.0.1:{}", s.target_port);
    let _target = target_process(&s);
    let venue_port = free_port();
    let venue = format!("http://127.0.0.1:{venue_port}");
    for (round, result) in [(1, "1-0"), (2, "0-1"), (3, "1/2-1/2")] {
        // SIGKILL the venue a moment after the round's change, while its
        // sender may be in the middle of sending it.
        let mut process = venue_process(&s, venue_port);
        play_round(&mut s.venue_api, s.vid, result);
        std::thread::sleep(Duration::from_millis(150 * round));
        process.child.kill().unwrap();
        process.child.wait().unwrap();
    }
    let _venue = venue_process(&s, venue_port);
    assert!(
        within(Duration::from_secs(30), || caught_up(
            &venue, s.vid, &target, &s.origin
        ))
        .is_some(),
        "the target has every round once the venue runs again"
    );
    let tid = copy_at(&target, &s.origin).unwrap();
    let rounds = get(&target, &format!("/api/v1/tournaments/{tid}/rounds/3")).unwrap();
    assert!(rounds.contains("\"round\":3"), "{rounds}");
}

/// The referee's page: a wrong address is named, the token never shows
/// again, the state reads at a glance.
#[test]
fn the_tournament_page_sets_up_publishing_and_says_how_it_stands() {
    for app in TestApp::all() {
        let referee = app.user("thandi", Role::Referee);
        let mut api = app.script_for(&referee);
        let (tid, _) = common::api_tournament(
            &mut api,
            json!({"name": "Kimberley Open", "rules": "official", "rounds": 3}),
            &[
                json!({"name": "Thabo Nkosi"}),
                json!({"name": "Lerato Dlamini"}),
            ],
        );
        let mut desk = app.client_as(&referee);
        let page = desk.get(&format!("/t/{tid}")).body;
        assert!(page.contains("data-publication-state=\"off\""), "{page}");
        let bad = desk.post(
            &format!("/t/{tid}/publication"),
            &[("to", "federation.example"), ("token", "secret-token-1")],
        );
        assert_eq!(bad.status, 422, "{}", bad.body);
        assert!(common::field_error(&bad.body, "to")
            .unwrap()
            .contains("https://"));
        let empty = desk.post(
            &format!("/t/{tid}/publication"),
            &[("to", "https://federation.example"), ("token", " ")],
        );
        assert_eq!(empty.status, 422);
        assert!(common::field_error(&empty.body, "token").is_some());
        // A server nobody answers at: pending, then failing, the page says why.
        let nobody = format!("http://127.0.0.1:{}", free_port());
        let ok = desk.post(
            &format!("/t/{tid}/publication"),
            &[("to", &nobody), ("token", "secret-token-1")],
        );
        assert_eq!(ok.status, 303, "{}", ok.body);
        let page = desk.get(&format!("/t/{tid}")).body;
        assert!(
            page.contains("data-publication-state=\"pending\""),
            "{page}"
        );
        assert!(
            !page.contains("secret-token-1"),
            "the token is not shown again"
        );
        let audit = desk.get(&format!("/t/{tid}/audit")).body;
        assert!(
            !audit.contains("secret-token-1"),
            "nor written in the audit"
        );
        let file = desk.get(&format!("/t/{tid}/event.json")).body;
        assert!(!file.contains("secret-token-1"), "nor in the event file");
        let _venue = Served::start(&app.database_url, |c| {
            c.arg("--publish-allow-private");
        });
        let failing = within(Duration::from_secs(10), || {
            desk.get(&format!("/t/{tid}"))
                .body
                .contains("data-publication-state=\"failing\"")
        });
        assert!(
            failing.is_some(),
            "the page says the target cannot be reached"
        );
        assert!(desk
            .get(&format!("/t/{tid}"))
            .body
            .contains("did not answer"));
        let stop = desk.post(&format!("/t/{tid}/publication/stop"), &[]);
        assert_eq!(stop.status, 303);
        assert!(desk
            .get(&format!("/t/{tid}"))
            .body
            .contains("data-publication-state=\"off\""));
    }
}

/// A target that answers with a redirect to another host: the venue does
/// not follow it (the token would go there), says so, and the other host
/// never hears from it.
#[test]
fn a_redirect_is_not_followed_with_the_token() {
    use std::io::{Read, Write};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let elsewhere = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let elsewhere_port = elsewhere.local_addr().unwrap().port();
    let reached = Arc::new(AtomicUsize::new(0));
    let counter = reached.clone();
    std::thread::spawn(move || {
        for c in elsewhere.incoming().flatten() {
            counter.fetch_add(1, Ordering::SeqCst);
            drop(c);
        }
    });
    let redirecting = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = redirecting.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for mut c in redirecting.incoming().flatten() {
            let mut buf = [0u8; 65536];
            let _ = c.set_read_timeout(Some(Duration::from_millis(300)));
            while let Ok(n) = c.read(&mut buf) {
                if n == 0 {
                    break;
                }
            }
            let _ = write!(
                c,
                "HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:{elsewhere_port}/api/v1/published/x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
        }
    });
    let app = TestApp::start("sqlite");
    let referee = app.user("thandi", Role::Referee);
    let mut api = app.script_for(&referee);
    let (tid, _) = common::api_tournament(
        &mut api,
        json!({"name": "Upington Open", "rules": "official", "rounds": 3}),
        &[
            json!({"name": "Thabo Nkosi"}),
            json!({"name": "Lerato Dlamini"}),
        ],
    );
    let set = api.send_json(
        "PUT",
        &format!("/api/v1/tournaments/{tid}/publication"),
        json!({"to": format!("http://127.0.0.1:{port}"), "token": "secret-token-2"}),
    );
    assert_eq!(set.status, 200, "{}", set.body);
    let _venue = Served::start(&app.database_url, |c| {
        c.arg("--publish-allow-private");
    });
    let said = within(Duration::from_secs(10), || {
        let st = api
            .get(&format!("/api/v1/tournaments/{tid}/publication"))
            .json();
        st["state"] == "failing"
            && st["last_error"]
                .as_str()
                .is_some_and(|e| e.contains("307") && e.contains("not followed"))
    });
    assert!(said.is_some(), "the venue says the target redirected");
    // The other host takes its connections in the order they came: once it
    // has taken one made now (and closed it, which the probe reads as the
    // end of the stream), it has counted any the venue made before it said
    // what it did.
    let mut probe = std::net::TcpStream::connect(("127.0.0.1", elsewhere_port)).unwrap();
    probe
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    assert_eq!(probe.read(&mut [0u8; 1]).unwrap(), 0, "the probe is closed");
    assert_eq!(
        reached.load(Ordering::SeqCst),
        1,
        "the other host heard the probe and nothing else"
    );
}

/// A server on loopback that answers every connection with `answer`,
/// after reading what the venue sends (for a moment): its port.
fn answering(answer: impl Fn(&mut std::net::TcpStream) + Send + Sync + 'static) -> u16 {
    use std::io::Read;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let answer = std::sync::Arc::new(answer);
    std::thread::spawn(move || {
        for mut c in listener.incoming().flatten() {
            let answer = answer.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 65536];
                let _ = c.set_read_timeout(Some(Duration::from_millis(300)));
                while let Ok(n) = c.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                }
                answer(&mut c);
            });
        }
    });
    port
}

/// A server on loopback that takes every connection and never says a
/// word: its port.
fn silent() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for c in listener.incoming().flatten() {
            held.push(c);
        }
    });
    port
}

/// A tournament of two at the venue, published to `to` with `token`: its id.
fn published_to(api: &mut Client, name: &str, to: &str, token: &str) -> i64 {
    let (tid, _) = common::api_tournament(
        api,
        json!({"name": name, "rules": "official", "rounds": 3}),
        &[
            json!({"name": "Thabo Nkosi"}),
            json!({"name": "Lerato Dlamini"}),
        ],
    );
    let set = api.send_json(
        "PUT",
        &format!("/api/v1/tournaments/{tid}/publication"),
        json!({"to": to, "token": token}),
    );
    assert_eq!(set.status, 200, "{}", set.body);
    tid
}

fn publication(api: &mut Client, tid: i64) -> Value {
    api.get(&format!("/api/v1/tournaments/{tid}/publication"))
        .json()
}

/// The resident memory of process `pid` at its highest, in MB.
fn peak_rss_mb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb / 1024)
}

/// A target that refuses with an error body that never ends: the venue
/// reads a few kB of it at most, says the target refused, and keeps its
/// memory.
#[test]
fn an_endless_error_answer_is_not_read() {
    use std::io::Write;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let asked = std::sync::Arc::new(AtomicUsize::new(0));
    let counted = asked.clone();
    let port = answering(move |c| {
        counted.fetch_add(1, Ordering::SeqCst);
        let _ = write!(
            c,
            "HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        );
        let chunk = format!("10000\r\n{}\r\n", " ".repeat(0x10000));
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(60) {
            if c.write_all(chunk.as_bytes()).is_err() {
                break;
            }
        }
    });
    let app = TestApp::start("sqlite");
    let referee = app.user("thandi", Role::Referee);
    let mut api = app.script_for(&referee);
    let tid = published_to(
        &mut api,
        "Upington Open",
        &format!("http://127.0.0.1:{port}"),
        "secret-token-3",
    );
    let venue = Served::start(&app.database_url, |c| {
        c.arg("--publish-allow-private");
    });
    let said = within(Duration::from_secs(15), || {
        let st = publication(&mut api, tid);
        st["state"] == "failing" && st["last_error"].as_str().is_some_and(|e| e.contains("403"))
    });
    assert!(said.is_some(), "the venue says the target refused");
    // It keeps trying (1 s, 2 s, ... apart) and never keeps the answer.
    common::eventually("two more tries", Duration::from_secs(20), || {
        (asked.load(Ordering::SeqCst) >= 3).then_some(())
    });
    let peak = peak_rss_mb(venue.child.id());
    assert!(peak < 300, "the venue's memory peaked at {peak} MB");
}

/// A target that refuses with words of its own: the referee sees the
/// status and Kraal's short reason, never the target's text.
#[test]
fn the_targets_own_words_are_never_shown() {
    use std::io::Write;
    let port = answering(|c| {
        let body = r#"{"error":"TARGET-SAYS <a href=http://elsewhere.example>call 0800</a>"}"#;
        let _ = write!(
            c,
            "HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
    });
    let app = TestApp::start("sqlite");
    let referee = app.user("thandi", Role::Referee);
    let mut api = app.script_for(&referee);
    let tid = published_to(
        &mut api,
        "Upington Open",
        &format!("http://127.0.0.1:{port}"),
        "secret-token-4",
    );
    let _venue = Served::start(&app.database_url, |c| {
        c.arg("--publish-allow-private");
    });
    let said = within(Duration::from_secs(15), || {
        let st = publication(&mut api, tid);
        st["state"] == "failing" && st["last_error"].as_str().is_some_and(|e| e.contains("403"))
    });
    assert!(said.is_some(), "the venue says the target refused");
    let st = publication(&mut api, tid);
    assert!(
        !st["last_error"].as_str().unwrap().contains("TARGET-SAYS"),
        "{st}"
    );
    let page = app.client_as(&referee).get(&format!("/t/{tid}")).body;
    assert!(page.contains("data-publication-state=\"failing\""));
    assert!(!page.contains("TARGET-SAYS"), "{page}");
}

/// Targets that take the connection and never answer (one of them an
/// `https://` address on a plain port), and one where nothing listens: the
/// venue's other target gets every change within seconds all the same,
/// and the silent ones and the closed one are said alike.
#[test]
fn a_silent_target_holds_up_no_other_target() {
    let mut s = setup("sqlite");
    let venue_port = free_port();
    let venue = format!("http://127.0.0.1:{venue_port}");
    let target = format!("http://127.0.0.1:{}", s.target_port);
    // The setup's event goes to a silent server from now on; another
    // event, set up after it, goes to the target.
    let silent_plain = format!("http://127.0.0.1:{}", silent());
    let moved = s.venue_api.send_json(
        "PUT",
        &format!("/api/v1/tournaments/{}/publication", s.vid),
        json!({"to": silent_plain, "token": "any-token"}),
    );
    assert_eq!(moved.status, 200, "{}", moved.body);
    let token = s.token.clone();
    let silent_tls = published_to(
        &mut s.venue_api,
        "Kimberley Open",
        &format!("https://127.0.0.1:{}", silent()),
        "any-token",
    );
    let closed_port = free_port();
    let closed = published_to(
        &mut s.venue_api,
        "Welkom Open",
        &format!("http://127.0.0.1:{closed_port}"),
        "any-token",
    );
    let other = published_to(&mut s.venue_api, "Kroonstad Open", &target, &token);
    let origin = publication(&mut s.venue_api, other)["origin"]
        .as_str()
        .unwrap()
        .to_string();
    let _target = target_process(&s);
    let _venue = venue_process(&s, venue_port);
    for round in 1..=2 {
        if round > 1 {
            play_round(&mut s.venue_api, other, "1-0");
        }
        let took = within(Duration::from_secs(15), || {
            caught_up(&venue, other, &target, &origin)
        });
        assert!(
            took.is_some(),
            "revision {round} reached the other target within 15 s"
        );
    }
    // The silent ones fail by themselves, in their read timeout.
    let failing = |api: &mut Client, tid: i64| {
        let st = publication(api, tid);
        (st["state"] == "failing").then(|| st["last_error"].as_str().unwrap().to_string())
    };
    let mut said = Vec::new();
    for (tid, port) in [
        (s.vid, None),
        (silent_tls, None),
        (closed, Some(closed_port)),
    ] {
        let mut error = None;
        within(Duration::from_secs(40), || {
            error = failing(&mut s.venue_api, tid);
            error.is_some()
        });
        let error = error.unwrap_or_else(|| panic!("tournament {tid} says its target fails"));
        said.push((error, port));
    }
    // Whatever the cause, the same words (a host aside): no port scanner.
    let plain_host = silent_plain.trim_start_matches("http://").to_string();
    let silent_words = said[0].0.replace(&plain_host, "HOST");
    let closed_words = said[2]
        .0
        .replace(&format!("127.0.0.1:{closed_port}"), "HOST");
    assert_eq!(silent_words, closed_words);
}

/// The target's address is a base the sender's path can follow, on the
/// API and on the page; a venue not allowed private addresses does not
/// connect to one, and says so.
#[test]
fn the_target_is_a_base_address_and_a_private_one_waits_for_the_admin() {
    for app in TestApp::all() {
        let referee = app.user("thandi", Role::Referee);
        let mut api = app.script_for(&referee);
        let tid = published_to(
            &mut api,
            "Kimberley Open",
            "https://federation.example/kraal/",
            "secret-token-5",
        );
        assert_eq!(
            publication(&mut api, tid)["to"],
            "https://federation.example/kraal"
        );
        for bad in [
            "https://federation.example/any/path?x=",
            "https://federation.example/#",
            "https://venue@federation.example",
            "https://federation.example:99999",
            "federation.example",
            "ftp://federation.example",
        ] {
            let r = api.send_json(
                "PUT",
                &format!("/api/v1/tournaments/{tid}/publication"),
                json!({"to": bad, "token": "secret-token-5"}),
            );
            assert_eq!(r.status, 422, "{bad}: {}", r.body);
            assert_eq!(r.json()["field"], "to", "{bad}");
            let page = app.client_as(&referee).post(
                &format!("/t/{tid}/publication"),
                &[("to", bad), ("token", "secret-token-5")],
            );
            assert_eq!(page.status, 422, "{bad}");
            assert!(common::field_error(&page.body, "to").is_some(), "{bad}");
        }
        assert_eq!(
            publication(&mut api, tid)["to"],
            "https://federation.example/kraal",
            "nothing refused was stored"
        );
    }

    // A venue started without --publish-allow-private: the loopback target
    // hears nothing, and the referee reads why.
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let reached = Arc::new(AtomicUsize::new(0));
    let counter = reached.clone();
    std::thread::spawn(move || {
        for c in listener.incoming().flatten() {
            counter.fetch_add(1, Ordering::SeqCst);
            drop(c);
        }
    });
    let app = TestApp::start("sqlite");
    let referee = app.user("thandi", Role::Referee);
    let mut api = app.script_for(&referee);
    let tid = published_to(
        &mut api,
        "Upington Open",
        &format!("http://127.0.0.1:{port}"),
        "secret-token-6",
    );
    let _venue = Served::start(&app.database_url, |_| {});
    let said = within(Duration::from_secs(15), || {
        let st = publication(&mut api, tid);
        st["state"] == "failing"
            && st["last_error"]
                .as_str()
                .is_some_and(|e| e.contains("--publish-allow-private"))
    });
    assert!(said.is_some(), "{}", publication(&mut api, tid));
    assert_eq!(reached.load(Ordering::SeqCst), 0, "nothing was sent");
}
/// While sends fail, the tournament, round and results pages carry a
/// banner: where to, what was said (one full stop), when the next try is,
/// and "Send now", which starts the wait again from nothing.
#[test]
fn a_failing_publication_shows_on_the_referees_pages_with_send_now() {
    for app in TestApp::all() {
        let referee = app.user("thandi", Role::Referee);
        let mut api = app.script_for(&referee);
        let (tid, _) = common::api_tournament(
            &mut api,
            json!({"name": "Upington Open", "rules": "official", "rounds": 3}),
            &[
                json!({"name": "Zanele Mahlangu"}),
                json!({"name": "Kagiso Mokoena"}),
            ],
        );
        common::pair(&mut api, tid);
        let mut desk = app.client_as(&referee);
        let r = desk.post(
            &format!("/t/{tid}/publication"),
            &[
                ("to", "https://federation.example"),
                ("token", "wrong-token"),
            ],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let pages = [
            format!("/t/{tid}"),
            format!("/t/{tid}/rounds/1"),
            format!("/t/{tid}/rounds/1/results"),
        ];
        for page in &pages {
            let body = desk.get(page).body;
            assert!(
                attr_values(&body, "data-publication-banner").is_empty(),
                "{page}"
            );
        }
        // The target refused the token twice in a row.
        let id =
            kraal::db::publications::find(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap()
                .unwrap()
                .id;
        for _ in 0..2 {
            kraal::db::publications::failed(
                &mut app.conn(),
                id,
                "the target refused the token (401): Wrong token.",
            )
            .unwrap();
        }
        let before = chrono::Utc::now().naive_utc();
        for page in &pages {
            let body = desk.get(page).body;
            assert_eq!(
                attr_values(&body, "data-publication-banner"),
                ["failing"],
                "[{}] {page}",
                app.backend
            );
            // The next try: the last one plus the sender's wait after two
            // failures (2 s), in the future.
            let next = attr_values(&body, "data-next-try")[0].clone();
            let next = chrono::NaiveDateTime::parse_from_str(&next, "%Y-%m-%dT%H:%M:%SZ").unwrap();
            assert!(next > before - chrono::Duration::seconds(1), "{next}");
            assert!(next <= before + chrono::Duration::seconds(3), "{next}");
            assert!(body.contains("Wrong token. Kraal"), "{body}");
            assert!(!body.contains("Wrong token.."), "{body}");
            assert!(has_attr(
                &body,
                "action",
                &format!("/t/{tid}/publication/send-now")
            ));
        }
        // "Send now" from the round page: the wait starts again and the
        // page it was pressed on comes back.
        let r = desk.post(
            &format!("/t/{tid}/publication/send-now"),
            &[("back", &format!("/t/{tid}/rounds/1"))],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        assert_eq!(r.headers["location"], format!("/t/{tid}/rounds/1"));
        let p =
            kraal::db::publications::find(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap()
                .unwrap();
        assert_eq!((p.failures, p.last_attempt_at), (0, None));
        let audit = desk.get(&format!("/t/{tid}/audit")).body.to_lowercase();
        assert!(audit.contains("send now"), "{audit}");
        // Elsewhere than its own pages, "back" goes to the tournament.
        kraal::db::publications::failed(&mut app.conn(), id, "cannot reach it").unwrap();
        let r = desk.post(
            &format!("/t/{tid}/publication/send-now"),
            &[("back", "https://elsewhere.example/t/1")],
        );
        assert_eq!(r.headers["location"], format!("/t/{tid}"));
    }
}

/// The sender's wait is read from the publication's row: a publication
/// that failed six times in a row waits half a minute, and "Send now"
/// has the venue's sender try again at its next look.
#[test]
fn send_now_has_the_sender_try_again_at_once() {
    let app = TestApp::start("sqlite");
    let referee = app.user("thandi", Role::Referee);
    let mut api = app.script_for(&referee);
    // A federation's server that is off: nobody listens on its port.
    let down = format!("http://127.0.0.1:{}", free_port());
    let tid = published_to(&mut api, "Kuruman Open", &down, "secret-token-9");
    let id = kraal::db::publications::find(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
        .unwrap()
        .unwrap()
        .id;
    for _ in 0..6 {
        kraal::db::publications::failed(&mut app.conn(), id, "the server did not answer").unwrap();
    }
    let last_try = || {
        kraal::db::publications::find(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
            .unwrap()
            .unwrap()
    };
    let _venue = Served::start(&app.database_url, |c| {
        c.arg("--publish-allow-private");
    });
    // The sender looks five times a second; within two seconds it has
    // looked often enough to show it waits.
    let early = within(Duration::from_secs(2), || last_try().failures != 6);
    assert!(
        early.is_none(),
        "the sender waits out the backoff: {:?}",
        last_try()
    );
    let mut desk = app.client_as(&referee);
    let r = desk.post(&format!("/t/{tid}/publication/send-now"), &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    // Send now cleared the failures; any now counted are new tries.
    let tried = within(Duration::from_secs(10), || {
        let p = last_try();
        (1..6).contains(&p.failures) && p.last_attempt_at.is_some()
    });
    assert!(
        tried.is_some(),
        "sent again after Send now: {:?}",
        last_try()
    );
}

/// Games recorded at the board at the venue reach the federation's copy
/// ply by ply, without the event file sent again for each: its live board
/// shows the venue's record within seconds, and a ply that moves only
/// the game's counter leaves the venue's revision (and so the event file
/// sent) where it was.
#[test]
fn plies_recorded_at_the_venue_reach_the_federations_live_boards() {
    let backend = if common::backends().contains(&"postgres") {
        "postgres"
    } else {
        "sqlite"
    };
    let mut s = setup(backend);
    let venue_port = free_port();
    let _venue = venue_process(&s, venue_port);
    let venue = format!("http://127.0.0.1:{venue_port}");
    let target = format!("http://127.0.0.1:{}", s.target_port);
    let _target = target_process(&s);
    let pairings = common::pair(&mut s.venue_api, s.vid);
    assert!(
        within(Duration::from_secs(30), || caught_up(
            &venue, s.vid, &target, &s.origin
        ))
        .is_some(),
        "round 1 reached the target"
    );
    let tid = copy_at(&target, &s.origin).unwrap();
    // The venue's revision the copy is of, as the federation lists it.
    let copy_of = || -> Value {
        let list: Value =
            serde_json::from_str(&get(&target, "/api/v1/tournaments").unwrap()).unwrap();
        list["tournaments"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["origin"]["id"] == s.origin.as_str())
            .unwrap()["origin"]["revision"]
            .clone()
    };
    let venue_revision = || {
        kraal::db::tournaments::revision(
            &mut s.venue_db.conn(),
            kraal::ids::TournamentId(s.vid as i32),
        )
        .unwrap()
    };
    let (copy_revision, revision_before) = (copy_of(), venue_revision());

    // Table 2's players record game 1's first plies at the venue.
    let table = &pairings[1];
    let links = s
        .venue_api
        .get(&format!("/api/v1/tournaments/{}/rounds/1/links", s.vid))
        .json();
    let key = |id: &Value| -> String {
        let url = links["links"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| &l["player"] == id)
            .unwrap()["url"]
            .as_str()
            .unwrap()
            .to_string();
        url.rsplit('/').next().unwrap().to_string()
    };
    let game = table["games"][0]["id"].as_i64().unwrap();
    for (n, ply) in ["C5", "D5", "E5"].iter().enumerate() {
        for id in [&table["first_id"], &table["second_id"]] {
            let r = Client::new(&venue).send_json(
                "POST",
                &format!("/api/v1/player/{}/games/{game}/plies", key(id)),
                json!({"ply": n + 1, "move": ply}),
            );
            assert_eq!(r.status, 201, "{}", r.body);
        }
    }
    // The copy's game 1 of table 2, by its own id.
    let round: Value = serde_json::from_str(
        &get(&target, &format!("/api/v1/tournaments/{tid}/rounds/1")).unwrap(),
    )
    .unwrap();
    let copy_game = round["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["table"] == 2)
        .unwrap()["games"][0]["id"]
        .as_i64()
        .unwrap();
    let arrived = within(Duration::from_secs(10), || {
        get(&target, &format!("/api/v1/games/{copy_game}/live"))
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .is_some_and(|l| l["plies"].as_array().is_some_and(|p| p.len() == 3))
    });
    assert!(arrived.is_some(), "the plies reached the federation's copy");
    let live: Value =
        serde_json::from_str(&get(&target, &format!("/api/v1/games/{copy_game}/live")).unwrap())
            .unwrap();
    assert_eq!(live["plies"][2]["move"], "E5-2", "{live}");
    assert_eq!(live["differ_at"], Value::Null, "{live}");
    assert_eq!(
        venue_revision(),
        revision_before,
        "a ply is no change of the event"
    );
    assert_eq!(
        copy_of(),
        copy_revision,
        "no event file was sent for the plies"
    );
    let page = get(&target, &format!("/t/{tid}/games/{copy_game}/live")).unwrap();
    assert!(page.contains(r#"data-j="E5""#), "the copy's live board");

    // Only the account that publishes the event sends its records.
    let stranger = common::publisher_token(&s.target_db, "another-venue");
    let r = Client::new(&target).send_json_with(
        "PUT",
        &format!("/api/v1/published/{}/games/1/2/1", s.origin),
        json!({"dark": ["C5"], "light": ["C5"]}),
        &[("Authorization", &format!("Bearer {stranger}"))],
    );
    assert_eq!(r.status, 404, "{}", r.body);
    let r = Client::new(&target).send_json_with(
        "PUT",
        &format!("/api/v1/published/{}/games/1/2/1", s.origin),
        json!({"dark": ["C5", "Z9"], "light": []}),
        &[("Authorization", &format!("Bearer {}", s.token))],
    );
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.json()["field"], "dark", "{}", r.body);
}

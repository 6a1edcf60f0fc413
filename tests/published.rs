//! The receiving side of publishing, on both backends: a venue's event
//! file arrives under its origin id and becomes a read-only tournament
//! here; the same revision twice, or an older one after a newer, changes
//! nothing; a newer one replaces the copy in place (the same tournament,
//! one copy); and the refusals: no publish right, another account's
//! origin, a bad file, too large a body.

#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, TestApp};
use kraal::db::users::Role;
use serde_json::{json, Value};

/// A Swiss of six at the venue with round 1 played; its id and the
/// referee's API client.
fn venue_event(venue: &TestApp) -> (i64, Client) {
    let referee = venue.user("palesa", Role::Referee);
    let mut api = venue.script_for(&referee);
    let entries: Vec<Value> = [
        ("Thabo Nkosi", "Bloemfontein MC"),
        ("Lerato Dlamini", "Welkom MC"),
        ("Sipho Mokoena", "Bethlehem MC"),
        ("Naledi Khumalo", "Kroonstad MC"),
        ("Zanele Mahlangu", "Sasolburg MC"),
        ("Bongani Zulu", "Parys MC"),
    ]
    .iter()
    .enumerate()
    .map(|(i, (n, c))| json!({"name": n, "club": c, "rating": 1800 - 30 * i as i64}))
    .collect();
    let (tid, _) = common::api_tournament(
        &mut api,
        json!({"name": "Free State Open", "rules": "official", "rounds": 3}),
        &entries,
    );
    for p in common::pair(&mut api, tid) {
        for g in p["games"].as_array().unwrap() {
            common::put(&mut api, g, "1-0");
        }
    }
    (tid, api)
}

/// The venue's event file and revision, as its pusher sends them.
fn sent(venue: &TestApp, tid: i64) -> (Value, i64) {
    let file =
        kraal::db::event::export(&mut venue.conn(), kraal::ids::TournamentId(tid as i32)).unwrap();
    (
        serde_json::to_value(&file).unwrap(),
        i64::from(file.tournament.revision),
    )
}

fn publish(target: &mut Client, origin: &str, revision: i64, event: &Value) -> common::Reply {
    target.send_json(
        "PUT",
        &format!("/api/v1/published/{origin}"),
        json!({"revision": revision, "server": "Bloemfontein City Hall", "link": "http://venue.local/t/1", "event": event}),
    )
}

#[test]
fn a_published_event_is_a_read_only_copy_replaced_in_place_by_newer_revisions() {
    for target in TestApp::all() {
        let venue = TestApp::start("sqlite");
        let (vid, mut venue_api) = venue_event(&venue);
        let publisher = target.user("venue-laptop", Role::Referee);
        kraal::director::commit(&mut target.conn(), None, |w| {
            kraal::db::users::allow_publishing(w, publisher.id, true)
        })
        .unwrap();
        let mut push = target.script_for(&publisher);
        let origin = "fs-open-2026-7f3a9c";

        let (event, revision) = sent(&venue, vid);
        let r = publish(&mut push, origin, revision, &event);
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["changed"], true);
        let tid = r.json()["tournament"].as_i64().unwrap();
        let standings =
            |app: &TestApp, t: i64| app.client().get(&format!("/t/{t}/standings.csv")).body;
        assert_eq!(standings(&target, tid), standings(&venue, vid));
        let listed = target.client().get("/api/v1/tournaments").json();
        let copy = listed["tournaments"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == tid)
            .unwrap()
            .clone();
        assert_eq!(copy["origin"]["id"], origin);
        assert_eq!(copy["origin"]["server"], "Bloemfontein City Hall");
        let page = target.client().get(&format!("/t/{tid}")).body;
        assert!(page.contains("Published from"), "{page}");
        // When the copy was last updated, not the venue's revision number.
        let updated = common::attr_values(&page, "data-updated-at");
        assert_eq!(updated.len(), 1, "{page}");
        let at = chrono::NaiveDateTime::parse_from_str(&updated[0], "%Y-%m-%dT%H:%M:%SZ").unwrap();
        let age = chrono::Utc::now().naive_utc() - at;
        assert!(age < chrono::Duration::minutes(5), "{at}");
        assert!(!page.contains("revision"), "{page}");

        // The same revision again, and an older one: nothing changes.
        let before = kraal::db::tournaments::revision(
            &mut target.conn(),
            kraal::ids::TournamentId(tid as i32),
        )
        .unwrap();
        for rev in [revision, revision - 1] {
            let r = publish(&mut push, origin, rev, &event);
            assert_eq!(r.status, 200, "{}", r.body);
            assert_eq!(r.json()["changed"], false);
            assert_eq!(r.json()["revision"], revision);
        }
        assert_eq!(
            kraal::db::tournaments::revision(
                &mut target.conn(),
                kraal::ids::TournamentId(tid as i32)
            )
            .unwrap(),
            before
        );

        // Round 2 at the venue: the newer revision replaces the copy in
        // place, one copy, its revision moved on.
        for p in common::pair(&mut venue_api, vid) {
            for g in p["games"].as_array().unwrap() {
                common::put(&mut venue_api, g, "0-1");
            }
        }
        let (event2, revision2) = sent(&venue, vid);
        assert!(revision2 > revision);
        let r = publish(&mut push, origin, revision2, &event2);
        assert_eq!(r.json()["changed"], true, "{}", r.body);
        assert_eq!(r.json()["tournament"], tid, "replaced in place");
        assert_eq!(standings(&target, tid), standings(&venue, vid));
        assert!(
            kraal::db::tournaments::revision(
                &mut target.conn(),
                kraal::ids::TournamentId(tid as i32)
            )
            .unwrap()
                > before
        );
        let count = target.client().get("/api/v1/tournaments").json()["tournaments"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["origin"]["id"] == origin)
            .count();
        assert_eq!(count, 1);
        let round2 = target
            .client()
            .get(&format!("/api/v1/tournaments/{tid}/rounds/2"));
        assert_eq!(round2.status, 200, "{}", round2.body);

        // Read-only here, for the target's own admin too.
        let admin = target.user("chief", Role::Admin);
        let mut boss = target.script_for(&admin);
        let refused = boss.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/rounds"),
            json!({}),
        );
        assert_eq!(refused.status, 403, "{}", refused.body);
        assert!(
            refused
                .body
                .contains("published here from Bloemfontein City Hall"),
            "{}",
            refused.body
        );
        let game = &round2.json()["pairings"][0]["games"][0];
        let put = boss.send_json(
            "PUT",
            &format!("/api/v1/games/{}", game["id"]),
            json!({"result": "1-0"}),
        );
        assert_eq!(put.status, 403, "{}", put.body);
        // No referee actions on a copy: the form that adds a player, which
        // the same admin has on an event of this server's own, is not there.
        let add_form = |t: i64, page: &str| {
            common::has_attr(page, "action", &format!("/t/{t}/players#add-player"))
        };
        let own = common::tournament(&target, &admin, "Thaba Nchu Open").id;
        let own_page = target.client_as(&admin).get(&format!("/t/{own}")).body;
        assert!(add_form(i64::from(own), &own_page), "{own_page}");
        let desk = target.client_as(&admin).get(&format!("/t/{tid}")).body;
        assert!(!add_form(tid, &desk), "no referee actions on a copy");
    }
}

#[test]
fn publishing_is_refused_without_the_right_for_another_accounts_origin_and_for_a_bad_file() {
    for target in TestApp::all() {
        let venue = TestApp::start("sqlite");
        let (vid, _) = venue_event(&venue);
        let (event, revision) = sent(&venue, vid);
        let count = |t: &TestApp| kraal::db::tournaments::list(&mut t.conn()).unwrap().len();

        // A referee the admin did not allow.
        let plain = target.user("lindiwe", Role::Referee);
        let r = publish(
            &mut target.script_for(&plain),
            "fs-open-2026-aaaa",
            revision,
            &event,
        );
        assert_eq!(r.status, 403, "{}", r.body);
        assert!(r.body.contains("kraal user publisher"), "{}", r.body);
        let r = publish(&mut target.client(), "fs-open-2026-aaaa", revision, &event);
        assert_eq!(r.status, 401, "{}", r.body);

        let first = target.user("venue-one", Role::Referee);
        let second = target.user("venue-two", Role::Referee);
        for u in [&first, &second] {
            kraal::director::commit(&mut target.conn(), None, |w| {
                kraal::db::users::allow_publishing(w, u.id, true)
            })
            .unwrap();
        }
        let r = publish(
            &mut target.script_for(&first),
            "fs-open-2026-bbbb",
            revision,
            &event,
        );
        assert_eq!(r.status, 200, "{}", r.body);
        // Another account may not take that event over.
        let r = publish(
            &mut target.script_for(&second),
            "fs-open-2026-bbbb",
            revision + 1,
            &event,
        );
        assert_eq!(r.status, 409, "{}", r.body);
        assert!(r.body.contains("another account"), "{}", r.body);
        assert_eq!(count(&target), 1);

        // A file the import refuses: nothing stored, the reason named.
        let mut bad = event.clone();
        bad["games"][0]["result"] = "2-0".into();
        let r = publish(
            &mut target.script_for(&second),
            "fs-open-2026-cccc",
            revision,
            &bad,
        );
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(r.body.contains("games[0].result"), "{}", r.body);
        let mut newer = event.clone();
        newer["version"] = 99.into();
        let r = publish(
            &mut target.script_for(&second),
            "fs-open-2026-cccc",
            revision,
            &newer,
        );
        assert!(r.status == 422 || r.status == 400, "{}", r.body);
        let r = target.script_for(&second).send_json(
            "PUT",
            "/api/v1/published/fs-open-2026-cccc",
            json!({"revision": 0, "server": "X", "event": event}),
        );
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(r.json()["field"], "revision");
        assert_eq!(count(&target), 1, "nothing stored");

        // More than an event file may be: refused before it is read.
        let huge = format!(
            "{{\"revision\": 1, \"server\": \"X\", \"event\": \"{}\"}}",
            "x".repeat(kraal::db::event::MAX_FILE_BYTES + 100 * 1024)
        );
        let r = target.script_for(&second).send_bytes(
            "PUT",
            "/api/v1/published/fs-open-2026-dddd",
            "application/json",
            huge.as_bytes(),
        );
        assert_eq!(r.status, 413, "{}", r.body);
        assert_eq!(count(&target), 1);
    }
}

/// `event` as revision `n` of itself: its name says which, so that the
/// copy shows which revision stayed.
fn revision_of(event: &Value, n: i64) -> Value {
    let mut e = event.clone();
    e["tournament"]["name"] = format!("Free State Open r{n}").into();
    e
}

/// `sends` publications of `origin` at once, each by its own client with
/// `token`: their answers, in the order given.
fn at_once(
    target: &TestApp,
    token: &str,
    origin: &str,
    sends: &[(i64, Value)],
) -> Vec<(u16, Value)> {
    let go = std::sync::Barrier::new(sends.len());
    std::thread::scope(|scope| {
        let handles: Vec<_> = sends
            .iter()
            .map(|(revision, event)| {
                let go = &go;
                scope.spawn(move || {
                    let mut c = Client::new(&target.base);
                    c.bearer = Some(token.to_string());
                    go.wait();
                    let r = publish(&mut c, origin, *revision, event);
                    let body = serde_json::from_str(&r.body).unwrap_or(Value::Null);
                    (r.status, body)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// The copy of `origin` here: (tournament id, its name, the revision
/// stored), and that there is exactly one.
fn the_copy(target: &TestApp, origin: &str) -> (i64, String, i64) {
    let listed = target.client().get("/api/v1/tournaments").json();
    let copies: Vec<&Value> = listed["tournaments"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["origin"]["id"] == origin)
        .collect();
    assert_eq!(copies.len(), 1, "one copy of {origin}: {listed}");
    let c = copies[0];
    (
        c["id"].as_i64().unwrap(),
        c["name"].as_str().unwrap().to_string(),
        c["origin"]["revision"].as_i64().unwrap(),
    )
}

/// Sends of one origin that cross, 25 times on each backend: eight
/// revisions at once, a newer revision twice at once, the first revision
/// twice at once. Every answer is 200, the one account is never told that
/// another publishes its origin, and the newest revision is the copy.
#[test]
fn sends_of_one_origin_that_cross_answer_200_and_leave_the_newest_revision() {
    for target in TestApp::all() {
        let venue = TestApp::start("sqlite");
        let (vid, _) = venue_event(&venue);
        let (event, _) = sent(&venue, vid);
        let publisher = target.user("venue-laptop", Role::Referee);
        kraal::director::commit(&mut target.conn(), None, |w| {
            kraal::db::users::allow_publishing(w, publisher.id, true)
        })
        .unwrap();
        let token = kraal::accounts::new_token();
        kraal::db::auth::create_token(
            &mut target.conn(),
            publisher.id,
            "venue",
            &kraal::accounts::token_digest(&token),
        )
        .unwrap();
        let backend = target.backend;
        for trial in 0..25 {
            // Eight revisions at once, in no order.
            let origin = format!("crossing-{trial:02}-eight");
            let sends: Vec<(i64, Value)> = [5, 2, 8, 1, 7, 3, 6, 4]
                .iter()
                .map(|&n| (n, revision_of(&event, n)))
                .collect();
            let answers = at_once(&target, &token, &origin, &sends);
            for (status, body) in &answers {
                assert_eq!(*status, 200, "{backend}, trial {trial}: {body}");
            }
            let (_, name, revision) = the_copy(&target, &origin);
            assert_eq!(revision, 8, "{backend}, trial {trial}");
            assert_eq!(name, "Free State Open r8", "{backend}, trial {trial}");

            // A newer revision twice at once: one stores it, one finds it.
            let origin = format!("crossing-{trial:02}-twice");
            let first = publish(
                &mut target.script(&token),
                &origin,
                1,
                &revision_of(&event, 1),
            );
            assert_eq!(first.status, 200, "{}", first.body);
            let sends = vec![(2, revision_of(&event, 2)), (2, revision_of(&event, 2))];
            let answers = at_once(&target, &token, &origin, &sends);
            let changed: Vec<bool> = answers
                .iter()
                .map(|(status, body)| {
                    assert_eq!(*status, 200, "{backend}, trial {trial}: {body}");
                    body["changed"] == true
                })
                .collect();
            assert_eq!(
                changed.iter().filter(|c| **c).count(),
                1,
                "{backend}, trial {trial}"
            );
            assert_eq!(the_copy(&target, &origin).2, 2);

            // The first revision twice at once: one copy, made once.
            let origin = format!("crossing-{trial:02}-first");
            let sends = vec![(1, revision_of(&event, 1)), (1, revision_of(&event, 1))];
            let answers = at_once(&target, &token, &origin, &sends);
            let changed: Vec<bool> = answers
                .iter()
                .map(|(status, body)| {
                    assert_eq!(*status, 200, "{backend}, trial {trial}: {body}");
                    body["changed"] == true
                })
                .collect();
            assert_eq!(
                changed.iter().filter(|c| **c).count(),
                1,
                "{backend}, trial {trial}"
            );
            assert_eq!(the_copy(&target, &origin).2, 1);
        }
    }
}

/// A raw `PUT` of `body` to `path` with `token`, announced whole and sent
/// as far as `sent` bytes: the connection.
fn begin_put(
    target: &TestApp,
    token: &str,
    path: &str,
    body: &[u8],
    sent: usize,
) -> std::net::TcpStream {
    use std::io::Write as _;
    let address = target.base.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(address).unwrap();
    write!(
        s,
        "PUT {path} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    s.write_all(&body[..sent]).unwrap();
    s
}

/// The answer's status and head, if one comes within `wait`.
fn answer_within(s: &mut std::net::TcpStream, wait: std::time::Duration) -> Option<(u16, String)> {
    use std::io::Read as _;
    s.set_read_timeout(Some(wait)).unwrap();
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    let head = String::from_utf8_lossy(&head).to_string();
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    Some((status, head.to_ascii_lowercase()))
}

/// A large body announced while two others are being read: 503 with
/// `Retry-After`, before it is read; once one of them is gone, it is
/// taken; a small body is never held up by large ones.
#[test]
fn a_large_publication_beyond_two_at_once_is_told_to_come_back() {
    use std::io::Write as _;
    use std::time::{Duration, Instant};
    for target in TestApp::all() {
        let venue = TestApp::start("sqlite");
        let (vid, _) = venue_event(&venue);
        let (event, revision) = sent(&venue, vid);
        let publisher = target.user("venue-laptop", Role::Referee);
        kraal::director::commit(&mut target.conn(), None, |w| {
            kraal::db::users::allow_publishing(w, publisher.id, true)
        })
        .unwrap();
        let token = kraal::accounts::new_token();
        kraal::db::auth::create_token(
            &mut target.conn(),
            publisher.id,
            "venue",
            &kraal::accounts::token_digest(&token),
        )
        .unwrap();
        // A large event: the body padded with spaces to 6 MB.
        let mut large = serde_json::to_string(&json!({
            "revision": revision, "server": "Bloemfontein City Hall", "event": event,
        }))
        .unwrap();
        large.push_str(&" ".repeat(6 * 1024 * 1024));
        let large = large.into_bytes();
        // Two large bodies under way: announced, a first part sent, the
        // rest still to come; a moment for the server to take them (more
        // each time, should the third arrive first on a busy machine).
        let deadline = Instant::now() + Duration::from_secs(90);
        let mut head_start = Duration::from_secs(1);
        let (mut held, refused) = loop {
            let held: Vec<std::net::TcpStream> = (0..2)
                .map(|i| {
                    let path = format!("/api/v1/published/large-held-{i}");
                    begin_put(&target, &token, &path, &large, 1024)
                })
                .collect();
            std::thread::sleep(head_start);
            let path = "/api/v1/published/large-third";
            let mut third = begin_put(&target, &token, path, &large, 0);
            match answer_within(&mut third, Duration::from_secs(5)) {
                Some((503, head)) => break (held, head),
                other => assert!(
                    Instant::now() < deadline,
                    "{}: a third large body is refused while two are read: {other:?}",
                    target.backend
                ),
            }
            drop((held, third));
            head_start *= 2;
        };
        assert!(refused.contains("retry-after:"), "{refused}");
        let r = publish(&mut target.script(&token), "small-one", revision, &event);
        assert_eq!(r.status, 200, "a small body is taken: {}", r.body);

        // One of the two is sent whole and stored: its place is free again.
        let mut first = held.remove(0);
        first.write_all(&large[1024..]).unwrap();
        let (status, _) = answer_within(&mut first, Duration::from_secs(60)).unwrap();
        assert_eq!(status, 200);
        // The third is taken now (it may be told to come back while the
        // first's place is being given back).
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let mut third = begin_put(&target, &token, "/api/v1/published/large-third", &large, 0);
            let _ = third.write_all(&large);
            match answer_within(&mut third, Duration::from_secs(60)) {
                Some((200, _)) => break,
                Some((503, _)) => assert!(Instant::now() < deadline, "the place is given back"),
                other => panic!("{other:?}"),
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        drop(held);
    }
}

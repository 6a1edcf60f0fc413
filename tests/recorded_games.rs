//! Games recorded at the board through the players' links, ply by ply, on
//! both backends: each player's record checked as it grows, with the
//! scoresheet check's verdicts; an irregular ply recorded as played; the
//! same ply sent again answered as the first time; another move for a
//! recorded ply, a ply past the next, a finished game and text that is not
//! a move refused with their codes; two records that differ; and a late
//! viewer's snapshot of the game.

#![allow(clippy::unwrap_used)]

mod common;

use std::sync::{Arc, Barrier};

use common::{written, Reply, TestApp};
use kraal::db::users::Role;
use kraal::rules::{Game, PlayRules, Status};
use serde_json::{json, Value};

/// A four-player Swiss of the Eastern Cape with round 1 published: the
/// id, the referee's client, table 1's pairing and its players' keys
/// (first, second).
fn event(app: &TestApp) -> (i64, common::Client, Value, String, String) {
    let referee = app.user("andile", Role::Referee);
    let mut api = app.script_for(&referee);
    let entries: Vec<Value> = [
        "Luvuyo Mqhayi",
        "Nosipho Jali",
        "Ayanda Qwabe",
        "Sizwe Mbeki",
    ]
    .iter()
    .enumerate()
    .map(|(i, n)| json!({"name": n, "rating": 1700 - 50 * i as i64}))
    .collect();
    let (tid, _) = common::api_tournament(
        &mut api,
        json!({"name": "Mthatha Open", "rules": "official", "rounds": 3}),
        &entries,
    );
    let pairings = common::pair(&mut api, tid);
    let links = api
        .get(&format!("/api/v1/tournaments/{tid}/rounds/1/links"))
        .json();
    let key = |player: &Value| {
        let url = links["links"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| &l["player"] == player)
            .unwrap()["url"]
            .as_str()
            .unwrap()
            .to_string();
        url.rsplit('/').next().unwrap().to_string()
    };
    let table = pairings[0].clone();
    let (first, second) = (key(&table["first_id"]), key(&table["second_id"]));
    (tid, api, table, first, second)
}

/// The event's revision and how many audit entries it has.
fn event_state(app: &TestApp, tid: i64) -> (i32, i64) {
    let t = kraal::ids::TournamentId(tid as i32);
    let mut conn = app.conn();
    (
        kraal::db::tournaments::revision(&mut conn, t).unwrap(),
        kraal::db::audit::count(&mut conn, Some(t)).unwrap(),
    )
}

fn send(app: &TestApp, key: &str, game: i64, ply: i64, written: &str) -> Reply {
    app.client().send_json(
        "POST",
        &format!("/api/v1/player/{key}/games/{game}/plies"),
        json!({"ply": ply, "move": written}),
    )
}

/// A legal game played to its end (the first legal move each time, a
/// shot preferred): its plies and how it ended.
fn whole_game() -> (Vec<String>, Status) {
    let mut game = Game::new(PlayRules::OFFICIAL);
    let mut plies = Vec::new();
    while game.status() == Status::Ongoing && plies.len() < 600 {
        let legal = game.legal_moves();
        let mv = legal
            .iter()
            .copied()
            .find(|m| m.shot.is_some())
            .unwrap_or(legal[plies.len() % legal.len()]);
        game.play(mv);
        plies.push(written(&mv));
    }
    (plies, game.status())
}

#[test]
fn two_players_record_a_whole_game_and_the_board_gives_its_result() {
    for app in TestApp::all() {
        let (_tid, _api, table, first, second) = event(&app);
        let game = table["games"][0]["id"].as_i64().unwrap();
        let (plies, end) = whole_game();
        assert_ne!(end, Status::Ongoing, "the game ends");
        let mut last = Value::Null;
        for (i, p) in plies.iter().enumerate() {
            for key in [&first, &second] {
                let r = send(&app, key, game, i as i64 + 1, p);
                assert_eq!(r.status, 201, "[{}] ply {}: {}", app.backend, i + 1, r.body);
                last = r.json();
                assert_eq!(last["status"], "accepted", "[{}] {last}", app.backend);
                if i + 1 < plies.len() {
                    assert_eq!(
                        last["ended"],
                        Value::Null,
                        "[{}] ply {}",
                        app.backend,
                        i + 1
                    );
                }
            }
        }
        // The starter plays dark: the board's winner, from the starter's side.
        let expected = match end {
            Status::Won {
                winner: kraal::rules::Side::Dark,
                ..
            } => "1-0",
            Status::Won { .. } => "0-1",
            _ => "1/2-1/2",
        };
        assert_eq!(
            last["ended"]["result"], expected,
            "[{}] {last}",
            app.backend
        );
        assert!(last["ended"]["article"]
            .as_str()
            .unwrap()
            .starts_with("OGR 4."));
        // A late viewer gets the whole game, the records agreeing.
        let live = app.client().get(&format!("/api/v1/games/{game}/live"));
        assert_eq!(live.status, 200, "{}", live.body);
        let live = live.json();
        assert_eq!(live["plies"].as_array().unwrap().len(), plies.len());
        // In the official style, cow numbers given (OGR 6.2, 3.1.2).
        assert_eq!(live["plies"][0]["move"], format!("{}-1", plies[0]));
        assert_eq!(live["differ_at"], Value::Null);
        assert_eq!(live["ended"]["result"], expected);
        // A ply after the end is recorded as played, and flagged.
        let after = send(&app, &first, game, plies.len() as i64 + 1, "A1");
        assert_eq!(after.status, 201, "{}", after.body);
        assert_eq!(after.json()["status"], "irregular");
    }
}

#[test]
fn each_rule_of_a_recorded_ply_holds() {
    for app in TestApp::all() {
        let (tid, mut api, table, first, second) = event(&app);
        let game = table["games"][0]["id"].as_i64().unwrap();
        let b = app.backend;

        // The first ply, then the same ply again: the same answer, 200.
        // A ply is not an event's change: no revision, no audit entry.
        let before = event_state(&app, tid);
        let one = send(&app, &first, game, 1, "C5");
        assert_eq!(one.status, 201, "[{b}] {}", one.body);
        assert_eq!(
            event_state(&app, tid),
            before,
            "[{b}] the event did not change"
        );
        let again = send(&app, &first, game, 1, "1. C5!?");
        assert_eq!(again.status, 200, "[{b}] {}", again.body);
        assert_eq!(again.json(), one.json(), "[{b}]");

        // Another move for a recorded ply, whatever the key: 409, naming it.
        let other = send(&app, &first, game, 1, "B4");
        assert_eq!(other.status, 409, "[{b}] {}", other.body);
        let other = other.json();
        assert_eq!(
            (&other["code"], &other["params"]),
            (&json!("ply_recorded"), &json!({"ply": 1, "stored": "C5"})),
            "[{b}] {other}"
        );
        // Past the next ply: 409, naming the next.
        let ahead = send(&app, &first, game, 3, "B4");
        assert_eq!(ahead.status, 409, "[{b}] {}", ahead.body);
        let ahead = ahead.json();
        assert_eq!(
            (&ahead["code"], &ahead["params"]),
            (&json!("ply_ahead"), &json!({"ply": 3, "next": 2})),
            "[{b}] {ahead}"
        );
        // Not one move: 422 naming the field and the text.
        for bad in ["Z9", "C4 C3", ""] {
            let r = send(&app, &first, game, 2, bad);
            assert_eq!(r.status, 422, "[{b}] {bad:?}: {}", r.body);
            assert_eq!(r.json()["field"], "move", "[{b}]");
        }
        let r = app.client().send_json(
            "POST",
            &format!("/api/v1/player/{first}/games/{game}/plies"),
            json!({"ply": "two", "move": "B4"}),
        );
        assert_eq!(
            (r.status, r.json()["field"].clone()),
            (422, json!("ply")),
            "[{b}]"
        );

        // An irregular ply is recorded as played, with its article.
        let onto = send(&app, &first, game, 2, "C5");
        assert_eq!(onto.status, 201, "[{b}] {}", onto.body);
        let onto = onto.json();
        assert_eq!(onto["status"], "irregular", "[{b}] {onto}");
        assert_eq!(onto["article"], "OGR 3.1.5", "[{b}] {onto}");

        // The other player's record is theirs: it differs at ply 1.
        assert_eq!(send(&app, &second, game, 1, "B4").status, 201);
        let live = app
            .client()
            .get(&format!("/api/v1/games/{game}/live"))
            .json();
        assert_eq!(live["differ_at"], 1, "[{b}] {live}");

        // Someone else's game: 403. A wrong key: 404.
        let other_game = table["games"][1]["id"].as_i64().unwrap();
        let stranger = key_of_another_table(&mut api, tid, &table);
        let r = send(&app, &stranger, game, 1, "C5");
        assert_eq!(r.status, 403, "[{b}] {}", r.body);
        assert_eq!(r.json()["code"], "not_your_game");
        let r = send(
            &app,
            "0123456789abcdef0123456789abcdef",
            other_game,
            1,
            "C5",
        );
        assert_eq!(r.status, 404, "[{b}] {}", r.body);

        // The game has its result: no more plies, but a resend is answered.
        common::put(&mut api, &table["games"][0], "1-0");
        let late = send(&app, &first, game, 3, "B4");
        assert_eq!(late.status, 409, "[{b}] {}", late.body);
        assert_eq!(late.json()["code"], "game_over");
        assert_eq!(send(&app, &first, game, 1, "C5").status, 200, "[{b}]");
    }
}

/// The key of a player of another table of event `tid`.
fn key_of_another_table(api: &mut common::Client, tid: i64, table: &Value) -> String {
    let links = api
        .get(&format!("/api/v1/tournaments/{tid}/rounds/1/links"))
        .json();
    let url = links["links"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["player"] != table["first_id"] && l["player"] != table["second_id"])
        .unwrap()["url"]
        .as_str()
        .unwrap()
        .to_string();
    url.rsplit('/').next().unwrap().to_string()
}

/// Two phones of one player sending the same ply at the same instant (a
/// queue sending as the page sends): it is stored once, one gets 201 and
/// the other the same answer with 200.
#[test]
fn one_ply_sent_twice_at_the_same_instant_is_stored_once() {
    for app in TestApp::all() {
        let (_tid, _api, table, first, _second) = event(&app);
        let game = table["games"][0]["id"].as_i64().unwrap();
        let barrier = Arc::new(Barrier::new(2));
        let answers: Vec<Reply> = std::thread::scope(|s| {
            let sends: Vec<_> = (0..2)
                .map(|_| {
                    let barrier = barrier.clone();
                    let (app, first) = (&app, &first);
                    s.spawn(move || {
                        barrier.wait();
                        send(app, first, game, 1, "C5")
                    })
                })
                .collect();
            sends.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut statuses: Vec<u16> = answers.iter().map(|r| r.status).collect();
        statuses.sort_unstable();
        assert_eq!(statuses, [200, 201], "[{}]", app.backend);
        let live = app
            .client()
            .get(&format!("/api/v1/games/{game}/live"))
            .json();
        assert_eq!(
            live["plies"].as_array().unwrap().len(),
            1,
            "[{}]",
            app.backend
        );
    }
}

fn rule(app: &TestApp, key: &str, game: i64, ply: i64, word: &str) -> Reply {
    app.client().send_json(
        "POST",
        &format!("/api/v1/player/{key}/games/{game}/plies/{ply}/{word}"),
        json!({}),
    )
}

/// Both players record `written` as ply `ply`.
fn both(app: &TestApp, keys: [&str; 2], game: i64, ply: i64, written: &str) -> Value {
    let mut answer = Value::Null;
    for key in keys {
        let r = send(app, key, game, ply, written);
        assert_eq!(
            r.status, 201,
            "[{}] ply {ply} {written}: {}",
            app.backend, r.body
        );
        answer = r.json();
    }
    answer
}

/// An irregular ply is its player's opponent's to have rectified (taken
/// back from both records, OGR 5.4) or to let stand; playing on lets it
/// stand (5.7). Neither the ply's own player nor a regular ply has a word.
#[test]
fn the_opponent_has_an_irregular_ply_rectified_or_lets_it_stand() {
    for app in TestApp::all() {
        let (_tid, _api, table, first, second) = event(&app);
        let game = table["games"][0]["id"].as_i64().unwrap();
        let b = app.backend;
        // The starter plays dark.
        let (dark, light) = if table["games"][0]["first_started"] == json!(true) {
            (first.as_str(), second.as_str())
        } else {
            (second.as_str(), first.as_str())
        };
        let keys = [dark, light];
        both(&app, keys, game, 1, "C5");
        let onto = both(&app, keys, game, 2, "C5");
        assert_eq!(onto["article"], "OGR 3.1.5", "[{b}] {onto}");

        // Dark has light's ply taken back: both records lose it.
        let r = rule(&app, dark, game, 2, "rectify");
        assert_eq!(r.status, 200, "[{b}] {}", r.body);
        assert_eq!(
            r.json(),
            json!({"ply": 2, "ruling": "rectified", "next": 2})
        );
        let live = app
            .client()
            .get(&format!("/api/v1/games/{game}/live"))
            .json();
        assert_eq!(live["plies"].as_array().unwrap().len(), 1, "[{b}] {live}");
        let gone = rule(&app, light, game, 2, "stand");
        assert_eq!(gone.json()["code"], "no_such_ply", "[{b}] {}", gone.body);

        // Light plays it again, as irregular; light has no word on it.
        both(&app, keys, game, 2, "C5");
        let own = rule(&app, light, game, 2, "rectify");
        assert_eq!(
            (own.status, own.json()["code"].clone()),
            (409, json!("own_ply")),
            "[{b}]"
        );
        // Dark lets it stand: said once, it stays.
        let stands = rule(&app, dark, game, 2, "stand");
        assert_eq!(stands.json()["ruling"], "stands", "[{b}] {}", stands.body);
        let late = rule(&app, dark, game, 2, "rectify");
        assert_eq!(late.json()["code"], "ply_stands", "[{b}] {}", late.body);
        assert_eq!(rule(&app, dark, game, 2, "stand").status, 200, "[{b}]");

        // A regular ply has no word.
        let regular = rule(&app, light, game, 1, "rectify");
        assert_eq!(
            regular.json()["code"],
            "ply_regular",
            "[{b}] {}",
            regular.body
        );

        // Light's next irregular ply, then dark plays on: it stands.
        both(&app, keys, game, 3, "B4");
        both(&app, keys, game, 4, "B4");
        both(&app, keys, game, 5, "B2");
        let on = rule(&app, dark, game, 4, "rectify");
        assert_eq!(on.json()["code"], "ply_stands", "[{b}] {}", on.body);
        let live = app
            .client()
            .get(&format!("/api/v1/games/{game}/live"))
            .json();
        assert_eq!(live["plies"].as_array().unwrap().len(), 5, "[{b}] {live}");
    }
}

/// `path` of `app` opened as a browser opens an event stream; reads time
/// out every 200 ms so that [`next_ply`] can give up.
fn stream(app: &TestApp, path: &str) -> std::io::BufReader<std::net::TcpStream> {
    stream_at(&app.base, path)
}

/// As [`stream`], of the server at `base`.
fn stream_at(base: &str, path: &str) -> std::io::BufReader<std::net::TcpStream> {
    use std::io::Write;
    let addr = base.trim_start_matches("http://").to_string();
    let mut s = std::net::TcpStream::connect(&addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_millis(200)))
        .unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\nAccept-Encoding: gzip, br\r\n\r\n"
    )
    .unwrap();
    std::io::BufReader::new(s)
}

/// The next `ply` event's data read from `reader` within `within`.
fn next_ply(reader: &mut impl std::io::BufRead, within: std::time::Duration) -> Option<Value> {
    let start = std::time::Instant::now();
    let mut line = String::new();
    let mut is_ply = false;
    while start.elapsed() < within {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) => return None,
            Ok(_) if line.trim_end() == "event: ply" => is_ply = true,
            Ok(_) if is_ply && line.starts_with("data: ") => {
                return Some(serde_json::from_str(line["data: ".len()..].trim_end()).unwrap())
            }
            Ok(_) => {}
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(e) => panic!("{e}"),
        }
    }
    None
}

/// The starter's key and the other player's, for game 1 of `table`.
fn dark_and_light<'a>(table: &Value, first: &'a str, second: &'a str) -> (&'a str, &'a str) {
    if table["games"][0]["first_started"] == json!(true) {
        (first, second)
    } else {
        (second, first)
    }
}

/// A viewer of the game's live board and a site reading the round's feed
/// each have every ply within a second, and its result; the event itself
/// does not move (no revision, no audit entry): its pages are not rebuilt.
#[test]
fn viewers_follow_each_ply_within_a_second_and_the_event_does_not_move() {
    let second_ = std::time::Duration::from_secs(1);
    for app in TestApp::all() {
        let (tid, mut api, table, first, second) = event(&app);
        let game = table["games"][0]["id"].as_i64().unwrap();
        let (dark, light) = dark_and_light(&table, &first, &second);
        let b = app.backend;
        let mut board = stream(&app, &format!("/t/{tid}/games/{game}/events"));
        let mut feed = stream(&app, &format!("/api/v1/tournaments/{tid}/rounds/1/live"));
        // Both streams are open and watched before the first ply.
        std::thread::sleep(std::time::Duration::from_millis(400));
        let before = event_state(&app, tid);

        let sent = std::time::Instant::now();
        assert_eq!(send(&app, dark, game, 1, "C5").status, 201);
        let seen = next_ply(&mut board, second_).unwrap_or_else(|| panic!("[{b}] no ply"));
        assert!(sent.elapsed() < second_, "[{b}] {:?}", sent.elapsed());
        assert_eq!(
            (&seen["game"], &seen["ply"]),
            (&json!(game), &json!(1)),
            "[{b}] {seen}"
        );
        assert_eq!(seen["move"], "C5-1", "[{b}] {seen}");
        assert_eq!(
            seen["position"]["dark"][0]["junction"], "C5",
            "[{b}] {seen}"
        );
        assert_eq!(seen["position"]["to_move"], "light", "[{b}] {seen}");
        let fed = next_ply(&mut feed, second_).unwrap_or_else(|| panic!("[{b}] no feed"));
        assert_eq!(
            (&fed["game"], &fed["ply"]),
            (&json!(game), &json!(1)),
            "[{b}] {fed}"
        );

        // Light's phone records the same; then light's ply, irregular.
        assert_eq!(send(&app, light, game, 1, "C5").status, 201);
        assert_eq!(send(&app, dark, game, 2, "C5").status, 201);
        let mut last = Value::Null;
        while let Some(e) = next_ply(&mut board, second_) {
            last = e;
        }
        assert_eq!(last["ply"], 2, "[{b}] {last}");
        assert_eq!(
            (&last["status"], &last["article"]),
            (&json!("irregular"), &json!("OGR 3.1.5")),
            "[{b}] {last}"
        );
        assert_eq!(
            event_state(&app, tid),
            before,
            "[{b}] the event did not move"
        );

        // The result reaches the viewers too.
        common::put(&mut api, &table["games"][0], "1-0");
        let mut last = Value::Null;
        while let Some(e) = next_ply(&mut board, second_) {
            last = e;
        }
        assert_eq!(last["result"], "1-0", "[{b}] {last}");
    }
}

/// `live_boards`: public by default; `referees` keeps the boards, their
/// feeds and the late viewers' snapshot to the event's referees; `off`
/// shows them to nobody; another word is refused naming the field.
#[test]
fn who_may_watch_follows_the_live_boards_setting() {
    for app in TestApp::all() {
        let (tid, mut api, table, first, _second) = event(&app);
        let game = table["games"][0]["id"].as_i64().unwrap();
        let b = app.backend;
        assert_eq!(send(&app, &first, game, 1, "C5").status, 201);
        let t = api.get(&format!("/api/v1/tournaments/{tid}")).json();
        assert_eq!(t["live_boards"], "public", "[{b}] {t}");
        let paths = [
            format!("/api/v1/games/{game}/live"),
            format!("/t/{tid}/games/{game}/live"),
        ];
        for p in &paths {
            let r = app.client().get(p);
            assert_eq!(r.status, 200, "[{b}] {p}: {}", r.body);
        }
        let page = app.client().get(&paths[1]).body;
        assert!(
            common::has_attr(&page, "data-j", "C5") && page.contains(r#"data-owner="dark""#),
            "[{b}] the live board draws the cow on C5"
        );

        let set = |api: &mut common::Client, to: &str| {
            api.send_json(
                "PATCH",
                &format!("/api/v1/tournaments/{tid}"),
                json!({ "live_boards": to }),
            )
        };
        assert_eq!(set(&mut api, "referees").status, 200, "[{b}]");
        for p in &paths {
            assert_eq!(app.client().get(p).status, 404, "[{b}] {p}");
        }
        let mut feed = stream(&app, &format!("/api/v1/tournaments/{tid}/rounds/1/live"));
        let mut status = String::new();
        std::io::BufRead::read_line(&mut feed, &mut status).unwrap();
        assert!(status.contains(" 404 "), "[{b}] {status}");
        assert_eq!(api.get(&paths[0]).status, 200, "[{b}] the referee watches");

        assert_eq!(set(&mut api, "off").status, 200, "[{b}]");
        assert_eq!(api.get(&paths[0]).status, 404, "[{b}] nobody watches");

        let bad = set(&mut api, "everyone");
        assert_eq!(bad.status, 422, "[{b}] {}", bad.body);
        assert_eq!(bad.json()["field"], "live_boards", "[{b}] {}", bad.body);
    }
}

/// A player's board: their own record, the opponent's irregular ply
/// flagged for their word (and for no one else's), gone once said; where
/// the two records differ; the page drawn from it, linked from their page.
#[test]
fn a_players_board_shows_their_record_their_flags_and_where_records_differ() {
    for app in TestApp::all() {
        let (tid, _api, table, first, second) = event(&app);
        let game = table["games"][0]["id"].as_i64().unwrap();
        let (dark, light) = dark_and_light(&table, &first, &second);
        let b = app.backend;
        let state = |key: &str| {
            let r = app
                .client()
                .get(&format!("/api/v1/player/{key}/games/{game}/plies"));
            assert_eq!(r.status, 200, "[{b}] {}", r.body);
            r.json()
        };
        assert_eq!(state(dark)["me"], "dark", "[{b}]");
        assert_eq!(state(light)["me"], "light", "[{b}]");
        both(&app, [dark, light], game, 1, "C5");
        both(&app, [dark, light], game, 2, "C5");
        let d = state(dark);
        assert_eq!(d["flags"][0]["ply"], 2, "[{b}] {d}");
        assert_eq!(d["flags"][0]["article"], "OGR 3.1.5", "[{b}] {d}");
        assert_eq!(d["plies"][1]["status"], "irregular", "[{b}] {d}");
        assert_eq!(
            d["plies"][0]["move"], "C5-1",
            "[{b}] cow numbers given: {d}"
        );
        assert_eq!(state(light)["flags"], json!([]), "[{b}] not light's word");
        assert_eq!(rule(&app, dark, game, 2, "stand").status, 200, "[{b}]");
        assert_eq!(state(dark)["flags"], json!([]), "[{b}] said");

        // A shot: its line goes in the capture column (OGR 6.2.7).
        for (n, p) in [(3, "D5"), (4, "A1"), (5, "E5 x A1")] {
            both(&app, [dark, light], game, n, p);
        }
        let d = state(dark);
        assert_eq!(d["plies"][4]["triplet"], "C5,1-D5,2-E5,3", "[{b}] {d}");

        // The records part at ply 6.
        assert_eq!(send(&app, dark, game, 6, "G7").status, 201);
        assert_eq!(send(&app, light, game, 6, "A7").status, 201);
        assert_eq!(state(dark)["differ_at"], 6, "[{b}]");

        let page = app.client().get(&format!("/player/{dark}"));
        assert!(
            page.body
                .contains(&format!("/player/{dark}/games/{game}/record")),
            "[{b}] the player's page links the board"
        );
        let board = app
            .client()
            .get(&format!("/player/{dark}/games/{game}/record"));
        assert_eq!(board.status, 200, "[{b}] {}", board.body);
        assert!(board.body.contains(r#"data-mode="record""#), "[{b}]");
        assert!(board.body.contains(r#"data-me="dark""#), "[{b}]");
        assert!(board.body.contains("Records differ at ply 6"), "[{b}]");
        assert!(board.body.contains("/static/board.js"), "[{b}]");
        let own = app.client().get(&format!("/player/{dark}"));
        assert!(
            !own.body.contains("/static/board.js"),
            "[{b}] the page keeps its weight"
        );

        // The desk: the records are the game's scoresheets, checked, with
        // nothing typed; the results page flags the game.
        let desk = app.user("thandiwe", Role::Admin);
        let mut desk = app.client_as(&desk);
        let page = desk.get(&format!("/t/{tid}/games/{game}"));
        assert_eq!(page.status, 200, "[{b}]");
        assert!(
            page.body.contains("recorded at the board"),
            "[{b}] the record's sender"
        );
        assert!(
            common::has_attr(&page.body, "data-plies", "6"),
            "[{b}] the record checked: {}",
            page.body
        );
        let results = desk.get(&format!("/t/{tid}/rounds/1/results"));
        assert!(
            common::has_attr(&results.body, "data-flagged", &game.to_string()),
            "[{b}] the desk flags the game"
        );
    }
}

/// A record that grew where this server did not see it (another process
/// on one PostgreSQL, say) is read again before the next ply is checked:
/// the records kept between plies never stand in for the stored one.
#[test]
fn a_record_grown_elsewhere_is_read_again_before_the_next_ply() {
    for app in TestApp::all() {
        let (_tid, _api, table, first, second) = event(&app);
        let game = table["games"][0]["id"].as_i64().unwrap();
        let (dark, _light) = dark_and_light(&table, &first, &second);
        let b = app.backend;
        assert_eq!(send(&app, dark, game, 1, "C5").status, 201);
        // Ply 2 stored by another process.
        {
            let mut conn = app.conn();
            let player = kraal::director::personal::holder(&mut conn, dark)
                .unwrap()
                .player;
            kraal::db::plies::add(&mut conn, kraal::ids::GameId(game as i32), player, 2, "D5")
                .unwrap();
        }
        let third = send(&app, dark, game, 3, "E5");
        assert_eq!(third.status, 201, "[{b}] {}", third.body);
        let third = third.json();
        let light: Vec<&str> = third["position"]["light"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["junction"].as_str().unwrap())
            .collect();
        assert_eq!(light, ["D5"], "[{b}] {third}");
        assert_eq!(third["status"], "accepted", "[{b}] {third}");
    }
}

/// Two servers of one database (a federation's app processes behind one
/// proxy): a ply posted to one reaches, within a second, the viewers the
/// other holds, since each reads the games' counters from the database.
#[test]
fn a_ply_posted_to_one_server_reaches_the_viewers_of_another() {
    for app in TestApp::all() {
        let (tid, _api, table, first, second) = event(&app);
        let game = table["games"][0]["id"].as_i64().unwrap();
        let (dark, _light) = dark_and_light(&table, &first, &second);
        let b = app.backend;
        let other = common::Served::start(&app.database_url, |_| {});
        let mut board = stream_at(&other.base, &format!("/t/{tid}/games/{game}/events"));
        std::thread::sleep(std::time::Duration::from_millis(400));
        let sent = std::time::Instant::now();
        assert_eq!(send(&app, dark, game, 1, "D2").status, 201, "[{b}]");
        let seen = next_ply(&mut board, std::time::Duration::from_secs(1))
            .unwrap_or_else(|| panic!("[{b}] the other server's viewer saw no ply"));
        assert!(
            sent.elapsed() < std::time::Duration::from_secs(1),
            "[{b}] {:?}",
            sent.elapsed()
        );
        assert_eq!(
            (&seen["ply"], &seen["move"]),
            (&json!(1), &json!("D2-1")),
            "[{b}] {seen}"
        );
    }
}

/// The records kept at the board leave with the event: its file carries
/// them, and the event read from it elsewhere shows each game's records
/// as its scoresheets, checked, on its live boards too. A ply in the file
/// that is not one ply is refused by name.
#[test]
fn the_event_file_carries_the_records_kept_at_the_board() {
    for app in TestApp::all() {
        let (tid, _api, table, first, second) = event(&app);
        let game = table["games"][0]["id"].as_i64().unwrap();
        let (dark, light) = dark_and_light(&table, &first, &second);
        let b = app.backend;
        for (n, p) in ["C5", "D5", "E5", "A1"].iter().enumerate() {
            both(&app, [dark, light], game, n as i64 + 1, p);
        }
        let file = kraal::db::event::export(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
            .unwrap();
        assert_eq!(file.recorded_plies.len(), 8, "[{b}] both records");
        let text = serde_json::to_string(&file).unwrap();

        let other = TestApp::start(app.backend);
        let imported = kraal::director::commit(&mut other.conn(), None, |w| {
            let file = kraal::db::event::parse(&text)?;
            kraal::db::event::import(w, &file, None)
        })
        .unwrap();
        let (_, _, games) =
            kraal::db::rounds::everything(&mut other.conn(), imported.tournament).unwrap();
        let copy = games[0].id;
        let live = other.client().get(&format!("/api/v1/games/{copy}/live"));
        assert_eq!(live.status, 200, "[{b}] {}", live.body);
        let live = live.json();
        assert_eq!(live["plies"].as_array().unwrap().len(), 4, "[{b}] {live}");
        assert_eq!(live["plies"][3]["move"], "A1-14", "[{b}] {live}");
        let boards = other
            .client()
            .get(&format!("/t/{}/rounds/1/boards", imported.tournament.0));
        assert!(
            boards.body.contains(&format!("data-board-of=\"{copy}\"")),
            "[{b}] the game is on its round's boards"
        );

        let mut bad: Value = serde_json::from_str(&text).unwrap();
        bad["recorded_plies"][2]["written"] = "Z9".into();
        let refused = kraal::db::event::parse(&bad.to_string()).unwrap_err();
        assert!(
            refused.to_string().contains("recorded_plies[2]"),
            "[{b}] {refused}"
        );
    }
}

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

use common::{Reply, TestApp};
use kraal::db::users::Role;
use kraal::rules::{Game, Move, PlayRules, Status};
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

/// A ply as a player writes it: `C5`, `A1-A4`, `D2-D3 x F2`.
fn written(mv: &Move) -> String {
    let mut s = match mv.from {
        Some(f) => format!("{}-{}", f.name(), mv.to.name()),
        None => mv.to.name().to_string(),
    };
    if let Some(t) = mv.shot {
        s.push_str(&format!(" x {}", t.name()));
    }
    s
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
        assert_eq!(live["plies"][0]["move"], plies[0].as_str());
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

//! A player's write sent twice with one `Idempotency-Key` is done once, on
//! both backends: a phone that lost the answer, or an offline queue that
//! sends again, gets the first answer back (a success or a refusal alike)
//! and nothing is stored or audited twice; the same key with another body
//! is refused naming the header; keys belong to a link.

#![allow(clippy::unwrap_used)]

mod common;

use std::sync::{Arc, Barrier};

use common::{Reply, TestApp};
use diesel::prelude::*;
use kraal::db::schema::audit_entries;
use kraal::db::users::Role;
use serde_json::{json, Value};

/// A four-player Swiss of Mpumalanga with round 1 published: the id, the
/// referee's API client, the pairings and the round's personal link keys
/// by player id.
fn event(app: &TestApp) -> (i64, common::Client, Vec<Value>, Vec<(i64, String)>) {
    let referee = app.user("sibusiso", Role::Referee);
    let mut api = app.script_for(&referee);
    let entries: Vec<Value> = [
        "Thabo Nkosi",
        "Lerato Dlamini",
        "Sipho Mokoena",
        "Naledi Khumalo",
    ]
    .iter()
    .enumerate()
    .map(|(i, n)| json!({"name": n, "rating": 1700 - 50 * i as i64}))
    .collect();
    let (tid, _) = common::api_tournament(
        &mut api,
        json!({"name": "Nelspruit Open", "rules": "official", "rounds": 3}),
        &entries,
    );
    let pairings = common::pair(&mut api, tid);
    let links = api.get(&format!("/api/v1/tournaments/{tid}/rounds/1/links"));
    assert_eq!(links.status, 200, "{}", links.body);
    let keys = links.json()["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let url = l["url"].as_str().unwrap();
            (
                l["player"].as_i64().unwrap(),
                url.rsplit('/').next().unwrap().to_string(),
            )
        })
        .collect();
    (tid, api, pairings, keys)
}

fn key_for(keys: &[(i64, String)], player: i64) -> String {
    keys.iter().find(|k| k.0 == player).unwrap().1.clone()
}

fn audited(app: &TestApp, tid: i64) -> i64 {
    audit_entries::table
        .filter(audit_entries::tournament_id.eq(tid as i32))
        .count()
        .get_result(&mut *app.conn())
        .unwrap()
}

fn report(app: &TestApp, link: &str, game: &Value, result: &str, key: &str) -> Reply {
    app.client().send_json_with(
        "POST",
        &format!("/api/v1/player/{link}/results"),
        json!({"game": game["id"], "result": result}),
        &[("Idempotency-Key", key)],
    )
}

#[test]
fn a_report_sent_twice_with_one_key_is_stored_and_audited_once() {
    for app in TestApp::all() {
        let (tid, mut api, pairings, keys) = event(&app);
        let p = &pairings[0];
        let game = &p["games"][0];
        let first = key_for(&keys, p["first_id"].as_i64().unwrap());
        let second = key_for(&keys, p["second_id"].as_i64().unwrap());
        let before = audited(&app, tid);

        let sent = report(&app, &first, game, "1-0", "a3f1c2d4-report-1");
        assert_eq!(sent.status, 200, "{}", sent.body);
        assert!(!sent.headers.contains_key("idempotent-replayed"));
        assert_eq!(audited(&app, tid), before + 1, "[{}]", app.backend);
        let again = report(&app, &first, game, "1-0", "a3f1c2d4-report-1");
        assert_eq!(again.status, 200, "{}", again.body);
        assert_eq!(
            again.json(),
            sent.json(),
            "[{}] the first answer",
            app.backend
        );
        assert_eq!(again.headers["idempotent-replayed"], "true");
        assert_eq!(
            audited(&app, tid),
            before + 1,
            "[{}] audited once",
            app.backend
        );

        // The same key with another result is the client's mistake.
        let other = report(&app, &first, game, "0-1", "a3f1c2d4-report-1");
        assert_eq!(other.status, 422, "{}", other.body);
        assert_eq!(
            other.json()["code"],
            "idempotency_key_reused",
            "{}",
            other.body
        );
        assert_eq!(other.json()["field"], "Idempotency-Key", "{}", other.body);

        // The referee enters another result first: the opponent's report
        // is refused with the stored result, and refused again when the
        // phone sends it again, without a second look.
        common::put(&mut api, game, "0-1");
        let late = report(&app, &second, game, "1-0", "77-late");
        assert_eq!(late.status, 409, "{}", late.body);
        assert_eq!(late.json()["code"], "reported_by_referee", "{}", late.body);
        assert_eq!(late.json()["params"]["result"], "0-1", "{}", late.body);
        let audit_now = audited(&app, tid);
        let late_again = report(&app, &second, game, "1-0", "77-late");
        assert_eq!(
            (late_again.status, late_again.json()),
            (409, late.json()),
            "[{}]",
            app.backend
        );
        assert_eq!(late_again.headers["idempotent-replayed"], "true");
        // A key is the link's: the first player's key on the second
        // player's link is a new write (refused for its own reason).
        let borrowed = report(&app, &second, game, "1-0", "a3f1c2d4-report-1");
        assert_eq!(borrowed.status, 409, "{}", borrowed.body);
        assert!(!borrowed.headers.contains_key("idempotent-replayed"));
        assert_eq!(audited(&app, tid), audit_now, "[{}]", app.backend);

        // A key no client would make up is refused naming the header.
        for bad in ["", &"k".repeat(256), "two words"] {
            let r = report(&app, &first, &p["games"][1], "1-0", bad);
            assert_eq!(r.status, 422, "{bad:?}: {}", r.body);
            assert_eq!(r.json()["code"], "not_an_idempotency_key", "{}", r.body);
        }
        // A link that does not hold is 404 whatever the key and body: no
        // answer is kept for it.
        let made_up = "0".repeat(32);
        for result in ["1-0", "0-1"] {
            let r = report(&app, &made_up, game, result, "a3f1c2d4-report-1");
            assert_eq!(r.status, 404, "{}", r.body);
        }
        // Without a key, a write is done as before.
        let plain = app.client().send_json(
            "POST",
            &format!("/api/v1/player/{first}/results"),
            json!({"game": p["games"][1]["id"], "result": "1-0"}),
        );
        assert_eq!(plain.status, 200, "{}", plain.body);
    }
}

#[test]
fn two_sends_of_one_key_at_the_same_instant_store_one_report() {
    for app in TestApp::all() {
        let (tid, _, pairings, keys) = event(&app);
        let p = &pairings[1];
        let game = p["games"][0].clone();
        let link = key_for(&keys, p["first_id"].as_i64().unwrap());
        let before = audited(&app, tid);
        let barrier = Arc::new(Barrier::new(2));
        let answers: Vec<(u16, Value)> = std::thread::scope(|s| {
            let sends: Vec<_> = (0..2)
                .map(|_| {
                    let (barrier, app, game, link) = (barrier.clone(), &app, &game, &link);
                    s.spawn(move || {
                        barrier.wait();
                        let r = report(app, link, game, "1/2-1/2", "same-instant");
                        (r.status, r.json())
                    })
                })
                .collect();
            sends.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(answers[0], answers[1], "[{}]", app.backend);
        assert_eq!(answers[0].0, 200, "{:?}", answers[0]);
        assert_eq!(
            audited(&app, tid),
            before + 1,
            "[{}] audited once",
            app.backend
        );
    }
}

#[test]
fn the_players_page_and_the_next_round_word_take_a_key_too() {
    for app in TestApp::all() {
        let (tid, _, pairings, keys) = event(&app);
        let p = &pairings[0];
        let link = key_for(&keys, p["first_id"].as_i64().unwrap());
        let mut phone = app.client();
        assert_eq!(phone.get(&format!("/player/{link}")).status, 200);
        let before = audited(&app, tid);
        let game = p["games"][0]["id"].to_string();
        let fields = [("game", game.as_str()), ("result", "1-0")];
        let path = format!("/player/{link}/results");
        let sent = phone.post_with(&path, &fields, &[("Idempotency-Key", "form-1")]);
        assert_eq!(sent.status, 303, "{}", sent.body);
        let again = phone.post_with(&path, &fields, &[("Idempotency-Key", "form-1")]);
        assert_eq!(again.status, 303, "{}", again.body);
        assert_eq!(again.headers["location"], sent.headers["location"]);
        assert_eq!(again.headers["idempotent-replayed"], "true");
        assert_eq!(audited(&app, tid), before + 1, "[{}]", app.backend);

        let word = |body: Value| {
            app.client().send_json_with(
                "POST",
                &format!("/api/v1/player/{link}/next-round"),
                body,
                &[("Idempotency-Key", "word-1")],
            )
        };
        let out = word(json!({"play": false, "bye": "zero"}));
        assert_eq!(out.status, 200, "{}", out.body);
        let after_word = audited(&app, tid);
        let again = word(json!({"play": false, "bye": "zero"}));
        assert_eq!((again.status, again.json()), (200, out.json()));
        assert_eq!(audited(&app, tid), after_word);
        assert_eq!(word(json!({"play": true})).status, 422);
    }
}

//! Correcting a round: clearing its results, undoing it only where that
//! can work, a draft that tells players it is not published yet, and a
//! round robin that cannot be paired saying who blocks it and the way out.

#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, TestApp};
use kraal::db::users::{Role, User};
use serde_json::{json, Value};

const NAMES: [&str; 6] = [
    "Thabo Mokoena",
    "Sipho Dlamini",
    "Naledi Khumalo",
    "Lerato Molefe",
    "Bongani Zulu",
    "Palesa Nkosi",
];

fn event(app: &TestApp, body: Value, players: usize) -> (User, Client, i64, Vec<i64>) {
    let admin = app.user("director", Role::Admin);
    let mut api = app.script_for(&admin);
    let entries: Vec<Value> = NAMES
        .iter()
        .take(players)
        .enumerate()
        .map(|(i, name)| json!({"name": name, "club": format!("Club {i}"), "rating": 1800 - 20 * i as i64}))
        .collect();
    let (tid, ids) = common::api_tournament(&mut api, body, &entries);
    (admin, api, tid, ids)
}

fn results_of(app: &TestApp, tid: i64, n: i32) -> Vec<Value> {
    let round = app
        .client()
        .get(&format!("/api/v1/tournaments/{tid}/rounds/{n}"))
        .json();
    round["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["games"].as_array().unwrap().clone())
        .map(|g| g["result"].clone())
        .collect()
}

#[test]
fn a_rounds_results_are_cleared_after_a_question_and_undo_is_offered_only_where_it_works() {
    for app in TestApp::all() {
        let (admin, mut api, tid, _) = event(
            &app,
            json!({"name": "Free State Open", "rules": "official", "rounds": 4}),
            6,
        );
        let round_1 = common::pair(&mut api, tid);
        let mut page = app.client_as(&admin);
        let fresh = page.get(&format!("/t/{tid}/rounds/1"));
        assert!(
            fresh.body.contains("data-action=\"undo\""),
            "no results yet: undo works"
        );
        assert!(
            !fresh.body.contains("data-action=\"clear\""),
            "nothing to clear"
        );

        let game = &round_1[0]["games"][0];
        common::put(&mut api, game, "1-0");
        let one = page.get(&format!("/t/{tid}/rounds/1"));
        assert!(!one.body.contains("data-action=\"undo\""));
        assert!(one.body.contains("data-undo-blocked"));
        // English until the page carries the blocker as a value (it is a
        // sentence made in director::undo_blocker)
        assert!(one
            .body
            .contains("Round 1 has 1 result: clear them first to undo it."));
        assert!(one.body.contains("data-action=\"clear\""));

        // The question says what clearing does; only the confirmation clears.
        let asked = page.post(&format!("/t/{tid}/rounds/1/clear"), &[]);
        assert_eq!(asked.status, 200);
        assert!(common::has_attr(
            &asked.body,
            "action",
            &format!("/t/{tid}/rounds/1/clear")
        ));
        assert_eq!(results_of(&app, tid, 1)[0], "1-0", "not cleared yet");
        let cleared = page.post(&format!("/t/{tid}/rounds/1/clear"), &[("confirm", "yes")]);
        assert_eq!(cleared.status, 303, "{}", cleared.body);
        assert!(results_of(&app, tid, 1).iter().all(|r| r == ""));
        let audit = page.get(&format!("/t/{tid}/audit")).body;
        assert!(
            common::has_attr(&audit, "data-audit-action", "clear results of"),
            "audited"
        );
        assert!(page
            .get(&format!("/t/{tid}/rounds/1"))
            .body
            .contains("data-action=\"undo\""));

        // Once round 2 is paired, round 1's results stand and round 1
        // cannot be undone; the page says what blocks it.
        for p in &round_1 {
            for g in p["games"].as_array().unwrap() {
                common::put(&mut api, g, "1-0");
            }
        }
        common::pair(&mut api, tid);
        let earlier = page.get(&format!("/t/{tid}/rounds/1")).body;
        assert!(!earlier.contains("data-action=\"undo\""));
        assert!(!earlier.contains("data-action=\"clear\""));
        assert!(earlier.contains("data-undo-blocked"));
        assert_eq!(
            common::refusal_of(&earlier),
            ("undo_not_last".to_string(), json!({"round": 1})),
            "{earlier}"
        );
        let refused = page.post(&format!("/t/{tid}/rounds/1/clear"), &[("confirm", "yes")]);
        assert_eq!(refused.status, 409);
        assert_eq!(
            common::attr_values(&refused.body, "data-code"),
            ["clear_not_last"],
            "{}",
            refused.body
        );
        assert!(results_of(&app, tid, 1).iter().all(|r| r == "1-0"));
    }
}

#[test]
fn a_knock_out_round_cleared_loses_its_tiebreak_sets_with_its_results() {
    for app in TestApp::all() {
        let (admin, mut api, tid, _) = event(
            &app,
            json!({"name": "Bloemfontein Cup", "system": "knockout", "rules": "official"}),
            4,
        );
        let round_1 = common::pair(&mut api, tid);
        // Table 1 level after its two games: a tiebreak set follows.
        for g in round_1[0]["games"].as_array().unwrap() {
            common::put(&mut api, g, "1-0");
        }
        let games = |app: &TestApp| {
            app.client()
                .get(&format!("/api/v1/tournaments/{tid}/rounds/1"))
                .json()["pairings"][0]["games"]
                .as_array()
                .unwrap()
                .len()
        };
        assert_eq!(games(&app), 4, "two main games and a tiebreak set");
        let mut page = app.client_as(&admin);
        let cleared = page.post(&format!("/t/{tid}/rounds/1/clear"), &[("confirm", "yes")]);
        assert_eq!(cleared.status, 303, "{}", cleared.body);
        assert_eq!(games(&app), 2, "the set went with the level result");
    }
}

#[test]
fn players_opening_a_draft_round_read_that_it_is_not_published_yet() {
    for app in TestApp::all() {
        let (admin, _api, tid, _) = event(
            &app,
            json!({"name": "Welkom Rapid", "rules": "official", "rounds": 3}),
            4,
        );
        let mut referee = app.client_as(&admin);
        assert_eq!(referee.post(&format!("/t/{tid}/rounds"), &[]).status, 303);
        let page = app.client().get(&format!("/t/{tid}/rounds/1"));
        assert_eq!(page.status, 404);
        assert_eq!(
            common::attr_values(&page.body, "data-code"),
            ["round_not_published"],
            "{}",
            page.body
        );
        let json = app
            .client()
            .get(&format!("/api/v1/tournaments/{tid}/rounds/1"));
        assert_eq!(json.status, 404);
        assert_eq!(json.json()["code"], "round_not_published", "{}", json.body);
        assert_eq!(json.json()["params"]["round"], 1, "{}", json.body);
        let missing = app.client().get(&format!("/t/{tid}/rounds/2"));
        assert_eq!(missing.status, 404);
        assert_eq!(
            common::attr_values(&missing.body, "data-code"),
            ["not_found"],
            "{}",
            missing.body
        );
    }
}

#[test]
fn a_round_robin_that_cannot_be_paired_names_the_players_and_the_way_out() {
    for app in TestApp::all() {
        // Under GAR relatives never meet, and in a round robin everyone meets.
        let (_admin, mut api, tid, ids) = event(
            &app,
            json!({"name": "Kroonstad Closed", "system": "round_robin", "rules": "gar"}),
            4,
        );
        api.create(
            &format!("/api/v1/tournaments/{tid}/relations"),
            json!({"a": ids[0], "b": ids[1]}),
        );
        let r = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/rounds"),
            json!({}),
        );
        assert_eq!(r.status, 409, "{}", r.body);
        assert_eq!(r.json()["code"], "no_pairing", "{}", r.body);
        assert_eq!(r.json()["params"]["round_robin"], true, "{}", r.body);
        // the words are the point: the sentence names the players, not their ids
        let error = r.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains("Thabo Mokoena and Sipho Dlamini"), "{error}");
        assert!(!error.contains(&ids[0].to_string()), "no ids: {error}");
        assert!(error.contains("waive"), "the way out: {error}");

        // The way out works: keep the pair apart, then waive it.
        let kept = api.create(
            &format!("/api/v1/tournaments/{tid}/forbidden"),
            json!({"a": ids[0], "b": ids[1]}),
        );
        let waived = api.send_json(
            "PUT",
            &format!("/api/v1/tournaments/{tid}/forbidden/{}/waiver", kept["id"]),
            json!({"reason": "a closed event of four: everyone meets"}),
        );
        assert_eq!(waived.status, 200, "{}", waived.body);
        assert_eq!(common::pair(&mut api, tid).len(), 2);
    }
}

#[test]
fn a_saved_game_comes_back_as_the_rounds_json_shows_it() {
    for app in TestApp::all() {
        let (_admin, mut api, tid, _) = event(
            &app,
            json!({"name": "Parys Rapid", "rules": "official", "rounds": 3}),
            4,
        );
        let round_1 = common::pair(&mut api, tid);
        let game = &round_1[0]["games"][1];
        let saved = api.send_json(
            "PUT",
            &format!("/api/v1/games/{}", game["id"]),
            json!({"result": "0-1"}),
        );
        assert_eq!(saved.status, 200, "{}", saved.body);
        let round = app
            .client()
            .get(&format!("/api/v1/tournaments/{tid}/rounds/1"))
            .json();
        let shown = &round["pairings"][0]["games"][1];
        assert_eq!(saved.json(), *shown, "one shape for one game");
        assert_eq!(
            shown["starter"], round_1[0]["second"],
            "game 2: the other starts"
        );
        let cleared = api.send_json(
            "PUT",
            &format!("/api/v1/games/{}", game["id"]),
            json!({"result": null}),
        );
        assert_eq!(cleared.json()["result"], "");
    }
}

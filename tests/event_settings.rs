//! Settings an event under way cannot lose, and rounds that follow the
//! field: the edit form and `PATCH /api/v1/tournaments/{id}` refuse a
//! change that would break the event, and a round robin or knock-out plays
//! the rounds its field gives.

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::HashMap;

use common::{Client, TestApp};
use kraal::db::users::Role;
use serde_json::{json, Value};

const NAMES: [&str; 8] = [
    "Thabo Mokoena",
    "Sipho Dlamini",
    "Naledi Khumalo",
    "Lerato Molefe",
    "Bongani Zulu",
    "Palesa Nkosi",
    "Kagiso Sithole",
    "Refilwe Dube",
];

/// A tournament made through the API with `players` entered; the script
/// client and the tournament id.
fn event(app: &TestApp, body: Value, players: usize) -> (Client, i64) {
    let admin = app.user("director", Role::Admin);
    let mut api = app.script_for(&admin);
    let entries: Vec<Value> = NAMES
        .iter()
        .take(players)
        .enumerate()
        .map(|(i, name)| json!({"name": name, "club": format!("Club {}", i % 3), "rating": 1800 - 20 * i as i64}))
        .collect();
    let (tid, _) = common::api_tournament(&mut api, body, &entries);
    (api, tid)
}

/// Every game of `pairings` given a result: the player listed first wins.
fn play(api: &mut Client, pairings: &[Value]) {
    for p in pairings {
        for g in p["games"].as_array().unwrap() {
            let first_started = g["first_started"].as_bool().unwrap();
            common::put(api, g, if first_started { "1-0" } else { "0-1" });
        }
    }
}

fn patch(api: &mut Client, tid: i64, body: Value) -> common::Reply {
    api.send_json("PATCH", &format!("/api/v1/tournaments/{tid}"), body)
}

#[test]
fn settings_that_pairings_rest_on_cannot_change_once_a_round_exists() {
    for app in TestApp::all() {
        let (mut api, tid) = event(
            &app,
            json!({"name": "Polokwane Open", "rules": "official", "rounds": 5}),
            8,
        );
        // Before round 1 everything may change.
        let early = patch(&mut api, tid, json!({"games_per_pairing": 6}));
        assert_eq!(early.status, 200, "{}", early.body);
        assert_eq!(early.json()["games_per_pairing"], 6);
        let back = patch(&mut api, tid, json!({"games_per_pairing": 2}));
        assert_eq!(back.status, 200, "{}", back.body);

        let round_1 = common::pair(&mut api, tid);
        play(&mut api, &round_1);
        let before = patch(&mut api, tid, json!({})).json();

        for (body, field) in [
            (json!({"system": "knockout"}), "system"),
            (json!({"rules": "gar"}), "rules"),
            (json!({"games_per_pairing": 6}), "games_per_pairing"),
            (json!({"tiebreaks": ["wins"]}), "tiebreaks"),
            (json!({"ranking": "match_points"}), "ranking"),
            (json!({"bye_value": "draw"}), "bye_value"),
            // A change of a free field does not smuggle a locked one in.
            (
                json!({"name": "Polokwane Open 2026", "system": "round_robin"}),
                "system",
            ),
        ] {
            let r = patch(&mut api, tid, body.clone());
            assert_eq!(r.status, 409, "{body}: {}", r.body);
            assert_eq!(r.json()["field"], field, "{body}");
            assert_eq!(r.json()["code"], "setting_locked", "{}", r.body);
            // the words are the point: the message names the setting
            assert!(
                r.json()["error"].as_str().unwrap().contains(field),
                "the message names {field}: {}",
                r.body
            );
        }
        assert_eq!(
            patch(&mut api, tid, json!({})).json(),
            before,
            "nothing changed"
        );

        // Fields that do not touch the pairings still change.
        let ok = patch(
            &mut api,
            tid,
            json!({"name": "Polokwane Open 2026", "venue": "Library Gardens", "records_public": true, "rounds": 6}),
        );
        assert_eq!(ok.status, 200, "{}", ok.body);
        let t = ok.json();
        assert_eq!(t["name"], "Polokwane Open 2026");
        assert_eq!(t["records_public"], true);
        assert_eq!(t["rounds"], 6);
        assert_eq!(t["system"], "swiss");
        assert_eq!(t["tiebreaks"], before["tiebreaks"]);

        // Fewer rounds than are paired is refused, naming the field.
        let fewer = patch(&mut api, tid, json!({"rounds": 0}));
        assert_eq!(fewer.status, 422, "{}", fewer.body);
        assert_eq!(fewer.json()["field"], "rounds");
    }
}

#[test]
fn the_edit_form_shows_locked_settings_read_only_and_refuses_a_forged_change() {
    for app in TestApp::all() {
        let (mut api, tid) = event(
            &app,
            json!({"name": "Mahikeng Rapid", "rules": "official", "rounds": 5}),
            6,
        );
        let admin = app.user("chief", Role::Admin);
        let mut page = app.client_as(&admin);
        // Each setting's own control, while it may still change.
        let controls = [
            ("system", "system"),
            ("rules", "rules"),
            ("games_per_pairing", "games_per_pairing"),
            ("tiebreaks", "tb1"),
        ];
        let open = page.get(&format!("/t/{tid}/edit")).body;
        for (field, control) in controls {
            assert!(
                open.contains(&format!("<select id=\"{control}\"")),
                "{field} is a choice before round 1"
            );
            assert!(!open.contains(&format!("data-locked=\"{field}\"")));
        }
        let round_1 = common::pair(&mut api, tid);
        play(&mut api, &round_1);
        let form = page.get(&format!("/t/{tid}/edit"));
        assert_eq!(form.status, 200);
        for (field, control) in controls {
            assert!(
                form.body.contains(&format!("data-locked=\"{field}\"")),
                "{field} is shown read-only"
            );
            assert!(
                !form.body.contains(&format!("<select id=\"{control}\"")),
                "{field} has no select"
            );
        }

        // A form posted as it stands keeps everything.
        let mut fields = common::form_fields(&form.body, &format!("action=\"/t/{tid}/edit\""));
        common::set_field(&mut fields, "name", "Mahikeng Rapid 2026");
        let pairs: Vec<(&str, &str)> = fields
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let saved = page.post(&format!("/t/{tid}/edit"), &pairs);
        assert_eq!(saved.status, 303, "{}", saved.body);

        // A forged system change is refused with the reason, and nothing
        // changes.
        common::set_field(&mut fields, "system", "knockout");
        common::set_field(&mut fields, "name", "Forged");
        let pairs: Vec<(&str, &str)> = fields
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let forged = page.post(&format!("/t/{tid}/edit"), &pairs);
        assert_eq!(forged.status, 409, "{}", forged.body);
        assert_eq!(
            common::attr_values(&forged.body, "data-error-field"),
            ["system"],
            "{}",
            forged.body
        );
        let t = patch(&mut api, tid, json!({})).json();
        assert_eq!(t["system"], "swiss");
        assert_eq!(t["name"], "Mahikeng Rapid 2026");
        assert_eq!(
            t["tiebreaks"],
            json!(["direct_encounter", "buchholz", "sonneborn_berger", "wins"])
        );
    }
}

/// Every pair that met in `rounds`, with who started, in order.
fn meetings(rounds: &[Vec<Value>]) -> Vec<(i64, i64)> {
    rounds
        .iter()
        .flatten()
        .filter(|p| !p["second_id"].is_null())
        .map(|p| {
            (
                p["first_id"].as_i64().unwrap(),
                p["second_id"].as_i64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_round_robin_plays_the_rounds_its_field_gives_and_no_more() {
    for app in TestApp::all() {
        let (mut api, tid) = event(
            &app,
            json!({"name": "Limpopo Closed", "system": "round_robin", "rules": "official"}),
            6,
        );
        let t = patch(&mut api, tid, json!({})).json();
        assert_eq!(t["rounds"], Value::Null, "left to the field");
        let page = app.client().get(&format!("/t/{tid}"));
        assert!(
            page.body.contains("rounds follow the field: 5"),
            "the page says what the field gives"
        );
        let mut rounds = Vec::new();
        for _ in 0..5 {
            let pairings = common::pair(&mut api, tid);
            play(&mut api, &pairings);
            rounds.push(pairings);
        }
        assert_eq!(patch(&mut api, tid, json!({})).json()["rounds"], 5);
        let met = meetings(&rounds);
        let mut seen: HashMap<(i64, i64), usize> = HashMap::new();
        for (a, b) in &met {
            *seen.entry(((*a).min(*b), (*a).max(*b))).or_default() += 1;
        }
        assert_eq!(seen.len(), 15, "every pair of six meets");
        assert!(seen.values().all(|&n| n == 1), "nobody meets twice");
        let past = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/rounds"),
            json!({}),
        );
        assert_eq!(past.status, 409, "{}", past.body);
        assert_eq!(past.json()["code"], "all_paired", "{}", past.body);
        assert_eq!(past.json()["params"]["total"], 5, "{}", past.body);
        // And the rounds cannot now become something other than whole cycles.
        let seven = patch(&mut api, tid, json!({"rounds": 7}));
        assert_eq!(seven.status, 422, "{}", seven.body);
        assert_eq!(seven.json()["field"], "rounds");
    }
}

#[test]
fn a_double_round_robin_swaps_the_starts_in_its_second_cycle() {
    for app in TestApp::all() {
        let (mut api, tid) = event(
            &app,
            json!({"name": "Vhembe League", "system": "round_robin", "rules": "official", "cycles": 2}),
            5,
        );
        let mut rounds = Vec::new();
        for _ in 0..10 {
            let pairings = common::pair(&mut api, tid);
            play(&mut api, &pairings);
            rounds.push(pairings);
        }
        assert_eq!(
            patch(&mut api, tid, json!({})).json()["rounds"],
            10,
            "two cycles of five players (a bye seat each round)"
        );
        let first = meetings(&rounds[..5]);
        let second = meetings(&rounds[5..]);
        assert_eq!(first.len(), 10);
        assert_eq!(second.len(), 10);
        for (a, b) in &first {
            assert!(
                second.contains(&(*b, *a)),
                "{a} started against {b} in the first cycle, so {b} starts in the second"
            );
        }
        let past = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/rounds"),
            json!({}),
        );
        assert_eq!(past.status, 409, "{}", past.body);
    }
}

#[test]
fn rounds_that_are_not_whole_cycles_are_refused_naming_the_field() {
    for app in TestApp::all() {
        let (mut api, tid) = event(
            &app,
            json!({"name": "Waterberg Closed", "system": "round_robin", "rules": "official", "rounds": 7}),
            6,
        );
        let page = app.client().get(&format!("/t/{tid}"));
        assert!(
            page.body
                .contains("7 rounds is not a whole number of cycles"),
            "the tournament page warns before the first pairing"
        );
        let r = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/rounds"),
            json!({}),
        );
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(r.json()["field"], "rounds");
        assert_eq!(r.json()["code"], "not_whole_cycles", "{}", r.body);
        assert_eq!(r.json()["params"]["cycle"], 5, "{}", r.body);
        // The referee leaves the rounds to the field, and round 1 pairs.
        assert_eq!(patch(&mut api, tid, json!({"rounds": null})).status, 200);
        assert_eq!(common::pair(&mut api, tid).len(), 3);

        // A Swiss needs its rounds; cycles are for round robins.
        for (body, field) in [
            (json!({"name": "Capricorn Swiss"}), "rounds"),
            (
                json!({"name": "Capricorn Swiss", "rounds": 5, "cycles": 2}),
                "cycles",
            ),
            (
                json!({"name": "Capricorn RR", "system": "round_robin", "cycles": 3}),
                "cycles",
            ),
        ] {
            let r = api.send_json("POST", "/api/v1/tournaments", body.clone());
            assert_eq!(r.status, 422, "{body}: {}", r.body);
            assert_eq!(r.json()["field"], field, "{body}");
        }
    }
}

#[test]
fn a_knock_out_fixes_its_rounds_from_the_bracket() {
    for app in TestApp::all() {
        let (mut api, tid) = event(
            &app,
            json!({"name": "Sekhukhune Cup", "system": "knockout", "rules": "official"}),
            8,
        );
        common::pair(&mut api, tid);
        assert_eq!(patch(&mut api, tid, json!({})).json()["rounds"], 3);
    }
}

#[test]
fn the_new_tournament_form_offers_each_systems_usual_rounds_and_bye() {
    for app in TestApp::all() {
        let admin = app.user("director", Role::Admin);
        let form = app.client_as(&admin).get("/t/new").body;
        for (system, rounds, bye) in [
            ("swiss", "7", "win"),
            ("round_robin", "", "none"),
            ("knockout", "", "win"),
            ("team_league", "", "none"),
            ("team_swiss", "7", "win"),
        ] {
            assert!(
                form.contains(&format!(
                    "value=\"{system}\" data-rounds=\"{rounds}\" data-bye=\"{bye}\""
                )),
                "{system}"
            );
        }
    }
}

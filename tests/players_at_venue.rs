//! Players at the venue, on both backends: each player's personal link
//! (printed for the round, revoked, renewed, kept out of public pages and
//! stored as a digest), the results players report and confirm (agreeing,
//! disputed, the referee's entry winning, the confirmation settings), the
//! races between two reports and between a report and the referee, the
//! word on the next round, the round clock and the rate limits.

#![allow(clippy::unwrap_used)]

mod common;

use std::sync::{Arc, Barrier};

use common::{attr_values, has_attr, tag_with, Client, TestApp};
use kraal::db::users::Role;
use kraal::web::limit::{WRITES_PER_CLIENT, WRITES_PER_KEY};
use serde_json::{json, Value};

/// A six-player Swiss of the Free State with round 1 published: the id,
/// the referee's API client and the pairings.
fn event(app: &TestApp, settings: Value) -> (i64, Client, Vec<Value>) {
    let referee = app.user("palesa", Role::Referee);
    let mut api = app.script_for(&referee);
    let entries: Vec<Value> = [
        "Thabo Nkosi",
        "Lerato Dlamini",
        "Sipho Mokoena",
        "Naledi Khumalo",
        "Zanele Mahlangu",
        "Bongani Zulu",
    ]
    .iter()
    .enumerate()
    .map(|(i, n)| json!({"name": n, "rating": 1800 - 40 * i as i64}))
    .collect();
    let mut body = json!({"name": "Free State Open", "rules": "official", "rounds": 4});
    for (k, v) in settings.as_object().unwrap() {
        body[k] = v.clone();
    }
    let (tid, _) = common::api_tournament(&mut api, body, &entries);
    let pairings = common::pair(&mut api, tid);
    (tid, api, pairings)
}

/// The personal links of round `n`, by player id.
fn links(api: &mut Client, tid: i64, n: i64) -> Vec<(i64, String, String)> {
    let r = api.get(&format!("/api/v1/tournaments/{tid}/rounds/{n}/links"));
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["player"].as_i64().unwrap(),
                l["name"].as_str().unwrap().to_string(),
                l["url"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The key of a link's address.
fn key_of(url: &str) -> String {
    url.rsplit('/').next().unwrap().to_string()
}

fn key_for(links: &[(i64, String, String)], player: i64) -> String {
    key_of(&links.iter().find(|l| l.0 == player).unwrap().2)
}

fn report(app: &TestApp, key: &str, game: i64, result: &str) -> common::Reply {
    app.client().send_json(
        "POST",
        &format!("/api/v1/player/{key}/results"),
        json!({"game": game, "result": result}),
    )
}

fn game_json(api: &mut Client, tid: i64, game: i64) -> Value {
    let round = api
        .get(&format!("/api/v1/tournaments/{tid}/rounds/1"))
        .json();
    round["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["games"].as_array().unwrap().clone())
        .find(|g| g["id"].as_i64() == Some(game))
        .unwrap()
}

/// The first pairing's two players (first, second) and its first game.
fn table_one(pairings: &[Value]) -> (i64, i64, Value) {
    let p = &pairings[0];
    (
        p["first_id"].as_i64().unwrap(),
        p["second_id"].as_i64().unwrap(),
        p["games"][0].clone(),
    )
}

#[test]
fn each_player_has_a_link_of_their_own_kept_out_of_public_pages_and_stored_as_a_digest() {
    for app in TestApp::all() {
        let (tid, mut api, pairings) = event(&app, json!({}));
        let all = links(&mut api, tid, 1);
        assert_eq!(all.len(), 6, "every player of round 1 has a link");
        let (first, second, g1) = table_one(&pairings);
        // The link opens the player's page: table, opponent, who starts.
        let key = key_for(&all, first);
        let page = app.client().get(&format!("/player/{key}"));
        assert_eq!(page.status, 200, "{}", page.body);
        let opponent = &all.iter().find(|l| l.0 == second).unwrap().1;
        assert!(has_attr(&page.body, "data-table", "1") && page.body.contains(opponent.as_str()));
        let game_one = tag_with(&page.body, "data-game", &g1["id"].to_string());
        assert_eq!(
            attr_values(game_one[0], "data-you-start"),
            ["true"],
            "{}",
            page.body
        );
        // The phone that opened it may keep it (to open it in a dead spot),
        // asking each time it is online; no shared cache may.
        assert_eq!(
            page.headers.get("cache-control").map(String::as_str),
            Some("private, no-cache")
        );
        let own = app.client().get(&format!("/api/v1/player/{key}")).json();
        assert_eq!(own["current"]["table"], 1);
        assert_eq!(own["current"]["opponent_id"], second);
        assert_eq!(own["current"]["games"][0]["you_start"], true);

        // No public page or export holds a key; the database holds none.
        let mut public = app.client();
        for path in [
            format!("/t/{tid}"),
            format!("/t/{tid}/rounds/1"),
            format!("/t/{tid}/rounds/1/slips"),
            format!("/t/{tid}/standings"),
            format!("/t/{tid}/standings.csv"),
            format!("/t/{tid}/players.csv"),
            format!("/t/{tid}/rounds/1/pairings.csv"),
            format!("/t/{tid}/display"),
            format!("/api/v1/tournaments/{tid}/rounds/1"),
        ] {
            let body = public.get(&path).body;
            for (_, _, url) in &all {
                assert!(!body.contains(&key_of(url)), "{path} shows a link");
            }
        }
        let event = serde_json::to_string(
            &kraal::db::event::export(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap(),
        )
        .unwrap();
        assert!(all.iter().all(|(_, _, u)| !event.contains(&key_of(u))));
        use diesel::prelude::*;
        use kraal::db::schema::players;
        let stored: Vec<Option<String>> = players::table
            .select(players::link_digest)
            .load(&mut app.conn())
            .unwrap();
        assert!(stored
            .iter()
            .all(|d| d.as_ref().is_some_and(|d| d.len() == 64)));
        for (_, _, url) in &all {
            assert!(
                !stored.contains(&Some(key_of(url))),
                "a key is stored as it is"
            );
        }

        // Anyone else, and a wrong key, is refused.
        let r = app
            .client()
            .get(&format!("/api/v1/tournaments/{tid}/rounds/1/links"));
        assert_eq!(r.status, 401);
        let stranger = app.user("stranger", Role::Referee);
        let r = app
            .script_for(&stranger)
            .get(&format!("/api/v1/tournaments/{tid}/rounds/1/links"));
        assert_eq!(r.status, 403);
        let wrong: String = key.chars().rev().collect();
        assert_eq!(app.client().get(&format!("/player/{wrong}")).status, 404);
        let r = app.client().get(&format!("/api/v1/player/{wrong}"));
        assert_eq!(r.status, 404);
        assert_eq!(r.json()["code"], "not_found", "{}", r.body);
        assert_eq!(r.json()["params"]["what"], "player_link", "{}", r.body);

        // Revoked: the link is dead; renewed: a new one works, the old not.
        let r = api.send_json(
            "DELETE",
            &format!("/api/v1/tournaments/{tid}/players/{first}/link"),
            json!({}),
        );
        assert_eq!(r.status, 204, "{}", r.body);
        assert_eq!(app.client().get(&format!("/player/{key}")).status, 404);
        let r = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/players/{first}/link"),
            json!({}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let renewed = key_of(r.json()["url"].as_str().unwrap());
        assert_ne!(renewed, key);
        assert_eq!(app.client().get(&format!("/player/{key}")).status, 404);
        assert_eq!(app.client().get(&format!("/player/{renewed}")).status, 200);
        assert_eq!(key_for(&links(&mut api, tid, 1), first), renewed);
        // The referee's printable cards carry a QR code per player.
        let referee = app.user("desk", Role::Admin);
        let cards = app
            .client_as(&referee)
            .get(&format!("/t/{tid}/rounds/1/links"));
        assert_eq!(cards.status, 200);
        assert_eq!(cards.body.matches("<svg").count(), 6);
        assert!(cards.body.contains(&renewed));
        assert_eq!(
            app.client().get(&format!("/t/{tid}/rounds/1/links")).status,
            401
        );
    }
}

#[test]
fn two_reports_that_agree_store_the_result_and_two_that_differ_flag_the_game() {
    for app in TestApp::all() {
        let (tid, mut api, pairings) = event(&app, json!({}));
        let all = links(&mut api, tid, 1);
        let (first, second, g1) = table_one(&pairings);
        let (kf, ks) = (key_for(&all, first), key_for(&all, second));
        let g1 = g1["id"].as_i64().unwrap();
        let g2 = pairings[0]["games"][1]["id"].as_i64().unwrap();

        let r = report(&app, &kf, g1, "1-0");
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["outcome"]["state"], "waiting");
        assert_eq!(game_json(&mut api, tid, g1)["result"], "");
        let r = report(&app, &ks, g1, "1-0");
        assert_eq!(r.json()["outcome"]["state"], "store");
        let g = game_json(&mut api, tid, g1);
        assert_eq!(
            (g["result"].as_str(), g["reported"].as_bool()),
            (Some("1-0"), Some(true))
        );
        // Stored: the desk's audit says by whom, and reporting is closed.
        let audit = app
            .client_as(&app.user("chief", Role::Admin))
            .get(&format!("/t/{tid}/audit"));
        assert!(
            has_attr(&audit.body, "data-audit-action", "result reported by both"),
            "{}",
            audit.body
        );
        let r = report(&app, &ks, g1, "0-1");
        assert_eq!(r.status, 409);
        assert_eq!(r.json()["code"], "report_agreed", "{}", r.body);
        assert_eq!(r.json()["params"]["result"], "1-0", "{}", r.body);

        // Game 2: they differ. Nothing is stored; the round says disputed.
        assert_eq!(report(&app, &kf, g2, "1/2-1/2").status, 200);
        let r = report(&app, &ks, g2, "0-1");
        assert_eq!(r.json()["outcome"]["state"], "disputed");
        let g = game_json(&mut api, tid, g2);
        assert_eq!(g["result"], "");
        assert_eq!(g["disputed"], true);
        let reports = g["reports"].as_array().unwrap();
        assert_eq!(reports.len(), 2);
        assert!(reports.contains(&json!({"player": first, "result": "1/2-1/2"})));
        assert!(reports.contains(&json!({"player": second, "result": "0-1"})));
        let desk = app
            .client_as(&app.user("desk", Role::Admin))
            .get(&format!("/t/{tid}/rounds/1/results"));
        assert!(desk.body.contains("data-disputed"), "the desk flags it");
        // A correction that agrees settles it.
        assert_eq!(
            report(&app, &kf, g2, "0-1").json()["outcome"]["state"],
            "store"
        );
        assert_eq!(game_json(&mut api, tid, g2)["disputed"], false);

        // A forfeit, another player's game and a made-up game are refused.
        let other_game = pairings[1]["games"][0]["id"].as_i64().unwrap();
        let r = report(&app, &kf, other_game, "1-0");
        assert_eq!(r.status, 403, "{}", r.body);
        let r = report(&app, &kf, g1 + 10_000, "1-0");
        assert_eq!(r.status, 403);
        let g3 = pairings[1]["games"][1]["id"].as_i64().unwrap();
        let k3 = key_for(&all, pairings[1]["first_id"].as_i64().unwrap());
        let r = report(&app, &k3, g3, "+-");
        assert_eq!(r.status, 409);
        assert_eq!(r.json()["code"], "report_not_played", "{}", r.body);
        let r = report(&app, &k3, g3, "two-nil");
        assert_eq!(
            (r.status, r.json()["field"].as_str()),
            (422, Some("result"))
        );
    }
}

#[test]
fn the_referees_entry_wins_and_closes_reporting() {
    for app in TestApp::all() {
        let (tid, mut api, pairings) = event(&app, json!({}));
        let all = links(&mut api, tid, 1);
        let (first, second, g1) = table_one(&pairings);
        let (kf, ks) = (key_for(&all, first), key_for(&all, second));
        assert_eq!(
            report(&app, &kf, g1["id"].as_i64().unwrap(), "1-0").status,
            200
        );
        common::put(&mut api, &g1, "0-1");
        let r = report(&app, &ks, g1["id"].as_i64().unwrap(), "1-0");
        assert_eq!(r.status, 409);
        assert_eq!(r.json()["code"], "reported_by_referee", "{}", r.body);
        assert_eq!(r.json()["params"]["result"], "0-1", "{}", r.body);
        let g = game_json(&mut api, tid, g1["id"].as_i64().unwrap());
        assert_eq!(
            (g["result"].as_str(), g["reported"].as_bool()),
            (Some("0-1"), Some(false))
        );

        // Over a result the players reported, the desk's save wins even
        // with the version it saw before the reports.
        let g2 = &pairings[0]["games"][1];
        let seen = g2["version"].as_i64().unwrap();
        let id = g2["id"].as_i64().unwrap();
        report(&app, &kf, id, "1-0");
        report(&app, &ks, id, "1-0");
        let r = api.send_json(
            "PUT",
            &format!("/api/v1/games/{id}"),
            json!({"result": "1/2-1/2", "version": seen}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(game_json(&mut api, tid, id)["result"], "1/2-1/2");
    }
}

#[test]
fn the_confirmation_setting_decides_who_must_agree() {
    for app in TestApp::all() {
        // Both players, then the referee.
        let (tid, mut api, pairings) = event(&app, json!({"confirmation": "players_then_referee"}));
        let all = links(&mut api, tid, 1);
        let (first, second, g1) = table_one(&pairings);
        let id = g1["id"].as_i64().unwrap();
        report(&app, &key_for(&all, first), id, "0-1");
        let r = report(&app, &key_for(&all, second), id, "0-1");
        assert_eq!(
            r.json()["outcome"],
            json!({"state": "awaiting_referee", "result": "0-1"})
        );
        assert_eq!(game_json(&mut api, tid, id)["result"], "");
        let desk = app
            .client_as(&app.user("desk", Role::Admin))
            .get(&format!("/t/{tid}/rounds/1/results"));
        assert!(
            desk.body.contains("data-awaiting"),
            "the desk asks for confirmation"
        );
        common::put(&mut api, &g1, "0-1");
        assert_eq!(game_json(&mut api, tid, id)["reported"], false);

        // No confirmation: one word is stored, the opponent's other word
        // takes it back.
        let r = api.send_json(
            "PATCH",
            &format!("/api/v1/tournaments/{tid}"),
            json!({"confirmation": "off"}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let g2 = pairings[0]["games"][1]["id"].as_i64().unwrap();
        let r = report(&app, &key_for(&all, first), g2, "1-0");
        assert_eq!(r.json()["outcome"]["state"], "store");
        assert_eq!(game_json(&mut api, tid, g2)["result"], "1-0");
        let r = report(&app, &key_for(&all, second), g2, "0-1");
        assert_eq!(r.json()["outcome"]["state"], "disputed");
        let g = game_json(&mut api, tid, g2);
        assert_eq!(
            (g["result"].as_str(), g["disputed"].as_bool()),
            (Some(""), Some(true))
        );

        let r = api.send_json(
            "PATCH",
            &format!("/api/v1/tournaments/{tid}"),
            json!({"confirmation": "sometimes"}),
        );
        assert_eq!(
            (r.status, r.json()["field"].as_str()),
            (422, Some("confirmation"))
        );
    }
}

#[test]
fn reports_on_a_draft_or_a_locked_round_are_refused_with_the_reason() {
    for app in TestApp::all() {
        let (tid, mut api, pairings) = event(&app, json!({}));
        let all = links(&mut api, tid, 1);
        let (first, _, g1) = table_one(&pairings);
        let key = key_for(&all, first);
        let desk_user = app.user("desk", Role::Admin);
        let mut desk = app.client_as(&desk_user);
        let r = desk.post(&format!("/t/{tid}/rounds/1/lock"), &[("lock", "yes")]);
        assert_eq!(r.status, 303, "{}", r.body);
        let r = report(&app, &key, g1["id"].as_i64().unwrap(), "1-0");
        assert_eq!(r.status, 409);
        assert_eq!(r.json()["code"], "report_locked", "{}", r.body);
        assert_eq!(r.json()["params"]["round"], 1, "{}", r.body);

        // Round 2 as a draft: its games exist, but not for reports yet.
        for p in &pairings {
            for g in p["games"].as_array().unwrap() {
                common::put(&mut api, g, "1-0");
            }
        }
        let r = desk.post(&format!("/t/{tid}/rounds"), &[]);
        assert_eq!(r.status, 303, "{}", r.body);
        let draft =
            kraal::director::load(&mut app.conn(), kraal::ids::TournamentId(tid as i32)).unwrap();
        let round2 = draft.round(kraal::ids::RoundNo(2), true).unwrap();
        let p = draft.pairings_of(&round2)[0].clone();
        let game = draft.games_of(p.id)[0].id;
        let k = key_for(
            &links(&mut api, tid, 2),
            i64::from(p.first_player_id.unwrap()),
        );
        let r = report(&app, &k, i64::from(game), "1-0");
        assert_eq!(r.status, 409);
        assert_eq!(r.json()["code"], "draft", "{}", r.body);
        assert_eq!(r.json()["params"]["round"], 2, "{}", r.body);
    }
}

#[test]
fn two_players_reporting_at_the_same_instant_are_counted_one_after_the_other() {
    for app in TestApp::all() {
        let (tid, mut api, pairings) = event(&app, json!({}));
        let all = links(&mut api, tid, 1);
        for (table, (a, b)) in [("1-0", "1-0"), ("1-0", "0-1")].iter().enumerate() {
            let p = &pairings[table];
            let id = p["games"][0]["id"].as_i64().unwrap();
            let keys = [
                key_for(&all, p["first_id"].as_i64().unwrap()),
                key_for(&all, p["second_id"].as_i64().unwrap()),
            ];
            for _attempt in 0..3 {
                let barrier = Arc::new(Barrier::new(2));
                let threads: Vec<_> = keys
                    .iter()
                    .zip([*a, *b])
                    .map(|(k, r)| {
                        let (barrier, base, k) = (barrier.clone(), app.base.clone(), k.clone());
                        std::thread::spawn(move || {
                            let mut c = Client::new(&base);
                            barrier.wait();
                            c.send_json(
                                "POST",
                                &format!("/api/v1/player/{k}/results"),
                                json!({"game": id, "result": r}),
                            )
                            .status
                        })
                    })
                    .collect();
                let statuses: Vec<u16> = threads.into_iter().map(|t| t.join().unwrap()).collect();
                let g = game_json(&mut api, tid, id);
                if a == b {
                    // Whichever came second saw the first: stored, once.
                    assert_eq!(g["result"], "1-0", "{statuses:?}");
                    assert_eq!(g["reported"], true);
                    break;
                }
                assert_eq!(statuses, [200, 200]);
                assert_eq!(
                    (g["result"].as_str(), g["disputed"].as_bool()),
                    (Some(""), Some(true))
                );
            }
        }
        // Exactly one "reported by both" entry for the agreeing game.
        use diesel::prelude::*;
        use kraal::db::schema::audit_entries;
        let stored: i64 = audit_entries::table
            .filter(audit_entries::action.eq("result reported by both"))
            .count()
            .get_result(&mut app.conn())
            .unwrap();
        assert_eq!(stored, 1);
    }
}

#[test]
fn a_report_racing_the_referees_entry_never_overrides_it() {
    for app in TestApp::all() {
        let (tid, mut api, pairings) = event(&app, json!({}));
        let all = links(&mut api, tid, 1);
        for p in pairings.iter().take(3) {
            let g = p["games"][0].clone();
            let id = g["id"].as_i64().unwrap();
            let (kf, ks) = (
                key_for(&all, p["first_id"].as_i64().unwrap()),
                key_for(&all, p["second_id"].as_i64().unwrap()),
            );
            // One player has reported; the other's report and the
            // referee's entry of another result go at once.
            assert_eq!(report(&app, &kf, id, "1-0").status, 200);
            let barrier = Arc::new(Barrier::new(2));
            let (b1, base) = (barrier.clone(), app.base.clone());
            let player = std::thread::spawn(move || {
                let mut c = Client::new(&base);
                b1.wait();
                c.send_json(
                    "POST",
                    &format!("/api/v1/player/{ks}/results"),
                    json!({"game": id, "result": "1-0"}),
                )
                .status
            });
            barrier.wait();
            let r = api.send_json(
                "PUT",
                &format!("/api/v1/games/{id}"),
                json!({"result": "1/2-1/2"}),
            );
            let reported = player.join().unwrap();
            assert_eq!(r.status, 200, "{}", r.body);
            assert!(reported == 200 || reported == 409, "{reported}");
            let g = game_json(&mut api, tid, id);
            assert_eq!(
                (g["result"].as_str(), g["reported"].as_bool()),
                (Some("1/2-1/2"), Some(false))
            );
        }
    }
}

fn next_round(app: &TestApp, key: &str, body: Value) -> common::Reply {
    app.client()
        .send_json("POST", &format!("/api/v1/player/{key}/next-round"), body)
}

#[test]
fn a_player_checks_out_of_the_next_round_until_it_is_paired() {
    for app in TestApp::all() {
        let (tid, mut api, pairings) = event(&app, json!({}));
        let all = links(&mut api, tid, 1);
        let (first, second, _) = table_one(&pairings);
        let (kf, ks) = (key_for(&all, first), key_for(&all, second));
        let r = next_round(&app, &kf, json!({"play": false, "bye": "zero"}));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json(), json!({"round": 2, "play": false, "bye": "zero"}));
        let r = next_round(&app, &ks, json!({"play": false, "bye": "half"}));
        assert_eq!(r.status, 409);
        assert_eq!(r.json()["code"], "half_bye_not_offered", "{}", r.body);
        let r = next_round(&app, &ks, json!({"play": false, "bye": "quarter"}));
        assert_eq!((r.status, r.json()["field"].as_str()), (422, Some("bye")));
        // The referee sees who did it, and may undo it.
        let desk = app
            .client_as(&app.user("desk", Role::Admin))
            .get(&format!("/t/{tid}"));
        assert!(desk.body.contains("data-bye-by-player"), "{}", desk.body);
        let r = api.send_json(
            "DELETE",
            &format!("/api/v1/tournaments/{tid}/players/{second}/byes/2"),
            json!({}),
        );
        assert_eq!(r.status, 404, "no bye to undo: {}", r.body);

        // The event offers one half-point bye a player.
        let r = api.send_json(
            "PATCH",
            &format!("/api/v1/tournaments/{tid}"),
            json!({"half_point_bye": true}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(
            next_round(&app, &ks, json!({"play": false, "bye": "half"})).status,
            200
        );
        // Taking it back, and the first player's absence undone by the desk.
        assert_eq!(
            next_round(&app, &ks, json!({"play": true})).json()["play"],
            true
        );
        assert_eq!(
            next_round(&app, &ks, json!({"play": false, "bye": "half"})).status,
            200
        );
        let r = api.send_json(
            "DELETE",
            &format!("/api/v1/tournaments/{tid}/players/{first}/byes/2"),
            json!({}),
        );
        assert_eq!(r.status, 204, "{}", r.body);

        for p in &pairings {
            for g in p["games"].as_array().unwrap() {
                common::put(&mut api, g, "1-0");
            }
        }
        let round2 = common::pair(&mut api, tid);
        let plays = |id: i64| {
            round2
                .iter()
                .any(|p| !p["second_id"].is_null() && (p["first_id"] == id || p["second_id"] == id))
        };
        assert!(
            plays(first) && !plays(second),
            "the half-point bye was honoured"
        );
        let r = next_round(&app, &kf, json!({"play": false}));
        assert_eq!(
            r.json()["round"],
            3,
            "round 2 is paired: the word is on round 3"
        );
        for p in &round2 {
            for g in p["games"].as_array().unwrap() {
                common::put(&mut api, g, "1-0");
            }
        }
        common::pair(&mut api, tid);
        // A second half-point bye is refused, naming the first.
        let r = next_round(&app, &ks, json!({"play": false, "bye": "half"}));
        assert_eq!(r.status, 409);
        assert_eq!(r.json()["code"], "half_bye_used", "{}", r.body);
        assert_eq!(r.json()["params"]["round"], 2, "{}", r.body);
        // After the round is paired the word cannot be taken back.
        let r = api.send_json(
            "DELETE",
            &format!("/api/v1/tournaments/{tid}/players/{first}/byes/3"),
            json!({}),
        );
        assert_eq!(r.status, 409, "{}", r.body);
    }
}

#[test]
fn the_round_clock_defaults_to_ogr_article_8_and_refuses_bad_times() {
    for app in TestApp::all() {
        let (tid, mut api, _) = event(&app, json!({}));
        let r = api.send_json(
            "PUT",
            &format!("/api/v1/tournaments/{tid}/rounds/1/clock"),
            json!({"starts_at": "2026-11-27T09:30:00+02:00"}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        // Two games without clocks or recording: 20 minutes each (OGR 8.4).
        assert_eq!(
            r.json()["clock"],
            json!({"starts_at": "2026-11-27T07:30:00Z", "minutes": 40, "ends_at": "2026-11-27T08:10:00Z"})
        );
        let round = api
            .get(&format!("/api/v1/tournaments/{tid}/rounds/1"))
            .json();
        assert_eq!(round["clock"]["ends_at"], "2026-11-27T08:10:00Z");
        let r = api.send_json(
            "PATCH",
            &format!("/api/v1/tournaments/{tid}"),
            json!({"records_required": true}),
        );
        assert_eq!(r.status, 200);
        let r = api.send_json(
            "PUT",
            &format!("/api/v1/tournaments/{tid}/rounds/1/clock"),
            json!({"starts_at": "2026-11-27T09:30:00Z"}),
        );
        assert_eq!(
            r.json()["clock"]["minutes"],
            120,
            "60 minutes a recorded game (OGR 8.4)"
        );
        let r = api.send_json(
            "PUT",
            &format!("/api/v1/tournaments/{tid}/rounds/1/clock"),
            json!({"starts_at": "2026-11-27T09:30:00Z", "minutes": 45}),
        );
        assert_eq!(r.json()["clock"]["ends_at"], "2026-11-27T10:15:00Z");
        for (body, field) in [
            (json!({"starts_at": "half past nine"}), "starts_at"),
            (json!({"starts_at": "2026-11-27T09:30:00"}), "starts_at"),
            (json!({"minutes": 0}), "minutes"),
            (json!({"minutes": 100000}), "minutes"),
        ] {
            let r = api.send_json(
                "PUT",
                &format!("/api/v1/tournaments/{tid}/rounds/1/clock"),
                body,
            );
            assert_eq!(
                (r.status, r.json()["field"].as_str()),
                (422, Some(field)),
                "{}",
                r.body
            );
        }
        assert_eq!(
            api.get(&format!("/api/v1/tournaments/{tid}/rounds/1"))
                .json()["clock"]["minutes"],
            45,
            "a refused clock changes nothing"
        );
        let r = app.client().send_json(
            "PUT",
            &format!("/api/v1/tournaments/{tid}/rounds/1/clock"),
            json!({}),
        );
        assert_eq!(r.status, 401);
        // The display shows it, for anyone.
        let display = app.client().get(&format!("/t/{tid}/display"));
        assert_eq!(display.status, 200);
        assert!(display
            .body
            .contains("data-ends-at=\"2026-11-27T10:15:00Z\""));
    }
}

#[test]
fn player_endpoints_are_rate_limited_per_key() {
    let app = TestApp::start("sqlite");
    let (tid, mut api, pairings) = event(&app, json!({}));
    let all = links(&mut api, tid, 1);
    let (first, _, g1) = table_one(&pairings);
    let key = key_for(&all, first);
    let id = g1["id"].as_i64().unwrap();
    // Twenty reports at once are taken, and one more each three seconds
    // (a twentieth of the minute); then one is refused.
    let first = std::time::Instant::now();
    let mut last = None;
    let mut taken = 0u128;
    for _ in 0..60 {
        let r = report(&app, &key, id, "1-0");
        if r.status == 429 {
            last = Some(r);
            break;
        }
        assert_eq!(r.status, 200, "{}", r.body);
        taken += 1;
    }
    let most = WRITES_PER_KEY.most_taken_in(first.elapsed());
    assert!(
        (20..=most).contains(&taken),
        "{taken} taken, at most {most}"
    );
    let refused = last.expect("reports through one link are limited");
    let wait: u64 = refused.headers["retry-after"].parse().unwrap();
    assert!((1..=60).contains(&wait));
    assert_eq!(
        refused.json()["code"],
        "too_many_requests",
        "{}",
        refused.body
    );
    assert_eq!(
        refused.json()["params"]["what"],
        "reports",
        "{}",
        refused.body
    );
    assert_eq!(
        refused.json()["params"]["through"],
        "personal_link",
        "{}",
        refused.body
    );
    // Another player's link is not held up.
    let other = key_for(&all, pairings[1]["first_id"].as_i64().unwrap());
    assert_eq!(
        app.client().get(&format!("/api/v1/player/{other}")).status,
        200
    );
}

#[test]
fn a_dispute_reaches_an_open_results_desk_through_its_event_stream() {
    let within = std::time::Duration::from_secs(20);
    for app in TestApp::all() {
        let (tid, mut api, pairings) = event(&app, json!({}));
        let all = links(&mut api, tid, 1);
        let (first, second, g1) = table_one(&pairings);
        let id = g1["id"].as_i64().unwrap();
        // The desk's page is open: its stream is connected.
        let mut stream = common::event_stream(&app, tid);
        let revision =
            kraal::db::tournaments::revision(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap();
        assert!(common::read_event_until(
            &mut stream,
            &format!("data: {revision}"),
            within
        ));
        report(&app, &key_for(&all, first), id, "1-0");
        report(&app, &key_for(&all, second), id, "0-1");
        assert!(
            common::read_event_until(&mut stream, &format!("data: {}", revision + 2), within),
            "each report moves the event on, and the stream says so"
        );
        let desk = app
            .client_as(&app.user("desk", Role::Admin))
            .get(&format!("/t/{tid}/rounds/1/results"));
        assert!(desk.body.contains(&format!("data-disputed=\"{id}\"")));
        assert_eq!(
            attr_values(&desk.body, "data-disputes"),
            ["1"],
            "the desk counts it"
        );
    }
}

#[test]
fn the_players_page_names_a_wrong_input_and_keeps_the_page() {
    let app = TestApp::start("sqlite");
    let (tid, mut api, pairings) = event(&app, json!({"half_point_bye": false}));
    let all = links(&mut api, tid, 1);
    let (first, _, g1) = table_one(&pairings);
    let key = key_for(&all, first);
    let mut phone = app.client();
    assert_eq!(phone.get(&format!("/player/{key}")).status, 200);
    let r = phone.post(
        &format!("/player/{key}/results"),
        &[("game", &g1["id"].to_string()), ("result", "2-0")],
    );
    assert_eq!(r.status, 422);
    assert!(has_attr(&r.body, "id", "problem"), "{}", r.body);
    assert!(
        has_attr(&r.body, "data-table", "1"),
        "the page is still the player's page"
    );
    // A half-point bye the event does not offer: the reason, on the page.
    let r = phone.post(&format!("/player/{key}/next-round"), &[("word", "half")]);
    assert_eq!(r.status, 409);
    assert!(has_attr(&r.body, "id", "problem"), "{}", r.body);
    // The form's own way: a report through the page lands as through the API.
    let r = phone.post(
        &format!("/player/{key}/results"),
        &[("game", &g1["id"].to_string()), ("result", "1-0")],
    );
    assert_eq!(r.status, 303);
    let page = phone.get(r.location.as_deref().unwrap());
    assert!(has_attr(&page.body, "id", "done"), "{}", page.body);
    assert!(!has_attr(&page.body, "id", "problem"), "{}", page.body);
    let game_one = tag_with(&page.body, "data-game", &g1["id"].to_string());
    assert_eq!(
        attr_values(game_one[0], "data-yours"),
        ["1-0"],
        "{}",
        page.body
    );
    assert_eq!(
        attr_values(game_one[0], "data-state"),
        ["waiting"],
        "{}",
        page.body
    );
    // Without its CSRF token the form is refused, as every form.
    let r = app.client().post_raw(
        &format!("/player/{key}/results"),
        &[("game", &g1["id"].to_string()), ("result", "1-0")],
    );
    assert_eq!(r.status, 403);
}

/// The best of `n` answers to `path`, in seconds.
fn best_of(client: &mut Client, path: &str, n: usize) -> f64 {
    (0..n)
        .map(|_| {
            let start = std::time::Instant::now();
            client.get_bytes(path, &[("Accept-Encoding", "br, gzip")]);
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
#[ignore = "timing: part of the performance run (docs/performance.md)"]
fn a_wrong_key_takes_as_long_to_refuse_whoever_it_nearly_names() {
    let app = TestApp::start("sqlite");
    let (tid, mut api, pairings) = event(&app, json!({}));
    let all = links(&mut api, tid, 1);
    let key = key_for(&all, pairings[0]["first_id"].as_i64().unwrap());
    // A player's key with its last digit changed, and a key nobody's.
    let last = if key.ends_with('0') { "1" } else { "0" };
    let near = format!("{}{last}", &key[..key.len() - 1]);
    let made_up = "0123456789abcdef0123456789abcdef".to_string();
    let mut c = app.client();
    for _ in 0..3 {
        let a = best_of(&mut c, &format!("/api/v1/player/{near}"), 8);
        let b = best_of(&mut c, &format!("/api/v1/player/{made_up}"), 8);
        assert!(
            (0.6..=1.6).contains(&(a / b)),
            "near miss {:.2} ms, made up {:.2} ms",
            a * 1e3,
            b * 1e3
        );
    }
}

#[test]
#[ignore = "timing: part of the performance run (docs/performance.md)"]
fn a_players_page_on_a_kept_connection_is_not_held_by_the_network() {
    let app = TestApp::start("sqlite");
    let (tid, mut api, pairings) = event(&app, json!({}));
    let all = links(&mut api, tid, 1);
    let key = key_for(&all, pairings[0]["first_id"].as_i64().unwrap());
    let mut phone = app.client();
    // Compressed on its way out: before TCP_NODELAY every page after the
    // first on a connection waited 40 ms for a delayed ACK.
    let best = best_of(&mut phone, &format!("/player/{key}"), 8);
    assert!(best < 0.02, "{:.1} ms", best * 1e3);
}

#[test]
fn a_knock_out_pairing_left_level_by_reported_results_gets_its_tiebreak_set() {
    for app in TestApp::all() {
        let referee = app.user("palesa", Role::Referee);
        let mut api = app.script_for(&referee);
        let entries: Vec<Value> = [
            "Thabo Nkosi",
            "Lerato Dlamini",
            "Sipho Mokoena",
            "Naledi Khumalo",
        ]
        .iter()
        .map(|n| json!({"name": n}))
        .collect();
        let (tid, _) = common::api_tournament(
            &mut api,
            json!({"name": "Free State Knock-out", "system": "knockout", "rules": "official"}),
            &entries,
        );
        let pairings = common::pair(&mut api, tid);
        let all = links(&mut api, tid, 1);
        let p = &pairings[0];
        let (kf, ks) = (
            key_for(&all, p["first_id"].as_i64().unwrap()),
            key_for(&all, p["second_id"].as_i64().unwrap()),
        );
        // Each wins the game they start: 1-1 after the two games (OGR 9.4).
        for g in p["games"].as_array().unwrap() {
            let id = g["id"].as_i64().unwrap();
            for k in [&kf, &ks] {
                let r = report(&app, k, id, "1-0");
                assert_eq!(r.status, 200, "{}", r.body);
            }
        }
        let round = api
            .get(&format!("/api/v1/tournaments/{tid}/rounds/1"))
            .json();
        let table = round["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == p["id"])
            .unwrap();
        let games = table["games"].as_array().unwrap();
        assert_eq!(games.len(), 4, "a tiebreak set of two games: {table}");
        assert!(games[2]["tiebreak"].as_bool().unwrap() && games[3]["tiebreak"].as_bool().unwrap());
        // The players report the set through their links too.
        let own = app.client().get(&format!("/api/v1/player/{kf}")).json();
        assert_eq!(own["current"]["games"].as_array().unwrap().len(), 4);
    }
}

#[test]
fn the_desk_confirms_a_result_both_players_reported_with_one_button() {
    for app in TestApp::all() {
        let (tid, mut api, pairings) = event(&app, json!({"confirmation": "players_then_referee"}));
        let all = links(&mut api, tid, 1);
        let (first, second, g1) = table_one(&pairings);
        let id = g1["id"].as_i64().unwrap();
        report(&app, &key_for(&all, first), id, "1/2-1/2");
        report(&app, &key_for(&all, second), id, "1/2-1/2");
        let mut desk = app.client_as(&app.user("desk", Role::Admin));
        let page = desk.get(&format!("/t/{tid}/rounds/1/results"));
        let button = format!("name=\"confirm\" value=\"{id}:1/2-1/2\"");
        assert!(
            page.body.contains(&button),
            "the desk offers the confirmation"
        );
        // The button sends the whole form as it stands, with its own value.
        let mut fields = common::form_fields(&page.body, "class=\"results\"");
        fields.push(("confirm".into(), format!("{id}:1/2-1/2")));
        let pairs: Vec<(&str, &str)> = fields
            .iter()
            .filter(|(k, _)| k != "csrf")
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let r = desk.post(&format!("/t/{tid}/rounds/1/results"), &pairs);
        assert_eq!(r.status, 303, "{}", r.body);
        let g = game_json(&mut api, tid, id);
        assert_eq!(
            (g["result"].as_str(), g["reported"].as_bool()),
            (Some("1/2-1/2"), Some(false))
        );
        // Confirmed by the referee: reporting is closed.
        let r = report(&app, &key_for(&all, first), id, "1-0");
        assert_eq!(r.status, 409);
    }
}

/// Eighty players of the Gauteng Closed, every name a real one's shape.
fn eighty_players() -> Vec<Value> {
    let first = [
        "Thabo", "Lerato", "Sipho", "Naledi", "Zanele", "Bongani", "Palesa", "Kagiso", "Refilwe",
        "Tumelo",
    ];
    let last = [
        "Nkosi", "Dlamini", "Mokoena", "Khumalo", "Mahlangu", "Zulu", "Molefe", "Sithole",
    ];
    let clubs = ["Soweto MSC", "Tembisa Morabaraba Club", "Mamelodi Stones"];
    (0..80)
        .map(|i| {
            json!({
                "name": format!("{} {}", first[i % 10], last[i / 10]),
                "club": clubs[i % 3],
                "rating": 2100 - 10 * i as i64,
            })
        })
        .collect()
}

/// A venue whose phones all come through one address (its Wi-Fi): eighty
/// players of six-game pairings each open their page, report their six
/// games (the first of each table slipping on three and correcting them)
/// and give their word on the next round, 680 writes in all, more than the
/// address could once send in a minute; none is refused and every game is
/// stored.
#[test]
fn a_venue_behind_one_address_reports_every_game_of_six_game_pairings() {
    for app in TestApp::all() {
        let referee = app.user("palesa", Role::Referee);
        let mut api = app.script_for(&referee);
        let (tid, _) = common::api_tournament(
            &mut api,
            json!({"name": "Gauteng Closed", "rules": "official", "rounds": 5, "games_per_pairing": 6}),
            &eighty_players(),
        );
        let pairings = common::pair(&mut api, tid);
        let all = links(&mut api, tid, 1);
        let mut phone = app.client();
        let mut writes = 0;
        let send = |phone: &mut Client, key: &str, game: i64, result: &str| {
            let r = phone.send_json(
                "POST",
                &format!("/api/v1/player/{key}/results"),
                json!({"game": game, "result": result}),
            );
            assert_eq!(r.status, 200, "[{}] {}", app.backend, r.body);
        };
        for p in &pairings {
            let (a, b) = (
                p["first_id"].as_i64().unwrap(),
                p["second_id"].as_i64().unwrap(),
            );
            let (ka, kb) = (key_for(&all, a), key_for(&all, b));
            for key in [&ka, &kb] {
                let r = phone.get(&format!("/api/v1/player/{key}"));
                assert_eq!(r.status, 200, "[{}] {}", app.backend, r.body);
            }
            let games: Vec<i64> = p["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["id"].as_i64().unwrap())
                .collect();
            assert_eq!(games.len(), 6);
            for (k, g) in games.iter().enumerate() {
                if k < 3 {
                    send(&mut phone, &ka, *g, "0-1");
                    writes += 1;
                }
                send(&mut phone, &ka, *g, "1-0");
                send(&mut phone, &kb, *g, "1-0");
                writes += 2;
            }
            for key in [&ka, &kb] {
                let r = phone.send_json(
                    "POST",
                    &format!("/api/v1/player/{key}/next-round"),
                    json!({"play": true}),
                );
                assert_eq!(r.status, 200, "[{}] {}", app.backend, r.body);
                writes += 1;
            }
        }
        assert_eq!(writes, 680);
        let round = api
            .get(&format!("/api/v1/tournaments/{tid}/rounds/1"))
            .json();
        let games: Vec<Value> = round["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|p| p["games"].as_array().unwrap().clone())
            .collect();
        assert_eq!(games.len(), 240);
        assert!(
            games
                .iter()
                .all(|g| g["result"] == "1-0" && g["reported"] == true && g["disputed"] == false),
            "[{}]",
            app.backend
        );
    }
}

/// Sixty made-up keys sharing a real key's first sixteen digits are each
/// refused as unknown, and hold the real key up not at all.
#[test]
fn wrong_keys_sharing_a_real_keys_first_digits_do_not_lock_it_out() {
    for app in TestApp::all() {
        let (tid, mut api, pairings) = event(&app, json!({}));
        let all = links(&mut api, tid, 1);
        let (first, _, g1) = table_one(&pairings);
        let key = key_for(&all, first);
        let mut guesser = app.client();
        for i in 0..61 {
            let wrong = format!("{}{:0width$x}", &key[..16], i, width = key.len() - 16);
            assert_ne!(wrong, key);
            let r = guesser.get(&format!("/api/v1/player/{wrong}"));
            assert_eq!(r.status, 404, "[{}] guess {i}: {}", app.backend, r.body);
            let r = guesser.send_json(
                "POST",
                &format!("/api/v1/player/{wrong}/results"),
                json!({"game": g1["id"], "result": "1-0"}),
            );
            assert_eq!(r.status, 404, "[{}] guess {i}: {}", app.backend, r.body);
        }
        let r = app.client().get(&format!("/api/v1/player/{key}"));
        assert_eq!(r.status, 200, "[{}] {}", app.backend, r.body);
        let r = report(&app, &key, g1["id"].as_i64().unwrap(), "1-0");
        assert_eq!(r.status, 200, "[{}] {}", app.backend, r.body);
    }
}

/// Made-up keys sent until the address is refused: how many were taken,
/// the refusal's status, and the most the address's limit could have taken
/// in the time the guesses took.
fn guess_until_refused(base: &str, header: Option<(&str, &str)>) -> (usize, u16, u128) {
    let agent = ureq::AgentBuilder::new().build();
    let first = std::time::Instant::now();
    for i in 0..700 {
        let mut r = agent.post(&format!("{base}/api/v1/player/{i:032x}/results"));
        if let Some((name, value)) = header {
            r = r.set(name, value);
        }
        match r.send_json(json!({"game": 1, "result": "1-0"})) {
            Err(ureq::Error::Status(404, _)) => continue,
            Err(ureq::Error::Status(code, _)) => {
                return (i, code, WRITES_PER_CLIENT.most_taken_in(first.elapsed()))
            }
            other => panic!("{other:?}"),
        }
    }
    (700, 404, WRITES_PER_CLIENT.most_taken_in(first.elapsed()))
}

/// Whether a made-up key sent as `header` says is refused within five
/// tries: the address's count refills a request every tenth of a second,
/// so on a busy machine the first try after a refusal may pass, while a
/// client not yet counted has hundreds to spend before its first refusal.
fn refused_soon(base: &str, header: Option<(&str, &str)>) -> bool {
    (0..5).any(|_| made_up_key_status(base, header) == 429)
}

fn made_up_key_status(base: &str, header: Option<(&str, &str)>) -> u16 {
    let mut r = ureq::post(&format!("{base}/api/v1/player/{:032x}/results", 999_999));
    if let Some((name, value)) = header {
        r = r.set(name, value);
    }
    match r.send_json(json!({"game": 1, "result": "1-0"})) {
        Ok(r) => r.status(),
        Err(ureq::Error::Status(code, _)) => code,
        Err(e) => panic!("{e}"),
    }
}

/// Behind a proxy the admin listed, the address the proxy names is the
/// one counted (`X-Forwarded-For`, `Forwarded`): a guesser is refused, the
/// venue's other phones are not. From anyone else the headers count for
/// nothing.
#[test]
fn a_listed_proxy_names_the_client_and_an_unlisted_one_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/proxy.db", dir.path().display());
    let served = common::Served::start(&url, |c| {
        c.args(["--trusted-proxy", "10.20.30.40"])
            .args(["--trusted-proxy", "192.0.2.0/24,127.0.0.0/8"]);
    });
    let guesser = ("X-Forwarded-For", "198.51.100.7, 127.0.0.1");
    let (tries, status, most) = guess_until_refused(&served.base, Some(guesser));
    assert_eq!(status, 429);
    assert!(tries as u128 <= most, "{tries} > {most}");
    // The same client named in `Forwarded` is the same client ...
    assert!(refused_soon(
        &served.base,
        Some(("Forwarded", "for=198.51.100.7;proto=https"))
    ));
    // ... while the phone beside it, and the proxy's own address, are not.
    assert_eq!(
        made_up_key_status(&served.base, Some(("X-Forwarded-For", "198.51.100.8"))),
        404
    );
    assert_eq!(
        made_up_key_status(
            &served.base,
            Some(("Forwarded", "for=\"[2001:db8::5]:4711\""))
        ),
        404
    );
    drop(served);

    // Without the proxy listed, the header names no one: the connection's
    // address is refused whatever it claims.
    let url = format!("sqlite://{}/direct.db", dir.path().display());
    let served = common::Served::start(&url, |_| {});
    let (tries, status, most) = guess_until_refused(&served.base, Some(guesser));
    assert_eq!(
        (status, tries as u128 <= most),
        (429, true),
        "{tries} > {most}"
    );
    assert!(refused_soon(
        &served.base,
        Some(("X-Forwarded-For", "198.51.100.8"))
    ));
}

/// A clock the form cannot take comes back to the round page with what was
/// typed, the field at fault named and focused, not to an error page.
#[test]
fn the_round_clock_form_comes_back_filled_with_the_field_named() {
    for app in TestApp::all() {
        let (tid, _, _) = event(&app, json!({}));
        let admin = app.user("thandiwe", Role::Admin);
        let mut web = app.client_as(&admin);
        let round = format!("/t/{tid}/rounds/1");
        assert!(common::has_attr(
            &web.get(&round).body,
            "action",
            &format!("{round}/clock#clock-form")
        ));
        for (starts_at, minutes, field, id) in [
            ("noon", "90", "starts_at", "clock-start"),
            ("09:30", "abc", "minutes", "clock-minutes"),
            ("09:30", "0", "minutes", "clock-minutes"),
        ] {
            let r = web.post(
                &format!("{round}/clock"),
                &[
                    ("starts_at", starts_at),
                    ("minutes", minutes),
                    ("offset", ""),
                ],
            );
            assert_eq!(
                r.status, 422,
                "[{}] {starts_at} {minutes}: {}",
                app.backend, r.body
            );
            assert!(
                common::field_error(&r.body, field).is_some(),
                "[{}] {}",
                app.backend,
                r.body
            );
            let start = common::tag_with(&r.body, "id", "clock-start");
            assert!(common::has_attr(start[0], "value", starts_at), "{start:?}");
            let mins = common::tag_with(&r.body, "id", "clock-minutes");
            assert!(common::has_attr(mins[0], "value", minutes), "{mins:?}");
            let focused = common::tag_with(&r.body, "id", id);
            assert!(focused[0].contains(" autofocus"), "{focused:?}");
            assert!(common::has_attr(focused[0], "aria-invalid", "true"));
        }
        // Nothing was set.
        let api_round = app
            .script_for(&admin)
            .get(&format!("/api/v1/tournaments/{tid}/rounds/1"))
            .json();
        assert!(
            api_round["clock"].is_null(),
            "[{}] {api_round}",
            app.backend
        );
    }
}

/// A game id that is not a number is a 422 naming `game`, not a parse
/// error of the whole body.
#[test]
fn a_report_with_a_game_that_is_not_a_number_is_refused_naming_game() {
    for app in TestApp::all() {
        let (tid, mut api, pairings) = event(&app, json!({}));
        let all = links(&mut api, tid, 1);
        let (first, _, g1) = table_one(&pairings);
        let key = key_for(&all, first);
        for game in [json!("seven"), json!(1.5), json!(null), json!([1])] {
            let r = app.client().send_json(
                "POST",
                &format!("/api/v1/player/{key}/results"),
                json!({"game": game, "result": "1-0"}),
            );
            assert_eq!(
                (r.status, r.json()["field"].as_str()),
                (422, Some("game")),
                "[{}] {game}: {}",
                app.backend,
                r.body
            );
        }
        let r = report(&app, &key, g1["id"].as_i64().unwrap(), "1-0");
        assert_eq!(r.status, 200, "[{}] {}", app.backend, r.body);
    }
}

/// The referee's round page of a draft says to publish before results, the
/// crosstable tells a missing result ("?") from a round not played ("–"),
/// and the venue display names a disputed table in words.
#[test]
fn a_draft_a_missing_result_and_a_dispute_each_say_what_they_are() {
    for app in TestApp::all() {
        let (tid, mut api, pairings) = event(&app, json!({}));
        let all = links(&mut api, tid, 1);
        // Table one disputed: each player reports a win.
        let (first, second, g1) = table_one(&pairings);
        let id = g1["id"].as_i64().unwrap();
        assert_eq!(report(&app, &key_for(&all, first), id, "1-0").status, 200);
        assert_eq!(report(&app, &key_for(&all, second), id, "0-1").status, 200);
        let display = app.client().get(&format!("/t/{tid}/display")).body;
        assert_eq!(
            common::attr_values(&display, "data-disputed-word"),
            [pairings[0]["table"].to_string()],
            "[{}] {display}",
            app.backend
        );
        // Table two has its results (each starter won: level), table three
        // none yet; a player entered
        // now played no round 1.
        for g in pairings[1]["games"].as_array().unwrap() {
            common::put(&mut api, g, "1-0");
        }
        api.create(
            &format!("/api/v1/tournaments/{tid}/players"),
            json!({"name": "Mandla Ngcobo", "club": "Soweto MSC"}),
        );
        let cross = app.client().get(&format!("/t/{tid}/crosstable")).body;
        let mut marks = common::attr_values(&cross, "data-mark");
        marks.sort();
        assert_eq!(
            marks,
            ["?", "?", "?", "?", "½", "½", "–"],
            "[{}] {cross}",
            app.backend
        );
        // Round 2 paired as a draft from the page: no way into results yet.
        let admin = app.user("desk", Role::Admin);
        let mut desk = app.client_as(&admin);
        for g in pairings
            .iter()
            .flat_map(|p| p["games"].as_array().unwrap().clone())
        {
            common::put(&mut api, &g, "1-0");
        }
        let r = desk.post(&format!("/t/{tid}/rounds"), &[]);
        assert_eq!(r.status, 303, "[{}] {}", app.backend, r.body);
        let round = desk.get(&format!("/t/{tid}/rounds/2")).body;
        assert_eq!(
            common::attr_values(&round, "data-results-after"),
            ["publish"],
            "[{}] {round}",
            app.backend
        );
        assert!(common::attr_values(&round, "data-results-link").is_empty());
        let round1 = desk.get(&format!("/t/{tid}/rounds/1")).body;
        assert!(
            common::has_attr(&round1, "data-results-link", "enter"),
            "[{}]",
            app.backend
        );
    }
}

/// Every player's page of an event is built from one copy of the event
/// and one ranking per revision: each result moves every page on at once,
/// the page and the API alike, and a page read between two results shows
/// the first, not a copy from before it.
#[test]
fn every_players_page_follows_each_result_from_the_shared_copy() {
    for app in TestApp::all() {
        let (tid, mut api, pairings) = event(&app, json!({}));
        let all = links(&mut api, tid, 1);
        let (first, second, g1) = table_one(&pairings);
        let own = |player: i64| {
            app.client()
                .get(&format!("/api/v1/player/{}", key_for(&all, player)))
                .json()
        };
        // Every page read once: the event is loaded and ranked.
        for (player, _, _) in &all {
            assert_eq!(own(*player)["points"], "0", "[{}]", app.backend);
        }
        common::put(&mut api, &g1, "1-0");
        let winner = own(first);
        assert_eq!(winner["points"], "1", "[{}] {winner}", app.backend);
        assert_eq!(winner["rank"], 1, "[{}]", app.backend);
        assert_eq!(own(second)["points"], "0", "[{}]", app.backend);
        let page = app
            .client()
            .get(&format!("/player/{}", key_for(&all, first)));
        assert!(
            page.body.contains("with <strong>1</strong> points"),
            "[{}] {}",
            app.backend,
            page.body
        );
        // The second game: the starter's opponent wins it.
        common::put(&mut api, &pairings[0]["games"][1], "1-0");
        assert_eq!(own(first)["points"], "1", "[{}]", app.backend);
        assert_eq!(own(second)["points"], "1", "[{}]", app.backend);
    }
}

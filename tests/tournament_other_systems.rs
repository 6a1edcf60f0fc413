//! Round robin and knock-out tournaments run over HTTP, and concurrent
//! result entry.

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::HashSet;

use common::{Client, TestApp};
use kraal::db::users::Role;
use serde_json::json;

fn setup(app: &TestApp, body: serde_json::Value, players: usize) -> (Client, i64, Vec<i64>) {
    let admin = app.user("director", Role::Admin);
    let mut api = app.script_for(&admin);
    let tid = api.create("/api/v1/tournaments", body)["id"]
        .as_i64()
        .unwrap();
    let ids = (0..players)
        .map(|i| {
            api.create(
                &format!("/api/v1/tournaments/{tid}/players"),
                json!({"name": format!("Entrant {}", i + 1), "club": format!("Club {}", i % 4), "rating": 1900 - 10 * i as i64}),
            )["id"].as_i64().unwrap()
        })
        .collect();
    (api, tid, ids)
}

/// A pairing of round 1 as the public API shows it, with its tiebreak games.
fn pairing_in_round_1(
    app: &TestApp,
    tid: i64,
    id: &serde_json::Value,
) -> (serde_json::Value, Vec<serde_json::Value>) {
    let round = app
        .client()
        .get(&format!("/api/v1/tournaments/{tid}/rounds/1"))
        .json();
    let pairing = round["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == *id)
        .unwrap()
        .clone();
    let tiebreaks = pairing["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["tiebreak"] == true)
        .cloned()
        .collect();
    (pairing, tiebreaks)
}

/// Pairs (and publishes) the next round through the API; its pairings.
fn pair_next_round(
    api: &mut Client,
    app: &TestApp,
    tid: i64,
    round: u32,
) -> Vec<serde_json::Value> {
    let r = api.send_json(
        "POST",
        &format!("/api/v1/tournaments/{tid}/rounds"),
        json!({}),
    );
    assert_eq!(r.status, 201, "[{}] round {round}: {}", app.backend, r.body);
    r.json()["pairings"].as_array().unwrap().clone()
}

fn play(api: &mut Client, games: &[serde_json::Value], results: &[&str]) {
    for (g, r) in games.iter().zip(results) {
        let put = api.send_json(
            "PUT",
            &format!("/api/v1/games/{}", g["id"]),
            json!({"result": r}),
        );
        assert_eq!(put.status, 200, "{}", put.body);
    }
}

#[test]
fn a_nine_player_round_robin_under_official_rules() {
    for app in TestApp::all() {
        let (mut api, tid, ids) = setup(
            &app,
            json!({"name": "Club Championship", "system": "round_robin", "rules": "official", "rounds": 9}),
            9,
        );
        let mut met = HashSet::new();
        let mut byes = HashSet::new();
        for round in 1..=9 {
            for p in &pair_next_round(&mut api, &app, tid, round) {
                let a = p["first_id"].as_i64().unwrap();
                match p["second_id"].as_i64() {
                    None => assert!(byes.insert(a), "second bye for {a}"),
                    Some(b) => {
                        assert!(met.insert((a.min(b), a.max(b))), "rematch in round {round}");
                        let games = p["games"].as_array().unwrap();
                        assert_eq!(games.len(), 2, "official: two games a pairing");
                        assert_ne!(
                            games[0]["first_started"], games[1]["first_started"],
                            "each player starts one"
                        );
                        play(&mut api, games, &["1-0", "1/2-1/2"]);
                    }
                }
            }
        }
        assert_eq!(met.len(), 36, "everyone met everyone once");
        assert_eq!(byes.len(), 9, "each player sat out once");
        let s = app
            .client()
            .get(&format!("/api/v1/tournaments/{tid}/standings"))
            .json();
        let total: f64 = s["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["points"].as_f64().unwrap())
            .sum();
        // 36 pairings of 2 games; a round robin's bye (sitting out one
        // pairing of the schedule) is worth nothing unless chosen otherwise.
        assert_eq!(total, 36.0 * 2.0);
        assert_eq!(ids.len(), 9);

        // The command line exports the very bytes the site serves.
        // A script reads the columns by their keys.
        let web = app
            .client()
            .get(&format!("/t/{tid}/standings.csv?headers=keys"));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kraal"))
            .args([
                "export",
                "standings",
                &tid.to_string(),
                "--headers",
                "keys",
                "--database",
                &app.database_url,
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8(out.stdout).unwrap(), web.body);
        assert!(web.body.starts_with(
            "rank,name,club,rating,federation_id,games_played,points,direct_encounter,buchholz,sonneborn_berger,wins,provisional\n"
        ));

        // Crosstable, pairing sheets and player pages.
        let cross = app.client().get(&format!("/t/{tid}/crosstable.csv"));
        assert_eq!(cross.status, 200);
        assert_eq!(cross.body.lines().count(), 10);
        assert!(cross
            .body
            .lines()
            .next()
            .unwrap()
            .ends_with("round 8,round 9"));
        let sheet = app.client().get(&format!("/t/{tid}/rounds/1/pairings.csv"));
        assert!(sheet.body.starts_with("table,first,second,score,games\n"));
        assert!(sheet.body.contains("bye (allocated)"));
        let page = app.client().get(&format!("/t/{tid}/players/{}", ids[0]));
        assert_eq!(page.status, 200);
        assert_eq!(
            page.body
                .matches("<section class=\"player-round\">")
                .count(),
            9,
            "nine rounds on the player's page"
        );
        assert_eq!(
            app.client().get(&format!("/t/{tid}/crosstable")).status,
            200
        );
    }
}

#[test]
fn a_twelve_player_knockout_with_a_tiebreak_set() {
    for app in TestApp::all() {
        let (mut api, tid, ids) = setup(
            &app,
            json!({"name": "Cup", "system": "knockout", "rules": "official", "rounds": 4}),
            12,
        );
        // Round 1: 16 places, the top 4 seeds have byes.
        let r1 = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/rounds"),
            json!({}),
        );
        assert_eq!(r1.status, 201, "[{}] {}", app.backend, r1.body);
        let r1 = r1.json();
        let pairings = r1["pairings"].as_array().unwrap().clone();
        assert_eq!(pairings.len(), 8);
        let byes: Vec<i64> = pairings
            .iter()
            .filter(|p| p["second_id"].is_null())
            .map(|p| p["first_id"].as_i64().unwrap())
            .collect();
        let mut top4 = ids[..4].to_vec();
        top4.sort();
        let mut b = byes.clone();
        b.sort();
        assert_eq!(b, top4, "byes go to the top seeds");

        // Every match 2-0 for the first player, except one level at 1-1.
        let level = pairings
            .iter()
            .find(|p| !p["second_id"].is_null())
            .unwrap()
            .clone();
        for p in pairings.iter().filter(|p| !p["second_id"].is_null()) {
            let games = p["games"].as_array().unwrap();
            if p["id"] == level["id"] {
                play(&mut api, games, &["1-0", "1-0"]); // starters each win: 1-1
            } else {
                play(&mut api, games, &["1-0", "0-1"]); // first wins both
            }
        }
        // The level pairing got a tiebreak set; the next round waits for it.
        let blocked = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/rounds"),
            json!({}),
        );
        assert_eq!(blocked.status, 409, "{}", blocked.body);
        let code = blocked.json()["code"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(
            code == "missing_results" || code == "level",
            "{}",
            blocked.body
        );
        let (_, tb) = pairing_in_round_1(&app, tid, &level["id"]);
        assert_eq!(tb.len(), 2, "one tiebreak set of two games");
        assert_ne!(
            tb[0]["first_started"], tb[1]["first_started"],
            "each starts one tiebreak game"
        );
        // A drawn first set brings a second one.
        play(&mut api, &tb, &["1/2-1/2", "1/2-1/2"]);
        let (again, tb) = pairing_in_round_1(&app, tid, &level["id"]);
        assert_eq!(tb.len(), 4, "a second tiebreak set");
        // The second player wins the second set 1½-½ and goes through.
        let second_name = again["second"].as_str().unwrap().to_string();
        let last: Vec<_> = tb[2..].to_vec();
        let results: Vec<&str> = last
            .iter()
            .map(|g| {
                if g["first_started"] == true {
                    "0-1"
                } else {
                    "1/2-1/2"
                }
            })
            .collect();
        play(&mut api, &last, &results);
        let (again, _) = pairing_in_round_1(&app, tid, &level["id"]);
        assert_eq!(again["winner"].as_str(), Some(second_name.as_str()));

        // Quarter-finals: 8 players left, the winners and the seeds with byes.
        let r2 = api.create(&format!("/api/v1/tournaments/{tid}/rounds"), json!({}));
        let players: HashSet<String> = r2["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|p| {
                [
                    p["first"].as_str().unwrap().to_string(),
                    p["second"].as_str().unwrap().to_string(),
                ]
            })
            .collect();
        assert_eq!(players.len(), 8);
        assert!(
            players.contains(&second_name),
            "the tiebreak winner goes through"
        );
    }
}

#[test]
fn simultaneous_result_entry_loses_nothing() {
    for app in TestApp::all() {
        let (mut api, tid, _) = setup(
            &app,
            json!({"name": "Rapid", "system": "swiss", "rules": "gar", "rounds": 5}),
            20,
        );
        let r = api
            .send_json(
                "POST",
                &format!("/api/v1/tournaments/{tid}/rounds"),
                json!({}),
            )
            .json();
        let games: Vec<(i64, i64)> = r["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|p| p["games"].as_array().unwrap().clone())
            .map(|g| (g["id"].as_i64().unwrap(), g["version"].as_i64().unwrap()))
            .collect();
        assert_eq!(games.len(), 60);
        let token = api.bearer.clone().unwrap();
        // Sixty different games saved from eight threads at once: all land.
        std::thread::scope(|s| {
            for chunk in games.chunks(8) {
                let (app, token) = (&app, token.clone());
                s.spawn(move || {
                    let mut c = app.script(&token);
                    for (id, _) in chunk {
                        let put = c.send_json(
                            "PUT",
                            &format!("/api/v1/games/{id}"),
                            json!({"result": "1-0"}),
                        );
                        assert_eq!(put.status, 200, "{}", put.body);
                    }
                });
            }
        });
        let (_, _, stored) =
            kraal::db::rounds::everything(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap();
        assert_eq!(
            stored
                .iter()
                .filter(|g| g.result.map(|r| r.as_str()) == Some("1-0"))
                .count(),
            60
        );

        // Two referees save the same game, both from version 1: one wins, one is told.
        let (id, _) = games[0];
        let results: Vec<u16> = std::thread::scope(|s| {
            let handles: Vec<_> = ["0-1", "1/2-1/2"]
                .into_iter()
                .map(|res| {
                    let (app, token) = (&app, token.clone());
                    s.spawn(move || {
                        app.script(&token)
                            .send_json(
                                "PUT",
                                &format!("/api/v1/games/{id}"),
                                json!({"result": res, "version": 1}),
                            )
                            .status
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut sorted = results.clone();
        sorted.sort();
        assert_eq!(
            sorted,
            vec![200, 409],
            "one save lands, the other is a conflict"
        );
        let (_, _, stored) =
            kraal::db::rounds::everything(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap();
        let g = stored
            .iter()
            .find(|g| g.id == kraal::ids::GameId(id as i32))
            .unwrap();
        assert_eq!(g.version, 2);
        assert!(matches!(
            g.result.map(|r| r.as_str()),
            Some("0-1") | Some("1/2-1/2")
        ));
        let audit =
            kraal::db::audit::of_tournament(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap();
        assert_eq!(
            audit
                .iter()
                .filter(
                    |e| e.entity == kraal::change::Entity::Game && e.entity_id == Some(id as i32)
                )
                .count(),
            2,
            "both changes that landed are audited"
        );
    }
}

#[test]
fn a_round_robin_goes_on_from_its_rounds_when_a_rating_is_corrected() {
    // Six players; after round 2 the referee corrects the last player's
    // rating so that they would draw number 1. Rounds 3-5 must continue
    // the table rounds 1-2 followed: no pair meets twice, every pair meets.
    for app in TestApp::all() {
        let (mut api, tid, ids) = setup(
            &app,
            json!({"name": "Corrected Ratings RR", "system": "round_robin", "rules": "official", "rounds": 5}),
            6,
        );
        let admin = app.user("corrector", Role::Admin);
        let mut page = app.client_as(&admin);
        let mut met = HashSet::new();
        for round in 1..=5 {
            if round == 3 {
                let edit = format!("/t/{tid}/players/{}/edit", ids[5]);
                let html = page.get(&edit).body;
                let mut fields = common::form_fields(&html, "action=\"/t/");
                for f in fields.iter_mut() {
                    if f.0 == "rating" {
                        f.1 = "2400".into();
                    }
                }
                let fields: Vec<(&str, &str)> = fields
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.as_str()))
                    .collect();
                let saved = page.post(&edit, &fields);
                assert!(saved.status < 400, "[{}] {}", app.backend, saved.body);
                let csv = app.client().get(&format!("/t/{tid}/players.csv")).body;
                assert!(
                    csv.contains("2400"),
                    "[{}] not saved: {fields:?} {csv}",
                    app.backend
                );
            }
            for p in &pair_next_round(&mut api, &app, tid, round) {
                let a = p["first_id"].as_i64().unwrap();
                let b = p["second_id"].as_i64().unwrap();
                assert!(
                    met.insert((a.min(b), a.max(b))),
                    "[{}] {a} and {b} meet again in round {round}",
                    app.backend
                );
                play(&mut api, p["games"].as_array().unwrap(), &["1-0", "0-1"]);
            }
        }
        assert_eq!(met.len(), 15, "[{}] every pair met", app.backend);
    }
}

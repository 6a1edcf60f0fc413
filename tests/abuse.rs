//! Bad input and abuse, as a prober of the running app would try them: text
//! that reads differently from what is stored, a players' link hammered, an
//! event file with a doubled id, the pages a shared computer must not keep,
//! error pages that forget who is signed in. Each is refused by name, on
//! both backends, and nothing half-done is stored.

#![allow(clippy::unwrap_used)]

mod common;

use common::{attr_values, field_error, has_attr, Client, TestApp};
use kraal::db::users::Role;
use kraal::web::limit::{RECORDS_PER_CLIENT, RECORDS_PER_LINK};
use serde_json::{json, Value};

/// An eight-player Swiss event with round 1 paired and published, through
/// the API as a referee's script does.
fn swiss(app: &TestApp, name: &str) -> (Client, i64, Vec<Value>) {
    let referee = app.user(&format!("referee-{}", name.len()), Role::Admin);
    let mut api = app.script_for(&referee);
    let tid = api.create(
        "/api/v1/tournaments",
        json!({"name": name, "rules": "official", "rounds": 5, "venue": "Orlando Community Hall"}),
    )["id"]
        .as_i64()
        .unwrap();
    for (i, n) in [
        "Kagiso Molefe",
        "Refilwe Dube",
        "Tumelo Sithole",
        "Palesa Nkosi",
        "Sipho Dlamini",
        "Nomvula Khumalo",
        "Bheki Zulu",
        "Lerato Mokoena",
    ]
    .iter()
    .enumerate()
    {
        api.create(
            &format!("/api/v1/tournaments/{tid}/players"),
            json!({"name": n, "rating": 1900 - 40 * i as i64}),
        );
    }
    let pairings = common::pair(&mut api, tid);
    (api, tid, pairings)
}

/// The players' link of a pairing, as printed on its scoresheet.
fn link(app: &TestApp, pairing: &Value) -> String {
    let pid = kraal::ids::PairingId(pairing["id"].as_i64().unwrap() as i32);
    let key = kraal::director::scoresheets::link_key(&mut app.conn(), pid).unwrap();
    format!("/p/{pid}/{key}")
}

const RECORD: &str = "1. a1 d7 2. d1 g7";

#[test]
fn a_players_link_is_limited_per_link_and_per_client_and_keeps_ten_earlier_records() {
    for app in TestApp::all() {
        let (mut api, _, pairings) = swiss(&app, "Link Limits Open");
        // Before the device's first request: what it may have been allowed
        // since is bounded by the time gone by.
        let first_request = std::time::Instant::now();
        let mut player = app.client();
        let first = link(&app, &pairings[0]);
        let game = pairings[0]["games"][0]["id"].to_string();
        let page = player.get(&first);
        assert_eq!(page.status, 200, "[{}] {}", app.backend, page.body);
        // Twelve records of one game and side are taken at once, and one
        // more each five seconds (a twelfth of the minute) for as long as
        // the records took ...
        let first_record = std::time::Instant::now();
        let mut taken = 0;
        let r = loop {
            let text = format!("{RECORD} 3. g1 a4 {{attempt {taken}}}");
            let r = player.post(
                &first,
                &[("game", &game), ("side", "dark"), ("text", &text)],
            );
            if r.status == 429 {
                break r;
            }
            assert_eq!(
                r.status, 303,
                "[{}] record {taken}: {}",
                app.backend, r.body
            );
            taken += 1;
            assert!(
                taken <= 60,
                "[{}] records through a link are limited",
                app.backend
            );
        };
        let most = RECORDS_PER_LINK.most_taken_in(first_record.elapsed());
        assert!(
            (12..=most).contains(&(taken as u128)),
            "[{}] {taken} records taken, at most {most}",
            app.backend
        );
        // ... then one waits, and is told how long.
        let wait: u64 = r.headers["retry-after"].parse().unwrap();
        assert!((1..=60).contains(&wait), "{wait}");
        let (code, params) = common::refusal_of(&r.body);
        assert_eq!(code, "too_many_requests");
        assert_eq!(params["what"], "records", "{params}");
        assert_eq!(params["through"], "table_link", "{params}");
        // The last record and the ten before it are kept; the oldest go.
        let records = api.get(&format!("/api/v1/games/{game}")).json()["records"]
            .as_array()
            .unwrap()
            .clone();
        let dark: Vec<&Value> = records.iter().filter(|r| r["side"] == "dark").collect();
        assert_eq!(dark.len(), 11, "[{}] {records:?}", app.backend);
        let last = format!("attempt {}}}", taken - 1);
        assert!(dark
            .iter()
            .any(|r| r["text"].as_str().unwrap().contains(&last)));
        assert!(!dark
            .iter()
            .any(|r| r["text"].as_str().unwrap().contains("attempt 0}")));

        // Another table's link is not held up by the first, nor by how
        // many tables one address sends for (a venue's Wi-Fi) ...
        let mut proven = Vec::new();
        for p in &pairings[1..] {
            let l = link(&app, p);
            let g = p["games"][0]["id"].to_string();
            for side in ["dark", "light"].iter().cycle().take(8) {
                let r = player.post(&l, &[("game", &g), ("side", side), ("text", RECORD)]);
                assert_eq!(r.status, 303, "[{}] {}", app.backend, r.body);
            }
            proven.push((l, g));
        }
        // ... but one device trying made-up keys is, and only that device:
        // a link already proven still takes its records.
        let pid = pairings[1]["id"].as_i64().unwrap();
        let mut refused = None;
        for i in 0..700 {
            let r = player.post(
                &format!("/p/{pid}/{i:032x}"),
                &[("game", &game), ("side", "dark"), ("text", RECORD)],
            );
            if r.status == 429 {
                refused = Some((i, r));
                break;
            }
            assert_eq!(r.status, 404, "[{}] {}", app.backend, r.body);
        }
        let (tries, r) = refused.expect("made-up keys from one client are limited");
        let most = RECORDS_PER_CLIENT.most_taken_in(first_request.elapsed());
        assert!(tries as u128 <= most, "[{}] {tries} > {most}", app.backend);
        let (code, params) = common::refusal_of(&r.body);
        assert_eq!(code, "too_many_requests");
        assert_eq!(params["through"], "device", "{params}");
        assert!(r.headers.contains_key("retry-after"));
        let (l, g) = &proven[1];
        let r = player.post(l, &[("game", g), ("side", "dark"), ("text", RECORD)]);
        assert_eq!(r.status, 303, "[{}] {}", app.backend, r.body);
    }
}

#[test]
fn a_players_link_stores_at_most_one_megabyte_per_game() {
    use kraal::director::scoresheets::{submit_by_link, LINK_MAX_GAME_BYTES, MAX_BYTES};
    use kraal::tournament::RecordSide;
    for app in TestApp::all() {
        let (_, _, pairings) = swiss(&app, "Link Sizes Open");
        let pid = kraal::ids::PairingId(pairings[0]["id"].as_i64().unwrap() as i32);
        let game = kraal::ids::GameId(pairings[0]["games"][1]["id"].as_i64().unwrap() as i32);
        let key = kraal::director::scoresheets::link_key(&mut app.conn(), pid).unwrap();
        // Long records (a record with a comment block padded out to 64 KB):
        // each side keeps eleven, which is more than a game may hold.
        let padded = |i: usize| {
            let head = format!("{RECORD} {{copy {i} ");
            format!("{head}{}}}", "x".repeat(MAX_BYTES - head.len() - 1))
        };
        let mut stored = 0;
        let refusal = (0..30)
            .find_map(|i| {
                let side = if i % 2 == 0 {
                    RecordSide::Dark
                } else {
                    RecordSide::Light
                };
                match submit_by_link(&mut app.conn(), pid, &key, game, side, &padded(i)) {
                    Ok(_) => {
                        stored += 1;
                        None
                    }
                    Err(e) => Some(e.to_string()),
                }
            })
            .expect("the game's records are capped");
        assert!(
            refusal.contains(&format!(
                "at most {} KB are kept per game",
                LINK_MAX_GAME_BYTES / 1024
            )),
            "[{}] {refusal}",
            app.backend
        );
        assert_eq!(stored, LINK_MAX_GAME_BYTES / MAX_BYTES, "[{}]", app.backend);
        let held: usize = kraal::db::scoresheets::of_game(&mut app.conn(), game)
            .unwrap()
            .iter()
            .map(|s| s.sheet.text.len())
            .sum();
        assert!(held <= LINK_MAX_GAME_BYTES, "{held}");
    }
}

#[test]
fn the_players_link_makes_the_player_say_who_they_are() {
    for app in TestApp::all() {
        let (mut api, _, pairings) = swiss(&app, "Who Am I Open");
        let l = link(&app, &pairings[0]);
        let game = pairings[0]["games"][0]["id"].to_string();
        let mut player = app.client();
        let page = player.get(&l);
        // Nothing is chosen for the player: the form sends no side.
        let fields = common::form_fields(&page.body, &format!("action=\"{l}\""));
        let side = fields.iter().find(|(n, _)| n == "side").unwrap();
        assert_eq!(side.1, "", "[{}] {}", app.backend, page.body);
        assert!(
            page.body.contains("<option value=\"\" selected>"),
            "a first choice that names nobody"
        );
        let r = player.post(&l, &[("game", &game), ("side", ""), ("text", RECORD)]);
        assert_eq!(r.status, 422, "[{}] {}", app.backend, r.body);
        assert!(common::has_attr(&r.body, "id", "problem"), "{}", r.body);
        assert_eq!(
            api.get(&format!("/api/v1/games/{game}")).json()["records"],
            json!([])
        );
        // What was typed comes back with the side as chosen.
        let r = player.post(&l, &[("game", &game), ("side", "light"), ("text", "")]);
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(
            r.body.contains("<option value=\"light\" selected>"),
            "{}",
            r.body
        );
    }
}

#[test]
fn control_bidi_and_zero_width_characters_are_refused_by_field_everywhere() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut api = app.script_for(&admin);
        let tid = api.create(
            "/api/v1/tournaments",
            json!({"name": "Bidi Open", "rules": "gar", "rounds": 5, "system": "team_league"}),
        )["id"]
            .as_i64()
            .unwrap();
        let players = format!("/api/v1/tournaments/{tid}/players");
        let cases = [
            (
                players.clone(),
                json!({"name": "Thabo\nMokoena"}),
                "name",
                "U+000A",
            ),
            (
                players.clone(),
                json!({"name": "Thabo\u{202E}Mokoena"}),
                "name",
                "U+202E",
            ),
            (
                players.clone(),
                json!({"name": "Sipho Dlamini", "club": "Soweto\u{200B}MSC"}),
                "club",
                "U+200B",
            ),
            (
                "/api/v1/tournaments".to_string(),
                json!({"name": "Open", "venue": "Orlando\u{2066} Hall", "rounds": 5}),
                "venue",
                "U+2066",
            ),
            (
                "/api/v1/tournaments".to_string(),
                json!({"name": "Soweto\u{FEFF}Open", "rounds": 5}),
                "name",
                "U+FEFF",
            ),
        ];
        for (path, body, field, shown) in cases {
            let r = api.send_json("POST", &path, body.clone());
            assert_eq!(r.status, 422, "[{}] {body}: {}", app.backend, r.body);
            assert_eq!(r.json()["field"], field, "{body}: {}", r.body);
            let point = u32::from_str_radix(shown.trim_start_matches("U+"), 16).unwrap();
            assert_eq!(r.json()["params"]["code"], point, "{shown}: {}", r.body);
        }
        let mut ids = Vec::new();
        for n in [
            "Ayanda Ndlovu",
            "Nomsa Shabalala",
            "Kagiso Molefe",
            "Zanele Khumalo",
        ] {
            ids.push(api.create(&players, json!({"name": n}))["id"].clone());
        }
        let r = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/teams"),
            json!({"name": "Tembisa\u{2069}", "members": ids}),
        );
        assert_eq!(r.status, 422, "[{}] {}", app.backend, r.body);
        assert_eq!(r.json()["field"], "name");
        // The forms say it by the field, and so do the imports, by line.
        let mut web = app.client_as(&admin);
        let r = web.post(
            &format!("/t/{tid}/players"),
            &[("name", "Lerato Mokoena"), ("club", "Tembisa\u{202D}")],
        );
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(
            field_error(&r.body, "club").is_some_and(|e| e.contains("U+202D")),
            "{}",
            r.body
        );
        web.get(&format!("/t/{tid}/import"));
        let r = web.post(
            &format!("/t/{tid}/import"),
            &[(
                "csv",
                "name,club\nBheki Zulu,Soweto\nThandiwe\u{200F}Nkosi,Soweto\n",
            )],
        );
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(
            common::problem_places(&r.body),
            [("3".to_string(), "name".to_string())],
            "{}",
            r.body
        );
        // An API token's name on the account page too.
        web.get("/account");
        let r = web.post("/account/tokens", &[("label", "results\u{202E}uploader")]);
        assert_eq!(r.status, 422, "[{}] {}", app.backend, r.body);
        assert!(
            common::field_error(&r.body, "label").is_some(),
            "{}",
            r.body
        );
        assert!(r.body.contains("U+202E"), "{}", r.body);
        let stored =
            kraal::db::players::list(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap();
        assert_eq!(stored.len(), 4, "[{}] nothing else stored", app.backend);
        assert!(stored.iter().all(|p| !p.name.contains(['\n', '\u{202E}'])));
    }
}

#[test]
fn signed_in_and_secret_link_responses_are_never_stored() {
    for app in TestApp::all() {
        let (mut api, tid, pairings) = swiss(&app, "Private Open");
        let me = api.get("/api/v1/me").json()["name"]
            .as_str()
            .unwrap()
            .to_string();
        let user = kraal::db::users::find_by_name(&mut app.conn(), &me)
            .unwrap()
            .unwrap();
        let mut web = app.client_as(&user);
        for path in [
            "/account".to_string(),
            format!("/t/{tid}/event.json"),
            format!("/t/{tid}/games.txt"),
            format!("/t/{tid}/audit"),
            format!("/t/{tid}/rounds/1/results"),
            format!("/t/{tid}/standings"),
        ] {
            let r = web.get(&path);
            assert_eq!(r.status, 200, "[{}] {path}: {}", app.backend, r.body);
            assert_eq!(
                r.headers.get("cache-control").map(String::as_str),
                Some("no-store"),
                "[{}] {path}",
                app.backend
            );
        }
        for path in [
            format!("/api/v1/tournaments/{tid}/standings"),
            "/api/v1/me".into(),
        ] {
            let r = api.get(&path);
            assert_eq!(
                r.headers.get("cache-control").map(String::as_str),
                Some("no-store"),
                "{path}"
            );
        }
        let r = app.client().get(&link(&app, &pairings[0]));
        assert_eq!(
            r.headers.get("cache-control").map(String::as_str),
            Some("no-store")
        );
        // A public page for an anonymous visitor may be kept.
        let r = app.client().get(&format!("/t/{tid}/standings"));
        assert_eq!(r.status, 200);
        assert_ne!(
            r.headers.get("cache-control").map(String::as_str),
            Some("no-store")
        );
    }
}

#[test]
fn error_pages_show_who_is_signed_in_and_lead_back() {
    for app in TestApp::all() {
        let (_, tid, _) = swiss(&app, "Error Pages Open");
        let sipho = app.user("sipho", Role::Referee);
        let mut web = app.client_as(&sipho);
        // A form without its CSRF token: refused, still signed in.
        let r = web.post_raw(&format!("/t/{tid}/players"), &[("name", "Bheki Zulu")]);
        assert_eq!(r.status, 403, "[{}] {}", app.backend, r.body);
        assert!(r.body.contains("sipho"), "[{}] {}", app.backend, r.body);
        assert!(has_attr(&r.body, "action", "/logout"), "{}", r.body);
        assert!(r.body.contains(&format!("href=\"/t/{tid}\"")), "{}", r.body);
        // Another referee's tournament: no, and back to it.
        let r = web.get(&format!("/t/{tid}/audit"));
        assert_eq!(r.status, 403);
        assert!(r.body.contains("sipho"), "{}", r.body);
        assert_eq!(
            attr_values(&r.body, "data-back"),
            [format!("/t/{tid}"), "/".to_string()],
            "{}",
            r.body
        );
        // A tournament that does not exist leads home only.
        let r = web.get("/t/999999/standings");
        assert_eq!(r.status, 404);
        assert_eq!(attr_values(&r.body, "data-back"), ["/"], "{}", r.body);
    }
}

#[test]
fn a_team_import_refusal_names_the_line_of_its_team() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut api = app.script_for(&admin);
        let tid = api.create(
            "/api/v1/tournaments",
            json!({"name": "Gauteng League", "rules": "official", "rounds": 3, "system": "team_league"}),
        )["id"]
            .as_i64()
            .unwrap();
        let mut web = app.client_as(&admin);
        web.get(&format!("/t/{tid}/teams"));
        let first = "team,name,board\n\
                     Soweto A,Thabo Nkosi,1\nSoweto A,Sipho Dlamini,2\n\
                     Soweto A,Lerato Mokoena,3\nSoweto A,Zanele Khumalo,4\n";
        let r = web.post(&format!("/t/{tid}/teams/import"), &[("csv", first)]);
        assert_eq!(r.status, 200, "[{}] {}", app.backend, r.body);
        // The second file's second team is already entered: its line is named.
        let second = "team,name,board\n\
                      Tembisa,Ayanda Ndlovu,1\nTembisa,Nomsa Shabalala,2\n\
                      Tembisa,Kagiso Molefe,3\nTembisa,Refilwe Dube,4\n\
                      Soweto A,Bheki Zulu,1\nSoweto A,Palesa Nkosi,2\n\
                      Soweto A,Tumelo Sithole,3\nSoweto A,Nomvula Dube,4\n";
        let r = web.post(&format!("/t/{tid}/teams/import"), &[("csv", second)]);
        assert_eq!(r.status, 422, "[{}] {}", app.backend, r.body);
        assert!(
            r.body
                .contains("line 6, column team: a team called Soweto A is already entered"),
            "[{}] {}",
            app.backend,
            r.body
        );
        // A name too long for a team is found while reading, on its line.
        let long = "X".repeat(81);
        let third =
            format!("team,name,board\nDiepkloof,Ayanda Ndlovu,1\n{long},Nomsa Shabalala,1\n");
        let r = web.post(&format!("/t/{tid}/teams/import"), &[("csv", &third)]);
        assert!(
            r.body
                .contains("line 3, column team: the name is longer than 80 characters"),
            "{}",
            r.body
        );
        assert_eq!(
            kraal::db::players::list(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap()
                .len(),
            4
        );
        assert_eq!(
            kraal::db::teams::list(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap()
                .len(),
            1
        );
    }
}

#[test]
fn an_event_file_is_checked_row_by_row_and_refused_whole() {
    for app in TestApp::all() {
        let (_, tid, _) = swiss(&app, "Import Checks Open");
        let file =
            kraal::export::event::json(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap();
        let good: Value = serde_json::from_slice(&file).unwrap();
        // The words are the command line's (a refusal's Display is English
        // for `kraal import` and the logs): they name the place in the file.
        let refused = |change: &dyn Fn(&mut Value)| -> String {
            let mut v = good.clone();
            change(&mut v);
            match kraal::db::event::parse(&v.to_string()) {
                Ok(_) => panic!("taken: {v}"),
                Err(e) => e.to_string(),
            }
        };
        // A doubled player id, named by both rows (today: an extra player).
        let m = refused(&|v| {
            let id = v["players"][0]["id"].clone();
            v["players"][3]["id"] = id;
        });
        assert!(m.contains("players[3] has id"), "{m}");
        assert!(m.contains("as players[0] does"), "{m}");
        let m = refused(&|v| v["players"][2]["name"] = json!("Tumelo\nSithole"));
        assert!(
            m.contains("players[2]") && m.contains(".name: ") && m.contains("U+000A"),
            "{m}"
        );
        let m = refused(&|v| v["players"][1]["name"] = json!("Refilwe\u{202E}Dube"));
        assert!(m.contains("U+202E"), "{m}");
        let m = refused(&|v| v["players"][1]["name"] = json!("R".repeat(101)));
        assert!(m.contains("longer than 100 characters"), "{m}");
        let m = refused(&|v| v["players"][4]["rating"] = json!(5200));
        assert!(
            m.contains("players[4]") && m.contains("rating 5200 is outside 0..4000"),
            "{m}"
        );
        let m = refused(&|v| v["tournament"]["rounds"] = json!(140));
        assert!(
            m.contains("tournament.rounds: 140 rounds is outside 1..99"),
            "{m}"
        );
        let m = refused(&|v| v["games"][0]["version"] = json!(-3));
        assert!(m.contains("games[0].version: -3 is not 0 or more"), "{m}");
        let (a, b) = (
            good["players"][0]["id"].clone(),
            good["players"][1]["id"].clone(),
        );
        let pair = |from: i64, to: i64| {
            json!({"id": 1, "tournament_id": tid, "player_a": a, "player_b": b, "from_round": from,
                   "to_round": to, "waived": false, "note": "", "created_by": null,
                   "created_at": "2026-11-25T09:00:00"})
        };
        let m = refused(&|v| v["forbidden_pairs"] = json!([pair(4, 2)]));
        assert!(
            m.contains("forbidden_pairs[0].to_round: to round 2 is before from round 4"),
            "{m}"
        );
        // Teams: a player on two teams, a line-up of another team's player.
        let p: Vec<Value> = good["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].clone())
            .collect();
        let team =
            |id: i64, name: &str| json!({"id": id, "tournament_id": tid, "name": name, "club": ""});
        let member = |id: i64, team: i64, player: &Value, board: i64| json!({"id": id, "team_id": team, "player_id": player, "board": board, "substitute": false});
        let teams = json!([team(1, "Soweto A"), team(2, "Tembisa")]);
        let members: Vec<Value> = (0..8)
            .map(|i| member(i as i64 + 1, 1 + i as i64 / 4, &p[i], 1 + i as i64 % 4))
            .collect();
        let m = refused(&|v| {
            v["teams"] = teams.clone();
            let mut twice = members.clone();
            twice[5]["player_id"] = p[1].clone();
            v["team_members"] = json!(twice);
        });
        assert!(
            m.contains("team_members[5].player_id") && m.contains("belongs to one team"),
            "{m}"
        );
        let round = good["rounds"][0]["id"].clone();
        let m = refused(&|v| {
            v["teams"] = teams.clone();
            v["team_members"] = json!(members.clone());
            v["lineups"] = json!((0..4)
                .map(|k| json!({"id": k + 1, "round_id": round, "team_id": 1, "board": k + 1,
                                "player_id": if k == 2 { p[6].clone() } else { p[k as usize].clone() },
                                "replaces_player_id": null}))
                .collect::<Vec<_>>());
        });
        assert!(
            m.contains("lineups[0].boards: board 3: Bheki Zulu is not on Soweto A's roster"),
            "{m}"
        );

        // From the command line: refused, and nothing stored.
        let mut doubled = good.clone();
        doubled["players"][3]["id"] = good["players"][0]["id"].clone();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("event.json");
        std::fs::write(&path, doubled.to_string()).unwrap();
        let before = kraal::db::tournaments::list(&mut app.conn()).unwrap().len();
        let (code, _, err) = common::cli::kraal(&["import", "event", path.to_str().unwrap()])
            .database_url(&app.database_url)
            .run();
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("players[3] has id"), "{err}");
        assert_eq!(
            kraal::db::tournaments::list(&mut app.conn()).unwrap().len(),
            before
        );
        // A file over 50 MB is not even read whole.
        let big = dir.path().join("big.json");
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(50 * 1024 * 1024 + 10).unwrap();
        let (code, _, err) = common::cli::kraal(&["import", "event", big.to_str().unwrap()])
            .database_url(&app.database_url)
            .run();
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("at most 50 MB are taken"), "{err}");
    }
}

#[test]
fn right_passwords_at_once_are_queued_even_after_wrong_ones() {
    // Four wrong tries (one short of the lock), then the desk's ten helpers
    // sign in at the same moment with the right password: all get in; the
    // throttle refuses only wrong passwords beyond the limit.
    for app in TestApp::all() {
        app.user("desk", Role::Referee);
        for _ in 0..4 {
            assert_eq!(app.client().sign_in("desk", "not the password").status, 401);
        }
        let statuses: Vec<u16> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..10)
                .map(|_| {
                    let app = &app;
                    s.spawn(move || app.client().sign_in("desk", common::PASSWORD).status)
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(
            statuses.iter().all(|&s| s == 303),
            "[{}] {statuses:?}",
            app.backend
        );
    }
}

/// A file pasted into a browser's text area comes back with `\r\n` line
/// ends: a problem is still named by the line it is on, counting the header
/// as line 1, on the player import and on the people import alike.
#[test]
fn an_import_pasted_in_a_browser_names_the_line_it_is_on() {
    for app in TestApp::all() {
        let referee = app.user("nomsa", Role::Admin);
        let mut web = app.client_as(&referee);
        let mut api = app.script_for(&referee);
        let tid = api.create(
            "/api/v1/tournaments",
            json!({"name": "Mamelodi Winter Open", "rules": "official", "rounds": 5}),
        )["id"]
            .as_i64()
            .unwrap();
        web.get(&format!("/t/{tid}/import"));
        let csv = "name,club,rating\r\nBheki Zulu,Soweto MSC,1710\r\nThandiwe Nkosi,Mamelodi Stones,17x0\r\n";
        let r = web.post(&format!("/t/{tid}/import"), &[("csv", csv)]);
        assert_eq!(r.status, 422, "[{}] {}", app.backend, r.body);
        assert_eq!(
            attr_values(&r.body, "data-line"),
            vec!["3"],
            "[{}]",
            app.backend
        );

        web.get("/people");
        let csv = "name,federation_id\r\nSipho Dlamini,ZA-2001\r\nNomvula Khumalo,ZA-2001\r\n";
        let r = web.post("/people/import", &[("csv", csv)]);
        assert_eq!(r.status, 422, "[{}] {}", app.backend, r.body);
        assert_eq!(
            attr_values(&r.body, "data-line"),
            vec!["3"],
            "[{}]",
            app.backend
        );
    }
}

//! Pages players read at a glance at a venue: confirmations, round states,
//! the round page's "where do I sit?", standings that say what they are,
//! crosstable cells, result slips, and the live pages' event stream.

#![allow(clippy::unwrap_used)]

mod common;

use std::time::{Duration, Instant};

use common::{attr_values, has_attr, pair, put, read_event_until, tag_with, Client, TestApp};
use kraal::db::users::Role;
use serde_json::json;

const NAMES: [&str; 8] = [
    "Kagiso Molefe",
    "Refilwe Dube",
    "Tumelo Sithole",
    "Palesa Nkosi",
    "Lindiwe Zulu",
    "Bongani Khumalo",
    "Nandi Mthembu",
    "Sifiso Ngcobo",
];

/// A Swiss event under the official rules (two games a pairing) with the
/// given players, through the API.
fn event(app: &TestApp, api: &mut Client, name: &str, players: &[&str]) -> (i64, Vec<i64>) {
    let t = api.send_json(
        "POST",
        "/api/v1/tournaments",
        json!({"name": name, "system": "swiss", "rules": "official", "rounds": 4,
               "venue": "Mmabatho Civic Centre"}),
    );
    assert_eq!(t.status, 201, "{}", t.body);
    let tid = t.json()["id"].as_i64().unwrap();
    let _ = app;
    let ids = players
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let r = api.send_json(
                "POST",
                &format!("/api/v1/tournaments/{tid}/players"),
                json!({"name": n, "club": format!("Club {}", i % 3), "rating": 1900 - 40 * i as i64}),
            );
            assert_eq!(r.status, 201, "{}", r.body);
            r.json()["id"].as_i64().unwrap()
        })
        .collect();
    (tid, ids)
}

/// Enters results for the first `tables` two-player pairings: game 1 to its
/// starter, game 2 drawn (1½-½ to the first player).
fn play(api: &mut Client, pairings: &[serde_json::Value], tables: usize) {
    for p in pairings
        .iter()
        .filter(|p| !p["second_id"].is_null())
        .take(tables)
    {
        let games = p["games"].as_array().unwrap();
        put(api, &games[0], "1-0");
        put(api, &games[1], "½-½");
    }
}

#[test]
fn undo_and_withdrawal_ask_first_and_say_what_happens() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut api = app.script_for(&admin);
        let (tid, ids) = event(&app, &mut api, "Rustenburg Open", &NAMES[..4]);
        pair(&mut api, tid);
        let mut web = app.client_as(&admin);

        let ask = web.post(&format!("/t/{tid}/rounds/1/undo"), &[]);
        assert_eq!(ask.status, 200, "{}", ask.body);
        assert!(
            has_attr(&ask.body, "action", &format!("/t/{tid}/rounds/1/undo")),
            "{}",
            ask.body
        );
        // The consequence is said in words: the count is what the referee reads.
        // the words are the point
        assert!(ask.body.contains("The 2 pairings of round 1 are deleted"));
        assert!(ask.body.contains("name=\"confirm\" value=\"yes\""));
        assert!(
            web.get(&format!("/t/{tid}/rounds/1")).status == 200,
            "still there"
        );
        let done = web.post(&format!("/t/{tid}/rounds/1/undo"), &[("confirm", "yes")]);
        assert_eq!(done.status, 303);
        assert_eq!(web.get(&format!("/t/{tid}/rounds/1")).status, 404);

        let p = ids[1];
        let ask = web.post(&format!("/t/{tid}/players/{p}/withdraw"), &[]);
        assert_eq!(ask.status, 200);
        assert!(
            has_attr(
                &ask.body,
                "action",
                &format!("/t/{tid}/players/{p}/withdraw")
            ),
            "{}",
            ask.body
        );
        // the words are the point: the question names the player and the round
        assert!(ask
            .body
            .contains("Refilwe Dube is not paired from round 1 on."));
        let player = web.get(&format!("/t/{tid}/players/{p}"));
        assert!(
            attr_values(&player.body, "data-withdrawn-from").is_empty(),
            "asking changes nothing"
        );
        let done = web.post(
            &format!("/t/{tid}/players/{p}/withdraw"),
            &[("confirm", "yes")],
        );
        assert_eq!(done.status, 303);
        assert_eq!(
            attr_values(
                &web.get(&format!("/t/{tid}/players/{p}")).body,
                "data-withdrawn-from"
            ),
            ["1"]
        );
    }
}

#[test]
fn a_round_without_two_players_is_refused_with_a_sentence() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut api = app.script_for(&admin);
        let (tid, _) = event(&app, &mut api, "Empty Open", &[]);
        let mut web = app.client_as(&admin);
        let r = web.post(&format!("/t/{tid}/rounds"), &[]);
        assert_eq!(r.status, 409);
        assert_eq!(
            attr_values(&r.body, "data-code"),
            ["no_players"],
            "{}",
            r.body
        );
        api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/players"),
            json!({"name": "Kagiso Molefe"}),
        );
        let r = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/rounds"),
            json!({}),
        );
        assert_eq!(r.status, 409);
        assert_eq!(r.json()["code"], "only_one", "{}", r.body);
        assert_eq!(
            r.json()["params"]["name"],
            "Kagiso Molefe",
            "the refusal names the only player: {}",
            r.body
        );
        assert!(
            web.get(&format!("/t/{tid}/rounds/1")).status == 404,
            "no empty draft"
        );
    }
}

#[test]
fn the_tournament_page_shows_each_rounds_state_and_the_next_step() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut api = app.script_for(&admin);
        let (tid, _) = event(&app, &mut api, "Potchefstroom Open", &NAMES);
        let mut web = app.client_as(&admin);
        // The next step: what, for which round (and how many results).
        let next = |page: &str| {
            let what = attr_values(page, "data-next");
            let round = attr_values(page, "data-next-round");
            let missing = attr_values(page, "data-missing");
            (what.join(" "), round.join(" "), missing.join(" "))
        };
        let state = |page: &str, n: &str| {
            let tag = tag_with(page, "data-round", n);
            assert_eq!(tag.len(), 1, "round {n} once: {page}");
            (
                attr_values(tag[0], "data-state").join(""),
                attr_values(tag[0], "data-tables-done").join(""),
            )
        };
        let page = web.get(&format!("/t/{tid}")).body;
        assert_eq!(next(&page), ("pair".into(), "1".into(), "".into()));
        let r1 = pair(&mut api, tid);
        let page = web.get(&format!("/t/{tid}")).body;
        assert_eq!(state(&page, "1").0, "published", "{page}");
        assert_eq!(next(&page), ("results".into(), "1".into(), "8".into()));
        play(&mut api, &r1, 3);
        let page = web.get(&format!("/t/{tid}")).body;
        assert_eq!(state(&page, "1"), ("partial".into(), "3/4".into()));
        assert_eq!(next(&page), ("results".into(), "1".into(), "2".into()));
        play(&mut api, &r1[3..], 1);
        let page = web.get(&format!("/t/{tid}")).body;
        assert_eq!(state(&page, "1").0, "complete", "{page}");
        assert_eq!(next(&page), ("pair".into(), "2".into(), "".into()));
        assert_eq!(web.post(&format!("/t/{tid}/rounds"), &[]).status, 303);
        let page = web.get(&format!("/t/{tid}")).body;
        assert_eq!(state(&page, "2").0, "draft", "{page}");
        assert_eq!(next(&page), ("publish".into(), "2".into(), "".into()));
        // Anonymous visitors see the states but no actions, and no draft.
        let public = app.client().get(&format!("/t/{tid}")).body;
        assert_eq!(state(&public, "1").0, "complete");
        assert!(tag_with(&public, "data-round", "2").is_empty(), "no draft");
        assert!(attr_values(&public, "data-next").is_empty(), "no actions");
    }
}

#[test]
fn the_round_page_says_where_each_player_sits() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut api = app.script_for(&admin);
        let (tid, ids) = event(&app, &mut api, "Klerksdorp Open", &NAMES[..5]);
        let r1 = pair(&mut api, tid);
        let table_of = |id: i64| {
            r1.iter()
                .find(|p| p["first_id"] == id || p["second_id"] == id)
                .map(|p| p["table"].as_i64().unwrap())
                .unwrap()
        };
        let web = &mut app.client();
        let found = web.get(&format!("/t/{tid}/rounds/1?q=dube"));
        assert_eq!(found.status, 200);
        let t = table_of(ids[1]);
        assert_eq!(attr_values(&found.body, "data-matches"), ["1"]);
        let me = tag_with(&found.body, "data-found", &ids[1].to_string());
        assert_eq!(me.len(), 1, "{}", found.body);
        assert_eq!(attr_values(me[0], "data-table"), [t.to_string()]);
        let none = web.get(&format!("/t/{tid}/rounds/1?q=Zwane")).body;
        assert_eq!(attr_values(&none, "data-matches"), ["0"]);
        // The A–Z list: alphabetical, each with a table or the bye.
        let page = web.get(&format!("/t/{tid}/rounds/1")).body;
        let list = &page[page.find("seat-list").unwrap()..];
        let order: Vec<usize> = [
            "Kagiso Molefe",
            "Lindiwe Zulu",
            "Palesa Nkosi",
            "Refilwe Dube",
            "Tumelo Sithole",
        ]
        .iter()
        .map(|n| list.find(n).unwrap())
        .collect();
        assert!(
            order.windows(2).all(|w| w[0] < w[1]),
            "alphabetical: {order:?}"
        );
        let seats = attr_values(list, "data-table");
        assert_eq!(seats.len(), 5);
        assert_eq!(
            seats.iter().filter(|t| *t == "bye").count(),
            1,
            "five players: one has the bye"
        );
        // One "why" per pairing, folded, and no row of its own.
        assert!(!page.contains("<tr class=\"why\">"));
        assert!(page.contains("<details><summary>why"));
        // The printed sheet's heading and QR code.
        assert!(page.contains("Klerksdorp Open · Mmabatho Civic Centre · "));
        assert!(page.contains("<svg"), "QR code");
        assert!(page.contains(&format!("{}/t/{tid}/rounds/1", app.base)));

        // A player's page: table for the round being played, own-side scores.
        let me = ids[1];
        let mine = web.get(&format!("/t/{tid}/players/{me}")).body;
        let now = tag_with(&mine, "class", "notice now-playing");
        assert_eq!(now.len(), 1, "{mine}");
        assert_eq!(attr_values(now[0], "data-round"), ["1"]);
        assert_eq!(attr_values(now[0], "data-table"), [t.to_string()]);
        play(&mut api, &r1, 2);
        let mine = web.get(&format!("/t/{tid}/players/{me}")).body;
        let p = r1
            .iter()
            .find(|p| p["second_id"] == me || p["first_id"] == me)
            .unwrap();
        let expected = if p["first_id"] == me {
            ("won", "1½-½")
        } else {
            ("lost", "½-1½")
        };
        let score = tag_with(&mine, "class", "score");
        assert_eq!(score.len(), 1, "{mine}");
        assert_eq!(
            (
                attr_values(score[0], "data-outcome"),
                attr_values(score[0], "data-score")
            ),
            (vec![expected.0.to_string()], vec![expected.1.to_string()])
        );
        assert!(!mine.contains("now-playing"), "the round is over for them");
        // One way to write a half, the sheet's CSV included.
        let sheet = web.get(&format!("/t/{tid}/rounds/1/pairings.csv")).body;
        assert!(sheet.contains("2:½-½") && !sheet.contains("1/2"), "{sheet}");
    }
}

#[test]
fn standings_say_provisional_and_list_withdrawn_players_after_unranked() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut api = app.script_for(&admin);
        let (tid, ids) = event(&app, &mut api, "Vryburg Open", &NAMES);
        let r1 = pair(&mut api, tid);
        play(&mut api, &r1, 3);
        let web = &mut app.client();
        let page = web.get(&format!("/t/{tid}/standings")).body;
        assert_eq!(attr_values(&page, "data-missing"), ["2"], "{page}");
        play(&mut api, &r1[3..], 1);
        let page = web.get(&format!("/t/{tid}/standings")).body;
        assert_eq!(attr_values(&page, "data-missing"), ["0"]);

        // The round 1 winner withdraws: listed last, without a rank.
        let winner = r1[0]["first_id"].as_i64().unwrap();
        let name = NAMES[ids.iter().position(|i| *i == winner).unwrap()];
        let mut a = app.client_as(&admin);
        a.post(
            &format!("/t/{tid}/players/{winner}/withdraw"),
            &[("confirm", "yes")],
        );
        let page = web.get(&format!("/t/{tid}/standings")).body;
        let rows: Vec<&str> = page.split("<tr").skip(2).collect();
        assert_eq!(rows.len(), 8);
        assert!(
            rows[7].contains(name) && rows[7].contains("withdrawn"),
            "{}",
            rows[7]
        );
        assert!(rows[7].starts_with(" class=\"withdrawn\"><td>–</td>"));
        assert!(rows[0].starts_with("><td>1</td>"), "{}", rows[0]);
        assert!(!rows[..7].iter().any(|r| r.contains(name)));

        // Crosstable cells: rank, W/½/L and the score from the player's side.
        let cross = web.get(&format!("/t/{tid}/crosstable")).body;
        assert!(
            cross.contains("<strong>W</strong> <span class=\"pts\">1½-½</span>"),
            "{cross}"
        );
        assert!(cross.contains("<strong>L</strong> <span class=\"pts\">½-1½</span>"));
        assert!(has_attr(&cross, "aria-describedby", "legend"), "a legend");
        assert!(has_attr(&cross, "id", "legend"));
    }
}

#[test]
fn one_number_format_per_tiebreak_column() {
    let v = |raw, denom| kraal::standings::TiebreakValue { raw, denom };
    assert!(!v(145, 10).is_fine());
    assert!(v(1942, 100).is_fine());
    assert_eq!(v(145, 10).show_decimal(), "14.50");
    assert_eq!(v(145, 10).show(), "14½");
}

#[test]
fn result_slips_carry_one_slip_per_table() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut api = app.script_for(&admin);
        let (tid, _) = event(&app, &mut api, "Lichtenburg Open", &NAMES[..7]);
        pair(&mut api, tid);
        let page = app.client().get(&format!("/t/{tid}/rounds/1/slips"));
        assert_eq!(page.status, 200);
        assert_eq!(
            page.body.matches("<section class=\"slip\"").count(),
            3,
            "no slip for the bye"
        );
        let slips = tag_with(&page.body, "class", "slip");
        assert_eq!(attr_values(slips[0], "data-table"), ["1"]);
        assert!(slips.iter().all(|s| attr_values(s, "data-round") == ["1"]));
        assert!(page
            .body
            .contains("Lichtenburg Open · Mmabatho Civic Centre · "));
        assert_eq!(
            page.body.matches("<td class=\"box\">").count(),
            6,
            "two games a table"
        );
        assert_eq!(
            page.body.matches("Referee: <span class=\"line\">").count(),
            3
        );
    }
}

#[test]
fn the_event_stream_announces_a_saved_result() {
    event_stream_announces_a_saved_result(Duration::from_secs(20));
}

/// The same, timed (the performance run, docs/performance.md).
#[test]
#[ignore = "timing: part of the performance run (docs/performance.md)"]
fn the_event_stream_announces_a_saved_result_within_a_second() {
    event_stream_announces_a_saved_result(Duration::from_secs(1));
}

fn event_stream_announces_a_saved_result(within: Duration) {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut api = app.script_for(&admin);
        let (tid, _) = event(&app, &mut api, "Zeerust Open", &NAMES[..4]);
        let r1 = pair(&mut api, tid);
        let mut reader = common::event_stream(&app, tid);
        assert!(read_event_until(
            &mut reader,
            "HTTP/1.1 200 OK",
            Duration::from_secs(2)
        ));
        let revision =
            kraal::db::tournaments::revision(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap();
        assert!(
            read_event_until(
                &mut reader,
                &format!("data: {revision}"),
                Duration::from_secs(2)
            ),
            "the current revision first"
        );
        let saved = Instant::now();
        put(&mut api, &r1[0]["games"][0], "1-0");
        assert!(
            read_event_until(&mut reader, &format!("data: {}", revision + 1), within),
            "a saved result reaches the stream within {within:?}"
        );
        assert!(saved.elapsed() < within);
    }
}

#[test]
fn the_audit_trail_names_rounds_tables_and_players_and_pages_by_a_hundred() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let thandi = app.user("thandi", Role::Referee);
        let mut api = app.script_for(&admin);
        let (tid, ids) = event(&app, &mut api, "Brits Open", &NAMES[..4]);
        kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
            kraal::db::tournaments::assign_referee(w, kraal::ids::TournamentId(tid as i32), &thandi)
        })
        .unwrap();
        let mut web = app.client_as(&admin);
        assert_eq!(web.post(&format!("/t/{tid}/rounds"), &[]).status, 303);
        let (a, b) = (ids[0].to_string(), ids[1].to_string());
        let swap = web.post(
            &format!("/t/{tid}/rounds/1/swap"),
            &[("a", &a), ("b", &b), ("confirm", "yes")],
        );
        assert_eq!(swap.status, 303, "{}", swap.body);
        assert_eq!(
            web.post(&format!("/t/{tid}/rounds/1/publish"), &[]).status,
            303
        );
        let round = api
            .get(&format!("/api/v1/tournaments/{tid}/rounds/1"))
            .json();
        let p = &round["pairings"][0];
        let name = |id: &serde_json::Value| NAMES[ids.iter().position(|i| id == i).unwrap()];
        let mut referee = app.script_for(&thandi);
        put(&mut referee, &p["games"][1], "1-0");

        let trail = web.get(&format!("/t/{tid}/audit")).body;
        assert!(has_attr(&trail, "data-audit-action", "swap"), "{trail}");
        assert!(
            trail.contains("Kagiso Molefe and Refilwe Dube"),
            "swap names its players"
        );
        let game = format!(
            "result round 1, table {}, game 2 ({} – {})",
            p["table"],
            name(&p["first_id"]),
            name(&p["second_id"])
        );
        assert!(trail.contains(&game), "{game} in {trail}");
        assert!(!trail.contains(" #"), "no internal ids");

        // Filters: by referee, by player, by round.
        let by = web.get(&format!("/t/{tid}/audit?referee=thandi")).body;
        assert_eq!(attr_values(&by, "data-total"), ["1"]);
        assert!(by.contains(&game), "{by}");
        let other = ids
            .iter()
            .find(|i| p["first_id"] != **i && p["second_id"] != **i)
            .unwrap();
        let theirs = web.get(&format!("/t/{tid}/audit?player={other}")).body;
        assert!(
            !theirs.contains(&game) && has_attr(&theirs, "data-audit-action", "add"),
            "{theirs}"
        );
        let r1 = web.get(&format!("/t/{tid}/audit?round=1")).body;
        assert!(r1.contains(&game) && !has_attr(&r1, "data-audit-action", "add"));

        // A hundred changes a page.
        for i in 0..110 {
            put(
                &mut referee,
                &p["games"][0],
                if i % 2 == 0 { "1-0" } else { "0-1" },
            );
        }
        let first = web.get(&format!("/t/{tid}/audit?referee=thandi")).body;
        let counts = ["data-total", "data-page", "data-pages"].map(|a| attr_values(&first, a));
        assert_eq!(counts, [["111"], ["1"], ["2"]], "{first}");
        assert_eq!(first.matches("<td class=\"value\">").count(), 200);
        let second = web
            .get(&format!("/t/{tid}/audit?referee=thandi&page=2"))
            .body;
        assert_eq!(second.matches("<td class=\"value\">").count(), 22);
    }
}

#[test]
fn the_import_names_file_lines_counts_problems_and_warns_of_same_names() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut api = app.script_for(&admin);
        let (tid, _) = event(&app, &mut api, "Mahikeng Open", &[]);
        let mut web = app.client_as(&admin);
        let url = format!("/t/{tid}/import");
        // Line 3 has a bad rating; line 4 names a relative not in the file:
        // both are reported on the first pass.
        let csv = "name,club,rating,relatives\n\
                   Kagiso Molefe,Mafikeng MC,1800,\n\
                   Refilwe Dube,Mafikeng MC,18x0,\n\
                   Tumelo Sithole,Upington MC,1700,Palesa Nkosi\n";
        let r = web.post(&url, &[("csv", csv)]);
        assert_eq!(r.status, 422);
        assert_eq!(attr_values(&r.body, "data-problems"), ["2"], "{}", r.body);
        // The problems name their lines and columns: that is what the reader needs.
        assert_eq!(
            common::problem_places(&r.body),
            [("3", "rating"), ("4", "relatives")].map(|(l, c)| (l.to_string(), c.to_string())),
            "{}",
            r.body
        );
        assert!(
            r.body.contains("Palesa Nkosi"),
            "the relative is named: {}",
            r.body
        );
        // A relative named on a bad line is still found by name.
        let csv = "name,rating,relatives\nKagiso Molefe,18x0,\nRefilwe Dube,1700,Kagiso Molefe\n";
        let r = web.post(&url, &[("csv", csv)]);
        assert_eq!(
            attr_values(&r.body, "data-problems"),
            ["1"],
            "the rating only: {}",
            r.body
        );
        // Two lines with one name: imported, with a warning.
        let csv =
            "name,club\nKagiso Molefe,Mafikeng MC\nRefilwe Dube,\nkagiso  molefe,Upington MC\n";
        let r = web.post(&url, &[("csv", csv)]);
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(attr_values(&r.body, "data-imported"), ["3"]);
        assert_eq!(attr_values(&r.body, "data-warnings"), ["1"]);
        // English until an import's warnings carry their lines as values
        assert!(
            r.body.contains("lines 2 and 4 have the same name"),
            "{}",
            r.body
        );
        let list = web.get(&format!("/t/{tid}")).body;
        assert_eq!(list.to_lowercase().matches("molefe</a>").count(), 2);
        // A name already entered: imported, with a warning.
        let r = web.post(&url, &[("csv", "name\nRefilwe Dube\nTumelo Sithole\n")]);
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(attr_values(&r.body, "data-warnings"), ["1"], "{}", r.body);
        // English until an import's warnings carry their player as a value
        assert!(r
            .body
            .contains("Refilwe Dube is already a player of this tournament"));
    }
}

#[test]
fn forms_show_the_tiebreaks_and_byes_that_apply() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut web = app.client_as(&admin);
        let form = web.get("/t/new").body;
        let tb1 = &form[form.find("id=\"tb1\"").unwrap()..];
        let tb1 = &tb1[..tb1.find("</select>").unwrap()];
        assert!(tb1.contains("value=\"direct_encounter\" selected"), "{tb1}");
        // The empty choice is there, and not the one chosen.
        assert!(tb1.contains("<option value=\"\">"), "{tb1}");
        assert!(!tb1.contains("<option value=\"\" selected"), "{tb1}");

        // A round robin's bye is worth nothing unless chosen otherwise.
        let mut api = app.script_for(&admin);
        let r = web.post(
            "/t",
            &[
                ("name", "Tlokwe Round Robin"),
                ("system", "round_robin"),
                ("rule_set", "official"),
                ("rounds", "3"),
                ("bye_value", ""),
                ("tb1", "buchholz"),
            ],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let tid: i64 = r
            .location
            .unwrap()
            .trim_start_matches("/t/")
            .parse()
            .unwrap();
        for n in &NAMES[..3] {
            api.send_json(
                "POST",
                &format!("/api/v1/tournaments/{tid}/players"),
                json!({"name": n}),
            );
        }
        let r1 = pair(&mut api, tid);
        play(&mut api, &r1, 1);
        let bye = r1.iter().find(|p| p["second_id"].is_null()).unwrap()["first_id"]
            .as_i64()
            .unwrap();
        let data =
            kraal::director::load(&mut app.conn(), kraal::ids::TournamentId(tid as i32)).unwrap();
        assert_eq!(
            data.tournament.bye_value,
            kraal::tournament::ByeValue::Nothing
        );
        let row = data
            .standings()
            .into_iter()
            .find(|s| s.id as i64 == bye)
            .unwrap();
        assert_eq!(row.score, 0, "the bye scores nothing: {row:?}");

        // A knock-out shows no Buchholz.
        let r = web.post(
            "/t",
            &[
                ("name", "Ngaka Modiri Molema Cup"),
                ("system", "knockout"),
                ("rule_set", "official"),
                ("rounds", "2"),
                ("tb1", "buchholz"),
            ],
        );
        let tid: i64 = r
            .location
            .unwrap()
            .trim_start_matches("/t/")
            .parse()
            .unwrap();
        for n in &NAMES[..4] {
            api.send_json(
                "POST",
                &format!("/api/v1/tournaments/{tid}/players"),
                json!({"name": n}),
            );
        }
        pair(&mut api, tid);
        let standings = app.client().get(&format!("/t/{tid}/standings")).body;
        assert!(
            attr_values(&standings, "data-tiebreak").is_empty(),
            "{standings}"
        );
        assert_eq!(
            attr_values(&web.get(&format!("/t/{tid}")).body, "data-tiebreaks"),
            [""]
        );
    }
}

#[test]
fn the_add_player_error_is_where_the_eye_is() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut api = app.script_for(&admin);
        let (tid, _) = event(&app, &mut api, "Taung Open", &NAMES[..2]);
        let mut web = app.client_as(&admin);
        let page = web.get(&format!("/t/{tid}")).body;
        assert!(page.contains(&format!("action=\"/t/{tid}/players#add-player\"")));
        let r = web.post(
            &format!("/t/{tid}/players"),
            &[("name", "Nandi Mthembu"), ("rating", "high")],
        );
        assert_eq!(r.status, 422);
        let at = r.body.find("id=\"add-player\"").unwrap();
        let alert = r
            .body
            .find("id=\"add-player-problems\"")
            .expect("a message by the form");
        assert!(alert > at && r.body[alert - 60..alert].contains("role=\"alert\""));
    }
}

/// A result sends every open page back for a fresh copy at once: the first
/// request builds the page and the others, arriving together, get that copy
/// instead of each building their own.
#[test]
fn a_crowd_reloading_after_a_result_costs_one_build_of_the_page() {
    for app in TestApp::all() {
        let admin = app.user("director", Role::Admin);
        let mut api = app.script_for(&admin);
        let (tid, _) = event(&app, &mut api, "Rustenburg Open", &NAMES);
        let pairings = pair(&mut api, tid);
        play(&mut api, &pairings, 3);
        let url = format!("/t/{tid}/standings");
        for round in 0..3 {
            // A change, then 40 phones at once.
            let games = pairings[3]["games"].as_array().unwrap();
            put(&mut api, &games[0], ["1-0", "0-1", "1-0"][round]);
            let hows: Vec<String> = std::thread::scope(|s| {
                let crowd: Vec<_> = (0..40)
                    .map(|_| {
                        s.spawn(|| {
                            let r = app.client().get(&url);
                            assert_eq!(r.status, 200);
                            r.headers.get("x-kraal-page").cloned().unwrap_or_default()
                        })
                    })
                    .collect();
                crowd.into_iter().map(|h| h.join().unwrap()).collect()
            });
            let built = hows.iter().filter(|h| *h == "built").count();
            assert_eq!(
                built, 1,
                "[{}] change {round}: {built} of 40 requests built the page ({hows:?})",
                app.backend
            );
            // Those that came while it was built may have had the copy
            // before the change; the next reader gets the new one.
            assert!(hows
                .iter()
                .all(|h| ["built", "cached", "stale"].contains(&h.as_str())));
            let after = app.client().get(&url);
            assert_eq!(after.headers["x-kraal-page"], "cached");
            let revision = kraal::db::tournaments::revision(
                &mut app.conn(),
                kraal::ids::TournamentId(tid as i32),
            )
            .unwrap();
            assert!(
                common::has_attr(&after.body, "data-revision", &revision.to_string()),
                "[{}] the page after the crowd is at revision {revision}",
                app.backend
            );
        }
    }
}

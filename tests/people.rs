//! The federation's registry through the API and the pages, on both
//! backends: people, entries taken from them, Glicko-2 ratings from the
//! games played at events (Glickman's own example, played on the board),
//! merges and their undo, and bad input refused by field.

#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, TestApp};
use kraal::db::users::Role;
use serde_json::{json, Value};

fn person(api: &mut Client, body: Value) -> i64 {
    api.create("/api/v1/people", body)["id"].as_i64().unwrap()
}

fn imported(name: &str, fid: &str, rating: f64, rd: f64) -> Value {
    json!({
        "name": name,
        "federation_id": fid,
        // Club-mates do not meet late in an event (OGR 11.3): one club each.
        "club": format!("{} Morabaraba Club", &name[..name.find(' ').unwrap()]),
        "rating": {"rating": rating, "rd": rd, "volatility": 0.06, "period": "2026-05"},
    })
}

/// Pairs the next round, played on `date`; its pairings.
fn pair_on(api: &mut Client, tid: i64, date: &str) -> Vec<Value> {
    let r = api.send_json(
        "POST",
        &format!("/api/v1/tournaments/{tid}/rounds"),
        json!({ "date": date }),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let round = r.json();
    assert_eq!(round["date"], date);
    round["pairings"].as_array().unwrap().clone()
}

/// Records that entry `winner` won game 1 of its pairing, or drew it
/// (`None` winner with `draw`), and that game 2 was not played by either
/// (a double forfeit, which is not rated).
fn play(api: &mut Client, pairing: &Value, winner: Option<i64>) {
    let games = pairing["games"].as_array().unwrap();
    let first_starts = games[0]["first_started"].as_bool().unwrap();
    let starter = if first_starts {
        &pairing["first_id"]
    } else {
        &pairing["second_id"]
    };
    let result = match winner {
        None => "1/2-1/2",
        Some(w) if Some(w) == starter.as_i64() => "1-0",
        Some(_) => "0-1",
    };
    common::put(api, &games[0], result);
    common::put(api, &games[1], "--");
}

fn rated(list: &Value, person: i64) -> &Value {
    list["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["person"] == person)
        .unwrap_or_else(|| panic!("person {person} not in {list}"))
}

#[track_caller]
fn close(v: &Value, expected: f64, tolerance: f64) {
    let got = v.as_f64().unwrap();
    assert!(
        (got - expected).abs() <= tolerance,
        "{got} is not {expected} ± {tolerance}"
    );
}

/// Glickman's example ("Example of the Glicko-2 system"), played at a
/// venue: a player rated 1500 (RD 200) beats a 1400 (RD 30) and loses to
/// a 1550 (RD 100) and a 1700 (RD 300) in one month of a round robin, and
/// comes out at 1464.05 / 151.52 / 0.05999; someone rated who plays no
/// game that month sees their RD go from 200 to 200.2714.
#[test]
fn the_papers_example_played_on_the_board_rates_as_published() {
    for app in TestApp::all() {
        let referee = app.user("nomvula", Role::Referee);
        let mut api = app.script_for(&referee);
        let player = person(&mut api, imported("Palesa Nkosi", "LSO-1", 1500.0, 200.0));
        let a = person(&mut api, imported("Ausi Mofokeng", "LSO-2", 1400.0, 30.0));
        let b = person(&mut api, imported("Bokang Sello", "LSO-3", 1550.0, 100.0));
        let c = person(&mut api, imported("Chaba Letsie", "LSO-4", 1700.0, 300.0));
        let idle = person(&mut api, imported("Dineo Moloi", "LSO-5", 1500.0, 200.0));
        let tid = api.create(
            "/api/v1/tournaments",
            json!({"name": "Maseru Round Robin", "system": "round_robin", "rules": "official"}),
        )["id"]
            .as_i64()
            .unwrap();
        let entry = |api: &mut Client, p: i64| {
            let e = api.create(
                &format!("/api/v1/tournaments/{tid}/players"),
                json!({ "person": p }),
            );
            assert_eq!(e["person"], p);
            e["id"].as_i64().unwrap()
        };
        let (ep, ea, eb, ec) = (
            entry(&mut api, player),
            entry(&mut api, a),
            entry(&mut api, b),
            entry(&mut api, c),
        );
        // Each pairing: the game the example wants, or a draw among the others.
        let winner_of = |x: i64, y: i64| -> Option<i64> {
            match (x.min(y), x.max(y)) {
                (p, q) if p == ep.min(ea) && q == ep.max(ea) => Some(ep),
                (p, q) if (p, q) == (ep.min(eb), ep.max(eb)) => Some(eb),
                (p, q) if (p, q) == (ep.min(ec), ep.max(ec)) => Some(ec),
                _ => None,
            }
        };
        for (n, date) in ["2026-06-06", "2026-06-13", "2026-06-20"]
            .iter()
            .enumerate()
        {
            let pairings = pair_on(&mut api, tid, date);
            assert_eq!(pairings.len(), 2, "round {}", n + 1);
            for p in &pairings {
                let (x, y) = (
                    p["first_id"].as_i64().unwrap(),
                    p["second_id"].as_i64().unwrap(),
                );
                play(&mut api, p, winner_of(x, y));
            }
        }
        let june = app.client().get("/api/v1/ratings?period=2026-06").json();
        assert_eq!(june["period"], "2026-06");
        let p = rated(&june, player);
        close(&p["rating"], 1464.0506705, 1e-6);
        close(&p["rd"], 151.5165241, 1e-6);
        close(&p["volatility"], 0.0599960, 1e-7);
        assert_eq!(p["games"], 3);
        assert_eq!(p["provisional"], true, "RD 151.5 is provisional");
        let d = rated(&june, idle);
        close(&d["rd"], 200.2714, 1e-4);
        close(&d["rating"], 1500.0, 1e-9);
        assert_eq!(d["games"], 0);
        // The list is best first.
        let order: Vec<f64> = june["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["rating"].as_f64().unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] >= w[1]), "{order:?}");
        // The 1400 lost to the player and drew twice with stronger ones.
        assert_eq!(rated(&june, a)["games"], 3);

        // The person's line: June with 3 games, then idle months whose RD
        // only grows, up to the current month.
        let line = app.client().get(&format!("/api/v1/people/{player}")).json();
        let months = line["ratings"].as_array().unwrap();
        assert_eq!(months[0]["period"], "2026-06");
        assert_eq!(months[0]["games"], 3);
        assert!(months.len() >= 2, "{line}");
        for w in months.windows(2) {
            assert_eq!(w[1]["games"], 0);
            assert!(w[1]["rd"].as_f64() > w[0]["rd"].as_f64());
            assert_eq!(w[1]["rating"], w[0]["rating"]);
        }
        close(&line["current"]["rating"], 1464.0506705, 1e-6);

        // A result corrected in June changes June and every month after,
        // at once: the player's win becomes a loss.
        let round = api
            .get(&format!("/api/v1/tournaments/{tid}/rounds/1"))
            .json();
        let r2 = api
            .get(&format!("/api/v1/tournaments/{tid}/rounds/2"))
            .json();
        let r3 = api
            .get(&format!("/api/v1/tournaments/{tid}/rounds/3"))
            .json();
        let theirs = [round, r2, r3]
            .into_iter()
            .flat_map(|r| r["pairings"].as_array().unwrap().clone())
            .find(|p| {
                let ids = [p["first_id"].as_i64(), p["second_id"].as_i64()];
                ids.contains(&Some(ep)) && ids.contains(&Some(ea))
            })
            .unwrap();
        let game = &theirs["games"][0];
        let flipped = if game["result"] == "1-0" {
            "0-1"
        } else {
            "1-0"
        };
        let r = api.send_json(
            "PUT",
            &format!("/api/v1/games/{}", game["id"]),
            json!({"result": flipped, "version": game["version"]}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let june = app.client().get("/api/v1/ratings?period=2026-06").json();
        assert!(rated(&june, player)["rating"].as_f64().unwrap() < 1400.0);
        let now = app.client().get(&format!("/api/v1/people/{player}")).json();
        assert!(now["current"]["rating"].as_f64().unwrap() < 1400.0, "{now}");
    }
}

#[test]
fn an_entry_takes_the_persons_fields_and_rating_and_refreshes_until_round_one() {
    for app in TestApp::all() {
        let referee = app.user("tumelo", Role::Referee);
        let mut api = app.script_for(&referee);
        let kagiso = person(
            &mut api,
            json!({"name": "Kagiso Tau", "federation_id": "BWA-77", "club": "Gaborone MC", "born": 1988,
                   "rating": {"rating": 1712.4, "rd": 60, "period": "2026-04"}}),
        );
        let tid = api.create(
            "/api/v1/tournaments",
            json!({"name": "Francistown Open", "rules": "official", "rounds": 3}),
        )["id"]
            .as_i64()
            .unwrap();
        let e = api.create(
            &format!("/api/v1/tournaments/{tid}/players"),
            json!({"person": kagiso, "seed": 2}),
        );
        assert_eq!(e["name"], "Kagiso Tau");
        assert_eq!(e["club"], "Gaborone MC");
        assert_eq!(e["federation_id"], "BWA-77");
        assert_eq!(e["seed"], 2);
        // The imported rating, grown only in RD by the idle months since.
        assert_eq!(e["rating"], 1712);

        // Twice in one event: refused, nothing added.
        let again = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/players"),
            json!({"person": kagiso}),
        );
        assert_eq!(again.status, 409, "{}", again.body);
        assert!(again.body.contains("Kagiso Tau"), "{}", again.body);
        // A name with a person: the name is the person's.
        let both = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/players"),
            json!({"person": kagiso, "name": "K. Tau"}),
        );
        assert_eq!(both.status, 422, "{}", both.body);
        assert_eq!(both.json()["field"], "name");
        let nobody = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/players"),
            json!({"person": 999_999}),
        );
        assert_eq!(nobody.status, 422, "{}", nobody.body);
        assert_eq!(nobody.json()["field"], "person");

        // Games elsewhere change the rating; the entry's snapshot follows
        // when the referee refreshes it, before round 1.
        let other = api.create(
            "/api/v1/tournaments",
            json!({"name": "Lobatse Rapid", "system": "round_robin", "rules": "official"}),
        )["id"]
            .as_i64()
            .unwrap();
        let opponent = person(
            &mut api,
            json!({"name": "Lorato Seretse", "federation_id": "BWA-78"}),
        );
        let k2 = api.create(
            &format!("/api/v1/tournaments/{other}/players"),
            json!({"person": kagiso}),
        )["id"]
            .as_i64()
            .unwrap();
        api.create(
            &format!("/api/v1/tournaments/{other}/players"),
            json!({"person": opponent}),
        );
        let today = chrono::Utc::now().date_naive().to_string();
        let pairings = pair_on(&mut api, other, &today);
        play(&mut api, &pairings[0], Some(k2));
        let current = app.client().get(&format!("/api/v1/people/{kagiso}")).json()["current"]
            ["rating"]
            .as_f64()
            .unwrap();
        assert!(current > 1712.4, "a win raised it: {current}");

        let mut desk = app.client_as(&referee);
        let pid = e["id"].as_i64().unwrap();
        let r = desk.post(&format!("/t/{tid}/players/{pid}/refresh"), &[]);
        assert_eq!(r.status, 303, "{}", r.body);
        let listed = desk.get(&format!("/t/{tid}/players.csv")).body;
        assert!(
            listed.contains(&(current.round() as i64).to_string()),
            "{listed}"
        );
        // After round 1 the snapshot stands.
        for i in 0..3 {
            api.create(
                &format!("/api/v1/tournaments/{tid}/players"),
                json!({"name": format!("Mpho Kgosi {i}"), "rating": 1500 + i}),
            );
        }
        common::pair(&mut api, tid);
        let late = desk.post(&format!("/t/{tid}/players/{pid}/refresh"), &[]);
        assert_eq!(late.status, 409, "{}", late.body);

        // The audit says who linked whom.
        let audit = desk.get(&format!("/t/{tid}/audit")).body;
        assert!(audit.contains("Kagiso Tau"), "{audit}");
    }
}

#[test]
fn bad_input_names_the_field_and_stores_nothing() {
    for app in TestApp::all() {
        let referee = app.user("lerato", Role::Referee);
        let mut api = app.script_for(&referee);
        let first = person(
            &mut api,
            json!({"name": "Refiloe Mokoena", "federation_id": "RSA-9"}),
        );
        let count = |api: &mut Client| {
            api.get("/api/v1/people").json()["people"]
                .as_array()
                .unwrap()
                .len()
        };
        assert_eq!(count(&mut api), 1);
        let refused = |api: &mut Client, body: Value, status: u16, field: Option<&str>| {
            let r = api.send_json("POST", "/api/v1/people", body.clone());
            assert_eq!(r.status, status, "{body}: {}", r.body);
            if let Some(field) = field {
                assert_eq!(r.json()["field"], field, "{}", r.body);
            }
            r.json()
        };
        let taken = refused(
            &mut api,
            json!({"name": "Refiloe M.", "federation_id": "RSA-9"}),
            409,
            None,
        );
        assert_eq!(taken["code"], "federation_id_taken", "{taken}");
        assert_eq!(taken["params"]["id"], "RSA-9", "{taken}");
        refused(
            &mut api,
            json!({"name": "X", "rating": {"rating": 4100, "rd": 50, "period": "2026-01"}}),
            422,
            Some("rating"),
        );
        refused(
            &mut api,
            json!({"name": "X", "rating": {"rating": 1600, "rd": 351, "period": "2026-01"}}),
            422,
            Some("rd"),
        );
        let month = refused(
            &mut api,
            json!({"name": "X", "rating": {"rating": 1600, "rd": 50, "period": "2026-13"}}),
            422,
            Some("period"),
        );
        assert_eq!(month["code"], "not_a_month", "{month}");
        assert_eq!(month["params"]["text"], "2026-13", "{month}");
        refused(
            &mut api,
            json!({"name": "X", "born": 1850}),
            422,
            Some("born"),
        );
        refused(&mut api, json!({"name": "  "}), 422, Some("name"));
        let r = api.send_json("POST", "/api/v1/people", json!({"name": "X", "elo": 1}));
        assert_eq!(r.status, 400, "{}", r.body);
        assert_eq!(count(&mut api), 1, "nothing stored");

        // Merges: into oneself, into someone merged away.
        let second = person(
            &mut api,
            json!({"name": "Refiloe Mokoena", "federation_id": "RSA-10"}),
        );
        let third = person(&mut api, json!({"name": "Thato Mokoena"}));
        let merge = |api: &mut Client, who: i64, into: i64| {
            api.send_json(
                "POST",
                &format!("/api/v1/people/{who}/merge"),
                json!({ "into": into }),
            )
        };
        let own = merge(&mut api, first, first);
        assert_eq!(own.status, 422, "{}", own.body);
        assert_eq!(own.json()["field"], "into");
        assert_eq!(merge(&mut api, second, first).status, 201);
        let away = merge(&mut api, third, second);
        assert_eq!(away.status, 422, "{}", away.body);
        assert_eq!(away.json()["field"], "into");
        assert_eq!(away.json()["code"], "merged_away", "{}", away.body);
        assert_eq!(away.json()["params"]["into"], first, "{}", away.body);
        assert_eq!(merge(&mut api, 99_999, first).status, 404);

        // Periods.
        let guest = app.client();
        let mut guest = guest;
        for (q, status) in [("2026-13", 422), ("June", 422), ("2999-01", 422)] {
            let r = guest.get(&format!("/api/v1/ratings?period={q}"));
            assert_eq!(r.status, status, "{q}: {}", r.body);
            assert_eq!(r.json()["field"], "period");
        }
        // A round's day.
        let tid = api.create(
            "/api/v1/tournaments",
            json!({"name": "Durban Open", "rules": "official", "rounds": 3}),
        )["id"]
            .as_i64()
            .unwrap();
        for i in 0..4 {
            api.create(
                &format!("/api/v1/tournaments/{tid}/players"),
                json!({"name": format!("Sizwe Ngcobo {i}")}),
            );
        }
        let bad = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/rounds"),
            json!({"date": "2026-02-30"}),
        );
        assert_eq!(bad.status, 422, "{}", bad.body);
        assert_eq!(bad.json()["field"], "date");
        assert_eq!(
            api.get(&format!("/api/v1/tournaments/{tid}/rounds/1"))
                .status,
            404,
            "no round stored"
        );
        pair_on(&mut api, tid, "2026-03-07");
        let moved = api.send_json(
            "PATCH",
            &format!("/api/v1/tournaments/{tid}/rounds/1"),
            json!({"date": "2026-03-08"}),
        );
        assert_eq!(moved.status, 200, "{}", moved.body);
        assert_eq!(moved.json()["date"], "2026-03-08");
    }
}

/// Two people found to be one: after the merge the survivor has both
/// entries, every game and one rating; the undo gives back exactly the
/// list from before.
#[test]
fn a_merge_moves_entries_games_and_rating_and_its_undo_restores_them_exactly() {
    for app in TestApp::all() {
        let referee = app.user("bongani", Role::Referee);
        let mut api = app.script_for(&referee);
        let names = [
            "Sibusiso Zulu",
            "Ayanda Khoza",
            "Musa Ntuli",
            "Jabu Mthethwa",
        ];
        let mut ids: Vec<i64> = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                person(
                    &mut api,
                    json!({"name": n, "federation_id": format!("KZN-{i}")}),
                )
            })
            .collect();
        // The same Sibusiso, typed again without his federation id.
        let duplicate = person(&mut api, json!({"name": "Sibusiso Zulu", "club": "Umlazi"}));
        ids.push(duplicate);
        // Every game 1 drawn, every game 2 a double forfeit.
        let event = |api: &mut Client, name: &str, who: &[i64], date: &str| {
            common::people_round_robin(api, name, who, date, |_, _| None);
        };
        event(
            &mut api,
            "Durban Winter",
            &[ids[0], ids[1], ids[2], ids[3]],
            "2026-07-11",
        );
        event(
            &mut api,
            "Pietermaritzburg Spring",
            &[duplicate, ids[1], ids[2], ids[3]],
            "2026-09-05",
        );
        let before = app.client().get("/api/v1/ratings").json();
        assert!(before["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["person"] == duplicate));
        let person_before = app
            .client()
            .get(&format!("/api/v1/people/{}", ids[0]))
            .json();

        let m = api.create(
            &format!("/api/v1/people/{duplicate}/merge"),
            json!({"into": ids[0]}),
        );
        assert_eq!(m["person"], duplicate);
        assert_eq!(m["into"], ids[0]);
        assert_eq!(m["entries"].as_array().unwrap().len(), 1);
        let merged = app.client().get("/api/v1/ratings").json();
        let listed: Vec<i64> = merged["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["person"].as_i64().unwrap())
            .collect();
        assert!(!listed.contains(&duplicate), "{listed:?}");
        let survivor = app
            .client()
            .get(&format!("/api/v1/people/{}", ids[0]))
            .json();
        let games: i64 = survivor["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["games"].as_i64().unwrap())
            .sum();
        assert_eq!(games, 6, "three games at each event: {survivor}");
        let page = app.client().get(&format!("/people/{}", ids[0])).body;
        assert!(page.contains("Pietermaritzburg Spring") && page.contains("Durban Winter"));
        let gone = app
            .client()
            .get(&format!("/api/v1/people/{duplicate}"))
            .json();
        assert_eq!(gone["merged_into"], ids[0]);

        // The undo: everything as it was, to the last digit.
        let r = api.send_json("DELETE", &format!("/api/v1/merges/{}", m["id"]), json!({}));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["undone"], true);
        assert_eq!(app.client().get("/api/v1/ratings").json(), before);
        assert_eq!(
            app.client()
                .get(&format!("/api/v1/people/{}", ids[0]))
                .json(),
            person_before
        );
        let twice = api.send_json("DELETE", &format!("/api/v1/merges/{}", m["id"]), json!({}));
        assert_eq!(twice.status, 422, "{}", twice.body);
        // Both entered in one event: they cannot be one person.
        let both = api.send_json(
            "POST",
            &format!("/api/v1/people/{}/merge", ids[1]),
            json!({"into": ids[2]}),
        );
        assert_eq!(both.status, 422, "{}", both.body);
        assert!(both.body.contains("Durban Winter") || both.body.contains("Pietermaritzburg"));

        // The audit keeps both, for the federation's record.
        let anonymous = app
            .client()
            .send_json("POST", "/api/v1/people", json!({"name": "Zodwa"}));
        assert_eq!(anonymous.status, 401);
    }
}

/// The pages: search by part of a name in any case (PostgreSQL's LIKE is
/// case-sensitive; the registry's is not), a person's page with the rating
/// line, the rating list, and the add form's errors by field.
#[test]
fn the_registry_pages_search_show_and_refuse_by_field() {
    for app in TestApp::all() {
        let referee = app.user("zanele", Role::Referee);
        let mut api = app.script_for(&referee);
        let a = person(
            &mut api,
            imported("Nthabiseng Mahlangu", "GP-100", 1620.0, 80.0),
        );
        let b = person(&mut api, imported("Lwazi Mahlangu", "GP-101", 1580.0, 90.0));
        let tid = api.create(
            "/api/v1/tournaments",
            json!({"name": "Soweto Derby", "system": "round_robin", "rules": "official"}),
        )["id"]
            .as_i64()
            .unwrap();
        let ea = api.create(
            &format!("/api/v1/tournaments/{tid}/players"),
            json!({"person": a}),
        )["id"]
            .as_i64()
            .unwrap();
        api.create(
            &format!("/api/v1/tournaments/{tid}/players"),
            json!({"person": b}),
        );
        let pairings = pair_on(&mut api, tid, "2026-08-15");
        play(&mut api, &pairings[0], Some(ea));

        let mut guest = app.client();
        let found = guest.get("/people?q=mahLANGU").body;
        assert!(
            found.contains("Nthabiseng Mahlangu") && found.contains("Lwazi Mahlangu"),
            "{found}"
        );
        let by_id = guest.get("/api/v1/people?q=GP-101").json();
        assert_eq!(by_id["people"][0]["id"], b);
        // Guests do not add; the referee's same page has the form.
        let add_form = |page: &str| common::has_attr(page, "action", "/people#add-person");
        assert!(
            add_form(&app.client_as(&referee).get("/people").body),
            "a referee adds"
        );
        assert!(!add_form(&guest.get("/people").body), "guests do not add");

        let page = guest.get(&format!("/people/{a}")).body;
        assert!(page.contains("<polyline"), "the rating line is drawn");
        assert!(page.contains("Soweto Derby, round 1"), "{page}");
        assert!(page.contains("Lwazi Mahlangu"));
        let list = guest.get("/ratings?period=2026-08").body;
        let first = list.find("Nthabiseng Mahlangu").unwrap();
        let second = list.find("Lwazi Mahlangu").unwrap();
        assert!(first < second, "the winner first");
        let future = guest.get("/ratings?period=2999-01");
        assert_eq!(future.status, 422);

        let mut desk = app.client_as(&referee);
        let bad = desk.post(
            "/people",
            &[
                ("name", "Sipho Mahlangu"),
                ("rating", "1600"),
                ("period", "2026/07"),
            ],
        );
        assert_eq!(bad.status, 422, "{}", bad.body);
        assert!(
            common::field_error(&bad.body, "rd").is_some(),
            "{}",
            bad.body
        );
        assert!(common::field_error(&bad.body, "period")
            .unwrap()
            .contains("2026/07"));
        let taken = desk.post(
            "/people",
            &[("name", "L. Mahlangu"), ("federation_id", "GP-101")],
        );
        assert_eq!(taken.status, 422, "{}", taken.body);
        assert!(common::field_error(&taken.body, "federation_id").is_some());
        let ok = desk.post("/people", &[("name", "Sipho Mahlangu"), ("born", "2001")]);
        assert_eq!(ok.status, 303, "{}", ok.body);
        let added = desk.get(ok.location.as_deref().unwrap()).body;
        assert!(added.contains("Sipho Mahlangu") && added.contains("2001"));

        // A round's day from its page.
        let r = desk.post(
            &format!("/t/{tid}/rounds/1/date"),
            &[("date", "2026-08-16")],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        assert!(desk
            .get(&format!("/t/{tid}/rounds/1"))
            .body
            .contains("2026-08-16"));
        let wrong = desk.post(
            &format!("/t/{tid}/rounds/1/date"),
            &[("date", "16/08/2026")],
        );
        assert_eq!(wrong.status, 422, "{}", wrong.body);
    }
}

/// The rating list leaves as CSV and seeds another server's registry with
/// its ratings; a bad registry file is refused whole, by line and column;
/// a tournament's player import links people by federation id and names
/// the players it could not match.
#[test]
fn the_rating_list_travels_as_csv_and_imports_link_by_federation_id() {
    for app in TestApp::all() {
        let referee = app.user("themba", Role::Referee);
        let mut api = app.script_for(&referee);
        let a = person(&mut api, imported("Nandi Cele", "NC-1", 1650.0, 70.0));
        person(&mut api, imported("Vusi Cele", "NC-2", 1490.0, 120.0));
        person(&mut api, json!({"name": "Zama Cele", "club": "Newcastle"}));
        let out = app.client().get("/people.csv");
        assert_eq!(out.status, 200);
        assert!(
            out.content_type.starts_with("text/csv"),
            "{}",
            out.content_type
        );
        let mut lines = out.body.lines();
        assert_eq!(
            lines.next().unwrap(),
            "id,name,federation_id,club,born,rating,rd,volatility,period,games,provisional,games_total"
        );
        let first = lines.next().unwrap();
        assert!(
            first.starts_with(&format!("{a},Nandi Cele,NC-1,")),
            "best first: {first}"
        );
        assert!(first.ends_with(",0,no,0"), "{first}");
        assert!(
            out.body.contains(",Zama Cele,,Newcastle,,,,,,,"),
            "{}",
            out.body
        );

        // Another server takes the list as it is (`games_total` ignored
        // as `games` is).
        let other = TestApp::start(app.backend);
        let chief = other.user("sbu", Role::Admin);
        let mut desk = other.client_as(&chief);
        let r = desk.post("/people/import", &[("csv", &out.body)]);
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(
            common::has_attr(&r.body, "id", "import-outcome"),
            "{}",
            r.body
        );
        let registry = |c: &mut Client| {
            c.get("/api/v1/people").json()["people"]
                .as_array()
                .unwrap()
                .len()
        };
        assert_eq!(registry(&mut other.client()), 3, "{}", r.body);
        let found = other.client().get("/api/v1/people?q=NC-1").json();
        let nandi = &found["people"][0];
        assert_eq!(nandi["name"], "Nandi Cele");
        let exported_rating: f64 = first.split(',').nth(5).unwrap().parse().unwrap();
        assert_eq!(nandi["rating"]["rating"], exported_rating);
        // Again: known federation ids are left alone and named.
        let again = desk.post("/people/import", &[("csv", &out.body)]);
        assert!(
            common::has_attr(&again.body, "id", "import-outcome"),
            "{}",
            again.body
        );
        assert_eq!(
            registry(&mut other.client()),
            4,
            "Zama has no id: {}",
            again.body
        );
        assert!(again.body.contains("Nandi Cele (NC-1)"), "{}", again.body);

        // A bad file: every problem by line and column, nothing stored.
        let before = other.client().get("/api/v1/people").json()["people"]
            .as_array()
            .unwrap()
            .len();
        let bad = "name,federation_id,rating,rd,period\n\
                   Sipho Cele,NC-9,1500,80,2026-04\n\
                   ,NC-10,,,\n\
                   Ayanda Cele,NC-9,5000,80,2026-04\n";
        let r = desk.post("/people/import", &[("csv", bad)]);
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(
            common::problem_places(&r.body),
            [("3", "name"), ("4", "federation_id"), ("4", "rating")]
                .map(|(l, c)| (l.to_string(), c.to_string())),
            "{}",
            r.body
        );
        assert_eq!(
            other.client().get("/api/v1/people").json()["people"]
                .as_array()
                .unwrap()
                .len(),
            before
        );

        // A tournament's player import links by federation id.
        let tid = api.create(
            "/api/v1/tournaments",
            json!({"name": "Richards Bay Open", "rules": "official", "rounds": 3}),
        )["id"]
            .as_i64()
            .unwrap();
        let mut web = app.client_as(&referee);
        let players = "name,club,rating,federation_id\n\
                       Nandi Cele,Nandi Morabaraba Club,1650,NC-1\n\
                       Sipho Ndlovu,Empangeni,1500,NC-404\n\
                       Lindo Mkhize,Eshowe,,\n";
        let r = web.post(&format!("/t/{tid}/import"), &[("csv", players)]);
        assert_eq!(r.status, 200, "{}", r.body);
        // Two to look at again: an id nobody has, and a player without one.
        assert_eq!(
            common::attr_values(&r.body, "data-warnings"),
            ["2"],
            "{}",
            r.body
        );
        assert!(r.body.contains("Sipho Ndlovu (NC-404)"), "{}", r.body);
        assert!(r.body.contains("Lindo Mkhize"), "{}", r.body);
        let page = app.client().get(&format!("/people/{a}")).body;
        assert!(
            page.contains("Richards Bay Open"),
            "the entry is Nandi's: {page}"
        );
    }
}

/// The registry as people use it: "People" in the site menu, each
/// person's number in the list and on their page (the merge form asks for
/// it), the rating chart with its axes named and its band explained, the
/// rating list's games of the month and in all, and a merge that asks
/// first, naming both people and their events.
#[test]
fn the_registry_pages_show_numbers_axes_games_in_all_and_ask_before_a_merge() {
    for app in TestApp::all() {
        let referee = app.user("lindiwe", Role::Referee);
        let mut api = app.script_for(&referee);
        let names = [
            ("Katlego Seabi", "LP-1"),
            ("Mmathapelo Seabi", "LP-2"),
            ("Tumelo Ramaphosa", "LP-3"),
            ("Dineo Ledwaba", "LP-4"),
        ];
        let people: Vec<i64> = names
            .iter()
            .map(|(n, f)| person(&mut api, json!({"name": n, "federation_id": f})))
            .collect();
        // Two events in two months: three rated games each month (game 2
        // of every pairing is a double forfeit, not rated).
        let polokwane = common::people_round_robin(
            &mut api,
            "Polokwane Open",
            &people,
            "2026-03-14",
            |i, j| Some(i < j),
        );
        common::people_round_robin(&mut api, "Tzaneen Rapid", &people, "2026-05-09", |i, j| {
            Some(i > j)
        });
        // A duplicate of Katlego, entered once under another spelling.
        let twin = person(&mut api, json!({"name": "K. Seabi", "club": "Polokwane"}));
        let mokopane = api.create(
            "/api/v1/tournaments",
            json!({"name": "Mokopane Weekender", "rules": "official", "rounds": 5}),
        )["id"]
            .as_i64()
            .unwrap();
        api.create(
            &format!("/api/v1/tournaments/{mokopane}/players"),
            json!({"person": twin}),
        );

        let mut guest = app.client();
        // The site menu leads to the people.
        let home = guest.get("/").body;
        let nav = &home[home.find("<nav aria-label=\"Site\"").unwrap()..];
        let nav = &nav[..nav.find("</nav>").unwrap()];
        assert!(common::has_attr(nav, "href", "/people"), "{nav}");

        // Numbers in the list and on the page.
        let list = guest.get("/people?q=seabi").body;
        for id in [people[0], people[1], twin] {
            assert!(common::has_attr(&list, "data-person", &id.to_string()));
            assert!(list.contains(&format!("#{id}<")), "{list}");
        }
        let number = guest.get(&format!("/people/{twin}")).body;
        assert_eq!(
            common::text_of(&number, "id", "person-number").as_deref(),
            Some(format!("#{twin}").as_str())
        );
        // ... and the search takes them.
        let by_number = guest.get(&format!("/people?q=%23{twin}")).body;
        assert!(common::has_attr(
            &by_number,
            "data-person",
            &twin.to_string()
        ));
        assert!(!common::has_attr(
            &by_number,
            "data-person",
            &people[0].to_string()
        ));

        // The chart names its axes, marks ratings and months, and says
        // what the band is.
        let page = guest.get(&format!("/people/{}", people[0])).body;
        assert!(common::has_attr(&page, "data-axis", "rating"));
        assert!(common::has_attr(&page, "data-axis", "months"));
        assert!(page.contains(">Rating</text>") && page.contains(">Month</text>"));
        let months = common::attr_values(&page, "data-month");
        assert_eq!(
            months.first().map(String::as_str),
            Some("2026-03"),
            "{months:?}"
        );
        assert!(months.len() >= 2, "{months:?}");
        let ratings: Vec<i64> = common::attr_values(&page, "data-rating")
            .iter()
            .map(|v| v.parse().unwrap())
            .collect();
        assert!(
            ratings.len() >= 2 && ratings.windows(2).all(|w| w[0] < w[1]),
            "{ratings:?}"
        );
        let legend = common::text_of(&page, "id", "chart-legend").unwrap();
        assert!(legend.contains("RD"), "{legend}");

        // Games of the month and in all, on the list, in the API and in
        // the CSV.
        let may = guest.get("/ratings?period=2026-05").body;
        assert_eq!(common::attr_values(&may, "data-games"), vec!["3"; 4]);
        assert_eq!(common::attr_values(&may, "data-games-total"), vec!["6"; 4]);
        let march = guest.get("/ratings?period=2026-03").body;
        assert_eq!(
            common::attr_values(&march, "data-games-total"),
            vec!["3"; 4]
        );
        let api_list = guest.get("/api/v1/ratings?period=2026-05").json();
        for row in api_list["ratings"].as_array().unwrap() {
            assert_eq!(
                (row["games"].as_i64(), row["games_total"].as_i64()),
                (Some(3), Some(6))
            );
        }

        // A merge asks first: both people with number, federation id and
        // events; nothing is merged until the question is answered.
        let mut desk = app.client_as(&referee);
        let ask = desk.post(&format!("/people/{twin}/merge"), &[("into", "LP-1")]);
        assert_eq!(ask.status, 200, "{}", ask.body);
        let from = common::tag_with(&ask.body, "data-merge", "from");
        let into = common::tag_with(&ask.body, "data-merge", "into");
        assert!(common::has_attr(from[0], "data-person", &twin.to_string()));
        assert!(common::has_attr(
            into[0],
            "data-person",
            &people[0].to_string()
        ));
        let section = |role: &str| {
            let start = ask.body.find(&format!("data-merge=\"{role}\"")).unwrap();
            let end = start + ask.body[start..].find("</section>").unwrap();
            ask.body[start..end].to_string()
        };
        let (away, stays) = (section("from"), section("into"));
        assert!(away.contains("K. Seabi") && away.contains(&format!("#{twin}")));
        assert_eq!(
            common::attr_values(&away, "data-tournament"),
            vec![mokopane.to_string()]
        );
        assert!(stays.contains("Katlego Seabi") && stays.contains("LP-1"));
        assert!(stays.contains(&format!("#{}", people[0])));
        let events = common::attr_values(&stays, "data-tournament");
        assert_eq!(events.len(), 2);
        assert!(events.contains(&polokwane.to_string()));
        assert_eq!(
            guest.get(&format!("/api/v1/people/{twin}")).json()["merged_into"],
            Value::Null,
            "asking merges nothing"
        );
        // Answered: the form names the person by number and says yes.
        let fields = common::form_fields(&ask.body, "id=\"confirm-merge\"");
        let pairs: Vec<(&str, &str)> = fields
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert!(pairs.contains(&("into", people[0].to_string().as_str())));
        let done = desk.post(&format!("/people/{twin}/merge"), &pairs);
        assert_eq!(done.status, 303, "{}", done.body);
        assert_eq!(done.location, Some(format!("/people/{}", people[0])));
        assert_eq!(
            guest.get(&format!("/api/v1/people/{twin}")).json()["merged_into"],
            people[0]
        );
        // Two people entered in one event cannot be one: refused before
        // the question, naming the event.
        let both = desk.post(
            &format!("/people/{}/merge", people[1]),
            &[("into", &people[2].to_string())],
        );
        assert_eq!(both.status, 422, "{}", both.body);
        assert!(both.body.contains("Polokwane Open"), "{}", both.body);
        assert!(!common::has_attr(&both.body, "data-merge", "from"));
        // A merge into nobody known is refused on the person's page.
        let nobody = desk.post(
            &format!("/people/{}/merge", people[1]),
            &[("into", "LP-99")],
        );
        assert_eq!(nobody.status, 422, "{}", nobody.body);
    }
}

fn bodies(answers: &[common::Reply]) -> Vec<(u16, &str)> {
    answers
        .iter()
        .map(|r| (r.status, r.body.as_str()))
        .collect()
}

/// Two merges of the same people sent at the same moment, 25 times on each
/// backend: A into B against B into A, and D into E against D into F.
/// Exactly one of each pair is made; the other is refused on the person it
/// would merge, naming the merge made first, so that no cycle forms, no
/// person is merged twice and the survivor stays findable.
#[test]
fn merges_of_the_same_people_at_once_take_turns() {
    for app in TestApp::all() {
        let registrar = app.user("lindiwe", Role::Referee);
        let mut api = app.script_for(&registrar);
        // One merge each from two clients released together.
        let race = |app: &TestApp, merges: [(i64, i64); 2]| -> Vec<common::Reply> {
            let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
            let sends: Vec<_> = merges
                .into_iter()
                .map(|(who, into)| {
                    let mut client = app.script_for(&registrar);
                    let barrier = barrier.clone();
                    std::thread::spawn(move || {
                        barrier.wait();
                        client.send_json(
                            "POST",
                            &format!("/api/v1/people/{who}/merge"),
                            json!({ "into": into }),
                        )
                    })
                })
                .collect();
            sends.into_iter().map(|s| s.join().unwrap()).collect()
        };
        let backend = app.backend;
        for trial in 0..25 {
            // The same player entered twice by two desks of one club.
            let a = person(
                &mut api,
                json!({"name": "Vusi Mabuza", "club": "Nelspruit MSC"}),
            );
            let b = person(
                &mut api,
                json!({"name": "Vusi Mabuza", "club": "Nelspruit"}),
            );
            let answers = race(&app, [(a, b), (b, a)]);
            let made: Vec<&common::Reply> = answers.iter().filter(|r| r.status == 201).collect();
            assert_eq!(
                made.len(),
                1,
                "trial {trial} ({backend}): {:?}",
                bodies(&answers)
            );
            let first = made[0].json();
            let (gone, stays) = (
                first["person"].as_i64().unwrap(),
                first["into"].as_i64().unwrap(),
            );
            let refused = answers.iter().find(|r| r.status != 201).unwrap();
            assert_eq!(
                refused.status, 422,
                "trial {trial} ({backend}): {}",
                refused.body
            );
            // B into A after A into B: A, the target, is merged into B.
            let said = refused.json();
            assert_eq!(said["field"], "into", "{said}");
            assert_eq!(said["code"], "merged_away", "{said}");
            assert_eq!(said["params"]["person"], gone, "{said}");
            assert_eq!(said["params"]["into"], stays, "{said}");
            let found = api.get("/api/v1/people?q=Mabuza").json();
            let ids: Vec<i64> = found["people"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["id"].as_i64().unwrap())
                .filter(|id| [a, b].contains(id))
                .collect();
            assert_eq!(
                ids,
                vec![stays],
                "trial {trial} ({backend}): the survivor is found"
            );

            let d = person(&mut api, json!({"name": "Lwazi Ngcobo"}));
            let e = person(
                &mut api,
                json!({"name": "Lwazi Ngcobo", "club": "Mthatha MC"}),
            );
            let f = person(
                &mut api,
                json!({"name": "Lwazi Ngcobo", "club": "Butterworth MC"}),
            );
            let answers = race(&app, [(d, e), (d, f)]);
            let made: Vec<&common::Reply> = answers.iter().filter(|r| r.status == 201).collect();
            assert_eq!(
                made.len(),
                1,
                "trial {trial} ({backend}): {:?}",
                bodies(&answers)
            );
            let into = made[0].json()["into"].as_i64().unwrap();
            let refused = answers.iter().find(|r| r.status != 201).unwrap();
            assert_eq!(
                refused.status, 422,
                "trial {trial} ({backend}): {}",
                refused.body
            );
            let said = refused.json();
            assert_eq!(said["field"], "person", "{said}");
            assert_eq!(said["code"], "merged_away", "{said}");
            assert_eq!(said["params"]["person"], d, "{said}");
            assert_eq!(said["params"]["into"], into, "{said}");
            let d_now = api.get(&format!("/api/v1/people/{d}")).json();
            assert_eq!(d_now["merged_into"], into, "{d_now}");
            let merges =
                kraal::db::people::merges_of(&mut app.conn(), kraal::ids::PersonId(d as i32))
                    .unwrap();
            assert_eq!(merges.len(), 1, "trial {trial} ({backend}): {merges:?}");
        }
    }
}

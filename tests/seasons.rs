//! A season over three events, on both backends: places from each event's
//! standings (shared places sharing their points), weights, the best N
//! results counting, ties ranked by countback and then shared; checked
//! against the events' own standings read back from the API, and bad
//! seasons refused by field with nothing stored.

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::HashMap;

use common::TestApp;
use kraal::db::users::Role;
use serde_json::{json, Value};

const POINTS: [f64; 10] = [25.0, 18.0, 15.0, 12.0, 10.0, 8.0, 6.0, 4.0, 2.0, 1.0];

/// The season's table as the rules say, from the events' standings as
/// the API gives them: (person → (points counted, places)).
fn expected(
    app: &TestApp,
    events: &[(i64, f64)],
    entry_person: &HashMap<i64, i64>,
    best: usize,
) -> HashMap<i64, (f64, Vec<u32>)> {
    let mut results: HashMap<i64, Vec<(f64, u32)>> = HashMap::new();
    for &(tid, weight) in events {
        let st = app
            .client()
            .get(&format!("/api/v1/tournaments/{tid}/standings"))
            .json();
        let rows = st["standings"].as_array().unwrap();
        for row in rows {
            let rank = row["rank"].as_u64().unwrap() as usize;
            let shared = rows.iter().filter(|r| r["rank"] == row["rank"]).count();
            let pts: f64 = (rank..rank + shared)
                .map(|p| POINTS.get(p - 1).copied().unwrap_or(0.0))
                .sum::<f64>()
                / shared as f64;
            let person = entry_person[&row["player"].as_i64().unwrap()];
            results
                .entry(person)
                .or_default()
                .push((pts * weight, rank as u32));
        }
    }
    results
        .into_iter()
        .map(|(p, mut r)| {
            let places = r.iter().map(|x| x.1).collect();
            r.sort_by(|a, b| b.0.total_cmp(&a.0));
            (p, (r.iter().take(best).map(|x| x.0).sum(), places))
        })
        .collect()
}

#[test]
fn a_season_scores_places_shares_ties_counts_the_best_and_ranks_by_countback() {
    for app in TestApp::all() {
        let referee = app.user("palesa", Role::Referee);
        let mut api = app.script_for(&referee);
        let names = [
            ("Mpho Radebe", "FS-1", "Bloemfontein"),
            ("Lerato Mokoena", "FS-2", "Welkom"),
            ("Tshepo Sithole", "FS-3", "Bethlehem"),
            ("Karabo Nhlapo", "FS-4", "Kroonstad"),
        ];
        let people: Vec<i64> = names
            .iter()
            .map(|(n, f, c)| {
                api.create(
                    "/api/v1/people",
                    json!({"name": n, "federation_id": f, "club": c}),
                )["id"]
                    .as_i64()
                    .unwrap()
            })
            .collect();
        // First event: the entry order is the finishing order.
        let e1 = common::people_round_robin(
            &mut api,
            "Bloemfontein Open",
            &people,
            "2026-03-07",
            |i, j| Some(i < j),
        );
        // Second: every game drawn, so all four share places 1 to 4.
        let e2 = common::people_round_robin(
            &mut api,
            "Free State Closed",
            &people,
            "2026-05-02",
            |_, _| None,
        );
        // Third: the reverse order.
        let e3 =
            common::people_round_robin(&mut api, "Welkom Rapid", &people, "2026-08-22", |i, j| {
                Some(i > j)
            });
        let events = [(e1, 1.0), (e2, 2.0), (e3, 1.0)];
        let season = api.create(
            "/api/v1/seasons",
            json!({
                "name": "Free State Grand Prix 2026",
                "best": 2,
                "events": [
                    {"tournament": e1},
                    {"tournament": e2, "weight": 2.0},
                    {"tournament": e3, "weight": 1.0},
                ],
            }),
        );
        assert_eq!(season["points"], json!(POINTS));
        let sid = season["id"].as_i64().unwrap();

        let mut entry_person = HashMap::new();
        for &(tid, _) in &events {
            let t = app
                .client()
                .get(&format!("/api/v1/tournaments/{tid}/standings"))
                .json();
            for row in t["standings"].as_array().unwrap() {
                let name = row["name"].as_str().unwrap();
                let i = names.iter().position(|n| n.0 == name).unwrap();
                entry_person.insert(row["player"].as_i64().unwrap(), people[i]);
            }
        }
        let want = expected(&app, &events, &entry_person, 2);
        let table = app
            .client()
            .get(&format!("/api/v1/seasons/{sid}/standings"))
            .json();
        let lines = table["standings"].as_array().unwrap();
        assert_eq!(lines.len(), 4);
        for l in lines {
            let p = l["person"].as_i64().unwrap();
            let (points, _) = &want[&p];
            assert!((l["points"].as_f64().unwrap() - points).abs() < 1e-9, "{l}");
            let results = l["results"].as_array().unwrap();
            assert_eq!(results.len(), 3);
            assert_eq!(
                results.iter().filter(|r| r["counted"] == true).count(),
                2,
                "best 2 of 3: {l}"
            );
            // The shared 1st-4th of the weight-2 event: (25+18+15+12)/4 × 2.
            assert_eq!(results[1]["points"], 35.0);
            assert_eq!(results[1]["place"], 1);
        }
        // Mpho (1st, shared, 4th) and Karabo (4th, shared, 1st): 60 each,
        // the same places, so one rank shared; then Lerato and Tshepo.
        let ranks: Vec<(i64, u64)> = lines
            .iter()
            .map(|l| (l["person"].as_i64().unwrap(), l["rank"].as_u64().unwrap()))
            .collect();
        assert_eq!(ranks[0].1, 1);
        assert_eq!(ranks[1].1, 1);
        assert_eq!(ranks[2].1, 3);
        assert_eq!(ranks[3].1, 3);
        let top: Vec<i64> = vec![ranks[0].0, ranks[1].0];
        assert!(top.contains(&people[0]) && top.contains(&people[3]));
        for l in lines {
            let points = l["points"].as_f64().unwrap();
            assert!(points == 60.0 || points == 53.0, "{l}");
        }

        // The page marks dropped results; the CSV gives the same table.
        let page = app.client().get(&format!("/seasons/{sid}")).body;
        assert!(page.contains("Free State Grand Prix 2026"));
        assert_eq!(
            page.matches("class=\"dropped\"").count(),
            4,
            "one dropped each"
        );
        let csv = app
            .client()
            .get(&format!("/seasons/{sid}/standings.csv"))
            .body;
        let mut rows = csv.lines();
        assert_eq!(
            rows.next().unwrap(),
            "Rank,Name,Federation ID,Points,Bloemfontein Open,Free State Closed,Welkom Rapid"
        );
        let mpho = csv.lines().find(|l| l.contains("Mpho Radebe")).unwrap();
        assert_eq!(mpho, "1,Mpho Radebe,FS-1,60,25,35,(12)");

        // Ties broken by countback: best 1 of the shared event (35 each)
        // and a fourth event in the order Lerato, Mpho, Tshepo, Karabo.
        let e4 = common::people_round_robin(
            &mut api,
            "Sasolburg Classic",
            &[people[1], people[0], people[2], people[3]],
            "2026-10-03",
            |i, j| Some(i < j),
        );
        let one = api.create(
            "/api/v1/seasons",
            json!({"name": "Best single result", "best": 1,
                   "events": [{"tournament": e2, "weight": 2}, {"tournament": e4}]}),
        );
        let t = app
            .client()
            .get(&format!("/api/v1/seasons/{}/standings", one["id"]))
            .json();
        let order: Vec<(i64, u64)> = t["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| (l["person"].as_i64().unwrap(), l["rank"].as_u64().unwrap()))
            .collect();
        // Everyone has 35 counted; Lerato won Sasolburg (two first
        // places), then Mpho (a second), Tshepo (a third), Karabo.
        assert_eq!(
            order,
            vec![
                (people[1], 1),
                (people[0], 2),
                (people[2], 3),
                (people[3], 4)
            ]
        );
    }
}

#[test]
fn a_bad_season_is_refused_by_field_and_nothing_is_stored() {
    for app in TestApp::all() {
        let referee = app.user("sizwe", Role::Referee);
        let mut api = app.script_for(&referee);
        let team = api.create(
            "/api/v1/tournaments",
            json!({"name": "Provincial Team League", "system": "team_league", "rules": "official", "rounds": 3}),
        )["id"]
            .as_i64()
            .unwrap();
        let solo = api.create(
            "/api/v1/tournaments",
            json!({"name": "Kimberley Open", "rules": "official", "rounds": 3}),
        )["id"]
            .as_i64()
            .unwrap();
        let cases = [
            (
                json!({"name": "S", "events": [{"tournament": team}]}),
                "events",
                "team_event",
            ),
            (
                json!({"name": "S", "events": [{"tournament": 99_999}]}),
                "events",
                "no_such",
            ),
            (json!({"name": "", "events": []}), "name", "empty"),
            (
                json!({"name": "S", "best": 0, "events": []}),
                "best",
                "below_one",
            ),
            (
                json!({"name": "S", "points": [25, -3], "events": []}),
                "points",
                "decimal_out_of_range",
            ),
            (
                json!({"name": "S", "events": [{"tournament": solo, "weight": 0}]}),
                "weight",
                "decimal_out_of_range",
            ),
            (
                json!({"name": "S", "events": [{"tournament": solo}, {"tournament": solo}]}),
                "events",
                "twice",
            ),
        ];
        for (body, field, code) in cases {
            let r = api.send_json("POST", "/api/v1/seasons", body.clone());
            assert_eq!(r.status, 422, "{body}: {}", r.body);
            let v: Value = r.json();
            assert_eq!(v["field"], field, "{body}: {}", r.body);
            assert_eq!(v["code"], code, "{body}: {}", r.body);
        }
        assert!(!app
            .client()
            .get("/seasons")
            .body
            .contains("href=\"/seasons/"));
        assert_eq!(app.client().get("/api/v1/seasons/1/standings").status, 404);
        let guest = app.client().send_json(
            "POST",
            "/api/v1/seasons",
            json!({"name": "S", "events": []}),
        );
        assert_eq!(guest.status, 401);

        // The page's form: a weight that is no number is named.
        let mut desk = app.client_as(&referee);
        let bad = desk.post(
            "/seasons",
            &[
                ("name", "Northern Cape Circuit"),
                ("event", &solo.to_string()),
                (&format!("weight_{solo}"), "double"),
            ],
        );
        assert_eq!(bad.status, 422, "{}", bad.body);
        assert!(common::field_error(&bad.body, "weight")
            .unwrap()
            .contains("double"));
        let ok = desk.post(
            "/seasons",
            &[
                ("name", "Northern Cape Circuit"),
                ("event", &solo.to_string()),
                (&format!("weight_{solo}"), "1.5"),
            ],
        );
        assert_eq!(ok.status, 303, "{}", ok.body);
        let page = desk.get(ok.location.as_deref().unwrap()).body;
        assert!(
            page.contains("Kimberley Open") && page.contains("×1.5"),
            "{page}"
        );
    }
}

/// The season's changes in the audit trail, oldest first: (action, old
/// value, new value).
fn season_changes(app: &TestApp, season: i64) -> Vec<(String, Option<Value>, Option<Value>)> {
    use diesel::prelude::*;
    use kraal::db::schema::audit_entries as a;
    let rows: Vec<(String, Option<String>, Option<String>)> = a::table
        .filter(a::entity.eq("season"))
        .filter(a::entity_id.eq(season as i32))
        .order(a::id)
        .select((a::action, a::old_value, a::new_value))
        .load(&mut app.conn())
        .unwrap();
    let parse = |v: Option<String>| v.map(|t| serde_json::from_str::<Value>(&t).unwrap());
    rows.into_iter()
        .map(|(action, old, new)| (action, parse(old), parse(new)))
        .collect()
}

#[test]
fn a_season_is_changed_and_deleted_through_the_api_with_every_change_audited() {
    for app in TestApp::all() {
        let referee = app.user("nomsa", Role::Referee);
        let mut api = app.script_for(&referee);
        let names = [
            "Ayanda Zulu",
            "Sibusiso Ngcobo",
            "Nandi Mkhize",
            "Lwazi Dube",
        ];
        let people: Vec<i64> = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                api.create(
                    "/api/v1/people",
                    json!({"name": n, "federation_id": format!("KZN-{}", i + 1)}),
                )["id"]
                    .as_i64()
                    .unwrap()
            })
            .collect();
        // Ayanda wins the first event, Lwazi the second.
        let durban =
            common::people_round_robin(&mut api, "Durban Open", &people, "2026-04-11", |i, j| {
                Some(i < j)
            });
        let pmb = common::people_round_robin(
            &mut api,
            "Pietermaritzburg Rapid",
            &people,
            "2026-06-20",
            |i, j| Some(i > j),
        );

        // A season needs an event; its name is one season's.
        let none = api.send_json(
            "POST",
            "/api/v1/seasons",
            json!({"name": "KwaZulu-Natal Circuit 2026", "events": []}),
        );
        assert_eq!(none.status, 422, "{}", none.body);
        assert_eq!(none.json()["field"], "events");
        let s = api.create(
            "/api/v1/seasons",
            json!({"name": "KwaZulu-Natal Circuit 2026", "events": [{"tournament": durban}]}),
        );
        let sid = s["id"].as_i64().unwrap();
        let again = api.send_json(
            "POST",
            "/api/v1/seasons",
            json!({"name": "KwaZulu-Natal Circuit 2026", "events": [{"tournament": pmb}]}),
        );
        assert_eq!(again.status, 409, "{}", again.body);
        assert_eq!(again.json()["field"], "name");
        let other = api.create(
            "/api/v1/seasons",
            json!({"name": "Midlands Series", "events": [{"tournament": pmb}]}),
        );
        let other_id = other["id"].as_i64().unwrap();
        let leader = |app: &TestApp, sid: i64| {
            app.client()
                .get(&format!("/api/v1/seasons/{sid}/standings"))
                .json()["standings"][0]["person"]
                .as_i64()
                .unwrap()
        };
        assert_eq!(leader(&app, sid), people[0]);

        // The list gives both, newest first.
        let list = app.client().get("/api/v1/seasons").json();
        let listed: Vec<i64> = list["seasons"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_i64().unwrap())
            .collect();
        assert_eq!(listed, vec![other_id, sid]);
        assert_eq!(list["seasons"][1]["events"][0]["tournament"], durban);

        // Renamed, the second event added at double weight, the best one
        // result counting: Lwazi's double-weight win leads.
        let patch = |api: &mut common::Client, body: Value| {
            api.send_json("PATCH", &format!("/api/v1/seasons/{sid}"), body)
        };
        let r = patch(
            &mut api,
            json!({
                "name": "KZN Grand Prix 2026",
                "best": 1,
                "events": [{"tournament": durban}, {"tournament": pmb, "weight": 2}],
            }),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let changed = r.json();
        assert_eq!(changed["id"], sid);
        assert_eq!(changed["name"], "KZN Grand Prix 2026");
        assert_eq!(changed["best"], 1);
        assert_eq!(changed["points"], json!(POINTS), "left out, left as it was");
        let events: Vec<(i64, f64)> = changed["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["tournament"].as_i64().unwrap(),
                    e["weight"].as_f64().unwrap(),
                )
            })
            .collect();
        assert_eq!(events, vec![(durban, 1.0), (pmb, 2.0)]);
        assert_eq!(leader(&app, sid), people[3]);
        let table = app
            .client()
            .get(&format!("/api/v1/seasons/{sid}/standings"))
            .json();
        assert_eq!(table["standings"][0]["points"], 50.0);

        // Points changed, every result counting again (`best: null`); the
        // events left out stay.
        let r = patch(&mut api, json!({"points": [10, 6, 4], "best": null}));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["best"], Value::Null);
        assert_eq!(r.json()["points"], json!([10.0, 6.0, 4.0]));
        assert_eq!(r.json()["events"].as_array().unwrap().len(), 2);

        // Refused by field, and nothing changes: no event left, another
        // season's name, a weight of nothing, an event that is not there.
        for (body, status, field) in [
            (json!({"events": []}), 422, "events"),
            (json!({"name": "Midlands Series"}), 409, "name"),
            (
                json!({"events": [{"tournament": pmb, "weight": 0}]}),
                422,
                "weight",
            ),
            (json!({"events": [{"tournament": 99_999}]}), 422, "events"),
            (json!({"best": 0}), 422, "best"),
        ] {
            let r = patch(&mut api, body.clone());
            assert_eq!(r.status, status, "{body}: {}", r.body);
            assert_eq!(r.json()["field"], field, "{body}: {}", r.body);
        }
        // Its own name is no conflict.
        assert_eq!(
            patch(&mut api, json!({"name": "KZN Grand Prix 2026"})).status,
            200
        );
        let list = app.client().get("/api/v1/seasons").json();
        let kept = list["seasons"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == sid)
            .unwrap()
            .clone();
        assert_eq!(kept["name"], "KZN Grand Prix 2026");
        assert_eq!(kept["events"].as_array().unwrap().len(), 2);

        // Only an account may change or delete a season.
        let guest = app.client().send_json(
            "PATCH",
            &format!("/api/v1/seasons/{sid}"),
            json!({"name": "Taken over"}),
        );
        assert_eq!(guest.status, 401);
        let guest = app
            .client()
            .send_json("DELETE", &format!("/api/v1/seasons/{sid}"), json!({}));
        assert_eq!(guest.status, 401);

        // Deleted: gone from the list and its table; the events stay.
        let gone = api.send_json("DELETE", &format!("/api/v1/seasons/{sid}"), json!({}));
        assert_eq!(gone.status, 204, "{}", gone.body);
        let list = app.client().get("/api/v1/seasons").json();
        assert_eq!(list["seasons"].as_array().unwrap().len(), 1);
        assert_eq!(
            app.client()
                .get(&format!("/api/v1/seasons/{sid}/standings"))
                .status,
            404
        );
        assert_eq!(
            api.send_json("DELETE", &format!("/api/v1/seasons/{sid}"), json!({}))
                .status,
            404
        );
        assert_eq!(patch(&mut api, json!({"name": "Back again"})).status, 404);
        assert_eq!(
            app.client()
                .get(&format!("/api/v1/tournaments/{durban}/standings"))
                .status,
            200
        );
        // Its name is free again.
        let reborn = api.send_json(
            "POST",
            "/api/v1/seasons",
            json!({"name": "KZN Grand Prix 2026", "events": [{"tournament": durban}]}),
        );
        assert_eq!(reborn.status, 201, "{}", reborn.body);

        // Every change is in the audit trail with the season before and after.
        let changes = season_changes(&app, sid);
        let actions: Vec<&str> = changes.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(actions, ["create", "edit", "edit", "edit", "remove"]);
        let (_, old, new) = &changes[1];
        assert_eq!(old.as_ref().unwrap()["name"], "KwaZulu-Natal Circuit 2026");
        assert_eq!(new.as_ref().unwrap()["name"], "KZN Grand Prix 2026");
        assert_eq!(new.as_ref().unwrap()["events"][1]["weight"], 2.0);
        let (_, old, new) = &changes[4];
        assert_eq!(old.as_ref().unwrap()["points"], json!([10.0, 6.0, 4.0]));
        assert!(new.is_none());
    }
}

#[test]
fn a_season_is_changed_and_deleted_on_its_pages() {
    for app in TestApp::all() {
        let referee = app.user("thandeka", Role::Referee);
        let mut api = app.script_for(&referee);
        let tournament = |api: &mut common::Client, name: &str| {
            api.create(
                "/api/v1/tournaments",
                json!({"name": name, "rules": "official", "rounds": 5}),
            )["id"]
                .as_i64()
                .unwrap()
        };
        let (ladysmith, newcastle) = (
            tournament(&mut api, "Ladysmith Open"),
            tournament(&mut api, "Newcastle Classic"),
        );
        api.create(
            "/api/v1/seasons",
            json!({"name": "Northern KZN League", "events": [{"tournament": newcastle}]}),
        );
        let mut desk = app.client_as(&referee);
        let made = desk.post(
            "/seasons",
            &[
                ("name", "Battlefields Circuit"),
                ("best", "3"),
                ("event", &ladysmith.to_string()),
                (&format!("weight_{ladysmith}"), "2"),
            ],
        );
        assert_eq!(made.status, 303, "{}", made.body);
        let at = made.location.clone().unwrap();
        let sid: i64 = at.rsplit('/').next().unwrap().parse().unwrap();

        // A name another season has is refused on the form that makes one.
        let twice = desk.post(
            "/seasons",
            &[
                ("name", "Northern KZN League"),
                ("event", &ladysmith.to_string()),
            ],
        );
        assert_eq!(twice.status, 409, "{}", twice.body);
        assert!(common::field_error(&twice.body, "name").is_some());

        // The season's page leads to its form, filled in as it was made.
        let page = desk.get(&at).body;
        assert!(common::has_attr(
            &page,
            "href",
            &format!("/seasons/{sid}/edit")
        ));
        assert!(!common::has_attr(
            &app.client().get(&at).body,
            "href",
            &format!("/seasons/{sid}/edit")
        ));
        let form = desk.get(&format!("/seasons/{sid}/edit"));
        assert_eq!(form.status, 200);
        let mut fields = common::form_fields(&form.body, "id=\"edit-season\"");
        let value = |fields: &[(String, String)], name: &str| {
            fields
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .unwrap()
        };
        assert_eq!(value(&fields, "name"), "Battlefields Circuit");
        assert_eq!(value(&fields, "best"), "3");
        assert_eq!(value(&fields, &format!("weight_{ladysmith}")), "2");
        assert!(form.body.contains(&format!(
            "id=\"event-{ladysmith}\" name=\"event\" value=\"{ladysmith}\" checked"
        )));
        // A browser sends the ticked boxes only.
        fields.retain(|(n, v)| n != "event" || v == &ladysmith.to_string());

        // No event left: refused, naming the field, nothing changed.
        let mut none = fields.clone();
        none.retain(|(n, _)| n != "event");
        let pairs = |f: &[(String, String)]| -> Vec<(String, String)> { f.to_vec() };
        let send = |desk: &mut common::Client, f: &[(String, String)]| {
            let p: Vec<(&str, &str)> = f.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            desk.post(&format!("/seasons/{sid}/edit"), &p)
        };
        let r = send(&mut desk, &pairs(&none));
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(
            common::field_error(&r.body, "events").is_some(),
            "{}",
            r.body
        );
        // Another season's name: refused beside the name.
        let mut taken = fields.clone();
        common::set_field(&mut taken, "name", "Northern KZN League");
        let r = send(&mut desk, &taken);
        assert_eq!(r.status, 409, "{}", r.body);
        assert!(common::field_error(&r.body, "name").is_some(), "{}", r.body);

        // Renamed, Newcastle added at 1.5, every result counting.
        let mut good = fields.clone();
        common::set_field(&mut good, "name", "Battlefields Grand Prix");
        common::set_field(&mut good, "best", "");
        good.push(("event".into(), newcastle.to_string()));
        common::set_field(&mut good, &format!("weight_{newcastle}"), "1.5");
        let r = send(&mut desk, &good);
        assert_eq!(r.status, 303, "{}", r.body);
        let json = app
            .client()
            .get(&format!("/api/v1/seasons/{sid}/standings"))
            .json();
        assert_eq!(json["name"], "Battlefields Grand Prix");
        assert_eq!(json["best"], Value::Null);
        let events: Vec<(i64, f64)> = json["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["tournament"].as_i64().unwrap(),
                    e["weight"].as_f64().unwrap(),
                )
            })
            .collect();
        assert_eq!(events, vec![(ladysmith, 2.0), (newcastle, 1.5)]);

        // Saved again as the form comes, the boxes ticked in the order the
        // form lists them: the season's order stays (its events first).
        let form = desk.get(&format!("/seasons/{sid}/edit")).body;
        let ticked: Vec<String> = [ladysmith, newcastle]
            .iter()
            .map(|t| t.to_string())
            .collect();
        let mut again = common::form_fields(&form, "id=\"edit-season\"");
        again.retain(|(n, v)| n != "event" || ticked.contains(v));
        let order: Vec<&str> = again
            .iter()
            .filter(|(n, _)| n == "event")
            .map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(order, [ticked[0].as_str(), ticked[1].as_str()]);
        assert_eq!(send(&mut desk, &again).status, 303);
        let json = app
            .client()
            .get(&format!("/api/v1/seasons/{sid}/standings"))
            .json();
        assert_eq!(json["events"][0]["tournament"], ladysmith);
        assert_eq!(json["events"][1]["weight"], 1.5);

        // Deleting asks first, naming the season and its events.
        let ask = desk.post(&format!("/seasons/{sid}/delete"), &[]);
        assert_eq!(ask.status, 200, "{}", ask.body);
        assert!(common::has_attr(&ask.body, "data-season", &sid.to_string()));
        assert!(ask.body.contains("Battlefields Grand Prix"));
        assert!(ask.body.contains("Ladysmith Open") && ask.body.contains("Newcastle Classic"));
        assert_eq!(app.client().get(&at).status, 200, "asking deletes nothing");
        let done = desk.post(&format!("/seasons/{sid}/delete"), &[("confirm", "yes")]);
        assert_eq!(done.status, 303, "{}", done.body);
        assert_eq!(done.location.as_deref(), Some("/seasons"));
        assert_eq!(app.client().get(&at).status, 404);
        assert!(!app
            .client()
            .get("/seasons")
            .body
            .contains(&format!("href=\"/seasons/{sid}\"")));
        let actions: Vec<String> = season_changes(&app, sid).into_iter().map(|c| c.0).collect();
        assert_eq!(actions, ["create", "edit", "edit", "remove"]);
    }
}

//! A season over three events, on both backends: places from each event's
//! standings (shared places sharing their points), weights, the best N
//! results counting, ties ranked by countback and then shared; checked
//! against the events' own standings read back from the API, and bad
//! seasons refused by field with nothing stored.

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
                "team event",
            ),
            (
                json!({"name": "S", "events": [{"tournament": 99_999}]}),
                "events",
                "99999",
            ),
            (json!({"name": "", "events": []}), "name", "empty"),
            (json!({"name": "S", "best": 0, "events": []}), "best", "0"),
            (
                json!({"name": "S", "points": [25, -3], "events": []}),
                "points",
                "-3",
            ),
            (
                json!({"name": "S", "events": [{"tournament": solo, "weight": 0}]}),
                "weight",
                "0",
            ),
            (
                json!({"name": "S", "events": [{"tournament": solo}, {"tournament": solo}]}),
                "events",
                "twice",
            ),
        ];
        for (body, field, says) in cases {
            let r = api.send_json("POST", "/api/v1/seasons", body.clone());
            assert_eq!(r.status, 422, "{body}: {}", r.body);
            let v: Value = r.json();
            assert_eq!(v["field"], field, "{body}: {}", r.body);
            assert!(
                v["error"].as_str().unwrap().contains(says),
                "{body}: {}",
                r.body
            );
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

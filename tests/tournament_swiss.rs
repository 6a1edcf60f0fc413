//! A whole Swiss tournament run through the JSON API, as a federation's
//! script would: 30 players under GAR (six games a pairing), relatives and
//! club-mates, seven rounds of results, then standings checked against
//! values worked out here from the results the test itself entered.

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::{HashMap, HashSet};

use common::TestApp;
use kraal::db::users::Role;
use serde_json::{json, Value};

const CLUBS: [&str; 6] = [
    "Soweto MSC",
    "Durban Mills",
    "Bloem Cows",
    "Polokwane MC",
    "Gqeberha MC",
    "Kimberley MC",
];

/// A deterministic stream of game results: starter wins, draws, losses.
struct Results(u64);

impl Results {
    fn next(&mut self) -> &'static str {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        match (self.0 >> 33) % 5 {
            0 | 1 => "1-0",
            2 | 3 => "0-1",
            _ => "1/2-1/2",
        }
    }
}

#[test]
fn a_seven_round_gar_swiss_of_thirty_players() {
    for app in TestApp::all() {
        let admin = app.user("federation", Role::Admin);
        let mut api = app.script_for(&admin);

        let t = api.send_json(
            "POST",
            "/api/v1/tournaments",
            json!({"name": "Gauteng Open", "system": "swiss", "rules": "gar", "rounds": 7, "tiebreaks": ["buchholz", "wins"]}),
        );
        assert_eq!(t.status, 201, "[{}] {}", app.backend, t.body);
        let t = t.json();
        assert_eq!(t["games_per_pairing"], 6, "GAR plays six games a pairing");
        let tid = t["id"].as_i64().unwrap();

        let mut ids = Vec::new();
        let mut club_of = HashMap::new();
        for i in 0..30 {
            let club = CLUBS[i % 6];
            let id = api.create(
                &format!("/api/v1/tournaments/{tid}/players"),
                json!({"name": format!("Player {:02}", i + 1), "club": club, "rating": 2200 - 17 * i as i64}),
            )["id"].as_i64().unwrap();
            club_of.insert(id, club);
            ids.push(id);
        }
        // Siblings and a married couple, some in one club, some not.
        let relatives = [
            (ids[0], ids[6]),
            (ids[1], ids[2]),
            (ids[10], ids[16]),
            (ids[20], ids[29]),
        ];
        for (a, b) in relatives {
            api.create(
                &format!("/api/v1/tournaments/{tid}/relations"),
                json!({"a": a, "b": b}),
            );
        }
        let related: HashSet<(i64, i64)> = relatives
            .iter()
            .map(|&(a, b)| (a.min(b), a.max(b)))
            .collect();

        let mut met: HashSet<(i64, i64)> = HashSet::new();
        let mut stream = Results(2026);
        // Per player: game points (halves) and games won, and per round who met whom.
        let mut points: HashMap<i64, i64> = ids.iter().map(|&i| (i, 0)).collect();
        let mut wins: HashMap<i64, i64> = ids.iter().map(|&i| (i, 0)).collect();
        let mut opponents: HashMap<i64, Vec<Option<i64>>> =
            ids.iter().map(|&i| (i, Vec::new())).collect();

        let mut early_club_meetings = 0;
        for round in 1..=7 {
            let r = api.send_json(
                "POST",
                &format!("/api/v1/tournaments/{tid}/rounds"),
                json!({}),
            );
            assert_eq!(r.status, 201, "[{}] round {round}: {}", app.backend, r.body);
            let body = r.json();
            let pairings = body["pairings"].as_array().unwrap();
            let mut seen = HashSet::new();
            for p in pairings {
                let first = p["first_id"].as_i64().unwrap();
                assert!(
                    seen.insert(first),
                    "player {first} paired twice in round {round}"
                );
                let Some(second) = p["second_id"].as_i64() else {
                    assert_eq!(p["bye"], "allocated");
                    points.entry(first).and_modify(|x| *x += 12); // a won mini-match: 6 game points
                    opponents.get_mut(&first).unwrap().push(None);
                    continue;
                };
                assert!(
                    seen.insert(second),
                    "player {second} paired twice in round {round}"
                );
                let key = (first.min(second), first.max(second));
                assert!(
                    !related.contains(&key),
                    "relatives {key:?} paired in round {round}"
                );
                assert!(met.insert(key), "rematch {key:?} in round {round}");
                if round <= 3 && club_of[&first] == club_of[&second] {
                    // "Where possible": club-mates meet early only when the
                    // score brackets leave no other way, and the pairing says so.
                    let bent = p["explanation"]["bent"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default();
                    assert!(
                        bent.iter().any(|b| b["rule"]["kind"] == "mates_early"),
                        "club-mates {key:?} paired in round {round} without an explanation: {p}"
                    );
                    early_club_meetings += 1;
                }
                opponents.get_mut(&first).unwrap().push(Some(second));
                opponents.get_mut(&second).unwrap().push(Some(first));
                let games = p["games"].as_array().unwrap();
                assert_eq!(games.len(), 6);
                for g in games {
                    let result = stream.next();
                    let starter = if g["first_started"].as_bool().unwrap() {
                        first
                    } else {
                        second
                    };
                    let other = if starter == first { second } else { first };
                    let r = api.send_json(
                        "PUT",
                        &format!("/api/v1/games/{}", g["id"]),
                        json!({"result": result}),
                    );
                    assert_eq!(r.status, 200, "{}", r.body);
                    let (s, o) = match result {
                        "1-0" => (2, 0),
                        "0-1" => (0, 2),
                        _ => (1, 1),
                    };
                    *points.get_mut(&starter).unwrap() += s;
                    *points.get_mut(&other).unwrap() += o;
                    if s == 2 {
                        *wins.get_mut(&starter).unwrap() += 1;
                    }
                    if o == 2 {
                        *wins.get_mut(&other).unwrap() += 1;
                    }
                }
            }
            assert_eq!(
                seen.len(),
                30,
                "everyone is paired or has the bye in round {round}"
            );
        }
        assert_eq!(
            api.send_json(
                "POST",
                &format!("/api/v1/tournaments/{tid}/rounds"),
                json!({})
            )
            .status,
            409,
            "only 7 rounds"
        );
        assert!(
            early_club_meetings <= 3,
            "{early_club_meetings} club-mate pairings in rounds 1-3"
        );

        // Standings by hand: Buchholz counts an opponent's final score, and a
        // bye as an opponent with the player's own score.
        let buchholz = |p: i64| -> i64 {
            opponents[&p]
                .iter()
                .map(|o| o.map_or(points[&p], |q| points[&q]))
                .sum()
        };
        let mut expected: Vec<(i64, i64, i64)> = ids
            .iter()
            .map(|&p| (points[&p], buchholz(p), wins[&p]))
            .collect();
        expected.sort_by(|a, b| b.cmp(a));

        let s = app
            .client()
            .get(&format!("/api/v1/tournaments/{tid}/standings"));
        assert_eq!(s.status, 200);
        let s = s.json();
        let rows = s["standings"].as_array().unwrap();
        assert_eq!(rows.len(), 30);
        let got: Vec<(i64, i64, i64)> = rows
            .iter()
            .map(|r| {
                let half = |v: &Value| (v.as_f64().unwrap() * 2.0).round() as i64;
                (
                    half(&r["points"]),
                    half(&r["tiebreaks"]["buchholz"]),
                    r["tiebreaks"]["wins"].as_i64().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            got, expected,
            "[{}] standings differ from the hand count",
            app.backend
        );
        for r in rows {
            let id = r["player"].as_i64().unwrap();
            assert_eq!(
                (r["points"].as_f64().unwrap() * 2.0).round() as i64,
                points[&id],
                "{}",
                r["name"]
            );
        }

        // The CSV has the same table.
        let csv = app.client().get(&format!("/t/{tid}/standings.csv"));
        assert_eq!(csv.status, 200);
        let mut lines = csv.body.lines();
        assert_eq!(
            lines.next(),
            Some("Rank,Name,Club,Rating,Federation ID,Games played,Points,Buchholz,Number of wins,Provisional")
        );
        let first = lines.next().unwrap();
        let top = &rows[0];
        assert!(
            first.starts_with(&format!(
                "1,{},{},",
                top["name"].as_str().unwrap(),
                top["club"].as_str().unwrap()
            )),
            "{first}"
        );
        assert_eq!(csv.body.lines().count(), 31);

        // The public pages show it too.
        let page = app.client().get(&format!("/t/{tid}/standings"));
        assert!(page.body.contains(top["name"].as_str().unwrap()));
        let round7 = app.client().get(&format!("/t/{tid}/rounds/7"));
        assert_eq!(round7.status, 200);
    }
}

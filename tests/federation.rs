//! One person, one rating list, everywhere: a venue's Kraal (SQLite) and
//! a federation's Kraal (PostgreSQL when the run has it, and SQLite), as
//! two real `kraal serve` processes. The venue pulls the federation's
//! rating list, runs an event whose players come in by CSV with nothing
//! but their federation ids, and publishes it; the federation's rating
//! list then equals a Glicko-2 computation made here, from Glickman's
//! paper and not from Kraal's rating module, over all the federation's
//! games, the venue's included, and its season scores the event.

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use common::{Served, TestApp};
use kraal::db::users::Role;
use serde_json::{json, Value};

/// Polls `done` every 100 ms for up to `limit`.
fn within(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    while started.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

fn get(base: &str, path: &str) -> Option<String> {
    ureq::get(&format!("{base}{path}"))
        .call()
        .ok()
        .and_then(|r| r.into_string().ok())
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

// Glicko-2 as Glickman's "Example of the Glicko-2 system" gives it, step
// by step, written here so that the product's rating module is checked
// against the paper and not against itself.

const SCALE: f64 = 173.7178;
const TAU: f64 = 0.5;

#[derive(Debug, Clone, Copy, PartialEq)]
struct Glicko {
    rating: f64,
    rd: f64,
    volatility: f64,
}

const NEWCOMER: Glicko = Glicko {
    rating: 1500.0,
    rd: 350.0,
    volatility: 0.06,
};

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// One rating period of `me`, who played `games` (the opponent's rating at
/// the start of the period, and the score); none is step 6 alone.
fn period(me: Glicko, games: &[(Glicko, f64)]) -> Glicko {
    let mu = (me.rating - 1500.0) / SCALE;
    let phi = me.rd / SCALE;
    let sigma = me.volatility;
    if games.is_empty() {
        let grown = (phi * phi + sigma * sigma).sqrt() * SCALE;
        return Glicko {
            rd: grown.min(350.0),
            ..me
        };
    }
    let mut v_inv = 0.0;
    let mut sum = 0.0;
    for (o, s) in games {
        let mu_j = (o.rating - 1500.0) / SCALE;
        let phi_j = o.rd / SCALE;
        let e = 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
        v_inv += g(phi_j) * g(phi_j) * e * (1.0 - e);
        sum += g(phi_j) * (s - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * sum;
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut fa, mut fb) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > 0.000001 {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
    }
    let sigma2 = (big_a / 2.0).exp();
    // docs/ratings.md: no RD above 350, the pre-period value of step 6
    // included (a newcomer is rated from 350, not from above it).
    let phi_star = (phi * phi + sigma2 * sigma2).sqrt().min(350.0 / SCALE);
    let phi2 = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu2 = mu + phi2 * phi2 * sum;
    Glicko {
        rating: SCALE * mu2 + 1500.0,
        rd: (SCALE * phi2).min(350.0),
        volatility: sigma2,
    }
}

/// A rated game: both players' federation ids, the first player's score,
/// and the month it was played in (`2026-09`).
struct Game {
    first: String,
    second: String,
    score: f64,
    month: String,
}

/// The list the federation should publish: everyone's rating after the
/// last month, from the imported ratings (in force after `imported_after`)
/// and the games, month by month.
fn expected_list(
    imported: &BTreeMap<String, Glicko>,
    imported_after: &str,
    games: &[Game],
    last_month: &str,
) -> BTreeMap<String, Glicko> {
    let mut months: BTreeSet<String> = games.iter().map(|g| g.month.clone()).collect();
    months.insert(last_month.to_string());
    let mut state = imported.clone();
    for month in months.iter().filter(|m| m.as_str() > imported_after) {
        let start = state.clone();
        let rating_of = |fid: &str| start.get(fid).copied().unwrap_or(NEWCOMER);
        let mut played: BTreeMap<String, Vec<(Glicko, f64)>> = BTreeMap::new();
        for game in games.iter().filter(|g| &g.month == month) {
            played
                .entry(game.first.clone())
                .or_default()
                .push((rating_of(&game.second), game.score));
            played
                .entry(game.second.clone())
                .or_default()
                .push((rating_of(&game.first), 1.0 - game.score));
        }
        let everyone: BTreeSet<String> = start.keys().chain(played.keys()).cloned().collect();
        for fid in everyone {
            let games = played.get(&fid).map(Vec::as_slice).unwrap_or(&[]);
            state.insert(fid.clone(), period(rating_of(&fid), games));
        }
    }
    state
}

/// The paper's own example: the implementation above is the paper's.
#[test]
fn the_test_glicko2_is_glickmans_example() {
    let me = Glicko {
        rating: 1500.0,
        rd: 200.0,
        volatility: 0.06,
    };
    let o = |rating, rd| Glicko {
        rating,
        rd,
        volatility: 0.06,
    };
    let after = period(
        me,
        &[
            (o(1400.0, 30.0), 1.0),
            (o(1550.0, 100.0), 0.0),
            (o(1700.0, 300.0), 0.0),
        ],
    );
    assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
    assert!((after.rd - 151.52).abs() < 0.01, "{after:?}");
    assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
}

/// Every game of tournament `tid` at `base` between two of `fids` (players
/// by name), as the first player's score and the round's month.
fn games_of(base: &str, tid: i64, fids: &BTreeMap<String, String>) -> Vec<Game> {
    let mut out = Vec::new();
    for n in 1.. {
        let Some(text) = get(base, &format!("/api/v1/tournaments/{tid}/rounds/{n}")) else {
            break;
        };
        let round: Value = serde_json::from_str(&text).unwrap();
        let month = round["date"].as_str().unwrap()[..7].to_string();
        for p in round["pairings"].as_array().unwrap() {
            let (Some(first), Some(second)) = (p["first"].as_str(), p["second"].as_str()) else {
                continue;
            };
            let (Some(a), Some(b)) = (fids.get(first), fids.get(second)) else {
                continue;
            };
            for game in p["games"].as_array().unwrap() {
                let starter_score = match game["result"].as_str().unwrap() {
                    "1-0" => 1.0,
                    "0-1" => 0.0,
                    "1/2-1/2" => 0.5,
                    _ => continue, // forfeits and games not played are not rated
                };
                let first_started = game["first_started"].as_bool().unwrap();
                out.push(Game {
                    first: a.clone(),
                    second: b.clone(),
                    score: if first_started {
                        starter_score
                    } else {
                        1.0 - starter_score
                    },
                    month: month.clone(),
                });
            }
        }
    }
    out
}

/// The federation's registry, as its CSV import takes it: ten people with
/// ratings from the national list in force after August 2026, two without.
/// Each person's club (no two share one, so no pairing keeps them apart).
const CLUBS: &[&str] = &[
    "Soweto MSC",
    "Orlando MSC",
    "Tembisa MSC",
    "Alexandra MSC",
    "Mamelodi MSC",
    "Katlehong MSC",
    "Diepsloot MSC",
    "Daveyton MSC",
    "Kagiso MSC",
    "Sebokeng MSC",
    "Atteridgeville MSC",
    "Vosloorus MSC",
];

/// A person of the federation's list: name, federation id, and rating,
/// RD and volatility if rated.
type Listed = (&'static str, &'static str, Option<(f64, f64, f64)>);

const FEDERATION_PEOPLE: &[Listed] = &[
    ("Thabo Nkosi", "ZA-1001", Some((1842.0, 62.0, 0.058))),
    ("Lerato Dlamini", "ZA-1002", Some((1790.5, 75.0, 0.06))),
    ("Sipho Mokoena", "ZA-1003", Some((1733.0, 90.0, 0.061))),
    ("Naledi Khumalo", "ZA-1004", Some((1688.0, 110.0, 0.06))),
    ("Zanele Mahlangu", "ZA-1005", Some((1650.0, 80.0, 0.059))),
    ("Bongani Zulu", "ZA-1006", Some((1612.0, 140.0, 0.06))),
    ("Ayanda Shabalala", "ZA-1007", Some((1575.0, 95.0, 0.06))),
    ("Karabo Sithole", "ZA-1008", Some((1540.0, 200.0, 0.06))),
    ("Palesa Mofokeng", "ZA-1009", Some((1505.0, 120.0, 0.062))),
    ("Kagiso Molefe", "ZA-1010", Some((1470.0, 180.0, 0.06))),
    ("Lindiwe Ngcobo", "ZA-1011", None),
    ("Mandla Khoza", "ZA-1012", None),
];

#[test]
fn a_venue_event_published_to_the_federation_is_rated_there_as_the_paper_says() {
    for backend in common::backends() {
        one_federation(backend);
    }
}

fn one_federation(backend: &'static str) {
    // The federation: its registry, and two events of its own (September
    // and October), then served as `kraal serve` on its own port.
    let federation_db = TestApp::start(backend);
    let officer = federation_db.user("federation-officer", Role::Admin);
    let mut fed_page = federation_db.client_as(&officer);
    let mut fed_api = federation_db.script_for(&officer);
    let mut csv = String::from("name,federation_id,club,rating,rd,volatility,period\n");
    for ((name, fid, rating), club) in FEDERATION_PEOPLE.iter().zip(CLUBS) {
        match rating {
            Some((r, rd, v)) => {
                csv.push_str(&format!("{name},{fid},{club},{r},{rd},{v},2026-08\n"))
            }
            None => csv.push_str(&format!("{name},{fid},{club},,,,\n")),
        }
    }
    let imported = fed_page.post("/people/import", &[("csv", &csv)]);
    assert_eq!(imported.status, 200, "{}", imported.body);
    let people: Value = fed_api.get("/api/v1/people?q=").json();
    let person_of: BTreeMap<String, i64> = people["people"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["federation_id"].as_str().unwrap().to_string(),
                p["id"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(person_of.len(), 12, "{people}");
    let ids = |fids: &[&str]| fids.iter().map(|f| person_of[*f]).collect::<Vec<_>>();
    let september = common::people_round_robin(
        &mut fed_api,
        "Gauteng Closed",
        &ids(&["ZA-1001", "ZA-1002", "ZA-1003", "ZA-1004"]),
        "2026-09-12",
        |i, j| if (i + j) % 3 == 0 { None } else { Some(i < j) },
    );
    let october = common::people_round_robin(
        &mut fed_api,
        "Vaal Rapids",
        &ids(&["ZA-1005", "ZA-1006", "ZA-1007", "ZA-1008"]),
        "2026-10-10",
        |i, j| if (i + j) % 2 == 0 { Some(j < i) } else { None },
    );
    let publish_token = common::publisher_token(&federation_db, "venue-soweto");
    let federation = Served::start(&federation_db.database_url, |_| {});

    // The venue: its registry pulled from the federation's list.
    let venue_db = TestApp::start("sqlite");
    let (code, out, err) = common::cli::kraal(&[
        "registry",
        "pull",
        "--federation-url",
        &federation.base,
        "--publish-allow-private",
    ])
    .database_url(&venue_db.database_url)
    .run();
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("added 12 people"), "{out}");
    let venue_people = venue_db.client().get("/api/v1/ratings").json();
    let at_venue: BTreeMap<String, f64> = venue_people["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["federation_id"].as_str().unwrap().to_string(),
                r["rating"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        at_venue.len(),
        10,
        "the ten rated people come with their ratings: {venue_people}"
    );

    // The referee's event, players by CSV with their federation ids (some
    // typed in lower case), two the federation does not know yet and one
    // with no id at all.
    let referee = venue_db.user("palesa", Role::Referee);
    let mut venue_api = venue_db.script_for(&referee);
    let mut venue_page = venue_db.client_as(&referee);
    let vid = venue_api.create(
        "/api/v1/tournaments",
        json!({"name": "Soweto Open", "rules": "official", "rounds": 3}),
    )["id"]
        .as_i64()
        .unwrap();
    let mut roster = String::from("name,club,federation_id\n");
    let mut fid_of_name: BTreeMap<String, String> = BTreeMap::new();
    for (i, (name, fid, _)) in FEDERATION_PEOPLE.iter().enumerate() {
        let typed = if i % 3 == 2 {
            fid.to_lowercase()
        } else {
            fid.to_string()
        };
        roster.push_str(&format!("{name},{},{typed}\n", CLUBS[i]));
        fid_of_name.insert(name.to_string(), fid.to_string());
    }
    for (name, fid) in [("Themba Mthembu", "ZA-2001"), ("Nomsa Radebe", "za-2002")] {
        roster.push_str(&format!("{name},Meadowlands MSC,{fid}\n"));
        fid_of_name.insert(name.to_string(), fid.to_uppercase());
    }
    roster.push_str("Mpho Ndlovu,Zola MSC,\n");
    let import = venue_page.post(&format!("/t/{vid}/import"), &[("csv", &roster)]);
    assert!(matches!(import.status, 200 | 303), "{}", import.body);
    // The pulled list gives the entries their federation ratings.
    let players_csv = venue_db.client().get(&format!("/t/{vid}/players.csv")).body;
    let ratings_in_event: usize = players_csv
        .lines()
        .filter(|l| {
            l.contains("ZA-10")
                && l.split(',')
                    .any(|c| c.parse::<i32>().is_ok_and(|r| r > 1000))
        })
        .count();
    assert_eq!(ratings_in_event, 10, "{players_csv}");

    let set = venue_api.send_json(
        "PUT",
        &format!("/api/v1/tournaments/{vid}/publication"),
        json!({"to": federation.base, "token": publish_token}),
    );
    assert_eq!(set.status, 200, "{}", set.body);
    let origin = set.json()["origin"].as_str().unwrap().to_string();
    assert_eq!(
        set.json()["entries_without_federation_id"],
        json!(["Mpho Ndlovu"]),
        "the venue says who will not be rated there"
    );
    let _venue = Served::start(&venue_db.database_url, |c| {
        c.args([
            "--site-name",
            "Soweto Community Hall",
            "--publish-allow-private",
        ]);
    });
    let outcomes = ["1-0", "1/2-1/2", "0-1", "1-0", "0-1"];
    let mut k = 0;
    for _ in 0..3 {
        for p in common::pair(&mut venue_api, vid) {
            if p["second_id"].is_null() {
                continue;
            }
            for g in p["games"].as_array().unwrap() {
                common::put(&mut venue_api, g, outcomes[k % outcomes.len()]);
                k += 1;
            }
        }
    }
    let publication = format!("/api/v1/tournaments/{vid}/publication");
    let current = within(Duration::from_secs(30), || {
        venue_api.get(&publication).json()["state"] == "current"
    });
    assert!(
        current,
        "the federation took the event: {}",
        venue_api.get(&publication).body
    );
    let list: Value =
        serde_json::from_str(&get(&federation.base, "/api/v1/tournaments").unwrap()).unwrap();
    let copy = list["tournaments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["origin"]["id"] == origin.as_str())
        .expect("the copy is listed")["id"]
        .as_i64()
        .unwrap();
    let copy_page = get(&federation.base, &format!("/t/{copy}")).unwrap();
    assert!(
        copy_page.contains("data-unrated=\"1\"") && copy_page.contains("Mpho Ndlovu"),
        "the copy says who is not rated here"
    );

    // The federation's list, against the paper over every game it holds.
    let mut fed_names: BTreeMap<String, String> = BTreeMap::new();
    for (name, fid, _) in FEDERATION_PEOPLE {
        fed_names.insert(name.to_string(), fid.to_string());
    }
    let mut games = games_of(&federation.base, september, &fed_names);
    games.extend(games_of(&federation.base, october, &fed_names));
    let venue_games = games_of(&federation.base, copy, &fid_of_name);
    assert!(
        venue_games.len() >= 30,
        "the venue's games are rated: {}",
        venue_games.len()
    );
    games.extend(venue_games);
    let imported: BTreeMap<String, Glicko> = FEDERATION_PEOPLE
        .iter()
        .filter_map(|(_, fid, r)| {
            r.map(|(rating, rd, volatility)| {
                (
                    fid.to_string(),
                    Glicko {
                        rating,
                        rd,
                        volatility,
                    },
                )
            })
        })
        .collect();
    let now = chrono::Utc::now().format("%Y-%m").to_string();
    let expected = expected_list(&imported, "2026-08", &games, &now);
    let listed: Value =
        serde_json::from_str(&get(&federation.base, "/api/v1/ratings").unwrap()).unwrap();
    let got: BTreeMap<String, Glicko> = listed["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["federation_id"].as_str().unwrap().to_string(),
                Glicko {
                    rating: r["rating"].as_f64().unwrap(),
                    rd: r["rd"].as_f64().unwrap(),
                    volatility: r["volatility"].as_f64().unwrap(),
                },
            )
        })
        .collect();
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>(),
        "the same people are rated ({backend})"
    );
    for (fid, want) in &expected {
        let have = got[fid];
        assert!(
            (have.rating - want.rating).abs() < 1e-6
                && (have.rd - want.rd).abs() < 1e-6
                && (have.volatility - want.volatility).abs() < 1e-9,
            "{fid} ({backend}): the federation lists {have:?}, the paper gives {want:?}; games here {:?}; list {listed}",
            games.iter().filter(|g| &g.first == fid || &g.second == fid).map(|g| (g.first.clone(), g.second.clone(), g.score, g.month.clone())).collect::<Vec<_>>()
        );
    }
    assert!(got.contains_key("ZA-2001") && got.contains_key("ZA-2002"));

    // And the event scores in the federation's season.
    let season = fed_api.create(
        "/api/v1/seasons",
        json!({"name": "Gauteng Grand Prix 2026", "events": [{"tournament": september}, {"tournament": copy}]}),
    );
    let table = fed_api
        .get(&format!("/api/v1/seasons/{}/standings", season["id"]))
        .json();
    let scored: BTreeSet<&str> = table["standings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| {
            l["results"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["tournament"] == copy && r["points"].as_f64().unwrap() > 0.0)
        })
        .filter_map(|l| l["federation_id"].as_str())
        .collect();
    assert!(
        scored.len() >= 9,
        "the venue's places score in the season: {table}"
    );
}

/// `fx1` and `FX1` are one person on every way in.
#[test]
fn a_federation_id_is_one_person_whatever_its_case() {
    for app in TestApp::all() {
        let officer = app.user("registrar", Role::Referee);
        let mut api = app.script_for(&officer);
        let first = api.create(
            "/api/v1/people",
            json!({"name": "Refilwe Tau", "federation_id": " fx1 "}),
        );
        assert_eq!(first["federation_id"], "FX1");
        let again = api.send_json(
            "POST",
            "/api/v1/people",
            json!({"name": "Refilwe Tau", "federation_id": "FX1"}),
        );
        assert_eq!(again.status, 409, "{}", again.body);
        let csv = "name,federation_id\nRefilwe Tau,Fx1\nDineo Kgosi,fx2\n";
        let mut page = app.client_as(&officer);
        let imported = page.post("/people/import", &[("csv", csv)]);
        assert_eq!(imported.status, 200, "{}", imported.body);
        let all = api.get("/api/v1/people?q=").json();
        let fids: Vec<&str> = all["people"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p["federation_id"].as_str())
            .collect();
        assert_eq!(fids.iter().filter(|f| **f == "FX1").count(), 1, "{all}");
        assert!(fids.contains(&"FX2"), "{all}");
        let found = api.get("/api/v1/people?q=fx1").json();
        assert_eq!(found["people"][0]["federation_id"], "FX1", "{found}");
        // An entry typed in lower case is the person's entry.
        let tid = api.create(
            "/api/v1/tournaments",
            json!({"name": "Kimberley Open", "rules": "official", "rounds": 5}),
        )["id"]
            .as_i64()
            .unwrap();
        let entry = api.create(
            &format!("/api/v1/tournaments/{tid}/players"),
            json!({"name": "Refilwe Tau", "federation_id": "fx1"}),
        );
        assert_eq!(entry["federation_id"], "FX1", "{entry}");
    }
}

/// The migration gives existing ids their one spelling, and leaves two
/// people who would then share one as they were.
#[test]
fn the_migration_spells_ids_in_upper_case_and_leaves_colliding_ones() {
    use diesel::RunQueryDsl;
    let up = include_str!("../migrations/sqlite/2026-11-28-000036_federation_ids/up.sql");
    let pg_up = include_str!("../migrations/postgres/2026-11-28-000036_federation_ids/up.sql");
    for app in TestApp::all() {
        let mut conn = app.conn();
        let now = "2026-11-01 10:00:00";
        for (name, fid) in [
            ("Refilwe Tau", "za-77"),
            ("Dineo Kgosi", " ZA-78 "),
            ("Tumelo Baloyi", "za-79"),
            ("Tumelo Baloyi", "ZA-79"),
        ] {
            diesel::sql_query(format!(
                "INSERT INTO people (name, federation_id, club, created_at) VALUES ('{name}', '{fid}', '', '{now}')"
            ))
            .execute(&mut *conn)
            .unwrap();
        }
        let sql = if app.backend == "sqlite" { up } else { pg_up };
        for statement in sql.split(';').filter(|s| {
            s.lines()
                .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with("--"))
        }) {
            diesel::sql_query(statement).execute(&mut *conn).unwrap();
        }
        let people = kraal::db::people::all(&mut conn).unwrap();
        let fids: BTreeSet<Option<String>> =
            people.iter().map(|p| p.federation_id.clone()).collect();
        let want: BTreeSet<Option<String>> = ["ZA-77", "ZA-78", "za-79", "ZA-79"]
            .iter()
            .map(|s| Some(s.to_string()))
            .collect();
        assert_eq!(fids, want, "{}", app.backend);
    }
}

/// A venue's event whose players have federation ids but no person of the
/// venue's registry (the venue keeps none), as `kraal export event`
/// writes it; its round played today.
fn venue_event_without_registry(players: &[(&str, &str)]) -> Value {
    let venue = TestApp::start("sqlite");
    let referee = venue.user("palesa", Role::Referee);
    let mut api = venue.script_for(&referee);
    let entries: Vec<Value> = players
        .iter()
        .enumerate()
        .map(|(i, (name, fid))| json!({"name": name, "club": CLUBS[i], "federation_id": fid}))
        .collect();
    let (tid, _) = common::api_tournament(
        &mut api,
        json!({"name": "Soweto Open", "rules": "official", "rounds": 3}),
        &entries,
    );
    for p in common::pair(&mut api, tid) {
        if p["second_id"].is_null() {
            continue;
        }
        for g in p["games"].as_array().unwrap() {
            common::put(&mut api, g, "1-0");
        }
    }
    let file =
        kraal::db::event::export(&mut venue.conn(), kraal::ids::TournamentId(tid as i32)).unwrap();
    assert!(file.people.is_empty(), "the venue has no registry");
    serde_json::to_value(&file).unwrap()
}

/// The federation's server and a token of an account allowed to publish.
fn federation_with_publisher(backend: &'static str) -> (TestApp, String) {
    let federation = TestApp::start(backend);
    let token = common::publisher_token(&federation, "venue-soweto");
    (federation, token)
}

/// The Soweto Open as it was found: players imported by CSV with
/// federation ids, no person of their own at the venue. Each entry with an
/// id becomes the federation's person with it (made when missing), the
/// answer says which, and the games are rated there.
#[test]
fn entries_travel_by_federation_id_without_a_person_at_the_venue() {
    let event = venue_event_without_registry(&[
        ("Thabo Nkosi", "ZA-1001"),
        ("Lerato Dlamini", "za-1002"),
        ("Sipho Mokoena", "ZA-1003"),
        ("Mpho Ndlovu", ""),
    ]);
    for backend in common::backends() {
        let (federation, token) = federation_with_publisher(backend);
        let officer = federation.user("registrar", Role::Admin);
        let mut api = federation.script_for(&officer);
        api.create(
            "/api/v1/people",
            json!({"name": "Thabo Nkosi", "federation_id": "ZA-1001", "club": "Soweto MSC"}),
        );
        let mut venue = federation.script(&token);
        let sent = venue.send_json(
            "PUT",
            "/api/v1/published/kSowetoOpen2026",
            json!({"revision": 5, "server": "Soweto Community Hall", "event": event}),
        );
        assert_eq!(sent.status, 200, "{}", sent.body);
        let answer = sent.json();
        assert_eq!(
            answer["people_linked"],
            json!(["Thabo Nkosi (ZA-1001)"]),
            "{answer}"
        );
        assert_eq!(
            answer["people_created"],
            json!(["Lerato Dlamini (ZA-1002)", "Sipho Mokoena (ZA-1003)"]),
            "{answer}"
        );
        assert_eq!(
            answer["entries_unlinked"],
            json!(["Mpho Ndlovu"]),
            "{answer}"
        );
        let rated = api.get("/api/v1/ratings").json();
        let rated: BTreeSet<&str> = rated["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["games"].as_u64().unwrap() > 0)
            .filter_map(|r| r["federation_id"].as_str())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        // Mpho's opponent's games against Mpho are not rated; the three
        // with ids played each other or Mpho: at least two of them rated.
        assert!(rated.len() >= 2, "{rated:?}");
        assert!(rated.iter().all(|f| f.starts_with("ZA-100")), "{rated:?}");
        // A newer revision links the same people again: no new person.
        let again = venue.send_json(
            "PUT",
            "/api/v1/published/kSowetoOpen2026",
            json!({"revision": 6, "server": "Soweto Community Hall", "event": event}),
        );
        assert_eq!(again.status, 200, "{}", again.body);
        assert_eq!(again.json()["people_created"], json!([]), "{}", again.body);
        let people = api.get("/api/v1/people?q=").json();
        assert_eq!(people["people"].as_array().unwrap().len(), 3, "{people}");
    }
}

/// Two venues publishing at the same moment, each with a player the
/// federation does not know yet: one person, no error, 10 times over.
#[test]
fn two_publications_making_the_same_person_at_once_make_one() {
    let a =
        venue_event_without_registry(&[("Themba Mthembu", "ZA-2001"), ("Nomsa Radebe", "ZA-2002")]);
    // The other venue lists them the other way round.
    let b =
        venue_event_without_registry(&[("Nomsa Radebe", "ZA-2002"), ("Themba Mthembu", "ZA-2001")]);
    for backend in common::backends() {
        let (federation, token) = federation_with_publisher(backend);
        for trial in 0..10 {
            let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
            let sends: Vec<_> = [&a, &b]
                .into_iter()
                .enumerate()
                .map(|(i, event)| {
                    let mut venue = federation.script(&token);
                    let barrier = barrier.clone();
                    let body =
                        json!({"revision": 1, "server": format!("Venue {i}"), "event": event});
                    std::thread::spawn(move || {
                        barrier.wait();
                        venue.send_json(
                            "PUT",
                            &format!("/api/v1/published/kTrial{trial}v{i}"),
                            body,
                        )
                    })
                })
                .collect();
            for s in sends {
                let r = s.join().unwrap();
                assert_eq!(r.status, 200, "trial {trial} ({backend}): {}", r.body);
            }
        }
        let people = federation.client().get("/api/v1/people?q=").json();
        let fids: Vec<&str> = people["people"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p["federation_id"].as_str())
            .collect();
        assert_eq!(fids.len(), 2, "one person each ({backend}): {people}");
    }
}

/// The People page's pull: the federation's list in, by federation id;
/// with the federation's server down it says so and changes nothing; a
/// private address is refused unless the admin allows it.
#[test]
fn the_people_page_pulls_the_list_and_says_when_the_network_is_down() {
    let (federation_db, _) = federation_with_publisher("sqlite");
    let officer = federation_db.user("registrar", Role::Admin);
    let mut page = federation_db.client_as(&officer);
    let csv = "name,federation_id,club,rating,rd,volatility,period\nThabo Nkosi,ZA-1001,Soweto MSC,1842,62,0.058,2026-08\nLerato Dlamini,ZA-1002,Orlando MSC,,,,\n";
    assert_eq!(page.post("/people/import", &[("csv", csv)]).status, 200);
    let federation = Served::start(&federation_db.database_url, |_| {});

    let venue_db = TestApp::start("sqlite");
    let referee = venue_db.user("palesa", Role::Referee);
    let count = |app: &TestApp| kraal::db::people::count(&mut app.conn()).unwrap();

    // The federation's server is off: a port nobody listens on.
    let down = format!("http://127.0.0.1:{}", free_port());
    let venue = Served::start(&venue_db.database_url, |c| {
        c.args(["--federation-url", &down, "--publish-allow-private"]);
    });
    let mut at_venue = venue_db.client_as(&referee);
    at_venue.base = venue.base.clone();
    let people_page = at_venue.get("/people").body;
    assert!(
        people_page.contains("action=\"/people/pull#pull-list\""),
        "{people_page}"
    );
    let failed = at_venue.post("/people/pull", &[]);
    assert_eq!(failed.status, 502, "{}", failed.body);
    assert!(
        failed.body.contains("id=\"pull-failed\""),
        "{}",
        failed.body
    );
    assert!(failed.body.contains("did not answer"), "{}", failed.body);
    assert_eq!(count(&venue_db), 0, "nothing changed");
    drop(venue);

    // A loopback address without the admin's word is refused.
    let venue = Served::start(&venue_db.database_url, |c| {
        c.args(["--federation-url", &federation.base]);
    });
    at_venue.base = venue.base.clone();
    let refused = at_venue.post("/people/pull", &[]);
    assert_eq!(refused.status, 502, "{}", refused.body);
    assert!(refused.body.contains("private network"), "{}", refused.body);
    assert_eq!(count(&venue_db), 0, "nothing changed");
    drop(venue);

    let venue = Served::start(&venue_db.database_url, |c| {
        c.args([
            "--federation-url",
            &federation.base,
            "--publish-allow-private",
        ]);
    });
    at_venue.base = venue.base.clone();
    let pulled = at_venue.post("/people/pull", &[]);
    assert_eq!(pulled.status, 200, "{}", pulled.body);
    assert!(pulled.body.contains("added 2 people"), "{}", pulled.body);
    assert_eq!(count(&venue_db), 2);
    // Pulled again, nothing changes.
    let again = at_venue.post("/people/pull", &[]);
    assert!(
        again.body.contains("(2 people unchanged)"),
        "{}",
        again.body
    );
    // Entering the person by federation id takes the federation's rating.
    let mut api = venue_db.script_for(&referee);
    let tid = api.create(
        "/api/v1/tournaments",
        json!({"name": "Soweto Open", "rules": "official", "rounds": 3}),
    )["id"]
        .as_i64()
        .unwrap();
    let mut form = venue_db.client_as(&referee);
    form.base = venue.base.clone();
    let added = form.post(&format!("/t/{tid}/players"), &[("person", "za-1001")]);
    assert_eq!(added.status, 303, "{}", added.body);
    let players = at_venue.get(&format!("/t/{tid}/players.csv")).body;
    let thabo = players.lines().find(|l| l.contains("Thabo Nkosi")).unwrap();
    assert!(thabo.split(',').any(|c| c == "1842"), "{players}");
}

/// The data-health page lists, for an admin, what would make the lists
/// wrong, each line linking to where it is fixed; the API says the same.
#[test]
fn the_data_health_page_lists_what_would_make_the_lists_wrong() {
    use diesel::RunQueryDsl;
    let event = venue_event_without_registry(&[("Thabo Nkosi", "ZA-1001"), ("Mpho Ndlovu", "")]);
    for backend in common::backends() {
        let (app, token) = federation_with_publisher(backend);
        let officer = app.user("federation-officer", Role::Admin);
        let referee = app.user("palesa", Role::Referee);
        let mut api = app.script_for(&officer);
        let clean = api.get("/api/v1/health/data").json();
        assert_eq!(clean["clean"], true, "{clean}");
        let page = app.client_as(&officer).get("/admin/health").body;
        assert!(page.contains("data-health=\"clean\""), "{page}");

        // A rated event of this server with a player without an id.
        let (own, _) = common::api_tournament(
            &mut api,
            json!({"name": "Mangaung Open", "rules": "official", "rounds": 3}),
            &[
                json!({"name": "Lerato Dlamini", "club": "Orlando MSC", "federation_id": "ZA-1002"}),
                json!({"name": "Kabelo Mokoena", "club": "Tembisa MSC"}),
            ],
        );
        common::pair(&mut api, own);
        // A round dated in the 11th century, as stored before dates were
        // checked.
        diesel::sql_query(format!(
            "UPDATE rounds SET played_on = '1066-10-14' WHERE tournament_id = {own}"
        ))
        .execute(&mut *app.conn())
        .unwrap();
        // Two people who look like one, and a lower-case id left beside
        // its upper-case twin.
        for (name, fid) in [("Sipho Mokoena", "ZA-3001"), ("Sipho  mokoena", "ZA-3002")] {
            api.create(
                "/api/v1/people",
                json!({"name": name, "federation_id": fid, "born": 1988}),
            );
        }
        api.create(
            "/api/v1/people",
            json!({"name": "Refilwe Tau", "federation_id": "FX9"}),
        );
        diesel::sql_query(
            "INSERT INTO people (name, federation_id, club, created_at) VALUES ('R. Tau', 'fx9', '', '2026-11-01 10:00:00')",
        )
        .execute(&mut *app.conn())
        .unwrap();
        // A copy with a player who is nobody here, counted by a season,
        // then archived.
        let sent = app.script(&token).send_json(
            "PUT",
            "/api/v1/published/kMangaungCopy",
            json!({"revision": 3, "server": "Bloemfontein City Hall", "event": event}),
        );
        assert_eq!(sent.status, 200, "{}", sent.body);
        let copy = sent.json()["tournament"].as_i64().unwrap();
        let _ = copy;
        let (friendly, _) = common::api_tournament(
            &mut api,
            json!({"name": "Thaba Nchu Open", "rules": "official", "rounds": 3}),
            &[json!({"name": "Lerato Dlamini", "club": "Orlando MSC", "federation_id": "ZA-1002"})],
        );
        let season = api.create(
            "/api/v1/seasons",
            json!({"name": "Free State Grand Prix 2026", "events": [{"tournament": friendly}]}),
        )["id"]
            .as_i64()
            .unwrap();
        let archived = api.send_json(
            "PATCH",
            &format!("/api/v1/tournaments/{friendly}"),
            json!({"archived": true}),
        );
        assert_eq!(archived.status, 200, "{}", archived.body);
        // A visitor's season page names the archived event without a link
        // to its standings (a 404 for them); the officer still has one.
        let standings = format!("href=\"/t/{friendly}/standings\"");
        let seen = app.client().get(&format!("/seasons/{season}"));
        assert_eq!(seen.status, 200);
        assert!(
            common::has_attr(&seen.body, "data-archived", &friendly.to_string()),
            "{}",
            seen.body
        );
        assert!(!seen.body.contains(&standings), "{}", seen.body);
        assert_eq!(
            app.client().get(&format!("/t/{friendly}/standings")).status,
            404
        );
        let officers = app
            .client_as(&officer)
            .get(&format!("/seasons/{season}"))
            .body;
        assert!(officers.contains(&standings), "{officers}");
        assert!(!officers.contains("data-archived"), "{officers}");

        let h = api.get("/api/v1/health/data").json();
        assert_eq!(h["clean"], false);
        assert_eq!(
            h["without_federation_id"],
            json!([{"tournament": own, "name": "Mangaung Open", "entries": ["Kabelo Mokoena"]}]),
            "{h}"
        );
        let twins = &h["merge_candidates"][0];
        assert_eq!(
            (
                twins[0]["federation_id"].as_str(),
                twins[1]["federation_id"].as_str()
            ),
            (Some("ZA-3001"), Some("ZA-3002")),
            "{h}"
        );
        assert_eq!(h["rounds_outside"][0]["tournament"], own, "{h}");
        assert_eq!(h["rounds_outside"][0]["date"], "1066-10-14", "{h}");
        assert_eq!(
            h["unlinked_in_copies"][0]["entries"],
            json!(["Mpho Ndlovu"]),
            "{h}"
        );
        assert_eq!(
            h["seasons_with_archived_events"][0]["season"], season,
            "{h}"
        );
        assert_eq!(
            h["federation_id_collisions"][0]["federation_id"], "fx9",
            "{h}"
        );

        let mut admin_page = app.client_as(&officer);
        let page = admin_page.get("/admin/health").body;
        for (section, count) in [
            ("without-federation-id", 1),
            ("merge-candidates", 1),
            ("rounds-outside", 1),
            ("unlinked-in-copies", 1),
            ("seasons-with-archived", 1),
            ("federation-id-collisions", 1),
        ] {
            assert!(
                page.contains(&format!("id=\"{section}\" data-count=\"{count}\"")),
                "{section}: {page}"
            );
        }
        assert!(
            page.contains(&format!("href=\"/t/{own}/rounds/1\"")),
            "{page}"
        );
        // The merge button asks first, naming both people.
        let twin_b = twins[1]["person"].as_i64().unwrap();
        let twin_a = twins[0]["person"].as_i64().unwrap();
        let asked = admin_page.post(
            &format!("/people/{twin_b}/merge"),
            &[("into", &twin_a.to_string())],
        );
        assert_eq!(asked.status, 200, "{}", asked.body);
        assert!(
            asked.body.contains("id=\"confirm-merge\""),
            "{}",
            asked.body
        );
        // Only admins read it.
        assert_eq!(app.client_as(&referee).get("/admin/health").status, 403);
        assert_eq!(
            app.script_for(&referee).get("/api/v1/health/data").status,
            403
        );
    }
}

/// The federation's person with federation id `fid`, by the API.
fn person_with(api: &mut common::Client, fid: &str) -> i64 {
    let found = api.get(&format!("/api/v1/people?q={fid}")).json();
    found["people"][0]["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("{fid} in {found}"))
}

/// Thabo Nkosi has two records at the federation (ZA-3001 from a venue's
/// copy and a local league, ZA-3901 typed in error). A registrar who
/// referees neither event merges them: the league's entry moves, and the
/// league records it (its revision moves, its open pages hear it, its
/// trail says so, and so does the undo); the copy's entry follows its
/// venue, stays where it is, and the merge says it left it.
#[test]
fn a_merge_is_recorded_in_each_event_it_changes_and_leaves_copies_to_their_venue() {
    let event = venue_event_without_registry(&[
        ("Thabo Nkosi", "ZA-3001"),
        ("Lerato Dlamini", "ZA-3002"),
        ("Sipho Mokoena", "ZA-3003"),
        ("Mpho Ndlovu", "ZA-3004"),
    ]);
    for backend in common::backends() {
        let (federation, token) = federation_with_publisher(backend);
        let mut venue = federation.script(&token);
        let sent = venue.send_json(
            "PUT",
            "/api/v1/published/kSowetoOpen2026",
            json!({"revision": 1, "server": "Soweto Community Hall", "event": event}),
        );
        assert_eq!(sent.status, 200, "{}", sent.body);
        let copy = sent.json()["tournament"].as_i64().unwrap();
        let desk = federation.user("sizwe", Role::Referee);
        let mut api = federation.script_for(&desk);
        let thabo = person_with(&mut api, "ZA-3001");
        let others: Vec<i64> = ["ZA-3002", "ZA-3003", "ZA-3004"]
            .iter()
            .map(|f| person_with(&mut api, f))
            .collect();
        let league = common::people_round_robin(
            &mut api,
            "Gauteng Winter League",
            &[thabo, others[0], others[1], others[2]],
            "2026-07-11",
            |i, j| (i != j).then_some(i < j),
        );
        let error = api.create(
            "/api/v1/people",
            json!({"name": "Thabo Nkosi", "federation_id": "ZA-3901", "club": "Soweto MSC"}),
        )["id"]
            .as_i64()
            .unwrap();
        let entry_in = |app: &TestApp, tid: i64, person: i64| -> i64 {
            kraal::db::people::entries(&mut app.conn(), kraal::ids::PersonId(person as i32))
                .unwrap()
                .iter()
                .find(|e| i64::from(e.tournament_id) == tid)
                .map(|e| i64::from(e.player_id))
                .unwrap_or_else(|| panic!("person {person} in {tid}"))
        };
        let league_entry = entry_in(&federation, league, thabo);
        let copy_entry = entry_in(&federation, copy, thabo);
        let revision = |tid: i64| {
            kraal::db::tournaments::revision(
                &mut federation.conn(),
                kraal::ids::TournamentId(tid as i32),
            )
            .unwrap()
        };
        let trail = |tid: i64| {
            kraal::db::audit::of_tournament(
                &mut federation.conn(),
                kraal::ids::TournamentId(tid as i32),
            )
            .unwrap()
        };
        let (league_before, copy_before) = (revision(league), revision(copy));
        let copy_trail = trail(copy).len();

        let registrar = federation.user("registrar", Role::Referee);
        // The question marks the copy's entry as staying.
        let mut page = federation.client_as(&registrar);
        let ask = page.post(&format!("/people/{thabo}/merge"), &[("into", "ZA-3901")]);
        assert_eq!(ask.status, 200, "{}", ask.body);
        let copies = common::tag_with(&ask.body, "data-copy", "yes");
        assert_eq!(copies.len(), 1, "{}", ask.body);
        assert!(copies[0].contains(&format!("data-tournament=\"{copy}\"")));

        let mut stream = common::event_stream(&federation, league);
        assert!(common::read_event_until(
            &mut stream,
            &format!("data: {league_before}"),
            Duration::from_secs(20)
        ));
        let mut clerk = federation.script_for(&registrar);
        let merged = clerk.create(
            &format!("/api/v1/people/{thabo}/merge"),
            json!({"into": error}),
        );
        assert_eq!(merged["entries"], json!([league_entry]), "{merged}");
        assert_eq!(
            merged["left"],
            json!([{"player_id": copy_entry, "tournament_id": copy, "tournament": "Soweto Open"}]),
            "{merged}"
        );
        // The league: a new revision its open page hears, and the change
        // in its own trail, naming the entry and whom it now is.
        assert_eq!(revision(league), league_before + 1, "{backend}");
        assert!(common::read_event_until(
            &mut stream,
            &format!("data: {}", league_before + 1),
            Duration::from_secs(20)
        ));
        let said = trail(league);
        let change = said
            .iter()
            .find(|a| a.action == kraal::change::Action::Merge)
            .unwrap_or_else(|| panic!("{said:?}"));
        assert_eq!(change.entity, kraal::change::Entity::Player);
        assert_eq!(change.entity_id, Some(league_entry as i32));
        assert_eq!(change.user.as_deref(), Some("registrar"));
        assert_eq!(
            change.detail.person,
            Some(kraal::ids::PersonId(error as i32))
        );
        assert_eq!(entry_in(&federation, league, error), league_entry);
        // The copy: as the venue sent it.
        assert_eq!(revision(copy), copy_before, "{backend}");
        assert_eq!(trail(copy).len(), copy_trail, "{backend}");
        assert_eq!(entry_in(&federation, copy, thabo), copy_entry);

        // The undo is the league's change too.
        let undone = clerk.send_json(
            "DELETE",
            &format!("/api/v1/merges/{}", merged["id"]),
            json!({}),
        );
        assert_eq!(undone.status, 200, "{}", undone.body);
        assert_eq!(revision(league), league_before + 2, "{backend}");
        assert!(trail(league)
            .iter()
            .any(|a| a.action == kraal::change::Action::Unmerge
                && a.entity_id == Some(league_entry as i32)));
        assert_eq!(entry_in(&federation, league, thabo), league_entry);
        assert_eq!(revision(copy), copy_before, "{backend}");
    }
}

/// The venue's registry keeps two players who have no federation id. Five
/// revisions of its event published to the federation make each of them
/// one person there, at the first revision, found again at every later
/// one by the venue's own id for them within the event's origin; their
/// entries are that person every time. A file of before that id, whose
/// people entry has no federation id, adds nobody.
#[test]
fn a_venue_person_without_a_federation_id_is_one_person_across_revisions() {
    let venue = TestApp::start("sqlite");
    let referee = venue.user("palesa", Role::Referee);
    let mut at_venue = venue.script_for(&referee);
    let people: Vec<i64> = [
        json!({"name": "Thabo Nkosi", "federation_id": "ZA-4001", "club": "Soweto MSC"}),
        json!({"name": "Lerato Dlamini", "federation_id": "ZA-4002", "club": "Alexandra MC"}),
        json!({"name": "Mpho Ndlovu", "club": "Tembisa MC", "born": 2009}),
        json!({"name": "Kagiso Molefe", "club": "Diepsloot MC"}),
    ]
    .into_iter()
    .map(|p| at_venue.create("/api/v1/people", p)["id"].as_i64().unwrap())
    .collect();
    let tid = common::people_round_robin(
        &mut at_venue,
        "Soweto Open",
        &people,
        &chrono::Utc::now().date_naive().to_string(),
        |i, j| (i != j).then_some(i < j),
    );
    let file =
        kraal::db::event::export(&mut venue.conn(), kraal::ids::TournamentId(tid as i32)).unwrap();
    let event = serde_json::to_value(&file).unwrap();
    let carried: Vec<(Option<i32>, &str)> = file
        .people
        .iter()
        .map(|r| (r.person, r.federation_id.as_str()))
        .collect();
    assert_eq!(carried.len(), 4, "{carried:?}");
    for backend in common::backends() {
        let (federation, token) = federation_with_publisher(backend);
        let mut send = federation.script(&token);
        let count = || kraal::db::people::count(&mut federation.conn()).unwrap();
        let person_of = |copy: i64, name: &str| -> Option<i32> {
            kraal::db::players::list(
                &mut federation.conn(),
                kraal::ids::TournamentId(copy as i32),
            )
            .unwrap()
            .iter()
            .find(|p| p.name == name)
            .and_then(|p| p.person_id.map(|id| id.0))
        };
        let mut seen: Option<(i32, i32)> = None;
        for revision in 1..=5 {
            let sent = send.send_json(
                "PUT",
                "/api/v1/published/kSowetoOpen2026",
                json!({"revision": revision, "server": "Soweto Community Hall", "event": event}),
            );
            assert_eq!(sent.status, 200, "{}", sent.body);
            let answer = sent.json();
            let copy = answer["tournament"].as_i64().unwrap();
            if revision == 1 {
                let mut made: Vec<&str> = answer["people_created"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|n| n.as_str().unwrap())
                    .collect();
                made.sort_unstable();
                assert_eq!(
                    made,
                    [
                        "Kagiso Molefe",
                        "Lerato Dlamini (ZA-4002)",
                        "Mpho Ndlovu",
                        "Thabo Nkosi (ZA-4001)"
                    ],
                    "{answer}"
                );
            } else {
                assert_eq!(answer["people_created"], json!([]), "{answer}");
            }
            assert_eq!(answer["entries_unlinked"], json!([]), "{answer}");
            assert_eq!(count(), 4, "revision {revision} ({backend})");
            let now = (
                person_of(copy, "Mpho Ndlovu").unwrap(),
                person_of(copy, "Kagiso Molefe").unwrap(),
            );
            assert_eq!(*seen.get_or_insert(now), now, "revision {revision}");
        }
        let mpho = federation
            .client()
            .get(&format!("/api/v1/people/{}", seen.unwrap().0))
            .json();
        assert_eq!(mpho["name"], "Mpho Ndlovu");
        assert_eq!(mpho["born"], 2009);
        assert_eq!(mpho["federation_id"], Value::Null);

        // A version 4 file: its person without a federation id carries no
        // id of the venue's, and nothing here can tell them apart.
        let mut old = event.clone();
        old["version"] = json!(4);
        for r in old["people"].as_array_mut().unwrap() {
            r.as_object_mut().unwrap().remove("person");
        }
        for revision in 1..=5 {
            let sent = send.send_json(
                "PUT",
                "/api/v1/published/kSowetoOpen2026old",
                json!({"revision": revision, "server": "Soweto Community Hall", "event": old}),
            );
            assert_eq!(sent.status, 200, "{}", sent.body);
            let answer = sent.json();
            assert_eq!(
                answer["entries_unlinked"],
                json!(["Mpho Ndlovu", "Kagiso Molefe"]),
                "{answer}"
            );
            assert_eq!(count(), 4, "revision {revision} ({backend})");
        }
    }
}

/// What a form or the API refuses, an event file is refused too, by
/// `kraal import event` and `PUT /api/v1/published/{origin}` alike, naming
/// the place in the file; nothing is stored.
#[test]
fn an_event_file_is_held_to_the_checks_of_every_other_way_in() {
    let event = venue_event_without_registry(&[
        ("Thabo Nkosi", "ZA-5001"),
        ("Lerato Dlamini", "ZA-5002"),
        ("Sipho Mokoena", "ZA-5003"),
        ("Mpho Ndlovu", "ZA-5004"),
    ]);
    let game = event["games"][0]["id"].clone();
    let first = event["players"][0]["id"].clone();
    let second = event["players"][1]["id"].clone();
    let at = event["exported_at"].clone();
    let record = |text: String| {
        json!({"id": 1, "game_id": game, "side": "dark", "text": text, "rules": "official",
               "error": null, "submitted_by": null, "by_link": false,
               "submitted_at": at, "superseded_at": null})
    };
    let person = |name: &str, born: i64| {
        json!([{"player": first, "person": 7, "federation_id": "ZA-5001",
                "name": name, "club": "Soweto MSC", "born": born}])
    };
    let big = format!("[Rules \"official\"]\n\n{}", "1. a1 g7 ".repeat(120_000));
    let cases: Vec<(&str, &str, Value)> = vec![
        (
            "a 1 MB record",
            "scoresheets[0].text",
            json!({"scoresheets": [record(big)]}),
        ),
        (
            "an empty record",
            "scoresheets[0].text",
            json!({"scoresheets": [record("  ".into())]}),
        ),
        (
            "born in 3000",
            "people[0].born",
            json!({"people": person("Thabo Nkosi", 3000)}),
        ),
        (
            "born in 1850",
            "people[0].born",
            json!({"people": person("Thabo Nkosi", 1850)}),
        ),
        (
            "a name of 101 letters",
            "people[0].name",
            json!({"people": person(&"T".repeat(101), 1990)}),
        ),
        (
            "a waiver without its reason",
            "forbidden_pairs[0].note",
            json!({"forbidden_pairs": [{"id": 1, "tournament_id": event["tournament"]["id"],
                "player_a": first, "player_b": second, "from_round": null, "to_round": null,
                "waived": true, "note": " ", "created_by": null, "created_at": at}]}),
        ),
        (
            "another result without a reason",
            "rulings[0].reason",
            json!({"rulings": [{"id": 1, "game_id": game, "kind": "other", "result": "1-0",
                "reason": "", "ruled_by": null, "ruled_at": at}]}),
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for backend in common::backends() {
        let (federation, token) = federation_with_publisher(backend);
        let mut send = federation.script(&token);
        for (what, place, change) in &cases {
            let mut file = event.clone();
            for (k, v) in change.as_object().unwrap() {
                file[k] = v.clone();
            }
            let sent = send.send_json(
                "PUT",
                "/api/v1/published/kSowetoOpen2026",
                json!({"revision": 1, "server": "Soweto Community Hall", "event": file}),
            );
            assert_eq!(
                sent.status,
                422,
                "{what} ({backend}): {}",
                &sent.body[..sent.body.len().min(300)]
            );
            let said = sent.json();
            assert_eq!(said["field"], "file", "{what}: {said}");
            assert_eq!(said["code"], "in_file", "{what} ({backend}): {said}");
            let at = said["params"]["at"].as_str().unwrap_or_default();
            assert!(
                !at.is_empty() && place.starts_with(at),
                "{what} ({backend}): {said} should name {place}"
            );
            let path = dir.path().join("event.json");
            std::fs::write(&path, serde_json::to_string(&file).unwrap()).unwrap();
            let (code, _, err) = common::cli::kraal(&["import", "event", path.to_str().unwrap()])
                .database_url(&federation.database_url)
                .run();
            assert_ne!(code, 0, "{what} ({backend}) is refused");
            assert!(
                err.contains(place),
                "{what} ({backend}): {err} should name {place}"
            );
            assert!(
                kraal::db::tournaments::list(&mut federation.conn())
                    .unwrap()
                    .is_empty(),
                "{what} ({backend}): nothing stored"
            );
        }
        // The same file with a record and a person as the forms take them
        // is stored.
        let mut file = event.clone();
        file["scoresheets"] = json!([record("[Rules \"official\"]\n\n1. a1 g7".into())]);
        file["people"] = person("Thabo Nkosi", 1990);
        let sent = send.send_json(
            "PUT",
            "/api/v1/published/kSowetoOpen2026",
            json!({"revision": 1, "server": "Soweto Community Hall", "event": file}),
        );
        assert_eq!(sent.status, 200, "{backend}: {}", sent.body);
    }
}

/// The admin names the federation's server on the Users page, checked as
/// every outbound address is: a query or another scheme is refused naming
/// the field, and what was typed stays in the form.
#[test]
fn the_admin_names_the_federation_server_and_a_bad_address_is_refused() {
    for app in TestApp::all() {
        let officer = app.user("officer", Role::Admin);
        let mut page = app.client_as(&officer);
        for bad in [
            "ftp://ratings.example.org",
            "https://ratings.example.org/list?x=1",
        ] {
            let refused = page.post("/admin/federation", &[("url", bad)]);
            assert_eq!(refused.status, 422, "{}", refused.body);
            assert!(
                refused.body.contains("data-error-field=\"url\""),
                "{}",
                refused.body
            );
            assert!(
                refused.body.contains(&format!("value=\"{bad}\"")),
                "{}",
                refused.body
            );
        }
        let named = page.post(
            "/admin/federation",
            &[("url", "https://ratings.example.org/")],
        );
        assert_eq!(named.status, 303, "{}", named.body);
        let users = page.get("/admin/users").body;
        assert!(
            users.contains("value=\"https://ratings.example.org\""),
            "{users}"
        );
        let people = page.get("/people").body;
        assert!(
            people.contains("<strong>https://ratings.example.org</strong>"),
            "{people}"
        );
        let audit = kraal::db::audit::count(&mut app.conn(), None).unwrap();
        assert!(audit > 0, "the setting is recorded");
    }
}

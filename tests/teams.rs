//! Team events run over HTTP as a referee and captains would: a double
//! round-robin league whose standings are checked against a table worked
//! out by hand, a team Swiss, line-ups with substitutes under OGR 10.3.1,
//! and the captains' links.

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::{HashMap, HashSet};

use common::{Client, TestApp};
use kraal::db::users::Role;
use serde_json::{json, Value};

const CLUBS: &[&str] = &[
    "Soweto MC",
    "Tembisa MC",
    "Mamelodi MC",
    "Alexandra MC",
    "Kagiso MC",
    "Katlehong MC",
    "Daveyton MC",
    "Atteridgeville MC",
    "Orlando MC",
    "Diepsloot MC",
    "Sebokeng MC",
    "Evaton MC",
];
const FIRST: &[&str] = &[
    "Thabo", "Sipho", "Lerato", "Zanele", "Bheki", "Nomsa", "Kagiso", "Ayanda", "Palesa", "Tumelo",
];
const LAST: &[&str] = &[
    "Nkosi",
    "Dlamini",
    "Mokoena",
    "Khumalo",
    "Zulu",
    "Ndlovu",
    "Molefe",
    "Shabalala",
    "Sithole",
];

/// A team event with `teams` teams of four and one substitute each,
/// entered through the API. Returns the script client, the tournament id,
/// the team ids (in the order given) and each player's team.
fn league(
    app: &TestApp,
    admin: &kraal::db::users::User,
    body: Value,
    names: &[&str],
) -> (Client, i64, Vec<i64>, HashMap<i64, i64>) {
    let mut api = app.script_for(admin);
    let tid = api.create("/api/v1/tournaments", body)["id"]
        .as_i64()
        .unwrap();
    let mut team_ids = Vec::new();
    let mut team_of = HashMap::new();
    for (t, name) in names.iter().enumerate() {
        let club = CLUBS[t % CLUBS.len()];
        let ids: Vec<i64> = (0..5)
            .map(|k| {
                let n = t * 5 + k;
                api.create(
                    &format!("/api/v1/tournaments/{tid}/players"),
                    json!({
                        "name": format!("{} {} {}", FIRST[n % FIRST.len()], LAST[n % LAST.len()], n + 1),
                        "club": club,
                        "rating": 1800 - 7 * n as i64,
                    }),
                )["id"]
                    .as_i64()
                    .unwrap()
            })
            .collect();
        let team = api.create(
            &format!("/api/v1/tournaments/{tid}/teams"),
            json!({"name": name, "club": club, "members": &ids[..4], "substitutes": [ids[4]]}),
        );
        assert_eq!(team["members"], json!(&ids[..4]));
        assert_eq!(team["substitutes"], json!([ids[4]]));
        let id = team["id"].as_i64().unwrap();
        for p in ids {
            team_of.insert(p, id);
        }
        team_ids.push(id);
    }
    (api, tid, team_ids, team_of)
}

/// Pairs and publishes the next round; its matches.
fn pair_matches(api: &mut Client, tid: i64) -> Vec<Value> {
    let r = api.send_json(
        "POST",
        &format!("/api/v1/tournaments/{tid}/rounds"),
        json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["matches"].as_array().unwrap().clone()
}

/// Plays a match so that `team` scores `points` of its 8 game points: it
/// wins its games in board order, with one draw for a half.
fn play_match(api: &mut Client, m: &Value, team: i64, points: f64, team_of: &HashMap<i64, i64>) {
    let mut wins = points.floor() as usize;
    let mut draw = points.fract() > 0.0;
    for board in m["boards"].as_array().unwrap() {
        for g in board["games"].as_array().unwrap() {
            let starter_is_first = g["first_started"].as_bool().unwrap();
            let starter = if starter_is_first {
                &board["first_id"]
            } else {
                &board["second_id"]
            };
            let ours = team_of[&starter.as_i64().unwrap()] == team;
            let result = if wins > 0 {
                wins -= 1;
                if ours {
                    "1-0"
                } else {
                    "0-1"
                }
            } else if draw {
                draw = false;
                "1/2-1/2"
            } else if ours {
                "0-1"
            } else {
                "1-0"
            };
            common::put(api, g, result);
        }
    }
}

fn standings(app: &TestApp, tid: i64) -> Vec<(String, f64, Value)> {
    let s = app
        .client()
        .get(&format!("/api/v1/tournaments/{tid}/standings"))
        .json();
    s["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_string(),
                r["points"].as_f64().unwrap(),
                r["separated_by"].clone(),
            )
        })
        .collect()
}

/// Six teams, a double round robin of two-game boards ranked by match
/// points, with results chosen so that the standings hold every kind of
/// tie OGR 10.6 and Kraal's tiebreak order must settle. Worked by hand:
///
/// After the first cycle (round 5): A 10; C, D, E 6 each, and they beat
/// each other in a cycle (C>D, D>E, E>C), so head-to-head leaves them
/// level and game points decide: C 22, E 21½, D 21; B 2; F 0.
///
/// After round 10: A 20; C, D, E 10 each, whose mini-league over both
/// cycles gives C 6, D 4, E 2; B and F 5 each, B ahead by their two
/// matches (a win and a draw: 3 to 1).
#[test]
fn a_double_league_ranks_by_points_then_head_to_head_then_game_points() {
    for app in TestApp::all() {
        let admin = app.user("director", Role::Admin);
        let names = [
            "A Soweto",
            "B Tembisa",
            "C Mamelodi",
            "D Alexandra",
            "E Kagiso",
            "F Katlehong",
        ];
        let (mut api, tid, ids, team_of) = league(
            &app,
            &admin,
            json!({"name": "Gauteng Club League", "system": "team_league", "rules": "official",
                   "rounds": 10, "ranking": "match_points"}),
            &names,
        );
        let letter: HashMap<i64, char> = ids
            .iter()
            .zip("ABCDEF".chars())
            .map(|(&id, c)| (id, c))
            .collect();
        // (winner or first, other, first's game points of 8), per cycle.
        let cycle1: &[(char, char, f64)] = &[
            ('A', 'B', 5.0),
            ('A', 'C', 5.0),
            ('A', 'D', 5.0),
            ('A', 'E', 5.0),
            ('A', 'F', 5.0),
            ('B', 'F', 5.0),
            ('C', 'D', 6.0),
            ('D', 'E', 5.0),
            ('E', 'C', 5.0),
            ('C', 'B', 5.0),
            ('D', 'B', 5.0),
            ('E', 'B', 6.0),
            ('C', 'F', 5.0),
            ('D', 'F', 6.0),
            ('E', 'F', 4.5),
        ];
        let cycle2: &[(char, char, f64)] = &[
            ('A', 'B', 5.0),
            ('A', 'C', 5.0),
            ('A', 'D', 5.0),
            ('A', 'E', 5.0),
            ('A', 'F', 5.0),
            ('C', 'D', 5.0),
            ('C', 'E', 5.0),
            ('D', 'E', 5.0),
            ('B', 'C', 5.0),
            ('F', 'C', 5.0),
            ('B', 'F', 4.0),
            ('D', 'B', 5.0),
            ('F', 'D', 5.0),
            ('E', 'B', 5.0),
            ('E', 'F', 5.0),
        ];
        let mut met: HashMap<(char, char), usize> = HashMap::new();
        for round in 1..=10 {
            let matches = pair_matches(&mut api, tid);
            assert_eq!(matches.len(), 3, "six teams make three matches");
            for m in &matches {
                let a = letter[&m["first_team_id"].as_i64().unwrap()];
                let b = letter[&m["second_team_id"].as_i64().unwrap()];
                let key = (a.min(b), a.max(b));
                *met.entry(key).or_default() += 1;
                let table = if round <= 5 { cycle1 } else { cycle2 };
                let &(x, _, points) = table
                    .iter()
                    .find(|(x, y, _)| (x.min(y), x.max(y)) == (&key.0, &key.1))
                    .unwrap();
                let x_id = *ids.iter().find(|id| letter[id] == x).unwrap();
                play_match(&mut api, m, x_id, points, &team_of);
            }
            if round == 5 {
                assert!(
                    met.values().all(|&n| n == 1),
                    "every pair meets once per cycle"
                );
                let s = standings(&app, tid);
                let got: Vec<(&str, f64, &Value)> =
                    s.iter().map(|(n, p, by)| (&n[..1], *p, by)).collect();
                assert_eq!(
                    got,
                    vec![
                        ("A", 10.0, &Value::Null),
                        ("C", 6.0, &json!("score")),
                        ("E", 6.0, &json!("game_points")),
                        ("D", 6.0, &json!("game_points")),
                        ("B", 2.0, &json!("score")),
                        ("F", 0.0, &json!("score")),
                    ],
                    "[{}] after the first cycle",
                    app.backend
                );
            }
        }
        assert!(met.values().all(|&n| n == 2), "a double league meets twice");
        let s = standings(&app, tid);
        let got: Vec<(&str, f64, &Value)> = s.iter().map(|(n, p, by)| (&n[..1], *p, by)).collect();
        assert_eq!(
            got,
            vec![
                ("A", 20.0, &Value::Null),
                ("C", 10.0, &json!("score")),
                ("D", 10.0, &json!("direct_encounter")),
                ("E", 10.0, &json!("direct_encounter")),
                ("B", 5.0, &json!("score")),
                ("F", 5.0, &json!("direct_encounter")),
            ],
            "[{}] final standings",
            app.backend
        );
        let full = app
            .client()
            .get(&format!("/api/v1/tournaments/{tid}/standings"))
            .json();
        let a = &full["standings"][0];
        assert_eq!(a["team"], json!(ids[0]));
        assert_eq!(a["match_points"], json!(20));
        assert_eq!(a["game_points"], json!(50));
        assert_eq!(a["tiebreaks"]["direct_encounter"], json!(0));

        // The CSV a federation downloads has the same order.
        let csv = app.client().get(&format!("/t/{tid}/standings.csv")).body;
        let lines: Vec<&str> = csv.lines().collect();
        assert!(
            lines[0].starts_with(
                "Rank,Name,Club,Matches played,Points,Direct encounter,Game points,Board 1 points"
            ),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].starts_with("1,A Soweto,Soweto MC,10,20,"),
            "{}",
            lines[1]
        );
        assert!(
            lines[4].starts_with("4,E Kagiso,Kagiso MC,10,10,2,"),
            "{}",
            lines[4]
        );

        // The round's match results as CSV: one line per match.
        let matches = app
            .client()
            .get(&format!("/t/{tid}/rounds/10/matches.csv"))
            .body;
        assert_eq!(matches.lines().count(), 4, "{matches}");
        assert!(matches
            .lines()
            .next()
            .unwrap()
            .starts_with("round,match,first_team,second_team,result"));

        // The pages a player opens.
        let page = app.client().get(&format!("/t/{tid}/standings")).body;
        assert!(
            page.contains(&format!("/t/{tid}/teams/{}", ids[0])),
            "standings link teams"
        );
        let round = app.client().get(&format!("/t/{tid}/rounds/10")).body;
        assert!(common::has_attr(&round, "data-match", "1"), "{round}");
        let cross = app.client().get(&format!("/t/{tid}/crosstable")).body;
        assert!(
            cross.contains(&format!("/t/{tid}/teams/{}\">A Soweto", ids[0])),
            "{cross}"
        );
        // Every one of A's matches was won 5-3; a cell gives the match score.
        assert!(
            cross.contains("<strong>W</strong> <span class=\"pts\">5-3</span>"),
            "{cross}"
        );
        let (code, out, err) = common::cli::kraal(&["export", "standings", &tid.to_string()])
            .database_url(&app.database_url)
            .run();
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, csv, "kraal export standings prints the team standings");
    }
}

#[test]
fn a_team_swiss_never_pairs_two_teams_twice_and_each_player_plays_one_board() {
    for app in TestApp::all() {
        let admin = app.user("director", Role::Admin);
        let names: Vec<String> = CLUBS.iter().map(|c| c.replace(" MC", "")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let (mut api, tid, _, team_of) = league(
            &app,
            &admin,
            json!({"name": "National Team Swiss", "system": "team_swiss", "rules": "official", "rounds": 5}),
            &names,
        );
        let mut seen: HashSet<(i64, i64)> = HashSet::new();
        let mut seed: u64 = 7;
        for round in 1..=5 {
            let matches = pair_matches(&mut api, tid);
            assert_eq!(matches.len(), 6, "12 teams make 6 matches");
            let mut teams_this_round = HashSet::new();
            for m in &matches {
                let a = m["first_team_id"].as_i64().unwrap();
                let b = m["second_team_id"].as_i64().unwrap();
                assert!(teams_this_round.insert(a) && teams_this_round.insert(b));
                assert!(
                    seen.insert((a.min(b), a.max(b))),
                    "[{}] round {round}: teams {a} and {b} meet again",
                    app.backend
                );
                let boards = m["boards"].as_array().unwrap();
                assert_eq!(boards.len(), 4);
                let mut players = HashSet::new();
                for (k, board) in boards.iter().enumerate() {
                    assert_eq!(board["board"], json!(k + 1));
                    let (f, s) = (
                        board["first_id"].as_i64().unwrap(),
                        board["second_id"].as_i64().unwrap(),
                    );
                    assert!(
                        players.insert(f) && players.insert(s),
                        "a player plays one board per match"
                    );
                    let mut sides = [team_of[&f], team_of[&s]];
                    sides.sort_unstable();
                    let mut want = [a, b];
                    want.sort_unstable();
                    assert_eq!(sides, want, "board {} pits the two teams", k + 1);
                    // OGR 10.4: board k meets board k, teams alternate who starts.
                    assert_eq!(team_of[&f], if k % 2 == 0 { a } else { b });
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let points = [2.0, 3.0, 4.0, 4.5, 5.0, 6.0][(seed >> 33) as usize % 6];
                play_match(&mut api, m, a, points, &team_of);
            }
            assert_eq!(teams_this_round.len(), 12);
        }
        let s = standings(&app, tid);
        assert_eq!(s.len(), 12);
        let ranked: HashSet<&str> = s.iter().map(|(n, _, _)| n.as_str()).collect();
        assert_eq!(
            ranked,
            names.iter().copied().collect(),
            "every team is ranked once"
        );
        assert!(s.windows(2).all(|w| w[0].1 >= w[1].1), "ranked by points");
    }
}

/// The round's match of team `team`, and which side it is.
fn match_of(app: &TestApp, tid: i64, n: i64, team: i64) -> Value {
    let round = app
        .client()
        .get(&format!("/api/v1/tournaments/{tid}/rounds/{n}"))
        .json();
    round["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["first_team_id"] == json!(team) || m["second_team_id"] == json!(team))
        .unwrap()
        .clone()
}

/// Who plays boards 1-4 for `team`.
fn boards_of(m: &Value, team: i64, team_of: &HashMap<i64, i64>) -> Vec<i64> {
    m["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let f = b["first_id"].as_i64().unwrap();
            if team_of[&f] == team {
                f
            } else {
                b["second_id"].as_i64().unwrap()
            }
        })
        .collect()
}

#[test]
fn a_substitute_comes_in_before_the_board_starts_and_not_after() {
    for app in TestApp::all() {
        let admin = app.user("director", Role::Admin);
        let (mut api, tid, ids, team_of) = league(
            &app,
            &admin,
            json!({"name": "Limpopo Team League", "system": "team_league", "rules": "official", "rounds": 3}),
            &["Polokwane", "Tzaneen", "Thohoyandou", "Mokopane"],
        );
        pair_matches(&mut api, tid);
        let late = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/teams"),
            json!({"name": "Musina", "members": []}),
        );
        assert_eq!(late.status, 409, "{}", late.body);
        assert_eq!(
            late.json()["code"],
            "teams_after_round_one",
            "{}",
            late.body
        );
        let team = ids[0];
        let roster: Vec<i64> = team_of
            .iter()
            .filter(|(_, t)| **t == team)
            .map(|(p, _)| *p)
            .collect();
        let m = match_of(&app, tid, 1, team);
        let before = boards_of(&m, team, &team_of);
        let sub = *roster.iter().find(|p| !before.contains(p)).unwrap();
        let url = format!("/api/v1/tournaments/{tid}/rounds/1/lineups/{team}");

        // Before any board starts: the substitute replaces board 2.
        let lineup = vec![before[0], sub, before[2], before[3]];
        let r = api.send_json("PUT", &url, json!({ "boards": lineup }));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["changed"], json!([2]));
        let m = match_of(&app, tid, 1, team);
        assert_eq!(
            boards_of(&m, team, &team_of),
            lineup,
            "the board now names the substitute"
        );
        let board2 = &m["boards"][1];
        let starters: HashSet<i64> = board2["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                if g["first_started"] == json!(true) {
                    board2["first_id"].as_i64().unwrap()
                } else {
                    board2["second_id"].as_i64().unwrap()
                }
            })
            .collect();
        assert!(
            starters.contains(&sub),
            "the substitute starts the games the replaced player would have"
        );

        // Board 1 starts (a result): its player can no longer be replaced.
        common::put(&mut api, &m["boards"][0]["games"][0], "1-0");
        let swap = vec![before[1], sub, before[2], before[3]];
        let r = api.send_json("PUT", &url, json!({ "boards": swap }));
        assert_eq!(r.status, 409, "{}", r.body);
        assert_eq!(r.json()["code"], "board_started", "{}", r.body);
        assert_eq!(r.json()["params"]["board"], 1, "{}", r.body);
        assert_eq!(
            boards_of(&match_of(&app, tid, 1, team), team, &team_of),
            lineup,
            "nothing changed"
        );

        // The boards not started still can change: board 4 back to the roster player.
        let back = vec![before[0], before[1], before[2], before[3]];
        let r = api.send_json("PUT", &url, json!({ "boards": back }));
        assert_eq!(r.status, 200, "{}", r.body);

        // A player of another team, or three players: refused with the field named.
        let stranger = *team_of.iter().find(|(_, t)| **t == ids[1]).unwrap().0;
        let r = api.send_json(
            "PUT",
            &url,
            json!({ "boards": [before[0], stranger, before[2], before[3]] }),
        );
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(r.json()["field"], "boards");
        assert_eq!(r.json()["code"], "not_on_roster", "{}", r.body);
        assert_eq!(r.json()["params"]["board"], 2, "{}", r.body);
        let r = api.send_json(
            "PUT",
            &url,
            json!({ "boards": [before[0], before[1], before[2]] }),
        );
        assert_eq!(r.status, 422, "{}", r.body);
        let r = api.send_json(
            "PUT",
            &url,
            json!({ "boards": [before[0], before[0], before[2], before[3]] }),
        );
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(r.json()["code"], "two_boards", "{}", r.body);

        // Every change is in the audit trail.
        let audit = app.client_as(&admin).get(&format!("/t/{tid}/audit")).body;
        assert!(audit.matches("line-up").count() >= 2, "{audit}");
    }
}

#[test]
fn a_captains_link_sets_the_line_up_until_the_boards_start() {
    for app in TestApp::all() {
        let admin = app.user("director", Role::Admin);
        let (mut api, tid, ids, team_of) = league(
            &app,
            &admin,
            json!({"name": "Free State Team League", "system": "team_league", "rules": "official", "rounds": 3}),
            &["Bloemfontein", "Welkom", "Bethlehem", "Sasolburg"],
        );
        let mut referee = app.client_as(&admin);
        let team = ids[2];
        let page = referee.get(&format!("/t/{tid}/teams/{team}"));
        assert_eq!(
            common::attr_values(&page.body, "data-captain-link"),
            ["none"],
            "{}",
            page.body
        );
        let link = captain_link(&mut referee, tid, team);
        // Shown once: the team's page no longer holds it, and the
        // database keeps only its digest.
        let page = referee.get(&format!("/t/{tid}/teams/{team}"));
        assert!(!page.body.contains(&link), "{}", page.body);
        assert_eq!(
            common::attr_values(&page.body, "data-captain-link"),
            ["kept"],
            "{}",
            page.body
        );
        let stored = kraal::db::teams::find(
            &mut app.conn(),
            kraal::ids::TournamentId(tid as i32),
            kraal::ids::TeamId(team as i32),
        )
        .unwrap()
        .captain_digest
        .unwrap();
        let secret = link.rsplit('/').next().unwrap();
        assert_ne!(stored, secret);
        assert_eq!(stored, kraal::accounts::token_digest(secret));
        let mut captain = app.client();
        let page = captain.get(&link);
        assert_eq!(page.status, 200);
        assert_eq!(
            common::attr_values(&page.body, "data-round"),
            [""],
            "no round yet: {}",
            page.body
        );

        pair_matches(&mut api, tid);
        let page = captain.get(&link);
        assert_eq!(page.status, 200);
        assert_eq!(
            page.headers.get("cache-control").map(String::as_str),
            Some("no-store")
        );
        assert_eq!(
            common::attr_values(&page.body, "data-round"),
            ["1"],
            "{}",
            page.body
        );
        assert!(page.body.contains("Bethlehem"), "{}", page.body);
        let before = boards_of(&match_of(&app, tid, 1, team), team, &team_of);
        let sub = *team_of
            .iter()
            .find(|(p, t)| **t == team && !before.contains(p))
            .unwrap()
            .0;
        let s = |v: i64| v.to_string();
        let r = captain.post(
            &link,
            &[
                ("b1", &s(before[1])),
                ("b2", &s(before[0])),
                ("b3", &s(sub)),
                ("b4", &s(before[3])),
            ],
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(
            common::has_attr(&r.body, "role", "status"),
            "saved: {}",
            r.body
        );
        let now = boards_of(&match_of(&app, tid, 1, team), team, &team_of);
        assert_eq!(now, vec![before[1], before[0], sub, before[3]]);

        // The link only ever reaches its own team: another team's player is refused.
        let other_player = *team_of.iter().find(|(_, t)| **t == ids[0]).unwrap().0;
        let r = captain.post(
            &link,
            &[
                ("b1", &s(other_player)),
                ("b2", &s(before[0])),
                ("b3", &s(sub)),
                ("b4", &s(before[3])),
            ],
        );
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(
            boards_of(&match_of(&app, tid, 1, team), team, &team_of),
            now
        );

        // The referee marks the boards started: the captain can no longer change anything.
        let m = match_of(&app, tid, 1, team);
        let r = referee.post(&format!("/t/{tid}/rounds/1/matches/{}/start", m["id"]), &[]);
        assert_eq!(r.status, 303, "{}", r.body);
        let page = captain.get(&link);
        assert_eq!(
            common::attr_values(&page.body, "data-closed"),
            ["true"],
            "{}",
            page.body
        );
        let r = captain.post(
            &link,
            &[
                ("b1", &s(before[0])),
                ("b2", &s(before[1])),
                ("b3", &s(before[2])),
                ("b4", &s(before[3])),
            ],
        );
        assert_eq!(r.status, 409, "{}", r.body);
        assert_eq!(
            boards_of(&match_of(&app, tid, 1, team), team, &team_of),
            now
        );

        // The audit trail names the captain; a renewed link ends the old one.
        let audit = referee.get(&format!("/t/{tid}/audit")).body;
        assert!(
            common::has_attr(&audit, "data-audit-action", "line-up"),
            "{audit}"
        );
        // the words are the point: the stored line names who changed it
        assert!(audit.contains("by the captain of Bethlehem"), "{audit}");
        assert!(audit.contains("team Bethlehem"), "{audit}");
        let renewed = captain_link(&mut referee, tid, team);
        assert_ne!(renewed, link);
        assert_eq!(captain.get(&link).status, 404);
        assert_eq!(captain.get(&renewed).status, 200);
    }
}

/// Makes a team's captain's link as its referee does, and reads it off the
/// page that shows it once (as a path).
fn captain_link(referee: &mut common::Client, tid: i64, team: i64) -> String {
    let r = referee.post(&format!("/t/{tid}/teams/{team}/captain-link"), &[]);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.headers.get("cache-control").map(String::as_str),
        Some("no-store")
    );
    assert_eq!(
        common::attr_values(&r.body, "data-captain-link"),
        ["new"],
        "{}",
        r.body
    );
    let at = r.body.find("/captain/").expect("the link on the page");
    r.body[at..]
        .split(|c: char| !(c == '/' || c.is_ascii_alphanumeric()))
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn teams_come_in_from_one_csv_or_not_at_all() {
    for app in TestApp::all() {
        let admin = app.user("director", Role::Admin);
        let mut api = app.script_for(&admin);
        let tid = api.create(
            "/api/v1/tournaments",
            json!({"name": "North West Team League", "system": "team_league", "rounds": 3}),
        )["id"]
            .as_i64()
            .unwrap();
        let mut referee = app.client_as(&admin);
        let bad = "team,name,club,rating,board,substitute\n\
                   Rustenburg,Kabelo Mokoena,Rustenburg MC,1650,1,\n\
                   Rustenburg,Naledi Sithole,Rustenburg MC,,1,\n\
                   Rustenburg,Tshepo Molefe,Rustenburg MC,,3,\n";
        let r = referee.post(&format!("/t/{tid}/teams/import"), &[("csv", bad)]);
        assert_eq!(r.status, 422);
        let places = common::problem_places(&r.body);
        assert_eq!(
            places,
            [("2", "board"), ("2", "board"), ("3", "board")]
                .map(|(l, c)| (l.to_string(), c.to_string())),
            "{}",
            r.body
        );
        assert_eq!(
            common::attr_values(&r.body, "data-problems"),
            ["3"],
            "{}",
            r.body
        );
        let good = "team,name,club,rating,board,substitute\n\
                    Rustenburg,Kabelo Mokoena,Rustenburg MC,1650,1,\n\
                    Rustenburg,Naledi Sithole,Rustenburg MC,,2,\n\
                    Rustenburg,Tshepo Molefe,Rustenburg MC,,3,\n\
                    Rustenburg,Dineo Khumalo,Rustenburg MC,,4,\n\
                    Rustenburg,Karabo Zulu,Rustenburg MC,,,yes\n\
                    Mahikeng,Lesego Ndlovu,Mahikeng MC,1700,2,\n\
                    Mahikeng,Boitumelo Dlamini,Mahikeng MC,1720,1,\n\
                    Mahikeng,Refilwe Nkosi,Mahikeng MC,,3,\n\
                    Mahikeng,Mpho Shabalala,Mahikeng MC,,4,\n";
        let r = referee.post(&format!("/t/{tid}/teams/import"), &[("csv", good)]);
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(
            common::attr_values(&r.body, "data-imported"),
            ["2"],
            "{}",
            r.body
        );
        let teams = app
            .client()
            .get(&format!("/api/v1/tournaments/{tid}/teams"))
            .json();
        let list = teams["teams"].as_array().unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0]["name"], "Rustenburg");
        assert_eq!(list[0]["substitutes"].as_array().unwrap().len(), 1);
        // Board order comes from the file's board column, not its line order.
        let names = referee
            .get(&format!("/t/{tid}/teams/{}", list[1]["id"]))
            .body;
        let first = names.find("Boitumelo Dlamini").unwrap();
        let second = names.find("Lesego Ndlovu").unwrap();
        assert!(first < second, "board 1 is listed first");

        // A team of an individual event, or a player on two teams: refused.
        let r = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/teams"),
            json!({"name": "Klerksdorp", "members": list[0]["members"], "substitutes": []}),
        );
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(r.json()["field"], "members");
        assert_eq!(r.json()["code"], "in_other_team", "{}", r.body);
        assert_eq!(r.json()["params"]["team"], "Rustenburg", "{}", r.body);
        let swiss = api.create(
            "/api/v1/tournaments",
            json!({"name": "Individual Open", "rounds": 5}),
        )["id"]
            .as_i64()
            .unwrap();
        let r = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{swiss}/teams"),
            json!({"name": "X", "members": []}),
        );
        assert_eq!(r.status, 409, "{}", r.body);
    }
}

/// Two referees open the same line-up form; each changes other boards.
/// The second save keeps the first one's change instead of putting back
/// the line-up its page was opened with.
#[test]
fn two_referees_editing_one_line_up_keep_each_others_changes() {
    for app in TestApp::all() {
        let admin = app.user("director", Role::Admin);
        let (mut api, tid, ids, team_of) = league(
            &app,
            &admin,
            json!({"name": "Mpumalanga Team League", "system": "team_league", "rules": "official", "rounds": 3}),
            &["Mbombela", "eMalahleni", "Secunda", "Barberton"],
        );
        pair_matches(&mut api, tid);
        let team = ids[0];
        let before = boards_of(&match_of(&app, tid, 1, team), team, &team_of);
        let sub = *team_of
            .iter()
            .find(|(p, t)| **t == team && !before.contains(p))
            .unwrap()
            .0;
        let url = format!("/t/{tid}/rounds/1/lineups/{team}");
        let mut a = app.client_as(&admin);
        let mut b = app.client_as(&admin);
        let mut form_a = common::form_fields(&a.get(&url).body, "/lineups/");
        let mut form_b = common::form_fields(&b.get(&url).body, "/lineups/");
        // A brings the substitute in on board 2; B, on a page opened before
        // that, swaps boards 3 and 4.
        common::set_field(&mut form_a, "b2", &sub.to_string());
        let r = a.post(&url, &pairs(&form_a));
        assert_eq!(r.status, 200, "{}", r.body);
        common::set_field(&mut form_b, "b3", &before[3].to_string());
        common::set_field(&mut form_b, "b4", &before[2].to_string());
        let r = b.post(&url, &pairs(&form_b));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(
            boards_of(&match_of(&app, tid, 1, team), team, &team_of),
            vec![before[0], sub, before[3], before[2]],
            "[{}] both changes stand",
            app.backend
        );
    }
}

fn pairs(fields: &[(String, String)]) -> Vec<(&str, &str)> {
    fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

/// A line-up change and the first result of the same board, sent at the
/// same moment by two referees, again and again: either the change comes
/// first (and the result is the new player's) or the result does (and the
/// change is refused, OGR 10.3.1). Never a change after the result.
#[test]
fn a_line_up_change_racing_the_boards_first_result_never_lands_after_it() {
    use diesel::prelude::*;
    use kraal::db::schema::audit_entries;
    for app in TestApp::all() {
        let admin = app.user("director", Role::Admin);
        let (mut both, mut changed_first, mut refused) = (0, 0, 0);
        for round in 0..24 {
            let (mut api, tid, ids, team_of) = league(
                &app,
                &admin,
                json!({"name": format!("Race League {round}"), "system": "team_league", "rules": "official", "rounds": 1}),
                &["Polokwane", "Tzaneen"],
            );
            pair_matches(&mut api, tid);
            let team = ids[0];
            let m = match_of(&app, tid, 1, team);
            let before = boards_of(&m, team, &team_of);
            let sub = *team_of
                .iter()
                .find(|(p, t)| **t == team && !before.contains(p))
                .unwrap()
                .0;
            let game = m["boards"][0]["games"][0].clone();
            let url = format!("/api/v1/tournaments/{tid}/rounds/1/lineups/{team}");
            let lineup = json!({ "boards": [sub, before[1], before[2], before[3]] });
            let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
            let mut other = app.script_for(&admin);
            let b2 = barrier.clone();
            let result = std::thread::spawn(move || {
                b2.wait();
                other
                    .send_json(
                        "PUT",
                        &format!("/api/v1/games/{}", game["id"]),
                        json!({"result": "1-0"}),
                    )
                    .status
            });
            barrier.wait();
            let change = api.send_json("PUT", &url, lineup).status;
            let result = result.join().unwrap();
            assert_eq!(result, 200, "the result is always stored");
            // The order the two were stored in, by their audit entries.
            let order: Vec<String> = audit_entries::table
                .filter(audit_entries::tournament_id.eq(tid as i32))
                .filter(audit_entries::action.eq_any(["line-up", "result"]))
                .order(audit_entries::id)
                .select(audit_entries::action)
                .load(&mut app.conn())
                .unwrap();
            match change {
                200 => {
                    both += 1;
                    assert_eq!(
                        order.iter().filter(|e| *e == "line-up").count(),
                        1,
                        "{order:?}"
                    );
                    if order.first().map(String::as_str) == Some("line-up") {
                        changed_first += 1;
                    }
                    assert_eq!(
                        order.first().map(String::as_str),
                        Some("line-up"),
                        "round {round}: the line-up changed after board 1's result ({order:?})"
                    );
                }
                409 => refused += 1,
                other => panic!("the change got {other}"),
            }
        }
        eprintln!(
            "{}: change first {changed_first} of {both}, refused {refused}",
            app.backend
        );
    }
}

//! Results as the people named beside them read them: from the named
//! player's side on every page, a knock-out's standings that rank who went
//! through above who went out, irregularities that name their ply once,
//! and the seat finder that finds a name in either order.

#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, TestApp};
use kraal::db::users::{Role, User};
use serde_json::{json, Value};

/// An event created through the API by a referee, with its players.
fn event(app: &TestApp, name: &str, system: &str, players: &[&str]) -> (i64, User, Client) {
    let referee = app.user(&format!("nomsa-{name}"), Role::Referee);
    let mut api = app.script_for(&referee);
    let entries: Vec<Value> = players
        .iter()
        .enumerate()
        .map(|(i, n)| json!({"name": n, "rating": 1900 - 50 * i as i64}))
        .collect();
    let (tid, _) = common::api_tournament(
        &mut api,
        json!({"name": name, "system": system, "rules": "official",
               // A knock-out's rounds follow its bracket.
               "rounds": if system == "knockout" { Value::Null } else { json!(3) },
               "tiebreaks": if system == "knockout" { json!([]) } else { json!(["buchholz"]) }}),
        &entries,
    );
    (tid, referee, api)
}

/// The text of a page with its apostrophes as typed.
fn text(body: &str) -> String {
    body.replace("&#x27;", "'").replace("&#39;", "'")
}

/// The words of a page, its tags taken out.
fn words(body: &str) -> String {
    text(body)
        .split('<')
        .map(|piece| piece.split_once('>').map_or(piece, |(_, t)| t))
        .collect()
}

#[test]
fn a_result_is_shown_from_the_side_of_the_player_it_names() {
    for app in TestApp::all() {
        let (tid, referee, mut api) = event(
            &app,
            "Side Open",
            "swiss",
            &[
                "Thabo Mokoena",
                "Lindiwe Zulu",
                "Sipho Dlamini",
                "Naledi Khumalo",
            ],
        );
        let pairings = common::pair(&mut api, tid);
        // Table 1: the second-listed player wins both games. Game 1 is
        // started by the first (0-1: the other won), game 2 by the second
        // (1-0: its starter won).
        let p = &pairings[0];
        let (first, second) = (p["first"].as_str().unwrap(), p["second"].as_str().unwrap());
        common::put(&mut api, &p["games"][0], "0-1");
        // Table 2 is still being played.
        common::put(&mut api, &pairings[1]["games"][0], "1/2-1/2");
        let mut web = app.client_as(&referee);

        // The loser's page says "lost" for both games, whoever started them.
        let page = text(&web.get(&format!("/t/{tid}/players/{}", p["first_id"])).body);
        assert!(page.contains(&format!("Result for {first}")), "{page}");
        assert!(page.contains("<td>lost</td>"), "[{}] {page}", app.backend);
        common::put(&mut api, &p["games"][1], "1-0");
        let page = text(&web.get(&format!("/t/{tid}/players/{}", p["first_id"])).body);
        assert_eq!(page.matches("<td>lost</td>").count(), 2, "{page}");
        assert!(page.contains("lost 0-2"), "{page}");
        let page = text(
            &web.get(&format!("/t/{tid}/players/{}", p["second_id"]))
                .body,
        );
        assert_eq!(page.matches("<td>won</td>").count(), 2, "{page}");
        assert!(page.contains("won 2-0"), "{page}");

        // The round page names who the score is for, and a table still
        // being played says so.
        let round = words(&web.get(&format!("/t/{tid}/rounds/1")).body);
        assert!(round.contains(&format!("2-0 for {second}")), "{round}");
        assert!(round.contains("½-½ so far"), "{round}");

        // The game page names the winner of the game.
        let game = text(
            &web.get(&format!("/t/{tid}/games/{}", p["games"][1]["id"]))
                .body,
        );
        assert!(game.contains(&format!("1-0 for {second}")), "{game}");

        // The results desk keeps the starter's notation, and says whose
        // side each game's select is.
        let desk = text(&web.get(&format!("/t/{tid}/rounds/1/results")).body);
        assert!(desk.contains(&format!("{first}'s side")), "{desk}");
        assert!(desk.contains(&format!("{second}'s side")), "{desk}");

        // The audit trail, which lists a game under "first – second", names
        // whom each result was for: game 2's 1-0 went to its starter.
        let trail = words(&web.get(&format!("/t/{tid}/audit")).body);
        assert!(trail.contains(&format!("1-0 for {second}")), "{trail}");
        assert!(!trail.contains(&format!("1-0 for {first}")), "{trail}");
    }
}

/// The games of a round as the API lists them now (tiebreak sets included).
fn round_games(api: &mut Client, tid: i64, n: u32) -> Vec<Value> {
    let r = api.get(&format!("/api/v1/tournaments/{tid}/rounds/{n}"));
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["pairings"].as_array().unwrap().clone()
}

#[test]
fn a_knock_out_ranks_who_went_through_above_who_went_out_on_equal_points() {
    for app in TestApp::all() {
        let (tid, referee, mut api) = event(
            &app,
            "Knock-out Cup",
            "knockout",
            &[
                "Thabo Mokoena",
                "Lindiwe Zulu",
                "Sipho Dlamini",
                "Naledi Khumalo",
            ],
        );
        let pairings = common::pair(&mut api, tid);
        // Each table: the first-listed player wins every game, except that
        // table 1's main games are shared 1-1 and its tiebreak set decides.
        let wins_for_first = |g: &Value| {
            if g["first_started"] == json!(true) {
                "1-0"
            } else {
                "0-1"
            }
        };
        for (k, p) in pairings.iter().enumerate() {
            for (j, g) in p["games"].as_array().unwrap().iter().enumerate() {
                let r = if k == 0 && j == 1 {
                    "1-0"
                } else {
                    wins_for_first(g)
                };
                common::put(&mut api, g, r);
            }
        }
        let now = round_games(&mut api, tid, 1);
        let set: Vec<&Value> = now[0]["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["tiebreak"] == json!(true))
            .collect();
        assert_eq!(set.len(), 2, "table 1 plays a tiebreak set: {}", now[0]);
        // The main games' points as numbers, first-listed player first.
        assert_eq!(now[0]["points"], json!([1.0, 1.0]), "{}", now[0]);
        assert_eq!(now[1]["points"], json!([2.0, 0.0]), "{}", now[1]);
        for g in set {
            common::put(&mut api, g, wins_for_first(g));
        }
        let through = now[0]["first_id"].as_i64().unwrap();
        let out = now[0]["second_id"].as_i64().unwrap();

        let standings = app
            .client()
            .get(&format!("/api/v1/tournaments/{tid}/standings"))
            .json();
        let line = |id: i64| {
            standings["standings"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["player"] == json!(id))
                .unwrap()
                .clone()
        };
        let (a, b) = (line(through), line(out));
        assert_eq!(a["points"], b["points"], "both took one main game");
        assert!(
            a["rank"].as_u64() < b["rank"].as_u64(),
            "[{}] the winner of the pairing ranks above the loser: {standings}",
            app.backend
        );
        assert_eq!(b["separated_by"], "knockout", "{standings}");
        let page = app
            .client_as(&referee)
            .get(&format!("/t/{tid}/standings"))
            .body;
        assert!(page.contains("went out earlier"), "{page}");
    }
}

/// The example with irregularities of docs/scoresheets.md: light's record
/// has its first irregularity at ply 5.
const FRIENDLY: &str = "[Dark \"N. Khumalo\"]\n[Light \"P. Botha\"]\n[Result \"0-1\"]\n\n1. a1 b2 2. d1 b4 3. g1 b6 {dark forgot to shoot; light forms a line too}\n4. a1 c3xd1 5. e4 f4 6. d7xa1\n";

#[test]
fn an_irregularity_names_its_ply_once() {
    for app in TestApp::all() {
        let (tid, referee, mut api) = event(
            &app,
            "Irregular Open",
            "swiss",
            &[
                "Thabo Mokoena",
                "Lindiwe Zulu",
                "Sipho Dlamini",
                "Naledi Khumalo",
            ],
        );
        let pairings = common::pair(&mut api, tid);
        let gid = &pairings[0]["games"][0]["id"];
        let r = api.send_json(
            "PUT",
            &format!("/api/v1/games/{gid}/scoresheet"),
            json!({ "text": FRIENDLY, "side": "light" }),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let page = app
            .client_as(&referee)
            .get(&format!("/t/{tid}/games/{gid}"))
            .body;
        let lines = words(&page);
        assert!(lines.contains("ply 5, dark: "), "{lines}");
        assert!(!lines.contains("ply 5: ply 5"), "[{}] {lines}", app.backend);
        assert!(!lines.contains("ply 5, dark: ply 5"), "{lines}");
    }
}

#[test]
fn where_do_i_sit_finds_a_name_in_either_order_and_by_surname() {
    for app in TestApp::all() {
        let (tid, _referee, mut api) = event(
            &app,
            "Seat Open",
            "swiss",
            &[
                "Mokoena, Thabo",
                "Lindiwe Zulu",
                "Sipho Dlamini",
                "Naledi Khumalo",
            ],
        );
        common::pair(&mut api, tid);
        let mut web = app.client();
        for (q, name) in [
            ("Thabo+Mokoena", "Mokoena, Thabo"),
            ("mokoena", "Mokoena, Thabo"),
            ("Zulu%2C+Lindiwe", "Lindiwe Zulu"),
            ("Dlamini", "Sipho Dlamini"),
        ] {
            let page = web.get(&format!("/t/{tid}/rounds/1?q={q}")).body;
            let found = page
                .split("class=\"notice found\"")
                .nth(1)
                .and_then(|rest| rest.split("</div>").next())
                .unwrap_or("");
            assert!(
                found.contains(&format!(">{name}</a>: <strong>table")),
                "[{}] {q} finds {name}: {found}",
                app.backend
            );
        }
    }
}

#[test]
fn a_team_match_still_being_played_has_no_result_on_the_team_page() {
    for app in TestApp::all() {
        let admin = app.user("thandi", Role::Admin);
        let (t, _) = common::four_team_league(&app, &admin);
        let mut api = app.script_for(&admin);
        let boards = common::pair(&mut api, i64::from(t.id));
        // Board 1 of the first match is over, won by its first player; the
        // other three boards are still being played.
        let board = &boards[0];
        for g in board["games"].as_array().unwrap() {
            let r = if g["first_started"] == json!(true) {
                "1-0"
            } else {
                "0-1"
            };
            common::put(&mut api, g, r);
        }
        // The team of that board's first player.
        let first = kraal::ids::EntryId(board["first_id"].as_i64().unwrap() as i32);
        let team = kraal::director::load(&mut app.conn(), t.id)
            .unwrap()
            .team_of(first)
            .unwrap()
            .id;
        let page = app.client().get(&format!("/t/{}/teams/{team}", t.id)).body;
        let row = page
            .split("<tbody>")
            .nth(1)
            .and_then(|b| b.split("</tr>").next())
            .unwrap_or("");
        assert!(
            !row.contains(">W<") && !row.contains(">L<"),
            "[{}] no result while boards are played: {row}",
            app.backend
        );
        assert!(row.contains(">so far<"), "{row}");
    }
}

//! Records of games in the app: sent by the referee (game page, API) and
//! by the players (their pairing's link), checked on arrival under the
//! tournament's rule set, compared, replayed on the board, flagged on the
//! round and results pages, ruled on and exported.

#![allow(clippy::unwrap_used)]

mod common;

use common::{attr_values, has_attr, tag_with, Client, TestApp};
use kraal::db::users::{Role, User};
use kraal::rules::notation::{self, Style};
use kraal::rules::sample;
use kraal::rules::{Game, Move, PlayRules, Position, RuleSet, SheetResult, Side, Status};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{json, Value};

/// A published first round of a four-player event under `rules`: two
/// tables of two games (official) or six (gar).
struct Event {
    tid: i64,
    referee: User,
    pairings: Vec<Value>,
}

fn event(app: &TestApp, name: &str, rules: &str) -> Event {
    let admin = app.user(&format!("admin-{name}"), Role::Admin);
    let referee = app.user(&format!("thandi-{name}"), Role::Referee);
    let fields = kraal::tournament::RawTournament {
        name: name.into(),
        rules: rules.into(),
        rounds: "3".into(),
        venue: "Soweto Community Hall".into(),
        ..Default::default()
    }
    .check()
    .unwrap();
    let t = kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
        kraal::db::tournaments::create(w, &fields, &admin)
    })
    .unwrap();
    kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
        kraal::db::tournaments::assign_referee(w, t.id, &referee)
    })
    .unwrap();
    for (i, n) in [
        "Kagiso Molefe",
        "Refilwe Dube",
        "Tumelo Sithole",
        "Palesa Nkosi",
    ]
    .iter()
    .enumerate()
    {
        common::player(app, t.id, &admin, n, "", &(1900 - 50 * i).to_string());
    }
    let mut api = app.script_for(&referee);
    let pairings = common::pair(&mut api, i64::from(t.id));
    Event {
        tid: i64::from(t.id),
        referee,
        pairings,
    }
}

/// A legal game still going after exactly `plies` plies.
fn lasting_game(rules: PlayRules, plies: usize) -> Vec<Move> {
    sample::lasting_game(rules, 0, plies)
}

/// A legal game played to its end on the board, and who won.
fn finished_game(rules: PlayRules) -> (Vec<Move>, Option<Side>) {
    for seed in 1u64.. {
        let (moves, game) = sample::random_game(rules, seed, 600);
        match game.status() {
            Status::Won { winner, .. } => return (moves, Some(winner)),
            Status::Drawn => return (moves, None),
            Status::Ongoing => {}
        }
    }
    unreachable!()
}

fn sheet_result(winner: Option<Side>) -> SheetResult {
    match winner {
        Some(Side::Dark) => SheetResult::DarkWins,
        Some(Side::Light) => SheetResult::LightWins,
        None => SheetResult::Draw,
    }
}

fn put_text(api: &mut Client, gid: &Value, side: &str, text: &str) -> common::Reply {
    api.send_bytes(
        "PUT",
        &format!("/api/v1/games/{gid}/scoresheet?side={side}"),
        "text/plain; charset=utf-8",
        text.as_bytes(),
    )
}

/// The example with irregularities of docs/scoresheets.md.
const FRIENDLY: &str = "[Dark \"N. Khumalo\"]\n[Light \"P. Botha\"]\n[Result \"0-1\"]\n\n1. a1 b2 2. d1 b4 3. g1 b6 {dark forgot to shoot; light forms a line too}\n4. a1 c3xd1 5. e4 f4 6. d7xa1\n";

#[test]
fn records_sent_through_the_api_are_kept_verbatim_and_checked_like_kraal_check() {
    for app in TestApp::all() {
        let e = event(&app, "Records API Open", "official");
        let mut api = app.script_for(&e.referee);
        let gid = e.pairings[0]["games"][0]["id"].clone();
        let rules = PlayRules::OFFICIAL;

        // A clean record: the same object as `kraal check --json`, plus side and time.
        let moves = lasting_game(rules, 30);
        let clean = notation::write(&rules, &moves, Style::Official, None);
        let r = put_text(&mut api, &gid, "dark", &clean);
        assert_eq!(r.status, 200, "[{}] {}", app.backend, r.body);
        let j = r.json();
        let report = kraal::rules::check_scoresheet(&clean, Some(RuleSet::Official)).unwrap();
        let expected = serde_json::to_value(&report).unwrap();
        for (key, value) in expected.as_object().unwrap() {
            assert_eq!(&j[key], value, "[{}] field {key}", app.backend);
        }
        assert_eq!(j["side"], "dark");
        assert_eq!(j["readable"], true);
        assert_eq!(j["plies"], 30);
        assert!(j["stored_at"].as_str().unwrap().ends_with('Z'));

        // An irregular record as JSON, for light.
        let r = api.send_json(
            "PUT",
            &format!("/api/v1/games/{gid}/scoresheet"),
            json!({ "text": FRIENDLY, "side": "light" }),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let j = r.json();
        assert_eq!(j["side"], "light");
        let irregular = j["irregularities"].as_array().unwrap();
        // Under the official rules light's line at ply 6 is barren (every
        // dark cow stands in a line), so four irregularities, not five.
        assert_eq!(irregular.len(), 4, "{j}");
        assert_eq!(j["triplets"][0]["kind"], "barren");
        assert_eq!(irregular[0]["ply"], 5);
        assert_eq!(irregular[0]["article"], "OGR 5.4.6");
        assert_eq!(j["rules"], "official", "the tournament's rule set applies");

        // An unreadable record is stored with its reading error.
        let unreadable = "1. a1 d1\n2. d4 g1\n";
        let r = put_text(&mut api, &gid, "referee", unreadable);
        assert_eq!(r.status, 200, "{}", r.body);
        let j = r.json();
        assert_eq!(j["readable"], false);
        assert_eq!(j["error"]["line"], 2);
        assert_eq!(j["error"]["column"], 4);

        // Too long, not UTF-8, an unknown side, NUL: refused with a sentence, nothing stored.
        let big = format!("1. a1 d1 {{{}}}", "x".repeat(70 * 1024));
        let r = put_text(&mut api, &gid, "dark", &big);
        assert_eq!(r.status, 413, "{}", r.body);
        assert_eq!(r.json()["code"], "too_large", "{}", r.body);
        assert_eq!(r.json()["params"]["max_bytes"], 64 * 1024, "{}", r.body);
        let r = api.send_json(
            "PUT",
            &format!("/api/v1/games/{gid}/scoresheet"),
            json!({ "text": big, "side": "dark" }),
        );
        assert_eq!(r.status, 413, "{}", r.body);
        let r = api.send_bytes(
            "PUT",
            &format!("/api/v1/games/{gid}/scoresheet?side=dark"),
            "text/plain",
            b"1. a1 d1\n2. \xff\xfe g1\n",
        );
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(r.json()["code"], "not_utf8", "{}", r.body);
        assert_eq!(r.json()["params"]["offset"], 12, "{}", r.body);
        let r = put_text(&mut api, &gid, "white", &clean);
        assert_eq!(r.status, 422);
        assert_eq!(r.json()["field"], "side");
        let r = put_text(&mut api, &gid, "dark", "1. a1\u{0} d1");
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(r.json()["code"], "record_nul", "{}", r.body);
        assert_eq!(r.json()["params"]["line"], 1, "{}", r.body);
        let r = put_text(&mut api, &gid, "dark", "  \n ");
        assert_eq!(r.status, 422);

        // A new dark record supersedes the first, which is kept.
        let r = put_text(&mut api, &gid, "dark", FRIENDLY);
        assert_eq!(r.status, 200);
        let g = api.get(&format!("/api/v1/games/{gid}"));
        assert_eq!(g.status, 200, "{}", g.body);
        let g = g.json();
        let records = g["records"].as_array().unwrap();
        assert_eq!(records.len(), 4, "{g}");
        let dark: Vec<&Value> = records.iter().filter(|r| r["side"] == "dark").collect();
        assert_eq!(dark.len(), 2);
        assert_eq!(dark[0]["current"], false);
        assert_eq!(dark[0]["text"], clean.as_str());
        assert!(dark[0]["superseded_at"].is_string());
        assert_eq!(dark[1]["current"], true);
        let referee = records.iter().find(|r| r["side"] == "referee").unwrap();
        assert_eq!(referee["text"], unreadable, "kept verbatim");
        assert_eq!(referee["check"]["readable"], false);
        assert_eq!(g["dark"], "Kagiso Molefe");
    }
}

#[test]
fn any_legal_random_game_sent_through_the_api_comes_back_clean_with_its_board_result() {
    for app in TestApp::all() {
        for rules in [RuleSet::Official, RuleSet::Gar] {
            let e = event(&app, &format!("Random {rules} Open"), rules.as_str());
            let api = std::cell::RefCell::new(app.script_for(&e.referee));
            let gid = e.pairings[0]["games"][0]["id"].clone();
            let play = rules.play();
            let mut runner = TestRunner::new(Config {
                cases: 24,
                failure_persistence: None,
                ..Config::default()
            });
            runner
                .run(
                    &(
                        proptest::collection::vec(any::<u16>(), 1..260),
                        any::<bool>(),
                    ),
                    |(choices, official_style)| {
                        let mut game = Game::new(play);
                        let mut moves = Vec::new();
                        for c in &choices {
                            let legal = game.legal_moves();
                            if legal.is_empty() {
                                break;
                            }
                            let mv = legal[*c as usize % legal.len()];
                            game.play(mv);
                            moves.push(mv);
                        }
                        let (board, claimed) = match game.status() {
                            Status::Won { winner, .. } => {
                                (json!(winner.name()), Some(sheet_result(Some(winner))))
                            }
                            Status::Drawn => (json!("draw"), Some(SheetResult::Draw)),
                            Status::Ongoing => (Value::Null, None),
                        };
                        let style = if official_style {
                            Style::Official
                        } else {
                            Style::Standard
                        };
                        let text = notation::write(&play, &moves, style, claimed);
                        let r = put_text(&mut api.borrow_mut(), &gid, "referee", &text);
                        prop_assert_eq!(r.status, 200, "{}", r.body);
                        let j = r.json();
                        prop_assert_eq!(&j["irregularities"], &json!([]), "{}", text);
                        prop_assert_eq!(&j["plies"], &json!(moves.len()));
                        prop_assert_eq!(&j["board_result"], &board);
                        if claimed.is_some() {
                            prop_assert_eq!(&j["result_agrees"], &json!(true));
                        }
                        Ok(())
                    },
                )
                .unwrap();
        }
    }
}

#[test]
fn two_records_that_differ_at_ply_17_are_compared_at_ply_17() {
    for app in TestApp::all() {
        let e = event(&app, "Comparison Open", "official");
        let mut api = app.script_for(&e.referee);
        let gid = e.pairings[0]["games"][0]["id"].clone();
        let rules = PlayRules::OFFICIAL;
        let moves = lasting_game(rules, 30);
        // Light's record: the same 16 plies, then another legal move.
        let mut game = Game::new(rules);
        for mv in &moves[..16] {
            game.play(*mv);
        }
        let other = game
            .legal_moves()
            .into_iter()
            .find(|m| *m != moves[16])
            .unwrap();
        let mut alt = moves[..16].to_vec();
        alt.push(other);
        let dark = notation::write(&rules, &moves, Style::Official, None);
        let light = notation::write(&rules, &alt, Style::Standard, None);
        assert_eq!(put_text(&mut api, &gid, "dark", &dark).status, 200);
        assert_eq!(put_text(&mut api, &gid, "light", &light).status, 200);
        let g = api.get(&format!("/api/v1/games/{gid}")).json();
        assert_eq!(g["first_difference"], 17, "{g}");
        assert_eq!(g["flags"].as_array().unwrap().len(), 1, "one flag: {g}");
        let mut page = app.client_as(&e.referee);
        let body = page.get(&format!("/t/{}/games/{gid}", e.tid)).body;
        assert_eq!(
            attr_values(&body, "data-first-difference"),
            ["17"],
            "{body}"
        );
        // The same record twice agrees.
        assert_eq!(put_text(&mut api, &gid, "light", &dark).status, 200);
        let g = api.get(&format!("/api/v1/games/{gid}")).json();
        assert_eq!(g["first_difference"], Value::Null);
    }
}

/// The cows an SVG board of the game page draws: (side, junction, cow).
fn drawn_cows(html: &str) -> Vec<(String, String, u8)> {
    let mut cows: Vec<(String, String, u8)> = html
        .split("<g class=\"cow ")
        .skip(1)
        .map(|chunk| {
            let side = chunk.split('"').next().unwrap().to_string();
            let attr = |name: &str| {
                let key = format!("{name}=\"");
                let i = chunk.find(&key).unwrap() + key.len();
                chunk[i..].split('"').next().unwrap().to_string()
            };
            (
                side,
                attr("data-junction"),
                attr("data-cow").parse().unwrap(),
            )
        })
        .collect();
    cows.sort();
    cows
}

fn engine_cows(pos: &Position) -> Vec<(String, String, u8)> {
    let mut cows: Vec<(String, String, u8)> = kraal::rules::Junction::all()
        .filter_map(|j| {
            Some((
                pos.owner(j)?.name().to_string(),
                j.name().to_string(),
                pos.cow_at(j)?,
            ))
        })
        .collect();
    cows.sort();
    cows
}

#[test]
fn the_replay_of_a_100_ply_game_draws_the_engines_position_after_every_ply() {
    for app in TestApp::all() {
        let e = event(&app, "Replay Open", "official");
        let mut api = app.script_for(&e.referee);
        let gid = e.pairings[0]["games"][0]["id"].clone();
        let rules = PlayRules::OFFICIAL;
        let moves = lasting_game(rules, 100);
        let text = notation::write(&rules, &moves, Style::Official, None);
        assert_eq!(put_text(&mut api, &gid, "referee", &text).status, 200);
        let sheet = notation::parse(&text).unwrap();
        let (_, positions) = kraal::rules::replay_sheet(&sheet, &rules);
        assert_eq!(positions.len(), 100);
        let mut page = app.client_as(&e.referee);
        for ply in 0..=100usize {
            let r = page.get(&format!(
                "/t/{}/games/{gid}?record=referee&ply={ply}",
                e.tid
            ));
            assert_eq!(r.status, 200);
            assert!(r.body.contains(&format!("data-ply=\"{ply}\"")), "ply {ply}");
            let expected = if ply == 0 {
                engine_cows(&Position::new(&rules))
            } else {
                engine_cows(&positions[ply - 1])
            };
            assert_eq!(drawn_cows(&r.body), expected, "[{}] ply {ply}", app.backend);
            assert_eq!(r.body.contains("rel=\"prev\""), ply > 0, "ply {ply}");
            assert_eq!(r.body.contains("rel=\"next\""), ply < 100, "ply {ply}");
        }
        // Past the end is the last ply; nonsense is the last ply too.
        let r = page.get(&format!("/t/{}/games/{gid}?record=referee&ply=5000", e.tid));
        assert!(r.body.contains("data-ply=\"100\""));
        let r = page.get(&format!("/t/{}/games/{gid}?ply=x", e.tid));
        assert_eq!(r.status, 422);
        assert_eq!(
            attr_values(&r.body, "data-error-field"),
            ["ply"],
            "{}",
            r.body
        );
        // The public sees the game, not its records.
        let mut anyone = app.client();
        let r = anyone.get(&format!("/t/{}/games/{gid}", e.tid));
        assert_eq!(r.status, 200);
        assert!(!r.body.contains("class=\"cow"));
        assert!(r.body.contains("Kagiso Molefe"));
    }
}

#[test]
fn records_sent_on_the_game_page_are_checked_flagged_and_ruled_on_with_an_audit() {
    for app in TestApp::all() {
        let e = event(&app, "Rulings Open", "official");
        let mut api = app.script_for(&e.referee);
        let mut page = app.client_as(&e.referee);
        let game = e.pairings[0]["games"][0].clone();
        let gid = game["id"].clone();
        let url = format!("/t/{}/games/{gid}", e.tid);
        let rules = PlayRules::OFFICIAL;

        // Unreadable, then empty, through the page.
        let r = page.post(
            &format!("{url}/records"),
            &[("side", "dark"), ("text", "1. a1 d1\n2. d4 g1\n")],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let body = page.get(&url).body;
        assert_eq!(attr_values(&body, "data-check"), ["unreadable"], "{body}");
        // Where the record stops being readable is what the referee needs.
        let unreadable = tag_with(&body, "data-check", "unreadable");
        assert_eq!(attr_values(unreadable[0], "data-line"), ["2"], "{body}");
        assert_eq!(attr_values(unreadable[0], "data-column"), ["4"], "{body}");
        let r = page.post(
            &format!("{url}/records"),
            &[("side", "light"), ("text", " ")],
        );
        assert_eq!(r.status, 422);
        assert!(has_attr(&r.body, "id", "problem"), "{}", r.body);
        // A clean record, then an irregular one, through the page.
        let clean = notation::write(&rules, &lasting_game(rules, 16), Style::Official, None);
        let r = page.post(
            &format!("{url}/records"),
            &[("side", "light"), ("text", &clean)],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let body = page.get(&url).body;
        let light = tag_with(&body, "data-check", "read");
        assert_eq!(light.len(), 1, "{body}");
        assert_eq!(
            (
                attr_values(light[0], "data-plies"),
                attr_values(light[0], "data-irregularities")
            ),
            (vec!["16".to_string()], vec!["0".to_string()])
        );
        let r = page.post(
            &format!("{url}/records"),
            &[("side", "light"), ("text", FRIENDLY)],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let body = page.get(&url).body;
        let light = tag_with(&body, "data-check", "read");
        assert_eq!(light.len(), 1, "{body}");
        assert_eq!(
            (
                attr_values(light[0], "data-plies"),
                attr_values(light[0], "data-irregularities")
            ),
            (vec!["11".to_string()], vec!["4".to_string()])
        );
        assert!(
            has_attr(&body, "class", "versions"),
            "earlier versions kept"
        );

        // A finished game whose sheet claims the other result, and an
        // entered result that is not the board's either.
        let (moves, winner) = finished_game(rules);
        let board = sheet_result(winner);
        let claimed = match board {
            SheetResult::DarkWins => SheetResult::LightWins,
            _ => SheetResult::DarkWins,
        };
        let text = notation::write(&rules, &moves, Style::Standard, Some(claimed));
        let r = page.post(
            &format!("{url}/records"),
            &[("side", "referee"), ("text", &text)],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let body = page.get(&url).body;
        assert_eq!(attr_values(&body, "data-board-agrees"), ["false"], "{body}");
        let entered = if board == SheetResult::DarkWins {
            "0-1"
        } else {
            "1-0"
        };
        common::put(&mut api, &game, entered);

        let round = page.get(&format!("/t/{}/rounds/1", e.tid)).body;
        assert!(
            round.contains(&format!("data-flagged=\"{gid}\"")),
            "{round}"
        );
        let flagged = tag_with(&round, "data-flagged", &gid.to_string());
        assert!(
            attr_values(flagged[0], "data-flags")[0]
                .split(' ')
                .any(|k| k == "board_disagrees"),
            "{round}"
        );
        let results = page.get(&format!("/t/{}/rounds/1/results", e.tid)).body;
        assert!(results.contains(&format!("data-flagged=\"{gid}\"")));
        let public = app.client().get(&format!("/t/{}/rounds/1", e.tid)).body;
        assert!(!public.contains("data-flagged"), "flags are for referees");

        // Rulings: keep, another result without a reason (refused), the board's.
        let r = page.post(
            &format!("{url}/ruling"),
            &[("kind", "keep"), ("reason", "")],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let r = page.post(
            &format!("{url}/ruling"),
            &[("kind", "other"), ("result", "1/2-1/2"), ("reason", "")],
        );
        assert_eq!(r.status, 422);
        assert!(has_attr(&r.body, "id", "problem"), "{}", r.body);
        let r = page.post(
            &format!("{url}/ruling"),
            &[
                ("kind", "board"),
                ("reason", "the sheet shows two cows left"),
            ],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let g = api.get(&format!("/api/v1/games/{gid}")).json();
        let want = kraal::results::GameResult::of_winner(winner).as_str();
        assert_eq!(g["result"], want, "the board's result is set");
        let rulings = g["rulings"].as_array().unwrap();
        assert_eq!(rulings.len(), 2);
        assert_eq!(rulings[0]["kind"], "keep");
        assert_eq!(rulings[0]["result"], entered);
        assert_eq!(rulings[1]["kind"], "board");
        assert_eq!(rulings[1]["reason"], "the sheet shows two cows left");
        let audit = kraal::db::audit::of_tournament(
            &mut app.conn(),
            kraal::ids::TournamentId(e.tid as i32),
        )
        .unwrap();
        let ruled: Vec<_> = audit
            .iter()
            .filter(|a| a.action == kraal::change::Action::Ruling)
            .collect();
        assert_eq!(ruled.len(), 2);
        assert!(ruled
            .iter()
            .all(|a| a.user.as_deref() == Some(e.referee.name.as_str())));
        assert!(audit
            .iter()
            .any(|a| a.action == kraal::change::Action::Result
                && a.new_value.as_deref() == Some(want)));
        assert!(audit
            .iter()
            .any(|a| a.action == kraal::change::Action::Record));
        let body = page.get(&url).body;
        assert_eq!(attr_values(&body, "data-ruling"), ["keep", "board"]);
        assert!(body.contains("the sheet shows two cows left"));
        let trail = page.get(&format!("/t/{}/audit", e.tid)).body;
        assert!(has_attr(&trail, "data-audit-action", "ruling"));

        // Another referee's tournament: no.
        let stranger = app.user("stranger-rulings", Role::Referee);
        let mut other = app.client_as(&stranger);
        let r = other.post(&format!("{url}/ruling"), &[("kind", "keep")]);
        assert_eq!(r.status, 403);
    }
}

/// The players' links printed on the blank scoresheets, by table order.
fn links(html: &str) -> Vec<String> {
    html.match_indices("/p/")
        .map(|(i, _)| {
            html[i..]
                .split(|c: char| c == '<' || c == '"' || c.is_whitespace())
                .next()
                .unwrap()
                .to_string()
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

#[test]
fn a_player_link_takes_records_of_its_own_pairing_until_the_round_is_complete() {
    for app in TestApp::all() {
        let e = event(&app, "Link Open", "official");
        let mut referee = app.client_as(&e.referee);
        let sheets = referee.get(&format!("/t/{}/rounds/1/scoresheets", e.tid));
        assert_eq!(sheets.status, 200);
        let found = links(&sheets.body);
        assert_eq!(found.len(), 2, "one link per table: {found:?}");
        let public = app
            .client()
            .get(&format!("/t/{}/rounds/1/scoresheets", e.tid));
        assert_eq!(public.status, 200);
        assert!(has_attr(&public.body, "id", "sheet-1") && has_attr(&public.body, "id", "sheet-2"));
        assert!(links(&public.body).is_empty(), "the links are secret");
        let one = referee
            .get(&format!("/t/{}/rounds/1/scoresheets?table=1", e.tid))
            .body;
        assert_eq!(links(&one).len(), 1);
        let slips = referee.get(&format!("/t/{}/rounds/1/slips", e.tid)).body;
        assert_eq!(
            links(&slips),
            found,
            "the result slips carry the same links"
        );
        let public_slips = app
            .client()
            .get(&format!("/t/{}/rounds/1/slips", e.tid))
            .body;
        assert!(links(&public_slips).is_empty());

        let table = |n: i64| e.pairings.iter().find(|p| p["table"] == n).unwrap().clone();
        let pid = table(1)["id"].as_i64().unwrap();
        let link = found
            .iter()
            .find(|l| l.starts_with(&format!("/p/{pid}/")))
            .unwrap()
            .clone();
        let mine = table(1)["games"][0]["id"].to_string();
        let theirs = table(2)["games"][0]["id"].to_string();

        let mut player = app.client();
        let r = player.get(&link);
        assert_eq!(r.status, 200);
        assert!(r.body.contains("Kagiso Molefe") || r.body.contains("Refilwe Dube"));
        assert!(r.body.contains("<textarea"), "the open link takes a record");
        let moves = lasting_game(PlayRules::OFFICIAL, 24);
        let text = notation::write(&PlayRules::OFFICIAL, &moves, Style::Official, None);
        let r = player.post(
            &link,
            &[("game", &mine), ("side", "light"), ("text", &text)],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let mut api = app.script_for(&e.referee);
        let g = api.get(&format!("/api/v1/games/{mine}")).json();
        assert_eq!(g["records"][0]["by_link"], true);
        assert_eq!(g["records"][0]["side"], "light");
        assert_eq!(g["records"][0]["text"], text.as_str());

        // Not another pairing's game, not the referee's copy, not a bad key.
        let r = player.post(
            &link,
            &[("game", &theirs), ("side", "light"), ("text", &text)],
        );
        assert_eq!(r.status, 404);
        let r = player.post(
            &link,
            &[("game", &mine), ("side", "referee"), ("text", &text)],
        );
        assert_eq!(r.status, 422);
        let moves_typed = &text[text.find("1. ").unwrap()..][..12];
        assert_eq!(
            r.body.matches(moves_typed).count(),
            1,
            "what was typed comes back"
        );
        let other_pid = table(2)["id"].as_i64().unwrap();
        let key = link.rsplit('/').next().unwrap();
        assert_eq!(player.get(&format!("/p/{other_pid}/{key}")).status, 404);
        let mut bad = key.to_string();
        let flipped = if bad.ends_with('0') { "1" } else { "0" };
        bad.replace_range(31..32, flipped);
        assert_eq!(player.get(&format!("/p/{pid}/{bad}")).status, 404);
        assert_eq!(
            api.get(&format!("/api/v1/games/{theirs}")).json()["records"],
            json!([])
        );

        // An irregular record and an unreadable one are taken and kept too.
        let r = player.post(
            &link,
            &[("game", &mine), ("side", "dark"), ("text", FRIENDLY)],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let r = player.post(
            &link,
            &[("game", &mine), ("side", "dark"), ("text", "1. d4")],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let body = player.get(&link).body;
        let dark = tag_with(&body, "data-side", "dark");
        assert_eq!(
            attr_values(dark.last().unwrap(), "data-readable"),
            ["false"],
            "{body}"
        );
        let g = api.get(&format!("/api/v1/games/{mine}")).json();
        let dark: Vec<&Value> = g["records"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["side"] == "dark")
            .collect();
        assert_eq!(dark.len(), 2);
        assert_eq!(
            dark[0]["check"]["irregularities"].as_array().unwrap().len(),
            4
        );
        assert_eq!(dark[1]["check"]["readable"], false);
        // Where it stops is what the player needs.
        assert_eq!(dark[1]["check"]["error"]["line"], 1, "{g}");
        assert_eq!(dark[1]["check"]["error"]["column"], 4, "{g}");

        // Results entered: the players may still send records.
        for p in &e.pairings {
            for g in p["games"].as_array().unwrap() {
                common::put(&mut api, g, "1-0");
            }
        }
        let r = player.post(&link, &[("game", &mine), ("side", "dark"), ("text", &text)]);
        assert_eq!(r.status, 303, "{}", r.body);
        // Once the referee locks the round, the link closes; unlocked, it opens.
        let lock = format!("/t/{}/rounds/1/lock", e.tid);
        assert_eq!(referee.post(&lock, &[("lock", "yes")]).status, 303);
        assert_eq!(
            attr_values(
                &referee.get(&format!("/t/{}/rounds/1", e.tid)).body,
                "data-round-locked"
            ),
            ["true"]
        );
        let r = player.post(&link, &[("game", &mine), ("side", "dark"), ("text", &text)]);
        assert_eq!(r.status, 409, "{}", r.body);
        assert_eq!(attr_values(&r.body, "data-locked-round"), ["1"]);
        let r = player.get(&link);
        assert_eq!(r.status, 200);
        assert!(!r.body.contains("<textarea"));
        assert_eq!(referee.post(&lock, &[("lock", "maybe")]).status, 422);
        assert_eq!(referee.post(&lock, &[("lock", "no")]).status, 303);
        let r = player.post(&link, &[("game", &mine), ("side", "dark"), ("text", &text)]);
        assert_eq!(r.status, 303, "{}", r.body);
        let audit = kraal::db::audit::of_tournament(
            &mut app.conn(),
            kraal::ids::TournamentId(e.tid as i32),
        )
        .unwrap();
        assert!(audit
            .iter()
            .any(|a| a.action == kraal::change::Action::Lock));
        assert!(audit
            .iter()
            .any(|a| a.action == kraal::change::Action::Unlock));
        let records = api.get(&format!("/api/v1/games/{mine}")).json()["records"].clone();
        assert_eq!(
            records.as_array().unwrap().len(),
            5,
            "nothing sent was lost"
        );
    }
}

#[test]
fn every_record_exports_as_one_text_file_the_referees_copy_first() {
    for app in TestApp::all() {
        let e = event(&app, "Export Open", "official");
        let mut api = app.script_for(&e.referee);
        let rules = PlayRules::OFFICIAL;
        let g1 = e.pairings[0]["games"][0].clone();
        let g2 = e.pairings[0]["games"][1].clone();
        let dark = notation::write(&rules, &lasting_game(rules, 20), Style::Official, None);
        let referee = notation::write(&rules, &lasting_game(rules, 22), Style::Standard, None);
        assert_eq!(put_text(&mut api, &g1["id"], "dark", &dark).status, 200);
        assert_eq!(
            put_text(&mut api, &g1["id"], "referee", &referee).status,
            200
        );
        assert_eq!(put_text(&mut api, &g2["id"], "light", FRIENDLY).status, 200);
        assert_eq!(put_text(&mut api, &g2["id"], "dark", "1. d4").status, 200);
        common::put(&mut api, &g1, "1-0");

        let mut page = app.client_as(&e.referee);
        let r = page.get(&format!("/t/{}/games.txt", e.tid));
        assert_eq!(r.status, 200);
        assert!(r.content_type.starts_with("text/plain"));
        let text = r.body;
        let blocks: Vec<&str> = text.split("[Event ").skip(1).collect();
        assert_eq!(blocks.len(), 2, "{text}");
        assert!(blocks[0].contains("[Round \"1\"]\n[Table \"1\"]\n[Game \"1\"]"));
        assert!(blocks[0].contains("[Result \"1-0\"]"));
        assert!(blocks[0].contains("[Record \"referee\"]"));
        assert!(
            blocks[1].contains("[Record \"light\"]"),
            "the unreadable dark record is passed over"
        );
        // Each game reads back with the same plies.
        let first = format!("[Event {}", blocks[0]);
        let back = kraal::rules::check_scoresheet(&first, None).unwrap();
        assert_eq!(back.plies, 22);
        assert_eq!(back.rules, RuleSet::Official);

        let (code, out, err) = common::cli::kraal(&["export", "games", &e.tid.to_string()])
            .database_url(&app.database_url)
            .run();
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, text, "kraal export games prints the same bytes");
        assert_eq!(
            app.client().get(&format!("/t/{}/games.txt", e.tid)).status,
            401
        );
    }
}

#[test]
fn records_are_public_once_the_round_is_complete_when_the_tournament_says_so() {
    for app in TestApp::all() {
        let e = event(&app, "Open Records Open", "official");
        let mut api = app.script_for(&e.referee);
        let gid = e.pairings[0]["games"][0]["id"].clone();
        let rules = PlayRules::OFFICIAL;
        let text = notation::write(&rules, &lasting_game(rules, 12), Style::Official, None);
        assert_eq!(put_text(&mut api, &gid, "dark", &text).status, 200);
        let url = format!("/t/{}/games/{gid}", e.tid);
        let mut anyone = app.client();
        assert!(!anyone.get(&url).body.contains("class=\"cow"));

        let t =
            kraal::db::tournaments::find(&mut app.conn(), kraal::ids::TournamentId(e.tid as i32))
                .unwrap();
        let mut fields = t.fields();
        fields.records_public = true;
        kraal::director::commit(&mut app.conn(), Some(e.referee.id), |w| {
            kraal::db::tournaments::update(w, t.id, &fields)
        })
        .unwrap();
        let body = anyone.get(&url).body;
        assert!(
            !body.contains("class=\"cow"),
            "not before the round is complete"
        );
        assert_eq!(attr_values(&body, "data-records-public"), ["true"]);
        for p in &e.pairings {
            for g in p["games"].as_array().unwrap() {
                common::put(&mut api, g, "1/2-1/2");
            }
        }
        let body = anyone.get(&url).body;
        assert!(body.contains("class=\"cow"), "the replay is public now");
        let moves = &text[text.find("1. ").unwrap()..];
        assert!(body.contains(moves), "the text as sent: {body}");
        assert!(
            !has_attr(&body, "action", &format!("{url}/records")),
            "the forms stay the referees'"
        );
        // The tournament form and the API carry the setting.
        let mut page = app.client_as(&e.referee);
        let form = page.get(&format!("/t/{}/edit", e.tid)).body;
        assert!(form.contains("name=\"records_public\" value=\"yes\" checked"));
        let created = api.create(
            "/api/v1/tournaments",
            json!({"name": "Public Records Cup", "rounds": 3, "records_public": true}),
        );
        assert_eq!(created["records_public"], true);
    }
}

#[test]
fn a_played_game_without_a_record_is_flagged_when_the_tournament_requires_records() {
    for app in TestApp::all() {
        let e = event(&app, "Required Records Open", "official");
        let mut api = app.script_for(&e.referee);
        let games: Vec<Value> = e.pairings[0]["games"].as_array().unwrap().clone();
        common::put(&mut api, &games[0], "1-0");
        common::put(&mut api, &games[1], "+-");
        let mut page = app.client_as(&e.referee);
        let round = format!("/t/{}/rounds/1", e.tid);
        assert!(!page.get(&round).body.contains("data-flagged"));

        let t =
            kraal::db::tournaments::find(&mut app.conn(), kraal::ids::TournamentId(e.tid as i32))
                .unwrap();
        let mut fields = t.fields();
        fields.records_required = true;
        kraal::director::commit(&mut app.conn(), Some(e.referee.id), |w| {
            kraal::db::tournaments::update(w, t.id, &fields)
        })
        .unwrap();
        let body = page.get(&round).body;
        assert!(
            body.contains(&format!("data-flagged=\"{}\"", games[0]["id"])),
            "{body}"
        );
        let flagged = tag_with(&body, "data-flagged", &games[0]["id"].to_string());
        assert_eq!(attr_values(flagged[0], "data-flags"), ["missing"]);
        assert!(
            !body.contains(&format!("data-flagged=\"{}\"", games[1]["id"])),
            "a forfeit has no record to give"
        );
        let rules = PlayRules::OFFICIAL;
        let text = notation::write(&rules, &lasting_game(rules, 10), Style::Official, None);
        assert_eq!(
            put_text(&mut api, &games[0]["id"], "dark", &text).status,
            200
        );
        let body = page.get(&round).body;
        assert!(!body.contains("data-flagged"), "{body}");
        let checked = tag_with(&body, "data-checked", &games[0]["id"].to_string());
        assert_eq!(attr_values(checked[0], "data-flags"), [""], "record clean");
    }
}

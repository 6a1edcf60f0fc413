//! Every HTML page of the app, audited by axe-core (a third-party rule
//! engine) in headless Chromium: WCAG 2.0, 2.1 and 2.2 A and AA rules, on a
//! 1280x900 desktop and a 360x740 phone, anonymous and signed in as a referee
//! and as an admin, on a tournament with real data.
//!
//! The pages come from the app's route table: every GET route needs sample
//! URLs here, or the test fails, so a new page is audited from the start.
//!
//! axe-core is not vendored: `.ci/run` installs a pinned version from the npm
//! registry (`npm install` checks the package against the registry's
//! integrity digest), which keeps a 550-KB third-party file and its MPL-2.0
//! notice out of the repository. The test reads `KRAAL_AXE` (a path to
//! `axe.min.js`) or the copy `.ci/run` installs under
//! `~/.cache/kraal-axe`. Without axe-core or chromedriver it says it is
//! skipped; under CI (`CI` set) either one missing is a failure.

#![allow(clippy::unwrap_used)]

mod common;
#[path = "common/browser.rs"]
mod web_browser;

use std::collections::BTreeMap;
use std::path::PathBuf;

use common::{Client, TestApp};
use fantoccini::Locator;
use kraal::db::users::Role;
use kraal::web::routes::{Access, ROUTES};
use serde_json::json;
use web_browser::{browser, fill_sign_in, navigate, path, Go};

/// The window sizes every page is audited at: a desktop and a small phone.
const WIDTHS: [(u32, u32); 2] = [(1280, 900), (360, 740)];

/// The axe-core tags audited; `wcag22aa` brings the target-size rule.
const TAGS: [&str; 5] = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/// axe-core's source, or `None` (after saying why) when it is not installed.
fn axe_source() -> Option<String> {
    let path = match std::env::var_os("KRAAL_AXE") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
            .join(".cache/kraal-axe/node_modules/axe-core/axe.min.js"),
    };
    match std::fs::read_to_string(&path) {
        Ok(s) => Some(s),
        Err(e) => {
            if std::env::var_os("CI").is_some() {
                panic!(
                    "axe-core is missing under CI ({}: {e}): .ci/run installs it",
                    path.display()
                );
            }
            eprintln!(
                "skipped: axe-core not found at {} ({e}); install it with .ci/run or set KRAAL_AXE",
                path.display()
            );
            None
        }
    }
}

/// Who looks at the pages.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Session {
    Anonymous,
    Referee,
    Admin,
}

impl Session {
    fn may_see(self, access: Access) -> bool {
        match access {
            Access::Public | Access::PlayerLink => true,
            Access::Setup => self == Session::Anonymous,
            Access::SignedIn | Access::Referee => self != Session::Anonymous,
            Access::Admin | Access::Publisher => self == Session::Admin,
        }
    }
}

/// The ids of the data the sample URLs point at.
struct Data {
    swiss: i64,
    knockout: i64,
    player: i64,
    /// A team league with round 1 paired, one of its teams and that team's
    /// captain's link secret.
    league: i64,
    team: i64,
    captain: String,
    /// A game of the Swiss event with records, and a pairing's player link.
    game: i64,
    link: String,
    /// A player's personal link (the Swiss's first player, round 2 on the
    /// clock, one of their games reported).
    own: String,
    /// That player's other game of round 2, recorded at the board so far
    /// by both players, its last ply irregular.
    own_game: i64,
    /// A person of the registry with rated games (and a merge undone), and
    /// a season over their event.
    person: i64,
    season: i64,
}

/// Sample URLs (paths) for each GET route: the same page in its different
/// states (a round with results missing and a draft, a Swiss and a knock-out
/// tournament). `None` for a route this test does not know yet.
fn samples(route: &str, d: &Data) -> Option<Vec<String>> {
    let (s, k, p, g, l, team) = (d.swiss, d.knockout, d.player, d.game, d.league, d.team);
    let v = match route {
        "/" => vec!["/".to_string()],
        "/static/kraal.css" => vec!["/static/kraal.css".into()],
        "/static/kraal.js" => vec!["/static/kraal.js".into()],
        "/manifest.webmanifest" => vec!["/manifest.webmanifest".into()],
        "/favicon.ico" => vec!["/favicon.ico".into()],
        "/sw.js" => vec!["/sw.js".into()],
        "/static/icons/{name}" => vec!["/static/icons/icon-192.png".into()],
        // An event stream, not a page: it never ends, so it is not fetched.
        "/t/{tid:\\d+}/events" => vec![],
        "/t/{tid:\\d+}/games/{gid:\\d+}/events" => vec![],
        "/api/v1/tournaments/{tid:\\d+}/rounds/{n:\\d+}/live" => vec![],
        "/static/board.js" => vec!["/static/board.js".into()],
        "/player/{key}/games/{gid:\\d+}/record" => {
            vec![format!("{}/games/{}/record", d.own, d.own_game)]
        }
        "/api/v1/player/{key}/games/{gid:\\d+}/plies" => {
            vec![format!("/api/v1{}/games/{}/plies", d.own, d.own_game)]
        }
        "/t/{tid:\\d+}/games/{gid:\\d+}/live" => {
            vec![format!("/t/{s}/games/{}/live", d.own_game)]
        }
        "/t/{tid:\\d+}/rounds/{n:\\d+}/boards" => vec![format!("/t/{s}/rounds/2/boards")],
        "/t/{tid:\\d+}/display/boards" => vec![format!("/t/{s}/display/boards")],
        "/setup" => vec!["/setup".into()],
        "/login" => vec!["/login".into()],
        "/healthz" => vec!["/healthz".into()],
        "/account" => vec!["/account".into()],
        "/admin/users" => vec!["/admin/users".into()],
        "/admin/health" => vec!["/admin/health".into()],
        "/t/new" => vec!["/t/new".into()],
        "/t/{tid:\\d+}" => vec![format!("/t/{s}"), format!("/t/{k}")],
        "/t/{tid:\\d+}/edit" => vec![format!("/t/{s}/edit")],
        "/t/{tid:\\d+}/audit" => vec![
            format!("/t/{s}/audit"),
            format!("/t/{s}/audit?round=1&referee=admin"),
        ],
        "/t/{tid:\\d+}/players.csv" => vec![format!("/t/{s}/players.csv")],
        "/t/{tid:\\d+}/players/{pid:\\d+}/edit" => vec![format!("/t/{s}/players/{p}/edit")],
        "/t/{tid:\\d+}/import" => vec![format!("/t/{s}/import")],
        "/t/{tid:\\d+}/rounds/{n:\\d+}" => vec![
            format!("/t/{s}/rounds/2"),
            format!("/t/{s}/rounds/2?q=a"),
            format!("/t/{s}/rounds/3"),
            format!("/t/{k}/rounds/1"),
            format!("/t/{l}/rounds/1"),
        ],
        "/t/{tid:\\d+}/rounds/{n:\\d+}/results" => {
            vec![
                format!("/t/{s}/rounds/2/results"),
                format!("/t/{k}/rounds/1/results"),
            ]
        }
        "/t/{tid:\\d+}/rounds/{n:\\d+}/slips" => vec![format!("/t/{s}/rounds/2/slips")],
        "/t/{tid:\\d+}/standings" => vec![format!("/t/{s}/standings"), format!("/t/{l}/standings")],
        "/t/{tid:\\d+}/teams" => vec![format!("/t/{l}/teams")],
        "/t/{tid:\\d+}/teams/{team:\\d+}" => vec![format!("/t/{l}/teams/{team}")],
        "/t/{tid:\\d+}/rounds/{n:\\d+}/lineups/{team:\\d+}" => {
            vec![format!("/t/{l}/rounds/1/lineups/{team}")]
        }
        "/t/{tid:\\d+}/rounds/{n:\\d+}/cards" => vec![format!("/t/{l}/rounds/1/cards")],
        "/t/{tid:\\d+}/rounds/{n:\\d+}/matches.csv" => {
            vec![format!("/t/{l}/rounds/1/matches.csv")]
        }
        "/captain/{token}" => vec![format!("/captain/{}", d.captain)],
        "/api/v1/tournaments/{tid:\\d+}/teams" => vec![format!("/api/v1/tournaments/{l}/teams")],
        "/t/{tid:\\d+}/standings.csv" => vec![format!("/t/{s}/standings.csv")],
        "/t/{tid:\\d+}/crosstable" => vec![format!("/t/{s}/crosstable")],
        "/t/{tid:\\d+}/crosstable.csv" => vec![format!("/t/{s}/crosstable.csv")],
        "/t/{tid:\\d+}/bracket" => vec![format!("/t/{k}/bracket")],
        "/t/{tid:\\d+}/rounds/{n:\\d+}/pairings.csv" => {
            vec![format!("/t/{s}/rounds/1/pairings.csv")]
        }
        "/t/{tid:\\d+}/players/{pid:\\d+}" => vec![format!("/t/{s}/players/{p}")],
        "/t/{tid:\\d+}/games/{gid:\\d+}" => vec![
            format!("/t/{s}/games/{g}"),
            format!("/t/{s}/games/{g}?record=referee&ply=7"),
        ],
        "/t/{tid:\\d+}/rounds/{n:\\d+}/scoresheets" => vec![
            format!("/t/{s}/rounds/2/scoresheets"),
            format!("/t/{s}/rounds/2/scoresheets?table=1"),
        ],
        "/t/{tid:\\d+}/games.txt" => vec![format!("/t/{s}/games.txt")],
        "/t/{tid:\\d+}/event.json" => vec![format!("/t/{s}/event.json")],
        "/t/{tid:\\d+}/export.trf" => vec![format!("/t/{s}/export.trf")],
        "/p/{pid:\\d+}/{key:[0-9a-f]{32}}" => vec![d.link.clone()],
        "/player/{key}" => vec![d.own.clone()],
        "/player/{key}/manifest.webmanifest" => vec![format!("{}/manifest.webmanifest", d.own)],
        "/api/v1/player/{key}" => vec![format!("/api/v1{}", d.own)],
        "/t/{tid:\\d+}/display" => vec![format!("/t/{s}/display"), format!("/t/{l}/display")],
        "/t/{tid:\\d+}/rounds/{n:\\d+}/links" => vec![format!("/t/{s}/rounds/2/links")],
        "/api/v1/tournaments/{tid:\\d+}/rounds/{n:\\d+}/links" => {
            vec![format!("/api/v1/tournaments/{s}/rounds/2/links")]
        }
        "/api/v1/games/{gid:\\d+}" => vec![format!("/api/v1/games/{g}")],
        "/api/v1/games/{gid:\\d+}/live" => vec![format!("/api/v1/games/{g}/live")],
        "/api/v1/me" => vec!["/api/v1/me".into()],
        "/api/v1/openapi.json" => vec!["/api/v1/openapi.json".into()],
        "/api/v1/tournaments/{tid:\\d+}/rounds/{n:\\d+}" => {
            vec![format!("/api/v1/tournaments/{s}/rounds/1")]
        }
        "/api/v1/tournaments/{tid:\\d+}/standings" => {
            vec![format!("/api/v1/tournaments/{s}/standings")]
        }
        "/people" => vec!["/people".into(), "/people?q=mok".into()],
        "/api/v1/tournaments" => vec!["/api/v1/tournaments".into()],
        "/api/v1/tournaments/{tid:\\d+}" => vec![format!("/api/v1/tournaments/{s}")],
        "/api/v1/tournaments/{tid:\\d+}/publication" => {
            vec![format!("/api/v1/tournaments/{s}/publication")]
        }
        "/people.csv" => vec!["/people.csv".into()],
        "/people/{id:\\d+}" => vec![format!("/people/{}", d.person)],
        "/ratings" => vec!["/ratings".into(), "/ratings?period=2026-06".into()],
        "/seasons" => vec!["/seasons".into()],
        "/seasons/{id:\\d+}" => vec![format!("/seasons/{}", d.season)],
        "/seasons/{id:\\d+}/standings.csv" => vec![format!("/seasons/{}/standings.csv", d.season)],
        "/seasons/{id:\\d+}/edit" => vec![format!("/seasons/{}/edit", d.season)],
        "/api/v1/seasons" => vec!["/api/v1/seasons".into()],
        "/api/v1/people" => vec!["/api/v1/people?q=mok".into()],
        "/api/v1/people/{id:\\d+}" => vec![format!("/api/v1/people/{}", d.person)],
        "/api/v1/ratings" => vec!["/api/v1/ratings".into()],
        "/api/v1/health/data" => vec!["/api/v1/health/data".into()],
        "/api/v1/seasons/{id:\\d+}/standings" => {
            vec![format!("/api/v1/seasons/{}/standings", d.season)]
        }
        _ => return None,
    };
    Some(v)
}

/// A tournament with players, made through the API.
fn tournament(api: &mut Client, body: serde_json::Value, names: &[&str]) -> (i64, Vec<i64>) {
    let tid = api.create("/api/v1/tournaments", body)["id"]
        .as_i64()
        .unwrap();
    let ids = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            api.create(
                &format!("/api/v1/tournaments/{tid}/players"),
                json!({"name": name, "club": format!("Club {}", i % 3), "rating": 1900 - 40 * i as i64}),
            )["id"].as_i64().unwrap()
        })
        .collect();
    (tid, ids)
}

/// Pairs and publishes the next round through the API and enters results
/// for the first `played` pairings (each game won by its starter).
fn play_round(api: &mut Client, tid: i64, played: usize) {
    let round = api.create(&format!("/api/v1/tournaments/{tid}/rounds"), json!({}));
    let pairings = round["pairings"].as_array().unwrap();
    for p in pairings
        .iter()
        .filter(|p| !p["second_id"].is_null())
        .take(played)
    {
        for g in p["games"].as_array().unwrap() {
            let put = api.send_json(
                "PUT",
                &format!("/api/v1/games/{}", g["id"]),
                json!({"result": "1-0"}),
            );
            assert_eq!(put.status, 200, "{}", put.body);
        }
    }
}

/// One thing axe-core found.
struct Finding {
    page: String,
    session: Session,
    width: u32,
    rule: String,
    impact: String,
    help: String,
    targets: Vec<String>,
}

/// Sets the viewport (not the window) to `width` x `height`.
async fn resize(b: &fantoccini::Client, width: u32, height: u32) {
    let inner = |b: &fantoccini::Client| {
        let b = b.clone();
        async move {
            let v = b
                .execute("return [window.innerWidth, window.innerHeight];", vec![])
                .await
                .unwrap();
            (v[0].as_u64().unwrap() as u32, v[1].as_u64().unwrap() as u32)
        }
    };
    b.set_window_size(width, height).await.unwrap();
    let (w, h) = inner(b).await;
    if (w, h) != (width, height) {
        // The window has a frame: grow it by the difference.
        b.set_window_size(
            width + width - w.min(width),
            height + height - h.min(height),
        )
        .await
        .unwrap();
    }
    assert_eq!(inner(b).await.0, width, "the viewport is {width} px wide");
}

/// What the audit has seen so far.
#[derive(Default)]
struct Audit {
    /// axe-core's own version, as it reports it.
    version: String,
    /// Pages audited (URL and session).
    pages: usize,
    /// axe-core runs (pages times widths).
    checks: usize,
    found: Vec<Finding>,
}

/// Runs axe-core on the page the browser shows, at every width.
async fn audit(b: &fantoccini::Client, axe: &str, session: Session, seen: &mut Audit) {
    let page = path(b).await;
    let version = b
        .execute(&format!("{axe}\n;return axe.version;"), vec![])
        .await
        .unwrap_or_else(|e| panic!("inject axe-core into {page}: {e}"));
    seen.version = version
        .as_str()
        .unwrap_or_else(|| panic!("axe-core did not load on {page}"))
        .to_string();
    seen.pages += 1;
    for (width, height) in WIDTHS {
        resize(b, width, height).await;
        let result = b
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']})
                   .then(r => done({violations: r.violations.map(v => ({
                       id: v.id, impact: v.impact || '', help: v.help,
                       targets: v.nodes.map(n => n.target.join(' '))}))}))
                   .catch(e => done({error: String(e)}));",
                vec![json!(TAGS)],
            )
            .await
            .unwrap_or_else(|e| panic!("axe-core on {page} at {width} px: {e}"));
        if let Some(e) = result.get("error") {
            panic!("axe-core failed on {page} at {width} px: {e}");
        }
        seen.checks += 1;
        for v in result["violations"].as_array().unwrap() {
            seen.found.push(Finding {
                page: page.clone(),
                session,
                width,
                rule: v["id"].as_str().unwrap_or_default().into(),
                impact: v["impact"].as_str().unwrap_or_default().into(),
                help: v["help"].as_str().unwrap_or_default().into(),
                targets: v["targets"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_str().unwrap_or_default().to_string())
                    .collect(),
            });
        }
    }
}

#[tokio::test(flavor = "current_thread")]
async fn every_page_passes_the_wcag_a_and_aa_rules_of_axe_core() {
    let Some(axe) = axe_source() else {
        return;
    };
    // The first-setup page exists only while there are no accounts.
    let fresh = TestApp::start("sqlite");
    let app = TestApp::start("sqlite");
    let admin = app.user("thandi", Role::Admin);
    let referee = app.user("nomsa", Role::Referee);
    let mut api = app.script_for(&admin);
    app.script_for(&referee); // the referee's account page lists a token

    let (swiss, players) = tournament(
        &mut api,
        json!({"name": "Mangaung Open", "system": "swiss", "rules": "gar", "rounds": 5, "venue": "Bloemfontein City Hall"}),
        &[
            "Kagiso Molefe",
            "Refilwe Dube",
            "Tumelo Sithole",
            "Palesa Nkosi",
            "Bongani Khumalo",
            "Zodwa Mthembu",
            "Musa Mthembu",
        ],
    );
    kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
        kraal::db::players::add_relation(
            w,
            kraal::ids::TournamentId(swiss as i32),
            kraal::ids::EntryId(players[5] as i32),
            kraal::ids::EntryId(players[6] as i32),
        )
    })
    .unwrap();
    // Rounds 1 and 2 played (a bye each), round 3 paired through the page:
    // a draft, with the swap form.
    play_round(&mut api, swiss, 3);
    play_round(&mut api, swiss, 3);
    let mut admin_web = app.client_as(&admin);
    let r = admin_web.post(&format!("/t/{swiss}/rounds"), &[]);
    assert!(r.status < 400, "pair round 3: {} {}", r.status, r.body);

    let (knockout, _) = tournament(
        &mut api,
        json!({"name": "Free State Cup", "system": "knockout", "rules": "official", "rounds": 3}),
        &[
            "Lerato Mokoena",
            "Sipho Ndlovu",
            "Thabo Mabaso",
            "Naledi Zulu",
            "Ayanda Khoza",
        ],
    );
    play_round(&mut api, knockout, 1); // two matches, one result in, two byes
    let (league, members) = tournament(
        &mut api,
        json!({"name": "Gauteng Club League", "system": "team_league", "rules": "official"}),
        &[
            "Thabo Nkosi",
            "Sipho Dlamini",
            "Lerato Mokoena",
            "Zanele Khumalo",
            "Bheki Zulu",
            "Nomsa Ndlovu",
            "Kagiso Molefe",
            "Ayanda Shabalala",
            "Palesa Sithole",
        ],
    );
    let mut teams = Vec::new();
    for (name, roster, subs) in [
        ("Soweto Lions", &members[0..4], &members[8..9]),
        ("Tembisa Eagles", &members[4..8], &[][..]),
    ] {
        teams.push(
            api.create(
                &format!("/api/v1/tournaments/{league}/teams"),
                json!({"name": name, "members": roster, "substitutes": subs}),
            )["id"]
                .as_i64()
                .unwrap(),
        );
    }
    api.create(&format!("/api/v1/tournaments/{league}/rounds"), json!({}));
    let captain = kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
        kraal::db::teams::renew_captain_link(
            w,
            kraal::ids::TournamentId(league as i32),
            kraal::ids::TeamId(teams[0] as i32),
        )
    })
    .unwrap();
    for t in [swiss, knockout, league] {
        kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
            kraal::db::tournaments::assign_referee(w, kraal::ids::TournamentId(t as i32), &referee)
        })
        .unwrap();
    }
    // Records of a game of round 1: a clean one and one with irregularities.
    let (_, pairings, games) =
        kraal::db::rounds::everything(&mut app.conn(), kraal::ids::TournamentId(swiss as i32))
            .unwrap();
    let game = games[0].id;
    for (side, text) in [
        (
            kraal::tournament::RecordSide::Dark,
            "1. a1 d7 2. d1 g7 3. g1xd7 a7 4. b2 b6",
        ),
        (
            kraal::tournament::RecordSide::Referee,
            "1. a1 d7 2. d1 g7 3. g1 a7 4. b2xa7 b6",
        ),
    ] {
        kraal::director::scoresheets::submit(&mut app.conn(), game, side, text, &admin).unwrap();
    }
    let last = pairings
        .iter()
        .find(|p| p.second_player_id.is_some())
        .unwrap();
    let key = kraal::director::scoresheets::link_key(&mut app.conn(), last.id).unwrap();
    // The registry: two people with imported ratings who met in June, a
    // duplicate merged and unmerged, a season over their event.
    let people: Vec<i64> = [
        ("Mpho Mokoena", "GP-1", 1620),
        ("Tumi Mokoena", "GP-2", 1540),
    ]
    .iter()
    .map(|(name, fid, rating)| {
        api.create(
            "/api/v1/people",
            json!({"name": name, "federation_id": fid, "club": fid,
                       "rating": {"rating": rating, "rd": 120, "period": "2026-05"}}),
        )["id"]
            .as_i64()
            .unwrap()
    })
    .collect();
    let twin = api.create("/api/v1/people", json!({"name": "M. Mokoena"}))["id"]
        .as_i64()
        .unwrap();
    let merge = api.create(
        &format!("/api/v1/people/{twin}/merge"),
        json!({"into": people[0]}),
    );
    api.send_json(
        "DELETE",
        &format!("/api/v1/merges/{}", merge["id"]),
        json!({}),
    );
    let derby = api.create(
        "/api/v1/tournaments",
        json!({"name": "Soweto Derby", "system": "round_robin", "rules": "official"}),
    )["id"]
        .as_i64()
        .unwrap();
    for p in &people {
        api.create(
            &format!("/api/v1/tournaments/{derby}/players"),
            json!({"person": p}),
        );
    }
    let round = api.create(
        &format!("/api/v1/tournaments/{derby}/rounds"),
        json!({"date": "2026-06-13"}),
    );
    for g in round["pairings"][0]["games"].as_array().unwrap() {
        api.send_json(
            "PUT",
            &format!("/api/v1/games/{}", g["id"]),
            json!({"result": "1-0"}),
        );
    }
    let season = api.create(
        "/api/v1/seasons",
        json!({"name": "Gauteng Grand Prix", "events": [{"tournament": derby}]}),
    )["id"]
        .as_i64()
        .unwrap();
    api.send_json(
        "PUT",
        &format!("/api/v1/tournaments/{swiss}/rounds/2/clock"),
        json!({"minutes": 40}),
    );
    let own = kraal::db::links::key(&mut app.conn(), kraal::ids::EntryId(players[0] as i32))
        .unwrap()
        .unwrap();
    let mine = api.get(&format!("/api/v1/player/{own}")).json();
    if let Some(g) = mine["current"]["games"].get(0) {
        app.client().send_json(
            "POST",
            &format!("/api/v1/player/{own}/results"),
            json!({"game": g["id"], "result": "1/2-1/2"}),
        );
    }
    let own_game = mine["current"]["games"][1]["id"].as_i64().unwrap();
    let opponent = mine["current"]["opponent_id"].as_i64().unwrap();
    let theirs = kraal::db::links::key(&mut app.conn(), kraal::ids::EntryId(opponent as i32))
        .unwrap()
        .unwrap();
    for key in [&own, &theirs] {
        for (n, ply) in ["C5", "D5", "E5", "A1", "B4", "B4"].iter().enumerate() {
            app.client().send_json(
                "POST",
                &format!("/api/v1/player/{key}/games/{own_game}/plies"),
                json!({"ply": n + 1, "move": ply}),
            );
        }
    }
    let data = Data {
        own: format!("/player/{own}"),
        own_game,
        swiss,
        knockout,
        player: players[0],
        league,
        team: teams[0],
        captain,
        game: i64::from(game),
        link: format!("/p/{}/{key}", last.id),
        person: people[0],
        season,
    };

    // Every GET route of the table, with its sample URLs; HTML ones only.
    let mut pages: Vec<(Access, String)> = Vec::new();
    let mut routes = 0;
    for route in ROUTES.iter().filter(|r| r.method == "GET") {
        let urls = samples(route.path, &data).unwrap_or_else(|| {
            panic!(
                "no sample URL for GET {}: add one to samples() in tests/accessibility.rs",
                route.path
            )
        });
        let mut html = false;
        for url in urls {
            let reply = if route.access == Access::Setup {
                fresh.client().get(&url)
            } else {
                admin_web.get(&url)
            };
            assert_eq!(reply.status, 200, "GET {url}: {}", reply.body);
            if reply.content_type == "text/html" {
                html = true;
                pages.push((route.access, url));
            }
        }
        routes += usize::from(html);
    }

    let Some((b, _driver)) = browser().await else {
        return;
    };
    let mut seen = Audit::default();
    for session in [Session::Anonymous, Session::Referee, Session::Admin] {
        match session {
            Session::Anonymous => {}
            Session::Referee | Session::Admin => {
                let name = if session == Session::Referee {
                    "nomsa"
                } else {
                    "thandi"
                };
                navigate(&b, Go::To(&format!("{}/login", app.base))).await;
                fill_sign_in(&b, name).await;
                assert!(
                    b.find(Locator::Css("button.link")).await.is_ok(),
                    "{name} is signed in"
                );
            }
        }
        for (access, url) in &pages {
            if !session.may_see(*access) {
                continue;
            }
            let base = if *access == Access::Setup {
                &fresh.base
            } else {
                &app.base
            };
            navigate(&b, Go::To(&format!("{base}{url}"))).await;
            assert_eq!(&path(&b).await, url, "{session:?} sees {url} itself");
            audit(&b, &axe, session, &mut seen).await;
        }
        // Pages that no route names: an error page, and a form sent back
        // with a mistake (invalid field, message beside it).
        match session {
            Session::Anonymous => {
                navigate(&b, Go::To(&format!("{}/t/{}", app.base, 999_999))).await;
                audit(&b, &axe, session, &mut seen).await;
            }
            Session::Referee | Session::Admin => {
                navigate(&b, Go::To(&format!("{}/t/new", app.base))).await;
                b.find(Locator::Id("name"))
                    .await
                    .unwrap()
                    .send_keys("Mangaung Open")
                    .await
                    .unwrap();
                let rounds = b.find(Locator::Id("rounds")).await.unwrap();
                rounds.clear().await.unwrap();
                rounds.send_keys("120").await.unwrap();
                navigate(&b, Go::Click(Locator::Css("main form button[type=submit]"))).await;
                assert!(b.find(Locator::Id("rounds-error")).await.is_ok());
                audit(&b, &axe, session, &mut seen).await;
                navigate(&b, Go::Click(Locator::Css("header button.link"))).await;
            }
        }
    }
    b.close().await.unwrap();
    eprintln!(
        "axe-core {}: {routes} HTML routes, {} sample URLs, {} pages audited (URL x session), \
         {} checks (x {} widths)",
        seen.version,
        pages.len(),
        seen.pages,
        seen.checks,
        WIDTHS.len()
    );
    let found = seen.found;

    if !found.is_empty() {
        // One line per rule and page, widths and sessions merged.
        let mut report: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
        for f in &found {
            report
                .entry((f.rule.clone(), f.page.clone()))
                .or_default()
                .push(format!(
                    "  {:?} at {} px ({}, {}): {}",
                    f.session,
                    f.width,
                    f.impact,
                    f.help,
                    f.targets.join(", ")
                ));
        }
        let text: Vec<String> = report
            .into_iter()
            .map(|((rule, page), lines)| format!("{rule} on {page}\n{}", lines.join("\n")))
            .collect();
        panic!("{} axe-core violations:\n{}", found.len(), text.join("\n"));
    }
}

/// The WCAG relative luminance of `#rrggbb` or `#rgb`.
fn luminance(hex: &str) -> f64 {
    let hex = hex.trim().trim_start_matches('#');
    let hex: String = match hex.len() {
        3 => hex.chars().flat_map(|c| [c, c]).collect(),
        6 => hex.to_string(),
        _ => panic!("not a #rrggbb colour: {hex}"),
    };
    let channel = |i: usize| {
        let c = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
}

fn contrast(a: &str, b: &str) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// axe-core does not judge focus rings, so this reads the colours from the
/// stylesheet: the ring must stand out 3:1 (WCAG 1.4.11) from the page and
/// from the header, which both hold focusable links.
#[test]
fn the_focus_ring_stands_out_from_the_page_and_the_header() {
    let css = include_str!("../static/kraal.css");
    let var = |name: &str| {
        let start = css.find(&format!("{name}:")).unwrap() + name.len() + 1;
        let end = start + css[start..].find(';').unwrap();
        css[start..end].trim().to_string()
    };
    assert!(css.contains("header.site { background: var(--accent);"));
    assert!(css.contains("outline: 3px solid var(--focus)"));
    let focus = var("--focus");
    for (what, background) in [
        ("the page", var("--paper")),
        ("the header", var("--accent")),
    ] {
        let ratio = contrast(&focus, &background);
        assert!(
            ratio >= 3.0,
            "the focus ring {focus} on {what} ({background}): {ratio:.2}:1"
        );
    }
}

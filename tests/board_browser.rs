//! A game recorded on the players' phones, by taps, in real browsers: two
//! phones at 360 px each record both sides' moves (OGR 6.2.6), a capture
//! and a flying move among them, while a third browser watches the live
//! board follow every ply without a reload. Both backends.

#![allow(clippy::unwrap_used)]

mod common;
#[path = "common/browser.rs"]
mod web_browser;

use common::{api_tournament, pair, written, TestApp};
use fantoccini::Locator;
use kraal::db::users::Role;
use kraal::rules::{Game, Move, PlayRules, Status};
use serde_json::{json, Value};
use web_browser::{browser, fits_360, navigate, until, until_kept, Go};

/// A legal game up to the first flying move (a side down to three cows
/// moves a cow to a junction that is not next to it, OGR 3.3), a shot
/// preferred at each turn: its moves, the last one the fly. The shot that
/// left the flying side with three cows is the ply before it.
fn a_game_up_to_a_fly() -> Vec<Move> {
    let rules = PlayRules::OFFICIAL;
    for stride in 1..40 {
        let mut game = Game::new(rules);
        let mut moves = Vec::new();
        while game.status() == Status::Ongoing && moves.len() < 400 {
            let legal = game.legal_moves();
            let side = game.position.side();
            if game.position.flies(&rules, side) {
                let fly = legal.iter().copied().find(|m| {
                    m.from
                        .is_some_and(|f| f.neighbours() & m.to.bit() == 0 && m.shot.is_none())
                });
                if let Some(fly) = fly {
                    moves.push(fly);
                    return moves;
                }
            }
            let mv = legal
                .iter()
                .copied()
                .find(|m| m.shot.is_some())
                .unwrap_or(legal[(moves.len() * stride) % legal.len()]);
            game.play(mv);
            moves.push(mv);
        }
    }
    panic!("no game reached a flying move");
}

/// Taps ply `n` (`mv`) on a phone's board and records it; waits until the
/// server has answered it.
async fn tap(phone: &fantoccini::Client, n: usize, mv: &Move) {
    tap_only(phone, n, mv).await;
    until(
        phone,
        "var s = document.querySelector('section[data-record]'); \
         return s.getAttribute('data-plies') === arguments[0] && s.getAttribute('data-waiting') === '0';",
        vec![json!(n.to_string())],
        &format!("ply {n} is answered"),
    )
    .await;
}

/// Taps ply `n` (`mv`) on a phone's board and records it.
async fn tap_only(phone: &fantoccini::Client, n: usize, mv: &Move) {
    let spot = |j: &str| format!("section[data-record] g.j[data-j={j}]");
    let mut taps = Vec::new();
    if let Some(f) = mv.from {
        taps.push(f.name());
    }
    taps.push(mv.to.name());
    if let Some(s) = mv.shot {
        taps.push(s.name());
    }
    for j in &taps {
        phone
            .find(Locator::Css(&spot(j)))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
    }
    let stage = phone
        .find(Locator::Css("[data-pending]"))
        .await
        .unwrap()
        .attr("data-stage")
        .await
        .unwrap();
    assert_eq!(
        stage.as_deref(),
        Some("ready"),
        "ply {n} ({}) is ready to record",
        written(mv)
    );
    phone
        .find(Locator::Css("[data-send]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn two_phones_record_a_game_by_taps_and_a_viewer_follows_it_live() {
    for backend in common::backends() {
        if !recorded(backend).await {
            return;
        }
    }
}

/// The game on `backend`; false when no browser is at hand.
async fn recorded(backend: &'static str) -> bool {
    let app = TestApp::start(backend);
    let admin = app.user("admin", Role::Admin);
    let mut api = app.script_for(&admin);
    let entries: Vec<Value> = [
        "Lerato Khumalo",
        "Bongani Zulu",
        "Thandeka Ndlovu",
        "Sipho Mahlangu",
    ]
    .iter()
    .map(|n| json!({ "name": n }))
    .collect();
    let (tid, _) = api_tournament(
        &mut api,
        json!({"name": "Durban Open", "rules": "official", "rounds": 3}),
        &entries,
    );
    let table = pair(&mut api, tid)[0].clone();
    let game = table["games"][0]["id"].as_i64().unwrap();
    let links = api
        .get(&format!("/api/v1/tournaments/{tid}/rounds/1/links"))
        .json();
    let url_of = |id: &Value| -> String {
        links["links"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| &l["player"] == id)
            .unwrap()["url"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let (first, second) = (url_of(&table["first_id"]), url_of(&table["second_id"]));
    let (dark, light) = if table["games"][0]["first_started"] == json!(true) {
        (first, second)
    } else {
        (second, first)
    };

    let moves = a_game_up_to_a_fly();
    let fly = moves.len();
    assert!(moves[fly - 2].shot.is_some(), "the shot before the fly");
    // The game's opening, recorded earlier through the API as the phones
    // would; the last four plies (a capture and the fly among them) are
    // tapped.
    let tapped_from = fly - 4;
    for (i, mv) in moves[..tapped_from].iter().enumerate() {
        for url in [&dark, &light] {
            let key = url.rsplit('/').next().unwrap();
            let r = app.client().send_json(
                "POST",
                &format!("/api/v1/player/{key}/games/{game}/plies"),
                json!({"ply": i + 1, "move": written(mv)}),
            );
            assert_eq!(r.status, 201, "[{backend}] ply {}: {}", i + 1, r.body);
        }
    }

    let Some((viewer, _v)) = browser().await else {
        return false;
    };
    let Some((phone_dark, _d)) = browser().await else {
        return false;
    };
    let Some((phone_light, _l)) = browser().await else {
        return false;
    };
    let Some((desk, _k)) = browser().await else {
        return false;
    };
    desk.set_window_size(1280, 900).await.unwrap();
    navigate(&desk, Go::To(&format!("{}/login", app.base))).await;
    web_browser::fill_sign_in(&desk, "admin").await;
    navigate(
        &desk,
        Go::To(&format!("{}/t/{tid}/rounds/1/results", app.base)),
    )
    .await;
    desk.execute("window.kraalNotReloaded = true;", vec![])
        .await
        .unwrap();
    viewer.set_window_size(1280, 900).await.unwrap();
    phone_dark.set_window_size(360, 740).await.unwrap();
    phone_light.set_window_size(360, 740).await.unwrap();
    navigate(
        &viewer,
        Go::To(&format!("{}/t/{tid}/games/{game}/live", app.base)),
    )
    .await;
    viewer
        .execute("window.kraalNotReloaded = true;", vec![])
        .await
        .unwrap();
    for (phone, url) in [(&phone_dark, &dark), (&phone_light, &light)] {
        navigate(phone, Go::To(url)).await;
        fits_360(phone, "the player's page").await;
        navigate(
            phone,
            Go::Click(Locator::Css(&format!("a[data-record-game='{game}']"))),
        )
        .await;
        fits_360(phone, "the board").await;
        until(
            phone,
            "var s = document.querySelector('section[data-record]'); return !!s && s.getAttribute('data-plies') === arguments[0];",
            vec![json!(tapped_from.to_string())],
            "the phone's board shows the opening",
        )
        .await;
    }
    let hit = phone_dark
        .execute(
            "return document.querySelector('g.j[data-j=D2] .hit').getBoundingClientRect().width;",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        hit.as_f64().unwrap() >= 44.0,
        "[{backend}] a junction is a {hit} px target"
    );

    // A wrong tap is taken back before it is sent: Undo leaves the ply
    // to make as it was, and nothing goes to the server.
    let first_tap = moves[tapped_from].from.unwrap_or(moves[tapped_from].to);
    phone_dark
        .find(Locator::Css(&format!(
            "section[data-record] g.j[data-j={}]",
            first_tap.name()
        )))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let stage = |b: &fantoccini::Client| {
        let b = b.clone();
        async move {
            b.find(Locator::Css("[data-pending]"))
                .await
                .unwrap()
                .attr("data-stage")
                .await
                .unwrap()
        }
    };
    assert_ne!(
        stage(&phone_dark).await.as_deref(),
        Some("start"),
        "[{backend}] a tap"
    );
    phone_dark
        .find(Locator::Css("[data-undo]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(
        stage(&phone_dark).await.as_deref(),
        Some("start"),
        "[{backend}] undone"
    );
    for (i, mv) in moves.iter().enumerate().skip(tapped_from) {
        let n = i + 1;
        tap(&phone_dark, n, mv).await;
        // The viewer follows the starter's record, without a reload.
        until(
            &viewer,
            "var s = document.querySelector('section[data-record]'); return s.getAttribute('data-plies') === arguments[0] && window.kraalNotReloaded === true;",
            vec![json!(n.to_string())],
            &format!("[{backend}] the viewer sees ply {n}"),
        )
        .await;
        tap(&phone_light, n, mv).await;
    }

    // Both records hold the game as played, every ply accepted, and the
    // viewer's board shows the position after the fly.
    let live = app
        .client()
        .get(&format!("/api/v1/games/{game}/live"))
        .json();
    let plies = live["plies"].as_array().unwrap();
    assert_eq!(plies.len(), fly, "[{backend}] {live}");
    assert!(
        plies.iter().all(|p| p["status"] == "accepted"),
        "[{backend}] {live}"
    );
    assert_eq!(live["differ_at"], Value::Null, "[{backend}] {live}");
    assert!(
        plies[fly - 2]["move"].as_str().unwrap().contains(" x "),
        "[{backend}] the capture: {}",
        plies[fly - 2]
    );
    assert!(
        plies[fly - 2]["triplet"].is_string(),
        "[{backend}] the capture column: {}",
        plies[fly - 2]
    );
    let mut game_now = Game::new(PlayRules::OFFICIAL);
    for mv in &moves {
        game_now.play(*mv);
    }
    let drawn: Vec<Value> = viewer
        .execute(
            "return Array.prototype.map.call(document.querySelectorAll('g.j[data-owner]'), function (g) { return g.getAttribute('data-j') + ':' + g.getAttribute('data-owner'); }).sort();",
            vec![],
        )
        .await
        .unwrap()
        .as_array()
        .unwrap()
        .clone();
    let mut expected: Vec<String> = kraal::rules::board::Junction::all()
        .filter_map(|j| {
            game_now
                .position
                .owner(j)
                .map(|s| format!("{}:{}", j.name(), s.name()))
        })
        .collect();
    expected.sort();
    let drawn: Vec<String> = drawn
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(drawn, expected, "[{backend}] the viewer's board");
    let moved = viewer
        .execute(
            "return document.querySelectorAll('ol[data-moves] li').length;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(moved, json!(fly), "[{backend}] the viewer's move list");

    // The dark phone records a cow of the side that has just moved moved
    // again, an irregular ply: the desk, open all along, flags the game
    // without a reload.
    let wrong = a_cow_of_the_wrong_side(&game_now);
    tap(&phone_dark, fly + 1, &wrong).await;
    until(
        &desk,
        "return !!document.querySelector('[data-flagged=\"' + arguments[0] + '\"]') && window.kraalNotReloaded === true;",
        vec![json!(game)],
        &format!("[{backend}] the open desk flags the irregular ply"),
    )
    .await;
    true
}

/// A step of a cow of the side not to move, to a neighbour that leaves it
/// no line of three (no shot asked): irregular whoever plays it.
fn a_cow_of_the_wrong_side(game: &Game) -> Move {
    use kraal::rules::board::{Junction, LINES};
    let pos = &game.position;
    let side = pos.side().other();
    for from in Junction::all().filter(|j| pos.owner(*j) == Some(side)) {
        for to in Junction::all() {
            if pos.owner(to).is_some() || from.neighbours() & to.bit() == 0 {
                continue;
            }
            let owned = |j: Junction| j == to || (j != from && pos.owner(j) == Some(side));
            let line = LINES.iter().any(|l| {
                l.contains(&(to.index() as u8))
                    && l.iter().all(|&k| Junction::new(k).is_some_and(owned))
            });
            if !line {
                return Move::step(from, to);
            }
        }
    }
    panic!("no cow of the side not to move can step");
}

/// A phone in a dead spot goes on recording, on both backends: the board
/// opened once opens again from the phone with the plies recorded so far;
/// plies tapped meanwhile wait on it, and once the server is back they are
/// stored in order, each once.
#[tokio::test(flavor = "current_thread")]
async fn a_board_in_a_dead_spot_goes_on_recording_and_sends_its_plies_in_order() {
    for backend in common::backends() {
        if !dead_spot(backend).await {
            return;
        }
    }
}

/// The walk of the test above on one backend; false without a browser.
async fn dead_spot(backend: &'static str) -> bool {
    let app = TestApp::start(backend);
    let admin = app.user("admin", Role::Admin);
    let mut api = app.script_for(&admin);
    let entries: Vec<Value> = [
        "Mpho Sello",
        "Dineo Moloi",
        "Tshepo Kekana",
        "Lindiwe Nxumalo",
    ]
    .iter()
    .map(|n| json!({ "name": n }))
    .collect();
    let (tid, _) = api_tournament(
        &mut api,
        json!({"name": "Kimberley Open", "rules": "official", "rounds": 3}),
        &entries,
    );
    let table = pair(&mut api, tid)[0].clone();
    let game = table["games"][0]["id"].as_i64().unwrap();
    let starter = if table["games"][0]["first_started"] == json!(true) {
        &table["first_id"]
    } else {
        &table["second_id"]
    };
    let links = api
        .get(&format!("/api/v1/tournaments/{tid}/rounds/1/links"))
        .json();
    let url = links["links"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| &l["player"] == starter)
        .unwrap()["url"]
        .as_str()
        .unwrap()
        .to_string();
    let key = url.rsplit('/').next().unwrap().to_string();
    let board = format!("/player/{key}/games/{game}/record");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let served = common::Served::start_on(port, &app.database_url, |_| {});
    let base = served.base.clone();

    let Some((phone, _driver)) = browser().await else {
        return false;
    };
    phone.set_window_size(360, 740).await.unwrap();
    navigate(&phone, Go::To(&format!("{base}{board}"))).await;
    until_kept(&phone, &board).await;
    let plies: Vec<Move> = ["D2", "D6", "F4", "B4"]
        .iter()
        .map(|j| Move::place(kraal::rules::board::Junction::parse(j).unwrap()))
        .collect();
    tap(&phone, 1, &plies[0]).await;

    // The network goes; the player opens the board again and records on.
    drop(served);
    navigate(&phone, Go::To(&format!("{base}{board}"))).await;
    let html = phone.find(Locator::Css("html")).await.unwrap();
    assert!(
        html.attr("data-offline-as-of").await.unwrap().is_some(),
        "[{backend}] the board comes from the phone"
    );
    until(
        &phone,
        "return document.querySelector('section[data-record]').getAttribute('data-plies') === '1';",
        vec![],
        "the board kept offline shows the ply recorded",
    )
    .await;
    for (i, mv) in plies.iter().enumerate().skip(1) {
        tap_only(&phone, i + 1, mv).await;
        until(
            &phone,
            "var s = document.querySelector('section[data-record]'); return s.getAttribute('data-plies') === arguments[0] && s.getAttribute('data-waiting') === arguments[1];",
            vec![json!((i + 1).to_string()), json!(i.to_string())],
            &format!("[{backend}] ply {} waits on the phone", i + 1),
        )
        .await;
    }
    let stored = || {
        kraal::db::plies::of_game(&mut app.conn(), kraal::ids::GameId(game as i32))
            .unwrap()
            .into_iter()
            .map(|p| p.written)
            .collect::<Vec<String>>()
    };
    assert_eq!(stored(), ["D2-1"], "[{backend}] nothing arrived meanwhile");

    // The network comes back: the plies go, in order, each once.
    let _served = common::Served::start_on(port, &app.database_url, |_| {});
    navigate(&phone, Go::Click(Locator::Css("[data-net-retry]"))).await;
    until(
        &phone,
        "var s = document.querySelector('section[data-record]'); return !!s && s.getAttribute('data-plies') === '4' && s.getAttribute('data-waiting') === '0';",
        vec![],
        &format!("[{backend}] the waiting plies are answered"),
    )
    .await;
    assert_eq!(
        stored(),
        ["D2-1", "D6-13", "F4-2", "B4-14"],
        "[{backend}] stored in order, each once"
    );
    true
}

//! A game recorded on the players' phones, by taps, in real browsers: two
//! phones at 360 px each record both sides' moves (OGR 6.2.6), a capture
//! and a flying move among them, while a third browser watches the live
//! board follow every ply without a reload. Both backends.

#![allow(clippy::unwrap_used)]

mod common;
#[path = "common/browser.rs"]
mod web_browser;

use common::{api_tournament, pair, TestApp};
use fantoccini::Locator;
use kraal::db::users::Role;
use kraal::rules::{Game, Move, PlayRules, Status};
use serde_json::{json, Value};
use web_browser::{browser, fits_360, navigate, until, Go};

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

/// A ply as a player writes it: `C5`, `A1-A4`, `D2-D3 x F2`.
fn written(mv: &Move) -> String {
    let mut s = match mv.from {
        Some(f) => format!("{}-{}", f.name(), mv.to.name()),
        None => mv.to.name().to_string(),
    };
    if let Some(t) = mv.shot {
        s.push_str(&format!(" x {}", t.name()));
    }
    s
}

/// Taps ply `n` (`mv`) on a phone's board and records it; waits until the
/// server has answered it.
async fn tap(phone: &fantoccini::Client, n: usize, mv: &Move) {
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
    until(
        phone,
        "var s = document.querySelector('section[data-record]'); \
         return s.getAttribute('data-plies') === arguments[0] && s.getAttribute('data-waiting') === '0';",
        vec![json!(n.to_string())],
        &format!("ply {n} is answered"),
    )
    .await;
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
    true
}

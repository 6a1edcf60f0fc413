//! Players at the venue in real browsers: two phones (360 px) report their
//! games through their personal links, and the results desk (1280 px),
//! open all the while, shows the agreed result and the disputed game
//! without anyone reloading it.

#![allow(clippy::unwrap_used)]

mod common;
#[path = "common/browser.rs"]
mod web_browser;

use std::time::{Duration, Instant};

use common::{api_tournament, pair, Client, TestApp};
use fantoccini::Locator;
use kraal::db::users::Role;
use serde_json::json;
use web_browser::{browser, navigate, Go};

/// The four players of both events here.
const NAMES: [&str; 4] = [
    "Kagiso Molefe",
    "Refilwe Dube",
    "Tumelo Sithole",
    "Palesa Nkosi",
];

/// Runs `script` until it returns true, or fails saying `what`.
async fn until(b: &fantoccini::Client, script: &str, args: Vec<serde_json::Value>, what: &str) {
    let start = Instant::now();
    loop {
        let v = b.execute(script, args.clone()).await.unwrap();
        if v == json!(true) {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "{what} (20 s)");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The page fits the phone: nothing runs off its right edge.
async fn fits_360(b: &fantoccini::Client, what: &str) {
    let r = b
        .execute(
            "return [window.innerWidth, document.documentElement.scrollWidth];",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(r[0], json!(360), "{what}: the viewport");
    assert!(r[1].as_i64().unwrap() <= 360, "{what} is {} px wide", r[1]);
}

/// Opens a player's page on a phone and taps one of a game's buttons.
async fn report(phone: &fantoccini::Client, url: &str, game: i64, button: &str) {
    navigate(phone, Go::To(url)).await;
    fits_360(phone, "the player's page").await;
    let form = phone
        .find(Locator::Css(&format!("#g{game} form.report")))
        .await
        .unwrap();
    let choice = form
        .find(Locator::XPath(&format!(
            ".//button[normalize-space(.)='{button}']"
        )))
        .await
        .unwrap();
    navigate(phone, Go::ClickOn(choice)).await;
    let notice = phone
        .find(Locator::Id("done"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(notice, "Your report is in.");
}

#[tokio::test(flavor = "current_thread")]
async fn two_phones_report_and_the_open_desk_shows_it_without_a_reload() {
    let app = TestApp::start("sqlite");
    let admin = app.user("admin", Role::Admin);
    let mut api: Client = app.script_for(&admin);
    let entries: Vec<_> = NAMES
        .iter()
        .enumerate()
        .map(|(i, n)| json!({"name": n, "rating": 2000 - 10 * i as i64}))
        .collect();
    let (tid, _) = api_tournament(
        &mut api,
        json!({"name": "Mafikeng Open", "rules": "official", "rounds": 3}),
        &entries,
    );
    let r1 = pair(&mut api, tid);
    let links = api
        .get(&format!("/api/v1/tournaments/{tid}/rounds/1/links"))
        .json();
    let url_of = |id: &serde_json::Value| {
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
    let (first, second) = (url_of(&r1[0]["first_id"]), url_of(&r1[0]["second_id"]));
    let first_name = r1[0]["first"].as_str().unwrap().to_string();
    let (g1, g2) = (
        r1[0]["games"][0]["id"].as_i64().unwrap(),
        r1[0]["games"][1]["id"].as_i64().unwrap(),
    );

    let Some((desk, _desk_driver)) = browser().await else {
        return;
    };
    desk.set_window_size(1280, 900).await.unwrap();
    navigate(&desk, Go::To(&format!("{}/login", app.base))).await;
    web_browser::fill_sign_in(&desk, "admin").await;
    navigate(
        &desk,
        Go::To(&format!("{}/t/{tid}/rounds/1/results", app.base)),
    )
    .await;
    until(
        &desk,
        "return document.documentElement.getAttribute('data-live-heard') !== null;",
        vec![],
        "the desk hears its event stream",
    )
    .await;
    desk.execute("window.notReloaded = true;", vec![])
        .await
        .unwrap();

    let Some((phone_a, _a)) = browser().await else {
        return;
    };
    let Some((phone_b, _b)) = browser().await else {
        return;
    };
    for phone in [&phone_a, &phone_b] {
        phone.set_window_size(360, 740).await.unwrap();
    }
    // Game 1: both say the first player (who starts it) won.
    report(&phone_a, &first, g1, "I won").await;
    report(&phone_b, &second, g1, &format!("{first_name} won")).await;
    let state = phone_b
        .find(Locator::Css(&format!("#g{g1} .report-state")))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(state.contains("reported by both players"), "{state}");
    until(
        &desk,
        "var s = document.getElementById(arguments[0]); return !!s && s.value === '1-0' && !!document.querySelector('[data-reported=\"' + arguments[1] + '\"]');",
        vec![json!(format!("g{g1}")), json!(g1)],
        "the desk shows the agreed result",
    )
    .await;

    // Game 2: they disagree; the desk flags it, still without a reload.
    report(&phone_a, &first, g2, "Draw").await;
    report(&phone_b, &second, g2, "I won").await;
    until(
        &desk,
        "return !!document.querySelector('#disputes [data-disputes]') && !!document.querySelector('[data-disputed=\"' + arguments[0] + '\"]');",
        vec![json!(g2)],
        "the desk flags the disputed game",
    )
    .await;
    let same = desk
        .execute("return window.notReloaded === true;", vec![])
        .await
        .unwrap();
    assert_eq!(
        same,
        json!(true),
        "the desk updated itself without a reload"
    );
    let disputes = desk
        .find(Locator::Id("disputes"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(disputes.contains("Table 1, game 2"), "{disputes}");
    // The player sees the dispute too, and may correct their report.
    navigate(&phone_a, Go::To(&first)).await;
    let mine = phone_a
        .find(Locator::Css(&format!("#g{g2}")))
        .await
        .unwrap()
        .attr("data-state")
        .await
        .unwrap();
    assert_eq!(mine.as_deref(), Some("disputed"));
}

/// The venue display left open: it turns through its panels, says when the
/// server is gone, and catches up by itself once it is back.
#[tokio::test(flavor = "current_thread")]
async fn the_venue_display_comes_back_by_itself_after_the_network_drops() {
    let app = TestApp::start("sqlite");
    let admin = app.user("admin", Role::Admin);
    let mut api: Client = app.script_for(&admin);
    let entries: Vec<_> = NAMES.iter().map(|n| json!({"name": n})).collect();
    let (tid, _) = api_tournament(
        &mut api,
        json!({"name": "Rustenburg Open", "rules": "official", "rounds": 3}),
        &entries,
    );
    let r1 = pair(&mut api, tid);
    let r = api.send_json(
        "PUT",
        &format!("/api/v1/tournaments/{tid}/rounds/1/clock"),
        json!({"minutes": 40}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let served = common::Served::start_on(port, &app.database_url, |_| {});
    let Some((tv, _driver)) = browser().await else {
        return;
    };
    tv.set_window_size(1280, 720).await.unwrap();
    navigate(&tv, Go::To(&format!("{}/t/{tid}/display", served.base))).await;
    let clock = tv.find(Locator::Css("[data-clock]")).await.unwrap();
    let tone = clock.attr("data-tone").await.unwrap();
    assert_eq!(tone.as_deref(), Some("running"), "40 minutes left");
    until(
        &tv,
        "return /^(39|40):\\d\\d left$/.test(document.querySelector('[data-clock]').textContent);",
        vec![],
        "the clock counts down",
    )
    .await;
    tv.execute("window.notReloaded = true;", vec![])
        .await
        .unwrap();

    // The server goes; the screen says so.
    drop(served);
    until(
        &tv,
        "var n = document.querySelector('[data-offline]'); return !!n && !n.hidden;",
        vec![],
        "the display says the connection is lost",
    )
    .await;
    // A result is entered meanwhile; the server comes back.
    common::put(&mut api, &r1[0]["games"][0], "1-0");
    let _back = common::Served::start_on(port, &app.database_url, |_| {});
    until(
        &tv,
        "var n = document.querySelector('[data-offline]'); var row = document.querySelector('table.big tbody tr'); return !!n && n.hidden && row.textContent.indexOf('1-0') >= 0;",
        vec![],
        "the display catches up once the server is back",
    )
    .await;
    let same = tv
        .execute("return window.notReloaded === true;", vec![])
        .await
        .unwrap();
    assert_eq!(same, json!(true), "without a reload");
}

//! Players at the venue in real browsers: two phones (360 px) report their
//! games through their personal links, and the results desk (1280 px),
//! open all the while, shows the agreed result and the disputed game
//! without anyone reloading it.

#![allow(clippy::unwrap_used)]

mod common;
#[path = "common/browser.rs"]
mod web_browser;

use common::{api_tournament, pair, Client, TestApp};
use fantoccini::Locator;
use kraal::db::users::Role;
use serde_json::{json, Value};
use web_browser::{browser, fits_360, kept, navigate, until, until_kept, Go};

/// The four players of both events here.
const NAMES: [&str; 4] = [
    "Kagiso Molefe",
    "Refilwe Dube",
    "Tumelo Sithole",
    "Palesa Nkosi",
];

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
    let answers = answered(phone).await;
    choice.click().await.unwrap();
    let answer = next_answer(phone, answers).await;
    assert_eq!(answer.0, "done", "{answer:?}");
    assert!(answer.1.ends_with(": Your report is in."), "{answer:?}");
}

/// How many writes the page has had answered.
async fn answered(phone: &fantoccini::Client) -> usize {
    phone
        .find_all(Locator::Css(
            "[data-net-writes] [data-answer=done], [data-net-writes] [data-answer=refused]",
        ))
        .await
        .unwrap()
        .len()
}

/// The next answer the page shows to a write it sent (`done` or
/// `refused`, and its words), after the `before` it had.
async fn next_answer(phone: &fantoccini::Client, before: usize) -> (String, String) {
    until(
        phone,
        "return document.querySelectorAll('[data-net-writes] [data-answer=done], [data-net-writes] [data-answer=refused]').length > arguments[0];",
        vec![json!(before)],
        "the page shows the server's answer",
    )
    .await;
    let v = phone
        .execute(
            "var all = document.querySelectorAll('[data-net-writes] [data-answer=done], [data-net-writes] [data-answer=refused]'); var last = all[all.length - 1]; return [last.getAttribute('data-answer'), last.textContent];",
            vec![],
        )
        .await
        .unwrap();
    (
        v[0].as_str().unwrap().to_string(),
        v[1].as_str().unwrap().to_string(),
    )
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
    let base = served.base.clone();
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

    // The screen is restarted while the network is down again: it shows
    // the pairings it last had, with the result, and says it is offline.
    until_kept(&tv, &format!("/t/{tid}/display")).await;
    drop(_back);
    navigate(&tv, Go::To(&format!("{base}/t/{tid}/display"))).await;
    let html = tv.find(Locator::Css("html")).await.unwrap();
    assert!(html.attr("data-offline-as-of").await.unwrap().is_some());
    until(
        &tv,
        "var n = document.querySelector('[data-offline]'); var row = document.querySelector('table.big tbody tr'); return !!n && !n.hidden && row.textContent.indexOf('1-0') >= 0;",
        vec![],
        "the restarted display shows its last pairings, offline",
    )
    .await;
}

/// What the connection line of the page says.
async fn net_says(phone: &fantoccini::Client) -> String {
    phone
        .execute(
            "var s = document.querySelector('[data-net-state]'); return s ? s.textContent : '';",
            vec![],
        )
        .await
        .unwrap()
        .as_str()
        .unwrap()
        .to_string()
}

/// A free port, for a server stopped and started again where its clients
/// know it.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// An event of the four players with round 1 published, made by `admin`:
/// its id, the admin's API client, round 1's pairings and the path of the
/// link of table 1's first player.
fn event_with_link(
    app: &TestApp,
    admin: &kraal::db::users::User,
    name: &str,
) -> (i64, Client, Vec<Value>, String) {
    let mut api: Client = app.script_for(admin);
    let entries: Vec<_> = NAMES.iter().map(|n| json!({"name": n})).collect();
    let (tid, _) = api_tournament(
        &mut api,
        json!({"name": name, "rules": "official", "rounds": 3}),
        &entries,
    );
    let r1 = pair(&mut api, tid);
    let links = api
        .get(&format!("/api/v1/tournaments/{tid}/rounds/1/links"))
        .json();
    let me = links["links"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["player"] == r1[0]["first_id"])
        .map(|l| link_path(l["url"].as_str().unwrap()))
        .unwrap();
    (tid, api, r1, me)
}

/// The path of a player's link (`/player/{key}`) from its URL.
fn link_path(url: &str) -> String {
    url[url.find("/player/").unwrap()..].to_string()
}

/// A player in a dead spot, on both backends: the page they opened once
/// opens from the phone with its offline mark and their table; a result
/// reported meanwhile waits on the phone and is stored exactly once when
/// the server is back, and the desk, open all the while, shows it without a
/// reload. A report after the referee entered the game comes back refused,
/// in words, and the referee's result stands.
#[tokio::test(flavor = "current_thread")]
async fn a_phone_in_a_dead_spot_shows_its_table_and_sends_its_report_once_when_back() {
    for backend in common::backends() {
        if !dead_spot(backend).await {
            return;
        }
    }
}

/// The walk of the test above on one backend; false without a browser.
async fn dead_spot(backend: &'static str) -> bool {
    use diesel::prelude::*;
    use kraal::db::schema::reports;
    let app = TestApp::start(backend);
    let admin = app.user("admin", Role::Admin);
    let (tid, mut api, r1, me) = event_with_link(&app, &admin, "Welkom Open");
    let opponent = r1[0]["second"].as_str().unwrap().to_string();
    let (g1, g2) = (&r1[0]["games"][0], &r1[0]["games"][1]);
    let port = free_port();
    let served = common::Served::start_on(port, &app.database_url, |_| {});
    let base = served.base.clone();

    let Some((desk, _desk_driver)) = browser().await else {
        return false;
    };
    desk.set_window_size(1280, 900).await.unwrap();
    navigate(&desk, Go::To(&format!("{base}/login"))).await;
    web_browser::fill_sign_in(&desk, "admin").await;
    navigate(&desk, Go::To(&format!("{base}/t/{tid}/rounds/1/results"))).await;
    desk.execute("window.notReloaded = true;", vec![])
        .await
        .unwrap();

    let Some((phone, _driver)) = browser().await else {
        return false;
    };
    phone.set_window_size(360, 740).await.unwrap();
    navigate(&phone, Go::To(&format!("{base}{me}"))).await;
    until_kept(&phone, &me).await;

    // The network goes; the player opens their page again.
    drop(served);
    navigate(&phone, Go::To(&format!("{base}{me}"))).await;
    let html = phone.find(Locator::Css("html")).await.unwrap();
    assert!(
        html.attr("data-offline-as-of").await.unwrap().is_some(),
        "[{backend}] the page comes from the phone"
    );
    let seat = phone
        .find(Locator::Css("[data-table]"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        seat.starts_with("Table 1 against") && seat.contains(&opponent),
        "[{backend}] {seat}"
    );
    until(
        &phone,
        "return /^Offline: as of \\d\\d:\\d\\d\\.$/.test(document.querySelector('[data-net-state]').textContent);",
        vec![],
        "the page says it is offline, and since when",
    )
    .await;
    fits_360(&phone, "the page kept offline").await;

    // The player reports game 1 in the dead spot: it waits on the phone.
    let before = audited(&app, tid);
    let button = phone
        .find(Locator::XPath(&format!(
            "//li[@id='g{}']//button[normalize-space(.)='I won']",
            g1["id"]
        )))
        .await
        .unwrap();
    button.click().await.unwrap();
    until(
        &phone,
        "return document.querySelectorAll('[data-net-writes] [data-answer=waiting]').length === 1;",
        vec![],
        "the report waits on the phone",
    )
    .await;
    let says = net_says(&phone).await;
    assert!(says.ends_with("1 waiting to send."), "[{backend}] {says}");
    if let Ok(png) = phone.screenshot().await {
        let _ = std::fs::write(std::env::temp_dir().join("kraal-offline-360.png"), png);
    }
    assert_eq!(audited(&app, tid), before, "[{backend}] nothing arrived");

    // The network comes back; the player taps Retry.
    let served = common::Served::start_on(port, &app.database_url, |_| {});
    navigate(&phone, Go::Click(Locator::Css("[data-net-retry]"))).await;
    let answer = next_answer(&phone, 0).await;
    assert_eq!(
        answer,
        (
            "done".to_string(),
            "Game 1, I won: Your report is in.".to_string()
        ),
        "[{backend}]"
    );
    let html = phone.find(Locator::Css("html")).await.unwrap();
    assert_eq!(html.attr("data-offline-as-of").await.unwrap(), None);
    until(
        &phone,
        "return document.querySelector('[data-net-state]').textContent.indexOf('Live') === 0;",
        vec![],
        "the page says it is live again",
    )
    .await;
    let stored: Vec<String> = reports::table
        .filter(reports::game_id.eq(g1["id"].as_i64().unwrap() as i32))
        .select(reports::result)
        .load(&mut *app.conn())
        .unwrap();
    assert_eq!(stored, ["1-0"], "[{backend}] stored exactly once");
    assert_eq!(audited(&app, tid), before + 1, "[{backend}] audited once");
    until(
        &desk,
        "var id = arguments[0]; return !!document.querySelector('[data-reporting=\"' + id + '\"], [data-reported=\"' + id + '\"]') && window.notReloaded === true;",
        vec![g1["id"].clone()],
        "the open desk shows the report without a reload",
    )
    .await;

    // The referee enters game 2; the phone, not yet told, reports it too.
    common::put(&mut api, g2, "0-1");
    let button = phone
        .find(Locator::XPath(&format!(
            "//li[@id='g{}']//button[normalize-space(.)='Draw']",
            g2["id"]
        )))
        .await
        .unwrap();
    button.click().await.unwrap();
    let (kind, words) = next_answer(&phone, 1).await;
    assert_eq!(kind, "refused", "[{backend}] {words}");
    assert!(
        words.starts_with("Game 2, Draw: ") && words.contains("referee"),
        "[{backend}] {words}"
    );
    let round = api
        .get(&format!("/api/v1/tournaments/{tid}/rounds/1"))
        .json();
    assert_eq!(
        round["pairings"][0]["games"][1]["result"], "0-1",
        "[{backend}] the referee's result stands"
    );
    drop(served);
    true
}

/// Audit entries of tournament `tid`.
fn audited(app: &TestApp, tid: i64) -> i64 {
    use diesel::prelude::*;
    use kraal::db::schema::audit_entries;
    audit_entries::table
        .filter(audit_entries::tournament_id.eq(tid as i32))
        .count()
        .get_result(&mut *app.conn())
        .unwrap()
}

/// What the service worker keeps is a page anyone could read or the
/// player's own: a referee's pages, the page that shows a new API token
/// and a public page read while signed in are never kept, and a revoked
/// link's copy goes at the next visit online. With the server stopped,
/// only the public page read anonymously opens.
#[tokio::test(flavor = "current_thread")]
async fn the_worker_never_keeps_a_referees_page_a_new_token_or_a_revoked_link() {
    let app = TestApp::start("sqlite");
    let admin = app.user("admin", Role::Admin);
    let (tid, _api, r1, me) = event_with_link(&app, &admin, "Kimberley Open");
    let player = r1[0]["first_id"].as_i64().unwrap();
    let port = free_port();
    let served = common::Served::start_on(port, &app.database_url, |_| {});
    let base = served.base.clone();
    let Some((phone, _driver)) = browser().await else {
        return;
    };
    let standings = format!("/t/{tid}/standings");
    navigate(&phone, Go::To(&format!("{base}{me}"))).await;
    until_kept(&phone, &me).await;
    navigate(&phone, Go::To(&format!("{base}{standings}"))).await;
    until_kept(&phone, &standings).await;

    // A referee signs in on this phone: the desk, the event's page, and a
    // new API token.
    navigate(&phone, Go::To(&format!("{base}/login"))).await;
    web_browser::fill_sign_in(&phone, "admin").await;
    let desk = format!("/t/{tid}/rounds/1/results");
    let event = format!("/t/{tid}");
    navigate(&phone, Go::To(&format!("{base}{desk}"))).await;
    navigate(&phone, Go::To(&format!("{base}{event}"))).await;
    navigate(&phone, Go::To(&format!("{base}/account"))).await;
    phone
        .find(Locator::Css(
            "form[action='/account/tokens'] input[name=label]",
        ))
        .await
        .unwrap()
        .send_keys("venue uploader")
        .await
        .unwrap();
    navigate(
        &phone,
        Go::Click(Locator::Css(
            "form[action='/account/tokens'] button[type=submit]",
        )),
    )
    .await;
    let token_page = phone.source().await.unwrap();
    for path in [&desk, &event, &"/account".to_string()] {
        assert!(!kept(&phone, path).await, "{path} is not kept");
    }
    navigate(
        &phone,
        Go::Click(Locator::XPath("//button[normalize-space(.)='Sign out']")),
    )
    .await;

    // The referee revokes the player's link: the next visit online says
    // so, and the copy goes.
    let mut referee = app.client_as(&admin);
    referee.get(&event);
    let r = referee.post(&format!("/t/{tid}/players/{player}/link/revoke"), &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    navigate(&phone, Go::To(&format!("{base}{me}"))).await;
    let status = phone
        .find(Locator::Css("h1[data-status]"))
        .await
        .unwrap()
        .attr("data-status")
        .await
        .unwrap();
    assert_eq!(status.as_deref(), Some("404"));
    assert!(!kept(&phone, &me).await, "the revoked link's copy is gone");

    // The server stops: the public page opens from the phone, nothing else.
    drop(served);
    navigate(&phone, Go::To(&format!("{base}{standings}"))).await;
    let html = phone.find(Locator::Css("html")).await.unwrap();
    assert!(html.attr("data-offline-as-of").await.unwrap().is_some());
    for path in [&me, &desk, &event, &"/account".to_string()] {
        navigate(&phone, Go::To(&format!("{base}{path}"))).await;
        let page = phone.source().await.unwrap();
        assert!(
            !page.contains("id=\"main\""),
            "{path} opened without the server: {page}"
        );
    }
    assert!(token_page.contains("venue uploader"), "the token was made");
}

//! The venue pages in a real browser: a round page that follows a result
//! saved elsewhere without anyone reloading it, and wide tables that fold
//! to a 360-px phone instead of running off its edge.

#![allow(clippy::unwrap_used)]

mod common;
#[path = "common/browser.rs"]
mod web_browser;

use std::time::{Duration, Instant};

use common::{pair, put, Client, TestApp};
use fantoccini::Locator;
use kraal::db::users::Role;
use serde_json::json;
use web_browser::{browser, navigate, Go};

fn tournament(api: &mut Client, body: serde_json::Value, names: &[String]) -> i64 {
    let t = api.send_json("POST", "/api/v1/tournaments", body);
    assert_eq!(t.status, 201, "{}", t.body);
    let tid = t.json()["id"].as_i64().unwrap();
    for (i, n) in names.iter().enumerate() {
        let r = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/players"),
            json!({"name": n, "club": format!("Letlhabile Morabaraba Club {}", i % 4),
                   "rating": 2000 - 10 * i as i64}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
    }
    tid
}

/// Four players of an official-rules Swiss, round 1 paired and published:
/// the app, the admin's script client, the tournament and its pairings.
fn four_players_paired() -> (TestApp, Client, i64, Vec<serde_json::Value>) {
    let app = TestApp::start("sqlite");
    let admin = app.user("admin", Role::Admin);
    let mut api = app.script_for(&admin);
    let names: Vec<String> = [
        "Kagiso Molefe",
        "Refilwe Dube",
        "Tumelo Sithole",
        "Palesa Nkosi",
    ]
    .map(String::from)
    .to_vec();
    let tid = tournament(
        &mut api,
        json!({"name": "Mafikeng Open", "system": "swiss", "rules": "official", "rounds": 3}),
        &names,
    );
    let r1 = pair(&mut api, tid);
    (app, api, tid, r1)
}

/// Waits until the open page has heard its event stream (the tournament's
/// current revision, which the stream sends first).
async fn live_stream_heard(b: &fantoccini::Client) {
    let start = Instant::now();
    loop {
        let heard = b
            .execute(
                "return document.documentElement.getAttribute('data-live-heard');",
                vec![],
            )
            .await
            .unwrap();
        if heard.is_string() {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the page did not hear its event stream within 20 s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "current_thread")]
async fn an_open_round_page_shows_a_result_saved_elsewhere() {
    let (app, mut api, tid, r1) = four_players_paired();
    let Some((b, _driver)) = browser().await else {
        return;
    };
    navigate(&b, Go::To(&format!("{}/t/{tid}/rounds/1", app.base))).await;
    let first_row = "table.pairings tbody tr:first-child td:nth-child(3)";
    // Read in one script: the page may swap its content at any moment.
    let score = || async {
        let v = b
            .execute(
                "var c = document.querySelector(arguments[0]); return c ? c.textContent.trim() : '';",
                vec![json!(first_row)],
            )
            .await
            .unwrap();
        v.as_str().unwrap_or("").to_string()
    };
    assert_eq!(score().await, "", "no result yet");
    // The page hears its event stream, then a result is saved elsewhere.
    live_stream_heard(&b).await;
    b.execute("window.notReloaded = true;", vec![])
        .await
        .unwrap();
    let games = r1[0]["games"].as_array().unwrap();
    put(&mut api, &games[0], "1-0");
    put(&mut api, &games[1], "½-½");
    let saved = Instant::now();
    loop {
        let now = score().await;
        if now == format!("1½-½ for {}", r1[0]["first"].as_str().unwrap()) {
            break;
        }
        assert!(
            saved.elapsed() < Duration::from_secs(20),
            "the page still shows '{now}' 20 s after the result was saved"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let same = b
        .execute("return window.notReloaded === true;", vec![])
        .await
        .unwrap();
    assert_eq!(
        same,
        json!(true),
        "the page updated itself without a reload"
    );
    let updated = b
        .find(Locator::Css("p.updated time"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(updated.len(), 8, "a HH:MM:SS time: {updated}");
}

/// The document and every table region fit a 360-px viewport.
async fn fits(b: &fantoccini::Client, what: &str) {
    let r = b
        .execute(
            "var w = window.innerWidth, d = document.documentElement.scrollWidth;\
             var wide = Array.from(document.querySelectorAll('.table-wrap'))\
               .filter(function (t) { return t.scrollWidth > t.clientWidth + 1; })\
               .map(function (t) { return t.getAttribute('aria-label') + ' ' + t.scrollWidth + '>' + t.clientWidth; });\
             return [w, d, wide];",
            vec![],
        )
        .await
        .unwrap();
    let (w, d) = (r[0].as_u64().unwrap(), r[1].as_u64().unwrap());
    assert_eq!(w, 360, "{what}: the viewport");
    assert!(d <= w, "{what}: the page is {d} px wide on a {w}-px screen");
    assert_eq!(r[2], json!([]), "{what}: tables cut off on a phone");
}

#[tokio::test(flavor = "current_thread")]
async fn wide_tables_fold_to_a_360_px_phone() {
    let app = TestApp::start("sqlite");
    let admin = app.user("admin", Role::Admin);
    let mut api = app.script_for(&admin);
    let names: Vec<String> = [
        "Kgomotso Mmabatho Letlhogonolo Mokgosi-Ramokgopa",
        "Refilwe Nomathemba Dube-Sithebe",
        "Tumelo Itumeleng Sithole",
        "Palesa Dineo Nkosi",
        "Lindiwe Zanele Zulu-Mkhize",
        "Bongani Sibusiso Khumalo",
        "Nandi Thandeka Mthembu",
        "Sifiso Mandla Ngcobo",
        "Onthatile Keabetswe Motshegwa",
        "Thabiso Kabelo Mahlangu",
    ]
    .map(String::from)
    .to_vec();
    let tid = tournament(
        &mut api,
        json!({"name": "Bophirima Provincial Morabaraba Championship for Open and Junior Players",
               "system": "swiss", "rules": "official", "rounds": 5,
               "venue": "Mmabatho Convention Centre, Great Hall and Annexe",
               "tiebreaks": ["direct_encounter", "buchholz", "buchholz_cut1", "median_buchholz",
                             "sonneborn_berger", "progressive"]}),
        &names,
    );
    for _ in 0..2 {
        for p in pair(&mut api, tid)
            .iter()
            .filter(|p| !p["second_id"].is_null())
        {
            let games = p["games"].as_array().unwrap();
            put(&mut api, &games[0], "1-0");
            put(&mut api, &games[1], "½-½");
        }
    }
    let Some((b, _driver)) = browser().await else {
        return;
    };
    b.set_window_size(360, 740).await.unwrap();
    let inner = b
        .execute("return window.innerWidth;", vec![])
        .await
        .unwrap()
        .as_u64()
        .unwrap() as u32;
    if inner != 360 {
        b.set_window_size(360 + 360 - inner.min(360), 740)
            .await
            .unwrap();
    }
    // Anonymous pages: home, standings (six tiebreaks), crosstable aside.
    for (what, path) in [
        ("home", "/".to_string()),
        ("standings", format!("/t/{tid}/standings")),
        ("players", format!("/t/{tid}")),
        ("round", format!("/t/{tid}/rounds/2")),
    ] {
        navigate(&b, Go::To(&format!("{}{path}", app.base))).await;
        fits(&b, what).await;
    }
    // A referee's players list: the actions are reachable without scrolling.
    navigate(&b, Go::To(&format!("{}/login", app.base))).await;
    web_browser::fill_sign_in(&b, "admin").await;
    navigate(&b, Go::To(&format!("{}/t/{tid}", app.base))).await;
    fits(&b, "players, signed in").await;
    let right = b
        .execute(
            "return Math.max.apply(null, Array.from(document.querySelectorAll('table.players td.actions button, table.players td.actions a')).map(function (e) { return e.getBoundingClientRect().right; }));",
            vec![],
        )
        .await
        .unwrap()
        .as_f64()
        .unwrap();
    assert!(
        right <= 360.0,
        "withdraw and edit within the screen: {right}"
    );
    // The standings show rank, name, points and what separated each place
    // (the tiebreak with its values), not a column of one tiebreak.
    navigate(&b, Go::To(&format!("{}/t/{tid}/standings", app.base))).await;
    let shown = b
        .execute(
            "return Array.from(document.querySelectorAll('table.standings thead th')).filter(function (t) { return t.offsetParent !== null; }).map(function (t) { return t.textContent; });",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(shown, json!(["Rank", "Name", "Points", "Separated by"]));
}

#[tokio::test(flavor = "current_thread")]
async fn the_results_desk_shows_results_arriving_without_wiping_what_is_typed() {
    let (app, mut api, tid, r1) = four_players_paired();
    let Some((b, _driver)) = browser().await else {
        return;
    };
    navigate(&b, Go::To(&format!("{}/login", app.base))).await;
    web_browser::fill_sign_in(&b, "admin").await;
    navigate(
        &b,
        Go::To(&format!("{}/t/{tid}/rounds/1/results", app.base)),
    )
    .await;
    let box2 = format!("s{}", r1[1]["id"]);
    b.find(Locator::Id(&box2))
        .await
        .unwrap()
        .send_keys("2-0")
        .await
        .unwrap();
    live_stream_heard(&b).await;
    let games = r1[0]["games"].as_array().unwrap();
    put(&mut api, &games[0], "1-0");
    let saved = Instant::now();
    // The game saved elsewhere is brought up to date in place, and the
    // page says which table changed.
    let game = format!("g{}", games[0]["id"]);
    loop {
        let shown = b
            .execute(
                "var n = document.getElementById('live-updated'); var s = document.getElementById(arguments[0]); return !!n && n.textContent.indexOf('table 1') >= 0 && s.value === '1-0';",
                vec![json!(game)],
            )
            .await
            .unwrap();
        if shown == json!(true) {
            break;
        }
        assert!(
            saved.elapsed() < Duration::from_secs(20),
            "table 1 not updated 20 s after the result was saved"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let typed = b
        .find(Locator::Id(&box2))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap();
    assert_eq!(typed.as_deref(), Some("2-0"), "what was typed stays");
}

/// A player's record through the table's link: the browser does not send
/// it until the player has said who they are, and then it is stored as
/// that side's.
#[tokio::test(flavor = "current_thread")]
async fn a_player_link_sends_nothing_until_the_player_says_who_they_are() {
    let (app, mut api, _, r1) = four_players_paired();
    let Some((b, _driver)) = browser().await else {
        return;
    };
    let pid = kraal::ids::PairingId(r1[0]["id"].as_i64().unwrap() as i32);
    let gid = r1[0]["games"][0]["id"].as_i64().unwrap();
    let key = kraal::director::scoresheets::link_key(&mut app.conn(), pid).unwrap();
    let link = format!("/p/{pid}/{key}");
    navigate(&b, Go::To(&format!("{}{link}", app.base))).await;
    b.find(Locator::Id(&format!("text-{gid}")))
        .await
        .unwrap()
        .send_keys("1. a1 d7 2. d1 g7")
        .await
        .unwrap();
    let send = "//button[contains(., 'Send my record of game 1')]";
    // A form the browser lets go fires `submit` during the click itself;
    // one its checks hold back never does.
    b.execute(
        "window.submitted = false; document.addEventListener('submit', function () { window.submitted = true; }, true);",
        vec![],
    )
    .await
    .unwrap();
    b.find(Locator::XPath(send))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let submitted = b.execute("return window.submitted;", vec![]).await.unwrap();
    assert_eq!(submitted, json!(false), "nothing was sent");
    assert_eq!(web_browser::path(&b).await, link, "nothing was sent");
    let missing = b
        .execute(
            "return document.getElementById(arguments[0]).validity.valueMissing;",
            vec![json!(format!("side-{gid}"))],
        )
        .await
        .unwrap();
    assert_eq!(missing, json!(true));
    assert_eq!(
        api.get(&format!("/api/v1/games/{gid}")).json()["records"],
        json!([])
    );
    b.find(Locator::Css(&format!("#side-{gid} option[value='light']")))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    navigate(&b, Go::Click(Locator::XPath(send))).await;
    assert!(
        web_browser::path(&b).await.contains("sent=1"),
        "{}",
        web_browser::path(&b).await
    );
    let records = api.get(&format!("/api/v1/games/{gid}")).json()["records"].clone();
    assert_eq!(records[0]["side"], "light", "{records}");
}

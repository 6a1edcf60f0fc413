//! What a player reads on a 360-px phone (headless Chromium through
//! chromedriver): the standings say what separated each place instead of a
//! tiebreak column, and a team round keeps its boards' table numbers.
//! Without chromedriver the tests say they are skipped; under CI (`CI`
//! set) a missing driver is a failure.

#![allow(clippy::unwrap_used)]

mod common;
#[path = "common/browser.rs"]
mod web_browser;

use fantoccini::Locator;
use kraal::db::users::Role;
use serde_json::json;
use web_browser::{browser, navigate, Go};

/// Whether every element `css` finds is displayed (and there is one).
async fn all_shown(b: &fantoccini::Client, css: &str) -> Option<bool> {
    let found = b.find_all(Locator::Css(css)).await.unwrap();
    if found.is_empty() {
        return None;
    }
    let mut all = true;
    for e in found {
        all &= e.is_displayed().await.unwrap();
    }
    Some(all)
}

async fn save_screenshot(b: &fantoccini::Client, name: &str) {
    if let Ok(png) = b.screenshot().await {
        let _ = std::fs::write(std::env::temp_dir().join(name), png);
    }
}

#[tokio::test(flavor = "current_thread")]
async fn the_phone_standings_say_what_separated_each_place() {
    let app = common::TestApp::start("sqlite");
    let referee = app.user("nomsa", Role::Referee);
    let mut api = app.script_for(&referee);
    let t = api.create(
        "/api/v1/tournaments",
        json!({"name": "Phone Open", "system": "swiss", "rules": "official", "rounds": 5,
               "tiebreaks": ["direct_encounter", "buchholz"]}),
    );
    let tid = t["id"].as_i64().unwrap();
    for (i, n) in [
        "Thabo Mokoena",
        "Lindiwe Zulu",
        "Sipho Dlamini",
        "Naledi Khumalo",
        "Kagiso Molefe",
        "Refilwe Dube",
    ]
    .iter()
    .enumerate()
    {
        api.create(
            &format!("/api/v1/tournaments/{tid}/players"),
            json!({"name": n, "club": "Soweto MSC", "rating": 1900 - 40 * i as i64}),
        );
    }
    for _ in 0..2 {
        for p in common::pair(&mut api, tid) {
            for g in p["games"].as_array().unwrap() {
                let r = if g["first_started"] == json!(true) {
                    "1-0"
                } else {
                    "0-1"
                };
                common::put(&mut api, g, r);
            }
        }
    }
    let Some((b, _driver)) = browser().await else {
        return;
    };
    navigate(&b, Go::To(&format!("{}/t/{tid}/standings", app.base))).await;
    save_screenshot(&b, "kraal-phone-standings.png").await;
    // Direct encounter is 0 for nearly everyone: its column folds away on
    // the phone, and "Separated by" stays, with the values that decided.
    assert_eq!(
        all_shown(&b, "table.standings td:nth-child(5)").await,
        Some(false)
    );
    assert_eq!(all_shown(&b, "table.standings th.sep").await, Some(true));
    let cells = b
        .find_all(Locator::Css("table.standings td:last-child"))
        .await
        .unwrap();
    let mut said = Vec::new();
    for c in cells {
        said.push(c.text().await.unwrap());
    }
    assert!(
        said.iter()
            .any(|s| s.starts_with("Buchholz ") && s.ends_with(" above)")
                || s.starts_with("points ")),
        "{said:?}"
    );
    let fits = b
        .execute(
            "return document.documentElement.scrollWidth <= window.innerWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(fits, json!(true), "the standings fit the phone");
    b.close().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn a_team_round_keeps_its_table_numbers_on_a_phone() {
    let app = common::TestApp::start("sqlite");
    let admin = app.user("thandi", Role::Admin);
    let (t, _) = common::four_team_league(&app, &admin);
    common::pair(&mut app.script_for(&admin), i64::from(t.id));
    let Some((b, _driver)) = browser().await else {
        return;
    };
    navigate(&b, Go::To(&format!("{}/t/{}/rounds/1", app.base, t.id))).await;
    save_screenshot(&b, "kraal-phone-team-round.png").await;
    let heads = b
        .find_all(Locator::Css("section.match table.pairings th"))
        .await
        .unwrap();
    let mut table_shown = false;
    for h in heads {
        if h.text().await.unwrap() == "Table" {
            table_shown = h.is_displayed().await.unwrap();
        }
    }
    assert!(table_shown, "the boards' table numbers show on a phone");
    b.close().await.unwrap();
}

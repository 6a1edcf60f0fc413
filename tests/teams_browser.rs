//! A referee runs a team match in Chromium: pairs the round, brings a
//! substitute in through the line-up form, enters the boards' scores at the
//! results desk, and reads the match score and the team standings.

#![allow(clippy::unwrap_used)]

mod common;
#[path = "common/browser.rs"]
mod web_browser;

use fantoccini::Locator;
use kraal::db::users::Role;
use web_browser::{browser, fill_sign_in, follow, navigate, press, Go};

#[tokio::test(flavor = "current_thread")]
async fn a_referee_lines_up_a_substitute_and_enters_a_match_in_a_browser() {
    let app = common::TestApp::start("sqlite");
    let referee = app.user("lindiwe", Role::Referee);
    let fields = kraal::tournament::RawTournament {
        name: "Cape Town Club League".into(),
        system: "team_league".into(),
        rules: "official".into(),
        rounds: "1".into(),
        ..Default::default()
    }
    .check()
    .unwrap();
    let t = kraal::director::commit(&mut app.conn(), Some(referee.id), |w| {
        kraal::db::tournaments::create(w, &fields, &referee)
    })
    .unwrap();
    let names = [
        "Athi Mthembu",
        "Busi Ngcobo",
        "Cebo Mahlangu",
        "Dumi Radebe",
        "Esihle Cele",
        "Fikile Gumede",
        "Gugu Nxumalo",
        "Hlengiwe Zwane",
        "Inga Mkhize",
    ];
    let ids: Vec<kraal::ids::EntryId> = names
        .iter()
        .map(|n| common::player(&app, t.id, &referee, n, "Cape MC", "1600").id)
        .collect();
    for (name, members, subs) in [
        ("Langa", &ids[0..4], &ids[8..9]),
        ("Gugulethu", &ids[4..8], &[][..]),
    ] {
        let new = kraal::db::teams::NewTeam {
            name: name.into(),
            club: String::new(),
            members: members.to_vec(),
            substitutes: subs.to_vec(),
        };
        kraal::director::commit(&mut app.conn(), Some(referee.id), |w| {
            kraal::db::teams::create(w, t.id, &new)
        })
        .unwrap();
    }
    let Some((b, _driver)) = browser().await else {
        return;
    };
    navigate(&b, Go::To(&format!("{}/login", app.base))).await;
    fill_sign_in(&b, "lindiwe").await;
    navigate(&b, Go::To(&format!("{}/t/{}", app.base, t.id))).await;
    press(&b, "Pair round 1").await;
    press(&b, "Publish round 1").await;
    follow(&b, "Line-up of Langa").await;
    // Inga Mkhize, Langa's substitute, comes in on board 2 for Busi Ngcobo.
    b.find(Locator::Css(&format!("#b2 option[value='{}']", ids[8])))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    press(&b, "Save line-up").await;
    let text = b
        .find(Locator::Css("main"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(text.contains("Line-up saved"), "{text}");

    navigate(&b, Go::To(&format!("{}/t/{}/rounds/1", app.base, t.id))).await;
    let text = b
        .find(Locator::Css("main"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(text.contains("Inga Mkhize"), "the substitute plays: {text}");
    assert!(
        !text.contains("Busi Ngcobo"),
        "the replaced player does not: {text}"
    );

    follow(&b, "Enter results").await;
    // Langa wins boards 1 and 3 2-0 and draws boards 2 and 4 1-1: 6-2.
    let inputs = b
        .find(Locator::Css("form.results"))
        .await
        .unwrap()
        .find_all(Locator::Css("input[name^=s]"))
        .await
        .unwrap();
    assert_eq!(inputs.len(), 4, "one score box per board");
    for (k, input) in inputs.iter().enumerate() {
        // Board 1 and 3: Langa is listed first; boards 2 and 4: second.
        let score = if k % 2 == 0 { "2-0" } else { "1-1" };
        input.send_keys(score).await.unwrap();
    }
    press(&b, "Save all tables").await;
    navigate(&b, Go::To(&format!("{}/t/{}/rounds/1", app.base, t.id))).await;
    let heading = b
        .find(Locator::Css("section.match h2"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(heading.contains("Langa 6-2 Gugulethu"), "{heading}");
    navigate(&b, Go::To(&format!("{}/t/{}/standings", app.base, t.id))).await;
    let first = b
        .find(Locator::Css("table.standings tbody tr"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(first.starts_with("1 Langa"), "{first}");
    b.close().await.unwrap();
}

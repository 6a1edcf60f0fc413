//! A real browser (headless Chromium through chromedriver) signs in and
//! creates a tournament on a phone-sized window. Without chromedriver the
//! test says it is skipped; under CI (`CI` set) a missing driver is a failure.

#![allow(clippy::unwrap_used)]

mod common;
#[path = "common/browser.rs"]
mod web_browser;

use fantoccini::Locator;
use kraal::db::users::Role;
use web_browser::{browser, browser_with, fill_sign_in, follow, navigate, path, press, Go};

#[tokio::test(flavor = "current_thread")]
async fn a_referee_signs_in_and_creates_a_tournament_in_a_browser() {
    let app = common::TestApp::start("sqlite");
    app.user("nomsa", Role::Referee);
    let Some((b, _driver)) = browser().await else {
        return;
    };

    navigate(&b, Go::To(&format!("{}/", app.base))).await;
    navigate(&b, Go::Click(Locator::LinkText("Sign in"))).await;
    fill_sign_in(&b, "nomsa").await;
    navigate(&b, Go::Click(Locator::LinkText("New tournament"))).await;

    // A mistake first: the page comes back with the message by the field.
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
    let err = b
        .find(Locator::Id("rounds-error"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(err.contains("120 rounds is outside 1..99"), "{err}");
    assert_eq!(
        b.find(Locator::Id("name"))
            .await
            .unwrap()
            .prop("value")
            .await
            .unwrap()
            .as_deref(),
        Some("Mangaung Open")
    );

    let rounds = b.find(Locator::Id("rounds")).await.unwrap();
    rounds.clear().await.unwrap();
    rounds.send_keys("7").await.unwrap();
    b.find(Locator::Css("#rules option[value=official]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    navigate(&b, Go::Click(Locator::Css("main form button[type=submit]"))).await;
    assert!(
        b.find(Locator::Css("dl.facts")).await.is_ok(),
        "the tournament page, not the form again"
    );
    let h1 = b
        .find(Locator::Css("main h1"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(h1, "Mangaung Open");
    let facts = b
        .find(Locator::Css("dl.facts"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(facts.contains("Official Game Rules"), "{facts}");
    // The page fits a 360-px phone: nothing scrolls sideways.
    let overflow = b
        .execute(
            "return document.documentElement.scrollWidth <= window.innerWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        overflow,
        serde_json::Value::Bool(true),
        "the page is wider than the phone"
    );
    if let Ok(png) = b.screenshot().await {
        let _ = std::fs::write(
            std::env::temp_dir().join("kraal-browser-tournament.png"),
            png,
        );
    }
    b.close().await.unwrap();
    let list = kraal::db::tournaments::list(&mut app.conn()).unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(
        list[0].games_per_pairing, 2,
        "official rules: two games per pairing"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_referee_pairs_a_round_and_enters_results_that_a_player_page_shows() {
    let app = common::TestApp::start("sqlite");
    let referee = app.user("nomsa", Role::Referee);
    let t = common::tournament(&app, &referee, "Mangaung Rapid");
    let names = [
        "Kagiso Molefe",
        "Refilwe Dube",
        "Tumelo Sithole",
        "Palesa Nkosi",
    ];
    let players: Vec<_> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            common::player(
                &app,
                t.id,
                &referee,
                n,
                &format!("Club {i}"),
                &(1900 - 100 * i).to_string(),
            )
        })
        .collect();
    let Some((b, _driver)) = browser().await else {
        return;
    };

    navigate(&b, Go::To(&format!("{}/login", app.base))).await;
    fill_sign_in(&b, "nomsa").await;
    assert!(b.find(Locator::LinkText("New tournament")).await.is_ok());

    navigate(&b, Go::To(&format!("{}/t/{}", app.base, t.id))).await;
    press(&b, "Pair round 1").await;
    press(&b, "Publish round 1").await;
    follow(&b, "Enter results").await;

    // Type each pairing's score with the keyboard: the first player wins 4-2.
    let scores = b.find(Locator::Css("form.results")).await.unwrap();
    let inputs = scores
        .find_all(Locator::Css("input[name^=s]"))
        .await
        .unwrap();
    assert_eq!(inputs.len(), 2);
    for input in &inputs {
        input.send_keys("4-2").await.unwrap();
    }
    press(&b, "Save all tables").await;
    b.find(Locator::Css("form.results")).await.unwrap();

    // A player (no account) looks at the top seed's page.
    navigate(
        &b,
        Go::To(&format!(
            "{}/t/{}/players/{}",
            app.base, t.id, players[0].id
        )),
    )
    .await;
    let text = b
        .find(Locator::Css("main"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(text.contains("Round 1"), "{text}");
    assert!(
        text.contains("4-2"),
        "the player's page shows the score: {text}"
    );
    // Four game points from the 4-2 win, level with the other winner.
    assert!(
        text.contains("4 (rank 1)") || text.contains("4 (rank 2)"),
        "{text}"
    );
    b.close().await.unwrap();

    let data = kraal::director::load(&mut app.conn(), t.id).unwrap();
    assert_eq!(
        data.games.iter().filter(|g| g.result.is_some()).count(),
        12,
        "two pairings of six games"
    );
}

/// Sets a game's select to `value` by its option, as a person would.
async fn choose(b: &fantoccini::Client, select_id: &str, value: &str) {
    b.find(Locator::Css(&format!(
        "#{select_id} option[value='{value}']"
    )))
    .await
    .unwrap()
    .click()
    .await
    .unwrap();
}

/// Two referees share a round's tables, each in their own browser on a
/// phone: a page opened before a colleague's save neither blanks nor
/// overwrites the colleague's results.
#[tokio::test(flavor = "current_thread")]
async fn two_referees_at_one_round_lose_none_of_each_others_results() {
    let app = common::TestApp::start("sqlite");
    let admin = app.user("admin", Role::Admin);
    let thandi = app.user("thandi", Role::Referee);
    let sipho = app.user("sipho", Role::Referee);
    let t = common::tournament(&app, &admin, "Soweto Open");
    for r in [&thandi, &sipho] {
        kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
            kraal::db::tournaments::assign_referee(w, t.id, r)
        })
        .unwrap();
    }
    for (i, n) in [
        "Kagiso Molefe",
        "Refilwe Dube",
        "Tumelo Sithole",
        "Palesa Nkosi",
    ]
    .iter()
    .enumerate()
    {
        common::player(&app, t.id, &admin, n, "", &(1900 - 100 * i).to_string());
    }
    let mut c = app.client_as(&admin);
    c.post(&format!("/t/{}/rounds", t.id), &[]);
    c.post(&format!("/t/{}/rounds/1/publish", t.id), &[]);
    let data = kraal::director::load(&mut app.conn(), t.id).unwrap();
    let (p1, p2) = (&data.pairings[0], &data.pairings[1]);
    let game_of = |pid: kraal::ids::PairingId, n: i32| {
        data.games
            .iter()
            .find(|g| g.pairing_id == pid && g.number == n)
            .unwrap()
            .id
    };

    let Some((a, _da)) = browser().await else {
        return;
    };
    let Some((b, _db)) = browser().await else {
        return;
    };
    let results = format!("{}/t/{}/rounds/1/results", app.base, t.id);
    for (browser, name) in [(&a, "thandi"), (&b, "sipho")] {
        navigate(browser, Go::To(&format!("{}/login", app.base))).await;
        fill_sign_in(browser, name).await;
        browser
            .wait()
            .for_element(Locator::LinkText("New tournament"))
            .await
            .unwrap();
        navigate(browser, Go::To(&results)).await;
    }

    // Thandi enters table 1; Sipho, on the page opened before, table 2.
    a.find(Locator::Id(&format!("s{}", p1.id)))
        .await
        .unwrap()
        .send_keys("6-0")
        .await
        .unwrap();
    press(&a, "Save table 1").await;
    // Thandi starts changing table 2's first game before Sipho saves it:
    // her page brings the games she has not touched up to date as Sipho's
    // results arrive, but leaves the one she is changing as she set it.
    let g = game_of(p2.id, 1);
    choose(&a, &format!("g{g}"), "0-1").await;
    b.find(Locator::Id(&format!("s{}", p2.id)))
        .await
        .unwrap()
        .send_keys("3½-2½")
        .await
        .unwrap();
    navigate(
        &b,
        Go::Click(Locator::XPath(
            "(//button[contains(., 'Save all tables')])[1]",
        )),
    )
    .await;
    let notice = b
        .find(Locator::Css("main"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(notice.contains("Saved 6 results"), "{notice}");
    let stored = |pid: kraal::ids::PairingId| {
        let data = kraal::director::load(&mut app.conn(), t.id).unwrap();
        data.games_of(pid)
            .iter()
            .map(|g| g.result.map(|r| r.as_str().to_string()))
            .collect::<Vec<_>>()
    };
    assert!(stored(p1.id).iter().all(Option::is_some), "table 1 kept");
    assert!(stored(p2.id).iter().all(Option::is_some), "table 2 saved");

    // Thandi's change was made on what her page showed before Sipho's
    // save: saving it is a conflict, told with who and what, focus on the
    // message, and the select shows the stored result again.
    let before = stored(p2.id);
    press(&a, "Save table 2").await;
    let summary = a
        .find(Locator::Id("problems"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        summary.contains("table 2, game 1 was changed meanwhile by sipho"),
        "{summary}"
    );
    let focused = a
        .execute("return document.activeElement.id;", vec![])
        .await
        .unwrap();
    assert_eq!(focused, "problems", "focus moves to the error summary");
    let shown = a
        .find(Locator::Id(&format!("g{g}")))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap();
    assert_eq!(shown.as_deref(), before[0].as_deref());
    assert_eq!(
        a.find(Locator::Id(&format!("g{g}")))
            .await
            .unwrap()
            .attr("aria-invalid")
            .await
            .unwrap()
            .as_deref(),
        Some("true")
    );
    // Saving that page again loses nothing.
    navigate(
        &a,
        Go::Click(Locator::XPath(
            "(//button[contains(., 'Save all tables')])[1]",
        )),
    )
    .await;
    assert_eq!(stored(p2.id), before);
    assert!(stored(p1.id).iter().all(Option::is_some));
    if let Ok(png) = a.screenshot().await {
        let _ = std::fs::write(std::env::temp_dir().join("kraal-browser-results.png"), png);
    }
    a.close().await.unwrap();
    b.close().await.unwrap();
}

/// The cows the board of the current page draws: (side, junction, cow).
async fn cows_shown(b: &fantoccini::Client) -> Vec<(String, String, u8)> {
    let mut out = Vec::new();
    for g in b.find_all(Locator::Css("svg.board g.cow")).await.unwrap() {
        let class = g.attr("class").await.unwrap().unwrap_or_default();
        let side = class.trim_start_matches("cow ").to_string();
        let junction = g.attr("data-junction").await.unwrap().unwrap_or_default();
        let cow = g.attr("data-cow").await.unwrap().unwrap_or_default();
        out.push((side, junction, cow.parse().unwrap()));
    }
    out.sort();
    out
}

fn engine_cows(pos: &kraal::rules::Position) -> Vec<(String, String, u8)> {
    let mut out: Vec<(String, String, u8)> = kraal::rules::Junction::all()
        .filter_map(|j| {
            Some((
                pos.owner(j)?.name().to_string(),
                j.name().to_string(),
                pos.cow_at(j)?,
            ))
        })
        .collect();
    out.sort();
    out
}

#[tokio::test(flavor = "current_thread")]
async fn the_board_replay_steps_through_a_game_with_javascript_off() {
    use kraal::rules::notation::{self, Style};
    use kraal::rules::{Game, PlayRules};
    let app = common::TestApp::start("sqlite");
    let admin = app.user("zanele", Role::Admin);
    let t = common::tournament(&app, &admin, "Replay Open");
    for (n, r) in [("Kagiso Molefe", "1900"), ("Refilwe Dube", "1850")] {
        common::player(&app, t.id, &admin, n, "", r);
    }
    let data = kraal::director::load(&mut app.conn(), t.id).unwrap();
    let (n, planned) = data.pair_next().unwrap();
    kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
        kraal::db::rounds::create(w, t.id, n, &planned, 6, None)
    })
    .unwrap();
    kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
        kraal::db::rounds::publish(w, t.id, n)
    })
    .unwrap();
    let gid = kraal::db::rounds::everything(&mut app.conn(), t.id)
        .unwrap()
        .2[0]
        .id;
    // Forty plies of a legal game, the first legal move each time.
    let rules = PlayRules::GAR;
    let mut game = Game::new(rules);
    let mut moves = Vec::new();
    for i in 0..40 {
        let legal = game.legal_moves();
        let mv = legal[(i * 7) % legal.len()];
        game.play(mv);
        moves.push(mv);
    }
    let text = notation::write(&rules, &moves, Style::Standard, None);
    kraal::director::scoresheets::submit(
        &mut app.conn(),
        gid,
        kraal::tournament::RecordSide::Referee,
        &text,
        &admin,
    )
    .unwrap();
    let sheet = notation::parse(&text).unwrap();
    let (_, positions) = kraal::rules::replay_sheet(&sheet, &rules);

    let Some((b, _driver)) = browser_with(false).await else {
        return;
    };
    navigate(&b, Go::To(&format!("{}/login", app.base))).await;
    fill_sign_in(&b, "zanele").await;
    navigate(
        &b,
        Go::To(&format!("{}/t/{}/games/{gid}?ply=0", app.base, t.id)),
    )
    .await;
    // Without script the file field stays hidden: pasting is the way.
    let file = b.find(Locator::Id("record-file")).await.unwrap();
    assert!(!file.is_displayed().await.unwrap(), "JavaScript is off");
    assert!(cows_shown(&b).await.is_empty());
    for ply in 1..=3 {
        navigate(&b, Go::Click(Locator::Css("a[rel=next]"))).await;
        assert!(path(&b).await.contains(&format!("ply={ply}")));
        assert_eq!(
            cows_shown(&b).await,
            engine_cows(&positions[ply - 1]),
            "ply {ply}"
        );
    }
    navigate(&b, Go::Click(Locator::Css("a[rel=last]"))).await;
    assert_eq!(cows_shown(&b).await, engine_cows(&positions[39]));
    assert!(b.find(Locator::Css("a[rel=next]")).await.is_err());
    navigate(&b, Go::Click(Locator::Css("a[rel=prev]"))).await;
    assert_eq!(cows_shown(&b).await, engine_cows(&positions[38]));
    // A move of the list is a link to its position.
    navigate(
        &b,
        Go::Click(Locator::Css("table.moves a[href*='ply=10#']")),
    )
    .await;
    assert_eq!(cows_shown(&b).await, engine_cows(&positions[9]));
    navigate(&b, Go::Click(Locator::Css("a[rel=first]"))).await;
    assert!(cows_shown(&b).await.is_empty());
    b.close().await.unwrap();
}

/// The id of the element with the keyboard focus.
async fn focused(b: &fantoccini::Client) -> String {
    b.execute(
        "return document.activeElement ? document.activeElement.id : '';",
        vec![],
    )
    .await
    .unwrap()
    .as_str()
    .unwrap_or("")
    .to_string()
}

/// At the results desk a referee types table after table into the quick
/// entry box: after each Store the cursor is back in the box, and a level
/// knock-out table's next score goes into its tiebreak set.
#[tokio::test(flavor = "current_thread")]
async fn the_quick_entry_box_has_the_cursor_again_after_each_store() {
    let app = common::TestApp::start("sqlite");
    let referee = app.user("nomsa", Role::Referee);
    let fields = kraal::tournament::RawTournament {
        name: "Mangaung Cup".into(),
        system: "knockout".into(),
        rules: "official".into(),
        rounds: "2".into(),
        ..Default::default()
    }
    .check()
    .unwrap();
    let t = kraal::director::commit(&mut app.conn(), Some(referee.id), |w| {
        kraal::db::tournaments::create(w, &fields, &referee)
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
        common::player(&app, t.id, &referee, n, "", &(1900 - 50 * i).to_string());
    }
    let mut c = app.client_as(&referee);
    c.post(&format!("/t/{}/rounds", t.id), &[]);
    c.post(&format!("/t/{}/rounds/1/publish", t.id), &[]);
    let Some((b, _driver)) = browser().await else {
        return;
    };
    navigate(&b, Go::To(&format!("{}/login", app.base))).await;
    fill_sign_in(&b, "nomsa").await;
    navigate(
        &b,
        Go::To(&format!("{}/t/{}/rounds/1/results", app.base, t.id)),
    )
    .await;
    assert_eq!(focused(&b).await, "quick");
    for (typed, says) in [
        ("1 1-1", "Table 1: Kagiso Molefe 1-1 Palesa Nkosi"),
        ("2 2-0", "Table 2: Refilwe Dube 2-0 Tumelo Sithole"),
        (
            "1 0-2",
            "Table 1, tiebreak set 1: Kagiso Molefe 0-2 Palesa Nkosi",
        ),
    ] {
        b.find(Locator::Id("quick"))
            .await
            .unwrap()
            .send_keys(typed)
            .await
            .unwrap();
        press(&b, "Check").await;
        let confirm = b
            .find(Locator::Css("form.confirm"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(confirm.contains(says), "{typed}: {confirm}");
        press(&b, "Store").await;
        assert_eq!(
            focused(&b).await,
            "quick",
            "after storing {typed} the cursor is in the quick-entry box"
        );
    }
    let main = b
        .find(Locator::Id("t1"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(main.contains("1-1, TB1 0-2"), "{main}");
    if let Ok(png) = b.screenshot().await {
        let _ = std::fs::write(std::env::temp_dir().join("kraal-quick-entry.png"), png);
    }
    b.close().await.unwrap();
}

/// The value of the form control `id`, as the browser holds it.
async fn value_of(b: &fantoccini::Client, id: &str) -> String {
    b.find(Locator::Id(id))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default()
}

/// Choosing a system on the new-tournament form fills in its usual rounds
/// and bye value, keeps rounds the organiser typed, and shows the cycles
/// choice for round robins only; a round robin created with its rounds
/// left to the field says what the field gives.
#[tokio::test(flavor = "current_thread")]
async fn the_new_tournament_form_fills_in_each_systems_rounds_and_bye() {
    let app = common::TestApp::start("sqlite");
    app.user("lindiwe", Role::Referee);
    let Some((b, _driver)) = browser().await else {
        return;
    };
    navigate(&b, Go::To(&format!("{}/login", app.base))).await;
    fill_sign_in(&b, "lindiwe").await;
    navigate(&b, Go::To(&format!("{}/t/new", app.base))).await;
    assert_eq!(value_of(&b, "rounds").await, "7");
    assert_eq!(value_of(&b, "bye_value").await, "win");
    let cycles = b.find(Locator::Id("cycles")).await.unwrap();
    assert!(
        !cycles.is_displayed().await.unwrap(),
        "no cycles in a Swiss"
    );

    choose(&b, "system", "round_robin").await;
    assert_eq!(value_of(&b, "rounds").await, "", "the field decides");
    assert_eq!(value_of(&b, "bye_value").await, "none");
    assert!(cycles.is_displayed().await.unwrap());

    choose(&b, "system", "swiss").await;
    assert_eq!(value_of(&b, "rounds").await, "7");
    assert_eq!(value_of(&b, "bye_value").await, "win");
    let rounds = b.find(Locator::Id("rounds")).await.unwrap();
    rounds.clear().await.unwrap();
    rounds.send_keys("9").await.unwrap();
    choose(&b, "system", "team_swiss").await;
    assert_eq!(value_of(&b, "rounds").await, "9", "typed rounds are kept");

    choose(&b, "system", "round_robin").await;
    let rounds = b.find(Locator::Id("rounds")).await.unwrap();
    rounds.clear().await.unwrap();
    b.find(Locator::Id("name"))
        .await
        .unwrap()
        .send_keys("Thaba Nchu Closed")
        .await
        .unwrap();
    navigate(&b, Go::Click(Locator::Css("main form button[type=submit]"))).await;
    let facts = b
        .find(Locator::Css("dl.facts"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        facts.contains("Round robin, rounds follow the field"),
        "{facts}"
    );
}

/// A session's Chromium profile goes with it: nothing of it is left once
/// the driver is dropped, and no Chromium of it keeps running.
#[tokio::test(flavor = "current_thread")]
async fn a_browser_profile_is_deleted_after_its_test() {
    let app = common::TestApp::start("sqlite");
    let Some((b, driver)) = browser().await else {
        return;
    };
    navigate(&b, Go::To(&format!("{}/login", app.base))).await;
    let profile = driver.profile().unwrap().to_path_buf();
    assert!(profile.join("Default").is_dir(), "{}", profile.display());
    drop(driver);
    drop(b);
    // Give a surviving Chromium the time to write into its profile again.
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(1) {
        assert!(!profile.exists(), "{} is still there", profile.display());
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// The words of `main`'s table cells that the page shows broken over two
/// lines (each word's boxes on more than one line).
async fn words_broken(b: &fantoccini::Client) -> Vec<String> {
    let broken = b
        .execute(
            r#"const bad = [];
for (const cell of document.querySelectorAll('main td, main th')) {
  const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walk.nextNode())) {
    // Words for screen readers only sit in a one-pixel box.
    if (node.parentElement.closest('.visually-hidden')) continue;
    // Nor are the words of a closed <details> shown.
    if (!node.parentElement.checkVisibility()) continue;
    // A line may end after a hyphen (Mahlangu-/Khumalo): the parts are
    // the words.
    const word = /[^\s\-\u2010]+/g;
    let m;
    while ((m = word.exec(node.data))) {
      const r = document.createRange();
      r.setStart(node, m.index);
      r.setEnd(node, m.index + m[0].length);
      const tops = new Set(Array.from(r.getClientRects()).filter(x => x.width > 0).map(x => Math.round(x.top)));
      if (tops.size > 1) bad.push(m[0]);
    }
  }
}
return bad;"#,
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(broken).unwrap()
}

/// Names wrap between words at a desk's 1280 px and a phone's 360 px, on
/// the tournament page, a round, the standings and the crosstable: no
/// "Mahlang/u".
#[tokio::test(flavor = "current_thread")]
async fn names_wrap_between_words_never_inside_one() {
    let app = common::TestApp::start("sqlite");
    let referee = app.user("nomsa", Role::Referee);
    let mut api = app.script_for(&referee);
    let names = [
        ("Sibusiso Mahlangu", "Tembisa Morabaraba Club"),
        ("Nokuthula Mokoena", "Mamelodi Stones"),
        ("Bonginkosi Ntshangase", "Soweto Morabaraba Society"),
        ("Thandiwe Mahlangu-Khumalo", "KwaThema Cows Club"),
        ("Lwazi Mthembu", "Orlando Community Hall"),
        ("Nomvula Dlamini", "Ga-Rankuwa Morabaraba Club"),
        ("Mpho Mokoena", "Tembisa Morabaraba Club"),
        ("Khanyisile Ndlovu", "Mamelodi Stones"),
    ];
    let entries: Vec<serde_json::Value> = names
        .iter()
        .enumerate()
        .map(
            |(i, (n, c))| serde_json::json!({"name": n, "club": c, "rating": 1900 - 25 * i as i64}),
        )
        .collect();
    let (tid, _) = common::api_tournament(
        &mut api,
        serde_json::json!({"name": "Ekurhuleni Open", "rules": "official", "rounds": 5}),
        &entries,
    );
    for game in common::pair(&mut api, tid)
        .iter()
        .flat_map(|p| p["games"].as_array().unwrap().clone())
    {
        common::put(&mut api, &game, "1-0");
    }
    let Some((b, _driver)) = browser().await else {
        return;
    };
    navigate(&b, Go::To(&format!("{}/login", app.base))).await;
    fill_sign_in(&b, "nomsa").await;
    for (width, height) in [(1280, 900), (360, 800)] {
        b.set_window_size(width, height).await.unwrap();
        for page in ["", "/rounds/1", "/standings", "/crosstable"] {
            navigate(&b, Go::To(&format!("{}/t/{tid}{page}", app.base))).await;
            let broken = words_broken(&b).await;
            assert!(broken.is_empty(), "{width} px, /t/{tid}{page}: {broken:?}");
        }
    }
    b.close().await.unwrap();
}

/// The results desk says when a colleague's entry arrived on the 24-hour
/// clock, as every other time the pages show (not "12:27:05 AM").
#[tokio::test(flavor = "current_thread")]
async fn the_desk_says_the_time_on_the_24_hour_clock() {
    let app = common::TestApp::start("sqlite");
    let referee = app.user("nomsa", Role::Referee);
    let mut api = app.script_for(&referee);
    let (tid, _) = common::api_tournament(
        &mut api,
        serde_json::json!({"name": "Polokwane Open", "rules": "official", "rounds": 3}),
        &[
            serde_json::json!({"name": "Tshepo Maluleke"}),
            serde_json::json!({"name": "Rendani Mudau"}),
            serde_json::json!({"name": "Ntsako Baloyi"}),
            serde_json::json!({"name": "Mulalo Netshiongolwe"}),
        ],
    );
    let pairings = common::pair(&mut api, tid);
    let Some((b, _driver)) = browser().await else {
        return;
    };
    navigate(&b, Go::To(&format!("{}/login", app.base))).await;
    fill_sign_in(&b, "nomsa").await;
    navigate(
        &b,
        Go::To(&format!("{}/t/{tid}/rounds/1/results", app.base)),
    )
    .await;
    // Give the page's stream a moment to connect, then a colleague enters
    // a result elsewhere.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut said = String::new();
    let mut sent = false;
    while std::time::Instant::now() < deadline {
        if !sent {
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            common::put(&mut api, &pairings[0]["games"][0], "1-0");
            sent = true;
        }
        said = b
            .find(Locator::Id("live-updated"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        if !said.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let at = said
        .strip_prefix("Updated from elsewhere at ")
        .unwrap_or_else(|| panic!("{said:?}"));
    let time: String = at.chars().take(8).collect();
    let bytes = time.as_bytes();
    assert!(
        bytes.len() == 8
            && bytes[2] == b':'
            && bytes[5] == b':'
            && time.chars().filter(char::is_ascii_digit).count() == 6
            && at[8..].starts_with(':'),
        "{said:?}"
    );
    b.close().await.unwrap();
}

//! A real browser (headless Chromium through chromedriver) signs in and
//! creates a tournament on a phone-sized window. Without chromedriver the
//! test says it is skipped; under CI (`CI` set) a missing driver is a failure.

mod common;

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{ClientBuilder, Locator};
use kraal::db::users::Role;

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn chromedriver() -> Option<(Driver, u16)> {
    let path = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())?;
    let port = TcpListener::bind("127.0.0.1:0")
        .ok()?
        .local_addr()
        .ok()?
        .port();
    let child = Command::new(path)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let driver = Driver(child);
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if start.elapsed() > Duration::from_secs(10) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Some((driver, port))
}

/// Opens a headless Chromium session, or says why the test is skipped.
async fn browser() -> Option<(fantoccini::Client, Driver)> {
    let Some((driver, port)) = chromedriver() else {
        if std::env::var_os("CI").is_some() {
            panic!("chromedriver is missing under CI: install chromium and chromium-driver");
        }
        eprintln!("skipped: chromedriver not found (apt-get install chromium chromium-driver)");
        return None;
    };
    let profile = tempfile::tempdir().unwrap().keep();
    let caps: serde_json::Map<String, serde_json::Value> = serde_json::from_value(serde_json::json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=360,800",
                format!("--user-data-dir={}", profile.display()),
            ]
        }
    }))
    .unwrap();
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("start a Chromium session");
    Some((client, driver))
}

/// Types a user name and the test password into the sign-in form and sends it.
async fn fill_sign_in(b: &fantoccini::Client, name: &str) {
    b.find(Locator::Id("name"))
        .await
        .unwrap()
        .send_keys(name)
        .await
        .unwrap();
    b.find(Locator::Id("password"))
        .await
        .unwrap()
        .send_keys(common::PASSWORD)
        .await
        .unwrap();
    b.find(Locator::Css("main button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn a_referee_signs_in_and_creates_a_tournament_in_a_browser() {
    let app = common::TestApp::start("sqlite");
    app.user("nomsa", Role::Referee);
    let Some((b, _driver)) = browser().await else {
        return;
    };

    b.goto(&format!("{}/", app.base)).await.unwrap();
    b.find(Locator::LinkText("Sign in"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    fill_sign_in(&b, "nomsa").await;
    b.wait()
        .for_element(Locator::LinkText("New tournament"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

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
    b.find(Locator::Css("main form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let err = b
        .wait()
        .for_element(Locator::Id("rounds-error"))
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
    b.find(Locator::Css("#rule_set option[value=official]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    b.find(Locator::Css("main form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

    // Wait for the tournament page itself (the form page has an h1 too).
    b.wait()
        .for_element(Locator::Css("dl.facts"))
        .await
        .unwrap();
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

    b.goto(&format!("{}/login", app.base)).await.unwrap();
    fill_sign_in(&b, "nomsa").await;
    b.wait()
        .for_element(Locator::LinkText("New tournament"))
        .await
        .unwrap();

    b.goto(&format!("{}/t/{}", app.base, t.id)).await.unwrap();
    b.find(Locator::XPath("//button[contains(., 'Pair round 1')]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    b.wait()
        .for_element(Locator::XPath("//button[contains(., 'Publish round 1')]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    b.wait()
        .for_element(Locator::XPath("//a[contains(., 'Enter results')]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

    // Type each pairing's score with the keyboard: the first player wins 4-2.
    let scores = b
        .wait()
        .for_element(Locator::Css("form.results"))
        .await
        .unwrap();
    let inputs = scores
        .find_all(Locator::Css("input[name^=s]"))
        .await
        .unwrap();
    assert_eq!(inputs.len(), 2);
    for input in &inputs {
        input.send_keys("4-2").await.unwrap();
    }
    b.find(Locator::XPath("//button[contains(., 'Save all tables')]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    b.wait()
        .for_element(Locator::Css("form.results"))
        .await
        .unwrap();

    // A player (no account) looks at the top seed's page.
    b.goto(&format!(
        "{}/t/{}/players/{}",
        app.base, t.id, players[0].id
    ))
    .await
    .unwrap();
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

    let data = kraal::db::tournament_data(&mut app.conn(), t.id).unwrap();
    assert_eq!(
        data.games.iter().filter(|g| g.result.is_some()).count(),
        12,
        "two pairings of six games"
    );
}

//! A real browser for the tests: headless Chromium through chromedriver, and
//! the one way the tests move it from page to page ([`navigate`]).
//!
//! Only the browser test binaries include this file (`#[path]`), so the
//! other test binaries do not compile or link a WebDriver client.
#![allow(dead_code)]

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};

/// How long a page may take to replace the one before it.
const NAVIGATION_TIMEOUT: Duration = Duration::from_secs(15);

/// A running chromedriver, stopped when dropped, and the Chromium profile
/// of its session, deleted then.
pub struct Driver {
    child: Child,
    profile: Option<tempfile::TempDir>,
}

impl Driver {
    /// The Chromium profile of the session, while it lasts.
    pub fn profile(&self) -> Option<&std::path::Path> {
        self.profile.as_ref().map(|p| p.path())
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The driver leads its own process group, with the Chromium it
        // started: the whole group goes, not the driver alone.
        let _ = Command::new("sh")
            .args(["-c", &format!("kill -KILL -{}", self.child.id())])
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(profile) = self.profile.take() {
            let path = profile.path().to_path_buf();
            // Chromium may still be writing its last files as it exits.
            let start = Instant::now();
            let _ = profile.close();
            while path.exists() && start.elapsed() < Duration::from_secs(5) {
                std::thread::sleep(Duration::from_millis(50));
                let _ = std::fs::remove_dir_all(&path);
            }
        }
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
    use std::os::unix::process::CommandExt;
    let child = Command::new(path)
        .arg(format!("--port={port}"))
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let driver = Driver {
        child,
        profile: None,
    };
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if start.elapsed() > Duration::from_secs(10) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Some((driver, port))
}

/// Opens a headless Chromium session on a phone-sized window, or says why
/// the test is skipped. Under CI (`CI` set) a missing driver is a failure.
pub async fn browser() -> Option<(Client, Driver)> {
    browser_with(true).await
}

/// As [`browser`], with JavaScript off when `script` is false (the pages
/// must work without it).
pub async fn browser_with(script: bool) -> Option<(Client, Driver)> {
    let Some((mut driver, port)) = chromedriver() else {
        if std::env::var_os("CI").is_some() {
            panic!("chromedriver is missing under CI: install chromium and chromium-driver");
        }
        eprintln!("skipped: chromedriver not found (apt-get install chromium chromium-driver)");
        return None;
    };
    let profile = tempfile::tempdir().unwrap();
    let caps: serde_json::Map<String, serde_json::Value> = serde_json::from_value(serde_json::json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--disable-breakpad", "--window-size=360,800",
                format!("--user-data-dir={}", profile.path().display()),
            ],
            "prefs": if script {
                serde_json::json!({})
            } else {
                serde_json::json!({ "profile.managed_default_content_settings.javascript": 2 })
            }
        }
    }))
    .unwrap();
    driver.profile = Some(profile);
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("start a Chromium session");
    Some((client, driver))
}

/// What takes the browser to another page.
pub enum Go<'a> {
    /// Open this URL (absolute, or relative to the current page).
    To(&'a str),
    /// Click the link or submit button this locator finds.
    Click(Locator<'a>),
    /// Click this link or submit button, found before.
    ClickOn(Element),
}

impl std::fmt::Debug for Go<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Go::To(url) => write!(f, "open {url}"),
            Go::Click(l) => write!(f, "click {l:?}"),
            Go::ClickOn(_) => write!(f, "click an element"),
        }
    }
}

/// Takes the browser to another page and returns once that page has replaced
/// the one before it: the old document's `<html>` element is gone (stale)
/// and the new document has finished loading. A lookup after this call
/// therefore never finds an element of the page being left.
///
/// Every navigation of the browser tests goes through here: a click lands
/// in the old page, and without this wait the next lookup may run on it
/// just before the new page replaces it (a stale element, or the wrong page).
pub async fn navigate(b: &Client, go: Go<'_>) {
    let what = format!("{go:?}");
    let old = b
        .find(Locator::Css("html"))
        .await
        .unwrap_or_else(|e| panic!("{what}: no document to leave: {e}"));
    let started = match go {
        Go::To(url) => b.goto(url).await,
        Go::Click(locator) => match b.find(locator).await {
            Ok(el) => el.click().await,
            Err(e) => panic!("{what}: {e}"),
        },
        Go::ClickOn(el) => el.click().await,
    };
    // A click that starts a navigation at once may still report an error
    // (chromedriver looks at the clicked node after its document is gone:
    // "Node with given id does not belong to the document"). What counts is
    // whether the page was left, so an error is kept and shown only if the
    // page stays.
    let mut last_error = started.err().map(|e| e.to_string());
    let start = Instant::now();
    loop {
        match old.tag_name().await {
            Err(e) if e.is_stale_element_reference() => {
                match b.execute("return document.readyState;", vec![]).await {
                    Ok(state) if state == "complete" => return,
                    Ok(_) => {}
                    Err(e) => last_error = Some(e.to_string()),
                }
            }
            Ok(_) => {}
            Err(e) => last_error = Some(e.to_string()),
        }
        if start.elapsed() > NAVIGATION_TIMEOUT {
            let url = b.current_url().await.map(|u| u.to_string());
            panic!(
                "{what}: no new page after {NAVIGATION_TIMEOUT:?} (still at {url:?}; last error: {})",
                last_error.as_deref().unwrap_or("none")
            );
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Presses the button that says `text`, as a person would, and waits for
/// the page it leads to.
pub async fn press(b: &Client, text: &str) {
    let xpath = format!("//button[contains(., '{text}')]");
    navigate(b, Go::Click(Locator::XPath(&xpath))).await;
}

/// Follows the link that says `text` and waits for its page.
pub async fn follow(b: &Client, text: &str) {
    let xpath = format!("//a[contains(., '{text}')]");
    navigate(b, Go::Click(Locator::XPath(&xpath))).await;
}

/// The path (and query) of the page the browser shows.
pub async fn path(b: &Client) -> String {
    let url = b.current_url().await.unwrap();
    match url.query() {
        Some(q) => format!("{}?{q}", url.path()),
        None => url.path().to_string(),
    }
}

/// Types a user name and the test password into the sign-in form on the
/// current page and sends it.
pub async fn fill_sign_in(b: &Client, name: &str) {
    b.find(Locator::Id("name"))
        .await
        .unwrap()
        .send_keys(name)
        .await
        .unwrap();
    b.find(Locator::Id("password"))
        .await
        .unwrap()
        .send_keys(crate::common::PASSWORD)
        .await
        .unwrap();
    navigate(b, Go::Click(Locator::Css("main button[type=submit]"))).await;
}

/// Runs `script` until it returns true, or fails saying `what`.
pub async fn until(b: &fantoccini::Client, script: &str, args: Vec<serde_json::Value>, what: &str) {
    let start = Instant::now();
    loop {
        let v = b.execute(script, args.clone()).await.unwrap();
        if v == serde_json::json!(true) {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "{what} (20 s)");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The page fits the phone: nothing runs off its right edge.
pub async fn fits_360(b: &fantoccini::Client, what: &str) {
    let r = b
        .execute(
            "return [window.innerWidth, document.documentElement.scrollWidth];",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(r[0], serde_json::json!(360), "{what}: the viewport");
    assert!(r[1].as_i64().unwrap() <= 360, "{what} is {} px wide", r[1]);
}

/// Whether the phone's service worker keeps a copy of `path`.
pub async fn kept(phone: &fantoccini::Client, path: &str) -> bool {
    phone
        .execute_async(
            "var path = arguments[0], done = arguments[arguments.length - 1];
             caches.open('kraal-pages').then(function (c) { return c.match(location.origin + path); })
               .then(function (r) { done(!!r); }, function () { done(false); });",
            vec![serde_json::json!(path)],
        )
        .await
        .unwrap()
        == serde_json::json!(true)
}

/// Waits until the phone's service worker keeps `path`.
pub async fn until_kept(phone: &fantoccini::Client, path: &str) {
    let start = Instant::now();
    while !kept(phone, path).await {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the worker keeps {path} (20 s)"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

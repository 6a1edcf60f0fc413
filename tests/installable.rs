//! A phone can add Kraal to its home screen: every page links the web app
//! manifest, which names the app and its 192 and 512 px icons, and the
//! icon browsers ask for on their own (`/favicon.ico`) is there.

#![allow(clippy::unwrap_used)]

mod common;

use common::TestApp;
use kraal::db::users::Role;
use serde_json::json;

/// The width and height a PNG says it has (its IHDR chunk).
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    let n = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (n(16), n(20))
}

#[test]
fn every_public_page_links_a_manifest_whose_icons_are_there() {
    let app = TestApp::start("sqlite");
    let mut phone = app.client();
    let (status, h, manifest) = phone.get_bytes("/manifest.webmanifest", &[]);
    assert_eq!(status, 200);
    assert_eq!(h["content-type"], "application/manifest+json");
    let m: serde_json::Value = serde_json::from_slice(&manifest).unwrap();
    assert_eq!(m["short_name"], "Kraal");
    assert_eq!(m["start_url"], "/");
    assert_eq!(m["display"], "standalone");
    for wanted in [192, 512] {
        let icon = m["icons"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["sizes"] == format!("{wanted}x{wanted}"))
            .unwrap_or_else(|| panic!("no {wanted} px icon in {m}"));
        let (status, h, png) = phone.get_bytes(icon["src"].as_str().unwrap(), &[]);
        assert_eq!((status, h["content-type"].as_str()), (200, "image/png"));
        assert_eq!(png_size(&png), (wanted, wanted));
    }
    let (status, h, ico) = phone.get_bytes("/favicon.ico", &[]);
    assert_eq!((status, h["content-type"].as_str()), (200, "image/x-icon"));
    assert_eq!(&ico[..4], [0, 0, 1, 0], "an ICO file");
    assert_eq!(phone.get("/static/icons/icon-64.png").status, 404);

    let referee = app.user("nomvula", Role::Referee);
    let mut api = app.script_for(&referee);
    let (tid, _) = common::api_tournament(
        &mut api,
        json!({"name": "Polokwane Open", "rules": "official", "rounds": 3}),
        &[
            json!({"name": "Thabo Nkosi"}),
            json!({"name": "Lerato Dlamini"}),
            json!({"name": "Sipho Mokoena"}),
            json!({"name": "Naledi Khumalo"}),
        ],
    );
    common::pair(&mut api, tid);
    let links = api
        .get(&format!("/api/v1/tournaments/{tid}/rounds/1/links"))
        .json();
    let personal = links["links"][0]["url"].as_str().unwrap();
    let personal = &personal[personal.find("/player/").unwrap()..];
    for path in [
        "/".to_string(),
        format!("/t/{tid}"),
        format!("/t/{tid}/rounds/1"),
        format!("/t/{tid}/standings"),
        format!("/t/{tid}/display"),
    ] {
        let page = phone.get(&path);
        assert_eq!(page.status, 200, "{path}");
        assert!(
            page.body
                .contains("<link rel=\"manifest\" href=\"/manifest.webmanifest\">"),
            "{path}: {}",
            page.body
        );
    }

    // A player's page links a manifest of its own, which opens that page
    // from the home screen: the list of events leads to no secret link.
    let page = phone.get(personal);
    let own = format!("{personal}/manifest.webmanifest");
    assert!(
        page.body
            .contains(&format!("<link rel=\"manifest\" href=\"{own}\">")),
        "{}",
        page.body
    );
    let (status, h, manifest) = phone.get_bytes(&own, &[]);
    assert_eq!(status, 200);
    assert_eq!(h["content-type"], "application/manifest+json");
    assert_eq!(h["cache-control"], "private, no-cache");
    let m: serde_json::Value = serde_json::from_slice(&manifest).unwrap();
    assert_eq!(m["start_url"], personal);
    assert_eq!(m["id"], personal);
    assert_eq!(m["display"], "standalone");
    let name = links["links"][0]["name"].as_str().unwrap();
    assert!(
        m["name"].as_str().unwrap().contains(name),
        "{m} names the player"
    );
    assert_eq!(
        phone
            .get("/player/0123456789abcdef0123456789abcdef/manifest.webmanifest")
            .status,
        404
    );
}

/// The service worker is served from the root (its scope covers `/t/` and
/// `/player/`), revalidated each time, and names this build's files; a
/// player's page may be kept by the phone that opened it, which learns
/// until when, and revalidates it with its ETag.
#[test]
fn the_worker_is_served_from_the_root_and_the_players_page_revalidates() {
    let app = TestApp::start("sqlite");
    let mut phone = app.client();
    let worker = phone.get("/sw.js");
    assert_eq!(worker.status, 200);
    assert!(worker.headers["content-type"].starts_with("text/javascript"));
    assert_eq!(worker.headers["cache-control"], "no-cache");
    assert!(
        !worker.body.contains("@VERSION@") && worker.body.contains("var VERSION = \""),
        "the worker names its build"
    );
    for kept in ["/static/kraal.css", "/static/kraal.js", "/favicon.ico"] {
        assert!(worker.body.contains(&format!("\"{kept}\"")), "{kept}");
        assert_eq!(phone.get(kept).status, 200, "{kept}");
    }

    let referee = app.user("lindiwe", Role::Referee);
    let mut api = app.script_for(&referee);
    let (tid, _) = common::api_tournament(
        &mut api,
        json!({"name": "Mthatha Open", "rules": "official", "rounds": 3,
               "starts_on": "2026-11-27", "ends_on": "2026-11-29"}),
        &[
            json!({"name": "Ayanda Zulu"}),
            json!({"name": "Busi Mahlangu"}),
        ],
    );
    let r1 = common::pair(&mut api, tid);
    let played_on = api
        .get(&format!("/api/v1/tournaments/{tid}/rounds/1"))
        .json()["date"]
        .as_str()
        .unwrap()
        .to_string();
    let links = api
        .get(&format!("/api/v1/tournaments/{tid}/rounds/1/links"))
        .json();
    let url = links["links"][0]["url"].as_str().unwrap();
    let personal = &url[url.find("/player/").unwrap()..];
    let page = phone.get(personal);
    assert_eq!(page.status, 200);
    assert_eq!(page.headers["cache-control"], "private, no-cache");
    // Kept 30 days after the later of the last round and the last day.
    let last = chrono::NaiveDate::parse_from_str(&played_on, "%Y-%m-%d")
        .unwrap()
        .max(chrono::NaiveDate::from_ymd_opt(2026, 11, 29).unwrap());
    assert_eq!(
        page.headers["kraal-kept-until"],
        (last + chrono::Days::new(30)).to_string()
    );
    let etag = page.headers["etag"].clone();
    let again = phone.get_with_header(personal, "If-None-Match", &etag);
    assert_eq!(again.status, 304, "{}", again.body);
    assert!(again.body.is_empty());
    // A result changes the page, and its tag.
    common::put(&mut api, &r1[0]["games"][0], "1-0");
    let changed = phone.get_with_header(personal, "If-None-Match", &etag);
    assert_eq!(changed.status, 200);
    assert_ne!(changed.headers["etag"], etag);
    // Signed in, the same page is no one's to keep.
    let mut signed_in = app.client_as(&referee);
    assert_eq!(signed_in.get(personal).headers["cache-control"], "no-store");
    // A write's answer and the player API are not kept either.
    let key = personal.rsplit('/').next().unwrap();
    let own = phone.get(&format!("/api/v1/player/{key}"));
    assert_eq!(own.headers["cache-control"], "no-store");
}

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
        personal.to_string(),
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
}

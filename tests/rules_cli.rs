//! `kraal check` and `kraal perft` as a referee runs them: output and exit
//! status.

#![allow(clippy::unwrap_used)]

mod common;

use common::cli::kraal;

const CLEAN: &str = "[Rules \"official\"]\n1. D1-1 B2-13 2. A1-2 A4-14 3. G1-3 x B2,13 A7-15\n";

#[test]
fn a_clean_sheet_exits_with_zero() {
    let (code, text, _) = kraal(&["check", "-"]).stdin(CLEAN).run();
    assert_eq!(code, 0);
    assert!(text.contains("Irregularities: none"), "{text}");
    assert!(text.contains("A1,2-D1,1-G1,3"), "{text}");
}

#[test]
fn json_has_the_documented_fields() {
    let (code, out, _) = kraal(&["check", "--json", "-"])
        .stdin("1. a1 a1 2. d1\n")
        .run();
    assert_eq!(code, 1);
    let v = common::json(&out);
    assert_eq!(v["rules"], "gar");
    assert_eq!(v["plies"], 3);
    let first = &v["irregularities"][0];
    assert_eq!(first["ply"], 2);
    assert_eq!(first["side"], "light");
    assert_eq!(first["move"], "a1");
    assert_eq!(first["article"], "OGR 3.1.5");
    assert!(first["message"]
        .as_str()
        .unwrap()
        .starts_with("ply 2, light: "));
    assert!(v["board_result"].is_null());
    assert!(v["claimed_result"].is_null());
    assert!(v["result_agrees"].is_null());
    assert!(v["triplets"].as_array().unwrap().is_empty());
    assert_eq!(v["final_position"]["dark"].as_array().unwrap().len(), 2);
}

#[test]
fn the_rules_option_wins_over_the_tag() {
    let sheet = "[Rules \"gar\"]\n1. a1 b2 2. d1 b4 3. c3 b6xc3 4. g1xb4\n";
    let (code, _, _) = kraal(&["check", "--json", "-"]).stdin(sheet).run();
    assert_eq!(code, 0);
    let (code, official, _) = kraal(&["check", "--json", "--rules", "official", "-"])
        .stdin(sheet)
        .run();
    assert_eq!(code, 1);
    let v = common::json(&official);
    assert_eq!(v["rules"], "official");
    assert_eq!(v["irregularities"][0]["article"], "OGR 5.4.8 / 3.1.8.2");
}

#[test]
fn unreadable_input_exits_with_two() {
    let (code, _, err) = kraal(&["check", "-"]).stdin("1. a1 d4\n").run();
    assert_eq!(code, 2);
    assert!(err.contains("line 1, column 7"), "{err}");
    let (code, _, _) = kraal(&["check", "/no/such/scoresheet.txt"]).run();
    assert_eq!(code, 2);
}

#[test]
fn perft_prints_one_line_per_depth() {
    let (code, out, _) = kraal(&["perft", "--rules", "official", "3"]).run();
    assert_eq!(code, 0);
    assert_eq!(out, "depth 1: 24\ndepth 2: 552\ndepth 3: 12144\n");
    // After three placements light has 21 empty junctions. Dark then has
    // 20, and D1 completes A1-D1-G1 with two light cows to shoot: one move
    // more, unless light took D1. 20 * 21 + 20 = 440.
    let (_, out, _) = kraal(&["perft", "2", "--after", "a1 d7 g1"]).run();
    assert_eq!(out, "depth 1: 21\ndepth 2: 440\n");
    let (code, _, _) = kraal(&["perft", "2", "--after", "a1 a1"]).run();
    assert_eq!(code, 2);
}

#[test]
fn many_sheets_and_directories_are_checked_with_a_summary_and_the_worst_status() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    };
    let clean = write("a-clean.txt", CLEAN.as_bytes());
    let irregular = write("b-irregular.txt", b"1. a1 a1 2. d1\n");
    write("c-unreadable.txt", b"1. a1 d4\n");
    write("d-latin1.txt", b"[Dark \"Ren\xe9\"]\n1. a1\n");
    write(".hidden", b"not a sheet");

    let dir_arg = dir.path().to_string_lossy().into_owned();
    let (code, out, _) = kraal(&["check", "--summary", &dir_arg]).run();
    assert_eq!(code, 2, "the worst of the sheets: {out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[0].ends_with("a-clean.txt: 6 plies, clean"), "{out}");
    assert!(
        lines[1].ends_with("b-irregular.txt: 3 plies, 1 irregularity"),
        "{out}"
    );
    assert!(
        lines[2].contains("c-unreadable.txt: unreadable: line 1, column 7"),
        "{out}"
    );
    assert!(
        lines[3].ends_with("d-latin1.txt: unreadable: not UTF-8 text"),
        "{out}"
    );
    assert_eq!(
        lines[4],
        "4 sheets: 1 clean, 1 with irregularities, 2 unreadable"
    );

    let (code, out, _) = kraal(&["check", "--json", &clean, &irregular]).run();
    assert_eq!(code, 1);
    let v = common::json(&out);
    let list = v.as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["file"], clean.as_str());
    assert_eq!(list[0]["irregularities"], serde_json::json!([]));
    assert_eq!(list[1]["irregularities"][0]["article"], "OGR 3.1.5");

    let (code, out, _) = kraal(&["check", "--json", &dir_arg]).run();
    assert_eq!(code, 2);
    let v = common::json(&out);
    assert_eq!(v.as_array().unwrap().len(), 4);
    assert!(v[2]["error"]
        .as_str()
        .unwrap()
        .starts_with("line 1, column 7"));

    let (code, out, _) = kraal(&["check", &clean, &clean]).run();
    assert_eq!(code, 0);
    assert_eq!(out.matches("Irregularities: none").count(), 2);
    assert!(out.starts_with("== "), "{out}");
}

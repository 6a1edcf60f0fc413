//! `kraal check` and `kraal perft` as a referee runs them: output and exit
//! status.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn kraal(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kraal"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kraal runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("kraal finishes")
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

const CLEAN: &str = "[Rules \"official\"]\n1. D1-1 B2-13 2. A1-2 A4-14 3. G1-3 x B2,13 A7-15\n";

#[test]
fn a_clean_sheet_exits_with_zero() {
    let out = kraal(&["check", "-"], CLEAN);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Irregularities: none"), "{text}");
    assert!(text.contains("A1,2-D1,1-G1,3"), "{text}");
}

#[test]
fn json_has_the_documented_fields() {
    let out = kraal(&["check", "--json", "-"], "1. a1 a1 2. d1\n");
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
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
    let gar = kraal(&["check", "--json", "-"], sheet);
    assert_eq!(gar.status.code(), Some(0));
    let official = kraal(&["check", "--json", "--rules", "official", "-"], sheet);
    assert_eq!(official.status.code(), Some(1));
    let v = json(&official);
    assert_eq!(v["rules"], "official");
    assert_eq!(v["irregularities"][0]["article"], "OGR 5.4.8 / 3.1.8.2");
}

#[test]
fn unreadable_input_exits_with_two() {
    let out = kraal(&["check", "-"], "1. a1 d4\n");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 1, column 7"), "{err}");
    let out = kraal(&["check", "/no/such/scoresheet.txt"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn perft_prints_one_line_per_depth() {
    let out = kraal(&["perft", "--rules", "official", "3"], "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "depth 1: 24\ndepth 2: 552\ndepth 3: 12144\n"
    );
    // After three placements light has 21 empty junctions. Dark then has
    // 20, and D1 completes A1-D1-G1 with two light cows to shoot: one move
    // more, unless light took D1. 20 * 21 + 20 = 440.
    let out = kraal(&["perft", "2", "--after", "a1 d7 g1"], "");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "depth 1: 21\ndepth 2: 440\n"
    );
    let out = kraal(&["perft", "2", "--after", "a1 a1"], "");
    assert_eq!(out.status.code(), Some(2));
}

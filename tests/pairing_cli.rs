//! `kraal pair FILE`: engine-style output, exit status 1 with the blocking
//! constraint when no pairing exists, exit status 2 naming line and field on
//! bad input.

#![allow(clippy::unwrap_used)]

mod common;

/// `kraal pair ARGS... FILE` on a file `name` holding `text`.
fn run(name: &str, text: &str, args: &[&str]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("kraal-pair-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    let file = file.to_str().expect("a UTF-8 temporary path");
    let all: Vec<&str> = ["pair"]
        .into_iter()
        .chain(args.iter().copied())
        .chain([file])
        .collect();
    common::cli::kraal(&all).run()
}

/// A TRF `001` line with the fields at their columns.
fn trf_line(rank: u32, name: &str, rating: &str, rounds: &[(u32, char, char)]) -> String {
    let mut s = format!("001 {rank:>4}      {name:<33} {rating:>4}");
    while s.len() < 91 {
        s.push(' ');
    }
    for &(o, c, r) in rounds {
        s.push_str(&format!("{o:>4} {c} {r}  "));
    }
    s.trim_end().to_string()
}

fn small_trf(extra: &str) -> String {
    [
        "012 Kraal club night".to_string(),
        "XXR 5".to_string(),
        trf_line(1, "Alpha A", "2000", &[(4, 'w', '1')]),
        trf_line(2, "Bravo B", "1900", &[(5, 'b', '1')]),
        trf_line(3, "Charlie C", "1800", &[(0, '-', 'U')]),
        trf_line(4, "Delta D", "1700", &[(1, 'b', '0')]),
        trf_line(5, "Echo E", "1600", &[(2, 'w', '0'), (0, '-', 'H')]),
        extra.to_string(),
    ]
    .join("\n")
}

#[test]
fn trf_round_two_prints_pairs_and_leaves_out_the_requested_bye() {
    let (code, out, err) = run("a.trf", &small_trf(""), &[]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "2");
    assert_eq!(lines.len(), 3);
    // 3 had the allocated bye (a downfloat) in round 1, so in the 1-point
    // bracket {1, 2, 3} it is 2 who floats down (C14); 5 asked for a bye.
    assert_eq!(&lines[1..], ["1 3", "2 4"]);
}

#[test]
fn trf_forbidden_group_is_honoured_and_json_carries_explanations() {
    let (code, out, err) = run("b.trf", &small_trf("XXP 1 3"), &["--json"]);
    assert_eq!(code, 0, "{err}");
    let v = common::json(&out);
    let pairs = v["pairs"].as_array().unwrap();
    for p in pairs {
        let (a, b) = (p["first"].as_u64().unwrap(), p["second"].as_u64().unwrap());
        assert_ne!((a.min(b), a.max(b)), (1, 3));
        assert!(p["explanation"]["bracket"].is_number());
    }
    assert_eq!(v["requested_byes"][0], 5);
}

#[test]
fn trf_bad_rating_names_line_and_field() {
    let text = small_trf("").replace("1900", "19x0");
    let (code, _, err) = run("c.trf", &text, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("line 4, field rating"), "{err}");
}

#[test]
fn trf_unknown_opponent_and_bad_result_code_are_reported() {
    let text = small_trf("").replace("   4 w 1", "  44 w 1");
    let (code, _, err) = run("d.trf", &text, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("line 3") && err.contains("opponent"), "{err}");
    let text = small_trf("").replace("   4 w 1", "   4 w Q");
    let (code, _, err) = run("e.trf", &text, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("line 3, field round 1 result"), "{err}");
}

const JSON: &str = r#"{
  "rules": "gar",
  "total_rounds": 3,
  "games_per_pairing": 2,
  "players": [
    {"id": 1, "name": "Thabo", "rating": 1800, "club": "Soweto"},
    {"id": 2, "name": "Lerato", "rating": 1750, "club": "Soweto"},
    {"id": 3, "name": "Sipho", "rating": 1700, "relatives": [4]},
    {"id": 4, "name": "Naledi", "rating": 1650}
  ],
  "rounds": [
    {"pairings": [
      {"first": 1, "second": 3, "games": [1, 0.5]},
      {"first": 2, "second": 4, "games": [1, 1]}
    ]}
  ]
}"#;

#[test]
fn kraal_json_pairs_round_two_without_relatives_or_rematches() {
    // Scores: 2 on 2, 1 on 1.5, 3 on 0.5, 4 on 0. 1-2 are club-mates (a GAR
    // preference in rounds 1-3) and 3-4 are relatives (never): the only
    // pairing without rematch or relatives is 2-3, 1-4.
    let (code, out, err) = run("t.json", JSON, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "2\n2 3\n1 4\n");
}

#[test]
fn impossible_round_exits_1_naming_the_constraint() {
    let text = JSON
        .replace(r#""relatives": [4]"#, r#""relatives": [4, 2]"#)
        .replace(
            r#""total_rounds": 3"#,
            r#""total_rounds": 3, "forbidden": [{"a": 1, "b": 4}]"#,
        );
    let (code, _, err) = run("u.json", &text, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("player"), "{err}");
}

#[test]
fn kraal_json_bad_input_exits_2_with_line_or_field() {
    let (code, _, err) = run(
        "v.json",
        &JSON.replace("\"rating\": 1750", "\"rating\": \"high\""),
        &[],
    );
    assert_eq!(code, 2);
    assert!(err.contains("line 7"), "{err}");
    let (code, _, err) = run(
        "w.json",
        &JSON.replace("\"second\": 4", "\"second\": 9"),
        &[],
    );
    assert_eq!(code, 2);
    assert!(err.contains("rounds[0].pairings[1].second"), "{err}");
    let (code, _, err) = run("x.json", &JSON.replace("[1, 1]", "[1, 2]"), &[]);
    assert_eq!(code, 2);
    assert!(err.contains("games[1]"), "{err}");
}

#[test]
fn the_rule_set_flag_is_spelled_rules_as_in_check_and_perft() {
    let trf = small_trf("");
    let (code, new, err) = run("r.trf", &trf, &["--rules", "gar"]);
    assert_eq!(code, 0, "{err}");
    let (code, old, err) = run("r.trf", &trf, &["--rule-set", "gar"]);
    assert_eq!(code, 0, "the old spelling still works: {err}");
    assert_eq!(new, old);
    let (code, _, err) = run("r.trf", &trf, &["--rules", "fide"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("'fide' is not a known rule set (official, gar)"),
        "{err}"
    );
}

//! Property tests: random legal games written in either notation read back
//! to the same moves and check clean; a single corruption is reported at its
//! ply; and no input whatever makes the reader or the checker panic.
//!
//! `KRAAL_FUZZ_CASES` sets the number of arbitrary inputs tried (default
//! 3000); CI runs the default.

#![allow(clippy::unwrap_used)]

use kraal::rules::board::{Squares, ALL};
use kraal::rules::check::BoardResult;
use kraal::rules::notation::{self, WrittenPly};
use kraal::rules::{check_scoresheet, Game, Move, PlayRules, RuleSet, SheetResult, Side, Status};
use proptest::prelude::*;

fn rules_of(official: bool) -> PlayRules {
    if official {
        PlayRules::OFFICIAL
    } else {
        PlayRules::GAR
    }
}

/// Plays `choices` as indices into the legal moves (modulo their number).
fn play_out(rules: PlayRules, choices: &[u16]) -> (Vec<Move>, Game) {
    let mut game = Game::new(rules);
    let mut moves = Vec::new();
    for &c in choices {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[c as usize % legal.len()];
        game.play(mv);
        moves.push(mv);
    }
    (moves, game)
}

/// Writes a game mixing both notations ply by ply, with the spellings the
/// reader must accept: case, spaces, en and em dashes, `X` and `×`, move
/// numbers, annotations and comments. `style` supplies the random bits.
fn write_mixed(
    rules: PlayRules,
    moves: &[Move],
    mut style: u64,
    result: Option<SheetResult>,
) -> String {
    let mut bits = move |n: u32| {
        let v = style & ((1 << n) - 1);
        style = style.rotate_right(n) ^ 0x9e37_79b9_7f4a_7c15;
        v
    };
    let mut out = format!("[Rules \"{}\"]\n[Dark \"A\"]\n[Light \"B\"]\n", rules.name);
    let mut game = Game::new(rules);
    for (i, &mv) in moves.iter().enumerate() {
        let p = game.position;
        if p.side() == Side::Dark {
            out.push_str(if i == 0 { "" } else { "\n" });
            out.push_str(&format!("{}. ", p.ply() / 2 + 1));
        } else if bits(2) == 0 {
            out.push_str(&format!(" {}... ", p.ply() / 2 + 1));
        } else {
            out.push(' ');
        }
        let upper = bits(1) == 1;
        let name = |j: kraal::rules::Junction| {
            if upper {
                j.name().to_string()
            } else {
                j.name().to_ascii_lowercase()
            }
        };
        let dash = ["-", " - ", "\u{2013}", " \u{2014} "][bits(2) as usize];
        let official = bits(1) == 1;
        match mv.from {
            None if official => {
                out.push_str(&format!(
                    "{}{dash}{}",
                    name(mv.to),
                    p.next_cow(p.side()).unwrap_or(0)
                ));
            }
            None => out.push_str(&name(mv.to)),
            Some(from) if official => {
                let comma = if bits(1) == 1 { "," } else { " , " };
                out.push_str(&format!(
                    "{}{comma}{}{dash}{}",
                    name(from),
                    p.cow_at(from).unwrap_or(0),
                    name(mv.to)
                ));
            }
            Some(from) => out.push_str(&format!("{}{dash}{}", name(from), name(mv.to))),
        }
        if let Some(t) = mv.shot {
            let cross = ["x", " x ", "X", "\u{00d7}"][bits(2) as usize];
            out.push_str(cross);
            out.push_str(&name(t));
            if official {
                out.push_str(&format!(",{}", p.cow_at(t).unwrap_or(0)));
            }
        }
        match bits(3) {
            0 => out.push('!'),
            1 => out.push_str(" ?!"),
            2 => out.push_str(" {a comment, with - dashes x and 1-0}"),
            _ => {}
        }
        game.play(mv);
    }
    if let Some(r) = result {
        out.push_str(&format!(" {}", r.as_str()));
    }
    out.push('\n');
    out
}

fn board_result_of(status: Status) -> Option<SheetResult> {
    match status {
        Status::Ongoing => None,
        Status::Drawn => Some(SheetResult::Draw),
        Status::Won {
            winner: Side::Dark, ..
        } => Some(SheetResult::DarkWins),
        Status::Won {
            winner: Side::Light,
            ..
        } => Some(SheetResult::LightWins),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_games_read_back_and_check_clean(
        official in any::<bool>(),
        choices in proptest::collection::vec(any::<u16>(), 0..400),
        style in any::<u64>(),
    ) {
        let rules = rules_of(official);
        let (moves, game) = play_out(rules, &choices);
        let result = board_result_of(game.status());
        let text = write_mixed(rules, &moves, style, result);
        let sheet = notation::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let read: Vec<Move> = sheet.plies.iter().map(WrittenPly::to_move).collect();
        prop_assert_eq!(&read, &moves, "{}", text);
        let report = check_scoresheet(&text, None).unwrap();
        prop_assert!(report.irregularities.is_empty(), "{:?}\n{}", report.irregularities, text);
        prop_assert_eq!(report.plies as usize, moves.len());
        prop_assert_eq!(report.result_agrees, result.map(|_| true));
        prop_assert_eq!(report.board_result.is_some(), result.is_some());
        if let Some(r) = report.board_result {
            let expected = match result.unwrap() {
                SheetResult::DarkWins => BoardResult::Dark,
                SheetResult::LightWins => BoardResult::Light,
                SheetResult::Draw => BoardResult::Draw,
            };
            prop_assert_eq!(r, expected);
        }
        let on_board = report.final_position.dark.len() + report.final_position.light.len();
        prop_assert_eq!(on_board as u32, game.position.occupied().count_ones());
    }

    #[test]
    fn one_corruption_is_reported_at_its_ply(
        official in any::<bool>(),
        choices in proptest::collection::vec(any::<u16>(), 1..300),
        kind in 0u8..4,
        pick in any::<u16>(),
    ) {
        let rules = rules_of(official);
        let (moves, _) = play_out(rules, &choices);
        prop_assume!(!moves.is_empty());
        let k = moves.len() - 1;
        let mut before = Game::new(rules);
        for &mv in &moves[..k] {
            before.play(mv);
        }
        let p = before.position;
        let good = moves[k];
        let occupied = p.occupied();
        let nth = |set: u32| {
            let n = set.count_ones();
            (n > 0).then(|| Squares(set).nth(pick as usize % n as usize)).flatten()
        };
        let bad = match kind {
            // Onto an occupied junction.
            0 => nth(occupied & !good.from.map_or(0, |f| f.bit())).map(|to| Move { to, shot: None, ..good }),
            // Leave out a shot that is due.
            1 => good.shot.map(|_| Move { shot: None, ..good }),
            // Shoot where no cow may be shot: an empty junction or a protected cow.
            2 => good.shot.and_then(|_| {
                let theirs = p.cows(p.side().other());
                nth((ALL & !occupied & !good.to.bit()) | (theirs & !p.targets(&rules)))
                    .map(|t| Move { shot: Some(t), ..good })
            }),
            // Shoot after a move that forms no line.
            _ => {
                let cow = good.from.and_then(|f| p.cow_at(f)).or(p.next_cow(p.side())).unwrap_or(0);
                let formed = p.formed(&rules, &before.spent, good.from, good.to, cow);
                (!formed.any())
                    .then(|| nth(p.cows(p.side().other())))
                    .flatten()
                    .map(|t| Move { shot: Some(t), ..good })
            }
        };
        prop_assume!(bad.is_some());
        let bad = bad.unwrap();
        let text = notation::write(&rules, &[&moves[..k], &[bad]].concat(), notation::Style::Standard, None);
        let report = check_scoresheet(&text, None).unwrap();
        prop_assert!(!report.irregularities.is_empty(), "{}", text);
        for i in &report.irregularities {
            prop_assert_eq!(i.ply as usize, k + 1, "{:?}\n{}", report.irregularities, text);
        }
    }
}

fn fuzz_cases() -> u32 {
    std::env::var("KRAAL_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000)
}

/// Pieces of real scoresheets, so arbitrary input often gets deep into the
/// reader and the replay rather than failing on the first character.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("1. ".to_string()),
        Just("12... ".to_string()),
        Just("a1".to_string()),
        Just("C5-1 ".to_string()),
        Just("A1,3-A4".to_string()),
        Just(" x F2,15".to_string()),
        Just("xd7".to_string()),
        Just(" \u{2013} ".to_string()),
        Just("\u{00d7}".to_string()),
        Just("{note}".to_string()),
        Just("[Rules \"official\"]\n".to_string()),
        Just("[Result \"1-0\"]".to_string()),
        Just(" 1/2-1/2".to_string()),
        Just("\u{00bd}-\u{00bd}".to_string()),
        Just(" +1".to_string()),
        Just(" -2".to_string()),
        Just("!?".to_string()),
        "[a-g][1-7]".prop_map(|s| format!("{s} ")),
        "[a-g][1-7]-[a-g][1-7]( x [a-g][1-7])?".prop_map(|s| format!("{s} ")),
        "[a-g][1-7],[0-9]{1,2}-[a-g][1-7]".prop_map(|s| format!("{s} ")),
        ".{0,3}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases()))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = check_scoresheet(&text, None);
        let _ = check_scoresheet(&text, Some(RuleSet::Official));
    }

    #[test]
    fn scoresheet_like_text_never_panics(parts in proptest::collection::vec(fragment(), 0..80)) {
        let text = parts.concat();
        for rules in RuleSet::ALL.iter().map(|r| r.play()) {
            if let Ok(report) = check_scoresheet(&text, Some(rules.name)) {
                let _ = kraal::wording::rules::report_text(&report, kraal::wording::Lang::English);
                let _ = serde_json::to_string(&report).unwrap();
            }
        }
    }
}

//! A game recorded ply by ply and the same plies checked as a scoresheet
//! never disagree: the same irregularities (ply, side, article, fault),
//! the same triplets, the same end and the same final position, for legal
//! games, games with one corruption and plies chosen at random (most of
//! them irregular); and every ply's verdict, once the next ply is in, is
//! the one the sheet gives it.

#![allow(clippy::unwrap_used)]

use kraal::rules::board::{Junction, ALL};
use kraal::rules::check::check_sheet;
use kraal::rules::notation;
use kraal::rules::record::Recording;
use kraal::rules::{Game, Move, PlayRules, Side};
use proptest::prelude::*;

fn rules_of(official: bool) -> PlayRules {
    if official {
        PlayRules::OFFICIAL
    } else {
        PlayRules::GAR
    }
}

/// A ply as a player writes it: `C5`, `A1-A4`, `D2-D3 x F2`.
fn written(mv: &Move) -> String {
    let mut s = match mv.from {
        Some(f) => format!("{}-{}", f.name(), mv.to.name()),
        None => mv.to.name().to_string(),
    };
    if let Some(t) = mv.shot {
        s.push_str(&format!(" x {}", t.name()));
    }
    s
}

/// Plays `choices` as indices into the legal moves, then `tail` as
/// arbitrary moves (each junction index modulo 24; `from` absent for a
/// placement), legal or not.
fn plies(rules: PlayRules, choices: &[u16], tail: &[(Option<u8>, u8, Option<u8>)]) -> Vec<String> {
    let mut game = Game::new(rules);
    let mut out = Vec::new();
    for &c in choices {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[c as usize % legal.len()];
        game.play(mv);
        out.push(written(&mv));
    }
    let at = |i: u8| {
        let all: Vec<Junction> = kraal::rules::board::Squares(ALL).collect();
        all[i as usize % all.len()]
    };
    for &(from, to, shot) in tail {
        out.push(written(&Move {
            from: from.map(at),
            to: at(to),
            shot: shot.map(at),
        }));
    }
    out
}

fn same_as_the_sheet(rules: PlayRules, plies: &[String]) -> Result<(), TestCaseError> {
    let sheet_text = plies.join(" ");
    let sheet = notation::parse(&sheet_text).unwrap();
    let expected = check_sheet(&sheet, &rules);
    let mut recording = Recording::new(&rules);
    for (i, p) in plies.iter().enumerate() {
        let pushed = recording.push(p).unwrap();
        prop_assert_eq!(pushed.ply as usize, i + 1);
        // The ply before this one is settled now: its verdict is the sheet's.
        if i > 0 {
            let settled: Vec<_> = recording
                .irregularities()
                .iter()
                .filter(|x| x.ply as usize == i)
                .cloned()
                .collect();
            let sheet_says: Vec<_> = expected
                .irregularities
                .iter()
                .filter(|x| x.ply as usize == i)
                .cloned()
                .collect();
            prop_assert_eq!(settled, sheet_says, "ply {} of {}", i, sheet_text);
        }
    }
    let report = recording.report();
    prop_assert_eq!(
        &report.irregularities,
        &expected.irregularities,
        "{}",
        sheet_text
    );
    prop_assert_eq!(&report.triplets, &expected.triplets);
    prop_assert_eq!(report.board_result, expected.board_result);
    prop_assert_eq!(report.board_reason, expected.board_reason);
    prop_assert_eq!(&report.final_position, &expected.final_position);
    prop_assert_eq!(report.plies, expected.plies);
    // The record is the game's scoresheet: read again, the same check.
    let again = check_sheet(&notation::parse(&recording.sheet()).unwrap(), &rules);
    prop_assert_eq!(again.irregularities, expected.irregularities);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn a_legal_game_recorded_is_the_game_checked(
        official in any::<bool>(),
        choices in proptest::collection::vec(any::<u16>(), 0..250),
    ) {
        let rules = rules_of(official);
        same_as_the_sheet(rules, &plies(rules, &choices, &[]))?;
    }

    #[test]
    fn irregular_plies_recorded_are_the_plies_checked(
        official in any::<bool>(),
        choices in proptest::collection::vec(any::<u16>(), 0..60),
        tail in proptest::collection::vec(
            (proptest::option::of(any::<u8>()), any::<u8>(), proptest::option::weighted(0.3, any::<u8>())),
            1..12,
        ),
    ) {
        let rules = rules_of(official);
        same_as_the_sheet(rules, &plies(rules, &choices, &tail))?;
    }
}

/// A cow of the side that has just moved, moved again: read as the last
/// ply, it is the opponent moving a cow not theirs (OGR 5.4.5); once the
/// next ply is the opponent's own, it was the same side moving twice (OGR
/// 5.4.1), and the recording says it revised the ply.
#[test]
fn the_next_ply_can_show_a_side_moved_twice_in_a_row() {
    let rules = PlayRules::OFFICIAL;
    let found = (1..500u64).find_map(|seed| twice_in_a_row_after(rules, seed));
    let (provisional, settled) = found.expect("a game where one side can step three times");
    let revised = settled.revised.expect("the second step is read again");
    assert!(
        revised.iter().any(|i| i.article == "OGR 5.4.1"),
        "{revised:?}"
    );
    assert_ne!(revised, provisional.irregularities);
}

/// After the placements of the random game `seed` (shots avoided where
/// possible), the side to move steps twice running, then the other side
/// steps; what the recording said of the second step as it came, and when
/// the third came.
fn twice_in_a_row_after(
    rules: PlayRules,
    seed: u64,
) -> Option<(kraal::rules::record::Pushed, kraal::rules::record::Pushed)> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut game = Game::new(rules);
    let mut texts = Vec::new();
    while game.position.in_hand(Side::Dark) + game.position.in_hand(Side::Light) > 0 {
        let legal = game.legal_moves();
        let quiet: Vec<Move> = legal.iter().copied().filter(|m| m.shot.is_none()).collect();
        let pool = if quiet.is_empty() { legal } else { quiet };
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mv = *pool.get((state % pool.len().max(1) as u64) as usize)?;
        game.play(mv);
        texts.push(written(&mv));
    }
    let mover = game.position.side();
    let quiet_step = |p: &kraal::rules::Position, side: Side, not: &[Junction], taken: u32| {
        let occupied = p.occupied() | taken;
        kraal::rules::board::Squares(p.cows(side))
            .filter(|j| !not.contains(j))
            .find_map(|j| {
                kraal::rules::board::Squares(j.neighbours() & !occupied)
                    .next()
                    .map(|to| Move {
                        from: Some(j),
                        to,
                        shot: None,
                    })
            })
    };
    let first = game.legal_moves().into_iter().find(|m| m.shot.is_none())?;
    let mut after = game.clone();
    after.play(first);
    let second = quiet_step(&after.position, mover, &[first.to], 0)?;
    let free = second.from?.bit();
    let third = quiet_step(&after.position, mover.other(), &[], second.to.bit() & !free)?;
    let mut r = Recording::of(&rules, texts.iter().map(String::as_str)).ok()?;
    r.push(&written(&first)).ok()?;
    let provisional = r.push(&written(&second)).ok()?;
    assert!(provisional.revised.is_none());
    let settled = r.push(&written(&third)).ok()?;
    let sheet = check_sheet(&notation::parse(&r.sheet()).unwrap(), &rules);
    assert_eq!(r.irregularities(), &sheet.irregularities[..]);
    Some((provisional, settled))
}

/// What is not one ply is refused, naming what was found.
#[test]
fn text_that_is_not_one_ply_is_refused() {
    let mut r = Recording::new(&PlayRules::OFFICIAL);
    for bad in ["", "C5 C4", "Z9", "1-0"] {
        let e = r.push(bad).unwrap_err();
        assert!(!e.expected.is_empty(), "{bad:?}: {e:?}");
    }
    assert_eq!(r.len(), 0);
    // As on paper: a number, an en dash, an annotation.
    let pushed = r.push("1. C5!?").unwrap();
    assert_eq!(pushed.ply, 1);
    assert!(pushed.irregularities.is_empty());
    assert_eq!(r.texts().collect::<Vec<_>>(), ["C5!?"]);
    r.push("B4").unwrap();
    assert_eq!(r.len(), 2);
}

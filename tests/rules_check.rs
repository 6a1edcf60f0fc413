//! Scoresheet checks: one sheet per kind of irregularity, written by hand
//! where a few placements suffice and cut from replayed games where the
//! position needs the moving stage.

#![allow(clippy::unwrap_used)]

use kraal::rules::check::BoardResult;
use kraal::rules::fault::Fault;
use kraal::rules::notation::{self, Style};
use kraal::rules::{
    check_scoresheet, Game, Junction, Move, PlayRules, Report, RuleSet, SheetResult, Side, Status,
    TripletKind,
};
use kraal::wording::{rules as wording, Lang};

fn check(text: &str, rules: PlayRules) -> Report {
    check_scoresheet(text, Some(rules.name)).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// (ply, article) of each irregularity.
fn found(report: &Report) -> Vec<(u32, &str)> {
    report
        .irregularities
        .iter()
        .map(|i| (i.ply, i.article.as_str()))
        .collect()
}

fn j(name: &str) -> Junction {
    Junction::parse(name).unwrap()
}

#[test]
fn a_clean_sheet_with_a_shot_has_a_triplet() {
    let text =
        "[Rules \"official\"]\n1. D1-1 B2-13 2. A1-2 A4-14 3. G1-3 x B2,13 {first line} A7-15";
    let report = check_scoresheet(text, None).unwrap();
    assert_eq!(report.rules, RuleSet::Official);
    assert!(report.is_clean(), "{:?}", report.irregularities);
    assert_eq!(report.plies, 6);
    assert_eq!(report.triplets.len(), 1);
    assert_eq!(report.triplets[0].kind, TripletKind::Shot);
    assert_eq!(report.triplets[0].arrangement.to_string(), "A1,2-D1,1-G1,3");
    assert_eq!(report.triplets[0].ply, 5);
    assert_eq!(report.board_result, None);
    assert_eq!(report.result_agrees, None);
    assert_eq!(report.final_position.to_move, Side::Dark);
    assert_eq!(report.final_position.light.len(), 2);
}

#[test]
fn rules_come_from_the_option_then_the_tag_then_gar() {
    let text = "[Rules \"official\"]\n1. a1";
    assert_eq!(
        check_scoresheet(text, None).unwrap().rules,
        RuleSet::Official
    );
    assert_eq!(
        check_scoresheet(text, Some(RuleSet::Gar)).unwrap().rules,
        RuleSet::Gar
    );
    assert_eq!(check_scoresheet("1. a1", None).unwrap().rules, RuleSet::Gar);
    let err = check_scoresheet("[Rules \"sesotho\"]\n1. a1", None).unwrap_err();
    assert_eq!((err.line, err.column), (1, 9));
}

#[test]
fn placing_on_an_occupied_junction_ogr_3_1_5() {
    let report = check("1. a1 a1 2. d1", PlayRules::GAR);
    assert_eq!(found(&report), [(2, "OGR 3.1.5")]);
    assert_eq!(report.irregularities[0].side, Side::Light);
    assert_eq!(report.irregularities[0].text, "a1");
    // Skipped: the turn passed, dark's D1 is cow 2.
    assert_eq!(report.final_position.dark.len(), 2);
}

#[test]
fn no_shot_when_one_is_due_ogr_5_4_6() {
    let report = check("1. a1 b2 2. d1 b4 3. g1 c5", PlayRules::OFFICIAL);
    assert_eq!(found(&report), [(5, "OGR 5.4.6")]);
    assert_eq!(
        report.irregularities[0].fault,
        Fault::ShotMissing {
            line: "A1-D1-G1".into()
        }
    );
    // The words a referee reads, made from that value.
    assert!(
        wording::irregularity(&report.irregularities[0], Lang::English)
            .starts_with("ply 5, dark: g1 forms the line A1-D1-G1")
    );
}

#[test]
fn a_shot_without_a_line_ogr_5_4_7() {
    let report = check("1. a1 d1xa1 2. g1", PlayRules::GAR);
    assert_eq!(found(&report), [(2, "OGR 5.4.7")]);
    assert_eq!(report.final_position.dark.len(), 1, "accepted as played");
}

#[test]
fn shooting_a_protected_cow_while_others_are_loose_ogr_5_4_8() {
    let text = "1. a1 b2 2. d1 b4 3. c3 b6xc3 4. e4 f4 5. g1xb4";
    for rules in RuleSet::ALL.iter().map(|r| r.play()) {
        let report = check(text, rules);
        assert_eq!(found(&report), [(9, "OGR 5.4.8 / 3.1.8")], "{}", rules.name);
    }
    assert!(check(
        "1. a1 b2 2. d1 b4 3. c3 b6xc3 4. e4 f4 5. g1xf4",
        PlayRules::OFFICIAL
    )
    .is_clean());
}

#[test]
fn a_barren_line_may_not_shoot_under_official_only() {
    let shoots = "1. a1 b2 2. d1 b4 3. c3 b6xc3 4. g1xb4";
    let report = check(shoots, PlayRules::OFFICIAL);
    assert_eq!(found(&report), [(7, "OGR 5.4.8 / 3.1.8.2")]);
    assert!(
        check(shoots, PlayRules::GAR).is_clean(),
        "GAR: any cow when all are protected"
    );
    let report = check("1. a1 b2 2. d1 b4 3. c3 b6xc3 4. g1", PlayRules::OFFICIAL);
    assert!(report.is_clean());
    let kinds: Vec<_> = report.triplets.iter().map(|t| t.kind).collect();
    assert_eq!(kinds, [TripletKind::Shot, TripletKind::Barren]);
    let report = check("1. a1 b2 2. d1 b4 3. c3 b6xc3 4. g1", PlayRules::GAR);
    assert_eq!(found(&report), [(7, "OGR 5.4.6")]);
}

#[test]
fn two_moves_in_a_row_by_move_numbers_ogr_5_4_1() {
    let report = check("1. a1 d1 2. g1 3. a4", PlayRules::GAR);
    assert_eq!(found(&report), [(4, "OGR 5.4.1")]);
    assert_eq!(report.irregularities[0].side, Side::Dark);
    assert_eq!(report.final_position.dark.len(), 3);
    assert_eq!(report.final_position.to_move, Side::Light);
}

#[test]
fn written_cow_numbers_are_checked_ogr_6_2() {
    let report = check("1. C5-13 D5-13 2. E5-2 x D5,14", PlayRules::OFFICIAL);
    // Light's D5-13 is fine: dark's cow was taken to be cow 1.
    assert_eq!(
        found(&report),
        [(1, "OGR 6.2.1"), (3, "OGR 5.4.7"), (3, "OGR 6.2.4")]
    );
    assert_eq!(
        report.irregularities[0].fault,
        Fault::WrongCowPlaced {
            cow: 13,
            already_placed: false,
            taken_as: 1
        }
    );
    let text = wording::irregularity(&report.irregularities[0], Lang::English);
    assert!(
        text.contains("cow 13 is not a dark cow; it is taken to be cow 1"),
        "{text}"
    );
}

/// A game of random legal moves (a fixed generator, so failures repeat).
fn random_game(rules: PlayRules, mut seed: u64, max_plies: usize) -> (Vec<Move>, Game) {
    let mut game = Game::new(rules);
    let mut moves = Vec::new();
    while moves.len() < max_plies {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mv = legal[(seed % legal.len() as u64) as usize];
        game.play(mv);
        moves.push(mv);
    }
    (moves, game)
}

/// Replays random games and returns the first (moves so far, position)
/// where `pick` finds an irregular move to write next.
fn find_case(rules: PlayRules, pick: impl Fn(&Game) -> Option<Move>) -> (Vec<Move>, Move) {
    for seed in 1..400u64 {
        let (moves, _) = random_game(rules, seed.wrapping_mul(0x9e37_79b9_7f4a_7c15), 400);
        let mut game = Game::new(rules);
        for (k, &mv) in moves.iter().enumerate() {
            if let Some(bad) = pick(&game) {
                return (moves[..k].to_vec(), bad);
            }
            game.play(mv);
        }
    }
    panic!("no game reached the position wanted");
}

fn sheet_with(rules: PlayRules, moves: &[Move], last: Move, style: Style) -> String {
    let mut text = notation::write(&rules, moves, style, None);
    text.push_str(&format!(" {last}\n"));
    text
}

#[test]
fn a_step_along_no_line_ogr_5_4_2() {
    let rules = PlayRules::GAR;
    let (moves, bad) = find_case(rules, |g| {
        let p = &g.position;
        let side = p.side();
        if p.in_hand(side) > 0 || p.flies(&rules, side) || g.status() != Status::Ongoing {
            return None;
        }
        let empty = !p.occupied() & 0xff_ffff;
        kraal::rules::board::Squares(p.cows(side)).find_map(|from| {
            let far = empty & !from.neighbours();
            kraal::rules::board::Squares(far)
                .next()
                .map(|to| Move::step(from, to))
        })
    });
    let report = check(&sheet_with(rules, &moves, bad, Style::Standard), rules);
    let ply = moves.len() as u32 + 1;
    assert_eq!(report.irregularities[0].ply, ply);
    assert_eq!(report.irregularities[0].article, "OGR 5.4.2 / 3.2.2");
    assert!(matches!(
        report.irregularities[0].fault,
        Fault::NotALine { .. }
    ));
}

#[test]
fn moving_an_opponents_cow_ogr_5_4_5() {
    let rules = PlayRules::OFFICIAL;
    let (moves, bad) = find_case(rules, |g| {
        let p = &g.position;
        let side = p.side();
        if p.in_hand(side) > 0 || g.status() != Status::Ongoing {
            return None;
        }
        let empty = !p.occupied() & 0xff_ffff;
        kraal::rules::board::Squares(p.cows(side.other())).find_map(|from| {
            let to = kraal::rules::board::Squares(from.neighbours() & empty).next()?;
            Some(Move::step(from, to))
        })
    });
    let report = check(&sheet_with(rules, &moves, bad, Style::Standard), rules);
    assert_eq!(found(&report), [(moves.len() as u32 + 1, "OGR 5.4.5")]);
}

#[test]
fn a_spent_arrangement_shooting_again_ogr_5_4_9() {
    let rules = PlayRules::OFFICIAL;
    let (moves, bad) = find_case(rules, |g| {
        let p = &g.position;
        if g.status() != Status::Ongoing || p.in_hand(p.side()) > 0 {
            return None;
        }
        let targets = p.targets(&rules);
        let target = kraal::rules::board::Squares(targets).next()?;
        g.legal_moves()
            .into_iter()
            .find(|m| {
                let Some(from) = m.from else { return false };
                let cow = p.cow_at(from).unwrap_or(0);
                let formed = p.formed(&rules, &g.spent, m.from, m.to, cow);
                formed.any() && !formed.any_fresh()
            })
            .map(|m| m.shooting(target))
    });
    let report = check(&sheet_with(rules, &moves, bad, Style::Official), rules);
    assert_eq!(
        found(&report),
        [(moves.len() as u32 + 1, "OGR 5.4.9 / 3.2.4.1.2")]
    );
    // The same move under gar shoots lawfully.
    assert!(check(
        &sheet_with(PlayRules::GAR, &moves, bad, Style::Standard),
        PlayRules::GAR
    )
    .irregularities
    .iter()
    .all(|i| i.ply <= moves.len() as u32));
}

#[test]
fn going_straight_back_gar_no_return() {
    let rules = PlayRules::GAR;
    let (moves, bad) = find_case(rules, |g| {
        let p = &g.position;
        if g.status() != Status::Ongoing {
            return None;
        }
        let (from, to) = p.forbidden_return(p.side())?;
        let after = p.cows(p.side()) & !from.bit() | to.bit();
        let reach = p.flies(&rules, p.side()) || from.neighbours() & to.bit() != 0;
        let forms = kraal::rules::board::completes_line(after, to);
        (reach && forms && p.occupied() & to.bit() == 0).then(|| {
            let target = kraal::rules::board::Squares(p.targets(&rules)).next();
            let mv = Move::step(from, to);
            target.map_or(mv, |t| mv.shooting(t))
        })
    });
    let text = sheet_with(rules, &moves, bad, Style::Standard);
    let report = check(&text, rules);
    assert_eq!(
        found(&report),
        [(moves.len() as u32 + 1, "GAR stage 2: no return")],
        "{text}"
    );
    assert!(check(&text, PlayRules::OFFICIAL)
        .irregularities
        .iter()
        .all(|i| i.article != "GAR stage 2: no return"));
}

#[test]
fn moves_after_the_end_and_the_claimed_result() {
    for rules in RuleSet::ALL.iter().map(|r| r.play()) {
        let (moves, game) = (1..200u64)
            .map(|s| random_game(rules, s * 7919, 2000))
            .find(|(_, g)| g.status() != Status::Ongoing)
            .expect("a finished game");
        let board = match game.status() {
            Status::Won {
                winner: Side::Dark, ..
            } => SheetResult::DarkWins,
            Status::Won {
                winner: Side::Light,
                ..
            } => SheetResult::LightWins,
            _ => SheetResult::Draw,
        };
        let text = notation::write(&rules, &moves, Style::Official, Some(board));
        let report = check(&text, rules);
        assert!(report.is_clean(), "{:?}", report.irregularities);
        assert_eq!(report.result_agrees, Some(true));
        assert_eq!(
            report.board_result,
            Some(match board {
                SheetResult::DarkWins => BoardResult::Dark,
                SheetResult::LightWins => BoardResult::Light,
                SheetResult::Draw => BoardResult::Draw,
            })
        );
        let wrong = if board == SheetResult::DarkWins {
            SheetResult::LightWins
        } else {
            SheetResult::DarkWins
        };
        let text = notation::write(&rules, &moves, Style::Standard, Some(wrong));
        let report = check(&text, rules);
        assert_eq!(report.result_agrees, Some(false));
        assert!(!report.is_clean());
        // One more move after the end.
        let mut text = notation::write(&rules, &moves, Style::Standard, None);
        let any = Junction::all()
            .find(|&x| game.position.occupied() & x.bit() == 0)
            .unwrap_or(j("A1"));
        text.push_str(&format!(" {}\n", any.name()));
        let report = check(&text, rules);
        assert_eq!(report.irregularities.len(), 1);
        assert_eq!(report.irregularities[0].ply, moves.len() as u32 + 1);
        assert!(matches!(
            report.irregularities[0].fault,
            Fault::AfterTheEnd { .. }
        ));
    }
}

#[test]
fn a_missing_ply_reads_as_two_moves_in_a_row_without_a_cascade() {
    let rules = PlayRules::GAR;
    for seed in 1..200u64 {
        let (moves, _) = random_game(rules, seed.wrapping_mul(0x2545_f491_4f6c_dd1d), 120);
        // Drop a quiet step of the moving stage whose neighbours are steps.
        let Some(k) = (40..moves.len().saturating_sub(3)).find(|&k| {
            moves[k - 1].from.is_some()
                && moves[k].from.is_some()
                && moves[k].shot.is_none()
                && moves[k + 1].from.is_some()
                && moves[k + 2]
                    .from
                    .is_some_and(|f| f != moves[k].to && f != moves[k + 1].to)
        }) else {
            continue;
        };
        let mut text = notation::write(&rules, &moves[..k], Style::Standard, None);
        for mv in &moves[k + 1..k + 3] {
            text.push_str(&format!(" {mv}"));
        }
        let report = check(&text, rules);
        let first = &report.irregularities[0];
        assert_eq!(
            (first.ply, first.article.as_str()),
            (k as u32 + 1, "OGR 5.4.1"),
            "{text}"
        );
        assert_eq!(
            first.side,
            if k % 2 == 0 { Side::Light } else { Side::Dark }
        );
        assert!(
            report
                .irregularities
                .iter()
                .all(|i| i.article != "OGR 5.4.5"),
            "{:?}",
            report.irregularities
        );
        return;
    }
    panic!("no game had a ply to drop");
}

#[test]
fn plies_numbered_one_by_one_are_not_double_moves() {
    let report = check("1. a1 2. d1 3. g1 4. a4", PlayRules::GAR);
    assert!(report.is_clean(), "{:?}", report.irregularities);
}

#[test]
fn steps_that_cannot_be_or_should_not_be_played() {
    // A step while cows remain to place: played as written.
    let report = check("1. a1 d1 2. a1-a4", PlayRules::GAR);
    assert_eq!(found(&report), [(3, "OGR 5.4.2 / 3.2.1")]);
    assert!(report
        .final_position
        .dark
        .iter()
        .any(|c| c.junction == "A4"));
    // From an empty junction, or onto a cow: skipped.
    assert_eq!(
        found(&check("1. a1 d1 2. b2-b4", PlayRules::GAR)),
        [(3, "OGR 5.4.2")]
    );
    let report = check("1. a1 d1 2. a1-d1", PlayRules::GAR);
    assert_eq!(found(&report), [(3, "OGR 5.4.2 / 3.2.2")]);
    // The written cow number of a step is checked against the board.
    let report = check("1. A1-1 D1-13 2. A1,2-A4", PlayRules::OFFICIAL);
    assert_eq!(found(&report), [(3, "OGR 5.4.2 / 3.2.1"), (3, "OGR 6.2.3")]);
}

#[test]
fn shots_at_nothing_and_at_ones_own_cow() {
    let report = check("1. a1 b2 2. d1 b4 3. g1xe5", PlayRules::GAR);
    assert_eq!(found(&report), [(5, "OGR 5.4.8")]);
    assert_eq!(report.final_position.light.len(), 2, "nothing was removed");
    let report = check("1. a1 b2 2. d1 b4 3. g1xa1", PlayRules::GAR);
    assert_eq!(found(&report), [(5, "OGR 5.4.7")]);
    assert_eq!(report.final_position.dark.len(), 2, "accepted as played");
}

#[test]
fn two_records_are_compared_move_by_move_whatever_their_notation() {
    use kraal::rules::first_difference;
    use kraal::rules::notation::parse;
    let official = parse("1. D1-1 B2-13 2. A1-2 A4-14 3. G1-3 x B2,13 A7-15").unwrap();
    let standard = parse("1. d1 b2 2. a1 a4 3. g1xb2 {a comment} a7!").unwrap();
    assert_eq!(first_difference(&official, &standard), None);
    let other_shot = parse("1. d1 b2 2. a1 a4 3. g1xa4 a7").unwrap();
    assert_eq!(first_difference(&official, &other_shot), Some(5));
    let shorter = parse("1. d1 b2 2. a1 a4").unwrap();
    assert_eq!(first_difference(&official, &shorter), Some(5));
    assert_eq!(first_difference(&shorter, &official), Some(5));
    let first = parse("1. g1").unwrap();
    assert_eq!(first_difference(&first, &official), Some(1));
}

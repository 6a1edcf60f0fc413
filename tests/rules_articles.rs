//! One test per article on small positions built by hand.

#![allow(clippy::unwrap_used)]

use kraal::rules::board::{Squares, LINES};
use kraal::rules::movegen::{count_moves, perft};
use kraal::rules::{
    Arrangement, Game, Junction, Move, PlayRules, Position, Side, Status, TripletKind, WinReason,
};

fn j(name: &str) -> Junction {
    Junction::parse(name).unwrap_or_else(|| panic!("{name} is not a junction"))
}

fn cows(list: &[(&str, u8)]) -> Vec<(Junction, u8)> {
    list.iter().map(|&(n, c)| (j(n), c)).collect()
}

fn game(
    rules: PlayRules,
    dark: &[(&str, u8)],
    light: &[(&str, u8)],
    in_hand: [u8; 2],
    side: Side,
) -> Game {
    Game {
        rules,
        position: Position::setup(&rules, &cows(dark), &cows(light), in_hand, side),
        spent: Vec::new(),
    }
}

fn line_index(names: [&str; 3]) -> usize {
    let want = names.map(|n| j(n).index() as u8);
    LINES.iter().position(|l| *l == want).expect("a line")
}

/// The moves that bring a cow from `from` to `to`, whatever they shoot.
fn moves_to(game: &Game, from: Option<&str>, to: &str) -> Vec<Move> {
    let from = from.map(j);
    game.legal_moves()
        .into_iter()
        .filter(|m| m.from == from && m.to == j(to))
        .collect()
}

/// A stage-2 position: dark has a line to form on A1-D1-G1 with G4-G1,
/// light's cows are all protected on the lines B6-D6-F6 and A7-D7-G7.
fn all_light_protected(rules: PlayRules) -> Game {
    game(
        rules,
        &[("A1", 1), ("D1", 2), ("G4", 3), ("C3", 4)],
        &[
            ("B6", 13),
            ("D6", 14),
            ("F6", 15),
            ("A7", 16),
            ("D7", 17),
            ("G7", 18),
        ],
        [0, 0],
        Side::Dark,
    )
}

#[test]
fn barren_line_under_official_ogr_3_1_8_2() {
    let mut g = all_light_protected(PlayRules::OFFICIAL);
    let moves = moves_to(&g, Some("G4"), "G1");
    assert_eq!(
        moves,
        [Move::step(j("G4"), j("G1"))],
        "no shot: the line is barren"
    );
    g.play(moves[0]);
    assert_eq!(
        g.spent,
        [Arrangement::new(line_index(["A1", "D1", "G1"]), [1, 2, 3])]
    );
}

#[test]
fn all_protected_under_gar_any_cow_may_be_shot() {
    let g = all_light_protected(PlayRules::GAR);
    let moves = moves_to(&g, Some("G4"), "G1");
    assert_eq!(moves.len(), 6, "one move per light cow: {moves:?}");
    assert!(moves.iter().all(|m| m.shot.is_some()));
}

#[test]
fn protected_cows_cannot_be_shot_while_loose_ones_remain_ogr_3_1_8() {
    let mut g = all_light_protected(PlayRules::GAR);
    g.position = Position::setup(
        &g.rules,
        &cows(&[("A1", 1), ("D1", 2), ("G4", 3), ("C3", 4)]),
        &cows(&[("B6", 13), ("D6", 14), ("F6", 15), ("E4", 16)]),
        [0, 0],
        Side::Dark,
    );
    let moves = moves_to(&g, Some("G4"), "G1");
    assert_eq!(moves, [Move::step(j("G4"), j("G1")).shooting(j("E4"))]);
}

#[test]
fn two_lines_at_once_shoot_once_and_the_second_is_paralysed_ogr_3_1_9() {
    // Placing on A1 completes A1-D1-G1 and A1-A4-A7.
    let mut g = game(
        PlayRules::OFFICIAL,
        &[("D1", 1), ("G1", 2), ("A4", 3), ("A7", 4)],
        &[("C5", 13), ("E5", 14), ("B6", 15), ("F6", 16)],
        [8, 8],
        Side::Dark,
    );
    let moves = moves_to(&g, None, "A1");
    assert_eq!(moves.len(), 4, "one shot, one move per target");
    g.play(moves[0]);
    assert_eq!(
        g.spent.len(),
        2,
        "both arrangements are spent (OGR 3.2.4.1.3)"
    );
    let text = "[Rules \"official\"]\n1. D1-1 C5 2. G1-2 E5 3. A4-3 B6 4. A7-4 F6 5. A1-5 x C5,13";
    let report = kraal::rules::check_scoresheet(text, None).unwrap();
    assert!(
        report.irregularities.is_empty(),
        "{:?}",
        report.irregularities
    );
    let kinds: Vec<_> = report
        .triplets
        .iter()
        .map(|t| (t.kind, t.arrangement.to_string()))
        .collect();
    assert_eq!(
        kinds,
        [
            (TripletKind::Shot, "A1,5-D1,1-G1,2".to_string()),
            (TripletKind::Paralysed, "A1,5-A4,3-A7,4".to_string())
        ]
    );
}

/// Dark flies (three cows); light has loose cows to shoot and room to step.
fn flying_dark(rules: PlayRules) -> Game {
    game(
        rules,
        &[("A1", 1), ("D1", 2), ("G1", 3)],
        &[("B6", 13), ("D6", 14), ("C5", 15), ("E5", 16), ("A7", 17)],
        [0, 0],
        Side::Dark,
    )
}

#[test]
fn flying_with_three_cows_ogr_3_3() {
    let g = flying_dark(PlayRules::GAR);
    // Three cows to any of the 16 empty junctions.
    assert_eq!(g.legal_moves().len(), 3 * 16);
    assert!(g.position.flies(&g.rules, Side::Dark));
    assert!(
        !g.position.flies(&g.rules, Side::Light),
        "light still steps (OGR 3.3.2)"
    );
    let mut g = g;
    g.play(Move::step(j("A1"), j("G7")));
    assert!(g
        .legal_moves()
        .iter()
        .all(|m| m.from.unwrap().neighbours() & m.to.bit() != 0));
}

#[test]
fn a_spent_arrangement_cannot_shoot_again_but_a_permutation_can_ogr_3_2_4_1_4() {
    let mut g = flying_dark(PlayRules::OFFICIAL);
    let line = line_index(["A1", "D1", "G1"]);
    g.spent.push(Arrangement::new(line, [1, 2, 3]));
    // Break and re-form the very same arrangement: no shot.
    g.play(Move::step(j("G1"), j("G4")));
    g.play(Move::step(j("D6"), j("D5")));
    let back = moves_to(&g, Some("G4"), "G1");
    assert_eq!(
        back,
        [Move::step(j("G4"), j("G1"))],
        "spent: no shot (OGR 3.2.4.1.2)"
    );
    // Permute the cows instead: cow 2 to A1, cow 1 to D1, cow 3 back to G1.
    g.play(Move::step(j("A1"), j("C3")));
    g.play(Move::step(j("D5"), j("D6")));
    g.play(Move::step(j("D1"), j("A1")));
    g.play(Move::step(j("D6"), j("D5")));
    g.play(Move::step(j("C3"), j("D1")));
    g.play(Move::step(j("D5"), j("D6")));
    let permuted = moves_to(&g, Some("G4"), "G1");
    assert!(
        permuted.len() > 1 && permuted.iter().all(|m| m.shot.is_some()),
        "{permuted:?}"
    );
    // Under gar every re-formed line shoots.
    let mut g = flying_dark(PlayRules::GAR);
    g.play(Move::step(j("G1"), j("G4")));
    g.play(Move::step(j("D6"), j("D5")));
    assert!(moves_to(&g, Some("G4"), "G1")
        .iter()
        .all(|m| m.shot.is_some()));
}

#[test]
fn a_spent_arrangement_and_a_fresh_line_together_still_shoot() {
    // D2-B2 completes A1-B2-C3 (spent: cow 3 stood on B2 when it shot) and
    // B2-B4-B6 (fresh) at once.
    let setup = || {
        game(
            PlayRules::OFFICIAL,
            &[("A1", 1), ("D2", 3), ("C3", 4), ("B4", 5), ("B6", 6)],
            &[("D6", 14), ("C5", 15), ("E5", 16), ("G7", 17)],
            [0, 0],
            Side::Dark,
        )
    };
    let diagonal = Arrangement::new(line_index(["A1", "B2", "C3"]), [1, 3, 4]);
    let column = Arrangement::new(line_index(["B2", "B4", "B6"]), [3, 5, 6]);
    let mut g = setup();
    g.spent.push(diagonal);
    let moves = moves_to(&g, Some("D2"), "B2");
    assert_eq!(moves.len(), 4, "the fresh line shoots: {moves:?}");
    g.play(moves[0]);
    assert_eq!(
        g.spent,
        [diagonal, column],
        "the spent one is not recorded twice"
    );
    // With both spent, no shot.
    let mut g = setup();
    g.spent.extend([diagonal, column]);
    assert_eq!(
        moves_to(&g, Some("D2"), "B2"),
        [Move::step(j("D2"), j("B2"))]
    );
}

/// Dark's cow on C4 leaves A4-B4-C4 for C3, forming C3-D3-E3.
fn no_return_setup(rules: PlayRules) -> Game {
    let mut g = game(
        rules,
        &[
            ("A4", 1),
            ("B4", 2),
            ("C4", 3),
            ("D3", 4),
            ("E3", 5),
            ("G1", 6),
        ],
        &[("B6", 13), ("D6", 14), ("C5", 15), ("E5", 16), ("G7", 17)],
        [0, 0],
        Side::Dark,
    );
    g.play(Move::step(j("C4"), j("C3")).shooting(j("G7")));
    g.play(Move::step(j("D6"), j("D7")));
    g
}

#[test]
fn gar_no_straight_return_to_re_form_a_line() {
    let g = no_return_setup(PlayRules::GAR);
    assert!(
        moves_to(&g, Some("C3"), "C4").is_empty(),
        "GAR stage 2: no return"
    );
    // Any other move is fine, and after it the return is allowed again.
    let mut g = g;
    g.play(Move::step(j("G1"), j("G4")));
    g.play(Move::step(j("D7"), j("D6")));
    assert!(!moves_to(&g, Some("C3"), "C4").is_empty());
}

#[test]
fn official_has_no_return_rule() {
    let g = no_return_setup(PlayRules::OFFICIAL);
    let back = moves_to(&g, Some("C3"), "C4");
    assert!(
        !back.is_empty() && back.iter().all(|m| m.shot.is_some()),
        "fresh: shoots"
    );
}

#[test]
fn two_cows_left_loses_ogr_4_2_3() {
    let mut g = game(
        PlayRules::GAR,
        &[("A1", 1), ("D1", 2), ("G4", 3), ("C3", 4)],
        &[("B6", 13), ("D6", 14), ("E5", 15)],
        [0, 0],
        Side::Dark,
    );
    assert_eq!(g.status(), Status::Ongoing);
    g.play(Move::step(j("G4"), j("G1")).shooting(j("E5")));
    assert_eq!(
        g.status(),
        Status::Won {
            winner: Side::Dark,
            reason: WinReason::TwoCows
        }
    );
    assert!(g.legal_moves().is_empty(), "a finished game has no moves");
    assert_eq!(perft(&g.position, &g.rules, &g.spent, 3), 0);
}

#[test]
fn a_blocked_player_loses_ogr_4_2_2() {
    // Light's four cows in the corners of the outer square are walled in.
    let g = game(
        PlayRules::OFFICIAL,
        &[
            ("D1", 1),
            ("A4", 2),
            ("G4", 3),
            ("D7", 4),
            ("B2", 5),
            ("F2", 6),
            ("B6", 7),
            ("F6", 8),
        ],
        &[("A1", 13), ("G1", 14), ("A7", 15), ("G7", 16)],
        [0, 0],
        Side::Light,
    );
    assert_eq!(count_moves(&g.position, &g.rules, &g.spent), 0);
    assert_eq!(
        g.status(),
        Status::Won {
            winner: Side::Dark,
            reason: WinReason::Blocked
        }
    );
}

#[test]
fn a_full_board_after_placing_blocks_dark() {
    // Find a way to colour the board 12/12 with no line of one colour, then
    // place it alternately: no shot ever happens and the board fills up.
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let colouring = loop {
        let mut dark = 0u32;
        let mut order: Vec<u32> = (0..24).collect();
        for i in (1..24).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        for &k in &order[..12] {
            dark |= 1 << k;
        }
        let mono = LINES.iter().any(|l| {
            let bits = l.iter().fold(0u32, |b, &k| b | 1 << k);
            dark & bits == bits || !dark & bits == bits
        });
        if !mono {
            break dark;
        }
    };
    let dark: Vec<Junction> = Squares(colouring).collect();
    let light: Vec<Junction> = Squares(!colouring & 0xff_ffff).collect();
    let mut g = Game::new(PlayRules::GAR);
    for k in 0..12 {
        g.play(Move::place(dark[k]));
        g.play(Move::place(light[k]));
    }
    assert_eq!(g.position.occupied().count_ones(), 24);
    assert_eq!(
        g.status(),
        Status::Won {
            winner: Side::Light,
            reason: WinReason::Blocked
        }
    );
}

fn quiet_move(g: &Game) -> Move {
    *g.legal_moves()
        .iter()
        .find(|m| m.shot.is_none())
        .expect("a move without a shot")
}

#[test]
fn ten_moves_each_without_a_shot_draw_ogr_4_3_2() {
    let mut g = flying_dark(PlayRules::GAR);
    // Start the count with a shot that leaves light with more than three.
    g.play(Move::step(j("G1"), j("G4")));
    g.play(Move::step(j("B6"), j("B4")));
    g.play(Move::step(j("G4"), j("G1")).shooting(j("B4")));
    for ply in 1..=20 {
        assert_eq!(
            g.status(),
            Status::Ongoing,
            "before ply {ply} after the shot"
        );
        let mv = quiet_move(&g);
        g.play(mv);
    }
    assert_eq!(g.status(), Status::Drawn);
    assert!(g.legal_moves().is_empty());
}

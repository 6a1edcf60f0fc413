//! Knock-out: seeded brackets, byes to the top seeds, first-round avoidance,
//! winners advance, and tiebreak sets while level (OGR 9.4).

#![allow(clippy::unwrap_used)]

use kraal::pairing::avoidance::Ties;
use kraal::pairing::knockout::{
    bracket, next_round, seed_positions, tiebreak_games_called_for, tiebreak_set, KnockoutInput,
    KoResult, Outcome, SetScore,
};
use kraal::pairing::teams::{board_pairings, match_score, Lineup, TeamMatch, TeamScoring};
use kraal::pairing::{RuleSet, POINT};

fn seeds(n: u32) -> Vec<Ties> {
    (1..=n)
        .map(|id| Ties {
            id,
            ..Default::default()
        })
        .collect()
}

#[test]
fn eight_seeds_meet_in_standard_bracket_order() {
    assert_eq!(seed_positions(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
    let b = bracket(&KnockoutInput {
        seeds: seeds(8),
        ..Default::default()
    })
    .unwrap();
    let pairs: Vec<_> = b.first_round.iter().map(|m| (m.first, m.second)).collect();
    assert_eq!(
        pairs,
        vec![(1, Some(8)), (4, Some(5)), (2, Some(7)), (3, Some(6))]
    );
    assert_eq!(b.rounds, 3);
}

#[test]
fn a_field_of_six_gives_byes_to_seeds_one_and_two() {
    let b = bracket(&KnockoutInput {
        seeds: seeds(6),
        ..Default::default()
    })
    .unwrap();
    let byes: Vec<_> = b
        .first_round
        .iter()
        .filter(|m| m.second.is_none())
        .map(|m| m.first)
        .collect();
    assert_eq!(byes, vec![1, 2]);
    assert_eq!(b.size, 8);
}

#[test]
fn first_round_relatives_are_separated_under_gar_where_seeding_allows() {
    let mut s = seeds(8);
    s[0].relatives = vec![8];
    let b = bracket(&KnockoutInput {
        seeds: s,
        rules: RuleSet::Gar,
        ..Default::default()
    })
    .unwrap();
    for m in &b.first_round {
        assert_ne!((m.first, m.second), (1, Some(8)));
        assert!(m.explanation.bent.is_empty());
    }
    // Seed 8 swapped with the nearest lower seed of another pair (7).
    assert_eq!(
        (b.first_round[0].first, b.first_round[0].second),
        (1, Some(7))
    );
}

#[test]
fn winners_advance_in_slot_order() {
    let r = next_round(&[
        KoResult { slot: 2, winner: 5 },
        KoResult { slot: 1, winner: 1 },
        KoResult { slot: 3, winner: 2 },
        KoResult { slot: 4, winner: 6 },
    ])
    .unwrap();
    let pairs: Vec<_> = r.iter().map(|m| (m.first, m.second)).collect();
    assert_eq!(pairs, vec![(1, Some(5)), (2, Some(6))]);
    assert!(next_round(&[
        KoResult { slot: 1, winner: 1 },
        KoResult { slot: 3, winner: 2 }
    ])
    .is_err());
}

#[test]
fn level_pairings_play_tiebreak_sets_until_one_is_not_level() {
    let level = SetScore {
        first: POINT,
        second: POINT,
    };
    match tiebreak_set(3, 9, &[level]) {
        Outcome::Tiebreak(t) => {
            assert_eq!(t.set, 1);
            assert_eq!((t.games[0].starter, t.games[1].starter), (3, 9));
            assert_eq!(t.seconds_per_move, 20);
        }
        o => panic!("{o:?}"),
    }
    match tiebreak_set(3, 9, &[level, level]) {
        Outcome::Tiebreak(t) => assert_eq!(t.set, 2),
        o => panic!("{o:?}"),
    }
    let won = SetScore {
        first: POINT / 2,
        second: 3 * POINT / 2,
    };
    assert_eq!(tiebreak_set(3, 9, &[level, level, won]), Outcome::Winner(9));
}

#[test]
fn a_pairing_calls_for_tiebreak_games_only_while_level() {
    let level = SetScore {
        first: POINT,
        second: POINT,
    };
    let won = SetScore {
        first: 2 * POINT,
        second: 0,
    };
    // Main games not complete: no set yet.
    assert_eq!(tiebreak_games_called_for(&[]), 0);
    // Main games decided: a set entered before a correction is not wanted.
    assert_eq!(tiebreak_games_called_for(&[won]), 0);
    // Level: the open set.
    assert_eq!(tiebreak_games_called_for(&[level]), 2);
    // Set 1 decided it: set 1 only.
    assert_eq!(tiebreak_games_called_for(&[level, won]), 2);
    // Set 1 level too: set 2 is open.
    assert_eq!(tiebreak_games_called_for(&[level, level]), 4);
    assert_eq!(tiebreak_games_called_for(&[level, level, won, level]), 4);
}

#[test]
fn team_boards_meet_board_for_board_with_starts_alternating() {
    let a = Lineup {
        team: 1,
        boards: vec![11, 12, 13, 14],
    };
    let b = Lineup {
        team: 2,
        boards: vec![21, 22, 23, 24],
    };
    let p = board_pairings(&a, &b).unwrap();
    let got: Vec<_> = p.iter().map(|x| (x.board, x.first, x.second)).collect();
    assert_eq!(
        got,
        vec![(1, 11, 21), (2, 22, 12), (3, 13, 23), (4, 24, 14)]
    );
    let short = Lineup {
        team: 2,
        boards: vec![21, 22, 23],
    };
    assert!(board_pairings(&a, &short).is_err());
    let m = TeamMatch {
        opponent: Some(2),
        game_points: 45,
        game_points_against: 35,
    };
    assert_eq!(match_score(&m, TeamScoring::MatchPoints), 2 * POINT);
    assert_eq!(match_score(&m, TeamScoring::GamePoints), 45);
}

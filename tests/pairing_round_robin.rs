//! Round robin: the Berger tables equal the published FIDE C.05 Annex 1
//! tables, and avoidance moves players, not the table.

#![allow(clippy::unwrap_used)]

use kraal::pairing::avoidance::Ties;
use kraal::pairing::round_robin::{berger_table, schedule, RoundRobinInput};
use kraal::pairing::{ForbiddenPair, PairingError, RuleSet};

/// FIDE C.05 Annex 1, as published: "round. first-second, ..." per line.
const FIDE: &[(usize, &str)] = &[
    (4, "1-4 2-3 | 4-3 1-2 | 2-4 3-1"),
    (6, "1-6 2-5 3-4 | 6-4 5-3 1-2 | 2-6 3-1 4-5 | 6-5 1-4 2-3 | 3-6 4-2 5-1"),
    (8, "1-8 2-7 3-6 4-5 | 8-5 6-4 7-3 1-2 | 2-8 3-1 4-7 5-6 | 8-6 7-5 1-4 2-3 | 3-8 4-2 5-1 6-7 | 8-7 1-6 2-5 3-4 | 4-8 5-3 6-2 7-1"),
    (10, "1-10 2-9 3-8 4-7 5-6 | 10-6 7-5 8-4 9-3 1-2 | 2-10 3-1 4-9 5-8 6-7 | 10-7 8-6 9-5 1-4 2-3 | 3-10 4-2 5-1 6-9 7-8 | 10-8 9-7 1-6 2-5 3-4 | 4-10 5-3 6-2 7-1 8-9 | 10-9 1-8 2-7 3-6 4-5 | 5-10 6-4 7-3 8-2 9-1"),
    (12, "1-12 2-11 3-10 4-9 5-8 6-7 | 12-7 8-6 9-5 10-4 11-3 1-2 | 2-12 3-1 4-11 5-10 6-9 7-8 | 12-8 9-7 10-6 11-5 1-4 2-3 | 3-12 4-2 5-1 6-11 7-10 8-9 | 12-9 10-8 11-7 1-6 2-5 3-4 | 4-12 5-3 6-2 7-1 8-11 9-10 | 12-10 11-9 1-8 2-7 3-6 4-5 | 5-12 6-4 7-3 8-2 9-1 10-11 | 12-11 1-10 2-9 3-8 4-7 5-6 | 6-12 7-5 8-4 9-3 10-2 11-1"),
    (14, "1-14 2-13 3-12 4-11 5-10 6-9 7-8 | 14-8 9-7 10-6 11-5 12-4 13-3 1-2 | 2-14 3-1 4-13 5-12 6-11 7-10 8-9 | 14-9 10-8 11-7 12-6 13-5 1-4 2-3 | 3-14 4-2 5-1 6-13 7-12 8-11 9-10 | 14-10 11-9 12-8 13-7 1-6 2-5 3-4 | 4-14 5-3 6-2 7-1 8-13 9-12 10-11 | 14-11 12-10 13-9 1-8 2-7 3-6 4-5 | 5-14 6-4 7-3 8-2 9-1 10-13 11-12 | 14-12 13-11 1-10 2-9 3-8 4-7 5-6 | 6-14 7-5 8-4 9-3 10-2 11-1 12-13 | 14-13 1-12 2-11 3-10 4-9 5-8 6-7 | 7-14 8-6 9-5 10-4 11-3 12-2 13-1"),
];

/// The published 15/16-player table (FIDE C.05 Annex 1), every round.
const FIDE16: &[(usize, &str)] = &[
    (1, "1-16 2-15 3-14 4-13 5-12 6-11 7-10 8-9"),
    (2, "16-9 10-8 11-7 12-6 13-5 14-4 15-3 1-2"),
    (3, "2-16 3-1 4-15 5-14 6-13 7-12 8-11 9-10"),
    (4, "16-10 11-9 12-8 13-7 14-6 15-5 1-4 2-3"),
    (5, "3-16 4-2 5-1 6-15 7-14 8-13 9-12 10-11"),
    (6, "16-11 12-10 13-9 14-8 15-7 1-6 2-5 3-4"),
    (7, "4-16 5-3 6-2 7-1 8-15 9-14 10-13 11-12"),
    (8, "16-12 13-11 14-10 15-9 1-8 2-7 3-6 4-5"),
    (9, "5-16 6-4 7-3 8-2 9-1 10-15 11-14 12-13"),
    (10, "16-13 14-12 15-11 1-10 2-9 3-8 4-7 5-6"),
    (11, "6-16 7-5 8-4 9-3 10-2 11-1 12-15 13-14"),
    (12, "16-14 15-13 1-12 2-11 3-10 4-9 5-8 6-7"),
    (13, "7-16 8-6 9-5 10-4 11-3 12-2 13-1 14-15"),
    (14, "16-15 1-14 2-13 3-12 4-11 5-10 6-9 7-8"),
    (15, "8-16 9-7 10-6 11-5 12-4 13-3 14-2 15-1"),
];

fn parse_round(s: &str) -> Vec<(u32, u32)> {
    s.split_whitespace()
        .map(|p| {
            let (a, b) = p.split_once('-').unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect()
}

#[test]
fn berger_tables_equal_fide_annex_1_for_3_to_14_players() {
    for &(even, text) in FIDE {
        let published: Vec<Vec<(u32, u32)>> = text.split('|').map(parse_round).collect();
        // An odd field uses the next even table with the last number as bye.
        for players in [even - 1, even] {
            assert_eq!(berger_table(players), published, "{players} players");
        }
    }
}

#[test]
fn berger_tables_for_15_and_16_players_match_fide_and_meet_everyone_once() {
    for players in [15, 16] {
        let t = berger_table(players);
        assert_eq!(t.len(), 15);
        for &(round, text) in FIDE16 {
            assert_eq!(
                t[round - 1],
                parse_round(text),
                "{players} players, round {round}"
            );
        }
        let mut met = std::collections::HashSet::new();
        for round in &t {
            let mut seen = std::collections::HashSet::new();
            for &(a, b) in round {
                assert!(seen.insert(a) && seen.insert(b));
                assert!(met.insert((a.min(b), a.max(b))), "{a}-{b} twice");
            }
        }
        assert_eq!(met.len(), 16 * 15 / 2);
    }
}

fn field(n: u32, club_of: impl Fn(u32) -> Option<&'static str>) -> Vec<Ties> {
    (1..=n)
        .map(|id| Ties {
            id,
            club: club_of(id).map(str::to_string),
            ..Default::default()
        })
        .collect()
}

#[test]
fn official_rules_seat_club_mates_so_they_meet_before_the_last_third() {
    // 10 players, 9 rounds: the last third is rounds 7-9. In the plain draw
    // order players 1 and 2 (club-mates) would meet in round 2 anyway, but
    // 1 and 6 would meet in round 6 and 1 and 8 in round 8.
    let players = field(10, |id| [1, 2, 8, 5].contains(&id).then_some("Alex"));
    let s = schedule(&RoundRobinInput {
        players: players.clone(),
        rules: RuleSet::Official,
        ..Default::default()
    })
    .unwrap();
    assert_eq!(s.rounds.len(), 9);
    let club = |id: u32| [1, 2, 8, 5].contains(&id);
    for r in &s.rounds {
        for p in &r.pairs {
            if r.round >= 7 {
                assert!(
                    !(club(p.first) && club(p.second)),
                    "club-mates {}-{} in round {}",
                    p.first,
                    p.second,
                    r.round
                );
            }
        }
    }
    // Every pair still meets exactly once.
    let mut met = std::collections::HashSet::new();
    for r in &s.rounds {
        for p in &r.pairs {
            assert!(met.insert((p.first.min(p.second), p.first.max(p.second))));
        }
    }
    assert_eq!(met.len(), 45);
}

#[test]
fn gar_relatives_in_one_group_are_refused_with_the_pair_named() {
    let mut players = field(6, |_| None);
    players[2].relatives = vec![5];
    let err = schedule(&RoundRobinInput {
        players,
        rules: RuleSet::Gar,
        ..Default::default()
    })
    .unwrap_err();
    match err {
        PairingError::CannotSeparate { a, b, .. } => assert_eq!((a, b), (3, 5)),
        e => panic!("unexpected {e}"),
    }
}

#[test]
fn ranged_forbidden_pair_moves_to_an_allowed_round_and_odd_field_has_a_bye_each_round() {
    // Players 1 and 5 may not meet in rounds 1-4 of a 5-player event (5 rounds).
    let players = field(5, |_| None);
    let s = schedule(&RoundRobinInput {
        players,
        forbidden: vec![ForbiddenPair {
            a: 1,
            b: 5,
            from_round: Some(1),
            to_round: Some(4),
        }],
        ..Default::default()
    })
    .unwrap();
    for r in &s.rounds {
        assert!(r.bye.is_some());
        for p in &r.pairs {
            if (p.first.min(p.second), p.first.max(p.second)) == (1, 5) {
                assert_eq!(r.round, 5);
            }
        }
    }
}

#[test]
fn double_round_robin_reverses_starts_in_the_second_cycle() {
    let s = schedule(&RoundRobinInput {
        players: field(4, |_| None),
        double: true,
        ..Default::default()
    })
    .unwrap();
    assert_eq!(s.rounds.len(), 6);
    for r in 0..3 {
        for (a, b) in s.rounds[r].pairs.iter().zip(&s.rounds[r + 3].pairs) {
            assert_eq!((a.first, a.second), (b.second, b.first));
        }
    }
}

/// Rounds `1..=upto` of a schedule as a director stores them: each
/// player's opponent, `None` for the one who sat out.
fn as_played(
    s: &kraal::pairing::round_robin::Schedule,
    upto: u32,
) -> Vec<std::collections::HashMap<u32, Option<u32>>> {
    s.rounds
        .iter()
        .filter(|r| r.round <= upto)
        .map(|r| {
            let mut m = std::collections::HashMap::new();
            for p in &r.pairs {
                m.insert(p.first, Some(p.second));
                m.insert(p.second, Some(p.first));
            }
            if let Some(b) = r.bye {
                m.insert(b, None);
            }
            m
        })
        .collect()
}

/// Every pair over the whole schedule, and how often it meets.
fn meetings(
    s: &kraal::pairing::round_robin::Schedule,
) -> std::collections::HashMap<(u32, u32), u32> {
    let mut met = std::collections::HashMap::new();
    for r in &s.rounds {
        for p in &r.pairs {
            *met.entry((p.first.min(p.second), p.first.max(p.second)))
                .or_default() += 1;
        }
    }
    met
}

#[test]
fn the_schedule_goes_on_from_the_rounds_played_when_the_draw_order_changes() {
    // A referee corrects two ratings after round 3, and players 2 and 5
    // swap places in the draw order. A fresh table would seat them anew
    // and bring back pairs that have met; the schedule instead continues
    // the table rounds 1-3 followed.
    for n in [8u32, 7] {
        let players = field(n, |_| None);
        let before = schedule(&RoundRobinInput {
            players: players.clone(),
            ..Default::default()
        })
        .unwrap();
        let mut reordered = players.clone();
        reordered.swap(1, 4);
        let fresh = schedule(&RoundRobinInput {
            players: reordered.clone(),
            ..Default::default()
        })
        .unwrap();
        let played = as_played(&before, 3);
        let rematches = fresh
            .rounds
            .iter()
            .filter(|r| r.round > 3)
            .flat_map(|r| &r.pairs)
            .filter(|p| {
                played
                    .iter()
                    .any(|m| m.get(&p.first) == Some(&Some(p.second)))
            })
            .count();
        assert!(
            rematches > 0,
            "{n} players: the reorder changes nothing, the test proves nothing"
        );
        let went_on = schedule(&RoundRobinInput {
            players: reordered,
            played: played.clone(),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(
            as_played(&went_on, 3),
            played,
            "{n} players: rounds 1-3 as played"
        );
        let met = meetings(&went_on);
        assert_eq!(
            met.len() as u32,
            n * (n - 1) / 2,
            "{n} players: every pair meets"
        );
        assert!(
            met.values().all(|&c| c == 1),
            "{n} players: nobody meets twice"
        );
    }
}

#[test]
fn rounds_changed_by_hand_go_on_among_the_players_who_have_not_met() {
    let players = field(6, |_| None);
    let s = schedule(&RoundRobinInput {
        players: players.clone(),
        ..Default::default()
    })
    .unwrap();
    let mut played = as_played(&s, 2);
    // Swap one player of two pairings of round 2 by hand.
    let r2 = &s.rounds[1];
    let (a, b) = (r2.pairs[0].first, r2.pairs[0].second);
    let (c, d) = (r2.pairs[1].first, r2.pairs[1].second);
    for (x, y) in [(a, c), (c, a), (b, d), (d, b)] {
        played[1].insert(x, Some(y));
    }
    let mut reordered = players.clone();
    reordered.swap(0, 5);
    let next = schedule(&RoundRobinInput {
        players: reordered,
        played: played.clone(),
        ..Default::default()
    })
    .unwrap();
    let round = next.rounds.iter().find(|r| r.round == 3).expect("round 3");
    assert_eq!(round.pairs.len(), 3, "everyone plays");
    for p in &round.pairs {
        assert!(
            played
                .iter()
                .all(|m| m.get(&p.first) != Some(&Some(p.second))),
            "{} and {} have met",
            p.first,
            p.second
        );
        assert_eq!(p.explanation.notes[0], kraal::pairing::explain::Note::Unmet);
    }
}

//! Hand-worked Dutch pairings (FIDE C.04.3 with the colour rules removed),
//! each built from the handbook's articles: S1 against S2 in a homogeneous
//! bracket, moved-down players paired first in a heterogeneous bracket, a
//! transposition when S1-S2 is blocked, an exchange when no transposition
//! works, repeated floats avoided, and the pairing-allocated bye.

#![allow(clippy::unwrap_used)]

use kraal::pairing::swiss::{pair_round, EntryKind, RoundEntry, Status, SwissInput, SwissPlayer};
use kraal::pairing::{ForbiddenPair, RuleSet, POINT};

/// A field of `n` players; player k has pairing number k (rating falls).
fn field(n: u32) -> Vec<SwissPlayer> {
    (1..=n)
        .map(|id| SwissPlayer {
            id,
            name: format!("P{id:02}"),
            rating: Some(2000 - id as i32 * 10),
            club: None,
            team: None,
            relatives: vec![],
            entered_round: 1,
            history: vec![],
            status: Status::Active,
        })
        .collect()
}

/// Plays a round of 2-game mini-matches: (a, b, a's game points x10).
fn play(players: &mut [SwissPlayer], games: &[(u32, u32, i64)], byes: &[u32]) {
    // Rounds so far: a forfeit recorded first (see `forfeit`) already
    // holds this round for its two players.
    let round = players.iter().map(|p| p.history.len()).min().unwrap_or(0);
    for &(a, b, pa) in games {
        players[a as usize - 1].history.push(RoundEntry {
            kind: EntryKind::Played,
            opponent: Some(b),
            points: pa,
        });
        players[b as usize - 1].history.push(RoundEntry {
            kind: EntryKind::Played,
            opponent: Some(a),
            points: 2 * POINT - pa,
        });
    }
    for &p in byes {
        players[p as usize - 1].history.push(RoundEntry {
            kind: EntryKind::AllocatedBye,
            opponent: None,
            points: 2 * POINT,
        });
    }
    for p in players.iter_mut() {
        if p.history.len() == round {
            p.history.push(RoundEntry {
                kind: EntryKind::Absent,
                opponent: None,
                points: 0,
            });
        }
    }
}

fn pair(players: &[SwissPlayer], forbidden: Vec<ForbiddenPair>) -> (Vec<(u32, u32)>, Option<u32>) {
    let input = SwissInput {
        round: players[0].history.len() as u32 + 1,
        total_rounds: 9,
        rules: RuleSet::Official,
        players: players.to_vec(),
        forbidden,
        waivers: vec![],
    };
    let r = pair_round(&input).expect("pairable");
    (
        r.pairs.iter().map(|p| (p.first, p.second)).collect(),
        r.bye.map(|b| b.player),
    )
}

const WIN: i64 = 2 * POINT;
const DRAW: i64 = POINT;

#[test]
fn round_one_pairs_top_half_against_bottom_half() {
    let (pairs, bye) = pair(&field(8), vec![]);
    assert_eq!(pairs, vec![(1, 5), (2, 6), (3, 7), (4, 8)]);
    assert_eq!(bye, None);
}

#[test]
fn round_one_odd_field_gives_the_bye_to_the_lowest_ranked() {
    let (pairs, bye) = pair(&field(7), vec![]);
    assert_eq!(pairs, vec![(1, 4), (2, 5), (3, 6)]);
    assert_eq!(bye, Some(7));
}

#[test]
fn moved_down_players_meet_the_top_of_the_next_bracket() {
    // Round 1: 1 beats 4, 2 draws 5, 3 beats 6. Scores: 1, 3 on 2; 2, 5 on
    // 1; 4, 6 on 0. The 1-point bracket {2, 5} has already met, so both move
    // down; in the 0 bracket S1 = {2, 5} meets S2 = {4, 6} in order.
    let mut p = field(6);
    play(&mut p, &[(1, 4, WIN), (2, 5, DRAW), (3, 6, WIN)], &[]);
    let (pairs, bye) = pair(&p, vec![]);
    assert_eq!(pairs, vec![(1, 3), (2, 4), (5, 6)]);
    assert_eq!(bye, None);
}

#[test]
fn a_blocked_s1_s2_pair_is_resolved_by_a_transposition() {
    // All top seeds won round 1: bracket 2 = {1, 2, 3, 4}, S1 = {1, 2},
    // S2 = {3, 4}. The referee forbids 1-3, so S2 is transposed to {4, 3}.
    let mut p = field(8);
    play(
        &mut p,
        &[(1, 5, WIN), (2, 6, WIN), (3, 7, WIN), (4, 8, WIN)],
        &[],
    );
    let fb = vec![ForbiddenPair {
        a: 1,
        b: 3,
        from_round: None,
        to_round: None,
    }];
    let (pairs, _) = pair(&p, fb);
    assert_eq!(pairs, vec![(1, 4), (2, 3), (5, 7), (6, 8)]);
}

#[test]
fn when_no_transposition_works_an_exchange_is_made() {
    // As above with 1-3 and 1-4 both forbidden: no order of S2 works, so 2
    // and 3 are exchanged: S1 = {1, 3}, S2 = {2, 4}.
    let mut p = field(8);
    play(
        &mut p,
        &[(1, 5, WIN), (2, 6, WIN), (3, 7, WIN), (4, 8, WIN)],
        &[],
    );
    let fb = vec![
        ForbiddenPair {
            a: 1,
            b: 3,
            from_round: None,
            to_round: None,
        },
        ForbiddenPair {
            a: 1,
            b: 4,
            from_round: None,
            to_round: None,
        },
    ];
    let (pairs, _) = pair(&p, fb);
    assert_eq!(pairs, vec![(1, 2), (3, 4), (5, 7), (6, 8)]);
}

#[test]
fn the_bye_skips_a_player_who_already_had_it() {
    // Round 1 of 5: 1-3, 2-4, bye 5; 1 and 2 win. Round 2: the 2 bracket
    // is {1, 2, 5}. S1/S2 would float 5 down, but 5 floated down last round
    // (the bye), so 2 floats instead (C14); 2 has met 4, so 2-3; the bye
    // goes to 4, the last player left, who has not had one.
    let mut p = field(5);
    play(&mut p, &[(1, 3, WIN), (2, 4, WIN)], &[5]);
    let (pairs, bye) = pair(&p, vec![]);
    assert_eq!(bye, Some(4));
    assert_eq!(pairs, vec![(1, 5), (2, 3)]);
    // Round 3 after byes for 5 and then 4: 1 (4 points, moved down) has met
    // 2 and 3, so meets 4, the first S2 player it may; of {2, 3, 5}, 3-5
    // have met and 5 had the bye, so 2-5 and the bye goes to 3.
    let mut q = field(5);
    play(&mut q, &[(1, 3, WIN), (2, 4, WIN)], &[5]);
    play(&mut q, &[(1, 2, WIN), (5, 3, 0)], &[4]);
    let (pairs, bye) = pair(&q, vec![]);
    assert_eq!(bye, Some(3));
    assert_eq!(pairs, vec![(1, 4), (2, 5)]);
}

#[test]
fn a_player_who_floated_down_last_round_does_not_float_again() {
    // 1.0 bracket {1, 2, 3} is odd; 3 had the bye (a downfloat) in round 1,
    // so 2 floats down instead (C14), even though S1/S2 alone would float 3.
    let mut p = field(5);
    play(&mut p, &[(1, 4, DRAW * 2), (2, 5, WIN)], &[3]);
    let (pairs, _) = pair(&p, vec![]);
    assert!(pairs.contains(&(1, 3)), "{pairs:?}");
}

#[test]
fn the_bracket_leaves_the_rest_pairable() {
    // Completion (C4): 4 players after 2 rounds: 1 beat 3 and 2; 3 beat 4;
    // 2 beat 4. Scores 1:4, 2:2, 3:2, 4:0. Bracket 2 {1 moved down, 2, 3}:
    // 1 has met both, so 2-3 and 1 floats on to meet 4.
    let mut p = field(4);
    play(&mut p, &[(1, 3, WIN), (2, 4, WIN)], &[]);
    play(&mut p, &[(1, 2, WIN), (3, 4, WIN)], &[]);
    let (pairs, bye) = pair(&p, vec![]);
    assert_eq!(bye, None);
    // Tables follow the higher score: 1-4 is table 1.
    assert_eq!(pairs, vec![(1, 4), (2, 3)]);
}

/// Round 2 of a 16-player open where the top eight all won: the 2-point
/// bracket is {1..8}, S1 = {1, 2, 3, 4}, S2 = {5, 6, 7, 8}.
fn top_eight_won() -> Vec<SwissPlayer> {
    let mut p = field(16);
    play(
        &mut p,
        &[
            (1, 9, WIN),
            (2, 10, WIN),
            (3, 11, WIN),
            (4, 12, WIN),
            (5, 13, WIN),
            (6, 14, WIN),
            (7, 15, WIN),
            (8, 16, WIN),
        ],
        &[],
    );
    p
}

fn ban(a: u32, b: u32) -> ForbiddenPair {
    ForbiddenPair {
        a,
        b,
        from_round: None,
        to_round: None,
    }
}

#[test]
fn transpositions_come_in_lexicographic_order() {
    // 1-5 is forbidden: the first transposition of S2 is {6, 5, 7, 8}.
    let (pairs, _) = pair(&top_eight_won(), vec![ban(1, 5)]);
    assert_eq!(&pairs[..4], &[(1, 6), (2, 5), (3, 7), (4, 8)]);
}

#[test]
fn an_exchange_swaps_the_lowest_s1_player_with_the_highest_s2_player() {
    // 1 may meet nobody in S2: no transposition works. The first exchange
    // moves 4 to S2 and 5 to S1: S1 = {1, 2, 3, 5}, S2 = {4, 6, 7, 8}.
    let (pairs, _) = pair(
        &top_eight_won(),
        vec![ban(1, 5), ban(1, 6), ban(1, 7), ban(1, 8)],
    );
    assert_eq!(&pairs[..4], &[(1, 4), (2, 6), (3, 7), (5, 8)]);
}

#[test]
fn a_heterogeneous_bracket_pairs_its_moved_down_player_then_its_remainder() {
    // Round 1 of 8: 1, 3, 4 win, 2-6 drawn. Round 2: the 2-point bracket
    // {1, 3, 4} pairs 1-3 and floats 4; the 1-point bracket {4 | 2, 6}
    // pairs 4 with its top resident 2 and floats 6; the 0 bracket
    // {6 | 5, 7, 8} pairs 6-5, and its remainder {7, 8} pairs 7-8.
    let mut p = field(8);
    play(
        &mut p,
        &[(1, 5, WIN), (2, 6, DRAW), (3, 7, WIN), (4, 8, WIN)],
        &[],
    );
    let input = SwissInput {
        round: 2,
        total_rounds: 5,
        rules: RuleSet::Official,
        players: p,
        forbidden: vec![],
        waivers: vec![],
    };
    let r = pair_round(&input).unwrap();
    let pairs: Vec<_> = r.pairs.iter().map(|x| (x.first, x.second)).collect();
    assert_eq!(pairs, vec![(1, 3), (4, 2), (6, 5), (7, 8)]);
    // The explanation of 4-2 shows 4 floating down and 2 up.
    let e = &r.pairs[1].explanation;
    assert_eq!(e.bracket, Some(POINT));
    assert_eq!(e.floats.len(), 2);
    assert_eq!(e.floats[0].player, 4);
}

#[test]
fn downfloaters_are_chosen_so_the_next_bracket_pairs_best() {
    // C7. Round 1: 1, 2, 3 win; 4-5 and 9-10 drawn; 6, 7, 8 lose. The
    // 2-point bracket {1, 2, 3} floats one player to {4, 5, 9, 10}, where
    // 4 may meet no resident (4-5 met; 4-9, 4-10 forbidden) and 3 may meet
    // nobody. S1/S2 alone would float 3 and leave one pair below; floating
    // 2 gives two (2-4, 5-9), so 1-3 is paired: the first transposition.
    let mut p = field(10);
    play(
        &mut p,
        &[
            (1, 6, WIN),
            (2, 7, WIN),
            (3, 8, WIN),
            (4, 5, DRAW),
            (9, 10, DRAW),
        ],
        &[],
    );
    let fb = vec![
        ban(4, 9),
        ban(4, 10),
        ban(3, 4),
        ban(3, 5),
        ban(3, 9),
        ban(3, 10),
    ];
    let (pairs, bye) = pair(&p, fb);
    assert_eq!(bye, None);
    assert_eq!(pairs, vec![(1, 3), (2, 4), (5, 9), (10, 6), (7, 8)]);
}

#[test]
fn two_exchanges_in_a_large_bracket_follow_article_4_3() {
    // Round 1, 18 players: S1 = {1..9}, S2 = {10..18}. 8 and 9 may meet
    // nobody in S2 nor each other, so no transposition and no single
    // exchange works. Article 4.3.3: two players exchanged; the smallest
    // BSN sum difference moves 8 and 9 to S2 and 10 and 11 to S1, so
    // S1 = {1..7, 10, 11}, S2 = {8, 9, 12..18}, and the first transposition
    // that pairs everyone is 8, 9, 12, 13, ... in order.
    let mut fb = vec![ban(8, 9)];
    for s2 in 10..=18 {
        fb.push(ban(8, s2));
        fb.push(ban(9, s2));
    }
    let (pairs, bye) = pair(&field(18), fb);
    assert_eq!(bye, None);
    assert_eq!(
        pairs,
        vec![
            (1, 8),
            (2, 9),
            (3, 12),
            (4, 13),
            (5, 14),
            (6, 15),
            (7, 16),
            (10, 17),
            (11, 18)
        ]
    );
}

#[test]
fn a_bracket_re_solved_for_completion_keeps_the_handbook_order() {
    // C4 with the generation order. Round 1: 1-4 beat 5-8. 5 may meet none
    // of 6, 7, 8, so one of 2, 3, 4 must float to meet 5, and then a second
    // top player floats too. MaxPairs of {1, 2, 3, 4} is 1 under C4: S1 =
    // {1}, S2 = {2, 3, 4}, and every choice ties on the criteria, so the
    // first transposition 1-2 is taken and 3, 4 float. In {3, 4 | 5, 6, 7, 8}
    // the moved-down players take the first residents they may meet (3-5,
    // 4-6; 4 met 8) and the remainder pairs 7-8.
    let mut p = field(8);
    play(
        &mut p,
        &[(1, 5, WIN), (2, 6, WIN), (3, 7, WIN), (4, 8, WIN)],
        &[],
    );
    let (pairs, bye) = pair(&p, vec![ban(5, 6), ban(5, 7), ban(5, 8)]);
    assert_eq!(bye, None);
    assert_eq!(pairs, vec![(1, 2), (3, 5), (4, 6), (7, 8)]);
}

#[test]
fn a_remainder_takes_its_exchange_in_the_order_of_article_4_3() {
    // Round 1 of 16: 1-7 beat 9-15, 8-16 drawn. Round 2: {1..7} pairs
    // 1-4, 2-5, 3-6 and floats 7, who meets 8; 16 floats into {9..15} and
    // meets 9. The remainder {10..15} has S1 = {10, 11, 12}, S2 = {13, 14,
    // 15}, and 10 may meet nobody in S2. The first exchange (smallest BSN
    // difference) swaps 12 and 13: S1 = {10, 11, 13}, S2 = {12, 14, 15},
    // so 10-12, 11-14, 13-15 (sequential choice would give 11-13, 14-15).
    let mut p = field(16);
    play(
        &mut p,
        &[
            (1, 9, WIN),
            (2, 10, WIN),
            (3, 11, WIN),
            (4, 12, WIN),
            (5, 13, WIN),
            (6, 14, WIN),
            (7, 15, WIN),
            (8, 16, DRAW),
        ],
        &[],
    );
    let (pairs, bye) = pair(&p, vec![ban(10, 13), ban(10, 14), ban(10, 15)]);
    assert_eq!(bye, None);
    assert_eq!(
        pairs,
        vec![
            (1, 4),
            (2, 5),
            (3, 6),
            (7, 8),
            (16, 9),
            (10, 12),
            (11, 14),
            (13, 15)
        ]
    );
}

/// Records a forfeited pairing: `winner` came, `absent` did not.
fn forfeit(players: &mut [SwissPlayer], winner: u32, absent: u32) {
    players[winner as usize - 1].history.push(RoundEntry {
        kind: EntryKind::ForfeitWin,
        opponent: Some(absent),
        points: WIN,
    });
    players[absent as usize - 1].history.push(RoundEntry {
        kind: EntryKind::ForfeitLoss,
        opponent: Some(winner),
        points: 0,
    });
}

#[test]
fn a_forfeited_pairing_is_no_meeting_and_is_paired_again_when_the_criteria_want_it() {
    // Round 1: 4 does not come to 1-4 (1 wins by forfeit); 2 and 3 beat 5
    // and 6. Round 2: 2 beats 1, 5 beats 3, 4 beats 6. Scores: 2 on 4; 1, 3,
    // 4, 5 on 2; 6 on 0.
    let mut p = field(6);
    forfeit(&mut p, 1, 4);
    play(&mut p, &[(2, 5, WIN), (3, 6, WIN)], &[]);
    play(&mut p, &[(2, 1, WIN), (3, 5, 0), (4, 6, WIN)], &[]);
    // Round 3. The 4 bracket {2} floats 2 into {1, 3, 4, 5}, where 2 may
    // meet 3 or 4 (it played 5 and 1). Five players: two pairs, and the
    // downfloater must be able to meet 6 (6 played 3 and 4), so it is 1 or
    // 5. C16 (a resident downfloater who had a downfloat two rounds
    // before): 1 won by forfeit in round 1, which is a downfloat (1.4.3),
    // so 5 floats. In the handbook's order the MDP-pairing 2-3 comes first
    // and its remainder {1, 4, 5} pairs S1 {1} with S2 {4, 5}: 1-4, 5
    // floating. That candidate breaks no criterion: 1 and 4 never played
    // (C.04.1), so they meet. Were the forfeit a meeting, the only way to
    // float 5 would be 2-4, 1-3.
    let (pairs, bye) = pair(&p, vec![]);
    assert_eq!(pairs, vec![(2, 3), (1, 4), (5, 6)]);
    assert_eq!(bye, None);
}

#[test]
fn the_bye_goes_to_the_player_with_fewer_unplayed_games() {
    // Round 1: 1 beats 3, 2 beats 4; 5 asked for a zero-point bye (an
    // unplayed game, and no float: 1.4.3). Round 2: 1-2 in the 2 bracket;
    // the 0 bracket {3, 4, 5} pairs two and floats one to the bye. All
    // three may have it (C2) and have the lowest score (C5). C9: the one
    // who gets it has the fewest unplayed games, so 3 or 4 (none) rather
    // than 5 (one). In the handbook's order S1 {3} meets S2 {4, 5}: 3-4
    // (bye to 5) breaks C9, the transposition 3-5 (bye to 4) does not.
    // The 2017 text gave the bye to 5, the lowest-ranked.
    let mut p = field(5);
    p[4].history.push(RoundEntry {
        kind: EntryKind::RequestedBye,
        opponent: None,
        points: 0,
    });
    play(&mut p, &[(1, 3, WIN), (2, 4, WIN)], &[]);
    let (pairs, bye) = pair(&p, vec![]);
    assert_eq!(pairs, vec![(1, 2), (3, 5)]);
    assert_eq!(bye, Some(4));
}

#[test]
fn the_bye_goes_to_the_lowest_score_that_leaves_the_round_complete() {
    // Round 1: 1 draws 4, 2 beats 5, 3 has the bye. Scores: 2, 3 on 2; 1,
    // 4 on 1; 5 on 0. Paired bracket by bracket, 2-3 would come first and
    // leave 1 and 4 (who met) to share 5 and the bye, so a 1-point player
    // would get it. C5 (2025) ranks above every quality criterion: the bye
    // goes to the lowest score a complete round allows, 5's 0. Completion
    // (C4) then holds in the 2 bracket only if both 2 and 3 float, and in
    // the 1 bracket S1 {2, 3} meets S2 {1, 4} in order: 2-1, 3-4.
    let mut p = field(5);
    play(&mut p, &[(1, 4, DRAW), (2, 5, WIN)], &[3]);
    let (pairs, bye) = pair(&p, vec![]);
    assert_eq!(pairs, vec![(2, 1), (3, 4)]);
    assert_eq!(bye, Some(5));
}

#[test]
fn a_bracket_of_240_players_takes_the_first_transposition_in_lexicographic_order() {
    // Round 1 of 240 players: one bracket, S1 = 1-120, S2 = 121-240. The
    // referee forbids 2-121, 2-122, 2-123, 3-126, 4-125, 4-126, 5-121,
    // 5-126, 6-123 and 6-124. Article 4.2, by hand: 1 takes 121; 2 cannot
    // meet 121 (taken), 122 or 123, so takes 124; 3 takes 122; 4 takes 123
    // (121 and 122 taken); 5 takes 125; 6 takes 126; 7-120 meet 127-240 as
    // in the plain S1/S2 pairing, and every one of those choices leaves the
    // rest a perfect pairing. A pairing that only stays close to the S1/S2
    // pairing (3-123, 4-122: each one place off instead of 3-122, 4-123)
    // is a later transposition.
    let bans = [
        (2, 121),
        (2, 122),
        (2, 123),
        (3, 126),
        (4, 125),
        (4, 126),
        (5, 121),
        (5, 126),
        (6, 123),
        (6, 124),
    ];
    let (mut pairs, bye) = pair(&field(240), bans.iter().map(|&(a, b)| ban(a, b)).collect());
    pairs.sort_unstable();
    let mut want = vec![(1, 121), (2, 124), (3, 122), (4, 123), (5, 125), (6, 126)];
    want.extend((7..=120).map(|k| (k, k + 120)));
    assert_eq!(pairs, want);
    assert_eq!(bye, None);
}

#[test]
fn an_exchange_in_a_bracket_of_220_players_follows_article_4_3() {
    // Round 1 of 220 players: S1 = 1-110, S2 = 111-220, and the referee
    // forbids 1 to meet anyone of S2, so no transposition works (and no
    // candidate is perfect without an exchange). Article 4.3, by hand: the
    // first exchange moves one player each way with the smallest BSN
    // difference, 110 (the lowest of S1) for 111 (the highest of S2). S1 =
    // 1-109 and 111, S2 = 110 and 112-220; the first transposition is the
    // identity: 1-110, 2-112, ..., 109-219, 111-220.
    let bans: Vec<ForbiddenPair> = (111..=220).map(|b| ban(1, b)).collect();
    let (mut pairs, bye) = pair(&field(220), bans);
    pairs.sort_unstable();
    let mut want = vec![(1, 110)];
    want.extend((2..=109).map(|k| (k, k + 110)));
    want.push((111, 220));
    assert_eq!(pairs, want);
    assert_eq!(bye, None);
}

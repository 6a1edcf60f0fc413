//! Knock-out: a seeded bracket, winners advance, level pairings play
//! tiebreak sets (OGR 9.4).
//!
//! The bracket has the next power of two of places. Seeds take the standard
//! bracket order (1 and 2 can only meet in the final, 1-4 and 2-3 in the
//! semi-finals, ...), and the missing places are byes, which therefore go to
//! the top seeds. In the first round a pair the avoidance rules forbid is
//! broken up by swapping the lower seed with the nearest lower seed of
//! another pair, as long as both new pairs are allowed; where no swap works
//! the pair stays and its explanation says so.

use serde::{Deserialize, Serialize};

use super::avoidance::{Avoidance, Ties};
use super::explain::{Bent, Explanation, Note, Why};
use super::{ForbiddenPair, PairingError, PlayerId, Points, RuleSet, Waiver};

/// Players in seed order (strongest first), with the avoidance data.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutInput {
    pub seeds: Vec<Ties>,
    #[serde(default)]
    pub rules: RuleSet,
    #[serde(default)]
    pub forbidden: Vec<ForbiddenPair>,
    #[serde(default)]
    pub waivers: Vec<Waiver>,
}

/// One match of a knock-out round; `second == None` is a bye.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KoMatch {
    /// Position in the round, 1-based (match k's winner meets match k±1's).
    pub slot: u32,
    pub first: PlayerId,
    pub second: Option<PlayerId>,
    pub explanation: Explanation,
}

/// The first round of a bracket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bracket {
    /// Places in the bracket (a power of two).
    pub size: u32,
    /// Rounds until the final.
    pub rounds: u32,
    pub first_round: Vec<KoMatch>,
}

/// Seed order of the places of a bracket of `size` (a power of two):
/// `[1, size, size/2+1, size/2, ...]` so that seeds meet as late as their
/// rank deserves.
pub fn seed_positions(size: usize) -> Vec<usize> {
    let mut order = vec![1usize];
    while order.len() < size {
        let m = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, m + 1 - s]).collect();
    }
    order
}

/// Builds the first round.
pub fn bracket(input: &KnockoutInput) -> Result<Bracket, PairingError> {
    let n = input.seeds.len();
    if n < 2 {
        return Err(PairingError::Invalid(
            "a knock-out needs at least two players".into(),
        ));
    }
    let size = n.next_power_of_two();
    let rounds = size.trailing_zeros();
    let avoid = Avoidance::new(
        input.rules,
        rounds,
        &input.seeds,
        &input.forbidden,
        &input.waivers,
    );
    let pos = seed_positions(size);
    // pairs of seed numbers (1-based); seeds above n are byes.
    let mut pairs: Vec<(usize, usize)> = pos.chunks(2).map(|c| (c[0], c[1])).collect();
    let id = |s: usize| input.seeds[s - 1].id;
    let forbidden = |a: usize, b: usize| b <= n && avoid.forbids(id(a), id(b), 1).is_some();
    let mut unresolved = Vec::new();
    for k in 0..pairs.len() {
        let (a, b) = pairs[k];
        if !forbidden(a, b) {
            continue;
        }
        // Try swapping b with the lower seed of another pair, nearest seed
        // number first, keeping both pairs allowed.
        let mut others: Vec<usize> = (0..pairs.len())
            .filter(|&j| j != k && pairs[j].1 <= n)
            .collect();
        others.sort_by_key(|&j| (pairs[j].1 as i64 - b as i64).abs());
        let swap = others.into_iter().find(|&j| {
            let (c, d) = pairs[j];
            !forbidden(a, d) && !forbidden(c, b)
        });
        match swap {
            Some(j) => {
                let d = pairs[j].1;
                pairs[k].1 = d;
                pairs[j].1 = b;
            }
            None => unresolved.push(k),
        }
    }
    let first_round = pairs
        .iter()
        .enumerate()
        .map(|(k, &(a, b))| {
            let mut e = Explanation::default();
            e.notes.push(Note::Seeds {
                first: a as u32,
                second: (b <= n).then_some(b as u32),
            });
            if unresolved.contains(&k) {
                if let Some(rule) = avoid.forbids(id(a), id(b), 1) {
                    e.bent.push(Bent {
                        rule,
                        why: Why::NoSwap,
                    });
                }
            }
            KoMatch {
                slot: k as u32 + 1,
                first: id(a),
                second: (b <= n).then(|| id(b)),
                explanation: e,
            }
        })
        .collect();
    Ok(Bracket {
        size: size as u32,
        rounds,
        first_round,
    })
}

/// A finished match: who won.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KoResult {
    pub slot: u32,
    pub winner: PlayerId,
}

/// The next round from the winners of the previous one, in slot order:
/// the winner of slot 2k-1 meets the winner of slot 2k, the better-placed
/// (lower slot) starting game 1.
pub fn next_round(results: &[KoResult]) -> Result<Vec<KoMatch>, PairingError> {
    let mut r = results.to_vec();
    r.sort_by_key(|x| x.slot);
    if r.len() < 2 || !r.len().is_power_of_two() {
        return Err(PairingError::Invalid(format!(
            "{} results: a knock-out round needs a power of two of finished matches",
            r.len()
        )));
    }
    for (i, x) in r.iter().enumerate() {
        if x.slot != i as u32 + 1 {
            return Err(PairingError::Invalid(format!(
                "no result for slot {}",
                i + 1
            )));
        }
    }
    Ok(r.chunks(2)
        .enumerate()
        .map(|(k, c)| KoMatch {
            slot: k as u32 + 1,
            first: c[0].winner,
            second: Some(c[1].winner),
            explanation: Explanation {
                notes: vec![Note::Winners {
                    first: c[0].slot,
                    second: c[1].slot,
                }],
                ..Default::default()
            },
        })
        .collect())
}

/// One game of a tiebreak set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TiebreakGame {
    pub starter: PlayerId,
    pub other: PlayerId,
}

/// Two games, each player starting one, at 20 seconds a move (OGR 9.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TiebreakSet {
    /// 1 for the first tiebreak set of the pairing.
    pub set: u32,
    pub games: [TiebreakGame; 2],
    pub seconds_per_move: u32,
}

/// Where a knock-out pairing stands after its games so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Winner(PlayerId),
    /// Level: play this set next.
    Tiebreak(TiebreakSet),
}

/// The points of one mini-match or tiebreak set, first player's and second's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetScore {
    pub first: Points,
    pub second: Points,
}

/// Decides a pairing: the main mini-match, then each tiebreak set in turn,
/// until one is not level. While level, returns the next set to play.
pub fn tiebreak_set(first: PlayerId, second: PlayerId, sets: &[SetScore]) -> Outcome {
    for s in sets {
        if s.first != s.second {
            return Outcome::Winner(if s.first > s.second { first } else { second });
        }
    }
    // sets[0] is the main mini-match; the next tiebreak set number:
    let set = sets.len().max(1) as u32;
    // Alternate who opens each set so starts stay balanced across sets.
    let (a, b) = if set % 2 == 1 {
        (first, second)
    } else {
        (second, first)
    };
    Outcome::Tiebreak(TiebreakSet {
        set,
        games: [
            TiebreakGame {
                starter: a,
                other: b,
            },
            TiebreakGame {
                starter: b,
                other: a,
            },
        ],
        seconds_per_move: 20,
    })
}

/// How many tiebreak games a pairing calls for, given its scores so far
/// (the main mini-match, then each complete tiebreak set, as
/// [`tiebreak_set`] reads them): none before the main games are complete
/// or once they are not level, two for every level set before the
/// deciding one, and two more (the open set) while every set is level.
pub fn tiebreak_games_called_for(sets: &[SetScore]) -> usize {
    match sets.iter().position(|s| s.first != s.second) {
        Some(decided) => 2 * decided,
        None => 2 * sets.len(),
    }
}

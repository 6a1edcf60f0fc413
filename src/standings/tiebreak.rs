//! The tiebreaks of FIDE C.07 that make sense for mini-matches, each a sum
//! over rounds in the tournament's ranking unit (see docs/standings.md).

use std::collections::HashMap;

use serde::Serialize;

use super::{Entrant, Outcome, Scoring};
use crate::pairing::{PlayerId, Points, POINT};
use crate::tournament::Tiebreak;

/// An exact tiebreak value: `raw / denom` points. Every player's value for
/// one tiebreak has the same `denom`, so `raw` alone orders them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TiebreakValue {
    pub raw: i64,
    pub denom: i64,
}

impl TiebreakValue {
    fn points(raw: Points) -> TiebreakValue {
        TiebreakValue { raw, denom: POINT }
    }

    /// Whether the value needs more than halves to be written exactly.
    pub fn is_fine(&self) -> bool {
        self.denom != 1 && (self.raw * 2) % self.denom != 0
    }

    /// The value with two decimals, for a column where some value needs them.
    pub fn show_decimal(&self) -> String {
        format!("{:.2}", self.raw as f64 / self.denom as f64)
    }

    /// The value as a spreadsheet reads it, with the decimals its column
    /// has on the page: two where some value of the column needs more than
    /// halves (`fine`), otherwise as few as it needs (`4.5`, `3`).
    pub fn csv(&self, fine: bool) -> String {
        if fine {
            self.show_decimal()
        } else {
            super::decimal(self.raw, self.denom)
        }
    }

    /// The value as players read it: whole numbers plain, halves as `½`,
    /// anything finer to two decimals.
    pub fn show(&self) -> String {
        if self.denom == 1 {
            return self.raw.to_string();
        }
        if (self.raw * 2) % self.denom == 0 {
            return super::show_points(self.raw * POINT / self.denom);
        }
        format!("{:.2}", self.raw as f64 / self.denom as f64)
    }
}

/// For each of `count` tiebreak columns, whether the standings write it
/// with two decimals: some value in it needs more than halves.
pub fn fine_columns<'a>(
    rows: impl IntoIterator<Item = &'a super::Standing>,
    count: usize,
) -> Vec<bool> {
    let mut fine = vec![false; count];
    for s in rows {
        for (f, v) in fine.iter_mut().zip(&s.tiebreaks) {
            *f |= v.is_fine();
        }
    }
    fine
}

/// Every tiebreak of every entrant, `[entrant][tiebreak]`.
pub fn compute_all(
    entrants: &[Entrant],
    scores: &[Points],
    scoring: &Scoring,
    tiebreaks: &[Tiebreak],
) -> Vec<Vec<TiebreakValue>> {
    let index: HashMap<PlayerId, usize> = entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id, i))
        .collect();
    let opponent_score = |id: PlayerId| index.get(&id).map_or(0, |&j| scores[j]);
    let mut values: Vec<Vec<TiebreakValue>> =
        vec![Vec::with_capacity(tiebreaks.len()); entrants.len()];
    for (k, tb) in tiebreaks.iter().enumerate() {
        let column: Vec<TiebreakValue> = match tb {
            Tiebreak::DirectEncounter => {
                direct_encounter(entrants, scores, scoring, &values, k, &index)
            }
            Tiebreak::Buchholz | Tiebreak::BuchholzCut1 | Tiebreak::MedianBuchholz => entrants
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let mut parts: Vec<Points> = e
                        .rounds
                        .iter()
                        .map(|o| match o {
                            Outcome::Played { opponent, .. } => opponent_score(*opponent),
                            // An unplayed round counts as an opponent with the player's own score.
                            _ => scores[i],
                        })
                        .collect();
                    parts.sort_unstable();
                    let (low, high) = match tb {
                        Tiebreak::BuchholzCut1 => (1, 0),
                        Tiebreak::MedianBuchholz => (1, 1),
                        _ => (0, 0),
                    };
                    let kept = parts.len().saturating_sub(high);
                    TiebreakValue::points(parts.iter().take(kept).skip(low).sum())
                })
                .collect(),
            Tiebreak::SonnebornBerger => entrants
                .iter()
                .map(|e| TiebreakValue {
                    raw: e
                        .rounds
                        .iter()
                        .map(|o| match o {
                            Outcome::Played { opponent, .. } => {
                                opponent_score(*opponent) * scoring.round_score(o)
                            }
                            _ => 0,
                        })
                        .sum(),
                    denom: POINT * scoring.round_max(),
                })
                .collect(),
            Tiebreak::Wins => entrants
                .iter()
                .map(|e| TiebreakValue {
                    raw: e
                        .rounds
                        .iter()
                        .map(|o| match o {
                            Outcome::Played { games_won, .. } => i64::from(*games_won),
                            _ => 0,
                        })
                        .sum(),
                    denom: 1,
                })
                .collect(),
            Tiebreak::MatchPoints | Tiebreak::GamePoints => {
                let other = Scoring {
                    ranking: if *tb == Tiebreak::MatchPoints {
                        crate::tournament::Ranking::MatchPoints
                    } else {
                        crate::tournament::Ranking::GamePoints
                    },
                    ..*scoring
                };
                entrants
                    .iter()
                    .map(|e| {
                        TiebreakValue::points(e.rounds.iter().map(|o| other.round_score(o)).sum())
                    })
                    .collect()
            }
            Tiebreak::Board1 | Tiebreak::Board2 | Tiebreak::Board3 | Tiebreak::Board4 => {
                let board = tb.board().unwrap_or(1) - 1;
                entrants
                    .iter()
                    .map(|e| TiebreakValue::points(e.boards.get(board).copied().unwrap_or(0)))
                    .collect()
            }
            Tiebreak::Progressive => entrants
                .iter()
                .map(|e| {
                    let mut running = 0;
                    let mut total = 0;
                    for o in &e.rounds {
                        running += scoring.round_score(o);
                        total += running;
                    }
                    TiebreakValue::points(total)
                })
                .collect(),
        };
        for (i, v) in column.into_iter().enumerate() {
            values[i].push(v);
        }
    }
    values
}

/// Points scored against the other players still level (same score and
/// same earlier tiebreaks), counted only when every two of them have met;
/// otherwise it separates nobody and is 0 for the whole group.
fn direct_encounter(
    entrants: &[Entrant],
    scores: &[Points],
    scoring: &Scoring,
    earlier: &[Vec<TiebreakValue>],
    k: usize,
    index: &HashMap<PlayerId, usize>,
) -> Vec<TiebreakValue> {
    let mut groups: HashMap<(Points, Vec<i64>), Vec<usize>> = HashMap::new();
    for i in 0..entrants.len() {
        let key = (scores[i], earlier[i][..k].iter().map(|v| v.raw).collect());
        groups.entry(key).or_default().push(i);
    }
    let mut out = vec![TiebreakValue::points(0); entrants.len()];
    for members in groups.values().filter(|m| m.len() > 1) {
        let met = |a: usize, b: usize| {
            entrants[a]
                .rounds
                .iter()
                .any(|o| matches!(o, Outcome::Played { opponent, .. } if index.get(opponent) == Some(&b)))
        };
        let all_met = members
            .iter()
            .enumerate()
            .all(|(x, &a)| members[x + 1..].iter().all(|&b| met(a, b)));
        if !all_met {
            continue;
        }
        for &a in members {
            let sum = entrants[a]
                .rounds
                .iter()
                .filter(|o| {
                    matches!(o, Outcome::Played { opponent, .. }
                        if index.get(opponent).is_some_and(|j| members.contains(j)))
                })
                .map(|o| scoring.round_score(o))
                .sum();
            out[a] = TiebreakValue::points(sum);
        }
    }
    out
}

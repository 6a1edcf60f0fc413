//! Standings: scores, tiebreaks and the order they give.
//!
//! A pairing is a mini-match of N games, so every formula here is stated
//! per round in the tournament's ranking unit: game points (the sum of the
//! games, 1, ½, 0 each) or match points (mini-match won 2, drawn 1, lost 0).
//! Values are exact integers in tenths of a point ([`Points`]); the
//! formulas are written out in docs/standings.md.

pub mod tiebreak;

use std::cmp::Ordering;

use serde::Serialize;

use crate::pairing::swiss::EntryKind;
use crate::pairing::{PlayerId, Points, POINT};
use crate::tournament::{ByeValue, Ranking, Tiebreak};

pub use tiebreak::TiebreakValue;

/// What one player got out of one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// A mini-match over the board (some games may be forfeits within it).
    Played {
        opponent: PlayerId,
        /// Game points the player took, in tenths.
        points: Points,
        /// Game points the opponent took, in tenths.
        opponent_points: Points,
        /// Games the player won over the board.
        games_won: u32,
    },
    /// The opponent did not come: scored as a won mini-match.
    ForfeitWin { opponent: PlayerId },
    /// The player did not come.
    ForfeitLoss { opponent: PlayerId },
    /// The pairing-allocated bye of an odd field.
    AllocatedBye,
    /// A bye the player asked for; `half` when it is worth half a mini-match.
    RequestedBye { half: bool },
    /// Not in this round (late entry, withdrawn, or no result yet).
    Absent,
}

impl Outcome {
    /// The outcome as the pairing engine's history records it (with the
    /// opponent, if any). The engine keeps its own, coarser kind because its
    /// history also comes from files (TRF, Kraal JSON) that carry no games,
    /// only what each round was; this is the one translation, and it lives
    /// here so that the pairing engine never looks up at the standings.
    pub fn entry(&self) -> (EntryKind, Option<PlayerId>) {
        match *self {
            Outcome::Played { opponent, .. } => (EntryKind::Played, Some(opponent)),
            Outcome::ForfeitWin { opponent } => (EntryKind::ForfeitWin, Some(opponent)),
            Outcome::ForfeitLoss { opponent } => (EntryKind::ForfeitLoss, Some(opponent)),
            Outcome::AllocatedBye => (EntryKind::AllocatedBye, None),
            Outcome::RequestedBye { .. } => (EntryKind::RequestedBye, None),
            Outcome::Absent => (EntryKind::Absent, None),
        }
    }
}

/// How the tournament counts points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scoring {
    pub games_per_pairing: u32,
    pub ranking: Ranking,
    pub bye: ByeValue,
}

impl Scoring {
    /// The most a player can score in one round, in the ranking unit.
    pub fn round_max(&self) -> Points {
        match self.ranking {
            Ranking::GamePoints => Points::from(self.games_per_pairing) * POINT,
            Ranking::MatchPoints => 2 * POINT,
        }
    }

    /// What a round is worth to the player, in the ranking unit.
    pub fn round_score(&self, o: &Outcome) -> Points {
        let max = self.round_max();
        match *o {
            Outcome::Played {
                points,
                opponent_points,
                ..
            } => match self.ranking {
                Ranking::GamePoints => points,
                Ranking::MatchPoints => match points.cmp(&opponent_points) {
                    Ordering::Greater => 2 * POINT,
                    Ordering::Equal => POINT,
                    Ordering::Less => 0,
                },
            },
            Outcome::ForfeitWin { .. } => max,
            Outcome::ForfeitLoss { .. } | Outcome::Absent => 0,
            Outcome::AllocatedBye => match self.bye {
                ByeValue::Win => max,
                ByeValue::Draw => max / 2,
                ByeValue::Nothing => 0,
            },
            Outcome::RequestedBye { half } => {
                if half {
                    max / 2
                } else {
                    0
                }
            }
        }
    }
}

/// A player as the standings know them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entrant {
    pub id: PlayerId,
    pub name: String,
    /// The final order among players level on everything (pairing number).
    pub order: u32,
    /// One outcome per round, round 1 first.
    pub rounds: Vec<Outcome>,
    /// A team's game points on each board over all rounds, board 1 first;
    /// empty for a player.
    pub boards: Vec<Points>,
    /// In a knock-out, how far the entrant got (see [`knockout_stage`]),
    /// which ranks before the score; 0 in every other system.
    pub stage: u32,
}

/// How far a player got in a knock-out, for the standings: twice the rounds
/// gone through (won or the bye), plus one while not knocked out. The
/// winner of a pairing so always ranks above the loser, and a player whose
/// pairing is still open above the one already out in that round.
pub fn knockout_stage(rounds_through: u32, knocked_out: bool) -> u32 {
    2 * rounds_through + u32::from(!knocked_out)
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// 1-based; players level on score and every tiebreak share a rank.
    pub rank: usize,
    pub id: PlayerId,
    pub name: String,
    pub score: Points,
    /// The values of the tournament's tiebreaks, in its order.
    pub tiebreaks: Vec<TiebreakValue>,
    /// What put this player below the one above; `None` for the first line
    /// and for a shared rank.
    pub separated_by: Option<SeparatedBy>,
    /// The entrant's knock-out stage (0 outside a knock-out).
    #[serde(skip)]
    pub stage: u32,
}

/// What put a player below the one above in the standings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeparatedBy {
    /// In a knock-out: the one above went further.
    Knockout,
    Score,
    Tiebreak(Tiebreak),
}

impl SeparatedBy {
    /// The words a player reads.
    pub fn label(self) -> &'static str {
        match self {
            SeparatedBy::Knockout => "went out earlier",
            SeparatedBy::Score => "score",
            SeparatedBy::Tiebreak(t) => t.label(),
        }
    }
    /// The spelling of exports and the API: `score` or the tiebreak's name.
    pub fn as_str(self) -> &'static str {
        match self {
            SeparatedBy::Knockout => "knockout",
            SeparatedBy::Score => "score",
            SeparatedBy::Tiebreak(t) => t.as_str(),
        }
    }
}

impl Serialize for SeparatedBy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Ranks the field: knock-out stage, score, then each tiebreak in order,
/// then pairing number.
pub fn compute(entrants: &[Entrant], scoring: &Scoring, tiebreaks: &[Tiebreak]) -> Vec<Standing> {
    let scores: Vec<Points> = entrants
        .iter()
        .map(|e| e.rounds.iter().map(|o| scoring.round_score(o)).sum())
        .collect();
    let values = tiebreak::compute_all(entrants, &scores, scoring, tiebreaks);
    let mut order: Vec<usize> = (0..entrants.len()).collect();
    let key = |i: &usize| {
        (
            entrants[*i].stage,
            scores[*i],
            values[*i].iter().map(|v| v.raw).collect::<Vec<_>>(),
        )
    };
    order.sort_by(|a, b| {
        key(b)
            .cmp(&key(a))
            .then(entrants[*a].order.cmp(&entrants[*b].order))
    });
    let mut out: Vec<Standing> = order
        .iter()
        .map(|&i| Standing {
            rank: 0,
            id: entrants[i].id,
            name: entrants[i].name.clone(),
            score: scores[i],
            tiebreaks: values[i].clone(),
            separated_by: None,
            stage: entrants[i].stage,
        })
        .collect();
    rerank(&mut out, tiebreaks);
    out
}

/// Gives ranks and "separated by" to standings already in order: players
/// level on score and every tiebreak share a rank. Used again on a part of
/// the field (the active players, the withdrawn listed after).
pub fn rerank(rows: &mut [Standing], tiebreaks: &[Tiebreak]) {
    for pos in 0..rows.len() {
        let (rank, separated_by) = match pos.checked_sub(1).map(|p| &rows[p]) {
            None => (1, None),
            Some(prev) => {
                let cur = &rows[pos];
                if prev.stage != cur.stage {
                    (pos + 1, Some(SeparatedBy::Knockout))
                } else if prev.score != cur.score {
                    (pos + 1, Some(SeparatedBy::Score))
                } else {
                    match prev
                        .tiebreaks
                        .iter()
                        .zip(&cur.tiebreaks)
                        .zip(tiebreaks)
                        .find(|((p, v), _)| p.raw != v.raw)
                    {
                        Some((_, tb)) => (pos + 1, Some(SeparatedBy::Tiebreak(*tb))),
                        None => (prev.rank, None),
                    }
                }
            }
        };
        rows[pos].rank = rank;
        rows[pos].separated_by = separated_by;
    }
}

/// An exact value (`raw / denom`) as a plain decimal a spreadsheet reads:
/// `4.5`, `3`, `3.75`. Points and tiebreaks are written this way in CSV;
/// pages use [`show_points`] and [`TiebreakValue::show`].
pub fn decimal(raw: i64, denom: i64) -> String {
    if raw % denom == 0 {
        return (raw / denom).to_string();
    }
    let s = format!("{:.4}", raw as f64 / denom as f64);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Writes tenths of a point the way players read them: `4½`, `3`, `0`.
pub fn show_points(p: Points) -> String {
    let whole = p / POINT;
    let rest = p % POINT;
    match rest {
        0 => whole.to_string(),
        5 if whole == 0 => "½".to_string(),
        5 => format!("{whole}½"),
        _ => format!("{:.1}", p as f64 / POINT as f64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(
        opponent: PlayerId,
        points: Points,
        opponent_points: Points,
        games_won: u32,
    ) -> Outcome {
        Outcome::Played {
            opponent,
            points,
            opponent_points,
            games_won,
        }
    }

    #[test]
    fn match_points_count_mini_matches_and_game_points_count_games() {
        let o = played(2, 15, 5, 1); // 1½-½ in a 2-game pairing
        let game = Scoring {
            games_per_pairing: 2,
            ranking: Ranking::GamePoints,
            bye: ByeValue::Win,
        };
        let matchp = Scoring {
            ranking: Ranking::MatchPoints,
            ..game
        };
        assert_eq!(game.round_score(&o), 15);
        assert_eq!(matchp.round_score(&o), 20);
        assert_eq!(
            matchp.round_score(&played(2, 30, 30, 2)),
            10,
            "3-3 in six games is a drawn match"
        );
        assert_eq!(game.round_score(&Outcome::AllocatedBye), 20);
        assert_eq!(
            Scoring {
                games_per_pairing: 6,
                bye: ByeValue::Draw,
                ..game
            }
            .round_score(&Outcome::AllocatedBye),
            30
        );
        assert_eq!(game.round_score(&Outcome::RequestedBye { half: true }), 10);
        assert_eq!(game.round_score(&Outcome::ForfeitWin { opponent: 3 }), 20);
    }

    #[test]
    fn points_are_written_with_halves() {
        assert_eq!(show_points(45), "4½");
        assert_eq!(show_points(5), "½");
        assert_eq!(show_points(30), "3");
        assert_eq!(show_points(0), "0");
    }
}

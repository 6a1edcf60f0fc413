//! Team events: Swiss or round robin over teams, then board pairings from
//! the line-ups (OGR 10).
//!
//! A team match is board k against board k, each board a full mini-match
//! (10.4). The team match score is the sum of the boards' game points; more
//! wins, equal is a draw (10.5). The Swiss engine pairs teams exactly as it
//! pairs players, by the team score the organiser chose: match points (won
//! 2, drawn 1, lost 0) or game points.

use serde::{Deserialize, Serialize};

use super::round_robin::{self, RoundRobinInput, Schedule};
use super::swiss::{self, EntryKind, RoundEntry, RoundPairing, Status, SwissInput, SwissPlayer};
use super::{ForbiddenPair, PairingError, PlayerId, Points, RuleSet, Waiver, POINT};

/// What ranks teams.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamScoring {
    /// Won 2, drawn 1, lost 0.
    #[default]
    MatchPoints,
    /// Sum of the boards' game points.
    GamePoints,
}

/// One past team match from one team's side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamMatch {
    /// `None`: the team had the bye.
    pub opponent: Option<PlayerId>,
    /// Game points scored over all boards, in tenths.
    pub game_points: Points,
    /// Game points conceded, in tenths.
    pub game_points_against: Points,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Team {
    pub id: PlayerId,
    pub name: String,
    #[serde(default)]
    pub seed: Option<i32>,
    #[serde(default)]
    pub history: Vec<TeamMatch>,
    #[serde(default)]
    pub withdrawn: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamSwissInput {
    pub round: u32,
    pub total_rounds: u32,
    pub teams: Vec<Team>,
    #[serde(default)]
    pub scoring: TeamScoring,
    #[serde(default)]
    pub forbidden: Vec<ForbiddenPair>,
    #[serde(default)]
    pub waivers: Vec<Waiver>,
}

/// A team's score for one match under `scoring`.
pub fn match_score(m: &TeamMatch, scoring: TeamScoring) -> Points {
    match scoring {
        TeamScoring::GamePoints => m.game_points,
        TeamScoring::MatchPoints => match m.game_points.cmp(&m.game_points_against) {
            std::cmp::Ordering::Greater => 2 * POINT,
            std::cmp::Ordering::Equal => POINT,
            std::cmp::Ordering::Less => 0,
        },
    }
}

/// Pairs a Swiss round over teams.
pub fn pair_swiss(input: &TeamSwissInput) -> Result<RoundPairing, PairingError> {
    let players = input
        .teams
        .iter()
        .map(|t| SwissPlayer {
            id: t.id,
            name: t.name.clone(),
            rating: t.seed,
            club: None,
            team: None,
            relatives: Vec::new(),
            entered_round: 1,
            history: t
                .history
                .iter()
                .map(|m| RoundEntry {
                    kind: if m.opponent.is_some() {
                        EntryKind::Played
                    } else {
                        EntryKind::AllocatedBye
                    },
                    opponent: m.opponent,
                    points: match_score(m, input.scoring),
                })
                .collect(),
            status: if t.withdrawn {
                Status::Withdrawn
            } else {
                Status::Active
            },
        })
        .collect();
    swiss::pair_round(&SwissInput {
        round: input.round,
        total_rounds: input.total_rounds,
        rules: RuleSet::Official,
        players,
        forbidden: input.forbidden.clone(),
        waivers: input.waivers.clone(),
    })
}

/// Schedules a team round robin (Berger tables over teams).
pub fn round_robin(teams: &[PlayerId], double: bool) -> Result<Schedule, PairingError> {
    round_robin::schedule(&RoundRobinInput {
        players: teams
            .iter()
            .map(|&id| super::avoidance::Ties {
                id,
                ..Default::default()
            })
            .collect(),
        double,
        ..Default::default()
    })
}

/// A team's line-up for one match: players in board order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lineup {
    pub team: PlayerId,
    pub boards: Vec<PlayerId>,
}

/// One board of a team match; `first` starts game 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardPairing {
    pub board: u32,
    pub first: PlayerId,
    pub second: PlayerId,
}

/// Board pairings of a team match (OGR 10.4): board k against board k. The
/// team listed first starts game 1 on odd boards, the other on even boards,
/// so each team starts half the boards.
pub fn board_pairings(first: &Lineup, second: &Lineup) -> Result<Vec<BoardPairing>, PairingError> {
    if first.boards.len() != second.boards.len() || first.boards.is_empty() {
        return Err(PairingError::Invalid(format!(
            "team {} lines up {} boards and team {} lines up {}",
            first.team,
            first.boards.len(),
            second.team,
            second.boards.len()
        )));
    }
    for l in [first, second] {
        let mut b = l.boards.clone();
        b.sort_unstable();
        if b.windows(2).any(|w| w[0] == w[1]) {
            return Err(PairingError::Invalid(format!(
                "team {} lines up a player on two boards",
                l.team
            )));
        }
    }
    Ok(first
        .boards
        .iter()
        .zip(&second.boards)
        .enumerate()
        .map(|(k, (&a, &b))| {
            let (f, s) = if k % 2 == 0 { (a, b) } else { (b, a) };
            BoardPairing {
                board: k as u32 + 1,
                first: f,
                second: s,
            }
        })
        .collect())
}

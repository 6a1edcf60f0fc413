//! The Swiss system: the FIDE Dutch system (Handbook C.04.3, the text
//! applied from 1 July 2025) with its colour rules removed.
//!
//! Morabaraba mini-matches give each player one start per game pair, so
//! colours balance inside every pairing: absolute criterion C3, the colour
//! criteria C10-C13 and colour allocation have nothing to decide. What
//! remains is applied in the handbook's order, and the modules are named by
//! the handbook's words:
//!
//! - [`brackets`]: the order of the players (1.2), the scoregroups and
//!   brackets (1.3), the floats of past rounds (1.4), paired from the top.
//! - [`absolute`]: C1 (no two players play each other twice; a forfeit is
//!   no meeting, C.04.1), C2 (no second pairing-allocated bye, none after a
//!   forfeit win), and the pairs the avoidance rules forbid.
//! - [`completion`]: C4, every bracket leaves the players not yet paired
//!   pairable.
//! - [`bye`]: C5, the bye's player has the lowest score a complete round
//!   allows; C9, then the fewest unplayed games.
//! - [`criteria`]: the quality criteria C6-C9 and C14-C21 (and, under
//!   `gar`, club-mates apart in rounds 1-3) as the digits of one matching
//!   weight per pair, most significant first.
//! - [`following_bracket`]: C8, the downfloaters chosen for the bracket
//!   below.
//! - [`club_mates`]: the `gar` preference weighed over the whole round.
//! - [`generation`]: among the pairings that tie on every criterion, the
//!   first the handbook generates (S1/S2, transpositions, exchanges,
//!   Articles 3-4).
//! - [`explanation`]: what each published pairing says about itself.
//!
//! A bracket that has a perfect candidate (Article 3.4) takes the first
//! one in the handbook's order, found by matching tests alone, at any size.
//! Any other bracket is solved as a maximum-weight matching (blossom
//! algorithm) whose weights hold the criteria as digits (an `i128`, or an
//! integer as wide as the digits need); the generation order is then settled choice by
//! choice, each time asking a matching whether a best pairing survives. docs/pairing.md maps every article to where it is
//! implemented and to the test that shows it.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::avoidance::{Avoidance, Ties};
use super::explain::Explanation;
use super::{ForbiddenPair, PairingError, PlayerId, Points, RuleSet, Waiver, POINT};

mod absolute;
mod brackets;
mod bye;
mod club_mates;
mod completion;
mod criteria;
mod explanation;
mod following_bracket;
mod generation;

use absolute::Engine;
use brackets::{float_in_round, Seat};
pub use brackets::{pairing_numbers, scores};
pub use explanation::show;

/// What happened to a player in one past round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// A mini-match actually played.
    Played,
    /// The opponent did not come; scored like a won mini-match.
    ForfeitWin,
    /// Did not come to a pairing.
    ForfeitLoss,
    /// The pairing-allocated bye (odd field).
    AllocatedBye,
    /// A bye the player asked for (half or zero point).
    RequestedBye,
    /// Not in the round at all (not yet entered, or withdrawn).
    Absent,
}

impl EntryKind {
    /// Whether a round like this one uses up the player's bye (C2): the
    /// pairing-allocated bye itself, or a forfeit win, which scored like one.
    pub fn uses_bye(self) -> bool {
        matches!(self, EntryKind::AllocatedBye | EntryKind::ForfeitWin)
    }
}

/// One past round of one player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundEntry {
    pub kind: EntryKind,
    #[serde(default)]
    pub opponent: Option<PlayerId>,
    /// What the player scored in that round, in tenths.
    #[serde(default)]
    pub points: Points,
}

impl RoundEntry {
    /// The opponent this round counts as a meeting with (C1): only a
    /// mini-match with a game played over the board. C.04.1 forbids
    /// *playing* the same opponent twice, so a forfeit (no game played) is
    /// no meeting and the two may be paired again; it still counts for the
    /// bye (C2) and as a float (1.4.3) through its kind and points.
    pub fn met(&self) -> Option<PlayerId> {
        match self.kind {
            EntryKind::Played => self.opponent,
            _ => None,
        }
    }
}

/// Whether a player takes part in the round being paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    #[default]
    Active,
    /// Left the tournament: never paired again.
    Withdrawn,
    /// Asked for a bye in this round: left out of the pairing.
    RequestedBye,
}

/// A player as the Swiss engine sees them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissPlayer {
    pub id: PlayerId,
    pub name: String,
    #[serde(default)]
    pub rating: Option<i32>,
    #[serde(default)]
    pub club: Option<String>,
    #[serde(default)]
    pub team: Option<String>,
    #[serde(default)]
    pub relatives: Vec<PlayerId>,
    /// Round the player joined (1 = from the start). Late entries take the
    /// next pairing numbers.
    #[serde(default = "one")]
    pub entered_round: u32,
    /// Past rounds, index 0 = round 1. Missing rounds count as absent.
    #[serde(default)]
    pub history: Vec<RoundEntry>,
    #[serde(default)]
    pub status: Status,
}

fn one() -> u32 {
    1
}

/// Everything needed to pair one Swiss round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissInput {
    /// The round to pair, 1-based.
    pub round: u32,
    pub total_rounds: u32,
    #[serde(default)]
    pub rules: RuleSet,
    pub players: Vec<SwissPlayer>,
    #[serde(default)]
    pub forbidden: Vec<ForbiddenPair>,
    #[serde(default)]
    pub waivers: Vec<Waiver>,
}

impl SwissInput {
    /// Who must not meet whom, and who should not, for this field: the
    /// rule set's table over the players' clubs, teams and relatives, with
    /// the referee's forbidden pairs and waivers.
    pub fn avoidance(&self) -> Avoidance {
        let ties: Vec<Ties> = self
            .players
            .iter()
            .map(|p| Ties {
                id: p.id,
                club: p.club.clone(),
                team: p.team.clone(),
                relatives: p.relatives.clone(),
            })
            .collect();
        Avoidance::new(
            self.rules,
            self.total_rounds,
            &ties,
            &self.forbidden,
            &self.waivers,
        )
    }
}

/// One pairing of the round. `first` starts game 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pair {
    pub table: u32,
    pub first: PlayerId,
    pub second: PlayerId,
    pub explanation: Explanation,
}

/// The pairing-allocated bye.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bye {
    pub player: PlayerId,
    pub explanation: Explanation,
}

/// A published round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundPairing {
    pub round: u32,
    pub pairs: Vec<Pair>,
    pub bye: Option<Bye>,
    /// Players with a requested bye this round (not paired).
    pub requested_byes: Vec<PlayerId>,
}

fn validate(input: &SwissInput) -> Result<(), PairingError> {
    if input.round == 0 {
        return Err(PairingError::Invalid("rounds are numbered from 1".into()));
    }
    let mut seen = HashMap::new();
    for p in &input.players {
        if p.id == 0 {
            return Err(PairingError::Invalid(
                "player id 0 is reserved for the bye".into(),
            ));
        }
        if seen.insert(p.id, ()).is_some() {
            return Err(PairingError::Invalid(format!(
                "player id {} appears twice",
                p.id
            )));
        }
    }
    for p in &input.players {
        if p.history.len() >= input.round as usize {
            return Err(PairingError::Invalid(format!(
                "player {} has {} rounds of history before round {}",
                p.id,
                p.history.len(),
                input.round
            )));
        }
        for e in &p.history {
            if let Some(o) = e.opponent {
                if !seen.contains_key(&o) || o == p.id {
                    return Err(PairingError::Invalid(format!(
                        "player {} has an unknown opponent {}",
                        p.id, o
                    )));
                }
            }
        }
    }
    Ok(())
}

/// Pairs one Swiss round.
pub fn pair_round(input: &SwissInput) -> Result<RoundPairing, PairingError> {
    pair_round_noting(input).map(|(round, _)| round)
}

/// As [`pair_round`], with the places where the engine left the handbook's
/// exact procedure for a fallback (docs/pairing.md, "What differs"), in
/// words: what the tests and benchmarks hold to none. No size leads to
/// one any more.
#[cfg(feature = "testing")]
pub fn pair_round_with_shortcuts(
    input: &SwissInput,
) -> Result<(RoundPairing, Vec<String>), PairingError> {
    pair_round_noting(input)
}

fn pair_round_noting(input: &SwissInput) -> Result<(RoundPairing, Vec<String>), PairingError> {
    validate(input)?;
    let round = input.round;
    let tpn = pairing_numbers(&input.players);
    // Score before each past round, per player (index k = before round k+1).
    let running: HashMap<PlayerId, Vec<Points>> = input
        .players
        .iter()
        .map(|p| {
            let mut acc = 0;
            let mut v = Vec::with_capacity(round as usize);
            for r in 0..(round as usize - 1) {
                v.push(acc);
                acc += p.history.get(r).map_or(0, |e| e.points);
            }
            (p.id, v)
        })
        .collect();
    let avoid = input.avoidance();

    let mut seats: Vec<Seat> = input
        .players
        .iter()
        .filter(|p| p.status == Status::Active)
        .map(|p| Seat {
            id: p.id,
            tpn: tpn[&p.id],
            score: p.history.iter().map(|e| e.points).sum(),
            opponents: {
                let mut o: Vec<_> = p.history.iter().filter_map(RoundEntry::met).collect();
                o.sort_unstable();
                o
            },
            bye_used: p.history.iter().any(|e| e.kind.uses_bye()),
            unplayed: (round - 1).saturating_sub(
                p.history
                    .iter()
                    .filter(|e| e.kind == EntryKind::Played)
                    .count() as u32,
            ),
            float1: (round >= 2)
                .then(|| float_in_round(p, round as usize - 2, &running))
                .flatten(),
            float2: (round >= 3)
                .then(|| float_in_round(p, round as usize - 3, &running))
                .flatten(),
            is_bye: false,
        })
        .collect();
    seats.sort_by(|a, b| b.score.cmp(&a.score).then(a.tpn.cmp(&b.tpn)));
    let requested_byes: Vec<PlayerId> = input
        .players
        .iter()
        .filter(|p| p.status == Status::RequestedBye)
        .map(|p| p.id)
        .collect();
    if seats.len() % 2 == 1 {
        let low = seats.last().map_or(0, |s| s.score);
        seats.push(Seat {
            id: 0,
            tpn: u32::MAX,
            score: low - POINT,
            opponents: Vec::new(),
            bye_used: false,
            unplayed: 0,
            float1: None,
            float2: None,
            is_bye: true,
        });
    }
    let engine = Engine::new(&seats, &avoid, round);
    let mate = engine.pair_all()?;
    let paired = engine.publish(&mate, round, requested_byes, input);
    Ok((paired, engine.shortcuts.take()))
}

/// Score differences of pairs below the bracket, in half points, are
/// counted up to this cap (see [`Weights`]).
const LOW_CAP: i128 = 64;

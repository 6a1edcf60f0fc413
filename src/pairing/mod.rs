//! Pairing engines: who meets whom, at which table, and why.
//!
//! Everything here is pure: plain serde-able data in, plain data out, no I/O.
//! The web shell loads a tournament, calls one of the engines and stores what
//! comes back; the `kraal pair` command does the same from a file.
//!
//! - [`swiss`]: the Dutch system (FIDE C.04.3) without its colour rules.
//! - [`round_robin`]: Berger tables (FIDE C.05 Annex 1) with avoidance seating.
//! - [`knockout`]: seeded brackets, byes for top seeds, tiebreak sets.
//! - [`teams`]: Swiss and round robin over teams, board pairings from line-ups.
//! - [`avoidance`]: forbidden pairs, relatives and club-mates per rule set.
//! - [`matching`]: the weighted and unweighted matchings the Swiss engine uses.
//! - [`explain`]: the record each pairing carries for referees and players.
//! - [`format`]: Kraal's JSON tournament file and FIDE TRF, for the command line.
//! - `sim` (feature `testing`): seeded synthetic tournaments for property
//!   tests and benchmarks; not part of the product.

pub mod avoidance;
pub mod explain;
pub mod format;
pub mod knockout;
pub mod matching;
pub mod round_robin;
#[cfg(feature = "testing")]
pub mod sim;
pub mod swiss;
pub mod teams;

use serde::{Deserialize, Serialize};

/// A player's (or team's) identifier as the tournament knows it. In TRF files
/// it is the starting rank; in Kraal files any positive number.
pub type PlayerId = u32;

/// Points in tenths, so that half points and the values of a TRF point system
/// (`BBW 1.0`, `BBD 0.5`) stay exact integers.
pub type Points = i64;

/// One point, in [`Points`].
pub const POINT: Points = 10;

/// The rule set decides which avoidance table applies (docs/pairing.md):
/// OGR 11.3 keeps relatives and club-mates apart until two-thirds of the
/// rounds are played; GAR never pairs relatives and keeps club or team
/// mates apart in rounds 1-3 where possible.
pub use crate::rules::RuleSet;

/// A pair the referee (or the organiser's file) keeps apart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForbiddenPair {
    pub a: PlayerId,
    pub b: PlayerId,
    /// First round the ban applies to (inclusive); `None` means round 1.
    #[serde(default)]
    pub from_round: Option<u32>,
    /// Last round the ban applies to (inclusive); `None` means the last round.
    #[serde(default)]
    pub to_round: Option<u32>,
}

impl ForbiddenPair {
    /// Whether the ban covers `round`.
    pub fn covers(&self, round: u32) -> bool {
        self.from_round.is_none_or(|f| round >= f) && self.to_round.is_none_or(|t| round <= t)
    }
}

/// A pair the referee allows to meet despite a rule that would keep them
/// apart; recorded in the explanation of the pairing that uses it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiver {
    pub a: PlayerId,
    pub b: PlayerId,
    /// Why the referee waived the rule; shown with the pairing.
    #[serde(default)]
    pub reason: String,
}

/// What blocks a complete pairing, naming players by id (the shell words
/// it, `crate::wording::pairing`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Blocked {
    /// The field is odd and every player present has had the
    /// pairing-allocated bye or a forfeit win (C2).
    ByeTaken,
    /// `player` has met, or may not meet, every other player present (C1
    /// and the avoidance rules).
    NoOpponent { player: PlayerId },
    /// Without rematches, a second bye and forbidden pairs, at most `paired`
    /// of the `places` can be paired; `left` are over (`None`: the bye).
    Incomplete {
        paired: usize,
        places: usize,
        left: Vec<Option<PlayerId>>,
    },
    /// No round-robin seating keeps every forbidden pair in a round where
    /// it may meet; the pair least often placed, with its rule.
    NoSeating {
        pair: Option<(PlayerId, PlayerId, Option<explain::Rule>)>,
    },
    /// Rounds 1 to `played` follow no Berger table of these `players`, and
    /// the players who have not met cannot all be paired in `round`.
    NotBerger {
        played: usize,
        players: usize,
        round: u32,
    },
}

/// Why no pairing could be made. Every variant names what blocks it, so a
/// referee can act (waive a pair, add a bye) rather than guess.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum PairingError {
    #[error("no complete pairing exists: {0}")]
    Impossible(Blocked),
    #[error("players {a} and {b} must meet in every seating but may not meet: {rule}")]
    CannotSeparate {
        a: PlayerId,
        b: PlayerId,
        rule: explain::Rule,
    },
    #[error("invalid input: {0}")]
    Invalid(String),
}

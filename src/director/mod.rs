//! What the tournament director does between the database and the core:
//! turn the stored rounds into the inputs of the pairing engines and of the
//! standings, and turn the engines' answers into pairings to store.
//!
//! `TournamentData` works on data already loaded; the use cases in the
//! submodules own their transactions.

mod bracket;
mod load;
pub mod pair;
mod ranking;
pub mod results;
pub mod swap;

pub use load::load;

use crate::db::forbidden::Forbidden;
use crate::db::players::{Player, Relation};
use crate::db::rounds::{Game, Pairing, RequestedBye, Round};
use crate::db::tournaments::Tournament;
use crate::pairing::{PairingError, PlayerId};

/// A tournament with everything stored about it.
#[derive(Debug, Clone)]
pub struct TournamentData {
    pub tournament: Tournament,
    pub players: Vec<Player>,
    pub relations: Vec<Relation>,
    /// Pairs the referee keeps apart, waived or not.
    pub forbidden: Vec<Forbidden>,
    pub byes: Vec<RequestedBye>,
    pub rounds: Vec<Round>,
    /// Sorted by round, then table, as [`crate::db::rounds::everything`]
    /// returns them: lookups by round are binary searches.
    pub pairings: Vec<Pairing>,
    /// Sorted by pairing, then game number (same source): a standings page
    /// of thousands of games must not scan them all once per pairing.
    pub games: Vec<Game>,
}

/// Why the next round cannot be paired.
#[derive(Debug, thiserror::Error)]
pub enum DirectorError {
    #[error("{0}")]
    NotReady(String),
    #[error(transparent)]
    Pairing(#[from] PairingError),
}

fn pid(id: i32) -> PlayerId {
    id as PlayerId
}

impl TournamentData {
    /// Games of a pairing, main games first, by number.
    pub fn games_of(&self, pairing_id: i32) -> Vec<&Game> {
        let start = self.games.partition_point(|g| g.pairing_id < pairing_id);
        self.games[start..]
            .iter()
            .take_while(|g| g.pairing_id == pairing_id)
            .collect()
    }

    pub fn pairings_of(&self, round: &Round) -> Vec<&Pairing> {
        let start = self.pairings.partition_point(|p| p.round_id < round.id);
        self.pairings[start..]
            .iter()
            .take_while(|p| p.round_id == round.id)
            .collect()
    }

    /// Games of `round` still without a result.
    pub fn missing_results(&self, round: &Round) -> usize {
        self.pairings_of(round)
            .iter()
            .flat_map(|p| self.games_of(p.id))
            .filter(|g| g.result.is_none())
            .count()
    }

    /// Round `n`; a draft only when `drafts` (the caller may edit it).
    pub fn round(&self, n: i32, drafts: bool) -> Result<Round, crate::db::DbError> {
        self.rounds
            .iter()
            .find(|r| r.number == n && (drafts || r.is_published()))
            .cloned()
            .ok_or(crate::db::DbError::NotFound("round"))
    }

    /// Published rounds, in order.
    pub fn published(&self) -> Vec<&Round> {
        self.rounds.iter().filter(|r| r.is_published()).collect()
    }
}

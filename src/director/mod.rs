//! What the tournament director does between the database and the core:
//! turn the stored rounds into the inputs of the pairing engines and of the
//! standings, and turn the engines' answers into pairings to store.
//!
//! `TournamentData` works on data already loaded; the use cases in the
//! submodules own their transactions.

pub mod audit;
mod bracket;
pub mod commit;
pub mod forbidden;
pub mod health;
pub mod links;
mod load;
pub mod model;
pub mod pair;
pub mod people;
pub mod personal;
pub mod players;
pub mod publications;
pub mod published;
mod ranking;
pub mod ratings;
pub mod recording;
pub mod registry;
pub mod results;
pub mod rounds;
pub mod scoresheets;
pub mod seasons;
pub mod settings;
pub mod swap;
pub mod teams;
pub mod tournaments;
pub mod users;

pub use commit::commit;
pub use load::{load, load_round};

use crate::db::byes::RequestedBye;
use crate::db::forbidden::Forbidden;
use crate::db::players::{Player, Relation};
use crate::db::rounds::{Game, Pairing, Round};
use crate::db::teams::{LineupEntry, Member, Team};
use crate::db::tournaments::Tournament;
use crate::ids::{EntryId, PairingId, RoundNo};
use crate::pairing::{PairingError, PlayerId};
use crate::refusal::{Refusal, Thing};
use crate::tournament::System;

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
    /// Team events: the teams, their members and the line-ups given.
    pub teams: Vec<Team>,
    pub members: Vec<Member>,
    pub lineups: Vec<LineupEntry>,
    /// What the players reported of their games through their links.
    pub reports: Vec<crate::db::reports::Report>,
}

/// Where a round stands, as the tournament page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundState {
    pub number: RoundNo,
    pub published: bool,
    /// Tables with two players whose games all have a result.
    pub done: usize,
    /// Tables with two players.
    pub tables: usize,
    /// Games still without a result, of all the round's games.
    pub missing: usize,
    pub games: usize,
}

impl RoundState {
    /// `draft`, `published` (no result yet), `results 3 of 8` (tables
    /// complete of tables) or `complete`.
    pub fn label(&self) -> String {
        if !self.published {
            "draft".into()
        } else if self.missing == 0 {
            "complete".into()
        } else if self.missing == self.games {
            "published".into()
        } else {
            format!("results {} of {}", self.done, self.tables)
        }
    }

    /// The state as [`RoundState::label`] gives it, without words:
    /// `draft`, `published`, `partial` or `complete`.
    pub fn key(&self) -> &'static str {
        if !self.published {
            "draft"
        } else if self.missing == 0 {
            "complete"
        } else if self.missing == self.games {
            "published"
        } else {
            "partial"
        }
    }
}

/// What the referee does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NextStep {
    Publish(RoundNo),
    EnterResults { round: RoundNo, missing: usize },
    Pair(RoundNo),
    Finished,
}

/// Why the next round cannot be paired.
#[derive(Debug, thiserror::Error)]
pub enum DirectorError {
    #[error("{0}")]
    NotReady(crate::rounds::NotReady),
    /// A setting that does not fit the field (a round robin's rounds that
    /// are not whole cycles).
    #[error("{0}")]
    Settings(crate::field::FieldError),
    #[error(transparent)]
    Pairing(#[from] PairingError),
}

/// How far an event with these rounds has gone, as its settings care.
pub fn progress_of(rounds: &[Round]) -> crate::tournament::Progress {
    crate::tournament::Progress {
        paired: rounds.len() as i32,
        published: rounds.iter().filter(|r| r.is_published()).count() as i32,
    }
}

/// A player's database id as the engines number players.
pub fn pid(id: EntryId) -> PlayerId {
    id.engine()
}

impl TournamentData {
    /// Who plays the event: its teams in a team event; in a knock-out the
    /// players not withdrawn before round 1 (the bracket's seeds); in a
    /// round robin every player entered (the table seats them all).
    pub fn field_size(&self) -> usize {
        match self.tournament.system {
            System::TeamLeague | System::TeamSwiss => self.teams.len(),
            System::Knockout => self
                .players
                .iter()
                .filter(|p| p.withdrawn_from_round.is_none())
                .count(),
            System::Swiss | System::RoundRobin => self.players.len(),
        }
    }

    /// The rounds the event plays: as the first pairing fixed them, or,
    /// before it, what the settings and the field entered so far give.
    pub fn total_rounds(&self) -> Result<i32, crate::roster::FieldError> {
        let t = &self.tournament;
        match t.rounds {
            Some(r) if !self.rounds.is_empty() => Ok(r),
            rounds => {
                crate::tournament::rounds_for_field(t.system, rounds, t.cycles, self.field_size())
            }
        }
    }

    /// How far the event has gone, as its settings care.
    pub fn progress(&self) -> crate::tournament::Progress {
        progress_of(&self.rounds)
    }

    /// Games of a pairing, main games first, by number.
    pub fn games_of(&self, pairing_id: PairingId) -> Vec<&Game> {
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

    /// Every round's state, in order.
    pub fn round_states(&self) -> Vec<RoundState> {
        self.rounds
            .iter()
            .map(|r| {
                let two: Vec<&Pairing> = self
                    .pairings_of(r)
                    .into_iter()
                    .filter(|p| p.second_player_id.is_some())
                    .collect();
                let done = two
                    .iter()
                    .filter(|p| self.games_of(p.id).iter().all(|g| g.result.is_some()))
                    .count();
                RoundState {
                    number: r.number,
                    published: r.is_published(),
                    done,
                    tables: two.len(),
                    missing: self.missing_results(r),
                    games: self
                        .pairings_of(r)
                        .iter()
                        .map(|p| self.games_of(p.id).len())
                        .sum(),
                }
            })
            .collect()
    }

    /// What to do next: publish the draft, enter the missing results, pair
    /// the next round, or nothing (every round played).
    pub fn next_step(&self) -> NextStep {
        let Some(last) = self.rounds.last() else {
            return NextStep::Pair(RoundNo::FIRST);
        };
        if !last.is_published() {
            return NextStep::Publish(last.number);
        }
        let missing = self.missing_results(last);
        if missing > 0 {
            return NextStep::EnterResults {
                round: last.number,
                missing,
            };
        }
        let knockout_over = self.tournament.system == crate::tournament::System::Knockout
            && self.pairings_of(last).len() == 1;
        if knockout_over
            || (self.tournament.system != crate::tournament::System::Knockout
                && self.total_rounds().is_ok_and(|n| last.number.0 >= n))
        {
            return NextStep::Finished;
        }
        NextStep::Pair(last.number.next())
    }

    /// Players' names by id, for pages that list many of them.
    pub fn player_names(&self) -> std::collections::HashMap<EntryId, &str> {
        self.players
            .iter()
            .map(|p| (p.id, p.name.as_str()))
            .collect()
    }

    /// Names by pairing-engine id, for sentences that name players.
    pub fn name_of(&self) -> impl Fn(PlayerId) -> Option<String> + '_ {
        |id| {
            self.players
                .iter()
                .find(|p| pid(p.id) == id)
                .map(|p| p.name.clone())
        }
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
    pub fn round(&self, n: RoundNo, drafts: bool) -> Result<Round, crate::db::DbError> {
        match self.rounds.iter().find(|r| r.number == n) {
            Some(r) if drafts || r.is_published() => Ok(r.clone()),
            Some(_) => Err(crate::db::DbError::Refused(Refusal::Unpublished {
                round: n.0,
            })),
            None => Err(crate::db::DbError::Refused(Refusal::NotFound(Thing::Round))),
        }
    }

    /// Why round `n` cannot be undone, or `None` when it can (the rule is
    /// [`crate::rounds::check_undo`]), with the last round's number that
    /// the round page words it with.
    pub fn undo_blocker(&self, n: RoundNo) -> Option<(crate::rounds::Refused, RoundNo)> {
        let last = self.rounds.last()?;
        crate::rounds::check_undo(n.0, Some(last.number.0), self.results_in(last))
            .err()
            .map(|r| (r, last.number))
    }

    /// Whether round `n`'s results can be cleared, as far as the loaded
    /// rounds tell (the records of tiebreak games are asked on clearing).
    pub fn can_clear_results(&self, n: RoundNo) -> bool {
        self.rounds.last().is_some_and(|r| {
            crate::rounds::check_clear(n.0, Some(r.number.0), self.results_in(r), None).is_ok()
        })
    }

    /// Games of `round` that have a result (the other side of
    /// [`Self::missing_results`]).
    pub fn results_in(&self, round: &Round) -> usize {
        self.pairings_of(round)
            .iter()
            .flat_map(|p| self.games_of(p.id))
            .filter(|g| g.result.is_some())
            .count()
    }

    /// Published rounds, in order.
    pub fn published(&self) -> Vec<&Round> {
        self.rounds.iter().filter(|r| r.is_published()).collect()
    }
}

/// The time as the database stores it (UTC, without zone).
pub fn now() -> chrono::NaiveDateTime {
    crate::db::now()
}

/// Whether the database answers (`/healthz`).
pub fn ping(conn: &mut crate::db::DbConnection) -> Result<(), crate::db::DbError> {
    crate::db::ping(conn)
}

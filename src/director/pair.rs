//! Pairing a round: the use case behind the "Pair round N" button and
//! `POST /api/v1/tournaments/{id}/rounds`.

use crate::refusal::Refusal;
use std::collections::HashMap;

use chrono::NaiveDate;

use crate::conflict::Conflict;
use crate::db::players::Player;
use crate::db::rounds::{self, Plan, Planned, Round};
use crate::db::users::User;
use crate::db::{tournaments, DbConnection, DbError};
use crate::pairing::avoidance::Ties;
use crate::pairing::round_robin::{self, RoundRobinInput};
use crate::pairing::swiss::{self, RoundEntry, Status, SwissInput, SwissPlayer};
use crate::pairing::{ForbiddenPair, PlayerId, Waiver};
use crate::rounds::NotReady;
use crate::tournament::ByeKind;
use crate::tournament::System;

use super::{pid, DirectorError, TournamentData};
use crate::ids::{EntryId, RoundNo, TournamentId};

/// What to do with the round once paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Then {
    /// Keep it as a draft the referee checks (and may swap) before
    /// publishing.
    Draft,
    /// Publish it at once, in the same transaction (a script's round).
    Publish,
}

impl From<DirectorError> for DbError {
    fn from(e: DirectorError) -> DbError {
        match e {
            DirectorError::NotReady(n) => DbError::Refused(Refusal::NotReady(n)),
            DirectorError::Settings(e) => DbError::from(e),
            DirectorError::Pairing(error) => {
                DbError::Refused(Refusal::Conflict(Conflict::NoPairing {
                    error,
                    names: Default::default(),
                    round_robin: false,
                }))
            }
        }
    }
}

/// A round just paired and stored, with the tournament it was paired from.
#[derive(Debug, Clone)]
pub struct Paired {
    pub round: Round,
    /// The tournament as loaded for the pairing, with the new round, its
    /// pairings and its games added as stored: what a response showing the
    /// round reads, without loading the event again. (Its revision is the
    /// one the pairing was made from.)
    pub data: TournamentData,
}

/// Pairs the next round of tournament `tid` and stores it.
///
/// The engines run outside any transaction (a big Swiss takes a while and
/// must not hold the database); the round is then stored, and published if
/// asked, in one transaction that first checks nothing changed meanwhile, so
/// a pairing never rests on results that were edited while it was made.
/// The round is played on `played_on`, or on the day it is paired.
pub fn pair_next(
    conn: &mut DbConnection,
    tid: TournamentId,
    then: Then,
    played_on: Option<NaiveDate>,
    by: &User,
) -> Result<Paired, DbError> {
    let data = super::load(conn, tid)?;
    pair_loaded(conn, data, then, played_on, by)
}

/// As [`pair_next`] for a tournament already loaded.
pub fn pair_loaded(
    conn: &mut DbConnection,
    mut data: TournamentData,
    then: Then,
    played_on: Option<NaiveDate>,
    by: &User,
) -> Result<Paired, DbError> {
    let (number, planned) = data.pair_next().map_err(|e| match e {
        DirectorError::Pairing(error) => {
            DbError::Refused(Refusal::Conflict(data.no_pairing(error)))
        }
        other => DbError::from(other),
    })?;
    let t = &data.tournament;
    let fixed = (number == RoundNo::FIRST && t.rounds.is_none())
        .then(|| data.total_rounds())
        .transpose()
        .map_err(DbError::from)?;
    let (round, pairings, games) = super::commit(conn, Some(by.id), |w| {
        if tournaments::revision(w.conn(), t.id)? != t.revision {
            return Err(crate::rounds::Refused::ChangedWhilePairing.into());
        }
        if let Some(total) = fixed {
            // The field decided the rounds: fixed now, with the round that
            // rests on them.
            tournaments::fix_rounds(w, t.id, total)?;
        }
        let mut round = rounds::create(w, t.id, number, &planned, t.games_per_pairing, played_on)?;
        if then == Then::Publish {
            rounds::publish(w, t.id, number)?;
            round = rounds::find(w.conn(), t.id, number)?;
        }
        let (pairings, games) = rounds::of_round(w.conn(), &round)?;
        Ok((round, pairings, games))
    })?;
    if fixed.is_some() {
        data.tournament.rounds = fixed;
    }
    // The new round's ids are the highest, so appending keeps the sort by
    // round and by pairing that lookups rely on.
    data.rounds.push(round.clone());
    data.pairings.extend(pairings);
    data.games.extend(games);
    Ok(Paired { round, data })
}

/// Building the engines' inputs from what is stored, and storing their answer.
impl TournamentData {
    /// Why no pairing exists, with the names of the players (the engines
    /// speak of ids) the referee reads it with.
    pub fn no_pairing(&self, error: crate::pairing::PairingError) -> Conflict {
        let round_robin = matches!(
            self.tournament.system,
            System::RoundRobin | System::TeamLeague
        );
        let names = self
            .players
            .iter()
            .map(|p| (super::pid(p.id), p.name.clone()))
            .collect();
        Conflict::NoPairing {
            error,
            names,
            round_robin,
        }
    }

    /// The round each player joined: 1 plus the rounds paired before they were entered.
    pub(super) fn entered_round(&self, p: &Player) -> u32 {
        1 + self
            .rounds
            .iter()
            .filter(|r| r.created_at < p.created_at)
            .count() as u32
    }

    /// Seeded players first by seed, then the others by rating, as the
    /// Swiss engine orders by rating: a seed becomes a rating above all.
    pub(super) fn ordering_rating(p: &Player) -> Option<i32> {
        match p.seed {
            Some(s) => Some(1_000_000 - s),
            None => p.rating,
        }
    }

    /// What the Swiss engine is given to pair round `next` (also what the
    /// TRF export writes).
    pub fn swiss_input(&self, next: RoundNo) -> SwissInput {
        let (forbidden, waivers) = self.kept_apart(Some(next));
        SwissInput {
            round: next.0 as u32,
            total_rounds: self.total_rounds().unwrap_or(next.0) as u32,
            rules: self.tournament.rules,
            players: self.swiss_players(next.0 as u32),
            forbidden,
            waivers,
        }
    }

    pub(super) fn swiss_players(&self, round: u32) -> Vec<SwissPlayer> {
        let done: Vec<&Round> = self
            .rounds
            .iter()
            .filter(|r| (r.number.0 as u32) < round)
            .collect();
        let scoring = self.scoring();
        let seats: Vec<_> = done.iter().map(|r| self.seats_of(r)).collect();
        self.players
            .iter()
            .map(|p| {
                let history = seats
                    .iter()
                    .map(|s| {
                        let o = self.outcome_at(p.id, s.get(&p.id).copied());
                        let points = scoring.round_score(&o);
                        let (kind, opponent) = o.entry();
                        RoundEntry {
                            kind,
                            opponent,
                            points,
                        }
                    })
                    .collect();
                let status = if p.withdrawn_from_round.is_some_and(|w| w.0 as u32 <= round) {
                    Status::Withdrawn
                } else if self
                    .byes
                    .iter()
                    .any(|b| b.player_id == p.id && b.round.0 as u32 == round)
                {
                    Status::RequestedBye
                } else {
                    Status::Active
                };
                SwissPlayer {
                    id: pid(p.id),
                    name: p.name.clone(),
                    rating: Self::ordering_rating(p),
                    club: Some(p.club.clone()).filter(|c| !c.is_empty()),
                    team: None,
                    relatives: self.relatives_of(p.id),
                    entered_round: self.entered_round(p),
                    history,
                    status,
                }
            })
            .collect()
    }

    pub(super) fn relatives_of(&self, id: EntryId) -> Vec<PlayerId> {
        self.relations
            .iter()
            .filter_map(|r| {
                if r.a == id {
                    Some(pid(r.b))
                } else if r.b == id {
                    Some(pid(r.a))
                } else {
                    None
                }
            })
            .collect()
    }

    /// The referee's kept-apart pairs as the engines take them: every ban
    /// is a forbidden pair, and a waived one is a waiver as well, so that the
    /// pairing relying on it names the waiver and its reason. With `round`,
    /// only waivers of bans covering that round (a waiver lifts every rule
    /// for its pair, so it must not reach rounds its ban does not cover).
    pub(super) fn kept_apart(&self, round: Option<RoundNo>) -> (Vec<ForbiddenPair>, Vec<Waiver>) {
        let forbidden = self
            .forbidden
            .iter()
            .map(|f| ForbiddenPair {
                a: pid(f.a),
                b: pid(f.b),
                from_round: f.from_round.map(|n| n as u32),
                to_round: f.to_round.map(|n| n as u32),
            })
            .collect();
        let waivers = self
            .forbidden
            .iter()
            .filter(|f| f.waived && round.is_none_or(|n| f.covers(n)))
            .map(|f| Waiver {
                a: pid(f.a),
                b: pid(f.b),
                reason: f.note.clone(),
            })
            .collect();
        (forbidden, waivers)
    }

    /// Pairing numbers as the Swiss engine gives them.
    pub fn pairing_numbers(&self) -> HashMap<PlayerId, u32> {
        swiss::pairing_numbers(&self.swiss_players(1))
    }

    pub(super) fn ties(&self, active: &[&Player]) -> Vec<Ties> {
        active
            .iter()
            .map(|p| Ties {
                id: pid(p.id),
                club: Some(p.club.clone()).filter(|c| !c.is_empty()),
                team: None,
                relatives: self.relatives_of(p.id),
            })
            .collect()
    }

    /// Players in pairing-number order.
    pub(super) fn by_number(&self) -> Vec<&Player> {
        let numbers = self.pairing_numbers();
        let mut list: Vec<&Player> = self.players.iter().collect();
        list.sort_by_key(|p| numbers.get(&pid(p.id)).copied().unwrap_or(u32::MAX));
        list
    }

    /// Pairs the next round, or says why it cannot be paired yet.
    pub fn pair_next(&self) -> Result<(RoundNo, Plan), DirectorError> {
        let next = self
            .rounds
            .last()
            .map_or(RoundNo::FIRST, |r| r.number.next());
        if let Some(last) = self.rounds.last() {
            if !last.is_published() {
                return Err(DirectorError::NotReady(NotReady::Unpublished {
                    round: last.number.0,
                }));
            }
            let missing = self.missing_results(last);
            if missing > 0 {
                return Err(DirectorError::NotReady(NotReady::MissingResults {
                    round: last.number.0,
                    missing,
                }));
            }
        }
        if !self.is_team_event()
            && (self.tournament.system != System::Knockout || next == RoundNo::FIRST)
        {
            self.enough_players(next)?;
        }
        let total = self.total_rounds().map_err(DirectorError::Settings)?;
        if next.0 > total && self.tournament.system != System::Knockout {
            return Err(DirectorError::NotReady(NotReady::AllPaired { total }));
        }
        let planned = match self.tournament.system {
            System::Swiss => {
                let input = self.swiss_input(next);
                let out = swiss::pair_round(&input)?;
                let mut planned: Vec<Planned> = out
                    .pairs
                    .iter()
                    .map(|p| {
                        Planned::pairing(
                            EntryId::of_engine(p.first),
                            EntryId::of_engine(p.second),
                            p.explanation.clone(),
                        )
                    })
                    .collect();
                if let Some(b) = &out.bye {
                    planned.push(Planned::bye(
                        EntryId::of_engine(b.player),
                        ByeKind::Allocated,
                        Some(b.explanation.clone()),
                    ));
                }
                planned.extend(self.requested_byes_planned(next));
                planned
            }
            System::RoundRobin => {
                let players = self.by_number();
                let cycle = crate::tournament::cycle_rounds(players.len());
                let (forbidden, waivers) = self.kept_apart(None);
                // The rounds paired so far, so that the schedule goes on
                // from the table they follow.
                let played = self
                    .rounds
                    .iter()
                    .filter(|r| r.number < next)
                    .map(|r| {
                        let seats = self.seats_of(r);
                        players
                            .iter()
                            .map(|p| {
                                let o = self.outcome_at(p.id, seats.get(&p.id).copied());
                                (pid(p.id), o.entry().1)
                            })
                            .collect()
                    })
                    .collect();
                let input = RoundRobinInput {
                    players: self.ties(&players),
                    double: total > cycle,
                    rules: self.tournament.rules,
                    forbidden,
                    waivers,
                    played,
                };
                let schedule = round_robin::schedule(&input)?;
                let round = schedule
                    .rounds
                    .iter()
                    .find(|r| r.round == next.0 as u32)
                    .ok_or({
                        DirectorError::NotReady(NotReady::NoSuchRound {
                            round: next.0,
                            league: false,
                        })
                    })?;
                let mut planned: Vec<Planned> = round
                    .pairs
                    .iter()
                    .map(|p| {
                        Planned::pairing(
                            EntryId::of_engine(p.first),
                            EntryId::of_engine(p.second),
                            p.explanation.clone(),
                        )
                    })
                    .collect();
                if let Some(b) = round.bye {
                    planned.push(Planned::bye(
                        EntryId::of_engine(b),
                        ByeKind::Allocated,
                        None,
                    ));
                }
                planned
            }
            System::Knockout => self.knockout_next(next)?,
            System::TeamLeague | System::TeamSwiss => {
                return Ok((next, Plan::Matches(self.pair_teams(next)?)))
            }
        };
        Ok((next, Plan::Pairings(planned)))
    }

    /// A round needs two players to pair: refuses, with a sentence, a
    /// round with none or one.
    fn enough_players(&self, round: RoundNo) -> Result<(), DirectorError> {
        let active: Vec<&Player> = self
            .players
            .iter()
            .filter(|p| p.withdrawn_from_round.is_none_or(|w| w > round))
            .filter(|p| {
                !self
                    .byes
                    .iter()
                    .any(|b| b.player_id == p.id && b.round == round)
            })
            .collect();
        match active.as_slice() {
            [] if self.players.is_empty() => Err(DirectorError::NotReady(NotReady::NoPlayers {
                round: round.0,
            })),
            [] => Err(DirectorError::NotReady(NotReady::NoneLeft {
                round: round.0,
            })),
            [one] => Err(DirectorError::NotReady(NotReady::OnlyOne {
                round: round.0,
                name: one.name.clone(),
            })),
            _ => Ok(()),
        }
    }

    pub(super) fn requested_byes_planned(&self, round: RoundNo) -> Vec<Planned> {
        self.byes
            .iter()
            .filter(|b| b.round == round)
            .filter(|b| {
                self.players.iter().any(|p| {
                    p.id == b.player_id && p.withdrawn_from_round.is_none_or(|w| w > round)
                })
            })
            .map(|b| {
                let kind = if b.half { ByeKind::Half } else { ByeKind::Zero };
                Planned::bye(b.player_id, kind, None)
            })
            .collect()
    }
}

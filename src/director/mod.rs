//! What the tournament director does between the database and the core:
//! turn the stored rounds into the inputs of the pairing engines and of the
//! standings, and turn the engines' answers into pairings to store.
//!
//! `TournamentData` works on data already loaded; the use cases in the
//! submodules own their transactions.

pub mod audit;
mod load;
pub mod pair;
pub mod results;

pub use load::load;

use std::collections::HashMap;

use crate::db::forbidden::Forbidden;
use crate::db::players::{Player, Relation};
use crate::db::rounds::{Game, Pairing, Planned, RequestedBye, Round};
use crate::db::tournaments::Tournament;
use crate::pairing::avoidance::Ties;
use crate::pairing::explain::Explanation;
use crate::pairing::knockout::{self, KnockoutInput, KoResult, SetScore};
use crate::pairing::round_robin::{self, RoundRobinInput};
use crate::pairing::swiss::{self, EntryKind, RoundEntry, Status, SwissInput, SwissPlayer};
use crate::pairing::{ForbiddenPair, PairingError, PlayerId, Waiver};
use crate::results::tally;
use crate::standings::{self, Entrant, Outcome, Scoring, Standing};
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
}

/// Where a round stands, as the tournament page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundState {
    pub number: i32,
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
}

/// What the referee does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NextStep {
    Publish(i32),
    EnterResults { round: i32, missing: usize },
    Pair(i32),
    Finished,
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

/// A round's outcome as the Swiss engine records it in a player's history.
fn entry_kind(o: &Outcome) -> (EntryKind, Option<PlayerId>) {
    match *o {
        Outcome::Played { opponent, .. } => (EntryKind::Played, Some(opponent)),
        Outcome::ForfeitWin { opponent } => (EntryKind::ForfeitWin, Some(opponent)),
        Outcome::ForfeitLoss { opponent } => (EntryKind::ForfeitLoss, Some(opponent)),
        Outcome::AllocatedBye => (EntryKind::AllocatedBye, None),
        Outcome::RequestedBye { .. } => (EntryKind::RequestedBye, None),
        Outcome::Absent => (EntryKind::Absent, None),
    }
}

impl TournamentData {
    pub fn scoring(&self) -> Scoring {
        Scoring {
            games_per_pairing: self.tournament.games_per_pairing as u32,
            ranking: self.tournament.ranking,
            bye: self.tournament.bye_value,
        }
    }

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
            return NextStep::Pair(1);
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
        let knockout_over =
            self.tournament.system == System::Knockout && self.pairings_of(last).len() == 1;
        if knockout_over
            || (self.tournament.system != System::Knockout && last.number >= self.tournament.rounds)
        {
            return NextStep::Finished;
        }
        NextStep::Pair(last.number + 1)
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

    /// What `player` got out of `round`, counting the main games only (a
    /// knock-out's tiebreak games decide who goes through, not the score).
    pub fn outcome(&self, player: i32, round: &Round) -> Outcome {
        for p in self.pairings_of(round) {
            let first = p.first_player_id == Some(player);
            let second = p.second_player_id == Some(player);
            if !first && !second {
                continue;
            }
            let Some(other) = (if first {
                p.second_player_id
            } else {
                p.first_player_id
            }) else {
                return match p.bye.as_deref() {
                    Some("half") => Outcome::RequestedBye { half: true },
                    Some("zero") => Outcome::RequestedBye { half: false },
                    _ => Outcome::AllocatedBye,
                };
            };
            let games = self.games_of(p.id);
            let main: Vec<&&Game> = games.iter().filter(|g| !g.tiebreak).collect();
            let t = tally(
                main.iter()
                    .map(|g| (g.starter_player_id == p.first_player_id, g.result)),
            );
            if t.decided == 0 {
                return Outcome::Absent;
            }
            let (mine, theirs, won) = if first {
                (t.first, t.second, t.first_wins)
            } else {
                (t.second, t.first, t.second_wins)
            };
            if t.forfeits == t.decided && t.decided as usize == main.len() {
                if mine > theirs {
                    return Outcome::ForfeitWin {
                        opponent: pid(other),
                    };
                }
                if theirs > mine {
                    return Outcome::ForfeitLoss {
                        opponent: pid(other),
                    };
                }
            }
            return Outcome::Played {
                opponent: pid(other),
                points: mine,
                opponent_points: theirs,
                games_won: won,
            };
        }
        Outcome::Absent
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

    /// The players as the standings see them, over published rounds.
    pub fn entrants(&self) -> Vec<Entrant> {
        let numbers = self.pairing_numbers();
        let published = self.published();
        self.players
            .iter()
            .map(|p| Entrant {
                id: pid(p.id),
                name: p.name.clone(),
                order: numbers.get(&pid(p.id)).copied().unwrap_or(u32::MAX),
                rounds: published.iter().map(|r| self.outcome(p.id, r)).collect(),
            })
            .collect()
    }

    pub fn standings(&self) -> Vec<Standing> {
        standings::compute(
            &self.entrants(),
            &self.scoring(),
            &self.tournament.tiebreaks,
        )
    }

    /// The standings as the public page shows them: the active players
    /// ranked among themselves, then the withdrawn ones (unranked, in the
    /// order their points give).
    pub fn standings_split(&self) -> (Vec<Standing>, Vec<Standing>) {
        let withdrawn: std::collections::HashSet<u32> = self
            .players
            .iter()
            .filter(|p| p.withdrawn_from_round.is_some())
            .map(|p| pid(p.id))
            .collect();
        let (mut active, gone): (Vec<Standing>, Vec<Standing>) = self
            .standings()
            .into_iter()
            .partition(|s| !withdrawn.contains(&s.id));
        standings::rerank(&mut active, &self.tournament.tiebreaks);
        (active, gone)
    }

    /// Results still missing in published rounds: the standings are
    /// provisional until there are none.
    pub fn provisional(&self) -> usize {
        self.published()
            .iter()
            .map(|r| self.missing_results(r))
            .sum()
    }

    /// The round each player joined: 1 plus the rounds paired before they were entered.
    fn entered_round(&self, p: &Player) -> u32 {
        1 + self
            .rounds
            .iter()
            .filter(|r| r.created_at < p.created_at)
            .count() as u32
    }

    /// Seeded players first by seed, then the others by rating, as the
    /// Swiss engine orders by rating: a seed becomes a rating above all.
    fn ordering_rating(p: &Player) -> Option<i32> {
        match p.seed {
            Some(s) => Some(1_000_000 - s),
            None => p.rating,
        }
    }

    fn swiss_players(&self, round: u32) -> Vec<SwissPlayer> {
        let done: Vec<&Round> = self
            .rounds
            .iter()
            .filter(|r| (r.number as u32) < round)
            .collect();
        let scoring = self.scoring();
        self.players
            .iter()
            .map(|p| {
                let history = done
                    .iter()
                    .map(|r| {
                        let o = self.outcome(p.id, r);
                        let points = scoring.round_score(&o);
                        let (kind, opponent) = entry_kind(&o);
                        RoundEntry {
                            kind,
                            opponent,
                            points,
                        }
                    })
                    .collect();
                let status = if p.withdrawn_from_round.is_some_and(|w| w as u32 <= round) {
                    Status::Withdrawn
                } else if self
                    .byes
                    .iter()
                    .any(|b| b.player_id == p.id && b.round as u32 == round)
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

    fn relatives_of(&self, id: i32) -> Vec<PlayerId> {
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
    fn kept_apart(&self, round: Option<i32>) -> (Vec<ForbiddenPair>, Vec<Waiver>) {
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

    fn ties(&self, active: &[&Player]) -> Vec<Ties> {
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
    fn by_number(&self) -> Vec<&Player> {
        let numbers = self.pairing_numbers();
        let mut list: Vec<&Player> = self.players.iter().collect();
        list.sort_by_key(|p| numbers.get(&pid(p.id)).copied().unwrap_or(u32::MAX));
        list
    }

    /// Pairs the next round, or says why it cannot be paired yet.
    pub fn pair_next(&self) -> Result<(i32, Vec<Planned>), DirectorError> {
        let next = self.rounds.last().map_or(1, |r| r.number + 1);
        if let Some(last) = self.rounds.last() {
            if !last.is_published() {
                return Err(DirectorError::NotReady(format!(
                    "round {} is not published yet: publish or undo it first",
                    last.number
                )));
            }
            let missing = self.missing_results(last);
            if missing > 0 {
                return Err(DirectorError::NotReady(format!(
                    "round {} still has {missing} games without a result",
                    last.number
                )));
            }
        }
        if next > self.tournament.rounds && self.tournament.system != System::Knockout {
            return Err(DirectorError::NotReady(format!(
                "all {} rounds have been paired",
                self.tournament.rounds
            )));
        }
        if self.tournament.system != System::Knockout || next == 1 {
            self.enough_players(next)?;
        }
        let explained = |e: &Explanation| serde_json::to_string(e).unwrap_or_default();
        let planned = match self.tournament.system {
            System::Swiss => {
                let (forbidden, waivers) = self.kept_apart(Some(next));
                let input = SwissInput {
                    round: next as u32,
                    total_rounds: self.tournament.rounds as u32,
                    rule_set: self.tournament.rule_set,
                    players: self.swiss_players(next as u32),
                    forbidden,
                    waivers,
                };
                let out = swiss::pair_round(&input)?;
                let mut planned: Vec<Planned> = out
                    .pairs
                    .iter()
                    .map(|p| Planned {
                        first: p.first as i32,
                        second: Some(p.second as i32),
                        bye: None,
                        explanation: explained(&p.explanation),
                    })
                    .collect();
                if let Some(b) = &out.bye {
                    planned.push(Planned {
                        first: b.player as i32,
                        second: None,
                        bye: Some("allocated"),
                        explanation: explained(&b.explanation),
                    });
                }
                planned.extend(self.requested_byes_planned(next));
                planned
            }
            System::RoundRobin => {
                let players = self.by_number();
                let games_per_cycle = if players.len() % 2 == 0 {
                    players.len() - 1
                } else {
                    players.len()
                };
                let (forbidden, waivers) = self.kept_apart(None);
                let input = RoundRobinInput {
                    players: self.ties(&players),
                    double: (self.tournament.rounds as usize) > games_per_cycle,
                    rule_set: self.tournament.rule_set,
                    forbidden,
                    waivers,
                };
                let schedule = round_robin::schedule(&input)?;
                let round = schedule
                    .rounds
                    .iter()
                    .find(|r| r.round == next as u32)
                    .ok_or_else(|| {
                        DirectorError::NotReady(format!("the round robin has no round {next}"))
                    })?;
                let mut planned: Vec<Planned> = round
                    .pairs
                    .iter()
                    .map(|p| Planned {
                        first: p.first as i32,
                        second: Some(p.second as i32),
                        bye: None,
                        explanation: explained(&p.explanation),
                    })
                    .collect();
                if let Some(b) = round.bye {
                    planned.push(Planned {
                        first: b as i32,
                        second: None,
                        bye: Some("allocated"),
                        explanation: String::new(),
                    });
                }
                planned
            }
            System::Knockout => self.knockout_next(next)?,
            System::TeamLeague | System::TeamSwiss => {
                return Err(DirectorError::NotReady(
                    "team events are paired by team, which this page does not do yet".into(),
                ))
            }
        };
        Ok((next, planned))
    }

    /// A round needs two players to pair: refuses, with a sentence, a
    /// round with none or one.
    fn enough_players(&self, round: i32) -> Result<(), DirectorError> {
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
            [] if self.players.is_empty() => Err(DirectorError::NotReady(format!(
                "round {round} cannot be paired: the tournament has no players yet; add at least two"
            ))),
            [] => Err(DirectorError::NotReady(format!(
                "round {round} cannot be paired: no player is left to play it (all withdrawn or on a bye)"
            ))),
            [one] => Err(DirectorError::NotReady(format!(
                "round {round} cannot be paired: {} is the only player to play it; add at least one more",
                one.name
            ))),
            _ => Ok(()),
        }
    }

    fn requested_byes_planned(&self, round: i32) -> Vec<Planned> {
        self.byes
            .iter()
            .filter(|b| b.round == round)
            .filter(|b| {
                self.players.iter().any(|p| {
                    p.id == b.player_id && p.withdrawn_from_round.is_none_or(|w| w > round)
                })
            })
            .map(|b| Planned {
                first: b.player_id,
                second: None,
                bye: Some(if b.half { "half" } else { "zero" }),
                explanation: String::new(),
            })
            .collect()
    }

    /// Who went through a knock-out pairing, if it is decided.
    pub fn knockout_winner(&self, p: &Pairing) -> Option<i32> {
        let (first, second) = match (p.first_player_id, p.second_player_id) {
            (Some(f), None) => return Some(f),
            (Some(f), Some(s)) => (f, s),
            _ => return None,
        };
        match knockout::tiebreak_set(pid(first), pid(second), &self.set_scores(p)) {
            knockout::Outcome::Winner(w) => Some(w as i32),
            knockout::Outcome::Tiebreak(_) => None,
        }
    }

    /// The main mini-match and each complete tiebreak set, as scores.
    pub fn set_scores(&self, p: &Pairing) -> Vec<SetScore> {
        let games = self.games_of(p.id);
        let main: Vec<&&Game> = games.iter().filter(|g| !g.tiebreak).collect();
        let tb: Vec<&&Game> = games.iter().filter(|g| g.tiebreak).collect();
        let score = |gs: &[&&Game]| {
            let t = tally(
                gs.iter()
                    .map(|g| (g.starter_player_id == p.first_player_id, g.result)),
            );
            (
                t.decided as usize == gs.len(),
                SetScore {
                    first: t.first,
                    second: t.second,
                },
            )
        };
        let mut sets = Vec::new();
        let (done, s) = score(&main);
        if !done {
            return sets;
        }
        sets.push(s);
        for chunk in tb.chunks(2) {
            let (done, s) = score(chunk);
            if !done || chunk.len() < 2 {
                break;
            }
            sets.push(s);
        }
        sets
    }

    fn knockout_next(&self, next: i32) -> Result<Vec<Planned>, DirectorError> {
        let planned = if next == 1 {
            let players: Vec<&Player> = self
                .by_number()
                .into_iter()
                .filter(|p| p.withdrawn_from_round.is_none())
                .collect();
            let (forbidden, waivers) = self.kept_apart(Some(1));
            let bracket = knockout::bracket(&KnockoutInput {
                seeds: self.ties(&players),
                rule_set: self.tournament.rule_set,
                forbidden,
                waivers,
            })?;
            bracket.first_round
        } else {
            let last = self
                .rounds
                .last()
                .ok_or_else(|| DirectorError::NotReady("no round yet".into()))?;
            let mut results = Vec::new();
            for p in self.pairings_of(last) {
                let winner = self.knockout_winner(p).ok_or_else(|| {
                    DirectorError::NotReady(format!(
                        "table {} of round {} is still level",
                        p.table_no, last.number
                    ))
                })?;
                results.push(KoResult {
                    slot: p.table_no as u32,
                    winner: pid(winner),
                });
            }
            if results.len() == 1 {
                return Err(DirectorError::NotReady(
                    "the final has been played: the knock-out is over".into(),
                ));
            }
            knockout::next_round(&results)?
        };
        Ok(planned
            .into_iter()
            .map(|m| Planned {
                first: m.first as i32,
                second: m.second.map(|s| s as i32),
                bye: if m.second.is_none() {
                    Some("allocated")
                } else {
                    None
                },
                explanation: serde_json::to_string(&m.explanation).unwrap_or_default(),
            })
            .collect())
    }

    /// For a knock-out pairing left level after all its games: the next
    /// tiebreak set's games as (number, starter).
    pub fn tiebreak_games_needed(&self, p: &Pairing) -> Option<Vec<(i32, i32)>> {
        if self.tournament.system != System::Knockout {
            return None;
        }
        let (first, second) = (p.first_player_id?, p.second_player_id?);
        let games = self.games_of(p.id);
        if games.iter().any(|g| g.result.is_none()) {
            return None;
        }
        match knockout::tiebreak_set(pid(first), pid(second), &self.set_scores(p)) {
            knockout::Outcome::Winner(_) => None,
            knockout::Outcome::Tiebreak(set) => {
                let next = games.iter().map(|g| g.number).max().unwrap_or(0) + 1;
                Some(
                    set.games
                        .iter()
                        .enumerate()
                        .map(|(i, g)| (next + i as i32, g.starter as i32))
                        .collect(),
                )
            }
        }
    }
}

impl TournamentData {
    /// Every rule a hand swap of `a` and `b` in `round` would break, as
    /// sentences a referee reads before confirming.
    pub fn swap_warnings(&self, round: &Round, a: i32, b: i32) -> Vec<String> {
        let name = |id: i32| {
            self.players
                .iter()
                .find(|p| p.id == id)
                .map_or_else(|| format!("player {id}"), |p| p.name.clone())
        };
        let swapped = |x: Option<i32>| match x {
            Some(x) if x == a => Some(b),
            Some(x) if x == b => Some(a),
            other => other,
        };
        let players: Vec<&Player> = self.players.iter().collect();
        let (forbidden, waivers) = self.kept_apart(Some(round.number));
        let avoid = crate::pairing::avoidance::Avoidance::new(
            self.tournament.rule_set,
            self.tournament.rounds as u32,
            &self.ties(&players),
            &forbidden,
            &waivers,
        );
        let earlier: Vec<&Round> = self
            .rounds
            .iter()
            .filter(|r| r.number < round.number)
            .collect();
        let met = |x: i32, y: i32| {
            earlier.iter().any(|r| {
                self.pairings_of(r).iter().any(|p| {
                    (p.first_player_id == Some(x) && p.second_player_id == Some(y))
                        || (p.first_player_id == Some(y) && p.second_player_id == Some(x))
                })
            })
        };
        // The Swiss engine's notion of a used bye (C2): the allocated bye or
        // a forfeit win, read from the same outcomes its history is built of.
        let used_bye = |x: i32| {
            earlier.iter().find_map(|r| {
                let (kind, _) = entry_kind(&self.outcome(x, r));
                kind.uses_bye().then_some((r.number, kind))
            })
        };
        let mut out = Vec::new();
        for p in self.pairings_of(round) {
            let (f, s) = (swapped(p.first_player_id), swapped(p.second_player_id));
            if (f, s) == (p.first_player_id, p.second_player_id) {
                continue;
            }
            match (f, s) {
                (Some(x), Some(y)) => {
                    if met(x, y) {
                        out.push(format!(
                            "{} and {} have met before: a rematch (C1)",
                            name(x),
                            name(y)
                        ));
                    }
                    if let Some(r) = avoid.forbids(pid(x), pid(y), round.number as u32) {
                        out.push(format!("{} and {}: {r}", name(x), name(y)));
                    } else if let Some(r) = avoid.prefers_apart(pid(x), pid(y), round.number as u32)
                    {
                        out.push(format!("{} and {}: {r}", name(x), name(y)));
                    }
                }
                (Some(x), None) if p.bye.as_deref() == Some("allocated") => match used_bye(x) {
                    Some((n, EntryKind::ForfeitWin)) => out.push(format!(
                        "{} already won by forfeit in round {n}, which counts as a used bye: \
                             a second bye (C2)",
                        name(x)
                    )),
                    Some((n, _)) => out.push(format!(
                        "{} already had the pairing-allocated bye in round {n}: a second bye (C2)",
                        name(x)
                    )),
                    None => {}
                },
                _ => {}
            }
        }
        out
    }
}

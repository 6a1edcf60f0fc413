//! Knock-out brackets: who went through, the tiebreak sets of OGR 9.4, the
//! next round of the bracket.

use crate::db::players::Player;
use crate::db::rounds::{Game, Pairing, Planned};
use crate::pairing::knockout::{self, KnockoutInput, KoResult, SetScore};
use crate::results::tally;
use crate::rounds::NotReady;
use crate::tournament::ByeKind;
use crate::tournament::System;

use super::{pid, DirectorError, TournamentData};
use crate::ids::{EntryId, GameId, RoundNo};

impl TournamentData {
    /// Who went through a knock-out pairing, if it is decided.
    pub fn knockout_winner(&self, p: &Pairing) -> Option<EntryId> {
        let (first, second) = match (p.first_player_id, p.second_player_id) {
            (Some(f), None) => return Some(f),
            (Some(f), Some(s)) => (f, s),
            _ => return None,
        };
        match knockout::tiebreak_set(pid(first), pid(second), &self.set_scores(p)) {
            knockout::Outcome::Winner(w) => Some(EntryId::of_engine(w)),
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

    pub(super) fn knockout_next(&self, next: RoundNo) -> Result<Vec<Planned>, DirectorError> {
        let planned = if next == RoundNo::FIRST {
            let players: Vec<&Player> = self
                .by_number()
                .into_iter()
                .filter(|p| p.withdrawn_from_round.is_none())
                .collect();
            let (forbidden, waivers) = self.kept_apart(Some(RoundNo::FIRST));
            let bracket = knockout::bracket(&KnockoutInput {
                seeds: self.ties(&players),
                rules: self.tournament.rules,
                forbidden,
                waivers,
            })?;
            bracket.first_round
        } else {
            let last = self
                .rounds
                .last()
                .ok_or(DirectorError::NotReady(NotReady::NoRound))?;
            let mut results = Vec::new();
            for p in self.pairings_of(last) {
                let winner = self.knockout_winner(p).ok_or({
                    DirectorError::NotReady(NotReady::Level {
                        table: p.table_no,
                        round: last.number.0,
                    })
                })?;
                results.push(KoResult {
                    slot: p.table_no as u32,
                    winner: pid(winner),
                });
            }
            if results.len() == 1 {
                return Err(DirectorError::NotReady(NotReady::FinalPlayed));
            }
            knockout::next_round(&results)?
        };
        Ok(planned
            .into_iter()
            .map(|m| Planned {
                first: EntryId::of_engine(m.first),
                second: m.second.map(EntryId::of_engine),
                bye: if m.second.is_none() {
                    Some(ByeKind::Allocated)
                } else {
                    None
                },
                explanation: Some(m.explanation.clone()),
            })
            .collect())
    }

    /// For a knock-out pairing: its tiebreak games without a result that its
    /// scores no longer call for (the main games were corrected, or a set
    /// was decided after all), by id.
    pub fn tiebreak_games_not_called_for(&self, p: &Pairing) -> Vec<GameId> {
        if self.tournament.system != System::Knockout {
            return Vec::new();
        }
        let wanted = knockout::tiebreak_games_called_for(&self.set_scores(p));
        self.games_of(p.id)
            .into_iter()
            .filter(|g| g.tiebreak)
            .skip(wanted)
            .filter(|g| g.result.is_none())
            .map(|g| g.id)
            .collect()
    }

    /// For a knock-out pairing left level after all its games: the next
    /// tiebreak set's games as (number, starter).
    pub fn tiebreak_games_needed(&self, p: &Pairing) -> Option<Vec<(i32, EntryId)>> {
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
                        .map(|(i, g)| (next + i as i32, EntryId::of_engine(g.starter)))
                        .collect(),
                )
            }
        }
    }
}

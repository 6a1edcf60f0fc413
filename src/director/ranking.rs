//! The standings: what each player got out of each round, and the ranking
//! the core computes from it.

use std::collections::HashMap;

use crate::db::rounds::{Game, Pairing, Round};
use crate::results::tally;
use crate::standings::{self, Entrant, Outcome, Scoring, Standing};
use crate::tournament::ByeKind;

use super::{pid, TournamentData};
use crate::ids::{EntryId, TeamId};

impl TournamentData {
    pub fn scoring(&self) -> Scoring {
        Scoring {
            games_per_pairing: self.tournament.games_per_pairing as u32,
            ranking: self.tournament.ranking,
            bye: self.tournament.bye_value,
        }
    }

    /// What `player` got out of `round`, counting the main games only (a
    /// knock-out's tiebreak games decide who goes through, not the score).
    pub fn outcome(&self, player: EntryId, round: &Round) -> Outcome {
        let seat = self
            .pairings_of(round)
            .into_iter()
            .find(|p| p.first_player_id == Some(player) || p.second_player_id == Some(player));
        self.outcome_at(player, seat)
    }

    /// The pairings of `round` by the players in them: reading every
    /// player's outcome of a round through this is one pass over the
    /// round, where asking [`Self::outcome`] player by player is a pass
    /// per player (1.7 s of a 10,000-player standings page).
    pub fn seats_of(&self, round: &Round) -> HashMap<EntryId, &Pairing> {
        let mut seats = HashMap::new();
        for p in self.pairings_of(round) {
            for player in [p.first_player_id, p.second_player_id]
                .into_iter()
                .flatten()
            {
                seats.entry(player).or_insert(p);
            }
        }
        seats
    }

    /// What `player` got out of the pairing they sat in (`None`: none).
    pub fn outcome_at(&self, player: EntryId, seat: Option<&Pairing>) -> Outcome {
        let Some(p) = seat else {
            return Outcome::Absent;
        };
        let first = p.first_player_id == Some(player);
        let Some(other) = (if first {
            p.second_player_id
        } else {
            p.first_player_id
        }) else {
            return match p.bye {
                Some(ByeKind::Half) => Outcome::RequestedBye { half: true },
                Some(ByeKind::Zero) => Outcome::RequestedBye { half: false },
                Some(ByeKind::Allocated) | None => Outcome::AllocatedBye,
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
        Outcome::Played {
            opponent: pid(other),
            points: mine,
            opponent_points: theirs,
            games_won: won,
        }
    }

    /// How the standings count: a team event's rounds are matches of four
    /// boards' games.
    pub fn standings_scoring(&self) -> Scoring {
        if self.is_team_event() {
            self.team_scoring()
        } else {
            self.scoring()
        }
    }

    /// Who the standings rank, over published rounds: the players, or in
    /// a team event the teams.
    pub fn entrants(&self) -> Vec<Entrant> {
        if self.is_team_event() {
            return self.team_entrants();
        }
        let numbers = self.pairing_numbers();
        let published = self.published();
        let seats: Vec<HashMap<EntryId, &Pairing>> =
            published.iter().map(|r| self.seats_of(r)).collect();
        self.players
            .iter()
            .map(|p| Entrant {
                id: pid(p.id),
                name: p.name.clone(),
                order: numbers.get(&pid(p.id)).copied().unwrap_or(u32::MAX),
                rounds: seats
                    .iter()
                    .map(|s| self.outcome_at(p.id, s.get(&p.id).copied()))
                    .collect(),
                boards: Vec::new(),
                stage: self.knockout_stage(p.id, &published),
            })
            .collect()
    }

    /// How far `player` got in a knock-out over the `published` rounds
    /// ([`standings::knockout_stage`]); 0 in every other system.
    fn knockout_stage(&self, player: EntryId, published: &[&Round]) -> u32 {
        if self.tournament.system != crate::tournament::System::Knockout {
            return 0;
        }
        let mut through = 0;
        let mut out = false;
        for r in published {
            let Some(p) = self
                .pairings_of(r)
                .into_iter()
                .find(|p| p.first_player_id == Some(player) || p.second_player_id == Some(player))
            else {
                // Not in this round's bracket: out before it.
                out = true;
                continue;
            };
            match self.knockout_winner(p) {
                Some(w) if w == player => through += 1,
                Some(_) => out = true,
                None => {}
            }
        }
        standings::knockout_stage(through, out)
    }

    pub fn standings(&self) -> Vec<Standing> {
        standings::compute(
            &self.entrants(),
            &self.standings_scoring(),
            &self.tournament.tiebreaks,
        )
    }

    /// The standings as the public page shows them: the active players
    /// ranked among themselves, then the withdrawn ones (unranked, in the
    /// order their points give).
    pub fn standings_split(&self) -> (Vec<Standing>, Vec<Standing>) {
        if self.is_team_event() {
            return (self.standings(), Vec::new());
        }
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

    /// The club of a line of the standings (a player's, or a team's).
    pub fn club_of(&self, id: u32) -> &str {
        if self.is_team_event() {
            return self.team(TeamId(id as i32)).map_or("", |t| t.club.as_str());
        }
        self.players
            .iter()
            .find(|p| pid(p.id) == id)
            .map_or("", |p| p.club.as_str())
    }

    /// Results still missing in published rounds: the standings are
    /// provisional until there are none.
    pub fn provisional(&self) -> usize {
        self.published()
            .iter()
            .map(|r| self.missing_results(r))
            .sum()
    }
}

//! Team events (OGR 10): pairing teams, the board pairings of each match,
//! match scores, team standings, and the line-up changes of referees and
//! captains.
//!
//! A match is stored as a pairing row with the two teams and no players;
//! its boards are pairing rows pointing at it (`team_pairing_id`), each
//! with its two players and its games, so that results, the results desk
//! and the players' own pages treat a board exactly like an individual
//! pairing. Match `k` of a round plays on tables `4k-3` to `4k`, one
//! table per board, which is what the results desk's quick entry reads.

use crate::db::audit::Write;
use crate::db::teams::NewTeam;
use crate::refusal::{Refusal, Thing};
use crate::rounds::{NotReady, Refused};
use std::collections::HashMap;

use crate::change::{Action, Change, Entity};
use crate::db::rounds::{Pairing, PlannedMatch, Round};
pub use crate::db::teams::BOARDS;
use crate::db::teams::{self, Actor, Member, Team};
use crate::db::{self, DbConnection, DbError};
use crate::pairing::explain::Explanation;
use crate::pairing::teams::{self as core, Lineup, TeamMatch, TeamScoring, TeamSwissInput};
use crate::pairing::{PlayerId, Points, POINT};
use crate::results::tally;
use crate::standings::{Entrant, Outcome, Scoring};
use crate::tournament::{ByeKind, ByeValue, Ranking, System};

use super::{pid, DirectorError, TournamentData};
use crate::ids::{EntryId, PairingId, RoundNo, TeamId, TournamentId};

/// A team match's score so far, from the first team's side.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MatchScore {
    pub first: Points,
    pub second: Points,
    /// Game points per board, board 1 first: (first team, second team).
    pub boards: Vec<(Points, Points)>,
    /// Games with a result, of all the match's games.
    pub decided: usize,
    pub games: usize,
}

impl MatchScore {
    /// Every game of every board has a result.
    pub fn complete(&self) -> bool {
        self.games > 0 && self.decided == self.games
    }
}

impl TournamentData {
    pub fn is_team_event(&self) -> bool {
        self.tournament.system.is_team()
    }

    pub fn team(&self, id: TeamId) -> Option<&Team> {
        self.teams.iter().find(|t| t.id == id)
    }

    /// The team a player plays for.
    pub fn team_of(&self, player: EntryId) -> Option<&Team> {
        let m = self.members.iter().find(|m| m.player_id == player)?;
        self.team(m.team_id)
    }

    /// A team's roster players in board order.
    pub fn roster(&self, team: TeamId) -> Vec<EntryId> {
        self.members_of(team)
            .filter(|m| !m.substitute)
            .map(|m| m.player_id)
            .collect()
    }

    /// A team's substitutes, in the order they were entered.
    pub fn substitutes(&self, team: TeamId) -> Vec<EntryId> {
        self.members_of(team)
            .filter(|m| m.substitute)
            .map(|m| m.player_id)
            .collect()
    }

    fn members_of(&self, team: TeamId) -> impl Iterator<Item = &Member> {
        self.members.iter().filter(move |m| m.team_id == team)
    }

    /// The team matches of a round (and team byes), by table.
    pub fn matches_of(&self, round: &Round) -> Vec<&Pairing> {
        self.pairings_of(round)
            .into_iter()
            .filter(|p| p.first_team_id.is_some() && p.team_pairing_id.is_none())
            .collect()
    }

    /// The boards of a match, board 1 first.
    pub fn boards_of(&self, round: &Round, match_id: PairingId) -> Vec<&Pairing> {
        let mut list: Vec<&Pairing> = self
            .pairings_of(round)
            .into_iter()
            .filter(|p| p.team_pairing_id == Some(match_id))
            .collect();
        list.sort_by_key(|p| p.board);
        list
    }

    /// A match's game points, board by board (main games only).
    pub fn match_score(&self, round: &Round, m: &Pairing) -> MatchScore {
        let mut s = MatchScore::default();
        for b in self.boards_of(round, m.id) {
            let games = self.games_of(b.id);
            let t = tally(
                games
                    .iter()
                    .filter(|g| !g.tiebreak)
                    .map(|g| (g.starter_player_id == b.first_player_id, g.result)),
            );
            // The board's first player may belong to either team.
            let (f, sec) = if b.first_team_id == m.first_team_id {
                (t.first, t.second)
            } else {
                (t.second, t.first)
            };
            s.first += f;
            s.second += sec;
            s.boards.push((f, sec));
            s.decided += t.decided as usize;
            s.games += games.len();
        }
        s
    }

    /// A board as the line-up rules see it (OGR 10.3.1).
    pub fn board_state(&self, board: &Pairing) -> crate::rounds::Board {
        crate::rounds::Board {
            marked: board.started,
            results: self
                .games_of(board.id)
                .iter()
                .filter(|g| g.result.is_some())
                .count(),
        }
    }

    /// Whether a board has started, so its players can no longer be
    /// replaced (OGR 10.3.1).
    pub fn board_started(&self, board: &Pairing) -> bool {
        self.board_state(board).started()
    }

    /// The match a team plays in a round (or its bye).
    pub fn match_of(&self, round: &Round, team: TeamId) -> Option<&Pairing> {
        self.matches_of(round)
            .into_iter()
            .find(|m| m.first_team_id == Some(team) || m.second_team_id == Some(team))
    }

    /// Who plays each board for `team` in `round`, board 1 first (empty
    /// for a bye).
    pub fn lineup(&self, round: &Round, team: TeamId) -> Vec<EntryId> {
        let Some(m) = self.match_of(round, team) else {
            return Vec::new();
        };
        self.boards_of(round, m.id)
            .iter()
            .filter_map(|b| {
                if b.first_team_id == Some(team) {
                    b.first_player_id
                } else {
                    b.second_player_id
                }
            })
            .collect()
    }

    /// Team scores as the standings count them: a match is a mini-match
    /// of all its boards' games.
    pub fn team_scoring(&self) -> Scoring {
        Scoring {
            games_per_pairing: (self.tournament.games_per_pairing as u32) * BOARDS as u32,
            ranking: self.tournament.ranking,
            bye: self.tournament.bye_value,
        }
    }

    /// What `team` got out of `round`, with its game points per board.
    pub fn team_outcome(&self, team: TeamId, round: &Round) -> (Outcome, Vec<Points>) {
        let Some(m) = self.match_of(round, team) else {
            return (Outcome::Absent, Vec::new());
        };
        let Some(other) = (if m.first_team_id == Some(team) {
            m.second_team_id
        } else {
            m.first_team_id
        }) else {
            return (Outcome::AllocatedBye, Vec::new());
        };
        let s = self.match_score(round, m);
        if s.decided == 0 {
            return (Outcome::Absent, Vec::new());
        }
        let first = m.first_team_id == Some(team);
        let (mine, theirs) = if first {
            (s.first, s.second)
        } else {
            (s.second, s.first)
        };
        let boards = s
            .boards
            .iter()
            .map(|&(f, sec)| if first { f } else { sec })
            .collect();
        (
            Outcome::Played {
                opponent: other.engine(),
                points: mine,
                opponent_points: theirs,
                // For a team, "wins" counts matches won.
                games_won: u32::from(mine > theirs),
            },
            boards,
        )
    }

    /// The teams as the standings see them, over published rounds.
    pub fn team_entrants(&self) -> Vec<Entrant> {
        let published = self.published();
        self.teams
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let mut boards = vec![0; BOARDS];
                let rounds = published
                    .iter()
                    .map(|r| {
                        let (o, per_board) = self.team_outcome(t.id, r);
                        for (sum, p) in boards.iter_mut().zip(per_board) {
                            *sum += p;
                        }
                        o
                    })
                    .collect();
                Entrant {
                    id: t.id.engine(),
                    name: t.name.clone(),
                    order: k as u32 + 1,
                    rounds,
                    boards,
                    stage: 0,
                }
            })
            .collect()
    }

    /// Each team's match points and game points over published rounds,
    /// by team id (empty for an individual event).
    pub fn team_totals(&self) -> HashMap<u32, (Points, Points)> {
        if !self.is_team_event() {
            return HashMap::new();
        }
        let scoring = self.team_scoring();
        let by = |ranking| Scoring { ranking, ..scoring };
        self.team_entrants()
            .iter()
            .map(|e| {
                let sum = |s: Scoring| e.rounds.iter().map(|o| s.round_score(o)).sum::<Points>();
                (
                    e.id,
                    (sum(by(Ranking::MatchPoints)), sum(by(Ranking::GamePoints))),
                )
            })
            .collect()
    }

    /// Each team's past matches as the team Swiss engine reads them.
    fn team_history(&self, team: TeamId, before: RoundNo) -> Vec<TeamMatch> {
        let full = Points::from(self.tournament.games_per_pairing) * BOARDS as Points * POINT;
        self.rounds
            .iter()
            .filter(|r| r.number < before)
            .map(|r| match self.team_outcome(team, r).0 {
                Outcome::Played {
                    opponent,
                    points,
                    opponent_points,
                    ..
                } => TeamMatch {
                    opponent: Some(opponent),
                    game_points: points,
                    game_points_against: opponent_points,
                },
                _ => {
                    let got = match self.tournament.bye_value {
                        ByeValue::Win => full,
                        ByeValue::Draw => full / 2,
                        ByeValue::Nothing => 0,
                    };
                    TeamMatch {
                        opponent: None,
                        game_points: got,
                        game_points_against: full - got,
                    }
                }
            })
            .collect()
    }

    /// Pairs the next round of a team event: teams by the Dutch engine
    /// (team Swiss) or the Berger tables (team league), then each match's
    /// boards from the teams' rosters (line-ups are given afterwards).
    pub(super) fn pair_teams(&self, next: RoundNo) -> Result<Vec<PlannedMatch>, DirectorError> {
        if self.teams.len() < 2 {
            return Err(DirectorError::NotReady(NotReady::TooFewTeams {
                round: next.0,
                teams: self.teams.len(),
            }));
        }
        for t in &self.teams {
            let n = self.roster(t.id).len();
            if n != BOARDS {
                return Err(DirectorError::NotReady(NotReady::RosterSize {
                    team: t.name.clone(),
                    players: n,
                }));
            }
        }
        let mut pairs: Vec<(TeamId, Option<TeamId>, Option<Explanation>)> = Vec::new();
        match self.tournament.system {
            System::TeamSwiss => {
                let input = TeamSwissInput {
                    round: next.0 as u32,
                    total_rounds: self.total_rounds().unwrap_or(next.0) as u32,
                    teams: self
                        .teams
                        .iter()
                        .map(|t| core::Team {
                            id: t.id.engine(),
                            name: t.name.clone(),
                            seed: None,
                            history: self.team_history(t.id, next),
                            withdrawn: false,
                        })
                        .collect(),
                    scoring: match self.tournament.ranking {
                        Ranking::GamePoints => TeamScoring::GamePoints,
                        Ranking::MatchPoints => TeamScoring::MatchPoints,
                    },
                    forbidden: Vec::new(),
                    waivers: Vec::new(),
                };
                let out = core::pair_swiss(&input)?;
                for p in &out.pairs {
                    pairs.push((
                        TeamId::of_engine(p.first),
                        Some(TeamId::of_engine(p.second)),
                        Some(p.explanation.clone()),
                    ));
                }
                if let Some(b) = &out.bye {
                    pairs.push((
                        TeamId::of_engine(b.player),
                        None,
                        Some(b.explanation.clone()),
                    ));
                }
            }
            _ => {
                let ids: Vec<PlayerId> = self.teams.iter().map(|t| t.id.engine()).collect();
                let cycle = crate::tournament::cycle_rounds(ids.len());
                let total = self.total_rounds().map_err(DirectorError::Settings)?;
                let schedule = core::round_robin(&ids, total > cycle)?;
                let round = schedule
                    .rounds
                    .iter()
                    .find(|r| r.round == next.0 as u32)
                    .ok_or({
                        DirectorError::NotReady(NotReady::NoSuchRound {
                            round: next.0,
                            league: true,
                        })
                    })?;
                for p in &round.pairs {
                    pairs.push((
                        TeamId::of_engine(p.first),
                        Some(TeamId::of_engine(p.second)),
                        None,
                    ));
                }
                if let Some(b) = round.bye {
                    pairs.push((TeamId::of_engine(b), None, None));
                }
            }
        }
        pairs
            .into_iter()
            .map(|(first, second, explanation)| {
                let boards = match second {
                    None => Vec::new(),
                    Some(second) => core::board_pairings(
                        &Lineup {
                            team: first.engine(),
                            boards: self.roster(first).into_iter().map(pid).collect(),
                        },
                        &Lineup {
                            team: second.engine(),
                            boards: self.roster(second).into_iter().map(pid).collect(),
                        },
                    )?
                    .into_iter()
                    .map(|b| (EntryId::of_engine(b.first), EntryId::of_engine(b.second)))
                    .collect(),
                };
                Ok(PlannedMatch {
                    first_team: first,
                    second_team: second,
                    bye: second.is_none().then_some(ByeKind::Allocated),
                    boards,
                    explanation,
                })
            })
            .collect()
    }

    /// The substitutes of a line-up and whom each stands in for (OGR
    /// 10.3): the roster players left out, taken in board order, against
    /// the substitutes in the order of the boards they play.
    pub fn replacements(&self, team: TeamId, boards: &[EntryId]) -> Vec<Option<EntryId>> {
        let roster = self.roster(team);
        let mut out_of_lineup = roster.iter().filter(|p| !boards.contains(p));
        boards
            .iter()
            .map(|p| {
                if roster.contains(p) {
                    None
                } else {
                    out_of_lineup.next().copied()
                }
            })
            .collect()
    }
}

/// What a line-up change did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineupChange {
    pub team: String,
    pub round: RoundNo,
    /// Boards whose player changed (1-based).
    pub changed: Vec<i32>,
}

/// Sets who plays boards 1-4 for `team` in round `n` (OGR 10.2-10.3.1).
///
/// A player may be any of the team's roster players or substitutes, once
/// each. A board whose player changes must not have started (a result, or
/// the referee's mark): then the player to be replaced has begun playing,
/// and 10.3.1 forbids the substitution. A captain may change nothing once
/// any board of the match has started, and only in a published round.
///
/// With `seen` (the line-up a form was shown with), only the boards the
/// sender changed on that form change: a board left as shown keeps what is
/// stored now, so two people editing at once never undo each other's
/// change (if the two changes clash, the player named twice is refused).
pub fn set_lineup(
    conn: &mut DbConnection,
    tid: TournamentId,
    n: RoundNo,
    team_id: TeamId,
    boards: &[EntryId],
    seen: Option<&[EntryId]>,
    actor: Actor<'_>,
) -> Result<LineupChange, DbError> {
    super::commit(conn, actor.user_id(), |w| {
        let data = super::load(w.conn(), tid)?;
        if !data.is_team_event() {
            return Err(DbError::Refused(Refusal::NotFound(Thing::Team)));
        }
        let team = data
            .team(team_id)
            .ok_or(DbError::Refused(Refusal::NotFound(Thing::Team)))?
            .clone();
        let captain = matches!(actor, Actor::Captain { .. });
        let round = data.round(n, !captain)?;
        let m = data
            .match_of(&round, team_id)
            .ok_or_else(|| Refused::NoMatch {
                team: team.name.clone(),
                round: n.0,
            })?;
        if m.second_team_id.is_none() {
            return Err(Refused::TeamBye {
                team: team.name.clone(),
                round: n.0,
            }
            .into());
        }
        if boards.len() != BOARDS {
            return Err(crate::field::FieldError::new(
                "boards",
                crate::field::Problem::NotFourPlayers {
                    given: boards.len(),
                },
            )
            .into());
        }
        let current = data.lineup(&round, team_id);
        let merged: Vec<EntryId> = match seen {
            Some(seen) if seen.len() == boards.len() && current.len() == boards.len() => boards
                .iter()
                .zip(seen)
                .zip(&current)
                .map(|((&wanted, &shown), &now)| if wanted == shown { now } else { wanted })
                .collect(),
            _ => boards.to_vec(),
        };
        let boards = &merged[..];
        let names = data.player_names();
        let name = |p: EntryId| names.get(&p).copied().unwrap_or("?").to_string();
        let eligible: Vec<EntryId> = data
            .roster(team_id)
            .into_iter()
            .chain(data.substitutes(team_id))
            .collect();
        let eligible: Vec<i32> = eligible.iter().map(|p| p.0).collect();
        let wanted: Vec<i32> = boards.iter().map(|p| p.0).collect();
        crate::roster::check_lineup(&team.name, &eligible, &wanted, |p| {
            names
                .get(&EntryId(p))
                .map_or(format!("player {p}"), |n| n.to_string())
        })?;
        let board_rows = data.boards_of(&round, m.id);
        if captain && board_rows.iter().any(|b| data.board_started(b)) {
            return Err(Refused::CaptainTooLate {
                team: team.name.clone(),
                round: n.0,
            }
            .into());
        }
        let mut changed = Vec::new();
        for (k, b) in board_rows.iter().enumerate() {
            let (old, new) = (current[k], boards[k]);
            if old == new {
                continue;
            }
            crate::rounds::check_substitution(
                data.board_state(b),
                k as i32 + 1,
                &name(old),
                &name(new),
            )?;
            db::rounds::replace_player(w, b.id, old, new)?;
            changed.push(k as i32 + 1);
        }
        let replaces = data.replacements(team_id, boards);
        let stored: Vec<(EntryId, Option<EntryId>)> =
            boards.iter().copied().zip(replaces).collect();
        teams::store_lineup(w, round.id, team_id, &stored)?;
        let by = match &actor {
            Actor::Referee(_) => String::new(),
            Actor::Captain { team } => format!(" (by the captain of {team})"),
        };
        let show = |list: &[EntryId]| {
            list.iter()
                .enumerate()
                .map(|(k, &p)| format!("{} {}", k + 1, name(p)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        w.record(
            Change::new(Some(tid), Action::LineUp, Entity::Team, Some(team_id))
                .in_round(n)
                .players(boards.iter().copied())
                .old(show(&current))
                .new_value(format!("{}{by}", show(boards))),
        );
        Ok(LineupChange {
            team: team.name,
            round: n,
            changed,
        })
    })
}

/// Marks every board of a match started: from now on its players cannot
/// be substituted and its captains' links stop changing the line-up.
pub fn start_match(
    conn: &mut DbConnection,
    tid: TournamentId,
    n: RoundNo,
    match_id: PairingId,
    by: &crate::db::users::User,
) -> Result<(), DbError> {
    super::commit(conn, Some(by.id), |w| {
        let data = super::load(w.conn(), tid)?;
        let round = data.round(n, true)?;
        let m = data
            .matches_of(&round)
            .into_iter()
            .find(|m| m.id == match_id)
            .ok_or(DbError::Refused(Refusal::NotFound(Thing::Match)))?
            .clone();
        let ids: Vec<PairingId> = data.boards_of(&round, m.id).iter().map(|b| b.id).collect();
        db::rounds::mark_started(w, &ids)?;
        let team = |id: Option<TeamId>| {
            id.and_then(|i| data.team(i))
                .map_or(String::new(), |t| t.name.clone())
        };
        w.record(
            Change::new(Some(tid), Action::StartBoards, Entity::Match, Some(m.id))
                .in_round(n)
                .new_value(format!(
                    "{} v {}",
                    team(m.first_team_id),
                    team(m.second_team_id)
                )),
        );
        Ok(())
    })
}

/// Enters every player and team of a CSV import, or nothing.
pub fn import(
    conn: &mut DbConnection,
    tid: TournamentId,
    plan: &crate::roster::TeamImport,
    by: &crate::db::users::User,
) -> Result<Vec<Team>, ImportRefused> {
    let failed_at = std::cell::Cell::new(None);
    super::commit(conn, Some(by.id), |w| {
        let (ids, _) = db::players::import(w, tid, &plan.players, &[])?;
        plan.teams
            .iter()
            .map(|t| {
                let new = teams::NewTeam {
                    name: t.name.clone(),
                    club: t.club.clone(),
                    members: t.members.iter().map(|&i| ids[i]).collect(),
                    substitutes: t.substitutes.iter().map(|&i| ids[i]).collect(),
                };
                teams::create(w, tid, &new).inspect_err(|_| failed_at.set(Some(t.line)))
            })
            .collect()
    })
    .map_err(|error| ImportRefused {
        line: failed_at.get(),
        error,
    })
}

/// Why a team import stored nothing: the error, and the file's line of
/// the team it is about (none when it is about the whole file, such as a
/// round already paired).
#[derive(Debug)]
pub struct ImportRefused {
    pub line: Option<u64>,
    pub error: DbError,
}

// The steps the pages and the API take through the director.
/// The team a captain's link opens; `None` for a link that is not (or no
/// longer) any team's. Only the secret's digest is stored.
pub fn by_captain_token(conn: &mut DbConnection, token: &str) -> Result<Option<Team>, DbError> {
    crate::db::teams::by_captain_token(conn, token)
}

/// Enters a team with its roster and substitutes and a fresh captain link.
pub fn create(w: &mut Write, tid: TournamentId, t: &NewTeam) -> Result<Team, DbError> {
    crate::db::teams::create(w, tid, t)
}

/// Gives a team a new captain's link and returns its secret, which is
/// not stored (only its digest is): the old link stops working at once.
pub fn renew_captain_link(w: &mut Write, tid: TournamentId, id: TeamId) -> Result<String, DbError> {
    crate::db::teams::renew_captain_link(w, tid, id)
}

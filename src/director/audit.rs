//! The audit trail as referees read it: what each change was about in the
//! tournament's own terms (round, table, game and the players' names, not
//! internal ids), filtered by round, player and referee, a page at a time.
//! The lines are values; `wording::audit` says them.

use std::collections::HashMap;

use chrono::NaiveDateTime;

use super::TournamentData;
use crate::change::{Action, Entity, Subject, Value};
use crate::db::audit::AuditEntry;
use crate::db::{DbConnection, DbError};
use crate::ids::{EntryId, GameId, RoundNo, TeamId, TournamentId};
use crate::results::GameResult;
use crate::tournament::ByeKind;

/// Which changes to show.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrailFilter {
    /// Changes to this round: the round itself and its games.
    pub round: Option<RoundNo>,
    /// Changes to this player: the player and the games they play.
    pub player: Option<EntryId>,
    /// Changes made by this account (by name).
    pub referee: Option<String>,
    /// 1-based page.
    pub page: usize,
}

/// One change, described.
#[derive(Debug, Clone)]
pub struct TrailLine {
    pub at: NaiveDateTime,
    pub user: Option<String>,
    pub action: Action,
    pub subject: Subject,
    pub old_value: Option<Value>,
    pub new_value: Option<Value>,
}

/// A page of the trail.
#[derive(Debug, Clone)]
pub struct Trail {
    pub lines: Vec<TrailLine>,
    /// Changes matching the filter, over all pages.
    pub total: usize,
    pub page: usize,
    pub pages: usize,
    /// Everyone who changed something, for the referee filter.
    pub people: Vec<String>,
    /// The rounds and players to filter by.
    pub rounds: Vec<RoundNo>,
    pub players: Vec<(EntryId, String)>,
}

/// Changes shown on one page.
pub const PAGE: usize = 100;

/// The trail of tournament `tid` as `filter` asks.
pub fn trail(
    conn: &mut DbConnection,
    tid: TournamentId,
    filter: &TrailFilter,
) -> Result<Trail, DbError> {
    let data = super::load(conn, tid)?;
    let entries = crate::db::audit::of_tournament(conn, tid)?;
    Ok(describe(&data, entries, filter))
}

/// Where a game is: its round, table and number, and the pairing's players.
struct GamePlace {
    round: i32,
    table: i32,
    number: i32,
    tiebreak: bool,
    players: [Option<EntryId>; 2],
    /// Who started the game, whose side its result is written from.
    starter: Option<EntryId>,
}

/// A stored game result with whom it was for (the game's starter first);
/// a value that is not a stored result, or a game no longer there, as it
/// was stored.
fn result_value(
    games: &HashMap<GameId, GamePlace>,
    game: GameId,
    value: String,
    name: &dyn Fn(EntryId) -> String,
) -> Value {
    let Some(place) = games.get(&game) else {
        return Value::Stored(value);
    };
    let (Some(starter), Ok(result)) = (place.starter, GameResult::try_from(value.clone())) else {
        return Value::Stored(value);
    };
    match place.players.iter().flatten().find(|p| **p != starter) {
        Some(o) => Value::Result {
            result,
            starter: name(starter),
            other: name(*o),
        },
        None => Value::Stored(value),
    }
}

/// What the trail's entries are about, in the tournament's own terms: the
/// players' names, the rounds' numbers by id, and where each game is.
struct Places<'a> {
    data: &'a TournamentData,
    /// Round numbers by id, undone rounds included (their entries say which).
    rounds: HashMap<i32, i32>,
    /// Each pairing with the number of its round.
    round_of_pairing: HashMap<i32, (i32, &'a crate::db::rounds::Pairing)>,
    games: HashMap<GameId, GamePlace>,
}

impl<'a> Places<'a> {
    fn new(data: &'a TournamentData, entries: &[AuditEntry]) -> Self {
        let mut rounds: HashMap<i32, i32> =
            data.rounds.iter().map(|r| (r.id.0, r.number.0)).collect();
        for e in entries {
            if let (Entity::Round, Some(id), Some(n)) = (e.entity, e.entity_id, e.detail.round) {
                rounds.entry(id).or_insert(n.0);
            }
        }
        let round_of_pairing: HashMap<i32, (i32, &crate::db::rounds::Pairing)> = data
            .pairings
            .iter()
            .map(|p| (p.id.0, (rounds.get(&p.round_id.0).copied().unwrap_or(0), p)))
            .collect();
        let games: HashMap<GameId, GamePlace> = data
            .games
            .iter()
            .filter_map(|g| {
                let (round, p) = round_of_pairing.get(&g.pairing_id.0)?;
                Some((
                    g.id,
                    GamePlace {
                        round: *round,
                        table: p.table_no,
                        number: g.number,
                        tiebreak: g.tiebreak,
                        players: [p.first_player_id, p.second_player_id],
                        starter: g.starter_player_id,
                    },
                ))
            })
            .collect();
        Places {
            data,
            rounds,
            round_of_pairing,
            games,
        }
    }

    /// A player's name, or `player 7` for one no longer in the tournament.
    fn name(&self, id: EntryId) -> String {
        self.data
            .players
            .iter()
            .find(|p| p.id == id)
            .map_or_else(|| format!("player {id}"), |p| p.name.clone())
    }

    /// What `e` changed, the round it belongs to and the players it
    /// concerns (what the round and player filters look at).
    fn subject(&self, e: &AuditEntry) -> (Subject, Option<i32>, Vec<EntryId>) {
        let data = self.data;
        let pair_names = |a: &str, b: &str| Some((a.to_string(), b.to_string()));
        match (e.entity, e.entity_id) {
            (Entity::Game, Some(g)) => match self.games.get(&GameId(g)) {
                Some(place) => (
                    Subject::Game {
                        round: place.round,
                        table: place.table,
                        number: place.number,
                        tiebreak: place.tiebreak,
                        players: place
                            .players
                            .iter()
                            .flatten()
                            .map(|p| self.name(*p))
                            .collect(),
                    },
                    Some(place.round),
                    place.players.iter().flatten().copied().collect(),
                ),
                None => (
                    Subject::GameGone {
                        round: e.detail.round.map(|r| r.0),
                    },
                    e.detail.round.map(|r| r.0),
                    e.detail.players.clone(),
                ),
            },
            (Entity::Round, Some(r)) => {
                let n = self.rounds.get(&r).copied();
                (Subject::Round(n), n, e.detail.players.clone())
            }
            (Entity::Player, Some(p)) => (
                Subject::Player(self.name(EntryId(p))),
                e.detail.round.map(|r| r.0),
                vec![EntryId(p)],
            ),
            (Entity::Relation, Some(r)) => match data.relations.iter().find(|x| x.id == r) {
                Some(x) => (
                    Subject::Relation(pair_names(&x.a_name, &x.b_name)),
                    None,
                    vec![x.a, x.b],
                ),
                None => (Subject::Relation(None), None, e.detail.players.clone()),
            },
            (Entity::KeptApart, Some(f)) => match data.forbidden.iter().find(|x| x.id == f) {
                Some(x) => (
                    Subject::KeptApart(pair_names(&x.a_name, &x.b_name)),
                    None,
                    vec![x.a, x.b],
                ),
                None => (Subject::KeptApart(None), None, e.detail.players.clone()),
            },
            (Entity::Referee, _) => (
                Subject::Referee(
                    e.new_value
                        .as_deref()
                        .or(e.old_value.as_deref())
                        .unwrap_or("")
                        .to_string(),
                ),
                None,
                Vec::new(),
            ),
            (Entity::Team, Some(t)) => {
                let members: Vec<EntryId> = data
                    .members
                    .iter()
                    .filter(|m| m.team_id == TeamId(t))
                    .map(|m| m.player_id)
                    .collect();
                (
                    Subject::Team(data.team(TeamId(t)).map(|x| x.name.clone())),
                    e.detail.round.map(|r| r.0),
                    members,
                )
            }
            (Entity::Match, Some(m)) => {
                let round = self
                    .round_of_pairing
                    .get(&m)
                    .map(|(r, _)| *r)
                    .or(e.detail.round.map(|r| r.0));
                (Subject::Match(round), round, Vec::new())
            }
            (other, _) => (
                Subject::Other(other),
                e.detail.round.map(|r| r.0),
                e.detail.players.clone(),
            ),
        }
    }

    /// The line of `e`, its old and new values in the tournament's terms
    /// where the stored text is an id or a code.
    fn line(&self, e: AuditEntry, subject: Subject) -> TrailLine {
        let name = |id: EntryId| self.name(id);
        let stored = |v: Option<String>| v.map(Value::Stored);
        let (old_value, new_value) = match (e.action, e.detail.round) {
            // A swap's players are ids in its detail.
            (Action::Swap, _) => match e.detail.players.as_slice() {
                [a, b] => (
                    Some(Value::Swapped(name(*a), name(*b))),
                    stored(e.new_value),
                ),
                _ => (stored(e.old_value), stored(e.new_value)),
            },
            // The round a player is withdrawn from, or rejoins.
            (Action::Withdraw, Some(n)) if e.new_value.is_none() => {
                (stored(e.old_value), Some(Value::NotPairedFrom(n.0)))
            }
            (Action::Reinstate, Some(n)) if e.old_value.is_none() => {
                (Some(Value::NotPairedFrom(n.0)), stored(e.new_value))
            }
            (Action::RequestBye | Action::CancelBye, Some(n)) => {
                let kind = e.new_value.as_deref().and_then(ByeKind::parse);
                match kind {
                    Some(kind) => (stored(e.old_value), Some(Value::Bye { round: n.0, kind })),
                    None => (stored(e.old_value), stored(e.new_value)),
                }
            }
            // A game's result names whom it was for: the names beside
            // it are the pairing's order, not the game's starter first.
            (
                Action::Result
                | Action::Report
                | Action::ReportedByBoth
                | Action::ReportedByOne
                | Action::ReportWithdrawn,
                _,
            ) => match e.entity_id {
                Some(g) => (
                    e.old_value
                        .map(|v| result_value(&self.games, GameId(g), v, &name)),
                    e.new_value
                        .map(|v| result_value(&self.games, GameId(g), v, &name)),
                ),
                None => (stored(e.old_value), stored(e.new_value)),
            },
            _ => (stored(e.old_value), stored(e.new_value)),
        };
        TrailLine {
            at: e.at,
            user: e.user,
            subject,
            old_value,
            new_value,
            action: e.action,
        }
    }
}

/// Whether a change in `round`, concerning `players`, made by `user`, is
/// one `filter` asks for.
fn wanted(
    filter: &TrailFilter,
    round: Option<i32>,
    players: &[EntryId],
    user: Option<&str>,
) -> bool {
    filter.round.is_none_or(|n| round == Some(n.0))
        && filter.player.is_none_or(|p| players.contains(&p))
        && filter
            .referee
            .as_ref()
            .is_none_or(|r| user == Some(r.as_str()))
}

/// The page of the trail `filter` asks for, with what its filters offer.
fn describe(data: &TournamentData, entries: Vec<AuditEntry>, filter: &TrailFilter) -> Trail {
    let places = Places::new(data, &entries);
    let mut people: Vec<String> = entries.iter().filter_map(|e| e.user.clone()).collect();
    people.sort();
    people.dedup();
    let matching: Vec<TrailLine> = entries
        .into_iter()
        .filter_map(|e| {
            let (subject, round, players) = places.subject(&e);
            wanted(filter, round, &players, e.user.as_deref()).then(|| places.line(e, subject))
        })
        .collect();
    let total = matching.len();
    let pages = total.div_ceil(PAGE).max(1);
    let page = filter.page.clamp(1, pages);
    let lines = matching
        .into_iter()
        .skip((page - 1) * PAGE)
        .take(PAGE)
        .collect();
    let mut players: Vec<(EntryId, String)> = data
        .players
        .iter()
        .map(|p| (p.id, p.name.clone()))
        .collect();
    players.sort_by_key(|(_, n)| n.to_lowercase());
    Trail {
        lines,
        total,
        page,
        pages,
        people,
        rounds: data.rounds.iter().map(|r| r.number).collect(),
        players,
    }
}

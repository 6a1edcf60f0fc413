//! Teams of a team event (OGR 10): rosters with their board order and
//! substitutes, each team's captain link, and the line-ups given per round.

use diesel::prelude::*;
use serde::Serialize;

use super::audit::Write;
use super::schema::{lineups, players, team_members, teams};
use super::users::User;
use super::{found, DbConnection, DbError};
use crate::change::{Action, Change, Entity};
use crate::field::{FieldError, Problem};
use crate::ids::{EntryId, RoundId, TeamId, TournamentId, UserId};
use crate::roster::Refused;

/// Players on a team's roster (OGR 10.1); substitutes come on top.
pub const BOARDS: usize = 4;

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = teams)]
pub struct Team {
    pub id: TeamId,
    pub tournament_id: TournamentId,
    pub name: String,
    pub club: String,
    /// The digest of the captain's link's secret (the link itself is
    /// shown once, when made); `None` until the referee makes one.
    #[serde(skip)]
    pub captain_digest: Option<String>,
}

/// A player on a team: a roster player with a board (1-4), or a substitute.
#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = team_members)]
pub struct Member {
    pub id: i32,
    pub team_id: TeamId,
    pub player_id: EntryId,
    pub board: Option<i32>,
    pub substitute: bool,
}

/// One board of a line-up as given for a round; `replaces` names the roster
/// player a substitute stands in for (OGR 10.3).
#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = lineups)]
pub struct LineupEntry {
    pub id: i32,
    pub round_id: RoundId,
    pub team_id: TeamId,
    pub board: i32,
    pub player_id: EntryId,
    #[diesel(column_name = replaces_player_id)]
    pub replaces: Option<EntryId>,
}

/// A team to enter: its name, club, the four roster players in board order
/// and any substitutes, all players of the tournament.
#[derive(Debug, Clone, Default)]
pub struct NewTeam {
    pub name: String,
    pub club: String,
    pub members: Vec<EntryId>,
    pub substitutes: Vec<EntryId>,
}

/// Who changes a line-up: a referee, or a team's captain by their link.
#[derive(Debug, Clone)]
pub enum Actor<'a> {
    Referee(&'a User),
    Captain { team: &'a str },
}

impl Actor<'_> {
    pub fn user_id(&self) -> Option<UserId> {
        match self {
            Actor::Referee(u) => Some(u.id),
            Actor::Captain { .. } => None,
        }
    }
}

/// Checks a new team against the tournament's players and teams; every
/// problem names its field.
fn check(
    conn: &mut DbConnection,
    tid: TournamentId,
    t: &NewTeam,
) -> Result<(String, String), DbError> {
    let invalid =
        |field: &'static str, problem: Problem| DbError::from(FieldError::new(field, problem));
    let (name, club) = crate::roster::team_fields(&t.name, &t.club)?;
    if t.members.len() != BOARDS {
        return Err(invalid(
            "members",
            Problem::NotFourPlayers {
                given: t.members.len(),
            },
        ));
    }
    let all: Vec<(&'static str, EntryId)> = t
        .members
        .iter()
        .map(|&p| ("members", p))
        .chain(t.substitutes.iter().map(|&p| ("substitutes", p)))
        .collect();
    let known: Vec<(EntryId, String)> = players::table
        .filter(players::tournament_id.eq(tid))
        .select((players::id, players::name))
        .load(conn)?;
    let taken: Vec<(EntryId, String)> = team_members::table
        .inner_join(teams::table)
        .filter(teams::tournament_id.eq(tid))
        .select((team_members::player_id, teams::name))
        .load(conn)?;
    for (i, &(field, p)) in all.iter().enumerate() {
        let Some((_, pname)) = known.iter().find(|(id, _)| *id == p) else {
            return Err(invalid(field, Problem::UnknownPlayer { id: p.0 }));
        };
        if all[..i].iter().any(|&(_, q)| q == p) {
            return Err(invalid(
                field,
                Problem::ListedTwice {
                    name: pname.clone(),
                },
            ));
        }
        if let Some((_, team)) = taken.iter().find(|(id, _)| *id == p) {
            return Err(invalid(
                field,
                Problem::InOtherTeam {
                    name: pname.clone(),
                    team: team.clone(),
                },
            ));
        }
    }
    Ok((name, club))
}

/// Enters a team with its roster and substitutes and a fresh captain link.
pub fn create(w: &mut Write, tid: TournamentId, t: &NewTeam) -> Result<Team, DbError> {
    let conn = w.conn();
    let tournament = super::tournaments::find(conn, tid)?;
    if !tournament.system.is_team() {
        return Err(Refused::IndividualEvent {
            tournament: tournament.name,
        }
        .into());
    }
    // A team's standing is its matches from round 1: a team joining
    // later would have rounds it could neither have played nor had a bye in.
    let paired = super::tournaments::rounds_paired(conn, tid)?;
    if paired > 0 {
        return Err(Refused::TeamsAfterRoundOne { paired }.into());
    }
    let (name, club) = check(conn, tid, t)?;
    let id: TeamId = diesel::insert_into(teams::table)
        .values((
            teams::tournament_id.eq(tid),
            teams::name.eq(&name),
            teams::club.eq(&club),
        ))
        .returning(teams::id)
        .get_result(conn)
        .map_err(|e| match e {
            // The name is the field at fault: the form shows it there.
            diesel::result::Error::DatabaseError(
                diesel::result::DatabaseErrorKind::UniqueViolation,
                _,
            ) => FieldError::new("name", Problem::TeamNameTaken { name: name.clone() }).into(),
            other => DbError::Query(other),
        })?;
    for (k, &p) in t.members.iter().enumerate() {
        diesel::insert_into(team_members::table)
            .values((
                team_members::team_id.eq(id),
                team_members::player_id.eq(p),
                team_members::board.eq(Some(k as i32 + 1)),
                team_members::substitute.eq(false),
            ))
            .execute(conn)?;
    }
    for &p in &t.substitutes {
        diesel::insert_into(team_members::table)
            .values((
                team_members::team_id.eq(id),
                team_members::player_id.eq(p),
                team_members::board.eq(None::<i32>),
                team_members::substitute.eq(true),
            ))
            .execute(conn)?;
    }
    w.record(
        Change::new(Some(tid), Action::Add, Entity::Team, Some(id))
            .players(t.members.iter().chain(&t.substitutes).copied())
            .new_value(format!(
                "{name}: {} roster players, {} substitutes",
                t.members.len(),
                t.substitutes.len()
            )),
    );
    find(w.conn(), tid, id)
}

pub fn find(conn: &mut DbConnection, tid: TournamentId, id: TeamId) -> Result<Team, DbError> {
    teams::table
        .filter(teams::tournament_id.eq(tid))
        .filter(teams::id.eq(id))
        .select(Team::as_select())
        .first(conn)
        .map_err(|e| found(e, crate::refusal::Thing::Team))
}

/// The team a captain's link opens; `None` for a link that is not (or no
/// longer) any team's. Only the secret's digest is stored.
pub fn by_captain_token(conn: &mut DbConnection, token: &str) -> Result<Option<Team>, DbError> {
    Ok(teams::table
        .filter(teams::captain_digest.eq(crate::accounts::token_digest(token)))
        .select(Team::as_select())
        .first(conn)
        .optional()?)
}

/// Gives a team a new captain's link and returns its secret, which is
/// not stored (only its digest is): the old link stops working at once.
pub fn renew_captain_link(w: &mut Write, tid: TournamentId, id: TeamId) -> Result<String, DbError> {
    let token = crate::accounts::new_token();
    let digest = crate::accounts::token_digest(&token);
    let team = find(w.conn(), tid, id)?;
    diesel::update(teams::table.find(id))
        .set(teams::captain_digest.eq(Some(&digest)))
        .execute(w.conn())?;
    let action = if team.captain_digest.is_some() {
        Action::RenewCaptainLink
    } else {
        Action::MakeCaptainLink
    };
    w.record(Change::new(Some(tid), action, Entity::Team, Some(id)).new_value(team.name));
    Ok(token)
}

/// The captains' links stored in plain before links were kept as digests
/// (marked `plain:` by their migration) become digests, so that they keep
/// working and the database no longer holds them. Run at every start;
/// nothing to do once done.
pub(super) fn digest_plain_captain_links(conn: &mut DbConnection) -> Result<usize, DbError> {
    let plain: Vec<(i32, Option<String>)> = teams::table
        .filter(teams::captain_digest.like("plain:%"))
        .select((teams::id, teams::captain_digest))
        .load(conn)?;
    for (id, stored) in &plain {
        let token = stored
            .as_deref()
            .unwrap_or_default()
            .trim_start_matches("plain:");
        diesel::update(teams::table.find(id))
            .set(teams::captain_digest.eq(Some(crate::accounts::token_digest(token))))
            .execute(conn)?;
    }
    Ok(plain.len())
}

pub fn list(conn: &mut DbConnection, tid: TournamentId) -> Result<Vec<Team>, DbError> {
    Ok(teams::table
        .filter(teams::tournament_id.eq(tid))
        .order(teams::id)
        .select(Team::as_select())
        .load(conn)?)
}

/// Every team member of the tournament: by team, roster boards first.
pub fn members(conn: &mut DbConnection, tid: TournamentId) -> Result<Vec<Member>, DbError> {
    let mut list: Vec<Member> = team_members::table
        .inner_join(teams::table)
        .filter(teams::tournament_id.eq(tid))
        .select(Member::as_select())
        .load(conn)?;
    list.sort_by_key(|m| (m.team_id, m.substitute, m.board, m.id));
    Ok(list)
}

/// Every line-up given in the tournament.
pub fn lineups(conn: &mut DbConnection, tid: TournamentId) -> Result<Vec<LineupEntry>, DbError> {
    use super::schema::rounds;
    Ok(lineups::table
        .inner_join(rounds::table)
        .filter(rounds::tournament_id.eq(tid))
        .order((lineups::round_id, lineups::team_id, lineups::board))
        .select(LineupEntry::as_select())
        .load(conn)?)
}

/// Stores a round's line-up of one team, replacing what was given before.
pub fn store_lineup(
    w: &mut Write,
    round_id: RoundId,
    team_id: TeamId,
    boards: &[(EntryId, Option<EntryId>)],
) -> Result<(), DbError> {
    let conn = w.conn();
    diesel::delete(
        lineups::table
            .filter(lineups::round_id.eq(round_id))
            .filter(lineups::team_id.eq(team_id)),
    )
    .execute(conn)?;
    for (k, &(player, replaces)) in boards.iter().enumerate() {
        diesel::insert_into(lineups::table)
            .values((
                lineups::round_id.eq(round_id),
                lineups::team_id.eq(team_id),
                lineups::board.eq(k as i32 + 1),
                lineups::player_id.eq(player),
                lineups::replaces_player_id.eq(replaces),
            ))
            .execute(conn)?;
    }
    Ok(())
}

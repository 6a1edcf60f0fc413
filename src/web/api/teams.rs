//! Teams and their line-ups.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::director::{self};
use crate::web::error::ApiError;
use crate::web::views::round::load_data;
use crate::web::AppState;

use super::{refereed, ApiUser};
use crate::ids::{EntryId, RoundNo, TeamId, TournamentId};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTeamBody {
    name: String,
    #[serde(default)]
    club: String,
    members: Vec<EntryId>,
    #[serde(default)]
    substitutes: Vec<EntryId>,
}

/// A team as the API shows it.
#[derive(Debug, Serialize)]
pub struct TeamJson {
    id: TeamId,
    name: String,
    club: String,
    /// Roster players, board 1 first.
    members: Vec<EntryId>,
    substitutes: Vec<EntryId>,
}

/// `POST /api/v1/tournaments/{tid}/teams`: enters a team of four players
/// of the tournament (board order) and its substitutes.
pub async fn add_team(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    body: web::Json<super::Object<NewTeamBody>>,
) -> Result<HttpResponse, ApiError> {
    let t = refereed(&state, &user, path.into_inner()).await?;
    let b = body.into_inner().0;
    let new = crate::director::model::NewTeam {
        name: b.name,
        club: b.club,
        members: b.members.clone(),
        substitutes: b.substitutes.clone(),
    };
    let tid = t.id;
    let team = state
        .write(Some(user.id), move |w| {
            crate::director::teams::create(w, tid, &new)
        })
        .await?;
    Ok(HttpResponse::Created().json(TeamJson {
        id: team.id,
        name: team.name,
        club: team.club,
        members: b.members,
        substitutes: b.substitutes,
    }))
}

/// `GET /api/v1/tournaments/{tid}/teams`
pub async fn list_teams(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, ApiError> {
    let data = load_data(&state, path.into_inner()).await?;
    let teams: Vec<TeamJson> = data
        .teams
        .iter()
        .map(|t| TeamJson {
            id: t.id,
            name: t.name.clone(),
            club: t.club.clone(),
            members: data.roster(t.id),
            substitutes: data.substitutes(t.id),
        })
        .collect();
    Ok(HttpResponse::Ok().json(TeamsJson { teams }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineupBody {
    boards: Vec<EntryId>,
}

/// `PUT /api/v1/tournaments/{tid}/rounds/{n}/lineups/{team}`: who plays
/// boards 1-4; 409 when a player to be replaced has started (OGR 10.3.1).
pub async fn put_lineup(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo, TeamId)>,
    body: web::Json<super::Object<LineupBody>>,
) -> Result<HttpResponse, ApiError> {
    let (tid, n, team) = path.into_inner();
    let tid = refereed(&state, &user, tid).await?.id;
    let boards = body.into_inner().0.boards;
    let wanted = boards.clone();
    let change = state
        .run(move |c| {
            director::teams::set_lineup(
                c,
                tid,
                n,
                team,
                &wanted,
                None,
                crate::director::model::Actor::Referee(&user),
            )
        })
        .await?;
    Ok(HttpResponse::Ok().json(LineupJson {
        team,
        name: change.team,
        round: n,
        boards,
        changed: change.changed,
    }))
}

#[derive(Debug, Serialize)]
struct TeamsJson {
    teams: Vec<TeamJson>,
}

/// A team's line-up for a round as stored, and whether it changed.
#[derive(Debug, Serialize)]
struct LineupJson {
    team: TeamId,
    name: String,
    round: RoundNo,
    boards: Vec<EntryId>,
    /// The boards whose player changed.
    changed: Vec<i32>,
}

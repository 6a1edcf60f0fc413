//! The standings.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::ids::TournamentId;
use crate::standings::show_points;
use crate::web::error::ApiError;
use crate::web::views::round::load_data;
use crate::web::AppState;

/// `GET /api/v1/tournaments/{tid}/standings`
pub async fn standings(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, ApiError> {
    let data = load_data(&state, path.into_inner()).await?;
    let names: Vec<String> = data
        .tournament
        .tiebreaks
        .iter()
        .map(|t| t.as_str().to_string())
        .collect();
    let clubs: std::collections::HashMap<u32, &str> = data
        .players
        .iter()
        .map(|p| (p.id.engine(), p.club.as_str()))
        .collect();
    let totals = data.team_totals();
    let rows: Vec<StandingJson> = data
        .standings()
        .iter()
        .map(|s| {
            let tiebreaks: serde_json::Map<String, serde_json::Value> = names
                .iter()
                .zip(&s.tiebreaks)
                .map(|(n, v)| (n.clone(), number(v.raw, v.denom)))
                .collect();
            let (entrant, club, totals) = match totals.get(&s.id) {
                Some(&(match_points, game_points)) => (
                    Entrant::Team(s.id),
                    data.club_of(s.id).to_string(),
                    Some(TeamTotals {
                        match_points: number(match_points, crate::pairing::POINT),
                        game_points: number(game_points, crate::pairing::POINT),
                    }),
                ),
                None => (
                    Entrant::Player(s.id),
                    clubs.get(&s.id).copied().unwrap_or("").to_string(),
                    None,
                ),
            };
            StandingJson {
                rank: s.rank,
                entrant,
                name: s.name.clone(),
                club,
                points: number(s.score, crate::pairing::POINT),
                points_text: show_points(s.score),
                totals,
                tiebreaks,
                separated_by: s.separated_by,
            }
        })
        .collect();
    Ok(HttpResponse::build(StatusCode::OK).json(StandingsJson {
        tournament: data.tournament.id,
        rounds_published: data.published().len(),
        ranking: data.tournament.ranking,
        tiebreaks: names,
        standings: rows,
    }))
}

/// The standings as the API gives them.
#[derive(Debug, Serialize)]
struct StandingsJson {
    tournament: TournamentId,
    rounds_published: usize,
    ranking: crate::tournament::Ranking,
    tiebreaks: Vec<String>,
    standings: Vec<StandingJson>,
}

/// One place of the standings: a player's, or in a team event a team's
/// (which also carries its match and game points).
#[derive(Debug, Serialize)]
struct StandingJson {
    rank: usize,
    #[serde(flatten)]
    entrant: Entrant,
    name: String,
    club: String,
    points: serde_json::Value,
    points_text: String,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    totals: Option<TeamTotals>,
    tiebreaks: serde_json::Map<String, serde_json::Value>,
    separated_by: Option<crate::standings::SeparatedBy>,
}

/// Who holds a place: `"player": ID` or `"team": ID`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "lowercase")]
enum Entrant {
    Player(u32),
    Team(u32),
}

#[derive(Debug, Serialize)]
struct TeamTotals {
    match_points: serde_json::Value,
    game_points: serde_json::Value,
}

/// An exact value as a JSON number: whole numbers stay integers.
fn number(raw: i64, denom: i64) -> serde_json::Value {
    if raw % denom == 0 {
        serde_json::json!(raw / denom)
    } else {
        serde_json::json!(raw as f64 / denom as f64)
    }
}

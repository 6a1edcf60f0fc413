//! The standings.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};

use crate::standings::show_points;
use crate::web::error::ApiError;
use crate::web::views::round::load_data;
use crate::web::AppState;

/// `GET /api/v1/tournaments/{tid}/standings`
pub async fn standings(
    state: web::Data<AppState>,
    path: web::Path<i32>,
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
        .map(|p| (p.id as u32, p.club.as_str()))
        .collect();
    let totals = data.team_totals();
    let rows: Vec<serde_json::Value> = data
        .standings()
        .iter()
        .map(|s| {
            let tbs: serde_json::Map<String, serde_json::Value> = names
                .iter()
                .zip(&s.tiebreaks)
                .map(|(n, v)| (n.clone(), number(v.raw, v.denom)))
                .collect();
            if let Some(&(match_points, game_points)) = totals.get(&s.id) {
                return serde_json::json!({
                    "rank": s.rank, "team": s.id, "name": s.name,
                    "club": data.club_of(s.id),
                    "points": number(s.score, crate::pairing::POINT),
                    "points_text": show_points(s.score),
                    "match_points": number(match_points, crate::pairing::POINT),
                    "game_points": number(game_points, crate::pairing::POINT),
                    "tiebreaks": tbs, "separated_by": s.separated_by,
                });
            }
            serde_json::json!({
                "rank": s.rank, "player": s.id, "name": s.name,
                "club": clubs.get(&s.id).copied().unwrap_or(""),
                "points": number(s.score, crate::pairing::POINT),
                "points_text": show_points(s.score),
                "tiebreaks": tbs, "separated_by": s.separated_by,
            })
        })
        .collect();
    Ok(HttpResponse::build(StatusCode::OK).json(serde_json::json!({
        "tournament": data.tournament.id,
        "rounds_published": data.published().len(),
        "ranking": data.tournament.ranking,
        "tiebreaks": names,
        "standings": rows,
    })))
}

/// An exact value as a JSON number: whole numbers stay integers.
fn number(raw: i64, denom: i64) -> serde_json::Value {
    if raw % denom == 0 {
        serde_json::json!(raw / denom)
    } else {
        serde_json::json!(raw as f64 / denom as f64)
    }
}

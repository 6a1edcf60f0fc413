//! `GET /api/v1/health/data` (admins): what would make the federation's
//! lists wrong, as `director::health` reads it.

use actix_web::{web, HttpResponse};
use serde_json::{json, Value};

use crate::director::health::DataHealth;
use crate::web::error::{ApiError, AppError};
use crate::web::AppState;

use super::ApiUser;

/// The data's health as JSON, each line with the ids it is fixed through.
pub fn json_of(h: &DataHealth) -> Value {
    let entries = |list: &[crate::director::model::EventEntries]| {
        list.iter()
            .map(|e| json!({"tournament": e.tournament_id, "name": e.tournament, "entries": e.names}))
            .collect::<Vec<_>>()
    };
    let person = |p: &crate::director::model::Person| json!({"person": p.id, "name": p.name, "federation_id": p.federation_id, "born": p.born});
    json!({
        "clean": h.is_clean(),
        "without_federation_id": entries(&h.without_federation_id),
        "merge_candidates": h.merge_candidates.iter().map(|(a, b)| json!([person(a), person(b)])).collect::<Vec<_>>(),
        "rounds_outside": h.rounds_outside.iter().map(|r| json!({
            "tournament": r.tournament_id, "name": r.tournament, "round": r.round,
            "date": r.date, "first": r.range.first, "last": r.range.last,
        })).collect::<Vec<_>>(),
        "unlinked_in_copies": entries(&h.unlinked_in_copies),
        "seasons_with_archived_events": h.seasons_with_archived.iter().map(|s| json!({
            "season": s.season_id, "name": s.season, "tournament": s.tournament_id, "tournament_name": s.tournament,
        })).collect::<Vec<_>>(),
        "federation_id_collisions": h.federation_id_collisions.iter().map(person).collect::<Vec<_>>(),
    })
}

/// `GET /api/v1/health/data`
pub async fn data_health(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    if !user.is_admin() {
        return Err(ApiError(AppError::forbidden()));
    }
    let today = chrono::Utc::now().date_naive();
    let health = state
        .run(move |c| crate::director::health::read(c, today))
        .await?;
    Ok(HttpResponse::Ok().json(json_of(&health)))
}

//! The venue's side of publishing: `/api/v1/tournaments/{tid}/publication`.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::director::model::Publication;
use crate::director::publications;
use crate::web::error::{ApiError, AppError};
use crate::web::AppState;

use super::{refereed, ApiUser};
use crate::ids::TournamentId;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublicationBody {
    /// The target server's address.
    to: String,
    /// An API token issued there to an account allowed to publish.
    token: String,
}

fn json_of(p: Option<&Publication>, revision: i32, unrated: &[&str]) -> serde_json::Value {
    serde_json::json!({
        "entries_without_federation_id": unrated,
        "to": p.map(|p| p.target.clone()),
        "origin": p.map(|p| p.origin_id.clone()),
        "state": publications::state_of(p, revision),
        "revision": revision,
        "published_revision": p.and_then(|p| p.published_revision),
        "last_success_at": p.and_then(|p| p.last_success_at),
        "last_error": p.and_then(|p| p.last_error.clone()),
    })
}

async fn answer(state: &AppState, tid: TournamentId) -> Result<HttpResponse, ApiError> {
    let (p, revision, players) = state
        .run(move |c| {
            Ok((
                publications::find(c, tid)?,
                crate::director::tournaments::revision(c, tid)?,
                crate::director::players::list(c, tid)?,
            ))
        })
        .await?;
    let unrated = crate::director::registry::without_federation_id(&players);
    Ok(HttpResponse::Ok().json(json_of(p.as_ref(), revision, &unrated)))
}

/// `GET /api/v1/tournaments/{tid}/publication` (the token never comes back).
pub async fn get_publication(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, ApiError> {
    let tid = refereed(&state, &user, path.into_inner()).await?.id;
    answer(&state, tid).await
}

/// `PUT /api/v1/tournaments/{tid}/publication {"to", "token"}`.
pub async fn put_publication(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    body: web::Json<super::Object<PublicationBody>>,
) -> Result<HttpResponse, ApiError> {
    let tid = refereed(&state, &user, path.into_inner()).await?.id;
    let (to, token) = publications::check(&body.to, &body.token).map_err(AppError::from)?;
    state
        .write(Some(user.id), move |w| {
            publications::set(w, tid, &to, &token)
        })
        .await?;
    answer(&state, tid).await
}

/// `DELETE /api/v1/tournaments/{tid}/publication`: stops publishing.
pub async fn delete_publication(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, ApiError> {
    let tid = refereed(&state, &user, path.into_inner()).await?.id;
    state
        .write(Some(user.id), move |w| publications::stop(w, tid))
        .await?;
    answer(&state, tid).await
}

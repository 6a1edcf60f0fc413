//! Pairs kept apart, and their waivers.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::director::forbidden;
use crate::director::model::{Forbidden, NewForbidden};
use crate::web::error::ApiError;
use crate::web::AppState;

use super::{refereed, ApiUser};
use crate::ids::{EntryId, TournamentId};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewForbiddenBody {
    a: EntryId,
    b: EntryId,
    #[serde(default)]
    from_round: Option<i32>,
    #[serde(default)]
    to_round: Option<i32>,
}

/// A kept-apart pair as the API shows it.
#[derive(Debug, Serialize)]
pub struct ForbiddenJson {
    id: i32,
    a: EntryId,
    b: EntryId,
    from_round: Option<i32>,
    to_round: Option<i32>,
    waived: bool,
    note: String,
}

impl From<Forbidden> for ForbiddenJson {
    fn from(f: Forbidden) -> ForbiddenJson {
        ForbiddenJson {
            id: f.id,
            a: f.a,
            b: f.b,
            from_round: f.from_round,
            to_round: f.to_round,
            waived: f.waived,
            note: f.note,
        }
    }
}

/// `POST /api/v1/tournaments/{tid}/forbidden`: keeps two players apart.
pub async fn add_forbidden(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    body: web::Json<super::Object<NewForbiddenBody>>,
) -> Result<HttpResponse, ApiError> {
    let t = refereed(&state, &user, path.into_inner()).await?;
    let tid = t.id;
    let new = NewForbidden {
        a: body.a,
        b: body.b,
        from_round: body.from_round,
        to_round: body.to_round,
    };
    let f = state
        .write(Some(user.id), move |w| forbidden::add(w, tid, new))
        .await?;
    Ok(HttpResponse::Created().json(ForbiddenJson::from(f)))
}

/// `DELETE /api/v1/tournaments/{tid}/forbidden/{fid}`: lifts the ban.
pub async fn remove_forbidden(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, i32)>,
) -> Result<HttpResponse, ApiError> {
    let (tid, fid) = path.into_inner();
    let t = refereed(&state, &user, tid).await?;
    let tid = t.id;
    state
        .write(Some(user.id), move |w| forbidden::remove(w, tid, fid))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaiverBody {
    #[serde(default)]
    reason: String,
}

/// `PUT /api/v1/tournaments/{tid}/forbidden/{fid}/waiver`: lets the pair
/// meet despite the ban, for the reason given.
pub async fn waive_forbidden(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, i32)>,
    body: web::Json<super::Object<WaiverBody>>,
) -> Result<HttpResponse, ApiError> {
    let (tid, fid) = path.into_inner();
    let t = refereed(&state, &user, tid).await?;
    let (tid, reason) = (t.id, body.into_inner().0.reason);
    let f = state
        .write(Some(user.id), move |w| {
            forbidden::waive(w, tid, fid, &reason)
        })
        .await?;
    Ok(HttpResponse::Ok().json(ForbiddenJson::from(f)))
}

/// `DELETE /api/v1/tournaments/{tid}/forbidden/{fid}/waiver`: keeps the
/// pair apart again.
pub async fn clear_forbidden_waiver(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, i32)>,
) -> Result<HttpResponse, ApiError> {
    let (tid, fid) = path.into_inner();
    let t = refereed(&state, &user, tid).await?;
    let tid = t.id;
    let f = state
        .write(Some(user.id), move |w| forbidden::clear_waiver(w, tid, fid))
        .await?;
    Ok(HttpResponse::Ok().json(ForbiddenJson::from(f)))
}

//! The receiving side of publishing: `PUT /api/v1/published/{origin}`.

use actix_web::{web, HttpResponse};
use futures_util::StreamExt;
use serde::Deserialize;

use crate::db::event::MAX_FILE_BYTES;
use crate::db::published::{self, Received, Sent};
use crate::field::{FieldError, Problem};
use crate::web::error::{ApiError, AppError};
use crate::web::AppState;

use super::ApiUser;

/// What a venue sends: its revision of the event, its name and page of it,
/// and the event file as `kraal export event` writes it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublishBody {
    revision: i32,
    server: String,
    #[serde(default)]
    link: String,
    event: serde_json::Value,
}

/// The body, read up to the import's limit (and a little for the envelope).
async fn body_of(mut payload: web::Payload) -> Result<Vec<u8>, AppError> {
    let limit = MAX_FILE_BYTES + 64 * 1024;
    let mut bytes = Vec::new();
    while let Some(chunk) = payload.next().await {
        let chunk =
            chunk.map_err(|e| AppError::BadRequest(format!("the body could not be read: {e}")))?;
        if bytes.len() + chunk.len() > limit {
            return Err(AppError::TooLarge(format!(
                "an event file is at most {} MB",
                MAX_FILE_BYTES / (1024 * 1024)
            )));
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

fn refused(field: &'static str, problem: Problem) -> AppError {
    AppError::from(crate::db::DbError::Invalid(FieldError::new(field, problem)))
}

/// `PUT /api/v1/published/{origin}`: stores the venue's event as a
/// read-only tournament here (200 with `"changed": false` when this
/// revision or a newer one is here already).
pub async fn receive(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    if !(user.is_admin() || user.may_publish) {
        return Err(ApiError(AppError::Forbidden(
            "This account may not publish events here: the server's admin allows an account with `kraal user publisher NAME`.".into(),
        )));
    }
    let origin = path.into_inner();
    let bytes = body_of(payload).await?;
    let body: PublishBody = serde_json::from_slice(&bytes)
        .map_err(|e| AppError::BadRequest(format!("the JSON body could not be read: {e}")))?;
    if body.revision < 1 {
        return Err(ApiError(refused(
            "revision",
            Problem::BelowOne {
                value: body.revision.into(),
            },
        )));
    }
    let server = body.server.trim().to_string();
    if let Err(e) = crate::roster::check_printable("server", &server) {
        return Err(ApiError(AppError::from(crate::db::DbError::Invalid(e))));
    }
    if server.is_empty() {
        return Err(ApiError(refused("server", Problem::Empty)));
    }
    if server.chars().count() > 100 {
        return Err(ApiError(refused("server", Problem::TooLong { max: 100 })));
    }
    let link = body.link.trim().to_string();
    let web_address = link.starts_with("http://") || link.starts_with("https://");
    let printable = crate::roster::check_printable("link", &link).is_ok();
    if (!link.is_empty() && !web_address) || !printable || link.len() > 300 {
        return Err(ApiError(refused("link", Problem::NotALink { text: link })));
    }
    // The event file is checked as `kraal import event` checks it.
    let text = body.event.to_string();
    let file = crate::db::event::parse(&text).map_err(AppError::from)?;
    let sent = Sent {
        origin,
        revision: body.revision,
        server,
        link,
    };
    let by = user.clone();
    let received = state
        .write(Some(user.id), move |w| {
            published::receive(w, &sent, &by, &file)
        })
        .await?;
    let (tournament, changed, revision, people) = match received {
        Received::Stored {
            tournament,
            imported,
        } => (tournament, true, body.revision, Some(imported)),
        Received::Unchanged {
            tournament,
            revision,
        } => (tournament, false, revision, None),
    };
    // Who the entries are here: by federation id, linked to a person this
    // registry had or added to it; the rest are not rated here.
    let names = |f: fn(&crate::db::event::Imported) -> &Vec<String>| {
        people.as_ref().map(f).cloned().unwrap_or_default()
    };
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "tournament": tournament,
        "revision": revision,
        "changed": changed,
        "people_linked": names(|i| &i.people_linked),
        "people_created": names(|i| &i.people_created),
        "entries_unlinked": names(|i| &i.entries_unlinked),
    })))
}

//! The receiving side of publishing: `PUT /api/v1/published/{origin}`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use actix_web::{web, HttpRequest, HttpResponse};
use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::director::model::{EventFile, MAX_FILE_BYTES};
use crate::director::model::{Received, Sent};
use crate::director::published;
use crate::field::{FieldError, Problem};
use crate::refusal::{Forbidden, Refusal, Unreadable};
use crate::web::error::{ApiError, AppError};
use crate::web::AppState;

use super::ApiUser;

/// What a venue sends: its revision of the event, its name and page of it,
/// and the event file as `kraal export event` writes it (kept as the text
/// it came in, and read once, straight into the event's rows).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublishBody<'a> {
    revision: i32,
    server: String,
    #[serde(default)]
    link: String,
    #[serde(borrow)]
    event: &'a RawValue,
}

/// A body above this size is a large one: at most [`LARGE_AT_ONCE`] of
/// them are read and stored at once.
pub const LARGE_BODY: usize = 4 * 1024 * 1024;
/// How many large bodies this server takes at once; one more is answered
/// 503 with `Retry-After`.
pub const LARGE_AT_ONCE: usize = 2;
/// The wait a refused large body is told to take, in seconds.
pub const LARGE_RETRY_AFTER: u64 = 10;

/// The large bodies being read or stored now (one count per server).
#[derive(Debug, Clone, Default)]
pub struct LargeBodies(Arc<AtomicUsize>);

/// One large body's place, given back when dropped.
#[derive(Debug)]
struct Place(Arc<AtomicUsize>);

impl LargeBodies {
    /// A place for one more large body, if fewer than [`LARGE_AT_ONCE`] are
    /// under way.
    fn take(&self) -> Option<Place> {
        self.0
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < LARGE_AT_ONCE).then_some(n + 1)
            })
            .ok()
            .map(|_| Place(self.0.clone()))
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Why a body was not read.
enum Unread {
    Failed(AppError),
    /// Too many large bodies at once: 503, try again later.
    Busy,
}

/// The body, read up to the import's limit (and a little for the
/// envelope), into one buffer of the announced size; a large one only
/// with a place among the large bodies, which the caller holds until the
/// event is stored.
async fn body_of(
    mut payload: web::Payload,
    announced: Option<usize>,
    large: &LargeBodies,
) -> Result<(Vec<u8>, Option<Place>), Unread> {
    let limit = MAX_FILE_BYTES + 64 * 1024;
    let too_large = || {
        Unread::Failed(AppError::Refused(Refusal::TooLarge {
            max_bytes: MAX_FILE_BYTES as u64,
        }))
    };
    if announced.is_some_and(|n| n > limit) {
        return Err(too_large());
    }
    let mut place = None;
    if announced.is_some_and(|n| n > LARGE_BODY) {
        place = Some(large.take().ok_or(Unread::Busy)?);
    }
    let mut bytes = Vec::with_capacity(announced.unwrap_or(0));
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| {
            Unread::Failed(AppError::from(Unreadable::UnreadableBody {
                detail: e.to_string(),
            }))
        })?;
        if bytes.len() + chunk.len() > limit {
            return Err(too_large());
        }
        if place.is_none() && bytes.len() + chunk.len() > LARGE_BODY {
            place = Some(large.take().ok_or(Unread::Busy)?);
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok((bytes, place))
}

/// 503 with `Retry-After`: too many large publications at once.
fn busy() -> HttpResponse {
    HttpResponse::ServiceUnavailable()
        .insert_header((
            actix_web::http::header::RETRY_AFTER,
            LARGE_RETRY_AFTER.to_string(),
        ))
        .json(crate::web::error::ApiErrorBody {
            code: "server_busy",
            error: format!(
                "This server is storing {LARGE_AT_ONCE} large events already: send again in {LARGE_RETRY_AFTER} seconds."
            ),
            field: None,
            params: serde_json::json!({ "retry_after": LARGE_RETRY_AFTER })
                .as_object()
                .cloned()
                .unwrap_or_default(),
        })
}

/// The announced length of the body, if any.
fn announced(request: &HttpRequest) -> Option<usize> {
    request
        .headers()
        .get(actix_web::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok())
}

/// The envelope checked and the event file read as `kraal import event`
/// reads it.
fn read_body(bytes: &[u8], origin: String) -> Result<(Sent, EventFile), AppError> {
    let body: super::Object<PublishBody> =
        serde_json::from_slice(bytes).map_err(|e| Unreadable::UnreadableJson {
            detail: e.to_string(),
        })?;
    if body.revision < 1 {
        return Err(refused(
            "revision",
            Problem::BelowOne {
                value: body.revision.into(),
            },
        ));
    }
    let server = body.server.trim().to_string();
    crate::roster::check_printable("server", &server).map_err(AppError::from)?;
    if server.is_empty() {
        return Err(refused("server", Problem::Empty));
    }
    if body.server.chars().count() > 100 {
        return Err(refused("server", Problem::TooLong { max: 100 }));
    }
    let link = body.link.trim().to_string();
    let web_address = link.starts_with("http://") || link.starts_with("https://");
    let printable = crate::roster::check_printable("link", &link).is_ok();
    if (!link.is_empty() && !web_address) || !printable || link.len() > 300 {
        return Err(refused("link", Problem::NotALink { text: link }));
    }
    // The event file is checked as `kraal import event` checks it.
    let file = crate::director::published::parse(body.event.get()).map_err(AppError::from)?;
    let sent = Sent {
        origin,
        revision: body.revision,
        server,
        link,
    };
    Ok((sent, file))
}

fn refused(field: &'static str, problem: Problem) -> AppError {
    AppError::from(FieldError::new(field, problem))
}

/// `PUT /api/v1/published/{origin}`: stores the venue's event as a
/// read-only tournament here (200 with `"changed": false` when this
/// revision or a newer one is here already).
pub async fn receive(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    request: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    if !(user.is_admin() || user.may_publish) {
        return Err(Forbidden::NoPublishing.into());
    }
    let origin = path.into_inner();
    let (bytes, _place) = match body_of(payload, announced(&request), &state.large_bodies).await {
        Ok(read) => read,
        Err(Unread::Busy) => return Ok(busy()),
        Err(Unread::Failed(e)) => return Err(ApiError(e)),
    };
    // Read off the request threads; the body is let go as soon as it is
    // read: the rows are what is kept.
    let (sent, file) = web::block(move || read_body(&bytes, origin)).await??;
    let revision_sent = sent.revision;
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
        } => (tournament, true, revision_sent, Some(imported)),
        Received::Unchanged {
            tournament,
            revision,
        } => (tournament, false, revision, None),
    };
    // Who the entries are here: by federation id, linked to a person this
    // registry had or added to it; the rest are not rated here.
    let names = |f: fn(&crate::director::model::Imported) -> &Vec<String>| {
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

/// A venue's records of one game recorded at the board.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordsBody {
    dark: Vec<String>,
    light: Vec<String>,
}

/// `PUT /api/v1/published/{origin}/games/{round}/{table}/{game}`: the
/// venue's records of a game recorded at the board (the starter's as
/// `dark`), which the copy here takes as they are, so that its live boards
/// follow the venue's ply by ply without the event file being sent again.
pub async fn receive_records(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(String, crate::ids::RoundNo, i32, i32)>,
    bytes: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    if !(user.is_admin() || user.may_publish) {
        return Err(Forbidden::NoPublishing.into());
    }
    let (origin, round, table, number) = path.into_inner();
    let body: super::Object<RecordsBody> = serde_json::from_slice(&bytes).map_err(|e| {
        AppError::from(Unreadable::UnreadableJson {
            detail: e.to_string(),
        })
    })?;
    let body = body.0;
    let place = crate::director::recording::GamePlace {
        round,
        table,
        number,
    };
    let plies = body.dark.len().max(body.light.len());
    let game = state
        .run(move |c| {
            crate::director::recording::receive_records(
                c,
                &user,
                &origin,
                place,
                &body.dark,
                &body.light,
            )
        })
        .await?;
    Ok(HttpResponse::Ok().json(serde_json::json!({ "game": game, "plies": plies })))
}

//! A player's write sent twice is done once. A phone at a venue loses
//! answers: the network drops after the request left, or its offline
//! queue sends again what it is not sure arrived. A write from a personal
//! link (`POST /player/{key}/...`, `POST /api/v1/player/{key}/...`) that
//! carries an `Idempotency-Key` header is answered, the second time and
//! after, with the first answer (its status, body and `Location`, and
//! `Idempotent-Replayed: true`), for 24 hours, from the database, so a
//! restart or another app process on the same PostgreSQL answers alike.
//!
//! Keys are per link. The same key with another body (another result,
//! another game) is refused 422 naming the header: it is a client's
//! mistake, and doing either write could be the wrong one. A form's `csrf`
//! field is left out of the comparison (the page may have been reloaded in
//! between). Answers that say the write was not looked at (429, 5xx, a
//! link that does not hold) are not kept, so the retry is done for real; a refusal of the write itself (409: a referee's result
//! got there first; 422) is kept like a success, so a queue that resends
//! it gets the same refusal and stops.
//!
//! Two sends of one key that cross both reach the use case, which takes
//! the game's lock in turn: the second finds the report already made and
//! changes nothing, and the first answer kept is the one kept.

use actix_web::body::{to_bytes, BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{header, Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::web;
use actix_web::HttpResponse;
use blake2::{Blake2s256, Digest};

use super::error::{ApiError, AppError};
use super::AppState;
use crate::director::personal;
use crate::field::{FieldError, Problem};
use crate::refusal::Refusal;

/// The request header.
pub const HEADER: &str = "Idempotency-Key";

/// A player's write body is a few hundred bytes; this bounds what is read
/// to compare it.
const MAX_BODY: usize = 64 * 1024;

/// The link key of a player's write, when `req` is one.
fn player_write(req: &ServiceRequest) -> Option<String> {
    if req.method() != Method::POST {
        return None;
    }
    let path = req.path();
    let rest = path
        .strip_prefix("/api/v1/player/")
        .or_else(|| path.strip_prefix("/player/"))?;
    let (key, action) = rest.split_once('/')?;
    (!key.is_empty() && !action.is_empty()).then(|| key.to_string())
}

/// Answers a player's write once per `Idempotency-Key`.
pub async fn idempotent(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let Some(link) = player_write(&req) else {
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    let Some(key) = req.headers().get(HEADER).cloned() else {
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    let api = req.path().starts_with("/api/");
    let refuse = |e: AppError| -> actix_web::Error {
        if api {
            ApiError(e).into()
        } else {
            e.into()
        }
    };
    let key = match key.to_str().ok().filter(|k| well_formed(k)) {
        Some(k) => k.to_string(),
        None => {
            let text = String::from_utf8_lossy(key.as_bytes()).into_owned();
            return Err(refuse(
                Refusal::Invalid(FieldError::new(
                    HEADER,
                    Problem::NotAnIdempotencyKey { text },
                ))
                .into(),
            ));
        }
    };
    let body = super::auth::whole_body(&mut req, MAX_BODY)
        .await
        .map_err(&refuse)?;
    let request = request_digest(&req, &body);
    let link_key = link.clone();
    let link = crate::accounts::token_digest(&link);
    let state = req
        .app_data::<web::Data<AppState>>()
        .cloned()
        .expect("the app's state");
    let (plain, l, k) = (link_key, link.clone(), key.clone());
    let kept = state
        .run(move |c| {
            if !personal::link_holds(c, &plain)? {
                return Ok(None);
            }
            personal::recalled(c, &l, &k).map(Some)
        })
        .await
        .map_err(&refuse)?;
    // A link that does not hold: its route says so, and nothing is kept.
    let Some(kept) = kept else {
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    if let Some(kept) = kept {
        if kept.request != request {
            return Err(refuse(
                Refusal::Invalid(FieldError::new(HEADER, Problem::IdempotencyKeyReused)).into(),
            ));
        }
        let (request, _) = req.into_parts();
        return Ok(ServiceResponse::new(request, replay(&kept)));
    }
    let res = next.call(req).await?;
    if !worth_keeping(res.status()) {
        return Ok(res.map_into_boxed_body());
    }
    let (http_request, res) = res.into_parts();
    let (head, body) = res.into_parts();
    let Ok(bytes) = to_bytes(body).await else {
        return Err(refuse(AppError::internal(
            "an answer that could not be read to keep",
        )));
    };
    let header_text = |name| {
        head.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let answer = crate::director::model::Answer {
        link,
        idempotency_key: key,
        request,
        status: i32::from(head.status().as_u16()),
        content_type: header_text(header::CONTENT_TYPE),
        location: header_text(header::LOCATION),
        body: String::from_utf8_lossy(&bytes).into_owned(),
        created_at: chrono::Utc::now().naive_utc(),
    };
    state
        .run(move |c| personal::keep_answer(c, &answer))
        .await
        .map_err(&refuse)?;
    Ok(ServiceResponse::new(
        http_request,
        head.set_body(bytes).map_into_boxed_body(),
    ))
}

/// 1 to 255 visible ASCII characters (a UUID, a counter, ...).
fn well_formed(key: &str) -> bool {
    (1..=255).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_graphic())
}

/// Whether an answer says what became of the write, so that a resend
/// should get it again.
fn worth_keeping(status: StatusCode) -> bool {
    status.is_success()
        || status.is_redirection()
        || matches!(
            status,
            StatusCode::CONFLICT | StatusCode::UNPROCESSABLE_ENTITY | StatusCode::BAD_REQUEST
        )
}

/// What makes two sends the same write: the path and the body, a form's
/// `csrf` field left out.
fn request_digest(req: &ServiceRequest, body: &[u8]) -> String {
    let mut d = Blake2s256::new();
    d.update(req.path().as_bytes());
    d.update([0]);
    let form = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    match serde_urlencoded::from_bytes::<Vec<(String, String)>>(body) {
        Ok(pairs) if form => {
            for (k, v) in pairs.iter().filter(|(k, _)| k != super::auth::CSRF_FIELD) {
                d.update(k.as_bytes());
                d.update([0]);
                d.update(v.as_bytes());
                d.update([0]);
            }
        }
        _ => d.update(body),
    }
    d.finalize()
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The kept answer, again.
fn replay(kept: &crate::director::model::Answer) -> HttpResponse {
    let status = u16::try_from(kept.status)
        .ok()
        .and_then(|s| StatusCode::from_u16(s).ok())
        .unwrap_or(StatusCode::OK);
    let mut res = HttpResponse::build(status);
    res.insert_header(("Idempotent-Replayed", "true"));
    if let Some(t) = &kept.content_type {
        res.insert_header((header::CONTENT_TYPE, t.as_str()));
    }
    if let Some(l) = &kept.location {
        res.insert_header((header::LOCATION, l.as_str()));
    }
    res.body(kept.body.clone())
}

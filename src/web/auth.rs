//! Who is asking: session cookies for people, bearer tokens for scripts, and
//! the CSRF check that every state-changing browser request must pass.
//!
//! The [`guard`] middleware runs on every request. It resolves the caller once
//! (a token in `Authorization: Bearer`, else the session cookie), refuses a
//! browser's POST whose form does not carry the CSRF token of its cookie, and
//! sets that cookie when a page handed one out. Handlers then say what they
//! need with an extractor: [`SignedIn`], [`Admin`] or [`Referee`].

use std::future::{ready, Ready};

use actix_web::body::{EitherBody, MessageBody};
use actix_web::cookie::{Cookie, SameSite};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::{header, Method};
use actix_web::middleware::Next;
use actix_web::web::{self, Bytes, BytesMut};
use actix_web::{FromRequest, HttpMessage, HttpRequest};
use futures_util::StreamExt;

use super::caller::{caller, Caller};
use super::error::AppError;
use super::AppState;
use crate::accounts;
use crate::director::model::Tournament;
use crate::director::model::User;
use crate::refusal::{Forbidden, Refusal, Thing, Unreadable};

use crate::director::{tournaments, users};
use crate::ids::TournamentId;

pub const SESSION_COOKIE: &str = "kraal_session";
pub const CSRF_COOKIE: &str = "kraal_csrf";
/// The form field (or `X-CSRF-Token` header) that must echo the CSRF cookie.
pub const CSRF_FIELD: &str = "csrf";

/// Largest form body the CSRF check reads; larger browser posts are refused.
const MAX_FORM_BYTES: usize = 4 * 1024 * 1024;

/// Runs around every request; see the module documentation. Its own
/// refusals (a bad `Authorization` header, a revoked token, a form without
/// its CSRF token) are answered here as responses, so that they pass
/// through the outer middleware (security headers, compression) like any
/// page.
pub async fn guard(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let api = req.path().starts_with("/api/");
    let (state, changes_state) = match admit(&mut req, api).await {
        Ok(admitted) => admitted,
        Err(e) => {
            let res = if api {
                req.error_response(super::error::ApiError(e))
            } else {
                // The refusal's page still shows who is signed in.
                let page = e.page_at(error_ctx(req.request()), req.path());
                let (request, _) = req.into_parts();
                ServiceResponse::new(request, page)
            };
            let mut res = res.map_into_right_body();
            let secure = res
                .request()
                .app_data::<web::Data<AppState>>()
                .is_some_and(|s| s.secure_cookies);
            seal(&mut res, secure)?;
            return Ok(res);
        }
    };
    let res = next.call(req).await?;
    // An error page is rendered before anyone knows the caller or the
    // page it was asked on: render it again with the signed-in account in
    // the header and a link back.
    let page = res
        .response()
        .error()
        .and_then(|e| e.as_error::<AppError>())
        .filter(|_| !api)
        .map(|e| e.page_at(error_ctx(res.request()), res.request().path()));
    let mut res = match page {
        Some(page) => {
            let (request, _) = res.into_parts();
            ServiceResponse::new(request, page).map_into_right_body()
        }
        None => res.map_into_left_body(),
    };
    if changes_state {
        // Whatever it changed, this process's cached pages must not outlive it.
        state.pages.outdate();
        state.archived.outdate();
    }
    seal(&mut res, state.secure_cookies)?;
    Ok(res)
}

/// The last touches of every response: its `Cache-Control` where
/// [`keeping`] decides it, and the CSRF cookie of a token the page handed
/// out.
fn seal<B>(res: &mut ServiceResponse<B>, secure: bool) -> Result<(), actix_web::Error> {
    if let Some(kept) = keeping(res) {
        res.response_mut().headers_mut().insert(
            header::CACHE_CONTROL,
            header::HeaderValue::from_static(kept),
        );
    }
    let issued = res
        .request()
        .extensions()
        .get::<Caller>()
        .and_then(|c| c.issued_csrf.clone());
    if let Some(token) = issued {
        let cookie = security_cookie(CSRF_COOKIE, token, secure);
        res.response_mut().add_cookie(&cookie)?;
    }
    Ok(())
}

/// The header of an error page: the signed-in account with its CSRF token
/// (for the sign-out button), or nobody, without handing out a token.
fn error_ctx(req: &HttpRequest) -> super::ctx::Ctx {
    if caller(req).user.is_some() {
        super::ctx::Ctx::with_csrf(req)
    } else {
        super::ctx::Ctx::anonymous()
    }
}

/// How a private response may be kept (`None`: a public one, which says
/// for itself).
///
/// `no-store` is for what no browser, proxy or shared computer may keep:
/// every answer to a signed-in session or a token (the account, a new
/// token, the event file, the records, the audit trail, the results desk
/// all are), the pages a captain's or a pairing's secret link opens, the
/// player API and every answer to a write. A player's own page (its
/// manifest, and the board they record a game on), read without an
/// account, is `private, no-cache` instead:
/// no shared cache keeps it, and the phone that opened it may, revalidating
/// it each time it is online, so that it opens in a dead spot (the
/// service worker keeps it for that, `static/sw.js`). The stylesheet and
/// script stay cacheable.
fn keeping<B>(res: &ServiceResponse<B>) -> Option<&'static str> {
    let req = res.request();
    let path = req.path();
    if path.starts_with("/static/") {
        return None;
    }
    let signed_in = caller(req).user.is_some();
    // The player's page, its manifest, and the board they record a game
    // on (which goes on recording in a dead spot).
    let own_page = path
        .strip_prefix("/player/")
        .is_some_and(|rest| match rest.split_once('/') {
            None | Some((_, "manifest.webmanifest")) => true,
            Some((_, rest)) => rest
                .strip_prefix("games/")
                .and_then(|g| g.strip_suffix("/record"))
                .is_some_and(|gid| !gid.is_empty() && gid.bytes().all(|b| b.is_ascii_digit())),
        });
    if own_page && !signed_in && matches!(*req.method(), Method::GET | Method::HEAD) {
        return Some("private, no-cache");
    }
    let private = signed_in
        || ["/captain/", "/p/", "/player/", "/api/v1/player/"]
            .iter()
            .any(|prefix| path.starts_with(prefix));
    private.then_some("no-store")
}

/// Who is calling, checked: the bearer token or the session, and for a
/// browser's state-changing request its CSRF token.
///
/// The caller is put in the request's extensions before the CSRF check, so
/// that even its refusal knows who asked.
async fn admit(
    req: &mut ServiceRequest,
    api: bool,
) -> Result<(web::Data<AppState>, bool), AppError> {
    let state = req
        .app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| AppError::internal("application state missing"))?;
    let mut caller = Caller::default();

    let bearer = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim().to_string());
    if let Some(value) = bearer {
        let token = value
            .strip_prefix("Bearer ")
            .or_else(|| value.strip_prefix("bearer "))
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or(AppError::from(Unreadable::BadAuthorization))?
            .to_string();
        let digest = accounts::token_digest(&token);
        let user = state.run(move |c| users::token_user(c, &digest)).await?;
        match user {
            Some(u) => {
                caller.user = Some(u);
                caller.by_token = true;
            }
            None => return Err(AppError::unauthorized()),
        }
    } else {
        if let Some(session) = req.cookie(SESSION_COOKIE).map(|c| c.value().to_string()) {
            let digest = accounts::token_digest(&session);
            caller.user = state.run(move |c| users::session_user(c, &digest)).await?;
        }
        caller.csrf = req
            .cookie(CSRF_COOKIE)
            .map(|c| c.value().to_string())
            .filter(|v| v.len() == 64);
    }

    // A request that reaches no handler (a path the app does not have, a
    // method the path does not have) has no form to check: it is 404 or
    // 405 whoever sends it.
    let changes_state = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS)
        && req
            .app_data::<web::Data<super::handled::Handled>>()
            .is_some_and(|h| h.reaches(req.path(), req.method()));
    // An anonymous API call carries no credentials a forged request could
    // borrow; it is answered 401 by the route itself.
    let ambient = caller.user.is_some() || !api;
    let (by_token, csrf) = (caller.by_token, caller.csrf.clone());
    // An archived tournament is no page for whoever may not see it.
    let path = req.path().to_string();
    super::archive::admit(&state, &path, caller.user.as_ref()).await?;
    req.extensions_mut().insert(caller);
    if changes_state && !by_token && ambient {
        check_csrf(req, csrf.as_deref()).await?;
    }
    Ok((state, changes_state))
}

/// Reads the body of a browser's state-changing request and compares its
/// `csrf` field (or the `X-CSRF-Token` header) with the cookie, then puts the
/// body back for the handler.
async fn check_csrf(req: &mut ServiceRequest, cookie: Option<&str>) -> Result<(), AppError> {
    let expired = || AppError::from(Forbidden::ForeignForm);
    let Some(cookie) = cookie else {
        return Err(expired());
    };
    if let Some(h) = req
        .headers()
        .get("x-csrf-token")
        .and_then(|v| v.to_str().ok())
    {
        return if accounts::same_secret(h, cookie) {
            Ok(())
        } else {
            Err(expired())
        };
    }
    let is_form = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    if !is_form {
        return Err(expired());
    }
    let body = whole_body(req, MAX_FORM_BYTES).await?;
    let sent = form_urlencoded_value(&body, CSRF_FIELD);
    match sent {
        Some(v) if accounts::same_secret(&v, cookie) => Ok(()),
        _ => Err(expired()),
    }
}

/// Reads a request's whole body (at most `max` bytes: past that it is
/// refused as too large) and puts it back for the handler.
pub async fn whole_body(req: &mut ServiceRequest, max: usize) -> Result<Bytes, AppError> {
    let mut payload = req.take_payload();
    let mut body = BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| Unreadable::UnreadableBody {
            detail: e.to_string(),
        })?;
        if body.len() + chunk.len() > max {
            return Err(AppError::Refused(Refusal::TooLarge {
                max_bytes: max as u64,
            }));
        }
        body.extend_from_slice(&chunk);
    }
    let body: Bytes = body.freeze();
    req.set_payload(Payload::from(body.clone()));
    Ok(body)
}

fn form_urlencoded_value(body: &[u8], key: &str) -> Option<String> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(body).ok()?;
    pairs.into_iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// A cookie only this site's pages send back, invisible to scripts.
pub fn security_cookie(name: &'static str, value: String, secure: bool) -> Cookie<'static> {
    Cookie::build(name, value)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .finish()
}

/// Any signed-in account.
pub struct SignedIn(pub User);

impl FromRequest for SignedIn {
    type Error = AppError;
    type Future = Ready<Result<SignedIn, AppError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(
            caller(req)
                .user
                .map(SignedIn)
                .ok_or_else(AppError::unauthorized),
        )
    }
}

/// An admin account.
pub struct Admin(pub User);

impl FromRequest for Admin {
    type Error = AppError;
    type Future = Ready<Result<Admin, AppError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(match caller(req).user {
            None => Err(AppError::unauthorized()),
            Some(u) if u.is_admin() => Ok(Admin(u)),
            Some(_) => Err(Forbidden::AdminOnly.into()),
        })
    }
}

/// An admin, or a referee assigned to the tournament `{tid}` of the path.
pub struct Referee {
    pub user: User,
    pub tournament: Tournament,
}

impl FromRequest for Referee {
    type Error = AppError;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Referee, AppError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let user = caller(req).user;
        let tid = req
            .match_info()
            .get("tid")
            .and_then(|v| v.parse::<TournamentId>().ok());
        let state = req.app_data::<web::Data<AppState>>().cloned();
        Box::pin(async move {
            let user = user.ok_or_else(AppError::unauthorized)?;
            let tid = tid.ok_or_else(|| AppError::not_found(Thing::Tournament))?;
            let state = state.ok_or_else(|| AppError::internal("application state missing"))?;
            let tournament = refereed_tournament(&state, &user, tid).await?;
            Ok(Referee { user, tournament })
        })
    }
}

/// The tournament `tid`, if `user` is an admin or one of its referees.
pub async fn refereed_tournament(
    state: &AppState,
    user: &User,
    tid: TournamentId,
) -> Result<Tournament, AppError> {
    let uid = user.id;
    let (tournament, assigned, published) = state
        .run(move |c| {
            Ok((
                tournaments::find(c, tid)?,
                tournaments::is_referee(c, tid, uid)?,
                crate::director::published::of_tournament(c, tid)?,
            ))
        })
        .await?;
    if let Some(p) = published {
        // A copy of a venue's event changes there, never here.
        return Err(Forbidden::PublishedCopy {
            tournament: tournament.name,
            server: p.server,
        }
        .into());
    }
    if user.is_admin() || assigned {
        Ok(tournament)
    } else {
        Err(Forbidden::NotReferee {
            tournament: tournament.name,
        }
        .into())
    }
}

/// Whether the caller referees tournament `tid` (or is an admin).
pub async fn can_edit(
    state: &AppState,
    ctx: &crate::web::ctx::Ctx,
    tid: TournamentId,
) -> Result<bool, AppError> {
    let Some(u) = &ctx.user else {
        return Ok(false);
    };
    let (uid, admin) = (u.id, u.is_admin());
    state
        .run(move |c| {
            // A published copy is read-only for everyone here.
            if crate::director::published::of_tournament(c, tid)?.is_some() {
                return Ok(false);
            }
            Ok(admin || tournaments::is_referee(c, tid, uid)?)
        })
        .await
}

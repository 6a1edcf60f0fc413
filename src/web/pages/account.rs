//! First setup, signing in and out, and the account page (password, API tokens).

use crate::refusal::{Thing, TooMany};
use actix_web::cookie::Cookie;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;
use chrono::Duration;
use serde::Deserialize;

use crate::accounts;

use crate::director::model::User;
use crate::director::model::{Admission, ApiToken};
use crate::director::users;
use crate::field::Problem;
use crate::web::auth::{security_cookie, CSRF_COOKIE, SESSION_COOKIE};
use crate::web::error::AppError;
use crate::web::layout::{render, see_other, Ctx, FormErrors, FORM_ERROR};
use crate::web::AppState;

/// Failed sign-ins allowed per name in [`THROTTLE_MINUTES`] before refusing.
pub const MAX_FAILURES: i64 = 5;
pub const THROTTLE_MINUTES: i64 = 15;
/// How long a sign-in waits for others of the same name being checked
/// before it is refused.
const SIGN_IN_PATIENCE: std::time::Duration = std::time::Duration::from_secs(5);

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CredentialsForm {
    pub name: String,
    pub password: String,
    pub password2: String,
    pub next: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "setup.html")]
pub struct SetupPage {
    ctx: Ctx,
    name: String,
    errors: FormErrors,
}

async fn setup_done(state: &AppState) -> Result<bool, AppError> {
    Ok(state.run(users::count).await? > 0)
}

pub async fn setup_form(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<SetupPage, AppError> {
    if setup_done(&state).await? {
        return Err(AppError::not_found(Thing::Setup));
    }
    Ok(SetupPage {
        ctx: Ctx::with_csrf(&req),
        name: String::new(),
        errors: FormErrors::default(),
    })
}

/// Creates the first admin, once; a second attempt finds the setup taken.
pub async fn setup(
    req: HttpRequest,
    state: web::Data<AppState>,
    form: web::Form<CredentialsForm>,
) -> Result<HttpResponse, AppError> {
    if setup_done(&state).await? {
        return Err(AppError::not_found(Thing::Setup));
    }
    let form = form.into_inner();
    let mut errors = FormErrors::default();
    let name = users::check_name(&form.name)
        .map_err(|e| errors.refused(&e))
        .ok();
    if let Err(m) = accounts::check_new_password(&form.password) {
        errors.refused(&m);
    } else if form.password != form.password2 {
        errors.problem("password2", Problem::PasswordsDiffer);
    }
    let (Some(name), true) = (name, errors.is_empty()) else {
        let page = SetupPage {
            ctx: Ctx::with_csrf(&req),
            name: form.name,
            errors,
        };
        return render(&page, FORM_ERROR);
    };
    let hash = accounts::hash_password(&form.password).map_err(AppError::internal)?;
    let admin = state
        .write(None, move |w| users::create_first_admin(w, &name, &hash))
        .await?;
    start_session(&state, &admin, None, "/").await
}

#[derive(Template, WebTemplate)]
#[template(path = "login.html")]
pub struct LoginPage {
    ctx: Ctx,
    name: String,
    next: String,
    error: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct NextQuery {
    pub next: String,
}

pub async fn login_form(
    req: HttpRequest,
    state: web::Data<AppState>,
    q: web::Query<NextQuery>,
) -> Result<HttpResponse, AppError> {
    if !setup_done(&state).await? {
        return Ok(see_other("/setup"));
    }
    let page = LoginPage {
        ctx: Ctx::with_csrf(&req),
        name: String::new(),
        next: safe_next(&q.next),
        error: String::new(),
    };
    render(&page, StatusCode::OK)
}

/// Only a path on this site may follow a sign-in, never another site.
/// Where to go after signing in: a path of this site made of the
/// characters a URL path and query use, nothing else (no second slash or
/// backslash that a browser reads as another host, no tab, no line break,
/// which could never go into a header); anything else goes home.
fn safe_next(next: &str) -> String {
    let safe_char = |c: char| c.is_ascii_alphanumeric() || "-._~/?=&%+:@,;".contains(c);
    let mut chars = next.chars();
    let ok = chars.next() == Some('/')
        && !matches!(chars.next(), Some('/' | '\\'))
        && next.chars().all(safe_char);
    if ok {
        next.to_string()
    } else {
        "/".to_string()
    }
}

/// The sign-in page again, saying only that the name or the password was
/// wrong (never which).
fn wrong_sign_in(req: &HttpRequest, name: String, next: &str) -> Result<HttpResponse, AppError> {
    let page = LoginPage {
        ctx: Ctx::with_csrf(req),
        name,
        next: safe_next(next),
        error: "Wrong user name or password.".into(),
    };
    render(&page, StatusCode::UNAUTHORIZED)
}

pub async fn login(
    req: HttpRequest,
    state: web::Data<AppState>,
    form: web::Form<CredentialsForm>,
) -> Result<HttpResponse, AppError> {
    let form = form.into_inner();
    let name = form.name.trim().to_string();
    let since = crate::director::now() - Duration::minutes(THROTTLE_MINUTES);
    let lookup = name.clone();
    // Every attempt is admitted and written down before its password is
    // checked (`users::admit_sign_in`): of any number of simultaneous
    // wrong attempts, at most MAX_FAILURES are checked, on every process.
    // A success clears the record.
    if users::check_name(&name).is_err() {
        // No account can have this name (and some databases cannot even
        // look for it, a NUL byte say): a wrong sign-in, at the same cost.
        accounts::check_password(form.password.clone(), None).await;
        return wrong_sign_in(&req, name, &form.next);
    }
    // Attempts that find the allowance taken by others still being checked
    // wait for them (a right password clears the way), for as long as a
    // check can reasonably take.
    let patience = std::time::Instant::now();
    let (id, user) = loop {
        let lookup = lookup.clone();
        let (admission, user) = state
            .run(move |c| {
                let admission = users::admit_sign_in(c, &lookup, since, MAX_FAILURES)?;
                match admission {
                    Admission::Admitted(_) => Ok((admission, users::find_by_name(c, &lookup)?)),
                    Admission::Busy => Ok((admission, None)),
                    Admission::Locked => {
                        users::record_login_failure(c, &lookup)?;
                        Ok((admission, None))
                    }
                }
            })
            .await?;
        match admission {
            Admission::Admitted(id) => break (id, user),
            Admission::Busy if patience.elapsed() < SIGN_IN_PATIENCE => {
                actix_web::rt::time::sleep(std::time::Duration::from_millis(20)).await;
            }
            Admission::Busy | Admission::Locked => {
                return Err(TooMany::SignInAttempts {
                    name,
                    minutes: THROTTLE_MINUTES as u32,
                    retry_after: THROTTLE_MINUTES as u64 * 60,
                }
                .into());
            }
        }
    };
    // Off the async workers, one argon2 per core at a time, awaited
    // without holding a thread; an unknown name costs the same check as a
    // known one.
    let stored = user.as_ref().map(|u| u.password_hash.clone());
    let verified = accounts::check_password(form.password.clone(), stored)
        .await
        .then_some(user)
        .flatten();
    let Some(user) = verified else {
        state.run(move |c| users::sign_in_failed(c, id)).await?;
        return wrong_sign_in(&req, name, &form.next);
    };
    let uname = user.name.clone();
    state
        .run(move |c| users::sign_in_succeeded(c, &uname, id))
        .await?;
    let old = req.cookie(SESSION_COOKIE).map(|c| c.value().to_string());
    start_session(&state, &user, old, &safe_next(&form.next)).await
}

/// Signs `user` in with a brand-new session id and CSRF token (so a token
/// planted before sign-in is worthless after it), ending `old` if given.
async fn start_session(
    state: &AppState,
    user: &User,
    old: Option<String>,
    to: &str,
) -> Result<HttpResponse, AppError> {
    let token = accounts::new_token();
    let digest = accounts::token_digest(&token);
    let uid = user.id;
    state
        .run(move |c| {
            if let Some(old) = &old {
                users::delete_session(c, &accounts::token_digest(old))?;
            }
            users::create_session(c, uid, &digest)
        })
        .await?;
    let mut res = see_other(to);
    res.add_cookie(&security_cookie(
        SESSION_COOKIE,
        token,
        state.secure_cookies,
    ))
    .map_err(|e| AppError::internal(e))?;
    res.add_cookie(&security_cookie(
        CSRF_COOKIE,
        accounts::new_token(),
        state.secure_cookies,
    ))
    .map_err(|e| AppError::internal(e))?;
    Ok(res)
}

pub async fn logout(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    if let Some(session) = req.cookie(SESSION_COOKIE).map(|c| c.value().to_string()) {
        state
            .run(move |c| users::delete_session(c, &accounts::token_digest(&session)))
            .await?;
    }
    let mut res = see_other("/");
    let mut gone = Cookie::new(SESSION_COOKIE, "");
    gone.set_path("/");
    res.add_removal_cookie(&gone)
        .map_err(|e| AppError::internal(e))?;
    Ok(res)
}

#[derive(Template, WebTemplate)]
#[template(path = "account.html")]
pub struct AccountPage {
    ctx: Ctx,
    tokens: Vec<ApiToken>,
    new_token: String,
    errors: FormErrors,
    notice: String,
}

async fn account_page(
    state: &AppState,
    ctx: Ctx,
    new_token: String,
    errors: FormErrors,
    notice: &str,
) -> Result<AccountPage, AppError> {
    let uid = ctx
        .user
        .as_ref()
        .map(|u| u.id)
        .ok_or_else(AppError::unauthorized)?;
    let tokens = state.run(move |c| users::tokens_of(c, uid)).await?;
    Ok(AccountPage {
        ctx,
        tokens,
        new_token,
        errors,
        notice: notice.to_string(),
    })
}

pub async fn account(
    _who: crate::web::auth::SignedIn,
    ctx: Ctx,
    state: web::Data<AppState>,
) -> Result<AccountPage, AppError> {
    account_page(&state, ctx, String::new(), FormErrors::default(), "").await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TokenForm {
    pub label: String,
}

/// Creates an API token and shows it once; only its digest is kept.
pub async fn create_token(
    who: crate::web::auth::SignedIn,
    ctx: Ctx,
    state: web::Data<AppState>,
    form: web::Form<TokenForm>,
) -> Result<HttpResponse, AppError> {
    let label = form.label.trim().to_string();
    let unprintable = crate::roster::check_printable("label", &label).err();
    if label.is_empty() || label.chars().count() > 60 || unprintable.is_some() {
        let mut errors = FormErrors::default();
        errors.refused(
            &unprintable.unwrap_or(crate::field::FieldError::new("label", Problem::TokenLabel)),
        );
        let page = account_page(&state, ctx, String::new(), errors, "").await?;
        return render(&page, FORM_ERROR);
    }
    let token = accounts::new_token();
    let digest = accounts::token_digest(&token);
    let uid = who.0.id;
    state
        .run(move |c| users::create_token(c, uid, &label, &digest))
        .await?;
    let page = account_page(&state, ctx, token, FormErrors::default(), "").await?;
    // The token is shown this once: no cache may keep the page.
    let mut res = render(&page, actix_web::http::StatusCode::OK)?;
    res.headers_mut().insert(
        actix_web::http::header::CACHE_CONTROL,
        actix_web::http::header::HeaderValue::from_static("no-store"),
    );
    Ok(res)
}

pub async fn revoke_token(
    who: crate::web::auth::SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i32>,
) -> Result<HttpResponse, AppError> {
    let (uid, id) = (who.0.id, path.into_inner());
    if state.run(move |c| users::revoke_token(c, uid, id)).await? {
        Ok(see_other("/account"))
    } else {
        Err(AppError::not_found(Thing::Token))
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PasswordForm {
    pub current: String,
    pub password: String,
    pub password2: String,
}

pub async fn change_password(
    who: crate::web::auth::SignedIn,
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    form: web::Form<PasswordForm>,
) -> Result<HttpResponse, AppError> {
    let user = who.0;
    let form = form.into_inner();
    let mut errors = FormErrors::default();
    let stored = user.password_hash.clone();
    let current = form.current.clone();
    if !web::block(move || accounts::verify_password(&current, &stored)).await? {
        errors.problem("current", Problem::NotCurrentPassword);
    }
    if let Err(m) = accounts::check_new_password(&form.password) {
        errors.refused(&m);
    } else if form.password != form.password2 {
        errors.problem("password2", Problem::PasswordsDiffer);
    }
    if !errors.is_empty() {
        let page = account_page(&state, ctx, String::new(), errors, "").await?;
        return render(&page, FORM_ERROR);
    }
    let password = form.password.clone();
    let hash = web::block(move || accounts::hash_password(&password))
        .await?
        .map_err(AppError::internal)?;
    let keep = req
        .cookie(SESSION_COOKIE)
        .map(|c| accounts::token_digest(c.value()));
    state
        .run(move |c| {
            crate::director::users::set_password_ending_others(c, user.id, &hash, keep.as_deref())
        })
        .await?;
    let page = account_page(
        &state,
        ctx,
        String::new(),
        FormErrors::default(),
        "Password changed. Your other sessions are signed out and your API tokens revoked: create a new token for each script.",
    )
    .await?;
    render(&page, StatusCode::OK)
}

/// `GET /api/v1/me`: who a token (or session) belongs to.
pub async fn api_me(req: HttpRequest) -> Result<HttpResponse, crate::web::ApiError> {
    let user = crate::web::caller::caller(&req)
        .user
        .ok_or_else(|| crate::web::ApiError(AppError::unauthorized()))?;
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "id": user.id,
        "name": user.name,
        "role": user.role,
    })))
}

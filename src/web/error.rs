//! The one error type of the web layer, mapped once to HTTP responses: an
//! HTML page in the site layout for browsers, JSON under `/api/`.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use askama::Template;

use crate::director::model::DbError;
use crate::field::{FieldError, Problem};
use crate::refusal::{Forbidden, Kind, Refusal, Thing, TooMany, Unreadable};
use crate::wording::{self, Lang};

/// What a request came to when it did not succeed: a refusal (the
/// request was understood, and the answer is no, as a value), or a failure
/// on the server's side, whose detail goes to the log and never to the
/// client.
#[derive(Debug)]
pub enum AppError {
    Refused(Refusal),
    Internal(Logged),
}

/// A failure's detail, for the log alone.
#[derive(Debug)]
pub struct Logged(pub String);

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.sentence(Lang::default()))
    }
}

impl std::error::Error for AppError {}

impl AppError {
    pub fn forbidden() -> AppError {
        AppError::Refused(Refusal::Forbidden(Forbidden::NotAllowed))
    }
    pub fn not_found(what: Thing) -> AppError {
        AppError::Refused(Refusal::NotFound(what))
    }
    pub fn invalid(field: &'static str, problem: Problem) -> AppError {
        AppError::Refused(Refusal::Invalid(FieldError::new(field, problem)))
    }
    pub fn unauthorized() -> AppError {
        AppError::Refused(Refusal::Unauthorized)
    }
    /// A failure on the server's side; `detail` is logged, never shown.
    pub fn internal(detail: impl std::fmt::Display) -> AppError {
        AppError::Internal(Logged(detail.to_string()))
    }

    /// The refusal, if the request was refused.
    pub fn refusal(&self) -> Option<&Refusal> {
        match self {
            AppError::Refused(r) => Some(r),
            AppError::Internal(_) => None,
        }
    }

    /// Whether this is a refusal of `kind`.
    pub fn is(&self, kind: Kind) -> bool {
        self.refusal().is_some_and(|r| r.kind() == kind)
    }

    /// What a form shows beside itself: the field at fault (`""` when
    /// none is) and the sentence.
    pub fn said(&self) -> (&'static str, String) {
        (self.field().unwrap_or(""), self.sentence(Lang::default()))
    }

    /// The field at fault, when one is.
    pub fn field(&self) -> Option<&'static str> {
        self.refusal().and_then(Refusal::field)
    }

    /// What the person who meets it reads, in `lang`.
    pub fn sentence(&self, lang: Lang) -> String {
        match self {
            AppError::Refused(r) => wording::refusal::refusal(r, lang),
            AppError::Internal(_) => wording::refusal::internal(lang).1.to_string(),
        }
    }

    /// The stable code an API client switches on.
    pub fn code(&self) -> &'static str {
        match self {
            AppError::Refused(r) => r.code(),
            AppError::Internal(_) => "internal_error",
        }
    }
}

/// A refusal a page shows in place (a button it does not offer, and why):
/// its words, and the code and params the API would give it, for what
/// reads the page (`data-code`, `data-params`).
#[derive(Debug, Clone)]
pub struct Said {
    pub code: &'static str,
    pub params: String,
    pub words: String,
}

impl Said {
    pub fn of(r: &Refusal, words: String) -> Said {
        Said {
            code: r.code(),
            params: serde_json::Value::Object(r.params()).to_string(),
            words,
        }
    }
}

impl From<Refusal> for AppError {
    fn from(r: Refusal) -> AppError {
        AppError::Refused(r)
    }
}

/// Each kind of refusal is a refusal of the request.
macro_rules! refusals {
    ($($t:ty),+) => {$(
        impl From<$t> for AppError {
            fn from(r: $t) -> AppError {
                AppError::Refused(r.into())
            }
        }
    )+};
}

refusals!(
    FieldError,
    Forbidden,
    Unreadable,
    TooMany,
    crate::conflict::Conflict,
    crate::rounds::Refused
);

impl From<DbError> for AppError {
    fn from(e: DbError) -> AppError {
        match e {
            DbError::Refused(r) => AppError::Refused(r),
            other => AppError::internal(other),
        }
    }
}

impl From<actix_web::error::BlockingError> for AppError {
    fn from(e: actix_web::error::BlockingError) -> AppError {
        AppError::internal(e)
    }
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    ctx: super::ctx::Ctx,
    status: u16,
    title: &'a str,
    message: String,
    /// The refusal's code and params, as the API's `code` and `params`,
    /// for what reads the page.
    code: &'static str,
    params: String,
    /// The field at fault, when one is (as the API's `field`).
    field: Option<&'a str>,
    /// Where "back" leads from the page asked for, and its words.
    back: Option<(String, &'static str)>,
}

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        match self {
            AppError::Refused(r) => status_of(r.kind()),
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let AppError::Internal(Logged(detail)) = self {
            tracing::error!("internal error: {detail}");
        }
        self.page(super::ctx::Ctx::anonymous())
    }
}

/// The HTTP status of a kind of refusal: the kind alone decides it.
pub fn status_of(kind: Kind) -> StatusCode {
    match kind {
        Kind::Unreadable => StatusCode::BAD_REQUEST,
        Kind::Unauthorized => StatusCode::UNAUTHORIZED,
        Kind::Forbidden => StatusCode::FORBIDDEN,
        Kind::NotFound => StatusCode::NOT_FOUND,
        Kind::Conflict => StatusCode::CONFLICT,
        Kind::Invalid => StatusCode::UNPROCESSABLE_ENTITY,
        Kind::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        Kind::TooMany => StatusCode::TOO_MANY_REQUESTS,
        Kind::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
    }
}

impl AppError {
    /// A heading in the words of the people who meet the error.
    fn title(&self, lang: Lang) -> &'static str {
        match self {
            AppError::Refused(r) => wording::refusal::heading(r.kind(), lang),
            AppError::Internal(_) => wording::refusal::internal(lang).0,
        }
    }

    /// The error as a page in the site layout; `ctx` says who is signed
    /// in, so that the header shows their name and not "Sign in". The
    /// response hook that knows the caller renders it again with theirs
    /// and the page asked for (`auth::guard`).
    pub fn page(&self, ctx: super::ctx::Ctx) -> HttpResponse {
        self.page_at(ctx, "/")
    }

    /// The error as a page for a request of `path`: with a link back to
    /// the tournament the path is about, besides the one to every
    /// tournament.
    pub fn page_at(&self, ctx: super::ctx::Ctx, path: &str) -> HttpResponse {
        let lang = Lang::default();
        let status = self.status_code();
        let page = ErrorPage {
            ctx,
            status: status.as_u16(),
            title: self.title(lang),
            message: self.sentence(lang),
            code: self.code(),
            params: serde_json::Value::Object(
                self.refusal().map(Refusal::params).unwrap_or_default(),
            )
            .to_string(),
            field: self.field(),
            back: self.back(path),
        };
        let body = page.render().unwrap_or_else(|_| self.sentence(lang));
        let mut res = HttpResponse::build(status);
        res.content_type("text/html; charset=utf-8");
        self.retry_after(&mut res);
        res.body(body)
    }

    /// The tournament page for a page under `/t/{id}/`, unless the
    /// tournament is what was not found.
    fn back(&self, path: &str) -> Option<(String, &'static str)> {
        let rest = path.strip_prefix("/t/")?;
        let (id, below) = rest.split_once('/')?;
        let numeric = !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit());
        let missing = matches!(
            self,
            AppError::Refused(Refusal::NotFound(Thing::Tournament))
        );
        (numeric && !below.is_empty() && !missing)
            .then(|| (format!("/t/{id}"), "Back to the tournament"))
    }

    /// The headers a refusal's status calls for: `Retry-After` on a 429,
    /// `Allow` on a 405.
    fn retry_after(&self, res: &mut actix_web::HttpResponseBuilder) {
        if let Some(secs) = self.refusal().and_then(Refusal::retry_after) {
            res.insert_header((actix_web::http::header::RETRY_AFTER, secs.to_string()));
        }
        if let Some(Refusal::MethodNotAllowed { allowed, .. }) = self.refusal() {
            res.insert_header((actix_web::http::header::ALLOW, allowed.join(", ")));
        }
    }
}

/// The JSON form of an error, for `/api/` routes: the code a client
/// switches on (it never changes with the wording or the language), the
/// sentence for a person, the field at fault and the values the sentence
/// was made from.
#[derive(Debug, serde::Serialize)]
pub struct ApiErrorBody {
    pub code: &'static str,
    pub error: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<&'static str>,
    pub params: serde_json::Map<String, serde_json::Value>,
}

impl ApiErrorBody {
    pub fn of(e: &AppError, lang: Lang) -> ApiErrorBody {
        ApiErrorBody {
            code: e.code(),
            error: e.sentence(lang),
            field: e.field(),
            params: e.refusal().map(Refusal::params).unwrap_or_default(),
        }
    }
}

/// An [`AppError`] answered as JSON.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ApiError(pub AppError);

impl From<AppError> for ApiError {
    fn from(e: AppError) -> ApiError {
        ApiError(e)
    }
}

macro_rules! api_refusals {
    ($($t:ty),+) => {$(
        impl From<$t> for ApiError {
            fn from(r: $t) -> ApiError {
                ApiError(r.into())
            }
        }
    )+};
}

api_refusals!(Refusal, FieldError, Forbidden, Unreadable, TooMany);

impl From<DbError> for ApiError {
    fn from(e: DbError) -> ApiError {
        ApiError(e.into())
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(e: actix_web::error::BlockingError) -> ApiError {
        ApiError(e.into())
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.0.status_code()
    }

    fn error_response(&self) -> HttpResponse {
        if let AppError::Internal(Logged(detail)) = &self.0 {
            tracing::error!("internal error: {detail}");
        }
        let mut res = HttpResponse::build(self.status_code());
        self.0.retry_after(&mut res);
        res.json(ApiErrorBody::of(&self.0, Lang::default()))
    }
}

//! The one error type of the web layer, mapped once to HTTP responses: an
//! HTML page in the site layout for browsers, JSON under `/api/`.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use askama::Template;

use crate::director::model::DbError;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("{0}")]
    BadRequest(String),
    #[error("Sign in to do this.")]
    Unauthorized,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// A conflict with the event's state that one field causes.
    #[error("{field} cannot change: {message}")]
    Locked { field: String, message: String },
    #[error("{message}")]
    Invalid { field: String, message: String },
    /// A conflict with what is stored that one field's value causes (a
    /// name taken): 409, naming the field.
    #[error("{message}")]
    ConflictOn { field: String, message: String },
    #[error("{0}")]
    TooManyRequests(String),
    /// Too many requests from one link or one client: try again after
    /// `retry_after` seconds (sent as `Retry-After`).
    #[error("{message}")]
    RateLimited { message: String, retry_after: u64 },
    /// A body larger than the route takes.
    #[error("{0}")]
    TooLarge(String),
    #[error("Something went wrong on our side; the error has been logged.")]
    Internal(String),
}

impl AppError {
    pub fn forbidden() -> AppError {
        AppError::Forbidden("You are not allowed to change this.".into())
    }
    pub fn not_found(what: &str) -> AppError {
        AppError::NotFound(format!("No such {what}."))
    }
    pub fn invalid(field: &str, message: impl Into<String>) -> AppError {
        AppError::Invalid {
            field: field.to_string(),
            message: message.into(),
        }
    }
}

impl From<DbError> for AppError {
    fn from(e: DbError) -> AppError {
        match e {
            DbError::NotFound(thing) => AppError::not_found(thing),
            DbError::Unpublished(n) => AppError::NotFound(format!(
                "Round {n} is not published yet: its pairings appear here once the referee publishes them."
            )),
            DbError::Conflict(c) => match c.field() {
                Some(field) => AppError::ConflictOn {
                    field: field.to_string(),
                    message: c.to_string(),
                },
                None => AppError::Conflict(c.to_string()),
            },
            // Refusals are values; their words are `crate::wording`'s.
            DbError::Refused(r @ crate::rounds::Refused::NotYourGame { .. }) => {
                AppError::Forbidden(r.to_string())
            }
            DbError::Refused(r) => AppError::Conflict(r.to_string()),
            DbError::NotReady(n) => AppError::Conflict(n.to_string()),
            DbError::RosterRefused(r) => AppError::Conflict(r.to_string()),
            DbError::Locked(lock) => AppError::Locked {
                field: lock.field.to_string(),
                message: crate::wording::field::since(lock.since).to_string(),
            },
            DbError::Invalid(e) => AppError::invalid(e.field, e.to_string()),
            other => AppError::Internal(other.to_string()),
        }
    }
}

impl From<actix_web::error::BlockingError> for AppError {
    fn from(e: actix_web::error::BlockingError) -> AppError {
        AppError::Internal(e.to_string())
    }
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    ctx: super::ctx::Ctx,
    status: u16,
    title: &'a str,
    message: String,
    /// The field at fault, when one is (as the API's `field`).
    field: Option<&'a str>,
    /// Where "back" leads from the page asked for, and its words.
    back: Option<(String, &'static str)>,
}

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Unauthorized => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::Conflict(_) | AppError::Locked { .. } | AppError::ConflictOn { .. } => {
                StatusCode::CONFLICT
            }
            AppError::Invalid { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::TooManyRequests(_) | AppError::RateLimited { .. } => {
                StatusCode::TOO_MANY_REQUESTS
            }
            AppError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let AppError::Internal(detail) = self {
            tracing::error!("internal error: {detail}");
        }
        self.page(super::ctx::Ctx::anonymous())
    }
}

impl AppError {
    /// A heading in the words of the people who meet the error (HTTP's
    /// reason phrases, "Unprocessable Entity" and the like, are not).
    fn title(&self) -> &'static str {
        match self {
            AppError::BadRequest(_) => "That request could not be read",
            AppError::Unauthorized => "Sign in first",
            AppError::Forbidden(_) => "Not allowed",
            AppError::NotFound(_) => "Not found",
            AppError::Conflict(_) | AppError::Locked { .. } | AppError::ConflictOn { .. } => {
                "Not possible now"
            }
            AppError::Invalid { .. } => "That cannot be done",
            AppError::TooManyRequests(_) | AppError::RateLimited { .. } => "Too many tries",
            AppError::TooLarge(_) => "Too large",
            AppError::Internal(_) => "Something went wrong",
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
        let status = self.status_code();
        let page = ErrorPage {
            ctx,
            status: status.as_u16(),
            title: self.title(),
            message: self.to_string(),
            field: match self {
                AppError::Invalid { field, .. }
                | AppError::Locked { field, .. }
                | AppError::ConflictOn { field, .. } => Some(field),
                _ => None,
            },
            back: self.back(path),
        };
        let body = page.render().unwrap_or_else(|_| self.to_string());
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
        let missing = matches!(self, AppError::NotFound(m) if m == "No such tournament.");
        (numeric && !below.is_empty() && !missing)
            .then(|| (format!("/t/{id}"), "Back to the tournament"))
    }

    fn retry_after(&self, res: &mut actix_web::HttpResponseBuilder) {
        if let AppError::RateLimited { retry_after, .. } = self {
            res.insert_header((
                actix_web::http::header::RETRY_AFTER,
                retry_after.to_string(),
            ));
        }
    }
}

/// The JSON form of an error, for `/api/` routes.
#[derive(Debug, serde::Serialize)]
pub struct ApiErrorBody {
    pub error: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
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
        if let AppError::Internal(detail) = &self.0 {
            tracing::error!("internal error: {detail}");
        }
        let field = match &self.0 {
            AppError::Invalid { field, .. }
            | AppError::Locked { field, .. }
            | AppError::ConflictOn { field, .. } => Some(field.clone()),
            _ => None,
        };
        let mut res = HttpResponse::build(self.status_code());
        self.0.retry_after(&mut res);
        res.json(ApiErrorBody {
            error: self.0.to_string(),
            field,
        })
    }
}

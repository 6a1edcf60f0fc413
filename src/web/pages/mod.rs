//! Pages, one module per subject, each template struct beside its handler.

pub mod account;
pub mod admin;
pub mod display;
pub mod forbidden;
pub mod games;
pub mod home;
pub mod people;
pub mod personal;
pub mod players;
pub mod results;
pub mod rounds;
pub mod seasons;
pub mod standings;
pub mod tables;
pub mod teams;
pub mod tournaments;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};

use super::error::AppError;

pub async fn not_found(req: HttpRequest) -> Result<HttpResponse, actix_web::Error> {
    if req.path().starts_with("/api/") {
        return Err(
            super::error::ApiError(AppError::not_found(crate::refusal::Thing::ApiRoute)).into(),
        );
    }
    Err(AppError::not_found(crate::refusal::Thing::Page).into())
}

/// The stylesheet, built into the binary.
pub async fn stylesheet() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/css; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(include_str!("../../../static/kraal.css"))
}

/// The live pages' script, built into the binary.
pub async fn script() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(include_str!("../../../static/kraal.js"))
}

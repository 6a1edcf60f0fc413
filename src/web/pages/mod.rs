//! Pages, one module per subject, each template struct beside its handler.

pub mod account;
pub mod admin;
pub mod boards;
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
        .body(STYLESHEET)
}

/// The web app manifest: a phone that adds Kraal to its home screen gets
/// its name, icon and colour, and opens it without the browser's bars.
pub async fn manifest() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/manifest+json")
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(MANIFEST)
}

/// The site's web app manifest (a player's page has its own, which
/// starts at that page: [`personal::manifest`]).
pub const MANIFEST: &str = include_str!("../../../static/manifest.webmanifest");

/// The icon browsers ask for on their own (16, 32 and 48 px).
pub async fn favicon() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("image/x-icon")
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(&include_bytes!("../../../static/icons/favicon.ico")[..])
}

/// The manifest's icons, built into the binary (`scripts/icons.sh` makes
/// them from the SVG).
pub async fn icon(name: actix_web::web::Path<String>) -> Result<HttpResponse, AppError> {
    let (kind, bytes): (&str, &'static [u8]) = match name.as_str() {
        "icon-192.png" => (
            "image/png",
            include_bytes!("../../../static/icons/icon-192.png"),
        ),
        "icon-512.png" => (
            "image/png",
            include_bytes!("../../../static/icons/icon-512.png"),
        ),
        "icon.svg" => (
            "image/svg+xml",
            include_bytes!("../../../static/icons/icon.svg"),
        ),
        _ => return Err(AppError::not_found(crate::refusal::Thing::Page)),
    };
    Ok(HttpResponse::Ok()
        .content_type(kind)
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(bytes))
}

/// The live pages' script, built into the binary.
pub async fn script() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(SCRIPT)
}

/// `GET /static/board.js`: the board's script (record and watch).
pub async fn board_script() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(BOARD_SCRIPT)
}

const SCRIPT: &str = include_str!("../../../static/kraal.js");
/// The board's script, loaded by the pages that show a board only, so
/// that a player's page keeps its weight.
const BOARD_SCRIPT: &str = include_str!("../../../static/board.js");
const STYLESHEET: &str = include_str!("../../../static/kraal.css");
const WORKER: &str = include_str!("../../../static/sw.js");

/// `GET /sw.js`: the service worker that keeps the public pages and a
/// player's own page on the phone that opened them. Served from the root
/// so that its scope covers `/t/` and `/player/`; `no-cache`, so a phone
/// online asks for it each time and a new build's worker (whose version is
/// a digest of the files it keeps) replaces the old one at once.
pub async fn worker() -> HttpResponse {
    static BUILT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let body = BUILT.get_or_init(|| {
        use blake2::Digest;
        let mut d = blake2::Blake2s256::new();
        for part in [WORKER, SCRIPT, BOARD_SCRIPT, STYLESHEET, MANIFEST] {
            d.update(part.as_bytes());
        }
        let version: String = d.finalize()[..6]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        WORKER.replace("@VERSION@", &version)
    });
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(body.as_str())
}

//! The web shell: the only place that knows HTTP.
//!
//! Every route is declared once in [`routes::ROUTES`], with who may use it;
//! the app registers from that table and the tests walk it, so a route cannot
//! be added without its access being stated and tested.

pub mod api;
pub mod archive;
pub mod auth;
pub mod cache;
pub mod caller;
pub mod ctx;
pub mod error;
pub mod handled;
pub mod idempotency;
pub mod layout;
pub mod limit;
pub mod live;
pub mod pages;
pub mod publisher;
pub mod routes;
pub mod views;

use std::net::TcpListener;

use actix_web::{middleware, web, App, HttpServer};

use crate::director::model::DbConnection;
use crate::director::model::DbError;
use crate::director::model::Pool;
use crate::ids::UserId;
use crate::refusal::{Refusal, Thing, Unreadable};
pub use cache::{Cached, PageCache};
pub use error::{ApiError, AppError};

/// What every handler can reach.
pub struct AppState {
    pub pool: Pool,
    /// Mark cookies `Secure` (set when the site is served over HTTPS).
    pub secure_cookies: bool,
    /// Public pages as anonymous visitors see them, by tournament and page,
    /// with the tournament revision they were built from.
    pub pages: PageCache,
    /// The watcher behind the live pages' events.
    pub live: live::Live,
    /// The players' records of games recorded at the board, kept checked.
    pub recordings: crate::director::recording::Kept,
    /// Requests of the players' links, by link and by client.
    pub limits: limit::Limiter,
    /// The federation's ratings, computed from the games and kept until
    /// something is recorded.
    pub ratings: std::sync::Arc<crate::director::ratings::Ratings>,
    /// Where requests this server makes to others may go.
    pub outbound: crate::outbound::Policy,
    /// The federation's server named when this one was started (it then
    /// wins over the admin's setting).
    pub federation_url: Option<String>,
    /// The archived tournaments' ids, as last read.
    pub archived: archive::Archived,
    /// The large publications being received now.
    pub large_bodies: api::published::LargeBodies,
}

impl AppState {
    pub fn new(pool: Pool, secure_cookies: bool) -> AppState {
        AppState {
            pool,
            secure_cookies,
            pages: PageCache::default(),
            live: live::Live::default(),
            recordings: Default::default(),
            limits: limit::Limiter::default(),
            ratings: std::sync::Arc::new(crate::director::ratings::Ratings::new(
                crate::rating::Settings::default(),
            )),
            outbound: crate::outbound::Policy::default(),
            federation_url: None,
            archived: archive::Archived::default(),
            large_bodies: Default::default(),
        }
    }

    /// How long work refused for a busy SQLite database is tried again.
    const BUSY_PATIENCE: std::time::Duration = std::time::Duration::from_secs(10);

    /// Runs database work on the blocking pool with one pooled connection.
    ///
    /// SQLite refuses a transaction that read before another writer
    /// committed ("database is locked"); such work is simply run again, with
    /// a short random pause, for up to ten seconds (SQLite's own wait for a
    /// lock), so that simultaneous result entry never fails for it: with a
    /// fixed number of tries, 100 referees saving at once still lost one
    /// save in a few thousand to a 500 (scripts/concurrent-writers.py).
    pub async fn run<T, F>(&self, f: F) -> Result<T, AppError>
    where
        T: Send + 'static,
        F: Fn(&mut DbConnection) -> Result<T, DbError> + Send + 'static,
    {
        let pool = self.pool.clone();
        let result = web::block(move || {
            let mut conn = pool.get()?;
            let started = std::time::Instant::now();
            let mut attempt: u32 = 0;
            loop {
                match f(&mut conn) {
                    Err(e) if e.is_busy() && started.elapsed() < Self::BUSY_PATIENCE => {
                        attempt += 1;
                        let cap = 2u64.pow(attempt.min(6));
                        let pause = rand::random_range(1..=cap);
                        std::thread::sleep(std::time::Duration::from_millis(pause));
                    }
                    other => return other,
                }
            }
        })
        .await?;
        Ok(result?)
    }

    /// Runs one write as account `by` through [`crate::director::commit`]:
    /// what it records lands with it, or nothing does.
    pub async fn write<T, F>(&self, by: Option<UserId>, f: F) -> Result<T, AppError>
    where
        T: Send + 'static,
        F: Fn(&mut crate::director::model::Write) -> Result<T, DbError> + Send + 'static,
    {
        self.run(move |c| crate::director::commit(c, by, &f)).await
    }
}

/// One log line per request, at `info` under `kraal::request`
/// (`KRAAL_LOG=kraal::request=info`): method, path, status and time. The
/// secret of a captain's or a player's link is not written down.
async fn log_request(
    req: actix_web::dev::ServiceRequest,
    next: middleware::Next<impl actix_web::body::MessageBody>,
) -> Result<actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    if !tracing::enabled!(target: "kraal::request", tracing::Level::INFO) {
        return next.call(req).await;
    }
    let started = std::time::Instant::now();
    let method = req.method().to_string();
    let path = loggable_path(req.path());
    let res = next.call(req).await;
    let status = match &res {
        Ok(r) => r.status().as_u16(),
        Err(e) => e.as_response_error().status_code().as_u16(),
    };
    tracing::info!(
        target: "kraal::request",
        "{method} {path} {status} {:.1} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
    res
}

/// A request path as the log may keep it: link secrets replaced by `…`.
pub fn loggable_path(path: &str) -> String {
    // A personal link's key is the segment after its prefix.
    for prefix in ["/api/v1/player/", "/player/"] {
        if let Some(rest) = path.strip_prefix(prefix) {
            let tail = rest.find('/').map_or("", |i| &rest[i..]);
            return format!("{prefix}…{tail}");
        }
    }
    let secret = ["/captain/", "/p/"]
        .iter()
        .any(|prefix| path.starts_with(prefix));
    match (secret, path.rsplit_once('/')) {
        (true, Some((head, _))) => format!("{head}/…"),
        _ => path.to_string(),
    }
}

/// `GET /api/v1/openapi.json`: the API described in OpenAPI 3.0
/// (docs/openapi.json, built into the binary; a test holds it to the routes).
pub async fn openapi() -> actix_web::HttpResponse {
    actix_web::HttpResponse::Ok()
        .content_type("application/json")
        .body(include_str!("../../docs/openapi.json"))
}

/// `GET /healthz`: 200 when the database answers, 503 when it does not.
pub async fn healthz(state: web::Data<AppState>) -> actix_web::HttpResponse {
    match state.run(crate::director::ping).await {
        Ok(()) => actix_web::HttpResponse::Ok().json(serde_json::json!({"status": "ok"})),
        Err(e) => actix_web::HttpResponse::ServiceUnavailable()
            .json(serde_json::json!({"status": "unavailable", "error": e.to_string()})),
    }
}

/// Registers every route of [`routes::ROUTES`] and the fallback page: one
/// resource per path, so that a method the path does not have is 405 with
/// the methods it has in `Allow`, and not a page that does not exist.
pub fn configure(cfg: &mut web::ServiceConfig) {
    for path in routes::paths() {
        let allow = routes::allow(path);
        let mut resource = web::resource(path)
            .default_service(web::to(move |req| method_not_allowed(req, allow.clone())));
        for r in routes::ROUTES.iter().filter(|r| r.path == path) {
            resource = resource.route((r.route)());
        }
        cfg.service(resource);
    }
    cfg.default_service(web::to(pages::not_found));
}

/// 405 for a method the path does not have, with the methods it has in
/// `Allow`: JSON in the API's error shape under `/api/`, a sentence
/// elsewhere.
async fn method_not_allowed(
    req: actix_web::HttpRequest,
    allow: Vec<&'static str>,
) -> Result<actix_web::HttpResponse, actix_web::Error> {
    let refused = AppError::Refused(Refusal::MethodNotAllowed {
        method: req.method().as_str().to_string(),
        allowed: allow,
    });
    Err(if req.path().starts_with("/api/") {
        ApiError(refused).into()
    } else {
        refused.into()
    })
}

/// Builds the server on an already bound listener (tests bind port 0).
pub fn server(
    state: AppState,
    listener: TcpListener,
    workers: usize,
) -> std::io::Result<actix_web::dev::Server> {
    let state = web::Data::new(state);
    let handled = web::Data::new(routes::handled());
    let server = HttpServer::new(move || {
        App::new()
            .app_data(state.clone())
            .app_data(handled.clone())
            .app_data(web::FormConfig::default().limit(4 * 1024 * 1024).error_handler(|e, _| {
                match e {
                    // A body past the limit is too large, not unreadable.
                    actix_web::error::UrlencodedError::Overflow { limit, .. } => {
                        AppError::Refused(Refusal::TooLarge { max_bytes: limit as u64 }).into()
                    }
                    e => AppError::from(Unreadable::UnreadableForm { detail: e.to_string() }).into(),
                }
            }))
            .app_data(web::JsonConfig::default().limit(1024 * 1024).error_handler(|e, _| {
                match e {
                    actix_web::error::JsonPayloadError::OverflowKnownLength { limit, .. }
                    | actix_web::error::JsonPayloadError::Overflow { limit } => {
                        ApiError::from(Refusal::TooLarge { max_bytes: limit as u64 }).into()
                    }
                    e => ApiError::from(Unreadable::UnreadableJson { detail: e.to_string() }).into(),
                }
            }))
            .app_data(web::QueryConfig::default().error_handler(|e, req| {
                let e = AppError::from(Unreadable::UnreadableQuery { detail: e.to_string() });
                if req.path().starts_with("/api/") {
                    ApiError(e).into()
                } else {
                    e.into()
                }
            }))
            .app_data(web::PathConfig::default().error_handler(|_, req| {
                // An id too long for a number is a page that does not exist;
                // the API says so in JSON, as it says everything.
                let e = AppError::not_found(Thing::Page);
                if req.path().starts_with("/api/") {
                    ApiError(e).into()
                } else {
                    e.into()
                }
            }))
            .wrap(middleware::from_fn(idempotency::idempotent))
            .wrap(middleware::from_fn(auth::guard))
            .wrap(middleware::from_fn(cache::validate))
            .wrap(middleware::from_fn(log_request))
            .wrap(middleware::Compress::default())
            .wrap(
                middleware::DefaultHeaders::new()
                    .add(("X-Content-Type-Options", "nosniff"))
                    .add(("X-Frame-Options", "DENY"))
                    .add(("Referrer-Policy", "same-origin"))
                    .add((
                        "Content-Security-Policy",
                        "default-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'",
                    )),
            )
            .configure(configure)
    })
    .workers(workers.max(1))
    // A page compressed on its way out leaves in several small writes; with
    // Nagle's algorithm on, the second waits for the client's ACK, which a
    // kept-alive connection delays by up to 40 ms (measured: every page
    // after the first on a connection took 42 ms). Send at once.
    .on_connect(|conn, _| {
        if let Some(tcp) = conn.downcast_ref::<actix_web::rt::net::TcpStream>() {
            let _ = tcp.set_nodelay(true);
        }
    })
    // `kraal serve` answers SIGTERM and Ctrl-C itself (`cli::serve`): it
    // ends the live pages' streams first, then stops gracefully.
    .disable_signals()
    .listen(listener)?
    .run();
    Ok(server)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_log_keeps_no_links_secret() {
        let key = "86785975d2b04214e1c5f2c2ceb3333e";
        for (path, logged) in [
            (format!("/player/{key}"), "/player/…".to_string()),
            (format!("/player/{key}/results"), "/player/…/results".into()),
            (
                format!("/api/v1/player/{key}/next-round"),
                "/api/v1/player/…/next-round".into(),
            ),
            (format!("/p/12/{key}"), "/p/12/…".into()),
            (format!("/captain/{key}"), "/captain/…".into()),
            ("/t/3/rounds/1".into(), "/t/3/rounds/1".into()),
        ] {
            assert_eq!(super::loggable_path(&path), logged);
        }
    }
}

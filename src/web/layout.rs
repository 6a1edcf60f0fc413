//! What every page shares: who is looking (`Ctx`), form errors, the
//! question asked before an action that cannot be taken back, rendering,
//! redirects and downloads. Pages and the error pages use it; it uses no
//! page.

use std::collections::BTreeMap;

use actix_web::http::header;
use actix_web::HttpResponse;

pub use super::ctx::Ctx;
use super::error::AppError;
use crate::roster::FieldError;

/// Messages by field name, shown next to the field they are about.
#[derive(Debug, Clone, Default)]
pub struct FormErrors(BTreeMap<String, String>);

impl FormErrors {
    pub fn get(&self, field: &str) -> Option<&str> {
        self.0.get(field).map(String::as_str)
    }
    pub fn has(&self, field: &str) -> bool {
        self.0.contains_key(field)
    }
    pub fn add(&mut self, field: &str, message: impl Into<String>) {
        self.0
            .entry(field.to_string())
            .or_insert_with(|| message.into());
    }
    /// A refused value, beside its field, in words.
    pub fn refused(&mut self, e: &FieldError) {
        self.add(e.field, e.to_string());
    }
    /// `problem` beside `field`, in words.
    pub fn problem(&mut self, field: &'static str, problem: crate::field::Problem) {
        self.refused(&FieldError::new(field, problem));
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn all(&self) -> Vec<(&str, &str)> {
        self.0
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect()
    }
}

impl From<Vec<FieldError>> for FormErrors {
    fn from(list: Vec<FieldError>) -> FormErrors {
        let mut e = FormErrors::default();
        for fe in list {
            e.add(fe.field, fe.to_string());
        }
        e
    }
}

/// A question asked before an action that cannot simply be taken back:
/// what will happen, a button that does it (`confirm=yes`), and a way back.
#[derive(askama::Template)]
#[template(path = "confirm.html")]
pub struct ConfirmPage {
    pub ctx: Ctx,
    pub t: crate::director::model::Tournament,
    pub question: String,
    pub consequences: Vec<String>,
    pub action: String,
    pub button: String,
    pub back: String,
    pub back_label: String,
    pub keep: String,
}

/// The form field that says the person has read the question.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct Confirm {
    pub confirm: String,
}

impl Confirm {
    pub fn given(&self) -> bool {
        self.confirm == "yes"
    }
}

/// After a successful POST: go to `to` with a GET (so a reload does not post again).
pub fn see_other(to: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, to.to_string()))
        .finish()
}

/// The status of a page that comes back with form errors.
pub const FORM_ERROR: actix_web::http::StatusCode =
    actix_web::http::StatusCode::UNPROCESSABLE_ENTITY;

/// A CSV download named after the tournament: `{slug}-{what}.csv`.
pub fn csv_download(
    bytes: Result<Vec<u8>, csv::Error>,
    tournament: &str,
    what: &str,
) -> Result<HttpResponse, AppError> {
    let bytes = bytes.map_err(|e| AppError::internal(e))?;
    Ok(download(
        "text/csv; charset=utf-8",
        bytes,
        tournament,
        &format!("{what}.csv"),
    ))
}

/// A file to save rather than show, named after its tournament
/// (`kraal-open-2026-standings.csv`).
pub fn download(
    content_type: &str,
    bytes: impl actix_web::body::MessageBody + 'static,
    tournament: &str,
    file: &str,
) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type.to_string())
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{}-{file}\"", slug(tournament)),
        ))
        .body(bytes)
}

/// The date a printed sheet of a round carries: the day it was published.
pub fn sheet_date(round: &crate::director::model::Round) -> String {
    round
        .published_at
        .unwrap_or(round.created_at)
        .format("%-d %B %Y")
        .to_string()
}

/// The time a page was built, as its "last updated" line shows it.
pub fn updated_now() -> String {
    chrono::Local::now().format("%H:%M:%S").to_string()
}

/// Renders a page with a chosen status (a form with errors, a refused sign-in).
pub fn render<T: askama::Template>(
    page: &T,
    status: actix_web::http::StatusCode,
) -> Result<HttpResponse, AppError> {
    let body = page.render().map_err(|e| AppError::internal(e))?;
    Ok(HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .body(body))
}

/// A file-name-safe version of a tournament name.
pub fn slug(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let s = s
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if s.is_empty() {
        "tournament".into()
    } else {
        s
    }
}

/// A QR code, as SVG, that opens `url`.
pub fn qr_svg(url: &str) -> String {
    let Ok(code) = qrcode::QrCode::new(url.as_bytes()) else {
        return String::new();
    };
    let svg = code
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(160, 160)
        .quiet_zone(true)
        .build();
    // Inline in HTML: the XML prolog is not wanted there.
    match svg.find("<svg") {
        Some(i) => svg[i..].to_string(),
        None => svg,
    }
}

/// The absolute address of `path` on this site, as the request reached it.
pub fn absolute_url(req: &actix_web::HttpRequest, path: &str) -> String {
    let info = req.connection_info();
    format!("{}://{}{path}", info.scheme(), info.host())
}

//! Where a venue publishes an event, and how the sending stands.
//!
//! Each function is the one way in for its step, for the pages and the API
//! alike.

use crate::db::audit::Write;
use crate::db::publications::Publication;
use crate::db::{DbConnection, DbError};
use crate::ids::TournamentId;

pub fn find(conn: &mut DbConnection, tid: TournamentId) -> Result<Option<Publication>, DbError> {
    crate::db::publications::find(conn, tid)
}

/// Publishes tournament `tid` to `target` with `token` from now on. The
/// origin id is kept from an earlier setting (the target knows the event by
/// it); a new target starts from nothing acknowledged.
pub fn set(
    w: &mut Write,
    tid: TournamentId,
    target: &str,
    token: &str,
) -> Result<Publication, DbError> {
    crate::db::publications::set(w, tid, target, token)
}

/// Stops publishing tournament `tid` (the settings stay, for a restart).
pub fn stop(w: &mut Write, tid: TournamentId) -> Result<(), DbError> {
    crate::db::publications::stop(w, tid)
}

/// A referee's "Send now": the failures in a row and the last try are
/// cleared, so the sender's wait starts again from its shortest and the
/// next try is due at once. The error stays until a send succeeds.
pub fn send_now(w: &mut Write, tid: TournamentId) -> Result<(), DbError> {
    crate::db::publications::send_now(w, tid)
}

/// Every active publication, with its tournament's revision now.
pub fn active(conn: &mut DbConnection) -> Result<Vec<(Publication, i32)>, DbError> {
    crate::db::publications::active(conn)
}

/// The active publications whose tournament moved past what the target
/// acknowledged, with the tournament's revision now.
pub fn due(conn: &mut DbConnection) -> Result<Vec<(Publication, i32)>, DbError> {
    crate::db::publications::due(conn)
}

/// The target `target` acknowledged `revision` (bookkeeping of the
/// sender, not a change to the event: it records nothing and moves no
/// revision). Nothing is stored if the publication has been pointed at
/// another target meanwhile: that one has not seen the revision.
pub fn acknowledged(
    conn: &mut DbConnection,
    id: i32,
    target: &str,
    revision: i32,
) -> Result<(), DbError> {
    crate::db::publications::acknowledged(conn, id, target, revision)
}

/// A send failed with `error`: the sender's own words for it (the status
/// and a short reason, never the target's text).
pub fn failed(conn: &mut DbConnection, id: i32, error: &str) -> Result<(), DbError> {
    crate::db::publications::failed(conn, id, error)
}

/// Where a publication stands, as the page and the API say it (`off`, `current`, `failing`, `pending`).
pub fn state_of(p: Option<&Publication>, revision: i32) -> &'static str {
    match p {
        None => "off",
        Some(p) if !p.active => "off",
        Some(p) if p.published_revision == Some(revision) => "current",
        Some(p) if p.failures > 0 => "failing",
        Some(_) => "pending",
    }
}

/// The target's address and the token, checked: the address
/// `http(s)://host[:port][/base]` as every server this one talks to
/// (`remote::check_address`: no query, fragment or user name, so that the
/// path the sender appends is the path asked for), the token a line of
/// printable text.
pub fn check(to: &str, token: &str) -> Result<(String, String), crate::field::FieldError> {
    use crate::field::{FieldError, Problem};
    let to = crate::remote::check_address("to", to)?;
    let token = token.trim().to_string();
    if token.is_empty() {
        return Err(FieldError::new("token", Problem::Empty));
    }
    if token.len() > 200 {
        return Err(FieldError::new("token", Problem::TooLong { max: 200 }));
    }
    crate::roster::check_printable("token", &token)?;
    Ok((to, token))
}

//! Events a venue published here: received, read back.
//!
//! Each function is the one way in for its step, for the pages and the API
//! alike.

use crate::db::audit::Write;
use crate::db::event::EventFile;
use crate::db::published::{Published, Received, Sent};
use crate::db::users::User;
use crate::db::{DbConnection, DbError};
use crate::ids::TournamentId;

/// Stores revision `sent.revision` of the event `sent.origin`: the whole
/// replacement in the caller's one transaction. The same revision again,
/// or an older one after a newer, changes nothing; an origin another
/// account publishes is refused. Sends of one origin that cross are taken
/// one after the other (the origin is locked until the transaction ends),
/// so each sees what the one before stored and the newest revision is the
/// one that stays.
pub fn receive(
    w: &mut Write,
    sent: &Sent,
    by: &User,
    file: &EventFile,
) -> Result<Received, DbError> {
    crate::db::published::receive(w, sent, by, file)
}

pub fn of_tournament(
    conn: &mut DbConnection,
    tid: TournamentId,
) -> Result<Option<Published>, DbError> {
    crate::db::published::of_tournament(conn, tid)
}

pub fn all(conn: &mut DbConnection) -> Result<Vec<Published>, DbError> {
    crate::db::published::all(conn)
}

/// Reads an event file as a venue sends it, refusing what it cannot take
/// (named by field).
pub fn parse(text: &str) -> Result<crate::db::event::EventFile, DbError> {
    crate::db::event::parse(text)
}

/// Reads every row of one tournament, in one transaction so the file is one
/// moment of the event even while results are being entered.
pub fn export(conn: &mut DbConnection, tid: TournamentId) -> Result<EventFile, DbError> {
    crate::db::event::export(conn, tid)
}

//! An event's life: made, listed, refereed, archived, deleted.
//!
//! Each function is the one way in for its step, for the pages and the API
//! alike.

use crate::db::audit::Write;
use crate::db::tournaments::Tournament;
use crate::db::users::User;
use crate::db::{DbConnection, DbError};
use crate::tournament::TournamentFields;

pub fn find(conn: &mut DbConnection, id: i32) -> Result<Tournament, DbError> {
    crate::db::tournaments::find(conn, id)
}

pub fn is_referee(conn: &mut DbConnection, id: i32, user_id: i32) -> Result<bool, DbError> {
    crate::db::tournaments::is_referee(conn, id, user_id)
}

pub fn referees(conn: &mut DbConnection, id: i32) -> Result<Vec<User>, DbError> {
    crate::db::tournaments::referees(conn, id)
}

/// All tournaments, the most recent first.
pub fn list(conn: &mut DbConnection) -> Result<Vec<Tournament>, DbError> {
    crate::db::tournaments::list(conn)
}

/// A new tournament; a referee who creates one referees it.
pub fn create(w: &mut Write, f: &TournamentFields, creator: &User) -> Result<Tournament, DbError> {
    crate::db::tournaments::create(w, f, creator)
}

/// Deletes the tournament with every row of it, its audit trail included;
/// the deletion is recorded as a change of no tournament (the server's
/// own trail), naming the tournament's id and name. A tournament with a
/// published round is refused, unless it is a published copy of a
/// venue's event (the venue's next publication makes a new copy).
pub fn delete(w: &mut Write, id: i32) -> Result<(), DbError> {
    crate::db::tournaments::delete(w, id)
}

/// Withdraws the tournament from public view (`true`) or returns it; its
/// ratings and seasons are as they were. The same again records nothing.
pub fn set_archived(w: &mut Write, id: i32, archived: bool) -> Result<Tournament, DbError> {
    crate::db::tournaments::set_archived(w, id, archived)
}

pub fn assign_referee(w: &mut Write, id: i32, referee: &User) -> Result<(), DbError> {
    crate::db::tournaments::assign_referee(w, id, referee)
}

pub fn unassign_referee(w: &mut Write, id: i32, referee: &User) -> Result<(), DbError> {
    crate::db::tournaments::unassign_referee(w, id, referee)
}

/// Rounds paired so far (published or draft).
pub fn rounds_paired(conn: &mut DbConnection, id: i32) -> Result<i32, DbError> {
    crate::db::tournaments::rounds_paired(conn, id)
}

/// The tournament's change counter: pages built from it stay valid while it
/// does not move. One indexed read, cheap enough for every request.
pub fn revision(conn: &mut DbConnection, id: i32) -> Result<i32, DbError> {
    crate::db::tournaments::revision(conn, id)
}

/// The revisions of several tournaments in one read (the live pages'
/// watcher asks for every tournament someone is looking at).
pub fn revisions(conn: &mut DbConnection, ids: &[i32]) -> Result<Vec<(i32, i32)>, DbError> {
    crate::db::tournaments::revisions(conn, ids)
}

/// The archived tournaments' ids.
pub fn archived_ids(conn: &mut DbConnection) -> Result<Vec<i32>, DbError> {
    crate::db::tournaments::archived_ids(conn)
}

/// The tournaments `user_id` referees.
pub fn refereed_by(conn: &mut DbConnection, user_id: i32) -> Result<Vec<i32>, DbError> {
    crate::db::tournaments::refereed_by(conn, user_id)
}

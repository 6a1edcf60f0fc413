//! Pairs the referee keeps apart, and the waivers that let one meet.
//!
//! Each function is the one way in for its step, for the pages and the API
//! alike.

use crate::db::audit::Write;
use crate::db::forbidden::{Forbidden, NewForbidden};
use crate::db::DbError;
use crate::ids::TournamentId;

/// Keeps two players of the tournament apart in the rounds asked for.
pub fn add(
    w: &mut Write,
    tournament_id: TournamentId,
    new: NewForbidden,
) -> Result<Forbidden, DbError> {
    crate::db::forbidden::add(w, tournament_id, new)
}

/// Takes a waiver back: the pair is kept apart again.
pub fn clear_waiver(
    w: &mut Write,
    tournament_id: TournamentId,
    id: i32,
) -> Result<Forbidden, DbError> {
    crate::db::forbidden::clear_waiver(w, tournament_id, id)
}

/// Lifts a ban altogether.
pub fn remove(w: &mut Write, tournament_id: TournamentId, id: i32) -> Result<(), DbError> {
    crate::db::forbidden::remove(w, tournament_id, id)
}

/// Records that the referee lets the pair meet despite the ban, and why.
/// Waiving again replaces the reason.
pub fn waive(
    w: &mut Write,
    tournament_id: TournamentId,
    id: i32,
    reason: &str,
) -> Result<Forbidden, DbError> {
    crate::db::forbidden::waive(w, tournament_id, id, reason)
}

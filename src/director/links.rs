//! Players' personal links: issued, renewed, revoked.
//!
//! Each function is the one way in for its step, for the pages and the API
//! alike.

use crate::db::audit::Write;
use crate::db::{DbConnection, DbError};
use crate::ids::{EntryId, TournamentId};

/// The keys of these players' links, in their order (`None`: revoked).
pub fn keys(conn: &mut DbConnection, ids: &[EntryId]) -> Result<Vec<Option<String>>, DbError> {
    crate::db::links::keys(conn, ids)
}

/// Gives `player` a new link; the old one stops working.
pub fn renew(w: &mut Write, tournament: TournamentId, player: EntryId) -> Result<String, DbError> {
    crate::db::links::renew(w, tournament, player)
}

/// Revokes `player`'s link: no key opens it until it is renewed.
pub fn revoke(w: &mut Write, tournament: TournamentId, player: EntryId) -> Result<(), DbError> {
    crate::db::links::revoke(w, tournament, player)
}

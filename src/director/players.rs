//! The field of an event: players entered, edited, withdrawn and reinstated, and the relatives kept apart.
//!
//! Each function is the one way in for its step, for the pages and the API
//! alike.

use crate::db::audit::Write;
use crate::db::players::{Player, Relation};
use crate::db::{DbConnection, DbError};
use crate::roster::PlayerFields;

pub fn add_relation(w: &mut Write, tournament_id: i32, a: i32, b: i32) -> Result<i32, DbError> {
    crate::db::players::add_relation(w, tournament_id, a, b)
}

pub fn create(w: &mut Write, tournament_id: i32, f: &PlayerFields) -> Result<Player, DbError> {
    crate::db::players::create(w, tournament_id, f)
}

/// A player of this tournament; a player of another one is "not found".
pub fn find(conn: &mut DbConnection, tournament_id: i32, id: i32) -> Result<Player, DbError> {
    crate::db::players::find(conn, tournament_id, id)
}

/// Adds every player and relation of an import, or none of them (the
/// caller's commit holds them all). `relatives` pairs are indices into `list`.
/// A player whose federation id is a person's of the registry (not merged
/// away) becomes that person's entry; the second value lists, by index,
/// the players no person was found for.
pub fn import(
    w: &mut Write,
    tournament_id: i32,
    list: &[PlayerFields],
    relatives: &[(usize, usize)],
) -> Result<(Vec<i32>, Vec<usize>), DbError> {
    crate::db::players::import(w, tournament_id, list, relatives)
}

/// Players in entry order (the order late entries get their numbers in).
pub fn list(conn: &mut DbConnection, tournament_id: i32) -> Result<Vec<Player>, DbError> {
    crate::db::players::list(conn, tournament_id)
}

/// Takes back a withdrawal: the player is paired again from the next round.
pub fn reinstate(w: &mut Write, tournament_id: i32, id: i32) -> Result<Player, DbError> {
    crate::db::players::reinstate(w, tournament_id, id)
}

pub fn relations_of(conn: &mut DbConnection, tournament_id: i32) -> Result<Vec<Relation>, DbError> {
    crate::db::players::relations_of(conn, tournament_id)
}

pub fn remove_relation(w: &mut Write, tournament_id: i32, id: i32) -> Result<(), DbError> {
    crate::db::players::remove_relation(w, tournament_id, id)
}

pub fn update(
    w: &mut Write,
    tournament_id: i32,
    id: i32,
    f: &PlayerFields,
) -> Result<Player, DbError> {
    crate::db::players::update(w, tournament_id, id, f)
}

/// Withdraws a player from the next round on; rounds already paired stand.
pub fn withdraw(w: &mut Write, tournament_id: i32, id: i32) -> Result<Player, DbError> {
    crate::db::players::withdraw(w, tournament_id, id)
}

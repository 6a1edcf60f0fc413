//! The registry: the federation's people across events, merged and unmerged.
//!
//! Each function is the one way in for its step, for the pages and the API
//! alike.

use crate::db::audit::Write;
use crate::db::people::{Entry, Merge, Merged, Person, Record};
use crate::db::{DbConnection, DbError};
use crate::ids::PersonId;
use crate::registry::PersonFields;

/// Adds a person; a federation id another person has is refused.
pub fn create(w: &mut Write, f: &PersonFields) -> Result<Person, DbError> {
    crate::db::people::create(w, f)
}

pub fn find(conn: &mut DbConnection, id: PersonId) -> Result<Person, DbError> {
    crate::db::people::find(conn, id)
}

/// Merges `person` into `into`: their entries become `into`'s, and the
/// person stays, marked merged, so that the merge can be undone. Each
/// event an entry moves in records the change in its own trail (its
/// revision moves, its pages follow), whoever referees it; the entries of
/// published copies stay where they are and are listed as left.
pub fn merge(w: &mut Write, person: PersonId, into: PersonId) -> Result<Merged, DbError> {
    crate::db::people::merge(w, person, into)
}

/// People not merged away whose federation id or number (`12`, `#12`) is
/// `q` or whose name or club holds `q` (any case): the exact federation id
/// first, then by name.
pub fn search(conn: &mut DbConnection, q: &str, limit: i64) -> Result<Vec<Person>, DbError> {
    crate::db::people::search(conn, q, limit)
}

/// Undoes a merge exactly: the entries it moved go back, and the person is
/// no longer merged. A merge that a later one rests on (the merged person's
/// target merged on since, or someone merged into the merged person) must
/// be undone after that one, or the entries would go back to the wrong
/// person.
pub fn unmerge(w: &mut Write, id: i32) -> Result<Merge, DbError> {
    crate::db::people::unmerge(w, id)
}

/// The person with federation id `id`, in whatever case it is typed
/// ([`crate::roster::federation_id_spelling`]).
pub fn by_federation_id(conn: &mut DbConnection, id: &str) -> Result<Option<Person>, DbError> {
    crate::db::people::by_federation_id(conn, id)
}

pub fn entries(conn: &mut DbConnection, person: PersonId) -> Result<Vec<Entry>, DbError> {
    crate::db::people::entries(conn, person)
}

pub fn find_merge(conn: &mut DbConnection, id: i32) -> Result<Merge, DbError> {
    crate::db::people::find_merge(conn, id)
}

/// Adds the people of a registry import, all or none (the caller's commit
/// holds them). Someone whose federation id is in the registry already is
/// left as they are: their index is in the second list.
pub fn import(
    w: &mut Write,
    list: &[PersonFields],
) -> Result<(Vec<PersonId>, Vec<usize>), DbError> {
    crate::db::people::import(w, list)
}

/// The person a field of a request names: missing is that field's error.
pub fn named(
    conn: &mut DbConnection,
    field: &'static str,
    id: PersonId,
) -> Result<Person, DbError> {
    crate::db::people::named(conn, field, id)
}

pub fn record(c: &mut DbConnection, id: PersonId) -> Result<Record, DbError> {
    crate::db::people::record(c, id)
}

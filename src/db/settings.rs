//! Installation-wide settings kept in the database, so that several app
//! processes behind one load balancer agree on them.

use diesel::prelude::*;

use super::schema::settings;
use super::{DbConnection, DbError};

pub fn get(conn: &mut DbConnection, key: &str) -> Result<Option<String>, DbError> {
    Ok(settings::table
        .find(key)
        .select(settings::value)
        .first(conn)
        .optional()?)
}

/// Returns the stored value, storing `make()` first if there is none. When two
/// processes race, the first insert wins and both return its value.
pub fn get_or_insert(
    conn: &mut DbConnection,
    key: &str,
    make: impl FnOnce() -> String,
) -> Result<String, DbError> {
    if let Some(v) = get(conn, key)? {
        return Ok(v);
    }
    let _ = diesel::insert_into(settings::table)
        .values((settings::key.eq(key), settings::value.eq(make())))
        .execute(conn);
    get(conn, key)?.ok_or(DbError::NotFound("setting"))
}

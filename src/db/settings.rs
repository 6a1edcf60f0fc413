//! Installation-wide settings kept in the database, so that several app
//! processes behind one load balancer agree on them.

use crate::refusal::{Refusal, Thing};
use diesel::prelude::*;

use super::audit::Write;
use super::schema::settings;
use super::{DbConnection, DbError};
use crate::change::{Action, Change, Entity};

/// The federation's server this one pulls the rating list from.
pub const FEDERATION_URL: &str = "federation_url";

/// Stores `value` under `key` (`None` removes it), recording the change:
/// an admin's setting, not a secret (secrets are never set this way).
pub fn set(w: &mut Write, key: &str, value: Option<&str>) -> Result<(), DbError> {
    let old = get(w.conn(), key)?;
    if old.as_deref() == value {
        return Ok(());
    }
    diesel::delete(settings::table.find(key)).execute(w.conn())?;
    if let Some(v) = value {
        diesel::insert_into(settings::table)
            .values((settings::key.eq(key), settings::value.eq(v)))
            .execute(w.conn())?;
    }
    let mut change = Change::new(None, Action::Edit, Entity::Setting, None::<i32>);
    change.old_value = old.map(|o| format!("{key}: {o}"));
    change.new_value = value.map(|v| format!("{key}: {v}"));
    w.record(change);
    Ok(())
}

pub fn get(conn: &mut DbConnection, key: &str) -> Result<Option<String>, DbError> {
    Ok(settings::table
        .find(key)
        .select(settings::value)
        .first(conn)
        .optional()?)
}

/// Returns the stored value, storing `make()` first if there is none. When two
/// writers race, the first insert wins and both return its value: the
/// insert does nothing on a taken key (`ON CONFLICT DO NOTHING`), so it
/// never fails, and a transaction around it (PostgreSQL aborts one on any
/// failed statement) goes on to read the winner's value.
pub fn get_or_insert(
    conn: &mut DbConnection,
    key: &str,
    make: impl FnOnce() -> String,
) -> Result<String, DbError> {
    if let Some(v) = get(conn, key)? {
        return Ok(v);
    }
    let value = make();
    match conn {
        DbConnection::Sqlite(c) => diesel::sql_query(
            "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING",
        )
        .bind::<diesel::sql_types::Text, _>(key)
        .bind::<diesel::sql_types::Text, _>(&value)
        .execute(c)?,
        DbConnection::Postgres(c) => diesel::sql_query(
            "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        )
        .bind::<diesel::sql_types::Text, _>(key)
        .bind::<diesel::sql_types::Text, _>(&value)
        .execute(c)?,
    };
    get(conn, key)?.ok_or(DbError::Refused(Refusal::NotFound(Thing::Setting)))
}

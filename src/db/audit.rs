//! The audit trail: who changed what, when, from which value to which.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::Serialize;

use super::schema::{audit_entries, users};
use super::{now, DbConnection, DbError};

/// One change, as a referee reads it on the audit page.
#[derive(Debug, Clone, Serialize, Queryable)]
pub struct AuditEntry {
    pub at: NaiveDateTime,
    pub user: Option<String>,
    pub action: String,
    pub entity: String,
    pub entity_id: Option<i32>,
    pub old_value: Option<String>,
    pub new_value: Option<String>,
}

/// What a change is about; `record` writes it with the time and the user.
pub struct Change<'a> {
    pub tournament_id: Option<i32>,
    pub action: &'a str,
    pub entity: &'a str,
    pub entity_id: Option<i32>,
    pub old_value: Option<String>,
    pub new_value: Option<String>,
}

/// Every change to a tournament passes through here, which is why the
/// tournament's revision is bumped here too.
pub fn record(
    conn: &mut DbConnection,
    user_id: Option<i32>,
    change: Change<'_>,
) -> Result<(), DbError> {
    if let Some(tid) = change.tournament_id {
        super::tournaments::bump_revision(conn, tid)?;
    }
    diesel::insert_into(audit_entries::table)
        .values((
            audit_entries::tournament_id.eq(change.tournament_id),
            audit_entries::user_id.eq(user_id),
            audit_entries::at.eq(now()),
            audit_entries::action.eq(change.action),
            audit_entries::entity.eq(change.entity),
            audit_entries::entity_id.eq(change.entity_id),
            audit_entries::old_value.eq(change.old_value),
            audit_entries::new_value.eq(change.new_value),
        ))
        .execute(conn)?;
    Ok(())
}

pub fn of_tournament(
    conn: &mut DbConnection,
    tournament_id: i32,
) -> Result<Vec<AuditEntry>, DbError> {
    Ok(audit_entries::table
        .left_join(users::table)
        .filter(audit_entries::tournament_id.eq(tournament_id))
        .order((audit_entries::at.desc(), audit_entries::id.desc()))
        .select((
            audit_entries::at,
            users::name.nullable(),
            audit_entries::action,
            audit_entries::entity,
            audit_entries::entity_id,
            audit_entries::old_value,
            audit_entries::new_value,
        ))
        .load(conn)?)
}

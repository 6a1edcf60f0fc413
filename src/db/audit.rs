//! The audit trail's rows, and the handle every write goes through.
//!
//! A write never records itself on the side: the functions of this layer
//! that change an event take a [`Write`], hand it their typed
//! [`Change`]s, and `director::commit` (the one place that makes a
//! `Write`) stores them with the tournament's new revision when the
//! transaction ends. A write that recorded nothing is rolled back there.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{audit_entries, users};
use super::{now, DbConnection, DbError};
use crate::change::{Action, Change, Detail, Entity};
use crate::ids::{TournamentId, UserId};

/// One change, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    pub id: i32,
    pub at: NaiveDateTime,
    pub user: Option<String>,
    pub action: Action,
    pub entity: Entity,
    pub entity_id: Option<i32>,
    pub old_value: Option<String>,
    pub new_value: Option<String>,
    pub detail: Detail,
}

/// A write in progress: the connection of its transaction, who writes, and
/// the changes it has recorded so far.
pub struct Write<'c> {
    conn: &'c mut DbConnection,
    by: Option<UserId>,
    changes: Vec<Change>,
}

impl<'c> Write<'c> {
    /// Starts recording on `conn`, which must be inside a transaction.
    /// Only `director::commit` calls this (`tests/architecture.rs` checks).
    pub(crate) fn begin(conn: &'c mut DbConnection, by: Option<UserId>) -> Write<'c> {
        Write {
            conn,
            by,
            changes: Vec::new(),
        }
    }

    /// The transaction's connection, for the rows and queries of the write.
    pub fn conn(&mut self) -> &mut DbConnection {
        self.conn
    }

    /// The account writing (`None` for a player's link or the system).
    pub fn by(&self) -> Option<UserId> {
        self.by
    }

    pub fn record(&mut self, change: Change) {
        self.changes.push(change);
    }

    /// Changes recorded so far.
    pub fn recorded(&self) -> usize {
        self.changes.len()
    }

    /// Stores every recorded change and moves each tournament it touched to
    /// a new revision, once: pages and the pairing's "nothing changed
    /// meanwhile" check read the revision.
    pub fn finish(self) -> Result<(), DbError> {
        let at = now();
        let mut touched: Vec<TournamentId> = Vec::new();
        for c in &self.changes {
            insert(self.conn, self.by, at, c)?;
            if let Some(t) = c.tournament {
                if !touched.contains(&t) {
                    touched.push(t);
                }
            }
        }
        for t in touched {
            bump_revision(self.conn, t)?;
        }
        Ok(())
    }
}

fn insert(
    conn: &mut DbConnection,
    by: Option<UserId>,
    at: NaiveDateTime,
    c: &Change,
) -> Result<(), DbError> {
    // Ids and a number: nothing in a detail fails to serialise.
    let detail = (!c.detail.is_empty())
        .then(|| serde_json::to_string(&c.detail).ok())
        .flatten();
    diesel::insert_into(audit_entries::table)
        .values((
            audit_entries::tournament_id.eq(c.tournament),
            audit_entries::user_id.eq(by),
            audit_entries::at.eq(at),
            audit_entries::action.eq(c.action.as_str()),
            audit_entries::entity.eq(c.entity.as_str()),
            audit_entries::entity_id.eq(c.entity_id),
            audit_entries::old_value.eq(&c.old_value),
            audit_entries::new_value.eq(&c.new_value),
            audit_entries::detail.eq(detail),
        ))
        .execute(conn)?;
    Ok(())
}

type Row = (
    i32,
    NaiveDateTime,
    Option<String>,
    String,
    String,
    Option<i32>,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// An entry read back; a stored value Kraal does not know names its row.
fn typed(r: Row) -> Result<AuditEntry, DbError> {
    let (id, at, user, action, entity, entity_id, old_value, new_value, detail) = r;
    let unreadable = |message: String| DbError::Unreadable {
        row: format!("audit entry {id}"),
        message,
    };
    Ok(AuditEntry {
        id,
        at,
        user,
        action: action
            .parse()
            .map_err(|e: crate::named::UnknownName| unreadable(e.to_string()))?,
        entity: entity
            .parse()
            .map_err(|e: crate::named::UnknownName| unreadable(e.to_string()))?,
        entity_id,
        old_value,
        new_value,
        detail: match detail {
            Some(d) => serde_json::from_str(&d).map_err(|e| unreadable(format!("detail: {e}")))?,
            None => Detail::default(),
        },
    })
}

/// The trail of one tournament, newest first.
pub fn of_tournament(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
) -> Result<Vec<AuditEntry>, DbError> {
    audit_entries::table
        .left_join(users::table)
        .filter(audit_entries::tournament_id.eq(tournament_id))
        .order((audit_entries::at.desc(), audit_entries::id.desc()))
        .select((
            audit_entries::id,
            audit_entries::at,
            users::name.nullable(),
            audit_entries::action,
            audit_entries::entity,
            audit_entries::entity_id,
            audit_entries::old_value,
            audit_entries::new_value,
            audit_entries::detail,
        ))
        .load::<Row>(conn)?
        .into_iter()
        .map(typed)
        .collect()
}

/// How many changes tournament `tournament_id` has recorded (`None`: the
/// changes to no tournament, such as accounts made).
pub fn count(conn: &mut DbConnection, tournament_id: Option<TournamentId>) -> Result<i64, DbError> {
    let q = audit_entries::table.count().into_boxed();
    let q = match tournament_id {
        Some(t) => q.filter(audit_entries::tournament_id.eq(t)),
        None => q.filter(audit_entries::tournament_id.is_null()),
    };
    Ok(q.get_result(conn)?)
}

/// Marks the tournament changed; only a write's commit does
/// ([`Write::finish`]).
fn bump_revision(conn: &mut DbConnection, id: TournamentId) -> Result<(), DbError> {
    use super::schema::tournaments;
    diesel::update(tournaments::table.find(id))
        .set(tournaments::revision.eq(tournaments::revision + 1))
        .execute(conn)?;
    Ok(())
}

//! The first answers to players' writes sent with an `Idempotency-Key`
//! (`web::idempotency` says when one is kept and given back).

use chrono::Duration;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use super::schema::idempotent_answers as answers;
use super::{now, DbConnection, DbError};

/// How long an answer is kept: a phone's queue sends within a day or not
/// at all (the round has moved on).
pub const KEPT_HOURS: i64 = 24;

/// One kept answer.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = answers)]
pub struct Answer {
    /// A digest of the personal link's key (keys are per link).
    pub link: String,
    pub idempotency_key: String,
    /// A digest of the method, the path and the body.
    pub request: String,
    pub status: i32,
    pub content_type: Option<String>,
    pub location: Option<String>,
    pub body: String,
    pub created_at: chrono::NaiveDateTime,
}

/// The answer kept for `key` on `link`, if one younger than
/// [`KEPT_HOURS`] is.
pub fn recall(conn: &mut DbConnection, link: &str, key: &str) -> Result<Option<Answer>, DbError> {
    Ok(answers::table
        .filter(answers::link.eq(link))
        .filter(answers::idempotency_key.eq(key))
        .filter(answers::created_at.gt(now() - Duration::hours(KEPT_HOURS)))
        .first(conn)
        .optional()?)
}

/// Keeps `answer`, unless an answer for its key is kept already (two
/// sends of one write that crossed: the first kept stays), and lets the
/// answers older than [`KEPT_HOURS`] go.
pub fn keep(conn: &mut DbConnection, answer: &Answer) -> Result<(), DbError> {
    diesel::delete(
        answers::table.filter(answers::created_at.le(now() - Duration::hours(KEPT_HOURS))),
    )
    .execute(conn)?;
    match diesel::insert_into(answers::table)
        .values(answer)
        .execute(conn)
    {
        Ok(_) | Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

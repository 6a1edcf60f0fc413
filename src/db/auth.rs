//! Sign-in sessions, API tokens and the failed-sign-in record.
//!
//! Sessions live in the database rather than in a signed cookie so that
//! signing out, or an admin removing an account, ends them at once on every
//! app process.

use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;
use serde::Serialize;

use super::schema::{api_tokens, login_failures, sessions, users};
use super::users::User;
use super::{now, DbConnection, DbError};
use crate::ids::UserId;

/// How long a sign-in lasts without activity checks: a tournament weekend.
pub const SESSION_DAYS: i64 = 7;

pub fn create_session(
    conn: &mut DbConnection,
    user_id: UserId,
    token_digest: &str,
) -> Result<(), DbError> {
    let t = now();
    diesel::insert_into(sessions::table)
        .values((
            sessions::token_hash.eq(token_digest),
            sessions::user_id.eq(user_id),
            sessions::created_at.eq(t),
            sessions::expires_at.eq(t + Duration::days(SESSION_DAYS)),
        ))
        .execute(conn)?;
    Ok(())
}

pub fn session_user(conn: &mut DbConnection, token_digest: &str) -> Result<Option<User>, DbError> {
    Ok(sessions::table
        .inner_join(users::table)
        .filter(sessions::token_hash.eq(token_digest))
        .filter(sessions::expires_at.gt(now()))
        .select(User::as_select())
        .first(conn)
        .optional()?)
}

pub fn delete_session(conn: &mut DbConnection, token_digest: &str) -> Result<(), DbError> {
    diesel::delete(sessions::table.filter(sessions::token_hash.eq(token_digest))).execute(conn)?;
    Ok(())
}

/// An API token as its owner sees it (never the secret itself).
#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = api_tokens)]
pub struct ApiToken {
    pub id: i32,
    pub user_id: UserId,
    pub label: String,
    #[serde(skip)]
    pub token_hash: String,
    pub created_at: NaiveDateTime,
    pub last_used_at: Option<NaiveDateTime>,
    pub revoked_at: Option<NaiveDateTime>,
}

pub fn create_token(
    conn: &mut DbConnection,
    user_id: UserId,
    label: &str,
    token_digest: &str,
) -> Result<(), DbError> {
    diesel::insert_into(api_tokens::table)
        .values((
            api_tokens::user_id.eq(user_id),
            api_tokens::label.eq(label),
            api_tokens::token_hash.eq(token_digest),
            api_tokens::created_at.eq(now()),
        ))
        .execute(conn)?;
    Ok(())
}

pub fn tokens_of(conn: &mut DbConnection, user_id: UserId) -> Result<Vec<ApiToken>, DbError> {
    Ok(api_tokens::table
        .filter(api_tokens::user_id.eq(user_id))
        .order(api_tokens::id.desc())
        .select(ApiToken::as_select())
        .load(conn)?)
}

/// Revokes a token of `user_id`; false when the user has no such live token.
pub fn revoke_token(
    conn: &mut DbConnection,
    user_id: UserId,
    token_id: i32,
) -> Result<bool, DbError> {
    let n = diesel::update(
        api_tokens::table
            .filter(api_tokens::id.eq(token_id))
            .filter(api_tokens::user_id.eq(user_id))
            .filter(api_tokens::revoked_at.is_null()),
    )
    .set(api_tokens::revoked_at.eq(Some(now())))
    .execute(conn)?;
    Ok(n == 1)
}

/// The owner of a live token, noting when it was last used.
pub fn token_user(conn: &mut DbConnection, token_digest: &str) -> Result<Option<User>, DbError> {
    let found: Option<(i32, User)> = api_tokens::table
        .inner_join(users::table)
        .filter(api_tokens::token_hash.eq(token_digest))
        .filter(api_tokens::revoked_at.is_null())
        .select((api_tokens::id, User::as_select()))
        .first(conn)
        .optional()?;
    let Some((token_id, user)) = found else {
        return Ok(None);
    };
    diesel::update(api_tokens::table.find(token_id))
        .set(api_tokens::last_used_at.eq(Some(now())))
        .execute(conn)?;
    Ok(Some(user))
}

/// How a sign-in attempt stands against the throttle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// It may be checked; the id of its record, to settle afterwards.
    Admitted(i32),
    /// The attempts being checked right now, with the failures, fill the
    /// allowance: ask again when they are settled.
    Busy,
    /// The failures alone fill it: refuse.
    Locked,
}

/// How long an attempt may take to be checked. Its record is written
/// that far ahead: while its time is in the future it is being checked,
/// and an attempt whose process died counts as a failure after it.
const CHECKING_SECONDS: i64 = 60;

/// Admits a sign-in attempt for `name` when fewer than `allowed` attempts
/// since `since` have failed or are being checked, and writes it down as
/// being checked. The count and the record are one step for every process
/// at once (SQLite has one writer, and the record is written first;
/// PostgreSQL takes a lock on the name for the transaction), so never more
/// than `allowed` wrong passwords are checked, however many arrive
/// together; while right ones are being checked, the others wait their
/// turn instead of being refused.
pub fn admit_sign_in(
    conn: &mut DbConnection,
    name: &str,
    since: NaiveDateTime,
    allowed: i64,
) -> Result<Admission, DbError> {
    conn.transaction(|conn| {
        if let DbConnection::Postgres(c) = conn {
            diesel::sql_query("SELECT pg_advisory_xact_lock(hashtext($1))")
                .bind::<diesel::sql_types::Text, _>(name)
                .execute(c)?;
        }
        let t = now();
        let id: i32 = diesel::insert_into(login_failures::table)
            .values((
                login_failures::name.eq(name),
                login_failures::at.eq(t + Duration::seconds(CHECKING_SECONDS)),
            ))
            .returning(login_failures::id)
            .get_result(conn)?;
        // Failed and being checked in one count, so that one attempt
        // settling meanwhile is counted once and not zero times.
        let others = login_failures::table
            .filter(login_failures::name.eq(name))
            .filter(login_failures::id.ne(id))
            .filter(login_failures::at.gt(since));
        let taken: i64 = others.count().get_result(conn)?;
        if taken < allowed {
            return Ok(Admission::Admitted(id));
        }
        let failed: i64 = others
            .filter(login_failures::at.le(t))
            .count()
            .get_result(conn)?;
        let admission = if failed >= allowed {
            Admission::Locked
        } else {
            Admission::Busy
        };
        diesel::delete(login_failures::table.find(id)).execute(conn)?;
        Ok(admission)
    })
}

/// The admitted attempt `id` was wrong: it counts as a failure from now.
pub fn sign_in_failed(conn: &mut DbConnection, id: i32) -> Result<(), DbError> {
    diesel::update(login_failures::table.find(id))
        .set(login_failures::at.eq(now()))
        .execute(conn)?;
    Ok(())
}

/// A refused attempt counts as a failure too, so that hammering a locked
/// name keeps it locked.
pub fn record_login_failure(conn: &mut DbConnection, name: &str) -> Result<(), DbError> {
    diesel::insert_into(login_failures::table)
        .values((login_failures::name.eq(name), login_failures::at.eq(now())))
        .execute(conn)?;
    Ok(())
}

/// The admitted attempt `id` was right: its record and the failures
/// before it go; attempts of others still being checked keep theirs.
pub fn sign_in_succeeded(conn: &mut DbConnection, name: &str, id: i32) -> Result<(), DbError> {
    diesel::delete(
        login_failures::table.filter(
            login_failures::id.eq(id).or(login_failures::name
                .eq(name)
                .and(login_failures::at.le(now()))),
        ),
    )
    .execute(conn)?;
    Ok(())
}

/// A new password ends every other way in: the user's other sessions (a
/// phone left signed in, or someone who learnt the old password) and all
/// their API tokens. The session it was changed from stays signed in.
pub fn set_password_ending_others(
    conn: &mut DbConnection,
    user_id: UserId,
    password_hash: &str,
    keep_session_digest: Option<&str>,
) -> Result<(), DbError> {
    super::transaction(conn, |conn| {
        super::users::set_password(conn, user_id, password_hash)?;
        diesel::delete(
            sessions::table
                .filter(sessions::user_id.eq(user_id))
                .filter(sessions::token_hash.ne(keep_session_digest.unwrap_or(""))),
        )
        .execute(conn)?;
        diesel::update(
            api_tokens::table
                .filter(api_tokens::user_id.eq(user_id))
                .filter(api_tokens::revoked_at.is_null()),
        )
        .set(api_tokens::revoked_at.eq(Some(now())))
        .execute(conn)?;
        Ok(())
    })
}

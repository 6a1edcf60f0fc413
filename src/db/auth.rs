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

/// How long a sign-in lasts without activity checks: a tournament weekend.
pub const SESSION_DAYS: i64 = 7;

pub fn create_session(
    conn: &mut DbConnection,
    user_id: i32,
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
    pub user_id: i32,
    pub label: String,
    #[serde(skip)]
    pub token_hash: String,
    pub created_at: NaiveDateTime,
    pub last_used_at: Option<NaiveDateTime>,
    pub revoked_at: Option<NaiveDateTime>,
}

pub fn create_token(
    conn: &mut DbConnection,
    user_id: i32,
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

pub fn tokens_of(conn: &mut DbConnection, user_id: i32) -> Result<Vec<ApiToken>, DbError> {
    Ok(api_tokens::table
        .filter(api_tokens::user_id.eq(user_id))
        .order(api_tokens::id.desc())
        .select(ApiToken::as_select())
        .load(conn)?)
}

/// Revokes a token of `user_id`; false when the user has no such live token.
pub fn revoke_token(conn: &mut DbConnection, user_id: i32, token_id: i32) -> Result<bool, DbError> {
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

pub fn record_login_failure(conn: &mut DbConnection, name: &str) -> Result<(), DbError> {
    diesel::insert_into(login_failures::table)
        .values((login_failures::name.eq(name), login_failures::at.eq(now())))
        .execute(conn)?;
    Ok(())
}

/// Failed sign-ins for `name` since `since`.
pub fn login_failures_since(
    conn: &mut DbConnection,
    name: &str,
    since: NaiveDateTime,
) -> Result<i64, DbError> {
    Ok(login_failures::table
        .filter(login_failures::name.eq(name))
        .filter(login_failures::at.gt(since))
        .count()
        .get_result(conn)?)
}

pub fn clear_login_failures(conn: &mut DbConnection, name: &str) -> Result<(), DbError> {
    diesel::delete(login_failures::table.filter(login_failures::name.eq(name))).execute(conn)?;
    Ok(())
}

/// A new password ends every other way in: the user's other sessions (a
/// phone left signed in, or someone who learnt the old password) and all
/// their API tokens. The session it was changed from stays signed in.
pub fn set_password_ending_others(
    conn: &mut DbConnection,
    user_id: i32,
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

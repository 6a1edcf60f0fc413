//! Accounts, their sessions and API tokens, and the sign-in throttle.
//!
//! Each function is the one way in for its step, for the pages and the API
//! alike.

use crate::db::audit::Write;
use crate::db::auth::{Admission, ApiToken};
use crate::db::users::{Role, User};
use crate::db::{DbConnection, DbError};
use crate::ids::UserId;
use chrono::NaiveDateTime;

pub fn session_user(conn: &mut DbConnection, token_digest: &str) -> Result<Option<User>, DbError> {
    crate::db::auth::session_user(conn, token_digest)
}

/// The owner of a live token, noting when it was last used.
pub fn token_user(conn: &mut DbConnection, token_digest: &str) -> Result<Option<User>, DbError> {
    crate::db::auth::token_user(conn, token_digest)
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
    crate::db::auth::set_password_ending_others(conn, user_id, password_hash, keep_session_digest)
}

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
    crate::db::auth::admit_sign_in(conn, name, since, allowed)
}

pub fn create_session(
    conn: &mut DbConnection,
    user_id: UserId,
    token_digest: &str,
) -> Result<(), DbError> {
    crate::db::auth::create_session(conn, user_id, token_digest)
}

pub fn create_token(
    conn: &mut DbConnection,
    user_id: UserId,
    label: &str,
    token_digest: &str,
) -> Result<(), DbError> {
    crate::db::auth::create_token(conn, user_id, label, token_digest)
}

pub fn delete_session(conn: &mut DbConnection, token_digest: &str) -> Result<(), DbError> {
    crate::db::auth::delete_session(conn, token_digest)
}

/// A refused attempt counts as a failure too, so that hammering a locked
/// name keeps it locked.
pub fn record_login_failure(conn: &mut DbConnection, name: &str) -> Result<(), DbError> {
    crate::db::auth::record_login_failure(conn, name)
}

/// Revokes a token of `user_id`; false when the user has no such live token.
pub fn revoke_token(
    conn: &mut DbConnection,
    user_id: UserId,
    token_id: i32,
) -> Result<bool, DbError> {
    crate::db::auth::revoke_token(conn, user_id, token_id)
}

/// The admitted attempt `id` was wrong: it counts as a failure from now.
pub fn sign_in_failed(conn: &mut DbConnection, id: i32) -> Result<(), DbError> {
    crate::db::auth::sign_in_failed(conn, id)
}

/// The admitted attempt `id` was right: its record and the failures
/// before it go; attempts of others still being checked keep theirs.
pub fn sign_in_succeeded(conn: &mut DbConnection, name: &str, id: i32) -> Result<(), DbError> {
    crate::db::auth::sign_in_succeeded(conn, name, id)
}

pub fn tokens_of(conn: &mut DbConnection, user_id: UserId) -> Result<Vec<ApiToken>, DbError> {
    crate::db::auth::tokens_of(conn, user_id)
}

pub fn list(conn: &mut DbConnection) -> Result<Vec<User>, DbError> {
    crate::db::users::list(conn)
}

/// Checks an account name: what people type at a venue, nothing that needs escaping.
pub fn check_name(name: &str) -> Result<String, crate::field::FieldError> {
    crate::db::users::check_name(name)
}

/// Makes an account, recorded as a change by whoever makes it (an admin on
/// the Users page, nobody from the command line), like every other write.
pub fn create(w: &mut Write, name: &str, role: Role, password_hash: &str) -> Result<User, DbError> {
    crate::db::users::create(w, name, role, password_hash)
}

/// The first admin of a new installation, once: the `setup` settings key
/// is the lock, so two people setting up at the same moment cannot both
/// become admin. Recorded like any account made.
pub fn create_first_admin(w: &mut Write, name: &str, hash: &str) -> Result<User, DbError> {
    crate::db::users::create_first_admin(w, name, hash)
}

/// Gives account `id` the right to publish events here from a venue, or
/// takes it back: the command line's `kraal user publisher`, recorded.
pub fn allow_publishing(w: &mut Write, id: UserId, may: bool) -> Result<User, DbError> {
    crate::db::users::allow_publishing(w, id, may)
}

pub fn find_by_name(conn: &mut DbConnection, name: &str) -> Result<Option<User>, DbError> {
    crate::db::users::find_by_name(conn, name)
}

pub fn count(conn: &mut DbConnection) -> Result<i64, DbError> {
    crate::db::users::count(conn)
}

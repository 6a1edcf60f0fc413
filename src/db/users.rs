//! Accounts: admins run the installation, referees run assigned tournaments.

use crate::refusal::{Refusal, Thing};
use diesel::prelude::*;
use serde::Serialize;

use super::audit::Write;
use super::schema::users;
use super::{classify, found, now, DbConnection, DbError};
use crate::change::{Action, Change, Entity};
use crate::conflict::{Conflict, Taken};
use crate::field::{FieldError, Problem};
use crate::ids::UserId;

named_values! {
    /// What an account may do.
    Role {
        Admin => "admin", "Admin";
        Referee => "referee", "Referee";
    }
}

/// An account row.
#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = users)]
pub struct User {
    pub id: UserId,
    pub name: String,
    #[diesel(deserialize_as = String)]
    pub role: Role,
    #[serde(skip)]
    pub password_hash: String,
    pub created_at: chrono::NaiveDateTime,
    /// An admin allows this account to publish events here from a venue.
    pub may_publish: bool,
}

impl User {
    pub fn is_admin(&self) -> bool {
        self.role == Role::Admin
    }
}

/// Checks an account name: what people type at a venue, nothing that needs escaping.
pub fn check_name(name: &str) -> Result<String, FieldError> {
    let name = name.trim();
    let refused = |problem| Err(FieldError::new("name", problem));
    if name.is_empty() {
        return refused(Problem::Empty);
    }
    if name.chars().count() > 40 {
        return refused(Problem::TooLong { max: 40 });
    }
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '@'))
    {
        return refused(Problem::AccountNameCharacters);
    }
    Ok(name.to_string())
}

/// Makes an account and records it (by whoever makes it: an admin on the
/// Users page, nobody from the command line or at first setup).
pub fn create(w: &mut Write, name: &str, role: Role, password_hash: &str) -> Result<User, DbError> {
    let u = insert(w.conn(), name, role, password_hash)?;
    w.record(
        Change::new(None, Action::Create, Entity::User, Some(u.id))
            .new_value(format!("{} ({})", u.name, u.role)),
    );
    Ok(u)
}

fn insert(
    conn: &mut DbConnection,
    name: &str,
    role: Role,
    password_hash: &str,
) -> Result<User, DbError> {
    diesel::insert_into(users::table)
        .values((
            users::name.eq(name),
            users::role.eq(role.as_str()),
            users::password_hash.eq(password_hash),
            users::created_at.eq(now()),
        ))
        .execute(conn)
        .map_err(|e| {
            classify(
                e,
                Taken::UserName {
                    name: name.to_string(),
                },
            )
        })?;
    find_by_name(conn, name)?.ok_or(DbError::Refused(Refusal::NotFound(Thing::User)))
}

/// Lets account `id` publish events here from a venue, or no longer (the
/// command line sets it), recorded when it changes.
pub fn allow_publishing(w: &mut Write, id: UserId, may: bool) -> Result<User, DbError> {
    let before = find(w.conn(), id)?;
    diesel::update(users::table.find(id))
        .set(users::may_publish.eq(may))
        .execute(w.conn())?;
    if before.may_publish != may {
        w.record(
            Change::new(None, Action::Edit, Entity::User, Some(id))
                .old(serde_json::json!({ "may_publish": before.may_publish }).to_string())
                .new_value(serde_json::json!({ "may_publish": may }).to_string()),
        );
    }
    find(w.conn(), id)
}

pub fn find(conn: &mut DbConnection, id: UserId) -> Result<User, DbError> {
    users::table
        .find(id)
        .select(User::as_select())
        .first(conn)
        .map_err(|e| found(e, crate::refusal::Thing::User))
}

pub fn find_by_name(conn: &mut DbConnection, name: &str) -> Result<Option<User>, DbError> {
    Ok(users::table
        .filter(users::name.eq(name))
        .select(User::as_select())
        .first(conn)
        .optional()?)
}

pub fn list(conn: &mut DbConnection) -> Result<Vec<User>, DbError> {
    Ok(users::table
        .order(users::name)
        .select(User::as_select())
        .load(conn)?)
}

pub fn count(conn: &mut DbConnection) -> Result<i64, DbError> {
    Ok(users::table.count().get_result(conn)?)
}

pub(super) fn set_password(
    conn: &mut DbConnection,
    id: UserId,
    password_hash: &str,
) -> Result<(), DbError> {
    diesel::update(users::table.find(id))
        .set(users::password_hash.eq(password_hash))
        .execute(conn)?;
    Ok(())
}

/// Creates the first admin of a new installation, once: the `setup`
/// settings key is the lock, so two people setting up at the same moment
/// cannot both become admin.
pub fn create_first_admin(w: &mut Write, name: &str, hash: &str) -> Result<User, DbError> {
    let marker = super::settings::get_or_insert(w.conn(), "setup", || name.to_string())?;
    if marker != name || count(w.conn())? > 0 {
        return Err(DbError::Refused(Refusal::Conflict(Conflict::AlreadySetUp)));
    }
    create(w, name, Role::Admin, hash)
}

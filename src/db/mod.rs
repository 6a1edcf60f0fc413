//! The database shell: the only place that knows SQL.
//!
//! One connection type serves both backends; the backend is chosen from the
//! URL scheme by [`connection::Database::open`], never by trial, so a wrong
//! password or an unreachable server is reported as exactly that.

pub mod audit;
pub mod auth;
pub mod byes;
pub mod connection;
pub mod event;
pub mod explanations;
pub mod forbidden;
pub mod health;
pub mod idempotency;
pub mod ids;
pub mod links;
pub mod people;
pub mod players;
pub mod plies;
pub mod publications;
pub mod published;
pub mod reports;
pub mod round_settings;
pub mod rounds;
pub mod schema;
pub mod scoresheets;
pub mod seasons;
pub mod settings;
pub mod teams;
pub mod tournaments;
pub mod users;

pub use connection::{Database, DbConnection, Pool};

use chrono::{NaiveDateTime, Timelike, Utc};

/// Errors of the database layer.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The URL or the server could not be used; the text names the problem.
    #[error("{0}")]
    Setup(String),
    /// A stored value that is not one Kraal knows (a hand-edited or damaged
    /// database): named with its row, never read as some default.
    #[error("{row} holds a value that cannot be read: {message}")]
    Unreadable { row: String, message: String },
    /// A refusal of the use case, as a value (`crate::refusal`): the
    /// request was understood and the answer is no.
    #[error("{0}")]
    Refused(crate::refusal::Refusal),
    /// Any other database failure.
    #[error("database error: {0}")]
    Query(#[from] diesel::result::Error),
    /// No connection could be taken from the pool in time.
    #[error("database unavailable: {0}")]
    Pool(#[from] diesel::r2d2::PoolError),
}

/// Every refusal is the database layer's answer too: a use case passes
/// it on with `?`.
macro_rules! refusals {
    ($($t:ty),+) => {$(
        impl From<$t> for DbError {
            fn from(r: $t) -> DbError {
                DbError::Refused(r.into())
            }
        }
    )+};
}

refusals!(
    crate::refusal::Refusal,
    crate::field::FieldError,
    crate::conflict::Conflict,
    crate::rounds::Refused,
    crate::rounds::NotReady,
    crate::roster::Refused,
    crate::tournament::Lock
);

impl DbError {
    /// SQLite refused the work because another writer holds the database
    /// ("database is locked"): running it again will do.
    pub fn is_busy(&self) -> bool {
        matches!(self, DbError::Query(diesel::result::Error::DatabaseError(_, info))
            if info.message().contains("database is locked"))
    }
}

/// A consistent copy of a SQLite database in a new file, taken while
/// others read and write it. PostgreSQL is backed up with `pg_dump`.
pub fn backup_into(conn: &mut DbConnection, file: &std::path::Path) -> Result<(), DbError> {
    use diesel::RunQueryDsl;
    match conn {
        DbConnection::Sqlite(c) => {
            let path = file.to_str().ok_or_else(|| {
                DbError::Setup(format!("{} is not a path SQLite can take", file.display()))
            })?;
            diesel::sql_query("VACUUM INTO ?")
                .bind::<diesel::sql_types::Text, _>(path)
                .execute(c)
                .map_err(|e| DbError::Setup(format!("cannot write {}: {e}", file.display())))?;
            Ok(())
        }
        DbConnection::Postgres(_) => Err(DbError::Setup(
            "a PostgreSQL database is backed up with pg_dump (see the README)".into(),
        )),
    }
}

/// Whether the database answers at all (a trivial query).
pub fn ping(conn: &mut DbConnection) -> Result<(), DbError> {
    use diesel::RunQueryDsl;
    match conn {
        DbConnection::Sqlite(c) => diesel::sql_query("SELECT 1").execute(c)?,
        DbConnection::Postgres(c) => diesel::sql_query("SELECT 1").execute(c)?,
    };
    Ok(())
}

/// Holds `key` until the caller's transaction ends, so that two writers
/// making the same thing at once (a person by federation id) take turns:
/// PostgreSQL takes an advisory lock on the key; SQLite has one writer at
/// a time anyway.
pub(in crate::db) fn lock_key(conn: &mut DbConnection, key: &str) -> Result<(), DbError> {
    use diesel::RunQueryDsl;
    if let DbConnection::Postgres(c) = conn {
        diesel::sql_query("SELECT pg_advisory_xact_lock(hashtext($1))")
            .bind::<diesel::sql_types::Text, _>(key)
            .execute(c)?;
    }
    Ok(())
}

/// Runs `f` in one transaction: committed when it returns `Ok`, rolled back
/// otherwise. For this layer's own bookkeeping (sessions); a change to an
/// event goes through `director::commit`.
pub(in crate::db) fn transaction<T>(
    conn: &mut DbConnection,
    f: impl FnOnce(&mut DbConnection) -> Result<T, DbError>,
) -> Result<T, DbError> {
    use diesel::Connection;
    conn.transaction(f)
}

/// Runs `f` in one transaction, which `f` also says whether to keep: its
/// value is returned either way, and the transaction is rolled back when
/// `f` answers `false`. `director::commit` is built on it.
pub fn transaction_kept_if<T>(
    conn: &mut DbConnection,
    f: impl FnOnce(&mut DbConnection) -> Result<(T, bool), DbError>,
) -> Result<T, DbError> {
    use diesel::Connection;
    enum Ended<T> {
        Dropped(T),
        Failed(DbError),
    }
    impl<T> From<diesel::result::Error> for Ended<T> {
        fn from(e: diesel::result::Error) -> Self {
            Ended::Failed(e.into())
        }
    }
    let outcome = conn.transaction(|c| match f(c) {
        Ok((value, true)) => Ok(value),
        Ok((value, false)) => Err(Ended::Dropped(value)),
        Err(e) => Err(Ended::Failed(e)),
    });
    match outcome {
        Ok(value) | Err(Ended::Dropped(value)) => Ok(value),
        Err(Ended::Failed(e)) => Err(e),
    }
}

/// A nullable text column read as `Option<T>` of a named value
/// (`#[diesel(deserialize_as = Stored<T>)]` on an `Option<T>` field): a
/// stored spelling that is not one of `T`'s values is an error, as for the
/// non-null columns read through `deserialize_as = String`.
pub struct Stored<T>(Option<T>);

impl<T, DB> diesel::deserialize::Queryable<diesel::sql_types::Nullable<diesel::sql_types::Text>, DB>
    for Stored<T>
where
    DB: diesel::backend::Backend,
    Option<String>: diesel::deserialize::FromStaticSqlRow<
        diesel::sql_types::Nullable<diesel::sql_types::Text>,
        DB,
    >,
    T: TryFrom<String>,
    T::Error: std::error::Error + Send + Sync + 'static,
{
    type Row = Option<String>;
    fn build(row: Option<String>) -> diesel::deserialize::Result<Self> {
        Ok(Stored(row.map(T::try_from).transpose()?))
    }
}

impl<T> From<Stored<T>> for Option<T> {
    fn from(s: Stored<T>) -> Option<T> {
        s.0
    }
}

/// Turns "no row" into a `Refusal::NotFound` naming `thing`, so the page
/// or API says what is missing without each caller translating it.
pub(crate) fn found(err: diesel::result::Error, thing: crate::refusal::Thing) -> DbError {
    match err {
        diesel::result::Error::NotFound => {
            DbError::Refused(crate::refusal::Refusal::NotFound(thing))
        }
        other => DbError::Query(other),
    }
}

/// As [`found`], and a stored value that cannot be read names its `row`.
pub(crate) fn read_row(
    err: diesel::result::Error,
    thing: crate::refusal::Thing,
    row: &str,
) -> DbError {
    match err {
        diesel::result::Error::DeserializationError(e) => DbError::Unreadable {
            row: format!("{} {row}", <&str>::from(thing)),
            message: e.to_string(),
        },
        other => found(other, thing),
    }
}

/// Turns a unique violation into the conflict `taken` names, so callers
/// never match on diesel internals.
pub(crate) fn classify(err: diesel::result::Error, taken: crate::conflict::Taken) -> DbError {
    use diesel::result::{DatabaseErrorKind, Error};
    match err {
        Error::NotFound => DbError::Refused(crate::refusal::Refusal::NotFound(
            crate::refusal::Thing::Record,
        )),
        Error::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => {
            DbError::from(crate::conflict::Conflict::Taken(taken))
        }
        other => DbError::Query(other),
    }
}

/// The current time to whole seconds: SQLite keeps seconds and PostgreSQL
/// microseconds, and both backends must store and export the same values.
pub fn now() -> NaiveDateTime {
    let t = Utc::now().naive_utc();
    t.with_nanosecond(0).unwrap_or(t)
}

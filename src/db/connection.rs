//! Opening the database named by a URL, pooling connections and migrating.

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::{self, ManageConnection};
use diesel::{PgConnection, SqliteConnection};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};
use std::path::Path;
use std::time::Duration;

use super::DbError;

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");

/// A connection to either backend; queries written once run on both.
#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    Sqlite(SqliteConnection),
    Postgres(PgConnection),
}

/// The pool every request borrows from.
pub type Pool = r2d2::Pool<Manager>;

/// A connection borrowed from the pool.
pub type PooledConnection = r2d2::PooledConnection<Manager>;

/// Which backend a URL names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A parsed database location.
#[derive(Debug, Clone)]
pub struct Database {
    backend: Backend,
    /// For SQLite a file path; for PostgreSQL the full URL.
    target: String,
}

impl Database {
    /// Reads a database location.
    ///
    /// `postgres://` and `postgresql://` select PostgreSQL; `sqlite://FILE`
    /// (or `sqlite:FILE`) selects SQLite and creates the file if needed. A bare
    /// path is accepted only when the file exists (or `create_bare` is set, for
    /// the built-in default), so a typo never creates a new, empty database.
    pub fn parse(url: &str, create_bare: bool) -> Result<Database, DbError> {
        let url = url.trim();
        if url.is_empty() {
            return Err(DbError::Setup("the database URL is empty".into()));
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(Database {
                backend: Backend::Postgres,
                target: url.to_string(),
            });
        }
        if let Some(path) = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
        {
            if path.is_empty() {
                return Err(DbError::Setup(
                    "the SQLite URL names no file (write sqlite://kraal.db)".into(),
                ));
            }
            return Ok(Database {
                backend: Backend::Sqlite,
                target: path.to_string(),
            });
        }
        if let Some((scheme, _)) = url.split_once("://") {
            return Err(DbError::Setup(format!(
                "unsupported database URL scheme '{scheme}': use sqlite://FILE or postgres://USER@HOST/NAME"
            )));
        }
        if create_bare || Path::new(url).is_file() {
            return Ok(Database {
                backend: Backend::Sqlite,
                target: url.to_string(),
            });
        }
        Err(DbError::Setup(format!(
            "database file '{url}' does not exist; write sqlite://{url} to create it"
        )))
    }

    /// The backend this location selects.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// A description safe to print: PostgreSQL passwords are masked.
    pub fn describe(&self) -> String {
        match self.backend {
            Backend::Sqlite => format!("SQLite file {}", self.target),
            Backend::Postgres => format!("PostgreSQL {}", mask_password(&self.target)),
        }
    }

    /// Opens one connection, with the per-connection settings applied.
    pub fn connect(&self) -> Result<DbConnection, DbError> {
        match self.backend {
            Backend::Sqlite => {
                if let Some(dir) = Path::new(&self.target).parent() {
                    if !dir.as_os_str().is_empty() && !dir.is_dir() {
                        return Err(DbError::Setup(format!(
                            "cannot create SQLite file {}: folder {} does not exist",
                            self.target,
                            dir.display()
                        )));
                    }
                }
                let mut conn = SqliteConnection::establish(&self.target).map_err(|e| {
                    DbError::Setup(format!("cannot open SQLite file {}: {e}", self.target))
                })?;
                // WAL lets readers run beside the writer; busy_timeout makes a
                // second writer wait instead of failing at once. `synchronous
                // = FULL` syncs the log at every commit, so a result the
                // server acknowledged survives a power cut (NORMAL can lose
                // the last commits); KRAAL_SQLITE_SYNCHRONOUS=normal trades
                // that for speed (docs/performance.md gives the cost).
                let sync = match std::env::var("KRAAL_SQLITE_SYNCHRONOUS")
                    .unwrap_or_default()
                    .to_ascii_lowercase()
                    .as_str()
                {
                    "normal" => "NORMAL",
                    _ => "FULL",
                };
                // The timeout first: setting the journal mode takes a lock,
                // and a connection opened while others write must wait for
                // it rather than fail ("database is locked").
                conn.batch_execute(&format!(
                    "PRAGMA busy_timeout = 10000; PRAGMA journal_mode = WAL; \
                     PRAGMA synchronous = {sync}; PRAGMA foreign_keys = ON;"
                ))
                .map_err(|e| {
                    DbError::Setup(format!("cannot use SQLite file {}: {e}", self.target))
                })?;
                Ok(DbConnection::Sqlite(conn))
            }
            Backend::Postgres => {
                let conn = PgConnection::establish(&self.target).map_err(|e| {
                    let text = e.to_string();
                    let first = text.lines().next().unwrap_or("").trim();
                    DbError::Setup(format!(
                        "cannot connect to {}: {first}",
                        mask_password(&self.target)
                    ))
                })?;
                Ok(DbConnection::Postgres(conn))
            }
        }
    }

    /// Connects once (to report a bad URL plainly), migrates, and returns a pool.
    pub fn open(&self, max_size: u32) -> Result<Pool, DbError> {
        let mut first = self.connect()?;
        migrate(&mut first)?;
        drop(first);
        r2d2::Pool::builder()
            .max_size(max_size)
            .connection_timeout(Duration::from_secs(10))
            .build(Manager {
                database: self.clone(),
            })
            .map_err(|e| DbError::Setup(format!("cannot open {}: {e}", self.describe())))
    }
}

/// Runs every pending migration of the connection's backend.
pub fn migrate(conn: &mut DbConnection) -> Result<(), DbError> {
    let result = match conn {
        DbConnection::Sqlite(c) => c
            .run_pending_migrations(SQLITE_MIGRATIONS)
            .map(|v| v.iter().map(ToString::to_string).collect::<Vec<_>>()),
        DbConnection::Postgres(c) => c
            .run_pending_migrations(POSTGRES_MIGRATIONS)
            .map(|v| v.iter().map(ToString::to_string).collect::<Vec<_>>()),
    };
    let applied =
        result.map_err(|e| DbError::Setup(format!("cannot migrate the database: {e}")))?;
    // What SQL cannot do: digests are computed here. Players' links are
    // given with every new player; only the migration that brought links
    // finds players without one, so only then are they looked for.
    let links_arrived = applied.iter().any(|v| v.starts_with("20261127000033"));
    super::teams::digest_plain_captain_links(conn)
        .and_then(|_| {
            if links_arrived {
                super::links::issue_missing(conn)?;
            }
            // Explanations stored as sentences become values, once.
            super::explanations::rewrite_sentences(conn)?;
            Ok(())
        })
        .map_err(|e| DbError::Setup(format!("cannot migrate the database: {e}")))
}

fn mask_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let Some((creds, host)) = rest.rsplit_once('@') else {
        return url.to_string();
    };
    match creds.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

/// The r2d2 manager: opens connections for the backend the URL chose.
#[derive(Debug)]
pub struct Manager {
    database: Database,
}

impl ManageConnection for Manager {
    type Connection = DbConnection;
    type Error = r2d2::Error;

    fn connect(&self) -> Result<DbConnection, r2d2::Error> {
        self.database.connect().map_err(|e| {
            r2d2::Error::ConnectionError(diesel::ConnectionError::BadConnection(e.to_string()))
        })
    }

    fn is_valid(&self, conn: &mut DbConnection) -> Result<(), r2d2::Error> {
        conn.batch_execute("SELECT 1")
            .map_err(r2d2::Error::QueryError)
    }

    fn has_broken(&self, _conn: &mut DbConnection) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_choose_the_backend_by_scheme() {
        assert_eq!(
            Database::parse("postgres://u:p@h/db", false)
                .unwrap()
                .backend(),
            Backend::Postgres
        );
        assert_eq!(
            Database::parse("sqlite://x.db", false).unwrap().backend(),
            Backend::Sqlite
        );
        let err = Database::parse("mysql://h/db", false)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("unsupported database URL scheme 'mysql'"),
            "{err}"
        );
        let err = Database::parse("no-such-file.db", false)
            .unwrap_err()
            .to_string();
        assert!(err.contains("does not exist"), "{err}");
    }

    #[test]
    fn passwords_are_masked_in_messages() {
        let db = Database::parse("postgres://kraal:secret@db.local/kraal", false).unwrap();
        assert!(!db.describe().contains("secret"));
        assert!(db.describe().contains("kraal:***@db.local"));
    }
}

//! `kraal export standings TOURNAMENT_ID`: the same bytes as the
//! standings CSV the site serves.

use std::io::Write;

use super::serve::DatabaseArgs;
use crate::db::DbError;
use crate::director;

/// What to export.
#[derive(Debug, clap::Subcommand)]
pub enum ExportWhat {
    /// The standings of a tournament as CSV on standard output.
    Standings {
        /// The tournament's id (the number in its address, /t/ID).
        tournament: i32,
        #[command(flatten)]
        db: DatabaseArgs,
    },
}

pub fn run(what: ExportWhat) -> i32 {
    let ExportWhat::Standings { tournament, db } = what;
    let result = (|| -> Result<Vec<u8>, DbError> {
        let pool = db.open()?;
        let mut conn = pool.get()?;
        let data = director::load(&mut conn, tournament).map_err(|e| match e {
            DbError::NotFound(_) => DbError::Setup(format!("no tournament with id {tournament}")),
            other => other,
        })?;
        crate::export::standings::csv(&data).map_err(|e| DbError::Setup(e.to_string()))
    })();
    match result {
        Ok(bytes) => match std::io::stdout().write_all(&bytes) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("kraal export: {e}");
                1
            }
        },
        Err(e) => {
            eprintln!("kraal export: {e}");
            1
        }
    }
}

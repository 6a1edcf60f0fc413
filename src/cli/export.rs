//! `kraal export standings TOURNAMENT_ID` and `kraal export games
//! TOURNAMENT_ID`: the same bytes as the standings CSV and the records file
//! (`/t/ID/games.txt`) the site serves.

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
    /// Every record of a tournament's games, in the scoresheet notation.
    Games {
        /// The tournament's id (the number in its address, /t/ID).
        tournament: i32,
        #[command(flatten)]
        db: DatabaseArgs,
    },
}

pub fn run(what: ExportWhat) -> i32 {
    let (tournament, db, games) = match what {
        ExportWhat::Standings { tournament, db } => (tournament, db, false),
        ExportWhat::Games { tournament, db } => (tournament, db, true),
    };
    let result = (|| -> Result<Vec<u8>, DbError> {
        let pool = db.open()?;
        let mut conn = pool.get()?;
        let data = director::load(&mut conn, tournament).map_err(|e| match e {
            DbError::NotFound(_) => DbError::Setup(format!("no tournament with id {tournament}")),
            other => other,
        })?;
        if games {
            return crate::export::games::text(&mut conn, tournament).map(String::into_bytes);
        }
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

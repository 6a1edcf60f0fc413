//! `kraal export standings|games|event|trf TOURNAMENT_ID`: the same bytes as
//! the standings CSV, the records file (`/t/ID/games.txt`), the event file
//! (`/t/ID/event.json`) and the TRF (`/t/ID/export.trf`) the site serves.

use crate::refusal::{Refusal, Thing};
use std::io::Write;

use super::serve::DatabaseArgs;
use crate::db::DbError;
use crate::director;
use crate::ids::TournamentId;

/// What to export.
#[derive(Debug, clap::Subcommand)]
pub enum ExportWhat {
    /// The standings of a tournament as CSV on standard output.
    Standings(StandingsArgs),
    /// Every record of a tournament's games, in the scoresheet notation.
    Games(Which),
    /// The whole tournament as one JSON file, for `kraal import event`.
    Event(Which),
    /// An individual event as a FIDE TRF file, which `kraal pair` reads.
    Trf(Which),
}

/// The tournament to export and the database that holds it.
#[derive(Debug, clap::Args)]
pub struct Which {
    /// The tournament's id (the number in its address, /t/ID).
    tournament: TournamentId,
    #[command(flatten)]
    db: DatabaseArgs,
}

/// The standings export: which tournament, and how the header row reads.
#[derive(Debug, clap::Args)]
pub struct StandingsArgs {
    #[command(flatten)]
    which: Which,
    /// `words` ("Rank", "Federation ID", "Buchholz"), or `keys` (`rank`,
    /// `federation_id`, `buchholz`) for scripts; as `?headers=` on the site.
    #[arg(long, default_value = "words", value_parser = ["words", "keys"])]
    headers: String,
}

/// Makes the bytes of one export from the database.
type Make = Box<dyn Fn(&mut crate::db::DbConnection, TournamentId) -> Result<Vec<u8>, DbError>>;

pub fn run(what: ExportWhat) -> i32 {
    let (which, make): (Which, Make) = match what {
        ExportWhat::Standings(s) => {
            let headers = crate::export::standings::Headers::parse(&s.headers).unwrap_or_default();
            (
                s.which,
                Box::new(move |conn: &mut crate::db::DbConnection, tid| {
                    let data = director::load(conn, tid)?;
                    crate::export::standings::csv(&data, headers)
                        .map_err(|e| DbError::Setup(e.to_string()))
                }),
            )
        }
        ExportWhat::Games(w) => (
            w,
            Box::new(|conn: &mut crate::db::DbConnection, tid| {
                crate::export::games::text(conn, tid).map(String::into_bytes)
            }),
        ),
        ExportWhat::Event(w) => (
            w,
            Box::new(|conn: &mut crate::db::DbConnection, tid| {
                crate::export::event::json(conn, tid)
            }),
        ),
        ExportWhat::Trf(w) => (
            w,
            Box::new(|conn: &mut crate::db::DbConnection, tid| {
                let data = director::load(conn, tid)?;
                crate::export::trf::text(&data).map(String::into_bytes)
            }),
        ),
    };
    let tournament = which.tournament;
    let result = (|| -> Result<Vec<u8>, DbError> {
        let pool = which.db.open()?;
        let mut conn = pool.get()?;
        make(&mut conn, tournament).map_err(|e| match e {
            DbError::Refused(Refusal::NotFound(Thing::Tournament)) => {
                DbError::Setup(format!("no tournament with id {tournament}"))
            }
            other => other,
        })
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

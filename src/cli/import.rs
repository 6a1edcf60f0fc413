//! `kraal import event FILE`: a tournament exported by `kraal export event`
//! (or downloaded from its page) becomes a new tournament in this database.

use std::path::PathBuf;

use super::serve::DatabaseArgs;
use crate::db::{self, DbError};

/// What to import.
#[derive(Debug, clap::Subcommand)]
pub enum ImportWhat {
    /// A whole tournament from an event file (JSON).
    Event {
        /// The event file (`-` for standard input).
        file: PathBuf,
        #[command(flatten)]
        db: DatabaseArgs,
    },
}

pub fn run(what: ImportWhat) -> i32 {
    let ImportWhat::Event { file, db } = what;
    let text = if file.as_os_str() == "-" {
        let mut s = String::new();
        match std::io::Read::read_to_string(&mut std::io::stdin(), &mut s) {
            Ok(_) => s,
            Err(e) => {
                eprintln!("kraal import: standard input: {e}");
                return 2;
            }
        }
    } else {
        match std::fs::read_to_string(&file) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("kraal import: {}: {e}", file.display());
                return 2;
            }
        }
    };
    let event = match db::event::parse(&text) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("kraal import: {}: {e}", file.display());
            return 2;
        }
    };
    let result = (|| -> Result<db::event::Imported, DbError> {
        let pool = db.open()?;
        let mut conn = pool.get()?;
        db::event::import(&mut conn, &event)
    })();
    match result {
        Ok(done) => {
            let count = |n: usize, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
            println!(
                "imported \"{}\" as tournament {}: {}, {}, {}",
                event.tournament.name,
                done.tournament,
                count(done.players, "player"),
                count(done.rounds, "round"),
                count(done.games, "game")
            );
            if !done.unknown_accounts.is_empty() {
                println!(
                    "no account here for {}: their entries are kept without an author; add the account{} and import again to keep the names",
                    done.unknown_accounts.join(", "),
                    if done.unknown_accounts.len() == 1 { "" } else { "s" }
                );
            }
            0
        }
        Err(e) => {
            eprintln!("kraal import: {}: {e}", file.display());
            1
        }
    }
}

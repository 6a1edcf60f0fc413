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
    // One byte over the limit is enough for the parser to refuse the file
    // by its size; nothing larger is read into memory.
    let limit = db::event::MAX_FILE_BYTES as u64 + 1;
    let read = if file.as_os_str() == "-" {
        read_at_most(std::io::stdin().lock(), limit)
    } else {
        std::fs::File::open(&file).and_then(|f| read_at_most(f, limit))
    };
    let text = match read {
        Ok(s) => s,
        Err(e) => {
            eprintln!("kraal import: {}: {e}", file.display());
            return 2;
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
        crate::director::commit(&mut conn, None, |w| db::event::import(w, &event, None))
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
            if !done.people_linked.is_empty() {
                println!(
                    "linked to the registry by federation id: {}",
                    done.people_linked.join(", ")
                );
            }
            if !done.people_created.is_empty() {
                println!("added to the registry: {}", done.people_created.join(", "));
            }
            if !done.entries_unlinked.is_empty() {
                println!(
                    "not linked to the registry (no federation id): {}; their games are not rated",
                    done.entries_unlinked.join(", ")
                );
            }
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

/// The first `limit` bytes of `from` as text (a cut character of a file
/// too long to take does not matter: it is refused by its size).
fn read_at_most(from: impl std::io::Read, limit: u64) -> std::io::Result<String> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(from, limit), &mut bytes)?;
    if bytes.len() > db::event::MAX_FILE_BYTES {
        return Ok(String::from_utf8_lossy(&bytes).into_owned());
    }
    String::from_utf8(bytes).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "the file is not UTF-8 text",
        )
    })
}

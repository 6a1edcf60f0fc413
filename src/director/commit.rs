//! The one way to write. Every change to an event (a form, the API, an
//! import, the command line) runs in [`commit`]: the write and the typed
//! changes it records land together, with the tournament's new revision,
//! or not at all.

use crate::db::audit::Write;
use crate::db::{self, DbConnection, DbError};
use crate::ids::UserId;

/// Runs `write` in one transaction as account `by` (`None` for a player's
/// link or a file). What it recorded is stored with it and bumps the
/// revision of every tournament it touched; a write that recorded no change
/// is rolled back, so nothing can change an event without saying so. Its
/// value is returned either way (a save whose results were all already
/// there is still an answer).
pub fn commit<T>(
    conn: &mut DbConnection,
    by: Option<UserId>,
    write: impl FnOnce(&mut Write) -> Result<T, DbError>,
) -> Result<T, DbError> {
    db::transaction_kept_if(conn, |conn| {
        let mut w = Write::begin(conn, by);
        let value = write(&mut w)?;
        let kept = w.recorded() > 0;
        w.finish()?;
        Ok((value, kept))
    })
}

/// Runs `write` in one transaction that records no change and moves no
/// revision: for the writes docs/architecture.md lists as not an event's
/// change that must still be taken one at a time (a ply of a game recorded
/// at the board, held against its game's row). Kept when `write` says
/// so (its second value), rolled back otherwise.
pub fn unrecorded<T>(
    conn: &mut DbConnection,
    write: impl FnOnce(&mut DbConnection) -> Result<(T, bool), DbError>,
) -> Result<T, DbError> {
    db::transaction_kept_if(conn, write)
}

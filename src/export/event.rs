//! The event file: a whole tournament as JSON (see [`crate::db::event`]).

use crate::db::{self, DbConnection, DbError};
use crate::ids::TournamentId;

/// The file's bytes: pretty-printed, so a referee can read it and a diff of
/// two exports shows what changed.
pub fn json(conn: &mut DbConnection, tid: TournamentId) -> Result<Vec<u8>, DbError> {
    let file = db::event::export(conn, tid)?;
    let mut out = serde_json::to_vec_pretty(&file)
        .map_err(|e| DbError::Setup(format!("the event could not be written: {e}")))?;
    out.push(b'\n');
    Ok(out)
}

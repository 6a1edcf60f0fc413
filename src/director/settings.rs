//! Changing a tournament's settings: the use case behind the edit form and
//! `PATCH /api/v1/tournaments/{id}`. What an event under way may no longer
//! change is the core's rule ([`crate::tournament::Progress::locks`]); this
//! checks it against the stored rounds in the same transaction as the
//! write, so two referees saving at once cannot slip a change past it.

use crate::db::audit::Write;
use crate::db::tournaments::{self, Tournament};
use crate::db::users::User;
use crate::db::{DbConnection, DbError};
use crate::ids::TournamentId;
use crate::refusal::Refusal;
use crate::tournament::{ChangeRefused, Lock, TournamentFields};

/// The settings locked now, with why: what the edit form shows read-only.
/// Reads the rounds only: the form needs no more to know what is fixed.
pub fn locks(conn: &mut DbConnection, tid: TournamentId) -> Result<Vec<Lock>, DbError> {
    Ok(super::progress_of(&crate::db::rounds::list(conn, tid)?).locks())
}

/// Stores `fields` as tournament `tid`'s settings, unless the rounds played
/// lock one that would change (a conflict naming it) or the rounds no
/// longer fit (invalid, naming `rounds`). Nothing changes when refused.
pub fn update(
    conn: &mut DbConnection,
    tid: TournamentId,
    fields: &TournamentFields,
    by: &User,
) -> Result<Tournament, DbError> {
    super::commit(conn, Some(by.id), |w| {
        let data = super::load(w.conn(), tid)?;
        data.tournament
            .fields()
            .refuse_change(fields, data.progress(), data.field_size())
            .map_err(|refused| match refused {
                ChangeRefused::Locked(lock) => DbError::Refused(Refusal::Locked(lock)),
                ChangeRefused::Invalid(e) => DbError::from(e),
            })?;
        tournaments::update(w, tid, fields)
    })
}

// The steps the pages and the API take through the director.
pub fn get(conn: &mut DbConnection, key: &str) -> Result<Option<String>, DbError> {
    crate::db::settings::get(conn, key)
}

/// Stores `value` under `key` (`None` removes it), recording the change:
/// an admin's setting, not a secret (secrets are never set this way).
pub fn set(w: &mut Write, key: &str, value: Option<&str>) -> Result<(), DbError> {
    crate::db::settings::set(w, key, value)
}
pub use crate::db::settings::FEDERATION_URL;

//! Pairing a round: the use case behind the "Pair round N" button and
//! `POST /api/v1/tournaments/{id}/rounds`.

use super::{DirectorError, TournamentData};
use crate::db::rounds::{self, Round};
use crate::db::users::User;
use crate::db::{self, tournaments, DbConnection, DbError};

/// What to do with the round once paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Then {
    /// Keep it as a draft the referee checks (and may swap) before
    /// publishing.
    Draft,
    /// Publish it at once, in the same transaction (a script's round).
    Publish,
}

impl From<DirectorError> for DbError {
    fn from(e: DirectorError) -> DbError {
        match e {
            DirectorError::NotReady(m) => DbError::Conflict(m),
            DirectorError::Pairing(p) => DbError::Conflict(format!("No valid pairing exists: {p}")),
        }
    }
}

/// Pairs the next round of tournament `tid` and stores it.
///
/// The engines run outside any transaction (a big Swiss takes a while and
/// must not hold the database); the round is then stored, and published if
/// asked, in one transaction that first checks nothing changed meanwhile, so
/// a pairing never rests on results that were edited while it was made.
pub fn pair_next(
    conn: &mut DbConnection,
    tid: i32,
    then: Then,
    by: &User,
) -> Result<Round, DbError> {
    let data = super::load(conn, tid)?;
    pair_loaded(conn, &data, then, by)
}

/// As [`pair_next`] for a tournament already loaded.
pub fn pair_loaded(
    conn: &mut DbConnection,
    data: &TournamentData,
    then: Then,
    by: &User,
) -> Result<Round, DbError> {
    let (number, planned) = data.pair_next().map_err(|e| match e {
        // The engines speak of player ids: the referee reads names.
        DirectorError::Pairing(p) => DbError::Conflict(format!(
            "No valid pairing exists: {}",
            crate::pairing::explain::with_names(&p.to_string(), &data.name_of())
        )),
        other => DbError::from(other),
    })?;
    let t = &data.tournament;
    db::transaction(conn, |conn| {
        if tournaments::revision(conn, t.id)? != t.revision {
            return Err(DbError::Conflict(
                "the tournament changed while the round was being paired: pair it again".into(),
            ));
        }
        let round = rounds::create(conn, t.id, number, &planned, t.games_per_pairing, "", by)?;
        if then == Then::Publish {
            rounds::publish(conn, t.id, number, by)?;
            return rounds::find(conn, t.id, number);
        }
        Ok(round)
    })
}

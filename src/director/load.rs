//! Loading a tournament with everything stored about it, in one read.

use super::TournamentData;
use crate::db::{forbidden, players, rounds, teams, tournaments, DbConnection, DbError};

/// A tournament with its players, relatives, kept-apart pairs, byes and
/// every round.
pub fn load(conn: &mut DbConnection, tid: i32) -> Result<TournamentData, DbError> {
    let tournament = tournaments::find(conn, tid)?;
    let (rounds, pairings, games) = rounds::everything(conn, tid)?;
    Ok(TournamentData {
        tournament,
        players: players::list(conn, tid)?,
        relations: players::relations_of(conn, tid)?,
        forbidden: forbidden::list(conn, tid)?,
        byes: rounds::requested_byes(conn, tid)?,
        rounds,
        pairings,
        games,
        teams: teams::list(conn, tid)?,
        members: teams::members(conn, tid)?,
        lineups: teams::lineups(conn, tid)?,
    })
}

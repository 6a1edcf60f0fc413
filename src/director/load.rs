//! Loading a tournament with everything stored about it, in one read; or
//! with one round only, for what reads no other round.

use super::TournamentData;
use crate::db::rounds::Round;
use crate::db::tournaments::Tournament;
use crate::db::{forbidden, players, rounds, teams, tournaments, DbConnection, DbError};
use crate::ids::{RoundNo, TournamentId};

/// A tournament with its players, relatives, kept-apart pairs, byes and
/// every round.
pub fn load(conn: &mut DbConnection, tid: TournamentId) -> Result<TournamentData, DbError> {
    let tournament = tournaments::find(conn, tid)?;
    let (rounds, pairings, games) = rounds::everything(conn, tid)?;
    Ok(TournamentData {
        tournament,
        players: players::list(conn, tid)?,
        relations: players::relations_of(conn, tid)?,
        forbidden: forbidden::list(conn, tid)?,
        byes: crate::db::byes::requested_byes(conn, tid)?,
        rounds,
        pairings,
        games,
        teams: teams::list(conn, tid)?,
        members: teams::members(conn, tid)?,
        lineups: teams::lineups(conn, tid)?,
        reports: crate::db::reports::of_tournament(conn, tid)?,
    })
}

/// A tournament with its players and round `n` alone (a draft too): what
/// a round's results page reads. A late round of a big event holds a small
/// share of its games, and a results desk saves many times a round.
///
/// The other rounds, relatives, kept-apart pairs, byes and teams are left
/// out, so standings, pairings and anything reaching across rounds must
/// come from [`load`].
pub fn load_round(
    conn: &mut DbConnection,
    tid: TournamentId,
    n: RoundNo,
) -> Result<TournamentData, DbError> {
    let tournament = tournaments::find(conn, tid)?;
    let round = rounds::find(conn, tid, n)?;
    let round_id = round.id;
    let mut data = round_alone(conn, tournament, round)?;
    data.players = players::list(conn, tid)?;
    data.reports = crate::db::reports::of_round(conn, round_id)?;
    Ok(data)
}

/// `round` of `tournament` with its pairings and games, and nothing else
/// (no players either): enough for the knock-out reads of one round's
/// pairings (scores, sets, tiebreak games), inside a write.
pub(super) fn round_alone(
    conn: &mut DbConnection,
    tournament: Tournament,
    round: Round,
) -> Result<TournamentData, DbError> {
    let (pairings, games) = rounds::of_round(conn, &round)?;
    Ok(TournamentData {
        tournament,
        players: Vec::new(),
        relations: Vec::new(),
        forbidden: Vec::new(),
        byes: Vec::new(),
        rounds: vec![round],
        pairings,
        games,
        teams: Vec::new(),
        members: Vec::new(),
        lineups: Vec::new(),
        reports: Vec::new(),
    })
}

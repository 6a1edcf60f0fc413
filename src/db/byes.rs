//! Byes asked for rounds still to pair: by a player through their link,
//! or by the referee for them.

use super::audit::Write;
use super::schema::{requested_byes, rounds};
use super::{classify, found, DbConnection, DbError};
use crate::change::{Action, Change, Entity};
use crate::conflict::Taken;
use crate::ids::{EntryId, RoundNo, TournamentId};
use crate::rounds::{self as rule};
use crate::tournament::ByeKind;
use diesel::prelude::*;
use serde::Serialize;

/// A bye a player asked for.
#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = requested_byes)]
pub struct RequestedBye {
    pub id: i32,
    pub tournament_id: TournamentId,
    pub player_id: EntryId,
    pub round: RoundNo,
    pub half: bool,
    /// The player asked through their own link (not at the desk).
    pub by_player: bool,
}

pub fn requested_byes(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
) -> Result<Vec<RequestedBye>, DbError> {
    Ok(requested_byes::table
        .filter(requested_byes::tournament_id.eq(tournament_id))
        .order((requested_byes::round, requested_byes::player_id))
        .select(RequestedBye::as_select())
        .load(conn)?)
}

pub fn request_bye(
    w: &mut Write,
    tournament_id: TournamentId,
    player_id: EntryId,
    round: RoundNo,
    half: bool,
    by_player: bool,
) -> Result<(), DbError> {
    let conn = w.conn();
    diesel::insert_into(requested_byes::table)
        .values((
            requested_byes::tournament_id.eq(tournament_id),
            requested_byes::player_id.eq(player_id),
            requested_byes::round.eq(round),
            requested_byes::half.eq(half),
            requested_byes::by_player.eq(by_player),
        ))
        .execute(conn)
        .map_err(|e| classify(e, Taken::Bye { round: round.0 }))?;
    let kind = if half { ByeKind::Half } else { ByeKind::Zero };
    w.record(
        Change::new(
            Some(tournament_id),
            Action::RequestBye,
            Entity::Player,
            Some(player_id),
        )
        .in_round(round)
        .players([player_id])
        .new_value(kind.as_str()),
    );
    Ok(())
}

/// Cancels the bye `player_id` asked for in round `round`, before that
/// round is paired. A player (`by_player`) may cancel only a bye they
/// asked for themselves; the referee cancels any.
pub fn cancel_bye(
    w: &mut Write,
    tournament_id: TournamentId,
    player_id: EntryId,
    round: RoundNo,
    by_player: bool,
) -> Result<(), DbError> {
    let conn = w.conn();
    let bye: RequestedBye = requested_byes::table
        .filter(requested_byes::tournament_id.eq(tournament_id))
        .filter(requested_byes::player_id.eq(player_id))
        .filter(requested_byes::round.eq(round))
        .select(RequestedBye::as_select())
        .first(conn)
        .map_err(|e| found(e, crate::refusal::Thing::RequestedBye))?;
    let paired: i64 = rounds::table
        .filter(rounds::tournament_id.eq(tournament_id))
        .filter(rounds::number.ge(round))
        .count()
        .get_result(conn)?;
    if paired > 0 {
        return Err(rule::Refused::RoundPaired { round: round.0 }.into());
    }
    if by_player && !bye.by_player {
        return Err(rule::Refused::ByeByReferee { round: round.0 }.into());
    }
    diesel::delete(requested_byes::table.find(bye.id)).execute(conn)?;
    let kind = if bye.half {
        ByeKind::Half
    } else {
        ByeKind::Zero
    };
    w.record(
        Change::new(
            Some(tournament_id),
            Action::CancelBye,
            Entity::Player,
            Some(player_id),
        )
        .in_round(round)
        .players([player_id])
        .old(kind.as_str()),
    );
    Ok(())
}

//! What players reported of their games through their personal links.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::audit::Write;
use super::rounds::GameContext;
use super::schema::{games, pairings, reports};
use super::{now, DbConnection, DbError};
use crate::change::{Action, Change, Entity};
use crate::ids::{EntryId, GameId, RoundId, TournamentId};
use crate::results::GameResult;

/// One player's word on one game, from the starter's side.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = reports)]
pub struct Report {
    pub id: i32,
    pub game_id: GameId,
    pub player_id: EntryId,
    #[diesel(deserialize_as = String)]
    pub result: GameResult,
    pub reported_at: NaiveDateTime,
}

/// The reports of these games.
pub fn of_games(conn: &mut DbConnection, game_ids: &[GameId]) -> Result<Vec<Report>, DbError> {
    Ok(reports::table
        .filter(reports::game_id.eq_any(game_ids))
        .order(reports::id)
        .select(Report::as_select())
        .load(conn)?)
}

/// The reports of every game of tournament `tid`.
pub fn of_tournament(conn: &mut DbConnection, tid: TournamentId) -> Result<Vec<Report>, DbError> {
    use super::schema::rounds;
    Ok(reports::table
        .inner_join(games::table.inner_join(pairings::table.inner_join(rounds::table)))
        .filter(rounds::tournament_id.eq(tid))
        .order(reports::id)
        .select(Report::as_select())
        .load(conn)?)
}

/// The reports of the games of round `round_id`.
pub fn of_round(conn: &mut DbConnection, round_id: RoundId) -> Result<Vec<Report>, DbError> {
    Ok(reports::table
        .inner_join(games::table.inner_join(pairings::table))
        .filter(pairings::round_id.eq(round_id))
        .order(reports::id)
        .select(Report::as_select())
        .load(conn)?)
}

/// Stores `player`'s report of the game of `ctx`, replacing the one they
/// made before, and records it.
pub fn put(
    w: &mut Write,
    ctx: &GameContext,
    player: EntryId,
    result: GameResult,
) -> Result<(), DbError> {
    let game = ctx.game.id;
    w.record(
        Change::new(
            Some(ctx.round.tournament_id),
            Action::Report,
            Entity::Game,
            Some(game),
        )
        .in_round(ctx.round.number)
        .players([player])
        .new_value(result.as_str()),
    );
    let conn = w.conn();
    diesel::delete(
        reports::table
            .filter(reports::game_id.eq(game))
            .filter(reports::player_id.eq(player)),
    )
    .execute(conn)?;
    diesel::insert_into(reports::table)
        .values((
            reports::game_id.eq(game),
            reports::player_id.eq(player),
            reports::result.eq(result.as_str()),
            reports::reported_at.eq(now()),
        ))
        .execute(conn)?;
    Ok(())
}

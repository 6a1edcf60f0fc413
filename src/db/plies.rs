//! The players' records of games recorded at the board, ply by ply
//! (`director::recording` checks them; `rules::record` is the check).
//!
//! A ply is not an event's change: it moves no revision and records no
//! audit entry (a round of a hundred games would write twelve thousand),
//! so these write through the bare connection, inside the transaction
//! `director::recording` opens (docs/architecture.md, "Writes that are not
//! an event's change"). The result the players then report is a change.

use diesel::prelude::*;

use super::schema::{games, recorded_plies as plies};
use super::{now, DbConnection, DbError};
use crate::ids::{EntryId, GameId};

/// One ply of one player's record.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = plies)]
pub struct RecordedPly {
    pub game_id: GameId,
    /// Whose record it is.
    pub player_id: EntryId,
    /// From 1.
    pub ply: i32,
    /// As the player wrote it.
    pub written: String,
    pub recorded_at: chrono::NaiveDateTime,
}

/// Holds game `game` until the transaction ends, so that two plies sent
/// for it at once are taken one after the other.
pub fn hold(conn: &mut DbConnection, game: GameId) -> Result<(), DbError> {
    diesel::update(games::table.find(game))
        .set(games::version.eq(games::version))
        .execute(conn)?;
    Ok(())
}

/// Both players' records of `game`, each in ply order.
pub fn of_game(conn: &mut DbConnection, game: GameId) -> Result<Vec<RecordedPly>, DbError> {
    Ok(plies::table
        .filter(plies::game_id.eq(game))
        .order((plies::player_id, plies::ply))
        .load(conn)?)
}

/// Adds ply `ply` to `player`'s record of `game`.
pub fn add(
    conn: &mut DbConnection,
    game: GameId,
    player: EntryId,
    ply: i32,
    written: &str,
) -> Result<(), DbError> {
    diesel::insert_into(plies::table)
        .values(RecordedPly {
            game_id: game,
            player_id: player,
            ply,
            written: written.to_string(),
            recorded_at: now(),
        })
        .execute(conn)?;
    Ok(())
}

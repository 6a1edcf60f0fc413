//! The players' records of games recorded at the board, ply by ply
//! (`director::recording` checks them; `rules::record` is the check).
//!
//! A ply is not an event's change: it moves no revision and records no
//! audit entry (a round of a hundred games would write twelve thousand),
//! so these write through the bare connection, inside the transaction
//! `director::recording` opens (docs/architecture.md, "Writes that are not
//! an event's change"). The result the players then report is a change.

use diesel::prelude::*;

use super::schema::{games, live_games, ply_rulings as rulings, recorded_plies as plies};
use super::{now, DbConnection, DbError};
use crate::ids::{EntryId, GameId, RoundId};
use crate::results::GameResult;

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

/// A player's word on their opponent's irregular ply.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct Ruling {
    pub id: i32,
    pub game_id: GameId,
    pub ply: i32,
    /// Who said it (the opponent of the ply's player).
    pub player_id: EntryId,
    /// Taken back from both records; `false`: let stand.
    pub rectified: bool,
    /// The ply as it was recorded.
    pub written: String,
    pub ruled_at: chrono::NaiveDateTime,
}

/// The words said on `game`'s plies, oldest first.
pub fn rulings_of(conn: &mut DbConnection, game: GameId) -> Result<Vec<Ruling>, DbError> {
    Ok(rulings::table
        .filter(rulings::game_id.eq(game))
        .order(rulings::id)
        .load(conn)?)
}

/// Keeps `player`'s word on ply `ply` of `game` (`written` as recorded)
/// and, when it is rectified, takes that ply back from both records.
pub fn rule(
    conn: &mut DbConnection,
    game: GameId,
    ply: i32,
    player: EntryId,
    rectified: bool,
    written: &str,
) -> Result<(), DbError> {
    diesel::insert_into(rulings::table)
        .values((
            rulings::game_id.eq(game),
            rulings::ply.eq(ply),
            rulings::player_id.eq(player),
            rulings::rectified.eq(rectified),
            rulings::written.eq(written),
            rulings::ruled_at.eq(now()),
        ))
        .execute(conn)?;
    if rectified {
        diesel::delete(
            plies::table
                .filter(plies::game_id.eq(game))
                .filter(plies::ply.ge(ply)),
        )
        .execute(conn)?;
    }
    Ok(())
}

/// Moves `game`'s live counter (round `round`), which the live boards
/// follow: every ply and every word on one moves it, and nothing else, so
/// that a ply costs its viewers one read and never the tournament's pages.
pub fn moved(conn: &mut DbConnection, game: GameId, round: RoundId) -> Result<(), DbError> {
    let n = diesel::update(live_games::table.find(game))
        .set(live_games::version.eq(live_games::version + 1))
        .execute(conn)?;
    if n == 0 {
        diesel::insert_into(live_games::table)
            .values((
                live_games::game_id.eq(game),
                live_games::round_id.eq(round),
                live_games::version.eq(1),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// A game recorded at the board, as its viewers follow it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LiveCounter {
    pub game: GameId,
    pub round: RoundId,
    /// Moves with every ply and word on one.
    pub version: i32,
    /// The game's stored result.
    pub result: Option<GameResult>,
}

/// The games recorded at the board in `rounds`, with their counters.
pub fn live_in(conn: &mut DbConnection, rounds: &[RoundId]) -> Result<Vec<LiveCounter>, DbError> {
    let rows: Vec<(GameId, RoundId, i32, Option<String>)> = live_games::table
        .inner_join(games::table)
        .filter(live_games::round_id.eq_any(rounds))
        .select((
            live_games::game_id,
            live_games::round_id,
            live_games::version,
            games::result,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(game, round, version, result)| LiveCounter {
            game,
            round,
            version,
            result: result.and_then(|r| GameResult::try_from(r).ok()),
        })
        .collect())
}

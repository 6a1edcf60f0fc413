//! The players' records of games recorded at the board, ply by ply
//! (`director::recording` checks them; `rules::record` is the check).
//!
//! A ply is not an event's change: it moves no revision and records no
//! audit entry (a round of a hundred games would write twelve thousand),
//! so these write through the bare connection, inside the transaction
//! `director::recording` opens (docs/architecture.md, "Writes that are not
//! an event's change"). The result the players then report is a change.

use diesel::prelude::*;

use super::schema::{
    games, live_games, live_sent, pairings, ply_rulings as rulings, recorded_plies as plies, rounds,
};
use super::{now, DbConnection, DbError};
use crate::ids::{EntryId, GameId, RoundId, RoundNo, TournamentId};
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

/// A game recorded at the board, where a published copy finds it: by
/// round, table and game number (the copy's ids are its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GamePlace {
    pub round: RoundNo,
    pub table: i32,
    pub number: i32,
}

/// The games of tournament `tid` whose live counter moved past what
/// publication `publication`'s target has, with their places and counters.
pub fn unsent(
    conn: &mut DbConnection,
    tid: TournamentId,
    publication: i32,
) -> Result<Vec<(GameId, GamePlace, i32)>, DbError> {
    let live: Vec<(GameId, i32, RoundNo, i32, i32)> = live_games::table
        .inner_join(games::table.inner_join(pairings::table.inner_join(rounds::table)))
        .filter(rounds::tournament_id.eq(tid))
        .select((
            live_games::game_id,
            live_games::version,
            rounds::number,
            pairings::table_no,
            games::number,
        ))
        .load(conn)?;
    let sent: std::collections::HashMap<GameId, i32> = live_sent::table
        .filter(live_sent::publication_id.eq(publication))
        .select((live_sent::game_id, live_sent::version))
        .load::<(GameId, i32)>(conn)?
        .into_iter()
        .collect();
    Ok(live
        .into_iter()
        .filter(|(game, version, ..)| sent.get(game).is_none_or(|s| s < version))
        .map(|(game, version, round, table, number)| {
            (
                game,
                GamePlace {
                    round,
                    table,
                    number,
                },
                version,
            )
        })
        .collect())
}

/// Publication `publication`'s target has game `game`'s records as they
/// were at counter `version`.
pub fn sent(
    conn: &mut DbConnection,
    publication: i32,
    game: GameId,
    version: i32,
) -> Result<(), DbError> {
    let n = diesel::update(live_sent::table.find((publication, game)))
        .set(live_sent::version.eq(version))
        .execute(conn)?;
    if n == 0 {
        diesel::insert_into(live_sent::table)
            .values((
                live_sent::publication_id.eq(publication),
                live_sent::game_id.eq(game),
                live_sent::version.eq(version),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// A game found by its place, with its round, its starter and its
/// pairing's players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Queryable)]
pub struct PlacedGame {
    pub game: GameId,
    pub round: RoundId,
    pub starter: Option<EntryId>,
    pub first: Option<EntryId>,
    pub second: Option<EntryId>,
}

/// Game `place` of tournament `tid`, in a published round.
pub fn at_place(
    conn: &mut DbConnection,
    tid: TournamentId,
    place: GamePlace,
) -> Result<Option<PlacedGame>, DbError> {
    Ok(games::table
        .inner_join(pairings::table.inner_join(rounds::table))
        .filter(rounds::tournament_id.eq(tid))
        .filter(rounds::number.eq(place.round))
        .filter(rounds::status.eq("published"))
        .filter(pairings::table_no.eq(place.table))
        .filter(games::number.eq(place.number))
        .select((
            games::id,
            rounds::id,
            games::starter_player_id,
            pairings::first_player_id,
            pairings::second_player_id,
        ))
        .first(conn)
        .optional()?)
}

/// Replaces `player`'s record of `game` by `written` (a published copy
/// takes the venue's records as they are).
pub fn replace_record(
    conn: &mut DbConnection,
    game: GameId,
    player: EntryId,
    written: &[String],
) -> Result<(), DbError> {
    diesel::delete(
        plies::table
            .filter(plies::game_id.eq(game))
            .filter(plies::player_id.eq(player)),
    )
    .execute(conn)?;
    let at = now();
    let rows: Vec<RecordedPly> = written
        .iter()
        .enumerate()
        .map(|(i, w)| RecordedPly {
            game_id: game,
            player_id: player,
            ply: i as i32 + 1,
            written: w.clone(),
            recorded_at: at,
        })
        .collect();
    // One statement a ply: batch inserts are not one SQL for both backends.
    for row in rows {
        diesel::insert_into(plies::table)
            .values(row)
            .execute(conn)?;
    }
    Ok(())
}

/// The players' records of `games`, each in ply order.
pub fn of_games(conn: &mut DbConnection, ids: &[GameId]) -> Result<Vec<RecordedPly>, DbError> {
    Ok(plies::table
        .filter(plies::game_id.eq_any(ids))
        .order((plies::game_id, plies::player_id, plies::ply))
        .load(conn)?)
}

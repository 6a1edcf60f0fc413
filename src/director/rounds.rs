//! A round's desk work besides pairing and results: publishing, undoing, its date, clock and lock, byes asked for.
//!
//! Each function is the one way in for its step, for the pages and the API
//! alike.

use crate::db::audit::Write;
use crate::db::rounds::{GameContext, Round};
use crate::db::{DbConnection, DbError};
use crate::ids::{EntryId, GameId, RoundNo, TournamentId};
use chrono::NaiveDate;

/// Sets the day round `number` is played on; audited with the old day and
/// the new. The same day again changes nothing and records nothing.
pub fn set_date(
    w: &mut Write,
    tournament_id: TournamentId,
    number: RoundNo,
    day: NaiveDate,
) -> Result<Round, DbError> {
    crate::db::round_settings::set_date(w, tournament_id, number, day)
}

pub fn game_context(conn: &mut DbConnection, game_id: GameId) -> Result<GameContext, DbError> {
    crate::db::rounds::game_context(conn, game_id)
}

/// Clears every result of round `number` so that it can be entered again:
/// the games' results, the rulings that set some of them, and the
/// knock-out tiebreak sets that level games added. Refused once a later
/// round is paired (its pairing rests on these results) and when there is
/// nothing to clear. Returns how many results were cleared.
pub fn clear_results(
    w: &mut Write,
    tournament_id: TournamentId,
    number: RoundNo,
) -> Result<usize, DbError> {
    crate::db::rounds::clear_results(w, tournament_id, number)
}

pub fn publish(w: &mut Write, tournament_id: TournamentId, number: RoundNo) -> Result<(), DbError> {
    crate::db::rounds::publish(w, tournament_id, number)
}

/// Sets round `number`'s clock (OGR 8).
pub fn set_clock(
    w: &mut Write,
    tournament_id: TournamentId,
    number: RoundNo,
    clock: crate::clock::RoundClock,
) -> Result<Round, DbError> {
    crate::db::round_settings::set_clock(w, tournament_id, number, clock)
}

/// Locks a published round (its players' links take no more records) or
/// unlocks it again; audited.
pub fn set_locked(
    w: &mut Write,
    tournament_id: TournamentId,
    number: RoundNo,
    lock: bool,
) -> Result<(), DbError> {
    crate::db::round_settings::set_locked(w, tournament_id, number, lock)
}

/// Deletes the last round so it can be paired again; refused once any of
/// its games has a result.
pub fn undo(w: &mut Write, tournament_id: TournamentId, number: RoundNo) -> Result<(), DbError> {
    crate::db::rounds::undo(w, tournament_id, number)
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
    crate::db::byes::cancel_bye(w, tournament_id, player_id, round, by_player)
}

/// A bye asked for `player_id` in round `round` (a half-point bye when
/// `half`), by the player through their link or by the referee for them;
/// the player must be of this event.
pub fn request_bye(
    w: &mut Write,
    tournament_id: TournamentId,
    player_id: EntryId,
    round: RoundNo,
    half: bool,
    by_player: bool,
) -> Result<(), DbError> {
    crate::db::players::find(w.conn(), tournament_id, player_id)?;
    crate::db::byes::request_bye(w, tournament_id, player_id, round, half, by_player)
}

//! What a referee sets on a round besides its pairings: its day, its
//! clock, and whether its results are locked.

use super::audit::Write;
use super::rounds::Round;
use super::schema::rounds;
use super::{now, DbError};
use crate::change::{Action, Change, Entity};
use crate::ids::{RoundNo, TournamentId};
use crate::rounds::{self as rule};
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

/// Sets the day round `number` is played on; audited with the old day and
/// the new. The same day again changes nothing and records nothing.
pub fn set_date(
    w: &mut Write,
    tournament_id: TournamentId,
    number: RoundNo,
    day: NaiveDate,
) -> Result<Round, DbError> {
    let r = super::rounds::find(w.conn(), tournament_id, number)?;
    if r.played_on == day {
        return Ok(r);
    }
    let (starts, ends) = super::rounds::dates_of(w.conn(), tournament_id)?;
    crate::calendar::check_round(
        "date",
        day,
        crate::calendar::round_range(starts, ends, now().date()),
    )
    .map_err(DbError::from)?;
    diesel::update(rounds::table.find(r.id))
        .set(rounds::played_on.eq(day))
        .execute(w.conn())?;
    w.record(
        Change::new(Some(tournament_id), Action::Date, Entity::Round, Some(r.id))
            .in_round(number)
            .old(r.played_on.to_string())
            .new_value(day.to_string()),
    );
    super::rounds::find(w.conn(), tournament_id, number)
}

/// Locks a published round (its players' links take no more records) or
/// unlocks it again; audited.
pub fn set_locked(
    w: &mut Write,
    tournament_id: TournamentId,
    number: RoundNo,
    lock: bool,
) -> Result<(), DbError> {
    let conn = w.conn();
    let r = super::rounds::find(conn, tournament_id, number)?;
    rule::check_lock(number.0, r.status)?;
    if r.locked_at.is_some() == lock {
        return Ok(());
    }
    diesel::update(rounds::table.find(r.id))
        .set(rounds::locked_at.eq(lock.then(now)))
        .execute(conn)?;
    let action = if lock { Action::Lock } else { Action::Unlock };
    w.record(Change::new(Some(tournament_id), action, Entity::Round, Some(r.id)).in_round(number));
    Ok(())
}

/// Sets round `number`'s clock (OGR 8).
pub fn set_clock(
    w: &mut Write,
    tournament_id: TournamentId,
    number: RoundNo,
    clock: crate::clock::RoundClock,
) -> Result<Round, DbError> {
    let r = super::rounds::find(w.conn(), tournament_id, number)?;
    diesel::update(rounds::table.find(r.id))
        .set((
            rounds::clock_starts_at.eq(Some(clock.starts_at)),
            rounds::clock_minutes.eq(Some(clock.minutes)),
        ))
        .execute(w.conn())?;
    let value = |at: Option<NaiveDateTime>, m: Option<i32>| match (at, m) {
        (Some(at), Some(m)) => Some(format!("{} for {m} min", at.format("%Y-%m-%dT%H:%M:%SZ"))),
        _ => None,
    };
    let mut c = Change::new(
        Some(tournament_id),
        Action::Clock,
        Entity::Round,
        Some(r.id),
    )
    .in_round(number);
    c.old_value = value(r.clock_starts_at, r.clock_minutes);
    c.new_value = value(Some(clock.starts_at), Some(clock.minutes));
    w.record(c);
    super::rounds::find(w.conn(), tournament_id, number)
}

//! Seasons: events grouped, with a weight each, for a table by place.

use crate::refusal::Refusal;
use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::audit::Write;
use super::schema::{season_events, seasons, tournaments};
use super::{classify, found, now, DbConnection, DbError};
use crate::change::{Action, Change, Entity};
use crate::conflict::{Conflict, Taken};
use crate::field::{FieldError, Problem};
use crate::ids::{SeasonId, TournamentId};
use crate::season::SeasonFields;
use crate::tournament::System;

/// A season as stored, with its events.
#[derive(Debug, Clone)]
pub struct Season {
    pub id: SeasonId,
    pub name: String,
    pub points: Vec<f64>,
    pub best: Option<i32>,
    pub created_at: NaiveDateTime,
    /// (tournament id, its name, weight), in the order given.
    pub events: Vec<(TournamentId, String, f64)>,
}

/// Every event must be an individual tournament here.
fn check_events(w: &mut Write, f: &SeasonFields) -> Result<(), DbError> {
    for &(tid, _) in &f.events {
        let system: Option<String> = tournaments::table
            .find(tid)
            .select(tournaments::system)
            .first(w.conn())
            .optional()?;
        match system.map(|s| s.parse::<System>()) {
            None => {
                return Err(DbError::Refused(Refusal::Invalid(FieldError::new(
                    "events",
                    Problem::NoSuch { id: tid },
                ))))
            }
            Some(Ok(s)) if s.is_team() => {
                return Err(DbError::Refused(Refusal::Invalid(FieldError::new(
                    "events",
                    Problem::TeamEvent { id: tid },
                ))))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// A season's name is one season's: another season (not `except`) with
/// it is a conflict. The unique index says so too, for two writes at once.
fn check_name(w: &mut Write, name: &str, except: Option<SeasonId>) -> Result<(), DbError> {
    let other: Option<SeasonId> = seasons::table
        .filter(seasons::name.eq(name))
        .filter(seasons::id.ne(except.unwrap_or(SeasonId(0))))
        .select(seasons::id)
        .first(w.conn())
        .optional()?;
    match other {
        Some(_) => Err(name_taken(name)),
        None => Ok(()),
    }
}

fn name_taken(name: &str) -> DbError {
    DbError::Refused(Refusal::Conflict(Conflict::Taken(Taken::SeasonName {
        name: name.to_string(),
    })))
}

fn insert_events(w: &mut Write, id: SeasonId, f: &SeasonFields) -> Result<(), DbError> {
    for &(tid, weight) in &f.events {
        diesel::insert_into(season_events::table)
            .values((
                season_events::season_id.eq(id),
                season_events::tournament_id.eq(tid),
                season_events::weight.eq(weight),
            ))
            .execute(w.conn())?;
    }
    Ok(())
}

/// The season as its change records it.
fn recorded(s: &Season) -> String {
    let events: Vec<_> = s
        .events
        .iter()
        .map(|(t, _, weight)| serde_json::json!({"tournament": t, "weight": weight}))
        .collect();
    serde_json::json!({
        "name": s.name,
        "points": s.points,
        "best": s.best,
        "events": events,
    })
    .to_string()
}

/// Stores a season; every event must be an individual tournament here,
/// and the name no other season's.
pub fn create(w: &mut Write, f: &SeasonFields) -> Result<Season, DbError> {
    check_events(w, f)?;
    check_name(w, &f.name, None)?;
    let points = serde_json::to_string(&f.points).unwrap_or_else(|_| "[]".into());
    let by = w.by();
    let id: SeasonId = diesel::insert_into(seasons::table)
        .values((
            seasons::name.eq(&f.name),
            seasons::points.eq(&points),
            seasons::best.eq(f.best.map(|b| b as i32)),
            seasons::created_by.eq(by),
            seasons::created_at.eq(now()),
        ))
        .returning(seasons::id)
        .get_result(w.conn())
        .map_err(|e| {
            classify(
                e,
                Taken::SeasonName {
                    name: f.name.clone(),
                },
            )
        })?;
    insert_events(w, id, f)?;
    let season = find(w.conn(), id)?;
    w.record(
        Change::new(None, Action::Create, Entity::Season, Some(id)).new_value(recorded(&season)),
    );
    Ok(season)
}

/// Changes season `id` to `f`, its events replaced by `f`'s in their
/// order; the change records the season before and after.
pub fn update(w: &mut Write, id: SeasonId, f: &SeasonFields) -> Result<Season, DbError> {
    let before = find(w.conn(), id)?;
    check_events(w, f)?;
    check_name(w, &f.name, Some(id))?;
    let points = serde_json::to_string(&f.points).unwrap_or_else(|_| "[]".into());
    diesel::update(seasons::table.find(id))
        .set((
            seasons::name.eq(&f.name),
            seasons::points.eq(&points),
            seasons::best.eq(f.best.map(|b| b as i32)),
        ))
        .execute(w.conn())
        .map_err(|e| {
            classify(
                e,
                Taken::SeasonName {
                    name: f.name.clone(),
                },
            )
        })?;
    diesel::delete(season_events::table.filter(season_events::season_id.eq(id)))
        .execute(w.conn())?;
    insert_events(w, id, f)?;
    let after = find(w.conn(), id)?;
    w.record(
        Change::new(None, Action::Edit, Entity::Season, Some(id))
            .old(recorded(&before))
            .new_value(recorded(&after)),
    );
    Ok(after)
}

/// Deletes season `id` (its events stay; only their grouping goes); the
/// change records what the season was.
pub fn delete(w: &mut Write, id: SeasonId) -> Result<Season, DbError> {
    let before = find(w.conn(), id)?;
    diesel::delete(season_events::table.filter(season_events::season_id.eq(id)))
        .execute(w.conn())?;
    diesel::delete(seasons::table.find(id)).execute(w.conn())?;
    w.record(Change::new(None, Action::Remove, Entity::Season, Some(id)).old(recorded(&before)));
    Ok(before)
}

pub fn find(conn: &mut DbConnection, id: SeasonId) -> Result<Season, DbError> {
    let (name, points, best, created_at): (String, String, Option<i32>, NaiveDateTime) =
        seasons::table
            .find(id)
            .select((
                seasons::name,
                seasons::points,
                seasons::best,
                seasons::created_at,
            ))
            .first(conn)
            .map_err(|e| found(e, crate::refusal::Thing::Season))?;
    let points: Vec<f64> = serde_json::from_str(&points).map_err(|e| DbError::Unreadable {
        row: format!("season {id}"),
        message: e.to_string(),
    })?;
    let events = season_events::table
        .inner_join(tournaments::table)
        .filter(season_events::season_id.eq(id))
        .order(season_events::id)
        .select((tournaments::id, tournaments::name, season_events::weight))
        .load(conn)?;
    Ok(Season {
        id,
        name,
        points,
        best,
        created_at,
        events,
    })
}

/// Every season, newest first: (id, name).
pub fn list(conn: &mut DbConnection) -> Result<Vec<(SeasonId, String)>, DbError> {
    Ok(seasons::table
        .order(seasons::id.desc())
        .select((seasons::id, seasons::name))
        .load(conn)?)
}

/// Every season with its events, newest first.
pub fn all(conn: &mut DbConnection) -> Result<Vec<Season>, DbError> {
    let ids: Vec<SeasonId> = seasons::table
        .order(seasons::id.desc())
        .select(seasons::id)
        .load(conn)?;
    ids.into_iter().map(|id| find(conn, id)).collect()
}

//! Seasons: events grouped, with a weight each, for a table by place.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::audit::Write;
use super::schema::{season_events, seasons, tournaments};
use super::{found, now, DbConnection, DbError};
use crate::change::{Action, Change, Entity};
use crate::field::{FieldError, Problem};
use crate::season::SeasonFields;
use crate::tournament::System;

/// A season as stored, with its events.
#[derive(Debug, Clone)]
pub struct Season {
    pub id: i32,
    pub name: String,
    pub points: Vec<f64>,
    pub best: Option<i32>,
    pub created_at: NaiveDateTime,
    /// (tournament id, its name, weight), in the order given.
    pub events: Vec<(i32, String, f64)>,
}

/// Stores a season; every event must be an individual tournament here.
pub fn create(w: &mut Write, f: &SeasonFields) -> Result<Season, DbError> {
    for &(tid, _) in &f.events {
        let system: Option<String> = tournaments::table
            .find(tid)
            .select(tournaments::system)
            .first(w.conn())
            .optional()?;
        match system.map(|s| s.parse::<System>()) {
            None => {
                return Err(DbError::Invalid(FieldError::new(
                    "events",
                    Problem::NoSuch { id: tid },
                )))
            }
            Some(Ok(s)) if s.is_team() => {
                return Err(DbError::Invalid(FieldError::new(
                    "events",
                    Problem::TeamEvent { id: tid },
                )))
            }
            Some(_) => {}
        }
    }
    let points = serde_json::to_string(&f.points).unwrap_or_else(|_| "[]".into());
    let by = w.by();
    let id: i32 = diesel::insert_into(seasons::table)
        .values((
            seasons::name.eq(&f.name),
            seasons::points.eq(&points),
            seasons::best.eq(f.best.map(|b| b as i32)),
            seasons::created_by.eq(by),
            seasons::created_at.eq(now()),
        ))
        .returning(seasons::id)
        .get_result(w.conn())?;
    for &(tid, weight) in &f.events {
        diesel::insert_into(season_events::table)
            .values((
                season_events::season_id.eq(id),
                season_events::tournament_id.eq(tid),
                season_events::weight.eq(weight),
            ))
            .execute(w.conn())?;
    }
    let season = find(w.conn(), id)?;
    let events: Vec<_> = season
        .events
        .iter()
        .map(|(t, _, weight)| serde_json::json!({"tournament": t, "weight": weight}))
        .collect();
    w.record(
        Change::new(None, Action::Create, Entity::Season, Some(id)).new_value(
            serde_json::json!({
                "name": season.name,
                "points": season.points,
                "best": season.best,
                "events": events,
            })
            .to_string(),
        ),
    );
    Ok(season)
}

pub fn find(conn: &mut DbConnection, id: i32) -> Result<Season, DbError> {
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
            .map_err(|e| found(e, "season"))?;
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
pub fn list(conn: &mut DbConnection) -> Result<Vec<(i32, String)>, DbError> {
    Ok(seasons::table
        .order(seasons::id.desc())
        .select((seasons::id, seasons::name))
        .load(conn)?)
}

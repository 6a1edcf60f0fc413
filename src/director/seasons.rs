//! A season's table: each event's final standings as places (people the
//! event's tiebreaks left equal share theirs), scored by the season's
//! points table (`crate::season`). Entries not linked to a person hold
//! their places (the points of a place go to whoever took it) but are not
//! in the table, which is of the registry's people.

use crate::db::audit::Write;
use crate::season::SeasonFields;
use std::collections::HashMap;

use crate::db::people::{self, Person};
use crate::db::seasons::{self, Season};
use crate::db::{DbConnection, DbError};
use crate::ids::{PersonId, SeasonId, TournamentId};
use crate::season::{self, Event, Place};

/// One line of the season table.
#[derive(Debug, Clone)]
pub struct Line {
    pub rank: u32,
    pub person: Person,
    pub points: f64,
    /// (tournament id, place, points, counted), in the season's order.
    pub results: Vec<(TournamentId, u32, f64, bool)>,
}

pub fn standings(conn: &mut DbConnection, id: SeasonId) -> Result<(Season, Vec<Line>), DbError> {
    let s = seasons::find(conn, id)?;
    let mut events = Vec::with_capacity(s.events.len());
    for &(tid, _, weight) in &s.events {
        let data = super::load(conn, tid)?;
        if !data.tournament.rated {
            // A friendly or a test event is not counted: no places, no
            // points (see [`not_counted`]).
            events.push(Event {
                weight,
                places: Vec::new(),
            });
            continue;
        }
        let person_of: HashMap<u32, PersonId> = data
            .players
            .iter()
            .filter_map(|p| Some((super::pid(p.id), p.person_id?)))
            .collect();
        let standings = data.standings();
        let mut places = Vec::new();
        for st in &standings {
            let shared = standings.iter().filter(|o| o.rank == st.rank).count();
            if let Some(&person) = person_of.get(&st.id) {
                places.push(Place {
                    person: person.0 as u32,
                    place: st.rank as u32,
                    shared_to: (st.rank + shared - 1) as u32,
                });
            }
        }
        events.push(Event { weight, places });
    }
    let rows = season::table(&s.points, s.best.map(|b| b as usize), &events);
    let mut lines = Vec::with_capacity(rows.len());
    for row in rows {
        let person = people::find(conn, PersonId(row.person as i32))?;
        lines.push(Line {
            rank: row.rank,
            person,
            points: row.points,
            results: row
                .results
                .iter()
                .map(|r| (s.events[r.event].0, r.place, r.points, r.counted))
                .collect(),
        });
    }
    Ok((s, lines))
}

/// The season's events that are not counted: those not rated (friendlies,
/// test events), by tournament id in the season's order.
pub fn not_counted(conn: &mut DbConnection, s: &Season) -> Result<Vec<TournamentId>, DbError> {
    let ids: Vec<TournamentId> = s.events.iter().map(|e| e.0).collect();
    crate::db::tournaments::not_rated_among(conn, &ids)
}

// The steps the pages and the API take through the director.
/// Stores a season; every event must be an individual tournament here,
/// and the name no other season's.
pub fn create(w: &mut Write, f: &SeasonFields) -> Result<Season, DbError> {
    crate::db::seasons::create(w, f)
}

/// Deletes season `id` (its events stay; only their grouping goes); the
/// change records what the season was.
pub fn delete(w: &mut Write, id: SeasonId) -> Result<Season, DbError> {
    crate::db::seasons::delete(w, id)
}

pub fn find(conn: &mut DbConnection, id: SeasonId) -> Result<Season, DbError> {
    crate::db::seasons::find(conn, id)
}

/// Changes season `id` to `f`, its events replaced by `f`'s in their
/// order; the change records the season before and after.
pub fn update(w: &mut Write, id: SeasonId, f: &SeasonFields) -> Result<Season, DbError> {
    crate::db::seasons::update(w, id, f)
}

/// Every season, newest first: (id, name).
pub fn list(conn: &mut DbConnection) -> Result<Vec<(SeasonId, String)>, DbError> {
    crate::db::seasons::list(conn)
}

/// Every season with its events, newest first.
pub fn all(conn: &mut DbConnection) -> Result<Vec<Season>, DbError> {
    crate::db::seasons::all(conn)
}

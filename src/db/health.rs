//! What the data-health page reads: the rows that would make the
//! federation's lists wrong (see `director::health`).

use diesel::prelude::*;

use super::schema::{players, published, season_events, seasons, tournaments};
use super::{DbConnection, DbError};
use crate::ids::{SeasonId, TournamentId};

/// Entries of one event, by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventEntries {
    pub tournament_id: TournamentId,
    pub tournament: String,
    pub names: Vec<String>,
}

fn grouped(rows: Vec<(TournamentId, String, String)>) -> Vec<EventEntries> {
    let mut out: Vec<EventEntries> = Vec::new();
    for (tid, tournament, name) in rows {
        match out.last_mut() {
            Some(e) if e.tournament_id == tid => e.names.push(name),
            _ => out.push(EventEntries {
                tournament_id: tid,
                tournament,
                names: vec![name],
            }),
        }
    }
    out
}

/// Entries without a federation id in this server's own rated events
/// (published copies are the next list): no federation can rate them.
pub fn entries_without_federation_id(
    conn: &mut DbConnection,
) -> Result<Vec<EventEntries>, DbError> {
    let copies = published::table.select(published::tournament_id);
    let rows: Vec<(TournamentId, String, String)> = players::table
        .inner_join(tournaments::table)
        .filter(tournaments::rated.eq(true))
        .filter(tournaments::archived.eq(false))
        .filter(players::federation_id.eq(""))
        .filter(diesel::dsl::not(tournaments::id.eq_any(copies)))
        .order((tournaments::id, players::id))
        .select((tournaments::id, tournaments::name, players::name))
        .load(conn)?;
    Ok(grouped(rows))
}

/// Entries of published copies that are nobody of this registry.
pub fn unlinked_in_copies(conn: &mut DbConnection) -> Result<Vec<EventEntries>, DbError> {
    let copies = published::table.select(published::tournament_id);
    let rows: Vec<(TournamentId, String, String)> = players::table
        .inner_join(tournaments::table)
        .filter(players::person_id.is_null())
        .filter(tournaments::id.eq_any(copies))
        .order((tournaments::id, players::id))
        .select((tournaments::id, tournaments::name, players::name))
        .load(conn)?;
    Ok(grouped(rows))
}

/// A season that counts an archived event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeasonEvent {
    pub season_id: SeasonId,
    pub season: String,
    pub tournament_id: TournamentId,
    pub tournament: String,
}

pub fn seasons_with_archived_events(conn: &mut DbConnection) -> Result<Vec<SeasonEvent>, DbError> {
    let rows: Vec<(SeasonId, String, TournamentId, String)> = season_events::table
        .inner_join(seasons::table)
        .inner_join(tournaments::table)
        .filter(tournaments::archived.eq(true))
        .order((seasons::id, season_events::id))
        .select((
            seasons::id,
            seasons::name,
            tournaments::id,
            tournaments::name,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(
            |(season_id, season, tournament_id, tournament)| SeasonEvent {
                season_id,
                season,
                tournament_id,
                tournament,
            },
        )
        .collect())
}

//! The federation's data health: what would make its rating list or its
//! season tables wrong, each line pointing at where it is fixed. Read on
//! demand (an admin's page and `GET /api/v1/health/data`), never stored.

use chrono::NaiveDate;

use crate::calendar::OutOfBounds;
use crate::db::health::{self, EventEntries, SeasonEvent};
use crate::db::people::{self, Person};
use crate::db::{DbConnection, DbError};

/// Everything the page lists.
#[derive(Debug, Clone)]
pub struct DataHealth {
    /// Entries without a federation id in this server's own rated events:
    /// no federation can rate them.
    pub without_federation_id: Vec<EventEntries>,
    /// People with the same name and year of birth: maybe one person.
    pub merge_candidates: Vec<(Person, Person)>,
    /// Rounds dated outside their event: left out of the ratings, and
    /// their events refused for export and publication.
    pub rounds_outside: Vec<OutOfBounds>,
    /// Entries of published copies that are nobody of this registry.
    pub unlinked_in_copies: Vec<EventEntries>,
    /// Seasons that count an archived event.
    pub seasons_with_archived: Vec<SeasonEvent>,
    /// People whose federation id is not in its one spelling: upper-casing
    /// it would give another person's id, so it was left as it was.
    pub federation_id_collisions: Vec<Person>,
}

impl DataHealth {
    pub fn is_clean(&self) -> bool {
        self.without_federation_id.is_empty()
            && self.merge_candidates.is_empty()
            && self.rounds_outside.is_empty()
            && self.unlinked_in_copies.is_empty()
            && self.seasons_with_archived.is_empty()
            && self.federation_id_collisions.is_empty()
    }
}

/// Reads the data's health as of `today`.
pub fn read(conn: &mut DbConnection, today: NaiveDate) -> Result<DataHealth, DbError> {
    let everyone = people::all(conn)?;
    let live: Vec<&Person> = everyone
        .iter()
        .filter(|p| p.merged_into.is_none())
        .collect();
    let twins = crate::registry::same_name_and_year(
        &live
            .iter()
            .map(|p| (p.id.0, p.name.as_str(), p.born))
            .collect::<Vec<_>>(),
    );
    let by_id = |id: i32| live.iter().find(|p| p.id.0 == id).map(|p| (*p).clone());
    Ok(DataHealth {
        without_federation_id: health::entries_without_federation_id(conn)?,
        merge_candidates: twins
            .into_iter()
            .filter_map(|(a, b)| Some((by_id(a)?, by_id(b)?)))
            .collect(),
        rounds_outside: crate::db::tournaments::rounds_out_of_bounds(conn, today)?,
        unlinked_in_copies: health::unlinked_in_copies(conn)?,
        seasons_with_archived: health::seasons_with_archived_events(conn)?,
        federation_id_collisions: everyone
            .into_iter()
            .filter(|p| {
                p.federation_id
                    .as_deref()
                    .is_some_and(|f| crate::roster::federation_id_spelling(f) != f)
            })
            .collect(),
    })
}

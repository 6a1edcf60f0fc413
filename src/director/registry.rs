//! Entries taken from the registry: a player of a tournament who is a
//! person of the federation gets the person's name, club, federation id
//! and current rating, a snapshot the referee may refresh until round 1 is
//! paired (after it the ratings have ordered the field).

use crate::db::audit::Write;
use crate::db::people::{self, Person};
use crate::db::players::{self, Player};
use crate::db::tournaments::rounds_paired;
use crate::db::DbError;
use crate::field::{FieldError, Problem};
use crate::rating::Rating;
use crate::roster::PlayerFields;
use crate::tournament::{Lock, LockedSince};

/// What an entry copies from its person.
pub fn entry_fields(p: &Person, current: Option<Rating>, seed: Option<i32>) -> PlayerFields {
    PlayerFields {
        name: p.name.clone(),
        club: p.club.clone(),
        rating: current.map(|r| r.rating.round() as i32),
        seed,
        federation_id: p.federation_id.clone().unwrap_or_default(),
    }
}

/// Enters `person` into tournament `tid`. `current` is the person's rating
/// now (from the ratings the caller read).
pub fn enter(
    w: &mut Write,
    tid: i32,
    person: i32,
    current: Option<Rating>,
    seed: Option<i32>,
) -> Result<Player, DbError> {
    let p = people::named(w.conn(), "person", person)?;
    if let Some(into) = p.merged_into {
        return Err(DbError::Invalid(FieldError::new(
            "person",
            Problem::MergedAway { person, into },
        )));
    }
    players::create_as(w, tid, &entry_fields(&p, current, seed), Some(person))
}

/// Copies the person's fields and current rating into the entry again.
pub fn refresh(
    w: &mut Write,
    tid: i32,
    player: i32,
    current: Option<Rating>,
) -> Result<Player, DbError> {
    let entry = players::find(w.conn(), tid, player)?;
    let Some(person) = entry.person_id else {
        return Err(DbError::Invalid(FieldError::new(
            "person",
            Problem::NotLinked,
        )));
    };
    if rounds_paired(w.conn(), tid)? > 0 {
        return Err(DbError::Locked(Lock {
            field: "rating",
            since: LockedSince::Paired,
        }));
    }
    let p = people::find(w.conn(), person)?;
    people::refresh_entry(w, tid, player, &entry_fields(&p, current, entry.seed))?;
    players::find(w.conn(), tid, player)
}

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
use crate::ids::{EntryId, PersonId, TournamentId};
use crate::rating::Rating;
use crate::refusal::Refusal;
use crate::registry::{PersonFields, Pulled};
use crate::roster::PlayerFields;
use crate::tournament::{Lock, LockedSince};

/// The entries of an event that no other server can rate, by name: they
/// carry no federation id (of their own or their person's), and the
/// federation's server links entries to its people by that id alone.
pub fn without_federation_id(players: &[Player]) -> Vec<&str> {
    players
        .iter()
        .filter(|p| p.federation_id.is_empty())
        .map(|p| p.name.as_str())
        .collect()
}

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
    tid: TournamentId,
    person: PersonId,
    current: Option<Rating>,
    seed: Option<i32>,
) -> Result<Player, DbError> {
    // A merge of the person at the same moment waits, or is waited for:
    // the entry is never made for someone merged away meanwhile.
    people::hold(w.conn(), person)?;
    let p = people::named(w.conn(), "person", person)?;
    if let Some(into) = p.merged_into {
        return Err(DbError::Refused(Refusal::Invalid(FieldError::new(
            "person",
            Problem::MergedAway {
                person: person.0,
                into: into.0,
            },
        ))));
    }
    players::create_as(w, tid, &entry_fields(&p, current, seed), Some(person))
}

/// Copies the person's fields and current rating into the entry again.
pub fn refresh(
    w: &mut Write,
    tid: TournamentId,
    player: EntryId,
    current: Option<Rating>,
) -> Result<Player, DbError> {
    let entry = players::find(w.conn(), tid, player)?;
    let Some(person) = entry.person_id else {
        return Err(DbError::Refused(Refusal::Invalid(FieldError::new(
            "person",
            Problem::NotLinked,
        ))));
    };
    if rounds_paired(w.conn(), tid)? > 0 {
        return Err(DbError::Refused(Refusal::Locked(Lock {
            field: "rating",
            since: LockedSince::Paired,
        })));
    }
    let p = people::find(w.conn(), person)?;
    players::refresh(w, tid, player, &entry_fields(&p, current, entry.seed))?;
    players::find(w.conn(), tid, player)
}

/// Brings the federation's rating list into this registry, by federation
/// id: people it lacks are added, names, clubs and years of birth
/// refreshed, and the federation's current rating becomes each person's
/// imported rating (in force from the list's month on), all in the caller's
/// one commit, so a list that cannot be stored whole changes nothing.
/// Lines without a federation id match nobody and are counted, not added.
pub fn pull(w: &mut Write, list: &[PersonFields]) -> Result<Pulled, DbError> {
    let mut done = Pulled::default();
    for listed in list {
        // The list's ratings are the federation's as of its month so far
        // ("as if it ended now"); taken as in force from the start of that
        // month, they are this server's current ratings at once, and the
        // games played here this month are rated from them.
        let mut f = listed.clone();
        if let Some(start) = &mut f.start {
            start.after = start.after.prev();
        }
        let f = &f;
        let Some(fid) = &f.federation_id else {
            done.without_id += 1;
            continue;
        };
        let said = format!("{} ({fid})", f.name);
        let (person, created) = people::find_or_create(w, f)?;
        if created {
            done.added.push(said);
            continue;
        }
        let refreshed = people::refresh_from_list(w, person.id, f)?;
        if refreshed.details {
            done.refreshed.push(said.clone());
        }
        if refreshed.rating {
            done.rated.push(said);
        }
        if refreshed == people::Refreshed::default() {
            done.unchanged += 1;
        }
    }
    Ok(done)
}

/// The federation's server this one pulls its rating list from: the one
/// `kraal serve` (or `kraal registry pull`) was given, else the admin's
/// setting, else none.
pub fn federation_url(
    conn: &mut crate::db::DbConnection,
    fixed: Option<&str>,
) -> Result<Option<String>, DbError> {
    match fixed {
        Some(url) => Ok(Some(url.to_string())),
        None => crate::db::settings::get(conn, crate::db::settings::FEDERATION_URL),
    }
}

//! The registry of people across events, their entries, their merges, and
//! the games their ratings come from.

use crate::refusal::Refusal;
use std::collections::HashMap;

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use serde::Serialize;

use super::audit::Write;
use super::schema::{games, merges, pairings, people, players, rounds, tournaments};
use super::{classify, found, now, DbConnection, DbError};
use crate::change::{Action, Change, Entity};
use crate::conflict::Taken;
use crate::field::{FieldError, Problem};
use crate::ids::{EntryId, GameId, PersonId, RoundNo, TournamentId, UserId};
use crate::rating::{Period, Rating};
use crate::registry::{PersonFields, StartingRating};
use crate::results::GameResult;

diesel::define_sql_function! {
    /// Case folding the same on both backends (SQLite's LIKE folds ASCII,
    /// PostgreSQL's does not fold at all).
    fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text;
}

/// A person row.
#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = people)]
pub struct Person {
    pub id: PersonId,
    pub name: String,
    pub federation_id: Option<String>,
    pub club: String,
    pub born: Option<i32>,
    pub start_rating: Option<f64>,
    pub start_rd: Option<f64>,
    pub start_volatility: Option<f64>,
    pub start_period: Option<String>,
    pub merged_into: Option<PersonId>,
    pub created_at: NaiveDateTime,
}

impl Person {
    /// The imported starting rating, when the row has one that reads.
    pub fn start(&self) -> Option<StartingRating> {
        Some(StartingRating {
            rating: Rating {
                rating: self.start_rating?,
                rd: self.start_rd?,
                volatility: self.start_volatility?,
            },
            after: self.start_period.as_deref()?.parse::<Period>().ok()?,
        })
    }

    fn fields_json(&self) -> Option<String> {
        serde_json::to_string(&serde_json::json!({
            "name": self.name,
            "federation_id": self.federation_id,
            "club": self.club,
            "born": self.born,
            "rating": self.start().map(|s| serde_json::json!({
                "rating": s.rating.rating,
                "rd": s.rating.rd,
                "volatility": s.rating.volatility,
                "period": s.after.to_string(),
            })),
        }))
        .ok()
    }
}

/// Adds a person; a federation id another person has is refused.
pub fn create(w: &mut Write, f: &PersonFields) -> Result<Person, DbError> {
    if let Some(id) = &f.federation_id {
        if let Some(other) = by_federation_id(w.conn(), id)? {
            return Err(DbError::Refused(Refusal::Conflict(
                crate::conflict::Conflict::Taken(Taken::FederationId {
                    id: other.federation_id.unwrap_or_default(),
                }),
            )));
        }
    }
    let start = f.start;
    let id: PersonId = diesel::insert_into(people::table)
        .values((
            people::name.eq(&f.name),
            people::federation_id.eq(&f.federation_id),
            people::club.eq(&f.club),
            people::born.eq(f.born),
            people::start_rating.eq(start.map(|s| s.rating.rating)),
            people::start_rd.eq(start.map(|s| s.rating.rd)),
            people::start_volatility.eq(start.map(|s| s.rating.volatility)),
            people::start_period.eq(start.map(|s| s.after.to_string())),
            people::created_at.eq(now()),
        ))
        .returning(people::id)
        .get_result(w.conn())
        .map_err(|e| {
            classify(
                e,
                Taken::FederationId {
                    id: f.federation_id.clone().unwrap_or_default(),
                },
            )
        })?;
    let p = find(w.conn(), id)?;
    let mut change = Change::new(None, Action::Create, Entity::Person, Some(id));
    change.new_value = p.fields_json();
    w.record(change);
    Ok(p)
}

/// The person with `f`'s federation id, made from `f` when the registry has
/// none (the second value says so). Two writers making the same person at
/// once make one: the id is locked for the transaction, so the second
/// finds the first's person instead of failing on the unique index.
pub fn find_or_create(w: &mut Write, f: &PersonFields) -> Result<(Person, bool), DbError> {
    if let Some(fid) = &f.federation_id {
        super::lock_key(w.conn(), &format!("person {fid}"))?;
        if let Some(p) = by_federation_id(w.conn(), fid)? {
            return Ok((p, false));
        }
    }
    Ok((create(w, f)?, true))
}

/// The person a published copy's `origin` names `venue` (the venue's own
/// id for someone without a federation id), made from `f` at the first
/// revision that carries them (the second value says so) and found again
/// at every later one, so that a new revision never adds a person. Two
/// revisions received at once make one: the pair is locked for the
/// transaction.
pub fn find_or_create_from(
    w: &mut Write,
    origin: &str,
    venue: i32,
    f: &PersonFields,
) -> Result<(Person, bool), DbError> {
    use super::schema::origin_people;
    super::lock_key(w.conn(), &format!("origin person {venue} {origin}"))?;
    let known: Option<PersonId> = origin_people::table
        .filter(origin_people::origin_id.eq(origin))
        .filter(origin_people::venue_person.eq(venue))
        .select(origin_people::person_id)
        .first(w.conn())
        .optional()?;
    if let Some(id) = known {
        return Ok((find(w.conn(), id)?, false));
    }
    let person = create(w, f)?;
    diesel::insert_into(origin_people::table)
        .values((
            origin_people::origin_id.eq(origin),
            origin_people::venue_person.eq(venue),
            origin_people::person_id.eq(person.id),
        ))
        .execute(w.conn())?;
    Ok((person, true))
}

/// What the federation's list changed of one person.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Refreshed {
    /// The name, club or year of birth.
    pub details: bool,
    /// The imported rating.
    pub rating: bool,
}

/// Takes person `id`'s name, club, year of birth (when the list gives one)
/// and imported rating (when it gives one) from the federation's list,
/// recording the change when there is one.
pub fn refresh_from_list(
    w: &mut Write,
    id: PersonId,
    f: &PersonFields,
) -> Result<Refreshed, DbError> {
    let old = find(w.conn(), id)?;
    let born = f.born.or(old.born);
    let start = f.start.or(old.start());
    let done = Refreshed {
        details: old.name != f.name || old.club != f.club || old.born != born,
        rating: start != old.start(),
    };
    if done == Refreshed::default() {
        return Ok(done);
    }
    diesel::update(people::table.find(id))
        .set((
            people::name.eq(&f.name),
            people::club.eq(&f.club),
            people::born.eq(born),
            people::start_rating.eq(start.map(|s| s.rating.rating)),
            people::start_rd.eq(start.map(|s| s.rating.rd)),
            people::start_volatility.eq(start.map(|s| s.rating.volatility)),
            people::start_period.eq(start.map(|s| s.after.to_string())),
        ))
        .execute(w.conn())?;
    let new = find(w.conn(), id)?;
    let mut change = Change::new(None, Action::Pull, Entity::Person, Some(id));
    change.old_value = old.fields_json();
    change.new_value = new.fields_json();
    w.record(change);
    Ok(done)
}

/// Whoever `id` is now: a person merged away lives on in whoever they were
/// merged into (and on, if that person was merged in turn).
pub fn surviving(conn: &mut DbConnection, id: PersonId) -> Result<PersonId, DbError> {
    let mut at = id;
    // A merge never makes a cycle; the bound only keeps a damaged
    // database from looping.
    for _ in 0..64 {
        match find(conn, at)?.merged_into {
            Some(into) => at = into,
            None => return Ok(at),
        }
    }
    Ok(at)
}

/// Adds the people of a registry import, all or none (the caller's commit
/// holds them). Someone whose federation id is in the registry already is
/// left as they are: their index is in the second list.
pub fn import(
    w: &mut Write,
    list: &[PersonFields],
) -> Result<(Vec<PersonId>, Vec<usize>), DbError> {
    let mut created = Vec::new();
    let mut skipped = Vec::new();
    for (i, f) in list.iter().enumerate() {
        if let Some(fid) = &f.federation_id {
            if by_federation_id(w.conn(), fid)?.is_some() {
                skipped.push(i);
                continue;
            }
        }
        created.push(create(w, f)?.id);
    }
    Ok((created, skipped))
}

pub fn find(conn: &mut DbConnection, id: PersonId) -> Result<Person, DbError> {
    people::table
        .find(id)
        .select(Person::as_select())
        .first(conn)
        .map_err(|e| found(e, crate::refusal::Thing::Person))
}

/// The person a field of a request names: missing is that field's error.
pub fn named(
    conn: &mut DbConnection,
    field: &'static str,
    id: PersonId,
) -> Result<Person, DbError> {
    match find(conn, id) {
        Err(DbError::Refused(Refusal::NotFound(_))) => Err(DbError::Refused(Refusal::Invalid(
            FieldError::new(field, Problem::NoSuch { id: id.0 }),
        ))),
        other => other,
    }
}

/// The person with federation id `id`, in whatever case it is typed
/// ([`crate::roster::federation_id_spelling`]).
pub fn by_federation_id(conn: &mut DbConnection, id: &str) -> Result<Option<Person>, DbError> {
    let id = crate::roster::federation_id_spelling(id);
    if id.is_empty() {
        return Ok(None);
    }
    Ok(people::table
        .filter(people::federation_id.eq(id))
        .select(Person::as_select())
        .first(conn)
        .optional()?)
}

/// Everyone, merged people included, by id: what the ratings are computed
/// over (merged people have no entries left, so they rate as nobody).
pub fn all(conn: &mut DbConnection) -> Result<Vec<Person>, DbError> {
    Ok(people::table
        .order(people::id)
        .select(Person::as_select())
        .load(conn)?)
}

/// People not merged away whose federation id or number (`12`, `#12`) is
/// `q` or whose name or club holds `q` (any case): the exact federation id
/// first, then by name.
pub fn search(conn: &mut DbConnection, q: &str, limit: i64) -> Result<Vec<Person>, DbError> {
    let q = q.trim();
    let fid = crate::roster::federation_id_spelling(q);
    let mut query = people::table
        .filter(people::merged_into.is_null())
        .select(Person::as_select())
        .into_boxed();
    if !q.is_empty() {
        let escaped: String = q
            .to_lowercase()
            .chars()
            .flat_map(|c| match c {
                '%' | '_' | '\\' => vec!['\\', c],
                c => vec![c],
            })
            .collect();
        let pattern = format!("%{escaped}%");
        // A person's number, as the pages show it (`#12`) or bare.
        let number = q.trim_start_matches('#').parse::<i32>().unwrap_or(0);
        query = query.filter(
            people::federation_id
                .eq(&fid)
                .or(people::id.eq(number))
                .or(lower(people::name).like(pattern.clone()).escape('\\'))
                .or(lower(people::club).like(pattern).escape('\\')),
        );
    }
    let mut found: Vec<Person> = query
        .order((people::name, people::id))
        .limit(limit)
        .load(conn)?;
    found.sort_by_key(|p| p.federation_id.as_deref() != Some(fid.as_str()));
    Ok(found)
}

/// One entry of a person: a player of a tournament.
#[derive(Debug, Clone)]
pub struct Entry {
    pub player_id: EntryId,
    pub tournament_id: TournamentId,
    pub tournament: String,
    pub name: String,
    pub starts_on: Option<NaiveDate>,
    /// The event is a published copy: its entry follows the venue, and a
    /// merge made here leaves it where it is.
    pub copy: bool,
}

pub fn entries(conn: &mut DbConnection, person: PersonId) -> Result<Vec<Entry>, DbError> {
    let rows: Vec<(EntryId, TournamentId, String, String, Option<NaiveDate>)> = players::table
        .inner_join(tournaments::table)
        .filter(players::person_id.eq(person))
        .order((tournaments::starts_on, tournaments::id))
        .select((
            players::id,
            tournaments::id,
            tournaments::name,
            players::name,
            tournaments::starts_on,
        ))
        .load(conn)?;
    let events: Vec<TournamentId> = rows.iter().map(|r| r.1).collect();
    let copies = copies_among(conn, &events)?;
    Ok(rows
        .into_iter()
        .map(
            |(player_id, tournament_id, tournament, name, starts_on)| Entry {
                player_id,
                tournament_id,
                tournament,
                name,
                starts_on,
                copy: copies.contains(&tournament_id),
            },
        )
        .collect())
}

/// A game with a result, as the ratings and a person's page read it.
#[derive(Debug, Clone, Copy)]
pub struct PlayedGame {
    pub game_id: GameId,
    pub tournament_id: TournamentId,
    pub round: RoundNo,
    pub played_on: NaiveDate,
    pub first: EntryId,
    pub second: EntryId,
    pub starter: EntryId,
    pub result: GameResult,
}

impl PlayedGame {
    /// What `player` scored, in half points; `None` when nobody played
    /// (forfeits, not played): such games are not rated.
    pub fn played_score_of(&self, player: EntryId) -> Option<f64> {
        let starter = match self.result {
            GameResult::StarterWon => 1.0,
            GameResult::OtherWon => 0.0,
            GameResult::Draw => 0.5,
            _ => return None,
        };
        Some(if player == self.starter {
            starter
        } else {
            1.0 - starter
        })
    }
}

/// Which games [`games`] reads.
#[derive(Debug, Clone, Copy)]
pub enum Of<'a> {
    /// The games played on the board (what is rated) of one tournament.
    Tournament(TournamentId),
    /// Every game with a result of these entries.
    Entries(&'a [EntryId]),
}

/// The games with a result of a tournament (played on the board) or of
/// some entries (all), by day.
pub fn games(conn: &mut DbConnection, of: Of<'_>) -> Result<Vec<PlayedGame>, DbError> {
    let mut query = games::table
        .inner_join(pairings::table.inner_join(rounds::table))
        .filter(games::result.is_not_null())
        .filter(pairings::first_player_id.is_not_null())
        .filter(pairings::second_player_id.is_not_null())
        .filter(games::starter_player_id.is_not_null())
        .select((
            games::id,
            rounds::tournament_id,
            rounds::number,
            rounds::played_on,
            pairings::first_player_id,
            pairings::second_player_id,
            games::starter_player_id,
            games::result,
        ))
        .into_boxed();
    match of {
        Of::Entries(entries) => {
            query = query.filter(
                pairings::first_player_id
                    .eq_any(entries.to_vec())
                    .or(pairings::second_player_id.eq_any(entries.to_vec())),
            );
        }
        Of::Tournament(tid) => {
            query = query
                .filter(rounds::tournament_id.eq(tid))
                .filter(games::result.eq_any(["1-0", "0-1", "1/2-1/2"]));
        }
    }
    type Row = (
        GameId,
        TournamentId,
        RoundNo,
        NaiveDate,
        Option<EntryId>,
        Option<EntryId>,
        Option<EntryId>,
        Option<String>,
    );
    let rows: Vec<Row> = query.order((rounds::played_on, games::id)).load(conn)?;
    // What is rated leaves out the rounds dated outside their bounds
    // (stored before `crate::calendar`'s rules) until they are corrected.
    let days = match of {
        Of::Tournament(tid) => {
            let (starts, ends): (Option<NaiveDate>, Option<NaiveDate>) = tournaments::table
                .find(tid)
                .select((tournaments::starts_on, tournaments::ends_on))
                .first(conn)?;
            Some(crate::calendar::round_range(
                starts,
                ends,
                super::now().date(),
            ))
        }
        Of::Entries(_) => None,
    };
    Ok(rows
        .into_iter()
        .filter(|row| days.is_none_or(|d| d.holds(row.3)))
        .filter_map(
            |(game_id, tournament_id, round, played_on, first, second, starter, result)| {
                Some(PlayedGame {
                    game_id,
                    tournament_id,
                    round,
                    played_on,
                    first: first?,
                    second: second?,
                    starter: starter?,
                    result: GameResult::parse(result.as_deref()?)?,
                })
            },
        )
        .collect())
}

/// Entry (player id) → person, for every linked entry.
pub fn entry_people(conn: &mut DbConnection) -> Result<Vec<(EntryId, PersonId)>, DbError> {
    let rows: Vec<(EntryId, Option<PersonId>)> = players::table
        .filter(players::person_id.is_not_null())
        .select((players::id, players::person_id))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(p, person)| Some((p, person?)))
        .collect())
}

/// A merge, as stored.
#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = merges)]
pub struct Merge {
    pub id: i32,
    pub person_id: PersonId,
    pub into_id: PersonId,
    pub entries: String,
    pub merged_by: Option<UserId>,
    pub merged_at: NaiveDateTime,
    pub undone_at: Option<NaiveDateTime>,
}

/// An entry a merge left with the person merged away: an entry of a
/// published copy, which follows its venue (the venue's next revision
/// links it again), not a merge made here.
#[derive(Debug, Clone, Serialize)]
pub struct LeftEntry {
    pub player_id: EntryId,
    pub tournament_id: TournamentId,
    pub tournament: String,
}

/// What a merge did: the merge as stored, and the entries it left.
#[derive(Debug, Clone)]
pub struct Merged {
    pub merge: Merge,
    pub left: Vec<LeftEntry>,
}

/// Holds person `id`'s row until the transaction ends, for a write that
/// must not meet a merge of them halfway (an entry made for them).
pub fn hold(conn: &mut DbConnection, id: PersonId) -> Result<(), DbError> {
    lock_people(conn, &[id])
}

/// Holds the rows of `ids` until the transaction ends, the lowest id
/// first, so that two merges of the same people take turns in one order
/// (never waiting for each other) and the second reads what the first
/// wrote: A into B and B into A at once, or D into E and D into F. SQLite
/// has one writer at a time; the second's read is refused as stale and
/// run again.
fn lock_people(conn: &mut DbConnection, ids: &[PersonId]) -> Result<(), DbError> {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    if let DbConnection::Postgres(c) = conn {
        for id in ids {
            diesel::sql_query("SELECT id FROM people WHERE id = $1 FOR UPDATE")
                .bind::<diesel::sql_types::Integer, _>(id.0)
                .execute(c)?;
        }
    }
    Ok(())
}

/// The published copies (read-only events a venue keeps up to date here)
/// among `tournaments`.
fn copies_among(
    conn: &mut DbConnection,
    tournaments: &[TournamentId],
) -> Result<Vec<TournamentId>, DbError> {
    use super::schema::published;
    Ok(published::table
        .filter(published::tournament_id.eq_any(tournaments))
        .select(published::tournament_id)
        .load(conn)?)
}

/// Merges `person` into `into`: their entries become `into`'s, and the
/// person stays, marked merged, so that the merge can be undone. Each
/// event an entry moves in records the change in its own trail (its
/// revision moves, its pages follow), whoever referees it; the entries of
/// published copies stay where they are and are listed as left.
pub fn merge(w: &mut Write, person: PersonId, into: PersonId) -> Result<Merged, DbError> {
    lock_people(w.conn(), &[person, into])?;
    let source = find(w.conn(), person)?;
    let target = named(w.conn(), "into", into)?;
    crate::registry::check_merge(
        person.0,
        into.0,
        target.merged_into.map(|m| m.0),
        source.merged_into.map(|m| m.0),
    )?;
    let theirs: Vec<(EntryId, TournamentId, String)> = players::table
        .inner_join(tournaments::table)
        .filter(players::person_id.eq(person))
        .order(players::id)
        .select((players::id, players::tournament_id, tournaments::name))
        .load(w.conn())?;
    let events: Vec<TournamentId> = theirs.iter().map(|e| e.1).collect();
    let copies = copies_among(w.conn(), &events)?;
    let (left, moving): (Vec<_>, Vec<_>) = theirs
        .into_iter()
        .partition(|(_, tid, _)| copies.contains(tid));
    let moved: Vec<EntryId> = moving.iter().map(|e| e.0).collect();
    // An event both entered: the two entries would be one person twice in
    // one tournament.
    let moving_events: Vec<TournamentId> = moving.iter().map(|e| e.1).collect();
    let both: Option<String> = players::table
        .inner_join(tournaments::table)
        .filter(players::person_id.eq(into))
        .filter(players::tournament_id.eq_any(&moving_events))
        .select(tournaments::name)
        .first(w.conn())
        .optional()?;
    if let Some(tournament) = both {
        return Err(DbError::Refused(Refusal::Invalid(FieldError::new(
            "into",
            Problem::BothEntered { tournament },
        ))));
    }
    diesel::update(players::table.filter(players::id.eq_any(&moved)))
        .set(players::person_id.eq(into))
        .execute(w.conn())?;
    diesel::update(people::table.find(person))
        .set(people::merged_into.eq(into))
        .execute(w.conn())?;
    let entries = serde_json::to_string(&moved).unwrap_or_else(|_| "[]".into());
    let by = w.by();
    let id: i32 = diesel::insert_into(merges::table)
        .values((
            merges::person_id.eq(person),
            merges::into_id.eq(into),
            merges::entries.eq(&entries),
            merges::merged_by.eq(by),
            merges::merged_at.eq(now()),
        ))
        .returning(merges::id)
        .get_result(w.conn())?;
    w.record(
        Change::new(None, Action::Merge, Entity::Person, Some(person))
            .new_value(into.to_string())
            .players(moved.iter().copied()),
    );
    for (player, tid, _) in &moving {
        w.record(entry_moved(Action::Merge, *tid, *player, person, into));
    }
    Ok(Merged {
        merge: find_merge(w.conn(), id)?,
        left: left
            .into_iter()
            .map(|(player_id, tournament_id, tournament)| LeftEntry {
                player_id,
                tournament_id,
                tournament,
            })
            .collect(),
    })
}

/// The change an event records when a merge (or its undo) moves one of
/// its entries from person `from` to person `to` (the values are the
/// people's numbers as the registry shows them, `#12`; the detail holds
/// the new one's id).
fn entry_moved(
    action: Action,
    tid: TournamentId,
    player: EntryId,
    from: PersonId,
    to: PersonId,
) -> Change {
    let mut c = Change::new(Some(tid), action, Entity::Player, Some(player))
        .old(format!("#{from}"))
        .new_value(format!("#{to}"))
        .players([player]);
    c.detail.person = Some(to);
    c
}

pub fn find_merge(conn: &mut DbConnection, id: i32) -> Result<Merge, DbError> {
    merges::table
        .find(id)
        .select(Merge::as_select())
        .first(conn)
        .map_err(|e| found(e, crate::refusal::Thing::Merge))
}

/// Merges of (or into) a person, newest first.
pub fn merges_of(conn: &mut DbConnection, person: PersonId) -> Result<Vec<Merge>, DbError> {
    Ok(merges::table
        .filter(merges::person_id.eq(person).or(merges::into_id.eq(person)))
        .order(merges::id.desc())
        .select(Merge::as_select())
        .load(conn)?)
}

/// Undoes a merge exactly: the entries it moved go back, and the person is
/// no longer merged. A merge that a later one rests on (the merged person's
/// target merged on since, or someone merged into the merged person) must
/// be undone after that one, or the entries would go back to the wrong
/// person.
pub fn unmerge(w: &mut Write, id: i32) -> Result<Merge, DbError> {
    let m = find_merge(w.conn(), id)?;
    lock_people(w.conn(), &[m.person_id, m.into_id])?;
    // Read again under the locks: an undo running at the same moment has
    // its answer now.
    let m = find_merge(w.conn(), id)?;
    if m.undone_at.is_some() {
        return Err(DbError::Refused(Refusal::Invalid(FieldError::new(
            "merge",
            Problem::AlreadyUndone { id },
        ))));
    }
    let later: Option<i32> = merges::table
        .filter(merges::id.gt(id))
        .filter(merges::undone_at.is_null())
        .filter(
            merges::person_id
                .eq_any([m.person_id, m.into_id])
                .or(merges::into_id.eq(m.person_id)),
        )
        .select(merges::id)
        .first(w.conn())
        .optional()?;
    if let Some(later) = later {
        return Err(DbError::Refused(Refusal::Invalid(FieldError::new(
            "merge",
            Problem::UndoLaterFirst { id, later },
        ))));
    }
    let moved: Vec<EntryId> =
        serde_json::from_str(&m.entries).map_err(|e| DbError::Unreadable {
            row: format!("merge {id}"),
            message: e.to_string(),
        })?;
    let back: Vec<(EntryId, TournamentId)> = players::table
        .filter(players::id.eq_any(&moved))
        .filter(players::person_id.eq(m.into_id))
        .order(players::id)
        .select((players::id, players::tournament_id))
        .load(w.conn())?;
    let back_ids: Vec<EntryId> = back.iter().map(|b| b.0).collect();
    diesel::update(players::table.filter(players::id.eq_any(&back_ids)))
        .set(players::person_id.eq(m.person_id))
        .execute(w.conn())?;
    diesel::update(people::table.find(m.person_id))
        .set(people::merged_into.eq(None::<PersonId>))
        .execute(w.conn())?;
    diesel::update(merges::table.find(id))
        .set(merges::undone_at.eq(Some(now())))
        .execute(w.conn())?;
    w.record(
        Change::new(None, Action::Unmerge, Entity::Person, Some(m.person_id))
            .old(m.into_id.to_string())
            .players(moved),
    );
    for (player, tid) in back {
        w.record(entry_moved(
            Action::Unmerge,
            tid,
            player,
            m.into_id,
            m.person_id,
        ));
    }
    find_merge(w.conn(), id)
}

/// Every rated tournament's id and revision: which ones changed since a
/// read. A tournament that is not rated (a friendly, a test event) has no
/// games in the ratings.
pub fn revisions(conn: &mut DbConnection) -> Result<Vec<(TournamentId, i32)>, DbError> {
    Ok(tournaments::table
        .filter(tournaments::rated.eq(true))
        .select((tournaments::id, tournaments::revision))
        .load(conn)?)
}

/// The newest change recorded anywhere: every write records one, so the
/// ratings computed at one stamp hold until it moves.
pub fn stamp(conn: &mut DbConnection) -> Result<i32, DbError> {
    use super::schema::audit_entries;
    let newest: Option<i32> = audit_entries::table
        .select(diesel::dsl::max(audit_entries::id))
        .first(conn)?;
    Ok(newest.unwrap_or(0))
}

/// What a person's page reads, in one go.
pub struct Record {
    pub person: Person,
    pub merged_into: Option<Person>,
    pub entries: Vec<Entry>,
    pub games: Vec<PlayedGame>,
    /// Entry → (name, person) for every player met.
    pub players: HashMap<EntryId, (String, Option<PersonId>)>,
    pub merges: Vec<Merge>,
    /// The people of those merges by id.
    pub names: HashMap<PersonId, String>,
    /// Who made each merge: account names by id.
    pub accounts: HashMap<UserId, String>,
    /// The games the ratings leave out whatever their result: those of an
    /// event not rated, and of a round dated outside its bounds.
    pub left_out: std::collections::HashSet<GameId>,
}

pub fn record(c: &mut DbConnection, id: PersonId) -> Result<Record, DbError> {
    let person = find(c, id)?;
    let merged_into = person.merged_into.map(|m| find(c, m)).transpose()?;
    let entries = entries(c, id)?;
    let own: Vec<EntryId> = entries.iter().map(|e| e.player_id).collect();
    let games = if own.is_empty() {
        Vec::new()
    } else {
        games(c, Of::Entries(&own))?
    };
    let met: Vec<EntryId> = games.iter().flat_map(|g| [g.first, g.second]).collect();
    let rows: Vec<(EntryId, String, Option<PersonId>)> = players::table
        .filter(players::id.eq_any(&met))
        .select((players::id, players::name, players::person_id))
        .load(c)?;
    let players = rows
        .into_iter()
        .map(|(p, n, person)| (p, (n, person)))
        .collect();
    let merges = merges_of(c, id)?;
    let mut names = HashMap::new();
    for m in &merges {
        for p in [m.person_id, m.into_id] {
            if let std::collections::hash_map::Entry::Vacant(v) = names.entry(p) {
                v.insert(find(c, p)?.name);
            }
        }
    }
    let events: Vec<TournamentId> = entries.iter().map(|e| e.tournament_id).collect();
    let settings: HashMap<TournamentId, (bool, Option<NaiveDate>, Option<NaiveDate>)> =
        tournaments::table
            .filter(tournaments::id.eq_any(&events))
            .select((
                tournaments::id,
                (
                    tournaments::rated,
                    tournaments::starts_on,
                    tournaments::ends_on,
                ),
            ))
            .load::<(TournamentId, (bool, Option<NaiveDate>, Option<NaiveDate>))>(c)?
            .into_iter()
            .collect();
    let today = now().date();
    let left_out = games
        .iter()
        .filter(|g| {
            settings
                .get(&g.tournament_id)
                .is_some_and(|(rated, starts, ends)| {
                    !rated
                        || !crate::calendar::round_range(*starts, *ends, today).holds(g.played_on)
                })
        })
        .map(|g| g.game_id)
        .collect();
    let by: Vec<UserId> = merges.iter().filter_map(|m| m.merged_by).collect();
    let accounts = super::schema::users::table
        .filter(super::schema::users::id.eq_any(&by))
        .select((super::schema::users::id, super::schema::users::name))
        .load::<(UserId, String)>(c)?
        .into_iter()
        .collect();
    Ok(Record {
        person,
        merged_into,
        entries,
        games,
        players,
        merges,
        names,
        accounts,
        left_out,
    })
}

/// How many people the registry holds (merged ones included).
pub fn count(conn: &mut DbConnection) -> Result<i64, DbError> {
    Ok(people::table.count().get_result(conn)?)
}

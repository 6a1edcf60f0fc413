//! Players, their first-degree relatives, withdrawals and CSV imports.

use crate::refusal::{Refusal, Thing};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::Serialize;

use super::audit::Write;
use super::schema::{players, relations};
use super::tournaments::rounds_paired;
use super::{classify, found, now, DbConnection, DbError};
use crate::change::{Action, Change, Entity};
use crate::conflict::Taken;
use crate::ids::{EntryId, PersonId, RoundNo, TournamentId};
use crate::roster::{PlayerFields, Refused};

/// A player row.
#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = players)]
pub struct Player {
    pub id: EntryId,
    pub tournament_id: TournamentId,
    pub name: String,
    pub club: String,
    pub rating: Option<i32>,
    pub seed: Option<i32>,
    pub federation_id: String,
    pub withdrawn_from_round: Option<RoundNo>,
    pub created_at: NaiveDateTime,
    /// The person of the federation's registry this entry is, if linked.
    pub person_id: Option<PersonId>,
}

impl Player {
    pub fn fields(&self) -> PlayerFields {
        PlayerFields {
            name: self.name.clone(),
            club: self.club.clone(),
            rating: self.rating,
            seed: self.seed,
            federation_id: self.federation_id.clone(),
        }
    }
}

/// Two players who are first-degree relatives.
#[derive(Debug, Clone, Serialize)]
pub struct Relation {
    pub id: i32,
    pub a: EntryId,
    pub a_name: String,
    pub b: EntryId,
    pub b_name: String,
}

fn insert(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
    f: &PlayerFields,
    person: Option<PersonId>,
) -> Result<EntryId, DbError> {
    diesel::insert_into(players::table)
        .values((
            players::tournament_id.eq(tournament_id),
            players::name.eq(&f.name),
            players::club.eq(&f.club),
            players::rating.eq(f.rating),
            players::seed.eq(f.seed),
            players::federation_id.eq(&f.federation_id),
            players::created_at.eq(now()),
            players::person_id.eq(person),
        ))
        .returning(players::id)
        .get_result(conn)
        .map_err(|e| {
            classify(
                e,
                Taken::Entry {
                    name: f.name.clone(),
                },
            )
        })
        .and_then(|id| {
            super::links::issue(conn, id)?;
            Ok(id)
        })
}

fn added(tournament_id: TournamentId, id: EntryId, f: &PlayerFields) -> Change {
    let c = Change::new(Some(tournament_id), Action::Add, Entity::Player, Some(id)).players([id]);
    match serde_json::to_string(f) {
        Ok(v) => c.new_value(v),
        Err(_) => c,
    }
}

pub fn create(
    w: &mut Write,
    tournament_id: TournamentId,
    f: &PlayerFields,
) -> Result<Player, DbError> {
    create_as(w, tournament_id, f, None)
}

/// Enters a player who is `person` of the registry (or nobody known), with
/// the fields copied from the person.
pub fn create_as(
    w: &mut Write,
    tournament_id: TournamentId,
    f: &PlayerFields,
    person: Option<PersonId>,
) -> Result<Player, DbError> {
    let id = insert(w.conn(), tournament_id, f, person)?;
    let mut change = added(tournament_id, id, f);
    if let Some(person) = person {
        change.detail.person = Some(person);
    }
    w.record(change);
    find(w.conn(), tournament_id, id)
}

/// Adds every player and relation of an import, or none of them (the
/// caller's commit holds them all). `relatives` pairs are indices into `list`.
/// A player whose federation id is a person's of the registry (not merged
/// away) becomes that person's entry; the second value lists, by index,
/// the players no person was found for.
pub fn import(
    w: &mut Write,
    tournament_id: TournamentId,
    list: &[PlayerFields],
    relatives: &[(usize, usize)],
) -> Result<(Vec<EntryId>, Vec<usize>), DbError> {
    let mut ids = Vec::with_capacity(list.len());
    let mut unmatched = Vec::new();
    for (i, f) in list.iter().enumerate() {
        let person = match f.federation_id.as_str() {
            "" => None,
            fid => super::people::by_federation_id(w.conn(), fid)?
                .filter(|p| p.merged_into.is_none())
                .map(|p| p.id),
        };
        if person.is_none() {
            unmatched.push(i);
        }
        let id = insert(w.conn(), tournament_id, f, person)?;
        let mut change = added(tournament_id, id, f);
        change.detail.person = person;
        w.record(change);
        ids.push(id);
    }
    for &(a, b) in relatives {
        add_relation(w, tournament_id, ids[a], ids[b])?;
    }
    Ok((ids, unmatched))
}

pub fn update(
    w: &mut Write,
    tournament_id: TournamentId,
    id: EntryId,
    f: &PlayerFields,
) -> Result<Player, DbError> {
    let conn = w.conn();
    let old = find(conn, tournament_id, id)?;
    diesel::update(players::table.find(id))
        .set((
            players::name.eq(&f.name),
            players::club.eq(&f.club),
            players::rating.eq(f.rating),
            players::seed.eq(f.seed),
            players::federation_id.eq(&f.federation_id),
        ))
        .execute(conn)?;
    let mut c =
        Change::new(Some(tournament_id), Action::Edit, Entity::Player, Some(id)).players([id]);
    c.old_value = serde_json::to_string(&old.fields()).ok();
    c.new_value = serde_json::to_string(f).ok();
    w.record(c);
    find(w.conn(), tournament_id, id)
}

/// Withdraws a player from the next round on; rounds already paired stand.
pub fn withdraw(
    w: &mut Write,
    tournament_id: TournamentId,
    id: EntryId,
) -> Result<Player, DbError> {
    let conn = w.conn();
    let p = find(conn, tournament_id, id)?;
    if p.withdrawn_from_round.is_some() {
        return Err(Refused::AlreadyWithdrawn { name: p.name }.into());
    }
    let from = RoundNo(rounds_paired(conn, tournament_id)? + 1);
    diesel::update(players::table.find(id))
        .set(players::withdrawn_from_round.eq(Some(from)))
        .execute(conn)?;
    w.record(
        Change::new(
            Some(tournament_id),
            Action::Withdraw,
            Entity::Player,
            Some(id),
        )
        .players([id])
        .in_round(from),
    );
    find(w.conn(), tournament_id, id)
}

/// Takes back a withdrawal: the player is paired again from the next round.
pub fn reinstate(
    w: &mut Write,
    tournament_id: TournamentId,
    id: EntryId,
) -> Result<Player, DbError> {
    let conn = w.conn();
    let p = find(conn, tournament_id, id)?;
    let Some(from) = p.withdrawn_from_round else {
        return Err(Refused::NotWithdrawn { name: p.name }.into());
    };
    diesel::update(players::table.find(id))
        .set(players::withdrawn_from_round.eq(None::<RoundNo>))
        .execute(conn)?;
    w.record(
        Change::new(
            Some(tournament_id),
            Action::Reinstate,
            Entity::Player,
            Some(id),
        )
        .players([id])
        .in_round(from),
    );
    find(w.conn(), tournament_id, id)
}

/// A player of this tournament; a player of another one is "not found".
pub fn find(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
    id: EntryId,
) -> Result<Player, DbError> {
    players::table
        .filter(players::id.eq(id))
        .filter(players::tournament_id.eq(tournament_id))
        .select(Player::as_select())
        .first(conn)
        .map_err(|e| found(e, crate::refusal::Thing::PlayerInTournament))
}

/// Players in entry order (the order late entries get their numbers in).
pub fn list(conn: &mut DbConnection, tournament_id: TournamentId) -> Result<Vec<Player>, DbError> {
    Ok(players::table
        .filter(players::tournament_id.eq(tournament_id))
        .order(players::id)
        .select(Player::as_select())
        .load(conn)?)
}

pub fn add_relation(
    w: &mut Write,
    tournament_id: TournamentId,
    a: EntryId,
    b: EntryId,
) -> Result<i32, DbError> {
    if a == b {
        return Err(Refused::OwnRelative.into());
    }
    let (a, b) = (a.min(b), a.max(b));
    let conn = w.conn();
    let pa = find(conn, tournament_id, a)?;
    let pb = find(conn, tournament_id, b)?;
    let id: i32 = diesel::insert_into(relations::table)
        .values((
            relations::tournament_id.eq(tournament_id),
            relations::player_a.eq(a),
            relations::player_b.eq(b),
            relations::created_at.eq(now()),
        ))
        .returning(relations::id)
        .get_result(conn)
        .map_err(|e| {
            classify(
                e,
                Taken::Relatives {
                    a: pa.name.clone(),
                    b: pb.name.clone(),
                },
            )
        })?;
    w.record(
        Change::new(Some(tournament_id), Action::Add, Entity::Relation, Some(id))
            .players([a, b])
            .new_value(format!("{} – {}", pa.name, pb.name)),
    );
    Ok(id)
}

pub fn remove_relation(w: &mut Write, tournament_id: TournamentId, id: i32) -> Result<(), DbError> {
    let conn = w.conn();
    let rel = relations_of(conn, tournament_id)?
        .into_iter()
        .find(|r| r.id == id)
        .ok_or(DbError::Refused(Refusal::NotFound(Thing::Relation)))?;
    diesel::delete(relations::table.find(id)).execute(conn)?;
    w.record(
        Change::new(
            Some(tournament_id),
            Action::Remove,
            Entity::Relation,
            Some(id),
        )
        .players([rel.a, rel.b])
        .old(format!("{} – {}", rel.a_name, rel.b_name)),
    );
    Ok(())
}

pub fn relations_of(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
) -> Result<Vec<Relation>, DbError> {
    let rows: Vec<(i32, EntryId, EntryId)> = relations::table
        .filter(relations::tournament_id.eq(tournament_id))
        .order(relations::id)
        .select((relations::id, relations::player_a, relations::player_b))
        .load(conn)?;
    let names: std::collections::HashMap<EntryId, String> = list(conn, tournament_id)?
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect();
    let name = |id: EntryId| names.get(&id).cloned().unwrap_or_default();
    Ok(rows
        .into_iter()
        .map(|(id, a, b)| Relation {
            id,
            a,
            a_name: name(a),
            b,
            b_name: name(b),
        })
        .collect())
}

/// Copies the person's fields and rating into their entry again (before
/// round 1: after it the entry's rating has paired rounds).
pub fn refresh(
    w: &mut Write,
    tournament_id: TournamentId,
    player_id: EntryId,
    fields: &crate::roster::PlayerFields,
) -> Result<(), DbError> {
    let before = find(w.conn(), tournament_id, player_id)?;
    if before.fields() == *fields {
        return Ok(());
    }
    diesel::update(players::table.find(player_id))
        .set((
            players::name.eq(&fields.name),
            players::club.eq(&fields.club),
            players::rating.eq(fields.rating),
            players::federation_id.eq(&fields.federation_id),
        ))
        .execute(w.conn())?;
    let mut c = Change::new(
        Some(tournament_id),
        Action::Refresh,
        Entity::Player,
        Some(player_id),
    )
    .players([player_id]);
    c.old_value = serde_json::to_string(&before.fields()).ok();
    c.new_value = serde_json::to_string(fields).ok();
    c.detail.person = before.person_id;
    w.record(c);
    Ok(())
}

//! Players, their first-degree relatives, withdrawals and CSV imports.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::Serialize;

use super::audit::{self, Change};
use super::schema::{players, relations};
use super::tournaments::rounds_paired;
use super::users::User;
use super::{classify, found, now, DbConnection, DbError};
use crate::roster::PlayerFields;

/// A player row.
#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = players)]
pub struct Player {
    pub id: i32,
    pub tournament_id: i32,
    pub name: String,
    pub club: String,
    pub rating: Option<i32>,
    pub seed: Option<i32>,
    pub federation_id: String,
    pub withdrawn_from_round: Option<i32>,
    pub created_at: NaiveDateTime,
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
    pub a: i32,
    pub a_name: String,
    pub b: i32,
    pub b_name: String,
}

fn insert(conn: &mut DbConnection, tournament_id: i32, f: &PlayerFields) -> Result<i32, DbError> {
    Ok(diesel::insert_into(players::table)
        .values((
            players::tournament_id.eq(tournament_id),
            players::name.eq(&f.name),
            players::club.eq(&f.club),
            players::rating.eq(f.rating),
            players::seed.eq(f.seed),
            players::federation_id.eq(&f.federation_id),
            players::created_at.eq(now()),
        ))
        .returning(players::id)
        .get_result(conn)?)
}

fn added(tournament_id: i32, id: i32, f: &PlayerFields) -> Change<'static> {
    Change {
        tournament_id: Some(tournament_id),
        action: "add",
        entity: "player",
        entity_id: Some(id),
        old_value: None,
        new_value: serde_json::to_string(f).ok(),
    }
}

pub fn create(
    conn: &mut DbConnection,
    tournament_id: i32,
    f: &PlayerFields,
    by: &User,
) -> Result<Player, DbError> {
    conn.transaction(|conn| {
        let id = insert(conn, tournament_id, f)?;
        audit::record(conn, Some(by.id), added(tournament_id, id, f))?;
        find(conn, tournament_id, id)
    })
}

/// Adds every player and relation of an import, or none of them.
/// `relatives` pairs are indices into `list`.
pub fn import(
    conn: &mut DbConnection,
    tournament_id: i32,
    list: &[PlayerFields],
    relatives: &[(usize, usize)],
    by: &User,
) -> Result<Vec<i32>, DbError> {
    conn.transaction(|conn| {
        let mut ids = Vec::with_capacity(list.len());
        for f in list {
            let id = insert(conn, tournament_id, f)?;
            audit::record(conn, Some(by.id), added(tournament_id, id, f))?;
            ids.push(id);
        }
        for &(a, b) in relatives {
            add_relation_row(conn, tournament_id, ids[a], ids[b], by)?;
        }
        Ok(ids)
    })
}

pub fn update(
    conn: &mut DbConnection,
    tournament_id: i32,
    id: i32,
    f: &PlayerFields,
    by: &User,
) -> Result<Player, DbError> {
    conn.transaction(|conn| {
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
        audit::record(
            conn,
            Some(by.id),
            Change {
                tournament_id: Some(tournament_id),
                action: "edit",
                entity: "player",
                entity_id: Some(id),
                old_value: serde_json::to_string(&old.fields()).ok(),
                new_value: serde_json::to_string(f).ok(),
            },
        )?;
        find(conn, tournament_id, id)
    })
}

/// Withdraws a player from the next round on; rounds already paired stand.
pub fn withdraw(
    conn: &mut DbConnection,
    tournament_id: i32,
    id: i32,
    by: &User,
) -> Result<Player, DbError> {
    conn.transaction(|conn| {
        let p = find(conn, tournament_id, id)?;
        if p.withdrawn_from_round.is_some() {
            return Err(DbError::Conflict(format!(
                "{} has already withdrawn",
                p.name
            )));
        }
        let from = rounds_paired(conn, tournament_id)? + 1;
        diesel::update(players::table.find(id))
            .set(players::withdrawn_from_round.eq(Some(from)))
            .execute(conn)?;
        audit::record(
            conn,
            Some(by.id),
            Change {
                tournament_id: Some(tournament_id),
                action: "withdraw",
                entity: "player",
                entity_id: Some(id),
                old_value: None,
                new_value: Some(format!("not paired from round {from}")),
            },
        )?;
        find(conn, tournament_id, id)
    })
}

/// Takes back a withdrawal: the player is paired again from the next round.
pub fn reinstate(
    conn: &mut DbConnection,
    tournament_id: i32,
    id: i32,
    by: &User,
) -> Result<Player, DbError> {
    conn.transaction(|conn| {
        let p = find(conn, tournament_id, id)?;
        let Some(from) = p.withdrawn_from_round else {
            return Err(DbError::Conflict(format!("{} has not withdrawn", p.name)));
        };
        diesel::update(players::table.find(id))
            .set(players::withdrawn_from_round.eq(None::<i32>))
            .execute(conn)?;
        audit::record(
            conn,
            Some(by.id),
            Change {
                tournament_id: Some(tournament_id),
                action: "reinstate",
                entity: "player",
                entity_id: Some(id),
                old_value: Some(format!("not paired from round {from}")),
                new_value: None,
            },
        )?;
        find(conn, tournament_id, id)
    })
}

/// A player of this tournament; a player of another one is "not found".
pub fn find(conn: &mut DbConnection, tournament_id: i32, id: i32) -> Result<Player, DbError> {
    players::table
        .filter(players::id.eq(id))
        .filter(players::tournament_id.eq(tournament_id))
        .select(Player::as_select())
        .first(conn)
        .map_err(|e| found(e, "player in this tournament"))
}

/// Players in entry order (the order late entries get their numbers in).
pub fn list(conn: &mut DbConnection, tournament_id: i32) -> Result<Vec<Player>, DbError> {
    Ok(players::table
        .filter(players::tournament_id.eq(tournament_id))
        .order(players::id)
        .select(Player::as_select())
        .load(conn)?)
}

fn add_relation_row(
    conn: &mut DbConnection,
    tournament_id: i32,
    a: i32,
    b: i32,
    by: &User,
) -> Result<i32, DbError> {
    if a == b {
        return Err(DbError::Conflict(
            "a player cannot be their own relative".into(),
        ));
    }
    let (a, b) = (a.min(b), a.max(b));
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
                &format!(
                    "{} and {} are already recorded as relatives",
                    pa.name, pb.name
                ),
            )
        })?;
    audit::record(
        conn,
        Some(by.id),
        Change {
            tournament_id: Some(tournament_id),
            action: "add",
            entity: "relation",
            entity_id: Some(id),
            old_value: None,
            new_value: Some(format!("{} – {}", pa.name, pb.name)),
        },
    )?;
    Ok(id)
}

pub fn add_relation(
    conn: &mut DbConnection,
    tournament_id: i32,
    a: i32,
    b: i32,
    by: &User,
) -> Result<i32, DbError> {
    conn.transaction(|conn| add_relation_row(conn, tournament_id, a, b, by))
}

pub fn remove_relation(
    conn: &mut DbConnection,
    tournament_id: i32,
    id: i32,
    by: &User,
) -> Result<(), DbError> {
    conn.transaction(|conn| {
        let rel = relations_of(conn, tournament_id)?
            .into_iter()
            .find(|r| r.id == id)
            .ok_or(DbError::NotFound("relation in this tournament"))?;
        diesel::delete(relations::table.find(id)).execute(conn)?;
        audit::record(
            conn,
            Some(by.id),
            Change {
                tournament_id: Some(tournament_id),
                action: "remove",
                entity: "relation",
                entity_id: Some(id),
                old_value: Some(format!("{} – {}", rel.a_name, rel.b_name)),
                new_value: None,
            },
        )
    })
}

pub fn relations_of(conn: &mut DbConnection, tournament_id: i32) -> Result<Vec<Relation>, DbError> {
    let rows: Vec<(i32, i32, i32)> = relations::table
        .filter(relations::tournament_id.eq(tournament_id))
        .order(relations::id)
        .select((relations::id, relations::player_a, relations::player_b))
        .load(conn)?;
    let names: std::collections::HashMap<i32, String> = list(conn, tournament_id)?
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect();
    let name = |id: i32| names.get(&id).cloned().unwrap_or_default();
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

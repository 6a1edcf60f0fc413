//! The field of an event: players entered, edited, withdrawn and reinstated, and the relatives kept apart.
//!
//! Each function is the one way in for its step, for the pages and the API
//! alike.

use crate::db::audit::Write;
use crate::db::players::{Player, Relation};
use crate::db::tournaments::Tournament;
use crate::db::{DbConnection, DbError};
use crate::ids::{EntryId, PersonId, TournamentId};
use crate::roster::PlayerFields;

pub fn add_relation(
    w: &mut Write,
    tournament_id: TournamentId,
    a: EntryId,
    b: EntryId,
) -> Result<i32, DbError> {
    crate::db::players::add_relation(w, tournament_id, a, b)
}

pub fn create(
    w: &mut Write,
    tournament_id: TournamentId,
    f: &PlayerFields,
) -> Result<Player, DbError> {
    crate::db::players::create(w, tournament_id, f)
}

/// A player of this tournament; a player of another one is "not found".
/// What the question before withdrawing entry `id` says: the player and
/// the rounds already paired.
pub fn withdrawal(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
    id: EntryId,
) -> Result<(Player, usize), DbError> {
    Ok((
        crate::db::players::find(conn, tournament_id, id)?,
        crate::db::rounds::list(conn, tournament_id)?.len(),
    ))
}

/// The field as its CSV is written: the event, its players and their
/// relatives.
pub fn sheet(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
) -> Result<(Tournament, Vec<Player>, Vec<Relation>), DbError> {
    Ok((
        crate::db::tournaments::find(conn, tournament_id)?,
        crate::db::players::list(conn, tournament_id)?,
        crate::db::players::relations_of(conn, tournament_id)?,
    ))
}

/// An entry as its edit form shows it, with the secret of the player's
/// personal link when one was issued.
pub fn edit(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
    id: EntryId,
) -> Result<(Player, Option<String>), DbError> {
    Ok((
        crate::db::players::find(conn, tournament_id, id)?,
        crate::db::links::key(conn, id)?,
    ))
}

/// The person of the registry a referee named by number (`#12`, `12`) or
/// by federation id, if there is one.
pub fn person_named(
    conn: &mut DbConnection,
    asked: &str,
) -> Result<Option<crate::db::people::Person>, DbError> {
    Ok(match asked.trim().trim_start_matches('#').parse::<i32>() {
        Ok(id) => crate::db::people::find(conn, PersonId(id)).ok(),
        Err(_) => crate::db::people::by_federation_id(conn, asked.trim())?,
    })
}

pub fn find(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
    id: EntryId,
) -> Result<Player, DbError> {
    crate::db::players::find(conn, tournament_id, id)
}

/// Players in entry order (the order late entries get their numbers in).
pub fn list(conn: &mut DbConnection, tournament_id: TournamentId) -> Result<Vec<Player>, DbError> {
    crate::db::players::list(conn, tournament_id)
}

/// Takes back a withdrawal: the player is paired again from the next round.
pub fn reinstate(
    w: &mut Write,
    tournament_id: TournamentId,
    id: EntryId,
) -> Result<Player, DbError> {
    crate::db::players::reinstate(w, tournament_id, id)
}

pub fn remove_relation(w: &mut Write, tournament_id: TournamentId, id: i32) -> Result<(), DbError> {
    crate::db::players::remove_relation(w, tournament_id, id)
}

pub fn update(
    w: &mut Write,
    tournament_id: TournamentId,
    id: EntryId,
    f: &PlayerFields,
) -> Result<Player, DbError> {
    crate::db::players::update(w, tournament_id, id, f)
}

/// Withdraws a player from the next round on; rounds already paired stand.
pub fn withdraw(
    w: &mut Write,
    tournament_id: TournamentId,
    id: EntryId,
) -> Result<Player, DbError> {
    crate::db::players::withdraw(w, tournament_id, id)
}

/// What an import of the field did.
#[derive(Debug)]
pub struct Imported {
    /// The names entered before it, for the page's "already entered" look.
    pub existing: Vec<String>,
    /// The lines as entered, a rating filled in where the registry had one.
    pub listed: Vec<PlayerFields>,
    /// By index into `listed`: the lines no person of the registry matched.
    pub unmatched: Vec<usize>,
    /// Whether this server keeps a registry (one that keeps none is not
    /// told about lines without a federation id).
    pub registry: bool,
}

/// Enters every line of an import, or none (`relatives` are pairs of
/// indices into `players`). A line that names a person of the registry by
/// federation id and gives no rating takes the person's current rating in
/// `book`, as entering the person does.
pub fn import_lines(
    w: &mut Write,
    tournament_id: TournamentId,
    mut players: Vec<PlayerFields>,
    relatives: &[(usize, usize)],
    book: &super::ratings::Book,
) -> Result<Imported, DbError> {
    let existing = crate::db::players::list(w.conn(), tournament_id)?
        .into_iter()
        .map(|p| p.name)
        .collect();
    for p in players.iter_mut().filter(|p| p.rating.is_none()) {
        let person = crate::db::people::by_federation_id(w.conn(), &p.federation_id)?;
        let current = person
            .filter(|x| x.merged_into.is_none())
            .and_then(|x| book.current(x.id));
        p.rating = current.map(|r| r.rating.round() as i32);
    }
    let (_, unmatched) = crate::db::players::import(w, tournament_id, &players, relatives)?;
    Ok(Imported {
        existing,
        listed: players,
        unmatched,
        registry: crate::db::people::count(w.conn())? > 0,
    })
}

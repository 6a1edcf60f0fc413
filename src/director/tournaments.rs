//! An event's life: made, listed, refereed, archived, deleted.
//!
//! Each function is the one way in for its step, for the pages and the API
//! alike.

use crate::db::audit::Write;
use crate::db::tournaments::Tournament;
use crate::db::users::User;
use crate::db::{DbConnection, DbError};
use crate::ids::{TournamentId, UserId};
use crate::tournament::TournamentFields;

pub fn find(conn: &mut DbConnection, id: TournamentId) -> Result<Tournament, DbError> {
    crate::db::tournaments::find(conn, id)
}

pub fn is_referee(
    conn: &mut DbConnection,
    id: TournamentId,
    user_id: UserId,
) -> Result<bool, DbError> {
    crate::db::tournaments::is_referee(conn, id, user_id)
}

/// All tournaments, the most recent first.
pub fn list(conn: &mut DbConnection) -> Result<Vec<Tournament>, DbError> {
    crate::db::tournaments::list(conn)
}

/// A new tournament; a referee who creates one referees it.
pub fn create(w: &mut Write, f: &TournamentFields, creator: &User) -> Result<Tournament, DbError> {
    crate::db::tournaments::create(w, f, creator)
}

/// Deletes the tournament with every row of it, its audit trail included;
/// the deletion is recorded as a change of no tournament (the server's
/// own trail), naming the tournament's id and name. A tournament with a
/// published round is refused, unless it is a published copy of a
/// venue's event (the venue's next publication makes a new copy).
pub fn delete(w: &mut Write, id: TournamentId) -> Result<(), DbError> {
    crate::db::tournaments::delete(w, id)
}

/// Withdraws the tournament from public view (`true`) or returns it; its
/// ratings and seasons are as they were. The same again records nothing.
pub fn set_archived(
    w: &mut Write,
    id: TournamentId,
    archived: bool,
) -> Result<Tournament, DbError> {
    crate::db::tournaments::set_archived(w, id, archived)
}

/// Makes account `user` a referee of event `id` (both must exist).
pub fn assign_referee(w: &mut Write, id: TournamentId, user: UserId) -> Result<(), DbError> {
    crate::db::tournaments::find(w.conn(), id)?;
    let referee = crate::db::users::find(w.conn(), user)?;
    crate::db::tournaments::assign_referee(w, id, &referee)
}

/// Account `user` referees event `id` no longer.
pub fn unassign_referee(w: &mut Write, id: TournamentId, user: UserId) -> Result<(), DbError> {
    let referee = crate::db::users::find(w.conn(), user)?;
    crate::db::tournaments::unassign_referee(w, id, &referee)
}

/// What the question before deleting event `id` says: the event, the
/// rounds paired, and whether it is a venue's published copy.
pub fn deletion(
    conn: &mut DbConnection,
    id: TournamentId,
) -> Result<(Tournament, i32, bool), DbError> {
    Ok((
        crate::db::tournaments::find(conn, id)?,
        crate::db::tournaments::rounds_paired(conn, id)?,
        crate::db::published::of_tournament(conn, id)?.is_some(),
    ))
}

/// Rounds paired so far (published or draft).
pub fn rounds_paired(conn: &mut DbConnection, id: TournamentId) -> Result<i32, DbError> {
    crate::db::tournaments::rounds_paired(conn, id)
}

/// The tournament's change counter: pages built from it stay valid while it
/// does not move. One indexed read, cheap enough for every request.
pub fn revision(conn: &mut DbConnection, id: TournamentId) -> Result<i32, DbError> {
    crate::db::tournaments::revision(conn, id)
}

/// The revisions of several tournaments in one read (the live pages'
/// watcher asks for every tournament someone is looking at).
pub fn revisions(
    conn: &mut DbConnection,
    ids: &[TournamentId],
) -> Result<Vec<(TournamentId, i32)>, DbError> {
    crate::db::tournaments::revisions(conn, ids)
}

/// The archived tournaments' ids.
pub fn archived_ids(conn: &mut DbConnection) -> Result<Vec<TournamentId>, DbError> {
    crate::db::tournaments::archived_ids(conn)
}

/// The tournaments `user_id` referees.
pub fn refereed_by(conn: &mut DbConnection, user_id: UserId) -> Result<Vec<TournamentId>, DbError> {
    crate::db::tournaments::refereed_by(conn, user_id)
}

/// What the tournament page reads, in one go: the event and its field,
/// everything loaded for its rounds, and what only the people who may
/// change it see (the pairs kept apart, where it is published, the
/// accounts an admin could assign).
#[derive(Debug)]
pub struct Page {
    pub t: Tournament,
    pub players: Vec<crate::db::players::Player>,
    pub relations: Vec<crate::db::players::Relation>,
    /// Empty unless the viewer may change the event.
    pub kept_apart: Vec<crate::db::forbidden::Forbidden>,
    pub referees: Vec<User>,
    /// Every account, for an admin; empty for anyone else.
    pub all_users: Vec<User>,
    /// Whether the viewer referees this event.
    pub assigned: bool,
    pub data: super::TournamentData,
    pub published: Option<crate::db::published::Published>,
    /// Only for the people who may change the event.
    pub publication: Option<crate::db::publications::Publication>,
}

/// The tournament page's read for `viewer` (nobody signed in: `None`).
pub fn page(
    conn: &mut DbConnection,
    id: TournamentId,
    viewer: Option<&User>,
) -> Result<Page, DbError> {
    let t = crate::db::tournaments::find(conn, id)?;
    let assigned = match viewer {
        Some(u) => crate::db::tournaments::is_referee(conn, id, u.id)?,
        None => false,
    };
    let admin = viewer.is_some_and(User::is_admin);
    let may_edit = assigned || admin;
    Ok(Page {
        t,
        players: crate::db::players::list(conn, id)?,
        relations: crate::db::players::relations_of(conn, id)?,
        kept_apart: if may_edit {
            crate::db::forbidden::list(conn, id)?
        } else {
            Vec::new()
        },
        referees: crate::db::tournaments::referees(conn, id)?,
        all_users: if admin {
            crate::db::users::list(conn)?
        } else {
            Vec::new()
        },
        assigned,
        data: super::load(conn, id)?,
        published: crate::db::published::of_tournament(conn, id)?,
        publication: if may_edit {
            crate::db::publications::find(conn, id)?
        } else {
            None
        },
    })
}

//! The receiving side of publishing: events a venue's Kraal keeps up to
//! date here, each a read-only tournament under the origin id the venue
//! gave it (docs/publishing.md).

use crate::refusal::Refusal;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::Serialize;

use super::audit::Write;
use super::event::{self, EventFile, Imported};
use super::schema::published;
use super::{now, DbConnection, DbError};
use crate::conflict::{Conflict, Taken};
use crate::db::users::User;
use crate::ids::{TournamentId, UserId};

/// A published event as stored here.
#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = published)]
pub struct Published {
    pub id: i32,
    pub origin_id: String,
    pub tournament_id: TournamentId,
    pub published_by: Option<UserId>,
    /// The venue's name, and its page of the event.
    pub server: String,
    pub link: String,
    /// The venue's revision this copy is of.
    pub revision: i32,
    pub updated_at: NaiveDateTime,
}

/// What a venue sends besides the event file.
#[derive(Debug, Clone)]
pub struct Sent {
    pub origin: String,
    pub revision: i32,
    pub server: String,
    pub link: String,
}

/// What receiving did.
#[derive(Debug, Clone)]
pub enum Received {
    /// The event is stored (new here, or its copy replaced).
    Stored {
        tournament: TournamentId,
        imported: Imported,
    },
    /// This revision, or a newer one, is here already: nothing changed.
    Unchanged {
        tournament: TournamentId,
        revision: i32,
    },
}

pub fn of_tournament(
    conn: &mut DbConnection,
    tid: TournamentId,
) -> Result<Option<Published>, DbError> {
    Ok(published::table
        .filter(published::tournament_id.eq(tid))
        .select(Published::as_select())
        .first(conn)
        .optional()?)
}

pub fn all(conn: &mut DbConnection) -> Result<Vec<Published>, DbError> {
    Ok(published::table
        .order(published::id)
        .select(Published::as_select())
        .load(conn)?)
}

/// Stores revision `sent.revision` of the event `sent.origin`: the whole
/// replacement in the caller's one transaction. The same revision again,
/// or an older one after a newer, changes nothing; an origin another
/// account publishes is refused. Sends of one origin that cross are taken
/// one after the other (the origin is locked until the transaction ends),
/// so each sees what the one before stored and the newest revision is the
/// one that stays.
pub fn receive(
    w: &mut Write,
    sent: &Sent,
    by: &User,
    file: &EventFile,
) -> Result<Received, DbError> {
    super::lock_key(w.conn(), &format!("published {}", sent.origin))?;
    let known: Option<Published> = published::table
        .filter(published::origin_id.eq(&sent.origin))
        .select(Published::as_select())
        .first(w.conn())
        .optional()?;
    let imported = match &known {
        Some(p) if p.published_by.is_some_and(|u| u != by.id) => {
            return Err(DbError::Refused(Refusal::Conflict(Conflict::Taken(
                Taken::Origin {
                    origin: sent.origin.clone(),
                },
            ))));
        }
        Some(p) if p.revision >= sent.revision => {
            return Ok(Received::Unchanged {
                tournament: p.tournament_id,
                revision: p.revision,
            });
        }
        Some(p) => event::replace(w, file, p.tournament_id, Some(&sent.origin))?,
        None => event::import(w, file, Some(&sent.origin))?,
    };
    let tid = imported.tournament;
    let row = (
        published::origin_id.eq(&sent.origin),
        published::tournament_id.eq(tid),
        published::published_by.eq(Some(by.id)),
        published::server.eq(&sent.server),
        published::link.eq(&sent.link),
        published::revision.eq(sent.revision),
        published::updated_at.eq(now()),
    );
    match known {
        Some(p) => {
            diesel::update(published::table.find(p.id))
                .set(row)
                .execute(w.conn())?;
        }
        None => {
            diesel::insert_into(published::table)
                .values(row)
                .execute(w.conn())
                .map_err(|e| {
                    super::classify(
                        e,
                        Taken::Origin {
                            origin: sent.origin.clone(),
                        },
                    )
                })?;
        }
    }
    Ok(Received::Stored {
        tournament: tid,
        imported,
    })
}

/// The copy of the event a venue publishes as `origin`, if it is here.
pub fn by_origin(conn: &mut DbConnection, origin: &str) -> Result<Option<Published>, DbError> {
    Ok(published::table
        .filter(published::origin_id.eq(origin))
        .select(Published::as_select())
        .first(conn)
        .optional()?)
}

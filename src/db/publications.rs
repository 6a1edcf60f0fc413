//! The venue's side of publishing: where each tournament is published to,
//! with the token the target needs, and what the target last acknowledged
//! (docs/publishing.md). The token is stored as it is sent (the target
//! needs it as it is) and goes nowhere else: not in a change, a log line,
//! an answer or the event file.

use crate::refusal::{Refusal, Thing};
use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::audit::Write;
use super::schema::{publications, tournaments};
use super::{now, DbConnection, DbError};
use crate::change::{Action, Change, Entity};
use crate::ids::TournamentId;

/// A tournament's publication settings and state.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = publications)]
pub struct Publication {
    pub id: i32,
    pub tournament_id: TournamentId,
    /// The event's id at the target, the same for every revision sent.
    pub origin_id: String,
    /// The target server's address (`https://federation.example`).
    pub target: String,
    pub token: String,
    pub active: bool,
    /// The tournament's revision the target last acknowledged.
    pub published_revision: Option<i32>,
    pub last_success_at: Option<NaiveDateTime>,
    pub last_error: Option<String>,
    /// Failed sends in a row since the last success.
    pub failures: i32,
    /// When the sender last tried the target (none since a referee's
    /// "Send now"): with `failures`, when it tries next.
    pub last_attempt_at: Option<NaiveDateTime>,
}

pub fn find(conn: &mut DbConnection, tid: TournamentId) -> Result<Option<Publication>, DbError> {
    Ok(publications::table
        .filter(publications::tournament_id.eq(tid))
        .select(Publication::as_select())
        .first(conn)
        .optional()?)
}

/// A new origin id: 128 random bits, so two venues never collide.
fn new_origin() -> String {
    let mut bytes = [0u8; 16];
    rand::RngCore::fill_bytes(&mut rand::rng(), &mut bytes);
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("k{hex}")
}

/// Publishes tournament `tid` to `target` with `token` from now on. The
/// origin id is kept from an earlier setting (the target knows the event by
/// it); a new target starts from nothing acknowledged.
pub fn set(
    w: &mut Write,
    tid: TournamentId,
    target: &str,
    token: &str,
) -> Result<Publication, DbError> {
    let known = find(w.conn(), tid)?;
    match &known {
        Some(p) => {
            let moved = p.target != target;
            diesel::update(publications::table.find(p.id))
                .set((
                    publications::target.eq(target),
                    publications::token.eq(token),
                    publications::active.eq(true),
                    publications::failures.eq(0),
                    publications::last_error.eq(None::<String>),
                ))
                .execute(w.conn())?;
            if moved {
                diesel::update(publications::table.find(p.id))
                    .set(publications::published_revision.eq(None::<i32>))
                    .execute(w.conn())?;
                // The new target has no game's records either.
                diesel::delete(
                    super::schema::live_sent::table
                        .filter(super::schema::live_sent::publication_id.eq(p.id)),
                )
                .execute(w.conn())?;
            }
        }
        None => {
            diesel::insert_into(publications::table)
                .values((
                    publications::tournament_id.eq(tid),
                    publications::origin_id.eq(new_origin()),
                    publications::target.eq(target),
                    publications::token.eq(token),
                    publications::active.eq(true),
                    publications::failures.eq(0),
                ))
                .execute(w.conn())?;
        }
    }
    w.record(
        Change::new(Some(tid), Action::PublishTo, Entity::Tournament, Some(tid))
            .old(known.map(|p| p.target).unwrap_or_default())
            .new_value(target),
    );
    find(w.conn(), tid)?.ok_or(DbError::Refused(Refusal::NotFound(Thing::Publication)))
}

/// Stops publishing tournament `tid` (the settings stay, for a restart).
pub fn stop(w: &mut Write, tid: TournamentId) -> Result<(), DbError> {
    let Some(p) = find(w.conn(), tid)?.filter(|p| p.active) else {
        return Ok(());
    };
    diesel::update(publications::table.find(p.id))
        .set(publications::active.eq(false))
        .execute(w.conn())?;
    w.record(
        Change::new(
            Some(tid),
            Action::StopPublishing,
            Entity::Tournament,
            Some(tid),
        )
        .old(p.target),
    );
    Ok(())
}

/// The active publications whose tournament moved past what the target
/// acknowledged, with the tournament's revision now.
/// Every active publication, with its tournament's revision now.
pub fn active(conn: &mut DbConnection) -> Result<Vec<(Publication, i32)>, DbError> {
    Ok(publications::table
        .inner_join(tournaments::table)
        .filter(publications::active.eq(true))
        .order(publications::id)
        .select((Publication::as_select(), tournaments::revision))
        .load(conn)?)
}

pub fn due(conn: &mut DbConnection) -> Result<Vec<(Publication, i32)>, DbError> {
    let rows: Vec<(Publication, i32)> = publications::table
        .inner_join(tournaments::table)
        .filter(publications::active.eq(true))
        .order(publications::id)
        .select((Publication::as_select(), tournaments::revision))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter(|(p, revision)| p.published_revision.is_none_or(|r| r < *revision))
        .collect())
}

/// The target `target` acknowledged `revision` (bookkeeping of the
/// sender, not a change to the event: it records nothing and moves no
/// revision). Nothing is stored if the publication has been pointed at
/// another target meanwhile: that one has not seen the revision.
pub fn acknowledged(
    conn: &mut DbConnection,
    id: i32,
    target: &str,
    revision: i32,
) -> Result<(), DbError> {
    diesel::update(
        publications::table
            .find(id)
            .filter(publications::target.eq(target)),
    )
    .set((
        publications::published_revision.eq(Some(revision)),
        publications::last_success_at.eq(Some(now())),
        publications::last_error.eq(None::<String>),
        publications::failures.eq(0),
        publications::last_attempt_at.eq(Some(now())),
    ))
    .execute(conn)?;
    Ok(())
}

/// A send failed with `error`: the sender's own words for it (the status
/// and a short reason, never the target's text).
pub fn failed(conn: &mut DbConnection, id: i32, error: &str) -> Result<(), DbError> {
    diesel::update(publications::table.find(id))
        .set((
            publications::last_error.eq(Some(error)),
            publications::failures.eq(publications::failures + 1),
            publications::last_attempt_at.eq(Some(now())),
        ))
        .execute(conn)?;
    Ok(())
}

/// A referee's "Send now": the failures in a row and the last try are
/// cleared, so the sender's wait starts again from its shortest and the
/// next try is due at once. The error stays until a send succeeds.
pub fn send_now(w: &mut Write, tid: TournamentId) -> Result<(), DbError> {
    let Some(p) = find(w.conn(), tid)?.filter(|p| p.active) else {
        return Err(DbError::Refused(Refusal::NotFound(Thing::Publication)));
    };
    diesel::update(publications::table.find(p.id))
        .set((
            publications::failures.eq(0),
            publications::last_attempt_at.eq(None::<NaiveDateTime>),
        ))
        .execute(w.conn())?;
    w.record(
        Change::new(Some(tid), Action::SendNow, Entity::Tournament, Some(tid))
            .old(p.failures.to_string())
            .new_value(p.target),
    );
    Ok(())
}

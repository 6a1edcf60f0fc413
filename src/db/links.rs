//! Players' personal links: one per player per event.
//!
//! A link's key is derived from the installation's secret, the player and
//! the link's version, so the referee can print it again at any time
//! without the key being stored: the row keeps only the key's digest, and
//! a revoked link has none. Renewing moves the version on, which makes a
//! new key and leaves the old one dead. A key is found by its digest, so a
//! wrong key costs one indexed look-up whatever it is, right player or not.

use crate::refusal::{Refusal, Thing};
use diesel::prelude::*;

use super::audit::Write;
use super::schema::players;
use super::{settings, DbConnection, DbError};
use crate::accounts::token_digest;
use crate::change::{Action, Change, Entity};
use crate::ids::{EntryId, TournamentId};

/// The installation's secret behind every player link (the pairing links
/// of `director::scoresheets` use the same).
fn secret(conn: &mut DbConnection) -> Result<String, DbError> {
    settings::get_or_insert(conn, "player_link_secret", crate::accounts::new_token)
}

/// The key of `player`'s link at `version`: 32 hex digits.
fn key_of(secret: &str, player: EntryId, version: i32) -> String {
    token_digest(&format!("{secret}:player:{player}:{version}"))[..32].to_string()
}

/// Gives `player` a link: the next version, and its digest stored.
pub(super) fn issue(conn: &mut DbConnection, player: EntryId) -> Result<(), DbError> {
    let secret = secret(conn)?;
    let version: i32 = players::table
        .find(player)
        .select(players::link_version)
        .first(conn)?;
    let key = key_of(&secret, player, version + 1);
    diesel::update(players::table.find(player))
        .set((
            players::link_version.eq(version + 1),
            players::link_digest.eq(Some(token_digest(&key))),
        ))
        .execute(conn)?;
    Ok(())
}

/// Gives a link to every player who never had one (players entered before
/// links existed): part of migrating, since SQL cannot make the digests.
pub fn issue_missing(conn: &mut DbConnection) -> Result<usize, DbError> {
    let ids: Vec<EntryId> = players::table
        .filter(players::link_version.eq(0))
        .select(players::id)
        .load(conn)?;
    for &id in &ids {
        issue(conn, id)?;
    }
    Ok(ids.len())
}

/// The key of `player`'s link, or `None` while it is revoked.
pub fn key(conn: &mut DbConnection, player: EntryId) -> Result<Option<String>, DbError> {
    Ok(keys(conn, &[player])?.into_iter().next().flatten())
}

/// The keys of these players' links, in their order (`None`: revoked).
pub fn keys(conn: &mut DbConnection, ids: &[EntryId]) -> Result<Vec<Option<String>>, DbError> {
    let secret = secret(conn)?;
    let rows: Vec<(EntryId, i32, Option<String>)> = players::table
        .filter(players::id.eq_any(ids))
        .select((players::id, players::link_version, players::link_digest))
        .load(conn)?;
    Ok(ids
        .iter()
        .map(|id| {
            let (_, version, digest) = rows.iter().find(|r| r.0 == *id)?;
            let key = key_of(&secret, *id, *version);
            // A digest that is not this key's (the secret was replaced)
            // is a link nobody can open: say so rather than print it.
            (digest.as_deref() == Some(token_digest(&key).as_str())).then_some(key)
        })
        .collect())
}

/// The player (and their tournament) whose live link `key` is.
pub fn find(
    conn: &mut DbConnection,
    key: &str,
) -> Result<Option<(EntryId, TournamentId)>, DbError> {
    let digest = token_digest(key);
    Ok(players::table
        .filter(players::link_digest.eq(digest))
        .select((players::id, players::tournament_id))
        .first(conn)
        .optional()?)
}

/// Revokes `player`'s link: no key opens it until it is renewed.
pub fn revoke(w: &mut Write, tournament: TournamentId, player: EntryId) -> Result<(), DbError> {
    let n = diesel::update(
        players::table
            .find(player)
            .filter(players::tournament_id.eq(tournament)),
    )
    .set(players::link_digest.eq(None::<String>))
    .execute(w.conn())?;
    if n == 0 {
        return Err(DbError::Refused(Refusal::NotFound(Thing::Player)));
    }
    w.record(
        Change::new(
            Some(tournament),
            Action::RevokeLink,
            Entity::Player,
            Some(player),
        )
        .players([player]),
    );
    Ok(())
}

/// Gives `player` a new link; the old one stops working.
pub fn renew(w: &mut Write, tournament: TournamentId, player: EntryId) -> Result<String, DbError> {
    let found: Option<EntryId> = players::table
        .find(player)
        .filter(players::tournament_id.eq(tournament))
        .select(players::id)
        .first(w.conn())
        .optional()?;
    if found.is_none() {
        return Err(DbError::Refused(Refusal::NotFound(Thing::Player)));
    }
    issue(w.conn(), player)?;
    w.record(
        Change::new(
            Some(tournament),
            Action::RenewLink,
            Entity::Player,
            Some(player),
        )
        .players([player]),
    );
    key(w.conn(), player)?.ok_or(DbError::Refused(Refusal::NotFound(Thing::PlayerLink)))
}

//! Pairs the referee keeps apart (in every round or a range of rounds), and
//! the waivers that let such a pair meet after all.

use crate::refusal::Refusal;
use diesel::prelude::*;
use serde::Serialize;

use super::audit::Write;
use super::schema::forbidden_pairs;
use super::{found, now, players, tournaments, DbConnection, DbError};
use crate::change::{Action, Change, Entity};
use crate::ids::{EntryId, RoundNo, TournamentId};
use crate::roster::kept_apart::{self, Ban, Named, Rounds};

/// One kept-apart pair, with the players' names. `a < b`.
#[derive(Debug, Clone, Serialize)]
pub struct Forbidden {
    pub id: i32,
    pub a: EntryId,
    pub a_name: String,
    pub b: EntryId,
    pub b_name: String,
    /// First round of the ban; `None` means round 1.
    pub from_round: Option<i32>,
    /// Last round of the ban; `None` means the last round.
    pub to_round: Option<i32>,
    /// The referee allows the pair to meet despite the ban.
    pub waived: bool,
    /// Why the ban is waived (empty while it is not).
    pub note: String,
}

impl Forbidden {
    /// The rounds the ban covers.
    pub fn rounds(&self) -> Rounds {
        Rounds::new(self.from_round, self.to_round)
    }

    /// Whether the ban covers round `n`.
    pub fn covers(&self, n: RoundNo) -> bool {
        self.rounds().covers(n.0)
    }

    fn summary(&self) -> String {
        // The audit's record of the ban: its rounds as numbers, from
        // round 1 when it has no first, to `…` (the last) when no last.
        let to = self.to_round.map_or("…".to_string(), |n| n.to_string());
        format!(
            "{} – {}, rounds {}-{to}",
            self.a_name,
            self.b_name,
            self.from_round.unwrap_or(1)
        )
    }
}

/// A pair to keep apart, as asked for; `None` rounds mean "from the first"
/// and "to the last".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewForbidden {
    pub a: EntryId,
    pub b: EntryId,
    pub from_round: Option<i32>,
    pub to_round: Option<i32>,
}

type Row = (
    i32,
    EntryId,
    EntryId,
    Option<i32>,
    Option<i32>,
    bool,
    String,
);

fn columns() -> (
    forbidden_pairs::id,
    forbidden_pairs::player_a,
    forbidden_pairs::player_b,
    forbidden_pairs::from_round,
    forbidden_pairs::to_round,
    forbidden_pairs::waived,
    forbidden_pairs::note,
) {
    (
        forbidden_pairs::id,
        forbidden_pairs::player_a,
        forbidden_pairs::player_b,
        forbidden_pairs::from_round,
        forbidden_pairs::to_round,
        forbidden_pairs::waived,
        forbidden_pairs::note,
    )
}

fn with_names(
    rows: Vec<Row>,
    names: &std::collections::HashMap<EntryId, String>,
) -> Vec<Forbidden> {
    let name = |id: EntryId| names.get(&id).cloned().unwrap_or_default();
    rows.into_iter()
        .map(|(id, a, b, from_round, to_round, waived, note)| Forbidden {
            id,
            a,
            a_name: name(a),
            b,
            b_name: name(b),
            from_round,
            to_round,
            waived,
            note,
        })
        .collect()
}

/// Every kept-apart pair of a tournament, in the order they were added.
pub fn list(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
) -> Result<Vec<Forbidden>, DbError> {
    let rows: Vec<Row> = forbidden_pairs::table
        .filter(forbidden_pairs::tournament_id.eq(tournament_id))
        .order(forbidden_pairs::id)
        .select(columns())
        .load(conn)?;
    let names = players::list(conn, tournament_id)?
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect();
    Ok(with_names(rows, &names))
}

/// One kept-apart pair of this tournament; another tournament's is "not found".
pub fn find(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
    id: i32,
) -> Result<Forbidden, DbError> {
    let row: Row = forbidden_pairs::table
        .filter(forbidden_pairs::id.eq(id))
        .filter(forbidden_pairs::tournament_id.eq(tournament_id))
        .select(columns())
        .first(conn)
        .map_err(|e| found(e, crate::refusal::Thing::KeptApartPair))?;
    let mut names = std::collections::HashMap::new();
    for p in [row.1, row.2] {
        names.insert(p, players::find(conn, tournament_id, p)?.name);
    }
    Ok(with_names(vec![row], &names).remove(0))
}

/// A player asked for, or `None` when the tournament has no such player.
fn player(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
    id: EntryId,
) -> Result<Option<players::Player>, DbError> {
    match players::find(conn, tournament_id, id) {
        Ok(p) => Ok(Some(p)),
        Err(DbError::Refused(Refusal::NotFound(_))) => Ok(None),
        Err(other) => Err(other),
    }
}

/// Keeps two players of the tournament apart in the rounds asked for.
pub fn add(
    w: &mut Write,
    tournament_id: TournamentId,
    new: NewForbidden,
) -> Result<Forbidden, DbError> {
    let by = w.by();
    let conn = w.conn();
    let t = tournaments::find(conn, tournament_id)?;
    let pa = player(conn, tournament_id, new.a)?;
    let pb = player(conn, tournament_id, new.b)?;
    let bans: Vec<Ban> = list(conn, tournament_id)?
        .iter()
        .map(|f| Ban {
            a: f.a.0,
            b: f.b.0,
            rounds: f.rounds(),
        })
        .collect();
    fn named(p: &players::Player) -> Named<'_> {
        Named {
            id: p.id.0,
            name: &p.name,
        }
    }
    let (a, b) = kept_apart::check_new(
        pa.as_ref().map(named),
        pb.as_ref().map(named),
        Rounds::new(new.from_round, new.to_round),
        &bans,
        t.last_round(),
    )?;
    let (a, b) = (EntryId(a), EntryId(b));
    let id: i32 = diesel::insert_into(forbidden_pairs::table)
        .values((
            forbidden_pairs::tournament_id.eq(tournament_id),
            forbidden_pairs::player_a.eq(a),
            forbidden_pairs::player_b.eq(b),
            forbidden_pairs::from_round.eq(new.from_round),
            forbidden_pairs::to_round.eq(new.to_round),
            forbidden_pairs::waived.eq(false),
            forbidden_pairs::note.eq(""),
            forbidden_pairs::created_by.eq(by),
            forbidden_pairs::created_at.eq(now()),
        ))
        .returning(forbidden_pairs::id)
        .get_result(conn)?;
    let added = find(conn, tournament_id, id)?;
    w.record(
        Change::new(
            Some(tournament_id),
            Action::Add,
            Entity::KeptApart,
            Some(id),
        )
        .players([a, b])
        .new_value(added.summary()),
    );
    Ok(added)
}

/// Lifts a ban altogether.
pub fn remove(w: &mut Write, tournament_id: TournamentId, id: i32) -> Result<(), DbError> {
    let old = find(w.conn(), tournament_id, id)?;
    diesel::delete(forbidden_pairs::table.find(id)).execute(w.conn())?;
    w.record(
        Change::new(
            Some(tournament_id),
            Action::Remove,
            Entity::KeptApart,
            Some(id),
        )
        .players([old.a, old.b])
        .old(old.summary()),
    );
    Ok(())
}

/// Records that the referee lets the pair meet despite the ban, and why.
/// Waiving again replaces the reason.
pub fn waive(
    w: &mut Write,
    tournament_id: TournamentId,
    id: i32,
    reason: &str,
) -> Result<Forbidden, DbError> {
    let reason = reason.trim().to_string();
    crate::roster::check_printable("reason", &reason)?;
    let conn = w.conn();
    let old = find(conn, tournament_id, id)?;
    kept_apart::check_reason(&reason)?;
    diesel::update(forbidden_pairs::table.find(id))
        .set((
            forbidden_pairs::waived.eq(true),
            forbidden_pairs::note.eq(&reason),
        ))
        .execute(conn)?;
    let mut c = Change::new(
        Some(tournament_id),
        Action::Waive,
        Entity::KeptApart,
        Some(id),
    )
    .players([old.a, old.b])
    .new_value(format!("{}: {reason}", old.summary()));
    c.old_value = old.waived.then(|| old.note.clone());
    w.record(c);
    find(w.conn(), tournament_id, id)
}

/// Takes a waiver back: the pair is kept apart again.
pub fn clear_waiver(
    w: &mut Write,
    tournament_id: TournamentId,
    id: i32,
) -> Result<Forbidden, DbError> {
    let conn = w.conn();
    let old = find(conn, tournament_id, id)?;
    kept_apart::check_clear_waiver(&old.a_name, &old.b_name, old.waived)?;
    diesel::update(forbidden_pairs::table.find(id))
        .set((
            forbidden_pairs::waived.eq(false),
            forbidden_pairs::note.eq(""),
        ))
        .execute(conn)?;
    w.record(
        Change::new(
            Some(tournament_id),
            Action::ClearWaiver,
            Entity::KeptApart,
            Some(id),
        )
        .players([old.a, old.b])
        .old(format!("{}: {}", old.summary(), old.note)),
    );
    find(w.conn(), tournament_id, id)
}

//! Pairs the referee keeps apart (in every round or a range of rounds), and
//! the waivers that let such a pair meet after all.

use diesel::prelude::*;
use serde::Serialize;

use super::audit::Write;
use super::schema::forbidden_pairs;
use super::{found, now, players, tournaments, DbConnection, DbError};
use crate::change::{Action, Change, Entity};

/// One kept-apart pair, with the players' names. `a < b`.
#[derive(Debug, Clone, Serialize)]
pub struct Forbidden {
    pub id: i32,
    pub a: i32,
    pub a_name: String,
    pub b: i32,
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
    /// The rounds the ban covers, as a referee reads them.
    pub fn rounds_label(&self) -> String {
        range_label(self.from_round, self.to_round)
    }

    /// Whether the ban covers round `n`.
    pub fn covers(&self, n: i32) -> bool {
        self.from_round.is_none_or(|f| n >= f) && self.to_round.is_none_or(|t| n <= t)
    }

    fn summary(&self) -> String {
        format!("{} – {}, {}", self.a_name, self.b_name, self.rounds_label())
    }
}

fn range_label(from: Option<i32>, to: Option<i32>) -> String {
    match (from, to) {
        (None, None) => "all rounds".into(),
        (Some(f), Some(t)) if f == t => format!("round {f}"),
        (Some(f), Some(t)) => format!("rounds {f}-{t}"),
        (Some(f), None) => format!("from round {f}"),
        (None, Some(t)) => format!("rounds 1-{t}"),
    }
}

/// A pair to keep apart, as asked for; `None` rounds mean "from the first"
/// and "to the last".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewForbidden {
    pub a: i32,
    pub b: i32,
    pub from_round: Option<i32>,
    pub to_round: Option<i32>,
}

type Row = (i32, i32, i32, Option<i32>, Option<i32>, bool, String);

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

fn with_names(rows: Vec<Row>, names: &std::collections::HashMap<i32, String>) -> Vec<Forbidden> {
    let name = |id: i32| names.get(&id).cloned().unwrap_or_default();
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
pub fn list(conn: &mut DbConnection, tournament_id: i32) -> Result<Vec<Forbidden>, DbError> {
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
pub fn find(conn: &mut DbConnection, tournament_id: i32, id: i32) -> Result<Forbidden, DbError> {
    let row: Row = forbidden_pairs::table
        .filter(forbidden_pairs::id.eq(id))
        .filter(forbidden_pairs::tournament_id.eq(tournament_id))
        .select(columns())
        .first(conn)
        .map_err(|e| found(e, "kept-apart pair in this tournament"))?;
    let mut names = std::collections::HashMap::new();
    for p in [row.1, row.2] {
        names.insert(p, players::find(conn, tournament_id, p)?.name);
    }
    Ok(with_names(vec![row], &names).remove(0))
}

fn invalid(field: &'static str, message: String) -> DbError {
    DbError::Invalid { field, message }
}

/// Keeps two players of the tournament apart in the rounds asked for.
pub fn add(w: &mut Write, tournament_id: i32, new: NewForbidden) -> Result<Forbidden, DbError> {
    let by = w.by();
    let conn = w.conn();
    {
        let t = tournaments::find(conn, tournament_id)?;
        let pa = players::find(conn, tournament_id, new.a).map_err(|e| match e {
            DbError::NotFound(_) => invalid("a", "player A is not in this tournament".into()),
            other => other,
        })?;
        let pb = players::find(conn, tournament_id, new.b).map_err(|e| match e {
            DbError::NotFound(_) => invalid("b", "player B is not in this tournament".into()),
            other => other,
        })?;
        if pa.id == pb.id {
            return Err(invalid(
                "b",
                format!(
                    "player B is {} again: choose two different players",
                    pb.name
                ),
            ));
        }
        crate::roster::check_round_range(new.from_round, new.to_round, t.last_round())?;
        let (a, b) = (pa.id.min(pb.id), pa.id.max(pb.id));
        let range = Forbidden {
            id: 0,
            a,
            a_name: String::new(),
            b,
            b_name: String::new(),
            from_round: new.from_round,
            to_round: new.to_round,
            waived: false,
            note: String::new(),
        };
        let first = new.from_round.unwrap_or(1);
        let last = new.to_round.unwrap_or(t.last_round());
        if let Some(old) = list(conn, tournament_id)?
            .into_iter()
            .find(|f| f.a == a && f.b == b && (first..=last).any(|n| f.covers(n)))
        {
            return Err(invalid(
                "b",
                format!(
                    "{} and {} are already kept apart ({}), which overlaps {}",
                    pa.name,
                    pb.name,
                    old.rounds_label(),
                    range.rounds_label()
                ),
            ));
        }
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
}

/// Lifts a ban altogether.
pub fn remove(w: &mut Write, tournament_id: i32, id: i32) -> Result<(), DbError> {
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
    tournament_id: i32,
    id: i32,
    reason: &str,
) -> Result<Forbidden, DbError> {
    let reason = reason.trim().to_string();
    if let Err(e) = crate::roster::check_printable("reason", "reason", &reason) {
        return Err(invalid(e.field, e.message));
    }
    let conn = w.conn();
    {
        let old = find(conn, tournament_id, id)?;
        if reason.is_empty() {
            return Err(invalid(
                "reason",
                "the reason is empty: say why the pair may meet".into(),
            ));
        }
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
}

/// Takes a waiver back: the pair is kept apart again.
pub fn clear_waiver(w: &mut Write, tournament_id: i32, id: i32) -> Result<Forbidden, DbError> {
    let conn = w.conn();
    {
        let old = find(conn, tournament_id, id)?;
        if !old.waived {
            return Err(DbError::Conflict(format!(
                "{} and {} have no waiver",
                old.a_name, old.b_name
            )));
        }
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
}

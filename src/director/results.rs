//! Saving results: the one use case behind the results page, the quick
//! entry box and `PUT /api/v1/games/{id}`.

use crate::db::rounds::{self, Conflict, EditOutcome, Game};
use crate::db::users::User;
use crate::db::{self, tournaments, DbConnection, DbError};
use crate::results::ResultEdit;

/// What a save did.
#[derive(Debug, Clone, Default)]
pub struct SaveReport {
    /// Games whose result changed.
    pub saved: Vec<Game>,
    /// Games that already said what was asked.
    pub unchanged: Vec<Game>,
    /// Games changed by someone else since the person saving saw them.
    pub conflicts: Vec<Conflict>,
    /// Knock-out tables left level that got a new tiebreak set (OGR 9.4).
    pub new_tiebreak_sets: Vec<i32>,
}

/// Saves the edits of tournament `tournament_id` in one transaction. Each
/// edit stands alone: a conflict on one game is reported and the others are
/// still saved. A game of another tournament is not found.
pub fn save(
    conn: &mut DbConnection,
    tournament_id: i32,
    edits: &[ResultEdit],
    by: &User,
) -> Result<SaveReport, DbError> {
    db::transaction(conn, |conn| {
        let mut report = SaveReport::default();
        let mut rounds_touched = Vec::new();
        for edit in edits {
            let ctx = rounds::game_context(conn, edit.game)?;
            if ctx.round.tournament_id != tournament_id {
                return Err(DbError::NotFound("game"));
            }
            if !ctx.round.is_published() {
                return Err(DbError::Conflict(format!(
                    "round {} is a draft: publish it before entering results",
                    ctx.round.number
                )));
            }
            match rounds::apply_edit(conn, edit, by)? {
                EditOutcome::Saved(g) => {
                    if !rounds_touched.contains(&ctx.round.number) {
                        rounds_touched.push(ctx.round.number);
                    }
                    report.saved.push(g);
                }
                EditOutcome::Unchanged(g) => report.unchanged.push(g),
                EditOutcome::Conflict(c) => report.conflicts.push(c),
            }
        }
        for n in rounds_touched {
            report
                .new_tiebreak_sets
                .extend(add_tiebreak_sets(conn, tournament_id, n)?);
        }
        Ok(report)
    })
}

/// After results of a knock-out round change: every pairing left level
/// after all its games gets its next tiebreak set (OGR 9.4). Returns the
/// tables that got one.
fn add_tiebreak_sets(
    conn: &mut DbConnection,
    tournament_id: i32,
    number: i32,
) -> Result<Vec<i32>, DbError> {
    let data = super::load(conn, tournament_id)?;
    let Some(round) = data.rounds.iter().find(|x| x.number == number) else {
        return Ok(Vec::new());
    };
    let mut tables = Vec::new();
    for p in data.pairings_of(round) {
        if let Some(games) = data.tiebreak_games_needed(p) {
            rounds::add_games(conn, p.id, &games, true)?;
            tournaments::bump_revision(conn, tournament_id)?;
            tables.push(p.table_no);
        }
    }
    Ok(tables)
}

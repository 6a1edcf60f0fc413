//! The one conversion of the pairings' explanations stored before they
//! were values: their sentences are read back as the values that now stand
//! for them (`pairing::explain::legacy`) and stored so, once.

use diesel::prelude::*;

use super::schema::{pairings, settings};
use super::{DbConnection, DbError};
use crate::pairing::explain::legacy;

/// The settings key the migration `2026-11-29-000039_explanation_values`
/// stores as `pending`; the conversion sets it to `done`.
const MARKER: &str = "explanations_as_values";

/// How many pairings are read at a time.
const BATCH: i64 = 500;

/// Rewrites every pairing whose stored explanation holds a sentence where
/// a value now stands (or is no explanation at all) with the values the
/// sentences read as: run at every start after the migrations, it works
/// only while the marker its migration left is `pending`, and sets it to
/// `done` in the same transaction, so it runs once and wholly or not at
/// all; a second process starting beside it finds the marker taken. It
/// records no change: the explanations say what they said, as values. The
/// number of pairings rewritten.
pub fn rewrite_sentences(conn: &mut DbConnection) -> Result<usize, DbError> {
    super::transaction(conn, |conn| {
        let claimed = diesel::update(
            settings::table
                .find(MARKER)
                .filter(settings::value.eq("pending")),
        )
        .set(settings::value.eq("done"))
        .execute(conn)?;
        if claimed == 0 {
            return Ok(0);
        }
        let mut after = 0;
        let mut rewritten = 0;
        loop {
            let rows: Vec<(i32, String)> = pairings::table
                .filter(pairings::id.gt(after))
                .filter(pairings::explanation.ne(""))
                .order(pairings::id)
                .select((pairings::id, pairings::explanation))
                .limit(BATCH)
                .load(conn)?;
            let Some(&(last, _)) = rows.last() else {
                break;
            };
            after = last;
            for (id, stored) in rows.iter().filter(|(_, s)| legacy::needs_reading(s)) {
                let values = legacy::read(stored)
                    .and_then(|e| serde_json::to_string(&e).ok())
                    .unwrap_or_default();
                diesel::update(pairings::table.find(id))
                    .set(pairings::explanation.eq(values))
                    .execute(conn)?;
                rewritten += 1;
            }
        }
        if rewritten > 0 {
            tracing::info!(
                rewritten,
                "explanations stored as sentences now stored as values"
            );
        }
        Ok(rewritten)
    })
}

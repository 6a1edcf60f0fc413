//! The records of games (scoresheets) and the referees' rulings on them.
//!
//! A record is never changed: a new one for the same game and side
//! supersedes it (`superseded_at`), and both stay. A record sent through
//! the players' link keeps the last [`NewSheet::keep_superseded`] earlier
//! versions of its side; older ones are dropped.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::Serialize;

use super::audit::Write;
use super::schema::{games, pairings, rounds, rulings, scoresheets, users};
use super::users::User;
use super::{now, DbConnection, DbError};
use crate::change::{Action, Change, Entity};
use crate::ids::{GameId, TournamentId, UserId};
use crate::results::GameResult;
use crate::tournament::{RecordSide, RuleSet, RulingKind};

/// One stored record, as sent.
#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = scoresheets)]
pub struct Sheet {
    pub id: i32,
    pub game_id: GameId,
    #[diesel(deserialize_as = String)]
    pub side: RecordSide,
    /// The text exactly as sent.
    pub text: String,
    /// The rule set it was checked under on arrival.
    #[diesel(deserialize_as = String)]
    pub rules: RuleSet,
    /// The reading error it got on arrival (line and column), if any.
    pub error: Option<String>,
    pub submitted_by: Option<UserId>,
    /// Sent through the pairing's player link rather than by an account.
    pub by_link: bool,
    pub submitted_at: NaiveDateTime,
    pub superseded_at: Option<NaiveDateTime>,
}

/// A record with the name of the account that sent it.
#[derive(Debug, Clone)]
pub struct SheetBy {
    pub sheet: Sheet,
    pub by: Option<String>,
}

/// A new record to store.
pub struct NewSheet<'a> {
    pub tournament_id: TournamentId,
    pub game_id: GameId,
    pub side: RecordSide,
    pub text: &'a str,
    pub rules: RuleSet,
    pub error: Option<String>,
    /// The account that sends it; `None` through the player link.
    pub by: Option<&'a User>,
    /// What the audit trail says of it ("84 plies, clean").
    pub summary: String,
    /// Keep at most this many superseded records of the game and side
    /// (the newest); `None` keeps every one.
    pub keep_superseded: Option<usize>,
    /// Refuse the record if the game's records would then hold more than
    /// this many bytes of text; `None` takes any.
    pub max_game_bytes: Option<usize>,
}

/// Stores a record, superseding the current record of the same game and
/// side, and records the change.
pub fn submit(w: &mut Write, new: NewSheet<'_>) -> Result<Sheet, DbError> {
    let at = now();
    let conn = w.conn();
    if let Some(keep) = new.keep_superseded {
        // The current record becomes superseded below: keep room for it.
        let superseded: Vec<i32> = scoresheets::table
            .filter(scoresheets::game_id.eq(new.game_id))
            .filter(scoresheets::side.eq(new.side.as_str()))
            .filter(scoresheets::superseded_at.is_not_null())
            .order(scoresheets::id.desc())
            .select(scoresheets::id)
            .load(conn)?;
        let dropped: Vec<i32> = superseded
            .into_iter()
            .skip(keep.saturating_sub(1))
            .collect();
        if !dropped.is_empty() {
            diesel::delete(scoresheets::table.filter(scoresheets::id.eq_any(&dropped)))
                .execute(conn)?;
        }
    }
    if let Some(max) = new.max_game_bytes {
        let texts: Vec<String> = scoresheets::table
            .filter(scoresheets::game_id.eq(new.game_id))
            .select(scoresheets::text)
            .load(conn)?;
        let held: usize = texts.iter().map(String::len).sum();
        if held + new.text.len() > max {
            return Err(crate::field::FieldError::new(
                "text",
                crate::field::Problem::RecordsFull {
                    held_kb: held.div_ceil(1024),
                    max_kb: max / 1024,
                },
            )
            .into());
        }
    }
    let old = diesel::update(
        scoresheets::table
            .filter(scoresheets::game_id.eq(new.game_id))
            .filter(scoresheets::side.eq(new.side.as_str()))
            .filter(scoresheets::superseded_at.is_null()),
    )
    .set(scoresheets::superseded_at.eq(Some(at)))
    .execute(conn)?;
    let id: i32 = diesel::insert_into(scoresheets::table)
        .values((
            scoresheets::game_id.eq(new.game_id),
            scoresheets::side.eq(new.side.as_str()),
            scoresheets::text.eq(new.text),
            scoresheets::rules.eq(new.rules.as_str()),
            scoresheets::error.eq(&new.error),
            scoresheets::submitted_by.eq(new.by.map(|u| u.id)),
            scoresheets::by_link.eq(new.by.is_none()),
            scoresheets::submitted_at.eq(at),
        ))
        .returning(scoresheets::id)
        .get_result(conn)
        .map_err(|e| super::classify(e, crate::conflict::Taken::RecordSide))?;
    let action = if new.by.is_none() {
        Action::RecordByLink
    } else {
        Action::Record
    };
    let mut c = Change::new(
        Some(new.tournament_id),
        action,
        Entity::Game,
        Some(new.game_id),
    )
    .new_value(format!("{}: {}", new.side.label(), new.summary));
    c.old_value = (old > 0).then(|| format!("{} superseded", new.side.label()));
    w.record(c);
    let conn = w.conn();
    scoresheets::table
        .find(id)
        .select(Sheet::as_select())
        .first(conn)
        .map_err(|e| super::read_row(e, crate::refusal::Thing::Record, &id.to_string()))
}

/// Every record of a game, current and superseded, oldest first.
pub fn of_game(conn: &mut DbConnection, game_id: GameId) -> Result<Vec<SheetBy>, DbError> {
    let rows: Vec<(Sheet, Option<String>)> = scoresheets::table
        .left_join(users::table)
        .filter(scoresheets::game_id.eq(game_id))
        .order((scoresheets::submitted_at, scoresheets::id))
        .select((Sheet::as_select(), users::name.nullable()))
        .load(conn)
        .map_err(|e| {
            super::read_row(
                e,
                crate::refusal::Thing::Record,
                &format!("of game {game_id}"),
            )
        })?;
    Ok(rows
        .into_iter()
        .map(|(sheet, by)| SheetBy { sheet, by })
        .collect())
}

/// The current records of every game of a tournament, by game.
pub fn current_of_tournament(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
) -> Result<Vec<Sheet>, DbError> {
    scoresheets::table
        .inner_join(games::table.inner_join(pairings::table.inner_join(rounds::table)))
        .filter(rounds::tournament_id.eq(tournament_id))
        .filter(scoresheets::superseded_at.is_null())
        .order((scoresheets::game_id, scoresheets::side))
        .select(Sheet::as_select())
        .load(conn)
        .map_err(|e| {
            super::read_row(
                e,
                crate::refusal::Thing::Record,
                &format!("of tournament {tournament_id}"),
            )
        })
}

/// A referee's ruling on a game.
#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = rulings)]
pub struct Ruling {
    pub id: i32,
    pub game_id: GameId,
    #[diesel(deserialize_as = String)]
    pub kind: RulingKind,
    /// The result set by the ruling (for `keep`, the result kept).
    #[diesel(deserialize_as = super::Stored<GameResult>)]
    pub result: Option<GameResult>,
    pub reason: String,
    pub ruled_by: Option<UserId>,
    pub ruled_at: NaiveDateTime,
}

/// Stores a ruling and records the change.
pub fn add_ruling(
    w: &mut Write,
    tournament_id: TournamentId,
    game_id: GameId,
    kind: RulingKind,
    result: Option<GameResult>,
    reason: &str,
) -> Result<(), DbError> {
    let by = w.by();
    diesel::insert_into(rulings::table)
        .values((
            rulings::game_id.eq(game_id),
            rulings::kind.eq(kind.as_str()),
            rulings::result.eq(result.map(GameResult::as_str)),
            rulings::reason.eq(reason),
            rulings::ruled_by.eq(by),
            rulings::ruled_at.eq(now()),
        ))
        .execute(w.conn())?;
    let said = result.map_or("no result", GameResult::label);
    w.record(
        Change::new(
            Some(tournament_id),
            Action::Ruling,
            Entity::Game,
            Some(game_id),
        )
        .new_value(if reason.is_empty() {
            format!("{}: {said}", kind.label())
        } else {
            format!("{}: {said}; {reason}", kind.label())
        }),
    );
    Ok(())
}

/// The change that says a result entry replaced a ruling the referee had
/// made (the result change itself is recorded as any other).
pub fn ruling_replaced(
    tournament_id: TournamentId,
    ruling: &Ruling,
    new: Option<GameResult>,
) -> Change {
    let said = ruling.result.map_or("no result", GameResult::label);
    Change::new(
        Some(tournament_id),
        Action::RulingReplaced,
        Entity::Game,
        Some(ruling.game_id),
    )
    .old(format!("{}: {said}", ruling.kind.label()))
    .new_value(new.map_or("no result", GameResult::label))
}

/// A ruling with the name of the referee who made it.
#[derive(Debug, Clone)]
pub struct RulingBy {
    pub ruling: Ruling,
    pub by: Option<String>,
}

/// The rulings on a game, oldest first.
pub fn rulings_of_game(conn: &mut DbConnection, game_id: GameId) -> Result<Vec<RulingBy>, DbError> {
    let rows: Vec<(Ruling, Option<String>)> = rulings::table
        .left_join(users::table)
        .filter(rulings::game_id.eq(game_id))
        .order((rulings::ruled_at, rulings::id))
        .select((Ruling::as_select(), users::name.nullable()))
        .load(conn)
        .map_err(|e| {
            super::read_row(
                e,
                crate::refusal::Thing::Ruling,
                &format!("of game {game_id}"),
            )
        })?;
    Ok(rows
        .into_iter()
        .map(|(ruling, by)| RulingBy { ruling, by })
        .collect())
}

/// Every ruling of a tournament, oldest first.
pub fn rulings_of_tournament(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
) -> Result<Vec<Ruling>, DbError> {
    rulings::table
        .inner_join(games::table.inner_join(pairings::table.inner_join(rounds::table)))
        .filter(rounds::tournament_id.eq(tournament_id))
        .order((rulings::ruled_at, rulings::id))
        .select(Ruling::as_select())
        .load(conn)
        .map_err(|e| {
            super::read_row(
                e,
                crate::refusal::Thing::Ruling,
                &format!("of tournament {tournament_id}"),
            )
        })
}

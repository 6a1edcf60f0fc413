//! Rounds, their pairings and games, requested byes, and result entry.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use serde::Serialize;

use super::audit::Write;
use super::schema::{games, pairings, rounds, users};
use super::{classify, found, now, read_row, DbConnection, DbError};
use crate::change::{Action, Change, Entity};
use crate::conflict::{Meanwhile, Taken};
use crate::ids::{EntryId, GameId, PairingId, RoundId, RoundNo, TeamId, TournamentId, UserId};
use crate::pairing::explain::Explanation;
use crate::results::{first_starts, EnteredBy, GameResult, ResultEdit};
use crate::rounds::{self as rule, Board};
use crate::tournament::{ByeKind, RoundStatus};

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = rounds)]
pub struct Round {
    pub id: RoundId,
    pub tournament_id: TournamentId,
    pub number: RoundNo,
    #[diesel(deserialize_as = String)]
    pub status: RoundStatus,
    pub explanation: String,
    pub created_at: NaiveDateTime,
    pub published_at: Option<NaiveDateTime>,
    /// When the referee locked the round: its players' links are closed.
    pub locked_at: Option<NaiveDateTime>,
    /// The day the round is played (the day it was paired unless the
    /// referee says otherwise): its month is the games' rating period.
    pub played_on: NaiveDate,
    /// The round clock (OGR 8), once the referee sets it.
    pub clock_starts_at: Option<NaiveDateTime>,
    pub clock_minutes: Option<i32>,
}

impl Round {
    pub fn is_published(&self) -> bool {
        self.status == RoundStatus::Published
    }

    pub fn clock(&self) -> Option<crate::clock::RoundClock> {
        Some(crate::clock::RoundClock {
            starts_at: self.clock_starts_at?,
            minutes: self.clock_minutes?,
        })
    }
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = pairings)]
pub struct Pairing {
    pub id: PairingId,
    pub round_id: RoundId,
    pub table_no: i32,
    pub first_player_id: Option<EntryId>,
    pub second_player_id: Option<EntryId>,
    pub first_team_id: Option<TeamId>,
    pub second_team_id: Option<TeamId>,
    pub team_pairing_id: Option<PairingId>,
    pub board: Option<i32>,
    #[diesel(deserialize_as = super::Stored<ByeKind>)]
    pub bye: Option<ByeKind>,
    pub explanation: String,
    /// Marked by the referee: the board's players can no longer be
    /// substituted (OGR 10.3.1), even before a result.
    pub started: bool,
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = games)]
pub struct Game {
    pub id: GameId,
    pub pairing_id: PairingId,
    pub number: i32,
    pub starter_player_id: Option<EntryId>,
    #[diesel(deserialize_as = super::Stored<GameResult>)]
    pub result: Option<GameResult>,
    pub tiebreak: bool,
    pub scoresheet: Option<String>,
    pub version: i32,
    pub updated_at: Option<NaiveDateTime>,
    pub updated_by: Option<UserId>,
    /// The result came from the players' reports (see `crate::reports`).
    pub reported: bool,
}

/// A pairing to store: two players, or one player with a bye of `bye` kind.
#[derive(Debug, Clone)]
pub struct Planned {
    pub first: EntryId,
    pub second: Option<EntryId>,
    /// What a player without an opponent has.
    pub bye: Option<ByeKind>,
    /// Why the pairing is the one it is (stored as JSON).
    pub explanation: Option<Explanation>,
}

impl Planned {
    /// Two players at one table.
    pub fn pairing(first: EntryId, second: EntryId, explanation: Explanation) -> Planned {
        Planned {
            first,
            second: Some(second),
            bye: None,
            explanation: Some(explanation),
        }
    }

    /// A player without an opponent.
    pub fn bye(player: EntryId, kind: ByeKind, explanation: Option<Explanation>) -> Planned {
        Planned {
            first: player,
            second: None,
            bye: Some(kind),
            explanation,
        }
    }
}

/// A team match to store: two teams and their boards (first player,
/// second player; the first starts game 1), or one team with a bye.
#[derive(Debug, Clone)]
pub struct PlannedMatch {
    pub first_team: TeamId,
    pub second_team: Option<TeamId>,
    pub bye: Option<ByeKind>,
    pub boards: Vec<(EntryId, EntryId)>,
    pub explanation: Option<Explanation>,
}

/// A round to store: pairings of players, or matches of teams.
#[derive(Debug, Clone)]
pub enum Plan {
    Pairings(Vec<Planned>),
    Matches(Vec<PlannedMatch>),
}

impl Plan {
    /// Tables (or matches) the plan fills.
    pub fn len(&self) -> usize {
        match self {
            Plan::Pairings(p) => p.len(),
            Plan::Matches(m) => m.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One pairing row to insert.
#[derive(Default)]
struct Row<'a> {
    table: i32,
    first_player: Option<EntryId>,
    second_player: Option<EntryId>,
    first_team: Option<TeamId>,
    second_team: Option<TeamId>,
    team_pairing: Option<PairingId>,
    board: Option<i32>,
    bye: Option<ByeKind>,
    explanation: Option<&'a Explanation>,
}

fn insert_pairing(
    conn: &mut DbConnection,
    round_id: RoundId,
    row: Row<'_>,
    games_per_pairing: i32,
) -> Result<PairingId, DbError> {
    let pid: PairingId = diesel::insert_into(pairings::table)
        .values((
            pairings::round_id.eq(round_id),
            pairings::table_no.eq(row.table),
            pairings::first_player_id.eq(row.first_player),
            pairings::second_player_id.eq(row.second_player),
            pairings::first_team_id.eq(row.first_team),
            pairings::second_team_id.eq(row.second_team),
            pairings::team_pairing_id.eq(row.team_pairing),
            pairings::board.eq(row.board),
            pairings::bye.eq(row.bye.map(ByeKind::as_str)),
            pairings::explanation.eq(row
                .explanation
                .and_then(|e| serde_json::to_string(e).ok())
                .unwrap_or_default()),
        ))
        .returning(pairings::id)
        .get_result(conn)?;
    if let (Some(first), Some(second)) = (row.first_player, row.second_player) {
        let starts: Vec<(i32, EntryId)> = (1..=games_per_pairing)
            .map(|n| {
                (
                    n,
                    if first_starts(n as u32) {
                        first
                    } else {
                        second
                    },
                )
            })
            .collect();
        add_games(conn, pid, &starts, false)?;
    }
    Ok(pid)
}

/// Stores a new round as a draft, tables numbered in the given order, each
/// pairing with its `games` games (the first-listed player starts game 1).
/// Match `k` of a team round plays its boards on tables `4k-3` to `4k`.
pub fn create(
    w: &mut Write,
    tournament_id: TournamentId,
    number: RoundNo,
    plan: &Plan,
    games_per_pairing: i32,
    played_on: Option<NaiveDate>,
) -> Result<Round, DbError> {
    let created = now();
    let played_on = day_for(w.conn(), tournament_id, number, played_on, created.date())?;
    let conn = w.conn();
    let round_id: RoundId = diesel::insert_into(rounds::table)
        .values((
            rounds::tournament_id.eq(tournament_id),
            rounds::number.eq(number),
            rounds::status.eq(RoundStatus::Draft.as_str()),
            rounds::explanation.eq(""),
            rounds::created_at.eq(created),
            rounds::played_on.eq(played_on),
        ))
        .returning(rounds::id)
        .get_result(conn)
        .map_err(|e| classify(e, Taken::Round { number: number.0 }))?;
    match plan {
        Plan::Pairings(planned) => {
            for (i, p) in planned.iter().enumerate() {
                let row = Row {
                    table: i as i32 + 1,
                    first_player: Some(p.first),
                    second_player: p.second,
                    bye: p.bye,
                    explanation: p.explanation.as_ref(),
                    ..Row::default()
                };
                insert_pairing(conn, round_id, row, games_per_pairing)?;
            }
        }
        Plan::Matches(matches) => {
            for (i, m) in matches.iter().enumerate() {
                let k = i as i32 + 1;
                let row = Row {
                    table: k,
                    first_team: Some(m.first_team),
                    second_team: m.second_team,
                    bye: m.bye,
                    explanation: m.explanation.as_ref(),
                    ..Row::default()
                };
                let match_id = insert_pairing(conn, round_id, row, games_per_pairing)?;
                let second_team = m.second_team;
                for (b, &(first, second)) in m.boards.iter().enumerate() {
                    // The first team starts game 1 on odd boards.
                    let (t1, t2) = if b % 2 == 0 {
                        (Some(m.first_team), second_team)
                    } else {
                        (second_team, Some(m.first_team))
                    };
                    let row = Row {
                        table: (k - 1) * 4 + b as i32 + 1,
                        first_player: Some(first),
                        second_player: Some(second),
                        first_team: t1,
                        second_team: t2,
                        team_pairing: Some(match_id),
                        board: Some(b as i32 + 1),
                        ..Row::default()
                    };
                    insert_pairing(conn, round_id, row, games_per_pairing)?;
                }
            }
        }
    }
    w.record(
        Change::new(
            Some(tournament_id),
            Action::Pair,
            Entity::Round,
            Some(round_id),
        )
        .in_round(number)
        .new_value(match plan {
            Plan::Pairings(p) => format!("{} pairings", p.len()),
            Plan::Matches(m) => format!("{} matches", m.len()),
        }),
    );
    find(w.conn(), tournament_id, number)
}

/// Puts `new` in `old`'s place on one board (a line-up change): the seat
/// and the games `old` was to start.
pub fn replace_player(
    w: &mut Write,
    pairing_id: PairingId,
    old: EntryId,
    new: EntryId,
) -> Result<(), DbError> {
    let conn = w.conn();
    diesel::update(
        pairings::table
            .find(pairing_id)
            .filter(pairings::first_player_id.eq(old)),
    )
    .set(pairings::first_player_id.eq(new))
    .execute(conn)?;
    diesel::update(
        pairings::table
            .find(pairing_id)
            .filter(pairings::second_player_id.eq(old)),
    )
    .set(pairings::second_player_id.eq(new))
    .execute(conn)?;
    diesel::update(
        games::table
            .filter(games::pairing_id.eq(pairing_id))
            .filter(games::starter_player_id.eq(old)),
    )
    .set(games::starter_player_id.eq(new))
    .execute(conn)?;
    // Asked again now that this transaction holds the board's row: a result
    // saved (or a start marked) since the caller looked, by a transaction
    // that held the row first, is seen here, and the change is refused.
    let marked: bool = pairings::table
        .find(pairing_id)
        .select(pairings::started)
        .first(conn)?;
    let results: i64 = games::table
        .filter(games::pairing_id.eq(pairing_id))
        .filter(games::result.is_not_null())
        .count()
        .get_result(conn)?;
    rule::check_still_unstarted(Board {
        marked,
        results: results as usize,
    })?;
    Ok(())
}

/// Marks boards as started (OGR 10.3.1).
pub fn mark_started(w: &mut Write, pairing_ids: &[PairingId]) -> Result<(), DbError> {
    diesel::update(pairings::table.filter(pairings::id.eq_any(pairing_ids)))
        .set(pairings::started.eq(true))
        .execute(w.conn())?;
    Ok(())
}

/// Adds a knock-out pairing's next tiebreak set (OGR 9.4): (game number,
/// who starts it).
pub fn add_tiebreak_set(
    w: &mut Write,
    round: &Round,
    pairing: &Pairing,
    games: &[(i32, EntryId)],
) -> Result<(), DbError> {
    add_games(w.conn(), pairing.id, games, true)?;
    w.record(
        Change::new(
            Some(round.tournament_id),
            Action::Add,
            Entity::Match,
            Some(pairing.id),
        )
        .in_round(round.number)
        .players(
            pairing
                .first_player_id
                .into_iter()
                .chain(pairing.second_player_id),
        )
        .new_value(format!("{} tiebreak games", games.len())),
    );
    Ok(())
}

/// Adds games to a pairing: (game number, who starts it).
fn add_games(
    conn: &mut DbConnection,
    pairing_id: PairingId,
    games: &[(i32, EntryId)],
    tiebreak: bool,
) -> Result<(), DbError> {
    for &(number, starter) in games {
        diesel::insert_into(games::table)
            .values((
                games::pairing_id.eq(pairing_id),
                games::number.eq(number),
                games::starter_player_id.eq(Some(starter)),
                games::tiebreak.eq(tiebreak),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// Removes games of round `round` that have no result (a tiebreak set no
/// longer called for); a game with a result, a record or a ruling is never
/// removed here.
pub fn remove_unplayed_games(
    w: &mut Write,
    round: &Round,
    game_ids: &[GameId],
) -> Result<(), DbError> {
    use super::schema::{rulings, scoresheets};
    let removed: Vec<GameId> = games::table
        .filter(games::id.eq_any(game_ids))
        .filter(games::result.is_null())
        .filter(games::id.ne_all(scoresheets::table.select(scoresheets::game_id)))
        .filter(games::id.ne_all(rulings::table.select(rulings::game_id)))
        .select(games::id)
        .load(w.conn())?;
    for &g in &removed {
        w.record(
            Change::new(
                Some(round.tournament_id),
                Action::Remove,
                Entity::Game,
                Some(g),
            )
            .in_round(round.number),
        );
    }
    let conn = w.conn();
    diesel::delete(
        games::table
            .filter(games::id.eq_any(game_ids))
            .filter(games::result.is_null())
            .filter(games::id.ne_all(scoresheets::table.select(scoresheets::game_id)))
            .filter(games::id.ne_all(rulings::table.select(rulings::game_id))),
    )
    .execute(conn)?;
    Ok(())
}

pub fn find(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
    number: RoundNo,
) -> Result<Round, DbError> {
    rounds::table
        .filter(rounds::tournament_id.eq(tournament_id))
        .filter(rounds::number.eq(number))
        .select(Round::as_select())
        .first(conn)
        .map_err(|e| found(e, crate::refusal::Thing::Round))
}

pub fn list(conn: &mut DbConnection, tournament_id: TournamentId) -> Result<Vec<Round>, DbError> {
    Ok(rounds::table
        .filter(rounds::tournament_id.eq(tournament_id))
        .order(rounds::number)
        .select(Round::as_select())
        .load(conn)?)
}

/// A tournament's rounds, pairings and games.
pub type Everything = (Vec<Round>, Vec<Pairing>, Vec<Game>);

/// Everything of a tournament's rounds: the rounds, their pairings (by table)
/// and their games (by number).
pub fn everything(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
) -> Result<Everything, DbError> {
    let of = format!("of tournament {tournament_id}");
    let rs = list(conn, tournament_id).map_err(|e| match e {
        DbError::Query(e) => read_row(e, crate::refusal::Thing::Round, &of),
        other => other,
    })?;
    let ps: Vec<Pairing> = pairings::table
        .inner_join(rounds::table)
        .filter(rounds::tournament_id.eq(tournament_id))
        .order((pairings::round_id, pairings::table_no))
        .select(Pairing::as_select())
        .load(conn)?;
    let gs: Vec<Game> = games::table
        .inner_join(pairings::table.inner_join(rounds::table))
        .filter(rounds::tournament_id.eq(tournament_id))
        .order((games::pairing_id, games::number))
        .select(Game::as_select())
        .load(conn)?;
    Ok((rs, ps, gs))
}

/// One round's pairings (by table) and their games (by pairing, then
/// number), sorted as [`everything`] sorts them: what a page of one round,
/// or a use case settling one round, reads instead of the whole event.
pub fn of_round(
    conn: &mut DbConnection,
    round: &Round,
) -> Result<(Vec<Pairing>, Vec<Game>), DbError> {
    let ps: Vec<Pairing> = pairings::table
        .filter(pairings::round_id.eq(round.id))
        .order(pairings::table_no)
        .select(Pairing::as_select())
        .load(conn)?;
    let gs: Vec<Game> = games::table
        .inner_join(pairings::table)
        .filter(pairings::round_id.eq(round.id))
        .order((games::pairing_id, games::number))
        .select(Game::as_select())
        .load(conn)?;
    Ok((ps, gs))
}

pub fn publish(w: &mut Write, tournament_id: TournamentId, number: RoundNo) -> Result<(), DbError> {
    let conn = w.conn();
    let r = find(conn, tournament_id, number)?;
    rule::check_publish(number.0, r.status)?;
    diesel::update(rounds::table.find(r.id))
        .set((
            rounds::status.eq(RoundStatus::Published.as_str()),
            rounds::published_at.eq(Some(now())),
        ))
        .execute(conn)?;
    w.record(
        Change::new(
            Some(tournament_id),
            Action::Publish,
            Entity::Round,
            Some(r.id),
        )
        .in_round(number),
    );
    Ok(())
}

/// The tournament's first and last day.
pub(super) fn dates_of(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
) -> Result<(Option<NaiveDate>, Option<NaiveDate>), DbError> {
    use super::schema::tournaments;
    tournaments::table
        .find(tournament_id)
        .select((tournaments::starts_on, tournaments::ends_on))
        .first(conn)
        .map_err(|e| found(e, crate::refusal::Thing::Tournament))
}

/// The day new round `number` is played on: the day given, checked
/// against the tournament's dates, or the default day
/// ([`crate::calendar::default_round_day`]).
fn day_for(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
    number: RoundNo,
    given: Option<NaiveDate>,
    today: NaiveDate,
) -> Result<NaiveDate, DbError> {
    let (starts, ends) = dates_of(conn, tournament_id)?;
    if let Some(day) = given {
        crate::calendar::check_round(
            "date",
            day,
            crate::calendar::round_range(starts, ends, today),
        )
        .map_err(DbError::from)?;
        return Ok(day);
    }
    let previous: Option<NaiveDate> = rounds::table
        .filter(rounds::tournament_id.eq(tournament_id))
        .filter(rounds::number.lt(number))
        .order(rounds::number.desc())
        .select(rounds::played_on)
        .first(conn)
        .optional()?;
    Ok(crate::calendar::default_round_day(
        number.0, starts, ends, previous, today,
    ))
}

/// Deletes the last round so it can be paired again; refused once any of
/// its games has a result.
pub fn undo(w: &mut Write, tournament_id: TournamentId, number: RoundNo) -> Result<(), DbError> {
    let conn = w.conn();
    let r = find(conn, tournament_id, number)?;
    let last = list(conn, tournament_id)?.last().map(|x| x.number.0);
    let with_results: i64 = games::table
        .inner_join(pairings::table)
        .filter(pairings::round_id.eq(r.id))
        .filter(games::result.is_not_null())
        .count()
        .get_result(conn)?;
    rule::check_undo(number.0, last, with_results as usize)?;
    diesel::delete(rounds::table.find(r.id)).execute(conn)?;
    w.record(
        Change::new(Some(tournament_id), Action::Undo, Entity::Round, Some(r.id)).in_round(number),
    );
    Ok(())
}

/// Clears every result of round `number` so that it can be entered again:
/// the games' results, the rulings that set some of them, and the
/// knock-out tiebreak sets that level games added. Refused once a later
/// round is paired (its pairing rests on these results) and when there is
/// nothing to clear. Returns how many results were cleared.
pub fn clear_results(
    w: &mut Write,
    tournament_id: TournamentId,
    number: RoundNo,
) -> Result<usize, DbError> {
    use super::schema::{reports, rulings, scoresheets};
    let by = w.by();
    let conn = w.conn();
    let r = find(conn, tournament_id, number)?;
    let last = list(conn, tournament_id)?.last().map(|x| x.number.0);
    let game_ids: Vec<GameId> = games::table
        .inner_join(pairings::table)
        .filter(pairings::round_id.eq(r.id))
        .filter(games::result.is_not_null())
        .select(games::id)
        .load(conn)?;
    let set_ids: Vec<GameId> = games::table
        .inner_join(pairings::table)
        .filter(pairings::round_id.eq(r.id))
        .filter(games::tiebreak.eq(true))
        .select(games::id)
        .load(conn)?;
    let recorded: Option<(i32, i32)> = scoresheets::table
        .inner_join(games::table.inner_join(pairings::table))
        .filter(games::id.eq_any(&set_ids))
        .select((pairings::table_no, games::number))
        .first(conn)
        .optional()?;
    rule::check_clear(number.0, last, game_ids.len(), recorded)?;
    let round_games = games::table
        .inner_join(pairings::table)
        .filter(pairings::round_id.eq(r.id))
        .select(games::id);
    diesel::delete(rulings::table.filter(rulings::game_id.eq_any(round_games))).execute(conn)?;
    // What the players reported goes with the results: they report again.
    let round_games = games::table
        .inner_join(pairings::table)
        .filter(pairings::round_id.eq(r.id))
        .select(games::id);
    diesel::delete(reports::table.filter(reports::game_id.eq_any(round_games))).execute(conn)?;
    diesel::delete(games::table.filter(games::id.eq_any(&set_ids))).execute(conn)?;
    diesel::update(games::table.filter(games::id.eq_any(&game_ids)))
        .set((
            games::result.eq(None::<String>),
            games::reported.eq(false),
            games::version.eq(games::version + 1),
            games::updated_at.eq(Some(now())),
            games::updated_by.eq(by),
        ))
        .execute(conn)?;
    w.record(
        Change::new(
            Some(tournament_id),
            Action::ClearResults,
            Entity::Round,
            Some(r.id),
        )
        .in_round(number)
        .old(format!("{} results", game_ids.len())),
    );
    Ok(game_ids.len())
}

/// A game with where it belongs.
#[derive(Debug, Clone)]
pub struct GameContext {
    pub game: Game,
    pub pairing: Pairing,
    pub round: Round,
}

/// Holds game `game_id`'s row until the transaction ends, so that two
/// writes to one game (two players reporting at once, a report and the
/// referee's entry) run one after the other, each reading what the other
/// stored. An unknown game holds nothing.
///
/// The pairing's row is held first, then the game's: the order of every
/// write that holds both (a line-up change holds its board's pairing, then
/// changes its games), so two writes never wait on each other in a circle.
pub fn hold_game(w: &mut Write, game_id: GameId) -> Result<(), DbError> {
    let conn = w.conn();
    let pairing: Option<PairingId> = games::table
        .find(game_id)
        .select(games::pairing_id)
        .first(conn)
        .optional()?;
    let Some(pairing) = pairing else {
        return Ok(());
    };
    diesel::update(pairings::table.find(pairing))
        .set(pairings::started.eq(pairings::started))
        .execute(conn)?;
    diesel::update(games::table.find(game_id))
        .set(games::version.eq(games::version))
        .execute(conn)?;
    Ok(())
}

pub fn game_context(conn: &mut DbConnection, game_id: GameId) -> Result<GameContext, DbError> {
    let (game, pairing, round) = games::table
        .inner_join(pairings::table.inner_join(rounds::table))
        .filter(games::id.eq(game_id))
        .select((Game::as_select(), Pairing::as_select(), Round::as_select()))
        .first(conn)
        .map_err(|e| found(e, crate::refusal::Thing::Game))?;
    Ok(GameContext {
        game,
        pairing,
        round,
    })
}

/// A result that could not be saved because the game changed after the
/// person saving it had seen it.
/// A result edit refused because the game changed since the editor read
/// it, with the game as it is now (its version for the next try to carry),
/// so a page showing the conflict need not read the round again.
#[derive(Debug, Clone, Serialize)]
pub struct Stale {
    pub meanwhile: Meanwhile,
    pub current: Game,
}

/// What became of one [`ResultEdit`].
#[derive(Debug, Clone)]
pub enum EditOutcome {
    Saved(Game),
    /// The game already said so.
    Unchanged(Game),
    Stale(Stale),
}

/// Applies one edit in the caller's transaction, to the game as `ctx` read
/// it in that same transaction (the caller has checked it first, so it is
/// not read twice): a game changed since the editor saw it is reported,
/// never overwritten, and the write itself is guarded by that version, so
/// two concurrent savers of one game cannot both win.
pub fn apply_edit(
    w: &mut Write,
    ctx: &GameContext,
    edit: &ResultEdit,
) -> Result<EditOutcome, DbError> {
    debug_assert_eq!(ctx.game.id, edit.game);
    let by = w.by();
    let conn = w.conn();
    let old = ctx.game.result;
    let new = edit.wanted;
    // A referee entering what the players reported makes it the
    // referee's: reporting on the game closes.
    let takes_over = ctx.game.reported && edit.by == EnteredBy::Referee && new.is_some();
    if old == new && !takes_over {
        return Ok(EditOutcome::Unchanged(ctx.game.clone()));
    }
    let conflict = |conn: &mut DbConnection, ctx: &GameContext| -> Result<EditOutcome, DbError> {
        let now = game_context(conn, edit.game)?.game;
        let who: Option<String> = match now.updated_by {
            Some(uid) => users::table
                .find(uid)
                .select(users::name)
                .first(conn)
                .optional()?,
            None => None,
        };
        Ok(EditOutcome::Stale(Stale {
            meanwhile: Meanwhile {
                game_id: edit.game.0,
                round: ctx.round.number.0,
                table: ctx.pairing.table_no,
                game: ctx.game.number,
                now: now.result,
                by: who,
                wanted: edit.wanted,
            },
            current: now,
        }))
    };
    // A referee's entry wins over what the players reported meanwhile:
    // the desk need not have seen it.
    let over_reports = ctx.game.reported && edit.by == EnteredBy::Referee;
    if edit.is_stale(ctx.game.version) && !over_reports {
        return conflict(conn, ctx);
    }
    if ctx.pairing.board.is_some() {
        // A board of a team match: hold its row until this transaction
        // ends, so a line-up change and this result are one after the
        // other, never both on a board that the other thinks unstarted
        // (see `replace_player`).
        diesel::update(pairings::table.find(ctx.pairing.id))
            .set(pairings::started.eq(pairings::started))
            .execute(conn)?;
    }
    let at = now();
    let n = diesel::update(
        games::table
            .filter(games::id.eq(edit.game))
            .filter(games::version.eq(ctx.game.version)),
    )
    .set((
        games::result.eq(new.map(GameResult::as_str)),
        games::version.eq(ctx.game.version + 1),
        games::updated_at.eq(Some(at)),
        games::updated_by.eq(by),
        games::reported.eq(edit.by != EnteredBy::Referee && new.is_some()),
    ))
    .execute(conn)?;
    if n == 0 {
        return conflict(conn, ctx);
    }
    let action = match edit.by {
        EnteredBy::Referee => Action::Result,
        EnteredBy::BothPlayers => Action::ReportedByBoth,
        EnteredBy::OnePlayer => Action::ReportedByOne,
        EnteredBy::Disputed => Action::ReportWithdrawn,
    };
    let mut c = Change::new(
        Some(ctx.round.tournament_id),
        action,
        Entity::Game,
        Some(edit.game),
    )
    .in_round(ctx.round.number)
    .players(
        ctx.pairing
            .first_player_id
            .into_iter()
            .chain(ctx.pairing.second_player_id),
    );
    c.old_value = old.map(|r| r.as_str().to_string());
    c.new_value = new.map(|r| r.as_str().to_string());
    w.record(c);
    let mut game = ctx.game.clone();
    game.result = new;
    game.version += 1;
    game.updated_by = by;
    game.updated_at = Some(at);
    game.reported = edit.by != EnteredBy::Referee && new.is_some();
    Ok(EditOutcome::Saved(game))
}

/// Exchanges two players of a draft round (their places and the games they
/// start), recording the swap and the rules it breaks.
pub fn swap_players(
    w: &mut Write,
    tournament_id: TournamentId,
    number: RoundNo,
    a: EntryId,
    b: EntryId,
    broken: &[String],
) -> Result<(), DbError> {
    let conn = w.conn();
    let r = find(conn, tournament_id, number)?;
    let ps: Vec<Pairing> = pairings::table
        .filter(pairings::round_id.eq(r.id))
        .select(Pairing::as_select())
        .load(conn)?;
    let holds =
        |p: &Pairing, x: EntryId| p.first_player_id == Some(x) || p.second_player_id == Some(x);
    let seated = |x: EntryId| ps.iter().any(|p| holds(p, x));
    rule::check_swap(number.0, r.status, (a.0, b.0), [seated(a), seated(b)])?;
    let by_hand = serde_json::to_string(&Explanation {
        notes: vec![crate::pairing::explain::Note::ChangedByHand],
        ..Explanation::default()
    })
    .unwrap_or_default();
    let swap = |x: Option<EntryId>| match x {
        Some(x) if x == a => Some(b),
        Some(x) if x == b => Some(a),
        other => other,
    };
    for p in ps.iter().filter(|p| holds(p, a) || holds(p, b)) {
        diesel::update(pairings::table.find(p.id))
            .set((
                pairings::first_player_id.eq(swap(p.first_player_id)),
                pairings::second_player_id.eq(swap(p.second_player_id)),
                pairings::explanation.eq(&by_hand),
            ))
            .execute(conn)?;
        let gs: Vec<Game> = games::table
            .filter(games::pairing_id.eq(p.id))
            .select(Game::as_select())
            .load(conn)?;
        for g in gs {
            diesel::update(games::table.find(g.id))
                .set(games::starter_player_id.eq(swap(g.starter_player_id)))
                .execute(conn)?;
        }
    }
    w.record(
        Change::new(Some(tournament_id), Action::Swap, Entity::Round, Some(r.id))
            .in_round(number)
            .players([a, b])
            .new_value(if broken.is_empty() {
                "swapped; no rule broken".to_string()
            } else {
                format!("swapped, breaking: {}", broken.join("; "))
            }),
    );
    Ok(())
}

/// A pairing with its round and games (by number).
pub fn pairing_context(
    conn: &mut DbConnection,
    pairing_id: PairingId,
) -> Result<(Pairing, Round, Vec<Game>), DbError> {
    let (pairing, round) = pairings::table
        .inner_join(rounds::table)
        .filter(pairings::id.eq(pairing_id))
        .select((Pairing::as_select(), Round::as_select()))
        .first(conn)
        .map_err(|e| found(e, crate::refusal::Thing::Pairing))?;
    let gs = games::table
        .filter(games::pairing_id.eq(pairing_id))
        .order(games::number)
        .select(Game::as_select())
        .load(conn)?;
    Ok((pairing, round, gs))
}

/// Games of a round still without a result.
pub fn missing_in_round(conn: &mut DbConnection, round_id: RoundId) -> Result<i64, DbError> {
    Ok(games::table
        .inner_join(pairings::table)
        .filter(pairings::round_id.eq(round_id))
        .filter(games::result.is_null())
        .count()
        .get_result(conn)?)
}

/// The starter of each of `ids` (who plays dark, OGR 3.1.3).
pub fn starters_of(
    conn: &mut DbConnection,
    ids: &[GameId],
) -> Result<Vec<(GameId, Option<EntryId>)>, DbError> {
    Ok(games::table
        .filter(games::id.eq_any(ids))
        .select((games::id, games::starter_player_id))
        .load(conn)?)
}

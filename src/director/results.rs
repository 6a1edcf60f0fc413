//! Saving results: the one use case behind the results page, the quick
//! entry box and `PUT /api/v1/games/{id}`.

use crate::refusal::{Refusal, Thing};
use crate::rounds::{OnGames, Refused};

use crate::conflict::{Conflict, RulingStands};
use crate::db::audit::Write;
use crate::db::rounds::{self, EditOutcome, Game, GameContext, Round, Stale};
use crate::db::scoresheets::{self as sheets, RulingBy};
use crate::db::tournaments::{self, Tournament};
use crate::db::users::User;
use crate::db::{DbConnection, DbError};
use crate::results::{GameResult, ResultEdit};
use crate::tournament::System;

use super::TournamentData;
use crate::ids::{GameId, PairingId, TournamentId};

/// What a save did.
#[derive(Debug, Clone, Default)]
pub struct SaveReport {
    /// Games whose result changed.
    pub saved: Vec<Game>,
    /// Games that already said what was asked.
    pub unchanged: Vec<Game>,
    /// Games changed by someone else since the person saving saw them.
    pub conflicts: Vec<Stale>,
    /// Games whose result a referee's ruling set, left as ruled: the entry
    /// replaces the ruling only when the referee confirms it.
    pub ruled: Vec<RulingStands>,
    /// Games left as they are, and why: a main game of a knock-out pairing
    /// whose tiebreak set has results.
    pub refused: Vec<(GameId, Conflict)>,
    /// Knock-out tables left level that got a new tiebreak set (OGR 9.4).
    pub new_tiebreak_sets: Vec<i32>,
    /// Knock-out pairings whose tiebreak games were added or removed, by
    /// id, with all their games as stored now.
    pub tiebreak_games: Vec<(PairingId, Vec<Game>)>,
}

impl TournamentData {
    /// Brings games loaded before a save up to what the save stored and
    /// found, so that a page shown after it needs no second read. A game
    /// someone else changed meanwhile that the save did not touch still
    /// shows as loaded: it comes back as a conflict if the person saves
    /// over it.
    pub fn take_saved(&mut self, report: &SaveReport) {
        let now = report
            .saved
            .iter()
            .chain(&report.unchanged)
            .chain(report.conflicts.iter().map(|c| &c.current));
        for g in now {
            if let Some(slot) = self.games.iter_mut().find(|x| x.id == g.id) {
                *slot = g.clone();
            }
        }
        for (pairing, games) in &report.tiebreak_games {
            let start = self.games.partition_point(|g| g.pairing_id < *pairing);
            let end = self.games.partition_point(|g| g.pairing_id <= *pairing);
            self.games.splice(start..end, games.iter().cloned());
        }
    }
}

/// Saves the edits of tournament `tournament_id` in one transaction. Each
/// edit stands alone: a conflict on one game is reported and the others are
/// still saved. A game of another tournament is not found.
pub fn save(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
    edits: &[ResultEdit],
    by: &User,
) -> Result<SaveReport, DbError> {
    save_replacing(conn, tournament_id, edits, &[], by)
}

/// As [`save`]; the games listed in `replacing` may change the result a
/// referee's ruling set (the referee confirmed it), which the audit trail
/// records. Any other game whose ruling stands is reported, not changed.
pub fn save_replacing(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
    edits: &[ResultEdit],
    replacing: &[GameId],
    by: &User,
) -> Result<SaveReport, DbError> {
    super::commit(conn, Some(by.id), |w| {
        save_in(w, tournament_id, edits, replacing)
    })
}

/// As [`save_replacing`], inside a write already begun (a ruling saves its
/// result with itself).
pub fn save_in(
    w: &mut Write,
    tournament_id: TournamentId,
    edits: &[ResultEdit],
    replacing: &[GameId],
) -> Result<SaveReport, DbError> {
    let mut report = SaveReport::default();
    if edits.is_empty() {
        return Ok(report);
    }
    let t = tournaments::find(w.conn(), tournament_id)?;
    // Tiebreak sets are a knock-out's alone: other systems have nothing to
    // hold or settle.
    let knockout = t.system == System::Knockout;
    let mut rounds_touched: Vec<Round> = Vec::new();
    for edit in edits {
        rounds::hold_game(w, edit.game)?;
        let conn = w.conn();
        let ctx = rounds::game_context(conn, edit.game)?;
        if ctx.round.tournament_id != tournament_id {
            return Err(DbError::Refused(Refusal::NotFound(Thing::Game)));
        }
        if !ctx.round.is_published() {
            return Err(Refused::Draft {
                round: ctx.round.number.0,
                doing: OnGames::Results,
            }
            .into());
        }
        let mut replaced = None;
        if edit.wanted != ctx.game.result {
            if knockout {
                if let Some(why) = main_game_held(conn, &ctx)? {
                    report.refused.push((edit.game, why));
                    continue;
                }
            }
            if let Some(r) = standing_ruling(conn, &ctx)? {
                if !replacing.contains(&edit.game) {
                    report.ruled.push(RulingStands {
                        game_id: edit.game.0,
                        round: ctx.round.number.0,
                        table: ctx.pairing.table_no,
                        game: ctx.game.number,
                        tiebreak: ctx.game.tiebreak,
                        version: ctx.game.version,
                        kind: r.ruling.kind,
                        ruled: r.ruling.result.unwrap_or(GameResult::NotPlayed),
                        reason: r.ruling.reason.clone(),
                        by: r.by.clone(),
                        wanted: edit.wanted,
                    });
                    continue;
                }
                replaced = Some(r.ruling);
            }
        }
        match rounds::apply_edit(w, &ctx, edit)? {
            EditOutcome::Saved(g) => {
                if let Some(ruling) = replaced {
                    w.record(sheets::ruling_replaced(tournament_id, &ruling, g.result));
                }
                if !rounds_touched.iter().any(|r| r.id == ctx.round.id) {
                    rounds_touched.push(ctx.round);
                }
                report.saved.push(g);
            }
            EditOutcome::Unchanged(g) => report.unchanged.push(g),
            EditOutcome::Stale(c) => report.conflicts.push(c),
        }
    }
    if knockout {
        for round in rounds_touched {
            settle_tiebreak_sets(w, &t, round, &mut report)?;
        }
    }
    Ok(report)
}

/// The ruling that set the game's result, while the game still says what
/// it set: the latest ruling on the game, if its result is the game's.
fn standing_ruling(
    conn: &mut DbConnection,
    ctx: &GameContext,
) -> Result<Option<RulingBy>, DbError> {
    let Some(latest) = sheets::rulings_of_game(conn, ctx.game.id)?.pop() else {
        return Ok(None);
    };
    Ok(
        (latest.ruling.result.is_some() && latest.ruling.result == ctx.game.result)
            .then_some(latest),
    )
}

/// Why a main game of a knock-out pairing cannot change now: its tiebreak
/// set has results, played because the main games were level.
fn main_game_held(conn: &mut DbConnection, ctx: &GameContext) -> Result<Option<Conflict>, DbError> {
    if ctx.game.tiebreak {
        return Ok(None);
    }
    let (_, _, games) = rounds::pairing_context(conn, ctx.pairing.id)?;
    let tiebreaks: Vec<&Game> = games.iter().filter(|g| g.tiebreak).collect();
    Ok(tiebreaks
        .iter()
        .position(|g| g.result.is_some())
        .map(|i| Conflict::HeldByTiebreak {
            round: ctx.round.number.0,
            table: ctx.pairing.table_no,
            set: i / 2 + 1,
            game: ctx.game.number,
        }))
}

/// After results of a knock-out round change: tiebreak games no longer
/// called for and still unplayed go (the main games were corrected), and
/// every pairing left level after all its games gets its next tiebreak set
/// (OGR 9.4). Reads that round alone: a set depends on its pairing's games
/// only. The tables that got a set and the pairings whose games changed go
/// into `report`.
fn settle_tiebreak_sets(
    w: &mut Write,
    t: &Tournament,
    round: Round,
    report: &mut SaveReport,
) -> Result<(), DbError> {
    let mut data = super::load::round_alone(w.conn(), t.clone(), round.clone())?;
    let mut changed: Vec<PairingId> = Vec::new();
    let mut unwanted: Vec<GameId> = Vec::new();
    for p in data.pairings_of(&round) {
        let games = data.tiebreak_games_not_called_for(p);
        if !games.is_empty() {
            changed.push(p.id);
            unwanted.extend(games);
        }
    }
    if !unwanted.is_empty() {
        rounds::remove_unplayed_games(w, &round, &unwanted)?;
        data = super::load::round_alone(w.conn(), t.clone(), round.clone())?;
    }
    for p in data.pairings_of(&round) {
        if let Some(games) = data.tiebreak_games_needed(p) {
            rounds::add_tiebreak_set(w, &round, p, &games)?;
            report.new_tiebreak_sets.push(p.table_no);
            if !changed.contains(&p.id) {
                changed.push(p.id);
            }
        }
    }
    if changed.is_empty() {
        return Ok(());
    }
    let (_, games) = rounds::of_round(w.conn(), &round)?;
    changed.sort_unstable();
    for pairing in changed {
        let of_pairing = games
            .iter()
            .filter(|g| g.pairing_id == pairing)
            .cloned()
            .collect();
        report.tiebreak_games.push((pairing, of_pairing));
    }
    Ok(())
}

//! A game recorded at the board, ply by ply, through the players' links:
//! each player keeps their own record of both sides (OGR 6.2.6), checked
//! as it grows with the scoresheet check's verdicts (`rules::record`).
//!
//! An irregular ply is recorded as played, not refused (OGR 5.4, 5.7).
//! What is refused is what cannot be a ply of this record: another
//! player's game (403), another move for a ply already recorded (409,
//! naming it), a ply past the next (409, naming the next), a game with its
//! result or a locked round (409), and text that is not one move (422).
//! The same ply sent again is answered as the first time, even after the
//! game has ended: a phone that lost the answer sends again harmlessly.
//!
//! Plies are not an event's change (docs/architecture.md): they record no
//! audit entry and move no revision; each is held against the game's row
//! so that two sent at once are taken one after the other, and moves the
//! game's live counter (`db::plies::moved`), which the live boards follow.
//!
//! Each player's record is kept checked in memory ([`Kept`]) between
//! plies, so a ply costs the check of one ply, not a replay of the game.

use crate::db::plies::{self, RecordedPly};
use crate::db::{rounds, tournaments, DbConnection, DbError};
use crate::field::{FieldError, Problem};
use crate::ids::{EntryId, GameId};
use crate::refusal::{Refusal, Thing};
use crate::results::GameResult;
use crate::rounds::Refused;
use crate::rules::check::Report;
use crate::rules::check::{BoardResult, FinalPosition, Irregularity};
use crate::rules::fault::Ending;
use crate::rules::record::{same_ply, Recording};
use crate::rules::PlayRules;

use super::personal::holder;
pub use crate::db::plies::GamePlace;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The players' records kept checked between plies, one per player and
/// game. A kept record is used only while it is exactly the stored one
/// (same plies, same text): a record another process added to, or a
/// rectification shortened, is read again from the database, which stays
/// the one truth. Cloning shares the one store.
#[derive(Clone, Default)]
pub struct Kept(Arc<Mutex<HashMap<(GameId, EntryId), Recording>>>);

impl Kept {
    /// The records kept at most; past it the store starts again (two
    /// thousand games recorded at once, far more than any venue).
    pub const MOST: usize = 4096;

    /// `f` applied to `player`'s record of `game` (its stored `plies`),
    /// kept for the next ply.
    fn with<T>(
        &self,
        rules: &PlayRules,
        game: GameId,
        player: EntryId,
        plies: &[RecordedPly],
        f: impl FnOnce(&mut Recording) -> T,
    ) -> T {
        let key = (game, player);
        let kept = self.lock().remove(&key).filter(|r| {
            r.len() as usize == plies.len() && r.texts().zip(plies).all(|(t, p)| t == p.written)
        });
        let mut recording = kept.unwrap_or_else(|| recording_of(rules, plies));
        let out = f(&mut recording);
        let mut store = self.lock();
        if store.len() >= Self::MOST {
            store.clear();
        }
        store.insert(key, recording);
        out
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(GameId, EntryId), Recording>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What a ply recorded (or sent again) gives back.
#[derive(Debug, Clone, PartialEq)]
pub struct PlyAnswer {
    pub ply: i32,
    /// This ply's irregularities (none: accepted). The last ply's may
    /// still change with the next (`rules::record`).
    pub irregularities: Vec<Irregularity>,
    /// The position after it, in this player's record.
    pub position: FinalPosition,
    /// The end the board shows after it, if it ends the game.
    pub ended: Option<Ended>,
    /// False when the ply was recorded before (a resend).
    pub new: bool,
}

/// A game the board has ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ended {
    /// From the starter's side (the starter plays dark).
    pub result: GameResult,
    pub reason: Ending,
}

impl Ended {
    /// The end `report`'s board shows, if it shows one.
    pub fn of(report: &Report) -> Option<Ended> {
        Some(Ended {
            reason: report.board_reason?,
            result: match report.board_result? {
                BoardResult::Dark => GameResult::StarterWon,
                BoardResult::Light => GameResult::OtherWon,
                BoardResult::Draw => GameResult::Draw,
            },
        })
    }
}

/// One player's record of a game, checked.
#[derive(Debug, Clone)]
pub struct Record {
    pub player: EntryId,
    pub recording: Recording,
}

/// A game as recorded so far: each player's record, where they first
/// differ, and the game's stored result.
#[derive(Debug, Clone)]
pub struct RecordedGame {
    pub game: GameId,
    /// The starter's record first, then the other player's (each only if
    /// they recorded a ply).
    pub records: Vec<Record>,
    pub differ_at: Option<u32>,
    pub result: Option<GameResult>,
}

impl RecordedGame {
    /// The record the game is shown from: the starter's, else the other's.
    pub fn main(&self) -> Option<&Record> {
        self.records.first()
    }
}

/// Records ply `ply` (`written` as the player writes it on paper) in the
/// record of the holder of link `key` for game `game_id`.
pub fn record_ply(
    conn: &mut DbConnection,
    kept: &Kept,
    key: &str,
    game_id: GameId,
    ply: i32,
    written: &str,
) -> Result<PlyAnswer, DbError> {
    let h = holder(conn, key)?;
    super::commit::unrecorded(conn, |c| {
        let ctx = players_game(c, h, game_id)?;
        let rules = tournaments::find(c, h.tournament)?.rules.play();
        let mine: Vec<RecordedPly> = plies::of_game(c, game_id)?
            .into_iter()
            .filter(|p| p.player_id == h.player)
            .collect();
        if ply < 1 {
            return Err(FieldError::new("ply", Problem::BelowOne { value: ply.into() }).into());
        }
        if let Some(stored) = mine.get(ply as usize - 1) {
            if !same_ply(&stored.written, written) {
                return Err(Refused::PlyRecorded {
                    ply,
                    stored: stored.written.clone(),
                }
                .into());
            }
            let upto = recording_of(&rules, &mine[..ply as usize]);
            let all = recording_of(&rules, &mine);
            return Ok((answer(&upto, &all, ply, false), false));
        }
        still_open(&ctx)?;
        let next = mine.len() as i32 + 1;
        if ply != next {
            return Err(Refused::PlyAhead { ply, next }.into());
        }
        let done = kept.with(&rules, game_id, h.player, &mine, |recording| {
            recording.push(written).map(|_| {
                let text = recording.texts().last().unwrap_or_default().to_string();
                (text, answer(recording, recording, ply, true))
            })
        });
        let (text, answer) = done.map_err(|e| {
            FieldError::new(
                "move",
                Problem::NotAMove {
                    text: written.trim().to_string(),
                    expected: e.expected,
                },
            )
        })?;
        plies::add(c, game_id, h.player, ply, &text)?;
        plies::moved(c, game_id, ctx.round.id)?;
        Ok((answer, true))
    })
}

/// Game `game_id`, held until the transaction ends, when it is a game of
/// the holder `h`'s pairing in a published round.
fn players_game(
    c: &mut DbConnection,
    h: super::personal::Holder,
    game_id: GameId,
) -> Result<rounds::GameContext, DbError> {
    plies::hold(c, game_id)?;
    recorded_by(c, h, game_id)
}

/// Game `game_id`, when holder `h` plays it (a bye has no game to record).
fn recorded_by(
    c: &mut DbConnection,
    h: super::personal::Holder,
    game_id: GameId,
) -> Result<rounds::GameContext, DbError> {
    let ctx = super::personal::holders_game(c, h, game_id)?;
    if ctx.pairing.second_player_id.is_none() {
        return Err(Refused::NotYourGame { game: game_id.0 }.into());
    }
    Ok(ctx)
}

/// A game that takes plies and words on them: no result yet, its round
/// not locked.
fn still_open(ctx: &rounds::GameContext) -> Result<(), DbError> {
    if let Some(result) = ctx.game.result {
        return Err(Refused::GameOver {
            result: result.as_str().to_string(),
        }
        .into());
    }
    if ctx.round.locked_at.is_some() {
        return Err(Refused::ReportLocked {
            round: ctx.round.number.0,
        }
        .into());
    }
    Ok(())
}

/// The game `game_id` as its players have recorded it so far: a public
/// read, so a game of a draft round or of an archived event is no game.
pub fn recorded_game(
    conn: &mut DbConnection,
    kept: &Kept,
    game_id: GameId,
) -> Result<RecordedGame, DbError> {
    let none = || DbError::Refused(Refusal::NotFound(Thing::Game));
    let ctx = rounds::game_context(conn, game_id).map_err(|_| none())?;
    let t = tournaments::find(conn, ctx.round.tournament_id)?;
    if t.archived || !ctx.round.is_published() {
        return Err(none());
    }
    game_as_recorded(conn, kept, &ctx, &t.rules.play())
}

/// Game `ctx` as its players have recorded it so far.
fn game_as_recorded(
    conn: &mut DbConnection,
    kept: &Kept,
    ctx: &rounds::GameContext,
    rules: &PlayRules,
) -> Result<RecordedGame, DbError> {
    let game_id = ctx.game.id;
    let all = plies::of_game(conn, game_id)?;
    // The starter plays dark, and their record is the game's.
    let starter = ctx.game.starter_player_id;
    let mut players: Vec<EntryId> = [ctx.pairing.first_player_id, ctx.pairing.second_player_id]
        .into_iter()
        .flatten()
        .collect();
    players.sort_by_key(|p| Some(*p) != starter);
    let records: Vec<Record> = players
        .into_iter()
        .filter_map(|player| {
            let plies: Vec<RecordedPly> = all
                .iter()
                .filter(|p| p.player_id == player)
                .cloned()
                .collect();
            (!plies.is_empty()).then(|| Record {
                player,
                recording: kept.with(rules, game_id, player, &plies, |r| r.clone()),
            })
        })
        .collect();
    let differ_at = match records.as_slice() {
        [a, b] => first_difference(&a.recording, &b.recording),
        _ => None,
    };
    Ok(RecordedGame {
        game: game_id,
        records,
        differ_at,
        result: ctx.game.result,
    })
}

/// The first ply (from 1) where two records differ, `None` while each is
/// a beginning of the other (one phone is a ply or two behind, not in
/// disagreement): the plies compared as the scoresheets' reconciliation
/// compares them (`rules::first_difference`).
fn first_difference(a: &Recording, b: &Recording) -> Option<u32> {
    let (x, y) = (a.texts().collect::<Vec<_>>(), b.texts().collect::<Vec<_>>());
    let common = x.len().min(y.len());
    (0..common)
        .find(|&i| !same_ply(x[i], y[i]))
        .map(|i| i as u32 + 1)
}

/// A record's plies, checked (each was read when it was recorded).
fn recording_of(rules: &PlayRules, plies: &[RecordedPly]) -> Recording {
    let mut r = Recording::new(rules);
    for p in plies {
        let _ = r.push(&p.written);
    }
    r
}

/// The answer for ply `ply`: the position after it (`upto`, the record up
/// to it) and its verdict as the whole record (`all`) reads it now.
fn answer(upto: &Recording, all: &Recording, ply: i32, new: bool) -> PlyAnswer {
    let report = upto.report();
    let irregularities = all
        .irregularities()
        .iter()
        .filter(|i| i.ply as i32 == ply)
        .cloned()
        .collect();
    let ended = Ended::of(&report);
    PlyAnswer {
        ply,
        irregularities,
        position: report.final_position,
        ended,
        new,
    }
}

/// What a player's word on an irregular ply did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ruled {
    pub ply: i32,
    pub rectified: bool,
    /// The ply the player's record takes next.
    pub next: i32,
}

/// The word of the holder of `key` on ply `ply` of game `game_id`, an
/// irregular ply their opponent played (OGR 5.4): rectified (taken back
/// from both records, to be played again) or let stand. Recording their
/// own next ply has let it stand already (5.7), and a ply let stand stays.
pub fn rule_on_ply(
    conn: &mut DbConnection,
    kept: &Kept,
    key: &str,
    game_id: GameId,
    ply: i32,
    rectify: bool,
) -> Result<Ruled, DbError> {
    let h = holder(conn, key)?;
    super::commit::unrecorded(conn, |c| {
        let ctx = players_game(c, h, game_id)?;
        still_open(&ctx)?;
        let rules = tournaments::find(c, h.tournament)?.rules.play();
        let all = plies::of_game(c, game_id)?;
        let mine: Vec<RecordedPly> = all
            .iter()
            .filter(|p| p.player_id == h.player)
            .cloned()
            .collect();
        let Some(stored) = (ply >= 1).then(|| mine.get(ply as usize - 1)).flatten() else {
            return Err(Refused::NoSuchPly { ply }.into());
        };
        let fault = kept.with(&rules, game_id, h.player, &mine, |r| {
            r.irregularities()
                .iter()
                .find(|i| i.ply as i32 == ply)
                .cloned()
        });
        let Some(fault) = fault else {
            return Err(Refused::PlyRegular { ply }.into());
        };
        // The starter plays dark.
        let my_side = if ctx.game.starter_player_id == Some(h.player) {
            crate::rules::Side::Dark
        } else {
            crate::rules::Side::Light
        };
        if fault.side == my_side {
            return Err(Refused::OwnPly { ply }.into());
        }
        let said = plies::rulings_of(c, game_id)?
            .into_iter()
            .any(|r| r.ply == ply && !r.rectified && same_ply(&r.written, &stored.written));
        let played_on = all.iter().any(|p| p.ply > ply);
        if said || played_on {
            if rectify {
                return Err(Refused::PlyStands { ply }.into());
            }
            return Ok((
                Ruled {
                    ply,
                    rectified: false,
                    next: mine.len() as i32 + 1,
                },
                false,
            ));
        }
        plies::rule(c, game_id, ply, h.player, rectify, &stored.written)?;
        plies::moved(c, game_id, ctx.round.id)?;
        let next = if rectify { ply } else { mine.len() as i32 + 1 };
        Ok((
            Ruled {
                ply,
                rectified: rectify,
                next,
            },
            true,
        ))
    })
}

/// The round a live board or feed follows, and who may watch it.
#[derive(Debug, Clone)]
pub struct Watched {
    pub tournament: crate::director::model::Tournament,
    pub round: rounds::Round,
}

impl Watched {
    /// Whether the live boards are shown to anyone at all.
    pub fn shown(&self) -> bool {
        self.tournament.live_boards != crate::tournament::LiveBoards::Off
    }
}

/// Round `number` of tournament `tid`, for its live boards: a draft
/// round, an archived event or boards set `off` are no boards at all.
pub fn watched_round(
    conn: &mut DbConnection,
    tid: crate::ids::TournamentId,
    number: crate::ids::RoundNo,
) -> Result<Watched, DbError> {
    let none = || DbError::Refused(Refusal::NotFound(Thing::Round));
    let tournament = tournaments::find(conn, tid).map_err(|_| none())?;
    let round = rounds::find(conn, tid, number)?;
    let w = Watched { tournament, round };
    if w.tournament.archived || !w.round.is_published() || !w.shown() {
        return Err(none());
    }
    Ok(w)
}

/// The live counters of the games recorded at the board in `rounds`.
pub fn live_in(
    conn: &mut DbConnection,
    rounds: &[crate::ids::RoundId],
) -> Result<Vec<plies::LiveCounter>, DbError> {
    plies::live_in(conn, rounds)
}

/// The latest published round of tournament `tid`.
pub fn latest_round(
    conn: &mut DbConnection,
    tid: crate::ids::TournamentId,
) -> Result<crate::ids::RoundNo, DbError> {
    rounds::list(conn, tid)?
        .into_iter()
        .rev()
        .find(|r| r.is_published())
        .map(|r| r.number)
        .ok_or(DbError::Refused(Refusal::NotFound(Thing::Round)))
}

/// Game `ctx`'s starter (who plays dark, OGR 3.1.3) and other player.
fn sides(ctx: &rounds::GameContext) -> (Option<EntryId>, Option<EntryId>) {
    let starter = ctx.game.starter_player_id.or(ctx.pairing.first_player_id);
    let other = [ctx.pairing.first_player_id, ctx.pairing.second_player_id]
        .into_iter()
        .flatten()
        .find(|p| Some(*p) != starter);
    (starter, other)
}

/// The names of game `ctx`'s starter (dark) and other player (light).
pub fn sides_of(
    conn: &mut DbConnection,
    ctx: &rounds::GameContext,
) -> Result<(String, String), DbError> {
    let tid = ctx.round.tournament_id;
    let (starter, other) = sides(ctx);
    let mut name = |p: Option<EntryId>| -> Result<String, DbError> {
        p.map_or(Ok(String::new()), |p| {
            Ok(crate::db::players::find(conn, tid, p)?.name)
        })
    };
    Ok((name(starter)?, name(other)?))
}

/// Game `game_id` of tournament `tid` as its live board shows it, with
/// the round it is watched through.
/// (`None`: of whichever tournament it is).
pub fn watched_game(
    conn: &mut DbConnection,
    kept: &Kept,
    tid: Option<crate::ids::TournamentId>,
    game_id: GameId,
) -> Result<(Watched, rounds::GameContext, RecordedGame), DbError> {
    let none = || DbError::Refused(Refusal::NotFound(Thing::Game));
    let ctx = rounds::game_context(conn, game_id).map_err(|_| none())?;
    let of = ctx.round.tournament_id;
    if tid.is_some_and(|t| t != of) || ctx.pairing.second_player_id.is_none() {
        return Err(none());
    }
    let w = watched_round(conn, of, ctx.round.number).map_err(|_| none())?;
    let game = game_as_recorded(conn, kept, &ctx, &w.tournament.rules.play())?;
    Ok((w, ctx, game))
}

/// One player's own record of a game, as their phone shows it.
#[derive(Debug, Clone)]
pub struct OwnRecord {
    pub game: RecordedGame,
    pub context: rounds::GameContext,
    pub tournament: crate::director::model::Tournament,
    pub player: EntryId,
    /// The side the player plays (the starter plays dark).
    pub side: crate::rules::Side,
    /// The player's name, and their opponent's.
    pub names: (String, String),
    /// The opponent's irregular plies in this player's record that wait
    /// for their word (OGR 5.4): neither rectified nor let stand, and not
    /// played on (5.7).
    pub open_flags: Vec<Irregularity>,
}

impl OwnRecord {
    /// This player's record (empty: nothing recorded yet).
    pub fn mine(&self) -> Option<&Record> {
        self.game.records.iter().find(|r| r.player == self.player)
    }
}

/// The record of game `game_id` kept by the holder of link `key`.
pub fn own_record(
    conn: &mut DbConnection,
    kept: &Kept,
    key: &str,
    game_id: GameId,
) -> Result<OwnRecord, DbError> {
    let h = holder(conn, key)?;
    let ctx = recorded_by(conn, h, game_id)?;
    let tournament = tournaments::find(conn, h.tournament)?;
    let game = game_as_recorded(conn, kept, &ctx, &tournament.rules.play())?;
    let side = if ctx.game.starter_player_id == Some(h.player) {
        crate::rules::Side::Dark
    } else {
        crate::rules::Side::Light
    };
    let opponent = [ctx.pairing.first_player_id, ctx.pairing.second_player_id]
        .into_iter()
        .flatten()
        .find(|p| *p != h.player);
    let name = |c: &mut DbConnection, p: Option<EntryId>| -> Result<String, DbError> {
        p.map_or(Ok(String::new()), |p| {
            Ok(crate::db::players::find(c, h.tournament, p)?.name)
        })
    };
    let names = (name(conn, Some(h.player))?, name(conn, opponent)?);
    let said = plies::rulings_of(conn, game_id)?;
    let last = game
        .records
        .iter()
        .map(|r| r.recording.len())
        .max()
        .unwrap_or(0);
    let mut own = OwnRecord {
        game,
        context: ctx,
        tournament,
        player: h.player,
        side,
        names,
        open_flags: Vec::new(),
    };
    if let Some(mine) = own.mine() {
        let texts: Vec<&str> = mine.recording.texts().collect();
        own.open_flags = mine
            .recording
            .irregularities()
            .iter()
            .filter(|i| i.side != side && i.ply == last)
            .filter(|i| {
                let written = texts.get(i.ply as usize - 1).copied().unwrap_or_default();
                !said
                    .iter()
                    .any(|r| r.ply == i.ply as i32 && same_ply(&r.written, written))
            })
            .cloned()
            .collect();
    }
    Ok(own)
}

/// One game of a round's boards.
#[derive(Debug, Clone)]
pub struct RoundBoard {
    pub context: rounds::GameContext,
    pub game: RecordedGame,
    /// The starter's name (dark) and the other player's (light).
    pub names: (String, String),
}

/// The games of round `number` of tournament `tid` recorded at the
/// board, by table and game, for the round's boards and the display.
pub fn round_boards(
    conn: &mut DbConnection,
    kept: &Kept,
    tid: crate::ids::TournamentId,
    number: crate::ids::RoundNo,
) -> Result<(Watched, Vec<RoundBoard>), DbError> {
    let w = watched_round(conn, tid, number)?;
    let rules = w.tournament.rules.play();
    let names: HashMap<EntryId, String> = crate::db::players::list(conn, tid)?
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect();
    let mut boards = Vec::new();
    for c in plies::live_in(conn, &[w.round.id])? {
        let ctx = rounds::game_context(conn, c.game)?;
        let game = game_as_recorded(conn, kept, &ctx, &rules)?;
        let (starter, other) = sides(&ctx);
        let name = |p: Option<EntryId>| p.and_then(|p| names.get(&p).cloned()).unwrap_or_default();
        boards.push(RoundBoard {
            names: (name(starter), name(other)),
            context: ctx,
            game,
        });
    }
    boards.sort_by_key(|b| (b.context.pairing.table_no, b.context.game.number));
    Ok((w, boards))
}

/// A game's records as a venue sends them to where it publishes.
#[derive(Debug, Clone)]
pub struct RecordsToSend {
    pub game: GameId,
    pub place: plies::GamePlace,
    /// The game's live counter they are of.
    pub version: i32,
    /// The starter's record (dark) and the other player's (light).
    pub dark: Vec<String>,
    pub light: Vec<String>,
}

/// The records of tournament `tid`'s games that moved past what
/// publication `publication`'s target has.
pub fn records_to_send(
    conn: &mut DbConnection,
    tid: crate::ids::TournamentId,
    publication: i32,
) -> Result<Vec<RecordsToSend>, DbError> {
    let mut out = Vec::new();
    for (game, place, version) in plies::unsent(conn, tid, publication)? {
        let ctx = rounds::game_context(conn, game)?;
        let all = plies::of_game(conn, game)?;
        let of = |p: Option<EntryId>| -> Vec<String> {
            all.iter()
                .filter(|x| Some(x.player_id) == p)
                .map(|x| x.written.clone())
                .collect()
        };
        let (starter, other) = sides(&ctx);
        out.push(RecordsToSend {
            game,
            place,
            version,
            dark: of(starter),
            light: of(other),
        });
    }
    Ok(out)
}

/// The target of publication `publication` took game `game`'s records
/// at counter `version` (the sender's bookkeeping, like its revisions).
pub fn records_sent(
    conn: &mut DbConnection,
    publication: i32,
    game: GameId,
    version: i32,
) -> Result<(), DbError> {
    plies::sent(conn, publication, game, version)
}

/// The most plies a record sent by a venue may have: far more than any
/// game (the ten-move rule ends one long before).
pub const MOST_PLIES: usize = 2000;

/// A venue's records of game `place` of its published event `origin`
/// (`dark`: the starter's record), taken by the copy here as they are, so
/// that its live boards follow the venue's: each ply must be one ply as a
/// player writes it; the records replace the copy's and move its game's
/// live counter. Only the account that publishes the event may send them.
pub fn receive_records(
    conn: &mut DbConnection,
    by: &crate::db::users::User,
    origin: &str,
    place: plies::GamePlace,
    dark: &[String],
    light: &[String],
) -> Result<GameId, DbError> {
    let copy = crate::db::published::by_origin(conn, origin)?
        .filter(|p| by.is_admin() || p.published_by == Some(by.id))
        .ok_or(DbError::Refused(Refusal::NotFound(Thing::Tournament)))?;
    let Some(found) = plies::at_place(conn, copy.tournament_id, place)? else {
        return Err(DbError::Refused(Refusal::NotFound(Thing::Game)));
    };
    for (field, record) in [("dark", dark), ("light", light)] {
        if record.len() > MOST_PLIES {
            return Err(FieldError::new(field, Problem::TooMany { max: MOST_PLIES }).into());
        }
        let mut check = Recording::new(&crate::rules::RuleSet::Official.play());
        for written in record {
            check.push(written).map_err(|e| {
                FieldError::new(
                    field,
                    Problem::NotAMove {
                        text: written.trim().to_string(),
                        expected: e.expected,
                    },
                )
            })?;
        }
    }
    let (game, round) = (found.game, found.round);
    let starter = found.starter.or(found.first);
    let other = [found.first, found.second]
        .into_iter()
        .flatten()
        .find(|p| Some(*p) != starter);
    super::commit::unrecorded(conn, |c| {
        plies::hold(c, game)?;
        if let Some(s) = starter {
            plies::replace_record(c, game, s, dark)?;
        }
        if let Some(o) = other {
            plies::replace_record(c, game, o, light)?;
        }
        plies::moved(c, game, round)?;
        Ok((game, true))
    })
}

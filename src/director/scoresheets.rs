//! Records of games: submitting a scoresheet (by a referee, or by the
//! players through their pairing's link), checking it under the
//! tournament's rule set, comparing the players' records, the flags the
//! round and results pages show, and the referee's rulings.
//!
//! The check is the rules engine's ([`crate::rules::check`]), run on the
//! text as stored under the rule set stored with it, so a record reads the
//! same on every page, in the API and in `kraal check --json`.

use crate::refusal::{Refusal, Thing};
use crate::rounds::{OnGames, Refused};
use std::collections::HashMap;

use chrono::NaiveDateTime;

use super::TournamentData;
use crate::conflict::Conflict;
use crate::db::rounds::{self, Game, Pairing, Round};
use crate::db::scoresheets::{self as sheets, NewSheet, RulingBy, Sheet, SheetBy};
use crate::db::tournaments::{self, Tournament};
use crate::db::users::User;
use crate::db::{players, settings, DbConnection, DbError};
use crate::field::{FieldError, Problem};
use crate::ids::{EntryId, GameId, PairingId, TournamentId};
use crate::results::{GameResult, ResultEdit};
use crate::rules::check::check_sheet;
use crate::rules::notation::{self, Scoresheet};
use crate::rules::{first_difference, ParseError, Report};
use crate::tournament::{RecordSide, RuleSet, RulingKind};

/// The largest record taken: 64 KB of UTF-8 text.
pub const MAX_BYTES: usize = crate::tournament::MAX_RECORD_BYTES;

/// The earlier records of one game and side that the players' link keeps
/// (the newest ones); older ones are dropped when a new record arrives.
pub const LINK_KEEPS_SUPERSEDED: usize = 10;

/// The most text the players' link stores for one game, every record of
/// either side counted: 1 MB.
pub const LINK_MAX_GAME_BYTES: usize = 1024 * 1024;

/// Reads and checks a record's text under `rules` (the `[Rules]` tag of
/// the sheet does not override the tournament's rule set).
pub fn read(text: &str, rules: RuleSet) -> Result<(Scoresheet, Report), ParseError> {
    let sheet = notation::parse(text)?;
    let report = check_sheet(&sheet, &rules.play());
    Ok((sheet, report))
}

/// Refuses text that is not a record at all: too long, empty, or holding
/// a NUL character ([`crate::tournament::check_record_text`]).
pub fn refuse(text: &str) -> Result<(), DbError> {
    Ok(crate::tournament::check_record_text(text)?)
}

/// A record as stored, with its check.
#[derive(Debug, Clone)]
pub struct Submitted {
    pub sheet: Sheet,
    pub check: Result<Report, ParseError>,
}

/// What the audit trail says of a record.
fn summary(check: &Result<(Scoresheet, Report), ParseError>) -> String {
    match check {
        Err(e) => format!("unreadable: {e}"),
        Ok((_, r)) => {
            let mut s = format!("{} plies", r.plies);
            match r.irregularities.len() {
                0 => s.push_str(", no irregularity"),
                1 => s.push_str(", 1 irregularity"),
                n => s.push_str(&format!(", {n} irregularities")),
            }
            if let Some(b) = r.board_result {
                s.push_str(&format!(
                    ", board: {}",
                    crate::wording::rules::board_result(b, crate::wording::Lang::English)
                ));
            }
            s
        }
    }
}

/// Stores a record sent by a referee (the caller has checked that `by`
/// referees the game's tournament).
pub fn submit(
    conn: &mut DbConnection,
    game_id: GameId,
    side: RecordSide,
    text: &str,
    by: &User,
) -> Result<Submitted, DbError> {
    let ctx = rounds::game_context(conn, game_id)?;
    store(conn, &ctx.round, game_id, side, text, Some(by))
}

fn store(
    conn: &mut DbConnection,
    round: &Round,
    game_id: GameId,
    side: RecordSide,
    text: &str,
    by: Option<&User>,
) -> Result<Submitted, DbError> {
    refuse(text)?;
    if !round.is_published() {
        return Err(Refused::Draft {
            round: round.number.0,
            doing: OnGames::Records,
        }
        .into());
    }
    let tournament = tournaments::find(conn, round.tournament_id)?;
    let checked = read(text, tournament.rules);
    let new = NewSheet {
        tournament_id: tournament.id,
        game_id,
        side,
        text,
        rules: tournament.rules,
        error: checked.as_ref().err().map(ToString::to_string),
        by,
        summary: summary(&checked),
        // The link is open to anyone who holds it: what it may store is
        // bounded. A referee's record is kept whole.
        keep_superseded: by.is_none().then_some(LINK_KEEPS_SUPERSEDED),
        max_game_bytes: by.is_none().then_some(LINK_MAX_GAME_BYTES),
    };
    let sheet = super::commit(conn, by.map(|u| u.id), |w| sheets::submit(w, new))?;
    Ok(Submitted {
        sheet,
        check: checked.map(|(_, r)| r),
    })
}

/// A pairing as its player link shows it.
#[derive(Debug, Clone)]
pub struct LinkPairing {
    pub tournament: Tournament,
    pub round: Round,
    pub pairing: Pairing,
    pub games: Vec<Game>,
    /// Names by player id.
    pub names: HashMap<EntryId, String>,
    /// Records may still be sent: the referee has not locked the round.
    pub open: bool,
    /// The current records of the pairing's games.
    pub sheets: Vec<Sheet>,
}

impl LinkPairing {
    pub fn name(&self, id: Option<EntryId>) -> String {
        id.and_then(|i| self.names.get(&i).cloned())
            .unwrap_or_default()
    }
}

/// The secret of a pairing's player link: a digest of the pairing and an
/// installation secret kept in the settings, so every app process gives
/// the same link and nothing per pairing needs storing.
pub fn link_key(conn: &mut DbConnection, pairing_id: PairingId) -> Result<String, DbError> {
    let secret = settings::get_or_insert(conn, "player_link_secret", crate::accounts::new_token)?;
    let digest = crate::accounts::token_digest(&format!("{secret}:pairing:{pairing_id}"));
    Ok(digest[..32].to_string())
}

/// The pairing behind a player link; a wrong key is no such link.
pub fn open_link(
    conn: &mut DbConnection,
    pairing_id: PairingId,
    key: &str,
) -> Result<LinkPairing, DbError> {
    let expected = link_key(conn, pairing_id)?;
    if !crate::accounts::same_secret(key, &expected) {
        return Err(DbError::Refused(Refusal::NotFound(Thing::PlayerLink)));
    }
    let (pairing, round, games) = rounds::pairing_context(conn, pairing_id)?;
    if !round.is_published() || pairing.second_player_id.is_none() {
        return Err(DbError::Refused(Refusal::NotFound(Thing::PlayerLink)));
    }
    let tournament = tournaments::find(conn, round.tournament_id)?;
    let names = players::list(conn, tournament.id)?
        .into_iter()
        .filter(|p| Some(p.id) == pairing.first_player_id || Some(p.id) == pairing.second_player_id)
        .map(|p| (p.id, p.name))
        .collect();
    let open = round.locked_at.is_none();
    let ids: Vec<GameId> = games.iter().map(|g| g.id).collect();
    let sheets = sheets::current_of_tournament(conn, tournament.id)?
        .into_iter()
        .filter(|s| ids.contains(&s.game_id))
        .collect();
    Ok(LinkPairing {
        tournament,
        round,
        pairing,
        games,
        names,
        open,
        sheets,
    })
}

/// Stores a player's record sent through the pairing's link: only for a
/// game of that pairing, only as dark's or light's record, and only until
/// the referee locks the round.
pub fn submit_by_link(
    conn: &mut DbConnection,
    pairing_id: PairingId,
    key: &str,
    game_id: GameId,
    side: RecordSide,
    text: &str,
) -> Result<Submitted, DbError> {
    let link = open_link(conn, pairing_id, key)?;
    if !link.games.iter().any(|g| g.id == game_id) {
        return Err(DbError::Refused(Refusal::NotFound(Thing::Game)));
    }
    if side == RecordSide::Referee {
        return Err(FieldError::new("side", Problem::NotAPlayersSide).into());
    }
    if !link.open {
        return Err(Refused::LinkLocked {
            round: link.round.number.0,
        }
        .into());
    }
    store(conn, &link.round, game_id, side, text, None)
}

/// A stored record, read.
#[derive(Debug, Clone)]
pub struct RecordView {
    pub record: SheetBy,
    pub parsed: Option<Scoresheet>,
    pub check: Result<Report, ParseError>,
}

impl RecordView {
    fn of(record: SheetBy) -> RecordView {
        let (parsed, check) = match read(&record.sheet.text, record.sheet.rules) {
            Ok((s, r)) => (Some(s), Ok(r)),
            Err(e) => (None, Err(e)),
        };
        RecordView {
            record,
            parsed,
            check,
        }
    }

    pub fn side(&self) -> RecordSide {
        self.record.sheet.side
    }

    pub fn is_current(&self) -> bool {
        self.record.sheet.superseded_at.is_none()
    }

    /// The result the board shows, as the tournament records it.
    pub fn board_result(&self) -> Option<GameResult> {
        let b = self.check.as_ref().ok()?.board_result?;
        Some(GameResult::of_winner(b.winner()))
    }
}

/// What the round and results pages mark on a game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Flags {
    /// Records with irregularities (or a claimed result the board
    /// contradicts), with how many.
    pub irregular: Vec<(RecordSide, usize)>,
    /// Records that could not be read.
    pub unreadable: Vec<RecordSide>,
    /// A record whose board result is not the entered result.
    pub board_disagrees: Option<(RecordSide, GameResult)>,
    /// The first ply where the players' records differ.
    pub differ_at: Option<u32>,
    /// The referee's latest ruling, when it is newer than every record.
    pub ruled: Option<RulingKind>,
    /// The tournament requires records, the game has a result (played on
    /// the board) and no record.
    pub missing: bool,
}

impl Flags {
    /// Computes the flags of a game from its current records.
    pub fn of(
        entered: Option<GameResult>,
        current: &[&RecordView],
        rulings: &[(RulingKind, NaiveDateTime)],
        required: bool,
    ) -> Flags {
        let mut f = Flags {
            missing: required && current.is_empty() && entered.is_some_and(played),
            ..Flags::default()
        };
        for r in current {
            match &r.check {
                Err(_) => f.unreadable.push(r.side()),
                Ok(report) => {
                    let n = report.irregularities.len()
                        + usize::from(report.result_agrees == Some(false));
                    if n > 0 {
                        f.irregular.push((r.side(), n));
                    }
                }
            }
            if f.board_disagrees.is_none() {
                if let (Some(board), Some(entered)) = (r.board_result(), entered) {
                    if board != entered {
                        f.board_disagrees = Some((r.side(), board));
                    }
                }
            }
        }
        let of = |side| current.iter().find(|r| r.side() == side);
        if let (Some(d), Some(l)) = (of(RecordSide::Dark), of(RecordSide::Light)) {
            if let (Some(a), Some(b)) = (&d.parsed, &l.parsed) {
                f.differ_at = first_difference(a, b);
            }
        }
        let latest_record = current.iter().map(|r| r.record.sheet.submitted_at).max();
        f.ruled = rulings
            .iter()
            .rev()
            .find(|(_, at)| latest_record.is_none_or(|l| *at >= l))
            .map(|(k, _)| *k);
        f
    }

    /// Something for the referee to look at (a ruling settles it).
    pub fn any(&self) -> bool {
        !self.irregular.is_empty()
            || !self.unreadable.is_empty()
            || self.board_disagrees.is_some()
            || self.differ_at.is_some()
            || self.missing
    }

    /// The flags without words, in the order of [`Flags::lines`]: `missing`,
    /// `irregular`, `unreadable`, `board_disagrees`, `differ`, `ruled`.
    pub fn kinds(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.missing {
            out.push("missing");
        }
        if !self.irregular.is_empty() {
            out.push("irregular");
        }
        if !self.unreadable.is_empty() {
            out.push("unreadable");
        }
        if self.board_disagrees.is_some() {
            out.push("board_disagrees");
        }
        if self.differ_at.is_some() {
            out.push("differ");
        }
        if self.ruled.is_some() {
            out.push("ruled");
        }
        out
    }

    /// The flags in words, one short line each.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.missing {
            out.push("no record, and the tournament requires one".to_string());
        }
        for (side, n) in &self.irregular {
            out.push(format!(
                "{}: {n} irregularit{}",
                side.label(),
                if *n == 1 { "y" } else { "ies" }
            ));
        }
        for side in &self.unreadable {
            out.push(format!("{}: cannot be read", side.label()));
        }
        if let Some((side, board)) = self.board_disagrees {
            out.push(format!(
                "the board shows {} ({}), not the entered result",
                board.label(),
                side.label()
            ));
        }
        if let Some(ply) = self.differ_at {
            out.push(format!("the players' records differ from ply {ply}"));
        }
        if let Some(k) = self.ruled {
            out.push(format!("ruled: {}", k.label()));
        }
        out
    }
}

/// Whether a result says the game was played on the board (not a forfeit
/// or a game not played), so that a record of it should exist.
fn played(r: GameResult) -> bool {
    matches!(
        r,
        GameResult::StarterWon | GameResult::OtherWon | GameResult::Draw
    )
}

/// The games of `round` with their entered results, for [`flags_of`].
pub fn round_games(data: &TournamentData, round: &Round) -> HashMap<GameId, Option<GameResult>> {
    data.pairings_of(round)
        .iter()
        .flat_map(|p| data.games_of(p.id))
        .map(|g| (g.id, g.result))
        .collect()
}

/// The players' records of games recorded at the board, among `games`,
/// as records of the dark and light sides: a game recorded at the board
/// needs no scoresheet typed again (docs/scoresheets.md). Each is dated by
/// its last ply and comes before any scoresheet sent for its side, which
/// replaces it as a newer record would.
fn recorded_at_board(
    conn: &mut DbConnection,
    tournament: &Tournament,
    games: &[(GameId, Option<EntryId>)],
) -> Result<HashMap<GameId, Vec<RecordView>>, DbError> {
    let ids: Vec<GameId> = games.iter().map(|g| g.0).collect();
    let all = crate::db::plies::of_games(conn, &ids)?;
    let mut out: HashMap<GameId, Vec<RecordView>> = HashMap::new();
    for (game, starter) in games {
        let mut players: Vec<EntryId> = all
            .iter()
            .filter(|p| p.game_id == *game)
            .map(|p| p.player_id)
            .collect();
        players.dedup();
        for player in players {
            let mine: Vec<&crate::db::plies::RecordedPly> = all
                .iter()
                .filter(|p| p.game_id == *game && p.player_id == player)
                .collect();
            let Some(last) = mine.last() else { continue };
            let text: Vec<&str> = mine.iter().map(|p| p.written.as_str()).collect();
            let sheet = Sheet {
                id: 0,
                game_id: *game,
                side: if Some(player) == *starter {
                    RecordSide::Dark
                } else {
                    RecordSide::Light
                },
                text: text.join(" "),
                rules: tournament.rules,
                error: None,
                submitted_by: None,
                by_link: true,
                submitted_at: last.recorded_at,
                superseded_at: None,
            };
            out.entry(*game).or_default().push(RecordView::of(SheetBy {
                sheet,
                by: Some("recorded at the board".to_string()),
            }));
        }
    }
    Ok(out)
}

/// Flags of the games of `games` (id and entered result) that have a
/// record, or lack one the tournament requires, by game id.
pub fn flags_of(
    conn: &mut DbConnection,
    tournament_id: TournamentId,
    games: &HashMap<GameId, Option<GameResult>>,
) -> Result<HashMap<GameId, Flags>, DbError> {
    let tournament = tournaments::find(conn, tournament_id)?;
    let required = tournament.records_required;
    let ids: Vec<GameId> = games.keys().copied().collect();
    let starters = rounds::starters_of(conn, &ids)?;
    let mut by_game = recorded_at_board(conn, &tournament, &starters)?;
    for s in sheets::current_of_tournament(conn, tournament_id)? {
        if games.contains_key(&s.game_id) {
            let views = by_game.entry(s.game_id).or_default();
            // A scoresheet sent for a side replaces its record at the board.
            views.retain(|v| v.side() != s.side);
            views.push(RecordView::of(SheetBy { sheet: s, by: None }));
        }
    }
    let mut rulings: HashMap<GameId, Vec<(RulingKind, NaiveDateTime)>> = HashMap::new();
    for r in sheets::rulings_of_tournament(conn, tournament_id)? {
        rulings
            .entry(r.game_id)
            .or_default()
            .push((r.kind, r.ruled_at));
    }
    let mut out = HashMap::new();
    for (gid, entered) in games {
        let current: Vec<&RecordView> = by_game
            .get(gid)
            .map(|r| r.iter().collect())
            .unwrap_or_default();
        let ruled = rulings.get(gid).map(Vec::as_slice).unwrap_or(&[]);
        let f = Flags::of(*entered, &current, ruled, required);
        // Games with a record (clean or not) and games flagged for lacking one.
        if !current.is_empty() || f.any() {
            out.insert(*gid, f);
        }
    }
    Ok(out)
}

/// A game with everything recorded about it.
#[derive(Debug, Clone)]
pub struct GameRecords {
    pub tournament: Tournament,
    pub round: Round,
    pub pairing: Pairing,
    pub game: Game,
    /// The starter, who has the dark cows (OGR 3.1.3), and the other player.
    pub dark: String,
    pub light: String,
    /// Every record, oldest first, superseded ones included.
    pub records: Vec<RecordView>,
    pub rulings: Vec<RulingBy>,
    /// Every game of the round has its result.
    pub round_complete: bool,
}

impl GameRecords {
    /// The current record of `side`.
    pub fn current(&self, side: RecordSide) -> Option<&RecordView> {
        self.records
            .iter()
            .rev()
            .find(|r| r.side() == side && r.is_current())
    }

    /// Current records, dark, light, referee.
    pub fn current_all(&self) -> Vec<&RecordView> {
        RecordSide::ALL
            .iter()
            .filter_map(|s| self.current(*s))
            .collect()
    }

    pub fn flags(&self) -> Flags {
        let rulings: Vec<(RulingKind, NaiveDateTime)> = self
            .rulings
            .iter()
            .map(|r| (r.ruling.kind, r.ruling.ruled_at))
            .collect();
        Flags::of(
            self.game.result,
            &self.current_all(),
            &rulings,
            self.tournament.records_required,
        )
    }

    /// The record a ruling "set the board result" goes by and the result
    /// its board shows: the referee's copy if it shows one, else the
    /// players' records when they show the same.
    pub fn board_result(&self) -> Result<(RecordSide, GameResult), Problem> {
        if let Some(r) = self.current(RecordSide::Referee) {
            if let Some(b) = r.board_result() {
                return Ok((RecordSide::Referee, b));
            }
        }
        let shown: Vec<(RecordSide, GameResult)> = [RecordSide::Dark, RecordSide::Light]
            .iter()
            .filter_map(|s| Some((*s, self.current(*s)?.board_result()?)))
            .collect();
        match shown.as_slice() {
            [] => Err(Problem::NoBoardResult),
            [one] => Ok(*one),
            [a, b] if a.1 == b.1 => Ok(*a),
            [a, b] => Err(Problem::RecordsDisagree {
                dark: a.1,
                light: b.1,
            }),
            // Two sides only: dark and light.
            _ => Err(Problem::NoBoardResult),
        }
    }
}

/// Everything recorded about game `game_id`.
pub fn game(conn: &mut DbConnection, game_id: GameId) -> Result<GameRecords, DbError> {
    let ctx = rounds::game_context(conn, game_id)?;
    let tournament = tournaments::find(conn, ctx.round.tournament_id)?;
    let names: HashMap<EntryId, String> = players::list(conn, tournament.id)?
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect();
    let name = |id: Option<EntryId>| id.and_then(|i| names.get(&i).cloned()).unwrap_or_default();
    let starter = ctx.game.starter_player_id;
    let other = if starter == ctx.pairing.first_player_id {
        ctx.pairing.second_player_id
    } else {
        ctx.pairing.first_player_id
    };
    let mut records: Vec<RecordView> = recorded_at_board(conn, &tournament, &[(game_id, starter)])?
        .remove(&game_id)
        .unwrap_or_default();
    records.extend(
        sheets::of_game(conn, game_id)?
            .into_iter()
            .map(RecordView::of),
    );
    let round_complete = rounds::missing_in_round(conn, ctx.round.id)? == 0;
    Ok(GameRecords {
        round_complete,
        dark: name(starter),
        light: name(other),
        records,
        rulings: sheets::rulings_of_game(conn, game_id)?,
        tournament,
        round: ctx.round,
        pairing: ctx.pairing,
        game: ctx.game,
    })
}

/// A referee's ruling, as asked on the game page.
#[derive(Debug, Clone)]
pub struct RulingAsked {
    pub kind: RulingKind,
    /// For `other`: the result to set.
    pub result: Option<GameResult>,
    pub reason: String,
}

/// Rules on a game: keeps the entered result, sets the board's, or sets
/// another with a reason. The result change (if any) goes through the one
/// save-a-result use case; the ruling itself is audited.
pub fn rule(
    conn: &mut DbConnection,
    game_id: GameId,
    asked: &RulingAsked,
    by: &User,
) -> Result<(), DbError> {
    let records = game(conn, game_id)?;
    let invalid =
        |field: &'static str, problem: Problem| DbError::from(FieldError::new(field, problem));
    if !records.round.is_published() {
        return Err(Refused::Draft {
            round: records.round.number.0,
            doing: OnGames::Rulings,
        }
        .into());
    }
    let reason = asked.reason.trim();
    crate::roster::check_printable("reason", reason)?;
    let result = match asked.kind {
        RulingKind::Keep => Some(
            records
                .game
                .result
                .ok_or_else(|| invalid("kind", Problem::NothingToKeep))?,
        ),
        RulingKind::Board => Some(records.board_result().map_err(|p| invalid("kind", p))?.1),
        RulingKind::Other => {
            if reason.is_empty() {
                return Err(invalid("reason", Problem::ReasonRequired));
            }
            Some(
                asked
                    .result
                    .ok_or_else(|| invalid("result", Problem::NoResult))?,
            )
        }
    };
    let tid = records.tournament.id;
    super::commit(conn, Some(by.id), |w| {
        if result != records.game.result {
            let edit = ResultEdit {
                game: game_id,
                wanted: result,
                seen_version: Some(records.game.version),
                by: crate::results::EnteredBy::Referee,
            };
            // A new ruling replaces the one before it.
            let report = super::results::save_in(w, tid, &[edit], &[game_id])?;
            if let Some(c) = report.conflicts.first() {
                return Err(DbError::Refused(Refusal::Conflict(Conflict::Changed(
                    c.meanwhile.clone(),
                ))));
            }
            if let Some((_, why)) = report.refused.first() {
                return Err(DbError::Refused(Refusal::Conflict(why.clone())));
            }
        }
        sheets::add_ruling(w, tid, game_id, asked.kind, result, reason)
    })
}

//! A whole tournament as one file, to move it between two Kraal databases
//! of either backend (`kraal export event`, `kraal import event`, and the
//! download on the tournament page).
//!
//! The file holds the tournament's own rows, table by table, as stored:
//! settings, players, relations, kept-apart pairs, requested byes, teams
//! and their members, rounds, pairings and matches, line-ups, games and
//! results, scoresheets, rulings, the audit trail and the referees. Ids in
//! the file are the source database's; the import gives every row a new id
//! in the target and rewrites every reference, so an event can be imported
//! into a database that already holds others (or a copy of itself).
//!
//! Accounts are not part of an event: they belong to a server, with their
//! passwords. The file names each account a row refers to (who entered a
//! result, who is a referee, who made an audited change) by its name; the
//! import links those to the target's accounts of the same name and reports
//! the names it could not find, whose rows are kept without an author.
//! Captains' secret links are not carried either: a file that referees
//! download must not open line-ups to whoever reads it, so the referee
//! makes each team a new link in the target.
//!
//! The rows are this module's own types, not the ones the pages read: the
//! file is a versioned format, so it holds every column as stored (a rule
//! set or a result in its stored spelling, checked on import), and nothing
//! the app adds to what it shows can change it.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

use super::audit::Write;
use super::schema::{
    audit_entries, forbidden_pairs, games, lineups, pairings, players, relations, requested_byes,
    rounds, rulings, scoresheets, team_members, teams, tournament_referees, tournaments, users,
};
use super::{DbConnection, DbError};
use crate::change::{Action, Change, Detail, Entity};

/// What the file says it is; anything else is refused by name.
pub const FORMAT: &str = "kraal event";
/// The version of the layout below. A later Kraal reads older versions; an
/// older Kraal refuses a newer file rather than dropping what it does not
/// know.
///
/// Version 2 added each audit entry's `detail` (its round and players as
/// ids); a version 1 file's entries said those in their text, which
/// [`upgrade_v1`] reads once as the file is read.
pub const VERSION: u32 = 2;
/// The largest event file taken: 50 MB (a season's league with every
/// record is a few MB).
pub const MAX_FILE_BYTES: usize = 50 * 1024 * 1024;

#[derive(Debug, Clone, Serialize, Deserialize, Queryable, Selectable, Insertable)]
#[diesel(table_name = tournaments)]
#[serde(deny_unknown_fields)]
pub struct TournamentRow {
    #[diesel(skip_insertion)]
    pub id: i32,
    pub name: String,
    pub venue: String,
    pub starts_on: Option<NaiveDate>,
    pub ends_on: Option<NaiveDate>,
    pub system: String,
    pub rules: String,
    pub games_per_pairing: i32,
    pub ranking: String,
    pub tiebreaks: String,
    pub bye_value: String,
    pub created_by: Option<i32>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub revision: i32,
    pub records_public: bool,
    pub records_required: bool,
    /// Empty until the first pairing where the field decides them.
    pub rounds: Option<i32>,
    /// Files written before cycles were kept play one.
    #[serde(default = "one_cycle")]
    pub cycles: i32,
}

fn one_cycle() -> i32 {
    1
}

#[derive(Debug, Clone, Serialize, Deserialize, Queryable, Selectable, Insertable)]
#[diesel(table_name = players)]
#[serde(deny_unknown_fields)]
pub struct PlayerRow {
    #[diesel(skip_insertion)]
    pub id: i32,
    pub tournament_id: i32,
    pub name: String,
    pub club: String,
    pub rating: Option<i32>,
    pub seed: Option<i32>,
    pub federation_id: String,
    pub withdrawn_from_round: Option<i32>,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Clone, Serialize, Deserialize, Queryable, Selectable, Insertable)]
#[diesel(table_name = relations)]
#[serde(deny_unknown_fields)]
pub struct RelationRow {
    #[diesel(skip_insertion)]
    pub id: i32,
    pub tournament_id: i32,
    pub player_a: i32,
    pub player_b: i32,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Clone, Serialize, Deserialize, Queryable, Selectable, Insertable)]
#[diesel(table_name = requested_byes)]
#[serde(deny_unknown_fields)]
pub struct RequestedByeRow {
    #[diesel(skip_insertion)]
    pub id: i32,
    pub tournament_id: i32,
    pub player_id: i32,
    pub round: i32,
    pub half: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, Queryable, Selectable, Insertable)]
#[diesel(table_name = forbidden_pairs)]
#[serde(deny_unknown_fields)]
pub struct ForbiddenRow {
    #[diesel(skip_insertion)]
    pub id: i32,
    pub tournament_id: i32,
    pub player_a: i32,
    pub player_b: i32,
    pub from_round: Option<i32>,
    pub to_round: Option<i32>,
    pub waived: bool,
    pub note: String,
    pub created_by: Option<i32>,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Clone, Serialize, Deserialize, Queryable, Selectable, Insertable)]
#[diesel(table_name = teams)]
#[serde(deny_unknown_fields)]
pub struct TeamRow {
    #[diesel(skip_insertion)]
    pub id: i32,
    pub tournament_id: i32,
    pub name: String,
    pub club: String,
    /// Never written to the file (see the module comment); the referee
    /// makes a new link after the import.
    #[serde(skip)]
    pub captain_digest: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, Queryable, Selectable, Insertable)]
#[diesel(table_name = team_members)]
#[serde(deny_unknown_fields)]
pub struct TeamMemberRow {
    #[diesel(skip_insertion)]
    pub id: i32,
    pub team_id: i32,
    pub player_id: i32,
    pub board: Option<i32>,
    pub substitute: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, Queryable, Selectable, Insertable)]
#[diesel(table_name = rounds)]
#[serde(deny_unknown_fields)]
pub struct RoundRow {
    #[diesel(skip_insertion)]
    pub id: i32,
    pub tournament_id: i32,
    pub number: i32,
    pub status: String,
    pub explanation: String,
    pub created_at: NaiveDateTime,
    pub published_at: Option<NaiveDateTime>,
    pub locked_at: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, Serialize, Deserialize, Queryable, Selectable, Insertable)]
#[diesel(table_name = pairings)]
#[serde(deny_unknown_fields)]
pub struct PairingRow {
    #[diesel(skip_insertion)]
    pub id: i32,
    pub round_id: i32,
    pub table_no: i32,
    pub first_player_id: Option<i32>,
    pub second_player_id: Option<i32>,
    pub first_team_id: Option<i32>,
    pub second_team_id: Option<i32>,
    pub team_pairing_id: Option<i32>,
    pub board: Option<i32>,
    pub bye: Option<String>,
    pub explanation: String,
    pub started: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, Queryable, Selectable, Insertable)]
#[diesel(table_name = lineups)]
#[serde(deny_unknown_fields)]
pub struct LineupRow {
    #[diesel(skip_insertion)]
    pub id: i32,
    pub round_id: i32,
    pub team_id: i32,
    pub board: i32,
    pub player_id: i32,
    pub replaces_player_id: Option<i32>,
}

#[derive(Debug, Clone, Serialize, Deserialize, Queryable, Selectable, Insertable)]
#[diesel(table_name = games)]
#[serde(deny_unknown_fields)]
pub struct GameRow {
    #[diesel(skip_insertion)]
    pub id: i32,
    pub pairing_id: i32,
    pub number: i32,
    pub starter_player_id: Option<i32>,
    pub result: Option<String>,
    pub tiebreak: bool,
    pub scoresheet: Option<String>,
    pub version: i32,
    pub updated_at: Option<NaiveDateTime>,
    pub updated_by: Option<i32>,
}

#[derive(Debug, Clone, Serialize, Deserialize, Queryable, Selectable, Insertable)]
#[diesel(table_name = scoresheets)]
#[serde(deny_unknown_fields)]
pub struct ScoresheetRow {
    #[diesel(skip_insertion)]
    pub id: i32,
    pub game_id: i32,
    pub side: String,
    pub text: String,
    pub rules: String,
    pub error: Option<String>,
    pub submitted_by: Option<i32>,
    pub by_link: bool,
    pub submitted_at: NaiveDateTime,
    pub superseded_at: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, Serialize, Deserialize, Queryable, Selectable, Insertable)]
#[diesel(table_name = rulings)]
#[serde(deny_unknown_fields)]
pub struct RulingRow {
    #[diesel(skip_insertion)]
    pub id: i32,
    pub game_id: i32,
    pub kind: String,
    pub result: Option<String>,
    pub reason: String,
    pub ruled_by: Option<i32>,
    pub ruled_at: NaiveDateTime,
}

#[derive(Debug, Clone, Serialize, Deserialize, Queryable, Selectable, Insertable)]
#[diesel(table_name = audit_entries)]
#[serde(deny_unknown_fields)]
pub struct AuditRow {
    #[diesel(skip_insertion)]
    pub id: i32,
    pub tournament_id: Option<i32>,
    pub user_id: Option<i32>,
    pub at: NaiveDateTime,
    pub action: String,
    pub entity: String,
    pub entity_id: Option<i32>,
    pub old_value: Option<String>,
    pub new_value: Option<String>,
    /// The [`crate::change::Detail`] as JSON (version 2 on).
    #[serde(default)]
    pub detail: Option<String>,
}

/// One tournament, every row of it, as the file holds it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventFile {
    pub format: String,
    pub version: u32,
    pub exported_at: NaiveDateTime,
    /// The names of the accounts the rows below refer to, by their id in
    /// the source database.
    pub accounts: BTreeMap<i32, String>,
    /// The source's ids of the tournament's referees.
    pub referees: Vec<i32>,
    pub tournament: TournamentRow,
    pub players: Vec<PlayerRow>,
    pub relations: Vec<RelationRow>,
    pub requested_byes: Vec<RequestedByeRow>,
    pub forbidden_pairs: Vec<ForbiddenRow>,
    pub teams: Vec<TeamRow>,
    pub team_members: Vec<TeamMemberRow>,
    pub rounds: Vec<RoundRow>,
    pub pairings: Vec<PairingRow>,
    pub lineups: Vec<LineupRow>,
    pub games: Vec<GameRow>,
    pub scoresheets: Vec<ScoresheetRow>,
    pub rulings: Vec<RulingRow>,
    pub audit: Vec<AuditRow>,
}

/// Reads every row of one tournament, in one transaction so the file is one
/// moment of the event even while results are being entered.
pub fn export(conn: &mut DbConnection, tid: i32) -> Result<EventFile, DbError> {
    conn.transaction(|conn| {
        let tournament: TournamentRow = tournaments::table
            .find(tid)
            .select(TournamentRow::as_select())
            .first(conn)
            .optional()?
            .ok_or(DbError::NotFound("tournament"))?;
        let players: Vec<PlayerRow> = players::table
            .filter(players::tournament_id.eq(tid))
            .order(players::id)
            .select(PlayerRow::as_select())
            .load(conn)?;
        let relations: Vec<RelationRow> = relations::table
            .filter(relations::tournament_id.eq(tid))
            .order(relations::id)
            .select(RelationRow::as_select())
            .load(conn)?;
        let requested_byes: Vec<RequestedByeRow> = requested_byes::table
            .filter(requested_byes::tournament_id.eq(tid))
            .order(requested_byes::id)
            .select(RequestedByeRow::as_select())
            .load(conn)?;
        let forbidden_pairs: Vec<ForbiddenRow> = forbidden_pairs::table
            .filter(forbidden_pairs::tournament_id.eq(tid))
            .order(forbidden_pairs::id)
            .select(ForbiddenRow::as_select())
            .load(conn)?;
        let teams: Vec<TeamRow> = teams::table
            .filter(teams::tournament_id.eq(tid))
            .order(teams::id)
            .select(TeamRow::as_select())
            .load(conn)?;
        let team_ids: Vec<i32> = teams.iter().map(|t| t.id).collect();
        let team_members: Vec<TeamMemberRow> = team_members::table
            .filter(team_members::team_id.eq_any(&team_ids))
            .order(team_members::id)
            .select(TeamMemberRow::as_select())
            .load(conn)?;
        let rounds: Vec<RoundRow> = rounds::table
            .filter(rounds::tournament_id.eq(tid))
            .order(rounds::id)
            .select(RoundRow::as_select())
            .load(conn)?;
        let round_ids: Vec<i32> = rounds.iter().map(|r| r.id).collect();
        let pairings: Vec<PairingRow> = pairings::table
            .filter(pairings::round_id.eq_any(&round_ids))
            .order(pairings::id)
            .select(PairingRow::as_select())
            .load(conn)?;
        let lineups: Vec<LineupRow> = lineups::table
            .filter(lineups::round_id.eq_any(&round_ids))
            .order(lineups::id)
            .select(LineupRow::as_select())
            .load(conn)?;
        let games: Vec<GameRow> = games::table
            .inner_join(pairings::table)
            .filter(pairings::round_id.eq_any(&round_ids))
            .order(games::id)
            .select(GameRow::as_select())
            .load(conn)?;
        let game_ids: Vec<i32> = games.iter().map(|g| g.id).collect();
        let mut scoresheets: Vec<ScoresheetRow> = Vec::new();
        let mut rulings: Vec<RulingRow> = Vec::new();
        // Chunks keep the bound parameters under every backend's limit.
        for chunk in game_ids.chunks(10_000) {
            scoresheets.extend(
                scoresheets::table
                    .filter(scoresheets::game_id.eq_any(chunk))
                    .order(scoresheets::id)
                    .select(ScoresheetRow::as_select())
                    .load(conn)?,
            );
            rulings.extend(
                rulings::table
                    .filter(rulings::game_id.eq_any(chunk))
                    .order(rulings::id)
                    .select(RulingRow::as_select())
                    .load(conn)?,
            );
        }
        let audit: Vec<AuditRow> = audit_entries::table
            .filter(audit_entries::tournament_id.eq(tid))
            .order(audit_entries::id)
            .select(AuditRow::as_select())
            .load(conn)?;
        let referees: Vec<i32> = tournament_referees::table
            .filter(tournament_referees::tournament_id.eq(tid))
            .order(tournament_referees::user_id)
            .select(tournament_referees::user_id)
            .load(conn)?;

        let mut user_ids: BTreeSet<i32> = referees.iter().copied().collect();
        user_ids.extend(tournament.created_by);
        user_ids.extend(forbidden_pairs.iter().filter_map(|f| f.created_by));
        user_ids.extend(games.iter().filter_map(|g| g.updated_by));
        user_ids.extend(scoresheets.iter().filter_map(|s| s.submitted_by));
        user_ids.extend(rulings.iter().filter_map(|r| r.ruled_by));
        user_ids.extend(audit.iter().filter_map(|a| a.user_id));
        user_ids.extend(
            audit
                .iter()
                .filter(|a| a.entity == Entity::Referee.as_str())
                .filter_map(|a| a.entity_id),
        );
        let ids: Vec<i32> = user_ids.into_iter().collect();
        let accounts: BTreeMap<i32, String> = users::table
            .filter(users::id.eq_any(&ids))
            .select((users::id, users::name))
            .load::<(i32, String)>(conn)?
            .into_iter()
            .collect();

        Ok(EventFile {
            format: FORMAT.into(),
            version: VERSION,
            exported_at: super::now(),
            accounts,
            referees,
            tournament,
            players,
            relations,
            requested_byes,
            forbidden_pairs,
            teams,
            team_members,
            rounds,
            pairings,
            lineups,
            games,
            scoresheets,
            rulings,
            audit,
        })
    })
}

/// What an import did.
#[derive(Debug, Clone, Serialize)]
pub struct Imported {
    /// The tournament's id in the target database.
    pub tournament: i32,
    pub players: usize,
    pub rounds: usize,
    pub games: usize,
    /// Account names the file refers to that the target does not have:
    /// their rows are kept without an author (and, for referees, without
    /// the assignment).
    pub unknown_accounts: Vec<String>,
}

/// Reads an event file, refusing anything that is not one with a message
/// that names the problem (the line and column of bad JSON, the field of a
/// wrong value, the row that refers to something not in the file).
pub fn parse(text: &str) -> Result<EventFile, DbError> {
    let invalid = |message: String| DbError::Invalid {
        field: "file",
        message,
    };
    if text.len() > MAX_FILE_BYTES {
        return Err(invalid(format!(
            "the file is {} MB; at most {} MB are taken",
            text.len().div_ceil(1024 * 1024),
            MAX_FILE_BYTES / (1024 * 1024)
        )));
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| invalid(format!("the file is not JSON: {e}")))?;
    match value.get("format").and_then(|f| f.as_str()) {
        Some(FORMAT) => {}
        Some(other) => {
            return Err(invalid(format!(
                "the file is a '{other}', not a '{FORMAT}' (made by `kraal export event`)"
            )))
        }
        None => {
            return Err(invalid(format!(
                "the file does not say it is a '{FORMAT}' (made by `kraal export event`)"
            )))
        }
    }
    let version = value.get("version").and_then(|v| v.as_u64());
    match version {
        Some(v) if (1..=u64::from(VERSION)).contains(&v) => {}
        Some(v) => {
            return Err(invalid(format!(
                "the file is version {v} of the event format; this Kraal reads version {VERSION}"
            )))
        }
        None => return Err(invalid("the file has no version".into())),
    }
    if let Some(path) = nul_at(&value, &mut String::new()) {
        return Err(invalid(format!(
            "{path} holds a NUL character, which no database stores"
        )));
    }
    let mut file: EventFile = serde_json::from_value(value)
        .map_err(|e| invalid(format!("the file is not a valid event: {e}")))?;
    if version == Some(1) {
        upgrade_v1(&mut file);
    }
    check_values(&file)?;
    check_ids(&file)?;
    check_rows(&file)?;
    Ok(file)
}

/// Every row of a table needs its own id: two players with one id would
/// make one of them vanish (or, read another way, a second player appear),
/// and every reference to it ambiguous. Refused before anything is read
/// further, naming both rows.
fn check_ids(file: &EventFile) -> Result<(), DbError> {
    fn unique(table: &str, ids: impl Iterator<Item = i32>) -> Result<(), DbError> {
        let mut seen: HashMap<i32, usize> = HashMap::new();
        for (i, id) in ids.enumerate() {
            if let Some(first) = seen.insert(id, i) {
                return Err(DbError::Invalid {
                    field: "file",
                    message: format!(
                        "{table}[{i}] has id {id}, as {table}[{first}] does: every row needs its own id"
                    ),
                });
            }
        }
        Ok(())
    }
    unique("players", file.players.iter().map(|r| r.id))?;
    unique("relations", file.relations.iter().map(|r| r.id))?;
    unique("requested_byes", file.requested_byes.iter().map(|r| r.id))?;
    unique("forbidden_pairs", file.forbidden_pairs.iter().map(|r| r.id))?;
    unique("teams", file.teams.iter().map(|r| r.id))?;
    unique("team_members", file.team_members.iter().map(|r| r.id))?;
    unique("rounds", file.rounds.iter().map(|r| r.id))?;
    unique("pairings", file.pairings.iter().map(|r| r.id))?;
    unique("lineups", file.lineups.iter().map(|r| r.id))?;
    unique("games", file.games.iter().map(|r| r.id))?;
    unique("scoresheets", file.scoresheets.iter().map(|r| r.id))?;
    unique("rulings", file.rulings.iter().map(|r| r.id))?;
    unique("audit", file.audit.iter().map(|r| r.id))?;
    Ok(())
}

/// Every row passes the checks the forms and the API apply to what a
/// referee types (the same functions of the core), named by its place in
/// the file: a name, a rating, a round, a kept-apart range, a team, a
/// line-up.
fn check_rows(file: &EventFile) -> Result<(), DbError> {
    use crate::roster::{self, FieldError, PlayerFields};
    use crate::tournament::{RawTournament, MAX_ROUNDS};
    let bad = |at: String, e: FieldError| DbError::Invalid {
        field: "file",
        message: format!("{at}.{}: {}", e.field, e.message),
    };
    let number = |at: String, field: &'static str, n: i32, range: std::ops::RangeInclusive<i32>| {
        if range.contains(&n) {
            Ok(())
        } else {
            let (lo, hi) = (*range.start(), *range.end());
            let within = if hi == i32::MAX {
                format!("{lo} or more")
            } else {
                format!("{lo} to {hi}")
            };
            Err(bad(
                at,
                FieldError::new(field, format!("{n} is not {within}")),
            ))
        }
    };
    let t = &file.tournament;
    let text = |v: bool| if v { "yes" } else { "no" }.to_string();
    let raw = RawTournament {
        name: t.name.clone(),
        venue: t.venue.clone(),
        starts_on: t.starts_on.map(|d| d.to_string()).unwrap_or_default(),
        ends_on: t.ends_on.map(|d| d.to_string()).unwrap_or_default(),
        system: t.system.clone(),
        rules: t.rules.clone(),
        games_per_pairing: t.games_per_pairing.to_string(),
        rounds: t.rounds.map(|r| r.to_string()).unwrap_or_default(),
        cycles: t.cycles.to_string(),
        ranking: t.ranking.clone(),
        tiebreaks: t.tiebreaks.clone(),
        bye_value: t.bye_value.clone(),
        records_public: text(t.records_public),
        records_required: text(t.records_required),
    };
    if let Err(errors) = raw.check() {
        return Err(bad("tournament".into(), errors[0].clone()));
    }
    number("tournament".into(), "revision", t.revision, 0..=i32::MAX)?;
    let round_no = 1..=MAX_ROUNDS;
    for (i, p) in file.players.iter().enumerate() {
        let at = format!("players[{i}] (id {})", p.id);
        let show = |n: Option<i32>| n.map(|n| n.to_string()).unwrap_or_default();
        PlayerFields::parse(
            &p.name,
            &p.club,
            &show(p.rating),
            &show(p.seed),
            &p.federation_id,
        )
        .map_err(|errors| bad(at.clone(), errors[0].clone()))?;
        if let Some(n) = p.withdrawn_from_round {
            number(at, "withdrawn_from_round", n, round_no.clone())?;
        }
    }
    for (i, b) in file.requested_byes.iter().enumerate() {
        number(
            format!("requested_byes[{i}]"),
            "round",
            b.round,
            round_no.clone(),
        )?;
    }
    for (i, f) in file.forbidden_pairs.iter().enumerate() {
        let at = format!("forbidden_pairs[{i}]");
        roster::check_round_range(f.from_round, f.to_round, t.rounds.unwrap_or(MAX_ROUNDS))
            .and_then(|()| roster::check_printable("note", "reason", &f.note))
            .map_err(|e| bad(at, e))?;
    }
    for (i, team) in file.teams.iter().enumerate() {
        roster::team_fields(&team.name, &team.club)
            .map_err(|e| bad(format!("teams[{i}] (id {})", team.id), e))?;
    }
    let mut team_of: HashMap<i32, (i32, usize)> = HashMap::new();
    for (i, m) in file.team_members.iter().enumerate() {
        let at = format!("team_members[{i}]");
        if let Some(b) = m.board {
            number(at.clone(), "board", b, 1..=4)?;
        }
        if let Some((team, first)) = team_of.insert(m.player_id, (m.team_id, i)) {
            return Err(bad(
                at,
                FieldError::new(
                    "player_id",
                    format!(
                        "player {} is already in team {team} (team_members[{first}]): a player belongs to one team",
                        m.player_id
                    ),
                ),
            ));
        }
    }
    for (i, r) in file.rounds.iter().enumerate() {
        number(format!("rounds[{i}]"), "number", r.number, round_no.clone())?;
    }
    for (i, p) in file.pairings.iter().enumerate() {
        let at = format!("pairings[{i}]");
        number(at.clone(), "table_no", p.table_no, 1..=i32::MAX)?;
        if let Some(b) = p.board {
            number(at, "board", b, 1..=4)?;
        }
    }
    // Line-ups: by round and team, only the team's own players, one board each.
    let mut lineups: BTreeMap<(i32, i32), Vec<(usize, &LineupRow)>> = BTreeMap::new();
    for (i, l) in file.lineups.iter().enumerate() {
        number(format!("lineups[{i}]"), "board", l.board, 1..=4)?;
        lineups
            .entry((l.round_id, l.team_id))
            .or_default()
            .push((i, l));
    }
    let names: HashMap<i32, &str> = file
        .players
        .iter()
        .map(|p| (p.id, p.name.as_str()))
        .collect();
    let name = |p: i32| {
        names
            .get(&p)
            .map_or(format!("player {p}"), |n| n.to_string())
    };
    for ((_, team_id), mut rows) in lineups {
        rows.sort_by_key(|(_, l)| l.board);
        let eligible: Vec<i32> = file
            .team_members
            .iter()
            .filter(|m| m.team_id == team_id)
            .map(|m| m.player_id)
            .collect();
        let team = file
            .teams
            .iter()
            .find(|t| t.id == team_id)
            .map_or(format!("team {team_id}"), |t| t.name.clone());
        let boards: Vec<i32> = rows.iter().map(|(_, l)| l.player_id).collect();
        roster::check_lineup(&team, &eligible, &boards, name)
            .map_err(|e| bad(format!("lineups[{}]", rows[0].0), e))?;
        for (i, l) in &rows {
            if let Some(r) = l.replaces_player_id.filter(|r| !eligible.contains(r)) {
                return Err(bad(
                    format!("lineups[{i}]"),
                    FieldError::new(
                        "replaces_player_id",
                        format!("{} is not on {team}'s roster", name(r)),
                    ),
                ));
            }
        }
    }
    for (i, g) in file.games.iter().enumerate() {
        let at = format!("games[{i}]");
        number(at.clone(), "number", g.number, 1..=i32::MAX)?;
        number(at, "version", g.version, 0..=i32::MAX)?;
    }
    for (i, r) in file.rulings.iter().enumerate() {
        roster::check_printable("reason", "reason", &r.reason)
            .map_err(|e| bad(format!("rulings[{i}]"), e))?;
    }
    Ok(())
}

/// Every stored spelling in the file must be one this Kraal reads (a
/// result, a round's status, a setting), named by where it is in the file.
fn check_values(file: &EventFile) -> Result<(), DbError> {
    use crate::results::GameResult;
    use crate::tournament::{
        ByeKind, ByeValue, Ranking, RecordSide, RoundStatus, RuleSet, RulingKind, System, Tiebreaks,
    };
    fn known<T>(value: &str, at: String) -> Result<(), DbError>
    where
        T: TryFrom<String>,
        T::Error: std::fmt::Display,
    {
        T::try_from(value.to_string())
            .map(|_| ())
            .map_err(|e| DbError::Invalid {
                field: "file",
                message: format!("{at}: {e}"),
            })
    }
    let t = &file.tournament;
    known::<System>(&t.system, "tournament.system".into())?;
    known::<RuleSet>(&t.rules, "tournament.rules".into())?;
    known::<Ranking>(&t.ranking, "tournament.ranking".into())?;
    known::<Tiebreaks>(&t.tiebreaks, "tournament.tiebreaks".into())?;
    known::<ByeValue>(&t.bye_value, "tournament.bye_value".into())?;
    for (i, r) in file.rounds.iter().enumerate() {
        known::<RoundStatus>(&r.status, format!("rounds[{i}].status"))?;
    }
    for (i, p) in file.pairings.iter().enumerate() {
        if let Some(b) = &p.bye {
            known::<ByeKind>(b, format!("pairings[{i}].bye"))?;
        }
    }
    for (i, g) in file.games.iter().enumerate() {
        if let Some(r) = &g.result {
            known::<GameResult>(r, format!("games[{i}].result"))?;
        }
    }
    for (i, s) in file.scoresheets.iter().enumerate() {
        known::<RecordSide>(&s.side, format!("scoresheets[{i}].side"))?;
        known::<RuleSet>(&s.rules, format!("scoresheets[{i}].rules"))?;
    }
    for (i, r) in file.rulings.iter().enumerate() {
        known::<RulingKind>(&r.kind, format!("rulings[{i}].kind"))?;
        if let Some(x) = &r.result {
            known::<GameResult>(x, format!("rulings[{i}].result"))?;
        }
    }
    for (i, a) in file.audit.iter().enumerate() {
        known::<Action>(&a.action, format!("audit[{i}].action"))?;
        known::<Entity>(&a.entity, format!("audit[{i}].entity"))?;
        if let Some(d) = &a.detail {
            serde_json::from_str::<Detail>(d).map_err(|e| DbError::Invalid {
                field: "file",
                message: format!("audit[{i}].detail: {e}"),
            })?;
        }
    }
    Ok(())
}

/// A version 1 file's audit entries said their round in their text
/// ("round 3: 4 pairings") and a swap's players as "players 12 and 40";
/// read once here into the detail version 2 carries, as the database's
/// own migration did for stored entries. Nothing reads text afterwards.
fn upgrade_v1(file: &mut EventFile) {
    let round_numbers: HashMap<i32, i32> = file.rounds.iter().map(|r| (r.id, r.number)).collect();
    for a in &mut file.audit {
        let said = a
            .new_value
            .as_deref()
            .or(a.old_value.as_deref())
            .unwrap_or("");
        let leading = |t: &str| -> Option<i32> {
            let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        };
        let mut detail = Detail {
            round: said.strip_prefix("round ").and_then(leading),
            players: Vec::new(),
        };
        if a.entity == Entity::Round.as_str() && detail.round.is_none() {
            detail.round = a.entity_id.and_then(|id| round_numbers.get(&id).copied());
        }
        if a.action == Action::Swap.as_str() {
            let players = a
                .old_value
                .as_deref()
                .and_then(|v| v.strip_prefix("players "))
                .and_then(|v| v.split_once(" and "))
                .and_then(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?)));
            if let Some((x, y)) = players {
                detail.players = vec![x, y];
                a.old_value = None;
            }
        }
        a.detail = (!detail.is_empty()).then(|| serde_json::to_string(&detail).unwrap_or_default());
    }
}

/// The path of the first string holding a NUL, which PostgreSQL refuses.
fn nul_at(value: &serde_json::Value, path: &mut String) -> Option<String> {
    match value {
        serde_json::Value::String(s) => s.contains('\0').then(|| path.clone()),
        serde_json::Value::Array(items) => items.iter().enumerate().find_map(|(i, v)| {
            let len = path.len();
            path.push_str(&format!("[{i}]"));
            let found = nul_at(v, path);
            path.truncate(len);
            found
        }),
        serde_json::Value::Object(map) => map.iter().find_map(|(k, v)| {
            let len = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(k);
            let found = nul_at(v, path);
            path.truncate(len);
            found
        }),
        _ => None,
    }
}

/// Old id to new id for one table; a reference to a row the file does not
/// hold is an error naming both.
struct Ids {
    table: &'static str,
    map: HashMap<i32, i32>,
}

impl Ids {
    fn new(table: &'static str) -> Ids {
        Ids {
            table,
            map: HashMap::new(),
        }
    }

    fn get(&self, from: &str, old: i32) -> Result<i32, DbError> {
        self.map.get(&old).copied().ok_or_else(|| DbError::Invalid {
            field: "file",
            message: format!(
                "{from} names {} {old}, which is not in the file",
                self.table
            ),
        })
    }

    fn opt(&self, from: &str, old: Option<i32>) -> Result<Option<i32>, DbError> {
        old.map(|o| self.get(from, o)).transpose()
    }
}

/// The file's accounts linked by name to the target's, and the names the
/// target lacks: an account belongs to a server, so a row whose author is
/// not there is kept without one and the name reported.
struct Accounts<'f> {
    names: &'f BTreeMap<i32, String>,
    known: HashMap<String, i32>,
    unknown: BTreeSet<String>,
}

impl<'f> Accounts<'f> {
    fn find(conn: &mut DbConnection, file: &'f EventFile) -> Result<Accounts<'f>, DbError> {
        let names: Vec<&String> = file.accounts.values().collect();
        let known = users::table
            .filter(users::name.eq_any(&names))
            .select((users::name, users::id))
            .load::<(String, i32)>(conn)?
            .into_iter()
            .collect();
        Ok(Accounts {
            names: &file.accounts,
            known,
            unknown: BTreeSet::new(),
        })
    }

    /// The target's account for the file's account `old`.
    fn user(&mut self, old: Option<i32>) -> Option<i32> {
        let name = self.names.get(&old?)?;
        let found = self.known.get(name).copied();
        if found.is_none() {
            self.unknown.insert(name.clone());
        }
        found
    }
}

/// The new ids of the rows written so far, table by table, for the rows
/// written later to refer to.
struct Remap {
    tournament: i32,
    players: Ids,
    relations: Ids,
    kept_apart: Ids,
    teams: Ids,
    rounds: Ids,
    pairings: Ids,
    games: Ids,
}

impl Remap {
    fn new(tournament: i32) -> Remap {
        Remap {
            tournament,
            players: Ids::new("player"),
            relations: Ids::new("relation"),
            kept_apart: Ids::new("kept-apart pair"),
            teams: Ids::new("team"),
            rounds: Ids::new("round"),
            pairings: Ids::new("pairing"),
            games: Ids::new("game"),
        }
    }
}

/// Writes an event into the target database as a new tournament, in one
/// transaction: either all of it is there or none. Tables are written in
/// the order their references run, each group remapping the ids of the
/// ones before.
pub fn import(w: &mut Write, file: &EventFile) -> Result<Imported, DbError> {
    let conn = w.conn();
    let mut accounts = Accounts::find(conn, file)?;
    let tid = tournament_and_referees(conn, file, &mut accounts)?;
    let mut ids = Remap::new(tid);
    players_and_relations(conn, file, &mut ids, &mut accounts)?;
    teams_and_members(conn, file, &mut ids)?;
    rounds_pairings_and_games(conn, file, &mut ids, &mut accounts)?;
    records_and_rulings(conn, file, &ids, &mut accounts)?;
    audit_trail(conn, file, &ids, &mut accounts)?;

    // Read the new tournament back through the typed readers, so a
    // setting, status or result this Kraal does not know is refused
    // here, naming its row, instead of breaking its pages later.
    super::tournaments::find(conn, tid)?;
    super::rounds::everything(conn, tid)?;
    super::players::list(conn, tid)?;
    super::forbidden::list(conn, tid)?;

    let imported = Imported {
        tournament: tid,
        players: file.players.len(),
        rounds: file.rounds.len(),
        games: file.games.len(),
        unknown_accounts: accounts.unknown.into_iter().collect(),
    };
    w.record(
        Change::new(Some(tid), Action::Import, Entity::Tournament, Some(tid))
            .new_value(file.tournament.name.clone()),
    );
    Ok(imported)
}

/// The tournament's row and its referees; gives the new tournament's id.
fn tournament_and_referees(
    conn: &mut DbConnection,
    file: &EventFile,
    accounts: &mut Accounts<'_>,
) -> Result<i32, DbError> {
    let mut t = file.tournament.clone();
    t.created_by = accounts.user(t.created_by);
    let tid: i32 = diesel::insert_into(tournaments::table)
        .values(&t)
        .returning(tournaments::id)
        .get_result(conn)?;
    for r in &file.referees {
        if let Some(u) = accounts.user(Some(*r)) {
            diesel::insert_into(tournament_referees::table)
                .values((
                    tournament_referees::tournament_id.eq(tid),
                    tournament_referees::user_id.eq(u),
                ))
                .execute(conn)?;
        }
    }
    Ok(tid)
}

/// The players, their relations, the byes they asked for and the pairs
/// kept apart.
fn players_and_relations(
    conn: &mut DbConnection,
    file: &EventFile,
    ids: &mut Remap,
    accounts: &mut Accounts<'_>,
) -> Result<(), DbError> {
    let tid = ids.tournament;
    for p in &file.players {
        let mut row = p.clone();
        row.tournament_id = tid;
        let id = diesel::insert_into(players::table)
            .values(&row)
            .returning(players::id)
            .get_result(conn)?;
        ids.players.map.insert(p.id, id);
    }
    for r in &file.relations {
        let from = format!("relation {}", r.id);
        let mut row = r.clone();
        row.tournament_id = tid;
        row.player_a = ids.players.get(&from, r.player_a)?;
        row.player_b = ids.players.get(&from, r.player_b)?;
        let id = diesel::insert_into(relations::table)
            .values(&row)
            .returning(relations::id)
            .get_result(conn)?;
        ids.relations.map.insert(r.id, id);
    }
    for b in &file.requested_byes {
        let mut row = b.clone();
        row.tournament_id = tid;
        row.player_id = ids
            .players
            .get(&format!("requested bye {}", b.id), b.player_id)?;
        diesel::insert_into(requested_byes::table)
            .values(&row)
            .execute(conn)?;
    }
    for f in &file.forbidden_pairs {
        let from = format!("kept-apart pair {}", f.id);
        let mut row = f.clone();
        row.tournament_id = tid;
        row.player_a = ids.players.get(&from, f.player_a)?;
        row.player_b = ids.players.get(&from, f.player_b)?;
        row.created_by = accounts.user(f.created_by);
        let id = diesel::insert_into(forbidden_pairs::table)
            .values(&row)
            .returning(forbidden_pairs::id)
            .get_result(conn)?;
        ids.kept_apart.map.insert(f.id, id);
    }
    Ok(())
}

/// The teams and their members. A captain's link is not carried: whoever
/// reads the file must not be able to open a line-up with it.
fn teams_and_members(
    conn: &mut DbConnection,
    file: &EventFile,
    ids: &mut Remap,
) -> Result<(), DbError> {
    for tm in &file.teams {
        let mut row = tm.clone();
        row.tournament_id = ids.tournament;
        row.captain_digest = None;
        let id = diesel::insert_into(teams::table)
            .values(&row)
            .returning(teams::id)
            .get_result(conn)?;
        ids.teams.map.insert(tm.id, id);
    }
    for m in &file.team_members {
        let from = format!("team member {}", m.id);
        let mut row = m.clone();
        row.team_id = ids.teams.get(&from, m.team_id)?;
        row.player_id = ids.players.get(&from, m.player_id)?;
        diesel::insert_into(team_members::table)
            .values(&row)
            .execute(conn)?;
    }
    Ok(())
}

/// The rounds, their pairings and matches, the line-ups and the games,
/// explanations renumbered to the new players.
fn rounds_pairings_and_games(
    conn: &mut DbConnection,
    file: &EventFile,
    ids: &mut Remap,
    accounts: &mut Accounts<'_>,
) -> Result<(), DbError> {
    for r in &file.rounds {
        let mut row = r.clone();
        row.tournament_id = ids.tournament;
        row.explanation = renumbered(&r.explanation, &ids.players);
        let id = diesel::insert_into(rounds::table)
            .values(&row)
            .returning(rounds::id)
            .get_result(conn)?;
        ids.rounds.map.insert(r.id, id);
    }
    // Matches first: a board's pairing refers to its match.
    let (matches, boards): (Vec<&PairingRow>, Vec<&PairingRow>) = file
        .pairings
        .iter()
        .partition(|p| p.team_pairing_id.is_none());
    for p in matches.into_iter().chain(boards) {
        let from = format!("pairing {}", p.id);
        let mut row = p.clone();
        row.round_id = ids.rounds.get(&from, p.round_id)?;
        row.first_player_id = ids.players.opt(&from, p.first_player_id)?;
        row.second_player_id = ids.players.opt(&from, p.second_player_id)?;
        row.first_team_id = ids.teams.opt(&from, p.first_team_id)?;
        row.second_team_id = ids.teams.opt(&from, p.second_team_id)?;
        row.team_pairing_id = ids.pairings.opt(&from, p.team_pairing_id)?;
        row.explanation = renumbered(&p.explanation, &ids.players);
        let id = diesel::insert_into(pairings::table)
            .values(&row)
            .returning(pairings::id)
            .get_result(conn)?;
        ids.pairings.map.insert(p.id, id);
    }
    for l in &file.lineups {
        let from = format!("line-up entry {}", l.id);
        let mut row = l.clone();
        row.round_id = ids.rounds.get(&from, l.round_id)?;
        row.team_id = ids.teams.get(&from, l.team_id)?;
        row.player_id = ids.players.get(&from, l.player_id)?;
        row.replaces_player_id = ids.players.opt(&from, l.replaces_player_id)?;
        diesel::insert_into(lineups::table)
            .values(&row)
            .execute(conn)?;
    }
    for g in &file.games {
        let from = format!("game {}", g.id);
        let mut row = g.clone();
        row.pairing_id = ids.pairings.get(&from, g.pairing_id)?;
        row.starter_player_id = ids.players.opt(&from, g.starter_player_id)?;
        row.updated_by = accounts.user(g.updated_by);
        let id = diesel::insert_into(games::table)
            .values(&row)
            .returning(games::id)
            .get_result(conn)?;
        ids.games.map.insert(g.id, id);
    }
    Ok(())
}

/// The games' records (scoresheets) and the referees' rulings on them.
fn records_and_rulings(
    conn: &mut DbConnection,
    file: &EventFile,
    ids: &Remap,
    accounts: &mut Accounts<'_>,
) -> Result<(), DbError> {
    for s in &file.scoresheets {
        let mut row = s.clone();
        row.game_id = ids.games.get(&format!("scoresheet {}", s.id), s.game_id)?;
        row.submitted_by = accounts.user(s.submitted_by);
        diesel::insert_into(scoresheets::table)
            .values(&row)
            .execute(conn)?;
    }
    for r in &file.rulings {
        let mut row = r.clone();
        row.game_id = ids.games.get(&format!("ruling {}", r.id), r.game_id)?;
        row.ruled_by = accounts.user(r.ruled_by);
        diesel::insert_into(rulings::table)
            .values(&row)
            .execute(conn)?;
    }
    Ok(())
}

/// The audit trail, each entry's row and players moved to their new ids.
fn audit_trail(
    conn: &mut DbConnection,
    file: &EventFile,
    ids: &Remap,
    accounts: &mut Accounts<'_>,
) -> Result<(), DbError> {
    for a in &file.audit {
        let mut row = a.clone();
        row.tournament_id = Some(ids.tournament);
        row.user_id = accounts.user(a.user_id);
        // An entry about a row that no longer exists (a game of an
        // undone round) keeps a negative id, which names no row.
        let moved = |ids: &Ids| {
            a.entity_id
                .map(|old| ids.map.get(&old).copied().unwrap_or(-old.abs()))
        };
        let entity = Entity::parse(&a.entity).ok_or_else(|| DbError::Invalid {
            field: "file",
            message: format!("audit entry {}: '{}' is not a known entity", a.id, a.entity),
        })?;
        row.entity_id = match entity {
            Entity::Tournament => Some(ids.tournament),
            Entity::Player => moved(&ids.players),
            Entity::Relation => moved(&ids.relations),
            Entity::KeptApart => moved(&ids.kept_apart),
            Entity::Team => moved(&ids.teams),
            Entity::Round => moved(&ids.rounds),
            Entity::Match => moved(&ids.pairings),
            Entity::Game => moved(&ids.games),
            Entity::Referee | Entity::User => accounts.user(a.entity_id),
        };
        if let Some(d) = &a.detail {
            let mut detail: Detail = serde_json::from_str(d).unwrap_or_default();
            for p in &mut detail.players {
                *p = ids.players.map.get(p).copied().unwrap_or(-p.abs());
            }
            row.detail = serde_json::to_string(&detail).ok();
        }
        diesel::insert_into(audit_entries::table)
            .values(&row)
            .execute(conn)?;
    }
    Ok(())
}

/// An explanation stored with a round or pairing (the engine's JSON, or a
/// sentence), its players renumbered to their new ids.
fn renumbered(text: &str, players: &Ids) -> String {
    let new_id = |old: crate::pairing::PlayerId| {
        players
            .map
            .get(&(old as i32))
            .map(|&n| n as crate::pairing::PlayerId)
    };
    match serde_json::from_str::<crate::pairing::explain::Explanation>(text) {
        Ok(mut e) => {
            e.renumber(&new_id);
            serde_json::to_string(&e).unwrap_or_else(|_| text.to_string())
        }
        // A sentence (an explanation from before they were values) is
        // kept as it was written.
        Err(_) => text.to_string(),
    }
}

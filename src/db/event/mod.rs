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

use crate::refusal::{Refusal, Thing};
use std::collections::{BTreeMap, BTreeSet};

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

use super::schema::{
    audit_entries, forbidden_pairs, games, lineups, pairings, people, players, recorded_plies,
    relations, requested_byes, rounds, rulings, scoresheets, team_members, teams,
    tournament_referees, tournaments, users,
};
use super::{DbConnection, DbError};
use crate::change::Entity;
use crate::ids::TournamentId;

/// What the file says it is; anything else is refused by name.
pub const FORMAT: &str = "kraal event";
/// The version of the layout below. A later Kraal reads older versions; an
/// older Kraal refuses a newer file rather than dropping what it does not
/// know.
///
/// Version 2 added each audit entry's `detail` (its round and players as
/// ids); a version 1 file's entries said those in their text, which
/// `read::upgrade_v1` reads once as the file is read. Version 3 added each
/// round's `played_on` (an older file's rounds were played the day they
/// were paired) and `people`, the registry's people the players are.
/// Version 4 added the settings for players at the venue (`confirmation`,
/// `clocks`, `half_point_bye`), each round's clock, which results the
/// players reported and which byes they asked for themselves. Players'
/// personal links and their reports are not carried: the target issues
/// new links, as it makes captains' links anew. Version 5 added each
/// person's id at the source (`people[].person`) and carries the people
/// without a federation id too (`federation_id` empty): a published copy
/// links them by that id, within its origin, to the same person of the
/// receiving registry at every revision. Version 6 added the event's
/// `live_boards` (who watches the games recorded at the board) and
/// `recorded_plies`, the players' records kept ply by ply at the board.
pub const VERSION: u32 = 6;
/// The largest event file taken: 50 MB (a season's league with every
/// record is a few MB).
pub const MAX_FILE_BYTES: usize = 50 * 1024 * 1024;

#[derive(Debug, Clone, Serialize, Deserialize, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = tournaments, treat_none_as_null = true)]
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
    /// Version 4 on; older files' events confirm as the default does.
    #[serde(default = "players_confirm")]
    pub confirmation: String,
    #[serde(default)]
    pub clocks: bool,
    #[serde(default)]
    pub half_point_bye: bool,
    /// Version 6 on; older files' events show their live boards to all.
    #[serde(default = "public_boards")]
    pub live_boards: String,
}

fn public_boards() -> String {
    crate::tournament::LiveBoards::Public.as_str().to_string()
}

fn players_confirm() -> String {
    crate::tournament::Confirmation::Players
        .as_str()
        .to_string()
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
    /// Version 4 on: the player asked through their own link.
    #[serde(default)]
    pub by_player: bool,
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
    /// Version 3 on; an older file's rounds take the day they were paired.
    #[serde(default = "unknown_day")]
    pub played_on: NaiveDate,
    /// Version 4 on: the round clock (OGR 8), if the referee set it.
    #[serde(default)]
    pub clock_starts_at: Option<NaiveDateTime>,
    #[serde(default)]
    pub clock_minutes: Option<i32>,
}

/// The day of a round a version 2 file does not give (`read` replaces it
/// with the day the round was paired).
fn unknown_day() -> NaiveDate {
    NaiveDate::MIN
}

/// A player who is a person of the source's registry. With a federation
/// id, the import links the player to the target's person with that id,
/// or makes one, with these details. An entry with a federation id but no
/// person at the source is linked the same way from its own row
/// (`players[].federation_id`). A person without a federation id cannot
/// be told apart from others across servers: a published copy links them
/// by the source's own id for them (`person`) within its origin, making
/// the person at its first revision only; a plain import leaves the entry
/// unlinked.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PersonRef {
    /// The player's id in the file.
    pub player: i32,
    /// The person's id at the source (version 5 on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub person: Option<i32>,
    /// Empty when the person has none (version 5 on: before it, only
    /// people with one were carried).
    #[serde(default)]
    pub federation_id: String,
    pub name: String,
    pub club: String,
    pub born: Option<i32>,
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
    /// Version 4 on: the result came from the players' reports.
    #[serde(default)]
    pub reported: bool,
}

/// One ply of a player's record of a game recorded at the board (version
/// 6 on): the game's scoresheets, as the players kept them ply by ply.
#[derive(Debug, Clone, Serialize, Deserialize, Queryable, Selectable, Insertable)]
#[diesel(table_name = recorded_plies)]
#[serde(deny_unknown_fields)]
pub struct RecordedPlyRow {
    pub game_id: i32,
    pub player_id: i32,
    pub ply: i32,
    pub written: String,
    pub recorded_at: NaiveDateTime,
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
    /// Version 6 on: the records kept ply by ply at the board.
    #[serde(default)]
    pub recorded_plies: Vec<RecordedPlyRow>,
    pub audit: Vec<AuditRow>,
    /// Version 3 on.
    #[serde(default)]
    pub people: Vec<PersonRef>,
}

/// Reads every row of one tournament, in one transaction so the file is one
/// moment of the event even while results are being entered.
pub fn export(conn: &mut DbConnection, tid: TournamentId) -> Result<EventFile, DbError> {
    conn.transaction(|conn| {
        let tournament: TournamentRow = tournaments::table
            .find(tid)
            .select(TournamentRow::as_select())
            .first(conn)
            .optional()?
            .ok_or(DbError::Refused(Refusal::NotFound(Thing::Tournament)))?;
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
        refuse_rounds_out_of_bounds(&tournament, &rounds)?;
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
        let GameRows {
            games,
            scoresheets,
            rulings,
            recorded_plies,
        } = games_of_rounds(conn, &round_ids)?;
        let audit: Vec<AuditRow> = audit_entries::table
            .filter(audit_entries::tournament_id.eq(tid))
            .order(audit_entries::id)
            .select(AuditRow::as_select())
            .load(conn)?;
        let people = people_of_players(conn, tid)?;
        let referees: Vec<i32> = tournament_referees::table
            .filter(tournament_referees::tournament_id.eq(tid))
            .order(tournament_referees::user_id)
            .select(tournament_referees::user_id)
            .load(conn)?;
        let mut file = EventFile {
            format: FORMAT.into(),
            version: VERSION,
            exported_at: super::now(),
            accounts: BTreeMap::new(),
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
            recorded_plies,
            audit,
            people,
        };
        file.accounts = accounts_named(conn, &file)?;
        Ok(file)
    })
}

/// A round dated outside its bounds (stored before the rules of
/// `crate::calendar`) keeps the event from leaving until a referee
/// corrects it: the file, the download and a publication alike.
fn refuse_rounds_out_of_bounds(
    tournament: &TournamentRow,
    rounds: &[RoundRow],
) -> Result<(), DbError> {
    let days = crate::calendar::round_range(
        tournament.starts_on,
        tournament.ends_on,
        super::now().date(),
    );
    if let Some(r) = rounds
        .iter()
        .filter(|r| !days.holds(r.played_on))
        .min_by_key(|r| r.number)
    {
        return Err(DbError::from(crate::calendar::export_refused(
            r.number,
            r.played_on,
            days,
        )));
    }
    Ok(())
}

/// The games of some rounds, with their records and rulings.
struct GameRows {
    games: Vec<GameRow>,
    scoresheets: Vec<ScoresheetRow>,
    rulings: Vec<RulingRow>,
    recorded_plies: Vec<RecordedPlyRow>,
}

/// The games of the rounds `round_ids`, with their records and rulings.
fn games_of_rounds(conn: &mut DbConnection, round_ids: &[i32]) -> Result<GameRows, DbError> {
    let games: Vec<GameRow> = games::table
        .inner_join(pairings::table)
        .filter(pairings::round_id.eq_any(round_ids))
        .order(games::id)
        .select(GameRow::as_select())
        .load(conn)?;
    let game_ids: Vec<i32> = games.iter().map(|g| g.id).collect();
    let mut scoresheets: Vec<ScoresheetRow> = Vec::new();
    let mut rulings: Vec<RulingRow> = Vec::new();
    let mut recorded: Vec<RecordedPlyRow> = Vec::new();
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
        recorded.extend(
            recorded_plies::table
                .filter(recorded_plies::game_id.eq_any(chunk))
                .order((
                    recorded_plies::game_id,
                    recorded_plies::player_id,
                    recorded_plies::ply,
                ))
                .select(RecordedPlyRow::as_select())
                .load(conn)?,
        );
    }
    Ok(GameRows {
        games,
        scoresheets,
        rulings,
        recorded_plies: recorded,
    })
}

/// The people of the registry the players of tournament `tid` are linked
/// to, by player.
fn people_of_players(
    conn: &mut DbConnection,
    tid: TournamentId,
) -> Result<Vec<PersonRef>, DbError> {
    type Linked = (i32, i32, Option<String>, String, String, Option<i32>);
    let linked: Vec<Linked> = players::table
        .inner_join(people::table)
        .filter(players::tournament_id.eq(tid))
        .order(players::id)
        .select((
            players::id,
            people::id,
            people::federation_id,
            people::name,
            people::club,
            people::born,
        ))
        .load(conn)?;
    Ok(linked
        .into_iter()
        .map(|(player, person, fid, name, club, born)| PersonRef {
            player,
            person: Some(person),
            federation_id: fid.unwrap_or_default(),
            name,
            club,
            born,
        })
        .collect())
}

/// The names of the accounts `file`'s rows refer to (the referees, the
/// tournament's maker, the authors of kept-apart pairs, results, records,
/// rulings and changes, and the referees a change assigned), by id.
fn accounts_named(
    conn: &mut DbConnection,
    file: &EventFile,
) -> Result<BTreeMap<i32, String>, DbError> {
    let mut user_ids: BTreeSet<i32> = file.referees.iter().copied().collect();
    user_ids.extend(file.tournament.created_by);
    user_ids.extend(file.forbidden_pairs.iter().filter_map(|f| f.created_by));
    user_ids.extend(file.games.iter().filter_map(|g| g.updated_by));
    user_ids.extend(file.scoresheets.iter().filter_map(|s| s.submitted_by));
    user_ids.extend(file.rulings.iter().filter_map(|r| r.ruled_by));
    user_ids.extend(file.audit.iter().filter_map(|a| a.user_id));
    user_ids.extend(
        file.audit
            .iter()
            .filter(|a| a.entity == Entity::Referee.as_str())
            .filter_map(|a| a.entity_id),
    );
    let ids: Vec<i32> = user_ids.into_iter().collect();
    Ok(users::table
        .filter(users::id.eq_any(&ids))
        .select((users::id, users::name))
        .load::<(i32, String)>(conn)?
        .into_iter()
        .collect())
}

/// What an import did.
#[derive(Debug, Clone, Serialize)]
pub struct Imported {
    /// The tournament's id in the target database.
    pub tournament: TournamentId,
    pub players: usize,
    pub rounds: usize,
    pub games: usize,
    /// Account names the file refers to that the target does not have:
    /// their rows are kept without an author (and, for referees, without
    /// the assignment).
    pub unknown_accounts: Vec<String>,
    /// Players linked to a person already in the target's registry, and
    /// people the import added to it, by name and federation id.
    pub people_linked: Vec<String>,
    pub people_created: Vec<String>,
    /// Entries that are nobody of this registry (no federation id, or a
    /// second entry of one person), by name: their games are not rated.
    pub entries_unlinked: Vec<String>,
}

mod import;
mod read;

pub use import::{import, replace};
pub use read::parse;

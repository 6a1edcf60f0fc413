//! Writing an event file into a database as a new tournament: every row
//! gets a new id and every reference is rewritten, so an event can be
//! imported beside others (or beside a copy of itself).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use diesel::prelude::*;

use super::{EventFile, Imported, PairingRow};
use crate::change::{Action, Change, Detail, Entity};
use crate::db::audit::Write;
use crate::db::schema::{
    audit_entries, forbidden_pairs, games, lineups, pairings, players, recorded_plies, relations,
    requested_byes, rounds, rulings, scoresheets, team_members, teams, tournament_referees,
    tournaments, users,
};
use crate::db::{DbConnection, DbError};
use crate::field::FileProblem;
use crate::ids::{EntryId, TournamentId};

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
        self.map.get(&old).copied().ok_or_else(|| {
            FileProblem::Missing {
                table: self.table,
                id: old,
            }
            .at(from)
            .into()
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
/// `origin` is the id a venue gave a published copy (`None` for a file
/// imported by hand): the people of the file without a federation id are
/// linked by the venue's id for them within it.
pub fn import(w: &mut Write, file: &EventFile, origin: Option<&str>) -> Result<Imported, DbError> {
    import_into(w, file, None, origin)
}

/// Replaces the whole event of tournament `tid` with the file's, keeping
/// the tournament's id (its pages' addresses, the seasons that count it)
/// and its own revision counter (the commit moves it on, so every kept
/// page and every open page sees the change).
pub fn replace(
    w: &mut Write,
    file: &EventFile,
    tid: TournamentId,
    origin: Option<&str>,
) -> Result<Imported, DbError> {
    import_into(w, file, Some(tid.0), origin)
}

fn import_into(
    w: &mut Write,
    file: &EventFile,
    into: Option<i32>,
    origin: Option<&str>,
) -> Result<Imported, DbError> {
    let conn = w.conn();
    let mut accounts = Accounts::find(conn, file)?;
    let tid = tournament_and_referees(conn, file, &mut accounts, into)?;
    let mut ids = Remap::new(tid);
    players_and_relations(conn, file, &mut ids, &mut accounts)?;
    teams_and_members(conn, file, &mut ids)?;
    rounds_pairings_and_games(conn, file, &mut ids, &mut accounts)?;
    records_and_rulings(conn, file, &ids, &mut accounts)?;
    audit_trail(conn, file, &ids, &mut accounts)?;
    let people = people_of(w, file, &ids, origin)?;
    let conn = w.conn();
    let tid = TournamentId(tid);

    // Read the new tournament back through the typed readers, so a
    // setting, status or result this Kraal does not know is refused
    // here, naming its row, instead of breaking its pages later.
    crate::db::tournaments::find(conn, tid)?;
    crate::db::rounds::everything(conn, tid)?;
    crate::db::players::list(conn, tid)?;
    crate::db::forbidden::list(conn, tid)?;

    let imported = Imported {
        tournament: tid,
        players: file.players.len(),
        rounds: file.rounds.len(),
        games: file.games.len(),
        unknown_accounts: accounts.unknown.into_iter().collect(),
        people_linked: people.linked,
        people_created: people.created,
        entries_unlinked: people.unlinked,
    };
    w.record(
        Change::new(Some(tid), Action::Import, Entity::Tournament, Some(tid))
            .new_value(file.tournament.name.clone()),
    );
    Ok(imported)
}

/// Who the event's entries are in this registry (see [`people_of`]).
struct People {
    linked: Vec<String>,
    created: Vec<String>,
    unlinked: Vec<String>,
}

/// Links every entry that carries a federation id to the target's person
/// with that id, adding the person when the target has none (an added
/// person is recorded as any other): an entry with a federation id is a
/// person wherever the event goes, whether or not the venue's registry
/// knew them. Name, club and year of birth come from the venue's person
/// where the file names one (`people`), else from the entry. A venue's
/// person without a federation id is linked, in a published copy, by the
/// venue's id for them within the copy's `origin` (made at the first
/// revision, found again at every later one). Other entries with no
/// federation id cannot be told apart across servers and stay unlinked,
/// listed by name, as does a second entry of one person in the event.
fn people_of(
    w: &mut Write,
    file: &EventFile,
    ids: &Remap,
    origin: Option<&str>,
) -> Result<People, DbError> {
    use crate::db::people;
    use chrono::Datelike;
    let this_year = crate::db::now().year();
    let refs: HashMap<i32, (usize, &super::PersonRef)> = file
        .people
        .iter()
        .enumerate()
        .map(|(i, r)| (r.player, (i, r)))
        .collect();
    for r in &file.people {
        ids.players
            .get(&format!("people (player {})", r.player), r.player)?;
    }
    let mut out = People {
        linked: Vec::new(),
        created: Vec::new(),
        unlinked: Vec::new(),
    };
    // Every id this file may make a person for, locked up front in one
    // order: two publications naming the same people in other orders
    // then take turns instead of waiting on each other for ever.
    let ids_named: BTreeSet<&str> = file
        .players
        .iter()
        .map(|p| p.federation_id.as_str())
        .chain(file.people.iter().map(|r| r.federation_id.as_str()))
        .filter(|f| !f.is_empty())
        .collect();
    for fid in ids_named {
        crate::db::lock_key(w.conn(), &format!("person {fid}"))?;
    }
    let mut entered: BTreeSet<i32> = BTreeSet::new();
    for (i, p) in file.players.iter().enumerate() {
        let born;
        // The venue's id for a person without a federation id, with the
        // origin it holds within.
        let mut by_origin = None;
        let (at, fid, name, club) = match refs.get(&p.id) {
            Some((j, r)) if !r.federation_id.is_empty() || p.federation_id.is_empty() => {
                born = r.born.map(|y| y.to_string()).unwrap_or_default();
                if r.federation_id.is_empty() {
                    match (origin, r.person) {
                        (Some(o), Some(venue)) => by_origin = Some((o, venue)),
                        _ => {
                            out.unlinked.push(p.name.clone());
                            continue;
                        }
                    }
                }
                (format!("people[{j}]"), &r.federation_id, &r.name, &r.club)
            }
            _ if !p.federation_id.is_empty() => {
                born = String::new();
                (
                    format!("players[{i}] (id {})", p.id),
                    &p.federation_id,
                    &p.name,
                    &p.club,
                )
            }
            _ => {
                out.unlinked.push(p.name.clone());
                continue;
            }
        };
        let text = crate::registry::PersonText {
            name,
            federation_id: fid,
            club,
            born: &born,
            ..Default::default()
        };
        let fields = crate::registry::PersonFields::parse(&text, this_year).map_err(|e| match e
            .into_iter()
            .next()
        {
            Some(first) => FileProblem::Field(first).at(at.clone()),
            None => FileProblem::Unreadable {
                reason: "a person".into(),
            }
            .at(at.clone()),
        })?;
        let (person, created) = match by_origin {
            Some((origin, venue)) => people::find_or_create_from(w, origin, venue, &fields)?,
            None => people::find_or_create(w, &fields)?,
        };
        let person = people::surviving(w.conn(), person.id)?;
        let said = if fid.is_empty() {
            name.clone()
        } else {
            format!("{name} ({fid})")
        };
        if !entered.insert(person.0) {
            // One person entered twice in one event: the first entry is
            // theirs, the second stays nobody's.
            out.unlinked.push(said);
            continue;
        }
        let player = ids.players.get(&at, p.id)?;
        diesel::update(players::table.find(player))
            .set(players::person_id.eq(person))
            .execute(w.conn())
            .map_err(|e| {
                crate::db::classify(e, crate::conflict::Taken::Entry { name: name.clone() })
            })?;
        if created {
            out.created.push(said);
        } else {
            out.linked.push(said);
        }
    }
    Ok(out)
}

/// The tournament's row and its referees; gives the new tournament's id
/// (or `into`, whose event is cleared and its row rewritten).
fn tournament_and_referees(
    conn: &mut DbConnection,
    file: &EventFile,
    accounts: &mut Accounts<'_>,
    into: Option<i32>,
) -> Result<i32, DbError> {
    let mut t = file.tournament.clone();
    t.created_by = accounts.user(t.created_by);
    let tid: i32 = match into {
        Some(tid) => {
            t.revision = crate::db::tournaments::revision(conn, TournamentId(tid))?;
            clear(conn, tid)?;
            diesel::update(tournaments::table.find(tid))
                .set(&t)
                .execute(conn)?;
            tid
        }
        None => diesel::insert_into(tournaments::table)
            .values(&t)
            .returning(tournaments::id)
            .get_result(conn)?,
    };
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

/// Everything of tournament `tid` but its own row (and what points at the
/// row from outside the event: seasons, publication): rounds with their
/// pairings, games, records and line-ups, teams, the players with their
/// relations, byes and kept-apart pairs, the audit trail and the referees.
fn clear(conn: &mut DbConnection, tid: i32) -> Result<(), DbError> {
    diesel::delete(rounds::table.filter(rounds::tournament_id.eq(tid))).execute(conn)?;
    diesel::delete(teams::table.filter(teams::tournament_id.eq(tid))).execute(conn)?;
    diesel::delete(relations::table.filter(relations::tournament_id.eq(tid))).execute(conn)?;
    diesel::delete(forbidden_pairs::table.filter(forbidden_pairs::tournament_id.eq(tid)))
        .execute(conn)?;
    diesel::delete(requested_byes::table.filter(requested_byes::tournament_id.eq(tid)))
        .execute(conn)?;
    diesel::delete(players::table.filter(players::tournament_id.eq(tid))).execute(conn)?;
    diesel::delete(audit_entries::table.filter(audit_entries::tournament_id.eq(tid)))
        .execute(conn)?;
    diesel::delete(tournament_referees::table.filter(tournament_referees::tournament_id.eq(tid)))
        .execute(conn)?;
    Ok(())
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
        crate::db::links::issue(conn, EntryId(id))?;
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
    for (i, p) in file.recorded_plies.iter().enumerate() {
        let mut row = p.clone();
        let at = format!("recorded_plies[{i}]");
        row.game_id = ids.games.get(&at, p.game_id)?;
        row.player_id = ids.players.get(&at, p.player_id)?;
        diesel::insert_into(recorded_plies::table)
            .values(&row)
            .execute(conn)?;
    }
    // Each game recorded at the board is on its round's live boards.
    let mut recorded: Vec<i32> = file
        .recorded_plies
        .iter()
        .filter_map(|p| ids.games.map.get(&p.game_id).copied())
        .collect();
    recorded.sort_unstable();
    recorded.dedup();
    for game in recorded {
        let round: i32 = games::table
            .inner_join(pairings::table)
            .filter(games::id.eq(game))
            .select(pairings::round_id)
            .first(conn)?;
        crate::db::plies::moved(conn, crate::ids::GameId(game), crate::ids::RoundId(round))?;
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
        let entity = a
            .entity
            .parse::<Entity>()
            .map_err(|e| FileProblem::Unknown(e).at(format!("audit entry {}", a.id)))?;
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
            // People belong to a server's registry, not to the event.
            Entity::Person | Entity::Season | Entity::Setting => None,
        };
        if let Some(d) = &a.detail {
            let mut detail: Detail = serde_json::from_str(d).unwrap_or_default();
            for p in &mut detail.players {
                *p = EntryId(ids.players.map.get(&p.0).copied().unwrap_or(-p.0.abs()));
            }
            // A person id of the server the file came from means nothing here.
            detail.person = None;
            row.detail = serde_json::to_string(&detail).ok();
        }
        diesel::insert_into(audit_entries::table)
            .values(&row)
            .execute(conn)?;
    }
    Ok(())
}

/// An explanation stored with a round or pairing, its players renumbered
/// to their new ids. A file written before explanations were values holds
/// sentences: they are read into values first (`explain::legacy`), so the
/// imported row carries none. No explanation (`""`) stays none.
fn renumbered(text: &str, players: &Ids) -> String {
    let new_id = |old: crate::pairing::PlayerId| {
        players
            .map
            .get(&(old as i32))
            .map(|&n| n as crate::pairing::PlayerId)
    };
    match crate::pairing::explain::legacy::read(text) {
        Some(mut e) => {
            e.renumber(&new_id);
            serde_json::to_string(&e).unwrap_or_default()
        }
        None => String::new(),
    }
}

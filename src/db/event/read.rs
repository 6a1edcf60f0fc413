//! Reading an event file: every refusal names what is wrong and where
//! (the line and column of bad JSON, the field of a wrong value, the row
//! that refers to something not in the file), before anything is written.

use std::collections::{BTreeMap, HashMap};

use super::{EventFile, LineupRow, FORMAT, MAX_FILE_BYTES, VERSION};
use crate::change::{Action, Detail, Entity};
use crate::db::DbError;
use crate::field::{FieldError, FileProblem};
use crate::ids::RoundNo;

/// Reads an event file, refusing anything that is not one with a message
/// that names the problem (the line and column of bad JSON, the field of a
/// wrong value, the row that refers to something not in the file).
pub fn parse(text: &str) -> Result<EventFile, DbError> {
    let invalid = |problem: FileProblem| DbError::from(problem.at(""));
    if text.len() > MAX_FILE_BYTES {
        return Err(invalid(FileProblem::TooBig {
            mb: text.len().div_ceil(1024 * 1024),
            max_mb: MAX_FILE_BYTES / (1024 * 1024),
        }));
    }
    // Most files are read straight into their rows, never held as a tree
    // of values as well; a file that may hold a NUL, or that is not read
    // so, is read the long way, which names what is wrong and where.
    let direct = (!text.contains("\\u0000"))
        .then(|| read_direct(text))
        .flatten();
    let (mut file, version) = match direct {
        Some(read) => read,
        None => read_long_way(text)?,
    };
    if version == 1 {
        upgrade_v1(&mut file);
    }
    if version < 3 {
        // An older file's rounds were played the day they were paired,
        // kept within the tournament's dates (a round paired the evening
        // before the first day was played on it).
        let t = &file.tournament;
        let days = crate::calendar::round_range(t.starts_on, t.ends_on, crate::db::now().date());
        for r in &mut file.rounds {
            r.played_on = days.clamp(r.created_at.date());
        }
    }
    check_values(&file)?;
    spell_federation_ids(&mut file);
    check_ids(&file)?;
    check_rows(&file)?;
    Ok(file)
}

/// A file of this format and a version this server reads, read straight
/// into its rows; `None` when it is not (the long way then says why).
fn read_direct(text: &str) -> Option<(EventFile, u64)> {
    #[derive(serde::Deserialize)]
    struct Header {
        format: Option<String>,
        version: Option<u64>,
    }
    let header: Header = serde_json::from_str(text).ok()?;
    let version = header.version?;
    let readable =
        header.format.as_deref() == Some(FORMAT) && (1..=u64::from(VERSION)).contains(&version);
    if !readable {
        return None;
    }
    let file: EventFile = serde_json::from_str(text).ok()?;
    Some((file, version))
}

/// The file read as a tree of values first, so that a refusal can name
/// what is wrong: bad JSON, another format or version, a NUL character
/// (by its place), a value that is not what the row holds.
fn read_long_way(text: &str) -> Result<(EventFile, u64), DbError> {
    let invalid = |problem: FileProblem| DbError::from(problem.at(""));
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        invalid(FileProblem::NotJson {
            reason: e.to_string(),
        })
    })?;
    match value.get("format").and_then(|f| f.as_str()) {
        Some(FORMAT) => {}
        found => {
            return Err(invalid(FileProblem::OtherFormat {
                found: found.map(str::to_string),
                wanted: FORMAT,
            }))
        }
    }
    let version = match value.get("version").and_then(|v| v.as_u64()) {
        Some(v) if (1..=u64::from(VERSION)).contains(&v) => v,
        found => {
            return Err(invalid(FileProblem::OtherVersion {
                found,
                reads: VERSION.into(),
            }))
        }
    };
    if let Some(path) = nul_at(&value, &mut String::new()) {
        return Err(FileProblem::Nul.at(path).into());
    }
    let file: EventFile = serde_json::from_value(value).map_err(|e| {
        invalid(FileProblem::NotAnEvent {
            reason: e.to_string(),
        })
    })?;
    Ok((file, version))
}

/// Federation ids in their one spelling, as every other way in stores them:
/// a file written before ids were upper-cased links `za-1001` to `ZA-1001`.
fn spell_federation_ids(file: &mut EventFile) {
    use crate::roster::federation_id_spelling;
    for p in &mut file.players {
        p.federation_id = federation_id_spelling(&p.federation_id);
    }
    for r in &mut file.people {
        r.federation_id = federation_id_spelling(&r.federation_id);
    }
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
                return Err(FileProblem::SameId {
                    id,
                    first: format!("{table}[{first}]"),
                }
                .at(format!("{table}[{i}]"))
                .into());
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
/// the file: a name, a rating, a round, a kept-apart range and its waiver's
/// reason, a team, a line-up, a record's text (`scoresheets[3].text`), a
/// ruling's reason, a person's name, club and year of birth
/// (`people[0].born`). The first row at fault is named, in the order of
/// the file's tables.
fn check_rows(file: &EventFile) -> Result<(), DbError> {
    let today = crate::db::now().date();
    check_tournament_row(file, today)?;
    check_players(file)?;
    check_teams(file)?;
    check_rounds_and_pairings(file)?;
    check_lineups(file)?;
    check_games_and_rulings(file)?;
    check_people(file, today)
}

/// A field's problem, named by the row it is in (`players[2] (id 7)`).
fn bad(at: String, e: FieldError) -> DbError {
    DbError::from(FileProblem::Field(e).at(at))
}

/// `n`, the `field` of the row `at`, lies in `range` (an open end, up to
/// `i32::MAX`, is worded as none).
fn number(
    at: String,
    field: &'static str,
    n: i32,
    range: std::ops::RangeInclusive<i32>,
) -> Result<(), DbError> {
    if range.contains(&n) {
        Ok(())
    } else {
        let (min, max) = (*range.start(), *range.end());
        Err(DbError::from(
            FileProblem::Number {
                value: n,
                min,
                max: (max != i32::MAX).then_some(max),
            }
            .at(format!("{at}.{field}")),
        ))
    }
}

/// The tournament's settings as its form takes them, and its dates and
/// its rounds' as every other way in takes them.
fn check_tournament_row(file: &EventFile, today: chrono::NaiveDate) -> Result<(), DbError> {
    use crate::tournament::RawTournament;
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
        confirmation: t.confirmation.clone(),
        live_boards: t.live_boards.clone(),
        clocks: text(t.clocks),
        half_point_bye: text(t.half_point_bye),
        rated: String::new(),
    };
    if let Err(errors) = raw.check() {
        return Err(bad("tournament".into(), errors[0].clone()));
    }
    // The dates as every other way in takes them: the tournament's within
    // 2000-01-01 and two years from today, each round's within the
    // tournament's (a file made before these rules may hold one outside).
    if let Some(e) = crate::calendar::check_tournament(t.starts_on, t.ends_on, today)
        .into_iter()
        .next()
    {
        return Err(bad("tournament".into(), e));
    }
    let days = crate::calendar::round_range(t.starts_on, t.ends_on, today);
    for (i, r) in file.rounds.iter().enumerate() {
        crate::calendar::check_round("played_on", r.played_on, days)
            .map_err(|e| bad(format!("rounds[{i}]"), e))?;
    }
    number("tournament".into(), "revision", t.revision, 0..=i32::MAX)
}

/// The players as the player's form takes them, the byes they asked for,
/// and the pairs kept apart with a waiver's reason.
fn check_players(file: &EventFile) -> Result<(), DbError> {
    use crate::roster::{self, PlayerFields};
    use crate::tournament::MAX_ROUNDS;
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
    let rounds = file.tournament.rounds.unwrap_or(MAX_ROUNDS);
    for (i, f) in file.forbidden_pairs.iter().enumerate() {
        let at = format!("forbidden_pairs[{i}]");
        roster::check_round_range(f.from_round, f.to_round, rounds)
            .and_then(|()| roster::check_printable("note", &f.note))
            .map_err(|e| bad(at.clone(), e))?;
        // A waiver says why (the note is its reason), as the form asks.
        if f.waived {
            roster::kept_apart::check_reason(&f.note)
                .map_err(|e| bad(at, FieldError { field: "note", ..e }))?;
        }
    }
    Ok(())
}

/// The teams as the team's form takes them, their members on a board of
/// four at most, and each player in one team only.
fn check_teams(file: &EventFile) -> Result<(), DbError> {
    for (i, team) in file.teams.iter().enumerate() {
        crate::roster::team_fields(&team.name, &team.club)
            .map_err(|e| bad(format!("teams[{i}] (id {})", team.id), e))?;
    }
    let mut team_of: HashMap<i32, (i32, usize)> = HashMap::new();
    for (i, m) in file.team_members.iter().enumerate() {
        let at = format!("team_members[{i}]");
        if let Some(b) = m.board {
            number(at.clone(), "board", b, 1..=4)?;
        }
        if let Some((team, first)) = team_of.insert(m.player_id, (m.team_id, i)) {
            return Err(FileProblem::InTwoTeams {
                player: m.player_id,
                team,
                first: format!("team_members[{first}]"),
            }
            .at(format!("{at}.player_id"))
            .into());
        }
    }
    Ok(())
}

/// The rounds' numbers and clocks, and the pairings' tables and boards.
fn check_rounds_and_pairings(file: &EventFile) -> Result<(), DbError> {
    for (i, r) in file.rounds.iter().enumerate() {
        number(
            format!("rounds[{i}]"),
            "number",
            r.number,
            1..=crate::tournament::MAX_ROUNDS,
        )?;
        // A clock is a start and a limit, or nothing (OGR 8).
        match (r.clock_starts_at, r.clock_minutes) {
            (Some(_), Some(m)) => number(
                format!("rounds[{i}]"),
                "clock_minutes",
                m,
                1..=crate::clock::MAX_MINUTES,
            )?,
            (None, None) => {}
            (Some(_), None) | (None, Some(_)) => {
                return Err(bad(
                    format!("rounds[{i}]"),
                    FieldError::new("clock_minutes", crate::field::Problem::Missing),
                ))
            }
        }
    }
    for (i, p) in file.pairings.iter().enumerate() {
        let at = format!("pairings[{i}]");
        number(at.clone(), "table_no", p.table_no, 1..=i32::MAX)?;
        if let Some(b) = p.board {
            number(at, "board", b, 1..=4)?;
        }
    }
    Ok(())
}

/// Line-ups: by round and team, only the team's own players, one board
/// each, and a player replaced only by one of the team.
fn check_lineups(file: &EventFile) -> Result<(), DbError> {
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
        crate::roster::check_lineup(&team, &eligible, &boards, name)
            .map_err(|e| bad(format!("lineups[{}]", rows[0].0), e))?;
        for (i, l) in &rows {
            if let Some(r) = l.replaces_player_id.filter(|r| !eligible.contains(r)) {
                return Err(FileProblem::NotOnRoster {
                    player: name(r),
                    team,
                }
                .at(format!("lineups[{i}].replaces_player_id"))
                .into());
            }
        }
    }
    Ok(())
}

/// The games' numbers and records, the records as a referee or a player's
/// link would send them, and the rulings with their reasons.
fn check_games_and_rulings(file: &EventFile) -> Result<(), DbError> {
    for (i, g) in file.games.iter().enumerate() {
        let at = format!("games[{i}]");
        number(at.clone(), "number", g.number, 1..=i32::MAX)?;
        number(at.clone(), "version", g.version, 0..=i32::MAX)?;
        if let Some(text) = &g.scoresheet {
            crate::tournament::check_record_text(text).map_err(|e| {
                bad(
                    at,
                    FieldError {
                        field: "scoresheet",
                        ..e
                    },
                )
            })?;
        }
    }
    // A record as a referee or a player's link would send it.
    for (i, sheet) in file.scoresheets.iter().enumerate() {
        crate::tournament::check_record_text(&sheet.text)
            .map_err(|e| bad(format!("scoresheets[{i}]"), e))?;
    }
    // A ply as a player writes it on their board.
    for (i, p) in file.recorded_plies.iter().enumerate() {
        crate::rules::record::Recording::new(&crate::rules::RuleSet::Official.play())
            .push(&p.written)
            .map_err(|e| {
                bad(
                    format!("recorded_plies[{i}]"),
                    FieldError::new(
                        "written",
                        crate::field::Problem::NotAMove {
                            text: p.written.trim().to_string(),
                            expected: e.expected,
                        },
                    ),
                )
            })?;
    }
    for (i, r) in file.rulings.iter().enumerate() {
        let at = format!("rulings[{i}]");
        crate::roster::check_printable("reason", &r.reason).map_err(|e| bad(at.clone(), e))?;
        // Another result than the records' is set with a reason.
        if r.kind == crate::tournament::RulingKind::Other.as_str() && r.reason.trim().is_empty() {
            return Err(bad(
                at,
                FieldError::new("reason", crate::field::Problem::ReasonRequired),
            ));
        }
    }
    Ok(())
}

/// The people of the source's registry, as the registry's form, its CSV
/// and the API check a person (a year of birth up to this year).
fn check_people(file: &EventFile, today: chrono::NaiveDate) -> Result<(), DbError> {
    let this_year = {
        use chrono::Datelike;
        today.year()
    };
    for (i, r) in file.people.iter().enumerate() {
        let born = r.born.map(|y| y.to_string()).unwrap_or_default();
        crate::registry::PersonFields::parse(
            &crate::registry::PersonText {
                name: &r.name,
                federation_id: &r.federation_id,
                club: &r.club,
                born: &born,
                ..Default::default()
            },
            this_year,
        )
        .map_err(|errors| bad(format!("people[{i}]"), errors[0].clone()))?;
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
        T::Error: Into<crate::named::UnknownName>,
    {
        T::try_from(value.to_string())
            .map(|_| ())
            .map_err(|e| FileProblem::Unknown(e.into()).at(at).into())
    }
    let t = &file.tournament;
    known::<System>(&t.system, "tournament.system".into())?;
    known::<RuleSet>(&t.rules, "tournament.rules".into())?;
    known::<Ranking>(&t.ranking, "tournament.ranking".into())?;
    Tiebreaks::try_from(t.tiebreaks.clone())
        .map_err(|e| DbError::from(FileProblem::Field(e).at("tournament")))?;
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
            serde_json::from_str::<Detail>(d).map_err(|e| {
                FileProblem::Unreadable {
                    reason: e.to_string(),
                }
                .at(format!("audit[{i}].detail"))
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
        let leading = |t: &str| -> Option<RoundNo> {
            let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        };
        let mut detail = Detail {
            round: said.strip_prefix("round ").and_then(leading),
            players: Vec::new(),
            person: None,
        };
        if a.entity == Entity::Round.as_str() && detail.round.is_none() {
            detail.round = a
                .entity_id
                .and_then(|id| round_numbers.get(&id).copied())
                .map(RoundNo);
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

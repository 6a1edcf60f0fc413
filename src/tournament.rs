//! What a tournament is set up as: system, rule set, scoring and tiebreaks.
//!
//! These are plain values with their text forms (as stored, as typed in forms
//! and in the API) in one place, so that the database, the pages and the
//! command line all spell them the same way.

use chrono::NaiveDate;
use serde::Serialize;

use crate::field::{FieldError, Problem};
pub use crate::rules::RuleSet;

pub mod choices;
pub use choices::*;

/// The largest record (a game's scoresheet) taken: 64 KB of UTF-8 text.
pub const MAX_RECORD_BYTES: usize = 64 * 1024;

/// Refuses text that is not a record at all: too long, empty, or holding
/// a NUL character (which no database column can keep). One check for a
/// record however it arrives: a form, the API, a player's link, an event
/// file.
pub fn check_record_text(text: &str) -> Result<(), FieldError> {
    let invalid = |problem: Problem| Err(FieldError::new("text", problem));
    if text.len() > MAX_RECORD_BYTES {
        return invalid(Problem::RecordTooLong {
            bytes: text.len(),
            max: MAX_RECORD_BYTES,
        });
    }
    if text.trim().is_empty() {
        return invalid(Problem::RecordEmpty);
    }
    if let Some(line) = text.lines().position(|l| l.contains('\0')).map(|i| i + 1) {
        return invalid(Problem::RecordNul { line });
    }
    Ok(())
}

impl System {
    /// Team events pair teams and rank teams (OGR 10).
    pub fn is_team(self) -> bool {
        matches!(self, System::TeamLeague | System::TeamSwiss)
    }

    /// Systems whose rounds follow from the field: a round robin plays
    /// whole cycles, a knock-out halves the field each round. The organiser
    /// may leave their rounds empty; the first pairing fixes them.
    pub fn rounds_follow_field(self) -> bool {
        matches!(
            self,
            System::RoundRobin | System::Knockout | System::TeamLeague
        )
    }

    /// Systems that play in cycles (everyone meets everyone once a cycle).
    pub fn plays_cycles(self) -> bool {
        matches!(self, System::RoundRobin | System::TeamLeague)
    }

    /// What a pairing-allocated bye is usually worth: in a round robin the
    /// bye seat is sitting out a pairing of the schedule, worth nothing;
    /// in a Swiss or knock-out it stands for a won pairing.
    pub fn usual_bye_value(self) -> ByeValue {
        if self.plays_cycles() {
            ByeValue::Nothing
        } else {
            ByeValue::Win
        }
    }

    /// The rounds an event of this system usually has when created, as the
    /// new-tournament form offers them: `None` where the field decides.
    pub fn usual_rounds(self) -> Option<i32> {
        (!self.rounds_follow_field()).then_some(7)
    }
}

/// The most cycles a round robin plays: the table once, or twice with the
/// starts reversed.
pub const MAX_CYCLES: i32 = 2;

/// Rounds in one cycle of a round robin of `entrants`: each meets every
/// other once, and an odd field adds a bye seat, so n−1 rounds for an even
/// field and n for an odd one.
pub fn cycle_rounds(entrants: usize) -> i32 {
    let n = entrants as i32;
    if n % 2 == 0 {
        (n - 1).max(1)
    } else {
        n
    }
}

/// Rounds of a knock-out of `entrants`: the field halves each round (byes
/// fill the first round up to a power of two).
pub fn knockout_rounds(entrants: usize) -> i32 {
    let mut rounds = 0;
    while (1usize << rounds) < entrants.max(2) {
        rounds += 1;
    }
    rounds
}

/// The rounds an event plays, given its field when the first round is
/// paired: what the organiser set, checked against the field, or what the
/// field gives. Errors name the field the organiser should change.
pub fn rounds_for_field(
    system: System,
    rounds: Option<i32>,
    cycles: i32,
    entrants: usize,
) -> Result<i32, FieldError> {
    match system {
        System::Swiss | System::TeamSwiss => {
            rounds.ok_or(FieldError::new("rounds", Problem::Missing))
        }
        System::Knockout => {
            let needed = knockout_rounds(entrants);
            match rounds {
                Some(r) if r != needed => Err(FieldError::new(
                    "rounds",
                    Problem::KnockoutRounds {
                        entrants,
                        needed,
                        given: r,
                    },
                )),
                _ => Ok(needed),
            }
        }
        System::RoundRobin | System::TeamLeague => {
            let cycle = cycle_rounds(entrants);
            match rounds {
                None => Ok(cycles * cycle),
                Some(r) if r % cycle != 0 || r / cycle > MAX_CYCLES => Err(FieldError::new(
                    "rounds",
                    Problem::NotWholeCycles {
                        given: r,
                        entrants,
                        cycle,
                        max_cycles: MAX_CYCLES,
                    },
                )),
                Some(r) if cycles != 1 && r != cycles * cycle => Err(FieldError::new(
                    "cycles",
                    Problem::CyclesDisagree {
                        cycles,
                        entrants,
                        rounds: cycles * cycle,
                        given: r,
                    },
                )),
                Some(r) => Ok(r),
            }
        }
    }
}

/// The tiebreak order most organisers want when they do not say.
pub const DEFAULT_TIEBREAKS: &[Tiebreak] = &[
    Tiebreak::DirectEncounter,
    Tiebreak::Buchholz,
    Tiebreak::SonnebornBerger,
    Tiebreak::Wins,
];

/// Reads a comma-separated tiebreak list, refusing unknown or repeated names.
pub fn parse_tiebreaks(text: &str) -> Result<Vec<Tiebreak>, Problem> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let tb = Tiebreak::parse(part).ok_or_else(|| Problem::UnknownTiebreak {
            text: part.to_string(),
        })?;
        if out.contains(&tb) {
            return Err(Problem::TiebreakTwice {
                text: part.to_string(),
            });
        }
        out.push(tb);
    }
    Ok(out)
}

/// Writes a tiebreak list in its stored form.
pub fn format_tiebreaks(list: &[Tiebreak]) -> String {
    list.iter()
        .map(|t| t.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

/// A tournament's tiebreaks in the order they apply, as stored: one text
/// column, read once into values (an unknown stored name is an error).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(transparent)]
pub struct Tiebreaks(pub Vec<Tiebreak>);

impl std::ops::Deref for Tiebreaks {
    type Target = [Tiebreak];
    fn deref(&self) -> &[Tiebreak] {
        &self.0
    }
}

impl TryFrom<String> for Tiebreaks {
    type Error = FieldError;
    fn try_from(text: String) -> Result<Tiebreaks, FieldError> {
        parse_tiebreaks(&text)
            .map(Tiebreaks)
            .map_err(|p| FieldError::new("tiebreaks", p))
    }
}

impl std::fmt::Display for Tiebreaks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format_tiebreaks(&self.0))
    }
}

/// Everything an organiser sets about a tournament, checked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TournamentFields {
    pub name: String,
    pub venue: String,
    pub starts_on: Option<NaiveDate>,
    pub ends_on: Option<NaiveDate>,
    pub system: System,
    pub rules: RuleSet,
    pub games_per_pairing: i32,
    /// `None` where the field decides, at the first pairing (see
    /// [`rounds_for_field`]).
    pub rounds: Option<i32>,
    /// Cycles of a round robin whose rounds the field decides (1 or 2).
    pub cycles: i32,
    pub ranking: Ranking,
    pub tiebreaks: Vec<Tiebreak>,
    pub bye_value: ByeValue,
    /// The public sees a game's records and their checks once its round is
    /// complete; otherwise only the referees do.
    pub records_public: bool,
    /// Every game played must have a record: one with a result and none is
    /// flagged.
    pub records_required: bool,
    /// Who confirms the results players report through their links.
    pub confirmation: Confirmation,
    /// Who may watch games recorded at the board as they are played.
    pub live_boards: LiveBoards,
    /// Stop clocks on every board (OGR 8.1): the round clock's default.
    pub clocks: bool,
    /// A player may take one half-point bye through their own link.
    pub half_point_bye: bool,
    /// The event counts: its games are rated and it may count in a
    /// season. A friendly or a test event is not rated.
    pub rated: bool,
}

/// How far an event has gone, as far as its settings care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Progress {
    /// Rounds paired (drafts included).
    pub paired: i32,
    /// Rounds published.
    pub published: i32,
}

/// A setting an event under way can no longer change, and since when.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Lock {
    pub field: &'static str,
    pub since: LockedSince,
}

/// What fixed a setting: what rests on it since.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LockedSince {
    /// Round 1 was paired: the pairings and results rest on it.
    Paired,
    /// A round was published: players have seen the standings it gives.
    Published,
}

/// `text` is not one of `choices` for `field`.
fn unknown(field: &'static str, text: String, choices: &'static [&'static str]) -> FieldError {
    FieldError::new(field, Problem::Unknown { text, choices })
}

impl Progress {
    /// The settings locked at this point. The system, rule set and games
    /// per pairing shape every pairing and result stored, so they are fixed
    /// once round 1 is paired (undoing it frees them). The ranking,
    /// tiebreaks and bye value decide the standings players have seen, so
    /// they are fixed once a round is published.
    pub fn locks(self) -> Vec<Lock> {
        let mut out = Vec::new();
        if self.paired > 0 {
            for field in ["system", "rules", "games_per_pairing", "cycles"] {
                out.push(Lock {
                    field,
                    since: LockedSince::Paired,
                });
            }
        }
        if self.published > 0 {
            for field in ["ranking", "tiebreaks", "bye_value"] {
                out.push(Lock {
                    field,
                    since: LockedSince::Published,
                });
            }
        }
        out
    }
}

impl TournamentFields {
    /// Whether `field` (as forms and the API name it) differs in `other`.
    fn differs(&self, other: &TournamentFields, field: &str) -> bool {
        match field {
            "system" => self.system != other.system,
            "rules" => self.rules != other.rules,
            "games_per_pairing" => self.games_per_pairing != other.games_per_pairing,
            "cycles" => self.cycles != other.cycles,
            "ranking" => self.ranking != other.ranking,
            "tiebreaks" => self.tiebreaks != other.tiebreaks,
            "bye_value" => self.bye_value != other.bye_value,
            "rounds" => self.rounds != other.rounds,
            _ => false,
        }
    }

    /// The first locked setting that `new` would change, named with why it
    /// is locked; the rounds of an event under way checked against the
    /// rounds paired. `entrants` is the field that plays it (players, or
    /// teams in a team event), which a round robin's cycles depend on.
    pub fn refuse_change(
        &self,
        new: &TournamentFields,
        progress: Progress,
        entrants: usize,
    ) -> Result<(), ChangeRefused> {
        if let Some(lock) = progress
            .locks()
            .into_iter()
            .find(|l| self.differs(new, l.field))
        {
            return Err(ChangeRefused::Locked(lock));
        }
        if progress.paired > 0 && self.differs(new, "rounds") {
            let Some(r) = new.rounds else {
                return Err(ChangeRefused::Invalid(FieldError::new(
                    "rounds",
                    Problem::RoundsFixed {
                        rounds: self.rounds.unwrap_or(progress.paired),
                    },
                )));
            };
            if r < progress.paired {
                return Err(ChangeRefused::Invalid(FieldError::new(
                    "rounds",
                    Problem::FewerThanPaired {
                        paired: progress.paired,
                    },
                )));
            }
            if new.system.rounds_follow_field() {
                rounds_for_field(new.system, Some(r), 1, entrants)
                    .map_err(ChangeRefused::Invalid)?;
            }
        }
        Ok(())
    }
}

/// Why a settings change is refused: a setting locked by the rounds played
/// (a conflict with the event's state), or a value that does not fit it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChangeRefused {
    Locked(Lock),
    Invalid(FieldError),
}

/// A tournament as typed: every field is text, as a form or a script sends it.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default)]
pub struct RawTournament {
    pub name: String,
    pub venue: String,
    pub starts_on: String,
    pub ends_on: String,
    pub system: String,
    /// `rule_set` is the older name of the form field, still read.
    #[serde(alias = "rule_set")]
    pub rules: String,
    pub games_per_pairing: String,
    pub rounds: String,
    /// `1` or `2`; empty is one cycle.
    pub cycles: String,
    pub ranking: String,
    pub tiebreaks: String,
    pub bye_value: String,
    /// `yes` (a ticked box) or empty; also `true`/`false`.
    pub records_public: String,
    /// As `records_public`.
    pub records_required: String,
    /// `off`, `players` or `players_then_referee`; empty is `players`.
    pub confirmation: String,
    /// `public`, `referees` or `off`; empty is `public`.
    pub live_boards: String,
    /// As `records_public`.
    pub clocks: String,
    /// As `records_public`.
    pub half_point_bye: String,
    /// `yes` or `no`; empty is `yes` (an event is rated unless it is a
    /// friendly or a test).
    pub rated: String,
}

/// The most rounds a tournament may have: a long league season.
pub const MAX_ROUNDS: i32 = 99;

impl RawTournament {
    /// The text a form shows for existing fields.
    pub fn from_fields(f: &TournamentFields) -> RawTournament {
        let date = |d: Option<NaiveDate>| d.map(|d| d.to_string()).unwrap_or_default();
        RawTournament {
            name: f.name.clone(),
            venue: f.venue.clone(),
            starts_on: date(f.starts_on),
            ends_on: date(f.ends_on),
            system: f.system.as_str().into(),
            rules: f.rules.as_str().into(),
            games_per_pairing: f.games_per_pairing.to_string(),
            rounds: f.rounds.map(|r| r.to_string()).unwrap_or_default(),
            cycles: f.cycles.to_string(),
            ranking: f.ranking.as_str().into(),
            tiebreaks: format_tiebreaks(&f.tiebreaks),
            bye_value: f.bye_value.as_str().into(),
            records_public: if f.records_public { "yes" } else { "" }.into(),
            records_required: if f.records_required { "yes" } else { "" }.into(),
            confirmation: f.confirmation.as_str().into(),
            live_boards: f.live_boards.as_str().into(),
            clocks: if f.clocks { "yes" } else { "" }.into(),
            half_point_bye: if f.half_point_bye { "yes" } else { "" }.into(),
            rated: if f.rated { "yes" } else { "no" }.into(),
        }
    }

    /// Checks every field; empty optional fields take the rule set's defaults.
    /// The errors keep one order, the first of which the event file's
    /// import names.
    pub fn check(&self) -> Result<TournamentFields, Vec<FieldError>> {
        let mut errors = Vec::new();
        let (name, venue) = self.name_and_venue(&mut errors);
        let (starts_on, ends_on) = self.dates(&mut errors);
        let pick = |field: &'static str,
                    text: &str,
                    default: Option<&str>|
         -> Result<String, FieldError> {
            let t = text.trim();
            match (t.is_empty(), default) {
                (true, Some(d)) => Ok(d.to_string()),
                (true, None) => Err(FieldError::new(field, Problem::Missing)),
                _ => Ok(t.to_string()),
            }
        };
        let system = pick("system", &self.system, Some("swiss"))
            .and_then(|t| System::parse(&t).ok_or_else(|| unknown("system", t, System::NAMES)));
        let rules = pick("rules", &self.rules, Some("gar"))
            .and_then(|t| RuleSet::parse(&t).ok_or_else(|| unknown("rules", t, RuleSet::NAMES)));
        let ranking = pick("ranking", &self.ranking, Some("game_points"))
            .and_then(|t| Ranking::parse(&t).ok_or_else(|| unknown("ranking", t, Ranking::NAMES)));
        let bye_default = system
            .as_ref()
            .map_or(ByeValue::Win, |s| s.usual_bye_value());
        let bye_value =
            pick("bye_value", &self.bye_value, Some(bye_default.as_str())).and_then(|t| {
                ByeValue::parse(&t).ok_or_else(|| unknown("bye_value", t, ByeValue::NAMES))
            });
        let games = self.games_asked(&rules);
        let rounds = self.rounds_asked(system.as_ref().is_ok_and(|s| s.rounds_follow_field()));
        let cycles =
            self.cycles_asked(system.as_ref().is_ok_and(|s| s.plays_cycles()), &mut errors);
        let tiebreaks = self.tiebreaks_asked(&system, &ranking);
        let records_public = yes_no(&mut errors, "records_public", &self.records_public);
        let records_required = yes_no(&mut errors, "records_required", &self.records_required);
        let clocks = yes_no(&mut errors, "clocks", &self.clocks);
        let half_point_bye = yes_no(&mut errors, "half_point_bye", &self.half_point_bye);
        let rated = self.rated.trim().is_empty() || yes_no(&mut errors, "rated", &self.rated);
        let confirmation = self.confirmation_asked(&mut errors);
        let live_boards = self.live_boards_asked(&mut errors);
        fn take<T>(errors: &mut Vec<FieldError>, r: Result<T, FieldError>) -> Option<T> {
            r.map_err(|e| errors.push(e)).ok()
        }
        let (system, rules, ranking, bye_value, games, rounds, tiebreaks) = (
            take(&mut errors, system),
            take(&mut errors, rules),
            take(&mut errors, ranking),
            take(&mut errors, bye_value),
            take(&mut errors, games),
            take(&mut errors, rounds),
            take(&mut errors, tiebreaks),
        );
        match (system, rules, ranking, bye_value, games, rounds, tiebreaks) {
            (
                Some(system),
                Some(rules),
                Some(ranking),
                Some(bye_value),
                Some(games_per_pairing),
                Some(rounds),
                Some(tiebreaks),
            ) if errors.is_empty() => Ok(TournamentFields {
                name,
                venue,
                starts_on,
                ends_on,
                system,
                rules,
                games_per_pairing,
                rounds,
                cycles,
                ranking,
                tiebreaks,
                bye_value,
                records_public,
                records_required,
                confirmation,
                live_boards,
                clocks,
                half_point_bye,
                rated,
            }),
            _ => Err(errors),
        }
    }

    /// The name, its spaces folded, and the venue, trimmed: each printable
    /// and at most 120 characters, the name not empty.
    fn name_and_venue(&self, errors: &mut Vec<FieldError>) -> (String, String) {
        let name = self.name.split_whitespace().collect::<Vec<_>>().join(" ");
        if name.is_empty() {
            errors.push(FieldError::new("name", Problem::Empty));
        } else if self.name.chars().count() > 120 {
            // Measured as sent, before its spaces are tidied: the form and
            // the API's description both say at most 120.
            errors.push(FieldError::new("name", Problem::TooLong { max: 120 }));
        }
        errors.extend(crate::roster::check_printable("name", &self.name).err());
        let venue = self.venue.trim().to_string();
        errors.extend(crate::roster::check_printable("venue", &venue).err());
        if self.venue.chars().count() > 120 {
            errors.push(FieldError::new("venue", Problem::TooLong { max: 120 }));
        }
        (name, venue)
    }

    /// The first and the last day, each none or a date like 2026-12-05,
    /// the last not before the first.
    fn dates(&self, errors: &mut Vec<FieldError>) -> (Option<NaiveDate>, Option<NaiveDate>) {
        let mut date = |field: &'static str, text: &str| {
            let text = text.trim();
            if text.is_empty() {
                return None;
            }
            NaiveDate::parse_from_str(text, "%Y-%m-%d")
                .map_err(|_| {
                    errors.push(FieldError::new(
                        field,
                        Problem::NotADate {
                            text: text.to_string(),
                        },
                    ))
                })
                .ok()
        };
        let starts_on = date("starts_on", &self.starts_on);
        let ends_on = date("ends_on", &self.ends_on);
        if let (Some(s), Some(e)) = (starts_on, ends_on) {
            if e < s {
                errors.push(FieldError::new("ends_on", Problem::EndsBeforeStart));
            }
        }
        (starts_on, ends_on)
    }

    /// The games of a pairing, 2 or 6: where none is given, the rule set's
    /// (2 if the rule set is not known either).
    fn games_asked(&self, rules: &Result<RuleSet, FieldError>) -> Result<i32, FieldError> {
        match (self.games_per_pairing.trim(), rules) {
            ("", Ok(r)) => Ok(r.default_games_per_pairing()),
            ("", Err(_)) => Ok(2),
            ("2", _) => Ok(2),
            ("6", _) => Ok(6),
            (t, _) => Err(FieldError::new(
                "games_per_pairing",
                Problem::NotOneOf {
                    text: t.to_string(),
                    choices: &["2", "6"],
                },
            )),
        }
    }

    /// The rounds, 1 to `MAX_ROUNDS`, or none yet where the system's field
    /// decides them (`follows_field`) and none is given.
    fn rounds_asked(&self, follows_field: bool) -> Result<Option<i32>, FieldError> {
        match self.rounds.trim().parse::<i32>() {
            Ok(n) if (1..=MAX_ROUNDS).contains(&n) => Ok(Some(n)),
            Ok(n) => Err(FieldError::new(
                "rounds",
                Problem::OutOfRange {
                    value: n.into(),
                    min: 1,
                    max: MAX_ROUNDS.into(),
                },
            )),
            Err(_) if self.rounds.trim().is_empty() && follows_field => Ok(None),
            Err(_) if self.rounds.trim().is_empty() => {
                Err(FieldError::new("rounds", Problem::Missing))
            }
            Err(_) => Err(FieldError::new(
                "rounds",
                Problem::NotWholeNumber {
                    text: self.rounds.trim().to_string(),
                },
            )),
        }
    }

    /// The cycles, 1 or 2 where the system plays cycles; a refused one
    /// counts as 1 beside its error.
    fn cycles_asked(&self, plays_cycles: bool, errors: &mut Vec<FieldError>) -> i32 {
        match self.cycles.trim() {
            "" | "1" => 1,
            "2" if plays_cycles => 2,
            "2" => {
                errors.push(FieldError::new("cycles", Problem::CyclesNotPlayed));
                1
            }
            other => {
                errors.push(FieldError::new(
                    "cycles",
                    Problem::NotOneOf {
                        text: other.to_string(),
                        choices: &["1", "2"],
                    },
                ));
                1
            }
        }
    }

    /// The tiebreaks in order: none for a knock-out, the usual ones where
    /// none is given, team tiebreaks for teams only, and head-to-head first
    /// between teams.
    fn tiebreaks_asked(
        &self,
        system: &Result<System, FieldError>,
        ranking: &Result<Ranking, FieldError>,
    ) -> Result<Vec<Tiebreak>, FieldError> {
        let knockout = matches!(system, Ok(System::Knockout));
        let teams = system.as_ref().is_ok_and(|s| s.is_team());
        let team_default = team_tiebreaks(*ranking.as_ref().unwrap_or(&Ranking::GamePoints));
        match parse_tiebreaks(&self.tiebreaks) {
            // A knock-out is decided by tiebreak sets: no standings tiebreaks.
            Ok(_) if knockout => Ok(Vec::new()),
            Ok(list) if list.is_empty() && teams => Ok(team_default),
            Ok(list) if list.is_empty() => Ok(DEFAULT_TIEBREAKS.to_vec()),
            Ok(list) if !teams => match list.iter().find(|t| t.teams_only()) {
                Some(&t) => Err(FieldError::new(
                    "tiebreaks",
                    Problem::TeamTiebreak { tiebreak: t },
                )),
                None => Ok(list),
            },
            // OGR 10.6: head-to-head comes first between teams level on points.
            Ok(list) => Ok(std::iter::once(Tiebreak::DirectEncounter)
                .chain(list.into_iter().filter(|t| *t != Tiebreak::DirectEncounter))
                .collect()),
            Err(p) => Err(FieldError::new("tiebreaks", p)),
        }
    }

    /// Who may watch the live boards: everyone where none is given.
    fn live_boards_asked(&self, errors: &mut Vec<FieldError>) -> LiveBoards {
        match self.live_boards.trim() {
            "" => LiveBoards::Public,
            t => LiveBoards::parse(t).unwrap_or_else(|| {
                errors.push(unknown("live_boards", t.to_string(), LiveBoards::NAMES));
                LiveBoards::Public
            }),
        }
    }

    /// Who confirms the players' reports: the players where none is given.
    fn confirmation_asked(&self, errors: &mut Vec<FieldError>) -> Confirmation {
        match self.confirmation.trim() {
            "" => Confirmation::Players,
            t => Confirmation::parse(t).unwrap_or_else(|| {
                errors.push(unknown("confirmation", t.to_string(), Confirmation::NAMES));
                Confirmation::Players
            }),
        }
    }
}

/// A switch of the form: yes or no in any of their usual spellings, none
/// meaning no; another word is an error and counts as no.
fn yes_no(errors: &mut Vec<FieldError>, field: &'static str, text: &str) -> bool {
    match text.trim().to_ascii_lowercase().as_str() {
        "" | "no" | "false" | "off" | "0" => false,
        "yes" | "true" | "on" | "1" => true,
        other => {
            errors.push(FieldError::new(
                field,
                Problem::NotYesNo {
                    text: other.to_string(),
                },
            ));
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_reads_back_its_own_spelling() {
        for s in System::ALL {
            assert_eq!(System::parse(s.as_str()), Some(*s));
        }
        for t in Tiebreak::ALL {
            assert_eq!(Tiebreak::parse(&t.as_str().to_uppercase()), Some(*t));
        }
        assert_eq!(System::parse("ladder"), None);
    }

    #[test]
    fn tiebreak_lists_refuse_unknown_and_repeated_names() {
        assert_eq!(
            parse_tiebreaks("buchholz, wins").unwrap(),
            vec![Tiebreak::Buchholz, Tiebreak::Wins]
        );
        assert_eq!(
            parse_tiebreaks("buchholz,koya"),
            Err(Problem::UnknownTiebreak {
                text: "koya".into()
            })
        );
        assert_eq!(
            parse_tiebreaks("wins,wins"),
            Err(Problem::TiebreakTwice {
                text: "wins".into()
            })
        );
        assert_eq!(
            format_tiebreaks(DEFAULT_TIEBREAKS),
            "direct_encounter,buchholz,sonneborn_berger,wins"
        );
    }

    #[test]
    fn a_gar_tournament_defaults_to_six_games_and_the_usual_tiebreaks() {
        let raw = RawTournament {
            name: " Gauteng  Open ".into(),
            rules: "gar".into(),
            rounds: "7".into(),
            ..Default::default()
        };
        let f = raw.check().unwrap();
        assert_eq!(f.name, "Gauteng Open");
        assert_eq!(f.games_per_pairing, 6);
        assert_eq!(f.system, System::Swiss);
        assert_eq!(f.tiebreaks, DEFAULT_TIEBREAKS.to_vec());
        assert_eq!(RawTournament::from_fields(&f).check().unwrap(), f);
    }

    #[test]
    fn bad_tournament_fields_are_all_named() {
        let raw = RawTournament {
            system: "ladder".into(),
            games_per_pairing: "4".into(),
            rounds: "0".into(),
            starts_on: "2026-12-05".into(),
            ends_on: "2026-12-04".into(),
            ..Default::default()
        };
        let fields: Vec<_> = raw
            .check()
            .unwrap_err()
            .into_iter()
            .map(|e| e.field)
            .collect();
        assert_eq!(
            fields,
            vec!["name", "ends_on", "system", "games_per_pairing", "rounds"]
        );
    }

    #[test]
    fn team_events_rank_head_to_head_first_and_individual_events_refuse_team_tiebreaks() {
        let league = |tiebreaks: &str, ranking: &str| {
            RawTournament {
                name: "Club League".into(),
                system: "team_league".into(),
                rounds: "10".into(),
                ranking: ranking.into(),
                tiebreaks: tiebreaks.into(),
                ..Default::default()
            }
            .check()
        };
        assert_eq!(
            league("", "match_points").unwrap().tiebreaks,
            team_tiebreaks(Ranking::MatchPoints)
        );
        assert_eq!(
            team_tiebreaks(Ranking::GamePoints)[..2],
            [Tiebreak::DirectEncounter, Tiebreak::MatchPoints]
        );
        assert_eq!(
            league("board_1,direct_encounter,wins", "game_points")
                .unwrap()
                .tiebreaks,
            vec![Tiebreak::DirectEncounter, Tiebreak::Board1, Tiebreak::Wins],
            "OGR 10.6 puts head-to-head first"
        );
        let individual = RawTournament {
            name: "Open".into(),
            rounds: "7".into(),
            tiebreaks: "buchholz,board_2".into(),
            ..Default::default()
        }
        .check()
        .unwrap_err();
        assert_eq!(individual[0].field, "tiebreaks");
        assert_eq!(
            individual[0].problem,
            Problem::TeamTiebreak {
                tiebreak: Tiebreak::Board2
            }
        );
    }

    #[test]
    fn a_round_robin_plays_whole_cycles_of_its_field() {
        let rr = |rounds, cycles, n| rounds_for_field(System::RoundRobin, rounds, cycles, n);
        assert_eq!(rr(None, 1, 6), Ok(5));
        assert_eq!(rr(None, 1, 7), Ok(7), "an odd field adds a bye seat");
        assert_eq!(rr(None, 2, 6), Ok(10));
        assert_eq!(rr(Some(10), 1, 6), Ok(10));
        let seven = rr(Some(7), 1, 6).unwrap_err();
        assert_eq!(seven.field, "rounds");
        assert_eq!(
            seven.problem,
            Problem::NotWholeCycles {
                given: 7,
                entrants: 6,
                cycle: 5,
                max_cycles: 2
            }
        );
        assert_eq!(rr(Some(15), 1, 6).unwrap_err().field, "rounds");
        assert_eq!(rr(Some(5), 2, 6).unwrap_err().field, "cycles");
        assert_eq!(
            rounds_for_field(System::Knockout, None, 1, 9),
            Ok(4),
            "byes fill the first round up to 16"
        );
        assert_eq!(
            rounds_for_field(System::Knockout, Some(2), 1, 8)
                .unwrap_err()
                .field,
            "rounds"
        );
        assert_eq!(
            rounds_for_field(System::Swiss, None, 1, 8)
                .unwrap_err()
                .field,
            "rounds"
        );
    }

    #[test]
    fn progress_locks_the_settings_the_rounds_rest_on() {
        let f = RawTournament {
            name: "Open".into(),
            rounds: "7".into(),
            ..Default::default()
        }
        .check()
        .unwrap();
        let change = |edit: fn(&mut TournamentFields), paired, published| {
            let mut new = f.clone();
            edit(&mut new);
            f.refuse_change(&new, Progress { paired, published }, 8)
        };
        assert_eq!(change(|n| n.system = System::Knockout, 0, 0), Ok(()));
        assert!(matches!(
            change(|n| n.system = System::Knockout, 1, 0),
            Err(ChangeRefused::Locked(Lock {
                field: "system",
                ..
            }))
        ));
        assert_eq!(change(|n| n.tiebreaks = vec![Tiebreak::Wins], 1, 0), Ok(()));
        assert!(matches!(
            change(|n| n.tiebreaks = vec![Tiebreak::Wins], 1, 1),
            Err(ChangeRefused::Locked(Lock {
                field: "tiebreaks",
                ..
            }))
        ));
        assert_eq!(change(|n| n.name = "Open 2026".into(), 3, 3), Ok(()));
        assert!(matches!(
            change(|n| n.rounds = Some(2), 3, 3),
            Err(ChangeRefused::Invalid(FieldError {
                field: "rounds",
                ..
            }))
        ));
    }

    #[test]
    fn rule_sets_set_their_games_per_pairing() {
        assert_eq!(RuleSet::Official.default_games_per_pairing(), 2);
        assert_eq!(RuleSet::Gar.default_games_per_pairing(), 6);
    }
}

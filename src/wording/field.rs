//! The words of a refused field value: what forms show beside the field,
//! the API returns as `error`, and an import reports with its line.

use std::fmt;

use crate::field::{FieldError, FileProblem, Problem};
use crate::roster::kept_apart::Rounds;
use crate::tournament::{Lock, LockedSince, Tiebreak};

/// The field as a sentence names it.
fn label(field: &str) -> &str {
    match field {
        "federation_id" => "federation id",
        "games_per_pairing" => "games per pairing",
        "bye_value" => "bye value",
        "rules" => "rule set",
        "from_round" => "from round",
        "to_round" => "to round",
        "starts_on" => "first day",
        "ends_on" => "last day",
        "withdrawn_from_round" => "withdrawn from round",
        "table_no" => "table",
        "label" => "name",
        "note" => "reason",
        "a" => "player A",
        "b" => "player B",
        "rd" => "RD",
        "events" => "events",
        "best" => "number of results that count",
        "period" => "month",
        "born" => "year of birth",
        "into" => "person to merge into",
        other => other,
    }
}

/// `a, b or c`.
fn either(choices: &[&str]) -> String {
    match choices {
        [] => String::new(),
        [one] => one.to_string(),
        [first @ .., last] => format!("{} or {last}", first.join(", ")),
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        problem(f, self.field, &self.problem)
    }
}

// A field's problem in words, one case per line: the match reads whole,
// as the list of what a form can refuse.
fn problem(f: &mut fmt::Formatter<'_>, field: &str, p: &Problem) -> fmt::Result {
    let label = label(field);
    match p {
        Problem::Empty => write!(f, "the {label} is empty"),
        Problem::Missing if field == "rounds" => write!(f, "give the number of rounds"),
        Problem::Missing if matches!(field, "rd" | "period") => {
            write!(f, "an imported rating needs its {label}")
        }
        Problem::Missing => write!(f, "choose one"),
        Problem::TooLong { max } => write!(f, "the {label} is longer than {max} characters"),
        Problem::ControlCharacter { code } => {
            write!(f, "the {label} holds a control character or line break (U+{code:04X})")
        }
        Problem::InvisibleCharacter { code } => write!(
            f,
            "the {label} holds an invisible formatting character (U+{code:04X}), which changes how the text reads"
        ),
        Problem::NotWholeNumber { text } => write!(f, "'{text}' is not a whole number"),
        Problem::OutOfRange { value, min, max } if field == "rounds" => {
            write!(f, "{value} rounds is outside {min}..{max}")
        }
        Problem::OutOfRange { value, min, max } => {
            write!(f, "{label} {value} is outside {min}..{max}")
        }
        Problem::BelowOne { value } => write!(f, "{label} {value} is not 1 or more"),
        Problem::NotADate { text } => write!(f, "'{text}' is not a date like 2026-12-05"),
        Problem::ByeWithPlay => write!(f, "a bye goes with \"play\": false"),
        Problem::NotATime { text } => write!(
            f,
            "'{text}' is not a time like 2026-11-27T09:30:00+02:00 (ISO 8601, with its offset)"
        ),
        Problem::NotAMonth { text } => write!(f, "'{text}' is not a month like 2026-09"),
        Problem::NotANumber { text } => write!(f, "'{text}' is not a number"),
        Problem::DecimalOutOfRange { text, min, max } => {
            write!(f, "{label} {text} is outside {min}..{max}")
        }
        Problem::FutureMonth { text } => {
            write!(f, "{text} is after the current month: nothing is rated there yet")
        }
        Problem::MergeIntoSelf => write!(f, "a person cannot be merged into themselves"),
        Problem::MergedAway { person, into } => {
            write!(f, "person {person} is merged into person {into} already")
        }
        Problem::BothEntered { tournament } => write!(
            f,
            "both are entered in {tournament}: two entries of one event cannot be one person"
        ),
        Problem::AlreadyUndone { id } => write!(f, "merge {id} is undone already"),
        Problem::UndoLaterFirst { id, later } => write!(
            f,
            "merge {later} rests on merge {id}: undo merge {later} first"
        ),
        Problem::FromPerson => write!(
            f,
            "the {label} comes from the person of the registry: leave it out"
        ),
        Problem::NotALink { text } => {
            write!(f, "'{text}' is not an http:// or https:// address")
        }
        Problem::TooMany { max } => write!(f, "the {label} hold more than {max} entries"),
        Problem::Twice { id } => write!(f, "tournament {id} is listed twice"),
        Problem::NotLinked => write!(f, "this player is not linked to a person of the registry"),
        Problem::NoSuch { id } => write!(f, "there is no {label} {id}"),
        Problem::TeamEvent { id } => write!(
            f,
            "tournament {id} is a team event; a season counts individual events"
        ),
        Problem::NoEvent => write!(f, "a season needs at least one event: choose one"),
        Problem::EndsBeforeStart => write!(f, "the last day is before the first"),
        Problem::DateOutside { date, first, last } => {
            write!(f, "{label} {date} is outside {first}..{last}")
        }
        Problem::RoundDateOutside {
            round,
            date,
            first,
            last,
        } => write!(
            f,
            "round {round} is dated {date}, outside {first}..{last}: a referee corrects its date on the round's page first"
        ),
        Problem::Unknown { text, choices } => {
            write!(f, "unknown {label} '{text}' ({})", either(choices))
        }
        Problem::NotOneOf { text, choices } => {
            write!(f, "{label} must be {}, not '{text}'", either(choices))
        }
        Problem::NotYesNo { text } => write!(f, "'{text}' is neither yes nor no"),
        Problem::UnknownTiebreak { text } => write!(
            f,
            "unknown tiebreak '{text}' (known: {})",
            Tiebreak::ALL
                .iter()
                .map(|t| t.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Problem::TiebreakTwice { text } => write!(f, "tiebreak '{text}' is listed twice"),
        Problem::TeamTiebreak { tiebreak } => write!(
            f,
            "'{}' separates teams, and this is an individual event",
            tiebreak.as_str()
        ),
        Problem::CyclesNotPlayed => write!(f, "only a round robin or team league plays cycles"),
        Problem::KnockoutRounds {
            entrants,
            needed,
            given,
        } => write!(
            f,
            "a knock-out of {entrants} takes {needed} rounds, not {given}: leave rounds empty or set {needed}"
        ),
        Problem::NotWholeCycles {
            given,
            entrants,
            cycle,
            max_cycles,
        } => {
            let whole: Vec<String> = (1..=*max_cycles).map(|c| (c * cycle).to_string()).collect();
            write!(
                f,
                "{given} rounds is not a whole number of cycles: set {} ({entrants} entrants meet each other once in {cycle} {}) or leave rounds empty",
                whole.join(" or "),
                if *cycle == 1 { "round" } else { "rounds" }
            )
        }
        Problem::CyclesDisagree {
            cycles,
            entrants,
            rounds,
            given,
        } => write!(
            f,
            "{cycles} cycles of {entrants} entrants are {rounds} rounds, not {given}: leave rounds empty"
        ),
        Problem::RoundsFixed { rounds } => write!(
            f,
            "the first pairing fixed the rounds at {rounds}: give a number"
        ),
        Problem::FewerThanPaired { paired } => write!(
            f,
            "{paired} rounds are paired already: give at least that many"
        ),
        Problem::RoundOutside { round, rounds } => write!(
            f,
            "{label} {round} is outside the tournament's rounds (1 to {rounds})"
        ),
        Problem::RoundsReversed { from, to } => {
            write!(f, "to round {to} is before from round {from}")
        }
        Problem::NotOnRoster {
            board,
            player,
            team,
        } => write!(
            f,
            "board {board}: {player} is not on {team}'s roster or among its substitutes"
        ),
        Problem::TwoBoards { player } => write!(
            f,
            "{player} is named on two boards: a player plays one board per match (OGR 10.4)"
        ),
        Problem::NotFourPlayers { given } if field == "members" => write!(
            f,
            "a team has four players in board order (OGR 10.1), not {given}"
        ),
        Problem::NotFourPlayers { given } => write!(
            f,
            "a line-up names four players, board 1 first, not {given}"
        ),
        Problem::TeamNameTaken { name } => write!(f, "a team called {name} is already entered"),
        Problem::NotInEvent => write!(f, "{label} is not in this tournament"),
        Problem::NotBothInEvent => write!(f, "both players must be in this tournament"),
        Problem::SelfRelative => write!(f, "a player cannot be their own relative"),
        Problem::NotChosen { what } => match what {
            crate::field::Chosen::Player => write!(f, "choose a player"),
            crate::field::Chosen::Referee => write!(f, "choose a referee"),
            crate::field::Chosen::BoardPlayer { board } => {
                write!(f, "choose the player on board {board}")
            }
            crate::field::Chosen::RecordSide => {
                write!(f, "choose whose record this is: dark, light or referee")
            }
            crate::field::Chosen::FirstPlayer => write!(f, "choose the first player"),
            crate::field::Chosen::SecondPlayer => write!(f, "choose the second player"),
            crate::field::Chosen::Role => write!(f, "choose admin or referee"),
            crate::field::Chosen::Ruling => write!(f, "choose a ruling: keep, board or other"),
            crate::field::Chosen::PlayerSide => write!(
                f,
                "choose who you are: the player with dark or the one with light"
            ),
        },
        Problem::NotAResult { text } => write!(
            f,
            "'{text}' is not a result: use 1-0, 0-1, 1/2-1/2, +-, -+, -- or np"
        ),
        Problem::TooShort { min } => {
            write!(f, "the {label} must have at least {min} characters")
        }
        Problem::AccountNameCharacters => write!(
            f,
            "the {label} may hold only letters, digits, '.', '_', '-' and '@'"
        ),
        Problem::PasswordsDiffer => write!(f, "the two passwords differ"),
        Problem::NotCurrentPassword => write!(f, "this is not your current password"),
        Problem::TokenLabel => write!(
            f,
            "give the token a name of 1 to 60 characters (what script uses it)"
        ),
        Problem::NotAPlayer { text } => write!(f, "'{text}' is not a player"),
        Problem::NobodyNamed { text } => write!(
            f,
            "nobody in the registry has number or federation id '{text}'"
        ),
        Problem::RoundNotToPair { round, next, last } => write!(
            f,
            "round {round} is not a round still to pair ({next} to {last})"
        ),
        Problem::NoRoundNumber => write!(f, "give the round number"),
        Problem::NotARoundNumber { text } => write!(
            f,
            "{label} '{text}' is not a round number: give one, or leave it blank"
        ),
        Problem::NotKeptApart => write!(f, "the pair could not be kept apart"),
        Problem::NotANumberList { text } => {
            write!(f, "'{text}' is not a list of numbers like 25, 18, 15")
        }
        Problem::NotAPly { text } => write!(
            f,
            "'{text}' is not a ply: give a whole number, 0 for the empty board"
        ),
        Problem::NotAMove { text, expected } => write!(
            f,
            "'{text}' is not one move: expected {expected}"
        ),
        Problem::NotASide { text } => {
            write!(f, "'{text}' is not a side: use dark, light or referee")
        }
        Problem::NotUtf8 { offset } => write!(
            f,
            "The record is not UTF-8 text (the bytes at offset {offset} are not); send it as UTF-8. Nothing was stored."
        ),
        Problem::RecordNotJson { detail } => write!(
            f,
            "The JSON body could not be read ({detail}); send {{\"text\": \"...\", \"side\": \"dark\"}}."
        ),
        Problem::UnknownPlayer { id } => {
            write!(f, "player {id} is not a player of this tournament")
        }
        Problem::ListedTwice { name } => write!(f, "{name} is listed twice"),
        Problem::InOtherTeam { name, team } => write!(
            f,
            "{name} already plays for {team}: a player belongs to one team"
        ),
        Problem::SamePlayer { name } => write!(
            f,
            "{label} is {name} again: choose two different players"
        ),
        Problem::AlreadyKeptApart { a, b, held, asked } => write!(
            f,
            "{a} and {b} are already kept apart ({}), which overlaps {}",
            rounds(*held),
            rounds(*asked)
        ),
        Problem::NoReason => write!(f, "the reason is empty: say why the pair may meet"),
        Problem::RecordTooLong { bytes, max } => write!(
            f,
            "the record is {bytes} bytes long; at most {max} bytes ({} KB) are taken",
            max / 1024
        ),
        Problem::RecordEmpty => write!(f, "the record is empty: paste or upload the moves"),
        Problem::RecordNul { line } => write!(
            f,
            "line {line} of the record holds a NUL character: send the scoresheet as plain text"
        ),
        Problem::NothingToKeep => write!(
            f,
            "the game has no result to keep: enter it, or set the board's"
        ),
        Problem::NoBoardResult => write!(
            f,
            "no record of this game ends on the board: set another result with a reason instead"
        ),
        Problem::RecordsDisagree { dark, light } => write!(
            f,
            "dark's record ends in {} and light's in {}: add the referee's copy, or set another result with a reason",
            dark.label(),
            light.label()
        ),
        Problem::NotAScore { text } => write!(f, "'{text}' is not a score like 2-0 or 1½-½"),
        Problem::ScoreNotGames { text, games } => write!(
            f,
            "'{text}' does not add up to the {games} games of the pairing"
        ),
        Problem::ReasonRequired => write!(
            f,
            "say why another result is set: the reason is required"
        ),
        Problem::RecordsFull { held_kb, max_kb } => write!(
            f,
            "the records of this game already hold {held_kb} KB, and at most {max_kb} KB are kept per game: hand this record to the referee"
        ),
        Problem::NotAPlayersSide => write!(
            f,
            "players send dark's or light's record; the referee's copy is the referee's"
        ),
        Problem::NoResult => write!(f, "choose the result to set"),
        Problem::TeamEventTrf => write!(
            f,
            "a team event has no TRF (TRF describes individual games): download the event file instead"
        ),
        Problem::NotAnIdempotencyKey { text } => write!(
            f,
            "'{text}' is not an Idempotency-Key: one is 1 to 255 visible characters, such as a UUID"
        ),
        Problem::IdempotencyKeyReused => write!(
            f,
            "this Idempotency-Key was sent before with another request: a new write needs a new key"
        ),
        Problem::NotAQuickEntry { text } => {
            write!(f, "'{text}' is not a table and a score, like 7 4-2")
        }
        Problem::NotATable { text } => write!(f, "'{text}' is not a table number"),
        Problem::NoTable { table } => {
            write!(f, "there is no table {table} with two players in this round")
        }
        Problem::AtTable { table, problem } => write!(f, "Table {table}: {}", score(problem)),
        Problem::NotASetScore { table, level, set, text } => write!(
            f,
            "Table {table} was level {level} after its main games and plays tiebreak set {set}, of two games: '{text}' is not a score of that set (like {table} 2-0 or {table} 1½-½)"
        ),
        Problem::InFile { at, problem } => file(f, at, problem),
    }
}

fn file(f: &mut fmt::Formatter<'_>, at: &str, p: &FileProblem) -> fmt::Result {
    match p {
        FileProblem::TooBig { mb, max_mb } => {
            write!(f, "the file is {mb} MB; at most {max_mb} MB are taken")
        }
        FileProblem::NotJson { reason } => write!(f, "the file is not JSON: {reason}"),
        FileProblem::NotAnEvent { reason } => {
            write!(f, "the file is not a valid event: {reason}")
        }
        FileProblem::OtherFormat {
            found: Some(other),
            wanted,
        } => write!(
            f,
            "the file is a '{other}', not a '{wanted}' (made by `kraal export event`)"
        ),
        FileProblem::OtherFormat {
            found: None,
            wanted,
        } => write!(
            f,
            "the file does not say it is a '{wanted}' (made by `kraal export event`)"
        ),
        FileProblem::OtherVersion {
            found: Some(v),
            reads,
        } => write!(
            f,
            "the file is version {v} of the event format; this Kraal reads version {reads}"
        ),
        FileProblem::OtherVersion { found: None, .. } => write!(f, "the file has no version"),
        FileProblem::Nul => write!(f, "{at} holds a NUL character, which no database stores"),
        FileProblem::SameId { id, first } => write!(
            f,
            "{at} has id {id}, as {first} does: every row needs its own id"
        ),
        FileProblem::Number { value, min, max } => match max {
            Some(max) => write!(f, "{at}: {value} is not {min} to {max}"),
            None => write!(f, "{at}: {value} is not {min} or more"),
        },
        FileProblem::InTwoTeams {
            player,
            team,
            first,
        } => write!(
            f,
            "{at}: player {player} is already in team {team} ({first}): a player belongs to one team"
        ),
        FileProblem::NotOnRoster { player, team } => {
            write!(f, "{at}: {player} is not on {team}'s roster")
        }
        FileProblem::Missing { table, id } => {
            write!(f, "{at} names {table} {id}, which is not in the file")
        }
        FileProblem::Unknown(e) => write!(f, "{at}: {e}"),
        FileProblem::Unreadable { reason } => write!(f, "{at}: {reason}"),
        FileProblem::Field(e) => write!(f, "{at}.{}: {e}", e.field),
    }
}

/// Why a typed score was not taken, without a field to name.
pub fn score(p: &Problem) -> String {
    FieldError::new("score", p.clone()).to_string()
}

/// Why a locked setting cannot change: "rules cannot change: fixed once
/// round 1 is paired: ...".
impl fmt::Display for Lock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} cannot change: {}", self.field, since(self.since))
    }
}

/// What fixed a setting, as the settings page says beside it.
pub fn since(s: LockedSince) -> &'static str {
    match s {
        LockedSince::Paired => "fixed once round 1 is paired: the pairings and results rest on it",
        LockedSince::Published => {
            "fixed once a round is published: players have seen the standings it gives"
        }
    }
}

/// The rounds a kept-apart pair covers as a referee reads them ("rounds
/// 2-5", "all rounds").
pub fn rounds(r: Rounds) -> String {
    match (r.from, r.to) {
        (None, None) => "all rounds".into(),
        (Some(f), Some(t)) if f == t => format!("round {f}"),
        (Some(f), Some(t)) => format!("rounds {f}-{t}"),
        (Some(f), None) => format!("from round {f}"),
        (None, Some(t)) => format!("rounds 1-{t}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_read_as_a_referee_writes_them() {
        for (from, to, label) in [
            (None, None, "all rounds"),
            (Some(3), Some(3), "round 3"),
            (Some(2), Some(5), "rounds 2-5"),
            (Some(4), None, "from round 4"),
            (None, Some(3), "rounds 1-3"),
        ] {
            assert_eq!(rounds(Rounds::new(from, to)), label);
        }
    }

    #[test]
    fn a_problem_is_worded_with_its_field() {
        let said = |field, p| FieldError::new(field, p).to_string();
        assert_eq!(said("name", Problem::Empty), "the name is empty");
        assert_eq!(
            said("federation_id", Problem::TooLong { max: 32 }),
            "the federation id is longer than 32 characters"
        );
        assert_eq!(
            said(
                "bye_value",
                Problem::Unknown {
                    text: "half".into(),
                    choices: &["win", "draw", "none"]
                }
            ),
            "unknown bye value 'half' (win, draw or none)"
        );
        assert_eq!(
            said(
                "rounds",
                Problem::NotWholeCycles {
                    given: 5,
                    entrants: 4,
                    cycle: 3,
                    max_cycles: 2
                }
            ),
            "5 rounds is not a whole number of cycles: set 3 or 6 (4 entrants meet each other once in 3 rounds) or leave rounds empty"
        );
        let row = crate::field::FileProblem::Field(FieldError::new(
            "rating",
            Problem::BelowOne { value: 0 },
        ))
        .at("players[2] (id 7)");
        assert_eq!(
            row.to_string(),
            "players[2] (id 7).rating: rating 0 is not 1 or more"
        );
    }
}

//! The words of a refused round action.

use std::fmt;

use super::Lang;
use crate::rounds::{NotReady, OnGames, Refused};

impl fmt::Display for NotReady {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotReady::Unpublished { round } => write!(
                f,
                "round {round} is not published yet: publish or undo it first"
            ),
            NotReady::MissingResults { round, missing } => {
                write!(f, "round {round} still has {missing} games without a result")
            }
            NotReady::AllPaired { total } => write!(f, "all {total} rounds have been paired"),
            NotReady::NoPlayers { round } => write!(
                f,
                "round {round} cannot be paired: the tournament has no players yet; add at least two"
            ),
            NotReady::NoneLeft { round } => write!(
                f,
                "round {round} cannot be paired: no player is left to play it (all withdrawn or on a bye)"
            ),
            NotReady::OnlyOne { round, name } => write!(
                f,
                "round {round} cannot be paired: {name} is the only player to play it; add at least one more"
            ),
            NotReady::TooFewTeams { round, teams } => write!(
                f,
                "round {round} cannot be paired: a team event needs at least two teams, and {} entered",
                match teams {
                    0 => "none is".to_string(),
                    n => format!("{n} is"),
                }
            ),
            NotReady::RosterSize { team, players } => write!(
                f,
                "{team} has {players} roster players: a team lines up four (OGR 10.1)"
            ),
            NotReady::NoSuchRound { round, league: true } => {
                write!(f, "the league has no round {round}")
            }
            NotReady::NoSuchRound {
                round,
                league: false,
            } => write!(f, "the round robin has no round {round}"),
            NotReady::NoRound => write!(f, "no round yet"),
            NotReady::Level { table, round } => {
                write!(f, "table {table} of round {round} is still level")
            }
            NotReady::FinalPlayed => write!(f, "the final has been played: the knock-out is over"),
        }
    }
}

impl fmt::Display for Refused {
    // A refusal in words, one case per line: the match reads whole, as the
    // list of what a round's page can refuse.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::AlreadyPublished { round } => write!(f, "round {round} is already published"),
            Refused::LockingDraft { round } => {
                write!(f, "round {round} is a draft: publish it first")
            }
            Refused::UndoNotLast { round } => write!(
                f,
                "only the last round can be undone, and round {round} is not the last"
            ),
            Refused::UndoWithResults { round, results } => write!(
                f,
                "round {round} already has {results} results: clear them before undoing the round"
            ),
            Refused::ClearNotLast { round, last } => write!(
                f,
                "round {} is paired after round {round} and rests on its results: undo round {} first",
                round + 1,
                last.unwrap_or(round + 1)
            ),
            Refused::NothingToClear { round } => {
                write!(f, "round {round} has no results to clear")
            }
            Refused::RecordedTiebreak { table, game } => write!(
                f,
                "tiebreak game {game} of table {table} holds a record, which clearing would delete: correct that table on the results page instead"
            ),
            Refused::SwapPublished { round } => write!(
                f,
                "round {round} is published: undo it to change its pairings"
            ),
            Refused::SwapNotTwoPlayers => write!(f, "choose two different players of this round"),
            Refused::Draft {
                round,
                doing: OnGames::Results,
            } => write!(
                f,
                "round {round} is a draft: publish it before entering results"
            ),
            Refused::Draft {
                round,
                doing: OnGames::Records,
            } => write!(
                f,
                "round {round} is a draft: records are taken once it is published"
            ),
            Refused::Draft {
                round,
                doing: OnGames::Rulings,
            } => write!(
                f,
                "round {round} is a draft: publish it before ruling on its games"
            ),
            Refused::Draft {
                round,
                doing: OnGames::Reports,
            } => write!(
                f,
                "round {round} is a draft: results are reported once it is published"
            ),
            Refused::LinkLocked { round } => write!(
                f,
                "round {round} is locked, so this link takes no more records: hand your scoresheet to the referee"
            ),
            Refused::PlyRecorded { ply, stored } => write!(
                f,
                "your record already has {stored} as ply {ply}: send that ply again as it is, or go on from ply {}",
                ply + 1
            ),
            Refused::PlyAhead { ply, next } => write!(
                f,
                "ply {ply} comes after ply {next}, which your record does not have yet: send ply {next} first"
            ),
            Refused::GameOver { result } => write!(
                f,
                "this game has its result ({result}): it takes no more plies"
            ),
            Refused::OwnPly { ply } => write!(
                f,
                "ply {ply} is yours: your opponent says whether it is rectified or stands (OGR 5.4)"
            ),
            Refused::PlyRegular { ply } => write!(
                f,
                "ply {ply} is not irregular: there is nothing to rectify or let stand"
            ),
            Refused::PlyStands { ply } => write!(
                f,
                "ply {ply} stands: it was let stand, or the game went on after it (OGR 5.7)"
            ),
            Refused::NoSuchPly { ply } => write!(
                f,
                "your record has no ply {ply}: record it first"
            ),
            Refused::NotYourGame { game } => write!(
                f,
                "game {game} is not one of your games: report only the games you play"
            ),
            Refused::ReportNotPlayed => write!(
                f,
                "players report games played over the board (1-0, 1/2-1/2, 0-1); a forfeit or a game not played is the referee's to record"
            ),
            Refused::ReportLocked { round } => write!(
                f,
                "round {round} is locked: results are the referee's now, see the desk"
            ),
            Refused::ReportedByReferee { result } => write!(
                f,
                "the referee has entered {result} for this game: ask the referee if it is wrong"
            ),
            Refused::ReportAgreed { result } => write!(
                f,
                "both players reported {result} and it is stored: ask the referee to change it"
            ),
            Refused::RoundPaired { round } => write!(
                f,
                "round {round} is paired already: tell the referee"
            ),
            Refused::NoNextRound => write!(f, "every round of this event is paired"),
            Refused::HalfByeNotOffered => write!(
                f,
                "this event does not let players take a half-point bye themselves: ask the referee, or take a zero-point absence"
            ),
            Refused::HalfByeUsed { round } => write!(
                f,
                "you have had your half-point bye (round {round}): take a zero-point absence, or ask the referee"
            ),
            Refused::ByeByReferee { round } => write!(
                f,
                "the referee recorded your absence from round {round}: ask the referee to undo it"
            ),
            Refused::PlayerWithdrawn => write!(
                f,
                "you are withdrawn from the event: ask the referee to reinstate you"
            ),
            Refused::ChangedWhilePairing => write!(
                f,
                "the tournament changed while the round was being paired: pair it again"
            ),
            Refused::NoMatch { team, round } => {
                write!(f, "{team} has no match in round {round}")
            }
            Refused::TeamBye { team, round } => write!(
                f,
                "{team} has the bye in round {round}: there is no line-up to give"
            ),
            Refused::NoRoundPublished => {
                f.write_str("No round is published yet: there is no line-up to give.")
            }
            Refused::CaptainTooLate { team, round } => write!(
                f,
                "the boards of {team}'s match in round {round} have started: only the referee can change the line-up now"
            ),
            Refused::BoardStarted { board, player, by } => write!(
                f,
                "board {board} has started: {player} can no longer be replaced by {by} (OGR 10.3.1)"
            ),
            Refused::BoardStartedMeanwhile => write!(
                f,
                "this board started meanwhile (a result or the start was entered): its player can no longer change (OGR 10.3.1)"
            ),
        }
    }
}

/// Why a round's page offers no Undo, beside where the button would be
/// (`last`: the tournament's last round).
pub fn undo_blocked(r: &Refused, last: i32, lang: Lang) -> String {
    match lang {
        Lang::English => match r {
            Refused::UndoNotLast { .. } => {
                format!("Only the last round can be undone: round {last} is paired after this one.")
            }
            Refused::UndoWithResults { round, results } => format!(
                "Round {round} has {results} {}: clear them first to undo it.",
                if *results == 1 { "result" } else { "results" }
            ),
            // check_undo refuses in no other way.
            other => other.to_string(),
        },
    }
}

//! The words of a refused round action.

use std::fmt;

use crate::rounds::{OnGames, Refused};

/// Why an action on a round is refused, as the referee reads it.
pub fn refused(r: &Refused) -> String {
    r.to_string()
}

impl fmt::Display for Refused {
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
            Refused::LinkLocked { round } => write!(
                f,
                "round {round} is locked, so this link takes no more records: hand your scoresheet to the referee"
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

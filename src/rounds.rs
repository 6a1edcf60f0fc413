//! What the referee may still do to a paired round: publish it, lock it,
//! undo it, clear its results, swap two of its players, and replace a
//! player on a board of a team match.
//!
//! Each rule decides on facts the database has read (the round's status,
//! the last round paired, how many results it holds), so the same rule
//! answers the action and the page that offers it, and a refusal says
//! what to do instead.

use crate::tournament::RoundStatus;

/// Why an action on a round is refused, in values; `wording::rounds`
/// says it to the referee.
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, strum::IntoStaticStr, strum::VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Refused {
    /// Publishing a published round again.
    AlreadyPublished { round: i32 },
    /// Locking (or unlocking) a draft, whose players have no links yet.
    LockingDraft { round: i32 },
    /// Undoing a round another is paired after.
    UndoNotLast { round: i32 },
    /// Undoing a round whose games hold `results` results.
    UndoWithResults { round: i32, results: usize },
    /// Clearing a round `last` (paired after it) rests on.
    ClearNotLast { round: i32, last: Option<i32> },
    /// Clearing a round without a result.
    NothingToClear { round: i32 },
    /// Clearing would delete the record of tiebreak game `game` of `table`.
    RecordedTiebreak { table: i32, game: i32 },
    /// Swapping players of a published round.
    SwapPublished { round: i32 },
    /// A swap naming one player twice, or someone not in the round.
    SwapNotTwoPlayers,
    /// Replacing `player` by `by` on started board `board` (OGR 10.3.1).
    BoardStarted {
        board: i32,
        player: String,
        by: String,
    },
    /// The board started between the look that allowed a replacement and
    /// the write that makes it (OGR 10.3.1).
    BoardStartedMeanwhile,
    /// Something done to the games of a draft round, which only its
    /// referees see: results, records or rulings wait for publication.
    Draft { round: i32, doing: OnGames },
    /// A players' link sending a record to a locked round.
    LinkLocked { round: i32 },
    /// The tournament changed while the round was being paired, so the
    /// pairing may rest on results that no longer stand.
    ChangedWhilePairing,
    /// A player reporting on a game of someone else's pairing.
    NotYourGame { game: i32 },
    /// A player reporting a forfeit or a game not played.
    ReportNotPlayed,
    /// A report on a game of a locked round.
    ReportLocked { round: i32 },
    /// A report on a game whose result a referee set.
    ReportedByReferee { result: String },
    /// A report on a game whose result both players reported already.
    ReportAgreed { result: String },
    /// A player's word on round `round`, already paired.
    RoundPaired { round: i32 },
    /// Every round of the event is paired: there is no next round.
    NoNextRound,
    /// A half-point bye the event does not let players take themselves.
    HalfByeNotOffered,
    /// A player's second half-point bye (the one they took: round `round`).
    HalfByeUsed { round: i32 },
    /// A player undoing a bye the referee recorded.
    ByeByReferee { round: i32 },
    /// A withdrawn player's word on the next round.
    PlayerWithdrawn,
    /// A line-up for a team with no match in the round.
    NoMatch { team: String, round: i32 },
    /// A line-up for a team with the bye.
    TeamBye { team: String, round: i32 },
    /// A line-up given before any round is published.
    NoRoundPublished,
    /// A captain changing a line-up once the match's boards started.
    CaptainTooLate { team: String, round: i32 },
    /// A ply of a recorded game that the player's record already holds
    /// with another move (`stored`).
    PlyRecorded { ply: i32, stored: String },
    /// A ply of a recorded game past the next one of the player's record.
    PlyAhead { ply: i32, next: i32 },
    /// A ply recorded for a game that has its result (`result`, from the
    /// starter's side).
    GameOver { result: String },
    /// A player ruling on a ply of their own (their opponent rules on it).
    OwnPly { ply: i32 },
    /// A ruling on a ply that is not irregular.
    PlyRegular { ply: i32 },
    /// Rectifying a ply that stands: let stand by word, or played on (OGR
    /// 5.7).
    PlyStands { ply: i32 },
    /// A ruling on a ply the player's record does not have.
    NoSuchPly { ply: i32 },
}

/// Why the next round cannot be paired yet, and what would let it.
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, strum::IntoStaticStr, strum::VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum NotReady {
    /// The last round is still a draft.
    Unpublished { round: i32 },
    /// The last round has `missing` games without a result.
    MissingResults { round: i32, missing: usize },
    /// Every round of the event is paired.
    AllPaired { total: i32 },
    /// Nobody is entered yet.
    NoPlayers { round: i32 },
    /// Everyone is withdrawn or on a requested bye.
    NoneLeft { round: i32 },
    /// One player alone is left to play.
    OnlyOne { round: i32, name: String },
    /// A team event with fewer than two teams.
    TooFewTeams { round: i32, teams: usize },
    /// A team whose roster is not four players (OGR 10.1).
    RosterSize { team: String, players: usize },
    /// A schedule (round robin or league) without this round.
    NoSuchRound { round: i32, league: bool },
    /// A knock-out with no round yet to follow.
    NoRound,
    /// A knock-out table still level after its games.
    Level { table: i32, round: i32 },
    /// The knock-out's final is played.
    FinalPlayed,
}

/// What is done to a round's games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OnGames {
    Results,
    Records,
    Rulings,
    /// Players reporting results through their links.
    Reports,
}

/// Publishing round `round` (`status` now). Publishing twice would move
/// the moment players were shown their pairings.
pub fn check_publish(round: i32, status: RoundStatus) -> Result<(), Refused> {
    match status {
        RoundStatus::Draft => Ok(()),
        RoundStatus::Published => Err(Refused::AlreadyPublished { round }),
    }
}

/// Locking or unlocking round `round`'s players' links: a draft has none
/// to close.
pub fn check_lock(round: i32, status: RoundStatus) -> Result<(), Refused> {
    match status {
        RoundStatus::Published => Ok(()),
        RoundStatus::Draft => Err(Refused::LockingDraft { round }),
    }
}

/// Undoing round `round`, `last` being the last round paired and
/// `results` the results its games hold. A later round's pairing rests on
/// this one's, and a result is a game played: neither is thrown away by an
/// undo.
pub fn check_undo(round: i32, last: Option<i32>, results: usize) -> Result<(), Refused> {
    if last != Some(round) {
        return Err(Refused::UndoNotLast { round });
    }
    if results > 0 {
        return Err(Refused::UndoWithResults { round, results });
    }
    Ok(())
}

/// Clearing round `round`'s `results`, `last` being the last round paired
/// and `recorded_tiebreak` a tiebreak game (table, game) of the round that
/// holds a record. A later round's pairing rests on these results, and a
/// tiebreak set goes with the clearing, which would take its records along:
/// such a table is corrected on the results page instead.
pub fn check_clear(
    round: i32,
    last: Option<i32>,
    results: usize,
    recorded_tiebreak: Option<(i32, i32)>,
) -> Result<(), Refused> {
    if last != Some(round) {
        return Err(Refused::ClearNotLast { round, last });
    }
    if results == 0 {
        return Err(Refused::NothingToClear { round });
    }
    if let Some((table, game)) = recorded_tiebreak {
        return Err(Refused::RecordedTiebreak { table, game });
    }
    Ok(())
}

/// Swapping players `a` and `b` of round `round` (`status` now);
/// `in_round` says whether each is seated in it. Players have seen a
/// published round's pairings, so it is undone and paired again instead.
pub fn check_swap(
    round: i32,
    status: RoundStatus,
    (a, b): (i32, i32),
    in_round: [bool; 2],
) -> Result<(), Refused> {
    if status == RoundStatus::Published {
        return Err(Refused::SwapPublished { round });
    }
    if a == b || in_round != [true, true] {
        return Err(Refused::SwapNotTwoPlayers);
    }
    Ok(())
}

/// A board of a team match, as far as a line-up change cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Board {
    /// Marked started by the referee, before any result.
    pub marked: bool,
    /// Its games with a result.
    pub results: usize,
}

impl Board {
    /// OGR 10.3.1: a board has started once a game on it has a result or
    /// the referee says play began; its player has then begun playing.
    pub fn started(self) -> bool {
        self.marked || self.results > 0
    }
}

/// Putting `by` in `player`'s place on board number `number`: a player who
/// has begun playing cannot be substituted (OGR 10.3.1).
pub fn check_substitution(
    board: Board,
    number: i32,
    player: &str,
    by: &str,
) -> Result<(), Refused> {
    if board.started() {
        return Err(Refused::BoardStarted {
            board: number,
            player: player.to_string(),
            by: by.to_string(),
        });
    }
    Ok(())
}

/// [`check_substitution`] asked again as the change is written, the
/// board's row held: a result or a start entered since the first look
/// refuses the change all the same.
pub fn check_still_unstarted(board: Board) -> Result<(), Refused> {
    if board.started() {
        return Err(Refused::BoardStartedMeanwhile);
    }
    Ok(())
}

/// The day a round is played, as typed (`YYYY-MM-DD`): the page and the API
/// read it alike.
pub fn parse_day(text: &str) -> Result<chrono::NaiveDate, crate::field::Problem> {
    let text = text.trim();
    if text.is_empty() {
        return Err(crate::field::Problem::Empty);
    }
    chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").map_err(|_| {
        crate::field::Problem::NotADate {
            text: text.to_string(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use RoundStatus::{Draft, Published};

    #[test]
    fn a_draft_is_published_once_and_only_then_locked() {
        assert_eq!(check_publish(3, Draft), Ok(()));
        assert_eq!(
            check_publish(3, Published).unwrap_err().to_string(),
            "round 3 is already published"
        );
        assert_eq!(check_lock(3, Published), Ok(()));
        assert_eq!(
            check_lock(3, Draft).unwrap_err().to_string(),
            "round 3 is a draft: publish it first"
        );
    }

    #[test]
    fn only_the_last_round_without_results_is_undone() {
        // Seven rounds of the Limpopo Open, round 5 paired last.
        assert_eq!(check_undo(5, Some(5), 0), Ok(()));
        assert_eq!(
            check_undo(4, Some(5), 0).unwrap_err().to_string(),
            "only the last round can be undone, and round 4 is not the last"
        );
        assert_eq!(
            check_undo(5, Some(5), 12),
            Err(Refused::UndoWithResults {
                round: 5,
                results: 12
            })
        );
        assert_eq!(
            check_undo(5, Some(5), 12).unwrap_err().to_string(),
            "round 5 already has 12 results: clear them before undoing the round"
        );
        // Not the last comes first: round 4's results do not matter then.
        assert_eq!(
            check_undo(4, Some(5), 12),
            Err(Refused::UndoNotLast { round: 4 })
        );
    }

    #[test]
    fn only_the_last_rounds_results_are_cleared() {
        assert_eq!(check_clear(5, Some(5), 12, None), Ok(()));
        assert_eq!(
            check_clear(4, Some(5), 12, None).unwrap_err().to_string(),
            "round 5 is paired after round 4 and rests on its results: undo round 5 first"
        );
        assert_eq!(
            check_clear(5, Some(5), 0, None).unwrap_err().to_string(),
            "round 5 has no results to clear"
        );
        assert_eq!(
            check_clear(5, Some(5), 12, Some((3, 4)))
                .unwrap_err()
                .to_string(),
            "tiebreak game 4 of table 3 holds a record, which clearing would delete: correct that table on the results page instead"
        );
        // A round without results is refused as such even with a record.
        assert_eq!(
            check_clear(5, Some(5), 0, Some((3, 4))),
            Err(Refused::NothingToClear { round: 5 })
        );
    }

    #[test]
    fn only_two_players_of_a_draft_are_swapped() {
        // Thabo Mokoena (7) and Nomvula Dlamini (3) at round 2's tables.
        assert_eq!(check_swap(2, Draft, (7, 3), [true, true]), Ok(()));
        assert_eq!(
            check_swap(2, Published, (7, 3), [true, true])
                .unwrap_err()
                .to_string(),
            "round 2 is published: undo it to change its pairings"
        );
        for (pair, seated) in [
            ((7, 7), [true, true]),
            ((7, 3), [true, false]),
            ((7, 3), [false, true]),
        ] {
            assert_eq!(
                check_swap(2, Draft, pair, seated),
                Err(Refused::SwapNotTwoPlayers),
                "{pair:?} {seated:?}"
            );
        }
    }

    #[test]
    fn a_started_boards_player_is_not_replaced() {
        let fresh = Board::default();
        let marked = Board {
            marked: true,
            results: 0,
        };
        let played = Board {
            marked: false,
            results: 1,
        };
        assert!(!fresh.started() && marked.started() && played.started());
        assert_eq!(
            check_substitution(fresh, 2, "Thabo Mokoena", "Kagiso Molefe"),
            Ok(())
        );
        for board in [marked, played] {
            assert_eq!(
                check_substitution(board, 2, "Thabo Mokoena", "Kagiso Molefe")
                    .unwrap_err()
                    .to_string(),
                "board 2 has started: Thabo Mokoena can no longer be replaced by Kagiso Molefe (OGR 10.3.1)"
            );
            assert_eq!(
                check_still_unstarted(board),
                Err(Refused::BoardStartedMeanwhile)
            );
        }
        assert_eq!(check_still_unstarted(fresh), Ok(()));
    }
}

//! Results the players report through their own links.
//!
//! Each of a game's two players may say how it ended, from the starter's
//! side as every result is written. What happens then depends on the
//! tournament's [`Confirmation`]: with `players` (the default) a result is
//! stored when both say the same; with `players_then_referee` it waits on
//! the results desk for a referee even then; with `off` one player's word
//! is stored until the opponent contradicts it. Two reports that differ
//! store nothing and flag the game "disputed" for the desk.
//!
//! A referee's entry always wins: once a referee has set a game's result,
//! reporting on it is closed. So is a game whose result both players
//! reported: changing it is the referee's to do.

use serde::Serialize;

use crate::results::GameResult;
use crate::tournament::Confirmation;

/// What the two players of a game have reported, in the pairing's order
/// (the first-listed player, then the other).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Reports {
    pub first: Option<GameResult>,
    pub second: Option<GameResult>,
}

impl Reports {
    /// The report of the first-listed player (`true`) or the other.
    pub fn of(&self, first: bool) -> Option<GameResult> {
        if first {
            self.first
        } else {
            self.second
        }
    }

    pub fn set(&mut self, first: bool, result: GameResult) {
        if first {
            self.first = Some(result);
        } else {
            self.second = Some(result);
        }
    }

    /// Both reported, and not the same.
    pub fn disputed(&self) -> bool {
        matches!((self.first, self.second), (Some(a), Some(b)) if a != b)
    }

    /// The result both reported, if they agree.
    pub fn agreed(&self) -> Option<GameResult> {
        match (self.first, self.second) {
            (Some(a), Some(b)) if a == b => Some(a),
            _ => None,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.first.is_none() && self.second.is_none()
    }
}

/// A game as reporting sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameNow {
    pub result: Option<GameResult>,
    /// The stored result came from the players' reports, not a referee.
    pub reported: bool,
}

/// Why a player may not report on a game now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closed {
    /// A referee set the result: theirs stands.
    ByReferee(GameResult),
    /// Both players reported this result and it is stored.
    Agreed(GameResult),
}

/// Whether reporting on a game is closed, and why.
pub fn closed(game: GameNow, reports: Reports) -> Option<Closed> {
    match game.result {
        Some(r) if !game.reported => Some(Closed::ByReferee(r)),
        Some(r) if reports.agreed() == Some(r) => Some(Closed::Agreed(r)),
        _ => None,
    }
}

/// The results a player may report: the ones played over the board. A
/// forfeit or a game not played is the referee's to record.
pub fn may_report(result: GameResult) -> bool {
    matches!(
        result,
        GameResult::StarterWon | GameResult::OtherWon | GameResult::Draw
    )
}

/// Reads a result a player sends, as every result is read (`1-0`, `½-½`,
/// ...). Whether a player may report it is [`may_report`]'s to say.
pub fn read(text: &str) -> Result<GameResult, crate::field::Problem> {
    GameResult::parse(text).ok_or_else(|| crate::field::Problem::NotOneOf {
        text: text.trim().to_string(),
        choices: &["1-0", "1/2-1/2", "0-1"],
    })
}

/// What a game's reports call for, once a new one is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Outcome {
    /// Store this result: both players said it (`both`), or one did and
    /// the event asks no confirmation.
    Store { result: GameResult, both: bool },
    /// One player has reported; the other has not yet.
    Waiting,
    /// Both said the same; a referee confirms it on the desk.
    AwaitingReferee { result: GameResult },
    /// They differ: nothing is stored (a result stored from one player's
    /// word alone is withdrawn) and the desk decides.
    Disputed,
}

/// What `reports` (the new report counted) call for under `confirmation`,
/// for a game that is not [`closed`].
pub fn outcome(confirmation: Confirmation, reports: Reports) -> Outcome {
    if reports.disputed() {
        return Outcome::Disputed;
    }
    match (reports.agreed(), confirmation) {
        (Some(result), Confirmation::PlayersThenReferee) => Outcome::AwaitingReferee { result },
        (Some(result), _) => Outcome::Store { result, both: true },
        (None, Confirmation::Off) => match reports.first.or(reports.second) {
            Some(result) => Outcome::Store {
                result,
                both: false,
            },
            None => Outcome::Waiting,
        },
        (None, _) => Outcome::Waiting,
    }
}

/// The change to the stored result an outcome makes, given the game now:
/// `Some(Some(r))` stores `r`, `Some(None)` withdraws a result stored from
/// one player's word, `None` leaves the game as it is.
pub fn stored_change(game: GameNow, outcome: Outcome) -> Option<Option<GameResult>> {
    match outcome {
        Outcome::Store { result, .. } if game.result != Some(result) => Some(Some(result)),
        Outcome::Disputed | Outcome::Waiting | Outcome::AwaitingReferee { .. }
            if game.reported && game.result.is_some() =>
        {
            Some(None)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::*;

    fn reports(first: Option<GameResult>, second: Option<GameResult>) -> Reports {
        Reports { first, second }
    }

    #[test]
    fn two_reports_that_agree_store_the_result_unless_a_referee_must_confirm() {
        let both = reports(Some(StarterWon), Some(StarterWon));
        assert_eq!(
            outcome(Confirmation::Players, both),
            Outcome::Store {
                result: StarterWon,
                both: true
            }
        );
        assert_eq!(
            outcome(Confirmation::PlayersThenReferee, both),
            Outcome::AwaitingReferee { result: StarterWon }
        );
        assert_eq!(
            outcome(Confirmation::Players, reports(Some(Draw), None)),
            Outcome::Waiting
        );
    }

    #[test]
    fn reports_that_differ_are_disputed_and_withdraw_a_one_sided_result() {
        let differ = reports(Some(StarterWon), Some(OtherWon));
        for c in Confirmation::ALL {
            assert_eq!(outcome(*c, differ), Outcome::Disputed);
        }
        // Without confirmation the first report was stored: the dispute
        // takes it back.
        let stored = GameNow {
            result: Some(StarterWon),
            reported: true,
        };
        assert_eq!(stored_change(stored, Outcome::Disputed), Some(None));
        let empty = GameNow {
            result: None,
            reported: false,
        };
        assert_eq!(stored_change(empty, Outcome::Disputed), None);
    }

    #[test]
    fn without_confirmation_one_report_is_stored() {
        assert_eq!(
            outcome(Confirmation::Off, reports(None, Some(Draw))),
            Outcome::Store {
                result: Draw,
                both: false
            }
        );
    }

    #[test]
    fn a_referees_result_closes_reporting_and_so_does_an_agreed_one() {
        let by_referee = GameNow {
            result: Some(Draw),
            reported: false,
        };
        assert_eq!(
            closed(by_referee, Reports::default()),
            Some(Closed::ByReferee(Draw))
        );
        let agreed = GameNow {
            result: Some(OtherWon),
            reported: true,
        };
        assert_eq!(
            closed(agreed, reports(Some(OtherWon), Some(OtherWon))),
            Some(Closed::Agreed(OtherWon))
        );
        // One player's word, stored for want of confirmation: the
        // opponent may still contradict it.
        assert_eq!(closed(agreed, reports(Some(OtherWon), None)), None);
        assert!(!may_report(StarterByForfeit) && may_report(Draw));
    }
}

//! Game results as referees write them, and what they are worth.
//!
//! A game's result is written from the point of view of the player who
//! started it: `1-0` means the starter won. A pairing's score is written from
//! the point of view of the player listed first (who starts game 1): `2-0`,
//! `1½-½`, `3-3`.

use serde::Serialize;

use crate::pairing::{Points, POINT};

pub mod game;
pub use game::{GameResult, UnknownResult};

/// Reads a pairing score such as `2-0`, `1½-½`, `1.5-0.5`, `4 - 2` for a
/// pairing of `games` games: the two sides must add up to the games played.
pub fn parse_pairing_score(
    text: &str,
    games: u32,
) -> Result<(Points, Points), crate::field::Problem> {
    use crate::field::Problem;
    let not_a_score = || Problem::NotAScore {
        text: text.trim().to_string(),
    };
    let t = text.trim().replace(['–', '—', '−', ':'], "-");
    let (a, b) = t.split_once('-').ok_or_else(not_a_score)?;
    let side = |s: &str| -> Option<Points> {
        let s = s.trim();
        let (whole, half) = match s.strip_suffix('½') {
            Some(w) => (w, POINT / 2),
            None => (s, 0),
        };
        if whole.is_empty() {
            return (half > 0).then_some(half);
        }
        if let Some((w, f)) = whole.split_once(['.', ',']) {
            if half == 0 && (f == "5" || f == "0") {
                let w: Points = w.parse().ok()?;
                return Some(w * POINT + if f == "5" { POINT / 2 } else { 0 });
            }
            return None;
        }
        whole.parse::<Points>().ok().map(|w| w * POINT + half)
    };
    let (Some(a), Some(b)) = (side(a), side(b)) else {
        return Err(not_a_score());
    };
    if a + b != Points::from(games) * POINT {
        return Err(Problem::ScoreNotGames {
            text: text.trim().to_string(),
            games,
        });
    }
    Ok((a, b))
}

/// Who starts game `number` (1-based) of a pairing: the first-listed player
/// starts the odd games, the other the even ones, so starts balance.
pub fn first_starts(number: u32) -> bool {
    number % 2 == 1
}

/// Game results that give the first-listed player `first_points` out of
/// `games`: the first player's wins come first, then draws, then losses. A
/// referee who needs another order edits the single games.
pub fn fill_games(first_points: Points, games: u32) -> Vec<GameResult> {
    let starts: Vec<bool> = (1..=games).map(first_starts).collect();
    fill_from_first(first_points, &starts)
}

/// As [`fill_games`] for games whose starters are given (`true`: the
/// first-listed player starts it), such as a knock-out tiebreak set.
pub fn fill_from_first(first_points: Points, first_started: &[bool]) -> Vec<GameResult> {
    let wins = (first_points / POINT) as usize;
    let draw = first_points % POINT != 0;
    first_started
        .iter()
        .enumerate()
        .map(|(idx, &first_starts)| {
            let first_result = if idx < wins {
                1
            } else if draw && idx == wins {
                0
            } else {
                -1
            };
            match (first_result, first_starts) {
                (0, _) => GameResult::Draw,
                (1, true) | (-1, false) => GameResult::StarterWon,
                _ => GameResult::OtherWon,
            }
        })
        .collect()
}

/// One game's result as somebody asked for it.
///
/// `seen_version` is the game's version when that person last saw it: if
/// the game has changed since, the edit is a conflict to report, never an
/// overwrite. A client that does not say (`None`) asks for the last write to
/// win.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResultEdit {
    pub game: crate::ids::GameId,
    pub wanted: Option<GameResult>,
    pub seen_version: Option<i32>,
    /// Who stores it: a referee, or the players' reports.
    pub by: EnteredBy,
}

/// Who stores a result. A referee's result closes the players' reporting
/// on the game and wins over whatever they reported meanwhile; a result
/// from reports is marked as such (see `crate::reports`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EnteredBy {
    #[default]
    Referee,
    /// Both players reported it.
    BothPlayers,
    /// One player reported it, and the event asks no confirmation.
    OnePlayer,
    /// The players now disagree: a result stored from one player's word
    /// is taken back.
    Disputed,
}

impl ResultEdit {
    /// Whether the game has changed since the editor saw it at `version`
    /// now: then the edit is reported, never saved over what they did not
    /// see.
    pub fn is_stale(&self, version: i32) -> bool {
        self.seen_version.is_some_and(|v| v != version)
    }
}

/// A pairing's games added up from the first-listed player's side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct PairingTally {
    pub first: Points,
    pub second: Points,
    pub first_wins: u32,
    pub second_wins: u32,
    /// Games with a result.
    pub decided: u32,
    /// Games won or lost by forfeit.
    pub forfeits: u32,
}

/// Adds up games given as (first player started it, result).
pub fn tally(games: impl IntoIterator<Item = (bool, Option<GameResult>)>) -> PairingTally {
    let mut t = PairingTally::default();
    for (first_started, result) in games {
        let Some(r) = result else { continue };
        t.decided += 1;
        let (s, o) = r.points();
        let (f, sec) = if first_started { (s, o) } else { (o, s) };
        t.first += f;
        t.second += sec;
        if r.is_forfeit() {
            t.forfeits += 1;
        } else if f > sec {
            t.first_wins += 1;
        } else if sec > f {
            t.second_wins += 1;
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_of_a_game_changed_since_it_was_seen_is_stale() {
        // Round 3, the desk saw game 41 at version 2.
        let edit = ResultEdit {
            game: crate::ids::GameId(41),
            wanted: Some(GameResult::StarterWon),
            seen_version: Some(2),
            by: EnteredBy::Referee,
        };
        assert!(!edit.is_stale(2));
        assert!(edit.is_stale(3), "another referee saved it meanwhile");
        let blind = ResultEdit {
            seen_version: None,
            ..edit
        };
        assert!(!blind.is_stale(3), "without a version the last write wins");
    }

    #[test]
    fn results_read_in_every_usual_spelling() {
        assert_eq!(GameResult::parse(" ½–½ "), Some(GameResult::Draw));
        assert_eq!(GameResult::parse("1—0"), Some(GameResult::StarterWon));
        assert_eq!(GameResult::parse("+-"), Some(GameResult::StarterByForfeit));
        assert_eq!(GameResult::parse("NP"), Some(GameResult::NotPlayed));
        assert_eq!(GameResult::parse("2-0"), None);
        for r in GameResult::ALL {
            assert_eq!(GameResult::parse(r.as_str()), Some(*r));
        }
    }

    #[test]
    fn a_result_reads_from_the_side_of_the_player_named() {
        use GameResult::*;
        assert_eq!(StarterWon.for_player(true), "won");
        assert_eq!(StarterWon.for_player(false), "lost");
        assert_eq!(OtherWon.for_player(false), "won");
        assert_eq!(OtherWon.for_player(true), "lost");
        assert_eq!(Draw.for_player(false), "drawn");
        assert_eq!(OtherByForfeit.for_player(false), "won by forfeit");
        assert_eq!(StarterByForfeit.for_player(false), "lost by forfeit");
        assert_eq!(
            OtherWon.for_whom("Thabo Mokoena", "Lindiwe Zulu"),
            "1-0 for Lindiwe Zulu"
        );
        assert_eq!(StarterWon.for_whom("Thabo", "Lindiwe"), "1-0 for Thabo");
        assert_eq!(Draw.for_whom("Thabo", "Lindiwe"), "½-½");
    }

    #[test]
    fn pairing_scores_must_add_up_to_the_games() {
        assert_eq!(parse_pairing_score("1½-½", 2), Ok((15, 5)));
        assert_eq!(parse_pairing_score("1.5 - 0.5", 2), Ok((15, 5)));
        assert_eq!(parse_pairing_score("3-3", 6), Ok((30, 30)));
        assert_eq!(parse_pairing_score("½-1½", 2), Ok((5, 15)));
        assert_eq!(
            parse_pairing_score("2-1", 2),
            Err(crate::field::Problem::ScoreNotGames {
                text: "2-1".into(),
                games: 2
            })
        );
        assert_eq!(
            parse_pairing_score("two-nil", 2),
            Err(crate::field::Problem::NotAScore {
                text: "two-nil".into()
            })
        );
    }

    #[test]
    fn a_pairing_score_fills_games_that_add_back_up_to_it() {
        for games in [2u32, 6] {
            for first in 0..=(games as i64 * 2) {
                let points = first * POINT / 2;
                let results = fill_games(points, games);
                let t = tally(
                    (1..=games)
                        .zip(&results)
                        .map(|(k, r)| (first_starts(k), Some(*r))),
                );
                assert_eq!(
                    (t.first, t.second),
                    (points, games as i64 * POINT - points),
                    "{games} games, {points}"
                );
            }
        }
        // 1½-½: the first player wins game 1 (which they start), game 2 is drawn.
        assert_eq!(
            fill_games(15, 2),
            vec![GameResult::StarterWon, GameResult::Draw]
        );
    }
}

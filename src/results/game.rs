//! The result of one game as written from the starter's side, a value
//! that names nothing above it (what is wrong with a value, `crate::field`,
//! can carry one).

use serde::Serialize;

use crate::pairing::{Points, POINT};

/// The result of one game; written (stored, exported, in JSON) as
/// [`GameResult::as_str`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(into = "&'static str")]
pub enum GameResult {
    /// `1-0`: the starter won.
    StarterWon,
    /// `0-1`: the other player won.
    OtherWon,
    /// `1/2-1/2`.
    Draw,
    /// `+-`: the other player did not come; the starter wins by forfeit.
    StarterByForfeit,
    /// `-+`: the starter did not come.
    OtherByForfeit,
    /// `--`: neither came; nobody scores.
    BothForfeit,
    /// `np`: not played (for instance a knock-out pairing decided earlier).
    NotPlayed,
}

impl GameResult {
    /// A result by colour (a scoresheet's, or the board's: `None` for a
    /// draw) as a tournament records it, by starter: the starting player
    /// has the dark cows (OGR 3.1.3).
    pub fn of_winner(winner: Option<crate::rules::Side>) -> GameResult {
        match winner {
            Some(crate::rules::Side::Dark) => GameResult::StarterWon,
            Some(crate::rules::Side::Light) => GameResult::OtherWon,
            None => GameResult::Draw,
        }
    }

    pub const ALL: &'static [GameResult] = &[
        GameResult::StarterWon,
        GameResult::Draw,
        GameResult::OtherWon,
        GameResult::StarterByForfeit,
        GameResult::OtherByForfeit,
        GameResult::BothForfeit,
        GameResult::NotPlayed,
    ];

    /// The stored spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::StarterWon => "1-0",
            GameResult::OtherWon => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::StarterByForfeit => "+-",
            GameResult::OtherByForfeit => "-+",
            GameResult::BothForfeit => "--",
            GameResult::NotPlayed => "np",
        }
    }

    /// What a referee reads on the results page.
    pub fn label(self) -> &'static str {
        match self {
            GameResult::StarterWon => "1-0",
            GameResult::OtherWon => "0-1",
            GameResult::Draw => "½-½",
            GameResult::StarterByForfeit => "+/- (forfeit)",
            GameResult::OtherByForfeit => "-/+ (forfeit)",
            GameResult::BothForfeit => "-/- (both absent)",
            GameResult::NotPlayed => "not played",
        }
    }

    /// The result in as few characters as can be read at a glance, for the
    /// compact results rows (`½-½`, `+-`).
    pub fn short(self) -> &'static str {
        match self {
            GameResult::Draw => "½-½",
            other => other.as_str(),
        }
    }

    /// Reads a result as typed: `1-0`, `0-1`, `1/2-1/2`, `½-½`, `=`, `+-`,
    /// `-+`, `--`, `np`; dashes may be en or em dashes.
    pub fn parse(text: &str) -> Option<GameResult> {
        let t: String = text
            .trim()
            .chars()
            .map(|c| match c {
                '–' | '—' | '−' => '-',
                '½' => 'h',
                c => c.to_ascii_lowercase(),
            })
            .filter(|c| !c.is_whitespace())
            .collect();
        Some(match t.as_str() {
            "1-0" => GameResult::StarterWon,
            "0-1" => GameResult::OtherWon,
            "1/2-1/2" | "h-h" | "=" | "0.5-0.5" => GameResult::Draw,
            "+-" | "+/-" => GameResult::StarterByForfeit,
            "-+" | "-/+" => GameResult::OtherByForfeit,
            "--" | "-/-" => GameResult::BothForfeit,
            "np" | "notplayed" => GameResult::NotPlayed,
            _ => return None,
        })
    }

    /// Points of (starter, other), in tenths.
    pub fn points(self) -> (Points, Points) {
        match self {
            GameResult::StarterWon | GameResult::StarterByForfeit => (POINT, 0),
            GameResult::OtherWon | GameResult::OtherByForfeit => (0, POINT),
            GameResult::Draw => (POINT / 2, POINT / 2),
            GameResult::BothForfeit | GameResult::NotPlayed => (0, 0),
        }
    }

    /// The result as one of the game's players reads it (`started`: the
    /// player started the game): `won`, `drawn`, `lost`, `won by forfeit`,
    /// `lost by forfeit`, `both absent`, `not played`.
    pub fn for_player(self, started: bool) -> &'static str {
        match (self, started) {
            (GameResult::StarterWon, true) | (GameResult::OtherWon, false) => "won",
            (GameResult::StarterWon, false) | (GameResult::OtherWon, true) => "lost",
            (GameResult::Draw, _) => "drawn",
            (GameResult::StarterByForfeit, true) | (GameResult::OtherByForfeit, false) => {
                "won by forfeit"
            }
            (GameResult::StarterByForfeit, false) | (GameResult::OtherByForfeit, true) => {
                "lost by forfeit"
            }
            (GameResult::BothForfeit, _) => "both absent",
            (GameResult::NotPlayed, _) => "not played",
        }
    }

    /// The result named by who it went to: `1-0 for Thabo` (from the
    /// winner's side), `½-½`, `both absent`, `not played`; `starter` and
    /// `other` are the two players' names.
    pub fn for_whom(self, starter: &str, other: &str) -> String {
        match self {
            GameResult::StarterWon => format!("1-0 for {starter}"),
            GameResult::OtherWon => format!("1-0 for {other}"),
            GameResult::Draw => "½-½".to_string(),
            GameResult::StarterByForfeit => format!("forfeit, for {starter}"),
            GameResult::OtherByForfeit => format!("forfeit, for {other}"),
            GameResult::BothForfeit => "both absent".to_string(),
            GameResult::NotPlayed => "not played".to_string(),
        }
    }

    /// A forfeit of any kind (not played over the board).
    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            GameResult::StarterByForfeit | GameResult::OtherByForfeit | GameResult::BothForfeit
        )
    }
}

impl From<GameResult> for &'static str {
    fn from(r: GameResult) -> &'static str {
        r.as_str()
    }
}

/// A result not written in its stored spelling.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a stored game result (1-0, 0-1, 1/2-1/2, +-, -+, --, np)")]
pub struct UnknownResult(pub String);

/// As any stored spelling that is not one of its set.
impl From<UnknownResult> for crate::named::UnknownName {
    fn from(e: UnknownResult) -> crate::named::UnknownName {
        crate::named::UnknownName {
            kind: "GameResult",
            given: e.0,
            known: GameResult::ALL
                .iter()
                .map(|r| r.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

impl TryFrom<String> for GameResult {
    type Error = UnknownResult;
    /// Reads the stored spelling ([`GameResult::as_str`]) and nothing else.
    fn try_from(s: String) -> Result<GameResult, UnknownResult> {
        GameResult::ALL
            .iter()
            .copied()
            .find(|r| r.as_str() == s)
            .ok_or(UnknownResult(s))
    }
}

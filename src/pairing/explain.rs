//! The record each pairing carries, so a referee can say why it is the one
//! the rules give. Plain data, ready for a page or `kraal pair --json`.

use serde::{Deserialize, Serialize};

use super::{PlayerId, Points};

/// A float: a player paired outside their own score bracket (or given the
/// bye, which counts as a downfloat).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Float {
    pub player: PlayerId,
    pub direction: FloatDirection,
    /// The player's score before the round.
    pub from_score: Points,
    /// The score they were paired against (the bye counts as the bracket's).
    pub to_score: Points,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FloatDirection {
    Down,
    Up,
}

/// A preference or rule that did not hold for this pairing, and why no
/// pairing keeping it existed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bent {
    /// The rule, as a referee would name it.
    pub rule: String,
    /// Why it could not be kept.
    pub why: String,
}

/// Why a pairing is the one it is.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Explanation {
    /// The score bracket the pairing was made in (the higher player's
    /// score); `None` outside the Swiss system.
    pub bracket: Option<Points>,
    pub floats: Vec<Float>,
    pub bent: Vec<Bent>,
    /// Waivers the referee granted that this pairing relies on.
    pub waivers: Vec<String>,
    /// Anything else worth showing (e.g. "Berger table round 3, table 2").
    pub notes: Vec<String>,
}

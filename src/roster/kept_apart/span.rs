//! The rounds a ban covers, a value that names nothing else (what is
//! wrong with a ban, `crate::field`, carries two).

/// The rounds a ban covers. An open end is the first or the last round, so
/// a ban set before the rounds are fixed follows them when they change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Rounds {
    pub from: Option<i32>,
    pub to: Option<i32>,
}

impl Rounds {
    pub fn new(from: Option<i32>, to: Option<i32>) -> Rounds {
        Rounds { from, to }
    }

    /// Whether the ban covers round `n`.
    pub fn covers(self, n: i32) -> bool {
        self.from.is_none_or(|f| n >= f) && self.to.is_none_or(|t| n <= t)
    }

    /// Whether the two bans share a round of a tournament of `last_round`
    /// rounds: open ends are read as that tournament's first and last.
    pub(super) fn overlaps(self, other: Rounds, last_round: i32) -> bool {
        let first = self.from.unwrap_or(1);
        let last = self.to.unwrap_or(last_round);
        (first..=last).any(|n| other.covers(n))
    }
}

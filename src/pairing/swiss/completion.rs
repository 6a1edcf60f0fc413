//! Completion (C.04.3, 2025, C4): a pairing complying with the absolute
//! criteria must always exist for all players not yet paired. It is checked
//! for the whole field first (with a message naming who cannot be paired),
//! then for every bracket; a bracket whose best pairing would strand the
//! players below is solved again with them.

use super::absolute::Engine;
use super::criteria::{bits_for, Weights};
use super::LOW_CAP;
use crate::pairing::matching::Digits;
use crate::pairing::{matching, Blocked, PairingError, Points, POINT};

impl Engine<'_> {
    /// Explains why the whole field cannot be paired.
    pub(super) fn diagnose(&self) -> PairingError {
        let n = self.seats.len();
        for i in 0..n {
            if (0..n).all(|j| !self.compatible(i, j)) {
                return PairingError::Impossible(if self.seats[i].is_bye {
                    Blocked::ByeTaken
                } else {
                    Blocked::NoOpponent {
                        player: self.seats[i].id,
                    }
                });
            }
        }
        let mate = matching::max_cardinality(n, &|a, b| self.compatible(a, b), false);
        PairingError::Impossible(Blocked::Incomplete {
            paired: mate.iter().filter(|m| m.is_some()).count(),
            places: n,
            left: (0..n)
                .filter(|&i| mate[i].is_none())
                .map(|i| (!self.seats[i].is_bye).then_some(self.seats[i].id))
                .collect(),
        })
    }

    pub(super) fn pairable(&self, set: &[usize]) -> bool {
        matching::has_perfect_matching(set.len(), &|a, b| self.compatible(set[a], set[b]))
    }

    pub(super) fn pair_all(&self) -> Result<Vec<Option<(usize, Points)>>, PairingError> {
        let n = self.seats.len();
        let all: Vec<usize> = (0..n).collect();
        if !self.pairable(&all) {
            return Err(self.diagnose());
        }
        // mate[i] = (partner, bracket score)
        let mut mate: Vec<Option<(usize, Points)>> = vec![None; n];
        self.run(0, Vec::new(), self.avoid_is_gar_early(), &mut mate)?;
        Ok(mate)
    }

    pub(super) fn joint(
        &self,
        w: &Weights,
        bracket: &[usize],
        lower: &[usize],
    ) -> Vec<Option<usize>> {
        let k = bracket.len();
        let n = k + lower.len();
        let all: Vec<usize> = bracket.iter().chain(lower).copied().collect();
        let full = crate::with_width!(w.bits + 1 + bits_for(n as i128), W => {
            self.joint_in::<W>(w, &all, k)
        });
        (0..k).map(|a| full[a].filter(|&b| b < k)).collect()
    }

    fn joint_in<W: Digits>(&self, w: &Weights, all: &[usize], k: usize) -> Vec<Option<usize>> {
        let n = all.len();
        let big = W::from(1) << w.bits;
        let mut m = vec![W::from(0); n * n];
        for a in 0..n {
            for b in a + 1..n {
                let x = if b < k {
                    w.edge::<W>(a, b).map(|x| x + big)
                } else {
                    // Below the bracket only completeness and, under GAR,
                    // club-mates apart count: the lower brackets are paired
                    // properly in their turn.
                    let keeps = w.shift_gar.is_some_and(|_| {
                        self.seats[all[a]].is_bye
                            || self.seats[all[b]].is_bye
                            || self
                                .avoid
                                .prefers_apart(
                                    self.seats[all[a]].id,
                                    self.seats[all[b]].id,
                                    self.round,
                                )
                                .is_none()
                    });
                    let sd = (self.seats[all[a]].score - self.seats[all[b]].score).abs() as i128
                        / (POINT as i128 / 2);
                    let low = w
                        .shift_low
                        .map_or(W::from(0), |s| W::from(LOW_CAP - sd.min(LOW_CAP)) << s);
                    self.compatible(all[a], all[b]).then(|| {
                        big + low
                            + if keeps {
                                W::from(1) << w.shift_gar.unwrap_or(0)
                            } else {
                                W::from(0)
                            }
                    })
                };
                if let Some(x) = x {
                    m[a * n + b] = x;
                }
            }
        }
        matching::max_weight(&m, n)
    }
}

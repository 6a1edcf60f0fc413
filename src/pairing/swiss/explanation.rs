//! The explanation every published pairing carries: the bracket it was
//! made in, the floats it used, the preferences it had to bend and why,
//! and the waivers it relies on; and the table order (higher score of the
//! pair first) with who starts game 1.

use super::absolute::Engine;
use super::brackets::Seat;
use super::{Bye, Pair, RoundPairing, SwissInput};
use crate::pairing::explain::{
    Bent, Explanation, Float, FloatDirection, Note, Rule, WaiverUsed, Why,
};
use crate::pairing::{PlayerId, Points, POINT};

impl Engine<'_> {
    pub(super) fn publish(
        &self,
        mate: &[Option<(usize, Points)>],
        round: u32,
        requested_byes: Vec<PlayerId>,
        input: &SwissInput,
    ) -> RoundPairing {
        let mut pairs = Vec::new();
        let mut bye = None;
        for (i, m) in mate.iter().enumerate() {
            let Some((j, bracket)) = *m else { continue };
            if j < i {
                continue;
            }
            // Seats are in rank order, so i outranks j: i starts game 1.
            let (a, b) = (&self.seats[i], &self.seats[j]);
            if b.is_bye || a.is_bye {
                let p = if a.is_bye { b } else { a };
                let mut e = Explanation {
                    bracket: Some(p.score),
                    ..Default::default()
                };
                e.floats.push(Float {
                    player: p.id,
                    direction: FloatDirection::Down,
                    from_score: p.score,
                    to_score: p.score,
                });
                e.notes.push(Note::PairingAllocatedBye);
                if p.float1 == Some(FloatDirection::Down) {
                    e.bent.push(Bent {
                        rule: Rule::RepeatedFloat {
                            player: p.id,
                            direction: FloatDirection::Down,
                            rounds_before: 1,
                        },
                        why: Why::ByeCost,
                    });
                }
                bye = Some(Bye {
                    player: p.id,
                    explanation: e,
                });
                continue;
            }
            pairs.push((i, j, bracket));
        }
        // Tables: higher score of the pair, then the sum, then rank.
        pairs.sort_by(|x, y| {
            let (a, b) = (&self.seats[x.0], &self.seats[x.1]);
            let (c, d) = (&self.seats[y.0], &self.seats[y.1]);
            c.score
                .max(d.score)
                .cmp(&a.score.max(b.score))
                .then((c.score + d.score).cmp(&(a.score + b.score)))
                .then(x.0.cmp(&y.0))
        });
        let pairs = pairs
            .into_iter()
            .enumerate()
            .map(|(t, (i, j, bracket))| {
                let (a, b) = (&self.seats[i], &self.seats[j]);
                Pair {
                    table: t as u32 + 1,
                    first: a.id,
                    second: b.id,
                    explanation: self.explain(a, b, bracket, round, input),
                }
            })
            .collect();
        RoundPairing {
            round,
            pairs,
            bye,
            requested_byes,
        }
    }

    pub(super) fn explain(
        &self,
        a: &Seat,
        b: &Seat,
        bracket: Points,
        round: u32,
        _input: &SwissInput,
    ) -> Explanation {
        let mut e = Explanation {
            bracket: Some(bracket),
            ..Default::default()
        };
        let (hi, lo) = if a.score >= b.score { (a, b) } else { (b, a) };
        if hi.score != lo.score {
            e.floats.push(Float {
                player: hi.id,
                direction: FloatDirection::Down,
                from_score: hi.score,
                to_score: lo.score,
            });
            e.floats.push(Float {
                player: lo.id,
                direction: FloatDirection::Up,
                from_score: lo.score,
                to_score: hi.score,
            });
            if hi.score != bracket {
                e.notes.push(Note::MovedDown {
                    player: hi.id,
                    from: hi.score,
                });
            }
            for (p, d) in [(hi, FloatDirection::Down), (lo, FloatDirection::Up)] {
                let rounds_before = if p.float1 == Some(d) {
                    1
                } else if p.float2 == Some(d) {
                    2
                } else {
                    continue;
                };
                e.bent.push(Bent {
                    rule: Rule::RepeatedFloat {
                        player: p.id,
                        direction: d,
                        rounds_before,
                    },
                    why: Why::Bracket {
                        fewer_floats: rounds_before == 2,
                    },
                });
            }
        }
        if let Some(rule) = self.avoid.prefers_apart(a.id, b.id, round) {
            e.bent.push(Bent {
                rule,
                why: Why::RoundCost,
            });
        }
        if let Some((w, rule)) = self.avoid.waiver_used(a.id, b.id, round) {
            e.waivers.push(WaiverUsed::Used {
                reason: w.reason.clone(),
                rule,
            });
        }
        e
    }
}

/// Score in points for messages (tenths to "2.5").
pub fn show(p: Points) -> String {
    if p % POINT == 0 {
        format!("{}", p / POINT)
    } else {
        format!("{}.{}", p / POINT, (p % POINT).abs())
    }
}

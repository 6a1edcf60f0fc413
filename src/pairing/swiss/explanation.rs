//! The explanation every published pairing carries: the bracket it was
//! made in, the floats it used, the preferences it had to bend and why,
//! and the waivers it relies on; and the table order (higher score of the
//! pair first) with who starts game 1.

use super::absolute::Engine;
use super::brackets::Seat;
use super::{Bye, Pair, RoundPairing, SwissInput};
use crate::pairing::explain::{Bent, Explanation, Float, FloatDirection};
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
                e.notes.push(
                    "odd number of players: the pairing-allocated bye goes to a player of the \
                     lowest score that leaves the round complete, who has not had one (C2, C4, \
                     C5), with the fewest unplayed games (C9), then by the float criteria and \
                     the handbook's order"
                        .into(),
                );
                if p.float1 == Some(FloatDirection::Down) {
                    e.bent.push(Bent {
                        rule: "no downfloat in two consecutive rounds (C14)".into(),
                        why: "every bye that avoids it would cost a rematch, a forbidden pair, \
                              a second bye, or a worse score bracket"
                            .into(),
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
                e.notes.push(format!(
                    "player {} moved down from the {} bracket: no opponent there was possible \
                     without a rematch, a forbidden pair, or leaving the round incomplete, or \
                     the bracket had an odd number of players",
                    hi.id,
                    show(hi.score)
                ));
            }
            let same = |f: Option<FloatDirection>, d| f == Some(d);
            for (p, d, c1, c2) in [
                (hi, FloatDirection::Down, "C14", "C16"),
                (lo, FloatDirection::Up, "C15", "C17"),
            ] {
                let word = if d == FloatDirection::Down {
                    "downfloat"
                } else {
                    "upfloat"
                };
                if same(p.float1, d) {
                    e.bent.push(Bent {
                        rule: format!(
                            "player {}: no {word} in two consecutive rounds ({c1})",
                            p.id
                        ),
                        why: "no pairing of this bracket with as many pairs and as high scores \
                              paired avoids it"
                            .into(),
                    });
                } else if same(p.float2, d) {
                    e.bent.push(Bent {
                        rule: format!("player {}: no {word} as two rounds before ({c2})", p.id),
                        why: "no pairing of this bracket with as many pairs, as high scores \
                              paired and fewer repeated floats avoids it"
                            .into(),
                    });
                }
            }
        }
        if let Some(rule) = self.avoid.prefers_apart(a.id, b.id, round) {
            e.bent.push(Bent {
                rule,
                why: "every complete pairing of this round the search found that keeps them \
                      apart needs a rematch, a forbidden pair, a second bye, or worse score \
                      brackets (more floaters or larger score differences)"
                    .into(),
            });
        }
        if let Some((w, rule)) = self.avoid.waiver_used(a.id, b.id, round) {
            e.waivers.push(if w.reason.is_empty() {
                format!("waived by the referee: {rule}")
            } else {
                format!("waived by the referee ({}): {rule}", w.reason)
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

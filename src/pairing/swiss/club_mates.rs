//! Under `gar`, club or team mates kept apart in rounds 1-3 "where
//! possible": a strong preference ranked right after the score-bracket
//! criteria (C6-C8) and weighed over the whole round, not one bracket.

use std::collections::HashMap;

use super::absolute::Engine;
use super::criteria::{bits_for, score_places, Weights};
use super::generation::order_digit_bits;
use crate::pairing::matching::Digits;
use crate::pairing::{matching, Points};

/// A round played out to its end.
pub(super) struct PlayOut {
    /// The score pairs (higher first), sorted.
    outcome: Vec<(Points, Points)>,
    /// Club-mate pairs.
    mates: usize,
    /// Each seat's partner and the score of the bracket they met in (as
    /// `Engine::run` fills it).
    pairs: Vec<Option<(usize, Points)>>,
}

impl Engine<'_> {
    /// GAR ranks club-mates apart right after the score-bracket criteria
    /// and above the float criteria. A bracket's choice among pairings of
    /// equal bracket quality can force club-mates together further down, so
    /// under GAR each bracket's pairing is played out to the end of the round
    /// and compared with the best alternative that looks at the players
    /// below: the alternative is taken when it gives every bracket the same
    /// score outcome (the same pairs of scores, so the same floats and score
    /// differences) with fewer club-mates together.
    pub(super) fn keep_mates_apart(
        &self,
        bracket: &[usize],
        lower: &[usize],
        local: Vec<Option<usize>>,
        end: usize,
        bracket_score: Points,
        mate: &[Option<(usize, Points)>],
    ) -> Vec<Option<usize>> {
        let Some(PlayOut {
            outcome,
            mates,
            pairs: played,
        }) = self.play_out(bracket, &local, end, bracket_score, mate)
        else {
            return local;
        };
        if mates == 0 || lower.is_empty() {
            // The last bracket's own weights already weigh club-mates
            // right after its C6 and C7.
            return local;
        }
        if let Some(exact) = self.fewest_mates(bracket, lower, &local, &played) {
            return exact;
        }
        // Candidates: the same bracket with one more of its players made to
        // float, kept only if the bracket's own quality (C6, C7) is
        // unchanged; lowest-ranked players first, as they float first.
        let w = Weights::new(self, bracket, 118, bracket.len());
        let Some(top_shift) = w.shift_gar else {
            return local;
        };
        let (mut best, mut best_mates) = (local.clone(), mates);
        for (_, alt) in self.one_more_floater(&w, &local) {
            if alt == local || !w.same_from(&alt, &local, top_shift) {
                continue;
            }
            if let Some(p) = self.play_out(bracket, &alt, end, bracket_score, mate) {
                if p.outcome == outcome && p.mates < best_mates {
                    best = alt;
                    best_mates = p.mates;
                    if best_mates == 0 {
                        break;
                    }
                }
            }
        }
        if best_mates > 0 {
            self.shortcut(format!(
                "under gar, {best_mates} club-mate pairs remain after comparing a bracket of {} \
                 players with a few alternatives",
                bracket.len()
            ));
        }
        if best != local {
            // The same floaters, paired in the handbook's order, when that
            // keeps the outcome and the club-mates apart.
            let banned: Vec<usize> = (0..bracket.len()).filter(|&a| best[a].is_none()).collect();
            if let Some(ordered) = self.in_handbook_order(&w, &banned) {
                if w.same_from(&ordered, &local, top_shift)
                    && self
                        .play_out(bracket, &ordered, end, bracket_score, mate)
                        .is_some_and(|p| p.outcome == outcome && p.mates == best_mates)
                {
                    return ordered;
                }
            }
        }
        best
    }

    /// The bracket's pairing when the fewest club-mates over the round is
    /// asked of one matching: the bracket and every player below it, each
    /// pair weighed, most significant first, by
    ///
    /// 1. completeness (C4: everyone left can be paired);
    /// 2. the score outcome, bracket by bracket from this one down: C6
    ///    (the pairs made at or above each score) and C7 (the scores of
    ///    the players paired at or above it, from the highest, as place
    ///    values), so C8 and every later bracket's C6 and C7 are kept;
    /// 3. club or team mates apart, over the whole round;
    /// 4. this bracket's remaining criteria (C9, C14-C21);
    ///
    /// and the first pairing in the handbook's order among the best is
    /// taken ([`Engine::order_from`]). When the bracket's own best pairing
    /// (`local`), played out as usual (`played`), already reaches the best
    /// score outcome with the fewest club-mates, it is kept. A pair of
    /// players of different scores is read as the higher one floating down
    /// to meet the lower.
    /// Each bracket below is then paired the same way and finds the same
    /// best still open, so the round ends with the fewest club-mates that
    /// its score outcome allows. `None` for the bye seat's bracket (its
    /// own weights already weigh club-mates last). Any size: the order is
    /// settled on one matching kept between choices ([`Chooser`]).
    pub(super) fn fewest_mates(
        &self,
        bracket: &[usize],
        lower: &[usize],
        local: &[Option<usize>],
        played: &[Option<(usize, Points)>],
    ) -> Option<Vec<Option<usize>>> {
        let k = bracket.len();
        let n = k + lower.len();
        if bracket.iter().any(|&i| self.seats[i].is_bye) {
            return None;
        }
        let w = Weights::new(self, bracket, 118, k);
        let shift_gar = w.shift_gar?;
        let all: Vec<usize> = bracket.iter().chain(lower).copied().collect();
        let score = |v: usize| self.seats[all[v]].score;
        let real: Vec<usize> = (0..n).filter(|&v| !self.seats[all[v]].is_bye).collect();
        // The score levels from this bracket's down, each with the place
        // values of the scores at or above it.
        let low = bracket.iter().map(|&i| self.seats[i].score).min()?;
        let mut levels: Vec<Points> = real
            .iter()
            .map(|&v| score(v))
            .filter(|&s| s <= low)
            .collect();
        levels.sort_unstable_by(|a, b| b.cmp(a));
        levels.dedup();
        let pair_bits = bits_for(n as i128 / 2 + 1);
        let mut level_digits = Vec::new();
        let mut shift = 0;
        for &level in levels.iter().rev() {
            let (ranks, place, c7_bits) = score_places(
                real.iter()
                    .map(|&v| score(v))
                    .filter(|&s| s >= level)
                    .collect(),
            );
            level_digits.push((level, ranks, place, c7_bits, shift));
            shift += c7_bits + pair_bits;
        }
        // From the bottom: one per pair (every allowed pair weighs more
        // than nothing), this bracket's own criteria, club-mates apart, the
        // score outcome, completeness.
        let own_bits = shift_gar - w.shift_quality;
        let own_shift = pair_bits;
        let mates_shift = own_shift + own_bits;
        let outcome_shift = mates_shift + pair_bits;
        let big_shift = outcome_shift + shift;
        let q_bits = big_shift + bits_for(n as i128 + 1) + 1;
        let order_bits = order_digit_bits(k, n);
        let width = (q_bits + order_bits.iter().sum::<u32>()).max(w.bits + 1);
        crate::with_width!(width, W => {
            let mut quality = vec![W::from(0); n * n];
            for a in 0..n {
                for b in a + 1..n {
                    let (i, j) = (all[a], all[b]);
                    let own = if b < k {
                        match w.quality::<W>(a, b) {
                            Some(x) => (x >> w.shift_quality).low(own_bits),
                            None => continue,
                        }
                    } else if self.compatible(i, j) {
                        W::from(0)
                    } else {
                        continue;
                    };
                    let (si, sj) = (&self.seats[i], &self.seats[j]);
                    let apart = si.is_bye
                        || sj.is_bye
                        || self.avoid.prefers_apart(si.id, sj.id, self.round).is_none();
                    let mut outcome = W::from(0);
                    let paired_at = if si.is_bye || sj.is_bye {
                        Points::MIN
                    } else {
                        si.score.min(sj.score)
                    };
                    for (level, ranks, place, c7_bits, at) in &level_digits {
                        if paired_at < *level {
                            continue;
                        }
                        let value = |s: Points| {
                            W::from(1) << place[ranks.binary_search(&s).unwrap_or(0)]
                        };
                        outcome += ((W::from(1) << *c7_bits) + value(si.score) + value(sj.score))
                            << *at;
                    }
                    quality[a * n + b] = (W::from(1) << big_shift)
                        + (outcome << outcome_shift)
                        + (W::from(i128::from(apart)) << mates_shift)
                        + (own << own_shift)
                        + W::from(1);
                }
            }
            // One matching tells the best outcome and the fewest
            // club-mates; the round as played out may reach both already.
            let value = |pairs: &mut dyn Iterator<Item = (usize, usize)>| -> W {
                pairs.map(|(a, b)| quality[a.min(b) * n + a.max(b)]).sum::<W>() >> mates_shift
            };
            let best = matching::max_weight(&quality, n);
            let at: HashMap<usize, usize> = all.iter().enumerate().map(|(v, &i)| (i, v)).collect();
            let reached = value(&mut (0..n).filter_map(|a| {
                let (j, _) = played[all[a]]?;
                at.get(&j).copied().filter(|&b| b > a).map(|b| (a, b))
            }));
            let optimum = value(&mut (0..n).filter_map(|a| best[a].filter(|&b| b > a).map(|b| (a, b))));
            if reached == optimum {
                return Some(local.to_vec());
            }
            self.order_from::<W>(&w, n, quality, order_bits)
        })
    }

    /// The score outcome and number of club-mate pairs of the whole round
    /// if this bracket is paired as `local` and the rest as usual, and that
    /// round's pairs.
    pub(super) fn play_out(
        &self,
        bracket: &[usize],
        local: &[Option<usize>],
        end: usize,
        bracket_score: Points,
        mate: &[Option<(usize, Points)>],
    ) -> Option<PlayOut> {
        let mut m = mate.to_vec();
        let down = Self::apply(bracket, local, bracket_score, &mut m);
        self.run(end, down, false, &mut m).ok()?;
        let mut outcome = Vec::new();
        let mut mates = 0;
        for (i, x) in m.iter().enumerate() {
            let Some((j, _)) = *x else { continue };
            if j < i {
                continue;
            }
            let (a, b) = (&self.seats[i], &self.seats[j]);
            outcome.push((a.score.max(b.score), a.score.min(b.score)));
            if !a.is_bye && !b.is_bye && self.avoid.prefers_apart(a.id, b.id, self.round).is_some()
            {
                mates += 1;
            }
        }
        outcome.sort_unstable();
        Some(PlayOut {
            outcome,
            mates,
            pairs: m,
        })
    }
}

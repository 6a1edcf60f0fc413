//! Under `gar`, club or team mates kept apart in rounds 1-3 "where
//! possible": a strong preference ranked right after the score-bracket
//! criteria (C6-C8) and weighed over the whole round, not one bracket.

use super::*;

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
        let Some((outcome, mates)) = self.play_out(bracket, &local, end, bracket_score, mate)
        else {
            return local;
        };
        if mates == 0 {
            return local;
        }
        // Candidates: the same bracket with one more of its players made to
        // float, kept only if the bracket's own quality (C6, C7) is
        // unchanged; lowest-ranked players first, as they float first.
        let w = Weights::new(self, bracket, 118, bracket.len());
        let Some(top_shift) = w.shift_gar else {
            return local;
        };
        let (mut best, mut best_mates) = (local.clone(), mates);
        let paired: Vec<usize> = (0..bracket.len())
            .rev()
            .filter(|&a| local[a].is_some())
            .take(16)
            .collect();
        let _ = lower;
        for x in paired {
            let alt = self.solve_without(&w, x);
            if alt == local || !w.same_from(&alt, &local, top_shift) {
                continue;
            }
            if let Some((o2, m2)) = self.play_out(bracket, &alt, end, bracket_score, mate) {
                if o2 == outcome && m2 < best_mates {
                    best = alt;
                    best_mates = m2;
                    if m2 == 0 {
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
                    && self.play_out(bracket, &ordered, end, bracket_score, mate)
                        == Some((outcome, best_mates))
                {
                    return ordered;
                }
            }
        }
        best
    }

    /// The score outcome and number of club-mate pairs of the whole round
    /// if this bracket is paired as `local` and the rest as usual.
    pub(super) fn play_out(
        &self,
        bracket: &[usize],
        local: &[Option<usize>],
        end: usize,
        bracket_score: Points,
        mate: &[Option<(usize, Points)>],
    ) -> Option<(Vec<(Points, Points)>, usize)> {
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
        Some((outcome, mates))
    }
}

//! The pairing-allocated bye: C5 (the lowest score a complete round
//! allows) and C9 (the fewest unplayed games), C.04.3 as applied from
//! 1 July 2025, with C2 (no second bye, none after a forfeit win) in
//! `absolute`.

use super::absolute::Engine;
use crate::pairing::{matching, Points};

impl Engine<'_> {
    /// C5 (2025): minimise the score of the player who gets the
    /// pairing-allocated bye. It ranks right below completion (C4) and
    /// above every quality criterion, so it is settled once for the whole
    /// field: the lowest score of a player allowed the bye (C2) with whom
    /// the rest of the round can still be paired. From then on the bye seat
    /// may only meet players of that score, and completion (C4), checked
    /// for every bracket, keeps one of them free for it.
    pub(super) fn settle_bye_score(&mut self) {
        let n = self.seats.len();
        if n == 0 || !self.seats[n - 1].is_bye {
            return;
        }
        let mut scores: Vec<Points> = self
            .seats
            .iter()
            .filter(|s| !s.is_bye && !s.bye_used)
            .map(|s| s.score)
            .collect();
        scores.sort_unstable();
        scores.dedup();
        let all: Vec<usize> = (0..n).collect();
        for score in scores {
            self.allow_bye_only(Some(score));
            if self.pairable(&all) {
                self.bye_score = Some(score);
                return;
            }
        }
        // No score works: the round cannot be paired at all, and the
        // diagnosis sees the bye as C2 alone allows it.
        self.allow_bye_only(None);
    }

    /// Makes the bye seat (the last seat) compatible with exactly the
    /// players allowed the bye (C2) whose score is `score` (any score when
    /// `None`).
    pub(super) fn allow_bye_only(&mut self, score: Option<Points>) {
        let bye = self.seats.len() - 1;
        let mut list = Vec::new();
        for (j, t) in self.seats[..bye].iter().enumerate() {
            let blocked = t.bye_used || score.is_some_and(|s| t.score != s);
            let has = self.incompatible[j].last() == Some(&(bye as u32));
            if blocked {
                list.push(j as u32);
                if !has {
                    self.incompatible[j].push(bye as u32);
                }
            } else if has {
                self.incompatible[j].pop();
            }
        }
        self.incompatible[bye] = list;
    }

    /// Whether the bracket, paired so that the round stays complete (C4)
    /// with the most pairs (C6), floats exactly one player: the case C9
    /// is written for. `low` is the score of its residents; everyone below
    /// it joins the matching, pairs inside the bracket weighing one more.
    pub(super) fn floats_one_when_complete(&self, bracket: &[usize], low: Points) -> bool {
        let mut all = bracket.to_vec();
        all.extend((0..self.seats.len()).filter(|&i| self.seats[i].score < low));
        // The usual case, the lowest bracket with only the bye seat below:
        // a complete round pairs all of it but the one who takes the bye,
        // which a matching test tells without weights.
        if all[bracket.len()..].iter().all(|&i| self.seats[i].is_bye) && self.pairable(&all) {
            return true;
        }
        let (k, n) = (bracket.len(), all.len());
        let big = n as i128 + 1;
        let mut m = vec![0i128; n * n];
        for a in 0..n {
            for b in a + 1..n {
                if self.compatible(all[a], all[b]) {
                    m[a * n + b] = big + i128::from(b < k);
                }
            }
        }
        let mate = matching::max_weight(&m, n);
        let inside = (0..k).filter(|&a| mate[a].is_some_and(|b| b < k)).count();
        inside == k - 1
    }
}

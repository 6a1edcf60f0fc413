//! C8 (C.04.3, 2025): choose the downfloaters so that the following
//! bracket complies as well as it can with C1-C7: it stays completable
//! (C4), has the most pairs (C6) and the lowest downfloaters' scores (C7).

use super::absolute::Engine;
use super::criteria::{bits_for, Weights};
use crate::pairing::{matching, Points};

impl Engine<'_> {
    /// Where the next score bracket ends, from its first player at `end`:
    /// C8 judges that bracket whole, residents of one score.
    fn next_bracket_end(&self, end: usize) -> usize {
        let n = self.seats.len();
        let mut next_end = end + 1;
        while next_end < n && self.seats[next_end].score == self.seats[end].score {
            next_end += 1;
        }
        next_end
    }

    /// C8 at any size: one matching over the bracket and the next one
    /// (see [`Engine::in_handbook_order_c7`]). `None` when the digits do
    /// not fit, or when the choice would not leave the players below
    /// pairable (C4); the caller then compares candidates.
    pub(super) fn next_bracket_exact(
        &self,
        bracket: &[usize],
        lower: &[usize],
        local: &[Option<usize>],
        end: usize,
    ) -> Option<Vec<Option<usize>>> {
        let k = bracket.len();
        if local.iter().all(Option::is_some) {
            return None;
        }
        let n = self.seats.len();
        let next_end = self.next_bracket_end(end);
        let w = Weights::new(self, bracket, 118, k);
        let next: Vec<usize> = (end..next_end).collect();
        let mut both = bracket.to_vec();
        both.extend_from_slice(&next);
        let nw = Weights::for_next(self, &both);
        if let Some(why) = &nw.narrowed {
            self.shortcut(why.clone());
        }
        // C8 judges the next bracket by C1-C7, completion (C4) included.
        // First without the players below: when the next bracket's best
        // pairing for the chosen downfloaters also leaves everyone below
        // pairable, no choice can do better with them, and the first best
        // in the handbook's order is the same. Otherwise, when the players
        // below fit in one search, completion joins the matching.
        let further: Vec<usize> = (next_end..n).collect();
        let mut got = self.in_handbook_order_c7(&w, &next, None, &nw)?;
        let completes = |l: &[Option<usize>]| {
            let mut nb: Vec<usize> = (0..k)
                .filter(|&i| l[i].is_none())
                .map(|i| bracket[i])
                .collect();
            nb.extend_from_slice(&next);
            let best = self.solve(&Weights::new(self, &nb, 118, nb.len()));
            self.leaves_pairable(&nb, &best, &further)
        };
        if !completes(&got) {
            got = self.in_handbook_order_c7(&w, &next, Some(&further), &nw)?;
        }
        if !w.same_from(&got, local, w.shift_scores) {
            return None;
        }
        let mut rest: Vec<usize> = (0..k)
            .filter(|&i| got[i].is_none())
            .map(|i| bracket[i])
            .collect();
        rest.extend_from_slice(lower);
        self.pairable(&rest).then_some(got)
    }

    /// C7: unless this is the penultimate or the last bracket, choose the
    /// downfloaters so that the next bracket has the most pairs and then the
    /// lowest downfloaters' scores. Candidates are this bracket's pairings of equal quality
    /// (C6, C7) with one more of its players floating, lowest-ranked first;
    /// the chosen one is re-ordered by the S1/S2 procedure with its
    /// downfloaters fixed. Only for a bracket whose exact choice
    /// ([`Engine::next_bracket_exact`]) is out of reach; a next bracket of
    /// over 200 players keeps the pairing.
    pub(super) fn next_bracket_best(
        &self,
        bracket: &[usize],
        lower: &[usize],
        local: Vec<Option<usize>>,
        end: usize,
    ) -> Vec<Option<usize>> {
        let k = bracket.len();
        if local.iter().all(Option::is_some) {
            return local;
        }
        let next_end = self.next_bracket_end(end);
        if next_end - end > 200 {
            return local;
        }
        let w = Weights::new(self, bracket, 118, k);
        let downfloaters = |l: &[Option<usize>]| -> Vec<usize> {
            (0..k)
                .filter(|&a| l[a].is_none())
                .map(|a| bracket[a])
                .collect()
        };
        let next_quality = |down: &[usize]| -> Option<(usize, Vec<std::cmp::Reverse<Points>>)> {
            let mut rest = down.to_vec();
            rest.extend_from_slice(lower);
            if !self.pairable(&rest) {
                return None;
            }
            let mut nb = down.to_vec();
            nb.extend(end..next_end);
            let nw = Weights::new(self, &nb, 118, nb.len());
            let mut sol = self.solve(&nw);
            // C8 asks for the next bracket's best by C1-C7, completion
            // included: when its best pairing would strand the players
            // below, it is solved again with them, completeness first.
            let further: Vec<usize> = (next_end..self.seats.len()).collect();
            let mut stranded: Vec<usize> = (0..nb.len())
                .filter(|&a| sol[a].is_none())
                .map(|a| nb[a])
                .collect();
            stranded.extend_from_slice(&further);
            if !self.pairable(&stranded) {
                let all: Vec<usize> = nb.iter().chain(&further).copied().collect();
                let m = all.len();
                let joint = crate::with_width!(nw.bits + 2 + bits_for(m as i128), W => {
                    let big = W::from(1) << (nw.bits + 1);
                    let mut weight = vec![W::from(0); m * m];
                    for a in 0..m {
                        for b in a + 1..m {
                            let x = if b < nb.len() {
                                nw.edge::<W>(a, b).map(|x| big + (x >> nw.shift_scores))
                            } else {
                                self.compatible(all[a], all[b]).then_some(big)
                            };
                            weight[a * m + b] = x.unwrap_or(W::from(0));
                        }
                    }
                    matching::max_weight(&weight, m)
                });
                sol = (0..nb.len())
                    .map(|a| joint[a].filter(|&b| b < nb.len()))
                    .collect();
            }
            let mut left = Vec::new();
            let mut pairs = 0;
            for (a, m) in sol.iter().enumerate() {
                match m {
                    Some(b) if *b > a => pairs += 1,
                    Some(_) => {}
                    None => left.push(self.seats[nb[a]].score),
                }
            }
            left.sort_unstable_by(|x, y| y.cmp(x));
            // More pairs first, then the lower downfloaters' scores
            // (compared from the highest).
            Some((pairs, left.into_iter().map(std::cmp::Reverse).collect()))
        };
        let Some(mut best_q) = next_quality(&downfloaters(&local)) else {
            return local;
        };
        let mut best_ban: Option<usize> = None;
        for (x, alt) in self.one_more_floater(&w, &local) {
            if !w.same_from(&alt, &local, w.shift_scores) {
                continue;
            }
            if let Some(q) = next_quality(&downfloaters(&alt)) {
                if q > best_q {
                    best_q = q;
                    best_ban = Some(x);
                }
            }
        }
        match best_ban {
            None => local,
            Some(x) => {
                let alt = self.solve_without(&w, x);
                let banned: Vec<usize> = (0..k).filter(|&a| alt[a].is_none()).collect();
                self.in_handbook_order(&w, &banned)
                    .or_else(|| self.in_dutch_order(&w, &banned))
                    .filter(|l| w.same_from(l, &local, w.shift_scores))
                    .unwrap_or(alt)
            }
        }
    }
}

//! One stage of the blossom method: alternating trees grow from the roots
//! over tight pairs, and where no tight pair is left the duals change by
//! the most that keeps them feasible, until the matching augments or a
//! root's dual reaches zero.

use super::{Blossom, Digits, NONE};

/// What ends a change of the duals: the first bound it reaches.
enum Act {
    /// An S-vertex's dual reaches zero.
    Zero(usize),
    /// A pair becomes tight: its S end grows the tree from there.
    Edge(usize, usize),
    /// A T-blossom's dual reaches zero: it is expanded.
    Expand(usize),
}

impl<W: Digits> Blossom<W> {
    /// Follows tight pairs from the queued S-vertices, changing the duals
    /// whenever none is left, until the matching augments, a root's dual
    /// reaches zero, or the duals prove the optimum below the floor (then
    /// the search gives up).
    pub(super) fn stage(&mut self) {
        loop {
            while let Some(v) = self.queue.pop() {
                if self.scan(v) {
                    return;
                }
            }
            // No tight pair left to follow: change the duals.
            let (delta, act) = self.best_delta();
            self.change_duals(delta);
            #[cfg(all(test, debug_assertions))]
            self.check("delta");
            if let Some(floor) = self.floor {
                if self.bound() < floor.double() {
                    self.gave_up = true;
                    return;
                }
            }
            match act {
                Act::Zero(x) => {
                    if self.st.mate[x] != NONE {
                        self.augment_side(x, None);
                    }
                    return;
                }
                Act::Edge(i, j) => {
                    let s = if self.label[self.st.inblossom[i]] == 1 {
                        i
                    } else {
                        j
                    };
                    self.queue.push(s);
                }
                Act::Expand(b) => {
                    self.expand_blossom(b, false);
                    #[cfg(all(test, debug_assertions))]
                    self.check("expand");
                }
            }
        }
    }

    /// Follows the pairs of S-vertex `v`: a tight one labels its other end,
    /// makes a blossom, or augments (then `true`); a loose one may be the
    /// best pair of its end for the next change of the duals.
    fn scan(&mut self, v: usize) -> bool {
        for u in 0..self.n {
            if u == v || self.wt(v, u) <= W::ZERO {
                continue;
            }
            // A new blossom may have taken `v` in since the last pair.
            let bv = self.st.inblossom[v];
            let bu = self.st.inblossom[u];
            if bu == bv {
                continue;
            }
            let ks = self.slack((v, u));
            if ks <= W::ZERO {
                if self.label[bu] == 0 {
                    if self.st.mate[self.st.base[bu]] == NONE {
                        // An unmatched vertex of dual zero.
                        self.augment_side(v, Some(u));
                        self.augment_side(u, Some(v));
                        return true;
                    }
                    self.assign_label(u, 2, Some((v, u)));
                } else if self.label[bu] == 1 {
                    match self.scan_blossom(v, u) {
                        Some(base) => self.add_blossom(base, v, u),
                        None => {
                            self.augment_side(v, Some(u));
                            self.augment_side(u, Some(v));
                            return true;
                        }
                    }
                } else if self.label[u] == 0 {
                    self.label[u] = 2;
                    self.labelend[u] = Some((v, u));
                }
            } else if self.label[bu] == 1 {
                if self.bestedge[bv].is_none_or(|e| ks < self.slack(e)) {
                    self.bestedge[bv] = Some((v, u));
                }
            } else if self.label[u] == 0 && self.bestedge[u].is_none_or(|e| ks < self.slack(e)) {
                self.bestedge[u] = Some((v, u));
            }
        }
        false
    }

    /// The most the duals may change, and what bounds it: an S-vertex's
    /// dual, the slack of a pair from a tree to a free vertex, half the
    /// slack of a pair between two S-blossoms, or a T-blossom's dual.
    fn best_delta(&self) -> (W, Act) {
        let n = self.n;
        let mut best: Option<(W, Act)> = None;
        let offer = |d: W, act: Act, best: &mut Option<(W, Act)>| {
            if best.as_ref().is_none_or(|(x, _)| d < *x) {
                *best = Some((d, act));
            }
        };
        for v in 0..n {
            match self.label[self.st.inblossom[v]] {
                1 => offer(self.st.dual[v], Act::Zero(v), &mut best),
                0 => {
                    if let Some(e) = self.bestedge[v] {
                        offer(self.slack(e), Act::Edge(e.0, e.1), &mut best);
                    }
                }
                _ => {}
            }
        }
        for b in 0..2 * n {
            if !self.is_top(b) {
                continue;
            }
            if self.label[b] == 1 {
                if let Some(e) = self.bestedge[b] {
                    debug_assert!(self.slack(e).low(1) == W::ZERO, "odd slack between trees");
                    offer(self.slack(e).half(), Act::Edge(e.0, e.1), &mut best);
                }
            } else if self.label[b] == 2 && b >= n {
                offer(self.st.dual[b], Act::Expand(b), &mut best);
            }
        }
        best.expect("a root's dual bounds every stage")
    }

    /// Lowers the S-vertices' duals by `delta` and raises the T-vertices',
    /// the other way round for the top blossoms: tree pairs stay tight.
    fn change_duals(&mut self, delta: W) {
        let n = self.n;
        for v in 0..n {
            match self.label[self.st.inblossom[v]] {
                1 => self.st.dual[v] -= delta,
                2 => self.st.dual[v] += delta,
                _ => {}
            }
        }
        for b in n..2 * n {
            if self.is_top(b) {
                match self.label[b] {
                    1 => self.st.dual[b] += delta,
                    2 => self.st.dual[b] -= delta,
                    _ => {}
                }
            }
        }
    }
}

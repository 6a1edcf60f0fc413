//! A maximum-weight matching that keeps its dual solution, so that a small
//! change costs a few augmentations instead of a new solve.
//!
//! The handbook's generation order is settled one choice at a time ("S1
//! player 3 takes the first S2 player with whom a best pairing remains"),
//! and each choice asks whether the best pairing survives a restriction of
//! one player's partners. Solved from nothing, that is a dense O(k³)
//! matching per choice, which is what kept the exact order to small
//! brackets. Here the solver keeps Edmonds' dual variables (a value per
//! player and per blossom) between questions: restricting one player's
//! partners, or raising every weight at one player, leaves the duals
//! feasible and unmatches at most a few pairs, and each unmatched player
//! is then re-paired by one search over the tight pairs, O(k²).
//!
//! The algorithm is the primal-dual blossom method for maximum-weight
//! (not necessarily perfect) matching, with duals stored doubled so that
//! integer weights keep integer duals: the slack of a pair is
//! `dual[i] + dual[j] - 2 w(i, j)` plus twice the duals of the blossoms
//! around both. It is
//! generalised in one way: an unmatched player whose dual is still
//! positive is a root, one whose dual is zero is optimal where it is and
//! may be reached as the end of an augmenting path. Roots are kept of one
//! parity so that halving a slack stays exact.

use super::Digits;

mod stage;

const NONE: usize = usize::MAX;

/// The part of the solver a rejected question rolls back.
#[derive(Clone)]
struct State<W> {
    /// Partner of each vertex, or `NONE`.
    mate: Vec<usize>,
    /// Doubled duals: vertices `0..n`, blossoms `n..2n`.
    dual: Vec<W>,
    /// Top-level blossom (or the vertex itself) holding each vertex.
    inblossom: Vec<usize>,
    /// Enclosing blossom of each vertex or blossom, or `NONE`.
    parent: Vec<usize>,
    /// A blossom's sub-blossoms around its cycle, its base's first.
    childs: Vec<Vec<usize>>,
    /// `endps[b][i] = (x, y)`: the cycle edge from `childs[i]` (x) to
    /// `childs[i + 1]` (y), the last one back to the first.
    endps: Vec<Vec<(usize, usize)>>,
    /// Base vertex of each blossom; `NONE` for an unused blossom number.
    base: Vec<usize>,
    /// Vertices in each blossom.
    size: Vec<usize>,
    unused: Vec<usize>,
}

/// A maximum-weight matching over a dense symmetric weight matrix (only
/// `i < j` given; a pair of weight zero or less may not be matched), kept
/// optimal across [`Blossom::restrict`] and [`Blossom::raise`].
pub struct Blossom<W> {
    n: usize,
    w: Vec<W>,
    st: State<W>,
    /// Weights changed since the last [`Blossom::mark`], to roll back.
    changed: Vec<(usize, W)>,
    saved: Option<State<W>>,
    /// A value below which the caller has no use for the optimum: once the
    /// duals prove the optimum is below it, re-optimising stops.
    floor: Option<W>,
    gave_up: bool,
    // Scratch of one stage.
    label: Vec<u8>,
    labelend: Vec<Option<(usize, usize)>>,
    bestedge: Vec<Option<(usize, usize)>>,
    blossombest: Vec<Option<Vec<(usize, usize)>>>,
    queue: Vec<usize>,
}

impl<W: Digits> Blossom<W> {
    /// Solves the matching of `n` vertices with weights `w[i * n + j]`
    /// (`i < j`).
    pub fn new(mut w: Vec<W>, n: usize) -> Self {
        // Both halves, so that a vertex's pairs are read along one row.
        let mut top = W::ZERO;
        for i in 0..n {
            w[i * n + i] = W::ZERO;
            for j in i + 1..n {
                top = top.max(w[i * n + j]);
                w[j * n + i] = w[i * n + j];
            }
        }
        let mut dual = vec![top; n];
        dual.extend(std::iter::repeat_n(W::ZERO, n));
        let mut s = Blossom {
            n,
            w,
            st: State {
                mate: vec![NONE; n],
                dual,
                inblossom: (0..n).collect(),
                parent: vec![NONE; 2 * n],
                childs: vec![Vec::new(); 2 * n],
                endps: vec![Vec::new(); 2 * n],
                base: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
                size: vec![1; 2 * n],
                unused: (n..2 * n).rev().collect(),
            },
            changed: Vec::new(),
            saved: None,
            floor: None,
            gave_up: false,
            label: vec![0; 2 * n],
            labelend: vec![None; 2 * n],
            bestedge: vec![None; 2 * n],
            blossombest: vec![None; 2 * n],
            queue: Vec::new(),
        };
        s.run();
        s
    }

    /// Each vertex's partner.
    pub fn mate(&self) -> Vec<Option<usize>> {
        self.st
            .mate
            .iter()
            .map(|&m| (m != NONE).then_some(m))
            .collect()
    }

    /// The weight of the current matching.
    pub fn value(&self) -> W {
        (0..self.n)
            .filter(|&a| self.st.mate[a] != NONE && self.st.mate[a] > a)
            .map(|a| self.wt(a, self.st.mate[a]))
            .sum()
    }

    /// Remembers the current state; [`Blossom::rollback`] returns to it.
    pub fn mark(&mut self) {
        self.changed.clear();
        self.saved = Some(self.st.clone());
    }

    /// Keeps the changes since the last [`Blossom::mark`].
    pub fn commit(&mut self) {
        debug_assert!(!self.gave_up, "a stopped solve is only rolled back");
        self.saved = None;
        self.changed.clear();
        self.floor = None;
    }

    /// Returns to the state of the last [`Blossom::mark`].
    pub fn rollback(&mut self) {
        if let Some(st) = self.saved.take() {
            self.st = st;
        }
        while let Some((at, w)) = self.changed.pop() {
            self.w[at] = w;
        }
        self.floor = None;
        self.gave_up = false;
    }

    /// Until the next [`Blossom::commit`] or [`Blossom::rollback`]: the
    /// caller only asks whether the optimum reaches `floor`, so the changes
    /// may stop re-optimising as soon as the dual solution (an upper bound
    /// of every matching's weight) falls below it. A question answered no
    /// that way costs a few dual steps instead of the whole re-optimisation.
    pub fn set_floor(&mut self, floor: W) {
        self.floor = Some(floor);
    }

    /// Whether the optimum is known to be below the floor: the changes
    /// stopped re-optimising, and only [`Blossom::rollback`] is left.
    pub fn below_floor(&self) -> bool {
        self.gave_up
    }

    /// The dual objective, doubled: `sum(dual[v]) + 2 sum(z(B) (|B| - 1) / 2)`,
    /// an upper bound of twice any matching's weight.
    fn bound(&self) -> W {
        let mut d: W = self.st.dual[..self.n].iter().copied().sum();
        for b in self.n..2 * self.n {
            if self.st.base[b] != NONE {
                d += times(self.st.dual[b], self.st.size[b] - 1);
            }
        }
        d
    }

    /// Removes every pair of `a` with a partner `ok` refuses
    /// ([`Blossom::reoptimise`] makes the matching optimal again).
    pub fn restrict(&mut self, a: usize, ok: &dyn Fn(usize) -> bool) {
        // A blossom stands on its cycle's pairs: one that loses a pair at
        // `a` is dissolved; one that keeps them stays (only its cycle and
        // matched pairs hold it together).
        let mut b = self.st.parent[a];
        while b != NONE {
            let cut = self.st.endps[b]
                .iter()
                .any(|&(x, y)| (x == a && !ok(y)) || (y == a && !ok(x)));
            if cut {
                self.make_trivial(a);
                break;
            }
            b = self.st.parent[b];
        }
        for b in 0..self.n {
            if b != a && !ok(b) && self.wt(a, b) > W::ZERO {
                self.set(a, b, W::ZERO);
            }
        }
        let m = self.st.mate[a];
        if m != NONE && !ok(m) {
            self.st.mate[a] = NONE;
            self.st.mate[m] = NONE;
        }
    }

    /// Adds `by` to the weight of every pair of `a`
    /// ([`Blossom::reoptimise`] makes the matching optimal again).
    pub fn raise(&mut self, a: usize, by: W) {
        for b in 0..self.n {
            let x = self.wt(a, b);
            if b != a && x > W::ZERO {
                self.set(a, b, x + by);
            }
        }
        // Every slack at `a` stays as it was.
        self.st.dual[a] += by.double();
    }

    /// Makes the matching optimal again after [`Blossom::restrict`] and
    /// [`Blossom::raise`]: the duals are still feasible, so only the
    /// players these left unmatched with a positive dual are searched
    /// from.
    pub fn reoptimise(&mut self) {
        self.run();
    }

    fn wt(&self, a: usize, b: usize) -> W {
        self.w[a * self.n + b]
    }

    fn set(&mut self, a: usize, b: usize, x: W) {
        for at in [a * self.n + b, b * self.n + a] {
            if self.saved.is_some() {
                self.changed.push((at, self.w[at]));
            }
            self.w[at] = x;
        }
    }

    /// The duals of the blossoms that hold both `a` and `b`.
    #[cfg(test)]
    fn shared_z(&self, a: usize, b: usize) -> W {
        let chain = |v: usize| {
            let mut c = Vec::new();
            let mut x = self.st.parent[v];
            while x != NONE {
                c.push(x);
                x = self.st.parent[x];
            }
            c
        };
        let ca = chain(a);
        chain(b)
            .into_iter()
            .filter(|x| ca.contains(x))
            .map(|x| self.st.dual[x])
            .sum()
    }

    fn slack(&self, (a, b): (usize, usize)) -> W {
        self.st.dual[a] + self.st.dual[b] - self.wt(a, b).double()
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &c in &self.st.childs[b] {
                self.leaves(c, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    /// Dissolves every blossom holding `a`: each one's dual moves onto its
    /// vertices (slacks inside stay, slacks leaving it grow), and its base's
    /// pair, no longer tight, is undone.
    fn make_trivial(&mut self, a: usize) {
        loop {
            let b = self.st.inblossom[a];
            if b == a {
                return;
            }
            let z = self.st.dual[b];
            if z > W::ZERO {
                for v in self.leaves_of(b) {
                    self.st.dual[v] += z;
                }
                let b0 = self.st.base[b];
                let m = self.st.mate[b0];
                if m != NONE {
                    self.st.mate[b0] = NONE;
                    self.st.mate[m] = NONE;
                }
            }
            self.st.dual[b] = W::ZERO;
            let childs = std::mem::take(&mut self.st.childs[b]);
            for &s in &childs {
                self.st.parent[s] = NONE;
                for v in self.leaves_of(s) {
                    self.st.inblossom[v] = s;
                }
            }
            self.recycle(b);
        }
    }

    fn recycle(&mut self, b: usize) {
        self.st.childs[b].clear();
        self.st.endps[b].clear();
        self.st.base[b] = NONE;
        self.st.parent[b] = NONE;
        self.st.size[b] = 1;
        self.st.unused.push(b);
        self.label[b] = 0;
        self.labelend[b] = None;
        self.bestedge[b] = None;
        self.blossombest[b] = None;
    }

    /// Roots (unmatched vertices with a positive dual) made plain vertices
    /// of one parity, so that every slack between two trees stays even.
    fn prepare_roots(&mut self) {
        let roots: Vec<usize> = (0..self.n)
            .filter(|&v| self.st.mate[v] == NONE && self.st.dual[v] > W::ZERO)
            .collect();
        let mut parity = None;
        for r in roots {
            self.make_trivial(r);
            let odd = self.st.dual[r].low(1) != W::ZERO;
            match parity {
                None => parity = Some(odd),
                Some(p) if p != odd => self.st.dual[r] += W::ONE,
                _ => {}
            }
        }
    }

    fn assign_label(&mut self, w: usize, t: u8, p: Option<(usize, usize)>) {
        let b = self.st.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = None;
        self.bestedge[b] = None;
        if t == 1 {
            let mut l = Vec::new();
            self.leaves(b, &mut l);
            self.queue.extend(l);
        } else {
            let base = self.st.base[b];
            let m = self.st.mate[base];
            self.assign_label(m, 1, Some((base, m)));
        }
    }

    /// Follows both tree paths up from the tight pair `v`-`w`: the first
    /// blossom met twice is the base of a new blossom; none, an augmenting
    /// path between two roots.
    fn scan_blossom(&mut self, v: usize, w: usize) -> Option<usize> {
        let mut path = Vec::new();
        let mut base = None;
        let (mut v, mut w) = (Some(v), Some(w));
        while let Some(x) = v {
            let b = self.st.inblossom[x];
            if self.label[b] & 4 != 0 {
                base = Some(self.st.base[b]);
                break;
            }
            path.push(b);
            self.label[b] = 5;
            v = match self.labelend[b] {
                None => None,
                Some((t, _)) => {
                    let bt = self.st.inblossom[t];
                    self.labelend[bt].map(|(s, _)| s)
                }
            };
            if w.is_some() {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, v: usize, w: usize) {
        let n = self.n;
        let bb = self.st.inblossom[base];
        let mut bv = self.st.inblossom[v];
        let mut bw = self.st.inblossom[w];
        let b = self.st.unused.pop().expect("a free blossom number");
        self.st.base[b] = base;
        self.st.parent[b] = NONE;
        self.st.parent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.st.parent[bv] = b;
            path.push(bv);
            let e = self.labelend[bv].expect("a labelled sub-blossom");
            endps.push(e);
            bv = self.st.inblossom[e.0];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push((v, w));
        while bw != bb {
            self.st.parent[bw] = b;
            path.push(bw);
            let (x, y) = self.labelend[bw].expect("a labelled sub-blossom");
            endps.push((y, x));
            bw = self.st.inblossom[x];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.st.dual[b] = W::ZERO;
        for v in self.leaves_of_path(&path) {
            if self.label[self.st.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.st.inblossom[v] = b;
        }
        let mut bestto: Vec<Option<(usize, usize)>> = vec![None; 2 * n];
        for &sub in &path {
            let list = match self.blossombest[sub].take() {
                Some(l) => l,
                None => {
                    let mut l = Vec::new();
                    for x in self.leaves_of(sub) {
                        for y in 0..n {
                            if y != x && self.wt(x, y) > W::ZERO {
                                l.push((x, y));
                            }
                        }
                    }
                    l
                }
            };
            for (i, j) in list {
                let (i, j) = if self.st.inblossom[j] == b {
                    (j, i)
                } else {
                    (i, j)
                };
                let bj = self.st.inblossom[j];
                if bj != b
                    && self.label[bj] == 1
                    && bestto[bj].is_none_or(|e| self.slack((i, j)) < self.slack(e))
                {
                    bestto[bj] = Some((i, j));
                }
            }
            self.bestedge[sub] = None;
        }
        let list: Vec<(usize, usize)> = bestto.into_iter().flatten().collect();
        let mut best: Option<(usize, usize)> = None;
        for &e in &list {
            if best.is_none_or(|f| self.slack(e) < self.slack(f)) {
                best = Some(e);
            }
        }
        self.bestedge[b] = best;
        self.blossombest[b] = Some(list);
        self.st.size[b] = path.iter().map(|&c| self.st.size[c]).sum();
        self.st.childs[b] = path;
        self.st.endps[b] = endps;
    }

    fn leaves_of_path(&self, path: &[usize]) -> Vec<usize> {
        let mut v = Vec::new();
        for &s in path {
            self.leaves(s, &mut v);
        }
        v
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.st.childs[b].clone();
        for &s in &childs {
            self.st.parent[s] = NONE;
            if s < self.n {
                self.st.inblossom[s] = s;
            } else if endstage && self.st.dual[s] == W::ZERO {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_of(s) {
                    self.st.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            // The T-blossom's even path from where it was entered to its
            // base is relabelled T, S, ..., T; the rest of the cycle is
            // labelled only where an S-vertex already reaches it.
            let endps = self.st.endps[b].clone();
            let len = childs.len() as isize;
            let idx = |j: isize| j.rem_euclid(len) as usize;
            let mut p = self.labelend[b].expect("a T-blossom's label");
            let entrychild = self.st.inblossom[p.1];
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("the child a T-blossom was entered by is among its children")
                as isize;
            let step: isize = if j % 2 == 1 { 1 } else { -1 };
            while idx(j) != 0 {
                // The matched edge from this T-child to the next S-child.
                let s_side = if step == 1 {
                    endps[idx(j)].1
                } else {
                    endps[idx(j - 1)].0
                };
                self.label[p.1] = 0;
                self.label[s_side] = 0;
                self.assign_label(p.1, 2, Some(p));
                j += step;
                p = if step == 1 {
                    endps[idx(j)]
                } else {
                    let (x, y) = endps[idx(j - 1)];
                    (y, x)
                };
                j += step;
            }
            let bv = childs[0];
            self.label[p.1] = 2;
            self.label[bv] = 2;
            self.labelend[p.1] = Some(p);
            self.labelend[bv] = Some(p);
            self.bestedge[bv] = None;
            j += step;
            while childs[idx(j)] != entrychild {
                let bv = childs[idx(j)];
                if self.label[bv] == 1 {
                    j += step;
                    continue;
                }
                let reached = self.leaves_of(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = reached {
                    self.label[v] = 0;
                    let m = self.st.mate[self.st.base[bv]];
                    self.label[m] = 0;
                    let le = self.labelend[v];
                    self.assign_label(v, 2, le);
                }
                j += step;
            }
        }
        self.recycle(b);
    }

    /// Makes `v` the base of blossom `b`, swapping the matched and
    /// unmatched edges on the even path from `v` to the old base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.st.parent[t] != b {
            t = self.st.parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.st.childs[b].len() as isize;
        let idx = |j: isize| j.rem_euclid(len) as usize;
        let i = self.st.childs[b]
            .iter()
            .position(|&c| c == t)
            .expect("the sub-blossom holding the vertex is among the blossom's children");
        let mut j = i as isize;
        let step: isize = if i % 2 == 1 { 1 } else { -1 };
        while idx(j) != 0 {
            j += step;
            let (x, y, cx, cy) = if step == 1 {
                let (x, y) = self.st.endps[b][idx(j)];
                (x, y, idx(j), idx(j + 1))
            } else {
                let (x, y) = self.st.endps[b][idx(j - 1)];
                (y, x, idx(j), idx(j - 1))
            };
            j += step;
            let (t1, t2) = (self.st.childs[b][cx], self.st.childs[b][cy]);
            if t1 >= self.n {
                self.augment_blossom(t1, x);
            }
            if t2 >= self.n {
                self.augment_blossom(t2, y);
            }
            self.st.mate[x] = y;
            self.st.mate[y] = x;
        }
        self.st.childs[b].rotate_left(i);
        self.st.endps[b].rotate_left(i);
        self.st.base[b] = self.st.base[self.st.childs[b][0]];
        debug_assert_eq!(self.st.base[b], v);
    }

    /// Flips the tree path from `s` up to its root, `s` taking `j` (or
    /// nobody). Stops at a root, or at an unlabelled blossom (the free end
    /// of an augmenting path).
    fn augment_side(&mut self, mut s: usize, mut j: Option<usize>) {
        loop {
            let bs = self.st.inblossom[s];
            if bs >= self.n {
                self.augment_blossom(bs, s);
            }
            self.st.mate[s] = j.unwrap_or(NONE);
            if self.label[bs] != 1 {
                return;
            }
            let Some((t, _)) = self.labelend[bs] else {
                return;
            };
            let bt = self.st.inblossom[t];
            let (sx, jy) = self.labelend[bt].expect("a T-blossom's label");
            if bt >= self.n {
                self.augment_blossom(bt, jy);
            }
            self.st.mate[jy] = sx;
            s = sx;
            j = Some(jy);
        }
    }

    /// Dual feasibility, tight matched pairs, and roots of one parity
    /// (for tests).
    #[cfg(test)]
    fn check(&self, when: &str) {
        let n = self.n;
        for i in 0..n {
            assert!(self.st.dual[i] >= W::ZERO, "{when}: negative dual at {i}");
            for j in i + 1..n {
                if self.wt(i, j) <= W::ZERO {
                    continue;
                }
                let sl = self.slack((i, j)) + self.shared_z(i, j).double();
                assert!(sl >= W::ZERO, "{when}: negative slack {i}-{j}");
                if self.st.mate[i] == j {
                    assert!(sl == W::ZERO, "{when}: matched pair {i}-{j} not tight");
                }
            }
        }
    }

    fn is_top(&self, b: usize) -> bool {
        if b < self.n {
            self.st.inblossom[b] == b
        } else {
            self.st.base[b] != NONE && self.st.parent[b] == NONE
        }
    }

    /// Stages until no root is left: each one grows alternating trees
    /// from the roots over tight pairs and either augments, or lowers a
    /// root's dual to zero, or reaches a matched S-vertex whose dual is zero
    /// and makes it the unmatched one.
    fn run(&mut self) {
        let n = self.n;
        if self.gave_up {
            return;
        }
        #[cfg(all(test, debug_assertions))]
        self.check("before");
        self.prepare_roots();
        #[cfg(all(test, debug_assertions))]
        self.check("prepared");
        loop {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.labelend.iter_mut().for_each(|l| *l = None);
            self.bestedge.iter_mut().for_each(|l| *l = None);
            self.blossombest[n..].iter_mut().for_each(|l| *l = None);
            self.queue.clear();
            let mut any = false;
            for v in 0..n {
                if self.st.mate[v] == NONE
                    && self.st.dual[v] > W::ZERO
                    && self.label[self.st.inblossom[v]] == 0
                {
                    self.assign_label(v, 1, None);
                    any = true;
                }
            }
            if !any {
                return;
            }
            self.stage();
            if self.gave_up {
                return;
            }
            #[cfg(all(test, debug_assertions))]
            self.check("stage");
            for b in n..2 * n {
                if self.is_top(b) && self.label[b] == 1 && self.st.dual[b] == W::ZERO {
                    self.expand_blossom(b, true);
                }
            }
            #[cfg(all(test, debug_assertions))]
            self.check("endstage");
        }
    }
}

/// `x * k` by doubling.
fn times<W: Digits>(mut x: W, mut k: usize) -> W {
    let mut out = W::ZERO;
    while k > 0 {
        if k & 1 == 1 {
            out += x;
        }
        x = x.double();
        k >>= 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::matching::value;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A number below `n`.
    fn below(rng: &mut StdRng, n: u64) -> u64 {
        rng.random_range(0..n)
    }

    fn valid(w: &[i128], n: usize, mate: &[Option<usize>]) {
        for a in 0..n {
            if let Some(b) = mate[a] {
                assert_eq!(mate[b], Some(a));
                assert!(w[a.min(b) * n + a.max(b)] > 0, "a missing pair matched");
            }
        }
    }

    /// Random graphs of every density, with few distinct weights (many
    /// ties, many blossoms): the warm solver agrees with a solve from
    /// nothing after every restriction and raise, and after rollbacks.
    #[test]
    fn every_change_keeps_the_matching_optimal() {
        let mut rng = StdRng::seed_from_u64(0x2545_f491_4f6c_dd1d);
        let mut stopped = 0;
        for case in 0..600 {
            let n = 2 + below(&mut rng, 23) as usize;
            let levels = [2, 3, 5, 40, 1000][case % 5];
            let density = 1 + below(&mut rng, 10);
            let mut w = vec![0i128; n * n];
            for a in 0..n {
                for b in a + 1..n {
                    if below(&mut rng, 10) < density {
                        w[a * n + b] = 1 + below(&mut rng, levels) as i128;
                    }
                }
            }
            let mut s = Blossom::new(w.clone(), n);
            s.check("new");
            let fresh = crate::pairing::matching::max_weight(&w, n);
            valid(&w, n, &s.mate());
            assert_eq!(s.value(), value(&w, n, &fresh), "case {case}: first solve");
            for step in 0..12 {
                let a = below(&mut rng, n as u64) as usize;
                let undo = below(&mut rng, 3) == 0;
                let mut floor = None;
                if undo {
                    s.mark();
                    if below(&mut rng, 2) == 0 {
                        // Somewhere around the current optimum.
                        let f = s.value() - levels as i128 + below(&mut rng, 2 * levels) as i128;
                        s.set_floor(f);
                        floor = Some(f);
                    }
                }
                let before = w.clone();
                // A restriction, a raise, or both before one re-optimisation
                // (as a choice that pairs a player asks).
                let op = below(&mut rng, 3);
                if op != 1 {
                    let keep: Vec<bool> = (0..n).map(|_| below(&mut rng, 3) != 0).collect();
                    s.restrict(a, &|b| keep[b]);
                    for b in 0..n {
                        if b != a && !keep[b] {
                            w[a.min(b) * n + a.max(b)] = 0;
                        }
                    }
                }
                if op != 0 {
                    let by = 1 + below(&mut rng, levels) as i128;
                    s.raise(a, by);
                    for b in 0..n {
                        let x = &mut w[a.min(b) * n + a.max(b)];
                        if b != a && *x > 0 {
                            *x += by;
                        }
                    }
                }
                s.reoptimise();
                let fresh = crate::pairing::matching::max_weight(&w, n);
                if s.below_floor() {
                    let f = floor.expect("stops only below a floor");
                    assert!(
                        value(&w, n, &fresh) < f,
                        "case {case}, step {step}: stopped early"
                    );
                    stopped += 1;
                    s.rollback();
                    w = before;
                    continue;
                }
                s.check("after");
                // The certificate of optimality: nobody unmatched keeps a
                // positive dual.
                assert!((0..n).all(|v| s.st.mate[v] != NONE || s.st.dual[v] == 0));
                valid(&w, n, &s.mate());
                assert_eq!(
                    s.value(),
                    value(&w, n, &fresh),
                    "case {case}, step {step}: n {n}"
                );
                if undo {
                    s.rollback();
                    w = before;
                    valid(&w, n, &s.mate());
                    let fresh = crate::pairing::matching::max_weight(&w, n);
                    assert_eq!(s.value(), value(&w, n, &fresh), "case {case}: rollback");
                }
            }
        }
        assert!(stopped > 100, "the floor stopped {stopped} questions early");
    }
}

//! Matchings on general graphs.
//!
//! Two questions come up while pairing a Swiss round:
//!
//! - "Which pairing of this score bracket is best?" The criteria are packed,
//!   most important first, into one integer weight per possible pair, and a
//!   maximum-weight matching answers. The blossom algorithm is the exact
//!   tool for that; we use the `integer-blossom` crate over `i128` weights so
//!   that a dozen criteria stack without overflow.
//! - "Can the players below still all be paired?" (the completion criterion).
//!   Here only the number of pairs matters, so a greedy start plus Edmonds'
//!   augmenting paths over the *compatibility* graph is enough. That graph is
//!   nearly complete in a Swiss event (a player has met a handful of the
//!   field), so adjacency is asked of a closure rather than stored.

/// Maximum-weight matching over a dense `n x n` matrix (only `i < j` read);
/// non-positive entries are missing edges.
pub fn max_weight(weight: &[i128], n: usize) -> Vec<Option<usize>> {
    if n == 0 {
        return Vec::new();
    }
    integer_blossom::max_weight_matching(weight, n)
}

const NONE: usize = usize::MAX;

/// A maximum-cardinality matching of `n` vertices where `adj(i, j)` says
/// whether `i` and `j` may be paired. Returns `mate` (`None` = unmatched).
///
/// With `stop_at_first_failure`, the search gives up as soon as one vertex is
/// proven unmatchable, which is all the completion test needs.
pub fn max_cardinality(
    n: usize,
    adj: &dyn Fn(usize, usize) -> bool,
    stop_at_first_failure: bool,
) -> Vec<Option<usize>> {
    let mut mate = vec![NONE; n];
    // Greedy start: in a nearly complete graph this leaves few vertices to
    // augment, and the blossom search below is quadratic per vertex.
    for v in 0..n {
        if mate[v] != NONE {
            continue;
        }
        if let Some(u) = (v + 1..n).find(|&u| mate[u] == NONE && adj(v, u)) {
            mate[v] = u;
            mate[u] = v;
        }
    }
    let mut search = Edmonds::new(n);
    for root in 0..n {
        if mate[root] != NONE {
            continue;
        }
        match search.find_path(root, &mate, adj) {
            Some(end) => {
                let mut v = end;
                while v != NONE {
                    let pv = search.parent[v];
                    let next = mate[pv];
                    mate[v] = pv;
                    mate[pv] = v;
                    v = next;
                }
            }
            None if stop_at_first_failure => break,
            None => {}
        }
    }
    mate.into_iter().map(|m| (m != NONE).then_some(m)).collect()
}

/// Whether every one of the `n` vertices can be matched.
pub fn has_perfect_matching(n: usize, adj: &dyn Fn(usize, usize) -> bool) -> bool {
    n % 2 == 0 && max_cardinality(n, adj, true).iter().all(Option::is_some)
}

struct Edmonds {
    parent: Vec<usize>,
    base: Vec<usize>,
    used: Vec<bool>,
    blossom: Vec<bool>,
    queue: std::collections::VecDeque<usize>,
}

impl Edmonds {
    fn new(n: usize) -> Self {
        Edmonds {
            parent: vec![NONE; n],
            base: (0..n).collect(),
            used: vec![false; n],
            blossom: vec![false; n],
            queue: Default::default(),
        }
    }

    fn lca(&self, mate: &[usize], mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; mate.len()];
        loop {
            a = self.base[a];
            seen[a] = true;
            if mate[a] == NONE {
                break;
            }
            a = self.parent[mate[a]];
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.parent[mate[b]];
        }
    }

    fn mark_path(&mut self, mate: &[usize], mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            self.blossom[self.base[v]] = true;
            self.blossom[self.base[mate[v]]] = true;
            self.parent[v] = child;
            child = mate[v];
            v = self.parent[mate[v]];
        }
    }

    fn find_path(
        &mut self,
        root: usize,
        mate: &[usize],
        adj: &dyn Fn(usize, usize) -> bool,
    ) -> Option<usize> {
        let n = mate.len();
        self.used.iter_mut().for_each(|x| *x = false);
        self.parent.iter_mut().for_each(|x| *x = NONE);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.queue.clear();
        self.used[root] = true;
        self.queue.push_back(root);
        while let Some(v) = self.queue.pop_front() {
            for to in 0..n {
                if to == v || self.base[v] == self.base[to] || mate[v] == to || !adj(v, to) {
                    continue;
                }
                if to == root || (mate[to] != NONE && self.parent[mate[to]] != NONE) {
                    let cur = self.lca(mate, v, to);
                    self.blossom.iter_mut().for_each(|x| *x = false);
                    self.mark_path(mate, v, cur, to);
                    self.mark_path(mate, to, cur, v);
                    for i in 0..n {
                        if self.blossom[self.base[i]] {
                            self.base[i] = cur;
                            if !self.used[i] {
                                self.used[i] = true;
                                self.queue.push_back(i);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if mate[to] == NONE {
                        return Some(to);
                    }
                    self.used[mate[to]] = true;
                    self.queue.push_back(mate[to]);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: the size of the largest matching.
    fn best(n: usize, adj: &dyn Fn(usize, usize) -> bool, used: &mut Vec<bool>) -> usize {
        let Some(v) = (0..n).find(|&v| !used[v]) else {
            return 0;
        };
        used[v] = true;
        let mut top = best(n, adj, used);
        for u in 0..n {
            if !used[u] && adj(v, u) {
                used[u] = true;
                top = top.max(1 + best(n, adj, used));
                used[u] = false;
            }
        }
        used[v] = false;
        top
    }

    #[test]
    fn cardinality_matches_brute_force_on_small_graphs() {
        let mut seed = 12345u64;
        for _ in 0..300 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let n = (seed >> 60) as usize % 9 + 2;
            let bits = seed.rotate_left(17) ^ 0x9e3779b97f4a7c15;
            let adj = move |a: usize, b: usize| {
                let (a, b) = (a.min(b), a.max(b));
                (bits >> ((a * 7 + b * 3) % 64)) & 1 == 1
            };
            let mate = max_cardinality(n, &adj, false);
            for (v, m) in mate.iter().enumerate() {
                if let Some(u) = *m {
                    assert_eq!(mate[u], Some(v));
                    assert!(adj(v, u));
                }
            }
            let size = mate.iter().filter(|m| m.is_some()).count() / 2;
            assert_eq!(size, best(n, &adj, &mut vec![false; n]));
        }
    }

    #[test]
    fn odd_cycle_needs_a_blossom() {
        // 0-1-2-0 triangle with 3-0 pendant and 4-2 pendant: perfect matching
        // impossible with 5 vertices, but 6 with 5-1 is perfect.
        let edges = [(0, 1), (1, 2), (2, 0), (3, 0), (4, 2), (5, 1)];
        let adj = |a: usize, b: usize| edges.contains(&(a, b)) || edges.contains(&(b, a));
        assert!(has_perfect_matching(6, &adj));
        let adj5 = |a: usize, b: usize| a < 5 && b < 5 && adj(a, b);
        assert!(!has_perfect_matching(5, &adj5));
    }
}

//! Matchings on general graphs.
//!
//! Two questions come up while pairing a Swiss round:
//!
//! - "Which pairing of this score bracket is best?" The criteria are packed,
//!   most important first, into one integer weight per possible pair, and a
//!   maximum-weight matching answers. The blossom algorithm is the exact
//!   tool for that; we use the `integer-blossom` crate over `i128` weights so
//!   that a dozen criteria stack without overflow, and over [`Wide`]
//!   (256-bit) weights when the Swiss generation order's digits need more.
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

/// As [`max_weight`], over [`Wide`] weights: for the generation order's
/// matchings, whose digits (the criteria, then the handbook's order) can
/// need more than the 127 bits of an `i128`.
pub fn max_weight_wide(weight: &[Wide], n: usize) -> Vec<Option<usize>> {
    if n == 0 {
        return Vec::new();
    }
    integer_blossom::max_weight_matching(weight, n)
}

/// A 256-bit two's complement integer: the matching weight when the digits
/// do not fit an `i128`. The blossom solver only adds, subtracts, compares,
/// doubles and halves; the engine builds weights with shifts and adds.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Wide {
    /// The high half, signed: it carries the sign, so the derived order
    /// (high half, then low half) is the numeric order.
    hi: i128,
    lo: u128,
}

impl Wide {
    /// Bits a caller may use below the sign, keeping the solver's headroom
    /// (it works up to a quarter of the largest value).
    pub const BITS: u32 = 250;

    pub const fn from_i128(v: i128) -> Self {
        Wide {
            hi: if v < 0 { -1 } else { 0 },
            lo: v as u128,
        }
    }

    /// The value as an `i128`, when it fits.
    pub fn to_i128(self) -> Option<i128> {
        let v = self.lo as i128;
        (self.hi == if v < 0 { -1 } else { 0 }).then_some(v)
    }

    pub fn is_negative(self) -> bool {
        self.hi < 0
    }

    fn neg(self) -> Self {
        let (lo, carry) = (!self.lo).overflowing_add(1);
        Wide {
            hi: (!self.hi).wrapping_add(carry as i128),
            lo,
        }
    }
}

impl std::fmt::Debug for Wide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.to_i128() {
            Some(v) => write!(f, "{v}"),
            None => write!(f, "Wide({:#x}, {:#x})", self.hi, self.lo),
        }
    }
}

impl From<i128> for Wide {
    fn from(v: i128) -> Self {
        Wide::from_i128(v)
    }
}

impl std::ops::Add for Wide {
    type Output = Wide;
    fn add(self, o: Wide) -> Wide {
        let (lo, carry) = self.lo.overflowing_add(o.lo);
        Wide {
            hi: self.hi.wrapping_add(o.hi).wrapping_add(carry as i128),
            lo,
        }
    }
}

impl std::ops::Sub for Wide {
    type Output = Wide;
    fn sub(self, o: Wide) -> Wide {
        let (lo, borrow) = self.lo.overflowing_sub(o.lo);
        Wide {
            hi: self.hi.wrapping_sub(o.hi).wrapping_sub(borrow as i128),
            lo,
        }
    }
}

impl std::ops::AddAssign for Wide {
    fn add_assign(&mut self, o: Wide) {
        *self = *self + o;
    }
}

impl std::ops::SubAssign for Wide {
    fn sub_assign(&mut self, o: Wide) {
        *self = *self - o;
    }
}

impl std::ops::Shl<u32> for Wide {
    type Output = Wide;
    fn shl(self, s: u32) -> Wide {
        match s {
            0 => self,
            1..=127 => Wide {
                hi: (self.hi << s) | (self.lo >> (128 - s)) as i128,
                lo: self.lo << s,
            },
            128..=255 => Wide {
                hi: (self.lo << (s - 128)) as i128,
                lo: 0,
            },
            _ => Wide::default(),
        }
    }
}

/// Arithmetic (sign-keeping) shift right.
impl std::ops::Shr<u32> for Wide {
    type Output = Wide;
    fn shr(self, s: u32) -> Wide {
        match s {
            0 => self,
            1..=127 => Wide {
                hi: self.hi >> s,
                lo: (self.lo >> s) | ((self.hi as u128) << (128 - s)),
            },
            _ => Wide {
                hi: self.hi >> 127,
                lo: (self.hi >> (s.min(255) - 128)) as u128,
            },
        }
    }
}

impl integer_blossom::Weight for Wide {
    const ZERO: Self = Wide { hi: 0, lo: 0 };
    const ONE: Self = Wide { hi: 0, lo: 1 };
    fn inf() -> Self {
        Wide {
            hi: i128::MAX >> 2,
            lo: u128::MAX,
        }
    }
    fn double(self) -> Self {
        self << 1
    }
    /// Halves towards zero, as the solver's integer types do.
    fn half(self) -> Self {
        if self.is_negative() {
            (self.neg() >> 1).neg()
        } else {
            self >> 1
        }
    }
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

    #[test]
    fn wide_arithmetic_matches_i128() {
        let vals: [i128; 9] = [
            0,
            1,
            -1,
            7,
            -7,
            1 << 100,
            -(1 << 100),
            i128::MAX >> 3,
            -12345,
        ];
        for &a in &vals {
            assert_eq!(Wide::from(a).to_i128(), Some(a));
            for &b in &vals {
                assert_eq!((Wide::from(a) + Wide::from(b)).to_i128(), a.checked_add(b));
                assert_eq!((Wide::from(a) - Wide::from(b)).to_i128(), a.checked_sub(b));
                assert_eq!(Wide::from(a).cmp(&Wide::from(b)), a.cmp(&b));
            }
            for s in [0u32, 1, 5, 64, 127] {
                assert_eq!((Wide::from(a) >> s).to_i128(), Some(a >> s));
                // Up and back down, beyond 128 bits (as far as 253).
                let t = 126;
                assert_eq!(((Wide::from(a) << t) >> t).to_i128(), Some(a));
            }
            use integer_blossom::Weight;
            assert_eq!(Wide::from(a).half().to_i128(), Some(a / 2));
        }
    }

    #[test]
    fn wide_weights_give_the_same_matching_shifted_past_128_bits() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..200 {
            let n = 2 + (next() % 12) as usize;
            let mut m = vec![0i128; n * n];
            for a in 0..n {
                for b in a + 1..n {
                    m[a * n + b] = (next() % 50) as i128;
                }
            }
            let small = max_weight(&m, n);
            let wide: Vec<Wide> = m.iter().map(|&x| Wide::from(x) << 180).collect();
            let total = |mate: &[Option<usize>]| -> i128 {
                (0..n)
                    .filter_map(|a| mate[a].filter(|&b| b > a).map(|b| m[a * n + b]))
                    .sum()
            };
            assert_eq!(total(&max_weight_wide(&wide, n)), total(&small));
        }
    }
}

//! Matchings on general graphs.
//!
//! Two questions come up while pairing a Swiss round:
//!
//! - "Which pairing of this score bracket is best?" The criteria are packed,
//!   most important first, into one integer weight per possible pair, and a
//!   maximum-weight matching answers. The blossom algorithm is the exact
//!   tool for that; we use the `integer-blossom` crate over `i128` weights
//!   while a dozen criteria fit one, and over [`Int`] weights of 256 to
//!   4,096 bits (see [`with_width`](crate::with_width)) when a bracket's digits need more.
//! - "Can the players below still all be paired?" (the completion criterion).
//!   Here only the number of pairs matters, so a greedy start plus Edmonds'
//!   augmenting paths over the *compatibility* graph is enough. That graph is
//!   nearly complete in a Swiss event (a player has met a handful of the
//!   field), so adjacency is asked of a closure rather than stored.

pub mod warm;

/// Maximum-weight matching over a dense `n x n` matrix (only `i < j` read);
/// non-positive entries are missing edges. The weight type is `i128` when
/// the digits fit one (the fastest), else an [`Int`] as wide as they need.
pub fn max_weight<W: Digits>(weight: &[W], n: usize) -> Vec<Option<usize>> {
    if n == 0 {
        return Vec::new();
    }
    integer_blossom::max_weight_matching(weight, n)
}

/// The weight of a matching (`mate`: each vertex's partner) over a dense
/// `n x n` matrix: what two matchings are compared by, to tell whether a
/// restricted one is still among the best.
pub fn value<W: Digits>(weight: &[W], n: usize, mate: &[Option<usize>]) -> W {
    (0..n)
        .filter_map(|a| mate[a].filter(|&b| b > a).map(|b| weight[a * n + b]))
        .sum()
}

/// Fixes `a`'s partner in a dense `n x n` matrix: every other pair of `a`,
/// and of `partner` when there is one, removed, so that a matching over it
/// pairs `a` with `partner` (or leaves `a` unpaired) or loses weight. How
/// a choice is put to the matching when fixing partners one at a time.
pub fn pin<W: Digits>(weight: &mut [W], n: usize, a: usize, partner: Option<usize>) {
    let keep = partner.map(|b| (a.min(b), a.max(b)));
    for x in 0..n {
        for y in [a].into_iter().chain(partner) {
            let (p, q) = (x.min(y), x.max(y));
            if p != q && Some((p, q)) != keep {
                weight[p * n + q] = W::from(0);
            }
        }
    }
}

/// What the pairing engine needs of a matching weight: the solver's
/// arithmetic, and shifts to stack the criteria as digits. Implemented by
/// `i128` and by [`Int`] of any width, so that one piece of code weighs a
/// bracket whatever number of bits its criteria take.
pub trait Digits:
    integer_blossom::Weight
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
    + From<i128>
    + std::iter::Sum
{
    /// Bits a caller may use below the sign, keeping the solver's headroom
    /// (it works up to a quarter of the largest value).
    const BITS: u32;
    /// The value modulo `2^bits` (its lowest `bits` bits).
    fn low(self, bits: u32) -> Self {
        self - ((self >> bits) << bits)
    }
}

impl Digits for i128 {
    const BITS: u32 = 124;
}

/// The widest weights the engine uses: 64 limbs, 4,096 bits.
pub type Widest = Int<64>;

/// Runs `$e` with `$W` standing for the narrowest weight type that holds
/// `$bits` bits: `i128`, then [`Int`] of 256, 512, 1,024 and 4,096 bits.
#[macro_export]
macro_rules! with_width {
    ($bits:expr, $W:ident => $e:expr) => {{
        let bits: u32 = $bits;
        if bits <= <i128 as $crate::pairing::matching::Digits>::BITS {
            type $W = i128;
            $e
        } else if bits
            <= <$crate::pairing::matching::Int<4> as $crate::pairing::matching::Digits>::BITS
        {
            type $W = $crate::pairing::matching::Int<4>;
            $e
        } else if bits
            <= <$crate::pairing::matching::Int<8> as $crate::pairing::matching::Digits>::BITS
        {
            type $W = $crate::pairing::matching::Int<8>;
            $e
        } else if bits
            <= <$crate::pairing::matching::Int<16> as $crate::pairing::matching::Digits>::BITS
        {
            type $W = $crate::pairing::matching::Int<16>;
            $e
        } else {
            type $W = $crate::pairing::matching::Widest;
            $e
        }
    }};
}

/// A two's complement integer of `L` 64-bit limbs (least significant
/// first): the matching weight when the digits do not fit an `i128`. The
/// blossom solver only adds, subtracts, compares, doubles and halves; the
/// engine builds weights with shifts and adds.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Int<const L: usize>([u64; L]);

impl<const L: usize> Default for Int<L> {
    fn default() -> Self {
        Int([0; L])
    }
}

impl<const L: usize> Int<L> {
    pub const fn from_i128(v: i128) -> Self {
        let fill = if v < 0 { u64::MAX } else { 0 };
        let mut limbs = [fill; L];
        limbs[0] = v as u64;
        if L > 1 {
            limbs[1] = (v >> 64) as u64;
        }
        Int(limbs)
    }

    /// The value as an `i128`, when it fits.
    pub fn to_i128(self) -> Option<i128> {
        let v = (self.0[0] as i128) | ((self.0[1] as i128) << 64);
        (Self::from_i128(v) == self).then_some(v)
    }

    pub fn is_negative(self) -> bool {
        (self.0[L - 1] as i64) < 0
    }

    fn neg(self) -> Self {
        let mut out = [0u64; L];
        let mut carry = 1u64;
        for (o, &x) in out.iter_mut().zip(&self.0) {
            let (v, c) = (!x).overflowing_add(carry);
            *o = v;
            carry = c as u64;
        }
        Int(out)
    }
}

impl<const L: usize> PartialOrd for Int<L> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

/// The numeric order: the top limb signed, the others unsigned.
impl<const L: usize> Ord for Int<L> {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        (self.0[L - 1] as i64)
            .cmp(&(o.0[L - 1] as i64))
            .then_with(|| self.0[..L - 1].iter().rev().cmp(o.0[..L - 1].iter().rev()))
    }
}

impl<const L: usize> std::fmt::Debug for Int<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.to_i128() {
            Some(v) => write!(f, "{v}"),
            None => write!(f, "Int({:x?})", self.0),
        }
    }
}

impl<const L: usize> From<i128> for Int<L> {
    fn from(v: i128) -> Self {
        Int::from_i128(v)
    }
}

impl<const L: usize> std::ops::Add for Int<L> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        let mut out = [0u64; L];
        let mut carry = false;
        for (r, (&x, &y)) in out.iter_mut().zip(self.0.iter().zip(&o.0)) {
            let (v, c1) = x.overflowing_add(y);
            let (v, c2) = v.overflowing_add(carry as u64);
            *r = v;
            carry = c1 || c2;
        }
        Int(out)
    }
}

impl<const L: usize> std::ops::Sub for Int<L> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        let mut out = [0u64; L];
        let mut borrow = false;
        for (r, (&x, &y)) in out.iter_mut().zip(self.0.iter().zip(&o.0)) {
            let (v, b1) = x.overflowing_sub(y);
            let (v, b2) = v.overflowing_sub(borrow as u64);
            *r = v;
            borrow = b1 || b2;
        }
        Int(out)
    }
}

impl<const L: usize> std::ops::AddAssign for Int<L> {
    fn add_assign(&mut self, o: Self) {
        *self = *self + o;
    }
}

impl<const L: usize> std::ops::SubAssign for Int<L> {
    fn sub_assign(&mut self, o: Self) {
        *self = *self - o;
    }
}

impl<const L: usize> std::iter::Sum for Int<L> {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::default(), |a, b| a + b)
    }
}

impl<const L: usize> std::ops::Shl<u32> for Int<L> {
    type Output = Self;
    fn shl(self, s: u32) -> Self {
        let (limbs, bits) = ((s / 64) as usize, s % 64);
        let mut out = [0u64; L];
        for (src, r) in out.iter_mut().skip(limbs).enumerate() {
            *r = self.0[src] << bits;
            if bits > 0 && src > 0 {
                *r |= self.0[src - 1] >> (64 - bits);
            }
        }
        Int(out)
    }
}

/// Arithmetic (sign-keeping) shift right.
impl<const L: usize> std::ops::Shr<u32> for Int<L> {
    type Output = Self;
    fn shr(self, s: u32) -> Self {
        let fill = if self.is_negative() { u64::MAX } else { 0 };
        let (limbs, bits) = ((s / 64) as usize, s % 64);
        let mut out = [fill; L];
        for (src, r) in (limbs..L).zip(out.iter_mut()) {
            let above = if src + 1 < L { self.0[src + 1] } else { fill };
            *r = self.0[src] >> bits;
            if bits > 0 {
                *r |= above << (64 - bits);
            }
        }
        Int(out)
    }
}

impl<const L: usize> integer_blossom::Weight for Int<L> {
    const ZERO: Self = Int([0; L]);
    const ONE: Self = Int::from_i128(1);
    fn inf() -> Self {
        let mut limbs = [u64::MAX; L];
        limbs[L - 1] = u64::MAX >> 3;
        Int(limbs)
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

impl<const L: usize> Digits for Int<L> {
    const BITS: u32 = 64 * L as u32 - 6;
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
        wide_arithmetic::<4>();
        wide_arithmetic::<16>();
        wide_arithmetic::<64>();
    }

    fn wide_arithmetic<const L: usize>() {
        use integer_blossom::Weight;
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
        let int = Int::<L>::from;
        for &a in &vals {
            assert_eq!(int(a).to_i128(), Some(a));
            for &b in &vals {
                assert_eq!((int(a) + int(b)).to_i128(), a.checked_add(b));
                assert_eq!((int(a) - int(b)).to_i128(), a.checked_sub(b));
                assert_eq!(int(a).cmp(&int(b)), a.cmp(&b));
                // Far above 128 bits, the order and the sums still hold.
                let t = 64 * L as u32 - 130;
                assert_eq!((int(a) << t).cmp(&(int(b) << t)), a.cmp(&b));
                assert_eq!(((int(a) << t) + (int(b) << t)) >> t, int(a) + int(b));
            }
            for s in [0u32, 1, 5, 63, 64, 65, 127] {
                assert_eq!((int(a) >> s).to_i128(), Some(a >> s));
            }
            for t in [1u32, 63, 64, 126, 64 * L as u32 - 130] {
                assert_eq!(((int(a) << t) >> t).to_i128(), Some(a));
                assert_eq!((int(a) << t).low(t), Int::default());
                assert_eq!(((int(a) << t) + int(1)).low(t), int(1));
            }
            assert_eq!(int(a).half().to_i128(), Some(a / 2));
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
            let wide: Vec<Int<4>> = m.iter().map(|&x| Int::from(x) << 180).collect();
            let total = |mate: &[Option<usize>]| value(&m, n, mate);
            assert_eq!(total(&max_weight(&wide, n)), total(&small));
        }
    }
}

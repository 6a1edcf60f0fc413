//! Article 4.3 for a homogeneous bracket, by the S1/S2 split itself: the
//! split as it stands, then the exchanges of one player each way and (in
//! small brackets) of two, in the article's order, each tried by fixing
//! S1 player by player against S2. A fallback when the generation order
//! cannot be settled choice by choice (see `handbook_order`).

use super::super::absolute::Engine;
use super::super::criteria::Weights;
use crate::pairing::matching;
use crate::pairing::matching::Digits;

impl Engine<'_> {
    /// A homogeneous bracket in the handbook's order: S1 = the first
    /// MaxPairs players, S2 the rest; first every transposition of S2 (S1
    /// player k takes the first S2 player in order that still allows a best
    /// pairing), then exchanges of one S1 and one S2 player, ordered by the
    /// smallest difference of their bracket sequence numbers, then the
    /// lowest S1 player, then the highest S2 player; then two pairs (small
    /// brackets only). `None` when the bracket is heterogeneous or needs
    /// more exchanges; the caller then falls back to sequential fixing.
    pub(in crate::pairing::swiss) fn by_exchanges(
        &self,
        w: &Weights,
    ) -> Option<Vec<Option<usize>>> {
        crate::with_width!(w.pairing_bits(), W => self.by_exchanges_in::<W>(w))
    }

    fn by_exchanges_in<W: Digits>(&self, w: &Weights) -> Option<Vec<Option<usize>>> {
        if w.movers != 0 || w.bracket.iter().any(|&i| self.seats[i].is_bye) {
            return None;
        }
        let k = w.bracket.len();
        let base = w.matrix::<W>(false, &[]);
        let opt = matching::max_weight(&base, k);
        let best = matching::value(&base, k, &opt);
        let pairs = opt.iter().filter(|m| m.is_some()).count() / 2;
        if pairs == 0 {
            return Some(vec![None; k]);
        }
        // Pairs S1 (sorted) against S2 (sorted) by sequential fixing, or
        // `None` if no best pairing keeps S1 against S2.
        let try_split = |in_s1: &[bool]| -> Option<Vec<Option<usize>>> {
            let mut m = base.clone();
            for a in 0..k {
                for b in a + 1..k {
                    if in_s1[a] == in_s1[b] {
                        m[a * k + b] = W::from(0);
                    }
                }
            }
            let mate = matching::max_weight(&m, k);
            if matching::value(&m, k, &mate) != best
                || (0..k).any(|a| in_s1[a] && mate[a].is_none())
            {
                return None;
            }
            let mut done = vec![false; k];
            for a in (0..k).filter(|&a| in_s1[a]) {
                let mut ok = false;
                for b in (0..k).filter(|&b| !in_s1[b] && !done[b]) {
                    if m[a.min(b) * k + a.max(b)] <= W::from(0) {
                        continue;
                    }
                    let mut trial = m.clone();
                    matching::pin(&mut trial, k, a, Some(b));
                    let mt = matching::max_weight(&trial, k);
                    if mt[a] == Some(b) && matching::value(&trial, k, &mt) == best {
                        m = trial;
                        done[a] = true;
                        done[b] = true;
                        ok = true;
                        break;
                    }
                }
                if !ok {
                    return None;
                }
            }
            let mate = matching::max_weight(&m, k);
            Some(mate)
        };
        let mut in_s1: Vec<bool> = (0..k).map(|a| a < pairs).collect();
        if let Some(r) = try_split(&in_s1) {
            return Some(r);
        }
        // One exchange.
        let mut singles: Vec<(usize, usize)> = (0..pairs)
            .flat_map(|i| (pairs..k).map(move |j| (i, j)))
            .collect();
        singles.sort_by_key(|&(i, j)| (j - i, std::cmp::Reverse(i), j));
        for &(i, j) in &singles {
            in_s1[i] = false;
            in_s1[j] = true;
            let r = try_split(&in_s1);
            in_s1[i] = true;
            in_s1[j] = false;
            if r.is_some() {
                return r;
            }
        }
        if k > 16 {
            return None;
        }
        // Two exchanges.
        let mut doubles = Vec::new();
        for i1 in 0..pairs {
            for i2 in i1 + 1..pairs {
                for j1 in pairs..k {
                    for j2 in j1 + 1..k {
                        doubles.push((j1 + j2 - i1 - i2, std::cmp::Reverse((i2, i1)), (j1, j2)));
                    }
                }
            }
        }
        doubles.sort();
        for (_, std::cmp::Reverse((i2, i1)), (j1, j2)) in doubles {
            for x in [i1, i2] {
                in_s1[x] = false;
            }
            for x in [j1, j2] {
                in_s1[x] = true;
            }
            let r = try_split(&in_s1);
            for x in [i1, i2] {
                in_s1[x] = true;
            }
            for x in [j1, j2] {
                in_s1[x] = false;
            }
            if r.is_some() {
                return r;
            }
        }
        None
    }
}

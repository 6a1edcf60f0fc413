//! Articles 3.1-3.3 and 4.2-4.4 over a [`Chooser`]: MaxPairs, M1, S1, S2
//! and Limbo; the MDP-pairing (which moved-down players go to S1, then
//! whom they meet); the remainder's exchange and transposition. Also the
//! variants that keep the players below pairable (C4) and weigh the
//! following bracket (C8).

use super::super::absolute::Engine;
use super::super::criteria::{bits_for, Weights};
use super::chooser::{order_digit_bits, Chooser};
use crate::pairing::matching::Digits;

impl Engine<'_> {
    /// The first best pairing of the bracket in the handbook's generation
    /// order (see [`Chooser`]); players at positions in `banned` float.
    /// `None` when the bracket holds the bye seat or the digits do not fit,
    /// and the caller falls back to sequential fixing.
    pub(in crate::pairing::swiss) fn in_handbook_order(
        &self,
        w: &Weights,
        banned: &[usize],
    ) -> Option<Vec<Option<usize>>> {
        self.handbook_core(w, banned, &[], None, None)
    }

    /// As [`Engine::in_handbook_order`], for a bracket that must leave the
    /// players below pairable (C4): the players `lower` join the matching
    /// with completeness above every criterion, and a bracket player paired
    /// with one of them is a downfloater. The choice is then the first
    /// candidate in the handbook's order among the best that allow
    /// completion.
    pub(in crate::pairing::swiss) fn in_handbook_order_completing(
        &self,
        w: &Weights,
        lower: &[usize],
    ) -> Option<Vec<Option<usize>>> {
        self.handbook_core(w, &[], lower, None, None)
    }

    /// C8 exactly: the bracket's pairing best by C6 and C7, then by the
    /// pairs and the downfloaters' scores of the next bracket (`next` = the next bracket's
    /// residents; `nw` weighs the bracket's players followed by them, the
    /// next bracket as it would be with every one of them moved down), then
    /// by the bracket's remaining criteria, first in the handbook's order.
    /// A bracket player paired with a next-bracket player is a downfloater.
    ///
    /// `further`, when given, holds everyone below the next bracket: the
    /// next bracket is then judged as C8 asks, by C1-C7 including
    /// completion (C4), so the whole matching must pair every player left
    /// (completeness above every criterion), and a player paired with one
    /// of `further` is a downfloater of the next bracket.
    pub(in crate::pairing::swiss) fn in_handbook_order_c7(
        &self,
        w: &Weights,
        next: &[usize],
        further: Option<&[usize]>,
        nw: &Weights,
    ) -> Option<Vec<Option<usize>>> {
        self.handbook_core(w, &[], next, Some(nw), further)
    }

    pub(in crate::pairing::swiss) fn handbook_core(
        &self,
        w: &Weights,
        banned: &[usize],
        lower: &[usize],
        c7: Option<&Weights>,
        further: Option<&[usize]>,
    ) -> Option<Vec<Option<usize>>> {
        let k = w.bracket.len();
        if k < 2 || w.bracket.iter().any(|&i| self.seats[i].is_bye) {
            return None;
        }
        let complete_c8 = c7.is_some() && further.is_some();
        let further = further.unwrap_or(&[]);
        let n = k + lower.len() + further.len();
        // With C8, the next bracket's C6 and C7 digits sit between this
        // bracket's C7 and its later criteria.
        let lo_bits = w.shift_scores - w.shift_quality;
        let nb_bits = c7.map_or(0, |nw| nw.bits - nw.shift_scores + 1);
        let q_bits = w.bits.saturating_sub(w.shift_quality) + 1 + nb_bits;
        let big_bits = if complete_c8 || !(lower.is_empty() || c7.is_some()) {
            bits_for(n as i128 + 1) + 1
        } else {
            0
        };
        let k_bits = bits_for(n as i128 + 1);
        // Each pair's criteria (completeness and, with C8, the next
        // bracket's digits included), the order digits below them and the
        // hint make the matching's weight: an `i128` when everything fits
        // one, an [`Int`](matching::Int) as wide as they need otherwise.
        let order = order_digit_bits(k, n);
        let bits = q_bits + big_bits + k_bits + order.iter().sum::<u32>();
        // Completeness sits above the criteria of the bracket.
        let big_shift = (big_bits > 0).then_some(q_bits + k_bits);
        // The weights are built whole before their order digit is shifted
        // off: the type must hold `w.bits` too.
        let width = bits.max(w.bits + 1).max(c7.map_or(0, |nw| nw.bits + 1));
        crate::with_width!(width, W => {
            self.handbook_in::<W>(w, banned, lower, c7, further, [lo_bits, nb_bits], big_shift, order)
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn handbook_in<W: Digits>(
        &self,
        w: &Weights,
        banned: &[usize],
        lower: &[usize],
        c7: Option<&Weights>,
        further: &[usize],
        [lo_bits, nb_bits]: [u32; 2],
        big_shift: Option<u32>,
        order: [u32; 4],
    ) -> Option<Vec<Option<usize>>> {
        let k = w.bracket.len();
        let near = k + lower.len();
        let n = near + further.len();
        let big = big_shift.map_or(W::ZERO, |s| W::from(1) << s);
        let seat = |v: usize| {
            if v < k {
                w.bracket[v]
            } else if v < near {
                lower[v - k]
            } else {
                further[v - near]
            }
        };
        let mut quality = vec![W::ZERO; n * n];
        for a in 0..n {
            for b in a + 1..n {
                if banned.contains(&a) || banned.contains(&b) {
                    continue;
                }
                if let Some(nw) = c7 {
                    let df = |v: usize| nw.cost::<W>(self.seats[seat(v)].score);
                    if b >= near {
                        // Below the next bracket only completeness counts.
                        if self.compatible(seat(a), seat(b)) {
                            quality[a * n + b] = big;
                        }
                    } else if b < k {
                        if let Some(x) = w.quality::<W>(a, b) {
                            let x = x >> w.shift_quality;
                            let hi = x >> lo_bits;
                            let lo = x.low(lo_bits);
                            // Paired here, neither is in the next bracket.
                            let nb = df(a) + df(b);
                            quality[a * n + b] =
                                big + (((hi << nb_bits) + nb) << lo_bits) + lo + W::ONE;
                        }
                    } else if let Some(x) = nw.quality::<W>(a, b) {
                        quality[a * n + b] = big + ((x >> nw.shift_scores) << lo_bits);
                    }
                } else if b < k {
                    if let Some(x) = w.quality::<W>(a, b) {
                        // Criteria digits only, plus one so that every
                        // allowed pair has a positive weight.
                        quality[a * n + b] = big + (x >> w.shift_quality) + W::ONE;
                    }
                } else if self.compatible(seat(a), seat(b)) {
                    quality[a * n + b] = big;
                }
            }
        }
        self.order_from(w, n, quality, order)
    }

    /// The first pairing in the handbook's order among the best by
    /// `quality` (per pair of the `n` players, the bracket's `k` first;
    /// zero = may not meet), the generation order's own digits of widths
    /// `[f, x, d, h]` stacked below it (see [`Chooser`]). A bracket player
    /// paired with one of the others is a downfloater.
    pub(in crate::pairing::swiss) fn order_from<W: Digits>(
        &self,
        w: &Weights,
        n: usize,
        quality: Vec<W>,
        [f_bits, x_bits, d_bits, h_bits]: [u32; 4],
    ) -> Option<Vec<Option<usize>>> {
        let k = w.bracket.len();
        let mut c = Chooser {
            k: n,
            quality,
            allowed: vec![true; n * n],
            forced: vec![false; n],
            digits: vec![(0, 0); n * n],
            f_bits,
            x_bits,
            d_bits,
            hint: vec![0; n * n],
            h_bits,
            cur: vec![None; n],
            target: W::ZERO,
            solver: None,
        };
        c.settle();
        if w.movers > 0 && !c.pair_moved_down(k, w.movers) {
            return None;
        }
        if !c.pair_remainder(k, w.movers) {
            return None;
        }
        Some(c.cur[..k].iter().map(|m| m.filter(|&b| b < k)).collect())
    }
}

impl<W: Digits> Chooser<W> {
    /// The MDP-pairing of a bracket's first `k` players, the first
    /// `movers` of them moved down: which go to S1 (Article 4.4), then whom
    /// they meet (4.2). Returns whether a best pairing allowed it.
    fn pair_moved_down(&mut self, k: usize, movers: usize) -> bool {
        let n = self.k;
        // Article 4.4: S1 holds the first M1 moved-down players, Limbo
        // the others. Fewest exchanged = fewest Limbo players paired;
        // smallest sum difference = smallest BSN sum of those paired.
        let m1 = (0..movers)
            .filter(|&a| self.cur[a].is_some_and(|b| b < k))
            .count();
        for a in 0..k {
            for b in a + 1..k {
                let limbo = |v: usize| (v < movers && v >= m1) as i128;
                let bsn = |v: usize| if v < movers { (k - v) as i128 } else { 0 };
                self.digits[a * n + b] = (2 - limbo(a) - limbo(b), bsn(a) + bsn(b));
                if a < movers && b >= movers {
                    self.hint[a * n + b] = ((k - a) * (k - b)) as i128;
                }
            }
        }
        self.settle();
        // As many players change sides as Limbo players are paired.
        let ex = (m1..movers)
            .filter(|&a| self.cur[a].is_some_and(|b| b < k))
            .count();
        // Highest different BSN moved from S1 to Limbo first.
        let mut out = 0;
        for a in (0..m1).rev() {
            if out == ex {
                break;
            }
            out += usize::from(self.choose(a, &|y| y >= k, false));
        }
        // Then the lowest different BSN moved from Limbo to S1.
        let mut into = 0;
        for a in m1..movers {
            if into == ex {
                break;
            }
            into += usize::from(self.choose(a, &|y| y < k, true));
        }
        // Article 4.2 on the MDP-pairing: S1 against S2 (the residents)
        // in lexicographic order; pairs of moved-down players last.
        let s1: Vec<usize> = (0..movers)
            .filter(|&a| self.cur[a].is_some_and(|b| b < k))
            .collect();
        let mut s2: Vec<usize> = (movers..k).collect();
        s2.extend(0..movers);
        self.transpose(&s1, &s2)
    }

    /// The remainder (the residents the MDP-pairing left, or the whole
    /// homogeneous bracket): the exchange between S1 and S2 (Article 4.3),
    /// then the transposition (4.2). Returns whether a best pairing
    /// allowed it.
    fn pair_remainder(&mut self, k: usize, movers: usize) -> bool {
        let n = self.k;
        // The remainder (or the whole homogeneous bracket), Article 4.3.
        let rem: Vec<usize> = (movers..k)
            .filter(|&a| self.cur[a].is_none_or(|b| b >= movers))
            .collect();
        let r = rem.len();
        let mut rank = vec![usize::MAX; n];
        for (i, &a) in rem.iter().enumerate() {
            rank[a] = i;
        }
        let n1 = rem
            .iter()
            .filter(|&&a| self.cur[a].is_some_and(|b| rank[b] != usize::MAX))
            .count()
            / 2;
        for a in 0..k {
            for b in a + 1..k {
                self.hint[a * n + b] = 0;
                self.digits[a * n + b] = if rank[a] == usize::MAX || rank[b] == usize::MAX {
                    (0, 0)
                } else {
                    let (ra, rb) = (rank[a], rank[b]);
                    if ra < n1 && rb >= n1 {
                        self.hint[a * n + b] = ((r - ra) * (r - rb)) as i128;
                    }
                    let both_s2 = ra >= n1 && rb >= n1;
                    (1 - both_s2 as i128, (r - ra.min(rb)) as i128)
                };
            }
        }
        self.settle();
        // As many players change sides as there are pairs inside S2.
        let ex = rem
            .iter()
            .filter(|&&a| {
                rank[a] >= n1 && self.cur[a].is_some_and(|b| b > a && rank[b] != usize::MAX)
            })
            .count();
        let in_rem = |v: usize| rank[v] != usize::MAX;
        let mut moved = vec![false; k];
        // Highest different BSN moved from S1 to S2: unpaired, or paired
        // with a higher S1 player.
        let mut out = 0;
        for &a in rem[..n1].iter().rev() {
            if out == ex {
                break;
            }
            let ra = rank[a];
            if self.choose(a, &|y| y >= k || (in_rem(y) && rank[y] < ra), false) {
                moved[a] = true;
                out += 1;
            }
        }
        // Lowest different BSN moved from S2 to S1: paired with a lower S2
        // player.
        let mut into = 0;
        for &a in &rem[n1..] {
            if into == ex {
                break;
            }
            let ra = rank[a];
            if self.choose(a, &|y| in_rem(y) && rank[y] > ra && rank[y] >= n1, true) {
                moved[a] = true;
                into += 1;
            }
        }
        let s1: Vec<usize> = rem
            .iter()
            .copied()
            .filter(|&a| (rank[a] < n1) != moved[a])
            .collect();
        let s2: Vec<usize> = rem
            .iter()
            .copied()
            .filter(|&a| (rank[a] < n1) == moved[a])
            .collect();
        self.transpose(&s1, &s2)
    }
}

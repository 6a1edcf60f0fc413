//! Sequential fixing in Dutch order: going down the bracket, each player
//! takes the first partner (S2 in order, then S1 from the bottom up) with
//! which a best pairing still exists. The last fallback, for brackets whose
//! generation order cannot be settled choice by choice.

use super::super::absolute::Engine;
use super::super::criteria::Weights;
use crate::pairing::matching;
use crate::pairing::matching::Digits;

impl Engine<'_> {
    /// Among the pairings of a bracket that are best by every criterion,
    /// the one the handbook's S1/S2 procedure meets first: going down the
    /// bracket, each player not yet paired takes the first partner in Dutch
    /// order with which a best pairing still exists. An S1 player tries S2
    /// in order (transpositions), then S1 from the bottom up (exchanges), and
    /// floats only as a last resort; the one player the S1/S2 split leaves
    /// over floats first.
    pub(in crate::pairing::swiss) fn in_dutch_order(
        &self,
        w: &Weights,
        banned: &[usize],
    ) -> Option<Vec<Option<usize>>> {
        crate::with_width!(w.pairing_bits(), W => self.in_dutch_order_in::<W>(w, banned))
    }

    fn in_dutch_order_in<W: Digits>(
        &self,
        w: &Weights,
        banned: &[usize],
    ) -> Option<Vec<Option<usize>>> {
        let k = w.bracket.len();
        let base = w.matrix::<W>(false, banned);
        let best = matching::value(&base, k, &matching::max_weight(&base, k));
        // S1/S2 halves as the ideal pairing defines them.
        let s1: Vec<bool> = (0..k).map(|a| w.ideal[a].is_some_and(|b| b > a)).collect();
        let mut fixed: Vec<Option<Option<usize>>> = vec![None; k];
        for &b in banned {
            fixed[b] = Some(None);
        }
        let mut m = base.clone();
        for a in 0..k {
            if fixed[a].is_some() {
                continue;
            }
            let free = |b: usize| {
                b != a && fixed[b].is_none() && base[a.min(b) * k + a.max(b)] > W::from(0)
            };
            let later: Vec<usize> = (a + 1..k).filter(|&b| free(b)).collect();
            let mut order: Vec<usize> = if a < w.movers {
                // Moved-down players meet the residents in order first.
                later.iter().copied().filter(|&b| b >= w.movers).collect()
            } else if s1[a] {
                // Transpositions (S2 in order), then exchanges (S1 from the
                // bottom up).
                let mut o: Vec<usize> = later.iter().copied().filter(|&b| !s1[b]).collect();
                o.extend(later.iter().rev().copied().filter(|&b| s1[b]));
                o
            } else {
                Vec::new()
            };
            for &b in &later {
                if !order.contains(&b) {
                    order.push(b);
                }
            }
            let mut options: Vec<Option<usize>> = order.into_iter().map(Some).collect();
            if w.ideal[a].is_none() {
                options.insert(0, None);
            } else {
                options.push(None);
            }
            let mut chosen = None;
            for opt in options {
                let mut trial = m.clone();
                matching::pin(&mut trial, k, a, opt);
                let mate = matching::max_weight(&trial, k);
                if mate[a] == opt && matching::value(&trial, k, &mate) == best {
                    chosen = Some((opt, trial));
                    break;
                }
            }
            let (opt, trial) = chosen?;
            fixed[a] = Some(opt);
            if let Some(b) = opt {
                fixed[b] = Some(Some(a));
            }
            m = trial;
        }
        Some(fixed.into_iter().map(|f| f.flatten()).collect())
    }
}

//! Article 3.8 among equals: the first candidate generated among the best,
//! settled choice by choice on one maximum-weight matching that is kept
//! (with its duals) between choices.

use super::super::criteria::bits_for;
use crate::pairing::matching::warm::Blossom;
use crate::pairing::matching::Digits;

/// The handbook's candidate order inside one bracket, decided by asking a
/// maximum-weight matching whether a best pairing survives each choice.
///
/// Every candidate the handbook generates is one pairing, and among the
/// candidates best by the quality criteria the handbook takes the one
/// generated first (C.04.3, pairing process for a bracket: when no candidate
/// meets every criterion, the first that best satisfies them). Generation
/// order is lexicographic in a chain of choices
/// (Articles 4.2-4.4): which moved-down players are paired (exchanges
/// between S1 and Limbo), whom they meet (transpositions of S2), then, in the
/// remainder, the exchange between S1 and S2 and the transposition. Each
/// choice is fixed in turn to the first value that still leaves a best
/// pairing, so the result is exactly the first best candidate.
///
/// An exchange is ranked (Article 4.3.3) by the number of players exchanged,
/// then the difference of the BSN sums moved S2 to S1 and S1 to S2, then the
/// highest different BSN moved from S1 to S2, then the lowest different BSN
/// moved from S2 to S1. With MaxPairs pairs, the number exchanged equals the
/// number of pairs with both players in S2, and the sum difference equals the
/// sum over pairs of the smaller BSN less a constant, so both are additive
/// over pairs and sit in the matching weights as two digits below the
/// criteria; the last two keys are settled player by player.
pub(in crate::pairing::swiss) struct Chooser<W: Digits> {
    pub(super) k: usize,
    /// Criteria value of each pair (0 = may not meet).
    pub(super) quality: Vec<W>,
    /// Pairs still allowed by the choices made so far.
    pub(super) allowed: Vec<bool>,
    /// Players a choice has made to be paired.
    pub(super) forced: Vec<bool>,
    /// Exchange digits of the current stage, per pair: (fewest exchanged,
    /// smallest BSN sum difference), both to be maximised.
    pub(super) digits: Vec<(i128, i128)>,
    pub(super) f_bits: u32,
    pub(super) x_bits: u32,
    pub(super) d_bits: u32,
    /// A hint below everything, per pair: how close the pair is to the
    /// ideal S1/S2 pairing. It only makes the first guess likely right, so
    /// that most choices need no new matching; values are compared above it.
    pub(super) hint: Vec<i128>,
    pub(super) h_bits: u32,
    /// A best pairing under the choices so far, and its value.
    pub(super) cur: Vec<Option<usize>>,
    pub(super) target: W,
    /// The matching behind `cur`, kept with its duals between choices.
    pub(super) solver: Option<Blossom<W>>,
}

/// The widths of the digits a [`Chooser`] stacks below the criteria of a
/// bracket of `k` players matched among `n`: forced choices, players
/// exchanged, the BSN sum difference and the hint.
pub(in crate::pairing::swiss) fn order_digit_bits(k: usize, n: usize) -> [u32; 4] {
    [
        bits_for(n as i128 + 1),
        bits_for(2 * n as i128 + 2),
        bits_for(2 * (k * n) as i128 + 2),
        bits_for((k * k * k) as i128 + 1),
    ]
}

impl<W: Digits> Chooser<W> {
    pub(super) fn weight(&self, a: usize, b: usize, extra: Option<usize>) -> W {
        let k = self.k;
        let (a, b) = (a.min(b), a.max(b));
        let q = self.quality[a * k + b];
        if q <= W::ZERO || !self.allowed[a * k + b] {
            return W::ZERO;
        }
        let f = |v: usize| (self.forced[v] || extra == Some(v)) as i128;
        let (x, d) = self.digits[a * k + b];
        let v = ((((((q) << self.f_bits) + W::from(f(a) + f(b))) << self.x_bits) + W::from(x))
            << self.d_bits)
            + W::from(d);
        (v << self.h_bits) + W::from(self.hint[a * k + b])
    }

    pub(super) fn unit_forced(&self) -> W {
        W::from(1) << (self.x_bits + self.d_bits + self.h_bits)
    }

    /// Recomputes the best pairing after the digits changed: the one
    /// matching solved from nothing; every choice after it changes this
    /// one ([`Blossom`]).
    pub(super) fn settle(&mut self) {
        let k = self.k;
        let mut m = vec![W::ZERO; k * k];
        for a in 0..k {
            for b in a + 1..k {
                m[a * k + b] = self.weight(a, b, None);
            }
        }
        let solver = Blossom::new(m, k);
        self.target = solver.value();
        self.cur = solver.mate();
        self.solver = Some(solver);
    }

    /// Makes the choice "`a`'s partner is in `ok` (or none, unless
    /// `paired`)" if a best pairing allows it; returns whether it did.
    ///
    /// The kept matching is restricted in place (`a`'s other pairs
    /// removed, and, when the choice pairs `a`, every pair of `a` raised by
    /// one forced choice) and re-optimised; the choice stands when the
    /// value above the hint is what it was, plus that forced choice.
    /// Otherwise the matching is rolled back.
    pub(super) fn choose(&mut self, a: usize, ok: &dyn Fn(usize) -> bool, paired: bool) -> bool {
        let holds = match self.cur[a] {
            Some(b) => ok(b),
            None => !paired,
        };
        let extra = paired && !self.forced[a];
        let unit = self.unit_forced();
        let need =
            (self.target >> self.h_bits) + (W::from(extra as i128) << (self.x_bits + self.d_bits));
        let solver = self.solver.as_mut().expect("settled before choosing");
        if !holds {
            solver.mark();
            solver.set_floor(need << self.h_bits);
        }
        solver.restrict(a, ok);
        if extra {
            solver.raise(a, unit);
        }
        solver.reoptimise();
        if !holds && (solver.below_floor() || solver.value() >> self.h_bits != need) {
            solver.rollback();
            return false;
        }
        if !holds {
            solver.commit();
        }
        self.cur = solver.mate();
        self.target = solver.value();
        let k = self.k;
        for b in 0..k {
            if b != a && !ok(b) {
                self.allowed[a.min(b) * k + a.max(b)] = false;
            }
        }
        if extra {
            self.forced[a] = true;
        }
        true
    }

    /// Transpositions (Article 4.2): each of `s1` in order takes the first
    /// of `s2` in order with which a best pairing remains. Returns whether
    /// every one of `s1` found a partner.
    pub(super) fn transpose(&mut self, s1: &[usize], s2: &[usize]) -> bool {
        for &a in s1 {
            let mut done = false;
            for &b in s2 {
                let k = self.k;
                if b == a
                    || self.quality[a.min(b) * k + a.max(b)] <= W::ZERO
                    || !self.allowed[a.min(b) * k + a.max(b)]
                {
                    continue;
                }
                if self.choose(a, &|y| y == b, true) {
                    self.choose(b, &|y| y == a, true);
                    done = true;
                    break;
                }
            }
            if !done {
                return false;
            }
        }
        true
    }
}

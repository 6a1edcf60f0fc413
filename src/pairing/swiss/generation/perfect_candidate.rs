//! Article 3.4: a bracket that has a perfect candidate takes the first one
//! in the handbook's order at once, found by matching tests alone (no
//! weights), at any size. Most brackets of a real tournament end here.

use std::cell::{Cell, RefCell};

use super::super::absolute::Engine;
use super::super::criteria::Weights;
use super::transpositions::first_perfect_transposition;
use crate::pairing::explain::FloatDirection;
use crate::pairing::matching;

/// How many exchanges of one player each way the perfect-candidate search
/// tries before leaving the bracket to the general search.
const EXCHANGES_TRIED: usize = 64;

impl Engine<'_> {
    /// Article 3.4 for a bracket of any size whose moved-down players are
    /// no more than its residents. A candidate is perfect when it pairs
    /// everyone (or, in an odd bracket, all but one resident) with neither
    /// a rematch nor a forbidden pair nor (under `gar`, rounds 1-3) two
    /// club-mates, no MDP meets a resident who floated up in one of the
    /// last two rounds, and the floater, if any, did not float down in the
    /// last two rounds, leaves the following bracket at its best (C8)
    /// with everyone below pairable (C4), and, when it gets the bye, has
    /// as few unplayed games as any resident (C9). It meets every
    /// criterion: C6 most pairs; C7 the lowest downfloater; C8 and C9 as
    /// said; C14-C17 count nobody, and C18-C21 have nothing to weigh. Under
    /// `gar` this is the bracket's own best; what its floater does to
    /// club-mates further down is weighed over the round afterwards
    /// ([`Engine::keep_mates_apart`]). In an odd bracket where no ideal
    /// floater leaves a perfect pairing of the others, the floater's own
    /// criteria (C9, C14, C16) may be the best reachable instead of ideal
    /// when nothing ranked below them can be traded: no MDPs, or no
    /// resident who floated up lately. The first perfect candidate in the handbook's order is
    /// then the pairing:
    ///
    /// - the MDP-pairing (Article 4.4; with every MDP pairable, S1 holds
    ///   them all and Limbo is empty): MDP by MDP, the first resident in
    ///   order that leaves a perfect pairing of the others (a matching
    ///   test over the rest), as transpositions of S2 come in
    ///   lexicographic order (4.2);
    /// - the remainder as a homogeneous bracket: S1 (its first half) keeps
    ///   its players as long as some transposition of S2 is perfect, and
    ///   S1 player by player takes the first S2 player that leaves a
    ///   perfect pairing of the rest, kept as a bipartite matching and
    ///   repaired by one augmenting path per choice; failing that, the
    ///   exchanges of one player each way in the order of Article 4.3.
    ///
    /// `None` when the bracket is not of this kind, has no perfect
    /// candidate, or its first perfect candidate could not be found among
    /// the first [`EXCHANGES_TRIED`] single exchanges.
    pub(in crate::pairing::swiss) fn first_perfect_candidate(
        &self,
        w: &Weights,
        lower: &[usize],
    ) -> Option<Vec<Option<usize>>> {
        let k = w.bracket.len();
        let odd = k % 2 == 1;
        if k < 2 || 2 * w.movers > k || (odd && lower.is_empty()) {
            return None;
        }
        if w.bracket.iter().any(|&i| self.seats[i].is_bye) {
            return None;
        }
        let search = PerfectSearch::new(self, w, lower);
        if let Some(found) = search.first() {
            return Some(found);
        }
        if search.unsettled.get() {
            return None;
        }
        let level = search.best_reachable_level()?;
        // The ideal is reachable: the search above stopped at its own
        // limits (the exchanges it tries); the general search takes over.
        if level == search.target.get() {
            return None;
        }
        search.target.set(level);
        search.first()
    }

    /// C8 and completion for a player `f` floating out of a bracket into
    /// the players `lower` below: whether the following bracket is then at
    /// its best by C1-C7 (as many pairs as its size allows, and when odd a
    /// downfloater of its own residents' score) with everyone further below
    /// still pairable; with no following bracket, whether `f` and the rest
    /// can be paired. `None` when that takes more tries than are worth
    /// making here.
    fn floats_perfectly(&self, f: usize, lower: &[usize]) -> Option<bool> {
        let first = lower.first()?;
        let score = self.seats[*first].score;
        let next_len = lower
            .iter()
            .take_while(|&&i| self.seats[i].score == score && !self.seats[i].is_bye)
            .count();
        let mut with_f = vec![f];
        if next_len == 0 {
            with_f.extend_from_slice(lower);
            return Some(self.pairable(&with_f));
        }
        let (next, further) = lower.split_at(next_len);
        with_f.extend_from_slice(next);
        if with_f.len() % 2 == 0 {
            return Some(self.pairable(&with_f) && self.pairable(further));
        }
        // One resident of the next bracket floats on: any will do.
        for (tries, &r) in next.iter().rev().enumerate() {
            if tries == 8 {
                return None;
            }
            let nb: Vec<usize> = with_f.iter().copied().filter(|&x| x != r).collect();
            if !self.pairable(&nb) {
                continue;
            }
            let mut rest = vec![r];
            rest.extend_from_slice(further);
            if self.pairable(&rest) {
                return Some(true);
            }
        }
        Some(false)
    }

    /// An even homogeneous bracket whose S1/S2 pairing breaks nothing needs
    /// no search: it is the first candidate and a perfect one. (An odd one
    /// has a floater, whose effect on the following bracket (C8) is for
    /// [`Engine::first_perfect_candidate`] to judge.)
    pub(in crate::pairing::swiss) fn ideal_is_best(
        &self,
        w: &Weights,
    ) -> Option<Vec<Option<usize>>> {
        if w.movers != 0 || w.c9.is_some() || w.ideal.iter().any(Option::is_none) {
            return None;
        }
        for (a, partner) in w.ideal.iter().enumerate() {
            let (i, j) = (w.bracket[a], w.bracket[(*partner)?]);
            let (p, q) = (&self.seats[i], &self.seats[j]);
            if !self.compatible(i, j)
                || (w.shift_gar.is_some()
                    && self.avoid.prefers_apart(p.id, q.id, self.round).is_some())
            {
                return None;
            }
        }
        Some(w.ideal.clone())
    }
}

/// What the floater of an odd bracket weighs itself, in the handbook's
/// order: C9 (its unplayed games, when it gets the bye), then C14 and C16
/// (a downfloat one and two rounds before; with them C18 and C20).
type FloaterLevel = (u32, bool, bool);

/// In an odd remainder the S2 player left over floats: a last S1 place
/// that only a player allowed to float may take, chosen after every real
/// one (the floater is the last of the transposition).
const FLOATS: usize = usize::MAX;

/// One bracket's search for its first perfect candidate
/// ([`Engine::first_perfect_candidate`]): which pairs may meet, which
/// resident may float, the MDP-pairing and the remainder.
struct PerfectSearch<'s, 'e, 'a> {
    engine: &'e Engine<'a>,
    w: &'s Weights<'e, 'a>,
    lower: &'s [usize],
    k: usize,
    movers: usize,
    odd: bool,
    gar: bool,
    /// The level the floater's own criteria must be at: at first their
    /// ideal (the fewest unplayed games, no recent downfloat).
    target: Cell<FloaterLevel>,
    /// C8 and completion per resident position floating, once asked.
    memo: RefCell<Vec<Option<bool>>>,
    /// Set once a question could not be settled: the search is then given
    /// up.
    unsettled: Cell<bool>,
}

impl<'s, 'e, 'a> PerfectSearch<'s, 'e, 'a> {
    fn new(engine: &'e Engine<'a>, w: &'s Weights<'e, 'a>, lower: &'s [usize]) -> Self {
        let k = w.bracket.len();
        let search = PerfectSearch {
            engine,
            w,
            lower,
            k,
            movers: w.movers,
            odd: k % 2 == 1,
            gar: w.shift_gar.is_some(),
            target: Cell::new((0, false, false)),
            memo: RefCell::new(vec![None; k]),
            unsettled: Cell::new(false),
        };
        // Every best candidate floats a resident (C7), so the fewest
        // unplayed games any resident has is what a perfect candidate must
        // reach.
        let c9_least = (search.movers..k)
            .map(|b| search.c9_credit(b))
            .min()
            .unwrap_or(0);
        search.target.set((c9_least, false, false));
        search
    }

    /// C9: when the one who floats here gets the bye, its unplayed games
    /// count (a player who may not take the bye counts none, as in the
    /// weights).
    fn c9_credit(&self, b: usize) -> u32 {
        let s = &self.engine.seats[self.w.bracket[b]];
        match self.w.c9 {
            Some((_, bye)) if s.score == bye && !s.bye_used => s.unplayed,
            _ => 0,
        }
    }

    /// What resident position `b` would weigh floating.
    fn own(&self, b: usize) -> FloaterLevel {
        let s = &self.engine.seats[self.w.bracket[b]];
        (
            self.c9_credit(b),
            s.float1 == Some(FloatDirection::Down),
            s.float2 == Some(FloatDirection::Down),
        )
    }

    /// C8 and completion for resident position `b` floating: the
    /// following bracket at its best with it.
    fn floats_well(&self, b: usize) -> bool {
        if let Some(v) = self.memo.borrow()[b] {
            return v;
        }
        let v = match self.engine.floats_perfectly(self.w.bracket[b], self.lower) {
            Some(v) => v,
            None => {
                self.unsettled.set(true);
                false
            }
        };
        self.memo.borrow_mut()[b] = Some(v);
        v
    }

    /// Whether resident position `b` may be the one that floats.
    fn floater_ok(&self, b: usize) -> bool {
        self.own(b) == self.target.get() && self.floats_well(b)
    }

    /// Whether positions `x` and `y` may meet in a perfect candidate.
    fn good(&self, x: usize, y: usize) -> bool {
        let (x, y) = (x.min(y), x.max(y));
        if y < self.movers {
            return false;
        }
        let engine = self.engine;
        let (i, j) = (self.w.bracket[x], self.w.bracket[y]);
        if !engine.compatible(i, j) {
            return false;
        }
        if self.gar
            && engine
                .avoid
                .prefers_apart(engine.seats[i].id, engine.seats[j].id, engine.round)
                .is_some()
        {
            return false;
        }
        // C15 / C17: an MDP's opponent should not repeat an upfloat.
        x >= self.movers
            || (engine.seats[j].float1 != Some(FloatDirection::Up)
                && engine.seats[j].float2 != Some(FloatDirection::Up))
    }

    /// The first candidate in the handbook's order with the floater at
    /// `target`: the MDP-pairing, then the remainder.
    fn first(&self) -> Option<Vec<Option<usize>>> {
        let mut taken = vec![false; self.k];
        let mut out = vec![None; self.k];
        if self.movers > 0 {
            self.pair_moved_down(&mut taken, &mut out)?;
        }
        let pairs = self.pair_remainder(&taken);
        if self.unsettled.get() {
            return None;
        }
        for (a, b) in pairs? {
            if a != FLOATS {
                out[a] = Some(b);
                out[b] = Some(a);
            }
        }
        Some(out)
    }

    /// Whether the players not taken have a perfect pairing; in an odd
    /// bracket, one of the residents left floating (a stand-in for
    /// "floats" joins the matching, meeting only those allowed).
    fn perfect_rest(&self, taken: &[bool]) -> bool {
        let mut rest: Vec<usize> = (0..self.k).filter(|&x| !taken[x]).collect();
        if self.odd {
            rest.push(usize::MAX);
        }
        matching::has_perfect_matching(rest.len(), &|p, q| {
            let (x, y) = (rest[p].min(rest[q]), rest[p].max(rest[q]));
            if y == usize::MAX {
                x >= self.movers && self.floater_ok(x)
            } else {
                self.good(x, y)
            }
        })
    }

    /// The MDP-pairing (Article 4.4; with every MDP pairable, S1 holds
    /// them all and Limbo is empty): MDP by MDP, the first resident in
    /// order that leaves a perfect pairing of the others, as
    /// transpositions of S2 come in lexicographic order (4.2). `None` when
    /// there is none.
    fn pair_moved_down(&self, taken: &mut [bool], out: &mut [Option<usize>]) -> Option<()> {
        if !self.perfect_rest(taken) || self.unsettled.get() {
            return None;
        }
        for m in 0..self.movers {
            taken[m] = true;
            let mut done = false;
            for r in self.movers..self.k {
                if taken[r] || !self.good(m, r) {
                    continue;
                }
                taken[r] = true;
                if self.perfect_rest(taken) {
                    out[m] = Some(r);
                    out[r] = Some(m);
                    done = true;
                    break;
                }
                taken[r] = false;
            }
            if !done || self.unsettled.get() {
                return None;
            }
        }
        Some(())
    }

    /// The remainder as a homogeneous bracket: the first perfect
    /// transposition of S2 against S1 (its first half), else the same after
    /// the exchanges of one player each way in the order of Article 4.3
    /// (smallest difference of the BSNs exchanged, then the highest BSN
    /// moved from S1, then the lowest from S2), the first
    /// [`EXCHANGES_TRIED`] of them.
    fn pair_remainder(&self, taken: &[bool]) -> Option<Vec<(usize, usize)>> {
        let rem: Vec<usize> = (self.movers..self.k).filter(|&x| !taken[x]).collect();
        let r = rem.len();
        let h = r / 2;
        let mut pairs = self.transposed(rem[..h].to_vec(), &rem[h..]);
        let mut tried = 0;
        'exchanges: for d in 1..r {
            for i in (h.saturating_sub(d)..h.min(r - d)).rev() {
                if pairs.is_some() || self.unsettled.get() {
                    break 'exchanges;
                }
                if tried == EXCHANGES_TRIED {
                    return None;
                }
                tried += 1;
                let j = i + d;
                let mut s1: Vec<usize> =
                    rem[..h].iter().copied().filter(|&x| x != rem[i]).collect();
                s1.push(rem[j]);
                let mut s2: Vec<usize> =
                    rem[h..].iter().copied().filter(|&x| x != rem[j]).collect();
                s2.push(rem[i]);
                s2.sort_unstable();
                pairs = self.transposed(s1, &s2);
            }
        }
        pairs
    }

    /// The first perfect transposition of `s2` against `s1` (in an odd
    /// bracket with the floater's place last in S1).
    fn transposed(&self, s1: Vec<usize>, s2: &[usize]) -> Option<Vec<(usize, usize)>> {
        let mut s1 = s1;
        if self.odd {
            s1.push(FLOATS);
        }
        first_perfect_transposition(&s1, s2, &|a, b| {
            if a == FLOATS {
                self.floater_ok(b)
            } else {
                self.good(a, b)
            }
        })
    }

    /// In an odd bracket the floater's own criteria rank below C8 and the
    /// club-mates, and above C15-C21, which are all that the rest of a
    /// candidate pairing everyone else perfectly could still trade. Those
    /// count nothing when no resident floated up in the last two rounds
    /// (C15, C17, C19, C21) and every MDP is paired (C18, C20 then weigh
    /// the floater alone). Then, when no floater is ideal, the best
    /// candidate floats one whose own criteria are the best that leave a
    /// perfect pairing of the others: that level, or `None` when the
    /// bracket is not of this kind or has none.
    fn best_reachable_level(&self) -> Option<FloaterLevel> {
        let (k, movers) = (self.k, self.movers);
        let no_upfloats = (movers..k).all(|b| {
            let s = &self.engine.seats[self.w.bracket[b]];
            s.float1 != Some(FloatDirection::Up) && s.float2 != Some(FloatDirection::Up)
        });
        if !self.odd || !(movers == 0 || no_upfloats) {
            return None;
        }
        let mut levels: Vec<FloaterLevel> = (movers..k).map(|b| self.own(b)).collect();
        levels.sort_unstable();
        levels.dedup();
        let reachable = levels.into_iter().find(|&level| {
            matching::has_perfect_matching(k + 1, &|p, q| {
                let (x, y) = (p.min(q), p.max(q));
                if y == k {
                    self.own(x) == level && self.floats_well(x)
                } else {
                    self.good(x, y)
                }
            })
        });
        if self.unsettled.get() {
            return None;
        }
        reachable
    }
}

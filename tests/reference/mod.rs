//! A deliberately plain reading of the FIDE Dutch system (Handbook C.04.3,
//! in force from 1 July 2025) with the colour rules removed, for small
//! fields only. Nothing here is fast: every bracket enumerates its
//! candidates in the handbook's order and keeps the first one that no later
//! candidate beats on the criteria, most important first.
//!
//! Readings chosen where the text leaves room:
//!
//! - Floats (1.4): a player who met an opponent with a different score
//!   floated down (higher score) or up; a player who scored more than a
//!   loss without playing (allocated bye, forfeit win, half-point bye)
//!   floated down; a forfeit loss or a zero-point absence is no float.
//! - C2: a player who already had the allocated bye, or already scored a
//!   win without playing (a forfeit win), does not get the bye.
//! - MaxPairs and M1 only fix the size of S1, hence the order in which
//!   candidates are met; the reference tries every size from the largest
//!   down, so a smaller S1 is only reached after every larger one.
//! - D.3 (which MDPs go to S1): MDP sets are tried with the higher-ranked
//!   players first, compared by bracket sequence numbers.
//! - C7 looks at the following bracket alone: its most pairs, then its
//!   smallest PSD, counting only C1 there.
//! - C12-C15 count the players left unpaired by the bracket (the bye
//!   included in the last bracket) and the residents paired with a
//!   higher-scored player; C16-C19 compare, highest first, the score
//!   differences of the floats those players receive in this bracket.
//! - Article A.9 of the previous text, kept in the 2025 one: brackets are
//!   paired one by one; when the downfloaters of a bracket and everyone below
//!   cannot complete the round, that bracket is paired again with C4 and
//!   everyone below it forms one collapsed last bracket.

pub mod cases;

use std::collections::{HashMap, HashSet};

use kraal::pairing::swiss::{EntryKind, SwissInput};
use kraal::pairing::{PlayerId, Points, POINT};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Float {
    Down,
    Up,
}

#[derive(Debug, Clone)]
pub struct Player {
    pub id: PlayerId,
    pub tpn: u32,
    pub score: Points,
    pub opponents: Vec<PlayerId>,
    pub bye_ok: bool,
    /// Rounds without a game over the board so far (C9).
    pub unplayed: u32,
    pub float1: Option<Float>,
    pub float2: Option<Float>,
}

/// Pairs and the bye, as ids; each pair has the lower id first, sorted.
pub type Outcome = (Vec<(PlayerId, PlayerId)>, Option<PlayerId>);

/// Derives the reference's view of the players from the engine's input.
pub fn players(input: &SwissInput) -> Vec<Player> {
    let tpn = kraal::pairing::swiss::pairing_numbers(&input.players);
    let round = input.round as usize;
    let running = |id: PlayerId, r: usize| -> Points {
        let p = input.players.iter().find(|p| p.id == id).unwrap();
        p.history.iter().take(r).map(|e| e.points).sum()
    };
    let float_in = |id: PlayerId, r: usize| -> Option<Float> {
        let p = input.players.iter().find(|p| p.id == id).unwrap();
        let e = p.history.get(r)?;
        match e.kind {
            EntryKind::Played => {
                let o = e.opponent?;
                let (me, them) = (running(id, r), running(o, r));
                if me > them {
                    Some(Float::Down)
                } else if me < them {
                    Some(Float::Up)
                } else {
                    None
                }
            }
            // 1.4.3: scoring without playing more than a loss is a downfloat.
            _ => (e.points > 0).then_some(Float::Down),
        }
    };
    let mut v: Vec<Player> = input
        .players
        .iter()
        .filter(|p| p.status == kraal::pairing::swiss::Status::Active)
        .map(|p| Player {
            id: p.id,
            tpn: tpn[&p.id],
            score: p.history.iter().map(|e| e.points).sum(),
            // C1 (C.04.1): a meeting is a game played over the board; a
            // forfeit is none.
            opponents: p
                .history
                .iter()
                .filter(|e| e.kind == EntryKind::Played)
                .filter_map(|e| e.opponent)
                .collect(),
            bye_ok: !p
                .history
                .iter()
                .any(|e| matches!(e.kind, EntryKind::AllocatedBye | EntryKind::ForfeitWin)),
            unplayed: (round as u32 - 1)
                - p.history
                    .iter()
                    .filter(|e| e.kind == EntryKind::Played)
                    .count() as u32,
            float1: if round >= 2 {
                float_in(p.id, round - 2)
            } else {
                None
            },
            float2: if round >= 3 {
                float_in(p.id, round - 3)
            } else {
                None
            },
        })
        .collect();
    v.sort_by(|a, b| b.score.cmp(&a.score).then(a.tpn.cmp(&b.tpn)));
    v
}

/// One way to pair a bracket: its pairs and who stays unpaired.
#[derive(Debug, Clone)]
struct Candidate {
    pairs: Vec<(usize, usize)>,
    unpaired: Vec<usize>,
}

impl Candidate {
    fn key(&self) -> (Vec<(usize, usize)>, Vec<usize>) {
        let mut p: Vec<_> = self
            .pairs
            .iter()
            .map(|&(a, b)| (a.min(b), a.max(b)))
            .collect();
        p.sort_unstable();
        let mut u = self.unpaired.clone();
        u.sort_unstable();
        (p, u)
    }
}

/// k-permutations of `items` in lexicographic order of positions (the
/// handbook's order of transpositions: by the first N1 BSNs of S2).
fn k_permutations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    let mut used = vec![false; items.len()];
    fn rec(
        items: &[usize],
        k: usize,
        cur: &mut Vec<usize>,
        used: &mut [bool],
        out: &mut Vec<Vec<usize>>,
    ) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in 0..items.len() {
            if !used[i] {
                used[i] = true;
                cur.push(items[i]);
                rec(items, k, cur, used, out);
                cur.pop();
                used[i] = false;
            }
        }
    }
    rec(items, k, &mut cur, &mut used, &mut out);
    out
}

fn subsets(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    fn rec(
        items: &[usize],
        start: usize,
        k: usize,
        cur: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..items.len() {
            cur.push(items[i]);
            rec(items, i + 1, k, cur, out);
            cur.pop();
        }
    }
    rec(items, 0, k, &mut Vec::new(), &mut out);
    out
}

/// Exchanges between S1 and S2 (D.2), best first: fewest players moved;
/// smallest difference between the BSN sums moved up and moved down; the
/// highest differing BSN moved from S1 is higher; the lowest differing BSN
/// moved from S2 is lower. Players are indices in rank order, so an index
/// order is a BSN order. The empty exchange comes first.
fn exchanges(s1: &[usize], s2: &[usize]) -> Vec<(Vec<usize>, Vec<usize>)> {
    let mut out = vec![(vec![], vec![])];
    for k in 1..=s1.len().min(s2.len()) {
        let mut ex: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
        for a in subsets(s1, k) {
            for b in subsets(s2, k) {
                ex.push((a.clone(), b));
            }
        }
        ex.sort_by(|(a1, b1), (a2, b2)| {
            let d1 = b1.iter().sum::<usize>() as i64 - a1.iter().sum::<usize>() as i64;
            let d2 = b2.iter().sum::<usize>() as i64 - a2.iter().sum::<usize>() as i64;
            let mut a1d = a1.clone();
            a1d.reverse();
            let mut a2d = a2.clone();
            a2d.reverse();
            d1.cmp(&d2).then(a2d.cmp(&a1d)).then(b1.cmp(b2))
        });
        out.extend(ex);
    }
    out
}

/// Candidates of a homogeneous bracket or a remainder, in the handbook's
/// order: S1 of each size from the largest down; for each, the original
/// S1/S2, every transposition of S2, then each exchange with every
/// transposition of its S2.
fn homogeneous(players: &[usize]) -> Vec<Candidate> {
    let n = players.len();
    let mut out = Vec::new();
    for n1 in (0..=n / 2).rev() {
        let (s1, s2) = players.split_at(n1);
        for (a, b) in exchanges(s1, s2) {
            let mut ns1: Vec<usize> = s1.iter().copied().filter(|x| !a.contains(x)).collect();
            ns1.extend(&b);
            ns1.sort_unstable();
            let mut ns2: Vec<usize> = s2.iter().copied().filter(|x| !b.contains(x)).collect();
            ns2.extend(&a);
            ns2.sort_unstable();
            for t in k_permutations(&ns2, n1) {
                let pairs = ns1.iter().copied().zip(t.iter().copied()).collect();
                let unpaired = ns2.iter().copied().filter(|x| !t.contains(x)).collect();
                out.push(Candidate { pairs, unpaired });
            }
        }
    }
    out
}

/// Candidates of a bracket with moved-down players: MDP-pairings (M1 from
/// the largest down, MDP sets in S1 higher-ranked first, transpositions of
/// the residents), each followed by every candidate of its remainder.
fn heterogeneous(mdps: &[usize], residents: &[usize]) -> Vec<Candidate> {
    if mdps.is_empty() {
        return homogeneous(residents);
    }
    let mut out = Vec::new();
    for m1 in (0..=mdps.len().min(residents.len())).rev() {
        for s1 in subsets(mdps, m1) {
            let limbo: Vec<usize> = mdps.iter().copied().filter(|x| !s1.contains(x)).collect();
            for t in k_permutations(residents, m1) {
                let rem: Vec<usize> = residents
                    .iter()
                    .copied()
                    .filter(|x| !t.contains(x))
                    .collect();
                let mdp_pairs: Vec<(usize, usize)> =
                    s1.iter().copied().zip(t.iter().copied()).collect();
                for c in homogeneous(&rem) {
                    let mut pairs = mdp_pairs.clone();
                    pairs.extend(c.pairs);
                    let mut unpaired = limbo.clone();
                    unpaired.extend(c.unpaired);
                    out.push(Candidate { pairs, unpaired });
                }
            }
        }
    }
    out
}

pub struct Reference {
    pub p: Vec<Player>,
    /// Which criteria to apply; all of them unless a divergence is being
    /// classified (leaving one out shows whether it decides the case).
    pub c7: bool,
    pub c16_c19: bool,
    /// C5: the score the bye's player must have, once known.
    bye_score: Option<Points>,
    complete_memo: std::cell::RefCell<HashMap<u64, bool>>,
}

impl Reference {
    pub fn new(p: Vec<Player>) -> Self {
        Reference {
            p,
            c7: true,
            c16_c19: true,
            bye_score: None,
            complete_memo: Default::default(),
        }
    }

    /// C2, and C5 once the bye's score is known.
    fn bye_allowed(&self, i: usize) -> bool {
        self.p[i].bye_ok && self.bye_score.is_none_or(|s| self.p[i].score == s)
    }

    fn compatible(&self, a: usize, b: usize) -> bool {
        a != b && !self.p[a].opponents.contains(&self.p[b].id)
    }

    /// Whether the players in `set` can all be paired (C1), one of them
    /// taking the bye (C2) when their number is odd.
    fn completable(&self, set: &[usize]) -> bool {
        let mask = set.iter().fold(0u64, |m, &i| m | (1 << i));
        self.complete_mask(mask, set.len() % 2 == 1)
    }

    fn complete_mask(&self, mask: u64, bye_open: bool) -> bool {
        if mask == 0 {
            return !bye_open;
        }
        let key = mask | ((bye_open as u64) << 63);
        if let Some(&v) = self.complete_memo.borrow().get(&key) {
            return v;
        }
        let i = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << i);
        let mut ok = bye_open && self.bye_allowed(i) && self.complete_mask(rest, false);
        let mut m = rest;
        while !ok && m != 0 {
            let j = m.trailing_zeros() as usize;
            m &= !(1 << j);
            if self.compatible(i, j) && self.complete_mask(rest & !(1 << j), bye_open) {
                ok = true;
            }
        }
        self.complete_memo.borrow_mut().insert(key, ok);
        ok
    }

    /// Score differences of a candidate (A.8 of the previous text, 3.? of
    /// the 2025 one): pairs by the absolute difference, downfloaters by
    /// their score minus one point below the lowest score of the bracket.
    fn psd(&self, c: &Candidate, lowest: Points) -> Vec<Points> {
        let mut v: Vec<Points> = c
            .pairs
            .iter()
            .map(|&(a, b)| (self.p[a].score - self.p[b].score).abs())
            .collect();
        v.extend(
            c.unpaired
                .iter()
                .map(|&u| self.p[u].score - (lowest - POINT)),
        );
        v.sort_unstable_by(|a, b| b.cmp(a));
        v
    }

    /// Most pairs, then smallest PSD, of a bracket on C1 alone (C7).
    fn best_of_bracket(&self, players: &[usize]) -> (usize, Vec<Points>) {
        let lowest = players.iter().map(|&i| self.p[i].score).min().unwrap_or(0);
        let mut best: Option<(usize, Vec<Points>)> = None;
        fn rec(
            r: &Reference,
            left: &[usize],
            pairs: &mut Vec<(usize, usize)>,
            unpaired: &mut Vec<usize>,
            lowest: Points,
            best: &mut Option<(usize, Vec<Points>)>,
        ) {
            let Some((&i, rest)) = left.split_first() else {
                let c = Candidate {
                    pairs: pairs.clone(),
                    unpaired: unpaired.clone(),
                };
                let v = (c.pairs.len(), r.psd(&c, lowest));
                let better = match best {
                    None => true,
                    Some((n, p)) => v.0 > *n || (v.0 == *n && v.1 < *p),
                };
                if better {
                    *best = Some(v);
                }
                return;
            };
            unpaired.push(i);
            rec(r, rest, pairs, unpaired, lowest, best);
            unpaired.pop();
            for (k, &j) in rest.iter().enumerate() {
                if r.compatible(i, j) {
                    let mut others = rest.to_vec();
                    others.remove(k);
                    pairs.push((i, j));
                    rec(r, &others, pairs, unpaired, lowest, best);
                    pairs.pop();
                }
            }
        }
        rec(self, players, &mut vec![], &mut vec![], lowest, &mut best);
        best.unwrap_or((0, vec![]))
    }

    /// The criteria of a candidate as one vector, smaller is better.
    /// `c4` is the set below the bracket when completion applies;
    /// `next` the following scoregroup when C7 applies.
    #[allow(clippy::too_many_arguments)]
    fn evaluate(
        &self,
        c: &Candidate,
        bracket: &[usize],
        last: bool,
        total_odd: bool,
        c4: Option<&[usize]>,
        next: Option<&[usize]>,
        c9: bool,
        c7_memo: &mut HashMap<Vec<usize>, (usize, Vec<Points>)>,
    ) -> Option<Vec<i64>> {
        // C1.
        if c.pairs.iter().any(|&(a, b)| !self.compatible(a, b)) {
            return None;
        }
        // Last bracket: the round must be complete, C2 for the bye.
        if last {
            if c.unpaired.len() != total_odd as usize {
                return None;
            }
            if c.unpaired.iter().any(|&u| !self.bye_allowed(u)) {
                return None;
            }
        }
        let mut v: Vec<i64> = Vec::new();
        // C4.
        if let Some(below) = c4 {
            let mut set = c.unpaired.clone();
            set.extend_from_slice(below);
            v.push(!self.completable(&set) as i64);
        }
        let lowest = bracket.iter().map(|&i| self.p[i].score).min().unwrap();
        // C5.
        v.push(-(c.pairs.len() as i64));
        // C6.
        v.extend(self.psd(c, lowest));
        // C7.
        if let Some(next) = next.filter(|_| self.c7) {
            let mut nb = c.unpaired.clone();
            nb.sort_unstable();
            let b = c7_memo
                .entry(nb.clone())
                .or_insert_with(|| {
                    let mut all = nb.clone();
                    all.extend_from_slice(next);
                    self.best_of_bracket(&all)
                })
                .clone();
            v.push(-(b.0 as i64));
            v.extend(b.1);
        }
        // C9: the unplayed games of the bye's player, in a bracket that
        // floats exactly one player who ends up with the bye.
        v.push(match c.unpaired.as_slice() {
            [u] if c9 => self.p[*u].unplayed as i64,
            _ => 0,
        });
        // Floats of this candidate: (player, direction, score difference).
        let mut floats: Vec<(usize, Float, Points)> = Vec::new();
        for &(a, b) in &c.pairs {
            let (sa, sb) = (self.p[a].score, self.p[b].score);
            if sa != sb {
                let (hi, lo) = if sa > sb { (a, b) } else { (b, a) };
                floats.push((hi, Float::Down, (sa - sb).abs()));
                floats.push((lo, Float::Up, (sa - sb).abs()));
            }
        }
        let mut leaving: Vec<(usize, Float, Points)> = Vec::new();
        for &u in &c.unpaired {
            leaving.push((u, Float::Down, self.p[u].score - (lowest - POINT)));
        }
        // C12-C15: downfloaters (leaving the bracket) and upfloaters that
        // repeat the float of one (two) rounds before.
        let repeat = |f: Float, two: bool, (i, d, _): &(usize, Float, Points)| {
            *d == f
                && if two {
                    self.p[*i].float2 == Some(f)
                } else {
                    self.p[*i].float1 == Some(f)
                }
        };
        let upfloats: Vec<_> = floats.iter().filter(|f| f.1 == Float::Up).collect();
        v.push(
            leaving
                .iter()
                .filter(|x| repeat(Float::Down, false, x))
                .count() as i64,
        );
        v.push(
            upfloats
                .iter()
                .filter(|x| repeat(Float::Up, false, x))
                .count() as i64,
        );
        v.push(
            leaving
                .iter()
                .filter(|x| repeat(Float::Down, true, x))
                .count() as i64,
        );
        v.push(
            upfloats
                .iter()
                .filter(|x| repeat(Float::Up, true, x))
                .count() as i64,
        );
        // C16-C19: the score differences of those repeated floats,
        // highest first (MDPs paired here count as downfloats too).
        let width = if self.c16_c19 { bracket.len() } else { 0 };
        for (f, two) in [
            (Float::Down, false),
            (Float::Up, false),
            (Float::Down, true),
            (Float::Up, true),
        ] {
            let mut sds: Vec<Points> = floats
                .iter()
                .chain(leaving.iter())
                .filter(|x| repeat(f, two, x))
                .map(|x| x.2)
                .collect();
            sds.sort_unstable_by(|a, b| b.cmp(a));
            sds.resize(width, 0);
            sds.truncate(width);
            v.extend(sds);
        }
        Some(v)
    }

    /// The handbook's choice for one bracket: the first candidate that no
    /// later candidate beats.
    #[allow(clippy::too_many_arguments)]
    fn pair_bracket(
        &self,
        mdps: &[usize],
        residents: &[usize],
        last: bool,
        total_odd: bool,
        c4: Option<&[usize]>,
        next: Option<&[usize]>,
    ) -> Option<Candidate> {
        // C9 applies when nobody below may take the bye instead.
        let lowest = residents.iter().map(|&i| self.p[i].score).min();
        let c9 = total_odd
            && (0..self.p.len())
                .filter(|&i| lowest.is_some_and(|l| self.p[i].score < l))
                .all(|i| !self.bye_allowed(i));
        let mut bracket = mdps.to_vec();
        bracket.extend_from_slice(residents);
        let mut seen = HashSet::new();
        let mut c7_memo = HashMap::new();
        let mut best: Option<(Vec<i64>, Candidate)> = None;
        for c in heterogeneous(mdps, residents) {
            if !seen.insert(c.key()) {
                continue;
            }
            let Some(v) = self.evaluate(&c, &bracket, last, total_odd, c4, next, c9, &mut c7_memo)
            else {
                continue;
            };
            if best.as_ref().is_none_or(|(b, _)| v < *b) {
                best = Some((v, c));
            }
        }
        best.map(|(_, c)| c)
    }

    /// Pairs the round. `None` when no complete pairing exists.
    pub fn pair(&mut self) -> Option<Outcome> {
        let n = self.p.len();
        let all: Vec<usize> = (0..n).collect();
        if !self.completable(&all) {
            return None;
        }
        let total_odd = n % 2 == 1;
        if total_odd {
            // C5: the lowest score of a player who can take the bye with
            // everyone else paired.
            let full = all.iter().fold(0u64, |m, &i| m | (1 << i));
            self.bye_score = (0..n)
                .filter(|&i| self.p[i].bye_ok && self.complete_mask(full & !(1 << i), false))
                .map(|i| self.p[i].score)
                .min();
            self.complete_memo.borrow_mut().clear();
        }
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for i in 0..n {
            match groups.last_mut() {
                Some(g) if self.p[g[0]].score == self.p[i].score => g.push(i),
                _ => groups.push(vec![i]),
            }
        }
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut mdps: Vec<usize> = Vec::new();
        let mut bye = None;
        let mut g = 0;
        while g < groups.len() {
            let residents = &groups[g];
            let below: Vec<usize> = groups[g + 1..].concat();
            if g + 1 == groups.len() {
                let c = self.pair_bracket(&mdps, residents, true, total_odd, None, None)?;
                pairs.extend(c.pairs);
                bye = c.unpaired.first().copied();
                break;
            }
            let c = self.pair_bracket(
                &mdps,
                residents,
                false,
                total_odd,
                None,
                Some(&groups[g + 1]),
            )?;
            let mut rest = c.unpaired.clone();
            rest.extend_from_slice(&below);
            if self.completable(&rest) {
                pairs.extend(c.pairs);
                mdps = c.unpaired;
                mdps.sort_unstable();
                g += 1;
                continue;
            }
            // This bracket is the PPB: pair it again with C4, then
            // everyone below forms the collapsed last bracket.
            let c = self.pair_bracket(&mdps, residents, false, total_odd, Some(&below), None)?;
            pairs.extend(c.pairs);
            let mut m = c.unpaired;
            m.sort_unstable();
            let clb = self.pair_bracket(&m, &below, true, total_odd, None, None)?;
            pairs.extend(clb.pairs);
            bye = clb.unpaired.first().copied();
            break;
        }
        let mut out: Vec<(PlayerId, PlayerId)> = pairs
            .iter()
            .map(|&(a, b)| {
                let (x, y) = (self.p[a].id, self.p[b].id);
                (x.min(y), x.max(y))
            })
            .collect();
        out.sort_unstable();
        Some((out, bye.map(|b| self.p[b].id)))
    }
}

//! A deliberately plain reading of the FIDE Dutch system (Handbook C.04.3,
//! the text applied from 1 July 2025) with the colour rules removed, for
//! small fields only. Nothing here is fast: every bracket enumerates its
//! candidates in the handbook's order and keeps the first one that no later
//! candidate beats on the criteria, most important first. It shares nothing
//! with the engine but the input types: no weights, no matching.
//!
//! The criteria, as the 2025 text orders them (colour criteria removed):
//! C1 no rematch (a meeting is a game played over the board, C.04.1) and
//! the referee's forbidden pairs; C2 no second bye, nor one after a
//! forfeit win; C4 every bracket leaves the players not yet paired
//! pairable; C5 the bye's player has the lowest score a complete round
//! allows; C6 most pairs; C7 the downfloaters' scores, from the highest, as
//! low as possible; C8 the downfloaters chosen so that the following
//! bracket is best by C1-C7; C9 the fewest unplayed games for the bye's
//! player; C14-C17 repeated floats; C18-C21 their score differences.
//!
//! Readings chosen where the text leaves room:
//!
//! - Floats (1.4): a player who met an opponent with a different score
//!   floated down (higher score) or up; a player who scored more than a
//!   loss without playing (allocated bye, forfeit win, half-point bye)
//!   floated down; a forfeit loss or a zero-point absence is no float.
//! - MaxPairs and M1 only fix the size of S1, hence the order in which
//!   candidates are met; the reference tries every size from the largest
//!   down, so a smaller S1 is only reached after every larger one.
//! - 4.4 (which MDPs go to S1): MDP sets in lexicographic order of their
//!   bracket sequence numbers (the smallest differing BSN first).
//! - C8: the following bracket is its scoregroup plus this candidate's
//!   downfloaters, judged by C4 (everyone further below still pairable),
//!   C6 and C7.
//! - C9 applies to a candidate that floats exactly one player when nobody
//!   below the bracket may take the bye instead, so that player gets it.
//! - C14/C16 count resident downfloaters, C15/C17 the residents an MDP (a
//!   higher-scored player) meets. C18/C20 take the downfloaters with a
//!   repeated downfloat by score (their difference in the bracket below);
//!   C19/C21 the score differences of the pairs whose lower player repeats
//!   an upfloat.

pub mod cases;

use std::collections::{HashMap, HashSet};

use kraal::pairing::swiss::{EntryKind, SwissInput};
use kraal::pairing::{PlayerId, Points};

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

/// Receives candidates in order; returns `false` to stop the generation.
type Visit<'a> = dyn FnMut(Candidate) -> bool + 'a;

/// Candidates of a homogeneous bracket or a remainder, in the handbook's
/// order: S1 of each size from the largest down; for each, the original
/// S1/S2, every transposition of S2, then each exchange with every
/// transposition of its S2. Returns `false` when `visit` stopped it.
fn homogeneous(players: &[usize], visit: &mut Visit) -> bool {
    let n = players.len();
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
                if !visit(Candidate { pairs, unpaired }) {
                    return false;
                }
            }
        }
    }
    true
}

/// Candidates of a bracket with moved-down players: MDP-pairings (M1 from
/// the largest down, MDP sets in S1 in lexicographic order of BSNs,
/// transpositions of the residents), each followed by every candidate of
/// its remainder.
fn heterogeneous(mdps: &[usize], residents: &[usize], visit: &mut Visit) -> bool {
    if mdps.is_empty() {
        return homogeneous(residents, visit);
    }
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
                let go_on = homogeneous(&rem, &mut |c: Candidate| {
                    let mut pairs = mdp_pairs.clone();
                    pairs.extend(c.pairs);
                    let mut unpaired = limbo.clone();
                    unpaired.extend(c.unpaired);
                    visit(Candidate { pairs, unpaired })
                });
                if !go_on {
                    return false;
                }
            }
        }
    }
    true
}

pub struct Reference {
    pub p: Vec<Player>,
    /// Which criteria to apply; all of them unless a divergence is being
    /// classified (leaving one out shows whether it decides the case).
    pub c8: bool,
    pub c18_c21: bool,
    /// Pairs the referee forbade for this round (ids, lower first).
    pub forbidden: HashSet<(PlayerId, PlayerId)>,
    /// C5: the score the bye's player must have, once known.
    bye_score: Option<Points>,
    complete_memo: std::cell::RefCell<HashMap<u64, bool>>,
}

/// The referee's forbidden pairs that hold in the round being paired.
pub fn forbidden(input: &SwissInput) -> HashSet<(PlayerId, PlayerId)> {
    input
        .forbidden
        .iter()
        .filter(|f| {
            f.from_round.is_none_or(|r| input.round >= r)
                && f.to_round.is_none_or(|r| input.round <= r)
        })
        .map(|f| (f.a.min(f.b), f.a.max(f.b)))
        .collect()
}

/// Sorted from the highest, padded to `width` with a value below every
/// score, so that a shorter list (fewer players) compares as smaller.
fn descending(mut v: Vec<Points>, width: usize) -> Vec<Points> {
    v.sort_unstable_by(|a, b| b.cmp(a));
    v.resize(width.max(v.len()), Points::MIN);
    v
}

impl Reference {
    pub fn new(p: Vec<Player>) -> Self {
        Reference {
            p,
            c8: true,
            c18_c21: true,
            forbidden: HashSet::new(),
            bye_score: None,
            complete_memo: Default::default(),
        }
    }

    /// The reference for a round as the engine gets it: players and the
    /// referee's forbidden pairs.
    pub fn of(input: &SwissInput) -> Self {
        let mut r = Reference::new(players(input));
        r.forbidden = forbidden(input);
        r
    }

    /// C2, and C5 once the bye's score is known.
    fn bye_allowed(&self, i: usize) -> bool {
        self.p[i].bye_ok && self.bye_score.is_none_or(|s| self.p[i].score == s)
    }

    /// C1 and the forbidden pairs.
    fn compatible(&self, a: usize, b: usize) -> bool {
        let (x, y) = (self.p[a].id, self.p[b].id);
        a != b
            && !self.p[a].opponents.contains(&y)
            && !self.forbidden.contains(&(x.min(y), x.max(y)))
    }

    /// Whether the players in `set` can all be paired (C1), one of them
    /// taking the bye (C2, C5) when their number is odd.
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

    /// C7: the scores of the downfloaters, from the highest.
    fn downfloater_scores(&self, c: &Candidate) -> Vec<Points> {
        descending(c.unpaired.iter().map(|&u| self.p[u].score).collect(), 0)
    }

    /// C8: the following bracket (`players`) at its best by C1-C7: the
    /// pairings that leave everyone still below (`rest`) pairable (C4),
    /// most pairs (C6), then the lowest downfloaters' scores (C7).
    fn best_of_bracket(&self, players: &[usize], rest: &[usize]) -> (usize, Vec<Points>) {
        let mut best: Option<(usize, Vec<Points>)> = None;
        #[allow(clippy::too_many_arguments)]
        fn rec(
            r: &Reference,
            left: &[usize],
            pairs: &mut Vec<(usize, usize)>,
            unpaired: &mut Vec<usize>,
            rest: &[usize],
            best: &mut Option<(usize, Vec<Points>)>,
        ) {
            let Some((&i, others)) = left.split_first() else {
                let mut below = unpaired.clone();
                below.extend_from_slice(rest);
                if !r.completable(&below) {
                    return;
                }
                let c = Candidate {
                    pairs: pairs.clone(),
                    unpaired: unpaired.clone(),
                };
                let v = (c.pairs.len(), r.downfloater_scores(&c));
                let better = match best {
                    None => true,
                    Some((n, d)) => v.0 > *n || (v.0 == *n && v.1 < *d),
                };
                if better {
                    *best = Some(v);
                }
                return;
            };
            unpaired.push(i);
            rec(r, others, pairs, unpaired, rest, best);
            unpaired.pop();
            for (k, &j) in others.iter().enumerate() {
                if r.compatible(i, j) {
                    let mut o = others.to_vec();
                    o.remove(k);
                    pairs.push((i, j));
                    rec(r, &o, pairs, unpaired, rest, best);
                    pairs.pop();
                }
            }
        }
        rec(self, players, &mut vec![], &mut vec![], rest, &mut best);
        best.unwrap_or((0, vec![]))
    }

    /// The criteria of a candidate as one vector, smaller is better, in
    /// the order of the 2025 text: C4, (C5 is settled for the field in
    /// `pair`), C6, C7, C8, C9, C14-C17, C18-C21. `below` is everyone in
    /// the brackets below; `next` the following scoregroup (C8).
    #[allow(clippy::too_many_arguments)]
    fn evaluate(
        &self,
        c: &Candidate,
        bracket: &[usize],
        last: bool,
        total_odd: bool,
        below: &[usize],
        next: Option<&[usize]>,
        c9: bool,
        c8_memo: &mut HashMap<Vec<usize>, (usize, Vec<Points>)>,
    ) -> Option<Vec<i64>> {
        // C1 and the forbidden pairs.
        if c.pairs.iter().any(|&(a, b)| !self.compatible(a, b)) {
            return None;
        }
        // Last bracket: the round must be complete, C2 and C5 for the bye.
        if last {
            if c.unpaired.len() != total_odd as usize {
                return None;
            }
            if c.unpaired.iter().any(|&u| !self.bye_allowed(u)) {
                return None;
            }
        }
        let mut v: Vec<i64> = Vec::new();
        // C4: every bracket leaves the players not yet paired pairable.
        let mut rest = c.unpaired.clone();
        rest.extend_from_slice(below);
        v.push(!self.completable(&rest) as i64);
        let lowest = bracket.iter().map(|&i| self.p[i].score).min().unwrap();
        // C6.
        v.push(-(c.pairs.len() as i64));
        // C7.
        v.extend(self.downfloater_scores(c));
        // C8.
        if let Some(next) = next.filter(|_| self.c8) {
            let mut down = c.unpaired.clone();
            down.sort_unstable();
            let b = c8_memo
                .entry(down.clone())
                .or_insert_with(|| {
                    let mut all = down.clone();
                    all.extend_from_slice(next);
                    let after: Vec<usize> = below
                        .iter()
                        .copied()
                        .filter(|i| !next.contains(i))
                        .collect();
                    self.best_of_bracket(&all, &after)
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
        // Floats of this candidate: MDPs (and any higher player) meeting a
        // lower one, and the players left unpaired.
        let mut mdp_pairs: Vec<(usize, usize)> = Vec::new();
        for &(a, b) in &c.pairs {
            let (sa, sb) = (self.p[a].score, self.p[b].score);
            if sa != sb {
                mdp_pairs.push(if sa > sb { (a, b) } else { (b, a) });
            }
        }
        let had = |i: usize, f: Float, two: bool| {
            if two {
                self.p[i].float2 == Some(f)
            } else {
                self.p[i].float1 == Some(f)
            }
        };
        for two in [false, true] {
            // C14 / C16: resident downfloaters with a downfloat one (two)
            // rounds before.
            v.push(
                c.unpaired
                    .iter()
                    .filter(|&&u| self.p[u].score == lowest && had(u, Float::Down, two))
                    .count() as i64,
            );
            // C15 / C17: MDP opponents with an upfloat one (two) rounds
            // before.
            v.push(
                mdp_pairs
                    .iter()
                    .filter(|&&(_, lo)| had(lo, Float::Up, two))
                    .count() as i64,
            );
        }
        // C18-C21: the score differences, from the highest, of the MDPs
        // with a repeated downfloat and of the MDP opponents with a
        // repeated upfloat. A downfloater becomes an MDP of the bracket
        // below, so its difference is its score less that bracket's: the
        // same for every candidate up to the downfloater's own score.
        let width = if self.c18_c21 { bracket.len() } else { 0 };
        for two in [false, true] {
            let down: Vec<Points> = c
                .unpaired
                .iter()
                .filter(|&&u| had(u, Float::Down, two))
                .map(|&u| self.p[u].score)
                .collect();
            let up: Vec<Points> = mdp_pairs
                .iter()
                .filter(|&&(_, lo)| had(lo, Float::Up, two))
                .map(|&(hi, lo)| self.p[hi].score - self.p[lo].score)
                .collect();
            let mut d = descending(down, width);
            let mut u = descending(up, width);
            d.truncate(width);
            u.truncate(width);
            v.extend(d);
            v.extend(u);
        }
        Some(v)
    }

    /// The criteria vector of a perfect candidate (3.4): the best value
    /// each criterion could have in this bracket, ignoring the others. A
    /// candidate that reaches it is the first best, so the search stops.
    fn perfect(
        &self,
        mdps: &[usize],
        residents: &[usize],
        next: Option<&[usize]>,
        c9: bool,
    ) -> Vec<i64> {
        let k = mdps.len() + residents.len();
        let m1 = mdps.len().min(residents.len());
        let pairs = m1 + (residents.len() - m1) / 2;
        let mut v = vec![0, -(pairs as i64)];
        let mut scores: Vec<Points> = mdps
            .iter()
            .chain(residents)
            .map(|&i| self.p[i].score)
            .collect();
        scores.sort_unstable();
        scores.truncate(k - 2 * pairs);
        v.extend(descending(scores, 0));
        if let Some(next) = next.filter(|_| self.c8) {
            let n = k - 2 * pairs + next.len();
            v.push(-((n / 2) as i64));
            if n % 2 == 1 {
                v.push(self.p[next[0]].score);
            }
        }
        let fewest = mdps.iter().chain(residents).map(|&i| self.p[i].unplayed);
        v.push(if c9 && k - 2 * pairs == 1 {
            fewest.min().unwrap_or(0) as i64
        } else {
            0
        });
        v.extend([0, 0, 0, 0]);
        let width = if self.c18_c21 { k } else { 0 };
        v.extend(std::iter::repeat_n(Points::MIN, 4 * width));
        v
    }

    /// The handbook's choice for one bracket: the first candidate that no
    /// later candidate beats.
    fn pair_bracket(
        &self,
        mdps: &[usize],
        residents: &[usize],
        below: &[usize],
        next: Option<&[usize]>,
        total_odd: bool,
    ) -> Option<Candidate> {
        let last = next.is_none();
        let mut bracket = mdps.to_vec();
        bracket.extend_from_slice(residents);
        // C9 applies when nobody below may take the bye instead.
        let c9 = total_odd && below.iter().all(|&i| !self.bye_allowed(i));
        let mut seen = HashSet::new();
        let mut c8_memo = HashMap::new();
        let perfect = self.perfect(mdps, residents, next, c9);
        let mut best: Option<(Vec<i64>, Candidate)> = None;
        heterogeneous(mdps, residents, &mut |c: Candidate| {
            if !seen.insert(c.key()) {
                return true;
            }
            let Some(v) =
                self.evaluate(&c, &bracket, last, total_odd, below, next, c9, &mut c8_memo)
            else {
                return true;
            };
            let done = v == perfect;
            if best.as_ref().is_none_or(|(b, _)| v < *b) {
                best = Some((v, c));
            }
            // 3.4: a candidate that fulfils every criterion is taken at
            // once (nothing later can beat it).
            !done
        });
        best.map(|(_, c)| c)
    }

    /// Pairs the round. `None` when no complete pairing exists.
    pub fn pair(&mut self) -> Option<Outcome> {
        let n = self.p.len();
        assert!(n < 63, "the reference is for small fields");
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
        // Brackets from the top, each one the first best candidate; C4
        // holds for every bracket (there is no collapsed bracket in the
        // 2025 text).
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut mdps: Vec<usize> = Vec::new();
        let mut bye = None;
        for g in 0..groups.len() {
            let below: Vec<usize> = groups[g + 1..].concat();
            let next = groups.get(g + 1).map(|x| x.as_slice());
            let c = self.pair_bracket(&mdps, &groups[g], &below, next, total_odd)?;
            let mut rest = c.unpaired.clone();
            rest.extend_from_slice(&below);
            if !self.completable(&rest) {
                return None;
            }
            pairs.extend(c.pairs);
            if next.is_none() {
                bye = c.unpaired.first().copied();
            }
            mdps = c.unpaired;
            mdps.sort_unstable();
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

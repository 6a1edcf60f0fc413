//! Round robin by Berger tables (FIDE C.05 Annex 1).
//!
//! Players draw numbers 1..N; the table says who meets whom in each round
//! and who starts (the first of each pair). An odd field adds the number
//! N+1 as a bye seat. A double round robin plays the table twice, starts
//! reversed in the second cycle.
//!
//! Avoidance decides the *seating*: which player takes which number. The
//! draw order is kept where the rules allow; otherwise a backtracking search
//! moves players so that every forbidden pair falls in a round where it is
//! allowed (e.g. club-mates in the first two-thirds under `official`). When
//! a pair may meet in no round at all, no seating can help and the schedule
//! is refused with that pair named.
//!
//! The schedule is drawn again whenever a round is paired, so that the
//! rules of the day apply; the rounds already paired fix the table. When
//! the fresh seating does not give them back (a rating corrected, a pair
//! kept apart since), the seating that does is found from them: going on
//! from a fresh table would bring pairs together twice and leave others
//! apart. When the rounds follow no Berger table at all (a pairing changed
//! by hand), each later round pairs the players who have not met yet, and
//! says so in its explanations.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::avoidance::{Avoidance, Ties};
use super::explain::{Bent, Explanation, Note, WaiverUsed, Why};
use super::Blocked;
use super::{ForbiddenPair, PairingError, PlayerId, RuleSet, Waiver};

/// The Berger table for `players` players: per round, the pairs of draw
/// numbers at tables 1, 2, ..., the first number of each pair starting.
/// With an odd field the bye seat is number `players + 1`.
///
/// Built the way the published tables are: in round `r` the numbers
/// 1..N-1 stand on a circle starting at `((r-1)·N/2 mod (N-1)) + 1`; table 1
/// puts that number against N (N starts in even rounds), and the other
/// tables pair the circle from both ends.
pub fn berger_table(players: usize) -> Vec<Vec<(u32, u32)>> {
    if players < 2 {
        return Vec::new();
    }
    let n = players + players % 2;
    let m = n - 1;
    (1..=m)
        .map(|r| {
            let start = ((r - 1) * (n / 2)) % m;
            let q = |i: usize| ((start + i) % m) as u32 + 1;
            let mut tables = Vec::with_capacity(n / 2);
            if r % 2 == 1 {
                tables.push((q(0), n as u32));
            } else {
                tables.push((n as u32, q(0)));
            }
            for t in 1..n / 2 {
                tables.push((q(t), q(m - t)));
            }
            tables
        })
        .collect()
}

/// A tournament to schedule.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRobinInput {
    /// Players (or teams) in draw order: the first takes number 1 unless the
    /// avoidance rules need another seating.
    pub players: Vec<Ties>,
    #[serde(default)]
    pub double: bool,
    #[serde(default)]
    pub rules: RuleSet,
    #[serde(default)]
    pub forbidden: Vec<ForbiddenPair>,
    #[serde(default)]
    pub waivers: Vec<Waiver>,
    /// The rounds paired so far, in order: each player's opponent, `None`
    /// for the one who sat out. Later rounds continue the table these
    /// follow, whatever has changed since (a rating corrected, a pair kept
    /// apart), so that nobody meets twice and every pair still meets.
    #[serde(default)]
    pub played: Vec<HashMap<PlayerId, Option<PlayerId>>>,
}

/// One pairing of a scheduled round; `first` starts game 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RrPair {
    pub table: u32,
    pub first: PlayerId,
    pub second: PlayerId,
    pub explanation: Explanation,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RrRound {
    pub round: u32,
    pub pairs: Vec<RrPair>,
    pub bye: Option<PlayerId>,
}

/// The whole schedule, with the seating it used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    /// `seating[k]` holds draw number `k + 1`.
    pub seating: Vec<PlayerId>,
    pub rounds: Vec<RrRound>,
}

/// Rounds (1-based) in which draw numbers `x` and `y` meet.
fn meeting_rounds(table: &[Vec<(u32, u32)>], double: bool) -> HashMap<(u32, u32), Vec<u32>> {
    let mut out: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
    let cycle = table.len() as u32;
    for (r, pairs) in table.iter().enumerate() {
        for &(a, b) in pairs {
            let k = (a.min(b), a.max(b));
            out.entry(k).or_default().push(r as u32 + 1);
            if double {
                out.entry(k).or_default().push(r as u32 + 1 + cycle);
            }
        }
    }
    out
}

/// Schedules a single or double round robin.
pub fn schedule(input: &RoundRobinInput) -> Result<Schedule, PairingError> {
    let n = input.players.len();
    if n < 2 {
        return Err(PairingError::Invalid(
            "a round robin needs at least two players".into(),
        ));
    }
    let mut ids: Vec<PlayerId> = input.players.iter().map(|t| t.id).collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.len() != n {
        return Err(PairingError::Invalid("a player appears twice".into()));
    }
    let table = berger_table(n);
    let total = table.len() as u32 * if input.double { 2 } else { 1 };
    let avoid = Avoidance::new(
        input.rules,
        total,
        &input.players,
        &input.forbidden,
        &input.waivers,
    );
    refuse_pairs_never_apart(&input.players, &avoid, total)?;
    let order: Vec<PlayerId> = input.players.iter().map(|t| t.id).collect();
    let seating = seat(&table, input.double, &avoid, &order, total)?;
    let played = played_both_ways(&input.played);
    let seating = if played.is_empty() || follows(&table, &seating, &played) {
        seating
    } else {
        match seating_after(&table, &order, &played, &avoid, total) {
            Some(seating) => seating,
            None => return next_among_unmet(&order, &played, &avoid, total),
        }
    };
    let rounds = seated_rounds(&table, &seating, &avoid, input.double);
    Ok(Schedule { seating, rounds })
}

/// A pair that may meet in no round cannot be seated apart: the first
/// such pair is refused, with the rule that keeps them apart.
fn refuse_pairs_never_apart(
    players: &[Ties],
    avoid: &Avoidance,
    total: u32,
) -> Result<(), PairingError> {
    for (x, a) in players.iter().enumerate() {
        for b in &players[x + 1..] {
            let blocked = (1..=total).all(|r| avoid.forbids(a.id, b.id, r).is_some());
            if blocked {
                if let Some(rule) = avoid.forbids(a.id, b.id, 1) {
                    return Err(PairingError::CannotSeparate {
                        a: a.id,
                        b: b.id,
                        rule,
                    });
                }
            }
        }
    }
    Ok(())
}

/// The seating (draw numbers to players) that keeps the absolute rules in
/// every round, and the preferences too where one does; none found names
/// the pair that blocked the search most.
fn seat(
    table: &[Vec<(u32, u32)>],
    double: bool,
    avoid: &Avoidance,
    order: &[PlayerId],
    total: u32,
) -> Result<Vec<PlayerId>, PairingError> {
    let meets = meeting_rounds(table, double);
    let n = order.len();
    let mut search = Seating {
        meets: &meets,
        avoid,
        order,
        seats: n + n % 2,
        prefer: true,
        budget: 2_000_000,
        blame: HashMap::new(),
    };
    match search.run() {
        Some(s) => Ok(s),
        None => {
            search.prefer = false;
            search.budget = 2_000_000;
            search.run().ok_or_else(|| {
                let worst = search
                    .blame
                    .iter()
                    .max_by_key(|(k, v)| (**v, std::cmp::Reverse(**k)));
                PairingError::Impossible(Blocked::NoSeating {
                    pair: worst.map(|(&(a, b), _)| (a, b, avoid.rule_forbidding(a, b, total))),
                })
            })
        }
    }
}

/// A round as paired: each player's opponent, taken from either side
/// (a player who withdrew may have no entry of their own).
fn played_both_ways(
    played: &[HashMap<PlayerId, Option<PlayerId>>],
) -> Vec<HashMap<PlayerId, Option<PlayerId>>> {
    played
        .iter()
        .map(|round| {
            let mut both = round.clone();
            for (&a, &b) in round {
                if let Some(b) = b {
                    both.insert(b, Some(a));
                }
            }
            both
        })
        .collect()
}

/// A seating the rounds played follow whose rounds still to come keep the
/// absolute rules, if there is one.
fn seating_after(
    table: &[Vec<(u32, u32)>],
    order: &[PlayerId],
    played: &[HashMap<PlayerId, Option<PlayerId>>],
    avoid: &Avoidance,
    total: u32,
) -> Option<Vec<PlayerId>> {
    continued(table, order, played, |seating| {
        let round_of = |r: usize| if r < table.len() { r } else { r - table.len() };
        (played.len()..total as usize).all(|r| {
            table[round_of(r)].iter().all(|&(x, y)| {
                match (seating.get(x as usize - 1), seating.get(y as usize - 1)) {
                    (Some(&a), Some(&b)) => avoid.forbids(a, b, r as u32 + 1).is_none(),
                    _ => true,
                }
            })
        })
    })
}

/// Every round of the Berger table with `seating`'s players in its seats,
/// the second cycle of a double round robin with the sides turned; the
/// player against the empty seat of an odd field has the bye.
fn seated_rounds(
    table: &[Vec<(u32, u32)>],
    seating: &[PlayerId],
    avoid: &Avoidance,
    double: bool,
) -> Vec<RrRound> {
    let cycle = table.len() as u32;
    let mut rounds = Vec::new();
    for leg in 0..if double { 2 } else { 1 } {
        for (r, pairs) in table.iter().enumerate() {
            let round = leg * cycle + r as u32 + 1;
            let mut out = RrRound {
                round,
                pairs: Vec::new(),
                bye: None,
            };
            for &(x, y) in pairs {
                let (x, y) = if leg == 1 { (y, x) } else { (x, y) };
                let (a, b) = (seating.get(x as usize - 1), seating.get(y as usize - 1));
                match (a, b) {
                    (Some(&a), Some(&b)) => out.pairs.push(RrPair {
                        table: out.pairs.len() as u32 + 1,
                        first: a,
                        second: b,
                        explanation: explained(
                            avoid,
                            (a, b, round),
                            Note::Berger {
                                round: r as u32 + 1,
                                first: x,
                                second: y,
                            },
                            Why::Seating,
                        ),
                    }),
                    (Some(&a), None) | (None, Some(&a)) => out.bye = Some(a),
                    (None, None) => {}
                }
            }
            rounds.push(out);
        }
    }
    rounds
}

/// What a scheduled pairing says of itself: `note`, a preference it bends
/// (and `why`), a waiver it relies on.
fn explained(
    avoid: &Avoidance,
    (a, b, round): (PlayerId, PlayerId, u32),
    note: Note,
    why: Why,
) -> Explanation {
    let mut e = Explanation::default();
    e.notes.push(note);
    if let Some(rule) = avoid.prefers_apart(a, b, round) {
        e.bent.push(Bent { rule, why });
    }
    if let Some((w, rule)) = avoid.waiver_used(a, b, round) {
        e.waivers.push(WaiverUsed::Used {
            reason: w.reason.clone(),
            rule,
        });
    }
    e
}

/// The next round when the rounds played follow no Berger table (a
/// pairing changed by hand, the field changed since): the players who have
/// not met are paired, the absolute rules kept and the preferences where
/// possible, and one who has not sat out yet sits out in an odd field.
/// The schedule holds that round alone; each later round is found the same
/// way when it is paired.
fn next_among_unmet(
    order: &[PlayerId],
    played: &[HashMap<PlayerId, Option<PlayerId>>],
    avoid: &Avoidance,
    total: u32,
) -> Result<Schedule, PairingError> {
    let round = played.len() as u32 + 1;
    if round > total {
        return Err(PairingError::Invalid(format!(
            "all {total} rounds of the round robin are paired"
        )));
    }
    let met = |a: PlayerId, b: PlayerId| played.iter().any(|r| r.get(&a) == Some(&Some(b)));
    let sat_out = |a: PlayerId| played.iter().any(|r| r.get(&a) == Some(&None));
    // Seats: the players, then the bye in an odd field.
    let n = order.len();
    let seats = n + n % 2;
    let mut weight = vec![0i128; seats * seats];
    for a in 0..seats {
        for b in a + 1..seats {
            weight[a * seats + b] = if b == n {
                if sat_out(order[a]) {
                    0
                } else {
                    2
                }
            } else if met(order[a], order[b]) || avoid.forbids(order[a], order[b], round).is_some()
            {
                0
            } else {
                1 + i128::from(avoid.prefers_apart(order[a], order[b], round).is_none())
            };
        }
    }
    let mate = super::matching::max_weight(&weight, seats);
    if mate.iter().any(Option::is_none) {
        return Err(PairingError::Impossible(Blocked::NotBerger {
            played: played.len(),
            players: n,
            round,
        }));
    }
    let mut out = RrRound {
        round,
        pairs: Vec::new(),
        bye: None,
    };
    for a in 0..n {
        match mate[a] {
            Some(b) if b == n => out.bye = Some(order[a]),
            Some(b) if b > a => out.pairs.push(RrPair {
                table: out.pairs.len() as u32 + 1,
                first: order[a],
                second: order[b],
                explanation: explained(avoid, (order[a], order[b], round), Note::Unmet, Why::Unmet),
            }),
            _ => {}
        }
    }
    Ok(Schedule {
        seating: order.to_vec(),
        rounds: vec![out],
    })
}

/// Whether the rounds played are the first rounds of the table under
/// `seating` (the bye seat being the one who sat out).
fn follows(
    table: &[Vec<(u32, u32)>],
    seating: &[PlayerId],
    played: &[HashMap<PlayerId, Option<PlayerId>>],
) -> bool {
    let at = |x: u32| seating.get(x as usize - 1).copied();
    played.iter().enumerate().all(|(r, round)| {
        table[r % table.len()]
            .iter()
            .all(|&(x, y)| match (at(x), at(y)) {
                (Some(a), Some(b)) => {
                    round.get(&a) == Some(&Some(b)) && round.get(&b) == Some(&Some(a))
                }
                (Some(a), None) | (None, Some(a)) => round.get(&a) == Some(&None),
                (None, None) => true,
            })
    })
}

/// A seating under which the table's first rounds are the rounds
/// `played`, and that `keeps` accepts (the rounds left honour the absolute
/// rules), found by fixing one number's player and following the rounds
/// played to its opponents' numbers; `None` when there is none (a pairing
/// changed by hand, the field changed).
fn continued(
    table: &[Vec<(u32, u32)>],
    order: &[PlayerId],
    played: &[HashMap<PlayerId, Option<PlayerId>>],
    mut keeps: impl FnMut(&[PlayerId]) -> bool,
) -> Option<Vec<PlayerId>> {
    let seats = table.first().map_or(0, |t| t.len() * 2);
    if played.iter().any(|r| r.len() != order.len()) || played.len() > 2 * table.len() {
        return None;
    }
    // partner[r][x] = the number x meets in round r (numbers from 0).
    let partner: Vec<Vec<usize>> = (0..played.len())
        .map(|r| {
            let mut p = vec![0; seats];
            for &(x, y) in &table[r % table.len()] {
                p[x as usize - 1] = y as usize - 1;
                p[y as usize - 1] = x as usize - 1;
            }
            p
        })
        .collect();
    // A slot holds a player or, in an odd field, the bye (None).
    type Slot = Option<PlayerId>;
    let mut slots: Vec<Slot> = order.iter().copied().map(Some).collect();
    if seats > order.len() {
        slots.push(None);
    }
    fn go(
        at: Vec<Option<Slot>>,
        slots: &[Slot],
        partner: &[Vec<usize>],
        played: &[HashMap<PlayerId, Option<PlayerId>>],
        budget: &mut u32,
        keeps: &mut dyn FnMut(&[PlayerId]) -> bool,
    ) -> Option<Vec<PlayerId>> {
        let bye_seat = at.len() - 1;
        let Some(free) = at.iter().position(Option::is_none) else {
            // The bye is the last number (the table's N), players the rest.
            let seating: Option<Vec<PlayerId>> = at.iter().map(|s| s.flatten()).collect();
            return match seating {
                Some(s) if keeps(&s) => Some(s),
                Some(_) => None,
                None => {
                    let s: Vec<PlayerId> =
                        at[..bye_seat].iter().flatten().flatten().copied().collect();
                    (at[bye_seat] == Some(None) && s.len() == bye_seat && keeps(&s)).then_some(s)
                }
            };
        };
        for &slot in slots {
            if *budget == 0 {
                return None;
            }
            *budget -= 1;
            if at.contains(&Some(slot)) || (slot.is_none() && free != bye_seat) {
                continue;
            }
            let mut next = at.clone();
            next[free] = Some(slot);
            let mut queue = vec![free];
            let mut ok = true;
            while let (true, Some(x)) = (ok, queue.pop()) {
                let who = next[x].flatten();
                for (r, round) in played.iter().enumerate() {
                    let y = partner[r][x];
                    // Who sat across the board from this slot in round r.
                    let across: Slot = match who {
                        Some(p) => match round.get(&p) {
                            Some(&o) => o,
                            None => {
                                ok = false;
                                break;
                            }
                        },
                        None => round.iter().find(|(_, o)| o.is_none()).map(|(&p, _)| p),
                    };
                    if who.is_none() && across.is_none() {
                        ok = false;
                        break;
                    }
                    match next[y] {
                        Some(s) if s == across => {}
                        Some(_) => {
                            ok = false;
                            break;
                        }
                        None if next.contains(&Some(across))
                            || (across.is_none() && y != bye_seat) =>
                        {
                            ok = false;
                            break;
                        }
                        None => {
                            next[y] = Some(across);
                            queue.push(y);
                        }
                    }
                }
            }
            if ok {
                if let Some(found) = go(next, slots, partner, played, budget, keeps) {
                    return Some(found);
                }
            }
        }
        None
    }
    let mut budget = 200_000;
    go(
        vec![None; seats],
        &slots,
        &partner,
        played,
        &mut budget,
        &mut keeps,
    )
}

struct Seating<'a> {
    meets: &'a HashMap<(u32, u32), Vec<u32>>,
    avoid: &'a Avoidance,
    order: &'a [PlayerId],
    seats: usize,
    /// Also keep "where possible" preferences (first attempt).
    prefer: bool,
    budget: u64,
    blame: HashMap<(PlayerId, PlayerId), u64>,
}

impl Seating<'_> {
    fn run(&mut self) -> Option<Vec<PlayerId>> {
        let mut placed: Vec<Option<PlayerId>> = Vec::with_capacity(self.seats);
        let mut used = vec![false; self.order.len()];
        self.place(&mut placed, &mut used)
            .then(|| placed.into_iter().flatten().collect())
    }

    fn allowed(&mut self, seat: u32, player: PlayerId, placed: &[Option<PlayerId>]) -> bool {
        for (k, other) in placed.iter().enumerate() {
            let Some(other) = *other else { continue };
            let key = ((k as u32 + 1).min(seat), (k as u32 + 1).max(seat));
            for &r in self.meets.get(&key).map(Vec::as_slice).unwrap_or(&[]) {
                let bad = self.avoid.forbids(player, other, r).is_some()
                    || (self.prefer && self.avoid.prefers_apart(player, other, r).is_some());
                if bad {
                    let k2 = (player.min(other), player.max(other));
                    *self.blame.entry(k2).or_default() += 1;
                    return false;
                }
            }
        }
        true
    }

    fn place(&mut self, placed: &mut Vec<Option<PlayerId>>, used: &mut Vec<bool>) -> bool {
        if placed.len() == self.seats {
            return true;
        }
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        let seat = placed.len() as u32 + 1;
        // The bye seat (odd field) is always the last number.
        if placed.len() == self.order.len() {
            placed.push(None);
            return true;
        }
        for i in 0..self.order.len() {
            if used[i] || !self.allowed(seat, self.order[i], placed) {
                continue;
            }
            used[i] = true;
            placed.push(Some(self.order[i]));
            if self.place(placed, used) {
                return true;
            }
            placed.pop();
            used[i] = false;
        }
        false
    }
}

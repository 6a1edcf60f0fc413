//! Who must not meet, and who should rather not.
//!
//! Morabaraba events keep relatives and club-mates apart, and how strictly
//! depends on the rule set (docs/pairing.md has the table):
//!
//! - `official` (OGR 11.3): relatives and club-mates are not paired "after
//!   two-thirds of the games have been played". With `T` rounds in all, that
//!   is every round `r > floor(2T/3)`: with 9 rounds, rounds 7-9; with 7
//!   rounds, rounds 5-7. Absolute.
//! - `gar`: first-degree relatives never meet (absolute); club or team mates
//!   do not meet in rounds 1-3 where possible (a preference the Swiss engine
//!   ranks right after the score-bracket criteria).
//!
//! Pairs the referee forbids by hand (all rounds or a range) are absolute
//! too. A waiver lifts every rule for its pair and is recorded, so the
//! explanation of a pairing that uses it can say so.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::explain::Rule;
use super::{ForbiddenPair, PlayerId, RuleSet, Waiver};

/// The ties between players that the avoidance rules look at.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ties {
    pub id: PlayerId,
    #[serde(default)]
    pub club: Option<String>,
    #[serde(default)]
    pub team: Option<String>,
    /// First-degree relatives (spouse, parent, child, sibling), by id. The
    /// relation is symmetric: listing it on one side is enough.
    #[serde(default)]
    pub relatives: Vec<PlayerId>,
}

fn key(a: PlayerId, b: PlayerId) -> (PlayerId, PlayerId) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

/// The avoidance rules of one tournament, ready to be asked about any pair in
/// any round.
#[derive(Debug, Clone)]
pub struct Avoidance {
    rules: RuleSet,
    total_rounds: u32,
    club: HashMap<PlayerId, usize>,
    team: HashMap<PlayerId, usize>,
    relatives: HashSet<(PlayerId, PlayerId)>,
    forbidden: HashMap<(PlayerId, PlayerId), Vec<ForbiddenPair>>,
    waivers: HashMap<(PlayerId, PlayerId), Waiver>,
}

impl Avoidance {
    pub fn new(
        rules: RuleSet,
        total_rounds: u32,
        ties: &[Ties],
        forbidden: &[ForbiddenPair],
        waivers: &[Waiver],
    ) -> Self {
        let mut names: HashMap<String, usize> = HashMap::new();
        let mut intern = |s: &str| {
            let next = names.len();
            *names.entry(s.trim().to_lowercase()).or_insert(next)
        };
        let mut club = HashMap::new();
        let mut team = HashMap::new();
        let mut relatives = HashSet::new();
        for t in ties {
            if let Some(c) = t.club.as_deref().filter(|c| !c.trim().is_empty()) {
                club.insert(t.id, intern(&format!("club:{c}")));
            }
            if let Some(c) = t.team.as_deref().filter(|c| !c.trim().is_empty()) {
                team.insert(t.id, intern(&format!("team:{c}")));
            }
            for &r in &t.relatives {
                if r != t.id {
                    relatives.insert(key(t.id, r));
                }
            }
        }
        let mut fb: HashMap<_, Vec<ForbiddenPair>> = HashMap::new();
        for f in forbidden {
            if f.a != f.b {
                fb.entry(key(f.a, f.b)).or_default().push(f.clone());
            }
        }
        let waivers = waivers.iter().map(|w| (key(w.a, w.b), w.clone())).collect();
        Avoidance {
            rules,
            total_rounds,
            club,
            team,
            relatives,
            forbidden: fb,
            waivers,
        }
    }

    /// Every pair among `ids` that some rule of this tournament touches in
    /// `round` (ask [`Avoidance::forbids`] which ones it forbids).
    pub fn candidate_pairs(&self, ids: &[PlayerId], round: u32) -> Vec<(PlayerId, PlayerId)> {
        let present: HashSet<PlayerId> = ids.iter().copied().collect();
        let both = |&(a, b): &(PlayerId, PlayerId)| present.contains(&a) && present.contains(&b);
        let mut out: Vec<(PlayerId, PlayerId)> =
            self.forbidden.keys().filter(|k| both(k)).copied().collect();
        out.extend(self.relatives.iter().filter(|k| both(k)).copied());
        if self.rules == RuleSet::Official && round >= Self::last_third_start(self.total_rounds) {
            for map in [&self.club, &self.team] {
                let mut groups: HashMap<usize, Vec<PlayerId>> = HashMap::new();
                for &id in ids {
                    if let Some(&g) = map.get(&id) {
                        groups.entry(g).or_default().push(id);
                    }
                }
                for g in groups.values() {
                    for (x, &a) in g.iter().enumerate() {
                        for &b in &g[x + 1..] {
                            out.push(key(a, b));
                        }
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Whether the GAR club/team preference can matter at all.
    pub fn has_gar_mates(&self) -> bool {
        self.rules == RuleSet::Gar && (!self.club.is_empty() || !self.team.is_empty())
    }

    /// The rule set in force.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// First round of the "last third" under `official`: `floor(2T/3) + 1`.
    pub fn last_third_start(total_rounds: u32) -> u32 {
        2 * total_rounds / 3 + 1
    }

    fn same(map: &HashMap<PlayerId, usize>, a: PlayerId, b: PlayerId) -> bool {
        matches!((map.get(&a), map.get(&b)), (Some(x), Some(y)) if x == y)
    }

    /// Whether `a` and `b` are relatives.
    pub fn related(&self, a: PlayerId, b: PlayerId) -> bool {
        self.relatives.contains(&key(a, b))
    }

    /// Whether `a` and `b` share a club or a team.
    pub fn mates(&self, a: PlayerId, b: PlayerId) -> bool {
        Self::same(&self.club, a, b) || Self::same(&self.team, a, b)
    }

    /// The absolute rule that keeps `a` and `b` apart in `round`, ignoring
    /// waivers.
    pub fn rule_forbidding(&self, a: PlayerId, b: PlayerId, round: u32) -> Option<Rule> {
        if let Some(list) = self.forbidden.get(&key(a, b)) {
            if let Some(f) = list.iter().find(|f| f.covers(round)) {
                return Some(Rule::KeptApart {
                    from: f.from_round,
                    to: f.to_round,
                });
            }
        }
        let related = self.related(a, b);
        match self.rules {
            RuleSet::Official => {
                let from = Self::last_third_start(self.total_rounds);
                (round >= from && (related || self.mates(a, b))).then_some(Rule::LastThird {
                    relatives: related,
                    from,
                    to: self.total_rounds,
                })
            }
            RuleSet::Gar => related.then_some(Rule::RelativesNever),
        }
    }

    /// The absolute rule keeping `a` and `b` apart in `round`, unless waived.
    pub fn forbids(&self, a: PlayerId, b: PlayerId, round: u32) -> Option<Rule> {
        if self.waivers.contains_key(&key(a, b)) {
            return None;
        }
        self.rule_forbidding(a, b, round)
    }

    /// The "where possible" rule that would rather keep `a` and `b` apart in
    /// `round` (GAR: club or team mates in rounds 1-3), unless waived.
    pub fn prefers_apart(&self, a: PlayerId, b: PlayerId, round: u32) -> Option<Rule> {
        if self.rules != RuleSet::Gar
            || round > 3
            || self.waivers.contains_key(&key(a, b))
            || !self.mates(a, b)
        {
            return None;
        }
        Some(Rule::MatesEarly)
    }

    /// The waiver that let `a` and `b` meet in `round`, if a rule would
    /// otherwise have kept them apart.
    pub fn waiver_used(&self, a: PlayerId, b: PlayerId, round: u32) -> Option<(&Waiver, Rule)> {
        let w = self.waivers.get(&key(a, b))?;
        let rule = self.rule_forbidding(a, b, round).or_else(|| {
            (self.rules == RuleSet::Gar && round <= 3 && self.mates(a, b))
                .then_some(Rule::MatesEarly)
        })?;
        Some((w, rule))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ties() -> Vec<Ties> {
        vec![
            Ties {
                id: 1,
                club: Some("Soweto".into()),
                relatives: vec![3],
                ..Default::default()
            },
            Ties {
                id: 2,
                club: Some("soweto ".into()),
                ..Default::default()
            },
            Ties {
                id: 3,
                club: Some("Durban".into()),
                ..Default::default()
            },
        ]
    }

    #[test]
    fn official_keeps_relatives_and_club_mates_apart_only_in_the_last_third() {
        let av = Avoidance::new(RuleSet::Official, 9, &ties(), &[], &[]);
        assert_eq!(Avoidance::last_third_start(9), 7);
        assert_eq!(Avoidance::last_third_start(7), 5);
        assert!(av.forbids(1, 2, 6).is_none());
        assert!(av.forbids(1, 2, 7).is_some());
        assert!(av.forbids(1, 3, 6).is_none());
        assert!(av.forbids(3, 1, 9).is_some());
        assert!(av.forbids(2, 3, 9).is_none());
    }

    #[test]
    fn gar_forbids_relatives_always_and_prefers_club_mates_apart_early() {
        let av = Avoidance::new(RuleSet::Gar, 9, &ties(), &[], &[]);
        assert!(av.forbids(1, 3, 1).is_some());
        assert!(av.forbids(1, 2, 1).is_none());
        assert!(av.prefers_apart(1, 2, 3).is_some());
        assert!(av.prefers_apart(1, 2, 4).is_none());
    }

    #[test]
    fn waiver_lifts_a_forbidden_range_and_is_reported() {
        let fp = ForbiddenPair {
            a: 2,
            b: 3,
            from_round: Some(2),
            to_round: Some(4),
        };
        let av = Avoidance::new(
            RuleSet::Official,
            9,
            &ties(),
            std::slice::from_ref(&fp),
            &[],
        );
        assert!(av.forbids(2, 3, 1).is_none());
        assert!(av.forbids(3, 2, 4).is_some());
        let w = Waiver {
            a: 3,
            b: 2,
            reason: "only two juniors left".into(),
        };
        let av = Avoidance::new(RuleSet::Official, 9, &ties(), &[fp], &[w]);
        assert!(av.forbids(2, 3, 3).is_none());
        assert!(av.waiver_used(2, 3, 3).is_some());
        assert!(av.waiver_used(2, 3, 1).is_none());
    }
}

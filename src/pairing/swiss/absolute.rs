//! The absolute criteria (C.04.3, 2025, C1-C3; C3 concerns colours and
//! does not apply): who may meet whom in this round. Two players may meet
//! unless they already played each other over the board (C1; C.04.1 counts
//! only games played, so a forfeit is no meeting) or the avoidance rules
//! forbid the pair this round; the bye seat may meet a player who has had
//! neither the pairing-allocated bye nor a forfeit win (C2), of the score
//! C5 settles (see `bye`).

use std::collections::HashMap;

use super::brackets::Seat;
use crate::pairing::avoidance::Avoidance;
use crate::pairing::{PlayerId, Points};

pub(super) struct Engine<'a> {
    pub(super) seats: &'a [Seat],
    pub(super) avoid: &'a Avoidance,
    pub(super) round: u32,
    /// Incompatible partners of each seat, sorted (index into `seats`).
    pub(super) incompatible: Vec<Vec<u32>>,
    /// The score of the player who gets the pairing-allocated bye (C5),
    /// when the field is odd.
    pub(super) bye_score: Option<Points>,
    /// Each bracket's pairing by the criteria and C8 (before the `gar`
    /// club-mates look-ahead), by its players in order.
    pub(super) paired_brackets: std::cell::RefCell<HashMap<Vec<usize>, Vec<Option<usize>>>>,
    /// Where this round took a path that is not the handbook's exact
    /// procedure (a size limit, see docs/pairing.md "What differs"), in
    /// words. Empty on every field the benchmarks and tests pair.
    pub(super) shortcuts: std::cell::RefCell<Vec<String>>,
}

impl<'a> Engine<'a> {
    pub(super) fn new(seats: &'a [Seat], avoid: &'a Avoidance, round: u32) -> Self {
        let index: HashMap<PlayerId, usize> = seats
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.is_bye)
            .map(|(i, s)| (s.id, i))
            .collect();
        let mut incompatible = vec![Vec::new(); seats.len()];
        let mut add = |a: usize, b: usize| {
            incompatible[a].push(b as u32);
            incompatible[b].push(a as u32);
        };
        for (i, s) in seats.iter().enumerate() {
            if s.is_bye {
                for (j, t) in seats.iter().enumerate() {
                    if !t.is_bye && t.bye_used {
                        add(i, j);
                    }
                }
                continue;
            }
            for o in &s.opponents {
                if let Some(&j) = index.get(o) {
                    if j > i {
                        add(i, j);
                    }
                }
            }
        }
        for (a, b) in avoid_candidates(seats, avoid, round) {
            let (i, j) = (index[&a], index[&b]);
            if avoid.forbids(a, b, round).is_some() {
                add(i, j);
            }
        }
        for v in incompatible.iter_mut() {
            v.sort_unstable();
            v.dedup();
        }
        let mut engine = Engine {
            seats,
            avoid,
            round,
            incompatible,
            bye_score: None,
            paired_brackets: Default::default(),
            shortcuts: Default::default(),
        };
        engine.settle_bye_score();
        engine
    }

    pub(super) fn compatible(&self, a: usize, b: usize) -> bool {
        a != b && self.incompatible[a].binary_search(&(b as u32)).is_err()
    }

    /// Notes a path that is not the handbook's exact procedure.
    pub(super) fn shortcut(&self, what: String) {
        self.shortcuts.borrow_mut().push(what);
    }

    pub(super) fn avoid_is_gar_early(&self) -> bool {
        self.round <= 3 && self.avoid.has_gar_mates()
    }
}

/// Pairs the avoidance rules may touch this round.
pub(super) fn avoid_candidates(
    seats: &[Seat],
    avoid: &Avoidance,
    round: u32,
) -> Vec<(PlayerId, PlayerId)> {
    let ids: Vec<PlayerId> = seats.iter().filter(|s| !s.is_bye).map(|s| s.id).collect();
    avoid.candidate_pairs(&ids, round)
}

//! The order of the players (C.04.3, 2025, Article 1.2: score, then
//! pairing number) and the brackets (1.3): each scoregroup with the
//! players moved down into it, paired from the top. Also the floats a
//! player received in past rounds (1.4).

use std::collections::HashMap;

use super::absolute::Engine;
use super::criteria::{bits_for, Weights};
use super::{EntryKind, SwissPlayer};
use crate::pairing::explain::FloatDirection;
use crate::pairing::{matching, PairingError, PlayerId, Points};

/// What the engine derives about a player before pairing.
#[derive(Debug, Clone)]
pub(super) struct Seat {
    pub(super) id: PlayerId,
    /// Pairing number, 1 = strongest.
    pub(super) tpn: u32,
    pub(super) score: Points,
    pub(super) opponents: Vec<PlayerId>,
    /// Already had the allocated bye or a forfeit win (C2).
    pub(super) bye_used: bool,
    /// Rounds so far without a game over the board (forfeits, byes,
    /// absences, rounds before entry): what C9 minimises for the player who
    /// gets the pairing-allocated bye.
    pub(super) unplayed: u32,
    /// Floats one and two rounds ago.
    pub(super) float1: Option<FloatDirection>,
    pub(super) float2: Option<FloatDirection>,
    pub(super) is_bye: bool,
}

/// Pairing numbers: earlier entry first, then rating (highest first, unrated
/// last), then name, then id. Returns id -> number.
pub fn pairing_numbers(players: &[SwissPlayer]) -> HashMap<PlayerId, u32> {
    let mut order: Vec<&SwissPlayer> = players.iter().collect();
    order.sort_by(|a, b| {
        a.entered_round
            .max(1)
            .cmp(&b.entered_round.max(1))
            .then(
                b.rating
                    .unwrap_or(i32::MIN)
                    .cmp(&a.rating.unwrap_or(i32::MIN)),
            )
            .then(a.name.cmp(&b.name))
            .then(a.id.cmp(&b.id))
    });
    order
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id, i as u32 + 1))
        .collect()
}

/// Scores before the round being paired, by id.
pub fn scores(players: &[SwissPlayer]) -> HashMap<PlayerId, Points> {
    players
        .iter()
        .map(|p| (p.id, p.history.iter().map(|e| e.points).sum()))
        .collect()
}

/// The float a player received in a past round.
pub(super) fn float_in_round(
    p: &SwissPlayer,
    round_index: usize,
    running: &HashMap<PlayerId, Vec<Points>>,
) -> Option<FloatDirection> {
    if (round_index as u32) + 1 < p.entered_round {
        return None;
    }
    let e = p.history.get(round_index)?;
    match e.kind {
        EntryKind::Played => {
            let me = running[&p.id][round_index];
            let opp = running.get(&e.opponent?)?.get(round_index).copied()?;
            match me.cmp(&opp) {
                std::cmp::Ordering::Greater => Some(FloatDirection::Down),
                std::cmp::Ordering::Less => Some(FloatDirection::Up),
                std::cmp::Ordering::Equal => None,
            }
        }
        // C.04.3 (2025) 1.4.3: a player who is not paired in a round gets a
        // downfloat only when the round brought more than a loss (a bye with
        // points, a forfeit win); a forfeit loss, a zero-point bye or an
        // absence is no float.
        _ if e.points > 0 => Some(FloatDirection::Down),
        _ => None,
    }
}

impl Engine<'_> {
    /// Pairs the brackets from seat `start` down, `moved_down` coming in.
    pub(super) fn run(
        &self,
        mut start: usize,
        mut moved_down: Vec<usize>,
        lookahead: bool,
        mate: &mut [Option<(usize, Points)>],
    ) -> Result<(), PairingError> {
        let n = self.seats.len();
        while start < n {
            let mut end = start + 1;
            while end < n && self.seats[end].score == self.seats[start].score {
                end += 1;
            }
            let mut bracket = std::mem::take(&mut moved_down);
            bracket.extend(start..end);
            let lower: Vec<usize> = (end..n).collect();
            let bracket_score = self.seats[start].score;
            // A bracket (its players, in order) is paired the same way
            // whenever it comes up: under `gar` the rounds played out for
            // club-mates meet the same brackets again.
            let known = self.paired_brackets.borrow().get(&bracket).cloned();
            let mut local = match known {
                Some(local) => local,
                None => {
                    let (mut local, perfect) = self.settle_bracket(&bracket, &lower)?;
                    // C8 (2025) looks at the following bracket whenever
                    // there is one (the 2017 C7 skipped the penultimate
                    // bracket). A perfect candidate has settled it already.
                    if !perfect && end < n && self.brackets_from(end) >= 1 {
                        local = match self.next_bracket_exact(&bracket, &lower, &local, end) {
                            Some(exact) => exact,
                            None => {
                                if bracket.len() > 1 && local.iter().any(Option::is_none) {
                                    self.shortcut(format!(
                                        "C8 for a bracket of {} players was compared among a \
                                         few alternatives",
                                        bracket.len()
                                    ));
                                }
                                self.next_bracket_best(&bracket, &lower, local, end)
                            }
                        };
                    }
                    self.paired_brackets
                        .borrow_mut()
                        .insert(bracket.clone(), local.clone());
                    local
                }
            };
            if lookahead {
                local = self.keep_mates_apart(&bracket, &lower, local, end, bracket_score, mate);
            }
            moved_down = Self::apply(&bracket, &local, bracket_score, mate);
            start = end;
        }
        if !moved_down.is_empty() {
            return Err(self.diagnose());
        }
        Ok(())
    }

    /// Number of score brackets of real players from seat `start` on (the
    /// bye seat is not a bracket).
    pub(super) fn brackets_from(&self, start: usize) -> usize {
        let real: Vec<&Seat> = self.seats[start..].iter().filter(|s| !s.is_bye).collect();
        1 + real.windows(2).filter(|w| w[0].score != w[1].score).count()
            - usize::from(real.is_empty())
    }

    pub(super) fn apply(
        bracket: &[usize],
        local: &[Option<usize>],
        bracket_score: Points,
        mate: &mut [Option<(usize, Points)>],
    ) -> Vec<usize> {
        let mut down = Vec::new();
        for (k, &p) in bracket.iter().enumerate() {
            match local[k] {
                Some(q) => mate[p] = Some((bracket[q], bracket_score)),
                None => down.push(p),
            }
        }
        down
    }

    /// Pairs one bracket (moved-down players first, then residents) and
    /// returns, per bracket position, its partner's position.
    #[cfg(test)]
    pub(super) fn pair_bracket(
        &self,
        bracket: &[usize],
        lower: &[usize],
    ) -> Result<Vec<Option<usize>>, PairingError> {
        self.settle_bracket(bracket, lower).map(|(local, _)| local)
    }

    /// As [`Engine::pair_bracket`], and whether the pairing is a perfect
    /// candidate (Article 3.4), which already meets C8.
    pub(super) fn settle_bracket(
        &self,
        bracket: &[usize],
        lower: &[usize],
    ) -> Result<(Vec<Option<usize>>, bool), PairingError> {
        let w = Weights::new(self, bracket, 118, bracket.len());
        let k = bracket.len();
        if let Some(perfect) = self
            .ideal_is_best(&w)
            .or_else(|| self.first_perfect_candidate(&w, lower))
            .filter(|p| self.leaves_pairable(bracket, p, lower))
        {
            return Ok((perfect, true));
        }
        if let Some(why) = &w.narrowed {
            self.shortcut(why.clone());
        }
        let local = if let Some(local) = self
            .in_handbook_order(&w, &[])
            .or_else(|| self.by_exchanges(&w))
        {
            local
        } else {
            let bye_seats = w.bracket.iter().any(|&i| self.seats[i].is_bye);
            if !bye_seats {
                self.shortcut(format!(
                    "a bracket of {k} players whose digits do not fit was ordered by \
                     sequential choice"
                ));
            }
            self.in_dutch_order(&w, &[])
                .unwrap_or_else(|| self.solve(&w))
        };
        if self.leaves_pairable(bracket, &local, lower) {
            return Ok((local, false));
        }
        // C4: the bracket must leave the players below pairable: the first
        // candidate in the handbook's order among the best that allow
        // completion.
        if let Some(local) = self.in_handbook_order_completing(&w, lower) {
            if self.leaves_pairable(bracket, &local, lower) {
                return Ok((local, false));
            }
        }
        // No candidate completes the round: completion's last resort, which
        // the text leaves open. The bracket is solved together with the
        // players below, completeness first, widening to everyone below if
        // a nearer window is not enough; then two moved-down players may
        // meet (the brackets above checked completion with every
        // compatible pair).
        const WINDOW: usize = 1200;
        for mdp_pairs in [false, true] {
            if mdp_pairs && w.movers < 2 {
                break;
            }
            let mut take = WINDOW.saturating_sub(k).max(16).min(lower.len());
            loop {
                let mut jw =
                    Weights::new(self, bracket, 110 - bits_for((k + take) as i128), k + take);
                jw.mdp_pairs_allowed = mdp_pairs;
                let joint = self.joint(&jw, bracket, &lower[..take]);
                if self.leaves_pairable(bracket, &joint, lower) {
                    return Ok((joint, false));
                }
                if take == lower.len() {
                    break;
                }
                take = (take * 4).min(lower.len());
            }
        }
        Err(self.diagnose())
    }

    /// C4 for one bracket's pairing `local`: its downfloaters and the
    /// players below can all still be paired. The last bracket floats
    /// nobody (there is no bracket below to take a downfloater).
    pub(super) fn leaves_pairable(
        &self,
        bracket: &[usize],
        local: &[Option<usize>],
        lower: &[usize],
    ) -> bool {
        let mut rest: Vec<usize> = (0..bracket.len())
            .filter(|&i| local[i].is_none())
            .map(|i| bracket[i])
            .collect();
        if lower.is_empty() {
            return rest.is_empty();
        }
        rest.extend_from_slice(lower);
        self.pairable(&rest)
    }

    /// The best pairing of a bracket by one maximum-weight matching.
    pub(super) fn solve(&self, w: &Weights) -> Vec<Option<usize>> {
        self.solve_banning(w, None)
    }

    /// As [`Engine::solve`], with the player at bracket position `banned`
    /// left unpaired (made to float).
    pub(super) fn solve_without(&self, w: &Weights, banned: usize) -> Vec<Option<usize>> {
        self.solve_banning(w, Some(banned))
    }

    /// The alternatives compared where no exact search is in reach: the
    /// bracket solved again with one more of the players `local` pairs
    /// made to float, lowest-ranked first as they float first, at most 16
    /// of them. Yields that player's position and the pairing, each solved
    /// only when asked for.
    pub(super) fn one_more_floater<'s>(
        &'s self,
        w: &'s Weights<'s, 's>,
        local: &[Option<usize>],
    ) -> impl Iterator<Item = (usize, Vec<Option<usize>>)> + 's {
        let paired: Vec<usize> = (0..w.bracket.len())
            .rev()
            .filter(|&a| local[a].is_some())
            .take(16)
            .collect();
        paired
            .into_iter()
            .map(move |x| (x, self.solve_without(w, x)))
    }

    fn solve_banning(&self, w: &Weights, banned: Option<usize>) -> Vec<Option<usize>> {
        let k = w.bracket.len();
        crate::with_width!(w.pairing_bits(), W => {
            matching::max_weight(&w.matrix::<W>(true, banned.as_slice()), k)
        })
    }
}

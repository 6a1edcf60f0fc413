//! Hand swaps: what a referee is told before exchanging two players of a
//! draft round.

use crate::db::players::Player;
use crate::db::rounds::{self, Round};
use crate::db::users::User;
use crate::db::{DbConnection, DbError};
use crate::pairing::swiss::EntryKind;
use crate::refusal::Refusal;
use crate::tournament::ByeKind;

use super::{pid, TournamentData};
use crate::ids::{EntryId, RoundNo, TournamentId};

impl TournamentData {
    /// Every rule a hand swap of `a` and `b` in `round` would break, as
    /// sentences a referee reads before confirming.
    pub fn swap_warnings(&self, round: &Round, a: EntryId, b: EntryId) -> Vec<String> {
        let name = |id: EntryId| {
            self.players
                .iter()
                .find(|p| p.id == id)
                .map_or_else(|| format!("player {id}"), |p| p.name.clone())
        };
        let swapped = |x: Option<EntryId>| match x {
            Some(x) if x == a => Some(b),
            Some(x) if x == b => Some(a),
            other => other,
        };
        let players: Vec<&Player> = self.players.iter().collect();
        let (forbidden, waivers) = self.kept_apart(Some(round.number));
        let avoid = crate::pairing::avoidance::Avoidance::new(
            self.tournament.rules,
            self.total_rounds().unwrap_or(round.number.0) as u32,
            &self.ties(&players),
            &forbidden,
            &waivers,
        );
        let earlier: Vec<&Round> = self
            .rounds
            .iter()
            .filter(|r| r.number < round.number)
            .collect();
        let met = |x: EntryId, y: EntryId| {
            earlier.iter().any(|r| {
                self.pairings_of(r).iter().any(|p| {
                    (p.first_player_id == Some(x) && p.second_player_id == Some(y))
                        || (p.first_player_id == Some(y) && p.second_player_id == Some(x))
                })
            })
        };
        // The Swiss engine's notion of a used bye (C2): the allocated bye or
        // a forfeit win, read from the same outcomes its history is built of.
        let used_bye = |x: EntryId| {
            earlier.iter().find_map(|r| {
                let (kind, _) = self.outcome(x, r).entry();
                kind.uses_bye().then_some((r.number, kind))
            })
        };
        let mut out = Vec::new();
        for p in self.pairings_of(round) {
            let (f, s) = (swapped(p.first_player_id), swapped(p.second_player_id));
            if (f, s) == (p.first_player_id, p.second_player_id) {
                continue;
            }
            match (f, s) {
                (Some(x), Some(y)) => {
                    if met(x, y) {
                        out.push(format!(
                            "{} and {} have met before: a rematch (C1)",
                            name(x),
                            name(y)
                        ));
                    }
                    if let Some(r) = avoid.forbids(pid(x), pid(y), round.number.0 as u32) {
                        out.push(format!("{} and {}: {r}", name(x), name(y)));
                    } else if let Some(r) =
                        avoid.prefers_apart(pid(x), pid(y), round.number.0 as u32)
                    {
                        out.push(format!("{} and {}: {r}", name(x), name(y)));
                    }
                }
                (Some(x), None) if p.bye == Some(ByeKind::Allocated) => match used_bye(x) {
                    Some((n, EntryKind::ForfeitWin)) => out.push(format!(
                        "{} already won by forfeit in round {n}, which counts as a used bye: \
                             a second bye (C2)",
                        name(x)
                    )),
                    Some((n, _)) => out.push(format!(
                        "{} already had the pairing-allocated bye in round {n}: a second bye (C2)",
                        name(x)
                    )),
                    None => {}
                },
                _ => {}
            }
        }
        out
    }
}

/// What became of a swap asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Swap {
    /// Done, and recorded with the rules it broke (if any).
    Done,
    /// Not done: these rules would break, and the referee has not
    /// confirmed yet.
    NeedsConfirmation(Vec<String>),
}

/// Exchanges players `a` and `b` of draft round `n`: refused with the rules
/// it would break until `confirmed`; done in one transaction, recorded with
/// those rules in the audit trail.
pub fn swap(
    conn: &mut DbConnection,
    tid: TournamentId,
    n: RoundNo,
    (a, b): (EntryId, EntryId),
    confirmed: bool,
    by: &User,
) -> Result<Swap, DbError> {
    let data = super::load(conn, tid)?;
    if data.is_team_event() {
        return Err(DbError::Refused(Refusal::Conflict(
            crate::conflict::Conflict::SwapInTeamEvent,
        )));
    }
    let round = data.round(n, true)?;
    let broken = data.swap_warnings(&round, a, b);
    if !broken.is_empty() && !confirmed {
        return Ok(Swap::NeedsConfirmation(broken));
    }
    super::commit(conn, Some(by.id), |w| {
        rounds::swap_players(w, tid, n, a, b, &broken)
    })?;
    Ok(Swap::Done)
}

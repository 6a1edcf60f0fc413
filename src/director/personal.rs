//! What a player does through their personal link: report their games'
//! results and say whether they play the next round.
//!
//! The key in the link is the only permission. A wrong key, a revoked one
//! and a copy of an event published from a venue are all "no such link":
//! a copy changes at the venue, never here.

use crate::db::audit::Write;
use crate::db::byes::{self, RequestedBye};
use crate::db::players::{self, Player};
use crate::db::rounds::{self, Game};
use crate::db::tournaments::{self, Tournament};
use crate::db::{links, reports as stored, DbConnection, DbError};
use crate::refusal::{Refusal, Thing};
use crate::reports::{self, Closed, GameNow, Outcome, Reports};
use crate::results::{EnteredBy, GameResult, ResultEdit};
use crate::rounds::{OnGames, Refused};

use super::TournamentData;
use crate::ids::{EntryId, GameId, RoundNo, TournamentId};

/// The holder of a live link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Holder {
    pub tournament: TournamentId,
    pub player: EntryId,
}

/// The player whose live link `key` is.
pub fn holder(conn: &mut DbConnection, key: &str) -> Result<Holder, DbError> {
    let (player, tournament) =
        links::find(conn, key)?.ok_or(DbError::Refused(Refusal::NotFound(Thing::PlayerLink)))?;
    if crate::db::published::of_tournament(conn, tournament)?.is_some() {
        return Err(DbError::Refused(Refusal::NotFound(Thing::PlayerLink)));
    }
    Ok(Holder { tournament, player })
}

/// The tournament as its player's page reads it, and who the player is.
pub struct Own {
    /// Shared by every player's page at one revision of the event.
    pub data: std::sync::Arc<TournamentData>,
    pub player: Player,
    /// The next round still to pair (`None`: every round is paired).
    pub next_round: Option<RoundNo>,
}

impl Own {
    /// The byes this player asked for (or the referee recorded for them).
    pub fn byes(&self) -> Vec<&RequestedBye> {
        self.data
            .byes
            .iter()
            .filter(|b| b.player_id == self.player.id)
            .collect()
    }

    /// The player's word on the next round, if they gave one.
    pub fn next_bye(&self) -> Option<&RequestedBye> {
        let n = self.next_round?;
        self.byes().into_iter().find(|b| b.round == n)
    }

    /// The last day a phone keeps this player's page for reading offline:
    /// 30 days after the event's last round, or after its last day if
    /// that is later (the event may have rounds still to come); counted
    /// from `today` while neither is known.
    pub fn kept_until(&self, today: chrono::NaiveDate) -> chrono::NaiveDate {
        let last_round = self.data.rounds.iter().map(|r| r.played_on).max();
        let last = last_round
            .max(self.data.tournament.ends_on)
            .unwrap_or(today);
        last + chrono::Days::new(KEPT_DAYS)
    }

    /// The round of the half-point bye this player has had, if any.
    pub fn half_bye_taken(&self) -> Option<RoundNo> {
        self.byes().into_iter().find(|b| b.half).map(|b| b.round)
    }
}

/// How many days after the event a phone keeps a player's page.
pub const KEPT_DAYS: u64 = 30;

/// The holder of `key`, and the revision their event is at now: what a
/// reader needs to find the event as already loaded (`own`).
pub fn holder_at(conn: &mut DbConnection, key: &str) -> Result<(Holder, i32), DbError> {
    let h = holder(conn, key)?;
    let revision = tournaments::revision(conn, h.tournament)?;
    Ok((h, revision))
}

/// What the holder `h` sees of `data`, their event (loaded once for every
/// player's page at its revision).
pub fn own(h: Holder, data: std::sync::Arc<TournamentData>) -> Result<Own, DbError> {
    let player = data
        .players
        .iter()
        .find(|p| p.id == h.player)
        .cloned()
        .ok_or(DbError::Refused(Refusal::NotFound(Thing::PlayerLink)))?;
    let next_round = next_round(&data.tournament, data.rounds.len() as i32);
    Ok(Own {
        data,
        player,
        next_round,
    })
}

/// The round after the `paired` ones, while the event has one.
fn next_round(t: &Tournament, paired: i32) -> Option<RoundNo> {
    let next = paired + 1;
    (next <= t.last_round()).then_some(RoundNo(next))
}

/// What a report did.
#[derive(Debug, Clone)]
pub struct Reported {
    pub outcome: Outcome,
    /// The game as stored now.
    pub game: Game,
    pub reports: Reports,
    pub round: RoundNo,
    pub table: i32,
}

/// Records the holder of `key`'s report of game `game_id`. The game's row
/// is held first, so two reports at once (or a report and the referee's
/// entry) are one after the other, the second reading the first.
pub fn report(
    conn: &mut DbConnection,
    key: &str,
    game_id: GameId,
    result: GameResult,
) -> Result<Reported, DbError> {
    let h = holder(conn, key)?;
    super::commit(conn, None, |w| report_in(w, h, game_id, result))
}

/// Game `game_id`, when it is a game of holder `h`'s pairing in a
/// published round: what a player's report and their board both ask.
pub fn holders_game(
    conn: &mut DbConnection,
    h: Holder,
    game_id: GameId,
) -> Result<rounds::GameContext, DbError> {
    let not_yours = || DbError::Refused(Refusal::Round(Refused::NotYourGame { game: game_id.0 }));
    let ctx = rounds::game_context(conn, game_id).map_err(|_| not_yours())?;
    let sits = ctx.pairing.first_player_id == Some(h.player)
        || ctx.pairing.second_player_id == Some(h.player);
    if ctx.round.tournament_id != h.tournament || !sits {
        return Err(not_yours());
    }
    if !ctx.round.is_published() {
        return Err(Refused::Draft {
            round: ctx.round.number.0,
            doing: OnGames::Reports,
        }
        .into());
    }
    Ok(ctx)
}

fn report_in(
    w: &mut Write,
    h: Holder,
    game_id: GameId,
    result: GameResult,
) -> Result<Reported, DbError> {
    rounds::hold_game(w, game_id)?;
    let ctx = holders_game(w.conn(), h, game_id)?;
    let first = ctx.pairing.first_player_id == Some(h.player);
    if ctx.round.locked_at.is_some() {
        return Err(Refused::ReportLocked {
            round: ctx.round.number.0,
        }
        .into());
    }
    if !reports::may_report(result) {
        return Err(Refused::ReportNotPlayed.into());
    }
    let mut two = Reports::default();
    for r in stored::of_games(w.conn(), &[game_id])? {
        if Some(r.player_id) == ctx.pairing.first_player_id {
            two.first = Some(r.result);
        } else if Some(r.player_id) == ctx.pairing.second_player_id {
            two.second = Some(r.result);
        }
    }
    let now = GameNow {
        result: ctx.game.result,
        reported: ctx.game.reported,
    };
    match reports::closed(now, two) {
        Some(Closed::ByReferee(r)) => {
            return Err(Refused::ReportedByReferee {
                result: r.as_str().to_string(),
            }
            .into())
        }
        Some(Closed::Agreed(r)) => {
            return Err(Refused::ReportAgreed {
                result: r.as_str().to_string(),
            }
            .into())
        }
        None => {}
    }
    let t = tournaments::find(w.conn(), h.tournament)?;
    let mine = if first { two.first } else { two.second };
    if mine == Some(result) {
        // The same report again (a phone that lost the answer, two sends
        // that crossed): it is stored already, and nothing changes.
        return Ok(Reported {
            outcome: reports::outcome(t.confirmation, two),
            game: ctx.game.clone(),
            reports: two,
            round: ctx.round.number,
            table: ctx.pairing.table_no,
        });
    }
    stored::put(w, &ctx, h.player, result)?;
    two.set(first, result);
    let outcome = reports::outcome(t.confirmation, two);
    let mut game = ctx.game.clone();
    if let Some(wanted) = reports::stored_change(now, outcome) {
        let by = match outcome {
            Outcome::Store { both: true, .. } => EnteredBy::BothPlayers,
            Outcome::Store { both: false, .. } => EnteredBy::OnePlayer,
            _ => EnteredBy::Disputed,
        };
        let edit = ResultEdit {
            game: game_id,
            wanted,
            seen_version: None,
            by,
        };
        let saved = super::results::save_in(w, h.tournament, &[edit], &[])?;
        if let Some(g) = saved.saved.into_iter().next() {
            game = g;
        }
    }
    Ok(Reported {
        outcome,
        game,
        reports: two,
        round: ctx.round.number,
        table: ctx.pairing.table_no,
    })
}

/// The player's word on the next round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NextRound {
    /// They will play it.
    Play,
    /// A zero-point absence.
    Zero,
    /// A half-point bye (where the event offers it, once).
    Half,
}

impl NextRound {
    /// Every word, as the player's page posts it and the API names a bye.
    pub const ALL: [NextRound; 3] = [NextRound::Play, NextRound::Zero, NextRound::Half];

    /// `play`, `zero` or `half`.
    pub fn as_str(self) -> &'static str {
        match self {
            NextRound::Play => "play",
            NextRound::Zero => "zero",
            NextRound::Half => "half",
        }
    }

    /// The word named `text` (as [`NextRound::as_str`] spells it).
    pub fn named(text: &str) -> Option<NextRound> {
        Self::ALL.into_iter().find(|w| w.as_str() == text.trim())
    }
}

/// What the next round holds for the player now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NextRoundState {
    pub round: RoundNo,
    pub word: NextRound,
}

/// Records the holder of `key`'s word on the next round: until that round
/// is paired they may take a zero-point absence, a half-point bye where the
/// event offers one and they have not had it, or take their word back.
pub fn next_round_word(
    conn: &mut DbConnection,
    key: &str,
    word: NextRound,
) -> Result<NextRoundState, DbError> {
    let h = holder(conn, key)?;
    super::commit(conn, None, |w| {
        let conn = w.conn();
        let t = tournaments::find(conn, h.tournament)?;
        let player = players::find(conn, h.tournament, h.player)?;
        let paired = tournaments::rounds_paired(conn, h.tournament)?;
        let round = next_round(&t, paired).ok_or(Refused::NoNextRound)?;
        if player
            .withdrawn_from_round
            .is_some_and(|from| from <= round)
        {
            return Err(Refused::PlayerWithdrawn.into());
        }
        let mine: Vec<RequestedBye> = byes::requested_byes(conn, h.tournament)?
            .into_iter()
            .filter(|b| b.player_id == h.player)
            .collect();
        let now = mine.iter().find(|b| b.round == round);
        let wanted_half = match word {
            NextRound::Play => None,
            NextRound::Zero => Some(false),
            NextRound::Half => Some(true),
        };
        if now.map(|b| b.half) == wanted_half {
            return Ok(NextRoundState { round, word });
        }
        if wanted_half == Some(true) {
            if !t.half_point_bye {
                return Err(Refused::HalfByeNotOffered.into());
            }
            if let Some(b) = mine.iter().find(|b| b.half && b.round != round) {
                return Err(Refused::HalfByeUsed { round: b.round.0 }.into());
            }
        }
        if now.is_some() {
            byes::cancel_bye(w, h.tournament, h.player, round, true)?;
        }
        if let Some(half) = wanted_half {
            byes::request_bye(w, h.tournament, h.player, round, half, true)?;
        }
        Ok(NextRoundState { round, word })
    })
}

/// Whether `key` is a personal link that holds (a wrong or revoked one
/// is answered by the write's own route, and no answer to it is kept).
pub fn link_holds(conn: &mut DbConnection, key: &str) -> Result<bool, DbError> {
    match holder(conn, key) {
        Ok(_) => Ok(true),
        Err(DbError::Refused(Refusal::NotFound(_))) => Ok(false),
        Err(e) => Err(e),
    }
}

/// The answer kept for a player's write sent before with its
/// `Idempotency-Key` (`link`: the digest of the link's key).
pub fn recalled(
    conn: &mut DbConnection,
    link: &str,
    key: &str,
) -> Result<Option<crate::db::idempotency::Answer>, DbError> {
    crate::db::idempotency::recall(conn, link, key)
}

/// Keeps the first answer to a player's write sent with a key. Not a
/// change of the event: the write it answers recorded its own.
pub fn keep_answer(
    conn: &mut DbConnection,
    answer: &crate::db::idempotency::Answer,
) -> Result<(), DbError> {
    crate::db::idempotency::keep(conn, answer)
}

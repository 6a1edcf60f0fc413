//! What a player's personal link shows: their game now, the round clock,
//! their word on the next round, their results and where they stand. The
//! page renders it; `GET /api/v1/player/{key}` serialises it.

use actix_web::HttpRequest;
use chrono::NaiveDateTime;
use serde::Serialize;

use crate::clock::{RoundClock, Tone};
use crate::director::model::Round;
use crate::director::personal::{self, NextRound, Own};
use crate::director::TournamentData;
use crate::reports::{self, Closed, GameNow};
use crate::results::GameResult;
use crate::standings::show_points;
use crate::tournament::{ByeKind, Confirmation};

use crate::web::error::AppError;
use crate::web::layout::absolute_url;
use crate::web::AppState;

use super::round::{pairing_views_of, GameView, PairingView};
use crate::ids::{EntryId, GameId, RoundNo, TournamentId};

/// Where one of the player's games stands for reporting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// Nobody has reported it.
    Open,
    /// One player reported; the other has not (or the event asks no
    /// confirmation and that word is stored).
    Waiting,
    /// The two reports differ: the referee decides.
    Disputed,
    /// Both agree; a referee confirms it on the desk.
    AwaitingReferee,
    /// Both reported it and it is stored.
    Agreed,
    /// A referee entered the result.
    ByReferee,
}

impl Standing {
    fn of(g: &GameView) -> Standing {
        let now = GameNow {
            result: g.result,
            reported: g.reported,
        };
        match reports::closed(now, g.reports) {
            Some(Closed::ByReferee(_)) => Standing::ByReferee,
            Some(Closed::Agreed(_)) => Standing::Agreed,
            None if g.reports.disputed() => Standing::Disputed,
            None if g.reports.agreed().is_some() => Standing::AwaitingReferee,
            None if g.reports.is_empty() => Standing::Open,
            None => Standing::Waiting,
        }
    }

    /// Whether the player may still report (or correct their report).
    pub fn open(self) -> bool {
        !matches!(self, Standing::Agreed | Standing::ByReferee)
    }
}

/// One game of the player's, from their side.
#[derive(Debug, Clone, Serialize)]
pub struct OwnGame {
    pub id: GameId,
    pub number: i32,
    pub tiebreak: bool,
    /// The player starts it (dark cows, OGR 3.1.3).
    pub you_start: bool,
    pub starter: String,
    /// The stored result, from the starter's side (`""` until one).
    pub result: &'static str,
    /// What the player and the opponent reported, from the starter's side.
    pub yours: Option<GameResult>,
    pub theirs: Option<GameResult>,
    pub state: Standing,
}

/// The player's pairing in the latest round they are in.
#[derive(Debug, Clone, Serialize)]
pub struct Current {
    pub round: RoundNo,
    pub table: i32,
    pub opponent: String,
    pub opponent_id: Option<EntryId>,
    /// Set where the player has no opponent this round.
    pub bye: Option<ByeKind>,
    /// The referee locked the round: results are the desk's now.
    pub locked: bool,
    pub games: Vec<OwnGame>,
    #[serde(skip)]
    pub clock: Option<RoundClock>,
}

/// One round in the player's results.
#[derive(Debug, Clone, Serialize)]
pub struct Line {
    pub round: RoundNo,
    pub opponent: String,
    pub bye: Option<ByeKind>,
    /// From the player's side, `1½-½`; empty until a result.
    pub score: String,
}

/// The player's word on the next round.
#[derive(Debug, Clone, Serialize)]
pub struct Next {
    pub round: RoundNo,
    pub play: bool,
    pub bye: Option<ByeKind>,
    /// They said it themselves (and may take it back); otherwise the
    /// referee recorded it.
    pub by_player: bool,
    /// A half-point bye is open to them now.
    pub half_offered: bool,
    /// The round of the half-point bye they have had.
    pub half_taken: Option<RoundNo>,
}

/// Everything the personal page shows.
#[derive(Debug, Clone)]
pub struct OwnView {
    pub tournament_id: TournamentId,
    pub tournament: String,
    pub revision: i32,
    pub confirmation: Confirmation,
    pub player_id: EntryId,
    pub name: String,
    pub withdrawn: bool,
    pub rank: Option<usize>,
    pub points: String,
    pub current: Option<Current>,
    pub lines: Vec<Line>,
    pub next: Option<Next>,
}

impl OwnView {
    /// The page of `own`, placed by `standings` (the event's, shared by
    /// every player's page at its revision: [`open`]).
    pub fn of(own: &Own, standings: &[crate::standings::Standing]) -> OwnView {
        let data = &own.data;
        let pid = own.player.id;
        let me = standings.iter().find(|s| s.id == pid.engine());
        let sits = |p: &crate::director::model::Pairing| {
            p.first_player_id == Some(pid) || p.second_player_id == Some(pid)
        };
        let mut lines = Vec::new();
        let mut current = None;
        for r in data.published() {
            for p in pairing_views_of(data, r, sits) {
                let first = p.first_id == Some(pid);
                lines.push(Line {
                    round: r.number,
                    opponent: if first {
                        p.second.clone()
                    } else {
                        p.first.clone()
                    },
                    bye: p.bye,
                    score: p.score_from(first),
                });
                current = Some(current_of(r, &p, first));
            }
        }
        // A requested bye in the latest round shows as such.
        if let Some(last) = data.published().last() {
            if current.as_ref().is_none_or(|c| c.round != last.number) {
                if let Some(b) = own.byes().into_iter().find(|b| b.round == last.number) {
                    current = Some(Current {
                        round: last.number,
                        table: 0,
                        opponent: String::new(),
                        opponent_id: None,
                        bye: Some(if b.half { ByeKind::Half } else { ByeKind::Zero }),
                        locked: last.locked_at.is_some(),
                        games: Vec::new(),
                        clock: last.clock(),
                    });
                }
            }
        }
        let next = own.next_round.map(|round| {
            let said = own.next_bye();
            let taken = own.half_bye_taken().filter(|r| *r != round);
            Next {
                round,
                play: said.is_none(),
                bye: said.map(|b| if b.half { ByeKind::Half } else { ByeKind::Zero }),
                by_player: said.is_some_and(|b| b.by_player),
                half_offered: data.tournament.half_point_bye && taken.is_none(),
                half_taken: taken,
            }
        });
        let withdrawn = own
            .player
            .withdrawn_from_round
            .is_some_and(|from| from <= own.next_round.unwrap_or(RoundNo(i32::MAX)));
        OwnView {
            tournament_id: data.tournament.id,
            tournament: data.tournament.name.clone(),
            revision: data.tournament.revision,
            confirmation: data.tournament.confirmation,
            player_id: pid,
            name: own.player.name.clone(),
            withdrawn,
            rank: me.map(|s| s.rank),
            points: me.map(|s| show_points(s.score)).unwrap_or_default(),
            current,
            lines,
            next,
        }
    }

    /// The player's word on the next round as the page's radio reads it.
    pub fn next_word(&self) -> Option<NextRound> {
        self.next.as_ref().map(|n| match n.bye {
            None => NextRound::Play,
            Some(ByeKind::Half) => NextRound::Half,
            Some(_) => NextRound::Zero,
        })
    }
}

fn current_of(r: &crate::director::model::Round, p: &PairingView, first: bool) -> Current {
    let games = p
        .games
        .iter()
        .map(|g| {
            let you_start = g.first_started == first;
            OwnGame {
                id: g.id,
                number: g.number,
                tiebreak: g.tiebreak,
                you_start,
                starter: g.starter.clone(),
                result: g.stored(),
                yours: g.reports.of(first),
                theirs: g.reports.of(!first),
                state: Standing::of(g),
            }
        })
        .collect();
    Current {
        round: r.number,
        table: p.table,
        opponent: if first {
            p.second.clone()
        } else {
            p.first.clone()
        },
        opponent_id: if first { p.second_id } else { p.first_id },
        bye: p.bye,
        locked: r.locked_at.is_some(),
        games,
        clock: r.clock(),
    }
}

/// A round clock as the pages and the API give it.
#[derive(Debug, Clone, Serialize)]
pub struct ClockJson {
    /// ISO 8601 in UTC (`...Z`).
    pub starts_at: String,
    pub minutes: i32,
    pub ends_at: String,
}

impl ClockJson {
    pub fn of(c: &RoundClock) -> ClockJson {
        ClockJson {
            starts_at: iso(c.starts_at),
            minutes: c.minutes,
            ends_at: iso(c.ends_at()),
        }
    }
}

/// A UTC moment as ISO 8601 with its `Z`.
pub fn iso(at: NaiveDateTime) -> String {
    at.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// The words of a clock at `now`, for a page without JavaScript (the
/// script counts down from `ends_at`).
pub fn clock_words(c: &RoundClock, now: NaiveDateTime) -> (Tone, String) {
    let tone = c.tone(now);
    let left = c.seconds_left(now);
    let words = match tone {
        Tone::Waiting => format!("Play starts at {} UTC", c.starts_at.format("%H:%M")),
        Tone::Over => "Time is up".to_string(),
        _ => format!("{}:{:02} left", left / 60, left % 60),
    };
    (tone, words)
}

/// A tone's spelling, for the page's `data-tone`.
pub fn tone_name(t: Tone) -> &'static str {
    match t {
        Tone::Waiting => "waiting",
        Tone::Running => "running",
        Tone::Amber => "amber",
        Tone::Red => "red",
        Tone::Over => "over",
    }
}

/// A player's personal link as the referee prints it.
#[derive(Debug, Clone, Serialize)]
pub struct PersonalLink {
    pub player: EntryId,
    pub name: String,
    /// `null` while the link is revoked.
    pub url: Option<String>,
    /// The player's table this round (0 for a bye).
    pub table: i32,
}

/// The personal links of everyone in `round` of the loaded tournament,
/// in the round's order: the cards, the slips' stubs and the API's list.
pub async fn round_links(
    state: &AppState,
    req: &HttpRequest,
    data: &TournamentData,
    round: &Round,
) -> Result<Vec<PersonalLink>, AppError> {
    let mut seated: Vec<(EntryId, i32)> = Vec::new();
    for p in data.pairings_of(round) {
        for id in [p.first_player_id, p.second_player_id]
            .into_iter()
            .flatten()
        {
            if !seated.iter().any(|(x, _)| *x == id) {
                seated.push((id, if p.bye.is_some() { 0 } else { p.table_no }));
            }
        }
    }
    let ids: Vec<EntryId> = seated.iter().map(|(id, _)| *id).collect();
    let keys = state
        .run(move |c| crate::director::links::keys(c, &ids))
        .await?;
    let names = data.player_names();
    Ok(seated
        .iter()
        .zip(keys)
        .map(|((id, table), key)| PersonalLink {
            player: *id,
            name: names.get(id).map(|s| s.to_string()).unwrap_or_default(),
            url: key.map(|k| absolute_url(req, &format!("/player/{k}"))),
            table: *table,
        })
        .collect())
}

/// What the holder of `key` sees, and the standings that place them: the
/// event as loaded once for every player's page at its current revision,
/// and ranked once (a result sends a thousand phones to their pages: one
/// load and one ranking, not a thousand). A wrong or revoked key counts
/// against the caller as the limiter says.
pub async fn open(
    state: &AppState,
    key: &str,
) -> Result<(Own, crate::web::cache::Ranked), AppError> {
    let k = key.to_string();
    let found = state.run(move |c| personal::holder_at(c, &k)).await;
    let (holder, revision) = state.limits.personal_answered(key, found)?;
    let data = crate::web::cache::shared_load(state, holder.tournament, revision).await?;
    let own = personal::own(holder, data).map_err(AppError::from);
    let own = state.limits.personal_answered(key, own)?;
    let standings = state.pages.standings(&own.data);
    Ok((own, standings))
}

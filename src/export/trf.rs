//! An individual event as FIDE TRF (`/t/ID/export.trf`, `kraal export trf
//! ID`): every published round, with the next round's requested byes and
//! withdrawals, the point system, the kept-apart pairs and Kraal's lines for
//! clubs, relatives and waivers (see [`crate::pairing::format::write_trf`]).
//! `kraal pair` reads it back to the pairing the app makes for that round.
//! The points column and `BBW` ... agree with the round codes written; a
//! pairing still waiting for results is written paired with a blank result.

use std::collections::HashMap;

use crate::db::DbError;
use crate::director::{pid, TournamentData};
use crate::ids::RoundNo;
use crate::pairing::format::{write_trf, TrfEvent};

/// The pairings of the rounds before `next` that still wait for a result:
/// some main game of theirs has none yet. They are written paired, with a
/// blank result, never as a round the players sat out nor as a won
/// mini-match of the games played so far.
fn pending(data: &TournamentData, next: RoundNo) -> HashMap<(u32, u32), u32> {
    let mut out = HashMap::new();
    for r in data.rounds.iter().filter(|r| r.number < next) {
        for p in data.pairings_of(r) {
            let (Some(a), Some(b)) = (p.first_player_id, p.second_player_id) else {
                continue;
            };
            let open = data
                .games_of(p.id)
                .iter()
                .any(|g| !g.tiebreak && g.result.is_none());
            if open {
                let round = r.number.0 as u32;
                out.insert((pid(a), round), pid(b));
                out.insert((pid(b), round), pid(a));
            }
        }
    }
    out
}

pub fn text(data: &TournamentData) -> Result<String, DbError> {
    if data.is_team_event() {
        return Err(crate::field::FieldError::new(
            "tournament",
            crate::field::Problem::TeamEventTrf,
        )
        .into());
    }
    let t = &data.tournament;
    let next = data
        .rounds
        .iter()
        .filter(|r| r.is_published())
        .map(|r| r.number)
        .max()
        .map_or(RoundNo::FIRST, RoundNo::next);
    let input = data.swiss_input(next);
    let scoring = data.scoring();
    let date = |d: Option<chrono::NaiveDate>| d.map(|d| d.format("%Y/%m/%d").to_string());
    let event = TrfEvent {
        name: t.name.clone(),
        kind: match t.system {
            crate::tournament::System::Swiss => {
                "Swiss, Dutch system (FIDE C.04.3, 2025), mini-matches".to_string()
            }
            other => format!("{}, mini-matches", other.label()),
        },
        venue: t.venue.clone(),
        starts_on: date(t.starts_on),
        ends_on: date(t.ends_on),
        win: scoring.round_max(),
        allocated_bye: scoring.round_score(&crate::standings::Outcome::AllocatedBye),
        ratings: data.players.iter().map(|p| (pid(p.id), p.rating)).collect(),
        federation_ids: data
            .players
            .iter()
            .filter(|p| !p.federation_id.is_empty())
            .map(|p| (pid(p.id), p.federation_id.clone()))
            .collect(),
        requested_half: data
            .byes
            .iter()
            .filter(|b| b.round == next)
            .map(|b| (pid(b.player_id), b.half))
            .collect::<HashMap<_, _>>(),
        pending: pending(data, next),
    };
    Ok(write_trf(&input, &event))
}

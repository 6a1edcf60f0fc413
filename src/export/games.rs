//! Every record of a tournament as one text file in the scoresheet
//! notation (docs/scoresheets.md): one game after another, each with a
//! header of tags naming the tournament, round, table, game, players,
//! rule set and entered result, then the moves as recorded.
//!
//! Per game one record is written, the referee's copy when there is one
//! (the record a ruling goes by), else dark's, else light's; a record that
//! cannot be read is passed over for the next. The record's own header
//! tags are replaced by the tournament's; its moves, comments and result
//! are written as sent. A `"` in a name is written `'`, since tag values
//! are quoted.

use std::fmt::Write as _;

use crate::db::scoresheets::{self, Sheet};
use crate::db::{DbConnection, DbError};
use crate::director;
use crate::ids::{EntryId, TournamentId};
use crate::results::GameResult;
use crate::tournament::RecordSide;

/// The export of tournament `tid`.
pub fn text(conn: &mut DbConnection, tid: TournamentId) -> Result<String, DbError> {
    let data = director::load(conn, tid)?;
    let sheets = scoresheets::current_of_tournament(conn, tid)?;
    let name = |id: Option<EntryId>| {
        id.and_then(|i| data.players.iter().find(|p| p.id == i))
            .map_or(String::new(), |p| p.name.replace('"', "'"))
    };
    let mut out = String::new();
    for round in data.rounds.iter().filter(|r| r.is_published()) {
        for p in data.pairings_of(round) {
            for g in data.games_of(p.id) {
                let of = |side: RecordSide| -> Option<&Sheet> {
                    sheets
                        .iter()
                        .find(|s| s.game_id == g.id && s.side == side && s.error.is_none())
                };
                let Some(sheet) = of(RecordSide::Referee)
                    .or_else(|| of(RecordSide::Dark))
                    .or_else(|| of(RecordSide::Light))
                else {
                    continue;
                };
                let other = if g.starter_player_id == p.first_player_id {
                    p.second_player_id
                } else {
                    p.first_player_id
                };
                let tag = |out: &mut String, k: &str, v: &str| {
                    let _ = writeln!(out, "[{k} \"{}\"]", v.replace('"', "'"));
                };
                tag(&mut out, "Event", &data.tournament.name);
                if !data.tournament.venue.is_empty() {
                    tag(&mut out, "Site", &data.tournament.venue);
                }
                tag(&mut out, "Round", &round.number.to_string());
                tag(&mut out, "Table", &p.table_no.to_string());
                tag(&mut out, "Game", &g.number.to_string());
                tag(&mut out, "Dark", &name(g.starter_player_id));
                tag(&mut out, "Light", &name(other));
                tag(&mut out, "Rules", sheet.rules.as_str());
                if let Some(r) = g.result.and_then(by_colour) {
                    tag(&mut out, "Result", r);
                }
                tag(&mut out, "Record", sheet.side.as_str());
                out.push('\n');
                out.push_str(moves(&sheet.text).trim_end());
                out.push_str("\n\n");
            }
        }
    }
    Ok(out)
}

/// A game result by colour, as a scoresheet writes it (the starter has
/// dark); forfeits and games not played have none.
fn by_colour(r: GameResult) -> Option<&'static str> {
    match r {
        GameResult::StarterWon => Some("1-0"),
        GameResult::OtherWon => Some("0-1"),
        GameResult::Draw => Some("1/2-1/2"),
        _ => None,
    }
}

/// The text after the record's own header tags and blank lines.
fn moves(text: &str) -> &str {
    let mut rest = text;
    loop {
        let line_end = rest.find('\n').map_or(rest.len(), |i| i + 1);
        let line = rest[..line_end].trim();
        if line.is_empty() && line_end > 0 || (line.starts_with('[') && line.ends_with(']')) {
            rest = &rest[line_end..];
            if rest.is_empty() {
                return rest;
            }
        } else {
            return rest;
        }
    }
}

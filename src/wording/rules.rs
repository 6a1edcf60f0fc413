//! The words of the rules engine: an irregularity found on a scoresheet
//! (or a ply played on a phone), how a game ended, and a whole check's
//! report as a referee reads it.

use std::fmt::Write as _;

use super::Lang;
use crate::rules::check::{BoardResult, CowOn};
use crate::rules::fault::{Ending, Fault, Twice};
use crate::rules::notation::SheetResult;
use crate::rules::{Irregularity, Report, Side};

/// `ply 31, light: B4-C4 is not a line on the board (OGR 5.4.2 / 3.2.2)`.
pub fn irregularity(i: &Irregularity, lang: Lang) -> String {
    match lang {
        Lang::English => format!("ply {}, {}: {}", i.ply, i.side, detail(i, lang)),
    }
}

/// The irregularity for a place that already names the ply:
/// `B4-C4 is not a line on the board (OGR 5.4.2 / 3.2.2)`.
pub fn detail(i: &Irregularity, lang: Lang) -> String {
    match lang {
        Lang::English => format!("{} ({})", fault(&i.fault, i.side, &i.text), i.article),
    }
}

fn possessive(side: Side) -> &'static str {
    match side {
        Side::Dark => "dark's",
        Side::Light => "light's",
    }
}

// One fault per arm, each a sentence of its own: splitting the match
// would only scatter the words.
/// What `side` did wrong with the ply written `text`.
fn fault(f: &Fault, side: Side, text: &str) -> String {
    let them = side.other();
    match f {
        Fault::AfterTheEnd { ending: e } => format!(
            "the game was already over ({}); this and any later move do not count",
            ending(*e, Lang::English)
        ),
        Fault::TwiceInARow { evidence } => {
            let why = match evidence {
                Twice::Numbered { number } => {
                    let dots = if side == Side::Dark { "." } else { "..." };
                    format!("move number {number}{dots} follows a {side} move")
                }
                Twice::OwnCow { placed } => format!(
                    "this ply {} a {side} cow, and the next ply is {them}'s",
                    if *placed { "places" } else { "moves" }
                ),
            };
            format!("{side} plays twice in a row: {why}")
        }
        Fault::NoCowToMove { from } => format!("{text}: there is no cow on {from} to move"),
        Fault::StepOntoTaken { to, owner, cow } => format!(
            "{text}: {to} is already taken by {} cow {cow}; a cow moves only to an empty junction",
            possessive(*owner)
        ),
        Fault::OpponentsCow { owner, cow } => format!(
            "{text} moves {} cow {cow}, not one of {side}'s own",
            possessive(*owner)
        ),
        Fault::MovedWhilePlacing { in_hand } => format!(
            "{text} moves a cow while {side} still has {in_hand} cow{} to place; cows move only once all are placed",
            if *in_hand == 1 { "" } else { "s" }
        ),
        Fault::NotALine { from, to } => format!("{from}-{to} is not a line on the board"),
        Fault::NoReturn { to } => format!(
            "{text}: the cow broke a line to form a new one on its last move and may not go straight back to {to} to form a line"
        ),
        Fault::WrongCowMoved { from, cow, written } => {
            format!("{text}: the cow on {from} is cow {cow}, not cow {written}")
        }
        Fault::NothingToPlace => format!(
            "{text}: {side} has no cow left to place, and a move needs the junction it starts from"
        ),
        Fault::PlaceOnTaken { to, owner, cow } => format!(
            "{text}: {to} is already taken by {} cow {cow}; cows are placed only on empty junctions",
            possessive(*owner)
        ),
        Fault::WrongCowPlaced {
            cow,
            already_placed,
            taken_as,
        } => {
            let why = if *already_placed {
                format!("cow {cow} is already placed")
            } else {
                format!("cow {cow} is not a {side} cow")
            };
            format!("{text}: {why}; it is taken to be cow {taken_as}")
        }
        Fault::ShotMissing { line } => format!(
            "{text} forms the line {line}, so a {them} cow must be shot, but none is"
        ),
        Fault::NoCowToShoot { at } => format!("{text}: there is no cow on {at} to shoot"),
        Fault::ShotWithoutLine => format!("{text} forms no line, so no cow may be shot"),
        Fault::SpentArrangement {
            arrangement,
            shot_at,
        } => {
            let when = match shot_at {
                Some(p) => format!("already shot at ply {p}"),
                None => "was barren or paralysed before".to_string(),
            };
            format!("{text}: the arrangement {arrangement} {when} and cannot shoot again")
        }
        Fault::OwnCowShot { cow, at } => format!("{text} takes {side}'s own cow {cow} on {at}"),
        Fault::BarrenLine => format!(
            "{text}: every {them} cow stands in a line, so the new line is barren and no cow may be shot"
        ),
        Fault::ProtectedCow { cow, at } => format!(
            "{text}: cow {cow} on {at} stands in a line and may not be shot while other {them} cows are loose"
        ),
        Fault::WrongCowShot { at, cow, written } => {
            format!("{text}: the cow shot on {at} is cow {cow}, not cow {written}")
        }
    }
}

/// How the game ended, with its article.
pub fn ending(e: Ending, lang: Lang) -> String {
    match lang {
        Lang::English => match e {
            Ending::TwoCows { loser } => format!("{loser} has only two cows left, OGR 4.2.3"),
            Ending::Blocked { loser } => {
                format!("{loser} has the move but cannot move, OGR 4.2.2")
            }
            Ending::TenMoves => {
                "ten moves each without a shot once a player was down to three, OGR 4.3.2".into()
            }
        },
    }
}

/// The board's result in words: `dark wins`, `light wins`, `draw`.
pub fn board_result(r: BoardResult, lang: Lang) -> &'static str {
    match lang {
        Lang::English => match r {
            BoardResult::Dark => "dark wins",
            BoardResult::Light => "light wins",
            BoardResult::Draw => "draw",
        },
    }
}

/// A check's report as JSON: the report's values, each irregularity with
/// its `message` and the board's reason in words beside them.
pub fn report_json(r: &Report, lang: Lang) -> serde_json::Value {
    let mut value = serde_json::to_value(r).unwrap_or(serde_json::Value::Null);
    if let Some(list) = value
        .get_mut("irregularities")
        .and_then(serde_json::Value::as_array_mut)
    {
        for (json, i) in list.iter_mut().zip(&r.irregularities) {
            if let Some(object) = json.as_object_mut() {
                object.insert("message".into(), irregularity(i, lang).into());
            }
        }
    }
    if let Some(object) = value.as_object_mut() {
        let reason = r.board_reason.map(|e| ending(e, lang));
        object.insert("board_reason".into(), reason.into());
    }
    value
}

/// The report as a referee reads it (the command line's `kraal check`).
pub fn report_text(r: &Report, lang: Lang) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Rules: {}", r.rules);
    for (name, value) in &r.header {
        if !name.eq_ignore_ascii_case("rules") {
            let _ = writeln!(out, "{name}: {value}");
        }
    }
    let _ = writeln!(out, "Plies read: {}", r.plies);
    if r.irregularities.is_empty() {
        let _ = writeln!(out, "Irregularities: none");
    } else {
        let _ = writeln!(out, "Irregularities: {}", r.irregularities.len());
        for i in &r.irregularities {
            let _ = writeln!(out, "  {}", irregularity(i, lang));
        }
    }
    if r.triplets.is_empty() {
        let _ = writeln!(out, "Triplets (OGR 6.2.7): none");
    } else {
        let _ = writeln!(out, "Triplets (OGR 6.2.7):");
        for t in &r.triplets {
            let kind = t.kind.name();
            let _ = writeln!(
                out,
                "  ply {:>3}, {:<5} {:<9} {}",
                t.ply, t.side, kind, t.arrangement
            );
        }
    }
    let p = &r.final_position;
    let _ = writeln!(out, "Final position, {} to move:", p.to_move);
    for line in p.diagram.lines() {
        let _ = writeln!(out, "  {line}");
    }
    let list = |cows: &[CowOn]| {
        cows.iter()
            .map(|c| format!("{},{}", c.junction, c.cow))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = writeln!(
        out,
        "  dark:  {} (in hand {})",
        list(&p.dark),
        p.dark_in_hand
    );
    let _ = writeln!(
        out,
        "  light: {} (in hand {})",
        list(&p.light),
        p.light_in_hand
    );
    let board = match (r.board_result, r.board_reason) {
        (Some(b), Some(why)) => format!("{} ({})", board_result(b, lang), ending(why, lang)),
        (Some(b), None) => board_result(b, lang).to_string(),
        (None, _) => "none yet: the game is not over on the board".to_string(),
    };
    let _ = writeln!(out, "Board result: {board}");
    let claimed = r.claimed_result.map_or("none", SheetResult::as_str);
    let verdict = match r.result_agrees {
        Some(true) => " (agrees with the board)",
        Some(false) => " (DISAGREES with the board)",
        None => "",
    };
    let _ = writeln!(out, "Claimed result: {claimed}{verdict}");
    out
}

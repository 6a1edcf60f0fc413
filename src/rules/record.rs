//! A game checked ply by ply as the players record it at the board (OGR
//! 6.2.6: both record both sides), with the verdicts of the scoresheet
//! check ([`super::check`]): a game recorded here and the same plies
//! checked as a sheet never disagree, because both run the one replay.
//!
//! An irregular ply is recorded as played, not refused (OGR 5.4: the
//! opponent has it rectified or lets it stand, and playing on accepts it,
//! 5.7); the replay goes on past it as the sheet check does.
//!
//! Why the last ply's verdict is provisional: whether a side moved twice
//! in a row (OGR 5.4.1) or moved the opponent's cow (5.4.5) may show only
//! in the ply after it, which the sheet check reads. So the replay is kept
//! twice: settled up to the ply before the last, and with the last ply
//! read as the last. A new ply settles the last one (now knowing what came
//! after it) and is read as the last in turn: two plies' work whatever the
//! game's length, never a replay of the game.

use std::collections::BTreeMap;

use super::check::{Irregularity, Replay, Report, Written};
use super::notation::{self, ParseError, WrittenPly};
use super::position::{Position, Status};
use super::ruleset::PlayRules;

/// A game being recorded: its plies as written and the check so far.
#[derive(Clone, Debug)]
pub struct Recording {
    /// The replay of every ply but the last, each read knowing the next.
    settled: Replay,
    /// The replay of every ply, the last read as the last.
    now: Replay,
    /// The plies as written, each with its text.
    plies: Vec<(WrittenPly, String)>,
    /// Each ply in the official style, cow numbers given (OGR 6.2).
    official: Vec<String>,
}

/// What one more ply changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pushed {
    /// The ply's number, from 1.
    pub ply: u32,
    /// Its irregularities (none: a legal ply).
    pub irregularities: Vec<Irregularity>,
    /// The ply before it, when this one changed that ply's verdict (a
    /// cow of the side that had just moved, moved again: OGR 5.4.1, not
    /// 5.4.5): its irregularities now.
    pub revised: Option<Vec<Irregularity>>,
}

impl Recording {
    pub fn new(rules: &PlayRules) -> Recording {
        Recording {
            settled: Replay::new(rules),
            now: Replay::new(rules),
            plies: Vec::new(),
            official: Vec::new(),
        }
    }

    /// The recording of `plies` (each one ply as written), checked.
    pub fn of<'a>(
        rules: &PlayRules,
        plies: impl IntoIterator<Item = &'a str>,
    ) -> Result<Recording, (usize, ParseError)> {
        let mut r = Recording::new(rules);
        for (i, text) in plies.into_iter().enumerate() {
            r.push(text).map_err(|e| (i + 1, e))?;
        }
        Ok(r)
    }

    /// Checks one more ply, written as a player writes it on paper (either
    /// notation, annotations and dashes as the sheet reader takes them).
    /// Only text that is not one ply is refused.
    pub fn push(&mut self, text: &str) -> Result<Pushed, ParseError> {
        let (ply, text) = one_ply(text)?;
        let number = self.plies.len() as u32 + 1;
        let mut revised = None;
        if let Some((last, last_text)) = self.plies.last() {
            let mut settled = self.settled.clone();
            let written = Written {
                number: number - 1,
                ply: last,
                text: last_text,
            };
            settled.step(written, Some(&ply), false);
            let before = of_ply(self.now.irregularities(), number - 1);
            let after = of_ply(settled.irregularities(), number - 1);
            if before != after {
                revised = Some(after);
            }
            self.settled = settled;
        }
        self.official
            .push(notation::official(self.settled.position(), &ply));
        let mut now = self.settled.clone();
        let written = Written {
            number,
            ply: &ply,
            text: &text,
        };
        now.step(written, None, false);
        let irregularities = of_ply(now.irregularities(), number);
        self.now = now;
        self.plies.push((ply, text));
        Ok(Pushed {
            ply: number,
            irregularities,
            revised,
        })
    }

    /// Plies recorded.
    pub fn len(&self) -> u32 {
        self.plies.len() as u32
    }

    pub fn is_empty(&self) -> bool {
        self.plies.is_empty()
    }

    /// The plies as written, in order.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.plies.iter().map(|(_, t)| t.as_str())
    }

    /// The plies in the official style, with the cow numbers the record
    /// gives them (dark 1-12, light 13-24 in placing order, OGR 3.1.2):
    /// what a player's move list shows.
    pub fn official(&self) -> impl Iterator<Item = &str> {
        self.official.iter().map(String::as_str)
    }

    /// Every irregularity so far (the last ply's may still change).
    pub fn irregularities(&self) -> &[Irregularity] {
        self.now.irregularities()
    }

    /// The position after the last ply.
    pub fn position(&self) -> &Position {
        self.now.position()
    }

    /// Whether the board has ended the game, and how.
    pub fn status(&self) -> Status {
        self.now.status()
    }

    /// The whole check, as the scoresheet check reports it.
    pub fn report(&self) -> Report {
        self.now.report(self.len(), None, BTreeMap::new())
    }

    /// The record as a scoresheet's moves (one ply after another), which
    /// the scoresheet check reads to this same report.
    pub fn sheet(&self) -> String {
        let texts: Vec<&str> = self.texts().collect();
        texts.join(" ")
    }
}

/// Whether `a` and `b` are one ply: the same junctions left, reached and
/// shot at, as two records are compared (`check::first_difference`: cow
/// numbers, annotations and move numbers aside). Text that is not one ply
/// is no ply.
pub fn same_ply(a: &str, b: &str) -> bool {
    match (one_ply(a), one_ply(b)) {
        (Ok((x, _)), Ok((y, _))) => x.to_move() == y.to_move(),
        _ => false,
    }
}

/// The irregularities of ply `n`.
fn of_ply(all: &[Irregularity], n: u32) -> Vec<Irregularity> {
    all.iter().filter(|i| i.ply == n).cloned().collect()
}

/// Reads `text` as exactly one ply, and gives it with its text as a sheet
/// writes it (a move number written before it is left out: the record
/// numbers its plies).
fn one_ply(text: &str) -> Result<(WrittenPly, String), ParseError> {
    let not_one = |found: String| ParseError {
        line: 1,
        column: 1,
        expected: "one move, e.g. C5 or A1-A4 x F2".to_string(),
        found,
    };
    let sheet = notation::parse(text)?;
    if sheet.plies.len() != 1 || !sheet.tags.is_empty() || sheet.result.is_some() {
        return Err(not_one(format!("\"{}\"", text.trim())));
    }
    let mut ply = sheet
        .plies
        .first()
        .cloned()
        .ok_or_else(|| not_one(format!("\"{}\"", text.trim())))?;
    let written = format!("{}{}", sheet.text(&ply), ply.annotation);
    ply.number = None;
    Ok((ply, written))
}

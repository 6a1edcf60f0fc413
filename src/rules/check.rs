//! Checking a scoresheet: replay it and report every irregularity with the
//! article it breaks, in a sentence a referee understands.
//!
//! OGR 5.4 lets the opponent accept an irregularity by playing on (5.7), so
//! the replay goes on past one wherever the position stays well defined:
//!
//! | irregularity | article | the replay |
//! |---|---|---|
//! | two moves in a row by one side: a move number says so, or the ply moves or places that side's cow and the next ply is the other side's | OGR 5.4.1 | plays it for that side; the turn then passes as usual |
//! | a step to a junction not linked to the start | OGR 5.4.2 / 3.2.2 | plays it as written |
//! | a step or fly while cows remain to place | OGR 5.4.2 / 3.2.1 | plays it as written |
//! | a placement when none remain to place | OGR 5.4.2 / 3.2.1 | skips it; the turn passes |
//! | moving from an empty junction | OGR 5.4.2 | skips it; the turn passes |
//! | moving or placing onto an occupied junction | OGR 3.2.2 / 3.1.5 | skips it; the turn passes |
//! | moving an opponent's cow (the next ply is that opponent's own) | OGR 5.4.5 | plays it as written; the turn passes |
//! | no shot when a shot is due | OGR 5.4.6 | plays on without a shot |
//! | a shot without a line | OGR 5.4.7 | removes the cow shot |
//! | taking one's own cow | OGR 5.4.7 | removes it |
//! | shooting a protected cow while loose ones remain | OGR 5.4.8 / 3.1.8 | removes it |
//! | shooting from a barren line | OGR 5.4.8 / 3.1.8.2 | removes it |
//! | shooting at an empty junction | OGR 5.4.8 | no cow is removed |
//! | a second shot by a spent arrangement | OGR 5.4.9 / 3.2.4.1.2 | removes it |
//! | going straight back under the no-return rule | GAR stage 2: no return | plays it as written |
//! | a written cow number that is not the cow there | OGR 6.2.1 / 6.2.3 / 6.2.4 | uses the cow on the board |
//! | moves after the game has ended | OGR 4.2.2 / 4.2.3 / 4.3.2 | stops the replay |
//!
//! Cow numbers left out are given in placing order (dark 1-12, light
//! 13-24); a written placement number is accepted when it is one of the
//! mover's cows not yet placed.

use super::board::{Junction, Side, LINES};
use super::fault::{Ending, Fault, Twice};
use super::movegen::status;
use super::notation::{self, ParseError, Scoresheet, SheetResult, WrittenPly};
use super::position::{Arrangement, Move, Position, Status, Triplet, WinReason};
use super::ruleset::{PlayRules, RuleSet};
use serde::Serialize;
use std::collections::BTreeMap;

/// One irregularity found on the scoresheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Irregularity {
    /// 1-based; a placement, step or fly together with its shot is one ply.
    pub ply: u32,
    /// The side that played it.
    pub side: Side,
    /// The move as written on the sheet.
    #[serde(rename = "move")]
    pub text: String,
    /// `OGR 5.4.2 / 3.2.2`, or the GAR rule by name.
    pub article: String,
    /// What is irregular, as a value (`crate::wording::rules` says it).
    pub fault: Fault,
}

/// The result the final position shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BoardResult {
    Dark,
    Light,
    Draw,
}

impl BoardResult {
    /// The winning side, `None` for a draw.
    pub fn winner(self) -> Option<Side> {
        match self {
            BoardResult::Dark => Some(Side::Dark),
            BoardResult::Light => Some(Side::Light),
            BoardResult::Draw => None,
        }
    }

    fn agrees_with(self, claimed: SheetResult) -> bool {
        matches!(
            (self, claimed),
            (BoardResult::Dark, SheetResult::DarkWins)
                | (BoardResult::Light, SheetResult::LightWins)
                | (BoardResult::Draw, SheetResult::Draw)
        )
    }
}

/// A cow and the junction it stands on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CowOn {
    pub junction: &'static str,
    pub cow: u8,
}

/// The position after the last ply replayed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FinalPosition {
    pub to_move: Side,
    pub dark: Vec<CowOn>,
    pub light: Vec<CowOn>,
    pub dark_in_hand: u8,
    pub light_in_hand: u8,
    /// The board as text, dark (`x`) at the bottom, light `o`.
    pub diagram: String,
}

impl FinalPosition {
    fn of(pos: &Position) -> FinalPosition {
        let cows = |side| {
            Junction::all()
                .filter(|&j| pos.owner(j) == Some(side))
                .map(|j| CowOn {
                    junction: j.name(),
                    cow: pos.cow_at(j).unwrap_or(0),
                })
                .collect()
        };
        FinalPosition {
            to_move: pos.side(),
            dark: cows(Side::Dark),
            light: cows(Side::Light),
            dark_in_hand: pos.in_hand(Side::Dark),
            light_in_hand: pos.in_hand(Side::Light),
            diagram: pos.diagram(),
        }
    }
}

/// What a check of one scoresheet found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The rule set applied.
    pub rules: RuleSet,
    /// Plies read from the sheet.
    pub plies: u32,
    pub irregularities: Vec<Irregularity>,
    /// `dark`, `light`, `draw`, or `None` while the game is not over.
    pub board_result: Option<BoardResult>,
    /// Why the board shows that result (its article is the ending's).
    pub board_reason: Option<Ending>,
    /// `1-0`, `0-1`, `1/2-1/2` as claimed on the sheet.
    pub claimed_result: Option<SheetResult>,
    /// Whether the claimed result is the board's; `None` when the board
    /// shows no result or none is claimed.
    pub result_agrees: Option<bool>,
    /// The triplets column of OGR 6.2.7.
    pub triplets: Vec<Triplet>,
    pub final_position: FinalPosition,
    /// The header tags as written.
    pub header: BTreeMap<String, String>,
}

impl Report {
    /// No irregularity, and no disagreement over the result.
    pub fn is_clean(&self) -> bool {
        self.irregularities.is_empty() && self.result_agrees != Some(false)
    }
}

/// Reads and checks a scoresheet. The rule set is `rules` if given, else
/// the sheet's `[Rules]` tag, else `gar`. Errors only when the text cannot
/// be read; everything wrong in the play is in the report.
pub fn check_scoresheet(text: &str, rules: Option<RuleSet>) -> Result<Report, ParseError> {
    let sheet = notation::parse(text)?;
    let rules = match rules {
        Some(r) => r,
        None => match sheet
            .tags
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case("rules"))
        {
            None => RuleSet::default(),
            Some(tag) => RuleSet::parse(&tag.value).ok_or_else(|| {
                let (line, column) = sheet.line_column(tag.offset);
                ParseError {
                    line,
                    column,
                    expected: "a rule set: official or gar".to_string(),
                    found: format!("\"{}\"", tag.value),
                }
            })?,
        },
    };
    Ok(check_sheet(&sheet, &rules.play()))
}

/// Checks a scoresheet already read.
pub fn check_sheet(sheet: &Scoresheet, rules: &PlayRules) -> Report {
    run(sheet, rules, None)
}

/// Checks a scoresheet already read and gives, beside the report, the
/// position after each ply replayed (the board replay of the game page).
/// A replay that stops because the game was over gives fewer positions
/// than plies.
pub fn replay_sheet(sheet: &Scoresheet, rules: &PlayRules) -> (Report, Vec<Position>) {
    let mut positions = Vec::with_capacity(sheet.plies.len());
    let report = run(sheet, rules, Some(&mut positions));
    (report, positions)
}

/// The first ply (from 1) where two records of one game differ: a move,
/// a step or a shot on other junctions, or one record going on where the
/// other stops. `None` when they record the same plies. Cow numbers,
/// annotations and comments are not compared.
pub fn first_difference(a: &Scoresheet, b: &Scoresheet) -> Option<u32> {
    let same = |x: &WrittenPly, y: &WrittenPly| x.to_move() == y.to_move();
    let common = a.plies.len().min(b.plies.len());
    match (0..common).find(|&i| !same(&a.plies[i], &b.plies[i])) {
        Some(i) => Some(i as u32 + 1),
        None if a.plies.len() != b.plies.len() => Some(common as u32 + 1),
        None => None,
    }
}

fn run(sheet: &Scoresheet, rules: &PlayRules, mut positions: Option<&mut Vec<Position>>) -> Report {
    let mut replay = Replay::new(rules);
    // A sheet that numbers every ply `1. 2. 3. ...` says nothing about sides.
    let numbered_by_ply = sheet.plies.len() > 1
        && sheet.plies.iter().enumerate().all(|(i, p)| {
            p.number
                .is_some_and(|n| n.side == Side::Dark && n.number as usize == i + 1)
        });
    for (i, ply) in sheet.plies.iter().enumerate() {
        let written = Written {
            number: i as u32 + 1,
            ply,
            text: sheet.text(ply),
        };
        if !replay.step(written, sheet.plies.get(i + 1), numbered_by_ply) {
            break;
        }
        if let Some(list) = positions.as_deref_mut() {
            list.push(replay.pos);
        }
    }
    let header = sheet
        .tags
        .iter()
        .map(|t| (t.name.clone(), t.value.clone()))
        .collect();
    replay.report(sheet.plies.len() as u32, sheet.claimed_result(), header)
}

/// Whether the sheet shows the side that moved last, `last`, moving again
/// on this ply (OGR 5.4.1), and if so, what shows it.
///
/// The evidence is a move number written for that side, a written cow
/// number of that side on a placement, or a step of one of its cows. A cow
/// of the wrong side alone could also mean the player to move touched the
/// opponent's cow (OGR 5.4.5) or miswrote its number (OGR 6.2.1); the next
/// ply decides: if it is again a move of `last`, the sheet simply goes on
/// alternating and this ply is read as the other player's irregular move.
fn twice_in_a_row(
    pos: &Position,
    ply: &WrittenPly,
    next: Option<&WrittenPly>,
    last: Side,
    numbered_by_ply: bool,
) -> Option<Twice> {
    if let Some(marked) = ply.number.filter(|n| n.side == last && !numbered_by_ply) {
        return Some(Twice::Numbered {
            number: marked.number,
        });
    }
    let (evidence, placed) = match (ply.from, ply.to.cow) {
        (Some(from), _) => (pos.owner(from.junction), false),
        (None, Some(cow)) => (Side::of_cow(cow), true),
        (None, None) => (None, false),
    };
    if evidence != Some(last) {
        return None;
    }
    // Who the sheet says moves next, once this ply is played.
    let next_side = next.and_then(|n| match (n.from, n.to.cow) {
        (Some(f), _) if f.junction == ply.to.junction => Some(last),
        (Some(f), _) if Some(f.junction) == ply.from.map(|p| p.junction) => None,
        (Some(f), _) => pos.owner(f.junction),
        (None, Some(cow)) => Side::of_cow(cow),
        (None, None) => None,
    });
    (next_side == Some(last.other())).then_some(Twice::OwnCow { placed })
}

/// How a finished game ended; `None` while it goes on.
fn ending(status: Status) -> Option<Ending> {
    match status {
        Status::Won {
            winner,
            reason: WinReason::TwoCows,
        } => Some(Ending::TwoCows {
            loser: winner.other(),
        }),
        Status::Won {
            winner,
            reason: WinReason::Blocked,
        } => Some(Ending::Blocked {
            loser: winner.other(),
        }),
        Status::Drawn => Some(Ending::TenMoves),
        Status::Ongoing => None,
    }
}

/// One ply as written, with its number (from 1) and its text.
#[derive(Clone, Copy)]
pub(super) struct Written<'a> {
    pub(super) number: u32,
    pub(super) ply: &'a WrittenPly,
    pub(super) text: &'a str,
}

/// The replay of a game so far: what the next ply is checked against.
#[derive(Clone, Debug)]
pub(super) struct Replay {
    rules: PlayRules,
    pos: Position,
    spent: Vec<Arrangement>,
    triplets: Vec<Triplet>,
    irregularities: Vec<Irregularity>,
    /// For each arrangement that shot, the ply it shot on.
    shot_at: Vec<(Arrangement, u32)>,
    /// The side that played the last ply replayed.
    last_mover: Option<Side>,
    /// How the game had ended when a ply came after its end: the replay
    /// stopped there.
    end: Option<Status>,
}

impl Replay {
    pub(super) fn new(rules: &PlayRules) -> Replay {
        Replay {
            rules: *rules,
            pos: Position::new(rules),
            spent: Vec::new(),
            triplets: Vec::new(),
            irregularities: Vec::new(),
            shot_at: Vec::new(),
            last_mover: None,
            end: None,
        }
    }

    /// Replays one more ply, knowing the ply written after it (`next`, if
    /// any: whether a side moved twice in a row may show only there).
    /// False when the game had already ended: the ply is reported, and the
    /// replay stops.
    pub(super) fn step(
        &mut self,
        written: Written,
        next: Option<&WrittenPly>,
        numbered_by_ply: bool,
    ) -> bool {
        if self.end.is_some() {
            return false;
        }
        let now = status(&self.pos, &self.rules);
        if now != Status::Ongoing {
            let side = self.pos.side();
            if let Some(ending) = ending(now) {
                self.report_fault(
                    written,
                    side,
                    ending.article(),
                    Fault::AfterTheEnd { ending },
                );
            }
            self.end = Some(now);
            return false;
        }
        let mut side = self.pos.side();
        if let Some(last) = self.last_mover.filter(|&last| last != side) {
            if let Some(evidence) =
                twice_in_a_row(&self.pos, written.ply, next, last, numbered_by_ply)
            {
                side = last;
                self.pos.set_side(side);
                self.report_fault(written, side, "OGR 5.4.1", Fault::TwiceInARow { evidence });
            }
        }
        self.ply(written, side);
        self.last_mover = Some(side);
        true
    }

    /// The position after the last ply replayed.
    pub(super) fn position(&self) -> &Position {
        &self.pos
    }

    /// How the game stands: ended (and how), or going on.
    pub(super) fn status(&self) -> Status {
        self.end.unwrap_or_else(|| status(&self.pos, &self.rules))
    }

    /// Every irregularity found so far.
    pub(super) fn irregularities(&self) -> &[Irregularity] {
        &self.irregularities
    }

    /// What the replay found, for a record of `plies` plies.
    pub(super) fn report(
        &self,
        plies: u32,
        claimed_result: Option<SheetResult>,
        header: BTreeMap<String, String>,
    ) -> Report {
        let end = self.status();
        let board_result = match end {
            Status::Ongoing => None,
            Status::Drawn => Some(BoardResult::Draw),
            Status::Won { winner, .. } => Some(match winner {
                Side::Dark => BoardResult::Dark,
                Side::Light => BoardResult::Light,
            }),
        };
        let result_agrees = match (board_result, claimed_result) {
            (Some(b), Some(c)) => Some(b.agrees_with(c)),
            _ => None,
        };
        Report {
            rules: self.rules.name,
            plies,
            irregularities: self.irregularities.clone(),
            board_result,
            board_reason: ending(end),
            claimed_result,
            result_agrees,
            triplets: self.triplets.clone(),
            final_position: FinalPosition::of(&self.pos),
            header,
        }
    }

    fn report_fault(&mut self, written: Written, side: Side, article: &str, fault: Fault) {
        self.irregularities.push(Irregularity {
            ply: written.number,
            side,
            text: written.text.to_string(),
            article: article.to_string(),
            fault,
        });
    }

    /// Replays one ply for `side` (the side to move).
    fn ply(&mut self, written: Written, side: Side) {
        let (number, ply) = (written.number, written.ply);
        let to = ply.to.junction;
        let cow = match ply.from {
            None => match self.placement(written, side) {
                Some(cow) => cow,
                None => return self.pos.pass(),
            },
            Some(from) => {
                let from = from.junction;
                let Some(owner) = self.pos.owner(from) else {
                    self.report_fault(written, side, "OGR 5.4.2", Fault::NoCowToMove { from });
                    return self.pos.pass();
                };
                if let Some(other) = self.pos.owner(to) {
                    let fault = Fault::StepOntoTaken {
                        to,
                        owner: other,
                        cow: self.pos.cow_at(to).unwrap_or(0),
                    };
                    self.report_fault(written, side, "OGR 5.4.2 / 3.2.2", fault);
                    return self.pos.pass();
                }
                let cow = self.pos.cow_at(from).unwrap_or(0);
                if owner != side {
                    let fault = Fault::OpponentsCow { owner, cow };
                    self.report_fault(written, side, "OGR 5.4.5", fault);
                } else if self.pos.in_hand(side) > 0 {
                    let fault = Fault::MovedWhilePlacing {
                        in_hand: self.pos.in_hand(side),
                    };
                    self.report_fault(written, side, "OGR 5.4.2 / 3.2.1", fault);
                } else if !self.pos.flies(&self.rules, side) && from.neighbours() & to.bit() == 0 {
                    let fault = Fault::NotALine { from, to };
                    self.report_fault(written, side, "OGR 5.4.2 / 3.2.2", fault);
                } else if self.pos.forbidden_return(side) == Some((from, to))
                    && super::board::completes_line(
                        self.pos.cows(side) & !from.bit() | to.bit(),
                        to,
                    )
                {
                    let fault = Fault::NoReturn { to };
                    self.report_fault(written, side, "GAR stage 2: no return", fault);
                }
                if let Some(number) = ply.from.and_then(|f| f.cow) {
                    if number != cow {
                        let fault = Fault::WrongCowMoved {
                            from,
                            cow,
                            written: number,
                        };
                        self.report_fault(written, side, "OGR 6.2.3", fault);
                    }
                }
                cow
            }
        };
        let from = ply.from.map(|f| f.junction);
        let formed = self.pos.formed(&self.rules, &self.spent, from, to, cow);
        let targets = if formed.any() || ply.shot.is_some() {
            self.pos.targets(&self.rules)
        } else {
            0
        };
        let shot = self.shot(written, side, &formed, targets);
        if shot.is_some() && formed.any_fresh() {
            if let Some((a, _)) = formed.lines().find(|&(_, fresh)| fresh) {
                self.shot_at.push((a, number));
            }
        }
        let mv = Move { from, to, shot };
        let log = &mut self.triplets;
        self.pos
            .play_formed(&self.rules, &mut self.spent, mv, cow, formed, Some(log));
    }

    /// Checks a placement and returns the number of the cow placed, or
    /// `None` when nothing can be placed.
    fn placement(&mut self, written: Written, side: Side) -> Option<u8> {
        let ply = written.ply;
        let to = ply.to.junction;
        if self.pos.in_hand(side) == 0 {
            self.report_fault(written, side, "OGR 5.4.2 / 3.2.1", Fault::NothingToPlace);
            return None;
        }
        if let Some(other) = self.pos.owner(to) {
            let fault = Fault::PlaceOnTaken {
                to,
                owner: other,
                cow: self.pos.cow_at(to).unwrap_or(0),
            };
            self.report_fault(written, side, "OGR 3.1.5", fault);
            return None;
        }
        let next = self.pos.next_cow(side).unwrap_or(0);
        match ply.to.cow {
            Some(cow) if Side::of_cow(cow) == Some(side) && !self.pos.is_placed(cow) => Some(cow),
            Some(cow) => {
                let fault = Fault::WrongCowPlaced {
                    cow,
                    already_placed: Side::of_cow(cow) == Some(side),
                    taken_as: next,
                };
                self.report_fault(written, side, "OGR 6.2.1", fault);
                Some(next)
            }
            None => Some(next),
        }
    }

    /// Checks the shot written (or not written) after a move and returns
    /// the junction whose cow is removed, if any.
    fn shot(
        &mut self,
        written: Written,
        side: Side,
        formed: &super::position::Formed,
        targets: u32,
    ) -> Option<Junction> {
        let due = formed.any_fresh() && targets != 0;
        let Some(shot) = written.ply.shot else {
            if due {
                let line = formed
                    .lines()
                    .find(|&(_, f)| f)
                    .map(|(a, _)| line_name(a))
                    .unwrap_or_default();
                self.report_fault(written, side, "OGR 5.4.6", Fault::ShotMissing { line });
            }
            return None;
        };
        let t = shot.junction;
        let owner = self.pos.owner(t);
        if owner.is_none() {
            self.report_fault(written, side, "OGR 5.4.8", Fault::NoCowToShoot { at: t });
            return None;
        }
        let victim = self.pos.cow_at(t).unwrap_or(0);
        if !formed.any() {
            self.report_fault(written, side, "OGR 5.4.7", Fault::ShotWithoutLine);
        } else if !formed.any_fresh() {
            let first = formed.lines().next().map(|(a, _)| a);
            let fault = Fault::SpentArrangement {
                arrangement: first.map(|a| a.to_string()).unwrap_or_default(),
                shot_at: first
                    .and_then(|a| self.shot_at.iter().find(|(s, _)| *s == a))
                    .map(|(_, p)| *p),
            };
            self.report_fault(written, side, "OGR 5.4.9 / 3.2.4.1.2", fault);
        } else if owner == Some(side) {
            let fault = Fault::OwnCowShot { cow: victim, at: t };
            self.report_fault(written, side, "OGR 5.4.7", fault);
        } else if targets == 0 {
            self.report_fault(written, side, "OGR 5.4.8 / 3.1.8.2", Fault::BarrenLine);
        } else if targets & t.bit() == 0 {
            let fault = Fault::ProtectedCow { cow: victim, at: t };
            self.report_fault(written, side, "OGR 5.4.8 / 3.1.8", fault);
        }
        if let Some(w) = shot.cow {
            if w != victim {
                let fault = Fault::WrongCowShot {
                    at: t,
                    cow: victim,
                    written: w,
                };
                self.report_fault(written, side, "OGR 6.2.4", fault);
            }
        }
        Some(t)
    }
}

/// `A1-A4-A7`.
fn line_name(a: Arrangement) -> String {
    let names: Vec<&str> = LINES
        .get(a.line())
        .into_iter()
        .flatten()
        .filter_map(|&j| Junction::new(j))
        .map(Junction::name)
        .collect();
    names.join("-")
}

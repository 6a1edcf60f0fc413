//! What is irregular about a ply, as a value. The scoresheet check finds
//! it, the article names the rule, and `crate::wording::rules` says it in
//! a language: the check itself holds no sentence, so a page in another
//! language, the API and a live board all report the same fault.

use serde::Serialize;

use super::board::{Junction, Side};

/// One irregularity's substance. Cows are numbered as on the sheet (dark
/// 1-12, light 13-24); junctions are named as the notation writes them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fault {
    /// A ply after the position had already ended the game.
    AfterTheEnd { ending: Ending },
    /// The side that moved last moves again (OGR 5.4.1).
    TwiceInARow { evidence: Twice },
    /// A step from an empty junction.
    NoCowToMove { from: Junction },
    /// A step onto a junction another cow stands on.
    StepOntoTaken { to: Junction, owner: Side, cow: u8 },
    /// A step of the opponent's cow (OGR 5.4.5).
    OpponentsCow { owner: Side, cow: u8 },
    /// A step while cows are still in hand (OGR 3.2.1).
    MovedWhilePlacing { in_hand: u8 },
    /// A step along no line of the board (OGR 3.2.2).
    NotALine { from: Junction, to: Junction },
    /// GAR: a cow that broke a line to form a new one goes straight back
    /// to re-form the old one.
    NoReturn { to: Junction },
    /// The cow number written for a step's cow is not the cow there
    /// (OGR 6.2.3).
    WrongCowMoved {
        from: Junction,
        cow: u8,
        written: u8,
    },
    /// A placement with no cow left in hand.
    NothingToPlace,
    /// A placement on a junction another cow stands on (OGR 3.1.5).
    PlaceOnTaken { to: Junction, owner: Side, cow: u8 },
    /// A placement written with a cow number that is not the next of the
    /// side's own (OGR 6.2.1); it is read as the next cow.
    WrongCowPlaced {
        cow: u8,
        already_placed: bool,
        taken_as: u8,
    },
    /// A fresh line formed and no cow shot (OGR 5.4.6); `line` as the
    /// junctions are written (`A1-A4-A7`).
    ShotMissing { line: String },
    /// A shot at an empty junction.
    NoCowToShoot { at: Junction },
    /// A shot with no line formed (OGR 5.4.7).
    ShotWithoutLine,
    /// A shot by an arrangement that shot before, or was barren or
    /// paralysed (OGR 5.4.9); `shot_at` the ply it shot on, if it did.
    SpentArrangement {
        arrangement: String,
        shot_at: Option<u32>,
    },
    /// A shot at one's own cow (OGR 5.4.7).
    OwnCowShot { cow: u8, at: Junction },
    /// A shot while every opposing cow stands in a line: the line is
    /// barren (OGR 3.1.8.2).
    BarrenLine,
    /// A shot at a cow in a line while others are loose (OGR 3.1.8).
    ProtectedCow { cow: u8, at: Junction },
    /// The cow number written for a shot is not the cow there (OGR 6.2.4).
    WrongCowShot { at: Junction, cow: u8, written: u8 },
}

/// How a finished game ended, as the position shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Ending {
    /// `loser` has only two cows left (OGR 4.2.3).
    TwoCows { loser: Side },
    /// `loser` has the move but cannot move (OGR 4.2.2).
    Blocked { loser: Side },
    /// Ten moves each without a shot once a player was down to three
    /// (OGR 4.3.2).
    TenMoves,
}

/// What shows that the side that moved last moves again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Twice {
    /// A move number written for that side.
    Numbered { number: u32 },
    /// The ply moves (or places) a cow of that side, and the next is the
    /// other side's.
    OwnCow { placed: bool },
}

impl Serialize for Junction {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl Ending {
    /// The article that ends the game this way.
    pub fn article(self) -> &'static str {
        match self {
            Ending::TwoCows { .. } => "OGR 4.2.3",
            Ending::Blocked { .. } => "OGR 4.2.2",
            Ending::TenMoves => "OGR 4.3.2",
        }
    }
}

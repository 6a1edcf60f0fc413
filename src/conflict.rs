//! Why a write cannot happen now because of what is there already (a name
//! taken, a result changed meanwhile, a tiebreak set played), as values;
//! `wording::conflict` says them. Unlike a [`crate::field::FieldError`]
//! the input is fine: the event's state stands in its way.

use std::collections::BTreeMap;

use crate::pairing::{PairingError, PlayerId};
use crate::results::GameResult;
use crate::tournament::RulingKind;

#[derive(Debug, Clone, serde::Serialize, strum::IntoStaticStr, strum::VariantNames)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Conflict {
    /// Something a rule allows once exists already.
    Taken(Taken),
    /// The first administrator exists: setting up again would add another.
    AlreadySetUp,
    /// A team event's boards follow the line-ups: players are not swapped.
    SwapInTeamEvent,
    /// No pairing honours every rule; `names` names the players the error
    /// speaks of by id.
    NoPairing {
        error: PairingError,
        names: BTreeMap<PlayerId, String>,
        round_robin: bool,
    },
    /// A knock-out's main game cannot change while its tiebreak set, played
    /// because the main games were level, has results.
    HeldByTiebreak {
        round: i32,
        table: i32,
        set: usize,
        game: i32,
    },
    /// The game changed since the editor saw it.
    Changed(Meanwhile),
    /// The entry would change what a referee's ruling set; the API's
    /// `replace_ruling` confirms it.
    Ruled(Box<RulingStands>),
    /// A tournament with published rounds is not deleted (its players and
    /// the ratings rest on them); a published copy of a venue's event is.
    PublishedRounds { published: i32 },
}

impl Conflict {
    /// The field whose value is what stands in the way, when one is: the
    /// API names it beside the 409, a form beside the field.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Conflict::Taken(Taken::SeasonName { .. }) => Some("name"),
            _ => None,
        }
    }
}

/// What a unique rule allows once.
/// Its codes say what is taken (`round_taken`).
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, strum::IntoStaticStr, strum::VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case", suffix = "_taken")]
pub enum Taken {
    Relatives {
        a: String,
        b: String,
    },
    Round {
        number: i32,
    },
    Bye {
        round: i32,
    },
    UserName {
        name: String,
    },
    /// Another record for this side arrived at the same moment.
    RecordSide,
    Referee,
    /// The person is entered in this tournament already.
    Entry {
        name: String,
    },
    /// Another person of the registry has this federation id.
    FederationId {
        id: String,
    },
    /// Another account publishes the event with this origin id here.
    Origin {
        origin: String,
    },
    /// Another season has this name.
    SeasonName {
        name: String,
    },
}

/// A result edit refused because the game changed since the editor read
/// it: what it says now, who saved that, and what the edit wanted.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Meanwhile {
    pub game_id: i32,
    pub round: i32,
    pub table: i32,
    pub game: i32,
    pub now: Option<GameResult>,
    pub by: Option<String>,
    pub wanted: Option<GameResult>,
}

/// A result entry that would change what a referee's ruling set.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RulingStands {
    pub game_id: i32,
    pub round: i32,
    pub table: i32,
    /// The game's number in its pairing.
    pub game: i32,
    pub tiebreak: bool,
    /// The game's version now, for a confirmation to carry.
    pub version: i32,
    pub kind: RulingKind,
    /// The result the ruling set, which the game says now.
    pub ruled: GameResult,
    pub reason: String,
    pub by: Option<String>,
    /// What the entry would set.
    pub wanted: Option<GameResult>,
}

//! What a write says about itself: a typed change, recorded with the write
//! in the same transaction (see `director::commit`, the one way to write).
//!
//! A change is values, never a sentence: the action and the entity are
//! named values, and the ids a change is about besides its entity (the
//! round's number, the players) travel in [`Detail`]. The audit page and
//! the event file read those values; only the page turns them into words.

use serde::{Deserialize, Serialize};

use crate::ids::{EntryId, PersonId, RoundNo, TournamentId};
use crate::results::GameResult;
use crate::tournament::ByeKind;

named_values! {
    /// What was done. The spellings are the stored ones.
    Action {
        Create => "create", "create";
        Import => "import", "import";
        Edit => "edit", "edit";
        Add => "add", "add";
        Remove => "remove", "remove";
        Withdraw => "withdraw", "withdraw";
        Reinstate => "reinstate", "reinstate";
        Assign => "assign", "assign";
        Unassign => "unassign", "unassign";
        FixRounds => "fix rounds of", "fix rounds of";
        Pair => "pair", "pair";
        Publish => "publish", "publish";
        Lock => "lock", "close the players' links of";
        Unlock => "unlock", "reopen the players' links of";
        Undo => "undo", "undo";
        ClearResults => "clear results of", "clear results of";
        Swap => "swap", "swap";
        StartBoards => "start boards", "start boards";
        Result => "result", "result";
        Ruling => "ruling", "ruling";
        RulingReplaced => "ruling replaced", "ruling replaced";
        Record => "record", "record";
        RecordByLink => "record (player link)", "record (player link)";
        RequestBye => "request bye", "request bye";
        CancelBye => "cancel bye", "cancel the bye";
        Report => "report", "report (personal link)";
        ReportedByBoth => "result reported by both", "result reported by both players";
        ReportedByOne => "result reported by one", "result reported by one player";
        ReportWithdrawn => "reported result withdrawn", "withdraw the result one player reported";
        RevokeLink => "revoke link", "revoke the personal link of";
        RenewLink => "renew link", "renew the personal link of";
        Clock => "clock", "set the clock of";
        Waive => "waive", "waive";
        ClearWaiver => "clear waiver", "clear waiver";
        LineUp => "line-up", "line-up";
        MakeCaptainLink => "make captain link", "make captain link";
        RenewCaptainLink => "renew captain link", "renew captain link";
        Date => "date", "set the day of";
        PublishTo => "publish to", "publish to";
        StopPublishing => "stop publishing", "stop publishing";
        SendNow => "send now", "send now to the federation's server";
        Archive => "archive", "withdraw from public view";
        Unarchive => "unarchive", "return to public view";
        Delete => "delete", "delete";
        Refresh => "refresh", "refresh from the registry";
        Merge => "merge", "merge";
        Unmerge => "unmerge", "undo the merge of";
        Pull => "pull", "update from the federation's list";
    }
}

named_values! {
    /// What a change is about; its row's id goes with it.
    Entity {
        Tournament => "tournament", "tournament";
        Player => "player", "player";
        Relation => "relation", "relation";
        KeptApart => "kept-apart pair", "kept-apart pair";
        Team => "team", "team";
        Round => "round", "round";
        Match => "match", "match";
        Game => "game", "game";
        Referee => "referee", "referee";
        User => "user", "user";
        Person => "person", "person";
        Season => "season", "season";
        Setting => "setting", "setting";
    }
}

/// The ids a change is about besides its entity's own: what the audit
/// page filters by and names, and what an event file renumbers. Stored as
/// JSON beside the entry.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Detail {
    /// The round's number (not its id: a number outlives an undone round).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<RoundNo>,
    /// The players' ids, in the order the change names them (a swap's two).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<EntryId>,
    /// The person of the registry an entry is linked to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub person: Option<PersonId>,
}

impl Detail {
    pub fn is_empty(&self) -> bool {
        *self == Detail::default()
    }
}

/// One change to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The tournament it belongs to; `None` for accounts.
    pub tournament: Option<TournamentId>,
    pub action: Action,
    pub entity: Entity,
    pub entity_id: Option<i32>,
    /// The value before and after, as stored (a result's spelling, a
    /// settings record as JSON, a referee's account name).
    pub old_value: Option<String>,
    pub new_value: Option<String>,
    pub detail: Detail,
}

impl Change {
    /// `action` on `entity` `id` of tournament `tournament`, with no values yet.
    /// The entity's own id is whichever id its entity has, stored as the
    /// bare number.
    pub fn new(
        tournament: Option<TournamentId>,
        action: Action,
        entity: Entity,
        id: Option<impl Into<i32>>,
    ) -> Change {
        Change {
            tournament,
            action,
            entity,
            entity_id: id.map(Into::into),
            old_value: None,
            new_value: None,
            detail: Detail::default(),
        }
    }

    pub fn old(mut self, value: impl Into<String>) -> Change {
        self.old_value = Some(value.into());
        self
    }

    pub fn new_value(mut self, value: impl Into<String>) -> Change {
        self.new_value = Some(value.into());
        self
    }

    /// The change happened in (or to) round `number`.
    pub fn in_round(mut self, number: RoundNo) -> Change {
        self.detail.round = Some(number);
        self
    }

    /// The change concerns these players, in this order.
    pub fn players(mut self, ids: impl IntoIterator<Item = EntryId>) -> Change {
        self.detail.players = ids.into_iter().collect();
        self
    }
}

// What the audit trail shows of a change: the values a page words.

/// What a change was about, in values the page words
/// (`wording::audit`): players by name, rounds by number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    Game {
        round: i32,
        table: i32,
        number: i32,
        tiebreak: bool,
        players: Vec<String>,
    },
    /// A game of a round undone since (its round, when the entry says it).
    GameGone {
        round: Option<i32>,
    },
    /// A round (`None`: one undone before entries said their round).
    Round(Option<i32>),
    Player(String),
    /// A relation or a kept-apart pair, with its two players if it is still there.
    Relation(Option<(String, String)>),
    KeptApart(Option<(String, String)>),
    Referee(String),
    Team(Option<String>),
    Match(Option<i32>),
    Other(Entity),
}

/// A value before or after a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// As stored (a settings record, a name, a count).
    Stored(String),
    /// A game's result, with the game's starter and the other player.
    Result {
        result: GameResult,
        starter: String,
        other: String,
    },
    /// The two players of a swap.
    Swapped(String, String),
    /// A withdrawal: not paired from this round on.
    NotPairedFrom(i32),
    /// A requested bye of this round.
    Bye { round: i32, kind: ByeKind },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stored_spelling_reads_back_as_its_value() {
        for a in Action::ALL {
            assert_eq!(Action::parse(a.as_str()), Some(*a));
        }
        for e in Entity::ALL {
            assert_eq!(Entity::parse(e.as_str()), Some(*e));
        }
        assert_eq!(
            "ruling replaced".parse::<Action>().unwrap(),
            Action::RulingReplaced
        );
        assert!("rename".parse::<Action>().is_err());
    }

    #[test]
    fn a_detail_keeps_only_what_it_holds() {
        let swap = Change::new(
            Some(crate::ids::TournamentId(1)),
            Action::Swap,
            Entity::Round,
            Some(7),
        )
        .in_round(crate::ids::RoundNo(3))
        .players([crate::ids::EntryId(12), crate::ids::EntryId(40)]);
        let json = serde_json::to_string(&swap.detail).unwrap();
        assert_eq!(json, r#"{"round":3,"players":[12,40]}"#);
        assert_eq!(serde_json::from_str::<Detail>(&json).unwrap(), swap.detail);
        assert_eq!(serde_json::to_string(&Detail::default()).unwrap(), "{}");
        assert!(serde_json::from_str::<Detail>(r#"{"round":"three"}"#).is_err());
    }
}

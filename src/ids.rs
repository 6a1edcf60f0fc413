//! The ids of the things Kraal stores, one type each.
//!
//! A tournament, an entry in it, a person of the registry, a team, a round's
//! number, a pairing, a game and an account are all numbered by the
//! database with an integer, and a function that takes three of them
//! (`request_bye(w, tournament, player, round, ...)`) would take any three
//! integers in any order. Each id here is its own type wrapping the
//! integer, so passing a person where an entry is meant, or a round's
//! database id where its number is meant, does not compile:
//!
//! ```compile_fail
//! use kraal::ids::{EntryId, PersonId};
//!
//! fn person_page(person: PersonId) -> String {
//!     format!("/people/{person}")
//! }
//!
//! let entry = EntryId(7);
//! person_page(entry); // an entry is not a person
//! ```
//!
//! ```
//! use kraal::ids::{EntryId, PersonId};
//!
//! fn person_page(person: PersonId) -> String {
//!     format!("/people/{person}")
//! }
//!
//! assert_eq!(person_page(PersonId(7)), "/people/7");
//! let _entry = EntryId(7);
//! ```
//!
//! The idea is lemmy's (`crates/db_schema/src/newtypes.rs`): each id is a
//! newtype the database stores as its inner integer. Everything outside the
//! program still sees the bare number: an id is written by `Display`, by
//! serde (JSON, forms, URL paths such as `/t/{id}/rounds/{n}`) and in the
//! database exactly as the integer it wraps, so pages, the API and stored
//! rows are the same as before the types. This module is core: it knows no
//! database; `db::ids` teaches diesel to bind and read each id as an
//! `Integer` on both backends.
//!
//! The inner integer is public, as lemmy's is: reading it (`id.0`) is the
//! one explicit step where an id becomes a plain number (a pure engine's
//! input, a sentence's value), and `EntryId(n)` the one where a number
//! read from outside becomes an id. Counts, ratings, table numbers, years
//! and ply numbers are plain numbers and stay so.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

macro_rules! ids {
    ($($(#[$doc:meta])* $name:ident;)+) => {$(
        $(#[$doc])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(pub i32);

        /// The bare number, as URLs, pages and sentences show it.
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }

        /// The bare number, where ids of several kinds share a column (the
        /// audit trail's entity id).
        impl From<$name> for i32 {
            fn from(id: $name) -> i32 {
                id.0
            }
        }

        impl From<$name> for i64 {
            fn from(id: $name) -> i64 {
                i64::from(id.0)
            }
        }

        /// Read from the bare number (a form's field name, a command's
        /// argument).
        impl FromStr for $name {
            type Err = std::num::ParseIntError;

            fn from_str(s: &str) -> Result<$name, Self::Err> {
                s.parse().map($name)
            }
        }
    )+};
}

ids! {
    /// A tournament (`tournaments.id`).
    TournamentId;
    /// A player's entry in one tournament (`players.id`): the same person
    /// entered in two events is two entries. The pairing engines number
    /// the entries with their own `pairing::PlayerId`
    /// ([`EntryId::engine`]).
    EntryId;
    /// A person of the server-wide registry (`people.id`), who may have
    /// entries in many tournaments.
    PersonId;
    /// A team of a team event (`teams.id`).
    TeamId;
    /// A round's number within its tournament, 1-based, as the referee
    /// says it and URLs write it (`/t/{id}/rounds/{n}`): not the round's
    /// row ([`RoundId`]).
    RoundNo;
    /// A round's row (`rounds.id`), which pairings and line-ups point to.
    RoundId;
    /// A pairing (`pairings.id`): two players at a table, a bye, or a team
    /// match whose boards are pairings too.
    PairingId;
    /// A game of a pairing (`games.id`).
    GameId;
    /// An account (`users.id`): an admin or a referee.
    UserId;
    /// A season (`seasons.id`).
    SeasonId;
}

impl RoundNo {
    /// The first round.
    pub const FIRST: RoundNo = RoundNo(1);

    /// The round after this one.
    pub fn next(self) -> RoundNo {
        RoundNo(self.0 + 1)
    }
}

impl EntryId {
    /// The entry as the pairing engines number players. This and
    /// [`EntryId::of_engine`] are the one conversion between the stored
    /// entries and the engines' `pairing::PlayerId`.
    pub fn engine(self) -> crate::pairing::PlayerId {
        self.0 as crate::pairing::PlayerId
    }

    /// The entry a pairing engine's player is.
    pub fn of_engine(id: crate::pairing::PlayerId) -> EntryId {
        EntryId(id as i32)
    }
}

impl TeamId {
    /// The team as the team engines number the sides they pair (the
    /// same numbering as [`EntryId::engine`]'s players).
    pub fn engine(self) -> crate::pairing::PlayerId {
        self.0 as crate::pairing::PlayerId
    }

    /// The team a team engine's side is.
    pub fn of_engine(id: crate::pairing::PlayerId) -> TeamId {
        TeamId(id as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_written_and_read_as_its_bare_number() {
        assert_eq!(serde_json::to_string(&EntryId(42)).unwrap(), "42");
        assert_eq!(serde_json::from_str::<GameId>("17").unwrap(), GameId(17));
        assert_eq!(
            serde_json::to_string(&Some(PersonId(3))).unwrap(),
            serde_json::to_string(&Some(3)).unwrap()
        );
        assert_eq!(RoundNo(9).to_string(), "9");
        assert_eq!("12".parse::<TeamId>().unwrap(), TeamId(12));
        let form: std::collections::HashMap<String, TournamentId> =
            serde_urlencoded::from_str("t=5").unwrap();
        assert_eq!(form["t"], TournamentId(5));
    }

    #[test]
    fn an_entry_goes_to_the_engines_and_back() {
        let id = EntryId(1234);
        assert_eq!(EntryId::of_engine(id.engine()), id);
    }
}

//! Where a sentence gets its words. The core and the use cases speak in
//! values (rules, notes, ids, refusals); the pages, the command line and
//! the exports turn them into sentences here, with players named by the
//! caller (a page names them, the command line says "player 12"), in the
//! language they are told.
//!
//! One module per subject; each takes values and a way to name a player.

pub mod audit;
pub mod conflict;
pub mod field;
pub mod pairing;
pub mod refusal;
pub mod registry;
pub mod remote;
pub mod roster;
pub mod rounds;
pub mod rules;

/// A language Kraal speaks. Only English has words yet; every entry point
/// that makes a sentence for a person takes one, so another language adds
/// words, never parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    English,
}

//! Where a sentence gets its words. The core and the use cases speak in
//! values (rules, notes, ids); the pages, the command line and the exports
//! turn them into sentences here, with players named by the caller (a
//! page names them, the command line says "player 12").
//!
//! One module per subject; each takes values and a way to name a player.

pub mod audit;
pub mod conflict;
pub mod field;
pub mod pairing;
pub mod registry;
pub mod remote;
pub mod roster;
pub mod rounds;

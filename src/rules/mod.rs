//! The rules of Morabaraba as pure functions: the board, positions, legal
//! moves, scoresheet notation and the check a referee runs on a scoresheet.
//! Nothing here reads files or the clock; callers hand in text and get data.
//!
//! - [`board`]: junctions, lines, neighbours (OGR 2, 3.2.2).
//! - [`ruleset`]: the `official` and `gar` rule sets as values.
//! - [`position`]: a position, a move, arrangements and the triplets column.
//! - [`movegen`]: legal moves, the end of the game, perft.
//! - [`notation`]: reading and writing scoresheets in both notations.
//! - [`check`]: replaying a scoresheet and reporting every irregularity.
//! - [`record`]: a game checked ply by ply as it is recorded, with the
//!   check's verdicts.

pub mod board;
pub mod check;
pub mod fault;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod record;
pub mod ruleset;
#[cfg(feature = "testing")]
pub mod sample;

pub use board::{Junction, Side};
pub use check::{check_scoresheet, first_difference, replay_sheet, Irregularity, Report};
pub use notation::{ParseError, SheetResult};
pub use position::{Arrangement, Game, Move, Position, Status, Triplet, TripletKind, WinReason};
pub use ruleset::{PlayRules, RuleSet};

//! Glicko-2 ratings by calendar month.
//!
//! Glicko-2 rather than Elo because Morabaraba's rated pool is small and
//! plays irregularly: a rating has to say how sure it is (RD), grow less
//! sure while its owner is away, and move a returning or new player fast,
//! which Elo with a fixed K cannot. The system is Glickman's as published
//! ([`glicko2`]), rated per calendar month ([`Period`]), and the whole
//! history is recomputed from the games ([`rate`], [`rate_from`]) rather
//! than stored, so a late or corrected result is never out of step with the
//! ratings shown.

pub mod glicko2;
pub mod history;
pub mod period;

pub use glicko2::{rate_period, Rating, Settings};
pub use history::{rate, rate_from, Game, History, Snapshot, Start};
pub use period::{Period, PeriodError};

//! Kraal: a Morabaraba (Twelve Men's Morris) tournament manager.
//!
//! The pure core ([`rules`], [`pairing`], [`standings`]) takes plain data and
//! returns plain data; it knows nothing of HTTP or SQL. The shell ([`db`],
//! [`web`], [`export`]) loads, calls the core, stores and renders.

// Unit tests may unwrap: a panic there is the test failing, with its place.
#![cfg_attr(test, allow(clippy::unwrap_used))]

#[macro_use]
pub mod named;

pub mod accounts;
pub mod calendar;
pub mod change;
pub mod cli;
pub mod clock;
pub mod conflict;
pub mod db;
pub mod director;
pub mod export;
pub mod field;
pub mod ids;
pub mod outbound;
pub mod pairing;
pub mod rating;
pub mod refusal;
pub mod registry;
pub mod remote;
pub mod reports;
pub mod results;
pub mod roster;
pub mod rounds;
pub mod rules;
pub mod season;
pub mod standings;
pub mod tournament;
pub mod web;
pub mod wording;

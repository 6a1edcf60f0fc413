//! Kraal: a Morabaraba (Twelve Men's Morris) tournament manager.
//!
//! The pure core ([`rules`], [`pairing`], [`standings`]) takes plain data and
//! returns plain data; it knows nothing of HTTP or SQL. The shell ([`db`],
//! [`web`], [`export`]) loads, calls the core, stores and renders.

pub mod cli;
pub mod pairing;
pub mod rules;
pub mod standings;

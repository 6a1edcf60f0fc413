//! teams

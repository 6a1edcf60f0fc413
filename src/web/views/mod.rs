//! Read models the web layer shares: what a round, a team match or the
//! tournament page shows, built from a loaded tournament. Pages render
//! them, the API serialises its own types from them; no page imports
//! another page.

pub mod personal;
pub mod publication;
pub mod round;
pub mod team;
pub mod tournament;

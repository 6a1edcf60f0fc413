//! CSV in and out. Every CSV Kraal writes has a header row and is UTF-8;
//! every CSV it reads is checked whole before anything is stored.

pub mod players;
pub mod standings;

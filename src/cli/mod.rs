//! Command-line subcommands that are not the web server. Each module owns its
//! arguments (a `clap::Args` struct) and a `run` that returns the process exit
//! status, so `main.rs` stays a table of contents.

// A command's output is its standard output: what it prints there is its
// result (a token, a report, a summary), not a log.
#![allow(clippy::print_stdout)]

pub mod check;
pub mod export;
pub mod import;
pub mod pair;
pub mod perft;
pub mod registry;
pub mod serve;

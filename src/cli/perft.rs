//! `kraal perft`.

/// Arguments of `kraal perft`.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {}

/// Runs the subcommand and returns the exit status.
pub fn run(_args: PerftArgs) -> i32 {
    eprintln!("kraal perft: not yet available");
    2
}

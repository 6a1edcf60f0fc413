//! `kraal pair`.

/// Arguments of `kraal pair`.
#[derive(Debug, clap::Args)]
pub struct PairArgs {}

/// Runs the subcommand and returns the exit status.
pub fn run(_args: PairArgs) -> i32 {
    eprintln!("kraal pair: not yet available");
    2
}

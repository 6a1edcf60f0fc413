//! `kraal check`.

/// Arguments of `kraal check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {}

/// Runs the subcommand and returns the exit status.
pub fn run(_args: CheckArgs) -> i32 {
    eprintln!("kraal check: not yet available");
    2
}

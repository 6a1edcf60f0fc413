use clap::{Parser, Subcommand};

/// Kraal: a Morabaraba tournament manager.
#[derive(Debug, Parser)]
#[command(name = "kraal", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check a scoresheet against the rules.
    Check(kraal::cli::check::CheckArgs),
    /// Count move paths from a position (move-generator self test).
    Perft(kraal::cli::perft::PerftArgs),
    /// Pair the next round of a tournament file (Kraal JSON or FIDE TRF).
    Pair(kraal::cli::pair::PairArgs),
}

fn main() {
    let cli = Cli::parse();
    let code = match cli.command {
        Some(Command::Check(args)) => kraal::cli::check::run(args),
        Some(Command::Perft(args)) => kraal::cli::perft::run(args),
        Some(Command::Pair(args)) => kraal::cli::pair::run(args),
        None => {
            eprintln!("kraal: serve is not yet available");
            2
        }
    };
    std::process::exit(code);
}

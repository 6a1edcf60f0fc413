use clap::{Parser, Subcommand};
use kraal::cli::{check, pair, perft, serve};

/// Kraal: a Morabaraba tournament manager.
#[derive(Debug, Parser)]
#[command(name = "kraal", version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    /// With no subcommand Kraal serves, taking the options of `kraal serve`.
    #[command(flatten)]
    serve: serve::ServeArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the web app (the default).
    Serve(serve::ServeArgs),
    /// Create or upgrade the database, then exit.
    Migrate(serve::MigrateArgs),
    /// Manage accounts.
    #[command(subcommand)]
    User(UserCommand),
    /// Manage API tokens.
    #[command(subcommand)]
    Token(TokenCommand),
    /// Copy a SQLite database to a new file, safely while the app runs.
    Backup(serve::BackupArgs),
    /// Export a tournament: standings (CSV), records (text), the whole
    /// event (JSON) or a FIDE TRF.
    #[command(subcommand)]
    Export(kraal::cli::export::ExportWhat),
    /// Import a tournament exported by `kraal export event`.
    #[command(subcommand)]
    Import(kraal::cli::import::ImportWhat),
    /// Check a scoresheet against the rules.
    Check(check::CheckArgs),
    /// Count move paths from a position (move-generator self test).
    Perft(perft::PerftArgs),
    /// Pair the next round of a tournament file (Kraal JSON or FIDE TRF).
    Pair(pair::PairArgs),
    /// The registry of people.
    #[command(subcommand)]
    Registry(kraal::cli::registry::RegistryCommand),
}

#[derive(Debug, Subcommand)]
enum UserCommand {
    /// Add an account; the password is read from standard input.
    Add(serve::UserAddArgs),
    /// Allow an account to publish events here from a venue (or, with
    /// --revoke, no longer).
    Publisher(serve::PublisherArgs),
}

#[derive(Debug, Subcommand)]
enum TokenCommand {
    /// Create an API token for a user and print it.
    Create(serve::TokenCreateArgs),
}

fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("KRAAL_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        // Colours for a terminal only: a log file gets plain lines.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let cli = Cli::parse();
    let code = match cli.command {
        None => serve::serve(cli.serve),
        Some(Command::Serve(args)) => serve::serve(args),
        Some(Command::Migrate(args)) => serve::migrate(args),
        Some(Command::User(UserCommand::Add(args))) => serve::user_add(args),
        Some(Command::User(UserCommand::Publisher(args))) => serve::user_publisher(args),
        Some(Command::Token(TokenCommand::Create(args))) => serve::token_create(args),
        Some(Command::Backup(args)) => serve::backup(args),
        Some(Command::Export(what)) => kraal::cli::export::run(what),
        Some(Command::Import(what)) => kraal::cli::import::run(what),
        Some(Command::Check(args)) => check::run(args),
        Some(Command::Perft(args)) => perft::run(args),
        Some(Command::Pair(args)) => pair::run(args),
        Some(Command::Registry(command)) => kraal::cli::registry::run(command),
    };
    std::process::exit(code);
}

//! `kraal pair FILE`: pairs the next round of a tournament file (Kraal JSON
//! or FIDE TRF) and prints it the way the common pairing engines do: the
//! number of pairs, then `id id` per pair, a bye as `id 0`. `--json` prints
//! the round with its explanations instead.
//!
//! Exit status: 0 paired, 1 no valid pairing exists (the message names the
//! constraint), 2 the file cannot be read (the message names line and field).

use std::path::PathBuf;

use crate::pairing::format::{self, FormatError};
use crate::pairing::swiss::{self, RoundPairing, SwissInput};
use crate::pairing::{PairingError, RuleSet};

/// Arguments of `kraal pair`.
#[derive(Debug, clap::Args)]
pub struct PairArgs {
    /// Tournament file: Kraal JSON (`.json`) or FIDE TRF (anything else).
    pub file: PathBuf,
    /// Print the round as JSON, with each pairing's explanation.
    #[arg(long)]
    pub json: bool,
    /// Rule set (`official` or `gar`) whose avoidance table applies to a TRF
    /// file: given here, it wins over the file's own `KRS` line; without
    /// either, `official`. Kraal JSON names its own. `--rule-set` is the old
    /// spelling.
    #[arg(long = "rules", alias = "rule-set")]
    pub rules: Option<RuleSet>,
}

/// Reads a tournament file's text as Kraal JSON or TRF (by its content:
/// JSON starts with `{`).
pub fn read_input(text: &str, rules: Option<RuleSet>) -> Result<SwissInput, FormatError> {
    if text.trim_start().starts_with('{') {
        format::parse_kraal_json(text)
    } else {
        let mut input = format::parse_trf(text, rules.unwrap_or(RuleSet::Official))?;
        if let Some(r) = rules {
            input.rules = r;
        }
        Ok(input)
    }
}

/// The round in the engines' plain format.
pub fn plain(round: &RoundPairing) -> String {
    let mut out = format!("{}\n", round.pairs.len() + usize::from(round.bye.is_some()));
    for p in &round.pairs {
        out.push_str(&format!("{} {}\n", p.first, p.second));
    }
    if let Some(b) = &round.bye {
        out.push_str(&format!("{} 0\n", b.player));
    }
    out
}

/// Runs the subcommand and returns the exit status.
pub fn run(args: PairArgs) -> i32 {
    let text = match std::fs::read(&args.file) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("kraal pair: {}: {e}", args.file.display());
            return 2;
        }
    };
    let rules = args.rules;
    let input = match read_input(&text, rules) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("kraal pair: {}: {e}", args.file.display());
            return 2;
        }
    };
    match swiss::pair_round(&input) {
        Ok(round) => {
            if args.json {
                match serde_json::to_string_pretty(&round) {
                    Ok(s) => println!("{s}"),
                    Err(e) => {
                        eprintln!("kraal pair: {e}");
                        return 2;
                    }
                }
            } else {
                print!("{}", plain(&round));
            }
            0
        }
        Err(PairingError::Invalid(msg)) => {
            eprintln!("kraal pair: {}: {msg}", args.file.display());
            2
        }
        Err(e) => {
            eprintln!("kraal pair: {e}");
            1
        }
    }
}

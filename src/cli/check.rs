//! `kraal check`: replays a scoresheet and reports its irregularities.

use crate::rules::{check_scoresheet, RuleSet};
use std::io::Read;

/// Arguments of `kraal check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Rule set: official or gar. Without it, the sheet's [Rules] tag, else gar.
    #[arg(long)]
    pub rules: Option<RuleSet>,
    /// Print one JSON object instead of the readable report.
    #[arg(long)]
    pub json: bool,
    /// The scoresheet, or - for standard input.
    pub file: String,
}

/// Runs the subcommand and returns the exit status: 0 when clean, 1 when
/// there are irregularities or the claimed result disagrees with the board,
/// 2 when the input cannot be read.
pub fn run(args: CheckArgs) -> i32 {
    let text = if args.file == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).map(|_| buf)
    } else {
        std::fs::read(&args.file)
    };
    let text = match text {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                eprintln!("kraal check: {}: not UTF-8 text", args.file);
                return 2;
            }
        },
        Err(e) => {
            eprintln!("kraal check: {}: {e}", args.file);
            return 2;
        }
    };
    let report = match check_scoresheet(&text, args.rules) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("kraal check: {}: {e}", args.file);
            return 2;
        }
    };
    if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(json) => println!("{json}"),
            Err(e) => {
                eprintln!("kraal check: {e}");
                return 2;
            }
        }
    } else {
        print!("{}", report.to_text());
    }
    if report.is_clean() {
        0
    } else {
        1
    }
}

//! `kraal perft`: counts move paths, the standard self-test of a move
//! generator, against published counts.

use crate::rules::movegen::perft;
use crate::rules::notation;
use crate::rules::{Game, RuleSet};
use std::time::Instant;

/// Arguments of `kraal perft`.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// Rule set: official or gar.
    #[arg(long, default_value = "gar")]
    pub rules: RuleSet,
    /// Count paths of 1..=DEPTH plies.
    pub depth: u32,
    /// Start after these moves (either notation), e.g. "a1 d1 g1".
    #[arg(long)]
    pub after: Option<String>,
    /// Also print the time each depth took (to standard error).
    #[arg(long)]
    pub time: bool,
}

/// Runs the subcommand and returns the exit status.
pub fn run(args: PerftArgs) -> i32 {
    let mut game = Game::new(args.rules.play());
    if let Some(moves) = &args.after {
        let sheet = match notation::parse(moves) {
            Ok(sheet) => sheet,
            Err(e) => {
                eprintln!("kraal perft: --after: {e}");
                return 2;
            }
        };
        for (i, ply) in sheet.plies.iter().enumerate() {
            let mv = ply.to_move();
            if !game.legal_moves().contains(&mv) {
                eprintln!(
                    "kraal perft: --after: move {} ({}) is not legal here",
                    i + 1,
                    sheet.text(ply)
                );
                return 2;
            }
            game.play(mv);
        }
    }
    for depth in 1..=args.depth {
        let start = Instant::now();
        let count = perft(&game.position, &game.rules, &game.spent, depth);
        println!("depth {depth}: {count}");
        if args.time {
            eprintln!("depth {depth}: {:.3} s", start.elapsed().as_secs_f64());
        }
    }
    0
}

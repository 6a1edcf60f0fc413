//! Times one Swiss round of a synthetic open (the same field as
//! `benches/pairing.rs`), for fields too large for a criterion loop and
//! to read the memory a round takes (run it under `/usr/bin/time -v`):
//!
//!     cargo run --release --example swiss_round -- 100000 8
//!
//! With `gar` first, round R (1-3) of the `gar` Swiss of 2,000 unrated
//! players in 40 clubs of 50 (the bench's `gar_2000_in_40_clubs`), and how
//! many club-mate pairings it has:
//!
//!     cargo run --release --example swiss_round -- gar 1
//!
//! Then a player count and a number of clubs give a `gar` field of that
//! many players in clubs drawn at random, where some club-mates must meet
//! (`SimConfig::gar_crowded`):
//!
//!     cargo run --release --example swiss_round -- gar 3 200 2

// An example's output is what it prints.
#![allow(clippy::print_stdout)]

use std::time::Instant;

use kraal::pairing::sim::{self, SimConfig};
use kraal::pairing::swiss;

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().map(String::as_str) == Some("gar") {
        args.next();
        let round: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
        let players: Option<usize> = args.next().and_then(|a| a.parse().ok());
        let clubs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
        let cfg = match players {
            Some(p) => SimConfig::gar_crowded(p, clubs, round),
            None => SimConfig::gar_clubs(round),
        };
        let field = match players {
            Some(p) => format!("{p} players in {clubs} clubs drawn at random"),
            None => "2,000 players in 40 clubs".to_string(),
        };
        let input = sim::tournament(&cfg).expect("synthetic tournament pairs");
        let t = Instant::now();
        let (paired, shortcuts) = swiss::pair_round_with_shortcuts(&input).expect("pairs");
        let took = t.elapsed();
        let mates = sim::club_mate_pairs(&input, &paired);
        println!(
            "gar, {field}, round {round}: {} pairs ({mates} of club-mates) paired in {took:.2?}",
            paired.pairs.len()
        );
        report(&shortcuts);
        return;
    }
    let players: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let played: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(8);
    let t = Instant::now();
    let input = sim::tournament(&SimConfig::large_open(players, played))
        .expect("synthetic tournament pairs");
    eprintln!("history of {played} rounds built in {:.1?}", t.elapsed());
    let t = Instant::now();
    let (round, shortcuts) = swiss::pair_round_with_shortcuts(&input).expect("pairs");
    println!(
        "{players} players, round {}: {} pairs paired in {:.2?}",
        input.round,
        round.pairs.len(),
        t.elapsed()
    );
    report(&shortcuts);
}

/// Where the round left the handbook's exact procedure for a size limit.
fn report(shortcuts: &[String]) {
    if shortcuts.is_empty() {
        println!("every bracket paired by the handbook's exact procedure");
    }
    for s in shortcuts {
        println!("shortcut: {s}");
    }
}

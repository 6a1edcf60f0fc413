//! Times one Swiss round of a synthetic open (the same field as
//! `benches/pairing.rs`), for fields too large for a criterion loop and
//! to read the memory a round takes (run it under `/usr/bin/time -v`):
//!
//!     cargo run --release --example swiss_round -- 100000 8

use std::time::Instant;

use kraal::pairing::sim::{self, SimConfig};
use kraal::pairing::swiss;

fn main() {
    let mut args = std::env::args().skip(1);
    let players: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let played: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(8);
    let mut cfg = SimConfig::plain(players, played, 2026);
    cfg.total_rounds = played + 1;
    cfg.withdraw_chance = 0.01;
    cfg.requested_bye_chance = 0.01;
    cfg.late_entries = players / 100;
    cfg.forbidden_pairs = players / 20;
    cfg.clubs = players / 10;
    let t = Instant::now();
    let input = sim::tournament(&cfg).expect("synthetic tournament pairs");
    eprintln!("history of {played} rounds built in {:.1?}", t.elapsed());
    let t = Instant::now();
    let round = swiss::pair_round(&input).expect("pairs");
    println!(
        "{players} players, round {}: {} pairs paired in {:.2?}",
        input.round,
        round.pairs.len(),
        t.elapsed()
    );
}

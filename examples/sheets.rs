//! Writes a directory of scoresheets for timing `kraal check`: random legal
//! games of 120 plies from a fixed generator (the same files on every run),
//! alternately in the official notation under `official` and in the
//! standard notation under `gar`, each with a header.
//!
//!     cargo run --release --example sheets -- /tmp/kraal-sheets 10000
//!     time target/release/kraal check --summary /tmp/kraal-sheets > /dev/null

// An example's output is what it prints.
#![allow(clippy::print_stdout)]

use kraal::rules::notation::{self, Style};
use kraal::rules::sample::lasting_game;
use kraal::rules::PlayRules;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().unwrap_or_else(|| "kraal-sheets".into());
    let count: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(10_000);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {dir}: {e}"));
    let mut seed = 0;
    for i in 0..count {
        let (rules, style) = if i % 2 == 0 {
            (PlayRules::OFFICIAL, Style::Official)
        } else {
            (PlayRules::GAR, Style::Standard)
        };
        let moves = lasting_game(rules, seed, 120);
        seed += 1_000;
        let text = format!(
            "[Event \"Generated\"]\n[Round \"{}\"]\n{}",
            i / 100 + 1,
            notation::write(&rules, &moves, style, None)
        );
        let path = format!("{dir}/sheet-{i:05}.txt");
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
    }
    println!("{count} sheets in {dir}");
}

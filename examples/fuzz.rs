//! Long fuzzing runs: `cargo run --release --example fuzz -- [COUNT] [SEED] [TARGET...]`
//! (default 10,000,000 inputs per target, seed 1, every target). Prints one
//! line per target; an input that panics is written to `fuzz-TARGET.bin`
//! and the run exits with status 1.

// An example's output is what it prints.
#![allow(clippy::print_stdout)]

#[path = "../tests/fuzz/harness.rs"]
mod harness;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count: u64 = args
        .first()
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000_000);
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let only: Vec<&str> = args.iter().skip(2).map(String::as_str).collect();
    let mut failed = false;
    for target in harness::TARGETS {
        if !only.is_empty() && !only.contains(&target.name) {
            continue;
        }
        let out = harness::run(target, count, seed);
        println!(
            "{}: {} inputs ({} accepted) in {:.1} s ({:.0}/s), slowest {:.2} ms, {}",
            target.name,
            out.inputs,
            out.accepted,
            out.elapsed.as_secs_f64(),
            out.inputs as f64 / out.elapsed.as_secs_f64(),
            out.slowest.as_secs_f64() * 1000.0,
            if out.panic.is_some() {
                "PANIC"
            } else {
                "no panic"
            }
        );
        if let Some((input, message)) = out.panic {
            let file = format!("fuzz-{}.bin", target.name);
            std::fs::write(&file, &input).expect("write the input");
            println!("  {message}; input written to {file}");
            failed = true;
        }
    }
    std::process::exit(i32::from(failed));
}

//! A short fuzzing run of every reader of outside input (the long runs:
//! `cargo run --release --example fuzz`, figures in docs/performance.md).

#[path = "fuzz/harness.rs"]
mod harness;

#[test]
fn no_reader_of_outside_input_panics() {
    for target in harness::TARGETS {
        let out = harness::run(target, 20_000, 2026);
        if let Some((input, message)) = out.panic {
            panic!(
                "{} panicked ({message}) on {:?}",
                target.name,
                String::from_utf8_lossy(&input)
            );
        }
        assert_eq!(out.inputs, 20_000);
        // The mutations reach past the first check, and still go wrong.
        assert!(
            out.accepted > 100 && out.accepted < out.inputs,
            "{}: {} of {} inputs accepted",
            target.name,
            out.accepted,
            out.inputs
        );
        assert!(
            out.slowest < std::time::Duration::from_secs(2),
            "{}: one input took {:?}",
            target.name,
            out.slowest
        );
        eprintln!(
            "{}: {} of {} accepted in {:?}",
            target.name, out.accepted, out.inputs, out.elapsed
        );
    }
}

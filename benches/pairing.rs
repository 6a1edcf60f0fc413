//! One Swiss round of a large open: 1,000 and 10,000 players after 8 rounds
//! of synthetic history (ratings, draws, a few withdrawals and late entries,
//! club-mates and forbidden pairs), paired by the Dutch engine.
//!
//! Run with `cargo bench --bench pairing`; figures in docs/performance.md.

use criterion::{criterion_group, criterion_main, Criterion};
use kraal::pairing::sim::{self, SimConfig};
use kraal::pairing::swiss;

fn field(players: usize) -> swiss::SwissInput {
    let mut cfg = SimConfig::plain(players, 8, 2026);
    cfg.total_rounds = 9;
    cfg.withdraw_chance = 0.01;
    cfg.requested_bye_chance = 0.01;
    cfg.late_entries = players / 100;
    cfg.forbidden_pairs = players / 20;
    cfg.clubs = players / 10;
    sim::tournament(&cfg).expect("synthetic tournament pairs")
}

fn swiss_round(c: &mut Criterion) {
    let mut g = c.benchmark_group("swiss_round_9");
    g.sample_size(10);
    for players in [1_000usize, 10_000] {
        let input = field(players);
        g.bench_function(format!("{players}_players"), |b| {
            b.iter(|| swiss::pair_round(&input).expect("pairs"))
        });
    }
    g.finish();
}

criterion_group!(benches, swiss_round);
criterion_main!(benches);

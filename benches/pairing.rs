//! One Swiss round of a large open: 1,000, 10,000 and 100,000 players after
//! 8 rounds of synthetic history (ratings, draws, a few withdrawals and late
//! entries, club-mates and forbidden pairs), paired by the Dutch engine; and
//! rounds 1-3 of a `gar` Swiss of 2,000 unrated players in 40 clubs of 50,
//! where club-mates are kept apart where the score brackets allow.
//!
//! Run with `cargo bench --bench pairing`; the 100,000-player round (whose
//! history alone takes minutes to build) only when `KRAAL_BENCH_HUGE` is
//! set. Figures in docs/performance.md.

use criterion::{criterion_group, criterion_main, Criterion};
use kraal::pairing::sim::{self, SimConfig};
use kraal::pairing::{swiss, RuleSet};

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
    let mut sizes = vec![1_000usize, 10_000];
    if std::env::var_os("KRAAL_BENCH_HUGE").is_some() {
        sizes.push(100_000);
    }
    for players in sizes {
        let input = field(players);
        g.bench_function(format!("{players}_players"), |b| {
            b.iter(|| swiss::pair_round(&input).expect("pairs"))
        });
    }
    g.finish();
}

/// Rounds 1-3 of a `gar` Swiss: 2,000 unrated players, 40 clubs of 50.
fn gar_clubs(c: &mut Criterion) {
    let mut g = c.benchmark_group("gar_2000_in_40_clubs");
    g.sample_size(10);
    for round in 1..=3u32 {
        let mut cfg = SimConfig::plain(2_000, round - 1, 2026);
        cfg.rules = RuleSet::Gar;
        cfg.total_rounds = 7;
        cfg.clubs = 40;
        cfg.even_clubs = true;
        cfg.unrated = true;
        let input = sim::tournament(&cfg).expect("synthetic tournament pairs");
        g.bench_function(format!("round_{round}"), |b| {
            b.iter(|| swiss::pair_round(&input).expect("pairs"))
        });
    }
    g.finish();
}

criterion_group!(benches, swiss_round, gar_clubs);
criterion_main!(benches);

//! One Swiss round of a large open: 1,000, 10,000 and 100,000 players after
//! 8 rounds of synthetic history (ratings, draws, a few withdrawals and late
//! entries, club-mates and forbidden pairs), paired by the Dutch engine; and
//! rounds 1-3 of a `gar` Swiss of 2,000 unrated players in 40 clubs of 50,
//! where club-mates are kept apart where the score brackets allow, and of
//! one of 200 players in 2 clubs drawn at random, where some must meet and
//! the round finds the fewest; and round 1 of such fields of 200, 400 and
//! 600 players, one bracket each with no perfect candidate, whose
//! generation order is settled choice by choice.
//!
//! Run with `cargo bench --bench pairing`; the 100,000-player round (whose
//! history alone takes minutes to build) only when `KRAAL_BENCH_HUGE` is
//! set. Figures in docs/performance.md.

use criterion::{criterion_group, criterion_main, Criterion};
use kraal::pairing::sim::{self, SimConfig};
use kraal::pairing::swiss;

fn field(players: usize) -> swiss::SwissInput {
    sim::tournament(&SimConfig::large_open(players, 8)).expect("synthetic tournament pairs")
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
        let input =
            sim::tournament(&SimConfig::gar_clubs(round)).expect("synthetic tournament pairs");
        g.bench_function(format!("round_{round}"), |b| {
            b.iter(|| swiss::pair_round(&input).expect("pairs"))
        });
    }
    g.finish();
}

/// Rounds 2-3 of a `gar` Swiss of 200 unrated players in 2 clubs drawn at
/// random: club-mates must meet, and the fewest over the round is one
/// matching of each bracket with everyone below it.
fn gar_crowded(c: &mut Criterion) {
    let mut g = c.benchmark_group("gar_200_in_2_clubs");
    g.sample_size(10);
    for round in 2..=3u32 {
        let input = sim::tournament(&SimConfig::gar_crowded(200, 2, round))
            .expect("synthetic tournament pairs");
        g.bench_function(format!("round_{round}"), |b| {
            b.iter(|| swiss::pair_round(&input).expect("pairs"))
        });
    }
    g.finish();
}

/// Round 1 of a `gar` Swiss in 2 clubs drawn at random: one bracket of
/// every player, with no perfect candidate (club-mates must meet), paired
/// in the handbook's order by the sequential choice on one matching kept
/// between choices (`matching::warm`).
fn no_perfect_candidate(c: &mut Criterion) {
    let mut g = c.benchmark_group("one_bracket_without_a_perfect_candidate");
    g.sample_size(10);
    for players in [200usize, 400, 600] {
        let input = sim::tournament(&SimConfig::gar_crowded(players, 2, 1))
            .expect("synthetic tournament pairs");
        g.bench_function(format!("{players}_players"), |b| {
            b.iter(|| swiss::pair_round(&input).expect("pairs"))
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    swiss_round,
    gar_clubs,
    gar_crowded,
    no_perfect_candidate
);
criterion_main!(benches);

//! Rating a federation's whole history from its games: 20,000 people and
//! 1,000,000 games over 36 months, from scratch and from the last month on
//! (what the server does when a result of the current month comes in).
//!
//! Run with `cargo bench --bench rating`. Figures in docs/performance.md.

#![allow(clippy::unwrap_used)]

use criterion::{criterion_group, criterion_main, Criterion};
use kraal::rating::{self, Game, Period, Rating, Settings, Start};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const PEOPLE: u32 = 20_000;
const GAMES: usize = 1_000_000;
const MONTHS: u32 = 36;

/// A deterministic history: opponents drawn at random, a quarter of the
/// games drawn, the rest won by either side, and one person in ten starting
/// from an imported rating.
fn history() -> (Vec<Start>, Vec<Game>, Period) {
    let mut rng = StdRng::seed_from_u64(2026);
    let first: Period = "2023-01".parse().unwrap();
    let months: Vec<Period> = std::iter::successors(Some(first), |p| Some(p.next()))
        .take(MONTHS as usize)
        .collect();
    let games = (0..GAMES)
        .map(|_| {
            let a = rng.random_range(0..PEOPLE);
            let b = (a + rng.random_range(1..PEOPLE)) % PEOPLE;
            let score = match rng.random_range(0..8) {
                0 | 1 => 0.5,
                2..=4 => 1.0,
                _ => 0.0,
            };
            Game {
                period: months[rng.random_range(0..months.len())],
                first: a,
                second: b,
                score,
            }
        })
        .collect();
    let starts = (0..PEOPLE)
        .step_by(10)
        .map(|person| Start {
            person,
            rating: Rating {
                rating: 1200.0 + f64::from(person % 1200),
                rd: 80.0,
                volatility: 0.06,
            },
            after: first.prev(),
        })
        .collect();
    (starts, games, *months.last().unwrap())
}

fn rate(c: &mut Criterion) {
    let (starts, games, until) = history();
    let settings = Settings::default();
    let name = format!("{PEOPLE}x{GAMES}x{MONTHS}");
    let mut g = c.benchmark_group("rating");
    g.sample_size(10);
    g.bench_function(format!("from_scratch/{name}"), |b| {
        b.iter(|| rating::rate(PEOPLE as usize, &starts, &games, until, settings))
    });
    let full = rating::rate(PEOPLE as usize, &starts, &games, until, settings);
    g.bench_function(format!("one_month_from/{name}"), |b| {
        b.iter(|| rating::rate_from(&full, until, &starts, &games, until, settings))
    });
    g.finish();
}

criterion_group!(benches, rate);
criterion_main!(benches);

//! Benchmarks of the rules core: perft from the empty board and the check
//! of a 120-ply scoresheet. Figures and commands are in docs/performance.md.

use criterion::{criterion_group, criterion_main, Criterion};
use kraal::rules::movegen::perft;
use kraal::rules::notation::{self, Style};
use kraal::rules::{check_scoresheet, Game, PlayRules, RuleSet};
use std::hint::black_box;
use std::time::Duration;

fn perft_empty_board(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for rules in RuleSet::ALL.iter().map(|r| r.play()) {
        let game = Game::new(rules);
        for depth in [6, 7] {
            group.bench_function(format!("{}/{depth}", rules.name), |b| {
                b.iter(|| perft(black_box(&game.position), &rules, &game.spent, depth))
            });
        }
    }
    group.finish();
}

fn check_120_plies(c: &mut Criterion) {
    let mut group = c.benchmark_group("check");
    for (rules, style) in [
        (PlayRules::OFFICIAL, Style::Official),
        (PlayRules::GAR, Style::Standard),
    ] {
        let moves = kraal::rules::sample::lasting_game(rules, 0, 120);
        let text = notation::write(&rules, &moves, style, None);
        let report = check_scoresheet(&text, None).expect("the sheet reads");
        assert!(report.irregularities.is_empty() && report.plies == 120);
        group.bench_function(format!("{}/120 plies", rules.name), |b| {
            b.iter(|| check_scoresheet(black_box(&text), None))
        });
        group.bench_function(format!("{}/120 plies, reading only", rules.name), |b| {
            b.iter(|| notation::parse(black_box(&text)))
        });
    }
    group.finish();
}

criterion_group!(benches, perft_empty_board, check_120_plies);
criterion_main!(benches);

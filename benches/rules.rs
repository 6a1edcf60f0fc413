//! Benchmarks of the rules core: perft from the empty board, the check
//! of a 120-ply scoresheet, and one ply checked as it is recorded (the
//! 120th, against replaying the game to it). Figures and commands are in
//! docs/performance.md.

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

/// The 120th ply of a game being recorded: checked on its own (the
/// recording of the 119 before it is cloned outside the timing), and, for
/// comparison, by replaying the whole game as a sheet.
fn one_ply_recorded(c: &mut Criterion) {
    use criterion::BatchSize;
    use kraal::rules::record::Recording;
    let mut group = c.benchmark_group("record");
    for (rules, style) in [
        (PlayRules::OFFICIAL, Style::Official),
        (PlayRules::GAR, Style::Standard),
    ] {
        let moves = kraal::rules::sample::lasting_game(rules, 0, 120);
        let plies: Vec<String> = (0..moves.len())
            .map(|i| {
                let text = notation::write(&rules, &moves[..=i], style, None);
                let sheet = notation::parse(&text).expect("the sheet reads");
                let last = sheet.plies.last().expect("a ply");
                sheet.text(last).to_string()
            })
            .collect();
        let (last, before) = plies.split_last().expect("120 plies");
        let recorded =
            Recording::of(&rules, before.iter().map(String::as_str)).expect("the plies read");
        assert!(recorded.irregularities().is_empty() && recorded.len() == 119);
        group.bench_function(format!("{}/ply 120", rules.name), |b| {
            b.iter_batched(
                || recorded.clone(),
                |mut r| r.push(black_box(last)).map(|p| p.ply),
                BatchSize::SmallInput,
            )
        });
        let sheet = plies.join(" ");
        group.bench_function(
            format!("{}/ply 120 by replaying the game", rules.name),
            |b| b.iter(|| check_scoresheet(black_box(&sheet), Some(rules.name))),
        );
    }
    group.finish();
}

criterion_group!(
    benches,
    perft_empty_board,
    check_120_plies,
    one_ply_recorded
);
criterion_main!(benches);

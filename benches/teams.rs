//! Team events: ranking a national league and pairing a big team Swiss.
//!
//! - `team_standings/20_teams_38_rounds`: a 20-team double league at its
//!   end (380 matches), ranked by match points with head-to-head first and
//!   the default team tiebreaks (other points, board 1-4 points, wins).
//! - `team_swiss/200_teams_round_9`: a team Swiss of 200 teams after 8
//!   rounds, paired by the Dutch engine over team scores.
//!
//! Run with `cargo bench --bench teams`; figures in docs/performance.md.

#![allow(clippy::unwrap_used)]

use criterion::{criterion_group, criterion_main, Criterion};
use kraal::pairing::teams::{self, Team, TeamMatch, TeamScoring, TeamSwissInput};
use kraal::pairing::{Points, POINT};
use kraal::standings::{self, Entrant, Outcome, Scoring};
use kraal::tournament::{team_tiebreaks, ByeValue, Ranking};

/// A deterministic stream of match scores out of 8 game points.
struct Scores(u64);

impl Scores {
    fn next(&mut self) -> Points {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % 17) as Points * POINT / 2
    }
}

fn league(teams: u32) -> Vec<Entrant> {
    let schedule = teams::round_robin(&(1..=teams).collect::<Vec<_>>(), true).unwrap();
    let mut scores = Scores(2026);
    let mut rounds: Vec<Vec<Outcome>> = vec![Vec::new(); teams as usize];
    let mut boards = vec![vec![0; 4]; teams as usize];
    for r in &schedule.rounds {
        for p in &r.pairs {
            let a = scores.next();
            let b = 8 * POINT - a;
            let played = |opponent, points, opponent_points| Outcome::Played {
                opponent,
                points,
                opponent_points,
                games_won: u32::from(points > opponent_points),
            };
            rounds[p.first as usize - 1].push(played(p.second, a, b));
            rounds[p.second as usize - 1].push(played(p.first, b, a));
            for board in boards[p.first as usize - 1].iter_mut() {
                *board += a / 4;
            }
            for board in boards[p.second as usize - 1].iter_mut() {
                *board += b / 4;
            }
        }
    }
    (1..=teams)
        .map(|id| Entrant {
            id,
            name: format!("Team {id}"),
            order: id,
            rounds: rounds[id as usize - 1].clone(),
            boards: boards[id as usize - 1].clone(),
            stage: 0,
        })
        .collect()
}

fn team_standings(c: &mut Criterion) {
    let entrants = league(20);
    let scoring = Scoring {
        games_per_pairing: 8,
        ranking: Ranking::MatchPoints,
        bye: ByeValue::Win,
    };
    let tiebreaks = team_tiebreaks(Ranking::MatchPoints);
    c.bench_function("team_standings/20_teams_38_rounds", |b| {
        b.iter(|| standings::compute(&entrants, &scoring, &tiebreaks))
    });
}

fn team_swiss(c: &mut Criterion) {
    let n = 200u32;
    let mut teams: Vec<Team> = (1..=n)
        .map(|id| Team {
            id,
            name: format!("Team {id}"),
            seed: Some(n as i32 - id as i32),
            history: Vec::new(),
            withdrawn: false,
        })
        .collect();
    let mut scores = Scores(7);
    for round in 1..=8 {
        let input = TeamSwissInput {
            round,
            total_rounds: 9,
            teams: teams.clone(),
            scoring: TeamScoring::MatchPoints,
            forbidden: Vec::new(),
            waivers: Vec::new(),
        };
        let out = teams::pair_swiss(&input).unwrap();
        for p in &out.pairs {
            let a = scores.next();
            let b = 8 * POINT - a;
            let (fi, si) = (p.first as usize - 1, p.second as usize - 1);
            teams[fi].history.push(TeamMatch {
                opponent: Some(p.second),
                game_points: a,
                game_points_against: b,
            });
            teams[si].history.push(TeamMatch {
                opponent: Some(p.first),
                game_points: b,
                game_points_against: a,
            });
        }
    }
    let input = TeamSwissInput {
        round: 9,
        total_rounds: 9,
        teams,
        scoring: TeamScoring::MatchPoints,
        forbidden: Vec::new(),
        waivers: Vec::new(),
    };
    let mut g = c.benchmark_group("team_swiss");
    g.sample_size(20);
    g.bench_function("200_teams_round_9", |b| {
        b.iter(|| teams::pair_swiss(&input).unwrap())
    });
    g.finish();
}

criterion_group!(benches, team_standings, team_swiss);
criterion_main!(benches);

//! The Swiss engine against a plain reading of the Dutch system
//! (`reference`), on random small tournaments. The tournaments are written
//! the way `kraal pair FILE` reads them (Kraal JSON), parsed with the
//! engine's own reader, and paired by both; a divergence prints the file.

#![allow(clippy::unwrap_used)]

mod reference;

use reference::cases;

use kraal::pairing::format::parse_kraal_json;
use kraal::pairing::swiss::{pair_round, SwissInput};
use serde_json::json;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// How one pairing of a past round ended.
#[derive(Clone, Debug)]
enum Result {
    /// The first player's two game results, in half points.
    Games([u8; 2]),
    /// Not played: this side did not come (`true` = the first player).
    Forfeit(bool),
}

/// One past round: pairs, the allocated bye, requested byes (`true` =
/// half a point).
type Round = (Vec<(u32, u32, Result)>, Option<u32>, Vec<(u32, bool)>);

#[derive(Clone, Debug, Default)]
struct Played {
    players: u32,
    rounds: Vec<Round>,
    /// Referee-forbidden pairs (all rounds).
    forbidden: Vec<(u32, u32)>,
    withdrawn: Vec<u32>,
    /// Requested byes for the round being paired.
    absent: Vec<(u32, bool)>,
}

impl Played {
    /// The Kraal JSON file of this tournament; player k is rated so that
    /// its pairing number is k. Total rounds are high enough that the
    /// `official` last-third rule never applies (and no clubs are given).
    fn json(&self) -> String {
        let players: Vec<_> = (1..=self.players)
            .map(|k| json!({"id": k, "name": format!("P{k:02}"), "rating": 2000 - 10 * k}))
            .collect();
        let kind = |half: bool| if half { "half" } else { "zero" };
        let rounds: Vec<_> = self
            .rounds
            .iter()
            .map(|(pairs, bye, requested)| {
                let pairings: Vec<_> = pairs
                    .iter()
                    .map(|(a, b, r)| match r {
                        Result::Games(g) => json!({"first": a, "second": b,
                               "games": [g[0] as f64 / 2.0, g[1] as f64 / 2.0]}),
                        Result::Forfeit(first) => json!({"first": a, "second": b,
                               "forfeit": if *first { "first" } else { "second" }}),
                    })
                    .collect();
                let mut byes: Vec<_> = bye
                    .iter()
                    .map(|b| json!({"player": b, "kind": "allocated"}))
                    .collect();
                byes.extend(
                    requested
                        .iter()
                        .map(|&(p, half)| json!({"player": p, "kind": kind(half)})),
                );
                json!({"pairings": pairings, "byes": byes})
            })
            .collect();
        let forbidden: Vec<_> = self
            .forbidden
            .iter()
            .map(|(a, b)| json!({"a": a, "b": b}))
            .collect();
        let absent: Vec<_> = self
            .absent
            .iter()
            .map(|&(p, half)| json!({"player": p, "kind": kind(half)}))
            .collect();
        serde_json::to_string_pretty(&json!({
            "rules": "official",
            "total_rounds": 20,
            "games_per_pairing": 2,
            "players": players,
            "rounds": rounds,
            "forbidden": forbidden,
            "withdrawn": self.withdrawn,
            "absent": absent,
        }))
        .unwrap()
    }

    fn input(&self) -> SwissInput {
        parse_kraal_json(&self.json()).expect("a well-formed tournament")
    }
}

fn engine(input: &SwissInput) -> Option<reference::Outcome> {
    let r = pair_round(input).ok()?;
    let mut pairs: Vec<(u32, u32)> = r
        .pairs
        .iter()
        .map(|p| (p.first.min(p.second), p.first.max(p.second)))
        .collect();
    pairs.sort_unstable();
    Some((pairs, r.bye.map(|b| b.player)))
}

fn handbook(input: &SwissInput) -> Option<reference::Outcome> {
    reference::Reference::of(input).pair()
}

/// Which criteria, left out of the reference, make it agree with the
/// engine: a first classification of a divergence.
fn explained_by(input: &SwissInput, engine: &Option<reference::Outcome>) -> Vec<&'static str> {
    let mut out = Vec::new();
    for (name, c8, c18) in [
        ("C8", false, true),
        ("C18-C21", true, false),
        ("C8 and C18-C21", false, false),
    ] {
        let mut r = reference::Reference::of(input);
        r.c8 = c8;
        r.c18_c21 = c18;
        if r.pair() == *engine {
            out.push(name);
        }
    }
    out
}

/// Plays a round paired as `outcome`: random 2-game results, one pairing
/// in ten forfeited.
fn play(t: &mut Played, outcome: &reference::Outcome, rng: &mut Rng) {
    let pairs = outcome
        .0
        .iter()
        .map(|&(a, b)| {
            let g = |rng: &mut Rng| [0u8, 1, 2, 2, 0][rng.below(5) as usize];
            let r = if rng.below(10) == 0 {
                Result::Forfeit(rng.below(2) == 0)
            } else {
                Result::Games([g(rng), g(rng)])
            };
            (a, b, r)
        })
        .collect();
    let requested = std::mem::take(&mut t.absent);
    t.rounds.push((pairs, outcome.1, requested));
}

/// Before a round: some players ask for a bye (half or zero), and after
/// round 1 one may withdraw.
fn absences(t: &mut Played, rng: &mut Rng) {
    for p in 1..=t.players {
        if t.withdrawn.contains(&p) {
            continue;
        }
        if !t.rounds.is_empty() && rng.below(40) == 0 {
            t.withdrawn.push(p);
        } else if rng.below(14) == 0 {
            t.absent.push((p, rng.below(2) == 0));
        }
    }
}

#[derive(Debug)]
struct Divergence {
    seed: u64,
    round: usize,
    json: String,
    engine: Option<reference::Outcome>,
    handbook: Option<reference::Outcome>,
}

/// The smallest field of the random tournaments: 6, or
/// KRAAL_REFERENCE_PLAYERS for a longer run.
fn smallest_field() -> u32 {
    std::env::var("KRAAL_REFERENCE_PLAYERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6)
}

/// Random tournaments of 6-14 players (see [`smallest_field`]), each round
/// paired by both; the tournament goes on with the reference's pairing.
/// Returns the rounds compared and the divergences.
fn compare(seeds: std::ops::Range<u64>, rounds: usize) -> (usize, Vec<Divergence>) {
    let mut compared = 0;
    let mut out = Vec::new();
    for seed in seeds {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let mut t = Played {
            players: smallest_field() + rng.below(9) as u32,
            ..Played::default()
        };
        for _ in 0..rng.below(3) {
            let (a, b) = (
                1 + rng.below(t.players as u64),
                1 + rng.below(t.players as u64),
            );
            if a != b {
                t.forbidden.push((a as u32, b as u32));
            }
        }
        for round in 1..=rounds {
            absences(&mut t, &mut rng);
            let input = t.input();
            let (e, h) = (engine(&input), handbook(&input));
            compared += 1;
            if e != h {
                out.push(Divergence {
                    seed,
                    round,
                    json: t.json(),
                    engine: e,
                    handbook: h.clone(),
                });
            }
            match h {
                Some(o) => play(&mut t, &o, &mut rng),
                None => break,
            }
        }
    }
    (compared, out)
}

fn report(compared: usize, divergences: &[Divergence]) {
    for d in divergences {
        let input = parse_kraal_json(&d.json).unwrap();
        eprintln!(
            "seed {} round {}: engine {:?}, handbook {:?}, engine agrees without {:?}\n{}\n",
            d.seed,
            d.round,
            d.engine,
            d.handbook,
            explained_by(&input, &d.engine),
            d.json
        );
        for p in reference::players(&input) {
            eprintln!(
                "  {:>2} score {:>3} bye_ok {} unplayed {} f1 {:?} f2 {:?} opp {:?}",
                p.id, p.score, p.bye_ok, p.unplayed, p.float1, p.float2, p.opponents
            );
        }
    }
    eprintln!(
        "{} rounds compared, {} agreed, {} diverged",
        compared,
        compared - divergences.len(),
        divergences.len()
    );
}

#[test]
fn the_reference_pairs_round_one_top_half_against_bottom_half() {
    let t = Played {
        players: 7,
        ..Played::default()
    };
    let (pairs, bye) = handbook(&t.input()).unwrap();
    assert_eq!(pairs, vec![(1, 4), (2, 5), (3, 6)]);
    assert_eq!(bye, Some(7));
}

/// Seeds for the comparison run by every `cargo test`.
const QUICK_SEEDS: u64 = 2000;
/// Rounds per tournament in the comparisons.
const ROUNDS: usize = 5;

// The engine against a literal reading of the handbook on random small
// tournaments (6-14 players, five rounds, forfeits, requested byes,
// withdrawals and forbidden pairs), every round compared.
#[test]
fn engine_agrees_with_the_reference_round_by_round() {
    let (compared, divergences) = compare(0..QUICK_SEEDS, ROUNDS);
    report(compared, &divergences);
    assert!(compared > 9000, "{compared}");
    assert!(divergences.is_empty());
}

// The same over more seeds. Run with `--ignored --nocapture`;
// KRAAL_REFERENCE_CASES and KRAAL_REFERENCE_FROM choose the seeds,
// KRAAL_REFERENCE_PLAYERS the smallest field (6; fields take up to eight
// more) and KRAAL_REFERENCE_ROUNDS the rounds (5).
#[test]
#[ignore = "several minutes in a debug build: run it with --ignored after changing the Swiss engine"]
fn engine_agrees_with_the_reference_on_many_random_tournaments() {
    let n: u64 = std::env::var("KRAAL_REFERENCE_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let from: u64 = std::env::var("KRAAL_REFERENCE_FROM")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(QUICK_SEEDS);
    let rounds = std::env::var("KRAAL_REFERENCE_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(ROUNDS);
    let (compared, divergences) = compare(from..from + n, rounds);
    report(compared, &divergences);
    assert!(divergences.is_empty());
}

/// The handbook's pairing of each case in `reference::cases`, and the
/// engine's pairing of it today.
type Expected = (&'static str, &'static [(u32, u32)], Option<u32>);

const S1_S2_ORDER: Expected = (cases::S1_S2_ORDER, &[(1, 2), (3, 8), (4, 6), (5, 7)], None);
const EXCHANGE_ORDER: Expected = (
    cases::EXCHANGE_ORDER,
    &[(1, 6), (2, 4), (3, 12), (5, 7), (8, 9), (10, 11)],
    None,
);
const BYE_ORDER: Expected = (cases::BYE_ORDER, &[(1, 9), (3, 5), (4, 6), (7, 8)], Some(2));
const NEXT_BRACKET: Expected = (cases::NEXT_BRACKET, &[(1, 7), (3, 5), (4, 6)], Some(2));
const ZERO_POINT_FORFEIT: Expected = (
    cases::ZERO_POINT_FORFEIT,
    &[(1, 4), (2, 9), (3, 8), (5, 7)],
    Some(6),
);

const REPEATED_UPFLOAT: Expected = (cases::REPEATED_UPFLOAT, &[(1, 5), (2, 4), (6, 7)], Some(3));

fn check(pairer: fn(&SwissInput) -> Option<reference::Outcome>, case: Expected) {
    let input = parse_kraal_json(case.0).expect("a well-formed case");
    assert_eq!(pairer(&input), Some((case.1.to_vec(), case.2)));
}

#[test]
fn the_reference_follows_the_transposition_order() {
    check(handbook, S1_S2_ORDER);
}

#[test]
fn the_reference_follows_the_exchange_order() {
    check(handbook, EXCHANGE_ORDER);
}

#[test]
fn the_reference_gives_the_bye_by_the_transposition_order() {
    check(handbook, BYE_ORDER);
}

#[test]
fn the_reference_chooses_downfloaters_for_the_next_bracket() {
    check(handbook, NEXT_BRACKET);
}

#[test]
fn the_reference_gives_no_float_for_a_forfeit_loss() {
    check(handbook, ZERO_POINT_FORFEIT);
}

#[test]
fn engine_follows_the_transposition_order() {
    check(engine, S1_S2_ORDER);
}

#[test]
fn engine_follows_the_exchange_order() {
    check(engine, EXCHANGE_ORDER);
}

#[test]
fn engine_gives_the_bye_by_the_transposition_order() {
    check(engine, BYE_ORDER);
}

#[test]
fn engine_chooses_downfloaters_for_the_next_bracket() {
    check(engine, NEXT_BRACKET);
}

#[test]
fn engine_gives_no_float_for_a_forfeit_loss() {
    check(engine, ZERO_POINT_FORFEIT);
}

#[test]
fn the_reference_minimises_repeated_upfloat_differences() {
    check(handbook, REPEATED_UPFLOAT);
}

#[test]
fn engine_minimises_repeated_upfloat_differences() {
    check(engine, REPEATED_UPFLOAT);
}

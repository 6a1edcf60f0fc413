//! The Swiss engine against a plain reading of the Dutch system
//! (`reference`), on random small tournaments. The tournaments are written
//! the way `kraal pair FILE` reads them (Kraal JSON), parsed with the
//! engine's own reader, and paired by both; a divergence prints the file.

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

/// A tournament as played so far: per round the pairs with the first
/// player's two game results (in half points) and the allocated bye.
/// One round: pairs with the first player's two game results (in half
/// points), and the allocated bye.
type Round = (Vec<(u32, u32, [u8; 2])>, Option<u32>);

#[derive(Clone, Debug)]
struct Played {
    players: u32,
    rounds: Vec<Round>,
}

impl Played {
    /// The Kraal JSON file of this tournament; player k is rated so that
    /// its pairing number is k. Total rounds are high enough that the
    /// `official` last-third rule never applies (and no clubs are given).
    fn json(&self) -> String {
        let players: Vec<_> = (1..=self.players)
            .map(|k| json!({"id": k, "name": format!("P{k:02}"), "rating": 2000 - 10 * k}))
            .collect();
        let rounds: Vec<_> = self
            .rounds
            .iter()
            .map(|(pairs, bye)| {
                let pairings: Vec<_> = pairs
                    .iter()
                    .map(|(a, b, g)| {
                        json!({"first": a, "second": b,
                               "games": [g[0] as f64 / 2.0, g[1] as f64 / 2.0]})
                    })
                    .collect();
                let byes: Vec<_> = bye
                    .iter()
                    .map(|b| json!({"player": b, "kind": "allocated"}))
                    .collect();
                json!({"pairings": pairings, "byes": byes})
            })
            .collect();
        serde_json::to_string_pretty(&json!({
            "rules": "official",
            "total_rounds": 20,
            "games_per_pairing": 2,
            "players": players,
            "rounds": rounds,
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
    reference::Reference::new(reference::players(input)).pair()
}

/// Which criteria, left out of the reference, make it agree with the
/// engine: a first classification of a divergence.
fn explained_by(input: &SwissInput, engine: &Option<reference::Outcome>) -> Vec<&'static str> {
    let mut out = Vec::new();
    for (name, c7, c16) in [
        ("C7", false, true),
        ("C16-C19", true, false),
        ("C7 and C16-C19", false, false),
    ] {
        let mut r = reference::Reference::new(reference::players(input));
        r.c7 = c7;
        r.c16_c19 = c16;
        if r.pair() == *engine {
            out.push(name);
        }
    }
    out
}

/// Plays a round paired as `outcome` with random 2-game results.
fn play(t: &mut Played, outcome: &reference::Outcome, rng: &mut Rng) {
    let pairs = outcome
        .0
        .iter()
        .map(|&(a, b)| {
            let g = |rng: &mut Rng| [0u8, 1, 2, 2, 0][rng.below(5) as usize];
            (a, b, [g(rng), g(rng)])
        })
        .collect();
    t.rounds.push((pairs, outcome.1));
}

/// A random tournament of 6-12 players with `played` rounds paired by the
/// reference.
fn tournament(rng: &mut Rng, played: usize) -> Option<Played> {
    let mut t = Played {
        players: 6 + rng.below(7) as u32,
        rounds: vec![],
    };
    for _ in 0..played {
        let o = handbook(&t.input())?;
        play(&mut t, &o, rng);
    }
    Some(t)
}

#[derive(Debug)]
struct Divergence {
    seed: u64,
    json: String,
    engine: Option<reference::Outcome>,
    handbook: Option<reference::Outcome>,
}

fn compare(seeds: std::ops::Range<u64>) -> (usize, Vec<Divergence>) {
    let mut agreed = 0;
    let mut out = Vec::new();
    for seed in seeds {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let played = 1 + rng.below(5) as usize;
        let Some(t) = tournament(&mut rng, played) else {
            continue;
        };
        let input = t.input();
        let (e, h) = (engine(&input), handbook(&input));
        if e == h {
            agreed += 1;
        } else {
            out.push(Divergence {
                seed,
                json: t.json(),
                engine: e,
                handbook: h,
            });
        }
    }
    (agreed, out)
}

#[test]
fn the_reference_pairs_round_one_top_half_against_bottom_half() {
    let t = Played {
        players: 7,
        rounds: vec![],
    };
    let (pairs, bye) = handbook(&t.input()).unwrap();
    assert_eq!(pairs, vec![(1, 4), (2, 5), (3, 6)]);
    assert_eq!(bye, Some(7));
}

// The engine against a literal reading of the handbook on random small
// tournaments. Seeds 0-79 agree in every case whose history completes (78
// of 80); the `engine_*` cases above are the divergences this comparison
// once found, each now fixed. Run with `--ignored --nocapture`;
// KRAAL_REFERENCE_CASES and KRAAL_REFERENCE_FROM choose the seeds.
#[test]
#[ignore = "about 6 minutes in a debug build: run it with --ignored after changing the Swiss engine"]
fn engine_agrees_with_the_reference_on_random_small_tournaments() {
    let n: u64 = std::env::var("KRAAL_REFERENCE_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let from: u64 = std::env::var("KRAAL_REFERENCE_FROM")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let (agreed, divergences) = compare(from..from + n);
    for d in &divergences {
        println!(
            "seed {}: engine {:?}, handbook {:?}, engine agrees without {:?}\n{}\n",
            d.seed,
            d.engine,
            d.handbook,
            explained_by(&parse_kraal_json(&d.json).unwrap(), &d.engine),
            d.json
        );
        for p in reference::players(&parse_kraal_json(&d.json).unwrap()) {
            println!(
                "  {:>2} score {:>3} bye_ok {} f1 {:?} f2 {:?} opp {:?}",
                p.id, p.score, p.bye_ok, p.float1, p.float2, p.opponents
            );
        }
    }
    println!("{agreed} agreed, {} diverged", divergences.len());
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
const NEXT_BRACKET: Expected = (cases::NEXT_BRACKET, &[(1, 2), (3, 7), (5, 6)], Some(4));
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

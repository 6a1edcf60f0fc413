//! The Swiss engine against a plain reading of the Dutch system
//! (`reference`), on random small tournaments. The tournaments are written
//! the way `kraal pair FILE` reads them (Kraal JSON), parsed with the
//! engine's own reader, and paired by both; a divergence prints the file.

mod reference;

use kraal::pairing::format::parse_kraal_json;
use kraal::pairing::swiss::{pair_round, SwissInput};

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
#[derive(Clone, Debug)]
struct Played {
    players: u32,
    rounds: Vec<(Vec<(u32, u32, [u8; 2])>, Option<u32>)>,
}

impl Played {
    /// The Kraal JSON file of this tournament; player k is rated so that
    /// its pairing number is k. Total rounds are high enough that the
    /// `official` last-third rule never applies (and no clubs are given).
    fn json(&self) -> String {
        let players: Vec<String> = (1..=self.players)
            .map(|k| {
                format!(
                    "{{\"id\": {k}, \"name\": \"P{k:02}\", \"rating\": {}}}",
                    2000 - 10 * k
                )
            })
            .collect();
        let rounds: Vec<String> = self
            .rounds
            .iter()
            .map(|(pairs, bye)| {
                let ps: Vec<String> = pairs
                    .iter()
                    .map(|(a, b, g)| {
                        format!(
                            "{{\"first\": {a}, \"second\": {b}, \"games\": [{}, {}]}}",
                            g[0] as f64 / 2.0,
                            g[1] as f64 / 2.0
                        )
                    })
                    .collect();
                let byes = bye.map_or(String::new(), |b| {
                    format!("{{\"player\": {b}, \"kind\": \"allocated\"}}")
                });
                format!(
                    "{{\"pairings\": [{}], \"byes\": [{byes}]}}",
                    ps.join(", ")
                )
            })
            .collect();
        format!(
            "{{\"rule_set\": \"official\", \"total_rounds\": 20, \"games_per_pairing\": 2, \
             \"players\": [{}], \"rounds\": [{}]}}",
            players.join(", "),
            rounds.join(", ")
        )
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

#[test]
#[ignore = "the engine diverges from the handbook; see the printed cases"]
fn engine_agrees_with_the_reference_on_random_small_tournaments() {
    let n: u64 = std::env::var("KRAAL_REFERENCE_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let (agreed, divergences) = compare(0..n);
    for d in &divergences {
        println!(
            "seed {}: engine {:?}, handbook {:?}\n{}\n",
            d.seed, d.engine, d.handbook, d.json
        );
    }
    println!("{agreed} agreed, {} diverged", divergences.len());
    assert!(divergences.is_empty());
}

//! Synthetic Swiss tournaments, for property tests and benchmarks: a field
//! with ratings and clubs plays rounds paired by the engine, with results
//! drawn from a seeded generator, withdrawals, late entries, requested byes
//! and referee-forbidden pairs. Same seed, same tournament.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::swiss::{self, EntryKind, RoundEntry, Status, SwissInput, SwissPlayer};
use super::{ForbiddenPair, PairingError, RuleSet, POINT};

/// How a synthetic tournament is shaped.
#[derive(Debug, Clone)]
pub struct SimConfig {
    pub players: usize,
    /// Rounds already played when the returned input is built.
    pub played_rounds: u32,
    pub total_rounds: u32,
    pub rules: RuleSet,
    /// Games per pairing (2 or 6).
    pub games: u32,
    /// Per round, chance that an active player withdraws.
    pub withdraw_chance: f64,
    /// Per round, chance that a player asks for a bye.
    pub requested_bye_chance: f64,
    /// Players entering after round 1.
    pub late_entries: usize,
    /// Per round, chance that a pairing is forfeited (one side does not
    /// come): no game is played, the other side scores a won mini-match.
    pub forfeit_chance: f64,
    /// Referee-forbidden pairs.
    pub forbidden_pairs: usize,
    /// Number of clubs (0 = no clubs).
    pub clubs: usize,
    /// Clubs of equal size (player k in club k mod `clubs`) instead of
    /// drawn at random.
    pub even_clubs: bool,
    /// Players carry no rating (pairing numbers then follow the names).
    pub unrated: bool,
    pub seed: u64,
}

impl SimConfig {
    /// A plain field: `players` players, `played` rounds of history.
    pub fn plain(players: usize, played: u32, seed: u64) -> Self {
        SimConfig {
            players,
            played_rounds: played,
            total_rounds: played + 1,
            rules: RuleSet::Official,
            games: 2,
            withdraw_chance: 0.0,
            requested_bye_chance: 0.0,
            late_entries: 0,
            forfeit_chance: 0.0,
            forbidden_pairs: 0,
            clubs: 0,
            even_clubs: false,
            unrated: false,
            seed,
        }
    }

    /// A large open after `played` rounds, as the pairing benches and
    /// `examples/swiss_round.rs` time it: 1% withdrawals and requested byes
    /// a round, 1% late entries, a kept-apart pair per 20 players and a
    /// club per 10.
    pub fn large_open(players: usize, played: u32) -> Self {
        SimConfig {
            total_rounds: played + 1,
            withdraw_chance: 0.01,
            requested_bye_chance: 0.01,
            late_entries: players / 100,
            forbidden_pairs: players / 20,
            clubs: players / 10,
            ..SimConfig::plain(players, played, 2026)
        }
    }

    /// A `gar` Swiss of 2,000 unrated players in 40 clubs of 50 before
    /// round `round`: the field where keeping club-mates apart is hardest.
    pub fn gar_clubs(round: u32) -> Self {
        SimConfig {
            rules: RuleSet::Gar,
            total_rounds: 7,
            clubs: 40,
            even_clubs: true,
            unrated: true,
            ..SimConfig::plain(2_000, round - 1, 2026)
        }
    }

    /// A `gar` Swiss of `players` unrated players in `clubs` clubs drawn
    /// at random before round `round` (1-3): with few clubs, some
    /// club-mates must meet, and the fewest is what the engine must find.
    pub fn gar_crowded(players: usize, clubs: usize, round: u32) -> Self {
        SimConfig {
            rules: RuleSet::Gar,
            total_rounds: 7,
            clubs,
            unrated: true,
            ..SimConfig::plain(players, round - 1, 2026)
        }
    }
}

/// Plays `played_rounds` rounds and returns the input for the next one.
pub fn tournament(cfg: &SimConfig) -> Result<SwissInput, PairingError> {
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let players = field(cfg, &mut rng);
    let forbidden = forbidden_pairs(cfg, &mut rng);
    let mut input = SwissInput {
        round: 1,
        total_rounds: cfg.total_rounds,
        rules: cfg.rules,
        players,
        forbidden,
        waivers: Vec::new(),
    };
    let mut withdrawn = vec![false; cfg.players];
    for round in 1..=cfg.played_rounds {
        input.round = round;
        who_plays(cfg, &mut rng, &mut input, &mut withdrawn);
        let result = swiss::pair_round(&input)?;
        play(cfg, &mut rng, &mut input, &result);
    }
    input.round = cfg.played_rounds + 1;
    let next = input.round;
    for (i, p) in input.players.iter_mut().enumerate() {
        p.status = if withdrawn[i] || next < p.entered_round {
            Status::Withdrawn
        } else {
            Status::Active
        };
    }
    Ok(input)
}

/// The players, with their ratings, clubs and the round they enter (the
/// last `late_entries` after round 1).
fn field(cfg: &SimConfig, rng: &mut StdRng) -> Vec<SwissPlayer> {
    let late_round = |i: usize| -> u32 {
        if i >= cfg.players.saturating_sub(cfg.late_entries) && cfg.played_rounds >= 1 {
            2 + (i as u32 % cfg.played_rounds.max(1))
        } else {
            1
        }
    };
    (0..cfg.players)
        .map(|i| SwissPlayer {
            id: i as u32 + 1,
            name: format!("Player {:05}", i + 1),
            // The draws are only made for what is asked, so other fields
            // keep their history seed for seed.
            rating: (!cfg.unrated).then(|| 1000 + rng.random_range(0..1500)),
            club: (cfg.clubs > 0).then(|| {
                let club = if cfg.even_clubs {
                    i % cfg.clubs
                } else {
                    rng.random_range(0..cfg.clubs)
                };
                format!("Club {club}")
            }),
            team: None,
            relatives: Vec::new(),
            entered_round: late_round(i),
            history: Vec::new(),
            status: Status::Active,
        })
        .collect()
}

/// The pairs a referee keeps apart, half of them for rounds 2 to 4 only.
fn forbidden_pairs(cfg: &SimConfig, rng: &mut StdRng) -> Vec<ForbiddenPair> {
    let mut forbidden = Vec::new();
    while forbidden.len() < cfg.forbidden_pairs && cfg.players >= 2 {
        let a = rng.random_range(1..=cfg.players as u32);
        let b = rng.random_range(1..=cfg.players as u32);
        if a != b {
            let ranged = rng.random_bool(0.5);
            forbidden.push(ForbiddenPair {
                a,
                b,
                from_round: ranged.then_some(2),
                to_round: ranged.then_some(cfg.total_rounds.min(4)),
            });
        }
    }
    forbidden
}

/// Who plays the round `input.round`: a player not yet entered or gone
/// sits out, and the others may withdraw (from round 2) or ask for a bye.
fn who_plays(cfg: &SimConfig, rng: &mut StdRng, input: &mut SwissInput, withdrawn: &mut [bool]) {
    let round = input.round;
    for (i, p) in input.players.iter_mut().enumerate() {
        p.status = if withdrawn[i] || round < p.entered_round {
            Status::Withdrawn
        } else if round > 1 && rng.random_bool(cfg.withdraw_chance) {
            withdrawn[i] = true;
            Status::Withdrawn
        } else if rng.random_bool(cfg.requested_bye_chance) {
            Status::RequestedBye
        } else {
            Status::Active
        };
    }
}

/// Plays the round `result` pairs into the players' histories: each
/// pairing's games, the allocated bye a won pairing, a requested bye half
/// of one, and nothing for a player absent.
fn play(cfg: &SimConfig, rng: &mut StdRng, input: &mut SwissInput, result: &swiss::RoundPairing) {
    let won = cfg.games as i64 * POINT;
    let index: std::collections::HashMap<u32, usize> = input
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id, i))
        .collect();
    let mut entries: Vec<Option<RoundEntry>> = vec![None; input.players.len()];
    for pair in &result.pairs {
        let (a, b) = (index[&pair.first], index[&pair.second]);
        let (ea, eb) = pairing_entries(cfg, rng, &input.players[a], &input.players[b]);
        entries[a] = Some(ea);
        entries[b] = Some(eb);
    }
    if let Some(bye) = &result.bye {
        entries[index[&bye.player]] = Some(RoundEntry {
            kind: EntryKind::AllocatedBye,
            opponent: None,
            points: won,
        });
    }
    for (i, p) in input.players.iter_mut().enumerate() {
        let e = entries[i].take().unwrap_or(RoundEntry {
            kind: if p.status == Status::RequestedBye {
                EntryKind::RequestedBye
            } else {
                EntryKind::Absent
            },
            opponent: None,
            points: if p.status == Status::RequestedBye {
                won / 2
            } else {
                0
            },
        });
        p.history.push(e);
    }
}

/// The entries of `first` and `second` for a pairing: forfeited by one of
/// them at `forfeit_chance`, or its games drawn by the ratings (the
/// stronger wins as Elo expects, a fifth of the games drawn).
fn pairing_entries(
    cfg: &SimConfig,
    rng: &mut StdRng,
    first: &SwissPlayer,
    second: &SwissPlayer,
) -> (RoundEntry, RoundEntry) {
    let won = cfg.games as i64 * POINT;
    let ra = first.rating.unwrap_or(1000) as f64;
    let rb = second.rating.unwrap_or(1000) as f64;
    let expect = 1.0 / (1.0 + 10f64.powf((rb - ra) / 400.0));
    // The draw is only made when forfeits are asked for, so fields
    // without them keep their results seed for seed.
    if cfg.forfeit_chance > 0.0 && rng.random_bool(cfg.forfeit_chance) {
        let win = |absent: &SwissPlayer| RoundEntry {
            kind: EntryKind::ForfeitWin,
            opponent: Some(absent.id),
            points: won,
        };
        let loss = |came: &SwissPlayer| RoundEntry {
            kind: EntryKind::ForfeitLoss,
            opponent: Some(came.id),
            points: 0,
        };
        return if rng.random_bool(0.5) {
            (win(second), loss(first))
        } else {
            (loss(second), win(first))
        };
    }
    let mut pa = 0;
    for _ in 0..cfg.games {
        let x: f64 = rng.random();
        pa += if x < expect * 0.8 {
            POINT
        } else if x < expect * 0.8 + 0.2 {
            POINT / 2
        } else {
            0
        };
    }
    (
        RoundEntry {
            kind: EntryKind::Played,
            opponent: Some(second.id),
            points: pa,
        },
        RoundEntry {
            kind: EntryKind::Played,
            opponent: Some(first.id),
            points: won - pa,
        },
    )
}

/// How many pairs of a round are club-mates (the `gar` benchmark's count).
pub fn club_mate_pairs(input: &SwissInput, round: &swiss::RoundPairing) -> usize {
    let club: std::collections::HashMap<_, _> =
        input.players.iter().map(|p| (p.id, &p.club)).collect();
    round
        .pairs
        .iter()
        .filter(|p| club[&p.first].is_some() && club[&p.first] == club[&p.second])
        .count()
}

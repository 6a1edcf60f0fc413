//! Seeded random fuzzing of every reader of outside input: scoresheets,
//! TRF and Kraal JSON tournament files, the event file of `kraal import
//! event`, the player and team CSV imports, and the values of the API's
//! JSON bodies. Each input is a mutation of a
//! valid seed (bytes flipped, inserted, deleted, repeated, spliced with
//! another seed, or tokens the readers care about dropped in), so most
//! inputs get deep into the reader before they go wrong. A reader may
//! refuse an input with an error; it must never panic.
//!
//! Shared by `tests/fuzz.rs` (a short run in `cargo test`) and
//! `examples/fuzz.rs` (the long runs whose counts docs/performance.md gives).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use kraal::pairing::{format, swiss, RuleSet};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// One reader under test.
pub struct Target {
    pub name: &'static str,
    pub seeds: &'static [&'static str],
    /// Runs one input; whether the reader accepted it.
    pub run: fn(&[u8], u64) -> bool,
}

const SHEETS: &[&str] = &[
    "[Dark \"N. Khumalo\"]\n[Light \"P. Botha\"]\n[Result \"0-1\"]\n\n1. a1 b2 2. d1 b4 3. g1 b6 {dark forgot to shoot}\n4. a1 c3xd1 5. e4 f4 6. d7xa1\n",
    "[Rules \"gar\"]\n1. d2 d6 2. b4 f4 3. d3 d5 4. c4 e4 5. a1 g7 6. c5xd6 e5xd2\n7. b2 f6 8. c3 e3 9. a4 g4 10. b6 f2 11. a7 g1 12. d1 d7\n",
    "1. a1 a4 2. a7 b2 3. b4 b6 4. c3 c4 5. c5 d1 6. d2 d3\n7. d5 d6 8. d7 e3 9. e4 e5 10. f2 f4 11. f6 g1 12. g4 g7\n",
];

const TRF: &[&str] = &[
    "012 Gauteng Open\nXXR 5\n001    1      Thabo Nkosi                       1800                             1.0    1     3 w 1     2 b =\n001    2      Sipho Dlamini                     1750                             1.5    2     4 b 1     1 w =\n001    3      Lerato Mokoena                    1700                             0.0    3     1 b 0     4 w 0\n001    4      Zanele Khumalo                    1650                             1.0    4     2 w 0     3 b 1\nXXP 1 4\n260 3 5 2 3\nBBW 1.0\nBBD 0.5\n",
    // As Kraal writes it, with its own lines.
    "012 Soweto Club Night\n062 5\nXXR 3\nKRS gar\nBBW  2.0\nBBD  1.0\nBBL  0.0\nBBZ  0.0\nBBF  0.0\nBBU  2.0\n001    1      Lerato Mokoena                                                     1.5    2     4 w 1\n001    2      Nomsa Nkosi                                                        1.0    3     3 w 1\n001    3      Sipho Dlamini                                                      0.0    5     2 b 0\n001    4      Thabo Nkosi                                                        0.5    4     1 b 0\n001    5      Zanele Khumalo                                                     2.0    1  0000 - U  0000 - H\nKPT    1 1.5\nKPT    2 1.0\nKPT    4 0.5\nKCL    1 Soweto MC\nKCL    2 Soweto MC\nKRL    2    4\nXXP    3    1\nKWV    2    3 same lift home\n",
];

const KRAAL_JSON: &[&str] = &[
    r#"{"rules": "gar", "total_rounds": 5, "games_per_pairing": 2, "ranking": "game_points", "bye_value": "win",
  "players": [
    {"id": 1, "name": "Thabo Nkosi", "rating": 1800, "club": "Soweto", "team": null, "relatives": [3], "entered_round": 1},
    {"id": 2, "name": "Sipho Dlamini", "rating": 1750, "club": "Tembisa"},
    {"id": 3, "name": "Nomsa Nkosi", "rating": 1700, "club": "Soweto"},
    {"id": 4, "name": "Lerato Mokoena", "rating": 1650},
    {"id": 5, "name": "Zanele Khumalo", "rating": 1600, "entered_round": 2}],
  "rounds": [
    {"pairings": [{"first": 1, "second": 2, "games": [1, 0.5]}, {"first": 3, "second": 4, "forfeit": "second"}],
     "byes": [{"player": 5, "kind": "allocated"}]}],
  "withdrawn": [],
  "absent": [{"player": 4, "kind": "half"}],
  "forbidden": [{"a": 2, "b": 3}, {"a": 1, "b": 5, "from_round": 1, "to_round": 3}],
  "waivers": [{"a": 1, "b": 3, "reason": "only two players left in the group"}]}"#,
];

/// An event file as `kraal export event` writes it (a five-player round
/// with a relation, a kept-apart pair, results, a forfeit and a record).
const EVENT: &[&str] = &[include_str!("event.json")];

const PLAYERS_CSV: &[&str] = &[
    "name,club,rating,seed,federation_id,relatives\nThabo Nkosi,Soweto MC,1800,,RSA123,Nomsa Nkosi\nNomsa Nkosi,Soweto MC,1650,1,,\n\"Dlamini, Sipho\",Tembisa MC,,,,\n",
    "\u{feff}id,name,club,withdrawn_from_round\n3,Lerato Mokoena,'=cmd,2\n",
];

const TEAMS_CSV: &[&str] = &[
    "team,name,club,rating,board,substitute\nSoweto A,Thabo Nkosi,Soweto MC,1700,2,\nSoweto A,Sipho Dlamini,Soweto MC,1800,1,\nSoweto A,Lerato Mokoena,Soweto MC,,3,\nSoweto A,Zanele Khumalo,Soweto MC,,4,\nSoweto A,Bheki Zulu,Soweto MC,,,yes\n",
];

const BODIES: &[&str] = &[
    r#"{"name": "Gauteng Open", "system": "team_league", "rules": "gar", "rounds": "7", "games_per_pairing": "6", "ranking": "match_points", "tiebreaks": "board_1,wins", "bye_value": "draw", "starts_on": "2026-12-05", "ends_on": "2026-12-06", "venue": "Soweto"}"#,
    r#"{"name": "Refilwe Dube", "club": "Mafikeng MC", "rating": "1650", "seed": "3", "federation_id": "RSA-1", "result": "1/2-1/2", "score": "1½-½"}"#,
    r#"{"name": "Gauteng Open", "system": "swiss", "rules": "official", "rounds": 7, "games_per_pairing": 6, "tiebreaks": ["buchholz", "wins"], "records_public": true}"#,
    r#"{"name": "Refilwe Dube", "club": "Mafikeng MC", "rating": 1650, "seed": 3, "federation_id": "RSA-1"}"#,
    r#"{"a": 12, "b": 40, "from_round": 2, "to_round": 5}"#,
    r#"{"reason": "only two players left in the group"}"#,
    r#"{"name": "Soweto A", "club": "Soweto MC", "members": [1, 2, 3, 4], "substitutes": [5]}"#,
    r#"{"boards": [5, 2, 3, 4]}"#,
    r#"{"result": "1/2-1/2", "version": 3}"#,
    r#"{"text": "1. a1 d1 2. g1xd1", "side": "light"}"#,
];

/// Tokens that mean something to one reader or another.
const TOKENS: &[&str] = &[
    "x",
    "1-0",
    "0-1",
    "½",
    "=",
    ",",
    ";",
    "\n",
    "\r\n",
    "\"",
    "{",
    "}",
    "[",
    "]",
    ":",
    "-",
    "+",
    "001",
    "XXR",
    "260",
    "BBW",
    "999999999999999999999",
    "-1",
    "0",
    "a1",
    "g7",
    "d4xd5",
    "\u{0}",
    "\u{feff}",
    "é",
    "'",
    "\t",
    "null",
    "true",
    "1.5",
    "1e400",
    "KRS ",
    "KCL ",
    "KRL ",
    "KWV ",
    "KPT ",
    "\"format\":\"kraal event\"",
    "\"id\":",
    "-1",
];

/// A mutation of `seed` (or of two seeds spliced).
pub fn mutate(rng: &mut StdRng, seeds: &[&str]) -> Vec<u8> {
    let mut data = seeds[rng.random_range(0..seeds.len())].as_bytes().to_vec();
    for _ in 0..rng.random_range(1..=4) {
        let len = data.len();
        match rng.random_range(0..7) {
            0 if len > 0 => {
                let i = rng.random_range(0..len);
                data[i] ^= 1 << rng.random_range(0..8);
            }
            1 => {
                let i = rng.random_range(0..=len);
                data.insert(i, rng.random());
            }
            2 if len > 0 => {
                let a = rng.random_range(0..len);
                let b = (a + rng.random_range(1..=16)).min(len);
                data.drain(a..b);
            }
            3 if len > 0 => {
                let a = rng.random_range(0..len);
                let b = (a + rng.random_range(1..=32)).min(len);
                let piece = data[a..b].to_vec();
                let at = rng.random_range(0..=data.len());
                data.splice(at..at, piece);
            }
            4 => {
                let other = seeds[rng.random_range(0..seeds.len())].as_bytes();
                let cut = rng.random_range(0..=data.len());
                let from = rng.random_range(0..=other.len());
                data.truncate(cut);
                data.extend_from_slice(&other[from..]);
            }
            _ => {
                let t = TOKENS[rng.random_range(0..TOKENS.len())].as_bytes();
                let at = rng.random_range(0..=len);
                data.splice(at..at, t.iter().copied());
            }
        }
    }
    data
}

fn text(input: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(input)
}

fn sheet(input: &[u8], _: u64) -> bool {
    let t = text(input);
    let mut accepted = false;
    for rules in [Some(RuleSet::Official), Some(RuleSet::Gar), None] {
        accepted |= kraal::rules::check::check_scoresheet(&t, rules).is_ok();
    }
    accepted
}

fn trf(input: &[u8], n: u64) -> bool {
    let t = text(input);
    let mut accepted = false;
    for rules in [RuleSet::Official, RuleSet::Gar] {
        if let Ok(round) = format::parse_trf(&t, rules) {
            accepted = true;
            // Pairing what was read, for one input in 32: the engine must
            // take whatever the reader lets through.
            if n % 32 == 0 && round.players.len() <= 16 {
                let _ = swiss::pair_round(&round);
            }
        }
    }
    accepted
}

fn kraal_json(input: &[u8], n: u64) -> bool {
    match format::parse_kraal_json(&text(input)) {
        Ok(round) => {
            if n % 32 == 0 && round.players.len() <= 16 {
                let _ = swiss::pair_round(&round);
            }
            true
        }
        Err(_) => false,
    }
}

fn event_file(input: &[u8], _: u64) -> bool {
    kraal::db::event::parse(&text(input)).is_ok()
}

fn players_csv(input: &[u8], _: u64) -> bool {
    match kraal::export::players::read(&text(input)) {
        Ok(plan) => {
            let names: Vec<&str> = plan.players.iter().map(|p| p.name.as_str()).collect();
            let _ = kraal::export::players::already_entered(&plan, &names);
            true
        }
        Err(_) => false,
    }
}

fn teams_csv(input: &[u8], _: u64) -> bool {
    kraal::export::teams::read(&text(input)).is_ok()
}

/// Every JSON body of the API, read as its route reads it (unknown fields
/// refused), then through the same checks the routes use: a tournament's
/// and a player's fields, results and pairing scores; the other bodies
/// (relations, kept-apart pairs, waivers, teams, line-ups, records) are
/// plain values the database layer checks.
fn bodies(input: &[u8], _: u64) -> bool {
    use kraal::web::api;
    let mut accepted = false;
    if let Ok(b) = serde_json::from_slice::<api::NewTournament>(input) {
        accepted |= kraal::tournament::RawTournament::from(b).check().is_ok();
    }
    if let Ok(raw) = serde_json::from_slice::<kraal::tournament::RawTournament>(input) {
        accepted |= raw.check().is_ok();
    }
    if let Ok(b) = serde_json::from_slice::<api::NewPlayer>(input) {
        accepted |= b.fields().is_ok();
    }
    accepted |= serde_json::from_slice::<api::NewRelation>(input).is_ok();
    accepted |= serde_json::from_slice::<api::NewForbiddenBody>(input).is_ok();
    accepted |= serde_json::from_slice::<api::WaiverBody>(input).is_ok();
    accepted |= serde_json::from_slice::<api::NewTeamBody>(input).is_ok();
    accepted |= serde_json::from_slice::<api::LineupBody>(input).is_ok();
    if let Ok(b) = serde_json::from_slice::<api::ResultBody>(input) {
        accepted |= b.result().is_ok();
    }
    if let Ok(b) = serde_json::from_slice::<api::NewSeason>(input) {
        accepted |= b.fields().is_ok();
    }
    if let Ok(b) = serde_json::from_slice::<api::SeasonPatch>(input) {
        let stored = kraal::db::seasons::Season {
            id: kraal::ids::SeasonId(1),
            name: "Free State Grand Prix 2026".into(),
            points: kraal::season::DEFAULT_POINTS.to_vec(),
            best: Some(4),
            created_at: chrono::NaiveDateTime::default(),
            events: vec![(kraal::ids::TournamentId(3), "Bloemfontein Open".into(), 1.0)],
        };
        accepted |= b.over(&stored).is_ok();
    }
    if let Ok(serde_json::Value::Object(map)) = serde_json::from_slice::<serde_json::Value>(input) {
        let field = |k: &str| map.get(k).and_then(|v| v.as_str()).unwrap_or("");
        let _ = kraal::roster::PlayerFields::parse(
            field("name"),
            field("club"),
            field("rating"),
            field("seed"),
            field("federation_id"),
        );
        let _ = kraal::results::GameResult::parse(field("result"));
        let _ = kraal::tournament::RecordSide::try_from(field("side").to_string());
        let _ = kraal::rules::check::check_scoresheet(field("text"), None);
        for games in [2, 6] {
            accepted |= kraal::results::parse_pairing_score(field("score"), games).is_ok();
        }
    }
    accepted
}

pub const TARGETS: &[Target] = &[
    Target {
        name: "scoresheet",
        seeds: SHEETS,
        run: sheet,
    },
    Target {
        name: "trf",
        seeds: TRF,
        run: trf,
    },
    Target {
        name: "kraal_json",
        seeds: KRAAL_JSON,
        run: kraal_json,
    },
    Target {
        name: "event_file",
        seeds: EVENT,
        run: event_file,
    },
    Target {
        name: "players_csv",
        seeds: PLAYERS_CSV,
        run: players_csv,
    },
    Target {
        name: "teams_csv",
        seeds: TEAMS_CSV,
        run: teams_csv,
    },
    Target {
        name: "api_bodies",
        seeds: BODIES,
        run: bodies,
    },
];

/// What a run found.
pub struct Outcome {
    pub inputs: u64,
    /// Inputs the reader accepted (the rest it refused with an error).
    pub accepted: u64,
    pub elapsed: Duration,
    /// The slowest single input.
    pub slowest: Duration,
    /// The first input that panicked, with the panic's message.
    pub panic: Option<(Vec<u8>, String)>,
}

/// Runs `count` inputs of one target from `seed`.
pub fn run(target: &Target, count: u64, seed: u64) -> Outcome {
    let mut rng = StdRng::seed_from_u64(seed);
    let started = Instant::now();
    let mut slowest = Duration::ZERO;
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut panic = None;
    let mut n = 0;
    let mut accepted = 0;
    while n < count {
        let input = if n % 1000 == 0 {
            // Now and then, plain random bytes.
            (0..rng.random_range(0..256))
                .map(|_| rng.random())
                .collect()
        } else {
            mutate(&mut rng, target.seeds)
        };
        let t = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| (target.run)(&input, n)));
        slowest = slowest.max(t.elapsed());
        n += 1;
        accepted += u64::from(matches!(result, Ok(true)));
        if let Err(e) = result {
            let message = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic = Some((input, message));
            break;
        }
    }
    std::panic::set_hook(previous);
    Outcome {
        inputs: n,
        accepted,
        elapsed: started.elapsed(),
        slowest,
        panic,
    }
}

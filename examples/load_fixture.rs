//! Builds the tournament the server load test reads: a 1,000-player Swiss of
//! 9 rounds under the official rules, every game played, in a SQLite file.
//! A second argument sets the number of players (10,000 for the scale run).
//!
//!     cargo run --release --example load_fixture -- /tmp/kraal-bench.db [PLAYERS]

// An example's output is what it prints.
#![allow(clippy::print_stdout)]

use kraal::db::users::Role;
use kraal::db::{self, rounds, Database};
use kraal::results::{GameResult, ResultEdit};
use kraal::roster::PlayerFields;
use kraal::tournament::RawTournament;

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "kraal-bench.db".into());
    let players: i32 = std::env::args()
        .nth(2)
        .map(|n| n.parse().expect("PLAYERS is a whole number"))
        .unwrap_or(1000);
    let _ = std::fs::remove_file(&path);
    let pool = Database::parse(&format!("sqlite://{path}"), false)
        .and_then(|d| d.open(2))
        .unwrap_or_else(|e| panic!("cannot create {path}: {e}"));
    let mut conn = pool.get().expect("a connection");
    let hash = kraal::accounts::hash_password("bench-password").expect("hash");
    let admin = kraal::director::commit(&mut conn, None, |w| {
        db::users::create(w, "bench", Role::Admin, &hash)
    })
    .expect("admin");
    let fields = RawTournament {
        name: "National Open (load test)".into(),
        rules: "official".into(),
        rounds: "9".into(),
        ..Default::default()
    }
    .check()
    .expect("fields");
    let t = kraal::director::commit(&mut conn, Some(admin.id), |w| {
        db::tournaments::create(w, &fields, &admin)
    })
    .expect("tournament");
    for i in 0..players {
        let f = PlayerFields::parse(
            &format!("Player {:04}", i + 1),
            &format!("Club {:03}", i % 100),
            &(2400 - i * 1300 / players).to_string(),
            "",
            "",
        )
        .expect("player");
        kraal::director::commit(&mut conn, Some(admin.id), |w| {
            db::players::create(w, t.id, &f)
        })
        .expect("player");
    }
    let mut seed: u64 = 9;
    for _ in 0..9 {
        let data = kraal::director::load(&mut conn, t.id).expect("load");
        let (n, planned) = data.pair_next().expect("pairing");
        kraal::director::commit(&mut conn, Some(admin.id), |w| {
            rounds::create(w, t.id, n, &planned, t.games_per_pairing, None)?;
            rounds::publish(w, t.id, n)
        })
        .expect("round");
        let (_, _, games) = rounds::everything(&mut conn, t.id).expect("games");
        let mut edits = Vec::new();
        for g in games.iter().filter(|g| g.result.is_none()) {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = match (seed >> 33) % 5 {
                0 | 1 => GameResult::StarterWon,
                2 | 3 => GameResult::OtherWon,
                _ => GameResult::Draw,
            };
            edits.push(ResultEdit {
                game: g.id,
                wanted: Some(r),
                seen_version: Some(g.version),
                by: kraal::results::EnteredBy::Referee,
            });
        }
        kraal::director::results::save(&mut conn, t.id, &edits, &admin).expect("results");
        eprintln!("round {n} paired and played");
    }
    println!("{}", t.id);
}

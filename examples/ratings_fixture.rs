//! Builds the federation the ratings benchmark reads: 20,000 people of the
//! registry and 1,000,000 games between them over 36 months (one Swiss-like
//! event a month, 2,800 of the people entered, 10 rounds of 1,400 pairings
//! of two games, a quarter of the games drawn), in a SQLite file. The rows
//! are written in bulk (a real event's pairing would take hours at this
//! size); what the ratings read is what the app stores.
//!
//!     cargo run --release --example ratings_fixture -- /tmp/kraal-ratings.db [PEOPLE] [GAMES]

// An example's output is what it prints.
#![allow(clippy::print_stdout)]

use chrono::NaiveDate;
use diesel::prelude::*;
use kraal::db::schema::{games, pairings, people, players, rounds};
use kraal::db::users::Role;
use kraal::db::{self, Database};
use kraal::tournament::RawTournament;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "kraal-ratings.db".into());
    let people_count: usize = args.next().map_or(20_000, |n| n.parse().expect("PEOPLE"));
    let game_count: usize = args.next().map_or(1_000_000, |n| n.parse().expect("GAMES"));
    let _ = std::fs::remove_file(&path);
    let pool = Database::parse(&format!("sqlite://{path}"), false)
        .and_then(|d| d.open(2))
        .unwrap_or_else(|e| panic!("cannot create {path}: {e}"));
    let mut conn = pool.get().expect("a connection");
    // The bulk rows go through a plain SQLite connection: batch inserts are
    // the backend's own (the app's connection serves both backends).
    let mut raw = diesel::SqliteConnection::establish(&path).expect("the file");
    let hash = kraal::accounts::hash_password("bench-password").expect("hash");
    let admin = kraal::director::commit(&mut conn, None, |w| {
        db::users::create(w, "bench", Role::Admin, &hash)
    })
    .expect("admin");
    let now = db::now();
    let mut seed: u64 = 2026;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    let person_rows: Vec<_> = (0..people_count)
        .map(|i| {
            (
                people::name.eq(format!("Person {i:05}")),
                people::federation_id.eq(Some(format!("F-{i:05}"))),
                people::club.eq(format!("Club {:03}", i % 300)),
                people::created_at.eq(now),
            )
        })
        .collect();
    raw.transaction(|c| {
        for chunk in person_rows.chunks(5000) {
            diesel::insert_into(people::table)
                .values(chunk)
                .execute(c)?;
        }
        Ok::<_, diesel::result::Error>(())
    })
    .expect("people");
    let months = 36;
    let rounds_per_event = 10;
    let pairings_per_round = game_count / 2 / months / rounds_per_event;
    let entered = (pairings_per_round * 2).min(people_count);
    let first = NaiveDate::from_ymd_opt(2023, 12, 1).expect("a day");
    for m in 0..months {
        let start = first + chrono::Months::new(m as u32);
        let fields = RawTournament {
            name: format!("Monthly Open {}", start.format("%Y-%m")),
            rules: "official".into(),
            rounds: rounds_per_event.to_string(),
            starts_on: start.to_string(),
            ..Default::default()
        }
        .check()
        .expect("fields");
        let t = kraal::director::commit(&mut conn, Some(admin.id), |w| {
            db::tournaments::create(w, &fields, &admin)
        })
        .expect("tournament");
        raw.transaction(|c| {
            let offset = next() % people_count;
            let entries: Vec<_> = (0..entered)
                .map(|k| {
                    let p = (offset + k * 7) % people_count;
                    (
                        players::tournament_id.eq(t.id),
                        players::name.eq(format!("Person {p:05}")),
                        players::club.eq(format!("Club {:03}", p % 300)),
                        players::federation_id.eq(format!("F-{p:05}")),
                        players::created_at.eq(now),
                        players::person_id.eq(Some(p as i32 + 1)),
                    )
                })
                .collect();
            for chunk in entries.chunks(5000) {
                diesel::insert_into(players::table)
                    .values(chunk)
                    .execute(c)?;
            }
            let ids: Vec<i32> = players::table
                .filter(players::tournament_id.eq(t.id))
                .order(players::id)
                .select(players::id)
                .load(c)?;
            for r in 1..=rounds_per_event {
                let day = start + chrono::Days::new((r as u64 - 1) * 2);
                let round: i32 = diesel::insert_into(rounds::table)
                    .values((
                        rounds::tournament_id.eq(t.id),
                        rounds::number.eq(r as i32),
                        rounds::status.eq("published"),
                        rounds::explanation.eq(""),
                        rounds::created_at.eq(now),
                        rounds::played_on.eq(day),
                    ))
                    .returning(rounds::id)
                    .get_result(c)?;
                // A random pairing of the entries: a shuffled order, two by two.
                let mut order: Vec<usize> = (0..ids.len()).collect();
                for i in (1..order.len()).rev() {
                    order.swap(i, next() % (i + 1));
                }
                let rows: Vec<_> = order
                    .chunks(2)
                    .filter(|p| p.len() == 2)
                    .enumerate()
                    .map(|(k, p)| {
                        (
                            pairings::round_id.eq(round),
                            pairings::table_no.eq(k as i32 + 1),
                            pairings::first_player_id.eq(Some(ids[p[0]])),
                            pairings::second_player_id.eq(Some(ids[p[1]])),
                            pairings::explanation.eq(""),
                            pairings::started.eq(false),
                        )
                    })
                    .collect();
                for chunk in rows.chunks(4000) {
                    diesel::insert_into(pairings::table)
                        .values(chunk)
                        .execute(c)?;
                }
                let made: Vec<(i32, Option<i32>, Option<i32>)> = pairings::table
                    .filter(pairings::round_id.eq(round))
                    .select((
                        pairings::id,
                        pairings::first_player_id,
                        pairings::second_player_id,
                    ))
                    .load(c)?;
                let mut game_rows = Vec::with_capacity(made.len() * 2);
                for (pid, a, b) in made {
                    for (n, starter) in [(1, a), (2, b)] {
                        let result = match next() % 8 {
                            0 | 1 => "1/2-1/2",
                            2..=4 => "1-0",
                            _ => "0-1",
                        };
                        game_rows.push((
                            games::pairing_id.eq(pid),
                            games::number.eq(n),
                            games::starter_player_id.eq(starter),
                            games::result.eq(Some(result)),
                            games::tiebreak.eq(false),
                            games::version.eq(1),
                        ));
                    }
                }
                for chunk in game_rows.chunks(4000) {
                    diesel::insert_into(games::table).values(chunk).execute(c)?;
                }
            }
            Ok::<_, diesel::result::Error>(())
        })
        .expect("an event");
        eprintln!("{}: {} entries", start.format("%Y-%m"), entered);
    }
    println!("{}", admin.name);
}

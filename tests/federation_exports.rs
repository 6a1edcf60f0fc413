//! The exports a federation takes: the standings CSV with words for
//! headers (and keys for scripts), and a TRF whose points other pairing
//! programs recompute from its round codes to the same total.

#![allow(clippy::unwrap_used)]

mod common;

use common::cli::kraal;
use common::{Client, TestApp};
use kraal::db::users::{Role, User};
use serde_json::{json, Value};

/// A six-player Swiss under the official rules (two games a pairing),
/// ranked by game points with Sonneborn-Berger and Buchholz, whose players
/// carry ratings and federation ids.
fn swiss(app: &TestApp, name: &str) -> (i64, User, Client) {
    let admin = app.user(&format!("admin-{name}"), Role::Admin);
    let mut api = app.script_for(&admin);
    let t = api.create(
        "/api/v1/tournaments",
        json!({"name": name, "system": "swiss", "rules": "official", "rounds": 5,
               "tiebreaks": ["sonneborn_berger", "buchholz"]}),
    );
    let tid = t["id"].as_i64().unwrap();
    for (i, n) in [
        "Thabo Mokoena",
        "Lindiwe Zulu",
        "Sipho Dlamini",
        "Naledi Khumalo",
        "Kagiso Molefe",
        "Refilwe Dube",
    ]
    .iter()
    .enumerate()
    {
        api.create(
            &format!("/api/v1/tournaments/{tid}/players"),
            json!({"name": n, "club": "Soweto MSC", "rating": 1900 - 40 * i as i64,
                   "federation_id": format!("ZA-10{i}")}),
        );
    }
    (tid, admin, api)
}

/// Round 1 played: table 1 1½-½, table 2 2-0, table 3 1-1 (from the
/// first-listed player's side; game 2 is started by the other player).
fn play_round_one(api: &mut Client, tid: i64) -> Vec<Value> {
    let pairings = common::pair(api, tid);
    let results = [["1-0", "1/2-1/2"], ["1-0", "0-1"], ["1/2-1/2", "1/2-1/2"]];
    for (p, r) in pairings.iter().zip(results) {
        for (g, res) in p["games"].as_array().unwrap().iter().zip(r) {
            common::put(api, g, res);
        }
    }
    pairings
}

fn csv_rows(text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

#[test]
fn the_standings_csv_has_words_for_headers_ratings_ids_and_the_page_decimals() {
    for app in TestApp::all() {
        let (tid, _admin, mut api) = swiss(&app, "Federation Open");
        play_round_one(&mut api, tid);
        let mut web = app.client();
        let reply = web.get(&format!("/t/{tid}/standings.csv"));
        assert_eq!(reply.status, 200, "{}", reply.body);
        let rows = csv_rows(&reply.body);
        assert_eq!(
            rows[0],
            [
                "Rank",
                "Name",
                "Club",
                "Rating",
                "Federation ID",
                "Games played",
                "Points",
                "Sonneborn-Berger",
                "Buchholz",
                "Provisional"
            ],
            "[{}]",
            app.backend
        );
        // Thabo (1900) beat his opponent 1½-½ or 2-0: either way he played
        // two games, and his rating and id travel.
        let thabo = rows.iter().find(|r| r[1] == "Thabo Mokoena").unwrap();
        assert_eq!(thabo[3], "1900");
        assert_eq!(thabo[4], "ZA-100");
        assert_eq!(thabo[5], "2");
        assert_eq!(thabo[9], "no", "every result is in");
        // Sonneborn-Berger needs more than halves here (an opponent's ½
        // times a 1½ score, over two games): the page writes that column
        // with two decimals, and so does the CSV, value for value.
        let page = web.get(&format!("/t/{tid}/standings")).body;
        let sb: Vec<&String> = rows[1..].iter().map(|r| &r[7]).collect();
        assert!(
            sb.iter().any(|v| v.contains('.')),
            "a fine Sonneborn-Berger value: {sb:?}"
        );
        for v in &sb {
            let decimals = v.split_once('.').map_or(0, |(_, d)| d.len());
            assert_eq!(decimals, 2, "{v} has the page's two decimals");
            assert!(page.contains(&format!("<td>{v}</td>")), "{v} on the page");
        }
        // Points with halves are decimals a spreadsheet reads.
        assert!(rows[1..].iter().any(|r| r[6] == "1.5"), "{rows:?}");

        // The machine names, for scripts.
        let keys = web.get(&format!("/t/{tid}/standings.csv?headers=keys"));
        assert_eq!(keys.status, 200);
        assert_eq!(
            keys.body.lines().next().unwrap(),
            "rank,name,club,rating,federation_id,games_played,points,sonneborn_berger,buchholz,provisional"
        );
        assert_eq!(
            keys.body.lines().skip(1).collect::<Vec<_>>(),
            reply.body.lines().skip(1).collect::<Vec<_>>(),
            "the same lines under either header"
        );
        let bad = web.get(&format!("/t/{tid}/standings.csv?headers=codes"));
        assert_eq!(bad.status, 422, "{}", bad.body);
        assert!(bad.body.contains("keys"), "{}", bad.body);

        // The command line prints the very same bytes, in either style.
        for (args, body) in [
            (vec![], &reply.body),
            (vec!["--headers", "keys"], &keys.body),
        ] {
            let mut all = vec!["export", "standings"];
            let id = tid.to_string();
            all.push(&id);
            all.extend(args);
            let (code, out, err) = kraal(&all).database_url(&app.database_url).run();
            assert_eq!(code, 0, "{err}");
            assert_eq!(&out, body);
        }
    }
}

/// The `BBW`... values of a TRF, and each `001` line's points column with
/// what its round codes add up to.
fn trf_points(trf: &str) -> Vec<(String, f64, f64)> {
    let bb = |code: &str, default: f64| {
        trf.lines()
            .find(|l| l.starts_with(code))
            .map_or(default, |l| l[3..].trim().parse().unwrap())
    };
    let (w, d, l, z, f, u) = (
        bb("BBW", 1.0),
        bb("BBD", 0.5),
        bb("BBL", 0.0),
        bb("BBZ", 0.0),
        bb("BBF", 0.0),
        bb("BBU", 1.0),
    );
    trf.lines()
        .filter(|x| x.starts_with("001"))
        .map(|line| {
            let name = line[14..47].trim().to_string();
            let points: f64 = line[80..84].trim().parse().unwrap();
            let mut sum = 0.0;
            let mut start = 91;
            while start + 8 <= line.len() {
                let code = line.as_bytes()[start + 7] as char;
                sum += match code {
                    '1' | 'W' | '+' | 'F' => w,
                    '=' | 'D' | 'H' => d,
                    '0' | 'L' => l,
                    '-' => f,
                    'Z' => z,
                    'U' => u,
                    _ => 0.0,
                };
                start += 10;
            }
            (name, points, sum)
        })
        .collect()
}

#[test]
fn the_trf_points_agree_with_its_codes_and_a_round_in_progress_is_paired() {
    for app in TestApp::all() {
        let (tid, admin, mut api) = swiss(&app, "TRF Open");
        play_round_one(&mut api, tid);
        // Round 2 under way: table 1 has played game 1 only, the others
        // nothing yet.
        let round2 = common::pair(&mut api, tid);
        common::put(&mut api, &round2[0]["games"][0], "1-0");
        let mut web = app.client_as(&admin);
        let trf = web.get(&format!("/t/{tid}/export.trf"));
        assert_eq!(trf.status, 200, "{}", trf.body);
        let trf = trf.body;
        for (name, points, codes) in trf_points(&trf) {
            assert_eq!(
                points, codes,
                "[{}] {name}: the points column says what the codes add up to\n{trf}",
                app.backend
            );
        }
        // The 1½-½ of round 1 is a won pairing worth BBW (2.0); its game
        // points stay in Kraal's own line.
        assert!(trf.contains("BBW  2.0"), "{trf}");
        assert!(
            trf.lines()
                .any(|l| l.starts_with("KPT") && l.ends_with(" 1.5 0.0")),
            "{trf}"
        );
        // Round 2 is paired on every line: an opponent and a colour, the
        // result left blank (table 1's game 2 is still to play).
        let name_of = |id: &Value| id.as_str().unwrap().to_string();
        for p in &round2 {
            for who in [name_of(&p["first"]), name_of(&p["second"])] {
                let line = trf
                    .lines()
                    .find(|l| l.starts_with("001") && l[14..47].trim() == who)
                    .unwrap();
                let block = &line[101..line.len().min(111)];
                let (opp, colour) = (block[0..4].trim(), &block[5..6]);
                assert!(
                    opp.parse::<u32>().unwrap() > 0 && (colour == "w" || colour == "b"),
                    "{who} is paired in round 2: {line:?}"
                );
                assert_eq!(block.get(7..8).unwrap_or(" "), " ", "{who}: no result yet");
            }
        }
        // `kraal pair` reads the file and says the round is still being played.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("open.trf");
        std::fs::write(&path, &trf).unwrap();
        let (code, _, err) = kraal(&["pair", path.to_str().unwrap()]).run();
        assert_ne!(code, 0);
        assert!(
            err.contains("round 2 result") && err.contains("still being played"),
            "{err}"
        );
    }
}

/// "Games played" counts games, not rounds: a six-game pairing is six, a
/// forfeit none; and a `provisional` column says `yes` while a published
/// round still has games without a result.
#[test]
fn the_standings_csv_counts_games_and_says_when_it_is_provisional() {
    for app in TestApp::all() {
        let admin = app.user("admin-mini-matches", Role::Admin);
        let mut api = app.script_for(&admin);
        let tid = api.create(
            "/api/v1/tournaments",
            json!({"name": "Limpopo Six-Game Masters", "system": "swiss", "rules": "official",
                   "games_per_pairing": 6, "rounds": 3}),
        )["id"]
            .as_i64()
            .unwrap();
        for (n, r) in [
            ("Tshilidzi Netshitenzhe", 1850),
            ("Mpho Maluleke", 1800),
            ("Rudzani Mudau", 1750),
            ("Khensani Baloyi", 1700),
        ] {
            api.create(
                &format!("/api/v1/tournaments/{tid}/players"),
                json!({"name": n, "club": "Thohoyandou MC", "rating": r}),
            );
        }
        let pairings = common::pair(&mut api, tid);
        let games = |p: &Value| p["games"].as_array().unwrap().clone();
        assert_eq!(games(&pairings[0]).len(), 6);
        // Table 1: six games over the board. Table 2: five, the sixth
        // still to come.
        for (i, g) in games(&pairings[0]).iter().enumerate() {
            common::put(&mut api, g, ["1-0", "0-1", "1/2-1/2"][i % 3]);
        }
        for (i, g) in games(&pairings[1]).iter().take(5).enumerate() {
            common::put(&mut api, g, ["1-0", "1/2-1/2"][i % 2]);
        }
        let read = |app: &TestApp| {
            let reply = app
                .client()
                .get(&format!("/t/{tid}/standings.csv?headers=keys"));
            assert_eq!(reply.status, 200, "{}", reply.body);
            let rows = csv_rows(&reply.body);
            let col = |name: &str| rows[0].iter().position(|c| c == name).unwrap();
            let (played, provisional) = (col("games_played"), col("provisional"));
            rows[1..]
                .iter()
                .map(|r| (r[1].clone(), r[played].clone(), r[provisional].clone()))
                .collect::<Vec<_>>()
        };
        let table = |p: &Value| {
            [
                p["first"].as_str().unwrap().to_string(),
                p["second"].as_str().unwrap().to_string(),
            ]
        };
        let of = |rows: &[(String, String, String)], name: &str| {
            rows.iter().find(|r| r.0 == name).unwrap().clone()
        };
        let rows = read(&app);
        assert_eq!(rows.len(), 4);
        for name in table(&pairings[0]) {
            assert_eq!(of(&rows, &name).1, "6", "{rows:?}");
        }
        for name in table(&pairings[1]) {
            assert_eq!(of(&rows, &name).1, "5", "{rows:?}");
        }
        assert!(rows.iter().all(|r| r.2 == "yes"), "{rows:?}");

        // The last result in: no longer provisional. A forfeit in place of a
        // game played is no game played.
        let last = &games(&pairings[1])[5];
        common::put(&mut api, last, "+-");
        let rows = read(&app);
        assert!(rows.iter().all(|r| r.2 == "no"), "{rows:?}");
        for name in table(&pairings[1]) {
            assert_eq!(of(&rows, &name).1, "5", "{rows:?}");
        }
        common::put(&mut api, last, "1-0");
        let rows = read(&app);
        assert!(rows.iter().all(|r| r.1 == "6" && r.2 == "no"), "{rows:?}");
    }
}

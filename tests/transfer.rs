//! An event that leaves the building: `kraal export event` / `kraal import
//! event` move a whole tournament between databases of either backend, and
//! the TRF export reads back in `kraal pair` to the pairing the app makes.

#![allow(clippy::unwrap_used)]

mod common;

use common::cli::kraal;
use common::{Client, TestApp};
use kraal::db::users::{Role, User};
use kraal::ids::TournamentId;
use serde_json::{json, Value};

/// A Swiss of nine (so one bye a round) as a club would run it: clubs,
/// two relatives, a kept-apart pair and a waived one, three rounds of
/// 2-game mini-matches with won, drawn and 1½–½ results, a forfeit, a
/// withdrawal, a half-point bye asked for round 4, and a scoresheet.
/// Returns the tournament's id.
fn club_swiss(app: &TestApp, admin: &User, referee: &User, rules: &str) -> TournamentId {
    let fields = kraal::tournament::RawTournament {
        name: format!("Kimberley {rules} Open"),
        venue: "Kimberley Civic Centre".into(),
        starts_on: "2026-12-05".into(),
        ends_on: "2026-12-06".into(),
        rules: rules.into(),
        games_per_pairing: "2".into(),
        rounds: "6".into(),
        confirmation: "players_then_referee".into(),
        clocks: "yes".into(),
        half_point_bye: "yes".into(),
        ..Default::default()
    }
    .check()
    .unwrap();
    let t = kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
        kraal::db::tournaments::create(w, &fields, admin)
    })
    .unwrap();
    kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
        kraal::db::tournaments::assign_referee(w, t.id, referee)
    })
    .unwrap();
    let roster = [
        ("Thabo Nkosi", "Kimberley MC", "1850"),
        ("Lerato Dlamini", "Kimberley MC", "1790"),
        ("Sipho Mokoena", "Upington MC", "1760"),
        ("Naledi Khumalo", "Upington MC", "1720"),
        ("Zanele Mahlangu", "Kuruman MC", "1700"),
        ("Bongani Zulu", "Kuruman MC", "1650"),
        ("Ayanda Nkosi", "Kimberley MC", "1600"),
        ("Karabo Sithole", "", "1550"),
        ("Zoë van Wyk", "De Aar MC", ""),
    ];
    let ids: Vec<kraal::ids::EntryId> = roster
        .iter()
        .map(|(n, c, r)| common::player(app, t.id, admin, n, c, r).id)
        .collect();
    let mut conn = app.conn();
    kraal::director::commit(&mut conn, Some(admin.id), |w| {
        kraal::db::players::add_relation(w, t.id, ids[0], ids[6])
    })
    .unwrap();
    let ban = |a: usize, b: usize, from: Option<i32>| kraal::db::forbidden::NewForbidden {
        a: ids[a],
        b: ids[b],
        from_round: from,
        to_round: None,
    };
    kraal::director::commit(&mut conn, Some(admin.id), |w| {
        kraal::db::forbidden::add(w, t.id, ban(2, 4, None))
    })
    .unwrap();
    let waived = kraal::director::commit(&mut conn, Some(admin.id), |w| {
        kraal::db::forbidden::add(w, t.id, ban(1, 5, Some(2)))
    })
    .unwrap();
    kraal::director::commit(&mut conn, Some(admin.id), |w| {
        kraal::db::forbidden::waive(w, t.id, waived.id, "same lift home")
    })
    .unwrap();
    kraal::director::commit(&mut conn, Some(admin.id), |w| {
        kraal::db::byes::request_bye(w, t.id, ids[3], kraal::ids::RoundNo(4), true, false)
    })
    .unwrap();
    // A zero-point absence a player asked for through their own link.
    kraal::director::commit(&mut conn, Some(admin.id), |w| {
        kraal::db::byes::request_bye(w, t.id, ids[2], kraal::ids::RoundNo(5), false, true)
    })
    .unwrap();
    drop(conn);

    let mut api = app.script_for(referee);
    for round in 1..=3 {
        let pairings = common::pair(&mut api, i64::from(t.id));
        for (k, p) in pairings.iter().enumerate() {
            let games = p["games"].as_array().unwrap();
            if games.is_empty() {
                continue; // the bye
            }
            if round == 2 && k == 1 {
                for g in games {
                    common::put(&mut api, g, "+-");
                }
                continue;
            }
            let second = ["0-1", "1/2-1/2", "1-0"][(k + round) % 3];
            common::put(&mut api, &games[0], "1-0");
            common::put(&mut api, &games[1], second);
        }
        if round == 1 {
            let g = &pairings[0]["games"][0];
            let r = api.send_json(
                "PUT",
                &format!("/api/v1/games/{}/scoresheet", g["id"]),
                serde_json::json!({"text": "1. a1 d1 2. g1 a4", "side": "light"}),
            );
            assert_eq!(r.status, 200, "{}", r.body);
        }
        if round == 2 {
            let mut conn = app.conn();
            kraal::director::commit(&mut conn, Some(admin.id), |w| {
                kraal::db::players::withdraw(w, t.id, ids[7])
            })
            .unwrap();
        }
        // The round clock (OGR 8): 60 minutes a game with stop clocks.
        let r = api.send_json(
            "PUT",
            &format!("/api/v1/tournaments/{}/rounds/{round}/clock", t.id),
            serde_json::json!({"starts_at": format!("2026-12-0{}T09:00:00+02:00", 4 + round)}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
    }
    t.id
}

/// The text a reader sees on a page: tags dropped, runs of space joined.
fn visible(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => {
                in_tag = true;
                out.push(' ');
            }
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The pages a tournament shows its players and referees, as text.
/// An imported event's audit page as it was before the move: the import is
/// its newest change, recorded by no account; taken out with its count.
fn without_the_import(page: &str) -> String {
    let head = "When (UTC) Who What Before After ";
    let at = page.find(head).expect("the trail's table") + head.len();
    let end = at
        + page[at..]
            .find(" (system) import tournament ")
            .expect("the import recorded");
    let time_len = "2026-11-25 16:44:32".len();
    assert_eq!(
        end - at,
        time_len,
        "the import is the newest change: {page}"
    );
    let rest = &page[end + " (system) import tournament ".len()..];
    let name_end = rest.find(" 20").expect("the change before the import");
    let mut out = format!("{}{}", &page[..at], &rest[name_end + 1..]);
    let count = |text: &str| -> usize {
        let i = text.find("Show ").unwrap() + 5;
        text[i..].split(' ').next().unwrap().parse().unwrap()
    };
    let n = count(&out);
    out = out.replacen(
        &format!("Show {n} changes"),
        &format!("Show {} changes", n - 1),
        1,
    );
    out
}

fn pages(web: &mut Client, tid: TournamentId) -> Vec<(String, String)> {
    let mut urls = vec![
        format!("/t/{tid}"),
        format!("/t/{tid}/standings"),
        format!("/t/{tid}/crosstable"),
        format!("/t/{tid}/audit"),
    ];
    for n in 1..=3 {
        urls.push(format!("/t/{tid}/rounds/{n}"));
        urls.push(format!("/t/{tid}/rounds/{n}/results"));
    }
    let mut out: Vec<(String, String)> = urls
        .iter()
        .map(|u| {
            let r = web.get(u);
            assert_eq!(r.status, 200, "GET {u}");
            let mut text = visible(&r.body)
                .replace(&web.base, "BASE")
                .replace(&format!("/t/{tid}/"), "/t/ID/");
            // The clock of the live pages ("Last updated 16:21:40").
            if let Some(i) = text.find("Last updated ") {
                text.replace_range(i + 13..(i + 21).min(text.len()), "TIME");
            }
            (u.replace(&tid.to_string(), "ID"), text)
        })
        .collect();
    for u in [
        format!("/t/{tid}/standings.csv"),
        format!("/t/{tid}/crosstable.csv"),
    ] {
        let r = web.get(&u);
        assert_eq!(r.status, 200, "GET {u}");
        out.push((u.replace(&tid.to_string(), "ID"), r.body));
    }
    out
}

/// Pairs the next round through the API: its pairings by names.
fn next_round(api: &mut Client, tid: TournamentId) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = common::pair(api, i64::from(tid))
        .iter()
        // Byes asked for are not pairings the engine makes.
        .filter(|p| p["bye"].is_null() || p["bye"] == "allocated")
        .map(|p| {
            let a = p["first"].as_str().unwrap_or("").to_string();
            let b = p["second"].as_str().unwrap_or("").to_string();
            (a.clone().min(b.clone()), a.max(b))
        })
        .collect();
    pairs.sort();
    pairs
}

/// The new tournament's id in `kraal import event`'s answer.
fn imported_id(out: &str) -> TournamentId {
    out.split("as tournament ")
        .nth(1)
        .and_then(|r| r.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the new id in {out:?}"))
}

/// `kraal export event ID` on `app`'s database: the file, or the test fails.
fn export_event(app: &TestApp, tid: TournamentId) -> String {
    let (code, file, err) = kraal(&["export", "event", &tid.to_string()])
        .database_url(&app.database_url)
        .run();
    assert_eq!(code, 0, "{err}");
    file
}

/// `kraal import event PATH` into `app`'s database: exit code, standard
/// output and standard error.
fn import_event(app: &TestApp, path: &str) -> (i32, String, String) {
    kraal(&["import", "event", path])
        .database_url(&app.database_url)
        .run()
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn an_event_moves_to_another_database_with_the_same_standings_pages_and_next_round() {
    for source in TestApp::all() {
        // Into the other backend when this run has both, else another file.
        let other = if source.backend == "sqlite" && common::backends().len() > 1 {
            "postgres"
        } else {
            "sqlite"
        };
        let target = TestApp::start(other);
        let admin = source.user("thandi", Role::Admin);
        let referee = source.user("nomsa", Role::Referee);
        let tid = club_swiss(&source, &admin, &referee, "official");

        let file = export_event(&source, tid);
        // The tournament page's download is the same file.
        let mut web = source.client_as(&referee);
        let page = web.get(&format!("/t/{tid}"));
        assert!(page.body.contains(&format!("/t/{tid}/event.json")));
        let download = web.get(&format!("/t/{tid}/event.json"));
        assert_eq!(download.status, 200);
        assert!(download.headers["content-disposition"].contains("event.json"));
        let strip = |v: &str| {
            let mut j: Value = serde_json::from_str(v).unwrap();
            j["exported_at"] = Value::Null;
            j
        };
        assert_eq!(strip(&download.body), strip(&file));
        // Players and the public cannot download it.
        assert_ne!(
            source.client().get(&format!("/t/{tid}/event.json")).status,
            200
        );

        // The target already runs an event of its own, so every id moves.
        let t_admin = target.user("thandi", Role::Admin);
        let t_referee = target.user("nomsa", Role::Referee);
        let before = club_swiss(&target, &t_admin, &t_referee, "gar");
        let before_pages = pages(&mut target.client_as(&t_admin), before);
        let dir = tempfile::tempdir().unwrap();
        let path = write(&dir, "event.json", &file);
        let (code, out, err) = import_event(&target, &path);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("9 players, 3 rounds"), "{out}");
        assert!(!out.contains("no account here"), "{out}");
        let copy: TournamentId = imported_id(&out);
        assert_ne!(copy, tid, "the copy got a new id");

        let a = pages(&mut source.client_as(&admin), tid);
        let b = pages(&mut target.client_as(&t_admin), copy);
        for ((url, x), (_, y)) in a.iter().zip(&b) {
            // The copy's trail is the source's with its import on top.
            let y = if url.ends_with("/audit") {
                without_the_import(y)
            } else {
                y.clone()
            };
            assert_eq!(
                x, &y,
                "{url} differs after the move ({} to {other})",
                source.backend
            );
        }
        let after = pages(&mut target.client_as(&t_admin), before);
        for ((url, x), (_, y)) in before_pages.iter().zip(&after) {
            assert_eq!(x, y, "{url} of the target's own event changed");
        }
        // The imported referee is the referee there, and both pair the
        // next round alike.
        let next_a = next_round(&mut source.script_for(&referee), tid);
        let next_b = next_round(&mut target.script_for(&t_referee), copy);
        assert_eq!(next_a.len(), 4, "{next_a:?}");
        assert_eq!(next_a, next_b);

        // The same file into its own database: a second, equal copy.
        let (code, out, err) = import_event(&source, &path);
        assert_eq!(code, 0, "{err}");
        let again: TournamentId = imported_id(&out);
        let c = pages(&mut source.client_as(&admin), again);
        // The original has moved on by a round since; its first three
        // rounds and the copy's agree.
        for ((url, x), (_, y)) in b.iter().zip(&c) {
            if url.contains("/rounds/") {
                assert_eq!(x, y, "{url}");
            }
        }
    }
}

#[test]
fn accounts_the_target_lacks_are_named_and_their_entries_kept_without_author() {
    let source = TestApp::start("sqlite");
    let admin = source.user("thandi", Role::Admin);
    let referee = source.user("nomsa", Role::Referee);
    let tid = club_swiss(&source, &admin, &referee, "gar");
    let file = export_event(&source, tid);
    let target = TestApp::start("sqlite");
    let t_admin = target.user("thandi", Role::Admin);
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "event.json", &file);
    let (code, out, err) = import_event(&target, &path);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("no account here for nomsa"), "{out}");
    // Standings do not depend on who typed the results.
    let copy = kraal::db::tournaments::list(&mut target.conn()).unwrap()[0].id;
    let mut web = target.client_as(&t_admin);
    assert_eq!(
        web.get(&format!("/t/{copy}/standings.csv")).body,
        source
            .client_as(&admin)
            .get(&format!("/t/{tid}/standings.csv"))
            .body
    );
    // Nobody is a referee of it until the admin assigns one.
    assert!(kraal::db::tournaments::referees(&mut target.conn(), copy)
        .unwrap()
        .is_empty());
}

/// A file written before audit entries carried their ids as values (event
/// format version 1) said a round in its entries' text and a swap's players
/// as "players 12 and 40": read once into the values, renumbered with the
/// players, and the copy's trail filters and names them.
#[test]
fn a_version_1_file_keeps_its_trail_by_round_and_player() {
    let source = TestApp::start("sqlite");
    let admin = source.user("thandi", Role::Admin);
    let referee = source.user("nomsa", Role::Referee);
    let tid = club_swiss(&source, &admin, &referee, "gar");
    let mut v: Value = serde_json::from_str(&export_event(&source, tid)).unwrap();
    v["version"] = 1.into();
    let (a, b) = (v["players"][0]["id"].clone(), v["players"][1]["id"].clone());
    let round_two = v["rounds"][1]["id"].clone();
    let entries = v["audit"].as_array_mut().unwrap();
    for e in entries.iter_mut() {
        e.as_object_mut().unwrap().remove("detail");
        if e["action"] == "pair" {
            let said = e["new_value"].as_str().unwrap().to_string();
            let n = if e["entity_id"] == round_two { 2 } else { 1 };
            e["new_value"] = format!("round {n}: {said}").into();
        }
    }
    let mut swap = entries[0].clone();
    swap["id"] = 999_999.into();
    swap["action"] = "swap".into();
    swap["entity"] = "round".into();
    swap["entity_id"] = round_two.clone();
    swap["old_value"] = format!("players {a} and {b}").into();
    swap["new_value"] = "swapped; no rule broken".into();
    entries.push(swap);

    let target = TestApp::start("sqlite");
    target.user("thandi", Role::Admin);
    target.user("nomsa", Role::Referee);
    // The target's own event moves every id.
    let t_admin = target.user("lindiwe", Role::Admin);
    let t_referee = target.user("sipho", Role::Referee);
    club_swiss(&target, &t_admin, &t_referee, "official");
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "event.json", &serde_json::to_string(&v).unwrap());
    let (code, out, err) = import_event(&target, &path);
    assert_eq!(code, 0, "{err}");
    let copy = imported_id(&out);
    let trail = kraal::db::audit::of_tournament(&mut target.conn(), copy).unwrap();
    let pairs: Vec<Option<kraal::ids::RoundNo>> = trail
        .iter()
        .filter(|e| e.action == kraal::change::Action::Pair)
        .map(|e| e.detail.round)
        .collect();
    assert!(
        pairs.contains(&Some(kraal::ids::RoundNo(1)))
            && pairs.contains(&Some(kraal::ids::RoundNo(2))),
        "{pairs:?}"
    );
    let swapped = trail
        .iter()
        .find(|e| e.action == kraal::change::Action::Swap)
        .unwrap();
    let players = kraal::db::players::list(&mut target.conn(), copy).unwrap();
    let name = |old: &Value| {
        let i = v["players"]
            .as_array()
            .unwrap()
            .iter()
            .position(|p| p["id"] == *old)
            .unwrap();
        players[i].clone()
    };
    let (pa, pb) = (name(&a), name(&b));
    assert_eq!(swapped.detail.players, vec![pa.id, pb.id], "renumbered");
    assert_eq!(swapped.detail.round, Some(kraal::ids::RoundNo(2)));
    // The copy's trail, filtered by round 2, shows the swap by name.
    let page = target
        .client_as(&t_admin)
        .get(&format!("/t/{copy}/audit?round=2"))
        .body;
    assert!(
        page.contains(&format!("{} and {}", pa.name, pb.name)),
        "{page}"
    );
}

#[test]
fn a_bad_event_file_is_refused_by_name_and_nothing_is_stored() {
    let source = TestApp::start("sqlite");
    let admin = source.user("thandi", Role::Admin);
    let referee = source.user("nomsa", Role::Referee);
    let tid = club_swiss(&source, &admin, &referee, "official");
    let file = export_event(&source, tid);
    let good: Value = serde_json::from_str(&file).unwrap();
    let target = TestApp::start("sqlite");
    let dir = tempfile::tempdir().unwrap();
    let mutate = |f: &dyn Fn(&mut Value)| {
        let mut v = good.clone();
        f(&mut v);
        serde_json::to_string_pretty(&v).unwrap()
    };
    let first_round = good["rounds"][0]["id"].clone();
    let left_out = format!("names round {first_round}, which is not in the file");
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "not json",
            "{\n  \"format\": \"kraal event\",\n  oops\n}".into(),
            "line 3",
        ),
        (
            "a player list",
            "name,club\nThabo Nkosi,Kimberley MC\n".into(),
            "not JSON",
        ),
        (
            "another format",
            mutate(&|v| v["format"] = "kraal pairing".into()),
            "not a 'kraal event'",
        ),
        (
            "a newer version",
            mutate(&|v| v["version"] = (kraal::db::event::VERSION + 1).into()),
            "reads version 6",
        ),
        (
            "a result no one knows",
            mutate(&|v| v["games"][3]["result"] = "won on time".into()),
            "games[3].result",
        ),
        (
            "a round left out",
            mutate(&|v| {
                let rounds = v["rounds"].as_array_mut().unwrap();
                rounds.remove(0);
            }),
            &left_out,
        ),
        (
            "a NUL in a name",
            mutate(&|v| v["players"][2]["name"] = "Sipho\u{0}Mokoena".into()),
            "players[2].name holds a NUL",
        ),
        (
            "an unknown field",
            mutate(&|v| v["players"][0]["nickname"] = "Tee".into()),
            "unknown field `nickname`",
        ),
    ];
    for (what, text, says) in &cases {
        let path = write(&dir, "event.json", text);
        let (code, _, err) = import_event(&target, &path);
        assert_ne!(code, 0, "{what} is refused");
        assert!(err.contains(says), "{what}: {err:?} should say {says:?}");
        assert!(!err.contains("panicked"), "{what}: {err}");
        assert!(
            kraal::db::tournaments::list(&mut target.conn())
                .unwrap()
                .is_empty(),
            "{what}: nothing stored"
        );
    }
}

/// The rank → name table of a TRF's `001` lines.
fn trf_names(trf: &str) -> std::collections::HashMap<String, String> {
    trf.lines()
        .filter(|l| l.starts_with("001"))
        .map(|l| {
            (
                l[4..8].trim().to_string(),
                String::from_utf8_lossy(&l.as_bytes()[14..47])
                    .trim()
                    .to_string(),
            )
        })
        .collect()
}

#[test]
fn the_trf_export_pairs_in_kraal_pair_as_the_app_does_under_each_rule_set() {
    for app in TestApp::all() {
        for rules in ["official", "gar"] {
            let admin = app.user(&format!("thandi-{rules}"), Role::Admin);
            let referee = app.user(&format!("nomsa-{rules}"), Role::Referee);
            let tid = club_swiss(&app, &admin, &referee, rules);
            let mut web = app.client_as(&referee);
            let page = web.get(&format!("/t/{tid}"));
            assert!(page.body.contains(&format!("/t/{tid}/export.trf")));
            let trf = web.get(&format!("/t/{tid}/export.trf"));
            assert_eq!(trf.status, 200, "{}", trf.body);
            let (code, cli, err) = kraal(&["export", "trf", &tid.to_string()])
                .database_url(&app.database_url)
                .run();
            assert_eq!(code, 0, "{err}");
            assert_eq!(cli, trf.body, "the CLI writes the page's bytes");
            assert!(trf.body.contains(&format!("KRS {rules}")), "{}", trf.body);
            assert!(trf.body.contains("XXR 6"));
            assert!(trf.body.contains("KWV"), "the waived ban travels");
            assert!(trf.body.contains("KRL"), "the relatives travel");

            let dir = tempfile::tempdir().unwrap();
            let path = write(&dir, "event.trf", &trf.body);
            let (code, out, err) = kraal(&["pair", &path]).run();
            assert_eq!(code, 0, "{err}\n{}", trf.body);
            let names = trf_names(&trf.body);
            let mut from_trf: Vec<(String, String)> = out
                .lines()
                .skip(1)
                .filter_map(|l| {
                    let (a, b) = l.split_once(' ')?;
                    let a = names.get(a)?.clone();
                    let b = names.get(b).cloned().unwrap_or_default(); // "0": the bye
                    Some((a.clone().min(b.clone()), a.max(b)))
                })
                .collect();
            from_trf.sort();
            let from_app = next_round(&mut app.script_for(&referee), tid);
            // The app lists the bye as a pairing with an empty second.
            assert_eq!(
                from_trf, from_app,
                "{rules} on {}:\n{}",
                app.backend, trf.body
            );
        }
    }
}

#[test]
fn a_team_event_has_no_trf_but_moves_whole() {
    for app in TestApp::all() {
        let admin = app.user("thandi", Role::Admin);
        let (t, _) = common::four_team_league(&app, &admin);
        let mut api = app.script_for(&admin);
        let pairings = common::pair(&mut api, i64::from(t.id));
        for (k, p) in pairings.iter().enumerate() {
            for (j, g) in p["games"].as_array().unwrap().iter().enumerate() {
                common::put(&mut api, g, ["1-0", "0-1", "1/2-1/2"][(k + j) % 3]);
            }
        }
        let mut web = app.client_as(&admin);
        let trf = web.get(&format!("/t/{}/export.trf", t.id));
        assert_eq!(trf.status, 422, "{}", trf.body);
        assert!(trf.body.contains("team event has no TRF"), "{}", trf.body);
        // The refusal is a page for the signed-in referee, in plain words.
        assert!(
            common::has_attr(&trf.body, "action", "/logout")
                && !trf.body.contains(r#"href="/login""#)
        );
        assert!(!trf.body.contains("Unprocessable"), "{}", trf.body);

        let file = export_event(&app, t.id);
        let dir = tempfile::tempdir().unwrap();
        let path = write(&dir, "league.json", &file);
        let (code, out, err) = import_event(&app, &path);
        assert_eq!(code, 0, "{err}");
        let copy: TournamentId = imported_id(&out);
        for page in ["standings.csv", "rounds/1/matches.csv"] {
            assert_eq!(
                web.get(&format!("/t/{}/{page}", t.id)).body,
                web.get(&format!("/t/{copy}/{page}")).body,
                "{page}"
            );
        }
        let teams = kraal::db::teams::list(&mut app.conn(), copy).unwrap();
        assert_eq!(teams.len(), 4);
        assert!(
            teams.iter().all(|t| t.captain_digest.is_none()),
            "captains' links are not carried: the referee makes new ones"
        );
    }
}

/// The file carries the players' people by federation id: the import links
/// them to the target's registry or adds them there, saying which, and the
/// games count in the target's ratings; a round keeps its day.
#[test]
fn the_players_people_travel_by_federation_id_and_rate_at_the_target() {
    for source in TestApp::all() {
        let referee = source.user("dumisani", Role::Referee);
        let mut api = source.script_for(&referee);
        let mut people = Vec::new();
        for (name, fid) in [("Ntombi Shabalala", "MP-1"), ("Jabulani Nkosi", "MP-2")] {
            people.push(
                api.create(
                    "/api/v1/people",
                    json!({"name": name, "federation_id": fid, "club": fid}),
                )["id"]
                    .as_i64()
                    .unwrap(),
            );
        }
        let tid = api.create(
            "/api/v1/tournaments",
            json!({"name": "Nelspruit Open", "system": "round_robin", "rules": "official"}),
        )["id"]
            .as_i64()
            .unwrap();
        for p in &people {
            api.create(
                &format!("/api/v1/tournaments/{tid}/players"),
                json!({"person": p}),
            );
        }
        let r = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/rounds"),
            json!({"date": "2026-07-18"}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        let pairing = &r.json()["pairings"][0];
        common::put(&mut api, &pairing["games"][0], "1-0");
        common::put(&mut api, &pairing["games"][1], "0-1");
        let file = export_event(&source, TournamentId(tid as i32));

        // The target knows Jabulani already (typed there by hand).
        let target = TestApp::start(source.backend);
        let chief = target.user("lwandle", Role::Admin);
        let mut there = target.script_for(&chief);
        let known = there.create(
            "/api/v1/people",
            json!({"name": "Jabulani Nkosi", "federation_id": "MP-2", "club": "Mbombela"}),
        )["id"]
            .as_i64()
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = write(&dir, "event.json", &file);
        let (code, out, err) = import_event(&target, &path);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("linked to the registry by federation id: Jabulani Nkosi (MP-2)"),
            "{out}"
        );
        assert!(
            out.contains("added to the registry: Ntombi Shabalala (MP-1)"),
            "{out}"
        );
        let copy = imported_id(&out);
        let r1 = there
            .get(&format!("/api/v1/tournaments/{copy}/rounds/1"))
            .json();
        assert_eq!(r1["date"], "2026-07-18");
        let page = target.client().get(&format!("/people/{known}")).body;
        assert!(page.contains("Nelspruit Open"), "{page}");
        let july = target.client().get("/api/v1/ratings?period=2026-07").json();
        let rated: Vec<&Value> = july["ratings"].as_array().unwrap().iter().collect();
        assert_eq!(rated.len(), 2, "{july}");
        assert!(rated.iter().all(|r| r["games"] == 2), "{july}");
    }
}

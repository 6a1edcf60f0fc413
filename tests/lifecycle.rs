//! A tournament's lifecycle on both backends: its dates and its rounds'
//! dates checked wherever they come in, a round stored outside its bounds
//! kept out of the ratings and from leaving the server until corrected, a
//! person's rating line bounded by their games, archived and not-rated
//! events, and an admin's deletion.

#![allow(clippy::unwrap_used)]

mod common;

use chrono::{Days, Months, NaiveDate, Utc};
use common::{Client, TestApp};
use diesel::prelude::*;
use kraal::db::users::Role;
use serde_json::{json, Value};

fn today() -> NaiveDate {
    Utc::now().date_naive()
}

fn person(api: &mut Client, name: &str, club: &str) -> i64 {
    api.create("/api/v1/people", json!({"name": name, "club": club}))["id"]
        .as_i64()
        .unwrap()
}

/// Four people of the Free State registry, one club each.
fn free_state(api: &mut Client) -> Vec<i64> {
    [
        ("Palesa Nkosi", "Bloemfontein MC"),
        ("Bokang Sello", "Welkom MC"),
        ("Chaba Letsie", "Kroonstad MC"),
        ("Dineo Moloi", "Bethlehem MC"),
    ]
    .iter()
    .map(|(n, c)| person(api, n, c))
    .collect()
}

/// The first player beats the second, everyone else draws.
fn first_wins(i: usize, j: usize) -> Option<bool> {
    (i == 0 || j == 0).then_some(i == 0)
}

/// Sets a stored round's day behind the application's back, as a round
/// stored before the date rules may have it.
fn store_round_day(app: &TestApp, tid: i64, number: i32, day: &str) {
    use kraal::db::schema::rounds;
    let day: NaiveDate = day.parse().unwrap();
    diesel::update(
        rounds::table
            .filter(rounds::tournament_id.eq(tid as i32))
            .filter(rounds::number.eq(number)),
    )
    .set(rounds::played_on.eq(day))
    .execute(&mut app.conn())
    .unwrap();
}

/// The games a person played in `period`, as the person's line says (0
/// when the month is not in it).
fn games_in(line: &Value, period: &str) -> i64 {
    line["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["period"] == period)
        .map_or(0, |m| m["games"].as_i64().unwrap())
}

#[test]
fn dates_are_checked_wherever_they_come_in_and_a_new_round_defaults_within_the_event() {
    for app in TestApp::all() {
        let thandi = app.user("thandi", Role::Referee);
        let mut api = app.script_for(&thandi);
        let two_years = today().checked_add_months(Months::new(24)).unwrap();

        // The tournament's dates: 2000-01-01 to two years from today.
        for (body, field) in [
            (
                json!({"name": "Hastings Open", "rounds": 5, "starts_on": "1066-10-14"}),
                "starts_on",
            ),
            (
                json!({"name": "Far Future Open", "rounds": 5,
                       "ends_on": (two_years + Days::new(1)).to_string()}),
                "ends_on",
            ),
            (
                json!({"name": "Backwards Open", "rounds": 5,
                       "starts_on": "2026-12-05", "ends_on": "2026-12-04"}),
                "ends_on",
            ),
        ] {
            let r = api.send_json("POST", "/api/v1/tournaments", body);
            assert_eq!(r.status, 422, "{}", r.body);
            assert_eq!(r.json()["field"], field, "{}", r.body);
        }
        let r = api.send_json(
            "POST",
            "/api/v1/tournaments",
            json!({"name": "Hastings Open", "rounds": 5, "starts_on": "1066-10-14"}),
        );
        assert_eq!(r.json()["code"], "date_outside", "{}", r.body);
        assert_eq!(r.json()["params"]["date"], "1066-10-14", "{}", r.body);
        assert_eq!(r.json()["params"]["first"], "2000-01-01", "{}", r.body);
        let page = app.client_as(&thandi).post(
            "/t",
            &[
                ("name", "Hastings Open"),
                ("rounds", "5"),
                ("starts_on", "1066-10-14"),
            ],
        );
        assert_eq!(page.status, 422, "the form refuses it too");

        // An event a month away: round 1 defaults to its first day.
        let first = today() + Days::new(30);
        let last = first + Days::new(1);
        let (tid, _) = common::api_tournament(
            &mut api,
            json!({"name": "Bloemfontein Winter Open", "venue": "Bloemfontein City Hall",
                   "rules": "official", "rounds": 3,
                   "starts_on": first.to_string(), "ends_on": last.to_string()}),
            &[
                json!({"name": "Palesa Nkosi", "club": "Bloemfontein MC"}),
                json!({"name": "Bokang Sello", "club": "Welkom MC"}),
                json!({"name": "Chaba Letsie", "club": "Kroonstad MC"}),
                json!({"name": "Dineo Moloi", "club": "Bethlehem MC"}),
            ],
        );
        let rounds = format!("/api/v1/tournaments/{tid}/rounds");
        let outside = api.send_json("POST", &rounds, json!({"date": "1066-10-14"}));
        assert_eq!(outside.status, 422, "{}", outside.body);
        assert_eq!(outside.json()["field"], "date");
        assert_eq!(outside.json()["code"], "date_outside", "{}", outside.body);
        let params = &outside.json()["params"];
        assert_eq!(params["date"], "1066-10-14", "{params}");
        assert_eq!(params["first"], first.to_string(), "{params}");
        assert_eq!(params["last"], last.to_string(), "{params}");
        let r = api.send_json("POST", &rounds, json!({}));
        assert_eq!(r.status, 201, "{}", r.body);
        assert_eq!(r.json()["date"], first.to_string());

        // Moving it: within the event's days only.
        let round1 = format!("/api/v1/tournaments/{tid}/rounds/1");
        let r = api.send_json("PATCH", &round1, json!({"date": today().to_string()}));
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(r.json()["field"], "date");
        let r = app.client_as(&thandi).post(
            &format!("/t/{tid}/rounds/1/date"),
            &[("date", "1066-10-14")],
        );
        assert_eq!(r.status, 422, "the round page refuses it too");
        let r = api.send_json("PATCH", &round1, json!({"date": last.to_string()}));
        assert_eq!(r.status, 200, "{}", r.body);

        // Round 2 defaults to the previous round's day.
        for p in r.json()["pairings"].as_array().unwrap() {
            for g in p["games"].as_array().unwrap() {
                common::put(&mut api, g, "1-0");
            }
        }
        let r = api.send_json("POST", &rounds, json!({}));
        assert_eq!(r.status, 201, "{}", r.body);
        assert_eq!(r.json()["date"], last.to_string());

        // An event with no dates: its history may go back to 2000, and a
        // new round is played today.
        let (open, _) = common::api_tournament(
            &mut api,
            json!({"name": "Free State Club Night", "rules": "official", "rounds": 3}),
            &[
                json!({"name": "Palesa Nkosi", "club": "Bloemfontein MC"}),
                json!({"name": "Bokang Sello", "club": "Welkom MC"}),
            ],
        );
        let r = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{open}/rounds"),
            json!({}),
        );
        assert_eq!(r.json()["date"], today().to_string(), "{}", r.body);
        let round1 = format!("/api/v1/tournaments/{open}/rounds/1");
        let r = api.send_json("PATCH", &round1, json!({"date": "2003-05-17"}));
        assert_eq!(r.status, 200, "{}", r.body);
        let r = api.send_json("PATCH", &round1, json!({"date": "1066-10-14"}));
        assert_eq!(r.status, 422, "{}", r.body);
        let a_year = today().checked_add_months(Months::new(12)).unwrap();
        let r = api.send_json(
            "PATCH",
            &round1,
            json!({"date": (a_year + Days::new(1)).to_string()}),
        );
        assert_eq!(r.status, 422, "{}", r.body);

        // The tournament's own dates through PATCH, and an edit of another
        // field leaving them as they are.
        let t = format!("/api/v1/tournaments/{open}");
        let r = api.send_json("PATCH", &t, json!({"starts_on": "1066-10-14"}));
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(r.json()["field"], "starts_on");
        let r = api.send_json("PATCH", &t, json!({"venue": "Bloemfontein City Hall"}));
        assert_eq!(r.status, 200, "{}", r.body);

        // New dates that would leave a round outside them are refused,
        // naming the round.
        let r = api.send_json(
            "PATCH",
            &format!("/api/v1/tournaments/{tid}"),
            json!({"ends_on": first.to_string()}),
        );
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(r.json()["field"], "ends_on");
        assert!(r.body.contains(&last.to_string()), "{}", r.body);
    }
}

#[test]
fn a_round_dated_outside_its_bounds_leaves_the_ratings_and_keeps_its_event_home_until_corrected() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let thandi = app.user("thandi", Role::Referee);
        let mut api = app.script_for(&thandi);
        let people = free_state(&mut api);
        let tid = common::people_round_robin(
            &mut api,
            "Free State Open",
            &people,
            "2026-06-13",
            first_wins,
        );
        let before = app
            .client()
            .get(&format!("/api/v1/people/{}", people[0]))
            .json();
        assert_eq!(games_in(&before, "2026-06"), 3, "{before}");

        // A round stored before the rules, dated in the 11th century.
        store_round_day(&app, tid, 2, "1066-10-14");
        // Something recorded since: the ratings are computed again.
        let r = api.send_json(
            "PATCH",
            &format!("/api/v1/tournaments/{tid}"),
            json!({"venue": "Bloemfontein City Hall"}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let refused =
            kraal::db::event::export(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap_err();
        match refused {
            kraal::db::DbError::Refused(kraal::refusal::Refusal::Invalid(e)) => {
                assert_eq!(e.field, "rounds");
                match e.problem {
                    kraal::field::Problem::RoundDateOutside { round, date, .. } => {
                        assert_eq!(round, 2);
                        assert_eq!(date.to_string(), "1066-10-14");
                    }
                    other => panic!("{other:?}"),
                }
            }
            other => panic!("{other:?}"),
        }
        let mut page = app.client_as(&thandi);
        let download = page.get(&format!("/t/{tid}/event.json"));
        assert_eq!(download.status, 422, "{}", download.body);
        assert!(download.body.contains("1066-10-14"));
        // The event keeps working: its round page (which says what is
        // wrong) and its standings.
        let round = page.get(&format!("/t/{tid}/rounds/2"));
        assert_eq!(round.status, 200);
        let allowed = format!(
            "2000-01-01..{}",
            today().checked_add_months(Months::new(12)).unwrap()
        );
        assert!(
            common::has_attr(&round.body, "data-date-outside", &allowed),
            "{}",
            round.body
        );
        // A publication to a federation's server fails, saying why.
        let r = page.post(
            &format!("/t/{tid}/publication"),
            &[
                ("to", "https://federation.example"),
                ("token", "issued-there"),
            ],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let venue = common::Served::start(&app.database_url, |_| {});
        let started = std::time::Instant::now();
        let failing = loop {
            let p = page.get(&format!("/t/{tid}")).body;
            if p.contains("data-publication-state=\"failing\"") || started.elapsed().as_secs() > 15
            {
                break p;
            }
            std::thread::sleep(std::time::Duration::from_millis(200));
        };
        drop(venue);
        assert!(
            failing.contains("data-publication-state=\"failing\""),
            "{failing}"
        );
        // English until the banner carries the refusal's code (the target's
        // failure is stored as a sentence)
        assert!(failing.contains("round 2 is dated 1066-10-14"), "{failing}");
        let r = page.post(&format!("/t/{tid}/publication/stop"), &[]);
        assert_eq!(r.status, 303, "{}", r.body);
        assert_eq!(app.client().get(&format!("/t/{tid}/standings")).status, 200);
        // The ratings leave its games out: no month before 2000, and one
        // game fewer in June.
        let line = app
            .client()
            .get(&format!("/api/v1/people/{}", people[0]))
            .json();
        assert_eq!(games_in(&line, "2026-06"), 2, "{line}");
        assert!(line["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["period"].as_str().unwrap() >= "2000-01"));
        // Listed for the data-health page.
        let listed =
            kraal::db::tournaments::rounds_out_of_bounds(&mut app.conn(), today()).unwrap();
        assert_eq!(listed.len(), 1, "{listed:?}");
        assert_eq!((listed[0].tournament_id, listed[0].round), (tid as i32, 2));

        // The referee corrects it on the round page: everything is back.
        let r = page.post(
            &format!("/t/{tid}/rounds/2/date"),
            &[("date", "2026-06-13")],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        assert!(
            kraal::db::tournaments::rounds_out_of_bounds(&mut app.conn(), today())
                .unwrap()
                .is_empty()
        );
        assert_eq!(page.get(&format!("/t/{tid}/event.json")).status, 200);
        let line = app
            .client()
            .get(&format!("/api/v1/people/{}", people[0]))
            .json();
        assert_eq!(games_in(&line, "2026-06"), 3, "{line}");

        // An event file with such a round is refused on its way in.
        let mut file = serde_json::to_value(
            kraal::db::event::export(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap(),
        )
        .unwrap();
        file["rounds"][0]["played_on"] = json!("1066-10-14");
        let mut chief = app.script_for(&admin);
        let r = chief.send_json(
            "PUT",
            "/api/v1/published/free-state-open-1066",
            json!({"revision": 1, "server": "Bloemfontein venue", "event": file}),
        );
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(r.body.contains("1066-10-14"), "{}", r.body);
    }
}

#[test]
fn a_persons_line_grows_with_their_games_not_with_the_calendar() {
    for app in TestApp::all() {
        let thandi = app.user("thandi", Role::Referee);
        let mut api = app.script_for(&thandi);
        let people = free_state(&mut api);
        // A federation enters its history: an event of May 2003.
        common::people_round_robin(
            &mut api,
            "Free State Championship 2003",
            &people,
            "2003-05-17",
            first_wins,
        );
        let line = app
            .client()
            .get(&format!("/api/v1/people/{}", people[0]))
            .json();
        let months = line["ratings"].as_array().unwrap();
        // May 2003, with its three games, and the current month: not the
        // 280-odd idle months between.
        assert_eq!(months.len(), 2, "{line}");
        assert_eq!(months[0]["period"], "2003-05");
        assert_eq!(months[0]["games"], 3);
        let now = today().format("%Y-%m").to_string();
        assert_eq!(months[1]["period"], now);
        let page = app.client().get(&format!("/people/{}", people[0]));
        assert_eq!(page.status, 200);
        assert_eq!(page.body.matches("/ratings?period=").count(), 2);
    }
}

#[test]
fn an_archived_tournament_leaves_every_public_view_but_its_referees_and_admins_keep_it() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let thandi = app.user("thandi", Role::Referee);
        let sipho = app.user("sipho", Role::Referee);
        let mut api = app.script_for(&thandi);
        let people = free_state(&mut api);
        let tid = common::people_round_robin(
            &mut api,
            "Welkom Autumn Open",
            &people,
            "2026-06-13",
            first_wins,
        );
        let ratings = app.client().get("/api/v1/ratings").body;
        let season = api.create(
            "/api/v1/seasons",
            json!({"name": "Welkom Season 2026", "events": [{"tournament": tid}]}),
        )["id"]
            .as_i64()
            .unwrap();
        let season_table = format!("/api/v1/seasons/{season}/standings");
        let table = app.client().get(&season_table).body;
        let standings = format!("/t/{tid}/standings");
        let mut public = app.client();
        for _ in 0..2 {
            // Built once, then served from the cache.
            assert_eq!(public.get(&standings).status, 200);
        }
        // Before it is archived, the person's page lists it.
        let person = app.client().get(&format!("/people/{}", people[0])).body;
        assert!(person.contains("Welkom Autumn Open"), "{person}");

        let r = api.send_json(
            "PATCH",
            &format!("/api/v1/tournaments/{tid}"),
            json!({"archived": true}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["archived"], true);

        let listed = |c: &mut Client| -> Vec<i64> {
            c.get("/api/v1/tournaments").json()["tournaments"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["id"].as_i64().unwrap())
                .collect()
        };
        let marker = format!("data-tournament=\"{tid}\"");
        for mut c in [app.client(), app.client_as(&sipho), app.script_for(&sipho)] {
            for path in [
                standings.clone(),
                format!("/t/{tid}"),
                format!("/t/{tid}/rounds/1"),
                format!("/api/v1/tournaments/{tid}"),
                format!("/api/v1/tournaments/{tid}/standings"),
            ] {
                assert_eq!(c.get(&path).status, 404, "{path}");
            }
            assert!(!listed(&mut c).contains(&tid));
            assert!(!c.get("/").body.contains(&marker));
        }
        let mut stream = common::event_stream(&app, tid);
        assert!(common::read_event_until(
            &mut stream,
            "HTTP/1.1 404 Not Found",
            std::time::Duration::from_secs(3)
        ));

        // Nor does a person's page list it.
        let person = app.client().get(&format!("/people/{}", people[0])).body;
        assert!(!person.contains("Welkom Autumn Open"), "{person}");

        // Its referees and the admins still see it, marked.
        for mut c in [app.client_as(&thandi), app.client_as(&admin)] {
            let page = c.get(&format!("/t/{tid}"));
            assert_eq!(page.status, 200);
            assert!(common::has_attr(&page.body, "data-archived", "yes"));
            assert!(c.get("/").body.contains(&marker));
            assert_eq!(c.get(&standings).status, 200);
        }
        for mut c in [app.script_for(&thandi), app.script_for(&admin)] {
            let all = c.get("/api/v1/tournaments").json();
            let t = all["tournaments"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["id"] == tid)
                .cloned()
                .unwrap();
            assert_eq!(t["archived"], true);
        }
        // Archiving changes no rating and no season.
        assert_eq!(app.client().get("/api/v1/ratings").body, ratings);
        assert_eq!(app.client().get(&season_table).body, table);

        // Returned to public view from the page.
        let r = app
            .client_as(&thandi)
            .post(&format!("/t/{tid}/archive"), &[("archived", "no")]);
        assert_eq!(r.status, 303, "{}", r.body);
        assert_eq!(public.get(&standings).status, 200);
        assert!(listed(&mut app.client()).contains(&tid));
    }
}

#[test]
fn a_tournament_not_rated_leaves_the_ratings_and_counts_in_no_season() {
    for app in TestApp::all() {
        let thandi = app.user("thandi", Role::Referee);
        let mut api = app.script_for(&thandi);
        let people = free_state(&mut api);
        let open = common::people_round_robin(
            &mut api,
            "Kroonstad Open",
            &people,
            "2026-06-13",
            first_wins,
        );
        let friendly = common::people_round_robin(
            &mut api,
            "Kroonstad Club Friendly",
            &people,
            "2026-07-11",
            first_wins,
        );
        let line = app
            .client()
            .get(&format!("/api/v1/people/{}", people[0]))
            .json();
        assert_eq!(games_in(&line, "2026-07"), 3, "{line}");

        let r = api.send_json(
            "PATCH",
            &format!("/api/v1/tournaments/{friendly}"),
            json!({"rated": false}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let t = app
            .client()
            .get(&format!("/api/v1/tournaments/{friendly}"))
            .json();
        assert_eq!(t["rated"], false);
        assert_eq!(t["archived"], false);
        assert_eq!(t["name"], "Kroonstad Club Friendly");
        assert_eq!(t["system"], "round_robin");
        let page = app.client().get(&format!("/t/{friendly}"));
        assert!(common::has_attr(&page.body, "data-rated", "no"));
        // What GET answers, sent back changed, is a PATCH.
        let mut back = t.clone();
        back["venue"] = json!("Kroonstad Civic Centre");
        let r = api.send_json("PATCH", &format!("/api/v1/tournaments/{friendly}"), back);
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["venue"], "Kroonstad Civic Centre");
        assert_eq!(r.json()["rated"], false);

        let line = app
            .client()
            .get(&format!("/api/v1/people/{}", people[0]))
            .json();
        assert_eq!(games_in(&line, "2026-07"), 0, "{line}");
        // The person's page says which games were rated.
        let page = app.client().get(&format!("/people/{}", people[0])).body;
        let friendly_rows = page
            .split("<tr>")
            .filter(|row| row.contains("Kroonstad Club Friendly, round"))
            .collect::<Vec<_>>();
        // Three games played on the board and three double forfeits.
        assert_eq!(friendly_rows.len(), 6, "{page}");
        assert!(friendly_rows
            .iter()
            .all(|row| row.contains("<td class=\"minor\">no</td>")));
        let open_rated = page
            .split("<tr>")
            .filter(|row| row.contains("Kroonstad Open, round"))
            .filter(|row| row.contains("<td class=\"minor\">yes</td>"))
            .count();
        assert_eq!(open_rated, 3, "{page}");
        assert_eq!(games_in(&line, "2026-06"), 3, "{line}");

        let season = api.create(
            "/api/v1/seasons",
            json!({"name": "Kroonstad Season 2026",
                   "events": [{"tournament": open}, {"tournament": friendly}]}),
        );
        let table = app
            .client()
            .get(&format!("/api/v1/seasons/{}/standings", season["id"]))
            .json();
        assert_eq!(table["not_counted"], json!([friendly]));
        let first = &table["standings"][0];
        assert_eq!(first["person"], people[0]);
        assert_eq!(first["points"], 25.0, "{table}");
        let page = app.client().get(&format!("/seasons/{}", season["id"]));
        assert!(common::has_attr(
            &page.body,
            "data-not-counted",
            &friendly.to_string()
        ));

        // A new tournament can be made not rated from the start.
        let t = api.create(
            "/api/v1/tournaments",
            json!({"name": "Test Event", "rounds": 3, "rated": false}),
        );
        assert_eq!(t["rated"], false);
    }
}

#[test]
fn an_admin_deletes_a_tournament_without_published_rounds_or_a_published_copy() {
    use kraal::db::schema::audit_entries;
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let thandi = app.user("thandi", Role::Referee);
        let mut api = app.script_for(&thandi);
        let mut chief = app.script_for(&admin);
        let people = free_state(&mut api);
        let played = common::people_round_robin(
            &mut api,
            "Bethlehem Open",
            &people,
            "2026-06-13",
            first_wins,
        );
        let r = api.send_json(
            "DELETE",
            &format!("/api/v1/tournaments/{played}"),
            json!({}),
        );
        assert_eq!(r.status, 403, "a referee does not delete");
        let r = chief.send_json(
            "DELETE",
            &format!("/api/v1/tournaments/{played}"),
            json!({}),
        );
        assert_eq!(r.status, 409, "published rounds: {}", r.body);

        // An event set up by mistake: asked, named, then gone.
        let (mistake, _) = common::api_tournament(
            &mut api,
            json!({"name": "Bethlehem Open (duplicate)", "rounds": 5}),
            &[json!({"name": "Palesa Nkosi", "club": "Bloemfontein MC"})],
        );
        let mut boss = app.client_as(&admin);
        let asked = boss.post(&format!("/t/{mistake}/delete"), &[]);
        assert_eq!(asked.status, 200);
        assert!(common::has_attr(
            &asked.body,
            "action",
            &format!("/t/{mistake}/delete")
        ));
        assert!(
            asked.body.contains("Bethlehem Open (duplicate)"),
            "the question names it"
        );
        assert_eq!(
            app.client()
                .get(&format!("/api/v1/tournaments/{mistake}"))
                .status,
            200,
            "asking deletes nothing"
        );
        let r = boss.post(&format!("/t/{mistake}/delete"), &[("confirm", "yes")]);
        assert_eq!(r.status, 303, "{}", r.body);
        assert_eq!(
            app.client()
                .get(&format!("/api/v1/tournaments/{mistake}"))
                .status,
            404
        );
        /// The entry's tournament, entity, entity id and old value.
        type Entry = (Option<i32>, String, Option<i32>, Option<String>);
        let recorded: Vec<Entry> = audit_entries::table
            .filter(audit_entries::action.eq("delete"))
            .select((
                audit_entries::tournament_id,
                audit_entries::entity,
                audit_entries::entity_id,
                audit_entries::old_value,
            ))
            .load(&mut app.conn())
            .unwrap();
        assert_eq!(
            recorded,
            vec![(
                None,
                "tournament".to_string(),
                Some(mistake as i32),
                Some("Bethlehem Open (duplicate)".to_string())
            )]
        );

        // A published copy goes, and the venue's next publication makes a
        // new one.
        let file =
            kraal::db::event::export(&mut app.conn(), kraal::ids::TournamentId(played as i32))
                .unwrap();
        let publish = |c: &mut Client| {
            let r = c.send_json(
                "PUT",
                "/api/v1/published/bethlehem-open-venue",
                json!({"revision": 1, "server": "Bethlehem venue", "event": &file}),
            );
            assert_eq!(r.status, 200, "{}", r.body);
            r.json()["tournament"].as_i64().unwrap()
        };
        let copy = publish(&mut chief);
        let r = chief.send_json("DELETE", &format!("/api/v1/tournaments/{copy}"), json!({}));
        assert_eq!(r.status, 204, "{}", r.body);
        let again = publish(&mut chief);
        assert_ne!(again, copy);
        assert_eq!(
            app.client()
                .get(&format!("/api/v1/tournaments/{again}"))
                .status,
            200
        );
    }
}

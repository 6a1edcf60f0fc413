//! The results desk at a busy venue: two referees share one round's tables
//! and nothing either of them enters is lost or silently overwritten.

#![allow(clippy::unwrap_used)]

mod common;

use common::{attr_values, form_fields, set_field, Client, TestApp};
use kraal::db::rounds::Game;
use kraal::db::users::{Role, User};
use kraal::ids::TournamentId;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

const RESULTS_FORM: &str = "class=\"results\"";

/// A published first round of an official-rules event (two games a
/// pairing) with `players` players, refereed by two referees.
fn event(app: &TestApp, name: &str, players: usize) -> (TournamentId, User, User) {
    let admin = app.user(&format!("admin-{name}"), Role::Admin);
    let a = app.user(&format!("thandi-{name}"), Role::Referee);
    let b = app.user(&format!("sipho-{name}"), Role::Referee);
    let fields = kraal::tournament::RawTournament {
        name: name.into(),
        rules: "official".into(),
        rounds: "5".into(),
        ..Default::default()
    }
    .check()
    .unwrap();
    let t = kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
        kraal::db::tournaments::create(w, &fields, &admin)
    })
    .unwrap();
    for r in [&a, &b] {
        kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
            kraal::db::tournaments::assign_referee(w, t.id, r)
        })
        .unwrap();
    }
    let names = [
        "Kagiso Molefe",
        "Refilwe Dube",
        "Tumelo Sithole",
        "Palesa Nkosi",
        "Lindiwe Zulu",
        "Bongani Khumalo",
        "Nandi Mthembu",
        "Sifiso Ngcobo",
    ];
    for (i, n) in names.iter().take(players).enumerate() {
        common::player(app, t.id, &admin, n, "", &(1900 - 50 * i).to_string());
    }
    let mut c = app.client_as(&admin);
    assert_eq!(c.post(&format!("/t/{}/rounds", t.id), &[]).status, 303);
    assert_eq!(
        c.post(&format!("/t/{}/rounds/1/publish", t.id), &[]).status,
        303
    );
    (t.id, a, b)
}

/// Every game of the round, by table and game number.
fn games(app: &TestApp, tid: TournamentId) -> Vec<(i32, Game)> {
    let data = kraal::director::load(&mut app.conn(), tid).unwrap();
    let mut out = Vec::new();
    for p in &data.pairings {
        for g in data.games_of(p.id) {
            out.push((p.table_no, g.clone()));
        }
    }
    out
}

fn pairing_id(app: &TestApp, tid: TournamentId, table: i32) -> kraal::ids::PairingId {
    let data = kraal::director::load(&mut app.conn(), tid).unwrap();
    data.pairings
        .iter()
        .find(|p| p.table_no == table)
        .unwrap()
        .id
}

fn results_page(c: &mut Client, tid: TournamentId) -> String {
    let page = c.get(&format!("/t/{tid}/rounds/1/results"));
    assert_eq!(page.status, 200, "{}", page.body);
    page.body
}

fn save(
    c: &mut Client,
    tid: TournamentId,
    fields: &[(String, String)],
    button: &str,
) -> common::Reply {
    let mut all: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    all.push(("save", button));
    c.post_raw(&format!("/t/{tid}/rounds/1/results"), &all)
}

fn results_of_table(app: &TestApp, tid: TournamentId, table: i32) -> Vec<Option<String>> {
    games(app, tid)
        .into_iter()
        .filter(|(t, _)| *t == table)
        .map(|(_, g)| g.result.map(|r| r.as_str().to_string()))
        .collect()
}

#[test]
fn a_colleagues_results_survive_a_form_opened_before_they_were_saved() {
    for app in TestApp::all() {
        let (tid, a, b) = event(&app, "Soweto Open", 4);
        let mut ref_a = app.client_as(&a);
        let mut ref_b = app.client_as(&b);
        let (t1, t2) = (pairing_id(&app, tid, 1), pairing_id(&app, tid, 2));

        // Both open the results page; A enters table 1, B only table 2.
        let mut form_a = form_fields(&results_page(&mut ref_a, tid), RESULTS_FORM);
        let mut form_b = form_fields(&results_page(&mut ref_b, tid), RESULTS_FORM);
        set_field(&mut form_a, &format!("s{t1}"), "2-0");
        assert_eq!(save(&mut ref_a, tid, &form_a, "all").status, 303);
        set_field(&mut form_b, &format!("s{t2}"), "1½-½");
        let reply = save(&mut ref_b, tid, &form_b, "all");
        assert_eq!(reply.status, 303, "B changed only table 2: {}", reply.body);
        assert_eq!(
            results_of_table(&app, tid, 1),
            vec![Some("1-0".into()), Some("0-1".into())],
            "A's 2-0 at table 1 is kept"
        );
        assert_eq!(
            results_of_table(&app, tid, 2),
            vec![Some("1-0".into()), Some("1/2-1/2".into())]
        );

        // Each player reads the pairing from their own side.
        let data = kraal::director::load(&mut app.conn(), tid).unwrap();
        let p1 = data.pairings.iter().find(|p| p.table_no == 1).unwrap();
        let (first, second) = (p1.first_player_id.unwrap(), p1.second_player_id.unwrap());
        let page =
            |id: kraal::ids::EntryId| app.client().get(&format!("/t/{tid}/players/{id}")).body;
        let outcome = |id: kraal::ids::EntryId| {
            let page = page(id);
            (
                attr_values(&page, "data-outcome"),
                attr_values(&page, "data-score"),
            )
        };
        assert_eq!(outcome(first), (vec!["won".into()], vec!["2-0".into()]));
        assert_eq!(outcome(second), (vec!["lost".into()], vec!["0-2".into()]));

        // B, on the same stale page, changes table 1's first game: that is a
        // conflict, named with who saved what, and the page shows the
        // stored results again, not B's blanks.
        set_field(&mut form_b, &format!("s{t2}"), "");
        let g1 = games(&app, tid)
            .into_iter()
            .find(|(t, g)| *t == 1 && g.number == 1)
            .unwrap()
            .1;
        set_field(&mut form_b, &format!("g{}", g1.id), "1/2-1/2");
        let reply = save(&mut ref_b, tid, &form_b, "all");
        assert_eq!(reply.status, 409, "{}", reply.body);
        // the words are the point: the conflict names who saved what
        assert!(
            reply.body.contains(&format!(
                "table 1, game 1 was changed meanwhile by {}",
                a.name
            )),
            "{}",
            reply.body
        );
        let shown = form_fields(&reply.body, RESULTS_FORM);
        assert!(
            shown.contains(&(format!("g{}", g1.id), "1-0".to_string())),
            "the page shows the stored result after a conflict"
        );
        // Pressing Save again on that page changes nothing.
        let again = save(&mut ref_b, tid, &shown, "all");
        assert_eq!(again.status, 303, "{}", again.body);
        assert_eq!(
            again.location.as_deref(),
            Some(format!("/t/{tid}/rounds/1/results?saved=0").as_str())
        );
        assert_eq!(
            results_of_table(&app, tid, 1),
            vec![Some("1-0".into()), Some("0-1".into())],
            "nothing was lost"
        );

        // A blank never clears a result; clearing is its own choice.
        let mut fresh = form_fields(&results_page(&mut ref_b, tid), RESULTS_FORM);
        set_field(&mut fresh, &format!("g{}", g1.id), "");
        assert_eq!(save(&mut ref_b, tid, &fresh, "all").status, 303);
        assert_eq!(results_of_table(&app, tid, 1)[0].as_deref(), Some("1-0"));
        set_field(&mut fresh, &format!("g{}", g1.id), "clear");
        assert_eq!(save(&mut ref_b, tid, &fresh, "all").status, 303);
        assert_eq!(results_of_table(&app, tid, 1)[0], None);

        // The audit trail has every change, each by its referee.
        let audit = ref_a.get(&format!("/t/{tid}/audit")).body;
        assert!(audit.contains(&b.name) && audit.contains(&a.name));
    }
}

#[test]
fn one_tables_save_button_saves_that_table_only() {
    let app = TestApp::start("sqlite");
    let (tid, a, _) = event(&app, "Durban Rapid", 4);
    let mut c = app.client_as(&a);
    let (t1, t2) = (pairing_id(&app, tid, 1), pairing_id(&app, tid, 2));
    let mut form = form_fields(&results_page(&mut c, tid), RESULTS_FORM);
    set_field(&mut form, &format!("s{t1}"), "0-2");
    set_field(&mut form, &format!("s{t2}"), "1-1");
    let reply = save(&mut c, tid, &form, &t2.to_string());
    assert_eq!(reply.status, 303);
    assert!(reply.location.unwrap().ends_with("saved=2#t2"));
    assert_eq!(results_of_table(&app, tid, 1), vec![None, None]);
    assert_eq!(
        results_of_table(&app, tid, 2),
        vec![Some("1-0".into()), Some("1-0".into())],
        "1-1: each player wins the game they start"
    );
    // The missing-only view lists table 1 and not table 2.
    let missing = c.get(&format!("/t/{tid}/rounds/1/results?missing=1")).body;
    assert!(missing.contains("id=\"t1\"") && !missing.contains("id=\"t2\""));
    assert_eq!(attr_values(&missing, "data-missing"), ["2"], "{missing}");
}

#[test]
fn a_quick_entry_names_the_pairing_back_before_it_is_stored() {
    let app = TestApp::start("sqlite");
    let (tid, a, _) = event(&app, "Polokwane Blitz", 8);
    let mut c = app.client_as(&a);
    let url = format!("/t/{tid}/rounds/1/results");
    let data = kraal::director::load(&mut app.conn(), tid).unwrap();
    let p3 = data.pairings.iter().find(|p| p.table_no == 3).unwrap();
    let first = data
        .players
        .iter()
        .find(|x| Some(x.id) == p3.first_player_id)
        .unwrap();

    let confirm = c.post(&url, &[("quick", "3 1½-½")]);
    assert_eq!(confirm.status, 200);
    let asked = common::tag_with(&confirm.body, "class", "notice confirm");
    assert_eq!(
        attr_values(asked[0], "data-table"),
        ["3"],
        "{}",
        confirm.body
    );
    assert_eq!(
        attr_values(asked[0], "data-score"),
        ["1½-½"],
        "{}",
        confirm.body
    );
    assert!(confirm.body.contains(&first.name), "{}", confirm.body);
    assert!(
        games(&app, tid).iter().all(|(_, g)| g.result.is_none()),
        "nothing stored yet"
    );
    let fields = form_fields(&confirm.body, "class=\"notice confirm\"");
    let reply = save(&mut c, tid, &fields, &p3.id.to_string());
    assert_eq!(reply.status, 303);
    assert_eq!(
        results_of_table(&app, tid, 3),
        vec![Some("1-0".into()), Some("1/2-1/2".into())]
    );

    // Wrong input names the problem and ties it to the box.
    for (typed, code) in [
        ("9 2-0", "no_table"),
        ("3 2-1", "at_table"),
        ("three 2-0", "not_a_table"),
        ("3", "not_a_quick_entry"),
    ] {
        let page = c.post(&url, &[("quick", typed)]);
        assert_eq!(page.status, 422, "{typed}");
        assert_eq!(
            common::attr_values(&page.body, "data-code"),
            [code],
            "{typed}: {}",
            page.body
        );
        assert!(
            page.body.contains("id=\"quick\"")
                && page.body.contains("aria-describedby=\"problem-0\"")
        );
    }
}

#[test]
fn results_wait_until_the_round_is_published() {
    let app = TestApp::start("sqlite");
    let (tid, a, _) = event(&app, "Draft Cup", 4);
    let mut c = app.client_as(&a);
    assert_eq!(
        c.post(
            &format!("/t/{tid}/rounds/1/results"),
            &[(&format!("s{}", pairing_id(&app, tid, 1)), "2-0")]
        )
        .status,
        303
    );
    // Round 2 is paired but stays a draft.
    for (_, g) in games(&app, tid) {
        if g.result.is_none() {
            kraal::director::results::save(
                &mut app.conn(),
                tid,
                &[kraal::results::ResultEdit {
                    game: g.id,
                    wanted: Some(kraal::results::GameResult::Draw),
                    seen_version: None,
                    by: kraal::results::EnteredBy::Referee,
                }],
                &a,
            )
            .unwrap();
        }
    }
    assert_eq!(c.post(&format!("/t/{tid}/rounds"), &[]).status, 303);
    let g = games(&app, tid)
        .into_iter()
        .find(|(_, g)| g.result.is_none())
        .unwrap()
        .1;
    let reply = c.post(
        &format!("/t/{tid}/rounds/2/results"),
        &[(&format!("g{}", g.id), "1-0")],
    );
    assert_eq!(reply.status, 409, "{}", reply.body);
    assert_eq!(
        attr_values(&reply.body, "data-code"),
        ["draft"],
        "{}",
        reply.body
    );
}

/// One step of two referees at one round: who saves, whether they reload
/// the page first, and which games they set to what.
#[derive(Debug, Clone)]
struct Step {
    referee: usize,
    reload: bool,
    changes: Vec<(usize, usize)>,
}

fn step() -> impl Strategy<Value = Step> {
    (
        0..2usize,
        any::<bool>(),
        proptest::collection::vec((0..8usize, 0..5usize), 1..5),
    )
        .prop_map(|(referee, reload, changes)| Step {
            referee,
            reload,
            changes,
        })
}

#[test]
fn interleaved_saves_by_two_referees_lose_nothing() {
    const RESULTS: [&str; 5] = ["1-0", "0-1", "1/2-1/2", "+-", "-+"];
    let app = TestApp::start("sqlite");
    let mut runner = TestRunner::new(Config {
        cases: 24,
        failure_persistence: None,
        ..Config::default()
    });
    let case = std::cell::Cell::new(0);
    runner
        .run(&proptest::collection::vec(step(), 1..10), |steps| {
            case.set(case.get() + 1);
            let (tid, a, b) = event(&app, &format!("Case {}", case.get()), 8);
            let mut clients = [app.client_as(&a), app.client_as(&b)];
            let mut forms: Vec<Vec<(String, String)>> = clients
                .iter_mut()
                .map(|c| form_fields(&results_page(c, tid), RESULTS_FORM))
                .collect();
            for s in steps {
                let me = s.referee;
                if s.reload {
                    forms[me] = form_fields(&results_page(&mut clients[me], tid), RESULTS_FORM);
                }
                let before = games(&app, tid);
                let mut form = forms[me].clone();
                let mut asked = std::collections::BTreeMap::new();
                for (i, r) in &s.changes {
                    let g = &before[*i].1;
                    set_field(&mut form, &format!("g{}", g.id), RESULTS[*r]);
                    asked.insert(g.id, RESULTS[*r]);
                }
                let reply = save(&mut clients[me], tid, &form, "all");
                prop_assert!(reply.status == 303 || reply.status == 409, "{}", reply.body);
                let after = games(&app, tid);
                for ((_, old), (_, new)) in before.iter().zip(&after) {
                    let was_shown = form
                        .iter()
                        .find(|(k, _)| *k == format!("o{}", old.id))
                        .map(|(_, v)| v.clone())
                        .unwrap_or_default();
                    match asked.get(&old.id) {
                        Some(want) if *want != was_shown => {
                            let conflict = reply.body.contains(&format!("href=\"#g{}\"", old.id));
                            prop_assert!(
                                new.result.map(|r| r.as_str()) == Some(*want) || conflict,
                                "game {} asked {want}: stored {:?}, no conflict reported",
                                old.id,
                                new.result
                            );
                            if conflict {
                                prop_assert_eq!(
                                    &new.result,
                                    &old.result,
                                    "a conflict changes nothing"
                                );
                            }
                        }
                        _ => prop_assert_eq!(
                            &new.result,
                            &old.result,
                            "game {} was not changed by this referee",
                            old.id
                        ),
                    }
                    prop_assert!(
                        old.result.is_none() || new.result.is_some(),
                        "a result was blanked"
                    );
                }
                // The browser now holds the page the save answered with.
                forms[me] = if reply.status == 409 {
                    form_fields(&reply.body, RESULTS_FORM)
                } else {
                    form_fields(&results_page(&mut clients[me], tid), RESULTS_FORM)
                };
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn a_level_knockout_table_gets_a_tiebreak_set_entered_from_its_score() {
    let app = TestApp::start("sqlite");
    let (tid, admin) = knockout(&app, "Bloemfontein Knock-out");
    let mut c = app.client_as(&admin);
    let pid = pairing_id(&app, tid, 1);
    let url = format!("/t/{tid}/rounds/1/results");

    assert_eq!(c.post(&url, &[(&format!("s{pid}"), "1-1")]).status, 303);
    let page = c.get(&url).body;
    assert_eq!(common::attr_values(&page, "data-open-set"), ["1"], "{page}");
    assert_eq!(
        main_and_set(&app, tid, 1).1.len(),
        2,
        "two games and a set of two"
    );
    let mut form = form_fields(&page, RESULTS_FORM);
    set_field(&mut form, &format!("ts{pid}"), "½-1½");
    assert_eq!(save(&mut c, tid, &form, "all").status, 303);
    let set = main_and_set(&app, tid, 1).1;
    assert!(set.iter().all(Option::is_some), "{set:?}");
    let bracket = c.get(&format!("/t/{tid}/bracket")).body;
    assert_eq!(
        attr_values(&bracket, "data-set-score"),
        ["½-1½"],
        "{bracket}"
    );
    let round = app
        .client()
        .get(&format!("/api/v1/tournaments/{tid}/rounds/1"))
        .json();
    assert_eq!(round["pairings"][0]["winner"], "Palesa Nkosi", "{round}");
    assert_eq!(
        main_and_set(&app, tid, 1).1.len(),
        2,
        "decided: no further set"
    );
}

/// A save that stores one table and refuses another shows the round as
/// the save left it: the table it left level shows its new tiebreak set.
#[test]
fn a_save_refused_in_part_shows_the_tiebreak_set_the_rest_opened() {
    let app = TestApp::start("sqlite");
    let (tid, admin) = knockout(&app, "Polokwane Knock-out");
    let mut c = app.client_as(&admin);
    let (p1, p2) = (pairing_id(&app, tid, 1), pairing_id(&app, tid, 2));
    let url = format!("/t/{tid}/rounds/1/results");

    let page = c.post(
        &url,
        &[(&format!("s{p1}"), "1-1"), (&format!("s{p2}"), "7-0")],
    );
    assert_eq!(page.status, 422, "{}", page.body);
    assert_eq!(main_and_set(&app, tid, 1).1.len(), 2, "the set was stored");
    assert_eq!(
        common::attr_values(&page.body, "data-open-set"),
        ["1"],
        "{}",
        page.body
    );
    let shown = form_fields(&page.body, RESULTS_FORM);
    for (_, g) in games(&app, tid)
        .into_iter()
        .filter(|(t, g)| *t == 1 && g.tiebreak)
    {
        assert!(
            shown.iter().any(|(k, _)| *k == format!("g{}", g.id)),
            "tiebreak game {} is on the page: {shown:?}",
            g.id
        );
    }
    assert_eq!(c.get(&url).body.matches("data-open-set").count(), 1);
}

/// A published first round of an official-rules knock-out (two games a
/// pairing) of four players, and its referee.
fn knockout(app: &TestApp, name: &str) -> (TournamentId, User) {
    let admin = app.user(&format!("admin-{name}"), Role::Admin);
    let fields = kraal::tournament::RawTournament {
        name: name.into(),
        system: "knockout".into(),
        rules: "official".into(),
        rounds: "2".into(),
        ..Default::default()
    }
    .check()
    .unwrap();
    let t = kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
        kraal::db::tournaments::create(w, &fields, &admin)
    })
    .unwrap();
    for (n, rating) in [
        ("Kagiso Molefe", "1900"),
        ("Refilwe Dube", "1850"),
        ("Tumelo Sithole", "1800"),
        ("Palesa Nkosi", "1750"),
    ] {
        common::player(app, t.id, &admin, n, "", rating);
    }
    let mut c = app.client_as(&admin);
    assert_eq!(c.post(&format!("/t/{}/rounds", t.id), &[]).status, 303);
    assert_eq!(
        c.post(&format!("/t/{}/rounds/1/publish", t.id), &[]).status,
        303
    );
    (t.id, admin)
}

/// Types `typed` in the quick-entry box and presses Store on the
/// confirmation; the reply to Store.
fn quick_store(c: &mut Client, tid: TournamentId, typed: &str) -> common::Reply {
    let confirm = c.post(&format!("/t/{tid}/rounds/1/results"), &[("quick", typed)]);
    assert_eq!(confirm.status, 200, "{typed}: {}", confirm.body);
    let fields = form_fields(&confirm.body, "class=\"notice confirm\"");
    let button = confirm
        .body
        .split("name=\"save\" value=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .unwrap()
        .to_string();
    save(c, tid, &fields, &button)
}

fn main_and_set(
    app: &TestApp,
    tid: TournamentId,
    table: i32,
) -> (Vec<Option<String>>, Vec<Option<String>>) {
    let all: Vec<Game> = games(app, tid)
        .into_iter()
        .filter(|(t, _)| *t == table)
        .map(|(_, g)| g)
        .collect();
    let of = |tb: bool| {
        all.iter()
            .filter(|g| g.tiebreak == tb)
            .map(|g| g.result.map(|r| r.as_str().to_string()))
            .collect()
    };
    (of(false), of(true))
}

#[test]
fn a_quick_entry_for_a_level_knockout_table_goes_into_its_tiebreak_set() {
    for app in TestApp::all() {
        let (tid, admin) = knockout(&app, "Mangaung Cup");
        let mut c = app.client_as(&admin);
        let url = format!("/t/{tid}/rounds/1/results");

        // Table 1 is level: a tiebreak set opens.
        assert_eq!(quick_store(&mut c, tid, "1 1-1").status, 303);
        let (main, set) = main_and_set(&app, tid, 1);
        assert_eq!(main, vec![Some("1-0".into()), Some("1-0".into())]);
        assert_eq!(set, vec![None, None], "one open set of two games");

        // The next score for table 1 is the set's, named as such, and the
        // main games stay as they were.
        let confirm = c.post(&url, &[("quick", "1 2-0")]);
        assert_eq!(confirm.status, 200);
        let asked = common::tag_with(&confirm.body, "class", "notice confirm");
        assert_eq!(asked.len(), 1, "{}", confirm.body);
        assert_eq!(
            ["data-table", "data-set", "data-score", "data-main-score"]
                .map(|a| common::attr_values(asked[0], a).join("")),
            ["1", "1", "2-0", "1-1"],
            "the set's score, the main games as they are"
        );
        assert_eq!(quick_store(&mut c, tid, "1 2-0").status, 303);
        let (main, set) = main_and_set(&app, tid, 1);
        assert_eq!(
            main,
            vec![Some("1-0".into()), Some("1-0".into())],
            "the main games are not rewritten"
        );
        assert!(
            set.iter().all(Option::is_some),
            "the set is played: {set:?}"
        );

        // The same score again changes nothing, and says so.
        let again = c.post(&url, &[("quick", "1 2-0")]);
        assert_eq!(again.status, 200);
        // English until the page says "nothing to store" as a value (the
        // notice is a sentence made in web::pages::results)
        assert!(
            again.body.contains(
                "Table 1 already says 2-0 in tiebreak set 1 (main games 1-1): nothing to store."
            ),
            "{}",
            again.body
        );
        assert!(!again.body.contains("class=\"notice confirm\""));
        // A score that is not one of a set's two games names the set.
        let wrong = c.post(&url, &[("quick", "1 3-1")]);
        assert_eq!(wrong.status, 422);
        assert_eq!(
            common::attr_values(&wrong.body, "data-code"),
            ["not_a_set_score"],
            "{}",
            wrong.body
        );

        // Table 2 is decided in its main games; the next round pairs.
        assert_eq!(quick_store(&mut c, tid, "2 0-2").status, 303);
        let bracket = c.get(&format!("/t/{tid}/bracket")).body;
        // A tiebreak set is played only where the main games are level.
        assert_eq!(attr_values(&bracket, "data-set"), ["1"], "{bracket}");
        assert_eq!(
            attr_values(&bracket, "data-set-score"),
            ["2-0"],
            "{bracket}"
        );
        let pair = c.post(&format!("/t/{tid}/rounds"), &[]);
        assert_eq!(pair.status, 303, "{}", pair.body);
    }
}

#[test]
fn the_api_cannot_leave_an_unplayed_tiebreak_set_blocking_the_next_round() {
    for app in TestApp::all() {
        let (tid, admin) = knockout(&app, "Limpopo Cup");
        let mut api = app.script_for(&admin);
        let set_of = |app: &TestApp, table: i32| main_and_set(app, tid, table).1;
        let game = |app: &TestApp, table: i32, tiebreak: bool, k: usize| {
            games(app, tid)
                .into_iter()
                .filter(|(t, g)| *t == table && g.tiebreak == tiebreak)
                .nth(k)
                .unwrap()
                .1
                .id
        };
        let put = |api: &mut Client, id: kraal::ids::GameId, result: &str| {
            api.send_json(
                "PUT",
                &format!("/api/v1/games/{id}"),
                serde_json::json!({ "result": result }),
            )
        };
        // Table 1 level 1-1, then corrected to 2-0 game by game: the set
        // it no longer calls for goes, and the next round pairs.
        for t in [1, 2] {
            for k in 0..2 {
                assert_eq!(put(&mut api, game(&app, t, false, k), "1-0").status, 200);
            }
        }
        assert_eq!(set_of(&app, 1), vec![None, None]);
        assert_eq!(put(&mut api, game(&app, 1, false, 1), "0-1").status, 200);
        assert!(set_of(&app, 1).is_empty(), "the unplayed set is gone");

        // Table 2 plays its set; its main games then stay as they are.
        assert_eq!(put(&mut api, game(&app, 2, true, 0), "1-0").status, 200);
        let r = put(&mut api, game(&app, 2, false, 1), "0-1");
        assert_eq!(r.status, 409, "{}", r.body);
        assert_eq!(r.json()["code"], "held_by_tiebreak", "{}", r.body);
        assert_eq!(r.json()["params"]["table"], 2, "{}", r.body);
        assert_eq!(r.json()["params"]["set"], 1, "{}", r.body);
        assert_eq!(
            main_and_set(&app, tid, 2).0,
            vec![Some("1-0".into()), Some("1-0".into())]
        );
        assert_eq!(put(&mut api, game(&app, 2, true, 1), "0-1").status, 200);
        let r = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/rounds"),
            serde_json::json!({}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
    }
}

#[test]
fn a_referees_ruling_stands_until_a_referee_confirms_replacing_it() {
    for app in TestApp::all() {
        let (tid, a, _) = event(&app, "Ruling Open", 4);
        let mut c = app.client_as(&a);
        let game_at = |app: &TestApp, table: i32, number: i32| {
            games(app, tid)
                .into_iter()
                .find(|(t, g)| *t == table && g.number == number)
                .unwrap()
                .1
        };
        // The referee rules that table 1's first game was drawn.
        let g1 = game_at(&app, 1, 1);
        let r = c.post(
            &format!("/t/{tid}/games/{}/ruling", g1.id),
            &[
                ("kind", "other"),
                ("result", "1/2-1/2"),
                ("reason", "draw agreed before the flag fell"),
            ],
        );
        assert_eq!(r.status, 303, "{}", r.body);

        // A quick entry of 2-0 stores game 2 but not game 1: the page names
        // the ruling and what the entry would set, and offers to replace it.
        let reply = quick_store(&mut c, tid, "1 2-0");
        assert_eq!(reply.status, 409, "{}", reply.body);
        assert!(
            reply.body.contains(&format!(
                "Round 1, table 1, game 1 has a referee&#39;s ruling by {} (set another result; reason: draw agreed before the flag fell): it is ½-½. The entry would set 1-0; it was not saved.",
                a.name
            )),
            "{}",
            reply.body
        );
        assert_eq!(
            results_of_table(&app, tid, 1),
            vec![Some("1/2-1/2".into()), Some("0-1".into())]
        );
        // A select does not change it either.
        let mut form = form_fields(&results_page(&mut c, tid), RESULTS_FORM);
        set_field(&mut form, &format!("g{}", g1.id), "0-1");
        let reply = save(&mut c, tid, &form, "all");
        assert_eq!(reply.status, 409);
        let asked = form_fields(&reply.body, "id=\"rulings\"");
        assert!(
            asked.contains(&(format!("g{}", g1.id), "0-1".to_string())),
            "the entry would set 0-1: {}",
            reply.body
        );
        assert_eq!(game_at(&app, 1, 1).result.unwrap().as_str(), "1/2-1/2");

        // The referee confirms: the entry replaces the ruling, on the record.
        let confirm = form_fields(&reply.body, "id=\"rulings\"");
        let stored = save(&mut c, tid, &confirm, "all");
        assert_eq!(stored.status, 303, "{}", stored.body);
        assert_eq!(game_at(&app, 1, 1).result.unwrap().as_str(), "0-1");
        let audit = kraal::db::audit::of_tournament(&mut app.conn(), tid).unwrap();
        let replaced: Vec<_> = audit
            .iter()
            .filter(|e| e.action == kraal::change::Action::RulingReplaced)
            .collect();
        assert_eq!(replaced.len(), 1);
        assert_eq!(
            replaced[0].old_value.as_deref(),
            Some("set another result: ½-½")
        );
        assert_eq!(replaced[0].user.as_deref(), Some(a.name.as_str()));
        // The ruling replaced, later entries need no confirmation.
        assert_eq!(quick_store(&mut c, tid, "1 2-0").status, 303);
        assert_eq!(
            results_of_table(&app, tid, 1),
            vec![Some("1-0".into()), Some("0-1".into())]
        );

        // Through the API: 409 naming the game and the ruling, unless the
        // request says it replaces it.
        let g2 = game_at(&app, 2, 2);
        let r = c.post(
            &format!("/t/{tid}/games/{}/ruling", g2.id),
            &[("kind", "other"), ("result", "+-"), ("reason", "no-show")],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let mut api = app.script_for(&a);
        let put = |api: &mut Client, body: serde_json::Value| {
            api.send_json("PUT", &format!("/api/v1/games/{}", g2.id), body)
        };
        let r = put(&mut api, serde_json::json!({"result": "1-0"}));
        assert_eq!(r.status, 409, "{}", r.body);
        assert_eq!(r.json()["code"], "ruled", "{}", r.body);
        assert_eq!(game_at(&app, 2, 2).result.unwrap().as_str(), "+-");
        let r = put(
            &mut api,
            serde_json::json!({"result": "1-0", "replace_ruling": true}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(game_at(&app, 2, 2).result.unwrap().as_str(), "1-0");
        let audit = kraal::db::audit::of_tournament(&mut app.conn(), tid).unwrap();
        assert_eq!(
            audit
                .iter()
                .filter(|e| e.action == kraal::change::Action::RulingReplaced)
                .count(),
            2
        );
    }
}

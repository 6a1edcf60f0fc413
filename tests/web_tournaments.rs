//! Tournaments and players through the pages, as a referee uses them.

#![allow(clippy::unwrap_used)]

mod common;

use common::{attr_values, field_error, has_attr, TestApp};
use kraal::db::users::Role;

#[test]
fn a_tournament_is_created_edited_and_listed() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut a = app.client_as(&admin);
        assert_eq!(a.get("/t/new").status, 200);

        let bad = a.post(
            "/t",
            &[
                ("name", "KZN Open"),
                ("rounds", "0"),
                ("games_per_pairing", "4"),
                ("starts_on", "2026-12-05"),
                ("ends_on", "2026-12-01"),
            ],
        );
        assert_eq!(bad.status, 422, "{}", app.backend);
        assert_eq!(
            attr_values(&bad.body, "data-error-field"),
            ["ends_on", "games_per_pairing", "rounds"]
        );
        assert!(
            bad.body.contains("value=\"KZN Open\""),
            "typed values are kept"
        );
        assert!(kraal::db::tournaments::list(&mut app.conn())
            .unwrap()
            .is_empty());

        let ok = a.post(
            "/t",
            &[
                ("name", "KZN Open"),
                ("venue", "Durban City Hall"),
                ("starts_on", "2026-12-05"),
                ("ends_on", "2026-12-06"),
                ("system", "swiss"),
                ("rules", "official"),
                ("rounds", "7"),
                ("tb1", "sonneborn_berger"),
                ("tb2", "wins"),
            ],
        );
        assert_eq!(ok.status, 303);
        let url = ok.location.unwrap();
        let page = a.get(&url);
        assert!(page.body.contains("<h1>KZN Open</h1>"));
        assert_eq!(
            attr_values(&page.body, "data-games-per-pairing"),
            ["2"],
            "official rules play 2 games per pairing"
        );
        assert_eq!(
            attr_values(&page.body, "data-tiebreaks"),
            ["sonneborn_berger,wins"]
        );

        let edit = a.post(
            &format!("{url}/edit"),
            &[
                ("name", "KZN Open 2026"),
                ("rules", "gar"),
                ("games_per_pairing", "6"),
                ("rounds", "9"),
                ("system", "round_robin"),
            ],
        );
        assert_eq!(edit.status, 303);
        let anon = app.client().get("/").body;
        assert!(anon.contains("KZN Open 2026"));
        let t = &kraal::db::tournaments::list(&mut app.conn()).unwrap()[0];
        assert_eq!(
            (t.rounds, t.games_per_pairing, t.system.as_str()),
            (Some(9), 6, "round_robin")
        );
        let audit = a.get(&format!("{url}/audit")).body;
        assert!(has_attr(&audit, "data-audit-action", "edit"), "{audit}");
    }
}

#[test]
fn players_are_added_edited_withdrawn_and_reinstated() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let t = common::tournament(&app, &admin, "Soweto Club Championship");
        let mut a = app.client_as(&admin);
        let base = format!("/t/{}", t.id);

        let bad = a.post(
            &format!("{base}/players"),
            &[("name", ""), ("club", "Soweto MSC"), ("rating", "fifteen")],
        );
        assert_eq!(bad.status, 422);
        assert!(field_error(&bad.body, "name").is_some(), "{}", bad.body);
        assert!(
            field_error(&bad.body, "rating").is_some_and(|e| e.contains("'fifteen'")),
            "the error quotes what was typed: {}",
            bad.body
        );
        assert!(bad.body.contains("value=\"Soweto MSC\""));

        for (name, club, rating) in [
            ("Thabo Mokoena", "Soweto MSC", "1840"),
            ("Lerato Mokoena", "Soweto MSC", "1710"),
        ] {
            assert_eq!(
                a.post(
                    &format!("{base}/players"),
                    &[("name", name), ("club", club), ("rating", rating)]
                )
                .status,
                303
            );
        }
        let players = kraal::db::players::list(&mut app.conn(), t.id).unwrap();
        assert_eq!(players.len(), 2);
        let (p1, p2) = (players[0].id, players[1].id);

        let edited = a.post(
            &format!("{base}/players/{p1}/edit"),
            &[
                ("name", "Thabo Mokoena"),
                ("club", "Orlando Mills"),
                ("rating", "1855"),
            ],
        );
        assert_eq!(edited.status, 303);
        assert_eq!(
            kraal::db::players::find(&mut app.conn(), t.id, p1)
                .unwrap()
                .club,
            "Orlando Mills"
        );

        assert_eq!(
            a.post(
                &format!("{base}/relations"),
                &[("a", &p1.to_string()), ("b", &p2.to_string())]
            )
            .status,
            303
        );
        let twice = a.post(
            &format!("{base}/relations"),
            &[("a", &p2.to_string()), ("b", &p1.to_string())],
        );
        assert_eq!(twice.status, 422);
        assert!(field_error(&twice.body, "b").is_some(), "{}", twice.body);
        let own = a.post(
            &format!("{base}/relations"),
            &[("a", &p1.to_string()), ("b", &p1.to_string())],
        );
        assert_eq!(own.status, 422);

        assert_eq!(
            a.post(
                &format!("{base}/players/{p2}/withdraw"),
                &[("confirm", "yes")]
            )
            .status,
            303
        );
        let page = a.get(&base).body;
        assert_eq!(attr_values(&page, "data-withdrawn-from"), ["1"]);
        assert_eq!(attr_values(&page, "data-active-players"), ["1"]);
        assert_eq!(
            a.post(
                &format!("{base}/players/{p2}/withdraw"),
                &[("confirm", "yes")]
            )
            .status,
            409
        );
        assert_eq!(
            a.post(&format!("{base}/players/{p2}/reinstate"), &[])
                .status,
            303
        );
        assert_eq!(
            attr_values(&a.get(&base).body, "data-active-players"),
            ["2"]
        );

        // A player id of another tournament is not reachable through this one.
        let other = common::tournament(&app, &admin, "Other Open");
        let stranger = common::player(&app, other.id, &admin, "Sipho Dlamini", "", "");
        assert_eq!(
            a.post(
                &format!("{base}/players/{}/withdraw", stranger.id),
                &[("confirm", "yes")]
            )
            .status,
            404
        );
        assert_eq!(
            a.get(&format!("{base}/players/{}/edit", stranger.id))
                .status,
            404
        );
    }
}

#[test]
fn a_csv_import_is_all_or_nothing_and_names_every_bad_line() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let t = common::tournament(&app, &admin, "Free State Open");
        let mut a = app.client_as(&admin);
        let url = format!("/t/{}/import", t.id);
        assert_eq!(a.get(&url).status, 200);

        let bad = "name,club,rating,relatives\n\
                   Palesa Nkosi,Bloemfontein MC,1620,\n\
                   Themba Zulu,Bloemfontein MC,16x0,\n\
                   ,Welkom MC,1500,\n\
                   Ayanda Nkosi,Welkom MC,1580,Zanele Nkosi\n";
        let r = a.post(&url, &[("csv", bad)]);
        assert_eq!(r.status, 422);
        assert!(r.body.contains("line 3, column rating"), "{}", r.body);
        assert!(r.body.contains("line 4, column name"));
        assert!(r.body.contains("line 5, column relatives"));
        assert!(
            r.body.contains("Palesa Nkosi"),
            "the pasted text is kept for correction"
        );
        assert!(
            kraal::db::players::list(&mut app.conn(), t.id)
                .unwrap()
                .is_empty(),
            "nothing imported"
        );

        let good = "name,club,rating,relatives\n\
                    Palesa Nkosi,Bloemfontein MC,1620,Ayanda Nkosi\n\
                    Themba Zulu,Bloemfontein MC,1600,\n\
                    Ayanda Nkosi,Welkom MC,1580,\n";
        // The page says what the import added.
        let done = a.post(&url, &[("csv", good)]);
        assert_eq!(done.status, 200, "{}", done.body);
        assert_eq!(attr_values(&done.body, "data-imported"), ["3"]);
        assert!(done
            .body
            .contains("Palesa Nkosi, Themba Zulu, Ayanda Nkosi"));
        let players = kraal::db::players::list(&mut app.conn(), t.id).unwrap();
        assert_eq!(
            players.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
            ["Palesa Nkosi", "Themba Zulu", "Ayanda Nkosi"]
        );
        let rel = kraal::db::players::relations_of(&mut app.conn(), t.id).unwrap();
        assert_eq!(
            (rel[0].a_name.as_str(), rel[0].b_name.as_str()),
            ("Palesa Nkosi", "Ayanda Nkosi")
        );

        // The public export reads back as the same players in a new tournament.
        let csv = app.client().get(&format!("/t/{}/players.csv", t.id));
        assert_eq!(csv.status, 200);
        assert!(csv.content_type.starts_with("text/csv"));
        assert!(csv.body.starts_with(
            "id,name,club,rating,seed,federation_id,withdrawn_from_round,relatives\n"
        ));
        assert!(csv
            .body
            .contains("Palesa Nkosi,Bloemfontein MC,1620,,,,Ayanda Nkosi"));
        let copy = common::tournament(&app, &admin, "Free State Open (copy)");
        assert_eq!(
            a.post(&format!("/t/{}/import", copy.id), &[("csv", &csv.body)])
                .status,
            200
        );
        let again = app
            .client()
            .get(&format!("/t/{}/players.csv", copy.id))
            .body;
        let strip_ids = |s: &str| {
            s.lines()
                .map(|l| l.split_once(',').map(|x| x.1).unwrap_or("").to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(strip_ids(&again), strip_ids(&csv.body));
    }
}

#[test]
fn a_hand_swap_names_the_rules_it_breaks_and_is_recorded() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let t = common::tournament(&app, &admin, "Vaal Triangle Open");
        let names = [
            "Lindiwe Ndlovu",
            "Sibusiso Ndlovu",
            "Ayanda Zulu",
            "Bheki Cele",
            "Zanele Mkhize",
        ];
        let ps: Vec<_> = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                common::player(
                    &app,
                    t.id,
                    &admin,
                    n,
                    &format!("Club {i}"),
                    &(1800 - i * 50).to_string(),
                )
            })
            .collect();
        kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
            kraal::db::players::add_relation(w, t.id, ps[0].id, ps[1].id)
        })
        .unwrap();
        let mut a = app.client_as(&admin);
        let base = format!("/t/{}", t.id);
        // Zanele asks for a half-point bye in round 1.
        let bye = a.post(
            &format!("{base}/byes"),
            &[
                ("player", &ps[4].id.to_string()),
                ("round", "1"),
                ("points", "half"),
            ],
        );
        assert_eq!(bye.status, 303, "{}", bye.body);
        assert_eq!(a.post(&format!("{base}/rounds"), &[]).status, 303);
        let data = kraal::director::load(&mut app.conn(), t.id).unwrap();
        let round = &data.rounds[0];
        let zanele = data
            .pairings_of(round)
            .into_iter()
            .find(|p| p.first_player_id == Some(ps[4].id))
            .unwrap();
        assert_eq!(zanele.bye, Some(kraal::tournament::ByeKind::Half));
        assert!(zanele.second_player_id.is_none());
        // Put the two Ndlovus (relatives: never under GAR) against each other.
        let partner_of_0 = data
            .pairings_of(round)
            .into_iter()
            .find(|p| p.first_player_id == Some(ps[0].id) || p.second_player_id == Some(ps[0].id))
            .map(|p| {
                if p.first_player_id == Some(ps[0].id) {
                    p.second_player_id.unwrap()
                } else {
                    p.first_player_id.unwrap()
                }
            })
            .unwrap();
        assert_ne!(partner_of_0, ps[1].id, "the engine keeps relatives apart");
        let url = format!("{base}/rounds/1/swap");
        let warn = a.post(
            &url,
            &[
                ("a", &partner_of_0.to_string()),
                ("b", &ps[1].id.to_string()),
            ],
        );
        assert_eq!(warn.status, 200);
        assert_eq!(attr_values(&warn.body, "data-broken-rules"), ["1"]);
        assert!(
            warn.body.contains("Lindiwe Ndlovu and Sibusiso Ndlovu"),
            "{}",
            warn.body
        );
        assert!(
            kraal::db::audit::of_tournament(&mut app.conn(), t.id)
                .unwrap()
                .iter()
                .all(|e| e.action != kraal::change::Action::Swap),
            "nothing changed before confirming"
        );
        let done = a.post(
            &url,
            &[
                ("a", &partner_of_0.to_string()),
                ("b", &ps[1].id.to_string()),
                ("confirm", "yes"),
            ],
        );
        assert_eq!(done.status, 303);
        let audit = kraal::db::audit::of_tournament(&mut app.conn(), t.id).unwrap();
        let swap = audit
            .iter()
            .find(|e| e.action == kraal::change::Action::Swap)
            .expect("the swap is audited");
        let mut swapped = swap.detail.players.clone();
        swapped.sort();
        let mut asked = vec![partner_of_0, ps[1].id];
        asked.sort();
        assert_eq!(swapped, asked, "the swap names its players by id");
        assert!(
            swap.new_value.as_deref().unwrap_or("").contains("breaking"),
            "{swap:?}"
        );
        // Publishing and then swapping is refused.
        assert_eq!(a.post(&format!("{base}/rounds/1/publish"), &[]).status, 303);
        assert_eq!(
            a.post(
                &url,
                &[
                    ("a", &ps[2].id.to_string()),
                    ("b", &ps[3].id.to_string()),
                    ("confirm", "yes")
                ]
            )
            .status,
            409
        );
        // The half-point bye is worth half a six-game pairing.
        let s = app
            .client()
            .get(&format!("/api/v1/tournaments/{}/standings", t.id))
            .json();
        let z = s["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == "Zanele Mkhize")
            .unwrap()
            .clone();
        assert_eq!(z["points"], 3);
    }
}

#[test]
fn the_public_standings_follow_every_change() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let t = common::tournament(&app, &admin, "Cache Cup");
        for (i, n) in ["Musa Khoza", "Ntando Shabalala"].iter().enumerate() {
            common::player(&app, t.id, &admin, n, "", &(1700 - i).to_string());
        }
        let mut a = app.client_as(&admin);
        let mut visitor = app.client();
        let url = format!("/t/{}/standings", t.id);
        assert_eq!(attr_values(&visitor.get(&url).body, "data-round"), ["0"]);
        assert_eq!(visitor.get(&url).status, 200, "served again from the cache");
        a.post(&format!("/t/{}/rounds", t.id), &[]);
        a.post(&format!("/t/{}/rounds/1/publish", t.id), &[]);
        assert!(
            has_attr(&visitor.get(&url).body, "data-round", "1"),
            "a published round shows at once"
        );
        let data = kraal::director::load(&mut app.conn(), t.id).unwrap();
        let p = &data.pairings[0];
        let score = a.post(
            &format!("/t/{}/rounds/1/results", t.id),
            &[(&format!("s{}", p.id), "6-0")],
        );
        assert_eq!(score.status, 303, "{}", score.body);
        let page = visitor.get(&url).body;
        assert!(page.contains(">6</td>"), "a result shows at once: {page}");
        // A renamed player shows too.
        let first = p.first_player_id.unwrap();
        a.post(
            &format!("/t/{}/players/{first}/edit", t.id),
            &[("name", "Musa K. Khoza")],
        );
        assert!(visitor.get(&url).body.contains("Musa K. Khoza"));
    }
}

#[test]
fn an_error_page_keeps_the_signed_in_account_and_speaks_plainly() {
    for app in TestApp::all() {
        let owner = app.user("nomsa", Role::Referee);
        let t = common::tournament(&app, &owner, "Karoo Open");
        let other = app.user("pieter", Role::Referee);
        let mut web = app.client_as(&other);
        // A tournament that does not exist, and one this referee may not
        // change: both answered in the layout of a signed-in visitor.
        let missing = web.get("/t/999999");
        assert_eq!(missing.status, 404);
        assert!(
            has_attr(&missing.body, "data-status", "404"),
            "{}",
            missing.body
        );
        let refused = web.get(&format!("/t/{}/edit", t.id));
        assert_eq!(refused.status, 403);
        assert!(
            has_attr(&refused.body, "data-status", "403"),
            "{}",
            refused.body
        );
        for page in [&missing, &refused] {
            assert!(page.body.contains(">pieter</a>"), "{}", page.body);
            assert!(has_attr(&page.body, "action", "/logout"), "a sign-out form");
            assert!(!page.body.contains(r#"href="/login""#), "{}", page.body);
        }
        // Nobody signed in: the same page offers to sign in.
        let anonymous = app.client().get("/t/999999");
        assert_eq!(anonymous.status, 404);
        assert!(anonymous.body.contains(r#"href="/login""#));
        assert!(!has_attr(&anonymous.body, "action", "/logout"));
    }
}

/// A form's post: the path, the fields, the anchor it returns to and the
/// field that takes the focus.
type Case<'a> = (String, Vec<(&'a str, &'a str)>, &'a str, String);

/// The ids of the elements that take the focus when the page opens.
fn focused(html: &str) -> Vec<String> {
    html.match_indices('<')
        .map(|(i, _)| &html[i..i + html[i..].find('>').unwrap_or(0) + 1])
        .filter(|tag| tag.contains(" autofocus"))
        .flat_map(|tag| attr_values(tag, "id"))
        .collect()
}

/// Each of the tournament page's smaller forms (a bye, a relative, a pair
/// kept apart, a waiver, the publication) posts to its own place on the
/// page, so a refused value comes back where it was typed, with the focus
/// on the field in error, as "Add a player" does.
#[test]
fn every_form_of_the_tournament_page_returns_to_itself_with_its_error_focused() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let t = common::tournament(&app, &admin, "Tshwane Winter Open");
        let mut a = app.client_as(&admin);
        let base = format!("/t/{}", t.id);
        for (name, club) in [
            ("Zanele Mahlangu", "Mamelodi Stones"),
            ("Bongani Zulu", "Soweto MSC"),
            ("Refilwe Dube", "Tembisa Morabaraba Club"),
        ] {
            let r = a.post(
                &format!("{base}/players"),
                &[("name", name), ("club", club)],
            );
            assert_eq!(r.status, 303, "[{}] {}", app.backend, r.body);
        }
        let players = kraal::db::players::list(&mut app.conn(), t.id).unwrap();
        let (p1, p2) = (players[0].id.to_string(), players[1].id.to_string());
        let r = a.post(&format!("{base}/forbidden"), &[("a", &p1), ("b", &p2)]);
        assert_eq!(r.status, 303, "[{}] {}", app.backend, r.body);
        let page = a.get(&base).body;
        let fid = attr_values(&page, "data-forbidden")[0].clone();

        // (path posted, fields, the anchor it returns to, the field focused)
        let cases: Vec<Case> = vec![
            (
                format!("{base}/byes"),
                vec![("player", &p1), ("round", "abc"), ("points", "half")],
                "ask-bye",
                "bye_round".into(),
            ),
            (
                format!("{base}/players"),
                vec![("name", ""), ("club", "Soweto MSC")],
                "add-player",
                "name".into(),
            ),
            (
                format!("{base}/publication"),
                vec![("to", "not an address"), ("token", "")],
                "publication",
                "to".into(),
            ),
            (
                format!("{base}/relations"),
                vec![("a", &p1), ("b", &p1)],
                "relatives",
                "b".into(),
            ),
            (
                format!("{base}/forbidden"),
                vec![("a", &p1), ("b", &p2), ("from_round", "last")],
                "kept-apart",
                "forbidden_from_round".into(),
            ),
            (
                format!("{base}/forbidden/{fid}/waive"),
                vec![("reason", "")],
                "kept-apart",
                format!("reason-{fid}"),
            ),
        ];
        for (path, fields, anchor, field) in cases {
            let page = a.get(&base).body;
            let action = format!("{path}#{anchor}");
            assert!(
                has_attr(&page, "action", &action),
                "[{}] no form posts to {action}",
                app.backend
            );
            let r = a.post(&path, &fields);
            assert_eq!(r.status, 422, "[{}] {path}: {}", app.backend, r.body);
            assert!(
                attr_values(&r.body, "id").iter().any(|id| id == anchor),
                "[{}] {anchor} is on the page",
                app.backend
            );
            assert_eq!(focused(&r.body), vec![field], "[{}] {path}", app.backend);
            // The form is still there, posting to the same place.
            assert!(has_attr(&r.body, "action", &action), "[{}]", app.backend);
        }
    }
}

//! Pairs kept apart by the referee, through the tournament page and the API,
//! in a real Swiss event: the ban reaches the engine, a range ban only its
//! rounds, a waiver lets the pair meet again and the round says why, bad
//! input is named by field, and a hand swap warns of the ban and of a bye
//! used up by a forfeit win.

#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, TestApp};
use kraal::db::users::{Role, User};
use serde_json::json;

/// An API client for `user`.
fn script(app: &TestApp, user: &User) -> Client {
    let token = kraal::accounts::new_token();
    kraal::db::auth::create_token(
        &mut app.conn(),
        user.id,
        "kept apart",
        &kraal::accounts::token_digest(&token),
    )
    .unwrap();
    app.script(&token)
}

/// A Swiss event under the official rules (no club or relative ties in
/// play) with `n` players rated in entry order; returns its id and the
/// players' ids.
fn swiss_event(api: &mut Client, name: &str, n: usize) -> (i64, Vec<i64>) {
    let tid = api.create(
        "/api/v1/tournaments",
        json!({"name": name, "system": "swiss", "rules": "official", "rounds": 5}),
    )["id"]
        .as_i64()
        .unwrap();
    let ids = (0..n)
        .map(|i| {
            api.create(
                &format!("/api/v1/tournaments/{tid}/players"),
                json!({"name": format!("Player {:02}", i + 1), "rating": 2000 - 50 * i as i64}),
            )["id"]
                .as_i64()
                .unwrap()
        })
        .collect();
    (tid, ids)
}

/// The pairings of round `n` (drafts too), in table order:
/// (first, second or none for a bye).
fn pairs(app: &TestApp, tid: i64, n: i32) -> Vec<(i64, Option<i64>)> {
    let (rounds, pairings, _) =
        kraal::db::rounds::everything(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
            .unwrap();
    let round = rounds
        .iter()
        .find(|r| r.number == kraal::ids::RoundNo(n))
        .expect("the round");
    pairings
        .iter()
        .filter(|p| p.round_id == round.id)
        .map(|p| {
            (
                i64::from(p.first_player_id.unwrap()),
                p.second_player_id.map(i64::from),
            )
        })
        .collect()
}

/// A form's fields as posted.
type Form<'a> = &'a [(&'a str, &'a str)];

fn meet(list: &[(i64, Option<i64>)], x: i64, y: i64) -> bool {
    list.iter()
        .any(|&(f, s)| (f, s) == (x, Some(y)) || (f, s) == (y, Some(x)))
}

#[test]
fn a_ban_keeps_the_engines_pair_apart_and_a_waiver_lets_them_meet() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut api = script(&app, &admin);
        let mut browser = app.client_as(&admin);
        let (tid, _) = swiss_event(&mut api, "Free State Open", 8);
        let base = format!("/t/{tid}");

        // What the engine makes of round 1 when nothing is kept apart.
        assert_eq!(browser.post(&format!("{base}/rounds"), &[]).status, 303);
        let free = pairs(&app, tid, 1);
        let (x, y) = (free[0].0, free[0].1.unwrap());
        assert_eq!(
            browser
                .post(&format!("{base}/rounds/1/undo"), &[("confirm", "yes")])
                .status,
            303
        );

        // A ban for the later rounds only leaves round 1 as it was.
        let (xs, ys) = (x.to_string(), y.to_string());
        let r = browser.post(
            &format!("{base}/forbidden"),
            &[
                ("a", &xs),
                ("b", &ys),
                ("from_round", "2"),
                ("to_round", "5"),
            ],
        );
        assert_eq!(r.status, 303, "[{}] {}", app.backend, r.body);
        let page = browser.get(&base).body;
        let kept = common::tag_with(&page, "data-from-round", "2");
        assert_eq!(kept.len(), 1, "{page}");
        assert_eq!(common::attr_values(kept[0], "data-to-round"), ["5"]);
        assert_eq!(browser.post(&format!("{base}/rounds"), &[]).status, 303);
        assert_eq!(pairs(&app, tid, 1), free, "a ban from round 2 on");
        assert_eq!(
            browser
                .post(&format!("{base}/rounds/1/undo"), &[("confirm", "yes")])
                .status,
            303
        );

        // A ban for every round overlaps the range ban: refused, naming it.
        let dup = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/forbidden"),
            json!({"a": y, "b": x}),
        );
        assert_eq!(dup.status, 422, "{}", dup.body);
        assert_eq!(dup.json()["field"], "b");
        assert_eq!(dup.json()["code"], "already_kept_apart", "{}", dup.body);
        assert_eq!(
            dup.json()["params"]["held"],
            json!({"from": 2, "to": 5}),
            "{}",
            dup.body
        );

        // Lift the range ban; keep them apart in every round instead.
        let range =
            kraal::db::forbidden::list(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap()[0]
                .id;
        assert_eq!(
            browser
                .post(&format!("{base}/forbidden/{range}/remove"), &[])
                .status,
            303
        );
        let ban = api.create(
            &format!("/api/v1/tournaments/{tid}/forbidden"),
            json!({"a": y, "b": x}),
        );
        assert_eq!(
            ban,
            json!({"id": ban["id"], "a": x.min(y), "b": x.max(y), "from_round": null,
                   "to_round": null, "waived": false, "note": ""})
        );
        let fid = ban["id"].as_i64().unwrap();
        assert_eq!(browser.post(&format!("{base}/rounds"), &[]).status, 303);
        let banned = pairs(&app, tid, 1);
        assert!(!meet(&banned, x, y), "the banned pair met: {banned:?}");
        assert_eq!(banned.len(), 4, "everyone is still paired");
        assert_eq!(
            browser
                .post(&format!("{base}/rounds/1/undo"), &[("confirm", "yes")])
                .status,
            303
        );

        // A waiver needs a reason (page), then lets them meet (API).
        let r = browser.post(&format!("{base}/forbidden/{fid}/waive"), &[("reason", " ")]);
        assert_eq!(r.status, 422);
        assert!(
            common::field_error(&r.body, "reason").is_some(),
            "{}",
            r.body
        );
        assert!(r.body.contains(&format!(
            "aria-invalid=\"true\" aria-describedby=\"reason-{fid}-error\""
        )));
        let reason = "the only two juniors in the field";
        let w = api.send_json(
            "PUT",
            &format!("/api/v1/tournaments/{tid}/forbidden/{fid}/waiver"),
            json!({ "reason": reason }),
        );
        assert_eq!(w.status, 200, "{}", w.body);
        assert_eq!(w.json()["waived"], true);
        assert_eq!(w.json()["note"], reason);
        assert_eq!(browser.post(&format!("{base}/rounds"), &[]).status, 303);
        assert_eq!(pairs(&app, tid, 1), free, "the waiver lifts the ban");
        let round = browser.get(&format!("{base}/rounds/1")).body;
        assert!(
            round.contains(&format!("Waiver: waived by the referee ({reason})")),
            "{round}"
        );
        assert_eq!(
            browser
                .post(&format!("{base}/rounds/1/undo"), &[("confirm", "yes")])
                .status,
            303
        );

        // Taking the waiver back keeps them apart again.
        let cleared = api.send_json(
            "DELETE",
            &format!("/api/v1/tournaments/{tid}/forbidden/{fid}/waiver"),
            json!({}),
        );
        assert_eq!(cleared.status, 200, "{}", cleared.body);
        assert_eq!(cleared.json()["waived"], false);
        assert_eq!(browser.post(&format!("{base}/rounds"), &[]).status, 303);
        assert!(!meet(&pairs(&app, tid, 1), x, y));

        let audit = browser.get(&format!("{base}/audit")).body;
        for action in [
            "add kept-apart pair",
            "waive kept-apart pair",
            "clear waiver",
        ] {
            assert!(audit.contains(action), "audit lacks {action}");
        }
        let gone = api.send_json(
            "DELETE",
            &format!("/api/v1/tournaments/{tid}/forbidden/{fid}"),
            json!({}),
        );
        assert_eq!(gone.status, 204);
        assert!(
            kraal::db::forbidden::list(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap()
                .is_empty()
        );
    }
}

#[test]
fn bad_input_is_named_by_field_on_the_page_and_in_the_api() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut api = script(&app, &admin);
        let mut browser = app.client_as(&admin);
        let (tid, ids) = swiss_event(&mut api, "Limpopo Open", 4);
        let (other, other_ids) = swiss_event(&mut api, "Karoo Open", 2);
        let base = format!("/t/{tid}");
        let (p1, p2) = (ids[0].to_string(), ids[1].to_string());
        let stranger = other_ids[0].to_string();

        let cases: [(Form, &str, &str); 6] = [
            (
                &[("a", &p1), ("b", &p1)],
                "b",
                "player B is Player 01 again",
            ),
            (
                &[("a", &stranger), ("b", &p2)],
                "a",
                "player A is not in this tournament",
            ),
            (
                &[("a", &p1), ("b", &p2), ("from_round", "two")],
                "from_round",
                "is not a round number",
            ),
            (
                &[
                    ("a", &p1),
                    ("b", &p2),
                    ("from_round", "4"),
                    ("to_round", "2"),
                ],
                "to_round",
                "to round 2 is before from round 4",
            ),
            (
                &[("a", &p1), ("b", &p2), ("to_round", "9")],
                "to_round",
                "to round 9 is outside the tournament&#39;s rounds (1 to 5)",
            ),
            (
                &[("a", &p1), ("b", &p2), ("from_round", "0")],
                "from_round",
                "from round 0 is outside the tournament&#39;s rounds (1 to 5)",
            ),
        ];
        for (fields, field, message) in cases {
            let r = browser.post(&format!("{base}/forbidden"), fields);
            assert_eq!(r.status, 422, "[{}] {fields:?}: {}", app.backend, r.body);
            let message_here =
                r.body.contains(message) || r.body.contains(&message.replace("&#39;", "'"));
            assert!(message_here, "{fields:?}: no '{message}' in\n{}", r.body);
            assert!(
                r.body.contains(&format!("id=\"forbidden_{field}-error\"")),
                "{fields:?}: the message is not by {field}"
            );
            assert!(
                r.body.contains("aria-invalid=\"true\""),
                "{fields:?}: no field marked invalid"
            );
        }
        // The typed values come back with the errors.
        let r = browser.post(
            &format!("{base}/forbidden"),
            &[("a", &p2), ("b", &p1), ("to_round", "9")],
        );
        assert!(r.body.contains("value=\"9\""));
        assert!(r
            .body
            .contains(&format!("<option value=\"{p2}\" selected>")));

        let api_cases = [
            (json!({"a": ids[0], "b": ids[0]}), "b"),
            (json!({"a": ids[0], "b": other_ids[1]}), "b"),
            (
                json!({"a": ids[0], "b": ids[1], "from_round": 3, "to_round": 1}),
                "to_round",
            ),
            (
                json!({"a": ids[0], "b": ids[1], "from_round": 6}),
                "from_round",
            ),
        ];
        for (body, field) in api_cases {
            let r = api.send_json(
                "POST",
                &format!("/api/v1/tournaments/{tid}/forbidden"),
                body.clone(),
            );
            assert_eq!(r.status, 422, "{body}: {}", r.body);
            assert_eq!(r.json()["field"], field, "{body}: {}", r.body);
        }
        assert!(
            kraal::db::forbidden::list(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap()
                .is_empty()
        );

        // Another tournament's pair is not found here.
        let fid = api.create(
            &format!("/api/v1/tournaments/{other}/forbidden"),
            json!({"a": other_ids[0], "b": other_ids[1]}),
        )["id"]
            .as_i64()
            .unwrap();
        for (method, path, body) in [
            (
                "DELETE",
                format!("/api/v1/tournaments/{tid}/forbidden/{fid}"),
                json!({}),
            ),
            (
                "PUT",
                format!("/api/v1/tournaments/{tid}/forbidden/{fid}/waiver"),
                json!({"reason": "a final"}),
            ),
        ] {
            assert_eq!(
                api.send_json(method, &path, body).status,
                404,
                "{method} {path}"
            );
        }
        assert_eq!(
            browser
                .post(&format!("{base}/forbidden/{fid}/remove"), &[])
                .status,
            404
        );
        let no_reason = api.send_json(
            "PUT",
            &format!("/api/v1/tournaments/{other}/forbidden/{fid}/waiver"),
            json!({"reason": ""}),
        );
        assert_eq!(no_reason.status, 422);
        assert_eq!(no_reason.json()["field"], "reason");

        // Public visitors see nothing of it: neither the section nor the
        // pair, both of which the referee's view of the same page shows.
        let shown = |page: &str| {
            (
                common::has_attr(page, "id", "kept-apart"),
                common::has_attr(page, "data-forbidden", &fid.to_string()),
            )
        };
        let referee_view = browser.get(&format!("/t/{other}")).body;
        assert_eq!(shown(&referee_view), (true, true), "{referee_view}");
        assert!(referee_view.contains("Player 01 – Player 02, all rounds"));
        let public = app.client().get(&format!("/t/{other}")).body;
        assert_eq!(shown(&public), (false, false), "{public}");
    }
}

#[test]
fn a_swap_warning_names_a_forfeit_win_as_a_used_bye_and_the_kept_apart_pair() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let mut api = script(&app, &admin);
        let mut browser = app.client_as(&admin);
        let (tid, _) = swiss_event(&mut api, "Eastern Cape Open", 5);

        // Round 1: the first table is won by forfeit, the rest played.
        let round = api.create(&format!("/api/v1/tournaments/{tid}/rounds"), json!({}));
        let mut winner = None;
        for p in round["pairings"].as_array().unwrap() {
            if p["second_id"].is_null() {
                continue;
            }
            let forfeit = winner.is_none();
            if forfeit {
                winner = p["first_id"].as_i64();
            }
            for g in p["games"].as_array().unwrap() {
                // Forfeits for the first player whoever starts; else the starter wins.
                let result = match (forfeit, g["first_started"].as_bool().unwrap()) {
                    (true, true) => "+-",
                    (true, false) => "-+",
                    (false, _) => "1-0",
                };
                let id = g["id"].as_i64().unwrap();
                let r = api.send_json(
                    "PUT",
                    &format!("/api/v1/games/{id}"),
                    json!({ "result": result }),
                );
                assert_eq!(r.status, 200, "{}", r.body);
            }
        }
        let w = winner.unwrap();

        // Round 2 as a draft: the forfeit winner is not given the bye (C2).
        let base = format!("/t/{tid}");
        assert_eq!(browser.post(&format!("{base}/rounds"), &[]).status, 303);
        let second = pairs(&app, tid, 2);
        let z = second.iter().find(|p| p.1.is_none()).unwrap().0;
        assert_ne!(z, w, "a forfeit win counts as a used bye");
        let o = second
            .iter()
            .find_map(|&(f, s)| match s {
                Some(s) if f == w => Some(s),
                Some(s) if s == w => Some(f),
                _ => None,
            })
            .unwrap();
        api.create(
            &format!("/api/v1/tournaments/{tid}/forbidden"),
            json!({"a": z, "b": o, "from_round": 2}),
        );

        // Swapping the forfeit winner with the bye breaks both rules.
        let name = |id: i64| {
            kraal::db::players::find(
                &mut app.conn(),
                kraal::ids::TournamentId(tid as i32),
                kraal::ids::EntryId(id as i32),
            )
            .unwrap()
            .name
        };
        let (ws, zs) = (w.to_string(), z.to_string());
        let page = browser.post(&format!("{base}/rounds/2/swap"), &[("a", &ws), ("b", &zs)]);
        assert_eq!(page.status, 200, "{}", page.body);
        assert_eq!(common::attr_values(&page.body, "data-broken-rules"), ["2"]);
        assert!(
            page.body.contains(&format!(
                "{} already won by forfeit in round 1, which counts as a used bye",
                name(w)
            )),
            "{}",
            page.body
        );
        let kept = format!(
            "{} and {}: forbidden pair set by the referee",
            name(z),
            name(o)
        );
        let kept_other = format!(
            "{} and {}: forbidden pair set by the referee",
            name(o),
            name(z)
        );
        assert!(
            page.body.contains(&kept) || page.body.contains(&kept_other),
            "{}",
            page.body
        );
        assert_eq!(
            pairs(&app, tid, 2),
            second,
            "nothing swapped before confirming"
        );
    }
}

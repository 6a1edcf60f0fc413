//! Every route that changes an event leaves a typed change in the audit
//! trail and moves the tournament's revision, as a referee, a captain, a
//! player's link and a script use them over HTTP. A new write route that
//! this test does not walk fails it: add the route's step here.
//!
//! Account routes (signing in and out, first setup, tokens, one's own
//! password) change a person's sign-in, not an event, and are left out by
//! name below.

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeSet;

use common::{form_fields, set_field, Client, Reply, TestApp};
use kraal::db::users::Role;
use serde_json::{json, Value};

/// Routes that do not change an event (they change who is signed in).
const ACCOUNT_ROUTES: &[&str] = &[
    "/setup",
    "/login",
    "/logout",
    "/account/tokens",
    "/account/tokens/{id:\\d+}/revoke",
    "/account/password",
];

/// Writes that are not an event's change (docs/architecture.md, "Writes
/// that are not an event's change"): a ply of a game recorded at the board
/// moves no revision and records no entry, nor does a published copy's
/// taking a venue's records of one; `tests/recorded_games.rs` and
/// `tests/publishing.rs` hold them to that.
const NOT_AN_EVENTS_CHANGE: &[&str] = &[
    "/api/v1/player/{key}/games/{gid:\\d+}/plies",
    "/api/v1/player/{key}/games/{gid:\\d+}/plies/{n:\\d+}/rectify",
    "/api/v1/player/{key}/games/{gid:\\d+}/plies/{n:\\d+}/stand",
    "/api/v1/published/{origin:[0-9A-Za-z_-]{8,64}}/games/{round:\\d+}/{table:\\d+}/{game:\\d+}",
];

/// A written record of a real short game: dark forgets to shoot.
const RECORD: &str = "[Dark \"N. Khumalo\"]\n[Light \"P. Botha\"]\n[Result \"0-1\"]\n\n1. a1 b2 2. d1 b4 3. g1 b6\n4. a1 c3xd1 5. e4 f4 6. d7xa1\n";

struct Walk<'a> {
    app: &'a TestApp,
    /// (method, route pattern) of every step taken.
    walked: BTreeSet<(String, String)>,
}

impl Walk<'_> {
    fn state(&self, tid: Option<i64>) -> (i64, Option<i32>) {
        let mut conn = self.app.conn();
        let count =
            kraal::db::audit::count(&mut conn, tid.map(|t| kraal::ids::TournamentId(t as i32)))
                .unwrap();
        let revision = tid.map(|t| {
            kraal::db::tournaments::revision(&mut conn, kraal::ids::TournamentId(t as i32)).unwrap()
        });
        (count, revision)
    }

    /// Runs one request to `route` (its pattern in the route table) that
    /// changes tournament `tid` (`None`: no tournament), and checks that it
    /// succeeded, recorded a change and moved the revision.
    #[track_caller]
    fn step(
        &mut self,
        method: &str,
        route: &str,
        tid: Option<i64>,
        send: impl FnOnce() -> Reply,
    ) -> Reply {
        let (count, revision) = self.state(tid);
        let reply = send();
        assert!(
            [200, 201, 204, 303].contains(&reply.status),
            "{method} {route}: {} {}",
            reply.status,
            reply.body
        );
        let (count_after, revision_after) = self.state(tid);
        assert!(
            count_after > count,
            "{method} {route} changed the event without recording a change: {} {}",
            reply.status,
            reply.body.chars().take(3000).collect::<String>()
        );
        if let (Some(before), Some(after)) = (revision, revision_after) {
            assert!(
                after > before,
                "{method} {route} left the revision at {before}"
            );
        }
        self.walked.insert((method.to_string(), route.to_string()));
        reply
    }
}

fn id(v: &Value) -> i64 {
    v["id"].as_i64().unwrap_or_else(|| panic!("no id in {v}"))
}

/// The form a browser would send from `path`'s form whose tag contains
/// `marker`, with `changes` made.
fn form_of(
    c: &mut Client,
    path: &str,
    marker: &str,
    changes: &[(&str, &str)],
) -> Vec<(String, String)> {
    let page = c.get(path);
    assert_eq!(page.status, 200, "{path}: {}", page.body);
    let mut fields = form_fields(&page.body, marker);
    for (k, v) in changes {
        if fields.iter().any(|(f, _)| f == k) {
            set_field(&mut fields, k, v);
        } else {
            fields.push((k.to_string(), v.to_string()));
        }
    }
    fields
}

fn post_fields(c: &mut Client, path: &str, fields: &[(String, String)]) -> Reply {
    let pairs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    c.post(path, &pairs)
}

#[test]
fn every_write_route_records_a_typed_change_and_moves_the_revision() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let thandi = app.user("thandi", Role::Referee);
        let sipho = app.user("sipho", Role::Referee);
        let mut page = app.client_as(&thandi);
        let mut boss = app.client_as(&admin);
        let mut api = app.script_for(&thandi);
        let mut w = Walk {
            app: &app,
            walked: BTreeSet::new(),
        };

        // An account made by the administrator: a change to no tournament.
        w.step("POST", "/admin/users", None, || {
            boss.post(
                "/admin/users",
                &[
                    ("name", "lerato"),
                    ("role", "referee"),
                    ("password", "Kraal-venue-2026!"),
                ],
            )
        });

        // --- A Swiss event run from the pages.
        let fields = form_of(
            &mut page,
            "/t/new",
            "action=\"/t\"",
            &[
                ("name", "Gauteng Open"),
                ("venue", "Soweto"),
                ("rounds", "5"),
            ],
        );
        let (before, _) = w.state(None);
        let created = post_fields(&mut page, "/t", &fields);
        assert_eq!(created.status, 303, "{}", created.body);
        let tid: i64 = created.headers["location"]
            .trim_start_matches("/t/")
            .parse()
            .unwrap();
        assert_eq!(w.state(Some(tid)).0, 1, "the creation is the first change");
        assert_eq!(w.state(None).0, before);
        w.walked.insert(("POST".into(), "/t".into()));
        let t = format!("/t/{tid}");

        let fields = form_of(
            &mut page,
            &format!("{t}/edit"),
            &format!("action=\"{t}/edit\""),
            &[("venue", "Soweto, Orlando Hall")],
        );
        w.step("POST", "/t/{tid:\\d+}/edit", Some(tid), || {
            post_fields(&mut page, &format!("{t}/edit"), &fields)
        });
        let sid = sipho.id.to_string();
        w.step("POST", "/t/{tid:\\d+}/referees", Some(tid), || {
            boss.post(&format!("{t}/referees"), &[("user_id", &sid)])
        });
        w.step(
            "POST",
            "/t/{tid:\\d+}/referees/{uid:\\d+}/remove",
            Some(tid),
            || boss.post(&format!("{t}/referees/{sid}/remove"), &[]),
        );

        let names = [
            ("Thabo Nkosi", "Soweto MC", "1850"),
            ("Lerato Dlamini", "Tembisa MC", "1790"),
            ("Sipho Mokoena", "Soweto MC", "1720"),
            ("Zanele Khumalo", "Kagiso MC", "1680"),
            ("Bheki Zulu", "Tembisa MC", "1610"),
        ];
        for (name, club, rating) in names {
            w.step("POST", "/t/{tid:\\d+}/players", Some(tid), || {
                page.post(
                    &format!("{t}/players"),
                    &[
                        ("name", name),
                        ("club", club),
                        ("rating", rating),
                        ("seed", ""),
                        ("federation_id", ""),
                    ],
                )
            });
        }
        let csv = "name,club,rating,relatives\nAyanda Ndlovu,Kagiso MC,1590,\nPalesa Molefe,Soweto MC,1550,\n";
        w.step("POST", "/t/{tid:\\d+}/import", Some(tid), || {
            page.post(&format!("{t}/import"), &[("csv", csv)])
        });
        let players: Vec<i64> =
            kraal::db::players::list(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap()
                .iter()
                .map(|p| p.id.0 as i64)
                .collect();
        assert_eq!(players.len(), 7);
        let p = |k: usize| players[k].to_string();

        let edit = format!("{t}/players/{}/edit", p(4));
        let fields = form_of(
            &mut page,
            &edit,
            &format!("action=\"{edit}\""),
            &[("rating", "1625")],
        );
        w.step(
            "POST",
            "/t/{tid:\\d+}/players/{pid:\\d+}/edit",
            Some(tid),
            || post_fields(&mut page, &edit, &fields),
        );
        w.step(
            "POST",
            "/t/{tid:\\d+}/players/{pid:\\d+}/withdraw",
            Some(tid),
            || {
                page.post(
                    &format!("{t}/players/{}/withdraw", p(6)),
                    &[("confirm", "yes")],
                )
            },
        );
        w.step(
            "POST",
            "/t/{tid:\\d+}/players/{pid:\\d+}/reinstate",
            Some(tid),
            || page.post(&format!("{t}/players/{}/reinstate", p(6)), &[]),
        );
        w.step("POST", "/t/{tid:\\d+}/relations", Some(tid), || {
            page.post(&format!("{t}/relations"), &[("a", &p(0)), ("b", &p(5))])
        });
        let rid =
            kraal::db::players::relations_of(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap()[0]
                .id;
        w.step(
            "POST",
            "/t/{tid:\\d+}/relations/{rid:\\d+}/remove",
            Some(tid),
            || page.post(&format!("{t}/relations/{rid}/remove"), &[]),
        );
        w.step("POST", "/t/{tid:\\d+}/byes", Some(tid), || {
            page.post(
                &format!("{t}/byes"),
                &[("player", &p(6)), ("round", "3"), ("points", "half")],
            )
        });
        w.step("POST", "/t/{tid:\\d+}/forbidden", Some(tid), || {
            page.post(
                &format!("{t}/forbidden"),
                &[
                    ("a", &p(1)),
                    ("b", &p(4)),
                    ("from_round", ""),
                    ("to_round", ""),
                ],
            )
        });
        let fid = kraal::db::forbidden::list(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
            .unwrap()[0]
            .id;
        w.step(
            "POST",
            "/t/{tid:\\d+}/forbidden/{fid:\\d+}/waive",
            Some(tid),
            || {
                page.post(
                    &format!("{t}/forbidden/{fid}/waive"),
                    &[("reason", "they share a lift home")],
                )
            },
        );
        w.step(
            "POST",
            "/t/{tid:\\d+}/forbidden/{fid:\\d+}/unwaive",
            Some(tid),
            || page.post(&format!("{t}/forbidden/{fid}/unwaive"), &[]),
        );
        w.step(
            "POST",
            "/t/{tid:\\d+}/forbidden/{fid:\\d+}/remove",
            Some(tid),
            || page.post(&format!("{t}/forbidden/{fid}/remove"), &[]),
        );

        // Round 1: paired as a draft, swapped, published, played, recorded,
        // ruled on, then taken back step by step.
        w.step("POST", "/t/{tid:\\d+}/rounds", Some(tid), || {
            page.post(&format!("{t}/rounds"), &[])
        });
        let (_, pairings, games) =
            kraal::db::rounds::everything(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap();
        let two: Vec<&kraal::db::rounds::Pairing> = pairings
            .iter()
            .filter(|x| x.second_player_id.is_some())
            .collect();
        let (a, b) = (
            two[0].first_player_id.unwrap(),
            two[1].first_player_id.unwrap(),
        );
        w.step(
            "POST",
            "/t/{tid:\\d+}/rounds/{n:\\d+}/swap",
            Some(tid),
            || {
                page.post(
                    &format!("{t}/rounds/1/swap"),
                    &[
                        ("a", &a.to_string()),
                        ("b", &b.to_string()),
                        ("confirm", "yes"),
                    ],
                )
            },
        );
        w.step(
            "POST",
            "/t/{tid:\\d+}/rounds/{n:\\d+}/publish",
            Some(tid),
            || page.post(&format!("{t}/rounds/1/publish"), &[]),
        );
        let game = games.iter().find(|g| g.pairing_id == two[0].id).unwrap();
        let gid = game.id;
        w.step(
            "POST",
            "/t/{tid:\\d+}/rounds/{n:\\d+}/results",
            Some(tid),
            || {
                page.post(
                    &format!("{t}/rounds/1/results"),
                    &[
                        (&format!("g{gid}") as &str, "0-1"),
                        (&format!("v{gid}"), &game.version.to_string()),
                    ],
                )
            },
        );
        w.step(
            "POST",
            "/t/{tid:\\d+}/games/{gid:\\d+}/records",
            Some(tid),
            || {
                page.post(
                    &format!("{t}/games/{gid}/records"),
                    &[("side", "referee"), ("text", RECORD)],
                )
            },
        );
        w.step(
            "POST",
            "/t/{tid:\\d+}/games/{gid:\\d+}/ruling",
            Some(tid),
            || {
                page.post(
                    &format!("{t}/games/{gid}/ruling"),
                    &[("kind", "keep"), ("result", ""), ("reason", "")],
                )
            },
        );
        let key = kraal::director::scoresheets::link_key(&mut app.conn(), two[0].id).unwrap();
        let link = format!("/p/{}/{key}", two[0].id);
        let mut player = app.client();
        assert_eq!(player.get(&link).status, 200);
        w.step(
            "POST",
            "/p/{pid:\\d+}/{key:[0-9a-f]{32}}",
            Some(tid),
            || {
                player.post(
                    &link,
                    &[
                        ("game", &gid.to_string()),
                        ("side", "dark"),
                        ("text", RECORD),
                    ],
                )
            },
        );
        // Players at the venue: reports, the next round, links, the clock.
        // (Read again: the swap above changed who sits where.)
        let (_, now_paired, now_games) =
            kraal::db::rounds::everything(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap();
        let table2 = now_paired.iter().find(|x| x.id == two[1].id).unwrap();
        let (pa, pb) = (
            table2.first_player_id.unwrap(),
            table2.second_player_id.unwrap(),
        );
        let reported = now_games
            .iter()
            .find(|g| g.pairing_id == table2.id)
            .unwrap()
            .id;
        let key_a = kraal::db::links::key(&mut app.conn(), pa).unwrap().unwrap();
        let key_b = kraal::db::links::key(&mut app.conn(), pb).unwrap().unwrap();
        w.step("POST", "/api/v1/player/{key}/results", Some(tid), || {
            app.client().send_json(
                "POST",
                &format!("/api/v1/player/{key_a}/results"),
                json!({"game": reported, "result": "1-0"}),
            )
        });
        let mut phone = app.client();
        assert_eq!(phone.get(&format!("/player/{key_b}")).status, 200);
        w.step("POST", "/player/{key}/results", Some(tid), || {
            phone.post(
                &format!("/player/{key_b}/results"),
                &[("game", &reported.to_string()), ("result", "1-0")],
            )
        });
        w.step("POST", "/api/v1/player/{key}/next-round", Some(tid), || {
            app.client().send_json(
                "POST",
                &format!("/api/v1/player/{key_a}/next-round"),
                json!({"play": false, "bye": "zero"}),
            )
        });
        w.step(
            "DELETE",
            "/api/v1/tournaments/{tid:\\d+}/players/{pid:\\d+}/byes/{n:\\d+}",
            Some(tid),
            || {
                api.send_json(
                    "DELETE",
                    &format!("/api/v1/tournaments/{tid}/players/{pa}/byes/2"),
                    json!({}),
                )
            },
        );
        w.step("POST", "/player/{key}/next-round", Some(tid), || {
            phone.post(&format!("/player/{key_b}/next-round"), &[("word", "zero")])
        });
        w.step(
            "POST",
            "/t/{tid:\\d+}/players/{pid:\\d+}/byes/{n:\\d+}/cancel",
            Some(tid),
            || page.post(&format!("{t}/players/{pb}/byes/2/cancel"), &[]),
        );
        w.step(
            "DELETE",
            "/api/v1/tournaments/{tid:\\d+}/players/{pid:\\d+}/link",
            Some(tid),
            || {
                api.send_json(
                    "DELETE",
                    &format!("/api/v1/tournaments/{tid}/players/{pa}/link"),
                    json!({}),
                )
            },
        );
        w.step(
            "POST",
            "/api/v1/tournaments/{tid:\\d+}/players/{pid:\\d+}/link",
            Some(tid),
            || {
                api.send_json(
                    "POST",
                    &format!("/api/v1/tournaments/{tid}/players/{pa}/link"),
                    json!({}),
                )
            },
        );
        w.step(
            "POST",
            "/t/{tid:\\d+}/players/{pid:\\d+}/link/revoke",
            Some(tid),
            || page.post(&format!("{t}/players/{pb}/link/revoke"), &[]),
        );
        w.step(
            "POST",
            "/t/{tid:\\d+}/players/{pid:\\d+}/link/renew",
            Some(tid),
            || page.post(&format!("{t}/players/{pb}/link/renew"), &[]),
        );
        w.step(
            "PUT",
            "/api/v1/tournaments/{tid:\\d+}/rounds/{n:\\d+}/clock",
            Some(tid),
            || {
                api.send_json(
                    "PUT",
                    &format!("/api/v1/tournaments/{tid}/rounds/1/clock"),
                    json!({"starts_at": "2026-11-28T09:00:00+02:00", "minutes": 40}),
                )
            },
        );
        w.step(
            "POST",
            "/t/{tid:\\d+}/rounds/{n:\\d+}/clock",
            Some(tid),
            || {
                page.post(
                    &format!("{t}/rounds/1/clock"),
                    &[("starts_at", "09:30"), ("minutes", ""), ("offset", "-120")],
                )
            },
        );
        w.step(
            "POST",
            "/t/{tid:\\d+}/rounds/{n:\\d+}/lock",
            Some(tid),
            || page.post(&format!("{t}/rounds/1/lock"), &[("lock", "yes")]),
        );
        w.step(
            "POST",
            "/t/{tid:\\d+}/rounds/{n:\\d+}/clear",
            Some(tid),
            || page.post(&format!("{t}/rounds/1/clear"), &[("confirm", "yes")]),
        );
        w.step(
            "POST",
            "/t/{tid:\\d+}/rounds/{n:\\d+}/undo",
            Some(tid),
            || page.post(&format!("{t}/rounds/1/undo"), &[("confirm", "yes")]),
        );

        // --- A Swiss event run by a script.
        let (before, _) = w.state(None);
        let made = api.send_json(
            "POST",
            "/api/v1/tournaments",
            json!({"name": "Soweto Rapid", "rules": "gar", "rounds": 3}),
        );
        assert_eq!(made.status, 201, "{}", made.body);
        let sid2 = id(&made.json());
        assert_eq!(w.state(Some(sid2)).0, 1);
        assert_eq!(w.state(None).0, before);
        w.walked
            .insert(("POST".into(), "/api/v1/tournaments".into()));
        let s = format!("/api/v1/tournaments/{sid2}");
        w.step(
            "PATCH",
            "/api/v1/tournaments/{tid:\\d+}",
            Some(sid2),
            || api.send_json("PATCH", &s, json!({"venue": "Orlando Community Hall"})),
        );
        let mut ids = Vec::new();
        for (name, club, rating) in names {
            let r = w.step(
                "POST",
                "/api/v1/tournaments/{tid:\\d+}/players",
                Some(sid2),
                || {
                    api.send_json(
                    "POST",
                    &format!("{s}/players"),
                    json!({"name": name, "club": club, "rating": rating.parse::<i64>().unwrap()}),
                )
                },
            );
            ids.push(id(&r.json()));
        }
        w.step(
            "POST",
            "/api/v1/tournaments/{tid:\\d+}/relations",
            Some(sid2),
            || {
                api.send_json(
                    "POST",
                    &format!("{s}/relations"),
                    json!({"a": ids[0], "b": ids[3]}),
                )
            },
        );
        let ban = w.step(
            "POST",
            "/api/v1/tournaments/{tid:\\d+}/forbidden",
            Some(sid2),
            || {
                api.send_json(
                    "POST",
                    &format!("{s}/forbidden"),
                    json!({"a": ids[1], "b": ids[2]}),
                )
            },
        );
        let fid = id(&ban.json());
        let waiver = format!("{s}/forbidden/{fid}/waiver");
        w.step(
            "PUT",
            "/api/v1/tournaments/{tid:\\d+}/forbidden/{fid:\\d+}/waiver",
            Some(sid2),
            || {
                api.send_json(
                    "PUT",
                    &waiver,
                    json!({"reason": "a final they both asked for"}),
                )
            },
        );
        w.step(
            "DELETE",
            "/api/v1/tournaments/{tid:\\d+}/forbidden/{fid:\\d+}/waiver",
            Some(sid2),
            || api.send_json("DELETE", &waiver, json!({})),
        );
        w.step(
            "DELETE",
            "/api/v1/tournaments/{tid:\\d+}/forbidden/{fid:\\d+}",
            Some(sid2),
            || api.send_json("DELETE", &format!("{s}/forbidden/{fid}"), json!({})),
        );
        let round = w.step(
            "POST",
            "/api/v1/tournaments/{tid:\\d+}/rounds",
            Some(sid2),
            || api.send_json("POST", &format!("{s}/rounds"), json!({})),
        );
        let pairing = round.json()["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| !x["games"].as_array().unwrap().is_empty())
            .unwrap()
            .clone();
        let g = pairing["games"][0]["id"].as_i64().unwrap();
        w.step("PUT", "/api/v1/games/{gid:\\d+}", Some(sid2), || {
            api.send_json(
                "PUT",
                &format!("/api/v1/games/{g}"),
                json!({"result": "1-0"}),
            )
        });
        w.step(
            "PUT",
            "/api/v1/games/{gid:\\d+}/scoresheet",
            Some(sid2),
            || {
                api.send_json(
                    "PUT",
                    &format!("/api/v1/games/{g}/scoresheet"),
                    json!({"side": "referee", "text": RECORD}),
                )
            },
        );

        // --- A team league: teams from the form, the API and a file; a
        // captain's link; line-ups from the referee, the captain and a script.
        let league = api.create(
            "/api/v1/tournaments",
            json!({"name": "Gauteng League", "system": "team_league", "rules": "gar"}),
        );
        let lid = id(&league);
        let l = format!("/t/{lid}");
        let mut roster = Vec::new();
        for k in 0..9 {
            let r = api.create(
                &format!("/api/v1/tournaments/{lid}/players"),
                json!({"name": format!("{} {}", ["Kagiso", "Ayanda", "Tumelo"][k % 3], ["Sithole", "Shabalala", "Ndlovu"][k / 3]), "club": "Soweto MC"}),
            );
            roster.push(id(&r));
        }
        let r = |k: usize| roster[k].to_string();
        w.step("POST", "/t/{tid:\\d+}/teams", Some(lid), || {
            page.post(
                &format!("{l}/teams"),
                &[
                    ("name", "Soweto"),
                    ("club", "Soweto MC"),
                    ("b1", &r(0)),
                    ("b2", &r(1)),
                    ("b3", &r(2)),
                    ("b4", &r(3)),
                    ("substitutes", &r(8)),
                ],
            )
        });
        w.step("POST", "/api/v1/tournaments/{tid:\\d+}/teams", Some(lid), || {
            api.send_json(
                "POST",
                &format!("/api/v1/tournaments/{lid}/teams"),
                json!({"name": "Orlando", "club": "Soweto MC", "members": &roster[4..8], "substitutes": []}),
            )
        });
        let teams_csv = "team,name,club,rating,board,substitute\n\
                         Tembisa,Karabo Zulu,Tembisa MC,1650,1,\n\
                         Tembisa,Dineo Khumalo,Tembisa MC,,2,\n\
                         Tembisa,Naledi Sithole,Tembisa MC,,3,\n\
                         Tembisa,Tshepo Molefe,Tembisa MC,,4,\n\
                         Kagiso,Lesego Ndlovu,Kagiso MC,1700,1,\n\
                         Kagiso,Boitumelo Dlamini,Kagiso MC,,2,\n\
                         Kagiso,Refilwe Nkosi,Kagiso MC,,3,\n\
                         Kagiso,Mpho Shabalala,Kagiso MC,,4,\n";
        w.step("POST", "/t/{tid:\\d+}/teams/import", Some(lid), || {
            page.post(&format!("{l}/teams/import"), &[("csv", teams_csv)])
        });
        let soweto = kraal::db::teams::list(&mut app.conn(), kraal::ids::TournamentId(lid as i32))
            .unwrap()
            .into_iter()
            .find(|x| x.name == "Soweto")
            .unwrap()
            .id;
        let shown = w.step(
            "POST",
            "/t/{tid:\\d+}/teams/{team:\\d+}/captain-link",
            Some(lid),
            || page.post(&format!("{l}/teams/{soweto}/captain-link"), &[]),
        );
        let at = shown.body.find("/captain/").expect("the link on the page");
        let captain_link: String = shown.body[at..]
            .split(|c: char| !(c == '/' || c.is_ascii_alphanumeric()))
            .next()
            .unwrap()
            .to_string();
        let round = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{lid}/rounds"),
            json!({}),
        );
        assert_eq!(round.status, 201, "{}", round.body);
        let lineup = format!("{l}/rounds/1/lineups/{soweto}");
        let fields = form_of(
            &mut page,
            &lineup,
            &format!("action=\"{lineup}\""),
            &[("b1", &r(1)), ("b2", &r(0))],
        );
        w.step(
            "POST",
            "/t/{tid:\\d+}/rounds/{n:\\d+}/lineups/{team:\\d+}",
            Some(lid),
            || post_fields(&mut page, &lineup, &fields),
        );
        let mut captain = app.client();
        assert_eq!(captain.get(&captain_link).status, 200);
        w.step("POST", "/captain/{token}", Some(lid), || {
            captain.post(
                &captain_link,
                &[("b1", &r(0)), ("b2", &r(1)), ("b3", &r(8)), ("b4", &r(3))],
            )
        });
        w.step(
            "PUT",
            "/api/v1/tournaments/{tid:\\d+}/rounds/{n:\\d+}/lineups/{team:\\d+}",
            Some(lid),
            || {
                api.send_json(
                    "PUT",
                    &format!("/api/v1/tournaments/{lid}/rounds/1/lineups/{soweto}"),
                    json!({"boards": [roster[0], roster[1], roster[2], roster[3]]}),
                )
            },
        );
        let (_, pairings, _) =
            kraal::db::rounds::everything(&mut app.conn(), kraal::ids::TournamentId(lid as i32))
                .unwrap();
        let m = pairings
            .iter()
            .find(|x| {
                x.board.is_none()
                    && (x.first_team_id == Some(soweto) || x.second_team_id == Some(soweto))
            })
            .unwrap()
            .id;
        w.step(
            "POST",
            "/t/{tid:\\d+}/rounds/{n:\\d+}/matches/{mid:\\d+}/start",
            Some(lid),
            || page.post(&format!("{l}/rounds/1/matches/{m}/start"), &[]),
        );

        // --- The registry: people, a merge and its undo, seasons, a
        // round's day, an entry refreshed from its person.
        w.step("POST", "/people", None, || {
            page.post(
                "/people",
                &[("name", "Puleng Mabuza"), ("federation_id", "GP-9")],
            )
        });
        w.step("POST", "/people/import", None, || {
            page.post(
                "/people/import",
                &[("csv", "name,federation_id\nDumisani Mabuza,GP-10\n")],
            )
        });
        // The federation's server, named by the admin, and its list
        // pulled: one person this registry lacks.
        let federation = TestApp::start("sqlite");
        let registrar = federation.user("registrar", Role::Referee);
        federation.client_as(&registrar).post(
            "/people/import",
            &[("csv", "name,federation_id\nLungile Mabuza,GP-11\n")],
        );
        w.step("POST", "/admin/federation", None, || {
            boss.post("/admin/federation", &[("url", &federation.base)])
        });
        w.step("POST", "/people/pull", None, || {
            page.post("/people/pull", &[])
        });
        let mut person = |name: &str| {
            let r = w.step("POST", "/api/v1/people", None, || {
                api.send_json("POST", "/api/v1/people", json!({ "name": name }))
            });
            id(&r.json())
        };
        let (a, b) = (person("Themba Mabuza"), person("T. Mabuza"));
        w.step("POST", "/people/{id:\\d+}/merge", None, || {
            page.post(
                &format!("/people/{a}/merge"),
                &[("into", &b.to_string()), ("confirm", "yes")],
            )
        });
        let merge = kraal::db::people::merges_of(&mut app.conn(), kraal::ids::PersonId(a as i32))
            .unwrap()[0]
            .id;
        w.step("POST", "/merges/{id:\\d+}/undo", None, || {
            page.post(&format!("/merges/{merge}/undo"), &[])
        });
        let again = w.step("POST", "/api/v1/people/{id:\\d+}/merge", None, || {
            api.send_json(
                "POST",
                &format!("/api/v1/people/{a}/merge"),
                json!({ "into": b }),
            )
        });
        let again = id(&again.json());
        w.step("DELETE", "/api/v1/merges/{id:\\d+}", None, || {
            api.send_json("DELETE", &format!("/api/v1/merges/{again}"), json!({}))
        });
        let e = tid.to_string();
        w.step("POST", "/seasons", None, || {
            page.post("/seasons", &[("name", "Gauteng Season"), ("event", &e)])
        });
        let second = w.step("POST", "/api/v1/seasons", None, || {
            api.send_json(
                "POST",
                "/api/v1/seasons",
                json!({"name": "Gauteng Season II", "events": [{"tournament": tid, "weight": 2}]}),
            )
        });
        let second = id(&second.json());
        w.step("PATCH", "/api/v1/seasons/{id:\\d+}", None, || {
            api.send_json(
                "PATCH",
                &format!("/api/v1/seasons/{second}"),
                json!({"name": "Gauteng Season 2026", "best": 3}),
            )
        });
        w.step("POST", "/seasons/{id:\\d+}/edit", None, || {
            page.post(
                &format!("/seasons/{second}/edit"),
                &[
                    ("name", "Gauteng Winter Season"),
                    ("event", &e),
                    (&format!("weight_{e}"), "1.5"),
                ],
            )
        });
        w.step("POST", "/seasons/{id:\\d+}/delete", None, || {
            page.post(&format!("/seasons/{second}/delete"), &[("confirm", "yes")])
        });
        let third = id(&api.create(
            "/api/v1/seasons",
            json!({"name": "Gauteng Season III", "events": [{"tournament": tid}]}),
        ));
        w.step("DELETE", "/api/v1/seasons/{id:\\d+}", None, || {
            api.send_json("DELETE", &format!("/api/v1/seasons/{third}"), json!({}))
        });
        w.step(
            "POST",
            "/t/{tid:\\d+}/rounds/{n:\\d+}/date",
            Some(lid),
            || page.post(&format!("{l}/rounds/1/date"), &[("date", "2026-06-13")]),
        );
        w.step(
            "PATCH",
            "/api/v1/tournaments/{tid:\\d+}/rounds/{n:\\d+}",
            Some(lid),
            || {
                api.send_json(
                    "PATCH",
                    &format!("/api/v1/tournaments/{lid}/rounds/1"),
                    json!({"date": "2026-06-14"}),
                )
            },
        );
        let fresh = id(&api.create(
            "/api/v1/tournaments",
            json!({"name": "Mabuza Memorial", "rules": "official", "rounds": 3}),
        ));
        let entry = id(&api.create(
            &format!("/api/v1/tournaments/{fresh}/players"),
            json!({ "person": a }),
        ));
        // The referee typed another club by hand; the refresh takes the
        // person's again.
        let edited = page.post(
            &format!("/t/{fresh}/players/{entry}/edit"),
            &[
                ("name", "Themba Mabuza"),
                ("club", "Typed By Hand"),
                ("rating", ""),
                ("seed", ""),
            ],
        );
        assert_eq!(edited.status, 303, "{}", edited.body);
        w.step(
            "POST",
            "/t/{tid:\\d+}/players/{pid:\\d+}/refresh",
            Some(fresh),
            || page.post(&format!("/t/{fresh}/players/{entry}/refresh"), &[]),
        );

        // A copy of the Swiss published here from a venue, by an admin: a
        // new tournament whose import is its first change, then a newer
        // revision that replaces it and moves its revision on.
        let mut chief = app.script_for(&admin);
        let file = kraal::db::event::export(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
            .unwrap();
        let published = |chief: &mut Client, revision: i64| {
            chief.send_json(
                "PUT",
                "/api/v1/published/gauteng-open-venue",
                json!({"revision": revision, "server": "Soweto venue", "event": &file}),
            )
        };
        let r = published(&mut chief, 1);
        assert_eq!(r.status, 200, "{}", r.body);
        let copy = r.json()["tournament"].as_i64().unwrap();
        let (entries, revision) = w.state(Some(copy));
        assert!(entries > 0, "the import is recorded");
        let r = published(&mut chief, 2);
        assert_eq!(r.json()["changed"], true, "{}", r.body);
        assert!(
            w.state(Some(copy)).1 > revision,
            "the copy's revision moved on"
        );
        w.walked.insert((
            "PUT".into(),
            "/api/v1/published/{origin:[0-9A-Za-z_-]{8,64}}".into(),
        ));

        // The Swiss published to a federation's server, then not, from
        // the page and through the API.
        w.step("POST", "/t/{tid:\\d+}/publication", Some(tid), || {
            page.post(
                &format!("{t}/publication"),
                &[
                    ("to", "https://federation.example/"),
                    ("token", "issued-there"),
                ],
            )
        });
        w.step(
            "POST",
            "/t/{tid:\\d+}/publication/send-now",
            Some(tid),
            || page.post(&format!("{t}/publication/send-now"), &[("back", &t)]),
        );
        w.step("POST", "/t/{tid:\\d+}/publication/stop", Some(tid), || {
            page.post(&format!("{t}/publication/stop"), &[])
        });
        w.step(
            "PUT",
            "/api/v1/tournaments/{tid:\\d+}/publication",
            Some(tid),
            || {
                api.send_json(
                    "PUT",
                    &format!("/api/v1/tournaments/{tid}/publication"),
                    json!({"to": "https://federation.example", "token": "issued-there"}),
                )
            },
        );
        w.step(
            "DELETE",
            "/api/v1/tournaments/{tid:\\d+}/publication",
            Some(tid),
            || {
                api.send_json(
                    "DELETE",
                    &format!("/api/v1/tournaments/{tid}/publication"),
                    json!({}),
                )
            },
        );

        // A tournament withdrawn from public view and returned, from the
        // page and through the API; then deleted by an admin, from the
        // page (after its question) and through the API: the deletion is
        // a change of no tournament.
        w.step("POST", "/t/{tid:\\d+}/archive", Some(fresh), || {
            page.post(&format!("/t/{fresh}/archive"), &[("archived", "yes")])
        });
        w.step(
            "PATCH",
            "/api/v1/tournaments/{tid:\\d+}",
            Some(fresh),
            || {
                api.send_json(
                    "PATCH",
                    &format!("/api/v1/tournaments/{fresh}"),
                    json!({"archived": false}),
                )
            },
        );
        let asked = boss.post(&format!("/t/{fresh}/delete"), &[]);
        assert_eq!(asked.status, 200, "{}", asked.body);
        w.step("POST", "/t/{tid:\\d+}/delete", None, || {
            boss.post(&format!("/t/{fresh}/delete"), &[("confirm", "yes")])
        });
        let mut chief = app.script_for(&admin);
        w.step("DELETE", "/api/v1/tournaments/{tid:\\d+}", None, || {
            chief.send_json("DELETE", &format!("/api/v1/tournaments/{copy}"), json!({}))
        });

        // Every write route of the table was walked.
        let writes: BTreeSet<(String, String)> = kraal::web::routes::ROUTES
            .iter()
            .filter(|r| {
                r.method != "GET"
                    && !ACCOUNT_ROUTES.contains(&r.path)
                    && !NOT_AN_EVENTS_CHANGE.contains(&r.path)
            })
            .map(|r| (r.method.to_string(), r.path.to_string()))
            .collect();
        let missing: Vec<_> = writes.difference(&w.walked).collect();
        assert!(
            missing.is_empty(),
            "write routes this test does not walk: {missing:?}"
        );
    }
}

//! The authorisation matrix: every route that needs an account, called by
//! an anonymous visitor, a referee of another tournament, the assigned
//! referee and an admin. The routes come from the app's own table, so a new
//! route without a sample request here fails this test.

#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, TestApp};
use kraal::db::users::Role;
use kraal::web::routes::{Access, ROUTES};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Who {
    Anonymous,
    OtherReferee,
    AssignedReferee,
    Admin,
}

/// A valid request body for each route that needs an account.
fn sample(method: &str, path: &str, n: usize) -> Option<Vec<(&'static str, String)>> {
    let s = |v: &[(&'static str, &str)]| Some(v.iter().map(|(k, v)| (*k, v.to_string())).collect());
    if method == "GET" {
        return Some(Vec::new());
    }
    match path {
        "/account/tokens" => s(&[("label", "scoreboard")]),
        "/account/tokens/{id:\\d+}/revoke" => s(&[]),
        "/account/password" => s(&[
            ("current", common::PASSWORD),
            ("password", common::PASSWORD),
            ("password2", common::PASSWORD),
        ]),
        "/admin/users" => Some(vec![
            ("name", format!("newref{n}")),
            ("role", "referee".into()),
            ("password", "newref-pass".into()),
        ]),
        "/t" => s(&[("name", "Northern Cape Open"), ("rounds", "5")]),
        "/t/{tid:\\d+}/edit" => s(&[("name", "Renamed Open"), ("rounds", "6")]),
        "/t/{tid:\\d+}/referees" => Some(vec![]), // user_id filled in by the caller
        "/t/{tid:\\d+}/referees/{uid:\\d+}/remove" => s(&[]),
        "/t/{tid:\\d+}/players" => s(&[("name", "Bongani Khumalo"), ("club", "Kimberley MC")]),
        "/t/{tid:\\d+}/players/{pid:\\d+}/edit" => {
            s(&[("name", "Zodwa Mthembu"), ("rating", "1700")])
        }
        "/t/{tid:\\d+}/players/{pid:\\d+}/withdraw" => s(&[("confirm", "yes")]),
        "/t/{tid:\\d+}/players/{pid:\\d+}/reinstate" => s(&[]),
        "/t/{tid:\\d+}/relations" => Some(vec![]), // a and b filled in by the caller
        "/t/{tid:\\d+}/relations/{rid:\\d+}/remove" => s(&[]),
        "/t/{tid:\\d+}/forbidden" => Some(vec![]), // a and b filled in by the caller
        "/t/{tid:\\d+}/forbidden/{fid:\\d+}/remove" => s(&[]),
        "/t/{tid:\\d+}/forbidden/{fid:\\d+}/waive" => s(&[("reason", "only two juniors left")]),
        "/t/{tid:\\d+}/forbidden/{fid:\\d+}/unwaive" => s(&[]),
        "/t/{tid:\\d+}/import" => s(&[("csv", "name,club\nKeabetswe Sello,Mafikeng MC\n")]),
        "/t/{tid:\\d+}/rounds" => s(&[]),
        "/t/{tid:\\d+}/byes" => Some(vec![("round", "2".into())]), // player filled in by the caller
        "/t/{tid:\\d+}/rounds/{n:\\d+}/swap" => Some(vec![("confirm", "yes".into())]), // players filled in
        "/api/v1/tournaments" => s(&[("name", "API Open"), ("rounds", "5")]),
        "/api/v1/tournaments/{tid:\\d+}" => s(&[("venue", "Kimberley City Hall")]),
        "/api/v1/tournaments/{tid:\\d+}/players" => s(&[("name", "Refilwe Dube")]),
        "/api/v1/tournaments/{tid:\\d+}/relations" => Some(vec![]),
        "/api/v1/tournaments/{tid:\\d+}/forbidden" => Some(vec![]), // a and b filled in
        "/api/v1/tournaments/{tid:\\d+}/forbidden/{fid:\\d+}" => s(&[]),
        "/api/v1/tournaments/{tid:\\d+}/forbidden/{fid:\\d+}/waiver" => {
            s(&[("reason", "only two juniors left")])
        }
        "/api/v1/tournaments/{tid:\\d+}/rounds" => s(&[]),
        "/api/v1/games/{gid:\\d+}" => s(&[("result", "1-0")]),
        "/api/v1/games/{gid:\\d+}/scoresheet" => {
            s(&[("text", "1. a1 d7 2. d1 g7"), ("side", "dark")])
        }
        "/t/{tid:\\d+}/games/{gid:\\d+}/records" => {
            s(&[("side", "light"), ("text", "1. a1 d7 2. d1 g7")])
        }
        "/t/{tid:\\d+}/games/{gid:\\d+}/ruling" => s(&[
            ("kind", "other"),
            ("result", "1/2-1/2"),
            ("reason", "agreed at the board"),
        ]),
        // game filled in by the caller
        "/p/{pid:\\d+}/{key:[0-9a-f]{32}}" => s(&[("side", "dark"), ("text", "1. a1 d7 2. d1 g7")]),
        // game filled in by the caller
        "/player/{key}/results" | "/api/v1/player/{key}/results" => s(&[("result", "1-0")]),
        "/player/{key}/next-round" => s(&[("word", "zero")]),
        "/api/v1/player/{key}/next-round" => Some(vec![]), // a JSON body of its own
        "/api/v1/player/{key}/games/{gid:\\d+}/plies" => s(&[("ply", "1"), ("move", "C5")]),
        "/api/v1/player/{key}/games/{gid:\\d+}/plies/{n:\\d+}/rectify"
        | "/api/v1/player/{key}/games/{gid:\\d+}/plies/{n:\\d+}/stand" => s(&[]),
        "/t/{tid:\\d+}/players/{pid:\\d+}/link/renew"
        | "/t/{tid:\\d+}/players/{pid:\\d+}/link/revoke"
        | "/api/v1/tournaments/{tid:\\d+}/players/{pid:\\d+}/link" => s(&[]),
        // a bye of round 2 made by the caller
        "/t/{tid:\\d+}/players/{pid:\\d+}/byes/{n:\\d+}/cancel"
        | "/api/v1/tournaments/{tid:\\d+}/players/{pid:\\d+}/byes/{n:\\d+}" => s(&[]),
        "/t/{tid:\\d+}/rounds/{n:\\d+}/clock" => s(&[("starts_at", "09:30"), ("minutes", "40")]),
        "/api/v1/tournaments/{tid:\\d+}/rounds/{n:\\d+}/clock" => s(&[("minutes", "40")]),
        "/t/{tid:\\d+}/rounds/{n:\\d+}/publish" => s(&[]),
        "/t/{tid:\\d+}/rounds/{n:\\d+}/lock" => s(&[("lock", "yes")]),
        "/t/{tid:\\d+}/rounds/{n:\\d+}/undo" => s(&[("confirm", "yes")]),
        "/t/{tid:\\d+}/rounds/{n:\\d+}/clear" => s(&[]),
        "/t/{tid:\\d+}/rounds/{n:\\d+}/results" => s(&[]),
        "/t/{tid:\\d+}/teams" => Some(vec![("name", "Kimberley B".into())]), // boards filled in
        "/t/{tid:\\d+}/teams/import" => s(&[(
            "csv",
            "team,name,board\nUpington,Lindiwe Mabaso,1\nUpington,Vusi Mabaso,2\nUpington,Pule Tau,3\nUpington,Gift Tau,4\n",
        )]),
        "/t/{tid:\\d+}/teams/{team:\\d+}/captain-link" => s(&[]),
        "/t/{tid:\\d+}/rounds/{n:\\d+}/lineups/{team:\\d+}" => Some(vec![]), // boards filled in
        "/t/{tid:\\d+}/rounds/{n:\\d+}/matches/{mid:\\d+}/start" => s(&[]),
        "/api/v1/tournaments/{tid:\\d+}/teams" => Some(vec![]), // a JSON body of its own
        "/api/v1/tournaments/{tid:\\d+}/rounds/{n:\\d+}/lineups/{team:\\d+}" => Some(vec![]),
        "/people" => s(&[("name", "Lindiwe Mabaso"), ("club", "Kuruman MC")]),
        "/people/import" => s(&[("csv", "name,club\nVusi Mabaso,Kuruman MC\n")]),
        "/people/pull" => s(&[]),
        "/admin/federation" => s(&[("url", "https://ratings.example.org")]),
        "/people/{id:\\d+}/merge" | "/api/v1/people/{id:\\d+}/merge" => Some(vec![]), // into filled in
        "/merges/{id:\\d+}/undo" | "/api/v1/merges/{id:\\d+}" => s(&[]),
        // name and event filled in: a season's name is one season's
        "/seasons" | "/seasons/{id:\\d+}/edit" => Some(vec![]),
        "/seasons/{id:\\d+}/delete" => s(&[("confirm", "yes")]),
        "/api/v1/seasons/{id:\\d+}" => s(&[]), // PATCH (name filled in) and DELETE
        "/t/{tid:\\d+}/players/{pid:\\d+}/refresh" => s(&[]),
        "/t/{tid:\\d+}/rounds/{n:\\d+}/date" => s(&[("date", "2026-06-13")]),
        "/api/v1/people" => s(&[("name", "Gift Tau")]),
        "/api/v1/published/{origin:[0-9A-Za-z_-]{8,64}}" => Some(vec![]), // a JSON body of its own
        "/api/v1/published/{origin:[0-9A-Za-z_-]{8,64}}/games/{round:\\d+}/{table:\\d+}/{game:\\d+}" => {
            Some(vec![]) // a JSON body of its own
        }
        "/t/{tid:\\d+}/publication" => s(&[
            ("to", "https://federation.example"),
            ("token", "a-token-issued-there"),
        ]),
        "/t/{tid:\\d+}/publication/stop" => s(&[]),
        "/t/{tid:\\d+}/publication/send-now" => s(&[("back", "/t/1")]),
        "/t/{tid:\\d+}/archive" => s(&[("archived", "yes")]),
        "/t/{tid:\\d+}/delete" => s(&[("confirm", "yes")]),
        "/api/v1/tournaments/{tid:\\d+}/publication" => s(&[
            ("to", "https://federation.example"),
            ("token", "a-token-issued-there"),
        ]),
        "/api/v1/seasons" => Some(vec![]), // a JSON body of its own
        "/api/v1/tournaments/{tid:\\d+}/rounds/{n:\\d+}" => s(&[("date", "2026-06-13")]),
        _ => None,
    }
}

fn allowed(access: Access, who: Who) -> bool {
    match access {
        Access::Public | Access::Setup => true,
        Access::SignedIn => who != Who::Anonymous,
        // The test's referees are not allowed to publish.
        Access::Admin | Access::Publisher => who == Who::Admin,
        Access::Referee => matches!(who, Who::AssignedReferee | Who::Admin),
        // The key in the path is the permission: anyone holding it.
        Access::PlayerLink => true,
    }
}

#[test]
fn every_route_refuses_exactly_who_its_access_excludes() {
    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let assigned = app.user("assigned", Role::Referee);
        let other = app.user("other", Role::Referee);
        // The federation's server the pull reads, named by the admin
        // before each pull (the setting's own row of the matrix names
        // another).
        let federation = TestApp::start("sqlite");
        let mut checked = 0;
        for (n, route) in ROUTES.iter().enumerate() {
            let mut body_game: Option<kraal::ids::GameId> = None;
            let mut fields_extra: Vec<(&'static str, String)> = Vec::new();
            if matches!(route.access, Access::Public | Access::Setup) {
                // Only signing in and out and the first setup may change state without an account.
                if route.changes_state() {
                    assert!(
                        // A captain's link is its own key: the secret in
                        // the path opens one team's line-up and nothing else.
                        ["/login", "/logout", "/setup", "/captain/{token}"].contains(&route.path),
                        "{} {} changes state without an account: review it and add it here",
                        route.method,
                        route.path
                    );
                }
                continue;
            }
            if route.path == "/people/pull" {
                let named = app
                    .client_as(&admin)
                    .post("/admin/federation", &[("url", &federation.base)]);
                assert_eq!(named.status, 303, "{}", named.body);
            }
            let body = sample(route.method, route.path, n).unwrap_or_else(|| {
                panic!(
                    "no sample request for {} {}: add one to the matrix",
                    route.method, route.path
                )
            });
            for who in [
                Who::Anonymous,
                Who::OtherReferee,
                Who::AssignedReferee,
                Who::Admin,
            ] {
                // A fresh tournament per call, so one call cannot spoil the next.
                let teams_route = ["/teams", "/lineups/", "/matches/"]
                    .iter()
                    .any(|k| route.path.contains(k));
                let t = if teams_route {
                    team_league(&app, &admin, &format!("Matrix League {n} {who:?}"))
                } else {
                    common::tournament(&app, &admin, &format!("Matrix Open {n} {who:?}"))
                };
                kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
                    kraal::db::tournaments::assign_referee(w, t.id, &assigned)
                })
                .unwrap();
                let p1 =
                    common::player(&app, t.id, &admin, "Zodwa Mthembu", "Kimberley MC", "1650");
                let p2 = common::player(&app, t.id, &admin, "Musa Mthembu", "Kimberley MC", "1600");
                let p3 =
                    common::player(&app, t.id, &admin, "Karabo Sithole", "Upington MC", "1500");
                let team = teams_route.then(|| {
                    let ps: Vec<kraal::ids::EntryId> = (0..10)
                        .map(|k| {
                            common::player(
                                &app,
                                t.id,
                                &admin,
                                &format!("Matrix Player {k}"),
                                "Upington MC",
                                "1500",
                            )
                            .id
                        })
                        .collect();
                    let mut ids = Vec::new();
                    for (name, members, subs) in [
                        ("Kimberley A", &ps[0..4], &ps[4..5]),
                        ("Kuruman", &ps[5..9], &[][..]),
                    ] {
                        let new = kraal::db::teams::NewTeam {
                            name: name.into(),
                            club: String::new(),
                            members: members.to_vec(),
                            substitutes: subs.to_vec(),
                        };
                        ids.push(
                            kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
                                kraal::db::teams::create(w, t.id, &new)
                            })
                            .unwrap()
                            .id,
                        );
                    }
                    (ids[0], ps)
                });
                let rid = kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
                    kraal::db::players::add_relation(w, t.id, p1.id, p2.id)
                })
                .unwrap();
                let fid = kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
                    kraal::db::forbidden::add(
                        w,
                        t.id,
                        kraal::db::forbidden::NewForbidden {
                            a: p2.id,
                            b: p3.id,
                            from_round: None,
                            to_round: None,
                        },
                    )
                })
                .unwrap()
                .id;
                if route.path.ends_with("/unwaive")
                    || (route.method == "DELETE" && route.path.ends_with("/waiver"))
                {
                    kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
                        kraal::db::forbidden::waive(w, t.id, fid, "a final")
                    })
                    .unwrap();
                }
                let link = route.access == Access::PlayerLink;
                // A game's records sent by a venue: a published round.
                let game_place = route.path.contains("{round:");
                if route.path.contains("{n:") || route.path.contains("{gid:") || link || game_place
                {
                    let data = kraal::director::load(&mut app.conn(), t.id).unwrap();
                    let (n, planned) = data.pair_next().unwrap();
                    kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
                        kraal::db::rounds::create(w, t.id, n, &planned, 6, None)
                    })
                    .unwrap();
                    if route.path.contains("{gid:")
                        || link
                        || game_place
                        || route.path.ends_with("/lock")
                    {
                        // Results, records and locks wait for the round to be published.
                        kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
                            kraal::db::rounds::publish(w, t.id, n)
                        })
                        .unwrap();
                    }
                }
                if route.path.ends_with("/reinstate") {
                    kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
                        kraal::db::players::withdraw(w, t.id, p1.id)
                    })
                    .unwrap();
                }
                let actor = match who {
                    Who::Anonymous => None,
                    Who::OtherReferee => Some(&other),
                    Who::AssignedReferee => Some(&assigned),
                    Who::Admin => Some(&admin),
                };
                let token_owner = actor.unwrap_or(&admin);
                let token = kraal::accounts::new_token();
                kraal::db::auth::create_token(
                    &mut app.conn(),
                    token_owner.id,
                    "matrix",
                    &kraal::accounts::token_digest(&token),
                )
                .unwrap();
                let token_id =
                    kraal::db::auth::tokens_of(&mut app.conn(), token_owner.id).unwrap()[0].id;
                // The registry's routes: two people, the first merged into
                // the second for an undo; a refresh needs an entry that is
                // a person.
                let registry = |name: &str| {
                    let f = kraal::registry::PersonFields::parse(
                        &kraal::registry::PersonText {
                            name,
                            ..Default::default()
                        },
                        2026,
                    )
                    .unwrap();
                    kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
                        kraal::db::people::create(w, &f)
                    })
                    .unwrap()
                    .id
                };
                let mut entry = p1.id;
                let registry_id = if route.path.contains("seasons/{id") {
                    // A season of its own per call, over the fresh event.
                    let f = kraal::season::SeasonFields::check(
                        &format!("Matrix Season {n} {who:?} as made"),
                        None,
                        None,
                        &[(t.id.0, None)],
                    )
                    .unwrap();
                    let season = kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
                        kraal::db::seasons::create(w, &f)
                    })
                    .unwrap();
                    Some(season.id.0)
                } else if route.path.contains("people/{id") {
                    let (a, b) = (registry("Thato Matrix"), registry("T. Matrix"));
                    fields_extra.push(("into", b.to_string()));
                    Some(a.0)
                } else if route.path.contains("merges/{id") {
                    let (a, b) = (registry("Thato Matrix"), registry("T. Matrix"));
                    let m = kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
                        kraal::db::people::merge(w, a, b)
                    })
                    .unwrap();
                    Some(m.merge.id)
                } else {
                    if route.path.ends_with("/refresh") {
                        let person = registry("Kagiso Matrix");
                        entry = kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
                            kraal::director::registry::enter(w, t.id, person, None, None)
                        })
                        .unwrap()
                        .id;
                    }
                    None
                };
                if ["/seasons", "/seasons/{id:\\d+}/edit"].contains(&route.path) {
                    fields_extra.push(("name", format!("Matrix Season {n} {who:?}")));
                    fields_extra.push(("event", t.id.to_string()));
                }
                let path = match registry_id {
                    Some(id) => route.path.replace("{id:\\d+}", &id.to_string()),
                    None => route.path.to_string(),
                };
                let path = path
                    .replace("{tid:\\d+}", &t.id.to_string())
                    .replace("{pid:\\d+}", &entry.to_string())
                    .replace("{rid:\\d+}", &rid.to_string())
                    .replace("{fid:\\d+}", &fid.to_string())
                    .replace("{uid:\\d+}", &assigned.id.to_string())
                    .replace("{id:\\d+}", &token_id.to_string())
                    .replace("{n:\\d+}", "1")
                    .replace(
                        "{origin:[0-9A-Za-z_-]{8,64}}",
                        &format!("matrix-origin-{n}-{who:?}"),
                    );
                let path = if route.path.contains("{round:") {
                    // The place of the event's first game: its round,
                    // table and number.
                    let ctx =
                        kraal::db::rounds::game_context(&mut app.conn(), first_game(&app, t.id))
                            .unwrap();
                    path.replace("{round:\\d+}", &ctx.round.number.to_string())
                        .replace("{table:\\d+}", &ctx.pairing.table_no.to_string())
                        .replace("{game:\\d+}", &ctx.game.number.to_string())
                } else {
                    path
                };
                let path = match &team {
                    Some((team_id, _)) => {
                        let data = kraal::director::load(&mut app.conn(), t.id).unwrap();
                        let mid = data
                            .rounds
                            .first()
                            .and_then(|r| data.matches_of(r).first().map(|m| m.id))
                            .unwrap_or(kraal::ids::PairingId(0));
                        path.replace("{team:\\d+}", &team_id.to_string())
                            .replace("{mid:\\d+}", &mid.to_string())
                    }
                    None => path,
                };
                let path = if path.contains("{gid:") {
                    path.replace("{gid:\\d+}", &first_game(&app, t.id).to_string())
                } else {
                    path
                };
                let path = if route.path.contains("/byes/{n:") {
                    // A player's word on round 2, for the referee to undo.
                    kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
                        kraal::db::byes::request_bye(
                            w,
                            t.id,
                            entry,
                            kraal::ids::RoundNo(2),
                            false,
                            true,
                        )
                    })
                    .unwrap();
                    path.replace("/byes/1", "/byes/2")
                } else {
                    path
                };
                let path = if link {
                    let (_, pairings, games) =
                        kraal::db::rounds::everything(&mut app.conn(), t.id).unwrap();
                    let p = pairings
                        .iter()
                        .find(|p| p.second_player_id.is_some())
                        .unwrap();
                    let game = games.iter().find(|g| g.pairing_id == p.id).unwrap();
                    if !route.path.ends_with("/next-round")
                        && !route.path.contains("/plies")
                        && route.method != "GET"
                    {
                        body_game = Some(game.id);
                    }
                    if route.path.contains("{key}") {
                        // A player's personal link: the first player of the table.
                        let key =
                            kraal::db::links::key(&mut app.conn(), p.first_player_id.unwrap())
                                .unwrap()
                                .unwrap();
                        if route.path.contains("/plies/{n:") {
                            // Ply 2, the other player's, is irregular (onto a
                            // taken junction): the first player's to rule on.
                            for (n, ply) in [(1, "C5"), (2, "C5")] {
                                kraal::director::recording::record_ply(
                                    &mut app.conn(),
                                    &Default::default(),
                                    &key,
                                    game.id,
                                    n,
                                    ply,
                                )
                                .unwrap();
                            }
                        }
                        route
                            .path
                            .replace("{key}", &key)
                            .replace("{gid:\\d+}", &game.id.to_string())
                            .replace("{n:\\d+}", "2")
                    } else {
                        let key =
                            kraal::director::scoresheets::link_key(&mut app.conn(), p.id).unwrap();
                        format!("/p/{}/{key}", p.id)
                    }
                } else {
                    path
                };
                let mut fields = body.clone();
                fields.append(&mut fields_extra);
                if let Some(g) = body_game.take() {
                    fields.push(("game", g.to_string()));
                }
                if route.path.ends_with("/referees") {
                    fields.push(("user_id", other.id.to_string()));
                }
                if route.path.ends_with("/byes") {
                    fields.push(("player", p3.id.to_string()));
                }
                if route.path.ends_with("/swap") {
                    fields.push(("a", p1.id.to_string()));
                    fields.push(("b", p2.id.to_string()));
                }
                if let Some((_, ps)) = &team {
                    // The new team takes the four free players; a line-up
                    // brings the substitute in on board 4.
                    let boards: Vec<kraal::ids::EntryId> = if route.path.ends_with("/teams") {
                        vec![p1.id, p2.id, p3.id, ps[9]]
                    } else {
                        vec![ps[0], ps[1], ps[2], ps[4]]
                    };
                    for (k, b) in boards.iter().enumerate() {
                        fields.push((["b1", "b2", "b3", "b4"][k], b.to_string()));
                    }
                }
                if route.path.ends_with("/relations") || route.path.ends_with("/forbidden") {
                    fields.push(("a", p1.id.to_string()));
                    fields.push(("b", p3.id.to_string()));
                }
                let mut client: Client = match actor {
                    Some(u) => app.client_as(u),
                    None => {
                        let mut c = app.client();
                        c.get("/login"); // an anonymous browser has a CSRF cookie too
                        c
                    }
                };
                let pairs: Vec<(&str, &str)> =
                    fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let reply = if route.path.starts_with("/api/") {
                    // Scripts use tokens; a JSON body carries the same sample.
                    let mut script = match actor {
                        Some(_) => app.script(&token),
                        None => app.client(),
                    };
                    let mut json = serde_json::Map::new();
                    for (k, v) in &fields {
                        let value = match v.parse::<i64>() {
                            Ok(n) if *k != "name" && *k != "result" => serde_json::json!(n),
                            _ => serde_json::json!(v),
                        };
                        json.insert(k.to_string(), value);
                    }
                    if route.path.ends_with("/next-round") {
                        json = serde_json::json!({"play": false, "bye": "zero"})
                            .as_object()
                            .unwrap()
                            .clone();
                    } else if route.path == "/api/v1/seasons" {
                        json = serde_json::json!({
                            "name": format!("Matrix Season {n} {who:?}"),
                            "events": [{"tournament": t.id}],
                        })
                        .as_object()
                        .unwrap()
                        .clone();
                    } else if route.path == "/api/v1/seasons/{id:\\d+}" && route.method == "PATCH" {
                        json = serde_json::json!({ "name": format!("Matrix Season {n} {who:?}") })
                            .as_object()
                            .unwrap()
                            .clone();
                    } else if route.path.starts_with("/api/v1/published/")
                        && route.path.contains("/games/")
                    {
                        // The event published first, by the same caller.
                        let file = kraal::db::event::export(&mut app.conn(), t.id).unwrap();
                        let event = path[..path.find("/games/").unwrap()].to_string();
                        script.send_json(
                            "PUT",
                            &event,
                            serde_json::json!({
                                "revision": 1, "server": "Matrix venue", "event": file,
                            }),
                        );
                        json = serde_json::json!({ "dark": ["C5"], "light": ["C5"] })
                            .as_object()
                            .unwrap()
                            .clone();
                    } else if route.path.starts_with("/api/v1/published/") {
                        let file = kraal::db::event::export(&mut app.conn(), t.id).unwrap();
                        json = serde_json::json!({
                            "revision": 1, "server": "Matrix venue", "event": file,
                        })
                        .as_object()
                        .unwrap()
                        .clone();
                    } else if let (Some((_, ps)), true) = (&team, route.path.ends_with("/teams")) {
                        json = serde_json::json!({
                            "name": "Kimberley B", "members": [p1.id, p2.id, p3.id, ps[9]],
                        })
                        .as_object()
                        .unwrap()
                        .clone();
                    } else if let (Some((_, ps)), true) = (&team, route.path.contains("/lineups/"))
                    {
                        json = serde_json::json!({ "boards": [ps[0], ps[1], ps[2], ps[4]] })
                            .as_object()
                            .unwrap()
                            .clone();
                    }
                    if route.method == "GET" {
                        script.get(&path)
                    } else {
                        script.send_json(route.method, &path, serde_json::Value::Object(json))
                    }
                } else if route.method == "GET" {
                    client.get(&path)
                } else {
                    client.post(&path, &pairs)
                };
                let expect_ok = allowed(route.access, who);
                let ok = (200..400).contains(&reply.status);
                let expected_refusal = if who == Who::Anonymous { 401 } else { 403 };
                assert!(
                    if expect_ok {
                        ok
                    } else {
                        reply.status == expected_refusal
                    },
                    "[{}] {} {} as {:?}: got {} (expected {})\n{}",
                    app.backend,
                    route.method,
                    path,
                    who,
                    reply.status,
                    if expect_ok {
                        "success".to_string()
                    } else {
                        expected_refusal.to_string()
                    },
                    reply.body.chars().take(600).collect::<String>()
                );
                checked += 1;
            }
        }
        assert!(checked >= 4 * 20, "the matrix covered only {checked} calls");
    }
}

/// A team league for the team routes (its teams are added by the caller).
fn team_league(
    app: &TestApp,
    creator: &kraal::db::users::User,
    name: &str,
) -> kraal::db::tournaments::Tournament {
    let fields = kraal::tournament::RawTournament {
        name: name.into(),
        system: "team_league".into(),
        rules: "official".into(),
        rounds: String::new(),
        ..Default::default()
    }
    .check()
    .unwrap();
    kraal::director::commit(&mut app.conn(), Some(creator.id), |w| {
        kraal::db::tournaments::create(w, &fields, creator)
    })
    .unwrap()
}

fn first_game(app: &TestApp, tid: kraal::ids::TournamentId) -> kraal::ids::GameId {
    let (_, _, games) = kraal::db::rounds::everything(&mut app.conn(), tid).unwrap();
    games[0].id
}

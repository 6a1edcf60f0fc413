//! Explanations stored by an older version hold English sentences where a
//! value now stands. The first start after the upgrade rewrites them as
//! values, once (the migration 000039 and the conversion after it), and the
//! round page words them; an old event file's sentences are read into
//! values when it is imported.

#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, Served, TestApp};
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use kraal::db::schema::{pairings, settings};
use kraal::db::users::{Role, User};
use kraal::pairing::explain::{
    Bent, Explanation, Float, FloatDirection, Note, Rule, WaiverUsed, Why,
};
use serde_json::json;

/// An explanation as a version before values stored it, about `player`.
fn old_sentences(player: i64) -> String {
    json!({
        "bracket": 10,
        "floats": [{"player": player, "direction": "down", "from_score": 10, "to_score": 0}],
        "bent": [{
            "rule": format!("player {player}: no downfloat in two consecutive rounds (C14)"),
            "why": "no pairing of this bracket with as many pairs and as high scores paired avoids it"
        }],
        "waivers": ["waived by the referee (same lift home): relatives never meet (GAR)"],
        "notes": [
            format!("player {player} moved down from the 1 bracket: no opponent there was possible \
                     without a rematch, a forbidden pair, or leaving the round incomplete, or the \
                     bracket had an odd number of players"),
            "a sentence no version of Kraal wrote"
        ]
    })
    .to_string()
}

/// The values `old_sentences(player)` stands for.
fn as_values(player: i64) -> Explanation {
    let player = player as kraal::pairing::PlayerId;
    Explanation {
        bracket: Some(10),
        floats: vec![Float {
            player,
            direction: FloatDirection::Down,
            from_score: 10,
            to_score: 0,
        }],
        bent: vec![Bent {
            rule: Rule::RepeatedFloat {
                player,
                direction: FloatDirection::Down,
                rounds_before: 1,
            },
            why: Why::Bracket {
                fewer_floats: false,
            },
        }],
        waivers: vec![WaiverUsed::Used {
            reason: "same lift home".into(),
            rule: Rule::RelativesNever,
        }],
        notes: vec![Note::MovedDown { player, from: 10 }, Note::Unreadable],
    }
}

fn stored(conn: &mut kraal::db::DbConnection, pairing: i32) -> String {
    pairings::table
        .find(pairing)
        .select(pairings::explanation)
        .first(conn)
        .unwrap()
}

fn store(conn: &mut kraal::db::DbConnection, pairing: i32, text: &str) {
    diesel::update(pairings::table.find(pairing))
        .set(pairings::explanation.eq(text))
        .execute(conn)
        .unwrap();
}

fn marker(conn: &mut kraal::db::DbConnection) -> Option<String> {
    settings::table
        .find("explanations_as_values")
        .select(settings::value)
        .first(conn)
        .optional()
        .unwrap()
}

/// The database as a version before migration 000039 left it.
fn before_the_upgrade(conn: &mut kraal::db::DbConnection) {
    conn.batch_execute(
        "DELETE FROM __diesel_schema_migrations WHERE version = '20261129000039'; \
         DELETE FROM settings WHERE key = 'explanations_as_values';",
    )
    .unwrap();
}

/// A published Swiss round 1 of four: its referee, the tournament and the
/// pairings as the API gives them.
fn paired_round(app: &TestApp) -> (User, i64, Vec<serde_json::Value>) {
    let admin = app.user("referee", Role::Admin);
    let mut api = app.script_for(&admin);
    let (tid, _) = common::api_tournament(
        &mut api,
        json!({"name": "Mafikeng Open", "system": "swiss", "rules": "official", "rounds": 3}),
        &[
            "Kagiso Molefe",
            "Refilwe Dube",
            "Thabo Nkosi",
            "Naledi Khumalo",
        ]
        .iter()
        .enumerate()
        .map(|(i, n)| json!({"name": n, "rating": 1900 - 50 * i as i64}))
        .collect::<Vec<_>>(),
    );
    let pairings = common::pair(&mut api, tid);
    (admin, tid, pairings)
}

/// What the page shows of `line`: askama escapes these.
fn escaped(line: &str) -> String {
    line.replace('&', "&amp;")
        .replace('\'', "&#x27;")
        .replace('"', "&quot;")
}

#[test]
fn the_first_start_after_the_upgrade_stores_old_sentences_as_values_once() {
    for app in TestApp::all() {
        let (_, tid, round) = paired_round(&app);
        let first = round[0]["id"].as_i64().unwrap() as i32;
        let second = round[1]["id"].as_i64().unwrap() as i32;
        let player = round[0]["first_id"].as_i64().unwrap();
        let name = round[0]["first"].as_str().unwrap().to_string();
        let mut conn = app.conn();
        store(&mut conn, first, &old_sentences(player));
        let by_hand =
            r#"{"bracket":null,"floats":[],"bent":[],"waivers":[],"notes":["changed by hand"]}"#;
        store(&mut conn, second, by_hand);
        before_the_upgrade(&mut conn);
        assert_eq!(marker(&mut conn), None);

        // The app starts as an operator starts it, migrating first.
        let served = Served::start(&app.database_url, |_| {});
        assert_eq!(
            marker(&mut conn).as_deref(),
            Some("done"),
            "{}",
            app.backend
        );
        let now = stored(&mut conn, first);
        let values: serde_json::Value = serde_json::from_str(&now).unwrap();
        assert_eq!(
            values["bent"][0]["rule"],
            json!({"kind": "repeated_float", "player": player, "direction": "down", "rounds_before": 1}),
            "{now}"
        );
        assert_eq!(values["notes"][1], json!({"kind": "unreadable"}), "{now}");
        assert_eq!(
            serde_json::from_str::<Explanation>(&now).unwrap(),
            as_values(player),
            "{}",
            app.backend
        );
        let hand: Explanation = serde_json::from_str(&stored(&mut conn, second)).unwrap();
        assert_eq!(hand.notes, vec![Note::ChangedByHand]);

        // The round page words the values, the player by name.
        let page = Client::new(&served.base).get(&format!("/t/{tid}/rounds/1"));
        assert_eq!(page.status, 200, "{}", page.body);
        let named = |id| {
            if i64::from(id) == player {
                name.clone()
            } else {
                format!("player {id}")
            }
        };
        let lines = kraal::wording::pairing::explanation(&as_values(player), &named);
        assert!(lines.iter().any(|l| l.starts_with(&name)), "{lines:?}");
        for line in &lines {
            assert!(page.body.contains(&escaped(line)), "{line}\n{}", page.body);
        }
        drop(served);

        // It ran once: a later start leaves what it finds.
        store(&mut conn, second, by_hand);
        kraal::db::Database::parse(&app.database_url, false)
            .unwrap()
            .open(1)
            .unwrap();
        assert_eq!(stored(&mut conn, second), by_hand, "{}", app.backend);
    }
}

#[test]
fn an_old_event_files_sentences_are_read_into_values_on_import() {
    for app in TestApp::all() {
        let (admin, tid, round) = paired_round(&app);
        let player = round[0]["first_id"].as_i64().unwrap();
        let name = round[0]["first"].as_str().unwrap();
        let table = round[0]["table"].as_i64().unwrap() as i32;
        let mut file =
            kraal::db::event::export(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap();
        let old = file
            .pairings
            .iter_mut()
            .find(|p| i64::from(p.id) == round[0]["id"].as_i64().unwrap())
            .unwrap();
        old.explanation = old_sentences(player);
        let imported = kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
            kraal::db::event::import(w, &file, None)
        })
        .unwrap();
        // The players have new ids in the copy: the values name them so.
        let players = kraal::db::players::list(&mut app.conn(), imported.tournament).unwrap();
        let moved = i64::from(players.iter().find(|p| p.name == name).unwrap().id);
        assert_ne!(moved, player, "{}", app.backend);
        let (_, pairings, _) =
            kraal::db::rounds::everything(&mut app.conn(), imported.tournament).unwrap();
        let copy = pairings.iter().find(|p| p.table_no == table).unwrap();
        assert_eq!(copy.first_player_id.map(i64::from), Some(moved));
        assert_eq!(
            serde_json::from_str::<Explanation>(&copy.explanation).unwrap(),
            as_values(moved),
            "{}",
            app.backend
        );
    }
}

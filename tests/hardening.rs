//! A fresh server under requests that arrive together: the first use of
//! an installation-wide setting (the secret players' links are made from)
//! is made once, whoever gets there first, and nobody gets an error.

#![allow(clippy::unwrap_used)]

mod common;

use common::TestApp;
use kraal::db::users::Role;
use serde_json::json;

/// 24 referees adding their first players at the same instant on a fresh
/// database: each gets 201, and every link opens its player's page (25
/// trials on each backend).
#[test]
fn the_first_players_added_at_once_on_a_fresh_database_all_get_their_links() {
    // 25 trials, each on a database of its own, on each backend.
    let apps = (0..25).flat_map(|_| common::backends().into_iter().map(TestApp::start));
    for app in apps {
        let referee = app.user("thandi", Role::Referee);
        let mut api = app.script_for(&referee);
        let tid = api.create(
            "/api/v1/tournaments",
            json!({"name": "Polokwane Open", "rules": "official", "rounds": 5}),
        )["id"]
            .as_i64()
            .unwrap();
        let names = [
            "Thabo Nkosi",
            "Lerato Dlamini",
            "Sipho Mokoena",
            "Naledi Khumalo",
            "Zanele Mahlangu",
            "Bongani Zulu",
            "Ayanda Shabalala",
            "Karabo Sithole",
            "Palesa Mofokeng",
            "Kagiso Molefe",
            "Lindiwe Ngcobo",
            "Mandla Khoza",
            "Themba Mthembu",
            "Nomsa Radebe",
            "Mpho Ndlovu",
            "Refilwe Tau",
            "Dineo Kgosi",
            "Tumelo Baloyi",
            "Kabelo Mokoena",
            "Puleng Mabuza",
            "Lungile Mabuza",
            "Dumisani Cele",
            "Nandi Mkhize",
            "Sello Maake",
        ];
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(names.len()));
        let adds: Vec<_> = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let mut api = app.script_for(&referee);
                let barrier = barrier.clone();
                let body = json!({"name": name, "club": format!("Club {i}")});
                std::thread::spawn(move || {
                    barrier.wait();
                    api.send_json("POST", &format!("/api/v1/tournaments/{tid}/players"), body)
                })
            })
            .collect();
        for add in adds {
            let r = add.join().unwrap();
            assert_eq!(r.status, 201, "[{}] {}", app.backend, r.body);
        }
        let players =
            kraal::db::players::list(&mut app.conn(), kraal::ids::TournamentId(tid as i32))
                .unwrap();
        assert_eq!(players.len(), names.len());
        for p in players {
            let key = kraal::db::links::key(&mut app.conn(), p.id).unwrap();
            let key = key.unwrap_or_else(|| panic!("{} has a link", p.name));
            let page = app.client().get(&format!("/player/{key}"));
            assert_eq!(page.status, 200, "[{}] {}", app.backend, p.name);
        }
    }
}

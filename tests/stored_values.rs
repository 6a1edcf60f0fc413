//! Stored settings are read as the values they name; a value Kraal does
//! not know (a damaged or hand-edited database) is an error that names the
//! row, never a silent default such as "Swiss, GAR". The schema's CHECK
//! constraints already refuse such values; the test switches them off on
//! SQLite to play a damaged file.

#![allow(clippy::unwrap_used)]

mod common;

use common::TestApp;
use diesel::RunQueryDsl;
use kraal::db::users::Role;
use kraal::tournament::{RuleSet, System};

#[test]
fn a_stored_setting_kraal_does_not_know_is_named_not_defaulted() {
    {
        let app = TestApp::start("sqlite");
        let damage = |sql: &str| {
            let mut conn = app.conn();
            diesel::sql_query("PRAGMA ignore_check_constraints = ON")
                .execute(&mut conn)
                .unwrap();
            diesel::sql_query(sql).execute(&mut conn).unwrap();
            diesel::sql_query("PRAGMA ignore_check_constraints = OFF")
                .execute(&mut conn)
                .unwrap();
        };
        let admin = app.user("admin", Role::Admin);
        let t = common::tournament(&app, &admin, "Kimberley Open");
        let read = kraal::db::tournaments::find(&mut app.conn(), t.id).unwrap();
        assert_eq!((read.system, read.rules), (System::Swiss, RuleSet::Gar));

        damage(&format!(
            "UPDATE tournaments SET rules = 'fide' WHERE id = {}",
            t.id
        ));
        let err = kraal::db::tournaments::find(&mut app.conn(), t.id)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!(
                "tournament {} holds a value that cannot be read",
                t.id
            )) && err.contains("'fide' is not a known rule set (official, gar)"),
            "{err}"
        );
        let page = app.client().get(&format!("/t/{}", t.id));
        assert_eq!(page.status, 500, "{}", page.body);
        let api = app
            .client()
            .get(&format!("/api/v1/tournaments/{}/standings", t.id));
        assert_eq!(api.status, 500);

        // A round whose status is unknown is named with its tournament.
        damage(&format!(
            "UPDATE tournaments SET rules = 'official' WHERE id = {}",
            t.id
        ));
        for (i, n) in ["Sipho Dlamini", "Thabo Mokoena"].iter().enumerate() {
            common::player(&app, t.id, &admin, n, "", &(1700 - i).to_string());
        }
        app.client_as(&admin)
            .post(&format!("/t/{}/rounds", t.id), &[]);
        damage("UPDATE rounds SET status = 'finished'");
        let err = kraal::director::load(&mut app.conn(), t.id)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("round of tournament {}", t.id))
                && err.contains("'finished' is not a known round status (draft, published)"),
            "{err}"
        );
    }
}

/// An id is stored as the integer it wraps, on both backends: bound as a
/// filter, written by an insert, and read back, both as the bare integer
/// SQL sees and as the id (`kraal::db::ids`).
#[test]
fn an_id_is_stored_and_read_as_its_integer_on_both_backends() {
    use diesel::sql_types::{Integer, Nullable};
    use kraal::ids::{EntryId, PersonId, TournamentId};

    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = Integer)]
        id: EntryId,
        #[diesel(sql_type = Integer)]
        tournament_id: TournamentId,
        #[diesel(sql_type = Nullable<Integer>)]
        person_id: Option<PersonId>,
        #[diesel(sql_type = Integer)]
        bare: i32,
    }

    for app in TestApp::all() {
        let admin = app.user("admin", Role::Admin);
        let t = common::tournament(&app, &admin, "Kimberley Open");
        let p = common::player(&app, t.id, &admin, "Kagiso Molefe", "", "1600");
        let found = kraal::db::players::find(&mut app.conn(), t.id, p.id).unwrap();
        assert_eq!((found.id, found.tournament_id), (p.id, t.id));
        let rows: Vec<Row> = diesel::sql_query(format!(
            "SELECT id, tournament_id, person_id, id AS bare FROM players WHERE id = {}",
            p.id
        ))
        .load(&mut app.conn())
        .unwrap();
        assert_eq!(rows.len(), 1, "[{}]", app.backend);
        assert_eq!(rows[0].id, p.id, "[{}]", app.backend);
        assert_eq!(rows[0].bare, p.id.0, "[{}]", app.backend);
        assert_eq!(rows[0].tournament_id, t.id, "[{}]", app.backend);
        assert_eq!(rows[0].person_id, None, "[{}]", app.backend);
    }
}

//! src/db/schema.rs is what `diesel print-schema` makes of the migrations
//! (see diesel.toml): a freshly migrated database of each backend has
//! exactly the file's tables, columns in order, types, nullability, primary
//! keys and joins, and nothing more. A migration without the matching change
//! to the file, or the reverse, fails here; the Diesel command line is not
//! needed to find out.

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::TestApp;
use diesel::prelude::*;
use diesel::sql_types::{Bool, Integer, Text};
use kraal::db::DbConnection;

/// What Diesel knows of the database: per table its key columns and its
/// columns with their Diesel types, plus the joins between tables.
#[derive(Debug, Default, PartialEq, Eq)]
struct Schema {
    tables: BTreeMap<String, Table>,
    /// (child, parent, column): `diesel::joinable!(child -> parent (column))`.
    joins: BTreeSet<(String, String, String)>,
}

#[derive(Debug, Default, PartialEq, Eq)]
struct Table {
    key: Vec<String>,
    /// (name, type) in declaration order; nullable types as `Nullable<T>`.
    columns: Vec<(String, String)>,
}

/// Reads the `diesel::table!` and `diesel::joinable!` blocks of the file,
/// and checks that every table may appear in one query with any other.
fn schema_file() -> Schema {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/db/schema.rs");
    let text = std::fs::read_to_string(path).unwrap();
    let mut schema = Schema::default();
    for block in text.split("diesel::table! {").skip(1) {
        let mut lines = block.lines().map(str::trim).filter(|l| !l.is_empty());
        let head = lines.next().expect("a table name");
        let (name, key) = head
            .trim_end_matches('{')
            .trim()
            .split_once(" (")
            .unwrap_or_else(|| panic!("a table with its key: {head}"));
        let key = key
            .trim_end_matches(')')
            .split(',')
            .map(|k| k.trim().to_string())
            .collect();
        let columns = lines
            .take_while(|l| *l != "}")
            .map(|l| {
                let (column, ty) = l
                    .trim_end_matches(',')
                    .split_once(" -> ")
                    .unwrap_or_else(|| panic!("{name}: a column as `name -> Type`: {l}"));
                (column.to_string(), ty.to_string())
            })
            .collect();
        let table = Table { key, columns };
        assert!(
            schema.tables.insert(name.to_string(), table).is_none(),
            "{name} is declared twice"
        );
    }
    for join in text.split("diesel::joinable!(").skip(1) {
        let join = join.split(");").next().unwrap();
        let (child, rest) = join.split_once(" -> ").expect("child -> parent");
        let (parent, column) = rest.split_once(" (").expect("parent (column)");
        schema.joins.insert((
            child.to_string(),
            parent.to_string(),
            column.trim_end_matches(')').to_string(),
        ));
    }
    let together = text
        .split("diesel::allow_tables_to_appear_in_same_query!(")
        .nth(1)
        .expect("allow_tables_to_appear_in_same_query!")
        .split(");")
        .next()
        .unwrap();
    let together: BTreeSet<String> = together
        .split(',')
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect();
    assert_eq!(
        together,
        schema.tables.keys().cloned().collect::<BTreeSet<_>>(),
        "one allow_tables_to_appear_in_same_query! names every table"
    );
    schema
}

#[derive(QueryableByName)]
struct ColumnRow {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    column_name: String,
    #[diesel(sql_type = Text)]
    column_type: String,
    #[diesel(sql_type = Bool)]
    nullable: bool,
    /// Position in the primary key, from 1; 0 when not part of it.
    #[diesel(sql_type = Integer)]
    key: i32,
}

#[derive(QueryableByName)]
struct ForeignKeyRow {
    #[diesel(sql_type = Text)]
    child: String,
    #[diesel(sql_type = Text)]
    parent: String,
    #[diesel(sql_type = Text)]
    column_name: String,
    /// The referenced column; empty for SQLite's `REFERENCES t` (its key).
    #[diesel(sql_type = Text)]
    target: String,
}

const SQLITE_COLUMNS: &str = "
    SELECT m.name AS table_name, p.name AS column_name, p.type AS column_type,
           (p.\"notnull\" = 0 AND p.pk = 0) AS nullable, p.pk AS key
    FROM sqlite_master m JOIN pragma_table_info(m.name) p
    WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
      AND m.name <> '__diesel_schema_migrations'
    ORDER BY m.name, p.cid";

const SQLITE_FOREIGN_KEYS: &str = "
    SELECT m.name AS child, f.\"table\" AS parent, f.\"from\" AS column_name,
           COALESCE(f.\"to\", '') AS target
    FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f
    WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'";

const POSTGRES_COLUMNS: &str = "
    SELECT CAST(c.table_name AS TEXT) AS table_name,
           CAST(c.column_name AS TEXT) AS column_name,
           CAST(c.data_type AS TEXT) AS column_type,
           c.is_nullable = 'YES' AS nullable,
           COALESCE((
               SELECT CAST(k.ordinal_position AS INTEGER)
               FROM information_schema.table_constraints tc
               JOIN information_schema.key_column_usage k
                 ON k.constraint_name = tc.constraint_name
                AND k.table_schema = tc.table_schema
                AND k.table_name = tc.table_name
               WHERE tc.constraint_type = 'PRIMARY KEY'
                 AND tc.table_schema = c.table_schema
                 AND tc.table_name = c.table_name
                 AND k.column_name = c.column_name), 0) AS key
    FROM information_schema.columns c
    JOIN information_schema.tables t
      ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
      AND c.table_name <> '__diesel_schema_migrations'
    ORDER BY c.table_name, c.ordinal_position";

const POSTGRES_FOREIGN_KEYS: &str = "
    SELECT CAST(k.table_name AS TEXT) AS child,
           CAST(u.table_name AS TEXT) AS parent,
           CAST(k.column_name AS TEXT) AS column_name,
           CAST(u.column_name AS TEXT) AS target
    FROM information_schema.table_constraints tc
    JOIN information_schema.key_column_usage k
      ON k.constraint_name = tc.constraint_name AND k.table_schema = tc.table_schema
    JOIN information_schema.constraint_column_usage u
      ON u.constraint_name = tc.constraint_name AND u.table_schema = tc.table_schema
    WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = 'public'";

/// The Diesel type print-schema gives a column's declared type.
fn diesel_type(backend: &str, declared: &str) -> &'static str {
    let declared = declared.to_ascii_lowercase();
    match (backend, declared.as_str()) {
        ("sqlite", "integer") | ("postgres", "integer") => "Integer",
        ("sqlite", "bigint") | ("postgres", "bigint") => "BigInt",
        ("sqlite", "text") | ("postgres", "text") | ("postgres", "character varying") => "Text",
        ("sqlite", "boolean") | ("postgres", "boolean") => "Bool",
        ("sqlite", "timestamp") | ("postgres", "timestamp without time zone") => "Timestamp",
        ("postgres", "timestamp with time zone") => "Timestamptz",
        ("sqlite", "date") | ("postgres", "date") => "Date",
        ("sqlite", "real") | ("postgres", "double precision") => "Double",
        _ => panic!("{backend}: no Diesel type known here for {declared:?}; teach tests/schema.rs"),
    }
}

/// What a migrated database holds, in the terms of the schema file.
fn schema_of(conn: &mut DbConnection, backend: &str) -> Schema {
    let (columns, foreign_keys) = match conn {
        DbConnection::Sqlite(c) => (
            diesel::sql_query(SQLITE_COLUMNS).load::<ColumnRow>(c),
            diesel::sql_query(SQLITE_FOREIGN_KEYS).load::<ForeignKeyRow>(c),
        ),
        DbConnection::Postgres(c) => (
            diesel::sql_query(POSTGRES_COLUMNS).load::<ColumnRow>(c),
            diesel::sql_query(POSTGRES_FOREIGN_KEYS).load::<ForeignKeyRow>(c),
        ),
    };
    let mut schema = Schema::default();
    let mut keys: BTreeMap<String, Vec<(i32, String)>> = BTreeMap::new();
    for row in columns.unwrap() {
        let ty = diesel_type(backend, &row.column_type);
        let ty = if row.nullable {
            format!("Nullable<{ty}>")
        } else {
            ty.to_string()
        };
        let table = schema.tables.entry(row.table_name.clone()).or_default();
        table.columns.push((row.column_name.clone(), ty));
        if row.key > 0 {
            keys.entry(row.table_name)
                .or_default()
                .push((row.key, row.column_name));
        }
    }
    for (name, table) in schema.tables.iter_mut() {
        let mut key = keys.remove(name).unwrap_or_default();
        key.sort();
        table.key = key.into_iter().map(|(_, c)| c).collect();
    }
    // print-schema writes a join for a foreign key of one column onto its
    // parent's one-column key, unless the two tables have more than one
    // foreign key between them (either way) or the key points at its own table.
    let foreign_keys = foreign_keys.unwrap();
    let pair = |f: &ForeignKeyRow| {
        let mut p = [f.child.clone(), f.parent.clone()];
        p.sort();
        p
    };
    for f in &foreign_keys {
        let parent_key = &schema.tables[&f.parent].key;
        let onto_key = parent_key.len() == 1 && (f.target.is_empty() || f.target == parent_key[0]);
        let alone = foreign_keys.iter().filter(|g| pair(g) == pair(f)).count() == 1;
        if f.child != f.parent && onto_key && alone {
            schema
                .joins
                .insert((f.child.clone(), f.parent.clone(), f.column_name.clone()));
        }
    }
    schema
}

#[test]
fn the_schema_file_matches_the_migrations_of_each_backend() {
    let file = schema_file();
    assert!(file.tables.contains_key("tournaments"), "{file:?}");
    for app in TestApp::all() {
        let migrated = schema_of(&mut app.conn(), app.backend);
        let names = |s: &Schema| s.tables.keys().cloned().collect::<Vec<_>>();
        assert_eq!(
            names(&migrated),
            names(&file),
            "[{}] the tables of the migrations and of src/db/schema.rs",
            app.backend
        );
        for (name, table) in &file.tables {
            assert_eq!(
                &migrated.tables[name], table,
                "[{}] table {name}: the migrations (left) and src/db/schema.rs (right)",
                app.backend
            );
        }
        assert_eq!(
            migrated.joins, file.joins,
            "[{}] the joins of the migrations' foreign keys (left) and of src/db/schema.rs (right)",
            app.backend
        );
    }
}

#[derive(QueryableByName)]
struct Pragma {
    #[diesel(sql_type = Integer)]
    synchronous: i32,
}

/// SQLite syncs its log at every commit by default: an acknowledged result
/// survives a power cut (2 = FULL; NORMAL, 1, can lose the last commits).
#[test]
fn sqlite_commits_are_synced_to_disk() {
    let app = TestApp::start("sqlite");
    let mut conn = app.conn();
    let DbConnection::Sqlite(c) = &mut *conn else {
        panic!("a SQLite app");
    };
    let p: Pragma = diesel::sql_query("PRAGMA synchronous")
        .get_result(c)
        .unwrap();
    assert_eq!(p.synchronous, 2);
}

/// Runs one statement as an older Kraal's schema takes it.
fn execute(conn: &mut DbConnection, sql: &str) {
    match conn {
        DbConnection::Sqlite(c) => diesel::sql_query(sql).execute(c),
        DbConnection::Postgres(c) => diesel::sql_query(sql).execute(c),
    }
    .unwrap_or_else(|e| panic!("{sql}: {e}"));
}

/// Takes the schema back until migration `version` (and every one after
/// it) is undone, as an older Kraal left it.
fn revert_to(conn: &mut DbConnection, version: &str) {
    use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};
    const SQLITE: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
    const POSTGRES: EmbeddedMigrations = embed_migrations!("migrations/postgres");
    loop {
        let undone = match conn {
            DbConnection::Sqlite(c) => c.revert_last_migration(SQLITE).map(|v| v.to_string()),
            DbConnection::Postgres(c) => c.revert_last_migration(POSTGRES).map(|v| v.to_string()),
        }
        .unwrap();
        if undone
            .replace('-', "")
            .starts_with(&version.replace('-', ""))
        {
            return;
        }
    }
}

/// An audit trail written before changes carried their ids as values says
/// its rounds and a swap's players in text; the migration reads them once
/// into each entry's detail, so the trail filters and names them as before.
#[test]
fn audit_entries_from_before_typed_changes_get_their_round_and_players() {
    for app in TestApp::all() {
        let admin = app.user("director", kraal::db::users::Role::Admin);
        let t = common::tournament(&app, &admin, "Upgrade Open");
        let a = common::player(&app, t.id, &admin, "Thabo Nkosi", "Soweto MC", "1800");
        let b = common::player(&app, t.id, &admin, "Lerato Dlamini", "Tembisa MC", "1700");
        let mut conn = app.conn();
        let conn: &mut DbConnection = &mut conn;
        revert_to(conn, "2026-11-25-000022");
        let at = "2026-11-20 09:00:00";
        let rows = [
            ("pair", "round", "41", "NULL", "'round 3: 4 pairings'"),
            ("undo", "round", "41", "'round 3'", "NULL"),
            (
                "request bye",
                "player",
                &a.id.to_string(),
                "NULL",
                "'round 4, half point'",
            ),
            (
                "swap",
                "round",
                "41",
                &format!("'players {} and {}'", a.id, b.id),
                "'swapped; no rule broken'",
            ),
            ("result", "game", "7", "NULL", "'1-0'"),
        ];
        for (action, entity, id, old, new) in rows {
            let insert = format!(
                "INSERT INTO audit_entries (tournament_id, user_id, at, action, entity, entity_id, old_value, new_value) \
                 VALUES ({}, NULL, '{at}', '{action}', '{entity}', {id}, {old}, {new})",
                t.id
            );
            execute(conn, &insert);
        }
        kraal::db::connection::migrate(conn).unwrap();
        let trail = kraal::db::audit::of_tournament(conn, t.id).unwrap();
        let of = |action: kraal::change::Action| trail.iter().find(|e| e.action == action).unwrap();
        use kraal::change::Action;
        assert_eq!(
            of(Action::Pair).detail.round,
            Some(kraal::ids::RoundNo(3)),
            "{:?}",
            of(Action::Pair)
        );
        assert_eq!(of(Action::Undo).detail.round, Some(kraal::ids::RoundNo(3)));
        assert_eq!(
            of(Action::RequestBye).detail.round,
            Some(kraal::ids::RoundNo(4))
        );
        let swap = of(Action::Swap);
        assert_eq!(swap.detail.players, vec![a.id, b.id]);
        assert_eq!(swap.old_value, None, "the ids moved out of the text");
        assert_eq!(of(Action::Result).detail, kraal::change::Detail::default());
        // The trail names the swapped players again, from the ids.
        let page = kraal::director::audit::trail(conn, t.id, &Default::default()).unwrap();
        let line = page
            .lines
            .iter()
            .find(|l| l.action == Action::Swap)
            .unwrap();
        assert_eq!(
            line.old_value,
            Some(kraal::change::Value::Swapped(
                "Thabo Nkosi".into(),
                "Lerato Dlamini".into()
            ))
        );
    }
}

/// A captain's link made before links were kept as digests keeps working
/// after the upgrade, and the database holds only its digest: the schema
/// is taken back one migration, a team gets a plain link as it used to,
/// and migrating again (as the app does at start) converts it.
#[test]
fn a_captains_link_stored_in_plain_keeps_working_as_a_digest() {
    for app in TestApp::all() {
        let admin = app.user("director", kraal::db::users::Role::Admin);
        let t = common::tournament(&app, &admin, "Upgrade League");
        let mut conn = app.conn();
        let conn: &mut DbConnection = &mut conn;
        revert_to(conn, "2026-11-25-000021");
        let token = kraal::accounts::new_token();
        let insert = format!(
            "INSERT INTO teams (tournament_id, name, club, captain_token) VALUES ({}, 'Soweto A', '', '{token}')",
            t.id
        );
        execute(conn, &insert);
        kraal::db::connection::migrate(conn).unwrap();
        let team = kraal::db::teams::by_captain_token(conn, &token)
            .unwrap()
            .expect("the old link opens its team");
        assert_eq!(team.name, "Soweto A");
        assert_eq!(
            team.captain_digest.as_deref(),
            Some(kraal::accounts::token_digest(&token).as_str()),
            "[{}]",
            app.backend
        );
        assert!(kraal::db::teams::by_captain_token(conn, "plain:")
            .unwrap()
            .is_none());
    }
}

/// Players entered before personal links existed get theirs when the
/// migration that brought links runs (a digest each, opened by its key);
/// later starts of the app leave links as they are.
#[test]
fn players_entered_before_links_get_one_when_the_links_arrive() {
    for app in TestApp::all() {
        let admin = app.user("director", kraal::db::users::Role::Admin);
        let t = common::tournament(&app, &admin, "Upgrade Open");
        let mut conn = app.conn();
        let conn: &mut DbConnection = &mut conn;
        revert_to(conn, "2026-11-27-000033");
        let insert = format!(
            "INSERT INTO players (tournament_id, name, club, federation_id, created_at) VALUES ({}, 'Lerato Dlamini', '', '', '2026-11-20 10:00:00')",
            t.id
        );
        execute(conn, &insert);
        kraal::db::connection::migrate(conn).unwrap();
        let id = kraal::db::players::list(conn, t.id).unwrap()[0].id;
        let key = kraal::db::links::key(conn, id)
            .unwrap()
            .unwrap_or_else(|| panic!("[{}] no link after the upgrade", app.backend));
        assert_eq!(
            kraal::db::links::find(conn, &key).unwrap(),
            Some((id, t.id))
        );
        // A revoked link stays revoked when the app starts again.
        kraal::director::commit(conn, Some(admin.id), |w| {
            kraal::db::links::revoke(w, t.id, id)
        })
        .unwrap();
        kraal::db::connection::migrate(conn).unwrap();
        assert_eq!(kraal::db::links::key(conn, id).unwrap(), None);
    }
}

//! Scoresheets at scale: `kraal check --summary` over a directory of
//! 10,000 sheets of 120 plies (the release binary, as a referee runs it),
//! and the game page of a 120-ply record with its board replay, served by
//! the app over HTTP on the loopback (the time measured is the whole
//! request, so the server's own share is at most that).
//!
//! Run with `cargo bench --bench scoresheets`; figures in docs/performance.md.

use std::net::TcpListener;
use std::process::Command;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use kraal::db::users::Role;
use kraal::db::{self, Database};
use kraal::rules::notation::{self, Style};
use kraal::rules::sample::lasting_game;
use kraal::rules::PlayRules;
use kraal::tournament::{RawTournament, RecordSide};

fn write_sheets(dir: &std::path::Path, count: u64) {
    for i in 0..count {
        let (rules, style) = if i % 2 == 0 {
            (PlayRules::OFFICIAL, Style::Official)
        } else {
            (PlayRules::GAR, Style::Standard)
        };
        let moves = lasting_game(rules, i * 1_000, 120);
        let text = notation::write(&rules, &moves, style, None);
        std::fs::write(dir.join(format!("sheet-{i:05}.txt")), text).expect("write a sheet");
    }
}

fn check_directory(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    write_sheets(dir.path(), 10_000);
    let kraal = env!("CARGO_BIN_EXE_kraal");
    let mut g = c.benchmark_group("check_dir");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("10000_sheets_120_plies", |b| {
        b.iter(|| {
            let out = Command::new(kraal)
                .args(["check", "--summary"])
                .arg(dir.path())
                .output()
                .expect("run kraal check");
            assert_eq!(out.status.code(), Some(0), "every sheet is clean");
        })
    });
    g.finish();
}

fn game_page(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("kraal.db").display());
    let pool = Database::parse(&url, false)
        .and_then(|d| d.open(4))
        .expect("a database");
    let mut conn = pool.get().expect("a connection");
    let hash = kraal::accounts::hash_password("bench-password").expect("hash");
    let admin = kraal::director::commit(&mut conn, None, |w| {
        db::users::create(w, "bench", Role::Admin, &hash)
    })
    .expect("admin");
    let fields = RawTournament {
        name: "Replay Open".into(),
        rules: "official".into(),
        rounds: "5".into(),
        ..Default::default()
    }
    .check()
    .expect("fields");
    let t = kraal::director::commit(&mut conn, Some(admin.id), |w| {
        db::tournaments::create(w, &fields, &admin)
    })
    .expect("tournament");
    for name in ["Kagiso Molefe", "Refilwe Dube"] {
        let f = kraal::roster::PlayerFields::parse(name, "", "1800", "", "").expect("player");
        kraal::director::commit(&mut conn, Some(admin.id), |w| {
            db::players::create(w, t.id, &f)
        })
        .expect("player");
    }
    let data = kraal::director::load(&mut conn, t.id).expect("load");
    let (n, planned) = data.pair_next().expect("pairs");
    kraal::director::commit(&mut conn, Some(admin.id), |w| {
        db::rounds::create(w, t.id, n, &planned, 2, None)
    })
    .expect("round");
    kraal::director::commit(&mut conn, Some(admin.id), |w| {
        db::rounds::publish(w, t.id, n)
    })
    .expect("publish");
    let gid = db::rounds::everything(&mut conn, t.id).expect("games").2[0].id;
    let rules = PlayRules::OFFICIAL;
    let sheet = notation::write(&rules, &lasting_game(rules, 7, 120), Style::Official, None);
    for side in [RecordSide::Dark, RecordSide::Light] {
        kraal::director::scoresheets::submit(&mut conn, gid, side, &sheet, &admin)
            .expect("a record");
    }
    let session = kraal::accounts::new_token();
    db::auth::create_session(
        &mut conn,
        admin.id,
        &kraal::accounts::token_digest(&session),
    )
    .expect("a session");
    drop(conn);

    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let base = format!("http://{}", listener.local_addr().expect("an address"));
    let state = kraal::web::AppState::new(pool, false);
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let server = kraal::web::server(state, listener, 1).expect("a server");
            let _ = server.await;
        })
    });
    let agent = ureq::AgentBuilder::new().build();
    let page = format!("{base}/t/{}/games/{gid}?record=dark&ply=60", t.id);
    let get = || {
        let r = agent
            .get(&page)
            .set("Cookie", &format!("kraal_session={session}"))
            .call()
            .expect("the game page");
        r.into_string().expect("a body")
    };
    assert!(get().contains("data-ply=\"60\""), "the replay is drawn");
    let mut g = c.benchmark_group("game_page");
    g.sample_size(50);
    g.bench_function("120_plies_replay_referee", |b| b.iter(get));
    g.finish();
}

criterion_group!(benches, check_directory, game_page);
criterion_main!(benches);

//! The test harness: every test gets its own freshly migrated database and
//! its own running server on a free loopback port, spoken to over real HTTP.
//!
//! Tests run once on SQLite and once more on PostgreSQL when
//! `KRAAL_TEST_POSTGRES_URL` names a server (any database on it; each test
//! gets `CREATE DATABASE ... TEMPLATE` of one migrated template).
//!
//! What a page says in English is for people, and may be reworded or
//! translated: a test asserts on the value behind it. Read the fact from
//! the API's JSON or an export where it is there; on a page, from a `data-*`
//! attribute of the template that carries the value (`data-error-field`,
//! `data-status`, `data-round`...), with [`attr_values`], [`has_attr`],
//! [`tag_with`], [`text_of`] and [`field_error`]; add such an attribute to the template
//! when none carries the fact (the value itself, not a bare marker). Text
//! stays in an assertion only where it is data (a player's or team's name,
//! a typed value, a record's text) or where the words are what the reader
//! needs (an error that must name its field, line or article, such as
//! "line 3, column rating" or "Article 12"): say so where it is not plain.

#![allow(clippy::unwrap_used)]
#![allow(dead_code)]

pub mod cli;

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::sync::{Mutex, OnceLock};

use diesel::connection::SimpleConnection;
use kraal::db::users::{Role, User};
use kraal::db::{self, Database, DbConnection, Pool};

pub const PASSWORD: &str = "secret123";

/// Which backends this run covers.
pub fn backends() -> Vec<&'static str> {
    let mut list = vec!["sqlite"];
    if postgres_url().is_some() {
        list.push("postgres");
    }
    list
}

fn postgres_url() -> Option<String> {
    std::env::var("KRAAL_TEST_POSTGRES_URL")
        .ok()
        .filter(|s| !s.trim().is_empty())
}

/// The URL of `url` with its database name replaced.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (url, String::new()),
    };
    let after_scheme = base.find("://").map(|i| i + 3).unwrap_or(0);
    match base[after_scheme..].find('/') {
        Some(i) => format!("{}/{name}{query}", &base[..after_scheme + i]),
        None => format!("{base}/{name}{query}"),
    }
}

/// The PostgreSQL test of a run that needs that server: skipped where
/// `KRAAL_TEST_POSTGRES_URL` is not set, a failure under CI (`CI` set).
pub fn postgres_app() -> Option<TestApp> {
    if postgres_url().is_none() {
        if std::env::var_os("CI").is_some() {
            panic!("KRAAL_TEST_POSTGRES_URL is not set under CI: this test needs PostgreSQL");
        }
        eprintln!("skipped: KRAAL_TEST_POSTGRES_URL is not set");
        return None;
    }
    Some(TestApp::start("postgres"))
}

static PG_TEMPLATE: OnceLock<String> = OnceLock::new();
static PG_CREATE: Mutex<u32> = Mutex::new(0);

fn admin_connection(url: &str) -> DbConnection {
    Database::parse(url, false)
        .unwrap()
        .connect()
        .expect("connect to the test PostgreSQL server")
}

/// A fresh PostgreSQL database URL, copied from a migrated template.
fn fresh_postgres() -> String {
    let url = postgres_url().expect("KRAAL_TEST_POSTGRES_URL");
    let pid = std::process::id();
    let template = PG_TEMPLATE.get_or_init(|| {
        let name = format!("kraal_tpl_{pid}");
        let mut admin = admin_connection(&url);
        admin
            .batch_execute(&format!("DROP DATABASE IF EXISTS {name}"))
            .expect("drop an old template");
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("create the template database");
        let mut conn = admin_connection(&with_database(&url, &name));
        db::connection::migrate(&mut conn).expect("migrate the template");
        extern "C" {
            fn atexit(callback: extern "C" fn()) -> i32;
        }
        // SAFETY: registers a plain function without arguments, as the C
        // library expects; it catches its own panics.
        unsafe { atexit(drop_template) };
        name
    });
    let mut n = PG_CREATE.lock().unwrap_or_else(|e| e.into_inner());
    *n += 1;
    let name = format!("kraal_t_{pid}_{}", *n);
    let mut admin = admin_connection(&url);
    admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS {name}"))
        .expect("drop an old test database");
    admin
        .batch_execute(&format!("CREATE DATABASE {name} TEMPLATE {template}"))
        .expect("create a test database");
    with_database(&url, &name)
}

/// Drops the database `name` of the test server, whoever is still
/// connected to it.
fn drop_database(name: &str) -> Result<(), String> {
    let Some(url) = postgres_url() else {
        return Ok(());
    };
    let mut admin = Database::parse(&url, false)
        .map_err(|e| e.to_string())?
        .connect()
        .map_err(|e| e.to_string())?;
    admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .map_err(|e| format!("drop the test database {name}: {e}"))
}

/// At the end of the test process: the template goes too.
extern "C" fn drop_template() {
    let _ = std::panic::catch_unwind(|| {
        if let Some(name) = PG_TEMPLATE.get() {
            let _ = drop_database(name);
        }
    });
}

/// A running Kraal on its own database.
pub struct TestApp {
    pub backend: &'static str,
    pub base: String,
    pub pool: Pool,
    pub database_url: String,
    handle: actix_web::dev::ServerHandle,
    server: Option<std::thread::JoinHandle<()>>,
    _dir: tempfile::TempDir,
}

impl TestApp {
    pub fn start(backend: &'static str) -> TestApp {
        let dir = tempfile::tempdir().unwrap();
        let database_url = match backend {
            "sqlite" => format!("sqlite://{}", dir.path().join("kraal.db").display()),
            _ => fresh_postgres(),
        };
        let pool = Database::parse(&database_url, false)
            .unwrap()
            .open(6)
            .expect("open the test database");
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let mut state = kraal::web::AppState::new(pool.clone(), false);
        // The tests' other servers listen on this machine.
        state.outbound.allow_private = true;
        let (tx, rx) = std::sync::mpsc::channel();
        let server = std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                let server = kraal::web::server(state, listener, 2).unwrap();
                tx.send(server.handle()).unwrap();
                let _ = server.await;
            })
        });
        let handle = rx.recv().unwrap();
        TestApp {
            backend,
            base,
            pool,
            database_url,
            handle,
            server: Some(server),
            _dir: dir,
        }
    }

    /// One app per backend of this run.
    pub fn all() -> Vec<TestApp> {
        backends().into_iter().map(TestApp::start).collect()
    }

    pub fn conn(&self) -> db::connection::PooledConnection {
        self.pool.get().unwrap()
    }

    /// Creates an account directly (fast: the sign-in itself is tested elsewhere).
    pub fn user(&self, name: &str, role: Role) -> User {
        let hash = kraal::accounts::hash_password(PASSWORD).unwrap();
        kraal::director::commit(&mut self.conn(), None, |w| {
            db::users::create(w, name, role, &hash)
        })
        .unwrap()
    }

    /// A browser-like client already signed in as `user`.
    pub fn client_as(&self, user: &User) -> Client {
        let token = kraal::accounts::new_token();
        db::auth::create_session(
            &mut self.conn(),
            user.id,
            &kraal::accounts::token_digest(&token),
        )
        .unwrap();
        let mut c = self.client();
        c.cookies.insert("kraal_session".into(), token);
        c.cookies
            .insert("kraal_csrf".into(), kraal::accounts::new_token());
        c
    }

    /// An anonymous browser-like client.
    pub fn client(&self) -> Client {
        Client::new(&self.base)
    }

    /// A script's client with a new API token of `user`.
    pub fn script_for(&self, user: &User) -> Client {
        let token = kraal::accounts::new_token();
        db::auth::create_token(
            &mut self.conn(),
            user.id,
            "script",
            &kraal::accounts::token_digest(&token),
        )
        .unwrap();
        self.script(&token)
    }

    /// A script's client sending `Authorization: Bearer TOKEN`.
    pub fn script(&self, token: &str) -> Client {
        let mut c = self.client();
        c.bearer = Some(token.to_string());
        c
    }
}

impl Drop for TestApp {
    /// Stops the server, waits for it to let go of its connections, and
    /// drops a PostgreSQL test database (connections the test itself still
    /// holds are closed by the server).
    fn drop(&mut self) {
        drop(self.handle.stop(false));
        if let Some(server) = self.server.take() {
            let _ = server.join();
        }
        if self.backend == "postgres" {
            let name = self.database_url.rsplit('/').next().unwrap_or("");
            let dropped = drop_database(name.split('?').next().unwrap_or(name));
            // A failing test keeps its own message (and a panic while
            // panicking would abort the run).
            if let Err(e) = dropped {
                if !std::thread::panicking() {
                    panic!("{e}");
                }
            }
        }
    }
}

/// A response, whatever its status.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    /// Every header, by lower-case name.
    pub headers: BTreeMap<String, String>,
    pub location: Option<String>,
    pub content_type: String,
    pub body: String,
}

impl Reply {
    /// The body as JSON.
    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        json(&self.body)
    }
}

/// `text` read as JSON: a reply's body, a command's output.
#[track_caller]
pub fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// A minimal browser: keeps cookies, sends the CSRF token with every form.
pub struct Client {
    pub base: String,
    agent: ureq::Agent,
    pub cookies: BTreeMap<String, String>,
    pub bearer: Option<String>,
}

impl Client {
    /// A browser-like client of the app at `base`, not signed in.
    pub fn new(base: &str) -> Client {
        Client {
            base: base.to_string(),
            agent: ureq::AgentBuilder::new().redirects(0).build(),
            cookies: BTreeMap::new(),
            bearer: None,
        }
    }

    fn request(&self, method: &str, path: &str) -> ureq::Request {
        let mut r = self
            .agent
            .request(method, &format!("{}{}", self.base, path));
        if !self.cookies.is_empty() {
            let header = self
                .cookies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join("; ");
            r = r.set("Cookie", &header);
        }
        if let Some(t) = &self.bearer {
            r = r.set("Authorization", &format!("Bearer {t}"));
        }
        r
    }

    fn finish(&mut self, result: Result<ureq::Response, ureq::Error>) -> Reply {
        let resp = match result {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("request failed: {e}"),
        };
        for sc in resp.all("set-cookie") {
            let pair = sc.split(';').next().unwrap_or("");
            if let Some((k, v)) = pair.split_once('=') {
                if v.is_empty() || sc.contains("Max-Age=0") {
                    self.cookies.remove(k.trim());
                } else {
                    self.cookies.insert(k.trim().to_string(), v.to_string());
                }
            }
        }
        let status = resp.status();
        let headers = resp
            .headers_names()
            .into_iter()
            .filter_map(|n| {
                let v = resp.header(&n)?.to_string();
                Some((n.to_ascii_lowercase(), v))
            })
            .collect();
        let location = resp.header("location").map(str::to_string);
        let content_type = resp.content_type().to_string();
        let body = resp.into_string().unwrap_or_default();
        Reply {
            status,
            headers,
            location,
            content_type,
            body,
        }
    }

    pub fn get(&mut self, path: &str) -> Reply {
        let r = self.request("GET", path).call();
        self.finish(r)
    }

    /// A HEAD: what a GET would answer, without the body.
    pub fn head(&mut self, path: &str) -> Reply {
        let r = self.request("HEAD", path).call();
        self.finish(r)
    }

    /// A GET with the headers given, its body as the bytes sent (a
    /// compressed body is not text): status, headers by lower-case name,
    /// body.
    pub fn get_bytes(
        &mut self,
        path: &str,
        headers: &[(&str, &str)],
    ) -> (u16, BTreeMap<String, String>, Vec<u8>) {
        let mut r = self.request("GET", path);
        for (name, value) in headers {
            r = r.set(name, value);
        }
        let resp = match r.call() {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("request failed: {e}"),
        };
        let status = resp.status();
        let headers = resp
            .headers_names()
            .into_iter()
            .filter_map(|n| Some((n.to_ascii_lowercase(), resp.header(&n)?.to_string())))
            .collect();
        let mut body = Vec::new();
        std::io::Read::read_to_end(&mut resp.into_reader(), &mut body).unwrap();
        (status, headers, body)
    }

    /// A GET with one more header, as given.
    pub fn get_with_header(&mut self, path: &str, name: &str, value: &str) -> Reply {
        let r = self.request("GET", path).set(name, value).call();
        self.finish(r)
    }

    /// Posts a form with this browser's CSRF token added.
    pub fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Reply {
        let csrf = self.cookies.get("kraal_csrf").cloned().unwrap_or_default();
        let mut all: Vec<(&str, &str)> = fields.to_vec();
        all.push(("csrf", &csrf));
        let r = self.request("POST", path).send_form(&all);
        self.finish(r)
    }

    /// Posts a form with this browser's CSRF token added and `headers`
    /// set (an `Idempotency-Key`, ...).
    pub fn post_with(
        &mut self,
        path: &str,
        fields: &[(&str, &str)],
        headers: &[(&str, &str)],
    ) -> Reply {
        let csrf = self.cookies.get("kraal_csrf").cloned().unwrap_or_default();
        let mut all: Vec<(&str, &str)> = fields.to_vec();
        all.push(("csrf", &csrf));
        let mut r = self.request("POST", path);
        for (name, value) in headers {
            r = r.set(name, value);
        }
        let r = r.send_form(&all);
        self.finish(r)
    }

    /// Sends `body` as JSON with `headers` set.
    pub fn send_json_with(
        &mut self,
        method: &str,
        path: &str,
        body: serde_json::Value,
        headers: &[(&str, &str)],
    ) -> Reply {
        let mut r = self.request(method, path);
        for (name, value) in headers {
            r = r.set(name, value);
        }
        let r = r.send_json(body);
        self.finish(r)
    }

    /// Posts a form exactly as given (no CSRF token added).
    pub fn post_raw(&mut self, path: &str, fields: &[(&str, &str)]) -> Reply {
        let r = self.request("POST", path).send_form(fields);
        self.finish(r)
    }

    /// Sends `body` as it is, with the given content type.
    pub fn send_bytes(
        &mut self,
        method: &str,
        path: &str,
        content_type: &str,
        body: &[u8],
    ) -> Reply {
        let r = self
            .request(method, path)
            .set("Content-Type", content_type)
            .send_bytes(body);
        self.finish(r)
    }

    pub fn send_json(&mut self, method: &str, path: &str, body: serde_json::Value) -> Reply {
        let r = self.request(method, path).send_json(body);
        self.finish(r)
    }

    /// Posts `body` as JSON to a collection of the API, expects 201 Created
    /// and returns what was created.
    #[track_caller]
    pub fn create(&mut self, path: &str, body: serde_json::Value) -> serde_json::Value {
        let r = self.send_json("POST", path, body);
        assert_eq!(r.status, 201, "{}", r.body);
        r.json()
    }

    /// Signs in through the form, as a person would.
    pub fn sign_in(&mut self, name: &str, password: &str) -> Reply {
        self.get("/login");
        self.post("/login", &[("name", name), ("password", password)])
    }
}

/// A tournament made through the database, for tests about something else.
pub fn tournament(app: &TestApp, creator: &User, name: &str) -> kraal::db::tournaments::Tournament {
    let fields = kraal::tournament::RawTournament {
        name: name.into(),
        rules: "gar".into(),
        rounds: "5".into(),
        ..Default::default()
    }
    .check()
    .unwrap();
    kraal::director::commit(&mut app.conn(), Some(creator.id), |w| {
        kraal::db::tournaments::create(w, &fields, creator)
    })
    .unwrap()
}

/// A player added through the database.
pub fn player(
    app: &TestApp,
    tid: kraal::ids::TournamentId,
    by: &User,
    name: &str,
    club: &str,
    rating: &str,
) -> kraal::db::players::Player {
    let f = kraal::roster::PlayerFields::parse(name, club, rating, "", "").unwrap();
    kraal::director::commit(&mut app.conn(), Some(by.id), |w| {
        kraal::db::players::create(w, tid, &f)
    })
    .unwrap()
}

/// The fields a browser would send from the form of `html` whose opening
/// tag contains `marker`: inputs with their values, and each select's
/// selected option (or its first, as browsers do). Buttons are left out:
/// the caller adds the one it presses.
pub fn form_fields(html: &str, marker: &str) -> Vec<(String, String)> {
    let start = html
        .find(&format!("<form {marker}"))
        .or_else(|| {
            html.match_indices("<form")
                .map(|(i, _)| i)
                .find(|&i| html[i..].split('>').next().unwrap_or("").contains(marker))
        })
        .unwrap_or_else(|| panic!("no form with {marker}"));
    let end = start + html[start..].find("</form>").expect("the form ends");
    let form = &html[start..end];
    let attr = |tag: &str, name: &str| -> Option<String> {
        let key = format!(" {name}=\"");
        let i = tag.find(&key)? + key.len();
        let j = tag[i..].find('"')? + i;
        Some(unescape(&tag[i..j]))
    };
    let mut fields = Vec::new();
    let mut rest = form;
    while let Some(i) = rest.find('<') {
        rest = &rest[i..];
        let tag_end = rest.find('>').unwrap_or(rest.len());
        let tag = &rest[..tag_end];
        if tag.starts_with("<input") {
            if let Some(name) = attr(tag, "name") {
                fields.push((name, attr(tag, "value").unwrap_or_default()));
            }
        } else if tag.starts_with("<select") {
            let name = attr(tag, "name").unwrap_or_default();
            let close = rest.find("</select>").unwrap_or(rest.len());
            let options: Vec<&str> = rest[..close].split("<option").skip(1).collect();
            let chosen = options
                .iter()
                .find(|o| o.split('>').next().unwrap_or("").contains(" selected"))
                .or(options.first())
                .and_then(|o| attr(o.split('>').next().unwrap_or(""), "value"))
                .unwrap_or_default();
            fields.push((name, chosen));
            rest = &rest[close..];
        }
        rest = &rest[1..];
    }
    fields
}

/// The text of an attribute's value or of an element as the templates
/// escape it, unescaped.
fn unescape(text: &str) -> String {
    text.replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&quot;", "\"")
        .replace("&#34;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The values of the attribute `name` on every tag of `html`, in the
/// order of the page, unescaped: `attr_values(body, "data-result")`.
pub fn attr_values(html: &str, name: &str) -> Vec<String> {
    let key = format!("{name}=\"");
    html.match_indices(&key)
        .filter(|(i, _)| html[..*i].ends_with(|c: char| c.is_whitespace()))
        .map(|(i, _)| {
            let start = i + key.len();
            let end = start + html[start..].find('"').expect("the value ends");
            unescape(&html[start..end])
        })
        .collect()
}

/// Whether some tag of `html` carries `name="value"`.
pub fn has_attr(html: &str, name: &str, value: &str) -> bool {
    attr_values(html, name).iter().any(|v| v == value)
}

/// The opening tags of `html` that carry `name="value"`, to read their
/// other attributes with [`attr_values`].
pub fn tag_with<'a>(html: &'a str, name: &str, value: &str) -> Vec<&'a str> {
    html.match_indices('<')
        .map(|(i, _)| &html[i..i + html[i..].find('>').map_or(html.len() - i, |j| j + 1)])
        .filter(|tag| has_attr(tag, name, value))
        .collect()
}

/// The text that opens the first element whose tag carries `name="value"`
/// (up to the next tag), unescaped; `None` when no tag carries it.
pub fn text_of(html: &str, name: &str, value: &str) -> Option<String> {
    let tag = tag_with(html, name, value).into_iter().next()?;
    let start = html.find(tag).expect("the tag is in the page") + tag.len();
    let end = start + html[start..].find('<').unwrap_or(html.len() - start);
    Some(unescape(&html[start..end]))
}

/// The text of the error of form field `field` (the element marked
/// `data-error-field="FIELD"`), unescaped; `None` when the field has none.
pub fn field_error(html: &str, field: &str) -> Option<String> {
    text_of(html, "data-error-field", field)
}

/// Where each problem of a refused import is, as the page lists them:
/// the `data-line` and `data-column` of every item that carries a line, in
/// the order of the page.
pub fn problem_places(html: &str) -> Vec<(String, String)> {
    html.match_indices("<li ")
        .map(|(i, _)| &html[i..i + html[i..].find('>').map_or(html.len() - i, |j| j + 1)])
        .filter_map(|tag| {
            let line = attr_values(tag, "data-line").into_iter().next()?;
            let column = attr_values(tag, "data-column").into_iter().next();
            Some((line, column.unwrap_or_default()))
        })
        .collect()
}

/// Asks `check` again and again until it gives a value, and gives that;
/// fails naming `what` once `within` has passed. For what another thread
/// or process does in its own time: a test waits for the condition, not
/// for a guessed while.
#[track_caller]
pub fn eventually<T>(
    what: &str,
    within: std::time::Duration,
    mut check: impl FnMut() -> Option<T>,
) -> T {
    let deadline = std::time::Instant::now() + within;
    loop {
        if let Some(v) = check() {
            return v;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{what}: not within {within:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The code and params of the refusal an error page shows (its
/// `data-code` and `data-params`, as the API's `code` and `params`).
#[track_caller]
pub fn refusal_of(html: &str) -> (String, serde_json::Value) {
    let code = attr_values(html, "data-code").into_iter().next();
    let params = attr_values(html, "data-params").into_iter().next();
    match (code, params) {
        (Some(code), Some(params)) => (code, json(&params)),
        _ => panic!("no refusal on the page: {html}"),
    }
}

/// Sets `name` in a list of form fields, as a person changing that field.
pub fn set_field(fields: &mut [(String, String)], name: &str, value: &str) {
    let f = fields
        .iter_mut()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no field {name}"));
    f.1 = value.to_string();
}

/// A tournament created through the API with `body`, and `players` entered
/// in order (each the body of `POST .../players`): its id and the
/// players' ids.
#[track_caller]
pub fn api_tournament(
    api: &mut Client,
    body: serde_json::Value,
    players: &[serde_json::Value],
) -> (i64, Vec<i64>) {
    let tid = api.create("/api/v1/tournaments", body)["id"]
        .as_i64()
        .unwrap();
    let ids = players
        .iter()
        .map(|p| {
            api.create(&format!("/api/v1/tournaments/{tid}/players"), p.clone())["id"]
                .as_i64()
                .unwrap()
        })
        .collect();
    (tid, ids)
}

/// A league of four teams of four (Kimberley, Upington, Kuruman, De Aar),
/// made through the database for tests about something else; the
/// tournament and the teams' ids in that order.
pub fn four_team_league(
    app: &TestApp,
    admin: &User,
) -> (kraal::db::tournaments::Tournament, Vec<kraal::ids::TeamId>) {
    let fields = kraal::tournament::RawTournament {
        name: "Northern Cape League".into(),
        system: "team_league".into(),
        rounds: "3".into(),
        ..Default::default()
    }
    .check()
    .unwrap();
    let t = kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
        kraal::db::tournaments::create(w, &fields, admin)
    })
    .unwrap();
    let players: Vec<kraal::ids::EntryId> = (0..16)
        .map(|k| player(app, t.id, admin, &format!("Player {k:02}"), "", "1500").id)
        .collect();
    let teams = ["Kimberley", "Upington", "Kuruman", "De Aar"]
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let new = kraal::db::teams::NewTeam {
                name: (*name).into(),
                club: String::new(),
                members: players[i * 4..i * 4 + 4].to_vec(),
                substitutes: vec![],
            };
            kraal::director::commit(&mut app.conn(), Some(admin.id), |w| {
                kraal::db::teams::create(w, t.id, &new)
            })
            .unwrap()
            .id
        })
        .collect();
    (t, teams)
}

/// Pairs and publishes the next round through the API; its pairings as JSON.
pub fn pair(api: &mut Client, tid: i64) -> Vec<serde_json::Value> {
    let r = api.send_json(
        "POST",
        &format!("/api/v1/tournaments/{tid}/rounds"),
        serde_json::json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["pairings"].as_array().unwrap().clone()
}

/// Sets one game's result through the API (from the starter's side).
pub fn put(api: &mut Client, game: &serde_json::Value, result: &str) {
    let r = api.send_json(
        "PUT",
        &format!("/api/v1/games/{}", game["id"]),
        serde_json::json!({ "result": result }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
}

/// The built `kraal serve` as an operator runs it: its own process on a
/// free port, answering `/healthz` before this returns, and stopped when
/// dropped, whether the test passed or not.
pub struct Served {
    pub child: std::process::Child,
    pub base: String,
}

impl Served {
    /// Serves `database_url`; `configure` adds to the command (environment,
    /// where its output goes: by default nowhere).
    pub fn start(database_url: &str, configure: impl FnOnce(&mut std::process::Command)) -> Served {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        Served::start_on(port, database_url, configure)
    }

    /// As [`Served::start`], on `port` (a server started again where its
    /// clients know it).
    pub fn start_on(
        port: u16,
        database_url: &str,
        configure: impl FnOnce(&mut std::process::Command),
    ) -> Served {
        use std::process::{Command, Stdio};
        let mut command = Command::new(env!("CARGO_BIN_EXE_kraal"));
        command
            .args(["serve", "--bind", &format!("127.0.0.1:{port}")])
            .args(["--database", database_url])
            .env_remove("DATABASE_URL")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        configure(&mut command);
        let served = Served {
            child: command.spawn().expect("start kraal serve"),
            base: format!("http://127.0.0.1:{port}"),
        };
        let started = std::time::Instant::now();
        while ureq::get(&format!("{}/healthz", served.base))
            .call()
            .is_err()
        {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(20),
                "the app did not start"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        served
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A round robin of people of the registry, played on `date`: game 1 of
/// every pairing decided by `beats` (in the order the people are given:
/// `beats(i, j)` is whether person i beats person j, `None` a draw), game 2
/// a double forfeit, which is not rated. Its id.
pub fn people_round_robin(
    api: &mut Client,
    name: &str,
    people: &[i64],
    date: &str,
    beats: impl Fn(usize, usize) -> Option<bool>,
) -> i64 {
    let tid = api.create(
        "/api/v1/tournaments",
        serde_json::json!({"name": name, "system": "round_robin", "rules": "official"}),
    )["id"]
        .as_i64()
        .unwrap();
    let entries: Vec<i64> = people
        .iter()
        .map(|p| {
            api.create(
                &format!("/api/v1/tournaments/{tid}/players"),
                serde_json::json!({"person": p}),
            )["id"]
                .as_i64()
                .unwrap()
        })
        .collect();
    let index = |e: i64| entries.iter().position(|x| *x == e).unwrap();
    for _ in 0..people.len() - 1 {
        let r = api.send_json(
            "POST",
            &format!("/api/v1/tournaments/{tid}/rounds"),
            serde_json::json!({ "date": date }),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        for p in r.json()["pairings"].as_array().unwrap() {
            let (f, s) = (
                p["first_id"].as_i64().unwrap(),
                p["second_id"].as_i64().unwrap(),
            );
            let first_wins = beats(index(f), index(s));
            let games = p["games"].as_array().unwrap();
            let first_starts = games[0]["first_started"].as_bool().unwrap();
            let result = match (first_wins, first_starts) {
                (None, _) => "1/2-1/2",
                (Some(w), starts) if w == starts => "1-0",
                _ => "0-1",
            };
            put(api, &games[0], result);
            put(api, &games[1], "--");
        }
    }
    tid
}

/// Tournament `tid`'s event stream, opened as a live page's browser opens
/// it; reads time out every 200 ms so that [`read_event_until`] can give up.
pub fn event_stream(app: &TestApp, tid: i64) -> std::io::BufReader<std::net::TcpStream> {
    use std::io::Write;
    let addr = app.base.trim_start_matches("http://").to_string();
    let mut s = std::net::TcpStream::connect(&addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_millis(200)))
        .unwrap();
    write!(
        s,
        "GET /t/{tid}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\nAccept-Encoding: gzip\r\n\r\n"
    )
    .unwrap();
    std::io::BufReader::new(s)
}

/// Reads a stream's lines until `want` is one of them or `within` is up.
pub fn read_event_until(
    reader: &mut impl std::io::BufRead,
    want: &str,
    within: std::time::Duration,
) -> bool {
    let start = std::time::Instant::now();
    let mut line = String::new();
    while start.elapsed() < within {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) => return false,
            Ok(_) if line.trim_end() == want => return true,
            Ok(_) => {}
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(e) => panic!("{e}"),
        }
    }
    false
}

/// An account of `app` named `name` that may publish events there (as
/// `kraal user publisher NAME` allows one), and its API token: what a
/// venue is given to publish to this server.
pub fn publisher_token(app: &TestApp, name: &str) -> String {
    let account = app.user(name, Role::Referee);
    kraal::director::commit(&mut app.conn(), None, |w| {
        kraal::db::users::allow_publishing(w, account.id, true)
    })
    .unwrap();
    let token = kraal::accounts::new_token();
    kraal::db::auth::create_token(
        &mut app.conn(),
        account.id,
        "venue",
        &kraal::accounts::token_digest(&token),
    )
    .unwrap();
    token
}

/// A ply as a player writes it: `C5`, `A1-A4`, `D2-D3 x F2`.
pub fn written(mv: &kraal::rules::Move) -> String {
    let mut s = match mv.from {
        Some(f) => format!("{}-{}", f.name(), mv.to.name()),
        None => mv.to.name().to_string(),
    };
    if let Some(t) = mv.shot {
        s.push_str(&format!(" x {}", t.name()));
    }
    s
}

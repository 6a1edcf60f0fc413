//! The layers keep to their rooms (docs/architecture.md): the pure core
//! knows nothing of the shell, the database layer never calls back into the
//! use cases, and only the database layer speaks SQL.
//!
//! Each source file is parsed as Rust: every `use` item (grouped imports
//! included), every path written out in code or attributes, and every path
//! inside a macro's tokens is resolved to a full path (`super::` and
//! `self::` against the file's own module, `use` trees against their
//! prefix) and checked against the rules. Comments and strings never count.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

fn rust_files(under: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(under).unwrap_or_else(|e| panic!("{}: {e}", under.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The files of `layer` (modules under src/: `"db"`, `"tournament.rs"`).
fn files(layer: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for part in layer {
        // A module is its folder, its file, or both (`web/api` is
        // `web/api.rs` and `web/api/`).
        let path = src().join(part);
        if path.is_dir() {
            rust_files(&path, &mut out);
        }
        let file = path.with_extension("rs");
        if path.extension().is_none() && file.is_file() {
            out.push(file);
        } else if path.is_file() {
            out.push(path);
        }
    }
    out.sort();
    assert!(!out.is_empty(), "no files in {layer:?}");
    out
}

/// The module path of a source file: `src/db/rounds.rs` is
/// `["crate", "db", "rounds"]`, `src/db/mod.rs` is `["crate", "db"]`.
fn module_of(file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src()).unwrap();
    let mut module = vec!["crate".to_string()];
    for part in relative.with_extension("").components() {
        let part = part.as_os_str().to_string_lossy().to_string();
        if !matches!(part.as_str(), "mod" | "lib" | "main") {
            module.push(part);
        }
    }
    module
}

/// One path a file names, resolved, and the line it is on.
#[derive(Debug)]
struct Named {
    path: Vec<String>,
    line: usize,
}

/// Collects every path of a file, resolved against the module it is in.
struct Paths {
    module: Vec<String>,
    found: Vec<Named>,
}

impl Paths {
    /// `segments` as written in module `self.module`, made absolute where
    /// it starts at `crate`, `self` or `super`; other paths (an outside
    /// crate, a name in scope) stay as written.
    fn resolve(&self, segments: &[String]) -> Vec<String> {
        let mut out: Vec<String>;
        let mut rest = segments;
        match segments.first().map(String::as_str) {
            Some("crate") => return segments.to_vec(),
            Some("self") => {
                out = self.module.clone();
                rest = &segments[1..];
            }
            Some("super") => {
                out = self.module.clone();
                while rest.first().is_some_and(|s| s == "super") {
                    out.pop();
                    rest = &rest[1..];
                }
            }
            _ => return segments.to_vec(),
        }
        out.extend(rest.iter().cloned());
        out
    }

    fn add(&mut self, segments: Vec<String>, line: usize) {
        if !segments.is_empty() {
            let path = self.resolve(&segments);
            self.found.push(Named { path, line });
        }
    }

    /// Every leaf of a `use` tree, with its prefix.
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut full = prefix.clone();
                if n.ident != "self" {
                    full.push(n.ident.to_string());
                }
                self.add(full, n.span().start().line);
            }
            syn::UseTree::Rename(r) => {
                let mut full = prefix.clone();
                if r.ident != "self" {
                    full.push(r.ident.to_string());
                }
                self.add(full, r.span().start().line);
            }
            syn::UseTree::Glob(g) => self.add(prefix.clone(), g.star_token.span.start().line),
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(prefix, tree);
                }
            }
        }
    }

    /// The `a::b::c` runs of a macro's tokens (what the macro receives is
    /// not parsed Rust, but its paths are still named there).
    fn tokens(&mut self, tokens: TokenStream) {
        let mut run: Vec<String> = Vec::new();
        let mut line = 0;
        let mut colons = 0;
        for tree in tokens {
            match tree {
                TokenTree::Ident(ident) => {
                    if colons == 2 || run.is_empty() {
                        if run.is_empty() {
                            line = ident.span().start().line;
                        }
                        run.push(ident.to_string());
                    } else {
                        self.add(std::mem::take(&mut run), line);
                        line = ident.span().start().line;
                        run.push(ident.to_string());
                    }
                    colons = 0;
                }
                TokenTree::Punct(p) if p.as_char() == ':' && !run.is_empty() => colons += 1,
                TokenTree::Group(g) => {
                    self.add(std::mem::take(&mut run), line);
                    colons = 0;
                    self.tokens(g.stream());
                }
                _ => {
                    self.add(std::mem::take(&mut run), line);
                    colons = 0;
                }
            }
        }
        self.add(run, line);
    }
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let mut prefix = Vec::new();
        if item.leading_colon.is_some() {
            prefix.push(String::new());
        }
        self.use_tree(&mut prefix, &item.tree);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.module.push(item.ident.to_string());
        visit::visit_item_mod(self, item);
        self.module.pop();
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.add(segments, path.span().start().line);
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit::visit_macro(self, mac);
        self.tokens(mac.tokens.clone());
    }

    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        visit::visit_attribute(self, attr);
        if let syn::Meta::List(list) = &attr.meta {
            self.tokens(list.tokens.clone());
        }
    }
}

/// Every path `file` names, resolved.
fn paths_of(file: &Path) -> Vec<Named> {
    let text = std::fs::read_to_string(file).unwrap();
    let syntax = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut paths = Paths {
        module: module_of(file),
        found: Vec::new(),
    };
    paths.visit_file(&syntax);
    paths.found
}

/// Whether `path` is `prefix` or lies under it (`crate::db` covers
/// `crate::db::rounds::Game`, not `crate::dbx`).
fn under(path: &[String], prefix: &str) -> bool {
    let prefix: Vec<&str> = prefix.split("::").collect();
    path.len() >= prefix.len() && path.iter().zip(&prefix).all(|(a, b)| a == b)
}

/// Every place in `layer` that names a path under one of `forbidden`,
/// outside the file's own module (a page may name itself).
fn offences(layer: &[&str], forbidden: &[impl AsRef<str>]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files(layer) {
        let own = module_of(&file).join("::");
        let mut lines = std::collections::BTreeSet::new();
        for named in paths_of(&file) {
            if under(&named.path, &own) && own != "crate" {
                continue;
            }
            if forbidden.iter().any(|f| under(&named.path, f.as_ref())) {
                lines.insert((named.line, named.path.join("::")));
            }
        }
        for (line, path) in lines {
            found.push(format!("{}:{line}: {path}", file.display()));
        }
    }
    found
}

/// Fails, listing each offence, when `layer` names a path under one of
/// `forbidden`: `what` says the rule.
#[track_caller]
fn forbid(what: &str, layer: &[&str], forbidden: &[impl AsRef<str>]) {
    let found = offences(layer, forbidden);
    assert!(found.is_empty(), "{what}:\n{}", found.join("\n"));
}

/// The modules of the files of `layer` but its `mod.rs` (the room's own
/// shared part): `web/pages` gives `crate::web::pages::rounds` and the rest.
fn modules(layer: &[&str]) -> Vec<String> {
    files(layer)
        .iter()
        .filter(|f| f.file_name().is_some_and(|n| n != "mod.rs"))
        .map(|f| module_of(f).join("::"))
        .collect()
}

const CORE: &[&str] = &[
    "rules",
    "pairing",
    "standings",
    "tournament",
    "roster",
    "rounds.rs",
    "results",
    "named.rs",
    "change.rs",
    "field.rs",
    "conflict.rs",
    "registry.rs",
    "remote.rs",
    "rating",
    "season.rs",
    "reports.rs",
    "clock.rs",
    "calendar.rs",
    "ids.rs",
];

/// The outside crates of the shell: a database, HTTP, templates.
const SQL: &[&str] = &["diesel", "diesel_migrations"];
const HTTP: &[&str] = &["actix_web", "askama", "askama_web"];

#[test]
fn the_core_knows_nothing_of_the_shell() {
    let mut forbidden = vec![
        "crate::db",
        "crate::web",
        "crate::director",
        "crate::export",
        "crate::cli",
        "crate::accounts",
        "crate::wording",
        "std::fs",
        "std::net",
        "std::process",
    ];
    forbidden.extend(SQL);
    forbidden.extend(HTTP);
    forbid("the core imports the shell", CORE, &forbidden);
}

#[test]
fn the_words_know_only_the_core() {
    let mut forbidden = vec![
        "crate::db",
        "crate::web",
        "crate::director",
        "crate::export",
        "crate::cli",
    ];
    forbidden.extend(SQL);
    forbidden.extend(HTTP);
    forbid("wording reaches past the core", &["wording"], &forbidden);
}

#[test]
fn the_database_layer_never_calls_the_use_cases_or_the_web() {
    let mut forbidden = vec![
        "crate::director",
        "crate::web",
        "crate::export",
        "crate::cli",
        // Stored values carry no words: a sentence is made where it is shown.
        "crate::wording",
    ];
    forbidden.extend(HTTP);
    forbid("db imports a layer above it", &["db"], &forbidden);
}

#[test]
fn the_use_cases_know_no_http_and_no_sql() {
    let mut forbidden = vec!["crate::web", "crate::db::schema"];
    forbidden.extend(SQL);
    forbidden.extend(HTTP);
    forbid("director reaches past its room", &["director"], &forbidden);
}

#[test]
fn the_use_cases_never_import_the_exports_or_the_web() {
    forbid(
        "director imports export or web",
        &["director"],
        &["crate::export", "crate::web"],
    );
}

#[test]
fn only_the_database_layer_speaks_sql() {
    let mut forbidden = vec!["crate::db::schema"];
    forbidden.extend(SQL);
    forbid(
        "SQL outside src/db",
        &["web", "export", "cli", "director"],
        &forbidden,
    );
}

#[test]
fn csv_is_written_in_one_place() {
    forbid(
        "CSV written outside src/export",
        &["web", "director", "db", "cli"],
        &["csv::Writer", "csv::WriterBuilder"],
    );
}

// Every write goes through `director::commit`: it alone begins one, and
// the revision moves only when a commit ends (`bump_revision` is private to
// the database layer, which the compiler checks).

#[test]
fn only_the_commit_begins_a_write() {
    // `Write::begin` as written (the type is imported by name wherever a
    // write is made), in every file of the crate.
    let mut found: Vec<String> = files(&[""])
        .iter()
        .flat_map(|f| {
            paths_of(f)
                .into_iter()
                .filter(|n| {
                    n.path
                        .ends_with(&["Write".to_string(), "begin".to_string()])
                })
                .map(move |n| format!("{}:{}", f.display(), n.line))
        })
        .collect();
    let commit = src().join("director/commit.rs").display().to_string();
    let in_commit = found.iter().filter(|o| o.starts_with(&commit)).count();
    assert_eq!(in_commit, 1, "director::commit begins the write: {found:?}");
    found.retain(|o| !o.starts_with(&commit));
    found.extend(offences(
        &["web", "export", "cli", "director"],
        &["crate::db::transaction", "crate::db::transaction_kept_if"],
    ));
    found.retain(|o| !o.starts_with(&commit));
    assert!(
        found.is_empty(),
        "a write begun outside director::commit:\n{}",
        found.join("\n")
    );
}

// Pages share what they show through the web's read models (web/views) and
// the layout (web/layout.rs), never through another page; the API reads the
// same views.

#[test]
fn pages_never_import_pages() {
    forbid(
        "a page imports another page",
        &["web/pages"],
        &modules(&["web/pages"]),
    );
}

#[test]
fn pages_never_import_the_api() {
    forbid(
        "a page or a view imports the API (what both need lives in crate::director or web/views)",
        &["web/pages", "web/views"],
        &["crate::web::api"],
    );
}

#[test]
fn the_api_never_imports_pages() {
    forbid(
        "the API imports pages",
        &["web/api"],
        &["crate::web::pages"],
    );
}

/// The rules above see what a line scan missed and miss what it wrongly saw.
#[test]
fn grouped_imports_and_relative_paths_are_resolved() {
    let file = src().join("db/rounds.rs");
    let syntax: syn::File = syn::parse_str(
        "use crate::{db, web::{pages::{self, rounds as r}, api}};\n\
         use super::schema::games;\n\
         // use crate::cli;\n\
         const S: &str = \"crate::export\";\n\
         fn f() { let _ = super::super::director::x(); format!(\"{}\", crate::accounts::y()); }\n\
         mod inner { use super::super::teams::Team; }\n",
    )
    .unwrap();
    let mut paths = Paths {
        module: module_of(&file),
        found: Vec::new(),
    };
    paths.visit_file(&syntax);
    let named: std::collections::BTreeSet<String> =
        paths.found.iter().map(|n| n.path.join("::")).collect();
    for want in [
        "crate::db",
        "crate::web::pages",
        "crate::web::pages::rounds",
        "crate::web::api",
        "crate::db::schema::games",
        "crate::director::x",
        "crate::accounts::y",
        "crate::db::teams::Team",
    ] {
        assert!(named.contains(want), "{want} not among {named:?}");
    }
    assert!(
        !named
            .iter()
            .any(|p| p.contains("cli") || p.contains("export")),
        "comments and strings name nothing: {named:?}"
    );
    assert!(under(
        &["crate".into(), "db".into(), "x".into()],
        "crate::db"
    ));
    assert!(!under(&["crate".into(), "dbx".into()], "crate::db"));
}

#[test]
fn the_web_reaches_the_data_through_the_director_only() {
    forbid(
        "the web names the database layer (a step belongs in crate::director)",
        &["web"],
        &["crate::db"],
    );
}

/// Every `pub use` of `crate::db` in the director, with its line, whose
/// name is not a type or a constant: handing out a database function
/// would open a second door beside the director's own functions.
fn functions_handed_out(file: &Path) -> Vec<String> {
    fn leaves(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, usize)>) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                leaves(&p.tree, prefix, out);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut full = prefix.clone();
                full.push(n.ident.to_string());
                out.push((full, n.span().start().line));
            }
            syn::UseTree::Rename(r) => {
                let mut full = prefix.clone();
                full.push(r.ident.to_string());
                out.push((full, r.span().start().line));
            }
            syn::UseTree::Glob(g) => {
                let mut full = prefix.clone();
                full.push("*".into());
                out.push((full, g.star_token.span.start().line));
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    leaves(t, prefix, out);
                }
            }
        }
    }
    let text = std::fs::read_to_string(file).unwrap();
    let syntax = syn::parse_file(&text).unwrap();
    let mut out = Vec::new();
    for item in &syntax.items {
        if let syn::Item::Use(u) = item {
            if matches!(u.vis, syn::Visibility::Inherited) {
                continue;
            }
            let mut found = Vec::new();
            leaves(&u.tree, &mut Vec::new(), &mut found);
            for (path, line) in found {
                let from_db = path.len() > 1 && path[0] == "crate" && path[1] == "db";
                let typed = path
                    .last()
                    .and_then(|n| n.chars().next())
                    .is_some_and(char::is_uppercase);
                if from_db && !typed {
                    out.push(format!("{}:{line}: {}", file.display(), path.join("::")));
                }
            }
        }
    }
    out
}

#[test]
fn the_director_hands_out_types_never_database_functions() {
    let found: Vec<String> = files(&["director"])
        .iter()
        .flat_map(|f| functions_handed_out(f))
        .collect();
    assert!(
        found.is_empty(),
        "the director re-exports a database function:\n{}",
        found.join("\n")
    );
    // The rule can fail: a re-exported function is caught.
    let probe = std::env::temp_dir().join(format!("kraal-door-{}.rs", std::process::id()));
    std::fs::write(&probe, "pub use crate::db::players::{create, Player};\n").unwrap();
    let caught = functions_handed_out(&probe);
    std::fs::remove_file(&probe).unwrap();
    assert_eq!(caught.len(), 1, "{caught:?}");
    assert!(
        caught[0].ends_with("crate::db::players::create"),
        "{caught:?}"
    );
}

/// The database functions that write without the commit's `Write` handle,
/// deliberately: docs/architecture.md ("Writes that are not an event's
/// change") gives each its reason, and the test below checks the two lists
/// agree.
const WRITES_WITHOUT_A_CHANGE: &[&str] = &[
    "auth::create_session",
    "auth::delete_session",
    "auth::create_token",
    "auth::revoke_token",
    "auth::token_user",
    "auth::admit_sign_in",
    "auth::record_login_failure",
    "auth::sign_in_failed",
    "auth::sign_in_succeeded",
    "auth::set_password_ending_others",
    "idempotency::keep",
    "plies::add",
    "plies::hold",
    "plies::moved",
    "plies::replace_record",
    "plies::rule",
    "plies::sent",
    "publications::acknowledged",
    "publications::failed",
    "settings::get_or_insert",
    "db::backup_into",
    "db::ping",
    "explanations::rewrite_sentences",
];

/// Whether a function body writes rows: an `insert_into`, `update`,
/// `delete` or `sql_query` of diesel's, or an `.execute(..)`.
#[derive(Default)]
struct Writes(bool);

impl<'ast> Visit<'ast> for Writes {
    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        if let syn::Expr::Path(p) = &*call.func {
            let last = p.path.segments.last().map(|s| s.ident.to_string());
            let diesel = p.path.segments.first().is_some_and(|s| s.ident == "diesel");
            if diesel
                && matches!(
                    last.as_deref(),
                    Some("insert_into" | "update" | "delete" | "sql_query")
                )
            {
                self.0 = true;
            }
        }
        visit::visit_expr_call(self, call);
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        if call.method == "execute" {
            self.0 = true;
        }
        visit::visit_expr_method_call(self, call);
    }
}

/// `module::function` of every public function of `src/db` that writes
/// without taking the commit's `Write`.
fn writes_without_the_commit(files: &[PathBuf]) -> Vec<String> {
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let syntax = syn::parse_file(&text).unwrap();
        let module = match file.strip_prefix(src()) {
            Ok(_) => module_of(file).last().cloned().unwrap_or_default(),
            Err(_) => "probe".to_string(),
        };
        for item in &syntax.items {
            let syn::Item::Fn(f) = item else { continue };
            if !matches!(f.vis, syn::Visibility::Public(_)) {
                continue;
            }
            let mut writes = Writes::default();
            writes.visit_block(&f.block);
            let takes_write = f.sig.inputs.iter().any(|arg| {
                let syn::FnArg::Typed(t) = arg else {
                    return false;
                };
                is_write(&t.ty)
            });
            if writes.0 && !takes_write {
                out.push(format!("{module}::{}", f.sig.ident));
            }
        }
    }
    out.sort();
    out
}

/// Whether a parameter's type is the commit's handle (`&mut Write`).
fn is_write(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Reference(r) => is_write(&r.elem),
        syn::Type::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == "Write"),
        _ => false,
    }
}

#[test]
fn every_database_write_takes_the_commit_or_is_listed_with_its_reason() {
    let mut found = writes_without_the_commit(&files(&["db"]));
    let mut listed: Vec<String> = WRITES_WITHOUT_A_CHANGE
        .iter()
        .map(|s| s.to_string())
        .collect();
    listed.sort();
    found.retain(|f| !listed.contains(f));
    assert!(
        found.is_empty(),
        "these db functions write without the commit's Write (take `w: &mut Write` and record a change, \
         or list them in WRITES_WITHOUT_A_CHANGE and docs/architecture.md with the reason):\n{}",
        found.join("\n")
    );
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
            .unwrap();
    for entry in WRITES_WITHOUT_A_CHANGE {
        let name = entry.rsplit("::").next().unwrap();
        assert!(
            doc.contains(&format!("`{name}`")) || doc.contains(&format!("`{entry}`")),
            "docs/architecture.md does not give the reason for {entry}"
        );
    }
    // The rule can fail: a public function that writes through a bare
    // connection is caught.
    let probe = std::env::temp_dir().join(format!("kraal-write-{}.rs", std::process::id()));
    std::fs::write(
        &probe,
        "pub fn sneak(conn: &mut DbConnection) -> Result<(), DbError> {\n    \
         diesel::delete(games::table).execute(conn)?;\n    Ok(())\n}\n\
         pub fn fine(w: &mut Write) -> Result<(), DbError> {\n    \
         diesel::delete(games::table).execute(w.conn())?;\n    Ok(())\n}\n",
    )
    .unwrap();
    let caught = writes_without_the_commit(std::slice::from_ref(&probe));
    std::fs::remove_file(&probe).unwrap();
    assert_eq!(caught.len(), 1, "{caught:?}");
    assert!(caught[0].ends_with("::sneak"), "{caught:?}");
}

/// The modules whose own files may lean on each other: an engine's parts
/// (the rules engine's position and its move generator; the Dutch
/// system's brackets, criteria and absolute conditions), which are one
/// algorithm cut into files of a readable size.
const ONE_ALGORITHM: &[&str] = &["crate::rules", "crate::pairing::swiss"];

/// The files of src/ that import each other in a circle, each circle with
/// its edges; a parent and its own child are one module, and the files
/// directly under a module of `ONE_ALGORITHM` may lean on each other.
fn circles() -> Vec<String> {
    use std::collections::{BTreeMap, BTreeSet};
    let all = files(&[""]);
    let modules: Vec<(String, &PathBuf)> =
        all.iter().map(|f| (module_of(f).join("::"), f)).collect();
    let mut by_length: Vec<&String> = modules.iter().map(|(m, _)| m).collect();
    by_length.sort_by_key(|m| std::cmp::Reverse(m.len()));
    let owner = |path: &str| -> Option<String> {
        by_length
            .iter()
            .find(|m| path == m.as_str() || path.starts_with(&format!("{m}::")))
            .map(|m| m.to_string())
    };
    let related =
        |a: &str, b: &str| a.starts_with(&format!("{b}::")) || b.starts_with(&format!("{a}::"));
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, file) in &modules {
        let set = edges.entry(module.clone()).or_default();
        for named in paths_of(file) {
            if named.path.first().map(String::as_str) != Some("crate") {
                continue;
            }
            if let Some(o) = owner(&named.path.join("::")) {
                if &o != module && !related(&o, module) && o != "crate" {
                    set.insert(o);
                }
            }
        }
    }
    // Tarjan's strongly connected components.
    struct Walk<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        stack: Vec<String>,
        on: BTreeSet<String>,
        found: Vec<Vec<String>>,
    }
    impl Walk<'_> {
        fn visit(&mut self, v: &str) {
            let i = self.index.len();
            self.index.insert(v.to_string(), i);
            self.low.insert(v.to_string(), i);
            self.stack.push(v.to_string());
            self.on.insert(v.to_string());
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let l = self.low[v].min(self.low[w]);
                    self.low.insert(v.to_string(), l);
                } else if self.on.contains(w) {
                    let l = self.low[v].min(self.index[w]);
                    self.low.insert(v.to_string(), l);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(&w);
                    let last = w == v;
                    component.push(w);
                    if last {
                        break;
                    }
                }
                if component.len() > 1 {
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        edges: &edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    let parent = |m: &str| {
        m.rsplit_once("::")
            .map(|(p, _)| p.to_string())
            .unwrap_or_default()
    };
    walk.found
        .into_iter()
        .filter(|c| {
            let one = parent(&c[0]);
            !(c.iter().all(|m| parent(m) == one) && ONE_ALGORITHM.contains(&one.as_str()))
        })
        .map(|mut c| {
            c.sort();
            let inner: Vec<String> = c
                .iter()
                .flat_map(|a| {
                    edges[a]
                        .iter()
                        .filter(|b| c.contains(b))
                        .map(move |b| format!("  {a} -> {b}"))
                })
                .collect();
            format!("{}\n{}", c.join(", "), inner.join("\n"))
        })
        .collect()
}

#[test]
fn files_of_different_modules_never_import_each_other_in_a_circle() {
    let found = circles();
    assert!(
        found.is_empty(),
        "circles between modules:\n{}",
        found.join("\n")
    );
}

/// The most lines a function may take, from its `fn` to its closing brace:
/// past that a reader loses the thread, and the parts want names.
const MAX_FUNCTION_LINES: usize = 120;

/// The most lines a source file may take: past that a module holds more
/// than one subject, and each wants a file of its own.
const MAX_FILE_LINES: usize = 1000;

/// The comment that lets a function run longer: a `match` that words one
/// case per line (an error's or a refusal's sentence for each variant)
/// reads best whole, and cutting it in parts would only scatter the cases.
const ONE_CASE_PER_LINE: &str = "one case per line";

/// The functions of one file over `MAX_FUNCTION_LINES`, each as
/// `file:line name length`.
struct LongFunctions<'a> {
    file: &'a str,
    lines: Vec<&'a str>,
    /// The type or trait whose `impl` or definition is being read.
    owner: Vec<String>,
    found: Vec<String>,
}

impl LongFunctions<'_> {
    /// Records `sig` if its function is too long and not a marked match.
    fn check(&mut self, attrs: &[syn::Attribute], sig: &syn::Signature, block: &syn::Block) {
        let start = sig.fn_token.span.start().line;
        let end = block.brace_token.span.close().start().line;
        let length = end + 1 - start;
        if length <= MAX_FUNCTION_LINES || (self.marked(attrs, start) && one_match(block)) {
            return;
        }
        let name = match self.owner.last() {
            Some(owner) => format!("{owner}::{}", sig.ident),
            None => sig.ident.to_string(),
        };
        self.found
            .push(format!("{}:{start} {name} {length}", self.file));
    }

    /// Whether a comment directly above the function (among its doc
    /// comments and attributes, or right above them) carries the marker.
    fn marked(&self, attrs: &[syn::Attribute], fn_line: usize) -> bool {
        let first = attrs
            .iter()
            .map(|a| a.span().start().line)
            .min()
            .unwrap_or(fn_line)
            .min(fn_line);
        // Spans count lines from 1, `self.lines` from 0: `top` is the index
        // of the first comment line above, the item's own first if none.
        let mut top = first - 1;
        while top > 0 && self.lines[top - 1].trim_start().starts_with("//") {
            top -= 1;
        }
        self.lines[top..fn_line - 1]
            .iter()
            .any(|l| l.trim_start().starts_with("//") && l.contains(ONE_CASE_PER_LINE))
    }
}

/// Whether a body is one `match`, after at most the `let`s that name what
/// its arms share.
fn one_match(block: &syn::Block) -> bool {
    let Some((last, before)) = block.stmts.split_last() else {
        return false;
    };
    matches!(last, syn::Stmt::Expr(syn::Expr::Match(_), None))
        && before.iter().all(|s| matches!(s, syn::Stmt::Local(_)))
}

/// The name of the type an `impl` is for: `Refused` for
/// `impl fmt::Display for Refused`.
fn type_name(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Path(p) => p
            .path
            .segments
            .last()
            .map_or_else(String::new, |s| s.ident.to_string()),
        syn::Type::Reference(r) => type_name(&r.elem),
        _ => "_".to_string(),
    }
}

impl<'ast> Visit<'ast> for LongFunctions<'_> {
    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.check(&item.attrs, &item.sig, &item.block);
        visit::visit_item_fn(self, item);
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        self.owner.push(type_name(&item.self_ty));
        visit::visit_item_impl(self, item);
        self.owner.pop();
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        self.check(&item.attrs, &item.sig, &item.block);
        visit::visit_impl_item_fn(self, item);
    }

    fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
        self.owner.push(item.ident.to_string());
        visit::visit_item_trait(self, item);
        self.owner.pop();
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        if let Some(block) = &item.default {
            self.check(&item.attrs, &item.sig, block);
        }
        visit::visit_trait_item_fn(self, item);
    }
}

/// The functions of `text` (the source of `file`) over the limit and not
/// excused by the marker, each as `file:line name length`.
fn long_functions(file: &str, text: &str) -> Vec<String> {
    let syntax = syn::parse_file(text).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut long = LongFunctions {
        file,
        lines: text.lines().collect(),
        owner: Vec::new(),
        found: Vec::new(),
    };
    long.visit_file(&syntax);
    long.found
}

#[test]
fn no_function_is_longer_than_120_lines_but_a_match_of_one_case_per_line() {
    let found: Vec<String> = files(&[""])
        .iter()
        .flat_map(|f| {
            long_functions(
                &f.display().to_string(),
                &std::fs::read_to_string(f).unwrap(),
            )
        })
        .collect();
    assert!(
        found.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines (cut them into named steps; a match that words \
         one case per line may stay whole under a comment saying `{ONE_CASE_PER_LINE}`):\n{}",
        found.join("\n")
    );
    // The rule can fail: a function, a method and a nested function of 121
    // lines are caught, one of 120 is not, and the marker excuses a match
    // only.
    let body = |lines: usize| "    let _ = 0;\n".repeat(lines - 2);
    let cases = |lines: usize| {
        let arms: String = (0..lines - 5)
            .map(|i| format!("        {i} => 0,\n"))
            .collect();
        format!("    match x {{\n{arms}        _ => 1,\n    }}\n")
    };
    let probe = format!(
        "fn long() {{\n{long}}}\n\
         fn short() {{\n{short}}}\n\
         struct S;\n\
         impl S {{\n    fn method(&self) {{\n{long}    }}\n}}\n\
         fn outer() {{\n    fn inner() {{\n{long}    }}\n}}\n\
         // Words each value, {ONE_CASE_PER_LINE}.\n\
         fn worded(x: u32) -> u32 {{\n{worded}}}\n\
         // Not a match, though {ONE_CASE_PER_LINE}.\n\
         fn pretends() {{\n{long}}}\n\
         fn unmarked(x: u32) -> u32 {{\n{worded}}}\n",
        long = body(121),
        short = body(120),
        worded = cases(121),
    );
    let caught = long_functions("probe.rs", &probe);
    let names: Vec<&str> = caught
        .iter()
        .map(|c| c.split(' ').nth(1).unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "long",
            "S::method",
            "outer",
            "inner",
            "pretends",
            "unmarked"
        ],
        "{caught:?}"
    );
    assert!(caught[0].starts_with("probe.rs:1 long 121"), "{caught:?}");
}

/// The files over `MAX_FILE_LINES`, each as `file length`.
fn long_files(files: &[PathBuf]) -> Vec<String> {
    files
        .iter()
        .filter_map(|f| {
            let length = std::fs::read_to_string(f).unwrap().lines().count();
            (length > MAX_FILE_LINES).then(|| format!("{} {length}", f.display()))
        })
        .collect()
}

#[test]
fn no_source_file_is_longer_than_1000_lines() {
    let found = long_files(&files(&[""]));
    assert!(
        found.is_empty(),
        "source files over {MAX_FILE_LINES} lines (give a subject of its own a module of its own):\n{}",
        found.join("\n")
    );
    // The rule can fail: a file of 1,001 lines is caught, one of 1,000 is not.
    let dir = std::env::temp_dir();
    let long = dir.join(format!("kraal-long-{}.rs", std::process::id()));
    let short = dir.join(format!("kraal-short-{}.rs", std::process::id()));
    std::fs::write(&long, "//\n".repeat(MAX_FILE_LINES + 1)).unwrap();
    std::fs::write(&short, "//\n".repeat(MAX_FILE_LINES)).unwrap();
    let caught = long_files(&[long.clone(), short.clone()]);
    std::fs::remove_file(&long).unwrap();
    std::fs::remove_file(&short).unwrap();
    assert_eq!(caught, [format!("{} 1001", long.display())]);
}

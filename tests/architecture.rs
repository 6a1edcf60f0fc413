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
    "tournament.rs",
    "roster",
    "rounds.rs",
    "results.rs",
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

//! The layers keep to their rooms (docs/architecture.md): the pure core
//! knows nothing of the shell, the database layer never calls back into the
//! use cases, and only the database layer speaks SQL. A source scan is
//! enough to hold that line.

use std::path::{Path, PathBuf};

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

/// The files of `layer` (folders or single files under src/).
fn files(layer: &[&str]) -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    for part in layer {
        let path = src.join(part);
        if path.is_dir() {
            rust_files(&path, &mut out);
        } else {
            out.push(path);
        }
    }
    assert!(!out.is_empty(), "no files in {layer:?}");
    out
}

/// Every line of `layer` that mentions one of `forbidden`, outside comments.
fn offences(layer: &[&str], forbidden: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files(layer) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in forbidden {
                if code.contains(word) {
                    found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    found
}

const CORE: &[&str] = &[
    "rules",
    "pairing",
    "standings",
    "tournament.rs",
    "roster.rs",
    "results.rs",
    "named.rs",
];

#[test]
fn the_core_knows_nothing_of_the_shell() {
    let found = offences(
        CORE,
        &[
            "crate::db",
            "crate::web",
            "crate::director",
            "crate::export",
            "crate::cli",
            "crate::accounts",
            "diesel",
            "actix",
            "askama",
            "std::fs",
            "std::net",
            "std::process",
        ],
    );
    assert!(
        found.is_empty(),
        "the core imports the shell:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_database_layer_never_calls_the_use_cases_or_the_web() {
    let found = offences(
        &["db"],
        &[
            "crate::director",
            "crate::web",
            "crate::export",
            "crate::cli",
            "actix",
            "askama",
        ],
    );
    assert!(
        found.is_empty(),
        "db imports a layer above it:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_use_cases_know_no_http_and_no_sql() {
    let found = offences(
        &["director"],
        &[
            "crate::web",
            "actix",
            "askama",
            "diesel",
            "crate::db::schema",
        ],
    );
    assert!(
        found.is_empty(),
        "director reaches past its room:\n{}",
        found.join("\n")
    );
}

#[test]
fn only_the_database_layer_speaks_sql() {
    let found = offences(
        &["web", "export", "cli", "director"],
        &["diesel", "crate::db::schema", "super::schema"],
    );
    assert!(
        found.is_empty(),
        "SQL outside src/db:\n{}",
        found.join("\n")
    );
}

#[test]
fn csv_is_written_in_one_place() {
    let found = offences(
        &["web", "director", "db", "cli"],
        &["csv::Writer", "csv::WriterBuilder"],
    );
    assert!(
        found.is_empty(),
        "CSV written outside src/export:\n{}",
        found.join("\n")
    );
}

//! The registry as CSV: the rating list out, people in.
//!
//! The export lists everyone not merged away, best rated first (then the
//! unrated by name): `id`, `name`, `federation_id`, `club`, `born`, and
//! their rating after the current month, `rating`, `rd`, `volatility`,
//! `period`, with `games` (that month), `provisional` and `games_total`
//! (every rated game up to that month). The import reads `name`
//! (required), `federation_id`, `club`, `born`, and an optional starting
//! rating `rating`, `rd`, `volatility`, `period` (in force after that
//! month); it ignores `id`, `games`, `provisional` and `games_total`, so
//! one server's rating list seeds another's registry with its ratings.

use std::collections::HashMap;

use crate::db::people::Person;
use crate::director::ratings::Book;
use crate::registry::{PersonFields, PersonText};

use super::players::ImportError;
use crate::ids::PersonId;

const COLUMNS: &[&str] = &[
    "name",
    "federation_id",
    "club",
    "born",
    "rating",
    "rd",
    "volatility",
    "period",
];
const IGNORED: &[&str] = &["id", "games", "provisional", "games_total"];

/// The rating list (see the module).
pub fn csv(book: &Book) -> Result<Vec<u8>, csv::Error> {
    let rated = book.list(book.until);
    let mut listed: HashMap<PersonId, ()> = HashMap::new();
    let mut rows: Vec<Vec<String>> = Vec::with_capacity(book.people.len());
    let person = |p: &Person| {
        vec![
            p.id.to_string(),
            p.name.clone(),
            p.federation_id.clone().unwrap_or_default(),
            p.club.clone(),
            p.born.map(|y| y.to_string()).unwrap_or_default(),
        ]
    };
    for l in &rated {
        listed.insert(l.person.id, ());
        let mut row = person(l.person);
        row.extend([
            format!("{:.2}", l.rating.rating),
            format!("{:.2}", l.rating.rd),
            format!("{:.6}", l.rating.volatility),
            book.until.to_string(),
            l.games.to_string(),
            if l.rating.provisional() { "yes" } else { "no" }.to_string(),
            l.total.to_string(),
        ]);
        rows.push(row);
    }
    let mut unrated: Vec<&Person> = book
        .people
        .iter()
        .filter(|p| p.merged_into.is_none() && !listed.contains_key(&p.id))
        .collect();
    unrated.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
    for p in unrated {
        let mut row = person(p);
        row.extend(std::iter::repeat_n(String::new(), 7));
        rows.push(row);
    }
    // What the import reads, between what it ignores.
    let header: Vec<&str> = ["id"]
        .iter()
        .chain(COLUMNS)
        .chain(&["games", "provisional", "games_total"])
        .copied()
        .collect();
    super::table(&header, rows)
}

/// Reads a registry CSV; on any problem, every problem found, by line and
/// column. Two lines with one federation id are a problem.
pub fn read(text: &str, this_year: i32) -> Result<Vec<PersonFields>, Vec<ImportError>> {
    let mut reader = super::import_reader(text);
    let err = |line: u64, column: &str, message: String| ImportError {
        line,
        column: column.to_string(),
        message,
    };
    let (index, mut errors) = super::import_header(&mut reader, COLUMNS, IGNORED)?;
    if !index.contains_key("name") {
        errors.push(err(1, "name", "the header has no 'name' column".into()));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut people = Vec::new();
    let mut seen: HashMap<String, u64> = HashMap::new();
    for (line, record) in super::import_rows(&mut reader, text, &mut errors) {
        let get = |col: &str| super::field(&index, &record, col);
        let text = PersonText {
            name: get("name"),
            federation_id: get("federation_id"),
            club: get("club"),
            born: get("born"),
            rating: get("rating"),
            rd: get("rd"),
            volatility: get("volatility"),
            period: get("period"),
        };
        let fid = crate::roster::federation_id_spelling(text.federation_id);
        if !fid.is_empty() {
            if let Some(first) = seen.insert(fid.to_string(), line) {
                errors.push(err(
                    line,
                    "federation_id",
                    format!("federation id {fid} is on line {first} too"),
                ));
            }
        }
        match PersonFields::parse(&text, this_year) {
            Ok(p) => people.push(p),
            Err(field_errors) => {
                for fe in field_errors {
                    errors.push(err(line, fe.field, fe.to_string()));
                }
            }
        }
    }
    if people.is_empty() && errors.is_empty() {
        errors.push(err(2, "", "the file lists no people".into()));
    }
    if errors.is_empty() {
        Ok(people)
    } else {
        errors.sort_by_key(|e| e.line);
        Err(errors)
    }
}

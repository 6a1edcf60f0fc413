//! The player list as CSV.
//!
//! Columns (header row required, names case-insensitive, any order):
//! `name` (required), `club`, `rating`, `seed`, `federation_id`, and
//! `relatives`: names of first-degree relatives listed in the same file,
//! separated by `;`. The export adds `id` and `withdrawn_from_round`, which
//! the import ignores, so an exported list can seed a new tournament.

use std::collections::HashMap;

use serde::Serialize;

use crate::roster::PlayerFields;

/// One problem in an import, located by line (the header is line 1) and column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportError {
    pub line: u64,
    pub column: String,
    pub message: String,
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.column.is_empty() {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            write!(
                f,
                "line {}, column {}: {}",
                self.line, self.column, self.message
            )
        }
    }
}

/// A checked import: the players in file order and relatives as index pairs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportPlan {
    pub players: Vec<PlayerFields>,
    pub relatives: Vec<(usize, usize)>,
    /// Things worth a second look that do not stop the import (two lines
    /// with the same name).
    pub warnings: Vec<String>,
}

const COLUMNS: &[&str] = &[
    "name",
    "club",
    "rating",
    "seed",
    "federation_id",
    "relatives",
];
const IGNORED: &[&str] = &["id", "withdrawn_from_round"];

/// Reads a player CSV; on any problem returns every problem found.
pub fn read(text: &str) -> Result<ImportPlan, Vec<ImportError>> {
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

    // Every row's name is known before relatives are looked up, even a row
    // with other problems: one pass reports them all together.
    let mut players = Vec::new();
    let mut rows: Vec<(u64, String, Option<usize>)> = Vec::new();
    let mut wanted: Vec<(u64, usize, String)> = Vec::new();
    for (line, record) in super::import_rows(&mut reader, text, &mut errors) {
        let get = |col: &str| super::field(&index, &record, col);
        let row = rows.len();
        for name in get("relatives")
            .split(';')
            .map(str::trim)
            .filter(|n| !n.is_empty())
        {
            wanted.push((line, row, name.to_string()));
        }
        match PlayerFields::parse(
            get("name"),
            get("club"),
            get("rating"),
            get("seed"),
            get("federation_id"),
        ) {
            Ok(p) => {
                rows.push((line, name_key(&p.name), Some(players.len())));
                players.push(p);
            }
            Err(field_errors) => {
                rows.push((line, name_key(get("name")), None));
                for fe in field_errors {
                    errors.push(err(line, fe.field, fe.to_string()));
                }
            }
        }
    }
    if rows.is_empty() && errors.is_empty() {
        errors.push(err(2, "", "the file lists no players".into()));
    }

    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, (_, key, _)) in rows.iter().enumerate() {
        if !key.is_empty() {
            by_name.entry(key.as_str()).or_default().push(i);
        }
    }
    let mut relatives = Vec::new();
    for (line, who, name) in wanted {
        match by_name.get(name_key(&name).as_str()).map(Vec::as_slice) {
            Some([other]) if *other == who => {
                errors.push(err(line, "relatives", format!("'{name}' is this player")));
            }
            Some([other]) => {
                if let (Some(a), Some(b)) = (rows[who].2, rows[*other].2) {
                    let pair = (a.min(b), a.max(b));
                    if !relatives.contains(&pair) {
                        relatives.push(pair);
                    }
                }
            }
            Some(many) if many.len() > 1 => errors.push(err(
                line,
                "relatives",
                format!("'{name}' names {} players in this file", many.len()),
            )),
            _ => errors.push(err(
                line,
                "relatives",
                format!("'{name}' is not a player in this file"),
            )),
        }
    }
    if errors.is_empty() {
        let warnings = duplicates(&rows);
        Ok(ImportPlan {
            players,
            relatives,
            warnings,
        })
    } else {
        errors.sort_by_key(|e| e.line);
        Err(errors)
    }
}

/// A name as compared for sameness: spaces collapsed, case ignored.
fn name_key(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Players of the plan whose name is already entered in the tournament
/// (`existing`): allowed, but worth a second look.
pub fn already_entered(plan: &ImportPlan, existing: &[&str]) -> Vec<String> {
    let known: std::collections::HashSet<String> = existing.iter().map(|n| name_key(n)).collect();
    plan.players
        .iter()
        .filter(|p| known.contains(&name_key(&p.name)))
        .map(|p| {
            format!(
                "{} is already a player of this tournament: check this is someone else",
                p.name
            )
        })
        .collect()
}

/// Names that appear on more than one line: allowed (two people may share
/// a name) but worth a second look.
fn duplicates(rows: &[(u64, String, Option<usize>)]) -> Vec<String> {
    let mut seen: Vec<(&str, Vec<u64>)> = Vec::new();
    for (line, key, _) in rows {
        match seen.iter_mut().find(|(k, _)| k == key) {
            Some((_, lines)) => lines.push(*line),
            None => seen.push((key, vec![*line])),
        }
    }
    seen.into_iter()
        .filter(|(_, lines)| lines.len() > 1)
        .map(|(_, lines)| {
            let (last, rest) = lines.split_last().expect("two lines or more");
            let rest: Vec<String> = rest.iter().map(u64::to_string).collect();
            format!(
                "lines {} and {last} have the same name: check that they are different people",
                rest.join(", ")
            )
        })
        .collect()
}

/// One row of the exported list.
pub struct Row<'a> {
    pub id: i32,
    pub fields: &'a PlayerFields,
    pub withdrawn_from_round: Option<i32>,
    pub relatives: Vec<&'a str>,
}

/// Writes the player list as CSV.
pub fn write(rows: &[Row<'_>]) -> Result<Vec<u8>, csv::Error> {
    let opt = |v: Option<i32>| v.map(|n| n.to_string()).unwrap_or_default();
    super::table(
        &[
            "id",
            "name",
            "club",
            "rating",
            "seed",
            "federation_id",
            "withdrawn_from_round",
            "relatives",
        ],
        rows.iter().map(|r| {
            vec![
                r.id.to_string(),
                r.fields.name.clone(),
                r.fields.club.clone(),
                opt(r.fields.rating),
                opt(r.fields.seed),
                r.fields.federation_id.clone(),
                opt(r.withdrawn_from_round),
                r.relatives.join(";"),
            ]
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_good_file_is_read_with_its_relatives() {
        let plan = read(
            "Name,Club,Rating,relatives\n\
             Thabo Mokoena,Soweto MSC,1840,Lerato Mokoena\n\
             Lerato Mokoena,Soweto MSC,1710,\n\
             Sipho Dlamini,Durban Mills,,\n",
        )
        .unwrap();
        assert_eq!(plan.players.len(), 3);
        assert_eq!(plan.players[2].rating, None);
        assert_eq!(plan.relatives, vec![(0, 1)]);
    }

    #[test]
    fn every_bad_line_is_reported_with_its_column() {
        let errs = read(
            "name,rating,seed\n\
             Thabo Mokoena,18x0,\n\
             ,1500,\n\
             Sipho Dlamini,1500,-2\n",
        )
        .unwrap_err();
        let found: Vec<_> = errs.iter().map(|e| (e.line, e.column.as_str())).collect();
        assert_eq!(found, vec![(2, "rating"), (3, "name"), (4, "seed")]);
    }

    #[test]
    fn unknown_columns_and_ragged_rows_are_refused() {
        let errs = read("name,elo\nA,1\n").unwrap_err();
        assert!(errs[0].message.contains("unknown column 'elo'"));
        let errs = read("name,club\nA,x,y\n").unwrap_err();
        assert_eq!(errs[0].line, 2);
        assert!(errs[0].message.contains("3 fields where the header has 2"));
    }

    #[test]
    fn an_export_reads_back_as_the_same_players() {
        let a = PlayerFields::parse("Naledi, Khumalo", "Pretoria \"Cows\"", "1600", "3", "ZA-9")
            .unwrap();
        let rows = [Row {
            id: 7,
            fields: &a,
            withdrawn_from_round: Some(4),
            relatives: vec![],
        }];
        let bytes = write(&rows).unwrap();
        let plan = read(std::str::from_utf8(&bytes).unwrap()).unwrap();
        assert_eq!(plan.players, vec![a]);
    }
}

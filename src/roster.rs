//! The players of a tournament as typed by a referee: one set of checks for
//! the form, the CSV import and the API, each naming the field at fault.

use serde::Serialize;

/// A field and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    pub field: &'static str,
    pub message: String,
}

/// Text fields hold printable text: a control character (a NUL byte, a
/// bell, an escape) cannot be stored by every database and shows as nothing
/// on a page, so it is refused, naming the field and the character.
pub fn check_printable(field: &'static str, what: &str, value: &str) -> Result<(), FieldError> {
    match value.chars().find(|c| c.is_control()) {
        Some(c) => Err(FieldError::new(
            field,
            format!("the {what} holds a control character (U+{:04X})", c as u32),
        )),
        None => Ok(()),
    }
}

impl FieldError {
    pub fn new(field: &'static str, message: impl Into<String>) -> FieldError {
        FieldError {
            field,
            message: message.into(),
        }
    }
}

/// A player's details, checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct PlayerFields {
    pub name: String,
    pub club: String,
    pub rating: Option<i32>,
    pub seed: Option<i32>,
    pub federation_id: String,
}

/// Ratings outside this range are typing mistakes, not players.
pub const RATING_RANGE: std::ops::RangeInclusive<i32> = 0..=4000;

impl PlayerFields {
    /// Checks raw text fields; every problem is reported, not just the first.
    pub fn parse(
        name: &str,
        club: &str,
        rating: &str,
        seed: &str,
        federation_id: &str,
    ) -> Result<PlayerFields, Vec<FieldError>> {
        let mut errors = Vec::new();
        let name = collapse_spaces(name);
        if name.is_empty() {
            errors.push(FieldError::new("name", "the name is empty"));
        } else if name.chars().count() > 100 {
            errors.push(FieldError::new(
                "name",
                "the name is longer than 100 characters",
            ));
        }
        errors.extend(check_printable("name", "name", &name).err());
        let club = collapse_spaces(club);
        errors.extend(check_printable("club", "club", &club).err());
        if club.chars().count() > 100 {
            errors.push(FieldError::new(
                "club",
                "the club is longer than 100 characters",
            ));
        }
        let rating = match optional_number(rating) {
            Ok(Some(r)) if !RATING_RANGE.contains(&r) => {
                errors.push(FieldError::new(
                    "rating",
                    format!(
                        "rating {r} is outside {}..{}",
                        RATING_RANGE.start(),
                        RATING_RANGE.end()
                    ),
                ));
                None
            }
            Ok(r) => r,
            Err(text) => {
                errors.push(FieldError::new(
                    "rating",
                    format!("'{text}' is not a whole number"),
                ));
                None
            }
        };
        let seed = match optional_number(seed) {
            Ok(Some(s)) if s < 1 => {
                errors.push(FieldError::new(
                    "seed",
                    format!("seed {s} is not 1 or more"),
                ));
                None
            }
            Ok(s) => s,
            Err(text) => {
                errors.push(FieldError::new(
                    "seed",
                    format!("'{text}' is not a whole number"),
                ));
                None
            }
        };
        let federation_id = federation_id.trim().to_string();
        errors.extend(check_printable("federation_id", "federation id", &federation_id).err());
        if federation_id.chars().count() > 32 {
            errors.push(FieldError::new(
                "federation_id",
                "the federation id is longer than 32 characters",
            ));
        }
        if errors.is_empty() {
            Ok(PlayerFields {
                name,
                club,
                rating,
                seed,
                federation_id,
            })
        } else {
            Err(errors)
        }
    }
}

fn collapse_spaces(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn optional_number(s: &str) -> Result<Option<i32>, String> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(None);
    }
    s.parse().map(Some).map_err(|_| s.to_string())
}

/// Whether a player's `name` answers a search as a player types it: every
/// word of `query` appears in the name, in any order and any case. So
/// "Thabo Mokoena" finds "Mokoena, Thabo" and the other way round, and
/// "mokoena" alone finds either; an empty query finds nobody.
pub fn name_matches(name: &str, query: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let name = words(name);
    let query = words(query);
    !query.is_empty()
        && query
            .iter()
            .all(|q| name.iter().any(|w| w.contains(q.as_str())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_found_in_either_order_and_by_the_surname_alone() {
        for (name, query) in [
            ("Mokoena, Thabo", "Thabo Mokoena"),
            ("Thabo Mokoena", "Mokoena, Thabo"),
            ("Mokoena, Thabo", "mokoena"),
            ("Thabo Mokoena", "MOKOENA"),
            ("Mokoena, Thabo", "thab"),
            ("Ntombi van der Merwe", "van der merwe"),
        ] {
            assert!(name_matches(name, query), "{query:?} finds {name:?}");
        }
        for (name, query) in [
            ("Mokoena, Thabo", "Thabo Dube"),
            ("Thabo Mokoena", ""),
            ("Thabo Mokoena", " , "),
        ] {
            assert!(
                !name_matches(name, query),
                "{query:?} does not find {name:?}"
            );
        }
    }

    #[test]
    fn good_fields_are_tidied() {
        let p =
            PlayerFields::parse("  Thabo   Mokoena ", "Soweto MSC", "1840", "", "ZA-1022").unwrap();
        assert_eq!(p.name, "Thabo Mokoena");
        assert_eq!(p.rating, Some(1840));
        assert_eq!(p.seed, None);
    }

    #[test]
    fn every_bad_field_is_named() {
        let errs = PlayerFields::parse("", "", "12a", "0", "").unwrap_err();
        let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
        assert_eq!(fields, vec!["name", "rating", "seed"]);
        assert!(errs[1].message.contains("'12a'"));
    }
}

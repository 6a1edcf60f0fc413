//! The federation's registry of people: who plays, across events. An entry
//! of a tournament (a player) may point at its person; the person's games
//! are every game of those entries, and their rating comes from them
//! (`rating`). A person's fields are checked here once, for the page, the
//! API and the registry's CSV alike; the name, club and federation id by
//! the very checks a tournament's player gets ([`PlayerFields::parse`]).

use crate::field::{FieldError, Problem};
use crate::rating::{Period, Rating};
use crate::roster::PlayerFields;

/// The oldest year of birth taken: older is a typing error.
pub const FIRST_BIRTH_YEAR: i32 = 1900;

/// A person's fields, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct PersonFields {
    pub name: String,
    /// `None` when the person has none; unique in the registry when given.
    pub federation_id: Option<String>,
    pub club: String,
    pub born: Option<i32>,
    /// A rating brought from another list.
    pub start: Option<StartingRating>,
}

/// A rating a person arrives with, in force after the month `after`: their
/// games from the month after it on are rated from it (docs/ratings.md).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StartingRating {
    pub rating: Rating,
    pub after: Period,
}

/// The limits of an imported rating, as the registry's users know them.
pub const RATING_LIMITS: (i64, i64) = (0, 4000);
pub const RD_LIMITS: (i64, i64) = (0, 350);
/// A volatility above 1 would make a single result swing a rating by
/// hundreds of points; 0 would freeze it for ever.
pub const VOLATILITY_LIMITS: (i64, i64) = (0, 1);

/// The fields as given, text (a form, a CSV line) or numbers written out
/// (the API): one parser for all of them.
#[derive(Debug, Clone, Copy, Default)]
pub struct PersonText<'a> {
    pub name: &'a str,
    pub federation_id: &'a str,
    pub club: &'a str,
    pub born: &'a str,
    pub rating: &'a str,
    pub rd: &'a str,
    pub volatility: &'a str,
    /// `YYYY-MM`: the month the rating is in force after.
    pub period: &'a str,
}

impl PersonFields {
    /// Checks every field and reports every problem, not just the first.
    /// `this_year` bounds the year of birth (the core reads no clock).
    pub fn parse(t: &PersonText, this_year: i32) -> Result<PersonFields, Vec<FieldError>> {
        let (mut errors, player) =
            match PlayerFields::parse(t.name, t.club, "", "", t.federation_id) {
                Ok(p) => (Vec::new(), Some(p)),
                Err(e) => (e, None),
            };
        let born = match t.born.trim() {
            "" => None,
            text => match text.parse::<i32>() {
                Ok(y) if (FIRST_BIRTH_YEAR..=this_year).contains(&y) => Some(y),
                Ok(y) => {
                    errors.push(FieldError::new(
                        "born",
                        Problem::OutOfRange {
                            value: y.into(),
                            min: FIRST_BIRTH_YEAR.into(),
                            max: this_year.into(),
                        },
                    ));
                    None
                }
                Err(_) => {
                    errors.push(FieldError::new(
                        "born",
                        Problem::NotWholeNumber { text: text.into() },
                    ));
                    None
                }
            },
        };
        let start = starting_rating(t, &mut errors);
        match player {
            Some(p) if errors.is_empty() => Ok(PersonFields {
                name: p.name,
                federation_id: (!p.federation_id.is_empty()).then_some(p.federation_id),
                club: p.club,
                born,
                start,
            }),
            _ => Err(errors),
        }
    }
}

/// What pulling the federation's rating list changed in this registry,
/// by name and federation id (`Name (ZA-1001)`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pulled {
    /// People the list has and this registry had not.
    pub added: Vec<String>,
    /// People whose name, club or year of birth the list changed.
    pub refreshed: Vec<String>,
    /// People whose imported rating is now the federation's.
    pub rated: Vec<String>,
    /// People the list changed nothing of.
    pub unchanged: usize,
    /// Lines without a federation id, which nothing here can be matched to.
    pub without_id: usize,
}

/// Pairs of people (by id) with the same name, in any case and spacing,
/// and the same year of birth (or both without one): perhaps one person
/// entered twice, for a person to look at and merge. Each pair once, the
/// lower id first.
pub fn same_name_and_year(people: &[(i32, &str, Option<i32>)]) -> Vec<(i32, i32)> {
    let key = |name: &str| {
        name.split_whitespace()
            .map(str::to_lowercase)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut keyed: Vec<(String, Option<i32>, i32)> = people
        .iter()
        .map(|&(id, name, born)| (key(name), born, id))
        .collect();
    keyed.sort();
    let mut pairs = Vec::new();
    for (i, a) in keyed.iter().enumerate() {
        for b in keyed[i + 1..]
            .iter()
            .take_while(|b| b.0 == a.0 && b.1 == a.1)
        {
            pairs.push((a.2.min(b.2), a.2.max(b.2)));
        }
    }
    pairs.sort_unstable();
    pairs
}

/// The imported rating: all of rating, RD and month, or none of them (the
/// volatility defaults to a new player's, 0.06).
fn starting_rating(t: &PersonText, errors: &mut Vec<FieldError>) -> Option<StartingRating> {
    let given = [t.rating, t.rd, t.volatility, t.period]
        .iter()
        .any(|s| !s.trim().is_empty());
    if !given {
        return None;
    }
    let before = errors.len();
    let mut number = |field: &'static str, text: &str, (min, max): (i64, i64), positive: bool| {
        let text = text.trim();
        if text.is_empty() {
            errors.push(FieldError::new(field, Problem::Missing));
            return None;
        }
        match text.parse::<f64>() {
            Ok(v)
                if v.is_finite()
                    && v >= min as f64
                    && v <= max as f64
                    && !(positive && v <= 0.0) =>
            {
                Some(v)
            }
            Ok(_) => {
                errors.push(FieldError::new(
                    field,
                    Problem::DecimalOutOfRange {
                        text: text.into(),
                        min,
                        max,
                    },
                ));
                None
            }
            Err(_) => {
                errors.push(FieldError::new(
                    field,
                    Problem::NotANumber { text: text.into() },
                ));
                None
            }
        }
    };
    let rating = number("rating", t.rating, RATING_LIMITS, false);
    let rd = number("rd", t.rd, RD_LIMITS, false);
    let volatility = if t.volatility.trim().is_empty() {
        Some(Rating::NEW.volatility)
    } else {
        number("volatility", t.volatility, VOLATILITY_LIMITS, true)
    };
    let after = match t.period.trim() {
        "" => {
            errors.push(FieldError::new("period", Problem::Missing));
            None
        }
        text => match text.parse::<Period>() {
            Ok(p) => Some(p),
            Err(_) => {
                errors.push(FieldError::new(
                    "period",
                    Problem::NotAMonth { text: text.into() },
                ));
                None
            }
        },
    };
    if errors.len() > before {
        return None;
    }
    Some(StartingRating {
        rating: Rating {
            rating: rating?,
            rd: rd?,
            volatility: volatility?,
        },
        after: after?,
    })
}

/// Whether `merged` may be merged into `into`: never into themselves, and
/// never into someone merged away (whose entries live elsewhere now).
pub fn check_merge(
    merged: i32,
    into: i32,
    into_merged_into: Option<i32>,
    merged_already: Option<i32>,
) -> Result<(), FieldError> {
    if merged == into {
        return Err(FieldError::new("into", Problem::MergeIntoSelf));
    }
    if let Some(target) = into_merged_into {
        return Err(FieldError::new(
            "into",
            Problem::MergedAway {
                person: into,
                into: target,
            },
        ));
    }
    if let Some(target) = merged_already {
        return Err(FieldError::new(
            "person",
            Problem::MergedAway {
                person: merged,
                into: target,
            },
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text<'a>() -> PersonText<'a> {
        PersonText {
            name: "Thandi Mokoena",
            federation_id: "RSA-1042",
            club: "Soweto Morabaraba Club",
            born: "1994",
            ..PersonText::default()
        }
    }

    #[test]
    fn a_person_without_a_rating_is_taken_as_typed() {
        let p = PersonFields::parse(&text(), 2026).unwrap();
        assert_eq!(p.name, "Thandi Mokoena");
        assert_eq!(p.federation_id.as_deref(), Some("RSA-1042"));
        assert_eq!(p.born, Some(1994));
        assert_eq!(p.start, None);
    }

    #[test]
    fn an_empty_federation_id_is_none() {
        let p = PersonFields::parse(
            &PersonText {
                federation_id: "  ",
                ..text()
            },
            2026,
        )
        .unwrap();
        assert_eq!(p.federation_id, None);
    }

    #[test]
    fn an_imported_rating_needs_its_rd_and_month() {
        let e = PersonFields::parse(
            &PersonText {
                rating: "1720",
                ..text()
            },
            2026,
        )
        .unwrap_err();
        let fields: Vec<_> = e.iter().map(|e| (e.field, e.problem.clone())).collect();
        assert_eq!(
            fields,
            vec![("rd", Problem::Missing), ("period", Problem::Missing)]
        );
        let p = PersonFields::parse(
            &PersonText {
                rating: "1720.5",
                rd: "85",
                period: "2026-08",
                ..text()
            },
            2026,
        )
        .unwrap();
        let start = p.start.unwrap();
        assert_eq!(start.rating.rating, 1720.5);
        assert_eq!(start.rating.volatility, 0.06);
        assert_eq!(start.after.to_string(), "2026-08");
    }

    #[test]
    fn every_bad_field_is_named() {
        let e = PersonFields::parse(
            &PersonText {
                name: "",
                born: "2031",
                rating: "4100",
                rd: "351",
                volatility: "0",
                period: "2026-13",
                ..text()
            },
            2026,
        )
        .unwrap_err();
        let fields: Vec<_> = e.iter().map(|e| e.field).collect();
        assert_eq!(
            fields,
            vec!["name", "born", "rating", "rd", "volatility", "period"]
        );
        assert_eq!(
            e[2].problem,
            Problem::DecimalOutOfRange {
                text: "4100".into(),
                min: 0,
                max: 4000
            }
        );
    }

    #[test]
    fn merges_refused() {
        assert_eq!(
            check_merge(4, 4, None, None).unwrap_err().problem,
            Problem::MergeIntoSelf
        );
        assert_eq!(
            check_merge(4, 7, Some(9), None).unwrap_err(),
            FieldError::new("into", Problem::MergedAway { person: 7, into: 9 })
        );
        assert_eq!(
            check_merge(4, 7, None, Some(2)).unwrap_err().field,
            "person"
        );
        assert!(check_merge(4, 7, None, None).is_ok());
    }
}

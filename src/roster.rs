//! The players of a tournament as typed by a referee: one set of checks for
//! the form, the CSV import and the API, each naming the field at fault.

use serde::Serialize;

pub mod kept_apart;
pub mod refused_chars;

/// Why a change to the field is refused, in values; `wording::roster`
/// says it to the referee.
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, strum::IntoStaticStr, strum::VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Refused {
    /// Withdrawing a player who has withdrawn.
    AlreadyWithdrawn { name: String },
    /// Reinstating a player who has not withdrawn.
    NotWithdrawn { name: String },
    /// Recording a player as their own relative.
    OwnRelative,
    /// Entering a team in an individual event.
    IndividualEvent { tournament: String },
    /// Entering a team once round `paired` is paired: a team's standing is
    /// its matches from round 1.
    TeamsAfterRoundOne { paired: i32 },
    /// Taking back a waiver the pair does not have.
    NoWaiver { a: String, b: String },
}

pub use crate::field::{FieldError, Problem};

/// Text fields hold printable text, one rule for every form, API call and
/// import: a control character (a NUL byte, a bell, an escape, a line
/// break) cannot be stored by every database and shows as nothing on a
/// page, and a bidirectional override or a zero-width character
/// ([`is_invisible`]) makes a name read differently from what is stored (a
/// U+202E turns "Thabo" around), so both are refused, naming the field and
/// the character. Check the text as sent, before spaces are tidied.
pub fn check_printable(field: &'static str, value: &str) -> Result<(), FieldError> {
    if let Some(c) = value
        .chars()
        .find(|c| in_table(refused_chars::CONTROL_OR_BREAK, *c))
    {
        return Err(FieldError::new(
            field,
            Problem::ControlCharacter { code: c as u32 },
        ));
    }
    match value.chars().find(|c| is_invisible(*c)) {
        Some(c) => Err(FieldError::new(
            field,
            Problem::InvisibleCharacter { code: c as u32 },
        )),
        None => Ok(()),
    }
}

/// Whether a character is one of those text fields refuse as invisible:
/// General_Category Cf (format characters: the soft hyphen, zero-width
/// joiners, the bidirectional marks, embeddings, overrides and isolates,
/// the tags), Bidi_Control, and Default_Ignorable_Code_Point (the Hangul
/// fillers, the variation selectors, the Mongolian vowel separator), by the
/// Unicode version of [`refused_chars::UNICODE_VERSION`].
pub fn is_invisible(c: char) -> bool {
    in_table(refused_chars::INVISIBLE, c)
}

fn in_table(table: &[(u32, u32)], c: char) -> bool {
    let c = c as u32;
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
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
        errors.extend(check_printable("name", name).err());
        // Lengths count the characters as sent, before spaces are tidied:
        // the limit a form or a client sees is the one applied.
        let sent = name.chars().count();
        let name = collapse_spaces(name);
        if name.is_empty() {
            errors.push(FieldError::new("name", Problem::Empty));
        } else if sent > 100 {
            errors.push(FieldError::new("name", Problem::TooLong { max: 100 }));
        }
        errors.extend(check_printable("club", club).err());
        if club.chars().count() > 100 {
            errors.push(FieldError::new("club", Problem::TooLong { max: 100 }));
        }
        let club = collapse_spaces(club);
        let rating = match optional_number(rating) {
            Ok(Some(r)) if !RATING_RANGE.contains(&r) => {
                errors.push(FieldError::new(
                    "rating",
                    Problem::OutOfRange {
                        value: r.into(),
                        min: (*RATING_RANGE.start()).into(),
                        max: (*RATING_RANGE.end()).into(),
                    },
                ));
                None
            }
            Ok(r) => r,
            Err(text) => {
                errors.push(FieldError::new("rating", Problem::NotWholeNumber { text }));
                None
            }
        };
        let seed = match optional_number(seed) {
            Ok(Some(s)) if s < 1 => {
                errors.push(FieldError::new(
                    "seed",
                    Problem::BelowOne { value: s.into() },
                ));
                None
            }
            Ok(s) => s,
            Err(text) => {
                errors.push(FieldError::new("seed", Problem::NotWholeNumber { text }));
                None
            }
        };
        errors.extend(check_printable("federation_id", federation_id).err());
        let sent = federation_id.chars().count();
        let federation_id = federation_id_spelling(federation_id);
        if sent > 32 {
            errors.push(FieldError::new(
                "federation_id",
                Problem::TooLong { max: 32 },
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

/// A federation id in its one spelling: trimmed and upper-case, so that
/// `za-1001` typed at a venue and `ZA-1001` on the federation's list are
/// one person. Every way in (forms, API, CSV, event files, a pulled list)
/// and every look-up goes through it; ids are stored this way.
pub fn federation_id_spelling(text: &str) -> String {
    text.trim().to_uppercase()
}

/// The longest team name: it heads a match card's column.
pub const TEAM_NAME_MAX: usize = 80;

/// A team's name and club, checked as the team form, the API and both
/// imports check them: the name given, at most [`TEAM_NAME_MAX`]
/// characters, both printable. Spaces are tidied.
pub fn team_fields(name: &str, club: &str) -> Result<(String, String), FieldError> {
    check_printable("name", name)?;
    let sent = name.chars().count();
    let name = collapse_spaces(name);
    if name.is_empty() {
        return Err(FieldError::new("name", Problem::Empty));
    }
    if sent > TEAM_NAME_MAX {
        return Err(FieldError::new(
            "name",
            Problem::TooLong { max: TEAM_NAME_MAX },
        ));
    }
    check_printable("club", club)?;
    if club.chars().count() > 100 {
        return Err(FieldError::new("club", Problem::TooLong { max: 100 }));
    }
    Ok((name, club.trim().to_string()))
}

/// The rounds a kept-apart pair covers, as typed or imported: each end
/// within the tournament's `rounds`, and the last not before the first.
pub fn check_round_range(
    from: Option<i32>,
    to: Option<i32>,
    rounds: i32,
) -> Result<(), FieldError> {
    for (field, round) in [("from_round", from), ("to_round", to)] {
        if let Some(n) = round.filter(|&n| n < 1 || n > rounds) {
            return Err(FieldError::new(
                field,
                Problem::RoundOutside { round: n, rounds },
            ));
        }
    }
    match (from, to) {
        (Some(f), Some(t)) if f > t => Err(FieldError::new(
            "to_round",
            Problem::RoundsReversed { from: f, to: t },
        )),
        _ => Ok(()),
    }
}

/// A team's line-up for a match (OGR 10.2-10.3): one player per board,
/// each from the team's roster or substitutes (`eligible`), none on two
/// boards. `name` names a player for the message.
pub fn check_lineup(
    team: &str,
    eligible: &[i32],
    boards: &[i32],
    name: impl Fn(i32) -> String,
) -> Result<(), FieldError> {
    for (k, &p) in boards.iter().enumerate() {
        if !eligible.contains(&p) {
            return Err(FieldError::new(
                "boards",
                Problem::NotOnRoster {
                    board: k + 1,
                    player: name(p),
                    team: team.to_string(),
                },
            ));
        }
        if boards[..k].contains(&p) {
            return Err(FieldError::new(
                "boards",
                Problem::TwoBoards { player: name(p) },
            ));
        }
    }
    Ok(())
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

/// A team of a team import (`export::teams` reads the CSV): its roster (board order) and substitutes, as
/// indices into [`TeamImport::players`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamPlan {
    /// The file's line where the team first appears.
    pub line: u64,
    pub name: String,
    pub club: String,
    pub members: Vec<usize>,
    pub substitutes: Vec<usize>,
}

/// A checked team import: the new players in file order, and the teams in
/// the order they first appear.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamImport {
    pub players: Vec<PlayerFields>,
    pub teams: Vec<TeamPlan>,
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
    fn a_federation_id_has_one_spelling_whatever_the_case_typed() {
        let typed = PlayerFields::parse("Thabo Mokoena", "", "", "", "  za-1001 ").unwrap();
        assert_eq!(typed.federation_id, "ZA-1001");
        assert_eq!(federation_id_spelling("fx1"), federation_id_spelling("FX1"));
        assert_eq!(federation_id_spelling("  "), "");
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
        assert_eq!(
            errs[1].problem,
            Problem::NotWholeNumber { text: "12a".into() }
        );
    }

    #[test]
    fn line_breaks_and_invisible_characters_are_refused_in_every_text_field() {
        let errs =
            PlayerFields::parse("Thabo\nMokoena", "Soweto\u{202E}CSM", "", "", "ZA\u{200B}1")
                .unwrap_err();
        let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
        assert_eq!(fields, vec!["name", "club", "federation_id"]);
        assert_eq!(errs[0].problem, Problem::ControlCharacter { code: 0x0A });
        assert_eq!(
            errs[1].problem,
            Problem::InvisibleCharacter { code: 0x202E }
        );
        for c in [
            '\u{200B}', '\u{200F}', '\u{202A}', '\u{2060}', '\u{2066}', '\u{2069}', '\u{FEFF}',
        ] {
            let text = format!("Kagiso{c}Molefe");
            assert!(check_printable("name", &text).is_err(), "{c:?}");
        }
        // Letters of every script, and spaces, are text.
        for ok in [
            "Nomvula Dlamini-Zulu",
            "Ñandú O'Brien",
            "محمد",
            "张伟",
            "Thabo  Mokoena",
        ] {
            assert_eq!(check_printable("name", ok), Ok(()), "{ok}");
        }
    }

    /// Every code point, U+0000 to U+10FFFF, through the rule, against the
    /// rule stated in the `regex` crate's own Unicode classes: a control
    /// or a line or paragraph separator is refused as a control character,
    /// a format character, a bidirectional control or a default-ignorable
    /// code point as invisible, and everything else is text.
    #[test]
    fn every_code_point_follows_the_unicode_properties() {
        let control = regex::Regex::new(r"^[\p{Cc}\p{Zl}\p{Zp}]$").unwrap();
        let invisible =
            regex::Regex::new(r"^[\p{Cf}\p{Bidi_Control}\p{Default_Ignorable_Code_Point}]$")
                .unwrap();
        let mut buf = [0u8; 4];
        let mut refused = 0;
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let text: &str = c.encode_utf8(&mut buf);
            let want = if control.is_match(text) {
                Err(Problem::ControlCharacter { code: c as u32 })
            } else if invisible.is_match(text) {
                Err(Problem::InvisibleCharacter { code: c as u32 })
            } else {
                Ok(())
            };
            let got = check_printable("name", text).map_err(|e| e.problem);
            assert_eq!(got, want, "U+{:04X}", c as u32);
            refused += usize::from(got.is_err());
        }
        assert!(refused > 4000, "{refused}");
        // The ones named when the list was short.
        for code in [
            0x2028, 0x2029, 0x061C, 0x00AD, 0x2061, 0x2064, 0x206A, 0x206F, 0xFFF9, 0xFFFB,
            0xE0000, 0xE0041, 0xE007F, 0x180E, 0x3164,
        ] {
            let c = char::from_u32(code).unwrap();
            assert!(
                check_printable("name", &format!("Lerato{c}Khumalo")).is_err(),
                "U+{code:04X}"
            );
        }
    }
}

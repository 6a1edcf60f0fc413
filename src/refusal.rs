//! Everything a use case (or the shell around it) can refuse, as one value.
//!
//! A refusal is not a failure: the request was understood and the answer is
//! "no, because ...". Each carries what its words need, a stable `code` (the
//! snake_case name of the innermost variant, which API clients switch on and
//! which never changes with the wording or the language), the field at
//! fault when one is, and its `params` (the values the sentence is made
//! from). Its kind decides the HTTP status; `crate::wording` alone says it
//! in a language. Nothing here holds a sentence.

use serde::Serialize;

use crate::conflict::Conflict;
use crate::field::FieldError;
use crate::rounds::{NotReady, Refused as RoundRefused};
use crate::tournament::Lock;

/// Why a request is answered "no".
#[derive(Debug, Clone)]
pub enum Refusal {
    /// A value refused by a rule of the data (422, naming the field).
    Invalid(FieldError),
    /// A setting the event's progress no longer lets change (409).
    Locked(Lock),
    /// What is stored stands in the way (409).
    Conflict(Conflict),
    /// An action the round's state refuses (409; 403 for another's game).
    Round(RoundRefused),
    /// The next round cannot be paired yet (409).
    NotReady(NotReady),
    /// A change to the field its state refuses (409).
    Roster(crate::roster::Refused),
    /// Nothing of the kind at that address (404).
    NotFound(Thing),
    /// Round `round` exists as a draft, which only its referees see (404).
    Unpublished { round: i32 },
    /// The request itself could not be read (400).
    Unreadable(Unreadable),
    /// Signing in (or a token) is needed (401).
    Unauthorized,
    /// The caller may not do this (403).
    Forbidden(Forbidden),
    /// A body larger than the route takes (413).
    TooLarge { max_bytes: u64 },
    /// A method the path does not have (405, with the ones it has in
    /// `Allow`).
    MethodNotAllowed {
        method: String,
        allowed: Vec<&'static str>,
    },
    /// Too many requests from one link, device or name (429).
    TooMany(TooMany),
}

/// What kind of "no" a refusal is; the HTTP status follows from it alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Unreadable,
    Unauthorized,
    Forbidden,
    NotFound,
    /// The event's state stands in the way.
    Conflict,
    /// The input is wrong.
    Invalid,
    TooLarge,
    TooMany,
    MethodNotAllowed,
}

/// What was looked for and not found.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    strum::IntoStaticStr,
    strum::VariantNames,
    strum::EnumString,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Thing {
    Tournament,
    Round,
    Game,
    /// A pairing of a team match.
    Match,
    Player,
    /// A player in the tournament of the address.
    PlayerInTournament,
    /// A player's personal link.
    PlayerLink,
    /// A team captain's link.
    CaptainLink,
    Person,
    Team,
    /// A table (board number) of a round.
    Table,
    Publication,
    /// A game's written record.
    Record,
    /// The account named as a referee of the tournament.
    Referee,
    /// Two players recorded as relatives.
    Relation,
    Season,
    Setting,
    Pairing,
    /// A pair the referee keeps apart.
    KeptApartPair,
    /// A merge of two people of the registry.
    Merge,
    /// A bye a player asked for.
    RequestedBye,
    /// A referee's ruling on a game.
    Ruling,
    User,
    /// An API token.
    Token,
    Page,
    ApiRoute,
    /// The first setup, once an admin exists.
    Setup,
}

/// What part of a request could not be read; `detail` is the reader's own
/// account of where (a JSON parser's line and column), kept as data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, strum::IntoStaticStr, strum::VariantNames)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Unreadable {
    /// A body that is not the JSON asked for (unknown fields, wrong types).
    UnreadableJson { detail: String },
    /// A form body that could not be read.
    UnreadableForm { detail: String },
    /// A query string that could not be read.
    UnreadableQuery { detail: String },
    /// A path segment that could not be read.
    UnreadablePath { detail: String },
    /// The body could not be received.
    UnreadableBody { detail: String },
    /// An `Authorization` header that is not `Bearer TOKEN`.
    BadAuthorization,
    /// A header that must be sent, or one whose value cannot be read.
    BadHeader { header: &'static str },
}

/// Why the caller may not do what they asked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, strum::IntoStaticStr, strum::VariantNames)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Forbidden {
    /// The caller has no right to change this.
    NotAllowed,
    /// Only an admin may do this.
    AdminOnly,
    /// Signed in, but not a referee of `tournament`.
    NotReferee { tournament: String },
    /// A copy published here from `server`: it changes only there.
    PublishedCopy { tournament: String, server: String },
    /// The request's form did not come from this site (its CSRF token).
    ForeignForm,
    /// The account may not publish events here.
    NoPublishing,
}

/// Who sent too many, and when to try again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, strum::IntoStaticStr, strum::VariantNames)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum TooMany {
    /// Failed sign-ins for the account `name`: it is locked for `minutes`.
    SignInAttempts {
        name: String,
        minutes: u32,
        retry_after: u64,
    },
    /// Requests through a link, or from one device while its link is
    /// not proven.
    #[strum(serialize = "too_many_requests")]
    Requests {
        what: Counted,
        through: Through,
        retry_after: u64,
    },
}

/// What a link's limit counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Counted {
    Records,
    Reports,
    Plies,
    Requests,
}

/// Whose requests were too many.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Through {
    Device,
    TableLink,
    PersonalLink,
}

impl TooMany {
    pub fn retry_after(&self) -> u64 {
        match self {
            TooMany::SignInAttempts { retry_after, .. } | TooMany::Requests { retry_after, .. } => {
                *retry_after
            }
        }
    }
}

impl Refusal {
    pub fn kind(&self) -> Kind {
        match self {
            Refusal::Invalid(_) => Kind::Invalid,
            Refusal::Round(RoundRefused::NotYourGame { .. }) => Kind::Forbidden,
            Refusal::Locked(_)
            | Refusal::Conflict(_)
            | Refusal::Round(_)
            | Refusal::NotReady(_)
            | Refusal::Roster(_) => Kind::Conflict,
            Refusal::NotFound(_) | Refusal::Unpublished { .. } => Kind::NotFound,
            Refusal::Unreadable(_) => Kind::Unreadable,
            Refusal::Unauthorized => Kind::Unauthorized,
            Refusal::Forbidden(_) => Kind::Forbidden,
            Refusal::TooLarge { .. } => Kind::TooLarge,
            Refusal::TooMany(_) => Kind::TooMany,
            Refusal::MethodNotAllowed { .. } => Kind::MethodNotAllowed,
        }
    }

    /// The stable code: the innermost variant's snake_case name
    /// (`not_found` for every missing thing, which `params.what` names).
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::Invalid(e) => (&e.problem).into(),
            Refusal::Locked(_) => "setting_locked",
            Refusal::Conflict(Conflict::Taken(t)) => t.into(),
            Refusal::Conflict(c) => c.into(),
            Refusal::Round(r) => r.into(),
            Refusal::NotReady(n) => n.into(),
            Refusal::Roster(r) => r.into(),
            Refusal::NotFound(_) => "not_found",
            Refusal::Unpublished { .. } => "round_not_published",
            Refusal::Unreadable(u) => u.into(),
            Refusal::Unauthorized => "sign_in_required",
            Refusal::Forbidden(f) => f.into(),
            Refusal::TooLarge { .. } => "too_large",
            Refusal::TooMany(t) => t.into(),
            Refusal::MethodNotAllowed { .. } => "method_not_allowed",
        }
    }

    /// The field at fault, as forms and the API name it.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Refusal::Invalid(e) => Some(e.field),
            Refusal::Locked(l) => Some(l.field),
            Refusal::Conflict(c) => c.field(),
            _ => None,
        }
    }

    /// When to try again, for a 429's `Retry-After`.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            Refusal::TooMany(t) => Some(t.retry_after()),
            _ => None,
        }
    }

    /// The values the refusal's sentence is made from, as JSON: the
    /// innermost variant's fields (`{"max": 80}` for a name too long).
    pub fn params(&self) -> serde_json::Map<String, serde_json::Value> {
        match self {
            Refusal::Invalid(e) => fields(&e.problem),
            Refusal::Locked(l) => object(serde_json::json!({ "since": l.since })),
            Refusal::Conflict(Conflict::Taken(t)) => fields(t),
            Refusal::Conflict(c) => fields(c),
            Refusal::Round(r) => fields(r),
            Refusal::NotReady(n) => fields(n),
            Refusal::Roster(r) => fields(r),
            Refusal::NotFound(what) => object(serde_json::json!({ "what": what })),
            Refusal::Unpublished { round } => object(serde_json::json!({ "round": round })),
            Refusal::Unreadable(u) => fields(u),
            Refusal::Unauthorized => serde_json::Map::new(),
            Refusal::Forbidden(f) => fields(f),
            Refusal::TooLarge { max_bytes } => {
                object(serde_json::json!({ "max_bytes": max_bytes }))
            }
            Refusal::TooMany(t) => fields(t),
            Refusal::MethodNotAllowed { method, allowed } => {
                object(serde_json::json!({ "method": method, "allowed": allowed }))
            }
        }
    }
}

fn object(value: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
    match value {
        serde_json::Value::Object(m) => m,
        _ => serde_json::Map::new(),
    }
}

/// The fields of an enum's variant as JSON (serde's external tag:
/// `{"too_long": {"max": 80}}` gives `{"max": 80}`); nothing for a unit
/// variant, and a newtype variant's struct gives that struct's fields.
pub fn fields<T: Serialize + ?Sized>(variant: &T) -> serde_json::Map<String, serde_json::Value> {
    match serde_json::to_value(variant) {
        Ok(serde_json::Value::Object(m)) if m.len() == 1 => match m.into_iter().next() {
            Some((_, serde_json::Value::Object(inner))) => inner,
            _ => serde_json::Map::new(),
        },
        _ => serde_json::Map::new(),
    }
}

/// Each kind of refusal is a `Refusal` by its variant: a use case
/// passes any of them on with `?`.
macro_rules! refusal_from {
    ($($t:ty => $variant:ident),+ $(,)?) => {$(
        impl From<$t> for Refusal {
            fn from(r: $t) -> Refusal {
                Refusal::$variant(r)
            }
        }
    )+};
}

refusal_from!(
    FieldError => Invalid,
    Conflict => Conflict,
    RoundRefused => Round,
    NotReady => NotReady,
    crate::roster::Refused => Roster,
    Lock => Locked,
    Forbidden => Forbidden,
    Unreadable => Unreadable,
    TooMany => TooMany,
);

/// Every code a refusal can have, and `internal_error` for a failure on
/// the server's side: docs/api.md and the OpenAPI document list exactly
/// these (a test holds it).
pub fn all_codes() -> Vec<&'static str> {
    use strum::VariantNames;
    let mut codes: Vec<&'static str> = [
        "setting_locked",
        "not_found",
        "round_not_published",
        "sign_in_required",
        "too_large",
        "internal_error",
        "server_busy",
        "method_not_allowed",
    ]
    .into_iter()
    .chain(crate::field::Problem::VARIANTS.iter().copied())
    .chain(Conflict::VARIANTS.iter().copied().filter(|c| *c != "taken"))
    .chain(crate::conflict::Taken::VARIANTS.iter().copied())
    .chain(RoundRefused::VARIANTS.iter().copied())
    .chain(NotReady::VARIANTS.iter().copied())
    .chain(crate::roster::Refused::VARIANTS.iter().copied())
    .chain(Unreadable::VARIANTS.iter().copied())
    .chain(Forbidden::VARIANTS.iter().copied())
    .chain(TooMany::VARIANTS.iter().copied())
    .collect();
    codes.sort_unstable();
    codes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_snake_case_and_names_one_refusal() {
        let codes = all_codes();
        for c in &codes {
            assert!(
                !c.is_empty()
                    && c.chars()
                        .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_'),
                "{c}"
            );
        }
        let mut seen = std::collections::BTreeSet::new();
        let twice: Vec<_> = codes.iter().filter(|c| !seen.insert(**c)).collect();
        assert!(twice.is_empty(), "codes used by two refusals: {twice:?}");
    }

    #[test]
    fn a_refusal_says_its_code_field_and_params() {
        let r = Refusal::Invalid(FieldError::new(
            "name",
            crate::field::Problem::TooLong { max: 80 },
        ));
        assert_eq!(r.code(), "too_long");
        assert_eq!(r.field(), Some("name"));
        assert_eq!(r.params(), object(serde_json::json!({ "max": 80 })));
        assert_eq!(r.kind(), Kind::Invalid);

        let r = Refusal::Conflict(Conflict::Taken(crate::conflict::Taken::Round { number: 3 }));
        assert_eq!(r.code(), "round_taken");
        assert_eq!(r.params(), object(serde_json::json!({ "number": 3 })));
        assert_eq!(r.kind(), Kind::Conflict);

        let r = Refusal::NotFound(Thing::Tournament);
        assert_eq!((r.code(), r.kind()), ("not_found", Kind::NotFound));
        assert_eq!(
            r.params(),
            object(serde_json::json!({ "what": "tournament" }))
        );

        let r = Refusal::Round(RoundRefused::NotYourGame { game: 12 });
        assert_eq!((r.code(), r.kind()), ("not_your_game", Kind::Forbidden));
        assert_eq!(r.params(), object(serde_json::json!({ "game": 12 })));

        let r = Refusal::NotReady(NotReady::MissingResults {
            round: 2,
            missing: 3,
        });
        assert_eq!(r.code(), "missing_results");
        assert_eq!(
            r.params(),
            object(serde_json::json!({ "round": 2, "missing": 3 }))
        );
        // A unit variant has no params.
        let r = Refusal::Conflict(Conflict::AlreadySetUp);
        assert_eq!((r.code(), r.params().len()), ("already_set_up", 0));
        let r = Refusal::TooMany(TooMany::Requests {
            what: Counted::Reports,
            through: Through::PersonalLink,
            retry_after: 3,
        });
        assert_eq!((r.code(), r.retry_after()), ("too_many_requests", Some(3)));
        assert_eq!(
            r.params(),
            object(
                serde_json::json!({ "what": "reports", "through": "personal_link", "retry_after": 3 })
            )
        );
    }

    #[test]
    fn the_api_document_lists_every_code_and_no_other() {
        let doc = include_str!("../docs/api.md");
        let start = doc
            .find("| code | status | params | when |")
            .expect("docs/api.md has the table of codes");
        let listed: Vec<&str> = doc[start..]
            .lines()
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
            .collect();
        let codes = all_codes();
        let missing: Vec<_> = codes.iter().filter(|c| !listed.contains(c)).collect();
        let unknown: Vec<_> = listed.iter().filter(|c| !codes.contains(c)).collect();
        assert!(
            missing.is_empty() && unknown.is_empty(),
            "docs/api.md misses {missing:?} and lists codes that do not exist: {unknown:?}"
        );
    }

    #[test]
    fn the_openapi_document_names_the_same_codes() {
        let doc: serde_json::Value =
            serde_json::from_str(include_str!("../docs/openapi.json")).expect("JSON");
        let listed: Vec<&str> = doc["components"]["schemas"]["Error"]["properties"]["code"]["enum"]
            .as_array()
            .expect("Error.code lists its values")
            .iter()
            .filter_map(serde_json::Value::as_str)
            .collect();
        assert_eq!(listed, all_codes());
    }
}

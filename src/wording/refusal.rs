//! The words of a refusal: the sentence a page shows and the API returns
//! as `error` beside the refusal's code.

use std::fmt;

use super::Lang;
use crate::refusal::{Forbidden, Refusal, Thing, TooMany, Unreadable};

/// `refusal` as a sentence in `lang`.
pub fn refusal(r: &Refusal, lang: Lang) -> String {
    match lang {
        Lang::English => english(r),
    }
}

/// A short heading for a page that answers with a refusal of this kind
/// (HTTP's reason phrases, "Unprocessable Entity" and the like, are not
/// words for the people who meet them).
pub fn heading(kind: crate::refusal::Kind, lang: Lang) -> &'static str {
    use crate::refusal::Kind;
    match lang {
        Lang::English => match kind {
            Kind::Unreadable => "That request could not be read",
            Kind::Unauthorized => "Sign in first",
            Kind::Forbidden => "Not allowed",
            Kind::NotFound => "Not found",
            Kind::Conflict => "Not possible now",
            Kind::Invalid => "That cannot be done",
            Kind::TooLarge => "Too large",
            Kind::TooMany => "Too many tries",
            Kind::MethodNotAllowed => "Not at this address",
        },
    }
}

/// The heading and sentence of a failure on the server's side.
pub fn internal(lang: Lang) -> (&'static str, &'static str) {
    match lang {
        Lang::English => (
            "Something went wrong",
            "Something went wrong on our side; the error has been logged.",
        ),
    }
}

/// The refusal in English, as the command line and the logs say it.
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&english(self))
    }
}

fn english(r: &Refusal) -> String {
    match r {
        Refusal::Invalid(e) => e.to_string(),
        Refusal::Locked(l) => l.to_string(),
        Refusal::Conflict(c) => c.to_string(),
        Refusal::Round(r) => r.to_string(),
        Refusal::NotReady(n) => n.to_string(),
        Refusal::Roster(r) => r.to_string(),
        Refusal::NotFound(Thing::CaptainLink) => "This captain's link is not valid: it may have been renewed. Ask the referee for the new one.".into(),
        Refusal::NotFound(Thing::Setup) => "Kraal is already set up: sign in instead.".into(),
        Refusal::NotFound(what) => format!("No such {}.", thing(*what)),
        Refusal::Unpublished { round } => format!(
            "Round {round} is not published yet: its pairings appear here once the referee publishes them."
        ),
        Refusal::Unreadable(u) => u.to_string(),
        Refusal::Unauthorized => "Sign in to do this.".into(),
        Refusal::Forbidden(f) => f.to_string(),
        Refusal::TooLarge { max_bytes } => too_large(*max_bytes),
        Refusal::TooMany(t) => t.to_string(),
        Refusal::MethodNotAllowed { method, allowed } => format!(
            "This address does not take {method}: it takes {}.",
            allowed.join(", ")
        ),
    }
}

/// What was not found, as "No such ..." names it.
fn thing(t: Thing) -> &'static str {
    match t {
        Thing::Tournament => "tournament",
        Thing::Round => "round",
        Thing::Game => "game",
        Thing::Match => "match",
        Thing::Player => "player",
        Thing::PlayerInTournament => "player in this tournament",
        Thing::PlayerLink => "player link",
        Thing::CaptainLink => "captain's link",
        Thing::Person => "person",
        Thing::Team => "team",
        Thing::Table => "table",
        Thing::Publication => "publication",
        Thing::Record => "record",
        Thing::Referee => "referee of this tournament",
        Thing::Relation => "relation in this tournament",
        Thing::Season => "season",
        Thing::Setting => "setting",
        Thing::Pairing => "pairing",
        Thing::KeptApartPair => "kept-apart pair in this tournament",
        Thing::Merge => "merge",
        Thing::RequestedBye => "requested bye",
        Thing::Ruling => "ruling",
        Thing::User => "user",
        Thing::Token => "token",
        Thing::Page => "page",
        Thing::ApiRoute => "API route",
        Thing::Setup => "setup",
    }
}

fn too_large(max: u64) -> String {
    let at_most = match max {
        m if m >= 1 << 20 && m % (1 << 20) == 0 => format!("{} MB", m >> 20),
        m if m >= 1 << 10 && m % (1 << 10) == 0 => format!("{} KB", m >> 10),
        m => format!("{m} bytes"),
    };
    format!("That is larger than this address takes ({at_most} at most); nothing was stored.")
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreadable::UnreadableJson { detail } => {
                write!(f, "the JSON body could not be read: {detail}")
            }
            Unreadable::UnreadableForm { detail } => {
                write!(f, "the form could not be read: {detail}")
            }
            Unreadable::UnreadableQuery { detail } | Unreadable::UnreadablePath { detail } => {
                write!(f, "the address could not be read: {detail}")
            }
            Unreadable::UnreadableBody { detail } => {
                write!(f, "the request could not be read: {detail}")
            }
            Unreadable::BadAuthorization => {
                f.write_str("the Authorization header must be 'Bearer TOKEN'")
            }
            Unreadable::BadHeader { header } => {
                write!(f, "the {header} header could not be read")
            }
        }
    }
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Forbidden::NotAllowed => f.write_str("You are not allowed to change this."),
            Forbidden::AdminOnly => f.write_str("Only an admin may do this."),
            Forbidden::NotReferee { tournament } => {
                write!(f, "You are not a referee of {tournament}.")
            }
            Forbidden::PublishedCopy { tournament, server } => write!(
                f,
                "{tournament} is published here from {server}: it changes only there."
            ),
            Forbidden::ForeignForm => f.write_str(
                "This form has expired or did not come from this site. Go back, reload the page and try again.",
            ),
            Forbidden::NoPublishing => f.write_str(
                "This account may not publish events here: the server's admin allows an account with `kraal user publisher NAME`.",
            ),
        }
    }
}

impl fmt::Display for TooMany {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TooMany::SignInAttempts { name, minutes, .. } => write!(
                f,
                "Too many failed sign-ins for '{name}'. Wait {minutes} minutes and try again, or ask an admin."
            ),
            TooMany::Requests {
                what,
                through,
                retry_after,
            } => {
                let what = match what {
                    crate::refusal::Counted::Records => "records sent",
                    crate::refusal::Counted::Reports => "reports",
                    crate::refusal::Counted::Plies => "plies",
                    crate::refusal::Counted::Requests => "requests",
                };
                let through = match through {
                    crate::refusal::Through::Device => "from this device",
                    crate::refusal::Through::TableLink => "through this table's link",
                    crate::refusal::Through::PersonalLink => "through this link",
                };
                write!(
                    f,
                    "Too many {what} {through} in a minute: wait {retry_after} s and try again."
                )
            }
        }
    }
}

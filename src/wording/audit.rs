//! The words of the audit trail: what a change was about and its values
//! before and after, from the values `director::audit` gives
//! (`change::Subject`, `change::Value`).

use crate::change::{Subject, Value};

/// What a change was about: "round 1, table 3, game 2 (Kagiso Molefe – Refilwe Dube)".
pub fn subject(s: &Subject) -> String {
    match s {
        Subject::Game {
            round,
            table,
            number,
            tiebreak,
            players,
        } => format!(
            "round {round}, table {table}, {}game {number} ({})",
            if *tiebreak { "tiebreak " } else { "" },
            players.join(" – ")
        ),
        Subject::GameGone { round: Some(n) } => format!("a game of round {n}, since undone"),
        Subject::GameGone { round: None } => "a game of a round since undone".into(),
        Subject::Round(Some(n)) => format!("round {n}"),
        Subject::Round(None) => "a round".into(),
        Subject::Player(name) => format!("player {name}"),
        Subject::Relation(Some((a, b))) => format!("relation {a} – {b}"),
        Subject::Relation(None) => "relation".into(),
        Subject::KeptApart(Some((a, b))) => format!("kept-apart pair {a} – {b}"),
        Subject::KeptApart(None) => "kept-apart pair".into(),
        Subject::Referee(name) => format!("referee {name}"),
        Subject::Team(Some(name)) => format!("team {name}"),
        Subject::Team(None) => "a team".into(),
        Subject::Match(Some(n)) => format!("match of round {n}"),
        Subject::Match(None) => "match".into(),
        Subject::Other(entity) => entity.label().to_string(),
    }
}

/// A value before or after a change.
pub fn value(v: &Value) -> String {
    match v {
        Value::Stored(text) => text.clone(),
        Value::Result {
            result,
            starter,
            other,
        } => result.for_whom(starter, other),
        Value::Swapped(a, b) => format!("{a} and {b}"),
        Value::NotPairedFrom(n) => format!("not paired from round {n}"),
        Value::Bye { round, kind } => format!("round {round}, {}", kind.label()),
    }
}

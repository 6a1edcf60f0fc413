//! The words of a write the event's state stands in the way of.

use std::fmt;

use crate::conflict::{Conflict, Meanwhile, RulingStands, Taken};
use crate::results::GameResult;

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Conflict::Taken(t) => t.fmt(f),
            Conflict::AlreadySetUp => write!(f, "Kraal is already set up: sign in instead."),
            Conflict::SwapInTeamEvent => write!(
                f,
                "in a team event the boards follow the line-ups: change a team's line-up instead of swapping players"
            ),
            Conflict::NoPairing {
                error,
                names,
                round_robin,
            } => {
                let name = |id| {
                    names
                        .get(&id)
                        .cloned()
                        .unwrap_or_else(|| format!("player {id}"))
                };
                f.write_str(&super::pairing::no_pairing(error, &name, *round_robin))
            }
            Conflict::HeldByTiebreak {
                round,
                table,
                set,
                game,
            } => write!(
                f,
                "Round {round}, table {table}: tiebreak set {set} has results, played because the main games were level, so game {game} stays as it is. Clear the tiebreak games first to correct the main games."
            ),
            Conflict::Changed(m) => m.fmt(f),
            Conflict::Ruled(r) => write!(
                f,
                "{r} Send \"replace_ruling\": true to replace the ruling."
            ),
            Conflict::PublishedRounds { published } => write!(
                f,
                "this tournament has {published} published round(s): it is not deleted (archive it to withdraw it from public view)"
            ),
        }
    }
}

impl fmt::Display for Taken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Taken::Relatives { a, b } => write!(f, "{a} and {b} are already recorded as relatives"),
            Taken::Round { number } => write!(f, "round {number} has already been paired"),
            Taken::Bye { round } => write!(
                f,
                "a bye in round {round} is already recorded for that player"
            ),
            Taken::UserName { name } => write!(f, "a user named '{name}' already exists"),
            Taken::RecordSide => write!(
                f,
                "another record for this side arrived at the same moment: send it again"
            ),
            Taken::Referee => write!(f, "that referee is already assigned"),
            Taken::Entry { name } => write!(f, "{name} is entered in this tournament already"),
            Taken::Origin { origin } => {
                write!(f, "the event {origin} is published here by another account")
            }
            Taken::FederationId { id } => write!(
                f,
                "federation id {id} belongs to another person of the registry"
            ),
            Taken::SeasonName { name } => write!(f, "another season is named '{name}'"),
        }
    }
}

fn result(r: Option<GameResult>) -> &'static str {
    r.map_or("no result", GameResult::label)
}

impl fmt::Display for Meanwhile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Round {}, table {}, game {} was changed meanwhile{}: it now says {}, so your {} was not saved.",
            self.round,
            self.table,
            self.game,
            self.by.as_deref().map(|w| format!(" by {w}")).unwrap_or_default(),
            result(self.now),
            result(self.wanted),
        )
    }
}

impl fmt::Display for RulingStands {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reason = if self.reason.is_empty() {
            String::new()
        } else {
            format!("; reason: {}", self.reason)
        };
        let by = self
            .by
            .as_deref()
            .map(|w| format!(" by {w}"))
            .unwrap_or_default();
        write!(
            f,
            "Round {}, table {}, {} {} has a referee's ruling{by} ({}{reason}): it is {}. The entry would set {}; it was not saved.",
            self.round,
            self.table,
            if self.tiebreak { "tiebreak game" } else { "game" },
            self.game,
            self.kind.label(),
            self.ruled.label(),
            result(self.wanted),
        )
    }
}

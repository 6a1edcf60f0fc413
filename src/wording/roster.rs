//! The words of a refused change to the field.

use std::fmt;

use crate::roster::Refused;

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::AlreadyWithdrawn { name } => write!(f, "{name} has already withdrawn"),
            Refused::NotWithdrawn { name } => write!(f, "{name} has not withdrawn"),
            Refused::OwnRelative => write!(f, "a player cannot be their own relative"),
            Refused::IndividualEvent { tournament } => write!(
                f,
                "{tournament} is an individual event: teams belong to a team league or a team Swiss"
            ),
            Refused::TeamsAfterRoundOne { paired } => write!(
                f,
                "round {paired} is already paired: teams are entered before round 1"
            ),
            Refused::NoWaiver { a, b } => write!(f, "{a} and {b} have no waiver"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_who_and_what() {
        assert_eq!(
            Refused::NoWaiver {
                a: "Thabo Mokoena".into(),
                b: "Nomvula Dlamini".into()
            }
            .to_string(),
            "Thabo Mokoena and Nomvula Dlamini have no waiver"
        );
        assert_eq!(
            Refused::TeamsAfterRoundOne { paired: 2 }.to_string(),
            "round 2 is already paired: teams are entered before round 1"
        );
    }
}

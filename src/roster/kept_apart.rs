//! Pairs the referee keeps apart, and the waivers that let such a pair
//! meet after all: what a new pair, a waiver and taking a waiver back must
//! satisfy, decided on values the database has read, so a form, the API
//! and a script are refused for the same reasons in the same words.

use crate::field::{FieldError, Problem};

pub mod span;
pub use span::Rounds;

/// A pair already kept apart (`a < b`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ban {
    pub a: i32,
    pub b: i32,
    pub rounds: Rounds,
}

/// A player of the tournament named in a request, with the name the
/// messages use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Named<'a> {
    pub id: i32,
    pub name: &'a str,
}

/// A new pair to keep apart: `a` and `b` are the players asked for as found
/// in the tournament (`None`: not one of its players), `rounds` the rounds
/// asked for, `bans` the pairs kept apart already, `last_round` the
/// tournament's last round. Two bans of one pair may not share a round:
/// lifting or waiving one would leave the other in force unseen. Gives the
/// pair in stored order (`a < b`), so either order names the same pair.
pub fn check_new(
    a: Option<Named<'_>>,
    b: Option<Named<'_>>,
    rounds: Rounds,
    bans: &[Ban],
    last_round: i32,
) -> Result<(i32, i32), FieldError> {
    let a = a.ok_or(FieldError::new("a", Problem::NotInEvent))?;
    let b = b.ok_or(FieldError::new("b", Problem::NotInEvent))?;
    if a.id == b.id {
        return Err(FieldError::new(
            "b",
            Problem::SamePlayer {
                name: b.name.to_string(),
            },
        ));
    }
    super::check_round_range(rounds.from, rounds.to, last_round)?;
    let (low, high) = (a.id.min(b.id), a.id.max(b.id));
    if let Some(old) = bans
        .iter()
        .find(|f| f.a == low && f.b == high && rounds.overlaps(f.rounds, last_round))
    {
        return Err(FieldError::new(
            "b",
            Problem::AlreadyKeptApart {
                a: a.name.to_string(),
                b: b.name.to_string(),
                held: old.rounds,
                asked: rounds,
            },
        ));
    }
    Ok((low, high))
}

/// Why the referee lets a kept-apart pair meet (its spaces tidied): it is
/// shown with the pairing that uses the waiver, so players see why a ban
/// they know of did not hold; it may not be empty, and is printable text
/// like every other text field (docs/api.md).
pub fn check_reason(reason: &str) -> Result<(), FieldError> {
    super::check_printable("reason", reason)?;
    if reason.trim().is_empty() {
        return Err(FieldError::new("reason", Problem::NoReason));
    }
    Ok(())
}

/// Whether a waiver of the pair `a_name`-`b_name` (`waived` now) can be
/// taken back.
/// Taking back a waiver the pair does not have: nothing to take back, said
/// rather than recorded as a change.
pub fn check_clear_waiver(a_name: &str, b_name: &str, waived: bool) -> Result<(), super::Refused> {
    if waived {
        Ok(())
    } else {
        Err(super::Refused::NoWaiver {
            a: a_name.to_string(),
            b: b_name.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const THABO: Named<'static> = Named {
        id: 7,
        name: "Thabo Mokoena",
    };
    const NOMVULA: Named<'static> = Named {
        id: 3,
        name: "Nomvula Dlamini",
    };
    const KAGISO: Named<'static> = Named {
        id: 11,
        name: "Kagiso Molefe",
    };

    fn ban(a: i32, b: i32, from: Option<i32>, to: Option<i32>) -> Ban {
        Ban {
            a,
            b,
            rounds: Rounds::new(from, to),
        }
    }

    #[test]
    fn a_new_pair_is_stored_with_the_lower_id_first() {
        let all = Rounds::default();
        assert_eq!(
            check_new(Some(THABO), Some(NOMVULA), all, &[], 7),
            Ok((3, 7))
        );
        assert_eq!(
            check_new(Some(NOMVULA), Some(THABO), all, &[], 7),
            Ok((3, 7))
        );
    }

    #[test]
    fn a_missing_or_repeated_player_is_named_by_field() {
        let all = Rounds::default();
        let e = check_new(None, Some(THABO), all, &[], 7).unwrap_err();
        assert_eq!(e.field, "a");
        assert_eq!(e.problem, Problem::NotInEvent);
        let e = check_new(Some(THABO), None, all, &[], 7).unwrap_err();
        assert_eq!(e.field, "b");
        let e = check_new(Some(THABO), Some(THABO), all, &[], 7).unwrap_err();
        assert_eq!(e.field, "b");
        assert_eq!(
            e.problem,
            Problem::SamePlayer {
                name: "Thabo Mokoena".into()
            }
        );
    }

    #[test]
    fn the_rounds_are_checked_against_the_tournaments_rounds() {
        let e = check_new(
            Some(THABO),
            Some(NOMVULA),
            Rounds::new(Some(5), Some(2)),
            &[],
            7,
        )
        .unwrap_err();
        assert_eq!(e.field, "to_round");
        let e = check_new(
            Some(THABO),
            Some(NOMVULA),
            Rounds::new(None, Some(9)),
            &[],
            7,
        )
        .unwrap_err();
        assert_eq!(e.field, "to_round");
        assert_eq!(
            e.problem,
            Problem::RoundOutside {
                round: 9,
                rounds: 7
            }
        );
    }

    #[test]
    fn a_ban_sharing_a_round_with_one_of_the_same_pair_is_refused() {
        let bans = [ban(3, 7, Some(2), Some(5)), ban(3, 11, None, None)];
        // Every round, asked in the other order: overlaps rounds 2-5.
        let e = check_new(Some(THABO), Some(NOMVULA), Rounds::default(), &bans, 7).unwrap_err();
        assert_eq!(e.field, "b");
        assert_eq!(
            e.problem,
            Problem::AlreadyKeptApart {
                a: "Thabo Mokoena".into(),
                b: "Nomvula Dlamini".into(),
                held: Rounds::new(Some(2), Some(5)),
                asked: Rounds::default()
            }
        );
        // The open end reaches the last round, and round 5 is shared.
        assert!(check_new(
            Some(NOMVULA),
            Some(THABO),
            Rounds::new(Some(5), None),
            &bans,
            7
        )
        .is_err());
        // Rounds 6-7 and round 1 are free of the first ban.
        for free in [Rounds::new(Some(6), None), Rounds::new(None, Some(1))] {
            assert_eq!(
                check_new(Some(NOMVULA), Some(THABO), free, &bans, 7),
                Ok((3, 7)),
                "{free:?}"
            );
        }
        // Another pair's ban says nothing of this one.
        assert_eq!(
            check_new(Some(THABO), Some(KAGISO), Rounds::default(), &bans, 7),
            Ok((7, 11))
        );
    }

    #[test]
    fn a_ban_covers_its_rounds() {
        let r = Rounds::new(Some(2), Some(5));
        assert!(!r.covers(1) && r.covers(2) && r.covers(5) && !r.covers(6));
    }

    #[test]
    fn a_waiver_needs_a_reason_and_only_a_waiver_can_be_taken_back() {
        let e = check_reason("  ").unwrap_err();
        assert_eq!(e.field, "reason");
        assert_eq!(check_reason("the only two juniors in the field"), Ok(()));
        assert_eq!(
            check_clear_waiver("Thabo Mokoena", "Nomvula Dlamini", false),
            Err(super::super::Refused::NoWaiver {
                a: "Thabo Mokoena".into(),
                b: "Nomvula Dlamini".into()
            })
        );
        assert_eq!(
            check_clear_waiver("Thabo Mokoena", "Nomvula Dlamini", true),
            Ok(())
        );
    }
}

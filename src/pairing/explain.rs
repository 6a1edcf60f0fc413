//! The record each pairing carries, so a referee can say why it is the one
//! the rules give. Plain values that name players by id: a page, the API
//! or `kraal pair --json` words them (`crate::wording::pairing` for pages).
//!
//! Explanations stored before they were values held sentences; `legacy`
//! reads those into values, once (at start-up, and when an old event file
//! is imported): a stored explanation carries no sentence.

use serde::{Deserialize, Serialize};

use super::{PlayerId, Points};

pub mod legacy;

/// A float: a player paired outside their own score bracket (or given the
/// bye, which counts as a downfloat).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Float {
    pub player: PlayerId,
    pub direction: FloatDirection,
    /// The player's score before the round.
    pub from_score: Points,
    /// The score they were paired against (the bye counts as the bracket's).
    pub to_score: Points,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FloatDirection {
    Down,
    Up,
}

/// A rule that keeps two players apart, or a pairing preference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Rule {
    /// The referee keeps the pair apart, in rounds `from` to `to` (`None`:
    /// from the first, to the last).
    KeptApart { from: Option<u32>, to: Option<u32> },
    /// OGR 11.3: relatives (or, with `relatives` false, club-mates) do not
    /// meet in the last third, rounds `from` to `to`.
    LastThird { relatives: bool, from: u32, to: u32 },
    /// GAR: first-degree relatives never meet.
    RelativesNever,
    /// GAR: club or team mates do not meet in rounds 1-3 where possible.
    MatesEarly,
    /// C14-C17: `player` does not float in `direction` as in the round
    /// before (`rounds_before` 1: C14, C15) or two rounds before (2: C16,
    /// C17). The pairing-allocated bye counts as a downfloat.
    RepeatedFloat {
        player: PlayerId,
        direction: FloatDirection,
        rounds_before: u8,
    },
    /// A rule stored as a sentence by an older version that could not be
    /// read (`legacy`).
    Unreadable,
}

/// Why a rule could not be kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Why {
    /// No pairing of the bracket with as many pairs and as high scores
    /// paired avoids it (and, with `fewer_floats`, as few repeated floats).
    Bracket { fewer_floats: bool },
    /// Every bye that avoids it would cost a rematch, a forbidden pair, a
    /// second bye or a worse score bracket.
    ByeCost,
    /// Every complete pairing found that keeps the pair apart is worse by
    /// the absolute or score-bracket criteria.
    RoundCost,
    /// No seating of the round robin keeps every such pair out of these
    /// rounds while honouring the absolute rules.
    Seating,
    /// No pairing of the players who have not met keeps them apart.
    Unmet,
    /// No swap with another lower seed keeps both pairs allowed.
    NoSwap,
    /// A reason stored as a sentence by an older version that could not be
    /// read (`legacy`).
    Unreadable,
}

/// A preference or rule that did not hold for this pairing, and why no
/// pairing keeping it existed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bent {
    pub rule: Rule,
    pub why: Why,
}

/// A waiver the referee granted that the pairing relies on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum WaiverUsed {
    Used { reason: String, rule: Rule },
}

/// Anything else worth saying of a pairing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Note {
    /// An odd field: the pairing-allocated bye goes to a player of the
    /// lowest score that leaves the round complete, who has not had one
    /// (C2, C4, C5), with the fewest unplayed games (C9), then by the float
    /// criteria and the handbook's order.
    PairingAllocatedBye,
    /// `player` moved down from the bracket of score `from`: no opponent
    /// there was possible, or the bracket was odd.
    MovedDown { player: PlayerId, from: Points },
    /// Round robin: Berger table round `round`, pairing numbers `first` and
    /// `second`.
    Berger { round: u32, first: u32, second: u32 },
    /// Round robin whose rounds follow no Berger table: paired among the
    /// players who have not met.
    Unmet,
    /// Knock-out: seed `first` against seed `second` (no `second`: a bye,
    /// the field not being a power of two).
    Seeds { first: u32, second: Option<u32> },
    /// Knock-out, a later round: the winners of bracket slots `first` and
    /// `second` of the round before.
    Winners { first: u32, second: u32 },
    /// A referee changed the pairing by hand.
    ChangedByHand,
    /// A note stored as a sentence by an older version that could not be
    /// read (`legacy`), or a stored explanation that was none.
    Unreadable,
}

/// Why a pairing is the one it is.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Explanation {
    /// The score bracket the pairing was made in (the higher player's
    /// score); `None` outside the Swiss system.
    pub bracket: Option<Points>,
    pub floats: Vec<Float>,
    pub bent: Vec<Bent>,
    /// Waivers the referee granted that this pairing relies on.
    pub waivers: Vec<WaiverUsed>,
    pub notes: Vec<Note>,
}

impl Rule {
    /// The player the rule is about, if it is about one.
    fn player_mut(&mut self) -> Option<&mut PlayerId> {
        match self {
            Rule::RepeatedFloat { player, .. } => Some(player),
            _ => None,
        }
    }
}

impl Explanation {
    /// The same explanation with every player renumbered by `new_id` (a
    /// tournament moved to another database, where its players have new
    /// ids).
    pub fn renumber(&mut self, new_id: &dyn Fn(PlayerId) -> Option<PlayerId>) {
        let move_id = |p: &mut PlayerId| {
            if let Some(n) = new_id(*p) {
                *p = n;
            }
        };
        for f in &mut self.floats {
            move_id(&mut f.player);
        }
        for b in &mut self.bent {
            if let Some(p) = b.rule.player_mut() {
                move_id(p);
            }
        }
        for w in &mut self.waivers {
            let WaiverUsed::Used { rule, .. } = w;
            if let Some(p) = rule.player_mut() {
                move_id(p);
            }
        }
        for n in &mut self.notes {
            if let Note::MovedDown { player, .. } = n {
                move_id(player);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_explanation_keeps_its_values_through_json() {
        let e = Explanation {
            bracket: Some(20),
            floats: vec![Float {
                player: 12,
                direction: FloatDirection::Down,
                from_score: 20,
                to_score: 10,
            }],
            bent: vec![Bent {
                rule: Rule::RepeatedFloat {
                    player: 12,
                    direction: FloatDirection::Down,
                    rounds_before: 1,
                },
                why: Why::Bracket {
                    fewer_floats: false,
                },
            }],
            waivers: vec![WaiverUsed::Used {
                reason: "same lift home".into(),
                rule: Rule::KeptApart {
                    from: Some(2),
                    to: None,
                },
            }],
            notes: vec![Note::MovedDown {
                player: 12,
                from: 20,
            }],
        };
        let json = serde_json::to_string(&e).unwrap();
        assert_eq!(serde_json::from_str::<Explanation>(&json).unwrap(), e);
        assert!(
            json.contains(r#""kind":"moved_down","player":12"#),
            "{json}"
        );
    }

    #[test]
    fn a_sentence_is_no_explanation_until_the_legacy_reader_reads_it() {
        let old = r#"{"bracket":null,"floats":[],"bent":[{"rule":"relatives never meet (GAR)","why":"no swap"}],
                      "waivers":["waived by the referee (final): relatives never meet (GAR)"],
                      "notes":["Berger table round 3, numbers 1 - 4"]}"#;
        assert!(serde_json::from_str::<Explanation>(old).is_err());
        let e = legacy::read(old).unwrap();
        assert_eq!(e.bent[0].rule, Rule::RelativesNever);
        assert_eq!(e.bent[0].why, Why::Unreadable);
        assert_eq!(
            e.notes[0],
            Note::Berger {
                round: 3,
                first: 1,
                second: 4
            }
        );
    }

    #[test]
    fn renumbering_moves_every_player_id() {
        let mut e = Explanation {
            floats: vec![Float {
                player: 3,
                direction: FloatDirection::Up,
                from_score: 0,
                to_score: 10,
            }],
            notes: vec![Note::MovedDown {
                player: 4,
                from: 10,
            }],
            bent: vec![Bent {
                rule: Rule::RepeatedFloat {
                    player: 3,
                    direction: FloatDirection::Up,
                    rounds_before: 2,
                },
                why: Why::Bracket { fewer_floats: true },
            }],
            ..Default::default()
        };
        e.renumber(&|old| Some(old + 100));
        assert_eq!(e.floats[0].player, 103);
        assert_eq!(
            e.notes[0],
            Note::MovedDown {
                player: 104,
                from: 10
            }
        );
        assert_eq!(e.bent[0].rule.clone().player_mut().copied(), Some(103));
    }
}

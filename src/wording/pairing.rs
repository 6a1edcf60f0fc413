//! The words of the pairing engines' values: why a pairing is the one it
//! is ([`explanation`]), a rule ([`rule`]) and why no pairing exists
//! ([`blocked`]).

use std::fmt;

use crate::pairing::explain::{Bent, Explanation, FloatDirection, Note, Rule, WaiverUsed, Why};
use crate::pairing::{Blocked, PairingError, PlayerId};
use crate::standings::show_points;

/// How a caller names a player: by name on a page, by id on the command line.
pub type Name<'a> = &'a dyn Fn(PlayerId) -> String;

/// What stands for a sentence an older version stored that could not be
/// read back as a value.
const UNREADABLE: &str = "an explanation stored by an older version that could not be read";

fn by_id(id: PlayerId) -> String {
    format!("player {id}")
}

fn direction(d: FloatDirection) -> &'static str {
    match d {
        FloatDirection::Down => "downfloat",
        FloatDirection::Up => "upfloat",
    }
}

/// A rule, as the referee's handbook would put it.
pub fn rule(r: &Rule, name: Name) -> String {
    match r {
        Rule::KeptApart {
            from: None,
            to: None,
        } => "forbidden pair set by the referee".into(),
        Rule::KeptApart { from, to } => format!(
            "forbidden pair set by the referee for rounds {}-{}",
            from.unwrap_or(1),
            to.map_or("end".to_string(), |t| t.to_string())
        ),
        Rule::LastThird {
            relatives,
            from,
            to,
        } => format!(
            "{} do not meet in the last third (rounds {from}-{to}, OGR 11.3)",
            if *relatives {
                "relatives"
            } else {
                "club-mates"
            }
        ),
        Rule::RelativesNever => "relatives never meet (GAR)".into(),
        Rule::MatesEarly => {
            "club or team mates do not meet in rounds 1-3 where possible (GAR)".into()
        }
        Rule::RepeatedFloat {
            player,
            direction: d,
            rounds_before,
        } => {
            let article = match (d, rounds_before) {
                (FloatDirection::Down, 1) => "C14",
                (FloatDirection::Up, 1) => "C15",
                (FloatDirection::Down, _) => "C16",
                (FloatDirection::Up, _) => "C17",
            };
            if *rounds_before == 1 {
                format!(
                    "{}: no {} in two consecutive rounds ({article})",
                    name(*player),
                    direction(*d)
                )
            } else {
                format!(
                    "{}: no {} as two rounds before ({article})",
                    name(*player),
                    direction(*d)
                )
            }
        }
        Rule::Unreadable => UNREADABLE.into(),
    }
}

/// Why a rule could not be kept.
pub fn why(w: &Why) -> String {
    match w {
        Why::Bracket {
            fewer_floats: false,
        } => "no pairing of this bracket with as many pairs and as high scores paired avoids it"
            .into(),
        Why::Bracket { fewer_floats: true } => "no pairing of this bracket with as many pairs, \
             as high scores paired and fewer repeated floats avoids it"
            .into(),
        Why::ByeCost => "every bye that avoids it would cost a rematch, a forbidden pair, a \
             second bye, or a worse score bracket"
            .into(),
        Why::RoundCost => "every complete pairing of this round the search found that keeps \
             them apart needs a rematch, a forbidden pair, a second bye, or worse score \
             brackets (more floaters or larger score differences)"
            .into(),
        Why::Seating => "no seating keeps every such pair out of these rounds while honouring \
             the absolute rules"
            .into(),
        Why::Unmet => "no pairing of the players who have not met keeps them apart".into(),
        Why::NoSwap => "no swap with another lower seed keeps both pairs allowed".into(),
        Why::Unreadable => UNREADABLE.into(),
    }
}

/// A note of a pairing.
pub fn note(n: &Note, name: Name) -> String {
    match n {
        Note::PairingAllocatedBye => "odd number of players: the pairing-allocated bye goes to \
             a player of the lowest score that leaves the round complete, who has not had one \
             (C2, C4, C5), with the fewest unplayed games (C9), then by the float criteria and \
             the handbook's order"
            .into(),
        Note::MovedDown { player, from } => format!(
            "{} moved down from the {} bracket: no opponent there was possible without a \
             rematch, a forbidden pair, or leaving the round incomplete, or the bracket had an \
             odd number of players",
            name(*player),
            show_points(*from)
        ),
        Note::Berger {
            round,
            first,
            second,
        } => format!("Berger table round {round}, numbers {first} - {second}"),
        Note::Unmet => "the rounds played follow no Berger table (a pairing changed by hand): \
             paired among the players who have not met"
            .into(),
        Note::Seeds {
            first,
            second: Some(second),
        } => format!("seed {first} against seed {second}"),
        Note::Seeds {
            first,
            second: None,
        } => format!("seed {first} has a bye (the field is not a power of two)"),
        Note::Winners { first, second } => format!("winners of slots {first} and {second}"),
        Note::ChangedByHand => "changed by hand".into(),
        Note::Unreadable => UNREADABLE.into(),
    }
}

fn waiver(w: &WaiverUsed, name: Name) -> String {
    match w {
        WaiverUsed::Used { reason, rule: r } if reason.is_empty() => {
            format!("waived by the referee: {}", rule(r, name))
        }
        WaiverUsed::Used { reason, rule: r } => {
            format!("waived by the referee ({reason}): {}", rule(r, name))
        }
    }
}

/// An explanation as the lines a page shows under a pairing.
pub fn explanation(e: &Explanation, name: Name) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(b) = e.bracket {
        out.push(format!("Score bracket {}", show_points(b)));
    }
    for f in &e.floats {
        let dir = match f.direction {
            FloatDirection::Down => "Floated down",
            FloatDirection::Up => "Floated up",
        };
        out.push(format!(
            "{dir}: {} from {} to {}",
            name(f.player),
            show_points(f.from_score),
            show_points(f.to_score)
        ));
    }
    for Bent { rule: r, why: w } in &e.bent {
        out.push(format!("{} did not hold: {}", rule(r, name), why(w)));
    }
    for w in &e.waivers {
        out.push(format!("Waiver: {}", waiver(w, name)));
    }
    for n in &e.notes {
        out.push(note(n, name));
    }
    out
}

/// Why no pairing exists.
pub fn blocked(b: &Blocked, name: Name) -> String {
    match b {
        Blocked::ByeTaken => "the field is odd and every player present has already had the \
             pairing-allocated bye or a forfeit win (C2)"
            .into(),
        Blocked::NoOpponent { player } => format!(
            "{} has already met, or may not meet, every other player present (C1 and the \
             avoidance rules)",
            name(*player)
        ),
        Blocked::Incomplete {
            paired,
            places,
            left,
        } => format!(
            "without rematches (C1), a second bye (C2) and forbidden pairs, at most {paired} of \
             the {places} places can be paired; left over: {}",
            left.iter()
                .map(|p| p.map_or("the bye".to_string(), name))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Blocked::NoSeating {
            pair: Some((a, b, r)),
        } => format!(
            "no seating keeps every forbidden pair in a round where it may meet; the pair that \
             could least often be placed is {} and {} ({})",
            name(*a),
            name(*b),
            r.as_ref().map(|r| rule(r, name)).unwrap_or_default()
        ),
        Blocked::NoSeating { pair: None } => "no seating satisfies the avoidance rules".into(),
        Blocked::NotBerger {
            played,
            players,
            round,
        } => format!(
            "rounds 1-{played} as paired do not follow one Berger table of these {players} \
             players (a pairing changed by hand, or the field changed since), and the players \
             who have not met cannot all be paired in round {round}"
        ),
    }
}

/// Why no pairing exists, as the referee reads it on the tournament page,
/// with the way out it offers. `round_robin`: every pair meets in the
/// event's seating.
pub fn no_pairing(e: &PairingError, name: Name, round_robin: bool) -> String {
    let way_out = "To let a pair meet after all, keep the two apart on the tournament page \
                   and waive that pair with a reason (a waiver lifts every rule that keeps \
                   them apart).";
    match e {
        PairingError::CannotSeparate { a, b, rule: r } => format!(
            "No valid pairing exists: {} and {} meet in every seating of this {}, but may not meet: {}. {way_out}",
            name(*a),
            name(*b),
            if round_robin { "round robin" } else { "round" },
            rule(r, name)
        ),
        PairingError::Impossible(b) => {
            format!("No valid pairing exists: {}. {way_out}", blocked(b, name))
        }
        PairingError::Invalid(_) => format!("No valid pairing exists: {e}"),
    }
}

/// The command line's words: players by id.
impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&rule(self, &by_id))
    }
}

impl fmt::Display for Blocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&blocked(self, &by_id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(id: PlayerId) -> String {
        match id {
            12 => "Kagiso Molefe".into(),
            7 => "Refilwe Dube".into(),
            other => format!("player {other}"),
        }
    }

    #[test]
    fn an_explanation_names_its_players_and_scores() {
        let e = Explanation {
            bracket: Some(25),
            floats: vec![crate::pairing::explain::Float {
                player: 12,
                direction: FloatDirection::Down,
                from_score: 25,
                to_score: 20,
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
                rule: Rule::RelativesNever,
            }],
            notes: vec![Note::MovedDown {
                player: 12,
                from: 25,
            }],
        };
        let lines = explanation(&e, &named);
        assert_eq!(lines[0], "Score bracket 2½");
        assert_eq!(lines[1], "Floated down: Kagiso Molefe from 2½ to 2");
        assert!(lines[2].starts_with(
            "Kagiso Molefe: no downfloat in two consecutive rounds (C14) did not hold"
        ));
        assert_eq!(
            lines[3],
            "Waiver: waived by the referee (same lift home): relatives never meet (GAR)"
        );
        assert!(lines[4].starts_with("Kagiso Molefe moved down from the 2½ bracket"));
    }

    #[test]
    fn what_an_older_version_stored_unreadably_is_said_so() {
        for line in [
            rule(&Rule::Unreadable, &named),
            why(&Why::Unreadable),
            note(&Note::Unreadable, &named),
        ] {
            assert_eq!(line, UNREADABLE);
        }
    }

    #[test]
    fn the_command_line_says_ids() {
        let b = Blocked::Incomplete {
            paired: 4,
            places: 6,
            left: vec![Some(3), None],
        };
        assert_eq!(
            b.to_string(),
            "without rematches (C1), a second bye (C2) and forbidden pairs, at most 4 of the 6 \
             places can be paired; left over: player 3, the bye"
        );
    }
}

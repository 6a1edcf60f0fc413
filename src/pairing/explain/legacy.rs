//! Explanations stored before they were values hold English sentences
//! where a rule, a reason, a waiver or a note now stands ("player 12: no
//! downfloat in two consecutive rounds (C14)"). This reads each sentence
//! the engines ever wrote back into the value that now stands for it, with
//! players by id; a sentence it cannot read becomes the `Unreadable` value,
//! never a sentence kept.
//!
//! Used once: by the start-up conversion of stored pairings and by the
//! import of event files written before explanations were values.

use serde_json::Value;

use super::{Explanation, FloatDirection, Note, Rule, WaiverUsed, Why};
use crate::pairing::{PlayerId, Points, POINT};

/// Whether a stored explanation must be read by this module: it is not
/// empty (no explanation) and not an explanation of values, i.e. it holds
/// a sentence somewhere a value now stands, or is no explanation at all.
pub fn needs_reading(stored: &str) -> bool {
    if stored.is_empty() {
        return false;
    }
    let Ok(mut value) = serde_json::from_str::<Value>(stored) else {
        return true;
    };
    let Some(fields) = value.as_object_mut() else {
        return true;
    };
    let sentence = |v: Option<&Value>| v.is_some_and(Value::is_string);
    let bent =
        list(fields.get_mut("bent")).any(|b| sentence(b.get("rule")) || sentence(b.get("why")));
    let other = ["waivers", "notes"]
        .iter()
        .any(|k| list(fields.get_mut(*k)).any(|v| v.is_string()));
    bent || other || serde_json::from_value::<Explanation>(value).is_err()
}

/// A stored explanation, old or new, as values: a sentence where a value
/// now stands is read into that value. `None` for the empty text (a row
/// without an explanation); text that is no explanation at all reads as
/// one note, [`Note::Unreadable`].
pub fn read(stored: &str) -> Option<Explanation> {
    if stored.is_empty() {
        return None;
    }
    let unreadable = || Explanation {
        notes: vec![Note::Unreadable],
        ..Explanation::default()
    };
    let Ok(mut value) = serde_json::from_str::<Value>(stored) else {
        return Some(unreadable());
    };
    let Some(fields) = value.as_object_mut() else {
        return Some(unreadable());
    };
    // The bye's explanation named no player in its rule: the player is the
    // one it floats down.
    let floated_down = fields
        .get("floats")
        .and_then(|f| serde_json::from_value::<Vec<super::Float>>(f.clone()).ok())
        .and_then(|floats| {
            floats
                .into_iter()
                .find(|f| f.direction == FloatDirection::Down)
                .map(|f| f.player)
        });
    for bent in list(fields.get_mut("bent")) {
        if let Some(b) = bent.as_object_mut() {
            replace(b.get_mut("rule"), |t| rule(t, floated_down));
            replace(b.get_mut("why"), why);
        }
    }
    for w in list(fields.get_mut("waivers")) {
        replace(Some(w), waiver);
    }
    for n in list(fields.get_mut("notes")) {
        replace(Some(n), note);
    }
    Some(serde_json::from_value(value).unwrap_or_else(|_| unreadable()))
}

fn list(v: Option<&mut Value>) -> impl Iterator<Item = &mut Value> {
    v.and_then(Value::as_array_mut).into_iter().flatten()
}

/// Puts the value `read` makes of the sentence in place of the sentence.
fn replace<T: serde::Serialize>(slot: Option<&mut Value>, read: impl Fn(&str) -> T) {
    let Some(slot) = slot else { return };
    let Value::String(text) = &*slot else { return };
    if let Ok(v) = serde_json::to_value(read(text)) {
        *slot = v;
    }
}

/// A rule as the engines wrote it; `floated_down` is the player a rule
/// without a name is about (the bye's "no downfloat in two consecutive
/// rounds").
pub fn rule(text: &str, floated_down: Option<PlayerId>) -> Rule {
    read_rule(text.trim(), floated_down).unwrap_or(Rule::Unreadable)
}

fn read_rule(text: &str, floated_down: Option<PlayerId>) -> Option<Rule> {
    match text {
        "forbidden pair set by the referee" => {
            return Some(Rule::KeptApart {
                from: None,
                to: None,
            })
        }
        "relatives never meet (GAR)" => return Some(Rule::RelativesNever),
        "club or team mates do not meet in rounds 1-3 where possible (GAR)"
        | "club or team mates in rounds 1-3 (GAR)" => return Some(Rule::MatesEarly),
        _ => {}
    }
    if let Some(rounds) = text.strip_prefix("forbidden pair set by the referee for rounds ") {
        let (from, to) = rounds.split_once('-')?;
        return Some(Rule::KeptApart {
            from: Some(number(from)?),
            to: if to == "end" { None } else { Some(number(to)?) },
        });
    }
    for (who, relatives) in [("relatives", true), ("club-mates", false)] {
        if let Some(rest) = text
            .strip_prefix(who)
            .and_then(|r| r.strip_prefix(" do not meet in the last third (rounds "))
        {
            let (from, to) = rest.strip_suffix(", OGR 11.3)")?.split_once('-')?;
            return Some(Rule::LastThird {
                relatives,
                from: number(from)?,
                to: number(to)?,
            });
        }
    }
    let (player, float) = match text.strip_prefix("player ") {
        Some(rest) => {
            let (id, float) = rest.split_once(": ")?;
            (number(id)?, float)
        }
        None => (floated_down?, text),
    };
    repeated_float(player, float)
}

/// "no downfloat in two consecutive rounds (C14)", "no upfloat as two
/// rounds before (C17)": the article is left aside, as its number moved
/// with the handbook's 2025 text (C12-C15 before, C14-C17 since).
fn repeated_float(player: PlayerId, text: &str) -> Option<Rule> {
    let rest = text.strip_prefix("no ")?;
    let (word, rest) = rest.split_once(' ')?;
    let direction = match word {
        "downfloat" => FloatDirection::Down,
        "upfloat" => FloatDirection::Up,
        _ => return None,
    };
    let (when, article) = rest.split_once(" (")?;
    let article = article.strip_suffix(')')?.strip_prefix('C')?;
    number::<u32>(article)?;
    let rounds_before = match when {
        "in two consecutive rounds" => 1,
        "as two rounds before" => 2,
        _ => return None,
    };
    Some(Rule::RepeatedFloat {
        player,
        direction,
        rounds_before,
    })
}

/// Why a rule could not be kept, as the engines wrote it.
pub fn why(text: &str) -> Why {
    match text.trim() {
        "no pairing of this bracket with as many pairs and as high scores paired avoids it"
        | "no pairing of this bracket with as many pairs and as small score differences \
           avoids it" => Why::Bracket {
            fewer_floats: false,
        },
        "no pairing of this bracket with as many pairs, as high scores paired and fewer \
         repeated floats avoids it"
        | "no pairing of this bracket with as many pairs, as small score differences and \
           fewer repeated floats avoids it" => Why::Bracket { fewer_floats: true },
        "every bye that avoids it would cost a rematch, a forbidden pair, a second bye, or a \
         worse score bracket" => Why::ByeCost,
        "every complete pairing of this round the search found that keeps them apart needs a \
         rematch, a forbidden pair, a second bye, or worse score brackets (more floaters or \
         larger score differences)"
        | "no complete pairing of this round keeps them apart without a rematch, a forbidden \
           pair, a second bye, or a worse score bracket (more floaters or larger score \
           differences)" => Why::RoundCost,
        "no seating keeps every such pair out of these rounds while honouring the absolute \
         rules" => Why::Seating,
        "no pairing of the players who have not met keeps them apart" => Why::Unmet,
        "no swap with another lower seed keeps both pairs allowed" => Why::NoSwap,
        _ => Why::Unreadable,
    }
}

/// A waiver as the engines wrote it: "waived by the referee (reason):
/// rule", or without the reason. The referee's reason is kept: it is what
/// the referee typed, not the engine's words.
pub fn waiver(text: &str) -> WaiverUsed {
    let unread = || WaiverUsed::Used {
        reason: String::new(),
        rule: Rule::Unreadable,
    };
    let Some(rest) = text.trim().strip_prefix("waived by the referee") else {
        return unread();
    };
    if let Some(r) = rest.strip_prefix(": ") {
        return WaiverUsed::Used {
            reason: String::new(),
            rule: rule(r, None),
        };
    }
    let Some(rest) = rest.strip_prefix(" (") else {
        return unread();
    };
    // The reason may itself hold "): ": the first split whose rule reads
    // is the one the engine wrote.
    let splits: Vec<(usize, &str)> = rest.match_indices("): ").collect();
    let at = |i: usize| (&rest[..i], &rest[i + 3..]);
    let chosen = splits
        .iter()
        .map(|&(i, _)| at(i))
        .find(|(_, r)| rule(r, None) != Rule::Unreadable)
        .or_else(|| splits.first().map(|&(i, _)| at(i)));
    match chosen {
        Some((reason, r)) => WaiverUsed::Used {
            reason: reason.to_string(),
            rule: rule(r, None),
        },
        None => unread(),
    }
}

/// A note as the engines wrote it.
pub fn note(text: &str) -> Note {
    read_note(text.trim()).unwrap_or(Note::Unreadable)
}

fn read_note(text: &str) -> Option<Note> {
    match text {
        "odd number of players: the pairing-allocated bye goes to a player of the lowest \
         score that leaves the round complete, who has not had one (C2, C4, C5), with the \
         fewest unplayed games (C9), then by the float criteria and the handbook's order"
        | "odd number of players: the pairing-allocated bye goes to the lowest-ranked player \
           of the lowest bracket who has not had one (C2, C5, C6)" => {
            return Some(Note::PairingAllocatedBye)
        }
        "the rounds played follow no Berger table (a pairing changed by hand): paired among \
         the players who have not met" => return Some(Note::Unmet),
        "changed by hand" => return Some(Note::ChangedByHand),
        _ => {}
    }
    if let Some(rest) = text.strip_prefix("player ") {
        let (id, rest) = rest.split_once(" moved down from the ")?;
        let (score, rest) = rest.split_once(" bracket: ")?;
        let expected = "no opponent there was possible without a rematch, a forbidden pair, \
                        or leaving the round incomplete, or the bracket had an odd number of \
                        players";
        return (rest == expected).then_some(Note::MovedDown {
            player: number(id)?,
            from: points(score)?,
        });
    }
    if let Some(rest) = text.strip_prefix("Berger table round ") {
        let (round, pair) = rest.split_once(", numbers ")?;
        let (first, second) = pair.split_once(" - ")?;
        return Some(Note::Berger {
            round: number(round)?,
            first: number(first)?,
            second: number(second)?,
        });
    }
    if let Some(rest) = text.strip_prefix("seed ") {
        if let Some(first) = rest.strip_suffix(" has a bye (the field is not a power of two)") {
            return Some(Note::Seeds {
                first: number(first)?,
                second: None,
            });
        }
        let (first, second) = rest.split_once(" against seed ")?;
        return Some(Note::Seeds {
            first: number(first)?,
            second: Some(number(second)?),
        });
    }
    if let Some(rest) = text.strip_prefix("winners of slots ") {
        let (first, second) = rest.split_once(" and ")?;
        return Some(Note::Winners {
            first: number(first)?,
            second: number(second)?,
        });
    }
    None
}

/// A whole number as the engines wrote it: digits only.
fn number<T: std::str::FromStr>(text: &str) -> Option<T> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A score as the engines wrote it, "2" or "2.5" (and, as the pages show
/// it, "2½" or "½"), in tenths.
fn points(text: &str) -> Option<Points> {
    if let Some(whole) = text.strip_suffix('½') {
        let whole: Points = if whole.is_empty() { 0 } else { number(whole)? };
        return Some(whole * POINT + POINT / 2);
    }
    match text.split_once('.') {
        Some((whole, tenth)) if tenth.len() == 1 => {
            Some(number::<Points>(whole)? * POINT + number::<Points>(tenth)?)
        }
        Some(_) => None,
        None => Some(number::<Points>(text)? * POINT),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::explain::{Bent, Float};

    fn down(player: PlayerId, rounds_before: u8) -> Rule {
        Rule::RepeatedFloat {
            player,
            direction: FloatDirection::Down,
            rounds_before,
        }
    }

    fn up(player: PlayerId, rounds_before: u8) -> Rule {
        Rule::RepeatedFloat {
            player,
            direction: FloatDirection::Up,
            rounds_before,
        }
    }

    #[test]
    fn every_rule_the_engines_wrote_reads_as_its_value() {
        let cases = [
            (
                "forbidden pair set by the referee",
                Rule::KeptApart {
                    from: None,
                    to: None,
                },
            ),
            (
                "forbidden pair set by the referee for rounds 2-5",
                Rule::KeptApart {
                    from: Some(2),
                    to: Some(5),
                },
            ),
            (
                "forbidden pair set by the referee for rounds 3-end",
                Rule::KeptApart {
                    from: Some(3),
                    to: None,
                },
            ),
            (
                "relatives do not meet in the last third (rounds 5-7, OGR 11.3)",
                Rule::LastThird {
                    relatives: true,
                    from: 5,
                    to: 7,
                },
            ),
            (
                "club-mates do not meet in the last third (rounds 7-9, OGR 11.3)",
                Rule::LastThird {
                    relatives: false,
                    from: 7,
                    to: 9,
                },
            ),
            ("relatives never meet (GAR)", Rule::RelativesNever),
            (
                "club or team mates do not meet in rounds 1-3 where possible (GAR)",
                Rule::MatesEarly,
            ),
            ("club or team mates in rounds 1-3 (GAR)", Rule::MatesEarly),
            // The 2025 articles (since the handbook's 2025 text) ...
            (
                "player 12: no downfloat in two consecutive rounds (C14)",
                down(12, 1),
            ),
            (
                "player 7: no upfloat in two consecutive rounds (C15)",
                up(7, 1),
            ),
            (
                "player 12: no downfloat as two rounds before (C16)",
                down(12, 2),
            ),
            ("player 7: no upfloat as two rounds before (C17)", up(7, 2)),
            // ... and the 2017 ones, before.
            (
                "player 12: no downfloat in two consecutive rounds (C12)",
                down(12, 1),
            ),
            (
                "player 7: no upfloat in two consecutive rounds (C13)",
                up(7, 1),
            ),
            (
                "player 12: no downfloat as two rounds before (C14)",
                down(12, 2),
            ),
            ("player 7: no upfloat as two rounds before (C15)", up(7, 2)),
        ];
        for (text, value) in cases {
            assert_eq!(rule(text, None), value, "{text}");
        }
    }

    #[test]
    fn the_byes_rule_is_about_the_player_it_floats_down() {
        for text in [
            "no downfloat in two consecutive rounds (C14)",
            "no downfloat in two consecutive rounds (C12)",
        ] {
            assert_eq!(rule(text, Some(9)), down(9, 1), "{text}");
            assert_eq!(rule(text, None), Rule::Unreadable, "{text}");
        }
    }

    #[test]
    fn every_reason_the_engines_wrote_reads_as_its_value() {
        let cases = [
            (
                "no pairing of this bracket with as many pairs and as high scores paired avoids it",
                Why::Bracket {
                    fewer_floats: false,
                },
            ),
            (
                "no pairing of this bracket with as many pairs, as high scores paired and fewer \
                 repeated floats avoids it",
                Why::Bracket { fewer_floats: true },
            ),
            (
                "no pairing of this bracket with as many pairs and as small score differences \
                 avoids it",
                Why::Bracket {
                    fewer_floats: false,
                },
            ),
            (
                "no pairing of this bracket with as many pairs, as small score differences and \
                 fewer repeated floats avoids it",
                Why::Bracket { fewer_floats: true },
            ),
            (
                "every bye that avoids it would cost a rematch, a forbidden pair, a second bye, \
                 or a worse score bracket",
                Why::ByeCost,
            ),
            (
                "every complete pairing of this round the search found that keeps them apart \
                 needs a rematch, a forbidden pair, a second bye, or worse score brackets (more \
                 floaters or larger score differences)",
                Why::RoundCost,
            ),
            (
                "no complete pairing of this round keeps them apart without a rematch, a \
                 forbidden pair, a second bye, or a worse score bracket (more floaters or \
                 larger score differences)",
                Why::RoundCost,
            ),
            (
                "no seating keeps every such pair out of these rounds while honouring the \
                 absolute rules",
                Why::Seating,
            ),
            (
                "no pairing of the players who have not met keeps them apart",
                Why::Unmet,
            ),
            (
                "no swap with another lower seed keeps both pairs allowed",
                Why::NoSwap,
            ),
        ];
        for (text, value) in cases {
            assert_eq!(why(text), value, "{text}");
        }
    }

    #[test]
    fn every_note_the_engines_wrote_reads_as_its_value() {
        let moved = |id: &str, score: &str| {
            format!(
                "player {id} moved down from the {score} bracket: no opponent there was possible \
                 without a rematch, a forbidden pair, or leaving the round incomplete, or the \
                 bracket had an odd number of players"
            )
        };
        let cases = [
            (
                "odd number of players: the pairing-allocated bye goes to a player of the lowest \
                 score that leaves the round complete, who has not had one (C2, C4, C5), with \
                 the fewest unplayed games (C9), then by the float criteria and the handbook's \
                 order"
                    .to_string(),
                Note::PairingAllocatedBye,
            ),
            (
                "odd number of players: the pairing-allocated bye goes to the lowest-ranked \
                 player of the lowest bracket who has not had one (C2, C5, C6)"
                    .to_string(),
                Note::PairingAllocatedBye,
            ),
            (
                moved("12", "2.5"),
                Note::MovedDown {
                    player: 12,
                    from: 25,
                },
            ),
            (
                moved("4", "3"),
                Note::MovedDown {
                    player: 4,
                    from: 30,
                },
            ),
            (moved("4", "0.5"), Note::MovedDown { player: 4, from: 5 }),
            (
                "Berger table round 3, numbers 1 - 4".to_string(),
                Note::Berger {
                    round: 3,
                    first: 1,
                    second: 4,
                },
            ),
            (
                "the rounds played follow no Berger table (a pairing changed by hand): paired \
                 among the players who have not met"
                    .to_string(),
                Note::Unmet,
            ),
            (
                "seed 3 against seed 6".to_string(),
                Note::Seeds {
                    first: 3,
                    second: Some(6),
                },
            ),
            (
                "seed 1 has a bye (the field is not a power of two)".to_string(),
                Note::Seeds {
                    first: 1,
                    second: None,
                },
            ),
            (
                "winners of slots 1 and 2".to_string(),
                Note::Winners {
                    first: 1,
                    second: 2,
                },
            ),
            ("changed by hand".to_string(), Note::ChangedByHand),
        ];
        for (text, value) in cases {
            assert_eq!(note(&text), value, "{text}");
        }
    }

    #[test]
    fn every_waiver_the_engines_wrote_reads_with_its_reason_and_rule() {
        let used = |reason: &str, rule: Rule| WaiverUsed::Used {
            reason: reason.into(),
            rule,
        };
        let cases = [
            (
                "waived by the referee (same lift home): relatives never meet (GAR)",
                used("same lift home", Rule::RelativesNever),
            ),
            (
                "waived by the referee: club or team mates in rounds 1-3 (GAR)",
                used("", Rule::MatesEarly),
            ),
            (
                // The round robin wrote the brackets even without a reason.
                "waived by the referee (): forbidden pair set by the referee for rounds 2-5",
                used(
                    "",
                    Rule::KeptApart {
                        from: Some(2),
                        to: Some(5),
                    },
                ),
            ),
            (
                "waived by the referee (final (agreed): both asked): relatives do not meet in \
                 the last third (rounds 5-7, OGR 11.3)",
                used(
                    "final (agreed): both asked",
                    Rule::LastThird {
                        relatives: true,
                        from: 5,
                        to: 7,
                    },
                ),
            ),
            (
                "waived by the referee (odd): something else",
                used("odd", Rule::Unreadable),
            ),
            ("a waiver of some kind", used("", Rule::Unreadable)),
        ];
        for (text, value) in cases {
            assert_eq!(waiver(text), value, "{text}");
        }
    }

    #[test]
    fn what_cannot_be_read_becomes_the_unreadable_value() {
        for text in [
            "",
            "player twelve: no downfloat in two consecutive rounds (C14)",
            "player 12: no sidefloat in two consecutive rounds (C14)",
            "forbidden pair set by the referee for rounds two-five",
            "relatives do not meet in the last third (rounds 5-7)",
        ] {
            assert_eq!(rule(text, Some(3)), Rule::Unreadable, "{text}");
        }
        assert_eq!(why("no swap"), Why::Unreadable);
        for text in [
            "Berger table round 3",
            "seed three against seed 6",
            "player 12 moved down from the 2.55 bracket: no opponent",
            "the pairing was made on a Tuesday",
        ] {
            assert_eq!(note(text), Note::Unreadable, "{text}");
        }
    }

    #[test]
    fn a_stored_explanation_reads_as_values_with_its_players_by_id() {
        let old = r#"{"bracket":25,"floats":[{"player":12,"direction":"down","from_score":25,"to_score":20}],
            "bent":[{"rule":"player 12: no downfloat in two consecutive rounds (C14)",
                     "why":"no pairing of this bracket with as many pairs and as high scores paired avoids it"},
                    {"rule":"club or team mates do not meet in rounds 1-3 where possible (GAR)","why":"no swap"}],
            "waivers":["waived by the referee (final): relatives never meet (GAR)"],
            "notes":["player 12 moved down from the 2.5 bracket: no opponent there was possible without a rematch, a forbidden pair, or leaving the round incomplete, or the bracket had an odd number of players",
                     "seen on a Tuesday"]}"#;
        assert!(needs_reading(old));
        let e = read(old).unwrap();
        assert_eq!(
            e,
            Explanation {
                bracket: Some(25),
                floats: vec![Float {
                    player: 12,
                    direction: FloatDirection::Down,
                    from_score: 25,
                    to_score: 20,
                }],
                bent: vec![
                    Bent {
                        rule: down(12, 1),
                        why: Why::Bracket {
                            fewer_floats: false
                        },
                    },
                    Bent {
                        rule: Rule::MatesEarly,
                        why: Why::Unreadable,
                    },
                ],
                waivers: vec![WaiverUsed::Used {
                    reason: "final".into(),
                    rule: Rule::RelativesNever,
                }],
                notes: vec![
                    Note::MovedDown {
                        player: 12,
                        from: 25
                    },
                    Note::Unreadable
                ],
            }
        );
        let json = serde_json::to_string(&e).unwrap();
        assert!(!needs_reading(&json), "{json}");
        assert_eq!(read(&json), Some(e));
    }

    #[test]
    fn the_byes_stored_explanation_names_the_bye_player() {
        let old = r#"{"bracket":0,"floats":[{"player":9,"direction":"down","from_score":0,"to_score":0}],
            "bent":[{"rule":"no downfloat in two consecutive rounds (C14)",
                     "why":"every bye that avoids it would cost a rematch, a forbidden pair, a second bye, or a worse score bracket"}],
            "waivers":[],
            "notes":["odd number of players: the pairing-allocated bye goes to a player of the lowest score that leaves the round complete, who has not had one (C2, C4, C5), with the fewest unplayed games (C9), then by the float criteria and the handbook's order"]}"#;
        let e = read(old).unwrap();
        assert_eq!(e.bent[0].rule, down(9, 1));
        assert_eq!(e.bent[0].why, Why::ByeCost);
        assert_eq!(e.notes, vec![Note::PairingAllocatedBye]);
    }

    #[test]
    fn no_explanation_stays_none_and_text_that_is_none_reads_as_unreadable() {
        assert!(!needs_reading(""));
        assert_eq!(read(""), None);
        for text in ["changed by hand", "[1, 2]", "{\"floats\": 3}"] {
            assert!(needs_reading(text), "{text}");
            assert_eq!(read(text).unwrap().notes, vec![Note::Unreadable], "{text}");
        }
    }
}

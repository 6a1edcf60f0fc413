//! Kraal's own JSON tournament file (see docs/pairing.md).

use serde::Deserialize;

use super::{err, FormatError};
use crate::pairing::swiss::{EntryKind, RoundEntry, Status, SwissInput, SwissPlayer};
use crate::pairing::{ForbiddenPair, PlayerId, Points, RuleSet, Waiver, POINT};
use crate::tournament::{ByeValue, Ranking};
use std::collections::{HashMap, HashSet};

fn game_points() -> Ranking {
    Ranking::GamePoints
}

fn bye_won() -> ByeValue {
    ByeValue::Win
}

/// Reads a bye value in the tournament's spelling (`win`, `draw`, `none`) or
/// the older file spelling (`won`, `drawn`, `nothing`), still accepted.
fn bye_value<'de, D: serde::Deserializer<'de>>(d: D) -> Result<ByeValue, D::Error> {
    let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
    match text.as_ref() {
        "won" => Ok(ByeValue::Win),
        "drawn" => Ok(ByeValue::Draw),
        "nothing" => Ok(ByeValue::Nothing),
        other => other.parse().map_err(serde::de::Error::custom),
    }
}

fn official() -> RuleSet {
    RuleSet::Official
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KraalFile {
    /// `kraal pair` files without a rule set have always meant `official`;
    /// `rule_set` is the older name of the field, still read.
    #[serde(default = "official", alias = "rule_set")]
    rules: RuleSet,
    total_rounds: u32,
    #[serde(default = "two")]
    games_per_pairing: u32,
    #[serde(default = "game_points")]
    ranking: Ranking,
    #[serde(default = "bye_won", deserialize_with = "bye_value")]
    bye_value: ByeValue,
    players: Vec<KraalPlayer>,
    #[serde(default)]
    rounds: Vec<KraalRound>,
    /// Players who left the tournament.
    #[serde(default)]
    withdrawn: Vec<PlayerId>,
    /// Requested byes in the round being paired.
    #[serde(default)]
    absent: Vec<KraalBye>,
    #[serde(default)]
    forbidden: Vec<ForbiddenPair>,
    #[serde(default)]
    waivers: Vec<Waiver>,
}

fn two() -> u32 {
    2
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KraalPlayer {
    id: PlayerId,
    name: String,
    #[serde(default)]
    rating: Option<i32>,
    #[serde(default)]
    club: Option<String>,
    #[serde(default)]
    team: Option<String>,
    #[serde(default)]
    relatives: Vec<PlayerId>,
    #[serde(default)]
    entered_round: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KraalRound {
    #[serde(default)]
    pairings: Vec<KraalPairing>,
    #[serde(default)]
    byes: Vec<KraalBye>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KraalPairing {
    first: PlayerId,
    second: PlayerId,
    /// Points of the first player in each game: 1, 0.5 or 0.
    #[serde(default)]
    games: Vec<f64>,
    /// "first" or "second": who did not come.
    #[serde(default)]
    forfeit: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KraalBye {
    player: PlayerId,
    /// "allocated", "half" or "zero".
    #[serde(default = "half")]
    kind: String,
}

fn half() -> String {
    "half".into()
}

/// Reads Kraal's JSON tournament file and builds the input for the next
/// round.
pub fn parse_kraal_json(text: &str) -> Result<SwissInput, FormatError> {
    let file: KraalFile = serde_json::from_str(text).map_err(|e| {
        err(
            format!("line {}, column {}", e.line(), e.column()),
            e.to_string(),
        )
    })?;
    if ![2, 6].contains(&file.games_per_pairing) {
        return Err(err("games_per_pairing", "must be 2 or 6"));
    }
    let worth = Worth::of(&file);
    check_ids(&file.players)?;
    let round = file.rounds.len() as u32 + 1;
    if file.total_rounds < round {
        return Err(err(
            "total_rounds",
            format!(
                "{} rounds played already; nothing left to pair",
                file.rounds.len()
            ),
        ));
    }
    let index = Index(
        file.players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id, i))
            .collect(),
    );
    let history = histories(&file, &index, worth)?;
    let (withdrawn, absent) = absences(&file, &index)?;
    let players = file
        .players
        .into_iter()
        .zip(history)
        .map(|(p, h)| SwissPlayer {
            status: if withdrawn.contains(&p.id) {
                Status::Withdrawn
            } else if absent.contains(&p.id) {
                Status::RequestedBye
            } else {
                Status::Active
            },
            entered_round: p.entered_round.unwrap_or_else(|| {
                // A player missing from every round so far joined late.
                h.iter()
                    .position(|e| e.kind != EntryKind::Absent)
                    .map_or(round, |r| r as u32 + 1)
            }),
            id: p.id,
            name: p.name,
            rating: p.rating,
            club: p.club,
            team: p.team,
            relatives: p.relatives,
            history: h,
        })
        .collect();
    Ok(SwissInput {
        round,
        total_rounds: file.total_rounds,
        rules: file.rules,
        players,
        forbidden: file.forbidden,
        waivers: file.waivers,
    })
}

/// What a pairing's games are worth in the file's ranking.
#[derive(Clone, Copy)]
struct Worth {
    ranking: Ranking,
    /// The games of a pairing, 2 or 6.
    games: Points,
    /// The points of a pairing won and of one drawn.
    won: Points,
    drawn: Points,
}

impl Worth {
    fn of(file: &KraalFile) -> Self {
        let games = file.games_per_pairing as Points;
        let (won, drawn) = match file.ranking {
            Ranking::GamePoints => (games * POINT, games * POINT / 2),
            Ranking::MatchPoints => (2 * POINT, POINT),
        };
        Worth {
            ranking: file.ranking,
            games,
            won,
            drawn,
        }
    }
}

/// Each player's id is given once, and none is 0 (a bye's mark).
fn check_ids(players: &[KraalPlayer]) -> Result<(), FormatError> {
    let mut ids = HashSet::new();
    for (i, p) in players.iter().enumerate() {
        if !ids.insert(p.id) {
            return Err(err(
                format!("players[{i}].id"),
                format!("id {} appears twice", p.id),
            ));
        }
        if p.id == 0 {
            return Err(err(
                format!("players[{i}].id"),
                "ids start at 1 (0 marks a bye)",
            ));
        }
    }
    Ok(())
}

/// The players' places in the file's list, by id.
struct Index(HashMap<PlayerId, usize>);

impl Index {
    /// The place of player `id`, named at `at` in the file, or the error
    /// that no such player is listed.
    fn known(&self, id: PlayerId, at: String) -> Result<usize, FormatError> {
        self.0
            .get(&id)
            .copied()
            .ok_or_else(|| err(at, format!("unknown player {id}")))
    }
}

/// Each player's entries in the rounds played, in the players' order: a
/// pairing or a bye, at most one a round, and absent from a round that
/// names them nowhere.
fn histories(
    file: &KraalFile,
    index: &Index,
    worth: Worth,
) -> Result<Vec<Vec<RoundEntry>>, FormatError> {
    let mut history: Vec<Vec<RoundEntry>> = vec![Vec::new(); file.players.len()];
    for (r, rd) in file.rounds.iter().enumerate() {
        let mut entry: Vec<Option<RoundEntry>> = vec![None; file.players.len()];
        let mut put = |i: usize, e: RoundEntry, at: String| -> Result<(), FormatError> {
            if entry[i].is_some() {
                return Err(err(at, "player appears twice in this round"));
            }
            entry[i] = Some(e);
            Ok(())
        };
        for (k, p) in rd.pairings.iter().enumerate() {
            let at = format!("rounds[{r}].pairings[{k}]");
            let a = index.known(p.first, format!("{at}.first"))?;
            let b = index.known(p.second, format!("{at}.second"))?;
            if a == b {
                return Err(err(format!("{at}.second"), "a player cannot meet themself"));
            }
            let (ea, eb) = match p.forfeit.as_deref() {
                Some(who) => forfeit_entries(p, who, &at, worth)?,
                None => played_entries(p, &at, worth)?,
            };
            put(a, ea, format!("{at}.first"))?;
            put(b, eb, format!("{at}.second"))?;
        }
        for (k, by) in rd.byes.iter().enumerate() {
            let at = format!("rounds[{r}].byes[{k}]");
            let i = index.known(by.player, format!("{at}.player"))?;
            let e = bye_entry(
                &by.kind,
                file.bye_value,
                worth.won,
                worth.drawn,
                &format!("{at}.kind"),
            )?;
            put(i, e, format!("{at}.player"))?;
        }
        for (i, h) in history.iter_mut().enumerate() {
            h.push(entry[i].take().unwrap_or(RoundEntry {
                kind: EntryKind::Absent,
                opponent: None,
                points: 0,
            }));
        }
    }
    Ok(history)
}

/// The first and second player's entries of a pairing one of them did not
/// come to (`who`: "first" or "second"): the one present wins it.
fn forfeit_entries(
    p: &KraalPairing,
    who: &str,
    at: &str,
    worth: Worth,
) -> Result<(RoundEntry, RoundEntry), FormatError> {
    let first_absent = match who {
        "first" => true,
        "second" => false,
        other => {
            return Err(err(
                format!("{at}.forfeit"),
                format!("\"{other}\": expected \"first\" or \"second\""),
            ))
        }
    };
    let win = |o| RoundEntry {
        kind: EntryKind::ForfeitWin,
        opponent: Some(o),
        points: worth.won,
    };
    let loss = |o| RoundEntry {
        kind: EntryKind::ForfeitLoss,
        opponent: Some(o),
        points: 0,
    };
    Ok(if first_absent {
        (loss(p.second), win(p.first))
    } else {
        (win(p.second), loss(p.first))
    })
}

/// The first and second player's entries of a pairing played, from the
/// first player's points in each game (1, 0.5 or 0), scored as the file's
/// ranking counts.
fn played_entries(
    p: &KraalPairing,
    at: &str,
    worth: Worth,
) -> Result<(RoundEntry, RoundEntry), FormatError> {
    let games = worth.games;
    if p.games.len() as Points != games {
        return Err(err(
            format!("{at}.games"),
            format!("{} results for a {}-game pairing", p.games.len(), games),
        ));
    }
    let mut pa: Points = 0;
    for (g, &x) in p.games.iter().enumerate() {
        let t = (x * 10.0).round();
        if ![0.0, 5.0, 10.0].contains(&t) || (x * 10.0 - t).abs() > 1e-9 {
            return Err(err(
                format!("{at}.games[{g}]"),
                format!("{x}: expected 1, 0.5 or 0"),
            ));
        }
        pa += t as Points;
    }
    let pb = games * POINT - pa;
    let (won, drawn) = (worth.won, worth.drawn);
    let (sa, sb) = match worth.ranking {
        Ranking::GamePoints => (pa, pb),
        Ranking::MatchPoints => match pa.cmp(&pb) {
            std::cmp::Ordering::Greater => (won, 0),
            std::cmp::Ordering::Equal => (drawn, drawn),
            std::cmp::Ordering::Less => (0, won),
        },
    };
    Ok((
        RoundEntry {
            kind: EntryKind::Played,
            opponent: Some(p.second),
            points: sa,
        },
        RoundEntry {
            kind: EntryKind::Played,
            opponent: Some(p.first),
            points: sb,
        },
    ))
}

/// The players withdrawn and those who asked for a bye in the round being
/// paired, each a listed player, and the pairs kept apart, each of listed
/// players.
fn absences(
    file: &KraalFile,
    index: &Index,
) -> Result<(HashSet<PlayerId>, HashSet<PlayerId>), FormatError> {
    let withdrawn: HashSet<PlayerId> = file.withdrawn.iter().copied().collect();
    for (k, w) in file.withdrawn.iter().enumerate() {
        index.known(*w, format!("withdrawn[{k}]"))?;
    }
    let mut absent = HashSet::new();
    for (k, a) in file.absent.iter().enumerate() {
        index.known(a.player, format!("absent[{k}].player"))?;
        if !["half", "zero"].contains(&a.kind.as_str()) {
            return Err(err(
                format!("absent[{k}].kind"),
                "a requested bye is \"half\" or \"zero\"",
            ));
        }
        absent.insert(a.player);
    }
    for (k, f) in file.forbidden.iter().enumerate() {
        index.known(f.a, format!("forbidden[{k}].a"))?;
        index.known(f.b, format!("forbidden[{k}].b"))?;
    }
    Ok((withdrawn, absent))
}

fn bye_entry(
    kind: &str,
    bye: ByeValue,
    won: Points,
    drawn: Points,
    at: &str,
) -> Result<RoundEntry, FormatError> {
    let (k, points) = match kind {
        "allocated" => (
            EntryKind::AllocatedBye,
            match bye {
                ByeValue::Win => won,
                ByeValue::Draw => drawn,
                ByeValue::Nothing => 0,
            },
        ),
        "half" => (EntryKind::RequestedBye, drawn),
        "zero" => (EntryKind::RequestedBye, 0),
        other => {
            return Err(err(
                at,
                format!("\"{other}\": expected \"allocated\", \"half\" or \"zero\""),
            ))
        }
    };
    Ok(RoundEntry {
        kind: k,
        opponent: None,
        points,
    })
}

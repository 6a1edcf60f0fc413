//! Tournament files the `kraal pair` command reads: Kraal's own JSON format
//! and FIDE TRF. Both become a [`SwissInput`] for the next round. The layout
//! of each is documented in docs/pairing.md.
//!
//! Parsing is pure (text in, data out) and never panics on bad input: every
//! error names the line (and, for TRF, the field) that is wrong.

use std::collections::{HashMap, HashSet};

use serde::Deserialize;

use super::swiss::{EntryKind, RoundEntry, Status, SwissInput, SwissPlayer};
use super::{ForbiddenPair, PlayerId, Points, RuleSet, Waiver, POINT};
use crate::tournament::{ByeValue, Ranking};

/// A file that could not be read as a tournament.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {message}")]
pub struct FormatError {
    /// "line 12, field rating" or "rounds[2].pairings[0].second".
    pub location: String,
    pub message: String,
}

fn err(location: impl Into<String>, message: impl Into<String>) -> FormatError {
    FormatError {
        location: location.into(),
        message: message.into(),
    }
}

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
    let games = file.games_per_pairing as Points;
    let (won, drawn) = match file.ranking {
        Ranking::GamePoints => (games * POINT, games * POINT / 2),
        Ranking::MatchPoints => (2 * POINT, POINT),
    };
    let mut ids = HashSet::new();
    for (i, p) in file.players.iter().enumerate() {
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
    let index: HashMap<PlayerId, usize> = file
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id, i))
        .collect();
    let mut history: Vec<Vec<RoundEntry>> = vec![Vec::new(); file.players.len()];
    let known = |id: PlayerId, at: String| -> Result<usize, FormatError> {
        index
            .get(&id)
            .copied()
            .ok_or_else(|| err(at, format!("unknown player {id}")))
    };
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
            let a = known(p.first, format!("{at}.first"))?;
            let b = known(p.second, format!("{at}.second"))?;
            if a == b {
                return Err(err(format!("{at}.second"), "a player cannot meet themself"));
            }
            let (ea, eb) = match p.forfeit.as_deref() {
                Some(who) => {
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
                        points: won,
                    };
                    let loss = |o| RoundEntry {
                        kind: EntryKind::ForfeitLoss,
                        opponent: Some(o),
                        points: 0,
                    };
                    if first_absent {
                        (loss(p.second), win(p.first))
                    } else {
                        (win(p.second), loss(p.first))
                    }
                }
                None => {
                    if p.games.len() != file.games_per_pairing as usize {
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
                    let (sa, sb) = match file.ranking {
                        Ranking::GamePoints => (pa, pb),
                        Ranking::MatchPoints => match pa.cmp(&pb) {
                            std::cmp::Ordering::Greater => (won, 0),
                            std::cmp::Ordering::Equal => (drawn, drawn),
                            std::cmp::Ordering::Less => (0, won),
                        },
                    };
                    (
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
                    )
                }
            };
            put(a, ea, format!("{at}.first"))?;
            put(b, eb, format!("{at}.second"))?;
        }
        for (k, by) in rd.byes.iter().enumerate() {
            let at = format!("rounds[{r}].byes[{k}]");
            let i = known(by.player, format!("{at}.player"))?;
            let e = bye_entry(&by.kind, file.bye_value, won, drawn, &format!("{at}.kind"))?;
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
    let withdrawn: HashSet<PlayerId> = file.withdrawn.iter().copied().collect();
    for (k, w) in file.withdrawn.iter().enumerate() {
        known(*w, format!("withdrawn[{k}]"))?;
    }
    let mut absent = HashSet::new();
    for (k, a) in file.absent.iter().enumerate() {
        known(a.player, format!("absent[{k}].player"))?;
        if !["half", "zero"].contains(&a.kind.as_str()) {
            return Err(err(
                format!("absent[{k}].kind"),
                "a requested bye is \"half\" or \"zero\"",
            ));
        }
        absent.insert(a.player);
    }
    for (k, f) in file.forbidden.iter().enumerate() {
        known(f.a, format!("forbidden[{k}].a"))?;
        known(f.b, format!("forbidden[{k}].b"))?;
    }
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

/// Point values of a TRF file (`BBW` ... `BBU`), in tenths.
#[derive(Debug, Clone, Copy)]
struct PointSystem {
    win: Points,
    draw: Points,
    loss: Points,
    zero_bye: Points,
    forfeit_loss: Points,
    allocated_bye: Points,
}

fn trf_points(s: &str, at: &str) -> Result<Points, FormatError> {
    let s = s.trim();
    let bad = || {
        err(
            at,
            format!("\"{s}\" is not a number of points with at most one decimal"),
        )
    };
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if frac.len() > 1 || whole.is_empty() && frac.is_empty() {
        return Err(bad());
    }
    let w: Points = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| bad())?
    };
    let f: Points = if frac.is_empty() {
        0
    } else {
        frac.parse().map_err(|_| bad())?
    };
    if w < 0 {
        return Err(bad());
    }
    Ok(w * POINT + f)
}

/// The characters at 1-based columns `from..=to` of a line, or "" past its end.
fn cols(line: &str, from: usize, to: usize) -> &str {
    let b = line.as_bytes();
    if from > b.len() {
        return "";
    }
    let to = to.min(b.len());
    std::str::from_utf8(&b[from - 1..to]).unwrap_or("")
}

/// Reads a FIDE TRF file and builds the input for the next round.
///
/// Lines used: `001` players (starting rank, name, rating, and per round
/// opponent, colour, result; colours are read and ignored), `XXR` total
/// rounds, `XXP` forbidden groups (all rounds), `260 FROM TO ids...`
/// forbidden groups for a range of rounds, and the point system `BBW`,
/// `BBD`, `BBL`, `BBZ`, `BBF`, `BBU`; and Kraal's own lines (see
/// [`write_trf`]): `KRS` the rule set (else `rules`), `KCL` a player's
/// club, `KRL` two relatives, `KWV` a waived ban, `KPT` a player's points
/// per round where the result codes cannot say them. Other lines are
/// skipped.
pub fn parse_trf(text: &str, rules: RuleSet) -> Result<SwissInput, FormatError> {
    let mut rules = rules;
    let mut clubs: HashMap<u32, (usize, String)> = HashMap::new();
    let mut relatives: Vec<(usize, u32, u32)> = Vec::new();
    let mut waived: Vec<(usize, u32, u32, String)> = Vec::new();
    let mut points_lines: Vec<(usize, u32, Vec<Points>)> = Vec::new();
    let mut ps = PointSystem {
        win: POINT,
        draw: POINT / 2,
        loss: 0,
        zero_bye: 0,
        forfeit_loss: 0,
        allocated_bye: POINT,
    };
    let mut bbu_set = false;
    let mut total_rounds = None;
    let mut forbidden = Vec::new();
    // (line number, rank, name, rating, per-round (opponent, result char))
    type Row = (usize, u32, String, Option<i32>, Vec<(u32, char)>);
    let mut rows: Vec<Row> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let ln = n + 1;
        let line = raw.trim_end_matches('\r');
        let code = cols(line, 1, 3);
        let at = |field: &str| format!("line {ln}, field {field}");
        match code {
            "001" => {
                let rank_s = cols(line, 5, 8).trim();
                let rank: u32 = rank_s.parse().map_err(|_| {
                    err(at("starting rank"), format!("\"{rank_s}\" is not a number"))
                })?;
                if rank == 0 {
                    return Err(err(at("starting rank"), "ranks start at 1"));
                }
                let name = cols(line, 15, 47).trim().to_string();
                let rating_s = cols(line, 49, 52).trim();
                let rating = if rating_s.is_empty() {
                    None
                } else {
                    Some(rating_s.parse::<i32>().map_err(|_| {
                        err(at("rating"), format!("\"{rating_s}\" is not a number"))
                    })?)
                };
                let mut rounds = Vec::new();
                let mut r = 0;
                loop {
                    let start = 92 + 10 * r;
                    if start > line.len() {
                        break;
                    }
                    let block = cols(line, start, start + 7);
                    let opp_s = cols(line, start, start + 3).trim();
                    let colour = cols(line, start + 5, start + 5);
                    let result = cols(line, start + 7, start + 7);
                    let field = format!("round {} ", r + 1);
                    if block.trim().is_empty() {
                        rounds.push((0, ' '));
                        r += 1;
                        continue;
                    }
                    let opp: u32 = if opp_s.is_empty() {
                        0
                    } else {
                        opp_s.parse().map_err(|_| {
                            err(
                                at(&(field.clone() + "opponent")),
                                format!("\"{opp_s}\" is not a number"),
                            )
                        })?
                    };
                    if !["w", "b", "-", " ", ""].contains(&colour) {
                        return Err(err(
                            at(&(field.clone() + "colour")),
                            format!("\"{colour}\": expected w, b or -"),
                        ));
                    }
                    let res = result.chars().next().unwrap_or(' ');
                    if !"10=+-WDLHFUZ ".contains(res) {
                        return Err(err(
                            at(&(field + "result")),
                            format!("\"{res}\" is not a TRF result code"),
                        ));
                    }
                    let needs_opp = "10=+-WDL".contains(res);
                    if needs_opp && opp == 0 && res != '-' && res != '+' {
                        return Err(err(
                            at(&(field + "opponent")),
                            "a game result needs an opponent",
                        ));
                    }
                    rounds.push((opp, res));
                    r += 1;
                }
                rows.push((ln, rank, name, rating, rounds));
            }
            "XXR" => {
                let s = line[3..].trim();
                total_rounds = Some(s.parse::<u32>().map_err(|_| {
                    err(at("number of rounds"), format!("\"{s}\" is not a number"))
                })?);
            }
            "XXP" | "260" => {
                let mut it = line[3..].split_whitespace();
                let (from, to) = if code == "260" {
                    let mut num = |what: &str| -> Result<u32, FormatError> {
                        let s = it.next().unwrap_or("");
                        s.parse()
                            .map_err(|_| err(at(what), format!("\"{s}\" is not a round number")))
                    };
                    (Some(num("first round")?), Some(num("last round")?))
                } else {
                    (None, None)
                };
                let mut group = Vec::new();
                for s in it {
                    group.push(s.parse::<u32>().map_err(|_| {
                        err(at("player"), format!("\"{s}\" is not a starting rank"))
                    })?);
                }
                for (i, &a) in group.iter().enumerate() {
                    for &b in &group[i + 1..] {
                        forbidden.push(ForbiddenPair {
                            a,
                            b,
                            from_round: from,
                            to_round: to,
                        });
                    }
                }
            }
            "KRS" => {
                let name = line[3..].trim();
                rules = name
                    .parse()
                    .map_err(|e: crate::named::UnknownName| err(at("rule set"), e.to_string()))?;
            }
            "KCL" | "KRL" | "KWV" | "KPT" => {
                let rest = line.get(3..).unwrap_or("");
                let mut words = rest.split_whitespace();
                let mut rank = |what: &str| -> Result<u32, FormatError> {
                    let s = words.next().unwrap_or("");
                    s.parse()
                        .map_err(|_| err(at(what), format!("\"{s}\" is not a starting rank")))
                };
                match code {
                    "KCL" => {
                        let r = rank("player")?;
                        let club = rest.trim_start().split_once(' ').map_or("", |x| x.1).trim();
                        if club.is_empty() {
                            return Err(err(at("club"), "the club is missing"));
                        }
                        clubs.insert(r, (ln, club.to_string()));
                    }
                    "KRL" => {
                        let a = rank("first player")?;
                        let b = rank("second player")?;
                        relatives.push((ln, a, b));
                    }
                    "KWV" => {
                        let a = rank("first player")?;
                        let b = rank("second player")?;
                        let reason = words.collect::<Vec<_>>().join(" ");
                        waived.push((ln, a, b, reason));
                    }
                    _ => {
                        let r = rank("player")?;
                        let mut list = Vec::new();
                        for (k, w) in words.enumerate() {
                            list.push(trf_points(w, &at(&format!("round {} points", k + 1)))?);
                        }
                        points_lines.push((ln, r, list));
                    }
                }
            }
            "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => {
                let v = trf_points(cols(line, 4, line.len()), &at("points"))?;
                match code {
                    "BBW" => ps.win = v,
                    "BBD" => ps.draw = v,
                    "BBL" => ps.loss = v,
                    "BBZ" => ps.zero_bye = v,
                    "BBF" => ps.forfeit_loss = v,
                    _ => {
                        ps.allocated_bye = v;
                        bbu_set = true;
                    }
                }
            }
            _ => {}
        }
    }
    if !bbu_set {
        ps.allocated_bye = ps.win;
    }
    let mut seen = HashMap::new();
    for (ln, rank, ..) in &rows {
        if let Some(prev) = seen.insert(*rank, *ln) {
            return Err(err(
                format!("line {ln}, field starting rank"),
                format!("rank {rank} already used on line {prev}"),
            ));
        }
    }
    // Rounds played: the last column holding a game with an opponent.
    let played = rows
        .iter()
        .flat_map(|r| {
            r.4.iter()
                .enumerate()
                .filter(|(_, (o, _))| *o != 0)
                .map(|(i, _)| i + 1)
        })
        .max()
        .unwrap_or(0);
    let round = played as u32 + 1;
    let total_rounds = total_rounds.unwrap_or(round).max(round);
    let mut players = Vec::new();
    for (ln, rank, name, rating, rounds) in &rows {
        let mut history = Vec::new();
        for (i, &(opp, res)) in rounds.iter().take(played).enumerate() {
            if opp != 0 && !seen.contains_key(&opp) {
                return Err(err(
                    format!("line {ln}, field round {} opponent", i + 1),
                    format!("no player with starting rank {opp}"),
                ));
            }
            let opponent = (opp != 0).then_some(opp);
            if opponent.is_some() && res == ' ' {
                return Err(err(
                    format!("line {ln}, field round {} result", i + 1),
                    format!(
                        "the pairing with starting rank {opp} has no result yet: round {} is still being played, and the next round is paired once every result is in",
                        i + 1
                    ),
                ));
            }
            let (kind, points) = match res {
                '1' | 'W' => (EntryKind::Played, ps.win),
                '=' | 'D' => (EntryKind::Played, ps.draw),
                '0' | 'L' => (EntryKind::Played, ps.loss),
                '+' if opponent.is_some() => (EntryKind::ForfeitWin, ps.win),
                '+' => (EntryKind::AllocatedBye, ps.win),
                '-' if opponent.is_some() => (EntryKind::ForfeitLoss, ps.forfeit_loss),
                '-' => (EntryKind::Absent, ps.forfeit_loss),
                'H' => (EntryKind::RequestedBye, ps.draw),
                'F' => (EntryKind::RequestedBye, ps.win),
                'U' => (EntryKind::AllocatedBye, ps.allocated_bye),
                'Z' => (EntryKind::RequestedBye, ps.zero_bye),
                _ => (EntryKind::Absent, 0),
            };
            history.push(RoundEntry {
                kind,
                opponent,
                points,
            });
        }
        while history.len() < played {
            history.push(RoundEntry {
                kind: EntryKind::Absent,
                opponent: None,
                points: 0,
            });
        }
        let next = rounds.get(played).map(|x| x.1).unwrap_or(' ');
        let status = match next {
            'H' | 'Z' | 'F' | '-' => Status::RequestedBye,
            _ => Status::Active,
        };
        players.push(SwissPlayer {
            id: *rank,
            name: name.clone(),
            rating: *rating,
            club: clubs.get(rank).map(|c| c.1.clone()),
            team: None,
            relatives: Vec::new(),
            entered_round: 1,
            history,
            status,
        });
    }
    let unknown = |ln: usize, what: &str, r: u32| {
        err(
            format!("line {ln}, field {what}"),
            format!("no player with starting rank {r}"),
        )
    };
    for (r, (ln, _)) in &clubs {
        if !seen.contains_key(r) {
            return Err(unknown(*ln, "player", *r));
        }
    }
    let index: HashMap<u32, usize> = players.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    for &(ln, a, b) in &relatives {
        let (Some(&i), Some(&j)) = (index.get(&a), index.get(&b)) else {
            return Err(unknown(
                ln,
                "player",
                if index.contains_key(&a) { b } else { a },
            ));
        };
        players[i].relatives.push(b);
        players[j].relatives.push(a);
    }
    for (ln, r, list) in &points_lines {
        let Some(&i) = index.get(r) else {
            return Err(unknown(*ln, "player", *r));
        };
        if list.len() > players[i].history.len() {
            return Err(err(
                format!(
                    "line {ln}, field round {} points",
                    players[i].history.len() + 1
                ),
                format!("only {} rounds have been played", players[i].history.len()),
            ));
        }
        for (e, p) in players[i].history.iter_mut().zip(list) {
            e.points = *p;
        }
    }
    let mut waivers = Vec::new();
    for (ln, a, b, reason) in &waived {
        for x in [a, b] {
            if !index.contains_key(x) {
                return Err(unknown(*ln, "player", *x));
            }
        }
        waivers.push(Waiver {
            a: *a,
            b: *b,
            reason: reason.clone(),
        });
    }
    // In TRF the starting rank is the pairing number; late entries already
    // carry the next ranks. The engine numbers by rating, so the rank order
    // is handed over as a descending rating.
    players.sort_by_key(|p| p.id);
    let n = players.len();
    for (i, p) in players.iter_mut().enumerate() {
        p.rating = Some((n - i) as i32);
    }
    for f in &forbidden {
        for x in [f.a, f.b] {
            if !seen.contains_key(&x) {
                return Err(err("XXP/260", format!("no player with starting rank {x}")));
            }
        }
    }
    Ok(SwissInput {
        round,
        total_rounds,
        rules,
        players,
        forbidden,
        waivers,
    })
}

/// What a TRF file says besides its players' rounds, for [`write_trf`].
#[derive(Debug, Clone, Default)]
pub struct TrfEvent {
    pub name: String,
    /// The type of tournament (TRF's `092` line).
    pub kind: String,
    pub venue: String,
    /// `YYYY/MM/DD`, as TRF writes dates.
    pub starts_on: Option<String>,
    pub ends_on: Option<String>,
    /// What a won pairing scores (the games of a mini-match, or 2 match
    /// points): TRF's `BBW`.
    pub win: Points,
    /// What the pairing-allocated bye scores: TRF's `BBU`.
    pub allocated_bye: Points,
    /// The ratings to print: the input's are the engine's ordering values
    /// (a seed is a rating above all).
    pub ratings: HashMap<PlayerId, Option<i32>>,
    /// Federation ids, printed when they fit TRF's eleven columns.
    pub federation_ids: HashMap<PlayerId, String>,
    /// Requested byes of the round to pair: `true` for a half point.
    pub requested_half: HashMap<PlayerId, bool>,
    /// Pairings of the rounds written that still wait for a result (a round
    /// in progress, or a mini-match with games still to play), by (player,
    /// round): the opponent. They are written paired, with a blank result.
    pub pending: HashMap<(PlayerId, u32), PlayerId>,
}

/// Writes the input for the next round as a FIDE TRF file that
/// [`parse_trf`] reads back to the same pairing.
///
/// Starting ranks are the engine's pairing numbers. Morabaraba has no
/// colours: `w` marks the player with the lower pairing number. A
/// mini-match is one round: `1`, `=` or `0` by who took more games, with
/// the point system (`BBW` = a won pairing, `BBD` half of it). Where those
/// codes cannot carry a player's points (a 1½–½ mini-match scored by game
/// points), a `KPT rank points...` line gives every round's points. Kraal's
/// other lines, which programs that do not know them skip: `KRS` the rule
/// set, `KCL rank club`, `KRL rank rank` two close relatives, and `KWV rank
/// rank reason` a kept-apart pair the referee waived. A withdrawn player is
/// absent (`-`) in the round to pair.
pub fn write_trf(input: &SwissInput, event: &TrfEvent) -> String {
    use std::fmt::Write;
    let numbers = super::swiss::pairing_numbers(&input.players);
    let rank = |id: PlayerId| numbers.get(&id).copied().unwrap_or(0);
    let mut players: Vec<&SwissPlayer> = input.players.iter().collect();
    players.sort_by_key(|p| rank(p.id));
    let by_id: HashMap<PlayerId, &SwissPlayer> = players.iter().map(|p| (p.id, *p)).collect();
    let half = event.win / 2;
    let pts = |p: Points| format!("{}.{}", p / POINT, p % POINT);
    // Each round of each player as written: opponent's rank (0 for none),
    // colour, result code and the points the code stands for; `None` for a
    // round before the player entered (left blank).
    type Code = (u32, char, char, Points);
    let round_code = |p: &SwissPlayer, i: usize, e: &RoundEntry| -> Option<Code> {
        let colour_against = |opp: u32| if rank(p.id) < opp { 'w' } else { 'b' };
        if let Some(o) = event.pending.get(&(p.id, i as u32 + 1)) {
            let opp = rank(*o);
            return Some((opp, colour_against(opp), ' ', 0));
        }
        Some(match e.kind {
            EntryKind::Played => {
                let o = e.opponent.and_then(|o| by_id.get(&o));
                let theirs = o.and_then(|o| o.history.get(i)).map_or(0, |x| x.points);
                let (code, value) = match e.points.cmp(&theirs) {
                    std::cmp::Ordering::Greater => ('1', event.win),
                    std::cmp::Ordering::Equal => ('=', half),
                    std::cmp::Ordering::Less => ('0', 0),
                };
                let opp = e.opponent.map_or(0, rank);
                (opp, colour_against(opp), code, value)
            }
            EntryKind::ForfeitWin => (e.opponent.map_or(0, rank), '-', '+', event.win),
            EntryKind::ForfeitLoss => (e.opponent.map_or(0, rank), '-', '-', 0),
            EntryKind::AllocatedBye => (0, '-', 'U', event.allocated_bye),
            EntryKind::RequestedBye => match e.points {
                0 => (0, '-', 'Z', 0),
                x if x == event.win => (0, '-', 'F', event.win),
                _ => (0, '-', 'H', half),
            },
            // Not yet entered: a blank round, as TRF leaves it.
            EntryKind::Absent if (i as u32) + 1 < p.entered_round => return None,
            EntryKind::Absent => (0, '-', '-', 0),
        })
    };
    let codes: HashMap<PlayerId, Vec<Option<Code>>> = players
        .iter()
        .map(|p| {
            let list = p
                .history
                .iter()
                .enumerate()
                .map(|(i, e)| round_code(p, i, e))
                .collect();
            (p.id, list)
        })
        .collect();
    // The points column is what the codes say (other programs add them up
    // from `BBW` ...); the games' points, where they differ, go in `KPT`.
    let total = |p: &SwissPlayer| -> Points { codes[&p.id].iter().flatten().map(|c| c.3).sum() };
    // Places by score, then pairing number (TRF's rank column).
    let mut order = players.clone();
    order.sort_by(|a, b| total(b).cmp(&total(a)).then(rank(a.id).cmp(&rank(b.id))));
    let place: HashMap<PlayerId, usize> = order
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id, i + 1))
        .collect();

    let mut out = String::new();
    let one_line = |s: &str| s.replace(['\r', '\n'], " ");
    let _ = writeln!(out, "012 {}", one_line(&event.name));
    if !event.venue.is_empty() {
        let _ = writeln!(out, "022 {}", one_line(&event.venue));
    }
    if let Some(d) = &event.starts_on {
        let _ = writeln!(out, "042 {d}");
    }
    if let Some(d) = &event.ends_on {
        let _ = writeln!(out, "052 {d}");
    }
    let _ = writeln!(out, "062 {}", players.len());
    if !event.kind.is_empty() {
        let _ = writeln!(out, "092 {}", one_line(&event.kind));
    }
    let _ = writeln!(out, "XXR {}", input.total_rounds);
    let _ = writeln!(out, "KRS {}", input.rules.as_str());
    for (code, value) in [
        ("BBW", event.win),
        ("BBD", half),
        ("BBL", 0),
        ("BBZ", 0),
        ("BBF", 0),
        ("BBU", event.allocated_bye),
    ] {
        let _ = writeln!(out, "{code} {:>4}", pts(value));
    }

    let mut points_lines = Vec::new();
    for p in &players {
        // Name: at most 33 bytes, cut at a character, padded to 33 bytes
        // (the columns are counted in bytes).
        let mut name = one_line(&p.name);
        while name.len() > 33 {
            name.pop();
        }
        let rating = event
            .ratings
            .get(&p.id)
            .copied()
            .flatten()
            .filter(|r| (0..=9999).contains(r))
            .map(|r| r.to_string())
            .unwrap_or_default();
        let fid = event
            .federation_ids
            .get(&p.id)
            .filter(|f| f.len() <= 11 && f.chars().all(|c| c.is_ascii_graphic()))
            .cloned()
            .unwrap_or_default();
        let mut line = format!(
            "001 {:>4}      {name:<pad$} {rating:>4}     {fid:>11}            {:>4} {:>4}",
            rank(p.id),
            pts(total(p)),
            place[&p.id],
            pad = 33 - (name.len() - name.chars().count()).min(33),
        );
        // The points each round is worth to Kraal: a pending round none yet.
        let mut kraal_points = Vec::new();
        let mut coded = Vec::new();
        for (i, (e, c)) in p.history.iter().zip(&codes[&p.id]).enumerate() {
            let pending = event.pending.contains_key(&(p.id, i as u32 + 1));
            kraal_points.push(if pending { 0 } else { e.points });
            let Some((opp, colour, code, value)) = *c else {
                coded.push(0);
                line.push_str("          ");
                continue;
            };
            coded.push(value);
            let opp = if opp == 0 {
                "0000".to_string()
            } else {
                format!("{opp:>4}")
            };
            let _ = write!(line, "  {opp} {colour} {code}");
        }
        match p.status {
            Status::Active => {}
            Status::Withdrawn => line.push_str("  0000 - -"),
            Status::RequestedBye => {
                let code = if event.requested_half.get(&p.id).copied().unwrap_or(false) {
                    'H'
                } else {
                    'Z'
                };
                let _ = write!(line, "  0000 - {code}");
            }
        }
        let _ = writeln!(out, "{line}");
        if coded != kraal_points {
            let list: Vec<String> = kraal_points.iter().map(|x| pts(*x)).collect();
            points_lines.push(format!("KPT {:>4} {}", rank(p.id), list.join(" ")));
        }
    }
    for l in points_lines {
        let _ = writeln!(out, "{l}");
    }
    for p in &players {
        if let Some(c) = p.club.as_deref().filter(|c| !c.trim().is_empty()) {
            let _ = writeln!(out, "KCL {:>4} {}", rank(p.id), one_line(c.trim()));
        }
    }
    for p in &players {
        for r in &p.relatives {
            if rank(p.id) < rank(*r) {
                let _ = writeln!(out, "KRL {:>4} {:>4}", rank(p.id), rank(*r));
            }
        }
    }
    for f in &input.forbidden {
        let (a, b) = (rank(f.a), rank(f.b));
        match (f.from_round, f.to_round) {
            (None, None) => {
                let _ = writeln!(out, "XXP {a:>4} {b:>4}");
            }
            (from, to) => {
                let _ = writeln!(
                    out,
                    "260 {} {} {a:>4} {b:>4}",
                    from.unwrap_or(1),
                    to.unwrap_or(input.total_rounds.max(input.round))
                );
            }
        }
    }
    for w in &input.waivers {
        let _ = writeln!(
            out,
            "KWV {:>4} {:>4} {}",
            rank(w.a),
            rank(w.b),
            one_line(&w.reason)
        );
    }
    out
}

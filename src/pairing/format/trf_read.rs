//! Reading a FIDE TRF file, one function per record type.

use std::collections::HashMap;

use super::{err, FormatError};
use crate::pairing::swiss::{EntryKind, RoundEntry, Status, SwissInput, SwissPlayer};
use crate::pairing::{ForbiddenPair, Points, RuleSet, Waiver, POINT};

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
    let mut file = TrfLines::new(rules);
    for (n, raw) in text.lines().enumerate() {
        let ln = n + 1;
        let line = raw.trim_end_matches('\r');
        let code = cols(line, 1, 3);
        let at = |field: &str| format!("line {ln}, field {field}");
        match code {
            "001" => file.rows.push(player_line(line, ln, &at)?),
            "XXR" => file.total_rounds = Some(rounds_line(line, &at)?),
            "XXP" | "260" => forbidden_line(code, line, &at, &mut file.forbidden)?,
            "KRS" => file.rules = rule_set_line(line, &at)?,
            "KCL" => file.club_line(line, ln, &at)?,
            "KRL" => file.relatives_line(line, ln, &at)?,
            "KWV" => file.waiver_line(line, ln, &at)?,
            "KPT" => file.points_line(line, ln, &at)?,
            "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => {
                file.point_system_line(code, line, &at)?
            }
            _ => {}
        }
    }
    file.finish()
}

/// "line N, field F" for the line being read.
type At<'x> = &'x dyn Fn(&str) -> String;

/// (line number, rank, name, rating, per-round (opponent, result char))
type Row = (usize, u32, String, Option<i32>, Vec<(u32, char)>);

/// A `001` line: a player's starting rank, name and rating, and per round
/// the opponent, colour (read and ignored) and result.
fn player_line(line: &str, ln: usize, at: At) -> Result<Row, FormatError> {
    let rank_s = cols(line, 5, 8).trim();
    let rank: u32 = rank_s
        .parse()
        .map_err(|_| err(at("starting rank"), format!("\"{rank_s}\" is not a number")))?;
    if rank == 0 {
        return Err(err(at("starting rank"), "ranks start at 1"));
    }
    let name = cols(line, 15, 47).trim().to_string();
    let rating_s = cols(line, 49, 52).trim();
    let rating = if rating_s.is_empty() {
        None
    } else {
        Some(
            rating_s
                .parse::<i32>()
                .map_err(|_| err(at("rating"), format!("\"{rating_s}\" is not a number")))?,
        )
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
    Ok((ln, rank, name, rating, rounds))
}

/// An `XXR` line: the number of rounds.
fn rounds_line(line: &str, at: At) -> Result<u32, FormatError> {
    let s = line[3..].trim();
    s.parse::<u32>()
        .map_err(|_| err(at("number of rounds"), format!("\"{s}\" is not a number")))
}

/// An `XXP` line (a forbidden group for every round) or a `260 FROM TO`
/// line (for a range of rounds): every two of its players.
fn forbidden_line(
    code: &str,
    line: &str,
    at: At,
    forbidden: &mut Vec<ForbiddenPair>,
) -> Result<(), FormatError> {
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
        group.push(
            s.parse::<u32>()
                .map_err(|_| err(at("player"), format!("\"{s}\" is not a starting rank")))?,
        );
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
    Ok(())
}

/// A `KRS` line: Kraal's rule set.
fn rule_set_line(line: &str, at: At) -> Result<RuleSet, FormatError> {
    let name = line[3..].trim();
    name.parse()
        .map_err(|e: crate::named::UnknownName| err(at("rule set"), e.to_string()))
}

/// The next word of a Kraal line as a starting rank.
fn next_rank(
    words: &mut std::str::SplitWhitespace,
    what: &str,
    at: At,
) -> Result<u32, FormatError> {
    let s = words.next().unwrap_or("");
    s.parse()
        .map_err(|_| err(at(what), format!("\"{s}\" is not a starting rank")))
}

/// What the lines of a TRF file said, gathered before the players are
/// built from them.
struct TrfLines {
    rules: RuleSet,
    clubs: HashMap<u32, (usize, String)>,
    relatives: Vec<(usize, u32, u32)>,
    waived: Vec<(usize, u32, u32, String)>,
    points_lines: Vec<(usize, u32, Vec<Points>)>,
    ps: PointSystem,
    bbu_set: bool,
    total_rounds: Option<u32>,
    forbidden: Vec<ForbiddenPair>,
    rows: Vec<Row>,
}

impl TrfLines {
    fn new(rules: RuleSet) -> Self {
        TrfLines {
            rules,
            clubs: HashMap::new(),
            relatives: Vec::new(),
            waived: Vec::new(),
            points_lines: Vec::new(),
            ps: PointSystem {
                win: POINT,
                draw: POINT / 2,
                loss: 0,
                zero_bye: 0,
                forfeit_loss: 0,
                allocated_bye: POINT,
            },
            bbu_set: false,
            total_rounds: None,
            forbidden: Vec::new(),
            rows: Vec::new(),
        }
    }

    /// A `KCL rank club` line: a player's club.
    fn club_line(&mut self, line: &str, ln: usize, at: At) -> Result<(), FormatError> {
        let rest = line.get(3..).unwrap_or("");
        let mut words = rest.split_whitespace();
        let r = next_rank(&mut words, "player", at)?;
        let club = rest.trim_start().split_once(' ').map_or("", |x| x.1).trim();
        if club.is_empty() {
            return Err(err(at("club"), "the club is missing"));
        }
        self.clubs.insert(r, (ln, club.to_string()));
        Ok(())
    }

    /// A `KRL rank rank` line: two close relatives.
    fn relatives_line(&mut self, line: &str, ln: usize, at: At) -> Result<(), FormatError> {
        let mut words = line.get(3..).unwrap_or("").split_whitespace();
        let a = next_rank(&mut words, "first player", at)?;
        let b = next_rank(&mut words, "second player", at)?;
        self.relatives.push((ln, a, b));
        Ok(())
    }

    /// A `KWV rank rank reason` line: a kept-apart pair the referee waived.
    fn waiver_line(&mut self, line: &str, ln: usize, at: At) -> Result<(), FormatError> {
        let mut words = line.get(3..).unwrap_or("").split_whitespace();
        let a = next_rank(&mut words, "first player", at)?;
        let b = next_rank(&mut words, "second player", at)?;
        let reason = words.collect::<Vec<_>>().join(" ");
        self.waived.push((ln, a, b, reason));
        Ok(())
    }

    /// A `KPT rank points...` line: a player's points per round.
    fn points_line(&mut self, line: &str, ln: usize, at: At) -> Result<(), FormatError> {
        let mut words = line.get(3..).unwrap_or("").split_whitespace();
        let r = next_rank(&mut words, "player", at)?;
        let mut list = Vec::new();
        for (k, w) in words.enumerate() {
            list.push(trf_points(w, &at(&format!("round {} points", k + 1)))?);
        }
        self.points_lines.push((ln, r, list));
        Ok(())
    }

    /// A `BBW`, `BBD`, `BBL`, `BBZ`, `BBF` or `BBU` line: the point system.
    fn point_system_line(&mut self, code: &str, line: &str, at: At) -> Result<(), FormatError> {
        let v = trf_points(cols(line, 4, line.len()), &at("points"))?;
        let ps = &mut self.ps;
        match code {
            "BBW" => ps.win = v,
            "BBD" => ps.draw = v,
            "BBL" => ps.loss = v,
            "BBZ" => ps.zero_bye = v,
            "BBF" => ps.forfeit_loss = v,
            _ => {
                ps.allocated_bye = v;
                self.bbu_set = true;
            }
        }
        Ok(())
    }

    /// The input for the next round, once every line is read.
    fn finish(self) -> Result<SwissInput, FormatError> {
        let TrfLines {
            rules,
            clubs,
            relatives,
            waived,
            points_lines,
            mut ps,
            bbu_set,
            total_rounds,
            forbidden,
            rows,
        } = self;
        if !bbu_set {
            ps.allocated_bye = ps.win;
        }
        let seen = ranks_once(&rows)?;
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
            let history = history(*ln, rounds, played, ps, &seen)?;
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
        for (r, (ln, _)) in &clubs {
            if !seen.contains_key(r) {
                return Err(unknown_rank(*ln, "player", *r));
            }
        }
        let index: HashMap<u32, usize> =
            players.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
        add_relatives(&mut players, &index, &relatives)?;
        set_kraal_points(&mut players, &index, &points_lines)?;
        let waivers = waivers(&waived, &index)?;
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
}

/// The line of each starting rank, each rank on one `001` line only.
fn ranks_once(rows: &[Row]) -> Result<HashMap<u32, usize>, FormatError> {
    let mut seen = HashMap::new();
    for (ln, rank, ..) in rows {
        if let Some(prev) = seen.insert(*rank, *ln) {
            return Err(err(
                format!("line {ln}, field starting rank"),
                format!("rank {rank} already used on line {prev}"),
            ));
        }
    }
    Ok(seen)
}

/// The `played` rounds of the `001` line `ln`, each against a starting
/// rank of the file (`seen`) and with its result, scored by the file's
/// point system; a round the line leaves out is absent.
fn history(
    ln: usize,
    rounds: &[(u32, char)],
    played: usize,
    ps: PointSystem,
    seen: &HashMap<u32, usize>,
) -> Result<Vec<RoundEntry>, FormatError> {
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
    Ok(history)
}

/// The error of a line naming a starting rank no `001` line has.
fn unknown_rank(ln: usize, what: &str, r: u32) -> FormatError {
    err(
        format!("line {ln}, field {what}"),
        format!("no player with starting rank {r}"),
    )
}

/// The close relatives of the `KRL` lines, each pair given to both.
fn add_relatives(
    players: &mut [SwissPlayer],
    index: &HashMap<u32, usize>,
    relatives: &[(usize, u32, u32)],
) -> Result<(), FormatError> {
    for &(ln, a, b) in relatives {
        let (Some(&i), Some(&j)) = (index.get(&a), index.get(&b)) else {
            return Err(unknown_rank(
                ln,
                "player",
                if index.contains_key(&a) { b } else { a },
            ));
        };
        players[i].relatives.push(b);
        players[j].relatives.push(a);
    }
    Ok(())
}

/// The points of the `KPT` lines, each round's as Kraal counted them,
/// in place of what the result codes stand for.
fn set_kraal_points(
    players: &mut [SwissPlayer],
    index: &HashMap<u32, usize>,
    points_lines: &[(usize, u32, Vec<Points>)],
) -> Result<(), FormatError> {
    for (ln, r, list) in points_lines {
        let Some(&i) = index.get(r) else {
            return Err(unknown_rank(*ln, "player", *r));
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
    Ok(())
}

/// The kept-apart pairs the referee waived (`KWV` lines), each of two
/// players of the file.
fn waivers(
    waived: &[(usize, u32, u32, String)],
    index: &HashMap<u32, usize>,
) -> Result<Vec<Waiver>, FormatError> {
    let mut waivers = Vec::new();
    for (ln, a, b, reason) in waived {
        for x in [a, b] {
            if !index.contains_key(x) {
                return Err(unknown_rank(*ln, "player", *x));
            }
        }
        waivers.push(Waiver {
            a: *a,
            b: *b,
            reason: reason.clone(),
        });
    }
    Ok(waivers)
}

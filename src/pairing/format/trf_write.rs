//! Writing a FIDE TRF file that [`parse_trf`](super::parse_trf) reads back.

use std::collections::HashMap;
use std::fmt::Write;

use crate::pairing::swiss::{
    pairing_numbers, EntryKind, RoundEntry, Status, SwissInput, SwissPlayer,
};
use crate::pairing::{PlayerId, Points, POINT};

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
    let trf = Trf::new(input, event);
    let mut out = String::new();
    trf.header(&mut out);
    let mut points_lines = Vec::new();
    for p in &trf.players {
        let (line, points) = trf.player_line(p);
        let _ = writeln!(out, "{line}");
        points_lines.extend(points);
    }
    for l in points_lines {
        let _ = writeln!(out, "{l}");
    }
    trf.kraal_lines(&mut out);
    out
}

/// One round of a player as written: the opponent's rank (0 for none),
/// the colour, the result code and the points the code stands for.
type Code = (u32, char, char, Points);

/// The input as the TRF file numbers and scores it.
struct Trf<'a> {
    input: &'a SwissInput,
    event: &'a TrfEvent,
    /// Starting ranks: the engine's pairing numbers.
    numbers: HashMap<PlayerId, u32>,
    /// The players by starting rank.
    players: Vec<&'a SwissPlayer>,
    by_id: HashMap<PlayerId, &'a SwissPlayer>,
    /// What a drawn pairing scores: TRF's `BBD`.
    half: Points,
    /// Each round of each player as written; `None` for a round before the
    /// player entered (left blank).
    codes: HashMap<PlayerId, Vec<Option<Code>>>,
    /// Places by score, then pairing number (TRF's rank column).
    place: HashMap<PlayerId, usize>,
}

impl<'a> Trf<'a> {
    fn new(input: &'a SwissInput, event: &'a TrfEvent) -> Self {
        let numbers = pairing_numbers(&input.players);
        let mut players: Vec<&SwissPlayer> = input.players.iter().collect();
        players.sort_by_key(|p| numbers.get(&p.id).copied().unwrap_or(0));
        let by_id = players.iter().map(|p| (p.id, *p)).collect();
        let mut trf = Trf {
            input,
            event,
            numbers,
            players,
            by_id,
            half: event.win / 2,
            codes: HashMap::new(),
            place: HashMap::new(),
        };
        trf.codes = trf
            .players
            .iter()
            .map(|p| {
                let list = p
                    .history
                    .iter()
                    .enumerate()
                    .map(|(i, e)| trf.round_code(p, i, e))
                    .collect();
                (p.id, list)
            })
            .collect();
        let mut order = trf.players.clone();
        order.sort_by(|a, b| {
            trf.total(b)
                .cmp(&trf.total(a))
                .then(trf.rank(a.id).cmp(&trf.rank(b.id)))
        });
        trf.place = order
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id, i + 1))
            .collect();
        trf
    }

    /// A player's starting rank.
    fn rank(&self, id: PlayerId) -> u32 {
        self.numbers.get(&id).copied().unwrap_or(0)
    }

    /// Round `i` of `p` as written: the colour `w` for the lower pairing
    /// number, the result code by who took more games, a pending pairing
    /// with a blank result.
    fn round_code(&self, p: &SwissPlayer, i: usize, e: &RoundEntry) -> Option<Code> {
        let event = self.event;
        let colour_against = |opp: u32| if self.rank(p.id) < opp { 'w' } else { 'b' };
        if let Some(o) = event.pending.get(&(p.id, i as u32 + 1)) {
            let opp = self.rank(*o);
            return Some((opp, colour_against(opp), ' ', 0));
        }
        let rank = |o: PlayerId| self.rank(o);
        Some(match e.kind {
            EntryKind::Played => {
                let o = e.opponent.and_then(|o| self.by_id.get(&o));
                let theirs = o.and_then(|o| o.history.get(i)).map_or(0, |x| x.points);
                let (code, value) = match e.points.cmp(&theirs) {
                    std::cmp::Ordering::Greater => ('1', event.win),
                    std::cmp::Ordering::Equal => ('=', self.half),
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
                _ => (0, '-', 'H', self.half),
            },
            // Not yet entered: a blank round, as TRF leaves it.
            EntryKind::Absent if (i as u32) + 1 < p.entered_round => return None,
            EntryKind::Absent => (0, '-', '-', 0),
        })
    }

    /// The points column: what the codes say (other programs add them up
    /// from `BBW` ...); the games' points, where they differ, go in `KPT`.
    fn total(&self, p: &SwissPlayer) -> Points {
        self.codes[&p.id].iter().flatten().map(|c| c.3).sum()
    }

    /// The tournament's lines: name, venue, dates, players, rounds, rule
    /// set and the point system.
    fn header(&self, out: &mut String) {
        let event = self.event;
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
        let _ = writeln!(out, "062 {}", self.players.len());
        if !event.kind.is_empty() {
            let _ = writeln!(out, "092 {}", one_line(&event.kind));
        }
        let _ = writeln!(out, "XXR {}", self.input.total_rounds);
        let _ = writeln!(out, "KRS {}", self.input.rules.as_str());
        for (code, value) in [
            ("BBW", event.win),
            ("BBD", self.half),
            ("BBL", 0),
            ("BBZ", 0),
            ("BBF", 0),
            ("BBU", event.allocated_bye),
        ] {
            let _ = writeln!(out, "{code} {:>4}", points(value));
        }
    }

    /// The `001` line of `p`, and the `KPT` line of its points where the
    /// codes cannot carry them.
    fn player_line(&self, p: &SwissPlayer) -> (String, Option<String>) {
        let event = self.event;
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
            self.rank(p.id),
            points(self.total(p)),
            self.place[&p.id],
            pad = 33 - (name.len() - name.chars().count()).min(33),
        );
        // The points each round is worth to Kraal: a pending round none yet.
        let mut kraal_points = Vec::new();
        let mut coded = Vec::new();
        for (i, (e, c)) in p.history.iter().zip(&self.codes[&p.id]).enumerate() {
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
        let points_line = (coded != kraal_points).then(|| {
            let list: Vec<String> = kraal_points.iter().map(|x| points(*x)).collect();
            format!("KPT {:>4} {}", self.rank(p.id), list.join(" "))
        });
        (line, points_line)
    }

    /// Kraal's own lines and TRF's kept-apart pairs: the clubs (`KCL`),
    /// close relatives (`KRL`), pairs kept apart (`XXP`, or `260` for some
    /// rounds) and the waivers (`KWV`).
    fn kraal_lines(&self, out: &mut String) {
        let rank = |id: PlayerId| self.rank(id);
        for p in &self.players {
            if let Some(c) = p.club.as_deref().filter(|c| !c.trim().is_empty()) {
                let _ = writeln!(out, "KCL {:>4} {}", rank(p.id), one_line(c.trim()));
            }
        }
        for p in &self.players {
            for r in &p.relatives {
                if rank(p.id) < rank(*r) {
                    let _ = writeln!(out, "KRL {:>4} {:>4}", rank(p.id), rank(*r));
                }
            }
        }
        let input = self.input;
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
    }
}

/// A text on one line: a line break would end TRF's line.
fn one_line(s: &str) -> String {
    s.replace(['\r', '\n'], " ")
}

/// Points as TRF writes them, with one decimal (`1.5`).
fn points(p: Points) -> String {
    format!("{}.{}", p / POINT, p % POINT)
}

//! A game recorded at the board as its viewers see it: the live board
//! page, the boards of a round and of the display, and the JSON of the
//! live feeds and of a phone's own record. One shape for every one of
//! them, so a board drawn by the server and one moved by the script
//! (`static/board.js`) show the same.

use serde::Serialize;

use crate::director::recording::{Ended, RecordedGame};
use crate::results::GameResult;

#[derive(Debug, Serialize)]
pub struct EndedJson {
    /// From the starter's side: `1-0`, `0-1`, `1/2-1/2`.
    pub result: &'static str,
    pub reason: crate::rules::fault::Ending,
    pub article: &'static str,
}

impl From<Ended> for EndedJson {
    fn from(e: Ended) -> EndedJson {
        EndedJson {
            result: e.result.as_str(),
            reason: e.reason,
            article: e.reason.article(),
        }
    }
}

/// A recorded ply as the live boards list it.
fn ply_json(n: u32, text: &str, report: &crate::rules::Report) -> serde_json::Value {
    let article = report
        .irregularities
        .iter()
        .find(|x| x.ply == n)
        .map(|x| x.article.clone());
    serde_json::json!({
        "ply": n,
        "move": text,
        "status": if article.is_some() { "irregular" } else { "accepted" },
        "article": article,
        "triplet": triplet(report, n),
    })
}

/// The capture column's entry of ply `n` (OGR 6.2.7): the arrangement
/// that shot, or stood barren or paralysed, on it.
fn triplet(report: &crate::rules::Report, n: u32) -> Option<String> {
    report
        .triplets
        .iter()
        .find(|t| t.ply == n)
        .map(|t| match t.kind {
            crate::rules::TripletKind::Shot => t.arrangement.to_string(),
            k => format!("{} ({})", t.arrangement, k.name()),
        })
}

/// The check of `g`'s main record, if it has one.
fn main_report(g: &RecordedGame) -> Option<crate::rules::Report> {
    g.main().map(|r| r.recording.report())
}

/// The position `report` ends on, and the end the board shows there.
fn board_of(
    report: Option<&crate::rules::Report>,
) -> (
    Option<&crate::rules::check::FinalPosition>,
    Option<EndedJson>,
) {
    let ended = report.and_then(Ended::of).map(EndedJson::from);
    (report.map(|r| &r.final_position), ended)
}

/// The game as recorded so far, from its main record: what
/// `GET /api/v1/games/{gid}/live` answers.
pub fn live_game(g: &RecordedGame) -> serde_json::Value {
    let report = main_report(g);
    let plies: Vec<serde_json::Value> = g
        .main()
        .zip(report.as_ref())
        .map(|(r, report)| {
            r.recording
                .official()
                .enumerate()
                .map(|(i, text)| ply_json(i as u32 + 1, text, report))
                .collect()
        })
        .unwrap_or_default();
    let (position, ended) = board_of(report.as_ref());
    serde_json::json!({
        "game": g.game,
        "plies": plies,
        "position": position,
        "ended": ended,
        "differ_at": g.differ_at,
        "result": g.result.map(GameResult::as_str),
    })
}

/// The game's last ply, as the live feeds send it to every viewer:
/// `ply` is the number of plies in the main record now, so that a viewer
/// who missed one (or saw plies rectified away) reads the game again.
pub fn live_event(g: &RecordedGame) -> serde_json::Value {
    let report = main_report(g);
    let last = g.main().zip(report.as_ref()).and_then(|(r, report)| {
        let text = r.recording.official().last()?;
        Some(ply_json(r.recording.len(), text, report))
    });
    let (position, ended) = board_of(report.as_ref());
    let field = |k: &str| {
        last.as_ref()
            .map_or(serde_json::Value::Null, |l| l[k].clone())
    };
    serde_json::json!({
        "game": g.game,
        "ply": last.as_ref().map_or(serde_json::json!(0), |l| l["ply"].clone()),
        "move": field("move"),
        "status": field("status"),
        "article": field("article"),
        "triplet": field("triplet"),
        "position": position,
        "ended": ended,
        "differ_at": g.differ_at,
        "result": g.result.map(GameResult::as_str),
    })
}

/// Where a junction is drawn, in board units: columns A..G at x 0..6,
/// row 7 at the top (y 0), as the player with the dark cows sees it.
fn at(name: &str) -> (u8, u8) {
    let b = name.as_bytes();
    (b[0] - b'A', b'7' - b[1])
}

/// The board's lines as one SVG path, in board units.
fn lines_path() -> String {
    use crate::rules::board::{Junction, LINES};
    let mut d = String::new();
    for line in LINES {
        let ends = (Junction::new(line[0]), Junction::new(line[2]));
        if let (Some(a), Some(b)) = ends {
            let ((x1, y1), (x2, y2)) = (at(a.name()), at(b.name()));
            d.push_str(&format!("M{x1} {y1}L{x2} {y2}"));
        }
    }
    d
}

/// One junction as drawn.
#[derive(Debug, Clone)]
pub struct Spot {
    pub name: &'static str,
    pub x: u8,
    pub y: u8,
    /// `dark` or `light` when a cow stands on it.
    pub owner: Option<&'static str>,
    pub cow: Option<u8>,
}

/// One ply of the move list, as a live board lists it.
#[derive(Debug, Clone, Serialize)]
pub struct PlyRow {
    pub ply: u32,
    #[serde(rename = "move")]
    pub text: String,
    pub side: crate::rules::Side,
    /// `accepted` or `irregular`.
    pub status: &'static str,
    pub article: Option<String>,
    /// The irregularities in words.
    pub words: Option<String>,
    /// The capture column (OGR 6.2.7): the arrangement of the line that
    /// shot on this ply (or stood barren or paralysed), `A1,3-A4,5-A7,7`.
    pub triplet: Option<String>,
}

/// A board as a page draws it and its script goes on from: one game's
/// record (the player's own, or the main one for viewers).
#[derive(Debug, Clone)]
pub struct BoardView {
    pub game: crate::ids::GameId,
    pub spots: Vec<Spot>,
    pub path: String,
    pub dark_in_hand: u8,
    pub light_in_hand: u8,
    pub to_move: crate::rules::Side,
    pub moves: Vec<PlyRow>,
    pub differ_at: Option<u32>,
    /// The end the board shows, in words with its article.
    pub ended: Option<String>,
    /// The game's stored result.
    pub result: Option<&'static str>,
    /// The position in words, for readers who cannot see the drawing.
    pub description: String,
    /// The state the script starts from (`static/board.js`), as JSON fit
    /// to sit in a `<script type="application/json">`.
    pub state: String,
}

/// A flag on the opponent's irregular ply, waiting for the player's word.
#[derive(Debug, Clone, Serialize)]
struct Flag {
    ply: u32,
    article: String,
    words: String,
    side: crate::rules::Side,
}

impl BoardView {
    /// The board of `record` (none recorded: the empty board) in game
    /// `g`, for `me` (the recording player's side; `None` for viewers),
    /// with the opponent's plies waiting for `me`'s word.
    pub fn of(
        g: &RecordedGame,
        record: Option<&crate::director::recording::Record>,
        me: Option<crate::rules::Side>,
        flags: &[crate::rules::Irregularity],
    ) -> BoardView {
        use crate::rules::board::{Junction, LINES};
        use crate::wording::{rules as words, Lang};
        let rules = crate::rules::RuleSet::Official.play();
        let fresh = crate::rules::record::Recording::new(&rules);
        let recording = record.map_or(&fresh, |r| &r.recording);
        let report = recording.report();
        let pos = &report.final_position;
        let spots = spots_of(pos);
        let moves = rows_of(recording, &report);
        let ended = Ended::of(&report);
        let lines: Vec<[&str; 3]> = LINES
            .iter()
            .map(|l| l.map(|j| Junction::new(j).map_or("", |j| j.name())))
            .collect();
        let flags: Vec<Flag> = flags
            .iter()
            .map(|i| Flag {
                ply: i.ply,
                article: i.article.clone(),
                words: words::detail(i, Lang::English),
                side: i.side,
            })
            .collect();
        let state = serde_json::json!({
            "game": g.game,
            "me": me,
            "lines": lines,
            "plies": moves,
            "position": pos,
            "ended": ended.map(|e| {
                let mut j = serde_json::to_value(EndedJson::from(e)).unwrap_or_default();
                j["words"] = words::ending(e.reason, Lang::English).into();
                j
            }),
            "differ_at": g.differ_at,
            "result": g.result.map(GameResult::as_str),
            "flags": flags,
        });
        let description = described(pos);
        BoardView {
            description,
            game: g.game,
            spots,
            path: lines_path(),
            dark_in_hand: pos.dark_in_hand,
            light_in_hand: pos.light_in_hand,
            to_move: pos.to_move,
            moves,
            differ_at: g.differ_at,
            ended: ended.map(|e| words::ending(e.reason, Lang::English)),
            result: g.result.map(GameResult::as_str),
            state: state.to_string().replace("</", "<\\/"),
        }
    }
}

/// The 24 junctions as drawn, each with the cow on it.
fn spots_of(pos: &crate::rules::check::FinalPosition) -> Vec<Spot> {
    use crate::rules::board::Junction;
    let owner = |j: &str| {
        if pos.dark.iter().any(|c| c.junction == j) {
            Some("dark")
        } else if pos.light.iter().any(|c| c.junction == j) {
            Some("light")
        } else {
            None
        }
    };
    Junction::all()
        .map(|j| {
            let (x, y) = at(j.name());
            let cow = pos
                .dark
                .iter()
                .chain(&pos.light)
                .find(|c| c.junction == j.name())
                .map(|c| c.cow);
            Spot {
                name: j.name(),
                x,
                y,
                owner: owner(j.name()),
                cow,
            }
        })
        .collect()
}

/// The move list of `recording` (checked as `report`).
fn rows_of(
    recording: &crate::rules::record::Recording,
    report: &crate::rules::Report,
) -> Vec<PlyRow> {
    use crate::wording::{rules as words, Lang};
    let all = recording.irregularities();
    recording
        .official()
        .enumerate()
        .map(|(i, text)| {
            let n = i as u32 + 1;
            let mine: Vec<_> = all.iter().filter(|x| x.ply == n).collect();
            let side = mine.first().map(|x| x.side).unwrap_or(if n % 2 == 1 {
                crate::rules::Side::Dark
            } else {
                crate::rules::Side::Light
            });
            let triplet = triplet(report, n);
            PlyRow {
                ply: n,
                text: text.to_string(),
                side,
                status: if mine.is_empty() {
                    "accepted"
                } else {
                    "irregular"
                },
                article: mine.first().map(|x| x.article.clone()),
                words: (!mine.is_empty()).then(|| {
                    mine.iter()
                        .map(|x| words::detail(x, Lang::English))
                        .collect::<Vec<_>>()
                        .join("; ")
                }),
                triplet,
            }
        })
        .collect()
}

/// The position in words, for readers who cannot see the drawing.
fn described(pos: &crate::rules::check::FinalPosition) -> String {
    let on = |cows: &[crate::rules::check::CowOn]| {
        if cows.is_empty() {
            "none on the board".to_string()
        } else {
            cows.iter()
                .map(|c| format!("{},{}", c.junction, c.cow))
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    format!(
        "Dark: {}; light: {}; in hand dark {}, light {}; {} to play",
        on(&pos.dark),
        on(&pos.light),
        pos.dark_in_hand,
        pos.light_in_hand,
        pos.to_move
    )
}

//! Games and their records: the game page with its board replay (drawn on
//! the server, one link per ply, no script needed), the referee's record
//! submission and rulings, the players' link, the printable blank
//! scoresheets and the text export of every record.

use crate::field::{Chosen, Problem};
use crate::refusal::{Kind, Thing};
use std::collections::HashMap;

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::director::model::Round;
use crate::director::model::Tournament;
use crate::director::scoresheets::{self, Flags, GameRecords, LinkPairing, RecordView};
use crate::ids::{EntryId, GameId, PairingId, RoundNo, TournamentId};
use crate::results::GameResult;
use crate::rules::board::{Junction, LINES};
use crate::rules::{Position, Side};
use crate::tournament::{RecordSide, RulingKind};
use crate::web::auth::can_edit;
use crate::web::auth::Referee;
use crate::web::error::AppError;
use crate::web::layout::qr_svg;
use crate::web::layout::{render, see_other, Ctx};
use crate::web::views::round::{load_data, pairing_views, player_link, PairingView};
use crate::web::AppState;

/// Distance between neighbouring grid points of the drawn board, and the
/// margin around it, in SVG units.
const STEP: i32 = 40;
const MARGIN: i32 = 34;

/// Where a junction is drawn.
fn point(j: Junction) -> (i32, i32) {
    let name = j.name().as_bytes();
    let column = i32::from(name[0] - b'A');
    let row = i32::from(name[1] - b'1');
    (MARGIN + STEP * column, MARGIN + STEP * (6 - row))
}

/// One cow on the drawn board.
#[derive(Debug, Clone)]
pub struct CowDot {
    pub x: i32,
    pub y: i32,
    pub side: &'static str,
    pub cow: u8,
    pub junction: &'static str,
}

/// A position as the inline SVG draws it.
#[derive(Debug, Clone)]
pub struct BoardSvg {
    /// The 20 lines of the board, as (x1, y1, x2, y2).
    pub lines: Vec<(i32, i32, i32, i32)>,
    pub points: Vec<(i32, i32)>,
    pub cows: Vec<CowDot>,
    /// The last ply's junctions: where the cow came from and went, and
    /// the cow shot, as (x, y, kind).
    pub marks: Vec<(i32, i32, &'static str)>,
    /// Column letters and row digits along the edges, as (x, y, text).
    pub labels: Vec<(i32, i32, char)>,
    /// Words for readers who cannot see the drawing.
    pub description: String,
    pub size: i32,
}

impl BoardSvg {
    pub fn of(pos: &Position, last: Option<crate::rules::Move>) -> BoardSvg {
        let lines = LINES
            .iter()
            .filter_map(|l| {
                let a = point(Junction::new(l[0])?);
                let b = point(Junction::new(l[2])?);
                Some((a.0, a.1, b.0, b.1))
            })
            .collect();
        let points = Junction::all().map(point).collect();
        let mut cows = Vec::new();
        for j in Junction::all() {
            if let Some(side) = pos.owner(j) {
                let (x, y) = point(j);
                cows.push(CowDot {
                    x,
                    y,
                    side: side.name(),
                    cow: pos.cow_at(j).unwrap_or(0),
                    junction: j.name(),
                });
            }
        }
        let mut marks = Vec::new();
        if let Some(m) = last {
            if let Some(f) = m.from {
                let (x, y) = point(f);
                marks.push((x, y, "from"));
            }
            let (x, y) = point(m.to);
            marks.push((x, y, "to"));
            if let Some(s) = m.shot {
                let (x, y) = point(s);
                marks.push((x, y, "shot"));
            }
        }
        let size = 2 * MARGIN + 6 * STEP;
        let mut labels = Vec::new();
        for (i, c) in ('A'..='G').enumerate() {
            labels.push((MARGIN + STEP * i as i32, size - 6, c));
        }
        for (i, c) in ('1'..='7').enumerate() {
            labels.push((10, MARGIN + STEP * (6 - i as i32) + 5, c));
        }
        let list = |side: Side| {
            let on: Vec<String> = cows
                .iter()
                .filter(|c| c.side == side.name())
                .map(|c| format!("{},{}", c.junction, c.cow))
                .collect();
            if on.is_empty() {
                format!("{side}: none on the board")
            } else {
                format!("{side}: {}", on.join(" "))
            }
        };
        let description = format!(
            "{}; {}; in hand dark {}, light {}",
            list(Side::Dark),
            list(Side::Light),
            pos.in_hand(Side::Dark),
            pos.in_hand(Side::Light)
        );
        BoardSvg {
            lines,
            points,
            cows,
            marks,
            labels,
            description,
            size,
        }
    }
}

/// One ply of the move list.
#[derive(Debug, Clone)]
pub struct MoveRow {
    pub ply: usize,
    pub side: Side,
    pub text: String,
    /// The irregularities of this ply, in words.
    pub irregular: Vec<String>,
    /// Whether the replay reached it (it stops once the game is over).
    pub replayed: bool,
}

/// The board replay of one record.
#[derive(Debug, Clone)]
pub struct Replay {
    pub side: RecordSide,
    /// The ply shown, 0 for the empty board.
    pub ply: usize,
    /// The last ply that can be shown.
    pub last: usize,
    pub board: BoardSvg,
    pub moves: Vec<MoveRow>,
    /// The shown ply in words ("ply 17, light: d5-d6").
    pub caption: String,
}

impl Replay {
    fn of(record: &RecordView, wanted: usize) -> Option<Replay> {
        let sheet = record.parsed.as_ref()?;
        let report = record.check.as_ref().ok()?;
        let rules = record.record.sheet.rules.play();
        let (_, positions) = crate::rules::replay_sheet(sheet, &rules);
        let last = positions.len();
        let ply = wanted.min(last);
        let pos = if ply == 0 {
            Position::new(&rules)
        } else {
            positions[ply - 1]
        };
        let mut irregular: HashMap<u32, Vec<String>> = HashMap::new();
        for i in &report.irregularities {
            irregular
                .entry(i.ply)
                .or_default()
                .push(crate::wording::rules::detail(
                    i,
                    crate::wording::Lang::English,
                ));
        }
        // The side of each ply as the replay played it: the side to move
        // before it (the position after the ply before).
        let moves: Vec<MoveRow> = sheet
            .plies
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let before = if i == 0 {
                    Side::Dark
                } else {
                    positions.get(i - 1).map_or(Side::Dark, |x| x.side())
                };
                let side = report
                    .irregularities
                    .iter()
                    .find(|x| x.ply as usize == i + 1)
                    .map_or(before, |x| x.side);
                MoveRow {
                    ply: i + 1,
                    side,
                    text: sheet.text(p).to_string(),
                    irregular: irregular.remove(&(i as u32 + 1)).unwrap_or_default(),
                    replayed: i < last,
                }
            })
            .collect();
        let last_move = (ply > 0).then(|| sheet.plies[ply - 1].to_move());
        let caption = match moves.get(ply.wrapping_sub(1)).filter(|_| ply > 0) {
            Some(m) => format!("After ply {}, {}: {}", m.ply, m.side, m.text),
            None => "The empty board, before the first ply".to_string(),
        };
        Some(Replay {
            side: record.side(),
            ply,
            last,
            board: BoardSvg::of(&pos, last_move),
            moves,
            caption,
        })
    }
}

#[derive(Template)]
#[template(path = "game.html")]
pub struct GamePage {
    ctx: Ctx,
    t: Tournament,
    g: GameRecords,
    can_edit: bool,
    /// Records, checks, replay and rulings are shown: to the referees, and
    /// to everyone once the round is complete if the tournament says so.
    show_records: bool,
    flags: Flags,
    replay: Option<Replay>,
    /// The records offered for replay.
    replayable: Vec<RecordSide>,
    /// The result the board shows, for the ruling form, or why there is none.
    board: Result<(RecordSide, GameResult), String>,
    /// A problem with what was just sent, and the text to show back.
    problem: Option<String>,
    typed: String,
    typed_side: String,
    notice: String,
}

impl GamePage {
    /// An irregularity, for a list that names its ply already.
    fn detail(&self, i: &crate::rules::Irregularity) -> String {
        crate::wording::rules::detail(i, crate::wording::Lang::English)
    }

    /// Why the board shows its result.
    fn reason(&self, e: &crate::rules::fault::Ending) -> String {
        crate::wording::rules::ending(*e, crate::wording::Lang::English)
    }

    fn sides(&self) -> &'static [RecordSide] {
        RecordSide::ALL
    }
    fn kinds(&self) -> &'static [RulingKind] {
        RulingKind::ALL
    }
    fn results(&self) -> &'static [GameResult] {
        GameResult::ALL
    }
    fn base(&self) -> String {
        format!("/t/{}/games/{}", self.t.id, self.g.game.id)
    }
    /// The page at `ply` of a record's replay (values or references, as
    /// the template has them).
    fn ply_url(
        &self,
        side: impl std::borrow::Borrow<RecordSide>,
        ply: impl std::borrow::Borrow<usize>,
    ) -> String {
        format!(
            "{}?record={}&ply={}#board",
            self.base(),
            side.borrow().as_str(),
            ply.borrow()
        )
    }
    fn when(&self, at: &chrono::NaiveDateTime) -> String {
        at.format("%-d %b %Y %H:%M:%S").to_string()
    }
    fn sender(&self, r: &RecordView) -> String {
        match (&r.record.by, r.record.sheet.by_link) {
            // A record kept ply by ply on the player's phone.
            (Some(how), true) => how.clone(),
            (None, true) => "the players' link".into(),
            (Some(name), false) => name.clone(),
            (None, false) => "a removed account".into(),
        }
    }
    fn comparison(&self) -> Option<String> {
        let dark = self.g.current(RecordSide::Dark)?;
        let light = self.g.current(RecordSide::Light)?;
        let (Some(a), Some(b)) = (&dark.parsed, &light.parsed) else {
            return Some("The players' records cannot be compared until both can be read.".into());
        };
        Some(match crate::rules::first_difference(a, b) {
            None => format!("The players' records agree, all {} plies.", a.plies.len()),
            Some(ply) => {
                let at = |s: &crate::rules::notation::Scoresheet| {
                    s.plies
                        .get(ply as usize - 1)
                        .map_or("nothing (the record ends)".to_string(), |p| {
                            format!("“{}”", s.text(p))
                        })
                };
                format!(
                    "The players' records differ first at ply {ply}: dark's record has {}, light's has {}.",
                    at(a),
                    at(b)
                )
            }
        })
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct GameQuery {
    record: String,
    /// The ply shown: a whole number, the last ply when left out.
    ply: String,
    sent: String,
    ruled: String,
}

/// The game of tournament `tid`, or no such game.
async fn records(
    state: &AppState,
    tid: TournamentId,
    gid: GameId,
) -> Result<GameRecords, AppError> {
    let g = state.run(move |c| scoresheets::game(c, gid)).await?;
    if g.tournament.id != tid {
        return Err(AppError::not_found(Thing::Game));
    }
    Ok(g)
}

#[allow(clippy::too_many_arguments)]
fn game_page(
    ctx: Ctx,
    g: GameRecords,
    can_edit: bool,
    query: &GameQuery,
    problem: Option<String>,
    typed: String,
    typed_side: String,
) -> GamePage {
    let show_records = can_edit || (g.tournament.records_public && g.round_complete);
    let replayable: Vec<RecordSide> = if show_records {
        g.current_all()
            .iter()
            .filter(|r| r.parsed.is_some())
            .map(|r| r.side())
            .collect()
    } else {
        Vec::new()
    };
    let chosen = RecordSide::parse(&query.record)
        .filter(|s| replayable.contains(s))
        .or_else(|| replayable.first().copied());
    let replay = chosen
        .and_then(|s| g.current(s))
        .and_then(|r| Replay::of(r, wanted_ply(&query.ply).unwrap_or(usize::MAX)));
    let notice = if !query.sent.is_empty() {
        "The record is stored and checked.".to_string()
    } else if !query.ruled.is_empty() {
        "The ruling is stored and in the audit trail.".to_string()
    } else {
        String::new()
    };
    GamePage {
        flags: g.flags(),
        board: g
            .board_result()
            .map_err(|p| crate::field::FieldError::new("kind", p).to_string()),
        t: g.tournament.clone(),
        ctx,
        g,
        can_edit,
        show_records,
        replay,
        replayable,
        problem,
        typed,
        typed_side,
        notice,
    }
}

/// The ply asked for, `None` for the last; a ply past the end is the last.
fn wanted_ply(text: &str) -> Option<usize> {
    text.trim().parse().ok()
}

/// `GET /t/{tid}/games/{gid}`: the game; its records, their checks, the
/// replay and the rulings for its referees.
pub async fn show(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, GameId)>,
    query: web::Query<GameQuery>,
) -> Result<HttpResponse, AppError> {
    let (tid, gid) = path.into_inner();
    let ply = query.ply.trim();
    if !ply.is_empty() && wanted_ply(ply).is_none() {
        return Err(AppError::invalid(
            "ply",
            Problem::NotAPly {
                text: ply.to_string(),
            },
        ));
    }
    let g = records(&state, tid, gid).await?;
    let can_edit = can_edit(&state, &ctx, tid).await?;
    if !g.round.is_published() && !can_edit {
        return Err(AppError::not_found(Thing::Game));
    }
    let page = game_page(ctx, g, can_edit, &query, None, String::new(), String::new());
    render(&page, StatusCode::OK)
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct RecordForm {
    side: String,
    text: String,
}

/// `POST /t/{tid}/games/{gid}/records`: a referee sends a record.
pub async fn submit(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, GameId)>,
    form: web::Form<RecordForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, gid) = path.into_inner();
    records(&state, tid, gid).await?;
    let RecordForm { side, text } = form.into_inner();
    let outcome = match RecordSide::parse(&side) {
        None => Err(AppError::invalid(
            "side",
            Problem::NotChosen {
                what: Chosen::RecordSide,
            },
        )),
        Some(s) => {
            let text = text.clone();
            state
                .run(move |c| scoresheets::submit(c, gid, s, &text, &r.user))
                .await
        }
    };
    match outcome {
        Ok(sent) => Ok(see_other(&format!(
            "/t/{tid}/games/{gid}?record={}&sent=1#records",
            sent.sheet.side.as_str()
        ))),
        Err(e) if e.is(Kind::Invalid) || e.is(Kind::Conflict) => {
            let message = e.said().1;
            let g = records(&state, tid, gid).await?;
            let page = game_page(
                ctx,
                g,
                true,
                &GameQuery::default(),
                Some(message),
                text,
                side,
            );
            render(&page, StatusCode::UNPROCESSABLE_ENTITY)
        }
        Err(e) => Err(e),
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct RulingForm {
    kind: String,
    result: String,
    reason: String,
}

/// `POST /t/{tid}/games/{gid}/ruling`: the referee rules on the game.
pub async fn rule(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, GameId)>,
    form: web::Form<RulingForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, gid) = path.into_inner();
    records(&state, tid, gid).await?;
    let asked = match RulingKind::parse(&form.kind) {
        None => Err(AppError::invalid(
            "kind",
            Problem::NotChosen {
                what: Chosen::Ruling,
            },
        )),
        Some(kind) => Ok(scoresheets::RulingAsked {
            kind,
            result: GameResult::parse(form.result.trim()),
            reason: form.reason.clone(),
        }),
    };
    let outcome = match asked {
        Ok(asked) => {
            state
                .run(move |c| scoresheets::rule(c, gid, &asked, &r.user))
                .await
        }
        Err(e) => Err(e),
    };
    match outcome {
        Ok(()) => Ok(see_other(&format!("/t/{tid}/games/{gid}?ruled=1#rulings"))),
        Err(e) if e.is(Kind::Invalid) || e.is(Kind::Conflict) => {
            let message = e.said().1;
            let g = records(&state, tid, gid).await?;
            let page = game_page(
                ctx,
                g,
                true,
                &GameQuery::default(),
                Some(message),
                String::new(),
                String::new(),
            );
            render(&page, StatusCode::UNPROCESSABLE_ENTITY)
        }
        Err(e) => Err(e),
    }
}

#[derive(Template)]
#[template(path = "link.html")]
pub struct LinkPage {
    ctx: Ctx,
    link: LinkPairing,
    action: String,
    problem: Option<String>,
    typed: String,
    typed_game: GameId,
    /// The side chosen with what was typed (`dark`, `light` or nothing):
    /// the page never chooses it for the player.
    typed_side: String,
    sent: bool,
}

impl LinkPage {
    fn who(&self, id: &Option<EntryId>) -> String {
        self.link.name(*id)
    }
    fn dark(&self, g: &crate::director::model::Game) -> String {
        self.link.name(g.starter_player_id)
    }
    fn light(&self, g: &crate::director::model::Game) -> String {
        let p = &self.link.pairing;
        self.link.name(if g.starter_player_id == p.first_player_id {
            p.second_player_id
        } else {
            p.first_player_id
        })
    }
    fn sheets_of(&self, gid: &GameId) -> Vec<&crate::director::model::Sheet> {
        self.link
            .sheets
            .iter()
            .filter(|s| s.game_id == *gid)
            .collect()
    }
    fn when(&self, at: &chrono::NaiveDateTime) -> String {
        at.format("%H:%M:%S").to_string()
    }
}

/// `GET /p/{pid}/{key}`: the players' page of one pairing.
pub async fn link_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(PairingId, String)>,
    query: web::Query<HashMap<String, String>>,
) -> Result<HttpResponse, AppError> {
    let (pid, key) = path.into_inner();
    state.limits.player_link(pid, &key, &req, false)?;
    let k = key.clone();
    let link = state.run(move |c| scoresheets::open_link(c, pid, &k)).await;
    let link = state.limits.player_link_answered(pid, &key, link)?;
    let page = LinkPage {
        ctx: Ctx::with_csrf(&req),
        action: format!("/p/{pid}/{key}"),
        link,
        problem: None,
        typed: String::new(),
        typed_game: GameId(0),
        typed_side: String::new(),
        sent: query.contains_key("sent"),
    };
    render(&page, StatusCode::OK)
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LinkForm {
    game: String,
    side: String,
    text: String,
}

/// `POST /p/{pid}/{key}`: a player sends a record of one of the pairing's
/// games. What was typed is shown back when it cannot be taken.
pub async fn link_submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(PairingId, String)>,
    form: web::Form<LinkForm>,
) -> Result<HttpResponse, AppError> {
    let (pid, key) = path.into_inner();
    state.limits.player_link(pid, &key, &req, true)?;
    let LinkForm { game, side, text } = form.into_inner();
    let gid: GameId = game.trim().parse().unwrap_or(GameId(0));
    let outcome = match RecordSide::parse(&side) {
        None => Err(AppError::invalid(
            "side",
            Problem::NotChosen {
                what: Chosen::PlayerSide,
            },
        )),
        Some(s) => {
            let (k, t) = (key.clone(), text.clone());
            let sent = state
                .run(move |c| scoresheets::submit_by_link(c, pid, &k, gid, s, &t))
                .await;
            state.limits.player_link_answered(pid, &key, sent)
        }
    };
    match outcome {
        Ok(_) => Ok(see_other(&format!("/p/{pid}/{key}?sent=1#g{gid}"))),
        Err(e) if e.is(Kind::Invalid) || e.is(Kind::Conflict) => {
            let message = e.said().1;
            let k = key.clone();
            let link = state
                .run(move |c| scoresheets::open_link(c, pid, &k))
                .await?;
            let status = if link.open {
                StatusCode::UNPROCESSABLE_ENTITY
            } else {
                StatusCode::CONFLICT
            };
            let page = LinkPage {
                ctx: Ctx::with_csrf(&req),
                action: format!("/p/{pid}/{key}"),
                link,
                problem: Some(message),
                typed: text,
                typed_game: gid,
                typed_side: side,
                sent: false,
            };
            render(&page, status)
        }
        Err(e) => Err(e),
    }
}

/// One pairing's blank scoresheet.
#[derive(Debug, Clone)]
pub struct BlankSheet {
    pub pairing: PairingView,
    /// The players' link and its QR code (for the round's referees only).
    pub link: String,
    pub qr: String,
}

#[derive(Template)]
#[template(path = "scoresheets.html")]
pub struct ScoresheetsPage {
    ctx: Ctx,
    t: Tournament,
    round: Round,
    sheets: Vec<BlankSheet>,
    date: String,
}

impl ScoresheetsPage {
    /// Move numbers for the move columns: two columns of 30 moves fit an
    /// A4 block; a longer game continues on the back.
    fn rows(&self) -> std::ops::RangeInclusive<u32> {
        1..=30
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TableQuery {
    table: Option<i32>,
}

/// `GET /t/{tid}/rounds/{n}/scoresheets[?table=T]`: printable blank
/// scoresheets, one block per game, for every table or one. The players'
/// link is printed as a QR code only for the round's referees.
pub async fn blank_sheets(
    ctx: Ctx,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo)>,
    query: web::Query<TableQuery>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let data = load_data(&state, tid).await?;
    let can_edit = can_edit(&state, &ctx, tid).await?;
    let round = data.round(n, can_edit)?;
    let mut sheets = Vec::new();
    for p in pairing_views(&data, &round) {
        if p.second_id.is_none() || query.table.is_some_and(|t| t != p.table) {
            continue;
        }
        let link = if can_edit && round.is_published() {
            player_link(&state, &req, p.id).await?
        } else {
            String::new()
        };
        sheets.push(BlankSheet {
            qr: if link.is_empty() {
                String::new()
            } else {
                qr_svg(&link)
            },
            link,
            pairing: p,
        });
    }
    if sheets.is_empty() && query.table.is_some() {
        return Err(AppError::not_found(Thing::Table));
    }
    let page = ScoresheetsPage {
        ctx,
        date: round
            .published_at
            .unwrap_or(round.created_at)
            .format("%-d %B %Y")
            .to_string(),
        t: data.tournament,
        round,
        sheets,
    };
    render(&page, StatusCode::OK)
}

/// `GET /t/{tid}/games.txt`: every record of the tournament in the
/// documented notation, with headers.
pub async fn games_txt(r: Referee, state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    let tid = r.tournament.id;
    let text = state
        .run(move |c| crate::export::games::text(c, tid))
        .await?;
    Ok(crate::web::layout::download(
        "text/plain; charset=utf-8",
        text,
        &r.tournament.name,
        "games.txt",
    ))
}

//! The boards of games recorded at the board: the player's phone that
//! records one (`/player/{key}/games/{gid}/record`) and the live board
//! anyone may watch (`/t/{tid}/games/{gid}/live`). The server draws the
//! position; `static/board.js` takes the taps and follows the plies.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;

use crate::director::recording::{self, OwnRecord};
use crate::ids::{GameId, TournamentId};
use crate::results::GameResult;
use crate::rules::Side;
use crate::web::ctx::Ctx;
use crate::web::error::AppError;
use crate::web::layout::render;
use crate::web::views::board::BoardView;
use crate::web::AppState;

#[derive(Template)]
#[template(path = "record.html")]
pub struct RecordPage {
    pub ctx: Ctx,
    pub key: String,
    pub own: OwnRecord,
    pub board: BoardView,
    pub events: String,
    pub plies: String,
    pub rule: String,
    /// The game takes plies and reports: no result, round not locked.
    pub open: bool,
}

impl RecordPage {
    fn me(&self) -> &'static str {
        self.own.side.name()
    }
    fn number(&self) -> String {
        let g = &self.own.context.game;
        if g.tiebreak {
            format!("Tiebreak game {}", g.number)
        } else {
            format!("Game {}", g.number)
        }
    }
    /// The result a resignation by this player reports, from the
    /// starter's side (the starter plays dark).
    fn resign(&self) -> &'static str {
        match self.own.side {
            Side::Dark => GameResult::OtherWon.as_str(),
            Side::Light => GameResult::StarterWon.as_str(),
        }
    }
    fn draw(&self) -> &'static str {
        GameResult::Draw.as_str()
    }
    /// The result the board shows in this player's record, if it ended
    /// the game, and it in this player's words.
    fn board_result(&self) -> Option<(&'static str, String)> {
        let report = self.own.mine()?.recording.report();
        let ended = recording::Ended::of(&report)?;
        let mine = match (ended.result, self.own.side) {
            (GameResult::Draw, _) => "a draw".to_string(),
            (GameResult::StarterWon, Side::Dark) | (GameResult::OtherWon, Side::Light) => {
                "you win".to_string()
            }
            _ => format!("{} wins", self.own.names.1),
        };
        Some((ended.result.as_str(), mine))
    }
}

/// `GET /player/{key}/games/{gid}/record`: the board a player records game
/// `gid` on, move by move, both sides (OGR 6.2.6).
pub async fn record_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, GameId)>,
) -> Result<HttpResponse, AppError> {
    let (key, gid) = path.into_inner();
    state.limits.personal(&key, &req, false)?;
    let (k, kept) = (key.clone(), state.recordings.clone());
    let own = state
        .run(move |c| recording::own_record(c, &kept, &k, gid))
        .await?;
    let board = BoardView::of(&own.game, own.mine(), Some(own.side), &own.open_flags);
    let open = own.game.result.is_none() && own.context.round.locked_at.is_none();
    let page = RecordPage {
        ctx: Ctx::with_csrf(&req),
        events: format!("/t/{}/games/{gid}/events", own.tournament.id),
        plies: format!("/api/v1/player/{key}/games/{gid}/plies"),
        rule: format!("/api/v1/player/{key}/games/{gid}/plies/{{n}}/"),
        key,
        own,
        board,
        open,
    };
    // `private, no-cache`, as the player's page (`web::auth`): the phone
    // keeps it for a dead spot.
    render(&page, StatusCode::OK)
}

#[derive(Template)]
#[template(path = "live_board.html")]
pub struct LivePage {
    pub ctx: Ctx,
    pub tournament: crate::director::model::Tournament,
    pub round: crate::ids::RoundNo,
    pub title: String,
    pub board: BoardView,
    pub events: String,
    pub live: String,
}

/// `GET /t/{tid}/games/{gid}/live`: the live board of game `gid`, as its
/// players record it, following every ply without a reload.
pub async fn live_page(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, GameId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, gid) = path.into_inner();
    let kept = state.recordings.clone();
    let (w, gctx, game, names) = state
        .run(move |c| {
            let (w, gctx, game) = recording::watched_game(c, &kept, Some(tid), gid)?;
            let names = recording::sides_of(c, &gctx)?;
            Ok((w, gctx, game, names))
        })
        .await?;
    crate::web::live::may_watch(&state, &ctx, &w).await?;
    let board = BoardView::of(&game, game.main(), None, &[]);
    let number = if gctx.game.tiebreak {
        format!("tiebreak game {}", gctx.game.number)
    } else {
        format!("game {}", gctx.game.number)
    };
    let page = LivePage {
        ctx,
        round: w.round.number,
        title: format!(
            "Table {}, {number}: {} (dark) v {} (light)",
            gctx.pairing.table_no, names.0, names.1
        ),
        tournament: w.tournament,
        board,
        events: format!("/t/{tid}/games/{gid}/events"),
        live: format!("/api/v1/games/{gid}/live"),
    };
    render(&page, StatusCode::OK)
}

/// One board of a round's boards.
pub struct SmallBoard {
    pub board: BoardView,
    pub title: String,
    pub link: String,
    pub events: String,
    pub live: String,
}

#[derive(Template)]
#[template(path = "round_boards.html")]
pub struct RoundBoardsPage {
    pub ctx: Ctx,
    pub tournament: crate::director::model::Tournament,
    pub round: crate::ids::RoundNo,
    pub boards: Vec<SmallBoard>,
    /// The venue display's screen (`DisplayBoardsPage`).
    pub display: bool,
    pub feed: String,
}

/// The venue display's boards screen: the round's boards, full screen
/// and dark as the display is, sixteen at a time (a 1920 by 1080 screen),
/// turning beyond.
#[derive(Template)]
#[template(path = "display_boards.html")]
pub struct DisplayBoardsPage {
    pub page: RoundBoardsPage,
}

/// The boards of round `n` (of the latest published round when `None`).
async fn round_boards(
    ctx: Ctx,
    state: &AppState,
    tid: TournamentId,
    n: Option<crate::ids::RoundNo>,
    display: bool,
) -> Result<HttpResponse, AppError> {
    let kept = state.recordings.clone();
    let (w, list) = state
        .run(move |c| {
            let n = match n {
                Some(n) => n,
                None => recording::latest_round(c, tid)?,
            };
            recording::round_boards(c, &kept, tid, n)
        })
        .await?;
    crate::web::live::may_watch(state, &ctx, &w).await?;
    let boards = list
        .into_iter()
        .map(|b| {
            let gid = b.game.game;
            let number = if b.context.game.tiebreak {
                format!("tiebreak {}", b.context.game.number)
            } else {
                format!("game {}", b.context.game.number)
            };
            SmallBoard {
                board: BoardView::of(&b.game, b.game.main(), None, &[]),
                title: format!(
                    "Table {}, {number}: {} v {}",
                    b.context.pairing.table_no, b.names.0, b.names.1
                ),
                link: format!("/t/{tid}/games/{gid}/live"),
                events: String::new(),
                live: format!("/api/v1/games/{gid}/live"),
            }
        })
        .collect();
    let round = w.round.number;
    let page = RoundBoardsPage {
        ctx,
        feed: format!("/api/v1/tournaments/{tid}/rounds/{round}/live"),
        tournament: w.tournament,
        round,
        boards,
        display,
    };
    if display {
        render(&DisplayBoardsPage { page }, StatusCode::OK)
    } else {
        render(&page, StatusCode::OK)
    }
}

/// `GET /t/{tid}/rounds/{n}/boards`: every game of round n being recorded
/// at the board, each a small board following its plies.
pub async fn round_page(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, crate::ids::RoundNo)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    round_boards(ctx, &state, tid, Some(n), false).await
}

/// `GET /t/{tid}/display/boards`: the venue display's boards screen: the
/// latest published round's games being recorded, sixteen at a time.
pub async fn display_page(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    round_boards(ctx, &state, path.into_inner(), None, true).await
}

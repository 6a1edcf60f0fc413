//! Players at the venue: what a player's personal link does for scripts
//! (`/api/v1/player/{key}/...`), and the referee's side of it: the round's
//! links, renewing or revoking one, the round clock, and undoing a
//! player's word on the next round.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::clock;
use crate::director::personal::{self, NextRound};
use crate::field::Problem;
use crate::results::GameResult;
use crate::web::error::{ApiError, AppError};
use crate::web::views::board::{live_game, EndedJson};
use crate::web::views::personal::round_links;
use crate::web::views::personal::{ClockJson, Current, Line, Next, OwnView};
use crate::web::views::round::load_data;
use crate::web::AppState;

use super::{refereed, ApiUser};
use crate::ids::{EntryId, GameId, RoundNo, TournamentId};

/// Reads a JSON body, naming what could not be read.
pub(super) fn body<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes)
        .map(|b: super::Object<T>| b.0)
        .map_err(|e| {
            ApiError::from(crate::refusal::Unreadable::UnreadableJson {
                detail: e.to_string(),
            })
        })
}

fn invalid(field: &'static str, problem: Problem) -> ApiError {
    ApiError(AppError::invalid(field, problem))
}

#[derive(Debug, Serialize)]
struct OwnJson {
    tournament_id: TournamentId,
    tournament: String,
    player_id: EntryId,
    name: String,
    withdrawn: bool,
    /// `null` before any result.
    rank: Option<usize>,
    points: String,
    /// The latest round the player is in, with their games.
    current: Option<CurrentJson>,
    results: Vec<Line>,
    next_round: Option<Next>,
}

#[derive(Debug, Serialize)]
struct CurrentJson {
    #[serde(flatten)]
    current: Current,
    clock: Option<ClockJson>,
}

impl From<OwnView> for OwnJson {
    fn from(v: OwnView) -> OwnJson {
        OwnJson {
            tournament_id: v.tournament_id,
            tournament: v.tournament,
            player_id: v.player_id,
            name: v.name,
            withdrawn: v.withdrawn,
            rank: v.rank,
            points: v.points,
            current: v.current.map(|c| CurrentJson {
                clock: c.clock.as_ref().map(ClockJson::of),
                current: c,
            }),
            results: v.lines,
            next_round: v.next,
        }
    }
}

/// `GET /api/v1/player/{key}`: what the player's page shows.
pub async fn get_own(
    req: HttpRequest,
    state: web::Data<AppState>,
    key: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let key = key.into_inner();
    state.limits.personal(&key, &req, false)?;
    let (own, standings) = crate::web::views::personal::open(&state, &key).await?;
    Ok(HttpResponse::Ok().json(OwnJson::from(OwnView::of(&own, &standings))))
}

/// `{"game": ID, "result": "1-0"}`, from the starter's side.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportBody {
    /// The game's id: read by hand, so that a value that is not one is a
    /// 422 naming `game`, not a parse error of the whole body.
    game: serde_json::Value,
    result: String,
}

/// A game id as sent: a whole number (a string of digits is taken too).
fn game_id(value: &serde_json::Value) -> Result<GameId, ApiError> {
    let id = match value {
        serde_json::Value::Number(n) => n.as_i64().and_then(|v| i32::try_from(v).ok()).map(GameId),
        serde_json::Value::String(s) => s.trim().parse().ok(),
        _ => None,
    };
    id.ok_or_else(|| {
        let text = match value {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        invalid("game", Problem::NotWholeNumber { text })
    })
}

/// `POST /api/v1/player/{key}/results`: a player reports one of their
/// games. 200 with what the reports call for now.
pub async fn post_report(
    req: HttpRequest,
    state: web::Data<AppState>,
    key: web::Path<String>,
    bytes: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let key = key.into_inner();
    state.limits.personal(&key, &req, true)?;
    let b: ReportBody = body(&bytes)?;
    let game = game_id(&b.game)?;
    let result = crate::reports::read(&b.result).map_err(|p| invalid("result", p))?;
    let k = key.clone();
    let done = state
        .run(move |c| personal::report(c, &k, game, result))
        .await;
    let done = state.limits.personal_answered(&key, done)?;
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "game": done.game.id,
        "round": done.round,
        "table": done.table,
        "outcome": done.outcome,
        "result": done.game.result.map_or("", GameResult::as_str),
        "reported": done.game.reported,
        "disputed": done.reports.disputed(),
    })))
}

/// `{"play": false, "bye": "zero" | "half"}`, or `{"play": true}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NextRoundBody {
    play: bool,
    #[serde(default)]
    bye: Option<String>,
}

/// Reads a player's word on the next round.
pub fn read_word(play: bool, bye: Option<&str>) -> Result<NextRound, Problem> {
    match (play, bye.map(str::trim)) {
        (true, None | Some("")) => Ok(NextRound::Play),
        (true, Some(_)) => Err(Problem::ByeWithPlay),
        (false, None | Some("")) => Ok(NextRound::Zero),
        (false, Some(word)) => match NextRound::named(word) {
            Some(bye @ (NextRound::Zero | NextRound::Half)) => Ok(bye),
            _ => Err(Problem::NotOneOf {
                text: word.to_string(),
                choices: &["zero", "half"],
            }),
        },
    }
}

/// `POST /api/v1/player/{key}/next-round`: the player will (not) play the
/// next round.
pub async fn post_next_round(
    req: HttpRequest,
    state: web::Data<AppState>,
    key: web::Path<String>,
    bytes: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let key = key.into_inner();
    state.limits.personal(&key, &req, true)?;
    let b: NextRoundBody = body(&bytes)?;
    let word = read_word(b.play, b.bye.as_deref()).map_err(|p| invalid("bye", p))?;
    let k = key.clone();
    let done = state
        .run(move |c| personal::next_round_word(c, &k, word))
        .await;
    let done = state.limits.personal_answered(&key, done)?;
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "round": done.round,
        "play": done.word == NextRound::Play,
        "bye": (done.word != NextRound::Play).then(|| done.word.as_str()),
    })))
}

/// `GET /api/v1/tournaments/{tid}/rounds/{n}/links` (referees only).
pub async fn get_round_links(
    ApiUser(user): ApiUser,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo)>,
) -> Result<HttpResponse, ApiError> {
    let (tid, n) = path.into_inner();
    let tid = refereed(&state, &user, tid).await?.id;
    let data = load_data(&state, tid).await?;
    let round = data.round(n, true)?;
    let links = round_links(&state, &req, &data, &round).await?;
    Ok(HttpResponse::Ok().json(serde_json::json!({ "links": links })))
}

/// `POST /api/v1/tournaments/{tid}/players/{pid}/link`: a new link for the
/// player; the old one stops working.
pub async fn renew_link(
    ApiUser(user): ApiUser,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, EntryId)>,
) -> Result<HttpResponse, ApiError> {
    let (tid, pid) = path.into_inner();
    let tid = refereed(&state, &user, tid).await?.id;
    let key = state
        .write(Some(user.id), move |w| {
            crate::director::links::renew(w, tid, pid)
        })
        .await?;
    let url = crate::web::layout::absolute_url(&req, &format!("/player/{key}"));
    Ok(HttpResponse::Ok().json(serde_json::json!({ "player": pid, "url": url })))
}

/// `DELETE /api/v1/tournaments/{tid}/players/{pid}/link`: the link stops
/// working until it is renewed.
pub async fn revoke_link(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, EntryId)>,
) -> Result<HttpResponse, ApiError> {
    let (tid, pid) = path.into_inner();
    let tid = refereed(&state, &user, tid).await?.id;
    state
        .write(Some(user.id), move |w| {
            crate::director::links::revoke(w, tid, pid)
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `DELETE /api/v1/tournaments/{tid}/players/{pid}/byes/{n}`: the referee
/// undoes a bye (a player's word on round `n`, or their own entry).
pub async fn cancel_bye(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, EntryId, RoundNo)>,
) -> Result<HttpResponse, ApiError> {
    let (tid, pid, n) = path.into_inner();
    let tid = refereed(&state, &user, tid).await?.id;
    state
        .write(Some(user.id), move |w| {
            crate::director::rounds::cancel_bye(w, tid, pid, n, false)
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `{"starts_at": ISO-8601, "minutes": N}`; both may be left out: play
/// starts now, for the default limit of the event (OGR 8).
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClockBody {
    starts_at: Option<String>,
    minutes: Option<i64>,
}

/// `PUT /api/v1/tournaments/{tid}/rounds/{n}/clock`.
pub async fn put_clock(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo)>,
    bytes: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let (tid, n) = path.into_inner();
    let t = refereed(&state, &user, tid).await?;
    let b: ClockBody = if bytes.iter().all(u8::is_ascii_whitespace) {
        ClockBody::default()
    } else {
        body(&bytes)?
    };
    let now = chrono::Utc::now().naive_utc();
    let c = clock::read(
        b.starts_at.as_deref(),
        b.minutes,
        t.clock_limit().minutes,
        now,
    )
    .map_err(|e| ApiError(AppError::from(e)))?;
    let round = state
        .write(Some(user.id), move |w| {
            crate::director::rounds::set_clock(w, t.id, n, c)
        })
        .await?;
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "round": round.number,
        "clock": round.clock().as_ref().map(ClockJson::of),
    })))
}

/// `{"ply": N, "move": "C5-1"}`: one ply of the player's record of a game.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlyBody {
    /// Read by hand, so that a value that is not a whole number is a 422
    /// naming `ply`.
    ply: serde_json::Value,
    #[serde(rename = "move")]
    written: String,
}

/// The answer to a ply, for scripts and the board.
#[derive(Debug, Serialize)]
pub struct PlyJson {
    ply: i32,
    /// `accepted`, or `irregular` (recorded as played: OGR 5.4).
    status: &'static str,
    /// The first irregularity's article, `null` for an accepted ply.
    article: Option<String>,
    irregularities: Vec<crate::rules::Irregularity>,
    position: crate::rules::check::FinalPosition,
    ended: Option<EndedJson>,
}

impl From<crate::director::recording::PlyAnswer> for PlyJson {
    fn from(a: crate::director::recording::PlyAnswer) -> PlyJson {
        PlyJson {
            ply: a.ply,
            status: if a.irregularities.is_empty() {
                "accepted"
            } else {
                "irregular"
            },
            article: a.irregularities.first().map(|i| i.article.clone()),
            irregularities: a.irregularities,
            position: a.position,
            ended: a.ended.map(EndedJson::from),
        }
    }
}

/// `POST /api/v1/player/{key}/games/{gid}/plies`: one ply of the game as
/// the player records it at the board. 201 with the check of it; the
/// same ply sent again, 200 with the same answer.
pub async fn post_ply(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, GameId)>,
    bytes: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let (key, game) = path.into_inner();
    state.limits.ply(&key, &req)?;
    let b: PlyBody = body(&bytes)?;
    let ply = match &b.ply {
        serde_json::Value::Number(n) => n.as_i64().and_then(|v| i32::try_from(v).ok()),
        _ => None,
    }
    .ok_or_else(|| {
        invalid(
            "ply",
            Problem::NotAPly {
                text: b.ply.to_string(),
            },
        )
    })?;
    let k = key.clone();
    let kept = state.recordings.clone();
    let done = state
        .run(move |c| crate::director::recording::record_ply(c, &kept, &k, game, ply, &b.written))
        .await;
    let done = state.limits.personal_answered(&key, done)?;
    let status = if done.new {
        actix_web::http::StatusCode::CREATED
    } else {
        actix_web::http::StatusCode::OK
    };
    Ok(HttpResponse::build(status).json(PlyJson::from(done)))
}

/// `GET /api/v1/games/{gid}/live`: the game as recorded so far, from the
/// starter's record (the other player's where the starter has none), for
/// a viewer who joins late.
pub async fn get_live(
    ctx: crate::web::ctx::Ctx,
    state: web::Data<AppState>,
    game: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    let game = game.into_inner();
    let kept = state.recordings.clone();
    let (w, _, g) = state
        .run(move |c| crate::director::recording::watched_game(c, &kept, None, game))
        .await?;
    crate::web::live::may_watch(&state, &ctx, &w).await?;
    Ok(HttpResponse::Ok().json(live_game(&g)))
}

/// `POST /api/v1/player/{key}/games/{gid}/plies/{n}/rectify` and
/// `.../stand`: the player's word on their opponent's irregular ply n.
pub async fn post_rectify(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, GameId, i32)>,
) -> Result<HttpResponse, ApiError> {
    rule(req, state, path, true).await
}

/// See [`post_rectify`].
pub async fn post_stand(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, GameId, i32)>,
) -> Result<HttpResponse, ApiError> {
    rule(req, state, path, false).await
}

async fn rule(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, GameId, i32)>,
    rectify: bool,
) -> Result<HttpResponse, ApiError> {
    let (key, game, ply) = path.into_inner();
    state.limits.ply(&key, &req)?;
    let k = key.clone();
    let kept = state.recordings.clone();
    let done = state
        .run(move |c| crate::director::recording::rule_on_ply(c, &kept, &k, game, ply, rectify))
        .await;
    let done = state.limits.personal_answered(&key, done)?;
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "ply": done.ply,
        "ruling": if done.rectified { "rectified" } else { "stands" },
        "next": done.next,
    })))
}

/// `GET /api/v1/player/{key}/games/{gid}/plies`: the player's own record
/// of game gid as their board shows it (the state `static/board.js` goes
/// on from): plies with their checks and capture column, the position,
/// the end the board shows, where the two records differ, and the
/// opponent's irregular plies waiting for the player's word.
pub async fn get_plies(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, GameId)>,
) -> Result<HttpResponse, ApiError> {
    let (key, game) = path.into_inner();
    state.limits.personal(&key, &req, false)?;
    let kept = state.recordings.clone();
    let k = key.clone();
    let own = state
        .run(move |c| crate::director::recording::own_record(c, &kept, &k, game))
        .await;
    let own = state.limits.personal_answered(&key, own)?;
    let board = crate::web::views::board::BoardView::of(
        &own.game,
        own.mine(),
        Some(own.side),
        &own.open_flags,
    );
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .body(board.state))
}

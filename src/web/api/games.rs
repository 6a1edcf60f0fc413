//! Games: results, records (scoresheets), and a game with its records.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::conflict::Conflict;
use crate::director::rounds;
use crate::director::{self, scoresheets};
use crate::field::Problem;
use crate::refusal::{Refusal, Unreadable};
use crate::results::{GameResult, ResultEdit};
use crate::tournament::{RecordSide, RulingKind};
use crate::web::error::{ApiError, AppError};
use crate::web::AppState;

use super::rounds::GameJson;
use super::{refereed, ApiUser};
use crate::ids::{GameId, RoundNo, TournamentId};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultBody {
    result: Option<String>,
    /// The version last seen; when given, a newer change is a conflict.
    version: Option<i32>,
    /// The referee confirms that this result replaces the one a ruling set.
    #[serde(default)]
    replace_ruling: bool,
}

impl ResultBody {
    /// The result asked for: `None` clears the game.
    pub fn result(&self) -> Result<Option<GameResult>, AppError> {
        match self.result.as_deref().map(str::trim) {
            None | Some("") => Ok(None),
            Some(text) => GameResult::parse(text).map(Some).ok_or_else(|| {
                AppError::invalid(
                    "result",
                    Problem::NotAResult {
                        text: text.to_string(),
                    },
                )
            }),
        }
    }
}

/// `PUT /api/v1/games/{id}`: `{"result": "1-0"}`, from the starter's side.
pub async fn put_game(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<GameId>,
    body: web::Json<super::Object<ResultBody>>,
) -> Result<HttpResponse, ApiError> {
    let gid = path.into_inner();
    let ctx = state.run(move |c| rounds::game_context(c, gid)).await?;
    refereed(&state, &user, ctx.round.tournament_id).await?;
    let result = body.result()?;
    let edit = ResultEdit {
        game: gid,
        wanted: result,
        seen_version: body.version,
        by: crate::results::EnteredBy::Referee,
    };
    let tid = ctx.round.tournament_id;
    let replacing = if body.replace_ruling {
        vec![gid]
    } else {
        vec![]
    };
    let mut report = state
        .run(move |c| director::results::save_replacing(c, tid, &[edit], &replacing, &user))
        .await?;
    if let Some(c) = report.conflicts.pop() {
        return Err(AppError::from(Conflict::Changed(c.meanwhile)).into());
    }
    if let Some(r) = report.ruled.pop() {
        return Err(AppError::from(Conflict::Ruled(Box::new(r))).into());
    }
    if let Some((_, why)) = report.refused.pop() {
        return Err(AppError::from(why).into());
    }
    let game = report
        .saved
        .pop()
        .or(report.unchanged.pop())
        .ok_or_else(|| AppError::internal("a saved game went missing"))?;
    // The game as the round JSON shows it: the starter by name.
    let starter = match game.starter_player_id {
        Some(id) => {
            state
                .run(move |c| crate::director::players::find(c, tid, id))
                .await?
                .name
        }
        None => String::new(),
    };
    Ok(HttpResponse::Ok().json(GameJson {
        id: game.id,
        number: game.number,
        starter,
        first_started: game.starter_player_id == ctx.pairing.first_player_id,
        result: game.result.map_or("", GameResult::as_str),
        tiebreak: game.tiebreak,
        version: game.version,
        reported: game.reported,
        disputed: false,
        reports: Vec::new(),
    }))
}

/// A read error of a record: where and what.
#[derive(Debug, Serialize)]
struct ReadErrorJson {
    line: u32,
    column: u32,
    expected: String,
    found: String,
    message: String,
}

/// The check of one record: the fields of `kraal check --json`, plus the
/// side and when it was stored; an unreadable record has `error` instead.
#[derive(Debug, Serialize)]
struct CheckJson {
    side: RecordSide,
    stored_at: String,
    readable: bool,
    #[serde(flatten)]
    report: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<ReadErrorJson>,
}

fn stamp(at: chrono::NaiveDateTime) -> String {
    at.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

impl CheckJson {
    fn of(
        side: RecordSide,
        at: chrono::NaiveDateTime,
        check: &Result<crate::rules::Report, crate::rules::ParseError>,
    ) -> CheckJson {
        CheckJson {
            side,
            stored_at: stamp(at),
            readable: check.is_ok(),
            report: check
                .as_ref()
                .ok()
                .map(|r| crate::wording::rules::report_json(r, crate::wording::Lang::English)),
            error: check.as_ref().err().map(|e| ReadErrorJson {
                line: e.line,
                column: e.column,
                expected: e.expected.clone(),
                found: e.found.clone(),
                message: e.to_string(),
            }),
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SideQuery {
    side: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordBody {
    text: String,
    #[serde(default)]
    side: Option<String>,
}

/// Reads a body of at most `limit` bytes; a longer one is refused whole.
async fn read_body(mut payload: web::Payload, limit: usize) -> Result<Vec<u8>, ApiError> {
    use futures_util::StreamExt;
    let mut body = Vec::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| Unreadable::UnreadableBody {
            detail: e.to_string(),
        })?;
        if body.len() + chunk.len() > limit {
            return Err(too_large());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

fn too_large() -> ApiError {
    ApiError::from(Refusal::TooLarge {
        max_bytes: scoresheets::MAX_BYTES as u64,
    })
}

/// `PUT /api/v1/games/{id}/scoresheet`: stores and checks a record, sent
/// as the body (`text/plain`, the side in `?side=`, the referee's copy if
/// none) or as JSON `{"text": ..., "side": ...}`.
pub async fn put_scoresheet(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<GameId>,
    query: web::Query<SideQuery>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let gid = path.into_inner();
    let ctx = state.run(move |c| rounds::game_context(c, gid)).await?;
    refereed(&state, &user, ctx.round.tournament_id).await?;
    let json = req
        .headers()
        .get(actix_web::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    // JSON escapes may take up to six bytes a character.
    let limit = if json {
        6 * scoresheets::MAX_BYTES + 4096
    } else {
        scoresheets::MAX_BYTES
    };
    let body = read_body(payload, limit).await?;
    let not_utf8 = |e: std::str::Utf8Error| {
        ApiError(AppError::invalid(
            "text",
            Problem::NotUtf8 {
                offset: e.valid_up_to(),
            },
        ))
    };
    let (text, side) = if json {
        let b: super::Object<RecordBody> = serde_json::from_slice(&body).map_err(|e| {
            AppError::invalid(
                "text",
                Problem::RecordNotJson {
                    detail: e.to_string(),
                },
            )
        })?;
        (b.0.text, b.0.side)
    } else {
        let text = std::str::from_utf8(&body).map_err(not_utf8)?.to_string();
        (text, query.into_inner().side)
    };
    if text.len() > scoresheets::MAX_BYTES {
        return Err(too_large());
    }
    let side = match side.as_deref().map(str::trim) {
        None | Some("") => RecordSide::Referee,
        Some(s) => RecordSide::parse(s).ok_or_else(|| {
            AppError::invalid(
                "side",
                Problem::NotASide {
                    text: s.to_string(),
                },
            )
        })?,
    };
    let sent = state
        .run(move |c| scoresheets::submit(c, gid, side, &text, &user))
        .await?;
    Ok(HttpResponse::Ok().json(CheckJson::of(
        sent.sheet.side,
        sent.sheet.submitted_at,
        &sent.check,
    )))
}

#[derive(Debug, Serialize)]
struct RecordJson {
    id: i32,
    side: RecordSide,
    current: bool,
    sent_by: Option<String>,
    by_link: bool,
    superseded_at: Option<String>,
    text: String,
    check: CheckJson,
}

#[derive(Debug, Serialize)]
struct RulingJson {
    kind: RulingKind,
    result: Option<&'static str>,
    reason: String,
    by: Option<String>,
    at: String,
}

/// A game with its records, their checks and the referee's rulings.
#[derive(Debug, Serialize)]
struct GameWithRecordsJson {
    id: GameId,
    tournament: TournamentId,
    round: RoundNo,
    table: i32,
    number: i32,
    tiebreak: bool,
    dark: String,
    light: String,
    result: Option<GameResult>,
    records: Vec<RecordJson>,
    first_difference: Option<u32>,
    flags: Vec<String>,
    rulings: Vec<RulingJson>,
}

/// `GET /api/v1/games/{id}`: the game with its records, their checks, the
/// comparison of the players' records, the flags and the rulings.
pub async fn get_game(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    let gid = path.into_inner();
    let g = state.run(move |c| scoresheets::game(c, gid)).await?;
    refereed(&state, &user, g.tournament.id).await?;
    let flags = g.flags();
    let records: Vec<RecordJson> = g
        .records
        .iter()
        .map(|r| RecordJson {
            id: r.record.sheet.id,
            side: r.side(),
            current: r.is_current(),
            sent_by: r.record.by.clone(),
            by_link: r.record.sheet.by_link,
            superseded_at: r.record.sheet.superseded_at.map(stamp),
            text: r.record.sheet.text.clone(),
            check: CheckJson::of(r.side(), r.record.sheet.submitted_at, &r.check),
        })
        .collect();
    let rulings: Vec<RulingJson> = g
        .rulings
        .iter()
        .map(|r| RulingJson {
            kind: r.ruling.kind,
            result: r.ruling.result.map(GameResult::as_str),
            reason: r.ruling.reason.clone(),
            by: r.by.clone(),
            at: stamp(r.ruling.ruled_at),
        })
        .collect();
    Ok(HttpResponse::Ok().json(GameWithRecordsJson {
        id: g.game.id,
        tournament: g.tournament.id,
        round: g.round.number,
        table: g.pairing.table_no,
        number: g.game.number,
        tiebreak: g.game.tiebreak,
        dark: g.dark,
        light: g.light,
        result: g.game.result,
        records,
        first_difference: flags.differ_at,
        flags: flags.lines(),
        rulings,
    }))
}

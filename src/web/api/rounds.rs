//! Rounds: pair the next one, read one.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::db::rounds::Round;
use crate::director::{self, pair::Then, TournamentData};
use crate::web::error::ApiError;
use crate::web::views::round::{load_data, pairing_views, GameView, PairingView};
use crate::web::views::team::{match_views, MatchView};
use crate::web::AppState;

use super::{refereed, ApiUser};

/// A round as the API gives it: its own types, so that a change to a page
/// cannot change the API (docs/api.md).
#[derive(Debug, Serialize)]
pub struct RoundJson {
    round: i32,
    published: bool,
    pairings: Vec<PairingJson>,
    /// Team events: each match with its boards (the same pairings).
    #[serde(skip_serializing_if = "Option::is_none")]
    matches: Option<Vec<MatchJson>>,
}

#[derive(Debug, Serialize)]
struct MatchJson {
    id: i32,
    table: i32,
    first_team_id: i32,
    first_team: String,
    second_team_id: Option<i32>,
    second_team: String,
    bye: bool,
    /// From the first team's side, `5½-2½`; empty until a result.
    score: String,
    boards: Vec<BoardJson>,
}

#[derive(Debug, Serialize)]
struct BoardJson {
    board: i32,
    table: i32,
    pairing_id: i32,
    first_id: Option<i32>,
    first: String,
    second_id: Option<i32>,
    second: String,
    score: String,
    points: Option<[f64; 2]>,
    games: Vec<GameJson>,
}

/// The game points of a pairing as numbers, first player first; `None`
/// until a game has a result. (`score` is the same as players read it.)
fn points(t: &crate::results::PairingTally) -> Option<[f64; 2]> {
    let p = |x: crate::pairing::Points| x as f64 / crate::pairing::POINT as f64;
    (t.decided > 0).then(|| [p(t.first), p(t.second)])
}

impl From<MatchView> for MatchJson {
    fn from(m: MatchView) -> MatchJson {
        MatchJson {
            id: m.id,
            table: m.table,
            first_team_id: m.first_team_id,
            first_team: m.first_team.clone(),
            bye: m.is_bye(),
            second_team_id: m.second_team_id,
            second_team: m.second_team,
            score: m.score,
            boards: m
                .boards
                .into_iter()
                .map(|p| BoardJson {
                    board: p.board.unwrap_or_default(),
                    table: p.table,
                    pairing_id: p.id,
                    first_id: p.first_id,
                    first: p.first,
                    second_id: p.second_id,
                    second: p.second,
                    points: points(&p.tally),
                    score: p.score,
                    games: p.games.into_iter().map(GameJson::from).collect(),
                })
                .collect(),
        }
    }
}

#[derive(Debug, Serialize)]
struct PairingJson {
    id: i32,
    table: i32,
    first_id: Option<i32>,
    first: String,
    second_id: Option<i32>,
    second: String,
    bye: Option<&'static str>,
    score: String,
    points: Option<[f64; 2]>,
    games: Vec<GameJson>,
    explanation: Option<crate::pairing::explain::Explanation>,
    winner: Option<String>,
}

#[derive(Debug, Serialize)]
pub(super) struct GameJson {
    pub(super) id: i32,
    pub(super) number: i32,
    /// The starter's name.
    pub(super) starter: String,
    pub(super) first_started: bool,
    /// The stored spelling, `""` until a result.
    pub(super) result: &'static str,
    pub(super) tiebreak: bool,
    pub(super) version: i32,
}

impl From<PairingView> for PairingJson {
    fn from(p: PairingView) -> PairingJson {
        PairingJson {
            id: p.id,
            table: p.table,
            first_id: p.first_id,
            first: p.first,
            second_id: p.second_id,
            second: p.second,
            bye: p.bye.map(|b| b.as_str()),
            points: points(&p.tally),
            score: p.score,
            games: p.games.into_iter().map(GameJson::from).collect(),
            explanation: p.explanation,
            winner: p.winner,
        }
    }
}

impl From<GameView> for GameJson {
    fn from(g: GameView) -> GameJson {
        GameJson {
            id: g.id,
            number: g.number,
            result: g.stored(),
            starter: g.starter,
            first_started: g.first_started,
            tiebreak: g.tiebreak,
            version: g.version,
        }
    }
}

/// `POST /api/v1/tournaments/{tid}/rounds`: pairs and publishes the next round.
pub async fn pair_round(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i32>,
) -> Result<HttpResponse, ApiError> {
    let tid = refereed(&state, &user, path.into_inner()).await?.id;
    let paired = state
        .run(move |c| director::pair::pair_next(c, tid, Then::Publish, &user))
        .await?;
    Ok(HttpResponse::Created().json(round_json(&paired.data, &paired.round)))
}

fn round_json(data: &TournamentData, round: &Round) -> RoundJson {
    let views = pairing_views(data, round);
    let matches = data.is_team_event().then(|| {
        match_views(data, round, &views)
            .into_iter()
            .map(MatchJson::from)
            .collect()
    });
    RoundJson {
        round: round.number,
        published: round.is_published(),
        pairings: views.into_iter().map(PairingJson::from).collect(),
        matches,
    }
}

/// `GET /api/v1/tournaments/{tid}/rounds/{n}`
pub async fn get_round(
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
) -> Result<HttpResponse, ApiError> {
    let (tid, n) = path.into_inner();
    let data = load_data(&state, tid).await?;
    let round = data.round(n, false)?;
    Ok(HttpResponse::Ok().json(round_json(&data, &round)))
}

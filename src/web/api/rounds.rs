//! Rounds: pair the next one, read one.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::director::model::Round;
use crate::director::{self, pair::Then, TournamentData};
use crate::refusal::Unreadable;
use crate::web::error::{ApiError, AppError};
use crate::web::views::round::{load_data, pairing_views, GameView, PairingView};
use crate::web::views::team::{match_views, MatchView};
use crate::web::AppState;

use super::{refereed, ApiUser};
use crate::ids::{EntryId, GameId, PairingId, RoundNo, TeamId, TournamentId};

/// A round as the API gives it: its own types, so that a change to a page
/// cannot change the API (docs/api.md).
#[derive(Debug, Serialize)]
pub struct RoundJson {
    round: RoundNo,
    published: bool,
    /// The day the round is played (`YYYY-MM-DD`): its month is the
    /// rating period of its games.
    date: chrono::NaiveDate,
    /// The round clock (OGR 8), once the referee sets it.
    clock: Option<crate::web::views::personal::ClockJson>,
    pairings: Vec<PairingJson>,
    /// Team events: each match with its boards (the same pairings).
    #[serde(skip_serializing_if = "Option::is_none")]
    matches: Option<Vec<MatchJson>>,
}

#[derive(Debug, Serialize)]
struct MatchJson {
    id: PairingId,
    table: i32,
    first_team_id: TeamId,
    first_team: String,
    second_team_id: Option<TeamId>,
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
    pairing_id: PairingId,
    first_id: Option<EntryId>,
    first: String,
    second_id: Option<EntryId>,
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
                    games: p
                        .games
                        .into_iter()
                        .map(|g| GameJson::of(g, p.first_id, p.second_id))
                        .collect(),
                })
                .collect(),
        }
    }
}

#[derive(Debug, Serialize)]
struct PairingJson {
    id: PairingId,
    table: i32,
    first_id: Option<EntryId>,
    first: String,
    second_id: Option<EntryId>,
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
    pub(super) id: GameId,
    pub(super) number: i32,
    /// The starter's name.
    pub(super) starter: String,
    pub(super) first_started: bool,
    /// The stored spelling, `""` until a result.
    pub(super) result: &'static str,
    pub(super) tiebreak: bool,
    pub(super) version: i32,
    /// The result came from the players' reports.
    pub(super) reported: bool,
    /// The two players reported different results: the referee decides.
    pub(super) disputed: bool,
    /// What each player reported, from the starter's side.
    pub(super) reports: Vec<ReportJson>,
}

#[derive(Debug, Serialize)]
pub(super) struct ReportJson {
    player: EntryId,
    result: &'static str,
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
            games: p
                .games
                .into_iter()
                .map(|g| GameJson::of(g, p.first_id, p.second_id))
                .collect(),
            explanation: p.explanation,
            winner: p.winner,
        }
    }
}

impl GameJson {
    /// A game of the pairing of `first` and `second`.
    fn of(g: GameView, first: Option<EntryId>, second: Option<EntryId>) -> GameJson {
        let reports = [(first, g.reports.first), (second, g.reports.second)]
            .into_iter()
            .filter_map(|(p, r)| {
                Some(ReportJson {
                    player: p?,
                    result: r?.as_str(),
                })
            })
            .collect();
        GameJson {
            disputed: g.disputed(),
            reported: g.reported,
            reports,
            ..GameJson::from(g)
        }
    }
}

impl From<GameView> for GameJson {
    fn from(g: GameView) -> GameJson {
        GameJson {
            reported: g.reported,
            disputed: g.disputed(),
            reports: Vec::new(),
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

/// The body of a round's date: `{"date": "YYYY-MM-DD"}`.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundDateBody {
    date: Option<String>,
}

impl RoundDateBody {
    /// An empty body is no date (the default applies).
    fn read(bytes: &[u8]) -> Result<RoundDateBody, AppError> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(RoundDateBody::default());
        }
        serde_json::from_slice(bytes)
            .map(|b: super::Object<RoundDateBody>| b.0)
            .map_err(|e| {
                AppError::from(Unreadable::UnreadableJson {
                    detail: e.to_string(),
                })
            })
    }

    fn date(&self) -> Result<Option<chrono::NaiveDate>, AppError> {
        self.date
            .as_deref()
            .map(|text| {
                crate::rounds::parse_day(text).map_err(|problem| {
                    AppError::from(crate::field::FieldError::new("date", problem))
                })
            })
            .transpose()
    }
}

/// `POST /api/v1/tournaments/{tid}/rounds`: pairs and publishes the next
/// round, played on `{"date": "YYYY-MM-DD"}` or today.
pub async fn pair_round(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let tid = refereed(&state, &user, path.into_inner()).await?.id;
    let date = RoundDateBody::read(&body)?.date()?;
    let paired = state
        .run(move |c| director::pair::pair_next(c, tid, Then::Publish, date, &user))
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
        date: round.played_on,
        clock: round
            .clock()
            .as_ref()
            .map(crate::web::views::personal::ClockJson::of),
        pairings: views.into_iter().map(PairingJson::from).collect(),
        matches,
    }
}

/// `PATCH /api/v1/tournaments/{tid}/rounds/{n} {"date": "YYYY-MM-DD"}`:
/// the day the round is played.
pub async fn patch_round(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo)>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let (tid, n) = path.into_inner();
    let tid = refereed(&state, &user, tid).await?.id;
    let Some(date) = RoundDateBody::read(&body)?.date()? else {
        return Err(ApiError(AppError::from(
            crate::director::model::DbError::from(crate::field::FieldError::new(
                "date",
                crate::field::Problem::Empty,
            )),
        )));
    };
    state
        .write(Some(user.id), move |w| {
            crate::director::rounds::set_date(w, tid, n, date)
        })
        .await?;
    let data = load_data(&state, tid).await?;
    let round = data.round(n, true)?;
    Ok(HttpResponse::Ok().json(round_json(&data, &round)))
}

/// `GET /api/v1/tournaments/{tid}/rounds/{n}`
pub async fn get_round(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo)>,
) -> Result<HttpResponse, ApiError> {
    let (tid, n) = path.into_inner();
    let data = load_data(&state, tid).await?;
    let round = data.round(n, false)?;
    Ok(HttpResponse::Ok().json(round_json(&data, &round)))
}

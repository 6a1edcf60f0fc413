//! The JSON API under `/api/v1` (see docs/api.md). Scripts authenticate
//! with `Authorization: Bearer TOKEN`; every error is JSON
//! `{"error": "...", "field": "..."}` with the status that fits.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};

use super::auth;
use super::error::{ApiError, AppError};
use super::views::round::{load_data, pairing_views, GameView, PairingView};
use super::views::team::{match_views, MatchView};
use super::AppState;
use crate::db::forbidden::{self, Forbidden, NewForbidden};
use crate::db::tournaments::{self, Tournament};
use crate::db::users::User;
use crate::db::{players, rounds};
use crate::director::{self, pair::Then, scoresheets};
use crate::results::{GameResult, ResultEdit};
use crate::roster::PlayerFields;
use crate::standings::show_points;
use crate::tournament::{
    Ranking, RawTournament, RecordSide, RuleSet, RulingKind, System, Tiebreaks,
};

/// The signed-in caller of an API route; comes first among a handler's
/// arguments so that an anonymous call is refused before its body is read.
pub struct ApiUser(pub User);

impl actix_web::FromRequest for ApiUser {
    type Error = ApiError;
    type Future = std::future::Ready<Result<ApiUser, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        std::future::ready(
            auth::caller(req)
                .user
                .map(ApiUser)
                .ok_or(ApiError(AppError::Unauthorized)),
        )
    }
}

/// The tournament, if `user` may change it.
async fn refereed(state: &AppState, user: &User, tid: i32) -> Result<Tournament, ApiError> {
    Ok(auth::refereed_tournament(state, user, tid).await?)
}

fn invalid(errors: Vec<crate::roster::FieldError>) -> ApiError {
    let first = errors.into_iter().next();
    ApiError(match first {
        Some(e) => AppError::invalid(e.field, e.message),
        None => AppError::BadRequest("invalid request".into()),
    })
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NewTournament {
    name: String,
    system: Option<String>,
    rules: Option<String>,
    games_per_pairing: Option<i32>,
    rounds: Option<i32>,
    cycles: Option<i32>,
    venue: Option<String>,
    starts_on: Option<String>,
    ends_on: Option<String>,
    ranking: Option<String>,
    tiebreaks: Option<Vec<String>>,
    bye_value: Option<String>,
    records_public: Option<bool>,
    records_required: Option<bool>,
}

#[derive(Debug, Serialize)]
pub struct TournamentJson {
    id: i32,
    name: String,
    system: System,
    rules: RuleSet,
    games_per_pairing: i32,
    /// `null` until the first pairing where the field decides them.
    rounds: Option<i32>,
    cycles: i32,
    ranking: Ranking,
    tiebreaks: Tiebreaks,
    records_public: bool,
    records_required: bool,
}

impl From<&Tournament> for TournamentJson {
    fn from(t: &Tournament) -> TournamentJson {
        TournamentJson {
            id: t.id,
            name: t.name.clone(),
            system: t.system,
            rules: t.rules,
            games_per_pairing: t.games_per_pairing,
            rounds: t.rounds,
            cycles: t.cycles,
            ranking: t.ranking,
            tiebreaks: t.tiebreaks.clone(),
            records_public: t.records_public,
            records_required: t.records_required,
        }
    }
}

/// The form's raw fields, so a script's tournament is checked by the very
/// checks of the form.
impl From<NewTournament> for RawTournament {
    fn from(b: NewTournament) -> RawTournament {
        RawTournament {
            name: b.name,
            venue: b.venue.unwrap_or_default(),
            starts_on: b.starts_on.unwrap_or_default(),
            ends_on: b.ends_on.unwrap_or_default(),
            system: b.system.unwrap_or_default(),
            rules: b.rules.unwrap_or_default(),
            games_per_pairing: b
                .games_per_pairing
                .map(|g| g.to_string())
                .unwrap_or_default(),
            rounds: b.rounds.map(|g| g.to_string()).unwrap_or_default(),
            cycles: b.cycles.map(|g| g.to_string()).unwrap_or_default(),
            ranking: b.ranking.unwrap_or_default(),
            tiebreaks: b.tiebreaks.unwrap_or_default().join(","),
            bye_value: b.bye_value.unwrap_or_default(),
            records_public: if b.records_public.unwrap_or(false) {
                "yes".into()
            } else {
                String::new()
            },
            records_required: if b.records_required.unwrap_or(false) {
                "yes".into()
            } else {
                String::new()
            },
        }
    }
}

/// `PATCH /api/v1/tournaments/{tid}`: the fields of [`NewTournament`],
/// each optional; what is left out stays as it is. `"rounds": null`
/// leaves the rounds to the field again (before round 1 only).
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TournamentPatch {
    name: Option<String>,
    system: Option<String>,
    rules: Option<String>,
    games_per_pairing: Option<i32>,
    #[serde(deserialize_with = "present")]
    rounds: Option<Option<i32>>,
    cycles: Option<i32>,
    venue: Option<String>,
    #[serde(deserialize_with = "present")]
    starts_on: Option<Option<String>>,
    #[serde(deserialize_with = "present")]
    ends_on: Option<Option<String>>,
    ranking: Option<String>,
    tiebreaks: Option<Vec<String>>,
    bye_value: Option<String>,
    records_public: Option<bool>,
    records_required: Option<bool>,
}

/// A field that is present, even as `null` (`Some(None)`), as against one
/// left out (`None`, the default).
fn present<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

impl TournamentPatch {
    /// The stored settings as the form would show them, with this patch's
    /// fields typed over them: checked by the very checks of the form.
    fn over(self, stored: &Tournament) -> RawTournament {
        let mut raw = RawTournament::from_fields(&stored.fields());
        let text = |v: Option<i32>| v.map(|n| n.to_string()).unwrap_or_default();
        let yes = |b: bool| if b { "yes" } else { "" }.to_string();
        if let Some(v) = self.name {
            raw.name = v;
        }
        if let Some(v) = self.venue {
            raw.venue = v;
        }
        if let Some(v) = self.starts_on {
            raw.starts_on = v.unwrap_or_default();
        }
        if let Some(v) = self.ends_on {
            raw.ends_on = v.unwrap_or_default();
        }
        if let Some(v) = self.system {
            raw.system = v;
        }
        if let Some(v) = self.rules {
            raw.rules = v;
        }
        if let Some(v) = self.games_per_pairing {
            raw.games_per_pairing = v.to_string();
        }
        if let Some(v) = self.rounds {
            raw.rounds = text(v);
        }
        if let Some(v) = self.cycles {
            raw.cycles = v.to_string();
        }
        if let Some(v) = self.ranking {
            raw.ranking = v;
        }
        if let Some(v) = self.tiebreaks {
            raw.tiebreaks = v.join(",");
        }
        if let Some(v) = self.bye_value {
            raw.bye_value = v;
        }
        if let Some(v) = self.records_public {
            raw.records_public = yes(v);
        }
        if let Some(v) = self.records_required {
            raw.records_required = yes(v);
        }
        raw
    }
}

/// `PATCH /api/v1/tournaments/{tid}`: a locked setting that would change is
/// 409 naming it, and nothing changes.
pub async fn patch_tournament(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i32>,
    body: web::Json<TournamentPatch>,
) -> Result<HttpResponse, ApiError> {
    let t = refereed(&state, &user, path.into_inner()).await?;
    let fields = body.into_inner().over(&t).check().map_err(invalid)?;
    let id = t.id;
    let t = state
        .run(move |c| director::settings::update(c, id, &fields, &user))
        .await?;
    Ok(HttpResponse::Ok().json(TournamentJson::from(&t)))
}

/// `POST /api/v1/tournaments`
pub async fn create_tournament(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    body: web::Json<NewTournament>,
) -> Result<HttpResponse, ApiError> {
    let fields = RawTournament::from(body.into_inner())
        .check()
        .map_err(invalid)?;
    let t = state
        .run(move |c| tournaments::create(c, &fields, &user))
        .await?;
    Ok(HttpResponse::Created().json(TournamentJson::from(&t)))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NewPlayer {
    name: String,
    club: Option<String>,
    rating: Option<i32>,
    seed: Option<i32>,
    federation_id: Option<String>,
}

impl NewPlayer {
    /// The player's fields, checked as the form checks them.
    pub fn fields(self) -> Result<PlayerFields, Vec<crate::roster::FieldError>> {
        let opt = |v: Option<i32>| v.map(|n| n.to_string()).unwrap_or_default();
        PlayerFields::parse(
            &self.name,
            self.club.as_deref().unwrap_or(""),
            &opt(self.rating),
            &opt(self.seed),
            self.federation_id.as_deref().unwrap_or(""),
        )
    }
}

/// `POST /api/v1/tournaments/{tid}/players`
pub async fn add_player(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i32>,
    body: web::Json<NewPlayer>,
) -> Result<HttpResponse, ApiError> {
    let t = refereed(&state, &user, path.into_inner()).await?;
    let fields = body.into_inner().fields().map_err(invalid)?;
    let tid = t.id;
    let p = state
        .run(move |c| players::create(c, tid, &fields, &user))
        .await?;
    Ok(HttpResponse::Created().json(serde_json::json!({
        "id": p.id, "name": p.name, "club": p.club, "rating": p.rating, "seed": p.seed,
    })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewRelation {
    a: i32,
    b: i32,
}

/// `POST /api/v1/tournaments/{tid}/relations`
pub async fn add_relation(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i32>,
    body: web::Json<NewRelation>,
) -> Result<HttpResponse, ApiError> {
    let t = refereed(&state, &user, path.into_inner()).await?;
    let (tid, a, b) = (t.id, body.a, body.b);
    let id = state
        .run(move |c| players::add_relation(c, tid, a, b, &user))
        .await
        .map_err(|e| match e {
            AppError::NotFound(_) => {
                AppError::invalid("b", "both players must be in this tournament")
            }
            AppError::Conflict(m) if a == b => AppError::invalid("b", m),
            other => other,
        })?;
    Ok(HttpResponse::Created().json(serde_json::json!({ "id": id, "a": a.min(b), "b": a.max(b) })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewForbiddenBody {
    a: i32,
    b: i32,
    #[serde(default)]
    from_round: Option<i32>,
    #[serde(default)]
    to_round: Option<i32>,
}

/// A kept-apart pair as the API shows it.
#[derive(Debug, Serialize)]
pub struct ForbiddenJson {
    id: i32,
    a: i32,
    b: i32,
    from_round: Option<i32>,
    to_round: Option<i32>,
    waived: bool,
    note: String,
}

impl From<Forbidden> for ForbiddenJson {
    fn from(f: Forbidden) -> ForbiddenJson {
        ForbiddenJson {
            id: f.id,
            a: f.a,
            b: f.b,
            from_round: f.from_round,
            to_round: f.to_round,
            waived: f.waived,
            note: f.note,
        }
    }
}

/// `POST /api/v1/tournaments/{tid}/forbidden`: keeps two players apart.
pub async fn add_forbidden(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i32>,
    body: web::Json<NewForbiddenBody>,
) -> Result<HttpResponse, ApiError> {
    let t = refereed(&state, &user, path.into_inner()).await?;
    let tid = t.id;
    let new = NewForbidden {
        a: body.a,
        b: body.b,
        from_round: body.from_round,
        to_round: body.to_round,
    };
    let f = state
        .run(move |c| forbidden::add(c, tid, new, &user))
        .await?;
    Ok(HttpResponse::Created().json(ForbiddenJson::from(f)))
}

/// `DELETE /api/v1/tournaments/{tid}/forbidden/{fid}`: lifts the ban.
pub async fn remove_forbidden(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
) -> Result<HttpResponse, ApiError> {
    let (tid, fid) = path.into_inner();
    let t = refereed(&state, &user, tid).await?;
    let tid = t.id;
    state
        .run(move |c| forbidden::remove(c, tid, fid, &user))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaiverBody {
    #[serde(default)]
    reason: String,
}

/// `PUT /api/v1/tournaments/{tid}/forbidden/{fid}/waiver`: lets the pair
/// meet despite the ban, for the reason given.
pub async fn waive_forbidden(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
    body: web::Json<WaiverBody>,
) -> Result<HttpResponse, ApiError> {
    let (tid, fid) = path.into_inner();
    let t = refereed(&state, &user, tid).await?;
    let (tid, reason) = (t.id, body.into_inner().reason);
    let f = state
        .run(move |c| forbidden::waive(c, tid, fid, &reason, &user))
        .await?;
    Ok(HttpResponse::Ok().json(ForbiddenJson::from(f)))
}

/// `DELETE /api/v1/tournaments/{tid}/forbidden/{fid}/waiver`: keeps the
/// pair apart again.
pub async fn clear_forbidden_waiver(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
) -> Result<HttpResponse, ApiError> {
    let (tid, fid) = path.into_inner();
    let t = refereed(&state, &user, tid).await?;
    let tid = t.id;
    let f = state
        .run(move |c| forbidden::clear_waiver(c, tid, fid, &user))
        .await?;
    Ok(HttpResponse::Ok().json(ForbiddenJson::from(f)))
}

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
    games: Vec<GameJson>,
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
    games: Vec<GameJson>,
    explanation: Option<crate::pairing::explain::Explanation>,
    winner: Option<String>,
}

#[derive(Debug, Serialize)]
struct GameJson {
    id: i32,
    number: i32,
    starter: String,
    first_started: bool,
    /// The stored spelling, `""` until a result.
    result: &'static str,
    tiebreak: bool,
    version: i32,
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
    let round = state
        .run(move |c| director::pair::pair_next(c, tid, Then::Publish, &user))
        .await?;
    Ok(HttpResponse::Created().json(round_json(&state, tid, round.number, true).await?))
}

async fn round_json(
    state: &AppState,
    tid: i32,
    n: i32,
    may_see_drafts: bool,
) -> Result<RoundJson, ApiError> {
    let data = load_data(state, tid).await?;
    let round = data.round(n, may_see_drafts)?;
    let views = pairing_views(&data, &round);
    let matches = data.is_team_event().then(|| {
        match_views(&data, &round, &views)
            .into_iter()
            .map(MatchJson::from)
            .collect()
    });
    Ok(RoundJson {
        round: n,
        published: round.is_published(),
        pairings: views.into_iter().map(PairingJson::from).collect(),
        matches,
    })
}

/// `GET /api/v1/tournaments/{tid}/rounds/{n}`
pub async fn get_round(
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
) -> Result<HttpResponse, ApiError> {
    let (tid, n) = path.into_inner();
    Ok(HttpResponse::Ok().json(round_json(&state, tid, n, false).await?))
}

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
                    format!("'{text}' is not a result: use 1-0, 0-1, 1/2-1/2, +-, -+, -- or np"),
                )
            }),
        }
    }
}

/// `PUT /api/v1/games/{id}`: `{"result": "1-0"}`, from the starter's side.
pub async fn put_game(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i32>,
    body: web::Json<ResultBody>,
) -> Result<HttpResponse, ApiError> {
    let gid = path.into_inner();
    let ctx = state.run(move |c| rounds::game_context(c, gid)).await?;
    refereed(&state, &user, ctx.round.tournament_id).await?;
    let result = body.result()?;
    let edit = ResultEdit {
        game: gid,
        wanted: result,
        seen_version: body.version,
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
        return Err(AppError::Conflict(c.to_string()).into());
    }
    if let Some(r) = report.ruled.pop() {
        return Err(AppError::Conflict(format!(
            "{r} Send \"replace_ruling\": true to replace the ruling."
        ))
        .into());
    }
    if let Some((_, why)) = report.refused.pop() {
        return Err(AppError::Conflict(why).into());
    }
    let game = report
        .saved
        .pop()
        .or(report.unchanged.pop())
        .ok_or(AppError::Internal("a saved game went missing".into()))?;
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "id": game.id, "number": game.number, "starter": game.starter_player_id,
        "result": game.result, "tiebreak": game.tiebreak, "version": game.version,
    })))
}

/// `GET /api/v1/tournaments/{tid}/standings`
pub async fn standings(
    state: web::Data<AppState>,
    path: web::Path<i32>,
) -> Result<HttpResponse, ApiError> {
    let data = load_data(&state, path.into_inner()).await?;
    let names: Vec<String> = data
        .tournament
        .tiebreaks
        .iter()
        .map(|t| t.as_str().to_string())
        .collect();
    let clubs: std::collections::HashMap<u32, &str> = data
        .players
        .iter()
        .map(|p| (p.id as u32, p.club.as_str()))
        .collect();
    let totals = data.team_totals();
    let rows: Vec<serde_json::Value> = data
        .standings()
        .iter()
        .map(|s| {
            let tbs: serde_json::Map<String, serde_json::Value> = names
                .iter()
                .zip(&s.tiebreaks)
                .map(|(n, v)| (n.clone(), number(v.raw, v.denom)))
                .collect();
            if let Some(&(match_points, game_points)) = totals.get(&s.id) {
                return serde_json::json!({
                    "rank": s.rank, "team": s.id, "name": s.name,
                    "club": data.club_of(s.id),
                    "points": number(s.score, crate::pairing::POINT),
                    "points_text": show_points(s.score),
                    "match_points": number(match_points, crate::pairing::POINT),
                    "game_points": number(game_points, crate::pairing::POINT),
                    "tiebreaks": tbs, "separated_by": s.separated_by,
                });
            }
            serde_json::json!({
                "rank": s.rank, "player": s.id, "name": s.name,
                "club": clubs.get(&s.id).copied().unwrap_or(""),
                "points": number(s.score, crate::pairing::POINT),
                "points_text": show_points(s.score),
                "tiebreaks": tbs, "separated_by": s.separated_by,
            })
        })
        .collect();
    Ok(HttpResponse::build(StatusCode::OK).json(serde_json::json!({
        "tournament": data.tournament.id,
        "rounds_published": data.published().len(),
        "ranking": data.tournament.ranking,
        "tiebreaks": names,
        "standings": rows,
    })))
}

/// An exact value as a JSON number: whole numbers stay integers.
fn number(raw: i64, denom: i64) -> serde_json::Value {
    if raw % denom == 0 {
        serde_json::json!(raw / denom)
    } else {
        serde_json::json!(raw as f64 / denom as f64)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTeamBody {
    name: String,
    #[serde(default)]
    club: String,
    members: Vec<i32>,
    #[serde(default)]
    substitutes: Vec<i32>,
}

/// A team as the API shows it.
#[derive(Debug, Serialize)]
pub struct TeamJson {
    id: i32,
    name: String,
    club: String,
    /// Roster players, board 1 first.
    members: Vec<i32>,
    substitutes: Vec<i32>,
}

/// `POST /api/v1/tournaments/{tid}/teams`: enters a team of four players
/// of the tournament (board order) and its substitutes.
pub async fn add_team(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i32>,
    body: web::Json<NewTeamBody>,
) -> Result<HttpResponse, ApiError> {
    let t = refereed(&state, &user, path.into_inner()).await?;
    let b = body.into_inner();
    let new = crate::db::teams::NewTeam {
        name: b.name,
        club: b.club,
        members: b.members.clone(),
        substitutes: b.substitutes.clone(),
    };
    let tid = t.id;
    let team = state
        .run(move |c| crate::db::teams::create(c, tid, &new, &user))
        .await?;
    Ok(HttpResponse::Created().json(TeamJson {
        id: team.id,
        name: team.name,
        club: team.club,
        members: b.members,
        substitutes: b.substitutes,
    }))
}

/// `GET /api/v1/tournaments/{tid}/teams`
pub async fn list_teams(
    state: web::Data<AppState>,
    path: web::Path<i32>,
) -> Result<HttpResponse, ApiError> {
    let data = load_data(&state, path.into_inner()).await?;
    let teams: Vec<TeamJson> = data
        .teams
        .iter()
        .map(|t| TeamJson {
            id: t.id,
            name: t.name.clone(),
            club: t.club.clone(),
            members: data.roster(t.id),
            substitutes: data.substitutes(t.id),
        })
        .collect();
    Ok(HttpResponse::Ok().json(serde_json::json!({ "teams": teams })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineupBody {
    boards: Vec<i32>,
}

/// `PUT /api/v1/tournaments/{tid}/rounds/{n}/lineups/{team}`: who plays
/// boards 1-4; 409 when a player to be replaced has started (OGR 10.3.1).
pub async fn put_lineup(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32, i32)>,
    body: web::Json<LineupBody>,
) -> Result<HttpResponse, ApiError> {
    let (tid, n, team) = path.into_inner();
    let tid = refereed(&state, &user, tid).await?.id;
    let boards = body.into_inner().boards;
    let wanted = boards.clone();
    let change = state
        .run(move |c| {
            director::teams::set_lineup(
                c,
                tid,
                n,
                team,
                &wanted,
                None,
                crate::db::teams::Actor::Referee(&user),
            )
        })
        .await?;
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "team": team, "name": change.team, "round": n, "boards": boards, "changed": change.changed,
    })))
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
    report: Option<crate::rules::Report>,
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
            report: check.as_ref().ok().cloned(),
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
        let chunk = chunk
            .map_err(|e| AppError::BadRequest(format!("the request could not be read: {e}")))?;
        if body.len() + chunk.len() > limit {
            return Err(too_large());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

fn too_large() -> ApiError {
    ApiError(AppError::TooLarge(format!(
        "A record may be at most {} bytes (64 KB) of UTF-8 text; nothing was stored.",
        scoresheets::MAX_BYTES
    )))
}

/// `PUT /api/v1/games/{id}/scoresheet`: stores and checks a record, sent
/// as the body (`text/plain`, the side in `?side=`, the referee's copy if
/// none) or as JSON `{"text": ..., "side": ...}`.
pub async fn put_scoresheet(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<i32>,
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
            format!(
                "The record is not UTF-8 text (the bytes at offset {} are not); send it as UTF-8. Nothing was stored.",
                e.valid_up_to()
            ),
        ))
    };
    let (text, side) = if json {
        let b: RecordBody = serde_json::from_slice(&body).map_err(|e| {
            AppError::invalid(
                "text",
                format!("The JSON body could not be read ({e}); send {{\"text\": \"...\", \"side\": \"dark\"}}."),
            )
        })?;
        (b.text, b.side)
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
                format!("'{s}' is not a side: use dark, light or referee"),
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

/// `GET /api/v1/games/{id}`: the game with its records, their checks, the
/// comparison of the players' records, the flags and the rulings.
pub async fn get_game(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i32>,
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
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "id": g.game.id,
        "tournament": g.tournament.id,
        "round": g.round.number,
        "table": g.pairing.table_no,
        "number": g.game.number,
        "tiebreak": g.game.tiebreak,
        "dark": g.dark,
        "light": g.light,
        "result": g.game.result,
        "records": records,
        "first_difference": flags.differ_at,
        "flags": flags.lines(),
        "rulings": rulings,
    })))
}

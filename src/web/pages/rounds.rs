//! Rounds: pair, publish, undo; the results page built for speed at a venue;
//! the standings and their CSV.

use std::collections::HashMap;

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;
use serde::Serialize;

use super::{render, see_other, Ctx};
use crate::db::rounds::{self, Game, Pairing, Round};
use crate::db::tournaments;
use crate::director::{DirectorError, TournamentData};
use crate::pairing::explain::Explanation;
use crate::results::{fill_games, parse_pairing_score, tally, GameResult};
use crate::standings::{show_points, Standing};
use crate::web::auth::Referee;
use crate::web::error::AppError;
use crate::web::AppState;

pub async fn load_data(state: &AppState, tid: i32) -> Result<TournamentData, AppError> {
    state.run(move |c| crate::db::tournament_data(c, tid)).await
}

/// Pairs the next round and stores it as a draft.
pub async fn pair_next(
    state: &AppState,
    data: &TournamentData,
    by: &crate::db::users::User,
) -> Result<Round, AppError> {
    let (number, planned) = data.pair_next().map_err(|e| match e {
        DirectorError::NotReady(m) => AppError::Conflict(m),
        DirectorError::Pairing(p) => AppError::Conflict(format!("No valid pairing exists: {p}")),
    })?;
    let (tid, games, by) = (
        data.tournament.id,
        data.tournament.games_per_pairing,
        by.clone(),
    );
    state
        .run(move |c| rounds::create(c, tid, number, &planned, games, "", &by))
        .await
}

pub async fn create(r: Referee, state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    let data = load_data(&state, r.tournament.id).await?;
    let round = pair_next(&state, &data, &r.user).await?;
    Ok(see_other(&format!(
        "/t/{}/rounds/{}",
        round.tournament_id, round.number
    )))
}

pub async fn publish(
    r: Referee,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    state
        .run(move |c| rounds::publish(c, tid, n, &r.user))
        .await?;
    Ok(see_other(&format!("/t/{tid}/rounds/{n}")))
}

pub async fn undo(
    r: Referee,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    state.run(move |c| rounds::undo(c, tid, n, &r.user)).await?;
    Ok(see_other(&format!("/t/{tid}")))
}

/// One game as a row of the pairings page.
#[derive(Debug, Clone, Serialize)]
pub struct GameView {
    pub id: i32,
    pub number: i32,
    pub starter: String,
    pub first_started: bool,
    pub result: String,
    pub tiebreak: bool,
    pub version: i32,
}

/// One pairing as the pages and the API show it.
#[derive(Debug, Clone, Serialize)]
pub struct PairingView {
    pub id: i32,
    pub table: i32,
    pub first_id: Option<i32>,
    pub first: String,
    pub second_id: Option<i32>,
    pub second: String,
    /// `allocated`, `half` or `zero` for a bye.
    pub bye: Option<String>,
    /// The score from the first player's side, `1½-½`; empty until a result.
    pub score: String,
    pub games: Vec<GameView>,
    pub explanation: Option<Explanation>,
    /// For a knock-out: who went through, once decided.
    pub winner: Option<String>,
}

pub fn pairing_views(data: &TournamentData, round: &Round) -> Vec<PairingView> {
    let names: HashMap<i32, &str> = data
        .players
        .iter()
        .map(|p| (p.id, p.name.as_str()))
        .collect();
    let name = |id: Option<i32>| {
        id.and_then(|i| names.get(&i).map(|s| s.to_string()))
            .unwrap_or_default()
    };
    let knockout = data.tournament.system() == crate::tournament::System::Knockout;
    data.pairings_of(round)
        .into_iter()
        .map(|p: &Pairing| {
            let games: Vec<&Game> = data.games_of(p.id);
            let t = tally(
                games
                    .iter()
                    .filter(|g| !g.tiebreak)
                    .map(|g| (g.starter_player_id == p.first_player_id, g.result())),
            );
            let score = if t.decided > 0 {
                format!("{}-{}", show_points(t.first), show_points(t.second))
            } else {
                String::new()
            };
            PairingView {
                id: p.id,
                table: p.table_no,
                first_id: p.first_player_id,
                first: name(p.first_player_id),
                second_id: p.second_player_id,
                second: name(p.second_player_id),
                bye: p.bye.clone(),
                score,
                games: games
                    .iter()
                    .map(|g| GameView {
                        id: g.id,
                        number: g.number,
                        starter: name(g.starter_player_id),
                        first_started: g.starter_player_id == p.first_player_id,
                        result: g.result.clone().unwrap_or_default(),
                        tiebreak: g.tiebreak,
                        version: g.version,
                    })
                    .collect(),
                explanation: serde_json::from_str(&p.explanation).ok(),
                winner: if knockout && p.second_player_id.is_some() {
                    data.knockout_winner(p).map(|w| name(Some(w)))
                } else {
                    None
                },
            }
        })
        .collect()
}

#[derive(Template, WebTemplate)]
#[template(path = "round.html")]
pub struct RoundPage {
    ctx: Ctx,
    t: crate::db::tournaments::Tournament,
    round: Round,
    rounds: Vec<i32>,
    pairings: Vec<PairingView>,
    can_edit: bool,
    missing: usize,
}

impl RoundPage {
    fn show_score(&self, p: &i64) -> String {
        show_points(*p)
    }
}

pub async fn show(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let data = load_data(&state, tid).await?;
    let can_edit = can_edit(&state, &ctx, tid).await?;
    let round = data.round(n, can_edit)?;
    let page = RoundPage {
        pairings: pairing_views(&data, &round),
        missing: data.missing_results(&round),
        rounds: data
            .rounds
            .iter()
            .filter(|r| r.is_published() || can_edit)
            .map(|r| r.number)
            .collect(),
        ctx,
        t: data.tournament,
        round,
        can_edit,
    };
    render(&page, StatusCode::OK)
}

async fn can_edit(state: &AppState, ctx: &Ctx, tid: i32) -> Result<bool, AppError> {
    match &ctx.user {
        None => Ok(false),
        Some(u) if u.is_admin() => Ok(true),
        Some(u) => {
            let uid = u.id;
            state
                .run(move |c| tournaments::is_referee(c, tid, uid))
                .await
        }
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "results.html")]
pub struct ResultsPage {
    ctx: Ctx,
    t: crate::db::tournaments::Tournament,
    round: Round,
    pairings: Vec<PairingView>,
    typed: HashMap<String, String>,
    problems: Vec<String>,
    saved: usize,
}

impl ResultsPage {
    fn results(&self) -> &'static [GameResult] {
        GameResult::ALL
    }
    fn typed_score(&self, pairing: &i32) -> String {
        self.typed
            .get(&format!("s{pairing}"))
            .cloned()
            .unwrap_or_default()
    }
    fn typed_game(&self, game: &GameView) -> String {
        self.typed
            .get(&format!("g{}", game.id))
            .cloned()
            .unwrap_or_else(|| game.result.clone())
    }
}

pub async fn results_form(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
    query: web::Query<HashMap<String, String>>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let data = load_data(&state, tid).await?;
    let round = data.round(n, true)?;
    render(
        &ResultsPage {
            ctx,
            pairings: pairing_views(&data, &round),
            t: r.tournament,
            round,
            typed: HashMap::new(),
            problems: Vec::new(),
            saved: query.get("saved").and_then(|v| v.parse().ok()).unwrap_or(0),
        },
        StatusCode::OK,
    )
}

/// One change a results form asks for.
struct Wanted {
    game: i32,
    version: i32,
    result: Option<GameResult>,
}

/// Reads the results form: a pairing score (`s{pairing}`) fills that
/// pairing's main games; otherwise each game's own field (`g{game}`)
/// counts. `v{game}` carries the version the referee saw.
fn wanted_changes(
    pairings: &[PairingView],
    games_per_pairing: i32,
    form: &HashMap<String, String>,
    problems: &mut Vec<String>,
) -> Vec<Wanted> {
    let mut out = Vec::new();
    for p in pairings.iter().filter(|p| p.second_id.is_some()) {
        let version = |g: &GameView| {
            form.get(&format!("v{}", g.id))
                .and_then(|v| v.parse().ok())
                .unwrap_or(g.version)
        };
        let score = form
            .get(&format!("s{}", p.id))
            .map(|s| s.trim())
            .unwrap_or("");
        if !score.is_empty() {
            match parse_pairing_score(score, games_per_pairing as u32) {
                Ok((first, _)) => {
                    let filled = fill_games(first, games_per_pairing as u32);
                    for (g, r) in p.games.iter().filter(|g| !g.tiebreak).zip(filled) {
                        // fill_games writes results for the alternating starts of the pairing.
                        out.push(Wanted {
                            game: g.id,
                            version: version(g),
                            result: Some(r),
                        });
                    }
                }
                Err(m) => problems.push(format!("Table {}: {m}", p.table)),
            }
            continue;
        }
        for g in &p.games {
            let Some(text) = form.get(&format!("g{}", g.id)) else {
                continue;
            };
            let result = if text.trim().is_empty() {
                None
            } else {
                match GameResult::parse(text) {
                    Some(r) => Some(r),
                    None => {
                        problems.push(format!("Table {}, game {}: '{}' is not a result (1-0, 0-1, ½-½, +-, -+, --, np)", p.table, g.number, text.trim()));
                        continue;
                    }
                }
            };
            if result.map(|r| r.as_str().to_string()).unwrap_or_default() != g.result {
                out.push(Wanted {
                    game: g.id,
                    version: version(g),
                    result,
                });
            }
        }
    }
    out
}

/// Saves results game by game; a game changed meanwhile by someone else is
/// reported, never overwritten. Level knock-out pairings get their next
/// tiebreak set.
pub async fn save_results(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let form = form.into_inner();
    let data = load_data(&state, tid).await?;
    let round = data.round(n, true)?;
    let views = pairing_views(&data, &round);
    let mut problems = Vec::new();
    let wanted = wanted_changes(
        &views,
        data.tournament.games_per_pairing,
        &form,
        &mut problems,
    );
    let mut saved = 0;
    let mut conflict = false;
    for w in wanted {
        let user = r.user.clone();
        match state
            .run(move |c| rounds::set_result(c, w.game, w.result, w.version, &user))
            .await
        {
            Ok(_) => saved += 1,
            Err(AppError::Conflict(m)) => {
                conflict = true;
                problems.push(m);
            }
            Err(e) => return Err(e),
        }
    }
    add_tiebreak_sets(&state, tid, n).await?;
    let data = load_data(&state, tid).await?;
    let status = if conflict {
        StatusCode::CONFLICT
    } else if !problems.is_empty() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        return Ok(see_other(&format!(
            "/t/{tid}/rounds/{n}/results?saved={saved}"
        )));
    };
    render(
        &ResultsPage {
            ctx,
            pairings: pairing_views(&data, &round),
            t: data.tournament,
            round,
            typed: form,
            problems,
            saved,
        },
        status,
    )
}

/// After results of a knock-out round change: every pairing left level
/// after all its games gets its next tiebreak set (OGR 9.4).
pub async fn add_tiebreak_sets(state: &AppState, tid: i32, n: i32) -> Result<(), AppError> {
    state
        .run(move |c| rounds::add_tiebreak_sets(c, tid, n))
        .await
}

#[derive(Template, WebTemplate)]
#[template(path = "standings.html")]
pub struct StandingsPage {
    ctx: Ctx,
    t: crate::db::tournaments::Tournament,
    rows: Vec<Standing>,
    clubs: HashMap<u32, String>,
    rounds_published: usize,
}

impl StandingsPage {
    fn club(&self, id: &u32) -> &str {
        self.clubs.get(id).map(String::as_str).unwrap_or("")
    }
    fn pts(&self, p: &i64) -> String {
        show_points(*p)
    }
    fn tb_label(&self, name: &str) -> &'static str {
        crate::tournament::Tiebreak::parse(name).map_or("score", |t| t.label())
    }
}

pub async fn standings(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i32>,
) -> Result<HttpResponse, AppError> {
    let signed_in = ctx.user.is_some();
    public_page(
        &state,
        signed_in,
        path.into_inner(),
        "standings",
        move |data| {
            StandingsPage {
                ctx,
                rows: data.standings(),
                clubs: data
                    .players
                    .iter()
                    .map(|p| (p.id as u32, p.club.clone()))
                    .collect(),
                rounds_published: data.published().len(),
                t: data.tournament,
            }
            .render()
            .map_err(|e| AppError::Internal(e.to_string()))
        },
    )
    .await
}

pub async fn standings_csv_route(
    state: web::Data<AppState>,
    path: web::Path<i32>,
) -> Result<HttpResponse, AppError> {
    let data = load_data(&state, path.into_inner()).await?;
    let bytes =
        crate::export::standings::csv(&data).map_err(|e| AppError::Internal(e.to_string()))?;
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!(
                "attachment; filename=\"{}-standings.csv\"",
                super::players::slug(&data.tournament.name)
            ),
        ))
        .body(bytes))
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct SwapForm {
    a: String,
    b: String,
    /// Set when the referee has read the warnings and confirms.
    confirm: String,
}

/// Swaps two players of a draft round by hand. When the swap breaks a rule
/// the referee is shown every one and must confirm; the swap is audited
/// with the rules it broke.
pub async fn swap(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
    form: web::Form<SwapForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let parse = |field: &str, v: &str| {
        v.trim()
            .parse::<i32>()
            .map_err(|_| AppError::invalid(field, "choose a player"))
    };
    let (a, b) = (parse("a", &form.a)?, parse("b", &form.b)?);
    let data = load_data(&state, tid).await?;
    let round = data.round(n, true)?;
    let broken = data.swap_warnings(&round, a, b);
    if !broken.is_empty() && form.confirm != "yes" {
        let page = SwapPage {
            ctx,
            t: data.tournament.clone(),
            round,
            a,
            b,
            broken,
        };
        return render(&page, StatusCode::OK);
    }
    state
        .run(move |c| rounds::swap_players(c, tid, n, a, b, &broken, &r.user))
        .await?;
    Ok(see_other(&format!("/t/{tid}/rounds/{n}")))
}

#[derive(Template, WebTemplate)]
#[template(path = "swap.html")]
pub struct SwapPage {
    ctx: Ctx,
    t: crate::db::tournaments::Tournament,
    round: Round,
    a: i32,
    b: i32,
    broken: Vec<String>,
}

/// Serves a public page of a tournament: anonymous visitors get the cached
/// copy while the tournament has not changed; signed-in users (whose header
/// differs) always get a fresh one.
pub async fn public_page(
    state: &AppState,
    signed_in: bool,
    tid: i32,
    page: &str,
    build: impl FnOnce(TournamentData) -> Result<String, AppError>,
) -> Result<HttpResponse, AppError> {
    let html = |body: actix_web::web::Bytes| {
        HttpResponse::Ok()
            .content_type("text/html; charset=utf-8")
            .body(body)
    };
    if !signed_in {
        match state.pages.lookup(tid, page) {
            crate::web::Cached::Fresh(body) => return Ok(html(body)),
            crate::web::Cached::Stale(_) | crate::web::Cached::Missing => {
                let revision = state.run(move |c| tournaments::revision(c, tid)).await?;
                if let Some(body) = state.pages.confirm(tid, page, revision) {
                    return Ok(html(body));
                }
            }
        }
    }
    let data = load_data(state, tid).await?;
    let revision = data.tournament.revision;
    let body = actix_web::web::Bytes::from(build(data)?);
    if !signed_in {
        state.pages.put(tid, page, revision, body.clone());
    }
    Ok(html(body))
}

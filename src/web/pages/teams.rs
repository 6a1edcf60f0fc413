//! Team events: the teams and their pages, team entry and CSV import,
//! line-ups (by the referee, or by a captain through the team's secret
//! link), marking a match's boards started, match cards and the match
//! results CSV.

use crate::field::{Chosen, Problem};
use crate::refusal::{Kind, Refusal, Thing};
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::director::model::Round;
use crate::director::model::Tournament;
use crate::director::model::{Actor, NewTeam, Team};
use crate::director::teams;
use crate::director::teams::{set_lineup, start_match};
use crate::director::TournamentData;
use crate::export::players::ImportError;
use crate::ids::{EntryId, PairingId, RoundNo, TeamId, TournamentId};
use crate::standings::show_points;
use crate::web::auth::can_edit;
use crate::web::auth::Referee;
use crate::web::error::AppError;
use crate::web::layout::{absolute_url, qr_svg};
use crate::web::layout::{render, see_other, Ctx, FormErrors, FORM_ERROR};
use crate::web::views::round::{load_data, pairing_views};
use crate::web::views::team::{match_views, MatchView};
use crate::web::AppState;

/// A team with its players' names, as the pages list it.
#[derive(Debug, Clone)]
pub struct TeamView {
    pub id: TeamId,
    pub name: String,
    pub club: String,
    /// (player id, name), board 1 first.
    pub roster: Vec<(EntryId, String)>,
    pub substitutes: Vec<(EntryId, String)>,
}

fn team_views(data: &TournamentData) -> Vec<TeamView> {
    let names = data.player_names();
    let named = |ids: Vec<EntryId>| {
        ids.into_iter()
            .map(|p| (p, names.get(&p).copied().unwrap_or("").to_string()))
            .collect()
    };
    data.teams
        .iter()
        .map(|t| TeamView {
            id: t.id,
            name: t.name.clone(),
            club: t.club.clone(),
            roster: named(data.roster(t.id)),
            substitutes: named(data.substitutes(t.id)),
        })
        .collect()
}

/// The team form as typed: four board selects and the substitutes' boxes.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct TeamRaw {
    pub name: String,
    pub club: String,
    pub b1: String,
    pub b2: String,
    pub b3: String,
    pub b4: String,
    /// Player ids, comma-separated (the form's checkboxes are joined).
    pub substitutes: String,
}

#[derive(Template)]
#[template(path = "teams.html")]
pub struct TeamsPage {
    ctx: Ctx,
    t: Tournament,
    teams: Vec<TeamView>,
    can_edit: bool,
    /// Players on no team yet: the add form's choices.
    free: Vec<(EntryId, String)>,
    raw: TeamRaw,
    errors: FormErrors,
    csv: String,
    problems: Vec<ImportError>,
    imported: Option<usize>,
}

impl TeamsPage {
    fn picked(&self, field: &str, id: &EntryId) -> bool {
        let v = match field {
            "b1" => &self.raw.b1,
            "b2" => &self.raw.b2,
            "b3" => &self.raw.b3,
            _ => &self.raw.b4,
        };
        v == &id.to_string()
    }
}

async fn teams_page(
    state: &AppState,
    ctx: Ctx,
    tid: TournamentId,
    raw: TeamRaw,
    errors: FormErrors,
) -> Result<TeamsPage, AppError> {
    let data = load_data(state, tid).await?;
    let can_edit = can_edit(state, &ctx, tid).await?;
    let free = data
        .players
        .iter()
        .filter(|p| data.team_of(p.id).is_none())
        .map(|p| (p.id, p.name.clone()))
        .collect();
    Ok(TeamsPage {
        ctx,
        teams: team_views(&data),
        can_edit,
        free,
        raw,
        errors,
        csv: String::new(),
        problems: Vec::new(),
        imported: None,
        t: data.tournament,
    })
}

/// `GET /t/{tid}/teams`
pub async fn list(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let page = teams_page(
        &state,
        ctx,
        path.into_inner(),
        TeamRaw::default(),
        FormErrors::default(),
    )
    .await?;
    render(&page, StatusCode::OK)
}

fn ids(field: &'static str, text: &str) -> Result<Vec<EntryId>, FormErrors> {
    text.split([',', ' '])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<EntryId>().map_err(|_| {
                let mut e = FormErrors::default();
                e.problem(
                    field,
                    Problem::NotAPlayer {
                        text: s.to_string(),
                    },
                );
                e
            })
        })
        .collect()
}

/// `POST /t/{tid}/teams`: enters a team from the form.
pub async fn add(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    // Checkboxes repeat the `substitutes` field: join them.
    let mut raw = TeamRaw::default();
    let mut subs = Vec::new();
    for (k, v) in form.into_inner() {
        match k.as_str() {
            "name" => raw.name = v,
            "club" => raw.club = v,
            "b1" => raw.b1 = v,
            "b2" => raw.b2 = v,
            "b3" => raw.b3 = v,
            "b4" => raw.b4 = v,
            "substitutes" => subs.push(v),
            _ => {}
        }
    }
    raw.substitutes = subs.join(",");
    let tid = r.tournament.id;
    let checked = (|| {
        let mut members = Vec::new();
        for (k, b) in [&raw.b1, &raw.b2, &raw.b3, &raw.b4].iter().enumerate() {
            let field = ["b1", "b2", "b3", "b4"][k];
            match ids(field, b)?.as_slice() {
                [one] => members.push(*one),
                _ => {
                    let mut e = FormErrors::default();
                    e.problem(
                        field,
                        Problem::NotChosen {
                            what: Chosen::BoardPlayer { board: k + 1 },
                        },
                    );
                    return Err(e);
                }
            }
        }
        Ok(NewTeam {
            name: raw.name.clone(),
            club: raw.club.clone(),
            members,
            substitutes: ids("substitutes", &raw.substitutes)?,
        })
    })();
    let new = match checked {
        Ok(n) => n,
        Err(errors) => {
            return render(
                &teams_page(&state, ctx, tid, raw, errors).await?,
                FORM_ERROR,
            )
        }
    };
    match state
        .write(Some(r.user.id), move |w| teams::create(w, tid, &new))
        .await
    {
        Ok(_) => Ok(see_other(&format!("/t/{tid}/teams"))),
        Err(e) if e.is(Kind::Invalid) => {
            let mut errors = FormErrors::default();
            let (field, message) = e.said();
            let field = if field == "members" { "b1" } else { field };
            errors.add(field, message);
            render(
                &teams_page(&state, ctx, tid, raw, errors).await?,
                FORM_ERROR,
            )
        }
        Err(e) if e.is(Kind::Conflict) => {
            let mut errors = FormErrors::default();
            errors.add("name", e.said().1);
            render(
                &teams_page(&state, ctx, tid, raw, errors).await?,
                StatusCode::CONFLICT,
            )
        }
        Err(e) => Err(e),
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ImportForm {
    csv: String,
}

/// `POST /t/{tid}/teams/import`: players and teams from one CSV, all or
/// nothing.
pub async fn import(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    form: web::Form<ImportForm>,
) -> Result<HttpResponse, AppError> {
    let tid = r.tournament.id;
    let csv = form.into_inner().csv;
    let result = match crate::export::teams::read(&csv) {
        Ok(plan) => {
            let stored = state
                .run(move |c| {
                    // A refusal is an answer naming the team's line; only
                    // a busy database is tried again.
                    match crate::director::teams::import(c, tid, &plan, &r.user) {
                        Err(refused) if refused.error.is_busy() => Err(refused.error),
                        other => Ok(other),
                    }
                })
                .await?;
            match stored {
                Ok(teams) => Ok(teams.len()),
                Err(refused) => {
                    let refused_with = AppError::from(refused.error);
                    let (column, message) = match refused_with.refusal() {
                        Some(Refusal::Invalid(e)) if e.field != "name" => refused_with.said(),
                        Some(Refusal::Invalid(_) | Refusal::Conflict(_) | Refusal::Roster(_)) => {
                            ("team", refused_with.said().1)
                        }
                        _ => return Err(refused_with),
                    };
                    Err(vec![ImportError {
                        // A refusal of the whole file (a round already
                        // paired) is about its header.
                        line: refused.line.unwrap_or(1),
                        column: if refused.line.is_some() {
                            column.into()
                        } else {
                            String::new()
                        },
                        message,
                    }])
                }
            }
        }
        Err(problems) => Err(problems),
    };
    let mut page = teams_page(&state, ctx, tid, TeamRaw::default(), FormErrors::default()).await?;
    match result {
        Ok(n) => {
            page.imported = Some(n);
            render(&page, StatusCode::OK)
        }
        Err(problems) => {
            page.problems = problems;
            page.csv = csv;
            render(&page, FORM_ERROR)
        }
    }
}

/// One match of a team, from the team's side.
#[derive(Debug, Clone)]
pub struct TeamMatchRow {
    pub round: RoundNo,
    pub opponent: String,
    pub opponent_id: Option<TeamId>,
    /// `W`, `D`, `L`, `bye`, `so far` while boards are still being played,
    /// or empty until a result.
    pub mark: String,
    pub score: String,
    /// Who played each board for the team.
    pub players: Vec<String>,
}

#[derive(Template)]
#[template(path = "team.html")]
pub struct TeamPage {
    ctx: Ctx,
    t: Tournament,
    team: TeamView,
    matches: Vec<TeamMatchRow>,
    can_edit: bool,
    /// For referees, right after it is made: the captain's link and its
    /// QR code (shown once: only its digest is kept).
    captain_url: String,
    qr: String,
    /// The team has a captain's link (made earlier, not shown again).
    has_link: bool,
}

/// `GET /t/{tid}/teams/{team}`
pub async fn show(
    ctx: Ctx,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, TeamId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, team_id) = path.into_inner();
    team_page(ctx, &req, &state, tid, team_id, None).await
}

/// A team's page; `fresh_link` is the secret of a captain's link just
/// made, shown this once.
async fn team_page(
    ctx: Ctx,
    req: &HttpRequest,
    state: &AppState,
    tid: TournamentId,
    team_id: TeamId,
    fresh_link: Option<String>,
) -> Result<HttpResponse, AppError> {
    let data = load_data(state, tid).await?;
    let can_edit = can_edit(state, &ctx, tid).await?;
    let team = team_views(&data)
        .into_iter()
        .find(|t| t.id == team_id)
        .ok_or_else(|| AppError::not_found(Thing::Team))?;
    let names = data.player_names();
    let matches = data
        .rounds
        .iter()
        .filter(|r| r.is_published() || can_edit)
        .filter_map(|r| {
            let m = data.match_of(r, team_id)?;
            let first = m.first_team_id == Some(team_id);
            let other = if first {
                m.second_team_id
            } else {
                m.first_team_id
            };
            let s = data.match_score(r, m);
            let (mine, theirs) = if first {
                (s.first, s.second)
            } else {
                (s.second, s.first)
            };
            let mark = match other {
                None => "bye".to_string(),
                // A match still being played has no result yet, whatever
                // its boards say so far.
                Some(_) if s.decided == 0 => String::new(),
                Some(_) if !s.complete() => "so far".to_string(),
                Some(_) => match mine.cmp(&theirs) {
                    std::cmp::Ordering::Greater => "W".into(),
                    std::cmp::Ordering::Equal => "D".into(),
                    std::cmp::Ordering::Less => "L".into(),
                },
            };
            Some(TeamMatchRow {
                round: r.number,
                opponent: other
                    .and_then(|o| data.team(o))
                    .map_or(String::new(), |t| t.name.clone()),
                opponent_id: other,
                score: if s.decided == 0 {
                    String::new()
                } else {
                    format!("{}-{}", show_points(mine), show_points(theirs))
                },
                mark,
                players: data
                    .lineup(r, team_id)
                    .iter()
                    .map(|p| names.get(p).copied().unwrap_or("").to_string())
                    .collect(),
            })
        })
        .collect();
    let (captain_url, qr) = match fresh_link {
        Some(token) if can_edit => {
            let url = absolute_url(req, &format!("/captain/{token}"));
            (url.clone(), qr_svg(&url))
        }
        _ => (String::new(), String::new()),
    };
    let has_link = data
        .team(team_id)
        .is_some_and(|t| t.captain_digest.is_some());
    let page = TeamPage {
        ctx,
        team,
        matches,
        can_edit,
        captain_url,
        qr,
        has_link,
        t: data.tournament,
    };
    // A referee's copy is not cached (`auth::guard` says `no-store` to
    // every signed-in request).
    render(&page, StatusCode::OK)
}

/// `POST /t/{tid}/teams/{team}/captain-link`: a new captain's link, shown
/// on the team's page this once; the old one stops working.
pub async fn renew_link(
    r: Referee,
    ctx: Ctx,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, TeamId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, team_id) = path.into_inner();
    let token = state
        .write(Some(r.user.id), move |w| {
            teams::renew_captain_link(w, tid, team_id)
        })
        .await?;
    team_page(ctx, &req, &state, tid, team_id, Some(token)).await
}

/// A board of the line-up form: who plays it now, and whether it has
/// started (then it cannot change).
#[derive(Debug, Clone)]
pub struct BoardChoice {
    pub board: usize,
    pub current: EntryId,
    pub current_name: String,
    pub started: bool,
}

#[derive(Template)]
#[template(path = "lineup.html")]
pub struct LineupPage {
    ctx: Ctx,
    t: Tournament,
    team: TeamView,
    round: RoundNo,
    opponent: String,
    boards: Vec<BoardChoice>,
    /// Where the form posts: the referee's route or the captain's link.
    action: String,
    /// The captain's view: no account, no links to the referee's pages.
    captain: bool,
    /// Nothing can change any more (for a captain: the boards started).
    closed: bool,
    message: String,
    error: String,
    saved: bool,
}

impl LineupPage {
    fn choices(&self) -> Vec<(EntryId, String)> {
        self.team
            .roster
            .iter()
            .chain(&self.team.substitutes)
            .cloned()
            .collect()
    }
    fn is_substitute(&self, id: &EntryId) -> bool {
        self.team.substitutes.iter().any(|(p, _)| p == id)
    }
}

/// Builds the line-up page of `team` for round `n`.
fn lineup_page(
    ctx: Ctx,
    data: &TournamentData,
    round: &Round,
    team: &Team,
    action: String,
    captain: bool,
) -> Result<LineupPage, AppError> {
    let view = team_views(data)
        .into_iter()
        .find(|t| t.id == team.id)
        .ok_or_else(|| AppError::not_found(Thing::Team))?;
    let m = data.match_of(round, team.id).ok_or_else(|| {
        AppError::from(crate::rounds::Refused::NoMatch {
            team: team.name.clone(),
            round: round.number.0,
        })
    })?;
    let other = if m.first_team_id == Some(team.id) {
        m.second_team_id
    } else {
        m.first_team_id
    };
    let names = data.player_names();
    let current = data.lineup(round, team.id);
    let board_rows = data.boards_of(round, m.id);
    let boards: Vec<BoardChoice> = current
        .iter()
        .zip(&board_rows)
        .enumerate()
        .map(|(k, (&p, b))| BoardChoice {
            board: k + 1,
            current: p,
            current_name: names.get(&p).copied().unwrap_or("").to_string(),
            started: data.board_started(b),
        })
        .collect();
    let any_started = boards.iter().any(|b| b.started);
    let closed = other.is_none() || (captain && any_started) || boards.iter().all(|b| b.started);
    let message = if other.is_none() {
        format!(
            "{} has the bye in round {}: no line-up is needed.",
            team.name, round.number
        )
    } else if captain && any_started {
        format!(
            "The boards of round {} have started: the line-up can no longer be changed here. Ask the referee.",
            round.number
        )
    } else if closed {
        "Every board has started: no player can be replaced any more (OGR 10.3.1).".into()
    } else {
        String::new()
    };
    Ok(LineupPage {
        ctx,
        t: data.tournament.clone(),
        team: view,
        round: round.number,
        opponent: other
            .and_then(|o| data.team(o))
            .map_or(String::new(), |t| t.name.clone()),
        boards,
        action,
        captain,
        closed,
        message,
        error: String::new(),
        saved: false,
    })
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LineupForm {
    b1: String,
    b2: String,
    b3: String,
    b4: String,
    /// The players the form showed on boards 1-4 (`o1`..`o4`).
    o1: String,
    o2: String,
    o3: String,
    o4: String,
}

impl LineupForm {
    /// The line-up the form was shown with, when it says so.
    fn seen(&self) -> Option<Vec<EntryId>> {
        [&self.o1, &self.o2, &self.o3, &self.o4]
            .iter()
            .map(|v| v.trim().parse::<EntryId>().ok())
            .collect()
    }

    fn boards(&self) -> Result<Vec<EntryId>, AppError> {
        [
            ("b1", &self.b1),
            ("b2", &self.b2),
            ("b3", &self.b3),
            ("b4", &self.b4),
        ]
        .iter()
        .enumerate()
        .map(|(k, (field, v))| {
            v.trim().parse::<EntryId>().map_err(|_| {
                AppError::invalid(
                    field,
                    Problem::NotChosen {
                        what: Chosen::BoardPlayer { board: k + 1 },
                    },
                )
            })
        })
        .collect()
    }
}

/// `GET /t/{tid}/rounds/{n}/lineups/{team}`
pub async fn lineup_form(
    _referee: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo, TeamId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n, team_id) = path.into_inner();
    let data = load_data(&state, tid).await?;
    let round = data.round(n, true)?;
    let team = data
        .team(team_id)
        .cloned()
        .ok_or_else(|| AppError::not_found(Thing::Team))?;
    let page = lineup_page(
        ctx,
        &data,
        &round,
        &team,
        format!("/t/{tid}/rounds/{n}/lineups/{team_id}"),
        false,
    )?;
    render(&page, StatusCode::OK)
}

/// Who sends a line-up form: a referee, or a captain by the link's secret.
enum Sender {
    Referee(crate::director::model::User),
    Captain(String),
}

/// Applies a line-up form and shows the page again: saved, or with the
/// reason it was refused.
async fn save_lineup(
    state: &AppState,
    ctx: Ctx,
    tid: TournamentId,
    n: RoundNo,
    team: Team,
    form: LineupForm,
    sender: Sender,
) -> Result<HttpResponse, AppError> {
    let (referee, action) = match sender {
        Sender::Referee(u) => (Some(u), format!("/t/{tid}/rounds/{n}/lineups/{}", team.id)),
        Sender::Captain(token) => (None, format!("/captain/{token}")),
    };
    let captain = referee.is_none();
    let seen = form.seen();
    let outcome = match form.boards() {
        Err(m) => Err(m),
        Ok(boards) => {
            let team_id = team.id;
            let name = team.name.clone();
            state
                .run(move |c| {
                    let actor = match &referee {
                        Some(u) => Actor::Referee(u),
                        None => Actor::Captain { team: &name },
                    };
                    set_lineup(c, tid, n, team_id, &boards, seen.as_deref(), actor)
                })
                .await
        }
    };
    let data = load_data(state, tid).await?;
    let round = data.round(n, !captain)?;
    let mut page = lineup_page(ctx, &data, &round, &team, action, captain)?;
    match outcome {
        Ok(_) => {
            page.saved = true;
            render(&page, StatusCode::OK)
        }
        // A refusal of the boards' state (started: OGR 10.3.1) is a
        // conflict; of the line-up given, the form's own error.
        Err(e) => {
            let status = if e.is(Kind::Conflict) {
                StatusCode::CONFLICT
            } else {
                FORM_ERROR
            };
            page.error = e.said().1;
            render(&page, status)
        }
    }
}

/// `POST /t/{tid}/rounds/{n}/lineups/{team}`
pub async fn lineup_save(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo, TeamId)>,
    form: web::Form<LineupForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, n, team_id) = path.into_inner();
    let data = load_data(&state, tid).await?;
    let team = data
        .team(team_id)
        .cloned()
        .ok_or_else(|| AppError::not_found(Thing::Team))?;
    save_lineup(
        &state,
        ctx,
        tid,
        n,
        team,
        form.into_inner(),
        Sender::Referee(r.user),
    )
    .await
}

/// The team behind a captain's link, and the round its line-up is for:
/// the last published round.
async fn captain_team(
    state: &AppState,
    token: String,
) -> Result<(Team, TournamentData, Option<Round>), AppError> {
    let team = state
        .run(move |c| teams::by_captain_token(c, &token))
        .await?
        .ok_or_else(|| AppError::not_found(Thing::CaptainLink))?;
    let data = load_data(state, team.tournament_id).await?;
    let round = data.published().last().map(|r| (*r).clone());
    Ok((team, data, round))
}

#[derive(Template)]
#[template(path = "captain_idle.html")]
pub struct CaptainIdle {
    ctx: Ctx,
    t: Tournament,
    team: String,
}

/// `GET /captain/{token}`: the captain's line-up page, no account needed.
pub async fn captain(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let ctx = Ctx::with_csrf(&req);
    let token = path.into_inner();
    let (team, data, round) = captain_team(&state, token.clone()).await?;
    let mut reply = match round {
        None => render(
            &CaptainIdle {
                ctx,
                t: data.tournament.clone(),
                team: team.name.clone(),
            },
            StatusCode::OK,
        )?,
        Some(round) => render(
            &lineup_page(ctx, &data, &round, &team, format!("/captain/{token}"), true)?,
            StatusCode::OK,
        )?,
    };
    reply.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    reply.headers_mut().insert(
        header::REFERRER_POLICY,
        header::HeaderValue::from_static("no-referrer"),
    );
    Ok(reply)
}

/// `POST /captain/{token}`: the captain gives or changes the line-up of
/// the last published round, until its boards start.
pub async fn captain_save(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<LineupForm>,
) -> Result<HttpResponse, AppError> {
    let ctx = Ctx::with_csrf(&req);
    let token = path.into_inner();
    let (team, data, round) = captain_team(&state, token.clone()).await?;
    let Some(round) = round else {
        return Err(crate::rounds::Refused::NoRoundPublished.into());
    };
    save_lineup(
        &state,
        ctx,
        data.tournament.id,
        round.number,
        team,
        form.into_inner(),
        Sender::Captain(token),
    )
    .await
}

/// `POST /t/{tid}/rounds/{n}/matches/{mid}/start`: the boards of a match
/// have started; their players can no longer be replaced.
pub async fn start(
    r: Referee,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo, PairingId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n, mid) = path.into_inner();
    state
        .run(move |c| start_match(c, tid, n, mid, &r.user))
        .await?;
    Ok(see_other(&format!("/t/{tid}/rounds/{n}#match-{mid}")))
}

#[derive(Template)]
#[template(path = "match_cards.html")]
pub struct CardsPage {
    ctx: Ctx,
    t: Tournament,
    round: Round,
    matches: Vec<MatchView>,
    date: String,
}

/// `GET /t/{tid}/rounds/{n}/cards`: one printable card per match.
pub async fn cards(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let data = load_data(&state, tid).await?;
    let can_edit = can_edit(&state, &ctx, tid).await?;
    let round = data.round(n, can_edit)?;
    let pairings = pairing_views(&data, &round);
    let matches = match_views(&data, &round, &pairings)
        .into_iter()
        .filter(|m| !m.is_bye())
        .collect();
    let page = CardsPage {
        ctx,
        matches,
        date: crate::web::layout::sheet_date(&round),
        t: data.tournament,
        round,
    };
    render(&page, StatusCode::OK)
}

/// The match results of a round as CSV: one line per match, with each
/// board's score from the first team's side.
pub fn matches_csv(data: &TournamentData, round: &Round) -> Result<Vec<u8>, csv::Error> {
    let pairings = pairing_views(data, round);
    let rows: Vec<Vec<String>> = match_views(data, round, &pairings)
        .into_iter()
        .map(|m| {
            let s = &m.points;
            let dec = |p| crate::standings::decimal(p, crate::pairing::POINT);
            let mut rec = vec![
                round.number.to_string(),
                m.table.to_string(),
                m.first_team.clone(),
                m.second_team.clone(),
            ];
            if m.is_bye() {
                rec.extend(["bye".to_string(), String::new(), String::new()]);
            } else {
                rec.push(if s.decided == 0 {
                    String::new()
                } else {
                    match s.first.cmp(&s.second) {
                        std::cmp::Ordering::Greater => "1-0".into(),
                        std::cmp::Ordering::Equal => "draw".into(),
                        std::cmp::Ordering::Less => "0-1".into(),
                    }
                });
                rec.push(dec(s.first));
                rec.push(dec(s.second));
            }
            for k in 0..teams::BOARDS {
                rec.push(
                    s.boards
                        .get(k)
                        .map(|&(a, b)| format!("{}-{}", dec(a), dec(b)))
                        .unwrap_or_default(),
                );
            }
            rec
        })
        .collect();
    crate::export::table(
        &[
            "round",
            "match",
            "first_team",
            "second_team",
            "result",
            "first_points",
            "second_points",
            "board_1",
            "board_2",
            "board_3",
            "board_4",
        ],
        rows,
    )
}

/// `GET /t/{tid}/rounds/{n}/matches.csv`
pub async fn matches_csv_route(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let data = load_data(&state, tid).await?;
    let round = data.round(n, false)?;
    crate::web::layout::csv_download(
        matches_csv(&data, &round),
        &data.tournament.name,
        &format!("round-{n}-matches"),
    )
}

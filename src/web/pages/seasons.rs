//! Season pages: the list with the form that makes one, a season's table,
//! its CSV, and the same form again to change or delete it.

use actix_web::{web, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;

use crate::director::model::Season;
use crate::director::model::Tournament;
use crate::director::seasons;
use crate::director::seasons::Line;
use crate::director::tournaments;
use crate::export::seasons::points as shown_points;
use crate::field::Problem;
use crate::ids::{SeasonId, TournamentId};
use crate::refusal::Kind;
use crate::season::SeasonFields;
use crate::web::auth::SignedIn;
use crate::web::error::AppError;
use crate::web::layout::{csv_download, render, see_other, Confirm, Ctx, FormErrors, FORM_ERROR};
use crate::web::AppState;

/// The form as typed: `event` once per chosen tournament, `weight_{id}`
/// beside each.
#[derive(Debug, Clone, Default)]
pub struct SeasonRaw {
    pub name: String,
    pub points: String,
    pub best: String,
    pub events: Vec<TournamentId>,
    pub weights: Vec<(TournamentId, String)>,
}

impl SeasonRaw {
    fn of(pairs: Vec<(String, String)>) -> SeasonRaw {
        let mut raw = SeasonRaw::default();
        for (k, v) in pairs {
            match k.as_str() {
                "name" => raw.name = v,
                "points" => raw.points = v,
                "best" => raw.best = v,
                "event" => raw.events.extend(v.trim().parse::<TournamentId>().ok()),
                _ => {
                    if let Some(id) = k.strip_prefix("weight_").and_then(|i| i.parse().ok()) {
                        raw.weights.push((id, v));
                    }
                }
            }
        }
        raw
    }

    /// A stored season as the form shows it, every number as stored (a
    /// save without a change keeps them to the last digit).
    fn of_season(s: &Season) -> SeasonRaw {
        SeasonRaw {
            name: s.name.clone(),
            points: s
                .points
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            best: s.best.map(|b| b.to_string()).unwrap_or_default(),
            events: s.events.iter().map(|(t, _, _)| *t).collect(),
            weights: s
                .events
                .iter()
                .map(|(t, _, w)| (*t, w.to_string()))
                .collect(),
        }
    }

    pub fn weight_of(&self, id: &TournamentId) -> String {
        self.weights
            .iter()
            .find(|(t, _)| t == id)
            .map_or_else(|| "1".into(), |(_, w)| w.clone())
    }

    pub fn chose(&self, id: &TournamentId) -> bool {
        self.events.contains(id)
    }

    fn check(&self) -> Result<SeasonFields, FormErrors> {
        let mut errors = FormErrors::default();
        let points: Option<Vec<f64>> = match self.points.trim() {
            "" => None,
            text => {
                let parsed: Result<Vec<f64>, _> = text
                    .split([',', ' '])
                    .filter(|p| !p.is_empty())
                    .map(str::parse::<f64>)
                    .collect();
                match parsed {
                    Ok(p) => Some(p),
                    Err(_) => {
                        errors.problem(
                            "points",
                            Problem::NotANumberList {
                                text: text.to_string(),
                            },
                        );
                        None
                    }
                }
            }
        };
        let best = match self.best.trim() {
            "" => None,
            text => match text.parse::<i64>() {
                Ok(n) => Some(n),
                Err(_) => {
                    errors.problem(
                        "best",
                        Problem::NotWholeNumber {
                            text: text.to_string(),
                        },
                    );
                    None
                }
            },
        };
        let mut events = Vec::new();
        for id in &self.events {
            let w = self.weight_of(id);
            match w.trim().parse::<f64>() {
                Ok(v) => events.push((id.0, Some(v))),
                Err(_) => errors.problem(
                    "weight",
                    Problem::NotANumber {
                        text: w.to_string(),
                    },
                ),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        SeasonFields::check(&self.name, points.as_deref(), best, &events).map_err(FormErrors::from)
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "seasons.html")]
pub struct SeasonsPage {
    ctx: Ctx,
    seasons: Vec<(SeasonId, String)>,
    tournaments: Vec<Tournament>,
    raw: SeasonRaw,
    errors: FormErrors,
}

async fn seasons_page(
    state: &AppState,
    ctx: Ctx,
    raw: SeasonRaw,
    errors: FormErrors,
) -> Result<SeasonsPage, AppError> {
    let (seasons, tournaments) = state
        .run(|c| Ok((seasons::list(c)?, tournaments::list(c)?)))
        .await?;
    let tournaments = crate::web::archive::visible(state, ctx.user.as_ref(), tournaments, |t| {
        (t.id, t.archived)
    })
    .await?;
    let tournaments = individual(tournaments);
    Ok(SeasonsPage {
        ctx,
        seasons,
        tournaments,
        raw,
        errors,
    })
}

/// The events a season may count.
fn individual(tournaments: Vec<Tournament>) -> Vec<Tournament> {
    tournaments
        .into_iter()
        .filter(|t| !t.system.is_team())
        .collect()
}

/// A refusal a form shows beside its field (a value refused, a name
/// taken), or the error page for anything else.
fn beside_field(e: AppError) -> Result<FormErrors, AppError> {
    if e.is(Kind::Invalid) || e.is(Kind::Conflict) && e.field().is_some() {
        let (field, message) = e.said();
        let mut errors = FormErrors::default();
        errors.add(field, message);
        Ok(errors)
    } else {
        Err(e)
    }
}

/// The status a form answers with when it shows `e`'s refusal again.
fn status_of(e: &AppError) -> actix_web::http::StatusCode {
    if e.is(Kind::Conflict) {
        actix_web::http::StatusCode::CONFLICT
    } else {
        FORM_ERROR
    }
}

/// `GET /seasons`
pub async fn list(ctx: Ctx, state: web::Data<AppState>) -> Result<SeasonsPage, AppError> {
    seasons_page(&state, ctx, SeasonRaw::default(), FormErrors::default()).await
}

/// `POST /seasons`
pub async fn create(
    who: SignedIn,
    ctx: Ctx,
    state: web::Data<AppState>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let raw = SeasonRaw::of(form.into_inner());
    match raw.check() {
        Ok(fields) => {
            let s = state
                .write(Some(who.0.id), move |w| seasons::create(w, &fields))
                .await;
            match s {
                Ok(s) => Ok(see_other(&format!("/seasons/{}", s.id))),
                Err(e) => {
                    let status = status_of(&e);
                    let errors = beside_field(e)?;
                    render(&seasons_page(&state, ctx, raw, errors).await?, status)
                }
            }
        }
        Err(errors) => render(&seasons_page(&state, ctx, raw, errors).await?, FORM_ERROR),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "season.html")]
pub struct SeasonPage {
    ctx: Ctx,
    season: Season,
    lines: Vec<Line>,
    /// Events not rated (friendlies, test events): not counted.
    not_counted: Vec<TournamentId>,
    /// Events archived since, which this visitor may not open: named, not
    /// linked (their results still count; their pages answer 404).
    archived: Vec<TournamentId>,
}

impl SeasonPage {
    fn shown(&self, p: &f64) -> String {
        shown_points(*p)
    }

    /// The line's result at each event of the season, in its order.
    fn cells(&self, line: &Line) -> Vec<Option<(u32, f64, bool)>> {
        self.season
            .events
            .iter()
            .map(|(tid, _, _)| {
                line.results
                    .iter()
                    .find(|r| r.0 == *tid)
                    .map(|&(_, place, points, counted)| (place, points, counted))
            })
            .collect()
    }
}

/// `GET /seasons/{id}`
pub async fn show(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<SeasonId>,
) -> Result<SeasonPage, AppError> {
    let id = path.into_inner();
    let (season, lines, not_counted) = state
        .run(move |c| {
            let (season, lines) = crate::director::seasons::standings(c, id)?;
            let not_counted = crate::director::seasons::not_counted(c, &season)?;
            Ok((season, lines, not_counted))
        })
        .await?;
    let events: Vec<(TournamentId, bool)> = {
        let archived = state.archived.ids(&state).await?;
        season
            .events
            .iter()
            .map(|(tid, _, _)| (*tid, archived.contains(tid)))
            .collect()
    };
    let open =
        crate::web::archive::visible(&state, ctx.user.as_ref(), events.clone(), |e| *e).await?;
    let archived = events
        .into_iter()
        .filter(|e| !open.contains(e))
        .map(|(tid, _)| tid)
        .collect();
    Ok(SeasonPage {
        ctx,
        season,
        lines,
        not_counted,
        archived,
    })
}

/// `GET /seasons/{id}/standings.csv`
pub async fn standings_csv(
    state: web::Data<AppState>,
    path: web::Path<SeasonId>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let (season, lines) = state
        .run(move |c| crate::director::seasons::standings(c, id))
        .await?;
    csv_download(
        crate::export::seasons::csv(&season, &lines),
        &season.name,
        "season",
    )
}

#[derive(Template, WebTemplate)]
#[template(path = "season_edit.html")]
pub struct SeasonEditPage {
    ctx: Ctx,
    season: Season,
    tournaments: Vec<Tournament>,
    raw: SeasonRaw,
    errors: FormErrors,
}

async fn edit_page(
    state: &AppState,
    ctx: Ctx,
    id: SeasonId,
    raw: Option<SeasonRaw>,
    errors: FormErrors,
) -> Result<SeasonEditPage, AppError> {
    let (season, tournaments) = state
        .run(move |c| Ok((seasons::find(c, id)?, tournaments::list(c)?)))
        .await?;
    let raw = raw.unwrap_or_else(|| SeasonRaw::of_season(&season));
    // The season's events first, in its order (which a save keeps: the
    // boxes ticked go in the order of the form), then the others.
    let mut tournaments = individual(tournaments);
    tournaments.sort_by_key(|t| {
        raw.events
            .iter()
            .position(|e| *e == t.id)
            .unwrap_or(usize::MAX)
    });
    Ok(SeasonEditPage {
        ctx,
        raw,
        season,
        tournaments,
        errors,
    })
}

/// `GET /seasons/{id}/edit`: the form that made the season, filled in.
pub async fn edit_form(
    _who: SignedIn,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<SeasonId>,
) -> Result<SeasonEditPage, AppError> {
    edit_page(&state, ctx, path.into_inner(), None, FormErrors::default()).await
}

/// `POST /seasons/{id}/edit`: the whole form again; the events ticked
/// replace the season's.
pub async fn update(
    who: SignedIn,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<SeasonId>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let raw = SeasonRaw::of(form.into_inner());
    let (errors, status) = match raw.check() {
        Ok(fields) => {
            let done = state
                .write(Some(who.0.id), move |w| seasons::update(w, id, &fields))
                .await;
            match done {
                Ok(s) => return Ok(see_other(&format!("/seasons/{}", s.id))),
                Err(e) => {
                    let status = status_of(&e);
                    (beside_field(e)?, status)
                }
            }
        }
        Err(errors) => (errors, FORM_ERROR),
    };
    render(
        &edit_page(&state, ctx, id, Some(raw), errors).await?,
        status,
    )
}

#[derive(Template, WebTemplate)]
#[template(path = "season_delete.html")]
pub struct SeasonDeletePage {
    ctx: Ctx,
    season: Season,
}

/// `POST /seasons/{id}/delete`: without `confirm=yes` the page asks first,
/// naming the season and its events.
pub async fn delete(
    who: SignedIn,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<SeasonId>,
    form: web::Form<Confirm>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    if !form.given() {
        let season = state.run(move |c| seasons::find(c, id)).await?;
        return render(
            &SeasonDeletePage { ctx, season },
            actix_web::http::StatusCode::OK,
        );
    }
    state
        .write(Some(who.0.id), move |w| seasons::delete(w, id))
        .await?;
    Ok(see_other("/seasons"))
}

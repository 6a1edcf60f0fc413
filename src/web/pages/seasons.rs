//! Season pages: the list with the form that makes one, a season's table,
//! and its CSV.

use actix_web::{web, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;

use crate::db::seasons::{self, Season};
use crate::db::tournaments::{self, Tournament};
use crate::director::seasons::Line;
use crate::export::seasons::points as shown_points;
use crate::season::SeasonFields;
use crate::web::auth::SignedIn;
use crate::web::error::AppError;
use crate::web::layout::{csv_download, render, see_other, Ctx, FormErrors, FORM_ERROR};
use crate::web::AppState;

/// The form as typed: `event` once per chosen tournament, `weight_{id}`
/// beside each.
#[derive(Debug, Clone, Default)]
pub struct SeasonRaw {
    pub name: String,
    pub points: String,
    pub best: String,
    pub events: Vec<i32>,
    pub weights: Vec<(i32, String)>,
}

impl SeasonRaw {
    fn of(pairs: Vec<(String, String)>) -> SeasonRaw {
        let mut raw = SeasonRaw::default();
        for (k, v) in pairs {
            match k.as_str() {
                "name" => raw.name = v,
                "points" => raw.points = v,
                "best" => raw.best = v,
                "event" => raw.events.extend(v.trim().parse::<i32>().ok()),
                _ => {
                    if let Some(id) = k.strip_prefix("weight_").and_then(|i| i.parse().ok()) {
                        raw.weights.push((id, v));
                    }
                }
            }
        }
        raw
    }

    pub fn weight_of(&self, id: &i32) -> String {
        self.weights
            .iter()
            .find(|(t, _)| t == id)
            .map_or_else(|| "1".into(), |(_, w)| w.clone())
    }

    pub fn chose(&self, id: &i32) -> bool {
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
                        errors.add(
                            "points",
                            format!("'{text}' is not a list of numbers like 25, 18, 15"),
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
                    errors.add("best", format!("'{text}' is not a whole number"));
                    None
                }
            },
        };
        let mut events = Vec::new();
        for id in &self.events {
            let w = self.weight_of(id);
            match w.trim().parse::<f64>() {
                Ok(v) => events.push((*id, Some(v))),
                Err(_) => errors.add("weight", format!("'{w}' is not a number")),
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
    seasons: Vec<(i32, String)>,
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
    let tournaments = tournaments
        .into_iter()
        .filter(|t| !t.system.is_team())
        .collect();
    Ok(SeasonsPage {
        ctx,
        seasons,
        tournaments,
        raw,
        errors,
    })
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
                Err(AppError::Invalid { field, message }) => {
                    let mut errors = FormErrors::default();
                    errors.add(&field, message);
                    render(&seasons_page(&state, ctx, raw, errors).await?, FORM_ERROR)
                }
                Err(e) => Err(e),
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
    not_counted: Vec<i32>,
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
    path: web::Path<i32>,
) -> Result<SeasonPage, AppError> {
    let id = path.into_inner();
    let (season, lines, not_counted) = state
        .run(move |c| {
            let (season, lines) = crate::director::seasons::standings(c, id)?;
            let not_counted = crate::director::seasons::not_counted(c, &season)?;
            Ok((season, lines, not_counted))
        })
        .await?;
    Ok(SeasonPage {
        ctx,
        season,
        lines,
        not_counted,
    })
}

/// `GET /seasons/{id}/standings.csv`
pub async fn standings_csv(
    state: web::Data<AppState>,
    path: web::Path<i32>,
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

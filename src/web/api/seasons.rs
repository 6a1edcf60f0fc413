//! Seasons: a table by place over a group of events.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::db::seasons::{self, Season};
use crate::director::seasons::Line;
use crate::season::SeasonFields;
use crate::web::error::ApiError;
use crate::web::AppState;

use super::{invalid, ApiUser};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeasonEventBody {
    tournament: i32,
    weight: Option<f64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NewSeason {
    name: String,
    points: Option<Vec<f64>>,
    best: Option<i64>,
    events: Vec<SeasonEventBody>,
}

impl NewSeason {
    pub fn fields(&self) -> Result<SeasonFields, Vec<crate::field::FieldError>> {
        let events: Vec<(i32, Option<f64>)> = self
            .events
            .iter()
            .map(|e| (e.tournament, e.weight))
            .collect();
        SeasonFields::check(&self.name, self.points.as_deref(), self.best, &events)
    }
}

pub fn season_json(s: &Season) -> serde_json::Value {
    serde_json::json!({
        "id": s.id,
        "name": s.name,
        "points": s.points,
        "best": s.best,
        "events": s.events.iter().map(|(t, name, weight)| serde_json::json!({
            "tournament": t, "name": name, "weight": weight,
        })).collect::<Vec<_>>(),
    })
}

/// `POST /api/v1/seasons` → 201 with the season.
pub async fn create_season(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    body: web::Json<NewSeason>,
) -> Result<HttpResponse, ApiError> {
    let fields = body.fields().map_err(invalid)?;
    let s = state
        .write(Some(user.id), move |w| seasons::create(w, &fields))
        .await?;
    Ok(HttpResponse::Created().json(season_json(&s)))
}

/// `GET /api/v1/seasons/{id}/standings`
pub async fn season_standings(
    state: web::Data<AppState>,
    path: web::Path<i32>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let (s, lines) = state
        .run(move |c| crate::director::seasons::standings(c, id))
        .await?;
    let standings: Vec<serde_json::Value> = lines.iter().map(line_json).collect();
    let mut json = season_json(&s);
    json["standings"] = serde_json::Value::Array(standings);
    // The events not rated (friendlies, test events) are not counted.
    let not_counted = state
        .run(move |c| crate::director::seasons::not_counted(c, &s))
        .await?;
    json["not_counted"] = serde_json::json!(not_counted);
    Ok(HttpResponse::Ok().json(json))
}

fn line_json(l: &Line) -> serde_json::Value {
    serde_json::json!({
        "rank": l.rank,
        "person": l.person.id,
        "name": l.person.name,
        "federation_id": l.person.federation_id,
        "points": l.points,
        "results": l.results.iter().map(|&(tournament, place, points, counted)| serde_json::json!({
            "tournament": tournament, "place": place, "points": points, "counted": counted,
        })).collect::<Vec<_>>(),
    })
}

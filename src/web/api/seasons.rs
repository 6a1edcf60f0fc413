//! Seasons: a table by place over a group of events.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::director::model::Season;
use crate::director::seasons;
use crate::director::seasons::Line;
use crate::season::SeasonFields;
use crate::web::error::ApiError;
use crate::web::AppState;

use super::{invalid, ApiUser};
use crate::ids::{SeasonId, TournamentId};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeasonEventBody {
    tournament: TournamentId,
    weight: Option<f64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NewSeason {
    name: String,
    points: Option<Vec<f64>>,
    best: Option<i64>,
    events: Vec<super::Object<SeasonEventBody>>,
}

impl NewSeason {
    pub fn fields(&self) -> Result<SeasonFields, Vec<crate::field::FieldError>> {
        let events: Vec<(i32, Option<f64>)> = self
            .events
            .iter()
            .map(|e| (e.tournament.0, e.weight))
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
    body: web::Json<super::Object<NewSeason>>,
) -> Result<HttpResponse, ApiError> {
    let fields = body.fields().map_err(invalid)?;
    let s = state
        .write(Some(user.id), move |w| seasons::create(w, &fields))
        .await?;
    Ok(HttpResponse::Created().json(season_json(&s)))
}

/// `PATCH /api/v1/seasons/{id}`: the fields of [`NewSeason`], each
/// optional; what is left out stays as it is, `"events"` replaces the
/// whole list and `"best": null` counts every result again.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SeasonPatch {
    name: Option<String>,
    points: Option<Vec<f64>>,
    #[serde(deserialize_with = "present")]
    best: Option<Option<i64>>,
    events: Option<Vec<super::Object<SeasonEventBody>>>,
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

impl SeasonPatch {
    /// The stored season with this patch's fields over it, checked by the
    /// very check of a new season.
    pub fn over(&self, s: &Season) -> Result<SeasonFields, Vec<crate::field::FieldError>> {
        let name = self.name.as_deref().unwrap_or(&s.name);
        let points = self.points.as_deref().unwrap_or(&s.points);
        let best = match self.best {
            Some(b) => b,
            None => s.best.map(i64::from),
        };
        let events: Vec<(i32, Option<f64>)> = match &self.events {
            Some(list) => list.iter().map(|e| (e.tournament.0, e.weight)).collect(),
            None => s.events.iter().map(|&(t, _, w)| (t.0, Some(w))).collect(),
        };
        SeasonFields::check(name, Some(points), best, &events)
    }
}

/// `GET /api/v1/seasons`: every season with its events, newest first.
pub async fn list_seasons(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let all = state.run(seasons::all).await?;
    let list: Vec<serde_json::Value> = all.iter().map(season_json).collect();
    Ok(HttpResponse::Ok().json(serde_json::json!({ "seasons": list })))
}

/// `PATCH /api/v1/seasons/{id}` → 200 with the season.
pub async fn patch_season(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<SeasonId>,
    body: web::Json<super::Object<SeasonPatch>>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let stored = state.run(move |c| seasons::find(c, id)).await?;
    let fields = body.over(&stored).map_err(invalid)?;
    let s = state
        .write(Some(user.id), move |w| seasons::update(w, id, &fields))
        .await?;
    Ok(HttpResponse::Ok().json(season_json(&s)))
}

/// `DELETE /api/v1/seasons/{id}` → 204; its events stay as they are.
pub async fn delete_season(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<SeasonId>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    state
        .write(Some(user.id), move |w| seasons::delete(w, id))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `GET /api/v1/seasons/{id}/standings`
pub async fn season_standings(
    state: web::Data<AppState>,
    path: web::Path<SeasonId>,
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

//! Tournaments: create one, change its settings.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::director::model::Tournament;
use crate::director::tournaments;
use crate::director::{self};
use crate::tournament::{Confirmation, Ranking, RawTournament, RuleSet, System, Tiebreaks};
use crate::web::error::{ApiError, AppError};
use crate::web::AppState;

use super::{invalid, refereed, ApiUser};
use crate::ids::TournamentId;

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
    #[serde(alias = "result_confirmation")]
    confirmation: Option<String>,
    live_boards: Option<String>,
    clocks: Option<bool>,
    half_point_bye: Option<bool>,
    rated: Option<bool>,
}

#[derive(Debug, Serialize)]
pub struct TournamentJson {
    id: TournamentId,
    name: String,
    venue: String,
    starts_on: Option<chrono::NaiveDate>,
    ends_on: Option<chrono::NaiveDate>,
    bye_value: crate::tournament::ByeValue,
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
    confirmation: Confirmation,
    /// Who may watch the live boards: `public`, `referees`, `off`.
    live_boards: crate::tournament::LiveBoards,
    clocks: bool,
    half_point_bye: bool,
    /// Withdrawn from public view (only its referees and the admins see it).
    archived: bool,
    /// Its games are rated and it counts in seasons.
    rated: bool,
}

impl From<&Tournament> for TournamentJson {
    fn from(t: &Tournament) -> TournamentJson {
        TournamentJson {
            id: t.id,
            name: t.name.clone(),
            venue: t.venue.clone(),
            starts_on: t.starts_on,
            ends_on: t.ends_on,
            bye_value: t.bye_value,
            system: t.system,
            rules: t.rules,
            games_per_pairing: t.games_per_pairing,
            rounds: t.rounds,
            cycles: t.cycles,
            ranking: t.ranking,
            tiebreaks: t.tiebreaks.clone(),
            records_public: t.records_public,
            records_required: t.records_required,
            confirmation: t.confirmation,
            live_boards: t.live_boards,
            clocks: t.clocks,
            half_point_bye: t.half_point_bye,
            archived: t.archived,
            rated: t.rated,
        }
    }
}

/// The form's raw fields, so a script's tournament is checked by the very
/// checks of the form.
impl From<NewTournament> for RawTournament {
    fn from(b: NewTournament) -> RawTournament {
        let yes = |v: Option<bool>| if v.unwrap_or(false) { "yes" } else { "" }.to_string();
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
            records_public: yes(b.records_public),
            records_required: yes(b.records_required),
            confirmation: b.confirmation.unwrap_or_default(),
            live_boards: b.live_boards.unwrap_or_default(),
            clocks: yes(b.clocks),
            half_point_bye: yes(b.half_point_bye),
            rated: match b.rated {
                Some(false) => "no".into(),
                _ => String::new(),
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
    #[serde(alias = "result_confirmation")]
    confirmation: Option<String>,
    live_boards: Option<String>,
    clocks: Option<bool>,
    half_point_bye: Option<bool>,
    rated: Option<bool>,
    /// Withdraws the tournament from public view (`true`) or returns it;
    /// not a setting of the form, but of the same call.
    archived: Option<bool>,
    /// The tournament's own id, as `GET` gives it, so that what `GET`
    /// answers can be sent back changed; another id is refused.
    id: Option<TournamentId>,
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
        if let Some(v) = self.confirmation {
            raw.confirmation = v;
        }
        if let Some(v) = self.live_boards {
            raw.live_boards = v;
        }
        if let Some(v) = self.clocks {
            raw.clocks = yes(v);
        }
        if let Some(v) = self.half_point_bye {
            raw.half_point_bye = yes(v);
        }
        if let Some(v) = self.rated {
            raw.rated = if v { "yes" } else { "no" }.into();
        }
        raw
    }
}

/// `PATCH /api/v1/tournaments/{tid}`: a locked setting that would change is
/// 409 naming it, and nothing changes.
pub async fn patch_tournament(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    body: web::Json<super::Object<TournamentPatch>>,
) -> Result<HttpResponse, ApiError> {
    let t = refereed(&state, &user, path.into_inner()).await?;
    let mut body = body.into_inner().0;
    if let Some(id) = body.id.take().filter(|id| *id != t.id) {
        return Err(ApiError(AppError::from(
            crate::director::model::DbError::from(crate::field::FieldError::new(
                "id",
                crate::field::Problem::NoSuch { id: id.0 },
            )),
        )));
    }
    let archived = body.archived.take();
    let fields = body.over(&t).check().map_err(invalid)?;
    let id = t.id;
    let mut t = if fields != t.fields() || archived.is_none() {
        let user = user.clone();
        state
            .run(move |c| director::settings::update(c, id, &fields, &user))
            .await?
    } else {
        t
    };
    if let Some(archived) = archived {
        t = state
            .write(Some(user.id), move |w| {
                tournaments::set_archived(w, id, archived)
            })
            .await?;
        state.archived.outdate();
    }
    Ok(HttpResponse::Ok().json(TournamentJson::from(&t)))
}

/// `GET /api/v1/tournaments/{tid}`: the tournament's settings, in the
/// fields `POST` and `PATCH` take, with its `id`, `archived` and `rated`.
pub async fn get_tournament(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let t = state.run(move |c| tournaments::find(c, id)).await?;
    Ok(HttpResponse::Ok().json(TournamentJson::from(&t)))
}

/// `DELETE /api/v1/tournaments/{tid}` (admins): 204, the tournament and
/// every row of it gone; 409 for one with a published round, unless it is
/// a published copy of a venue's event.
pub async fn delete_tournament(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    if !user.is_admin() {
        return Err(ApiError(AppError::forbidden()));
    }
    state
        .write(Some(user.id), move |w| tournaments::delete(w, id))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `GET /api/v1/tournaments`: every tournament, the newest first, with
/// `"origin": {"id", "server", "link", "revision"}` for a copy a venue
/// publishes here (`null` for the server's own).
pub async fn list_tournaments(
    user: Option<ApiUser>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let (list, published) = state
        .run(|c| {
            Ok((
                crate::director::tournaments::list(c)?,
                crate::director::published::all(c)?,
            ))
        })
        .await?;
    // Archived tournaments only for their referees and the admins.
    let list = crate::web::archive::visible(&state, user.as_ref().map(|u| &u.0), list, |t| {
        (t.id, t.archived)
    })
    .await?;
    let out: Vec<serde_json::Value> = list
        .iter()
        .map(|t| {
            let mut v = serde_json::to_value(TournamentJson::from(t)).unwrap_or_default();
            v["origin"] = match published.iter().find(|p| p.tournament_id == t.id) {
                Some(p) => serde_json::json!({
                    "id": p.origin_id, "server": p.server, "link": p.link, "revision": p.revision,
                }),
                None => serde_json::Value::Null,
            };
            v
        })
        .collect();
    Ok(HttpResponse::Ok().json(serde_json::json!({ "tournaments": out })))
}

/// `POST /api/v1/tournaments`
pub async fn create_tournament(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    body: web::Json<super::Object<NewTournament>>,
) -> Result<HttpResponse, ApiError> {
    let fields = RawTournament::from(body.into_inner().0)
        .check()
        .map_err(invalid)?;
    let t = state
        .write(Some(user.id), move |w| {
            tournaments::create(w, &fields, &user)
        })
        .await?;
    Ok(HttpResponse::Created().json(TournamentJson::from(&t)))
}

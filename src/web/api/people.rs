//! The registry of people, merges and the rating list.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::director::model::{LeftEntry, Merge, Person};
use crate::director::people;
use crate::field::FieldError;
use crate::rating::Rating;
use crate::registry::{PersonFields, PersonText};
use crate::web::error::{ApiError, AppError};
use crate::web::AppState;

use super::{invalid, ApiUser};
use crate::ids::{EntryId, PersonId};
use crate::web::views::{period_of, rating_book as book, this_year};

/// An imported rating as the API takes and gives it.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RatingBody {
    rating: Option<f64>,
    rd: Option<f64>,
    volatility: Option<f64>,
    /// `YYYY-MM`: the month the rating is in force after.
    period: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NewPerson {
    name: String,
    federation_id: Option<String>,
    club: Option<String>,
    born: Option<i32>,
    rating: Option<super::Object<RatingBody>>,
}

impl NewPerson {
    /// The person's fields, checked as the page and the CSV check them.
    pub fn fields(&self, this_year: i32) -> Result<PersonFields, Vec<FieldError>> {
        let num = |v: Option<f64>| v.map(|n| n.to_string()).unwrap_or_default();
        let r = self.rating.as_ref();
        PersonFields::parse(
            &PersonText {
                name: &self.name,
                federation_id: self.federation_id.as_deref().unwrap_or(""),
                club: self.club.as_deref().unwrap_or(""),
                born: &self.born.map(|y| y.to_string()).unwrap_or_default(),
                rating: &num(r.and_then(|r| r.rating)),
                rd: &num(r.and_then(|r| r.rd)),
                volatility: &num(r.and_then(|r| r.volatility)),
                period: r.and_then(|r| r.period.as_deref()).unwrap_or(""),
            },
            this_year,
        )
    }
}

/// A person as the API gives it back.
#[derive(Debug, Serialize)]
pub struct PersonJson {
    id: PersonId,
    name: String,
    federation_id: Option<String>,
    club: String,
    born: Option<i32>,
    /// The imported starting rating, if any.
    rating: Option<RatingBody>,
    /// Set while the person is merged into another.
    merged_into: Option<PersonId>,
}

impl From<&Person> for PersonJson {
    fn from(p: &Person) -> PersonJson {
        PersonJson {
            id: p.id,
            name: p.name.clone(),
            federation_id: p.federation_id.clone(),
            club: p.club.clone(),
            born: p.born,
            rating: p.start().map(|s| RatingBody {
                rating: Some(s.rating.rating),
                rd: Some(s.rating.rd),
                volatility: Some(s.rating.volatility),
                period: Some(s.after.to_string()),
            }),
            merged_into: p.merged_into,
        }
    }
}

/// `POST /api/v1/people`
pub async fn create_person(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    body: web::Json<super::Object<NewPerson>>,
) -> Result<HttpResponse, ApiError> {
    let fields = body.fields(this_year()).map_err(invalid)?;
    let p = state
        .write(Some(user.id), move |w| people::create(w, &fields))
        .await?;
    Ok(HttpResponse::Created().json(PersonJson::from(&p)))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PeopleQuery {
    #[serde(default)]
    q: String,
}

/// `GET /api/v1/people?q=`: at most 100, the exact federation id first.
pub async fn search_people(
    state: web::Data<AppState>,
    query: web::Query<PeopleQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = query.into_inner().q;
    let found = state.run(move |c| people::search(c, &q, 100)).await?;
    let list: Vec<PersonJson> = found.iter().map(PersonJson::from).collect();
    Ok(HttpResponse::Ok().json(serde_json::json!({ "people": list })))
}

#[derive(Debug, Serialize)]
struct RatedPeriod {
    period: String,
    rating: f64,
    rd: f64,
    volatility: f64,
    games: u32,
}

/// `GET /api/v1/people/{id}`
pub async fn get_person(
    state: web::Data<AppState>,
    path: web::Path<PersonId>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let p = state.run(move |c| people::find(c, id)).await?;
    let book = book(&state).await?;
    let ratings: Vec<RatedPeriod> = book
        .line(id)
        .into_iter()
        .map(|(period, r, games)| RatedPeriod {
            period: period.to_string(),
            rating: r.rating,
            rd: r.rd,
            volatility: r.volatility,
            games,
        })
        .collect();
    let mut json = serde_json::to_value(PersonJson::from(&p)).map_err(AppError::internal)?;
    json["ratings"] = serde_json::to_value(ratings).map_err(AppError::internal)?;
    json["current"] = match book.current(id) {
        Some(r) => rated_json(r),
        None => serde_json::Value::Null,
    };
    Ok(HttpResponse::Ok().json(json))
}

fn rated_json(r: Rating) -> serde_json::Value {
    serde_json::json!({
        "rating": r.rating,
        "rd": r.rd,
        "volatility": r.volatility,
        "provisional": r.provisional(),
    })
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MergeBody {
    into: PersonId,
}

#[derive(Debug, Serialize)]
struct MergeJson {
    id: i32,
    person: PersonId,
    into: PersonId,
    /// The entries (players of tournaments) moved.
    entries: Vec<EntryId>,
    undone: bool,
    /// The entries of published copies the merge left with the person
    /// merged away (a copy follows its venue); only in a merge's answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    left: Option<Vec<LeftEntry>>,
}

impl From<&Merge> for MergeJson {
    fn from(m: &Merge) -> MergeJson {
        MergeJson {
            id: m.id,
            person: m.person_id,
            into: m.into_id,
            entries: serde_json::from_str(&m.entries).unwrap_or_default(),
            undone: m.undone_at.is_some(),
            left: None,
        }
    }
}

/// `POST /api/v1/people/{id}/merge {"into": ID}` → 201 with the merge.
pub async fn merge_person(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<PersonId>,
    body: web::Json<super::Object<MergeBody>>,
) -> Result<HttpResponse, ApiError> {
    let (person, into) = (path.into_inner(), body.into);
    let m = state
        .write(Some(user.id), move |w| people::merge(w, person, into))
        .await?;
    let mut json = MergeJson::from(&m.merge);
    json.left = Some(m.left);
    Ok(HttpResponse::Created().json(json))
}

/// `DELETE /api/v1/merges/{id}`: undoes the merge exactly.
pub async fn undo_merge(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i32>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let m = state
        .write(Some(user.id), move |w| people::unmerge(w, id))
        .await?;
    Ok(HttpResponse::Ok().json(MergeJson::from(&m)))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PeriodQuery {
    period: Option<String>,
}

/// `GET /api/v1/ratings?period=YYYY-MM`: everyone rated after that month's
/// games, best first.
pub async fn ratings(
    state: web::Data<AppState>,
    query: web::Query<PeriodQuery>,
) -> Result<HttpResponse, ApiError> {
    let book = book(&state).await?;
    let period = period_of(query.period.as_deref(), book.until)?;
    let list: Vec<ListedJson> = book
        .list(period)
        .into_iter()
        .map(|l| ListedJson {
            person: l.person.id,
            name: &l.person.name,
            federation_id: l.person.federation_id.as_deref(),
            rating: l.rating.rating,
            rd: l.rating.rd,
            volatility: l.rating.volatility,
            games: l.games,
            games_total: l.total,
            provisional: l.rating.provisional(),
        })
        .collect();
    Ok(HttpResponse::Ok().json(RatingListJson {
        period: period.to_string(),
        ratings: list,
    }))
}

/// The rating list as the API gives it (a struct, not a JSON tree: 20,000
/// lines serialise in a few milliseconds).
#[derive(Debug, Serialize)]
struct RatingListJson<'a> {
    period: String,
    ratings: Vec<ListedJson<'a>>,
}

#[derive(Debug, Serialize)]
struct ListedJson<'a> {
    person: PersonId,
    name: &'a str,
    federation_id: Option<&'a str>,
    rating: f64,
    rd: f64,
    volatility: f64,
    games: u32,
    /// Every rated game up to the period.
    games_total: u32,
    provisional: bool,
}

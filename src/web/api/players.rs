//! Players and their relatives.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::director::players;
use crate::field::Problem;
use crate::refusal::Kind;
use crate::roster::PlayerFields;
use crate::web::error::{ApiError, AppError};
use crate::web::AppState;

use super::{invalid, refereed, ApiUser};
use crate::ids::{EntryId, PersonId, TournamentId};

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NewPlayer {
    name: String,
    club: Option<String>,
    rating: Option<i32>,
    seed: Option<i32>,
    federation_id: Option<String>,
    /// A person of the registry: the entry takes the person's name, club,
    /// federation id and current rating, so those are not given with it.
    person: Option<PersonId>,
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
    path: web::Path<TournamentId>,
    body: web::Json<super::Object<NewPlayer>>,
) -> Result<HttpResponse, ApiError> {
    let t = refereed(&state, &user, path.into_inner()).await?;
    let body = body.into_inner().0;
    let tid = t.id;
    let p = match body.person {
        Some(person) => {
            let given = [
                ("name", !body.name.is_empty()),
                ("club", body.club.is_some()),
                ("rating", body.rating.is_some()),
                ("federation_id", body.federation_id.is_some()),
            ];
            if let Some((field, _)) = given.iter().find(|(_, given)| *given) {
                return Err(ApiError(AppError::from(
                    crate::director::model::DbError::from(crate::field::FieldError::new(
                        field,
                        crate::field::Problem::FromPerson,
                    )),
                )));
            }
            let seed = NewPlayer {
                name: "-".into(),
                seed: body.seed,
                ..NewPlayer::default()
            }
            .fields()
            .map_err(invalid)?
            .seed;
            let current = crate::web::views::rating_book(&state)
                .await?
                .current(person);
            state
                .write(Some(user.id), move |w| {
                    crate::director::registry::enter(w, tid, person, current, seed)
                })
                .await?
        }
        None => {
            let fields = body.fields().map_err(invalid)?;
            state
                .write(Some(user.id), move |w| players::create(w, tid, &fields))
                .await?
        }
    };
    Ok(HttpResponse::Created().json(PlayerJson {
        id: p.id,
        name: p.name,
        club: p.club,
        rating: p.rating,
        seed: p.seed,
        federation_id: p.federation_id,
        person: p.person_id,
    }))
}

/// A player as the API gives it back.
#[derive(Debug, serde::Serialize)]
struct PlayerJson {
    id: EntryId,
    name: String,
    club: String,
    rating: Option<i32>,
    seed: Option<i32>,
    federation_id: String,
    person: Option<PersonId>,
}

/// Two relatives, the lower id first.
#[derive(Debug, serde::Serialize)]
struct RelationJson {
    id: i32,
    a: EntryId,
    b: EntryId,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewRelation {
    a: EntryId,
    b: EntryId,
}

/// `POST /api/v1/tournaments/{tid}/relations`
pub async fn add_relation(
    ApiUser(user): ApiUser,
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    body: web::Json<super::Object<NewRelation>>,
) -> Result<HttpResponse, ApiError> {
    let t = refereed(&state, &user, path.into_inner()).await?;
    let (tid, a, b) = (t.id, body.a, body.b);
    let id = state
        .write(Some(user.id), move |w| players::add_relation(w, tid, a, b))
        .await
        .map_err(|e| {
            if e.is(Kind::NotFound) {
                AppError::invalid("b", Problem::NotBothInEvent)
            } else if a == b && e.is(Kind::Conflict) {
                AppError::invalid("b", Problem::SelfRelative)
            } else {
                e
            }
        })?;
    Ok(HttpResponse::Created().json(RelationJson {
        id,
        a: a.min(b),
        b: a.max(b),
    }))
}

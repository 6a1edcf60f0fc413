//! The JSON API under `/api/v1` (see docs/api.md). Scripts authenticate
//! with `Authorization: Bearer TOKEN`; every error is JSON
//! `{"error": "...", "field": "..."}` with the status that fits.

mod forbidden;
mod games;
mod health;
pub mod people;
mod player;
mod players;
pub mod publication;
pub mod published;
mod rounds;
pub mod seasons;
mod standings;
mod teams;
mod tournaments;

pub use forbidden::{add_forbidden, clear_forbidden_waiver, remove_forbidden, waive_forbidden};
pub use games::{get_game, put_game, put_scoresheet};
pub use health::data_health;
pub use people::{create_person, get_person, merge_person, ratings, search_people, undo_merge};
pub use player::{
    cancel_bye, get_live, get_own, get_plies, get_round_links, post_next_round, post_ply,
    post_rectify, post_report, post_stand, put_clock, renew_link, revoke_link,
};
pub use players::{add_player, add_relation};
pub use publication::{delete_publication, get_publication, put_publication};
pub use published::receive as receive_published;
pub use published::receive_records;
pub use rounds::{get_round, pair_round, patch_round};
pub use seasons::{create_season, delete_season, list_seasons, patch_season, season_standings};
pub use standings::standings;
pub use teams::{add_team, list_teams, put_lineup};
pub use tournaments::{
    create_tournament, delete_tournament, get_tournament, list_tournaments, patch_tournament,
};

// The request bodies, for the fuzz harness that feeds them.
pub use forbidden::{NewForbiddenBody, WaiverBody};
pub use games::ResultBody;
pub use people::{MergeBody, NewPerson};
pub use player::{ClockBody, NextRoundBody, ReportBody};
pub use players::{NewPlayer, NewRelation};
pub use rounds::RoundDateBody;
pub use seasons::{NewSeason, SeasonPatch};
pub use teams::{LineupBody, NewTeamBody};
pub use tournaments::NewTournament;

use actix_web::HttpRequest;

use super::auth;
use super::error::{ApiError, AppError};
use super::AppState;
use crate::director::model::Tournament;
use crate::director::model::User;
use crate::ids::TournamentId;

/// The signed-in caller of an API route; comes first among a handler's
/// arguments so that an anonymous call is refused before its body is read.
pub struct ApiUser(pub User);

impl actix_web::FromRequest for ApiUser {
    type Error = ApiError;
    type Future = std::future::Ready<Result<ApiUser, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        std::future::ready(
            crate::web::caller::caller(req)
                .user
                .map(ApiUser)
                .ok_or_else(|| ApiError(AppError::unauthorized())),
        )
    }
}

/// The tournament, if `user` may change it.
async fn refereed(
    state: &AppState,
    user: &User,
    tid: TournamentId,
) -> Result<Tournament, ApiError> {
    Ok(auth::refereed_tournament(state, user, tid).await?)
}

/// A request body (or an object within one) that must be a JSON object.
///
/// serde reads a struct from a JSON array too, its fields in order
/// (`[null, null]` for two optional fields); the API describes objects
/// only (docs/openapi.json), so anything but an object is refused as
/// unreadable, as a wrong type is.
#[derive(Debug)]
pub struct Object<T>(pub T);

impl<T> std::ops::Deref for Object<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for Object<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Object<T>, D::Error> {
        struct Fields<T>(std::marker::PhantomData<T>);
        impl<'de, T: serde::Deserialize<'de>> serde::de::Visitor<'de> for Fields<T> {
            type Value = T;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            }
        }
        d.deserialize_map(Fields(std::marker::PhantomData))
            .map(Object)
    }
}

fn invalid(errors: Vec<crate::roster::FieldError>) -> ApiError {
    let first = errors.into_iter().next();
    ApiError(match first {
        Some(e) => AppError::from(e),
        // The checks name at least one field when they refuse.
        None => AppError::internal("a refusal that names no field"),
    })
}

//! Kept-apart pairs on the tournament page: keep two players apart (in all
//! rounds or a range), lift the ban, waive it with a reason.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::director::forbidden;
use crate::director::model::NewForbidden;
use crate::field::{Chosen, FieldError, Problem};
use crate::ids::{EntryId, TournamentId};
use crate::refusal::Kind;
use crate::web::auth::Referee;
use crate::web::error::AppError;
use crate::web::layout::{render, see_other, Ctx, FormErrors, FORM_ERROR};
use crate::web::views::tournament::{error_key, load_page, waiver_key, ForbiddenRaw};
use crate::web::AppState;

impl ForbiddenRaw {
    fn check(&self) -> Result<NewForbidden, FormErrors> {
        let mut errors = FormErrors::default();
        let mut refused = |field: &'static str, problem: Problem| {
            errors.add(
                &error_key(field),
                FieldError::new(field, problem).to_string(),
            )
        };
        let mut player = |field: &'static str, v: &str, what: Chosen| {
            v.trim()
                .parse::<EntryId>()
                .map_err(|_| refused(field, Problem::NotChosen { what }))
                .ok()
        };
        let a = player("a", &self.a, Chosen::FirstPlayer);
        let b = player("b", &self.b, Chosen::SecondPlayer);
        let mut round = |field: &'static str, v: &str| match v.trim() {
            "" => Some(None),
            t => t
                .parse::<i32>()
                .map(Some)
                .map_err(|_| {
                    refused(
                        field,
                        Problem::NotARoundNumber {
                            text: t.to_string(),
                        },
                    )
                })
                .ok(),
        };
        let from_round = round("from_round", &self.from_round);
        let to_round = round("to_round", &self.to_round);
        match (a, b, from_round, to_round) {
            (Some(a), Some(b), Some(from_round), Some(to_round)) if errors.is_empty() => {
                Ok(NewForbidden {
                    a,
                    b,
                    from_round,
                    to_round,
                })
            }
            _ => Err(errors),
        }
    }
}

async fn page_with_errors(
    state: &AppState,
    ctx: Ctx,
    tid: TournamentId,
    raw: ForbiddenRaw,
    errors: FormErrors,
) -> Result<HttpResponse, AppError> {
    let mut page = load_page(state, ctx, tid, Default::default(), errors).await?;
    page.new_forbidden = raw;
    render(&page, FORM_ERROR)
}

/// `POST /t/{tid}/forbidden`: keeps two players apart.
pub async fn add(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    form: web::Form<ForbiddenRaw>,
) -> Result<HttpResponse, AppError> {
    let tid = r.tournament.id;
    let raw = form.into_inner();
    let mut errors = match raw.check() {
        Ok(new) => match state
            .write(Some(r.user.id), move |w| forbidden::add(w, tid, new))
            .await
        {
            Ok(_) => return Ok(see_other(&format!("/t/{tid}#kept-apart"))),
            Err(e) if e.is(Kind::Invalid) => {
                let (field, message) = e.said();
                let mut errors = FormErrors::default();
                errors.add(&error_key(field), message);
                errors
            }
            Err(e) => return Err(e),
        },
        Err(errors) => errors,
    };
    if errors.is_empty() {
        errors.add(
            &error_key("b"),
            FieldError::new("b", Problem::NotKeptApart).to_string(),
        );
    }
    page_with_errors(&state, ctx, tid, raw, errors).await
}

/// `POST /t/{tid}/forbidden/{fid}/remove`: lifts the ban.
pub async fn remove(
    r: Referee,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, i32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, fid) = path.into_inner();
    state
        .write(Some(r.user.id), move |w| forbidden::remove(w, tid, fid))
        .await?;
    Ok(see_other(&format!("/t/{tid}#kept-apart")))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct WaiverForm {
    pub reason: String,
}

/// `POST /t/{tid}/forbidden/{fid}/waive`: lets the pair meet, with a reason.
pub async fn waive(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, i32)>,
    form: web::Form<WaiverForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, fid) = path.into_inner();
    let reason = form.into_inner().reason;
    match state
        .write(Some(r.user.id), move |w| {
            forbidden::waive(w, tid, fid, &reason)
        })
        .await
    {
        Ok(_) => Ok(see_other(&format!("/t/{tid}#kept-apart"))),
        Err(e) if e.is(Kind::Invalid) => {
            let mut errors = FormErrors::default();
            errors.add(&waiver_key(fid), e.said().1);
            page_with_errors(&state, ctx, tid, Default::default(), errors).await
        }
        Err(e) => Err(e),
    }
}

/// `POST /t/{tid}/forbidden/{fid}/unwaive`: keeps the pair apart again.
pub async fn clear_waiver(
    r: Referee,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, i32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, fid) = path.into_inner();
    state
        .write(Some(r.user.id), move |w| {
            forbidden::clear_waiver(w, tid, fid)
        })
        .await?;
    Ok(see_other(&format!("/t/{tid}#kept-apart")))
}

//! The front page: every tournament, the most recent first.

use actix_web::web;
use askama::Template;
use askama_web::WebTemplate;

use crate::director::model::Tournament;
use crate::director::tournaments;
use crate::web::error::AppError;
use crate::web::layout::Ctx;
use crate::web::AppState;

#[derive(Template, WebTemplate)]
#[template(path = "home.html")]
pub struct HomePage {
    ctx: Ctx,
    tournaments: Vec<Tournament>,
    needs_setup: bool,
}

pub async fn home(ctx: Ctx, state: web::Data<AppState>) -> Result<HomePage, AppError> {
    let (tournaments, users) = state
        .run(|c| Ok((tournaments::list(c)?, crate::director::users::count(c)?)))
        .await?;
    // Archived tournaments only for their referees and the admins, marked.
    let tournaments = crate::web::archive::visible(&state, ctx.user.as_ref(), tournaments, |t| {
        (t.id, t.archived)
    })
    .await?;
    Ok(HomePage {
        ctx,
        tournaments,
        needs_setup: users == 0,
    })
}

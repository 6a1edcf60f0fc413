//! Accounts, for admins: list them and create referees (or more admins).

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;
use serde::Deserialize;

use crate::accounts;
use crate::director::model::{Role, User};
use crate::director::users;
use crate::field::{Chosen, Problem};
use crate::refusal::Kind;
use crate::web::auth::Admin;
use crate::web::error::AppError;
use crate::web::layout::{render, see_other, Ctx, FormErrors, FORM_ERROR};
use crate::web::AppState;

#[derive(Template, WebTemplate)]
#[template(path = "users.html")]
pub struct UsersPage {
    ctx: Ctx,
    users: Vec<User>,
    name: String,
    role: String,
    errors: FormErrors,
    /// The federation's server as stored (or as typed, when refused).
    federation: String,
    /// Set when `kraal serve --federation-url` names it: the form is moot.
    federation_fixed: Option<String>,
}

/// The page with its forms as typed (`federation`: `None` shows the stored
/// server), with `status`.
async fn users_page_with(
    state: &AppState,
    ctx: Ctx,
    new_user: (String, String),
    federation: Option<String>,
    errors: FormErrors,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let (users, stored) = state
        .run(|c| {
            Ok((
                users::list(c)?,
                crate::director::settings::get(c, crate::director::settings::FEDERATION_URL)?
                    .unwrap_or_default(),
            ))
        })
        .await?;
    let (name, role) = new_user;
    render(
        &UsersPage {
            ctx,
            users,
            name,
            role,
            errors,
            federation: federation.unwrap_or(stored),
            federation_fixed: state.federation_url.clone(),
        },
        status,
    )
}

pub async fn users_page(
    _admin: Admin,
    ctx: Ctx,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    users_page_with(
        &state,
        ctx,
        (String::new(), "referee".into()),
        None,
        FormErrors::default(),
        StatusCode::OK,
    )
    .await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct NewUserForm {
    pub name: String,
    pub role: String,
    pub password: String,
}

pub async fn create_user(
    admin: Admin,
    ctx: Ctx,
    state: web::Data<AppState>,
    form: web::Form<NewUserForm>,
) -> Result<HttpResponse, AppError> {
    let form = form.into_inner();
    let mut errors = FormErrors::default();
    let name = users::check_name(&form.name)
        .map_err(|e| errors.refused(&e))
        .ok();
    let role = Role::parse(&form.role);
    if role.is_none() {
        errors.problem("role", Problem::NotChosen { what: Chosen::Role });
    }
    if let Err(m) = accounts::check_new_password(&form.password) {
        errors.refused(&m);
    }
    if let (Some(name), Some(role), true) = (name, role, errors.is_empty()) {
        let hash = accounts::hash_password(&form.password).map_err(AppError::internal)?;
        let by = admin.0.id;
        let created = state
            .write(Some(by), move |w| users::create(w, &name, role, &hash))
            .await;
        match created {
            Ok(_) => return Ok(see_other("/admin/users")),
            Err(e) if e.is(Kind::Conflict) => errors.add("name", e.said().1),
            Err(e) => return Err(e),
        }
    }
    users_page_with(
        &state,
        ctx,
        (form.name, form.role),
        None,
        errors,
        FORM_ERROR,
    )
    .await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FederationForm {
    /// The federation's server; empty names none.
    pub url: String,
}

/// `POST /admin/federation`: names the federation's server this one pulls
/// its rating list from (checked as every outbound address is).
pub async fn set_federation(
    admin: Admin,
    ctx: Ctx,
    state: web::Data<AppState>,
    form: web::Form<FederationForm>,
) -> Result<HttpResponse, AppError> {
    let typed = form.into_inner().url;
    let checked = match typed.trim() {
        "" => Ok(None),
        text => crate::remote::check_address("url", text).map(Some),
    };
    match checked {
        Ok(url) => {
            state
                .write(Some(admin.0.id), move |w| {
                    crate::director::settings::set(
                        w,
                        crate::director::settings::FEDERATION_URL,
                        url.as_deref(),
                    )
                })
                .await?;
            Ok(see_other("/admin/users#federation"))
        }
        Err(e) => {
            let mut errors = FormErrors::default();
            errors.add(e.field, e.to_string());
            users_page_with(
                &state,
                ctx,
                (String::new(), "referee".into()),
                Some(typed),
                errors,
                FORM_ERROR,
            )
            .await
        }
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "health.html")]
pub struct HealthPage {
    ctx: Ctx,
    h: crate::director::health::DataHealth,
}

/// `GET /admin/health`: what would make the federation's lists wrong, each
/// line linking to the page where it is fixed.
pub async fn health_page(
    _admin: Admin,
    ctx: Ctx,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    let today = chrono::Utc::now().date_naive();
    let h = state
        .run(move |c| crate::director::health::read(c, today))
        .await?;
    render(&HealthPage { ctx, h }, StatusCode::OK)
}

//! Who is looking at a page (`Ctx`): the account signed in, if any, and
//! the CSRF token its forms carry. Every page and the error pages take it;
//! it takes nothing from them.

use std::future::{ready, Ready};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest};

use super::caller::{caller, csrf_token};
use crate::director::model::User;

/// What every page needs for its header: who is signed in, and the CSRF
/// token their forms must carry.
#[derive(Debug, Clone, Default)]
pub struct Ctx {
    pub user: Option<User>,
    pub csrf: String,
}

impl Ctx {
    pub fn anonymous() -> Ctx {
        Ctx::default()
    }

    /// The context for a page whose forms an anonymous visitor may post
    /// (sign in, first setup): hands out a CSRF token if there is none yet.
    pub fn with_csrf(req: &HttpRequest) -> Ctx {
        Ctx {
            user: caller(req).user,
            csrf: csrf_token(req),
        }
    }

    pub fn is_admin(&self) -> bool {
        self.user.as_ref().is_some_and(User::is_admin)
    }

    pub fn user_name(&self) -> &str {
        self.user.as_ref().map(|u| u.name.as_str()).unwrap_or("")
    }
}

impl FromRequest for Ctx {
    type Error = actix_web::Error;
    type Future = Ready<Result<Ctx, actix_web::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let user = caller(req).user;
        let csrf = if user.is_some() {
            csrf_token(req)
        } else {
            String::new()
        };
        ready(Ok(Ctx { user, csrf }))
    }
}

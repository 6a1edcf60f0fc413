//! Who is calling, as the guard (`web::auth::guard`) learned it and left
//! it in the request's extensions: the account, whether by token, and the
//! CSRF token of this browser. Read by the guard's extractors and by every
//! page's context; it depends on nothing else of the web layer.

use actix_web::{HttpMessage, HttpRequest};

use crate::accounts;
use crate::director::model::User;

/// What the guard learned about the caller, kept in the request extensions.
#[derive(Clone, Debug, Default)]
pub struct Caller {
    pub user: Option<User>,
    /// Signed in through a bearer token rather than a cookie.
    pub by_token: bool,
    /// The CSRF token of this browser, if it has one.
    pub csrf: Option<String>,
    /// A CSRF token handed out by this response, to be set as a cookie.
    pub issued_csrf: Option<String>,
}

/// The caller as the guard found them.
pub fn caller(req: &HttpRequest) -> Caller {
    req.extensions()
        .get::<Caller>()
        .cloned()
        .unwrap_or_default()
}

/// The CSRF token for forms on this page, handing out a new one if needed.
pub fn csrf_token(req: &HttpRequest) -> String {
    let mut ext = req.extensions_mut();
    let caller = ext.get_mut::<Caller>();
    match caller {
        Some(c) => {
            if let Some(t) = c.csrf.clone().or_else(|| c.issued_csrf.clone()) {
                return t;
            }
            let t = accounts::new_token();
            c.issued_csrf = Some(t.clone());
            t
        }
        None => String::new(),
    }
}

//! Which requests reach a handler: every path of the route table with the
//! methods it takes. Built once from `routes::ROUTES` by the app factory
//! and handed to the guard as app data, so the guard (which every page
//! goes through) need not import the route table (which names every page).

use actix_web::dev::ResourceDef;
use actix_web::http::Method;

/// The paths of the route table and the methods each takes.
pub struct Handled(Vec<(ResourceDef, Vec<&'static str>)>);

impl Handled {
    pub fn new(paths: impl IntoIterator<Item = (&'static str, Vec<&'static str>)>) -> Handled {
        Handled(
            paths
                .into_iter()
                .map(|(p, methods)| (ResourceDef::new(p), methods))
                .collect(),
        )
    }

    /// Whether a request of `method` for `path` (a request's path) reaches
    /// a handler: false for a path the app does not have (404) and for a
    /// method the path does not have (405, with `Allow`).
    pub fn reaches(&self, path: &str, method: &Method) -> bool {
        self.0
            .iter()
            .find(|(def, _)| def.is_match(path))
            .is_some_and(|(_, allow)| allow.contains(&method.as_str()))
    }
}

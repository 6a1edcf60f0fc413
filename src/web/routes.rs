//! Every route of the app, with who may use it.
//!
//! The app registers exactly this table (see [`super::configure`]) and the
//! authorisation tests walk it, so the declared access of each route is what
//! the tests hold it to.

use actix_web::{guard, web, Route};

use super::api;
use super::pages::{
    account, admin, boards, display, forbidden, games, home, people, personal, players, results,
    rounds, seasons, standings, tables, teams, tournaments,
};

/// Who may use a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone, signed in or not.
    Public,
    /// Anyone, but only while no account exists (first setup).
    Setup,
    /// Any signed-in account.
    SignedIn,
    /// Admins only.
    Admin,
    /// Admins and the referees assigned to the tournament `{tid}`.
    Referee,
    /// Anyone holding a pairing's record link (`/p/{pid}/{key}`) or a
    /// player's personal link (`/player/{key}`): the secret in the path is
    /// the permission; a wrong one is no such page.
    PlayerLink,
    /// Admins, and the accounts an admin allows to publish events here
    /// from a venue (`kraal user publisher NAME`).
    Publisher,
}

/// One route: method, path pattern, access, and the handler to register.
pub struct RouteSpec {
    pub method: &'static str,
    /// A reading route answers `HEAD` as well as `GET`.
    pub head: bool,
    pub path: &'static str,
    pub access: Access,
    pub route: fn() -> Route,
}

impl RouteSpec {
    /// Routes that change state must pass the CSRF check.
    pub fn changes_state(&self) -> bool {
        self.method != "GET"
    }
}

/// A route that reads: `GET`, and `HEAD` for the same headers without the
/// body (HTTP requires both of a general-purpose server; monitors and
/// link checkers send `HEAD`). The server leaves out the body of a `HEAD`
/// itself and keeps the `Content-Length` of the `GET`.
fn reading() -> Route {
    web::route().guard(guard::Any(guard::Get()).or(guard::Head()))
}

macro_rules! routes {
    ($($method:ident $path:literal $access:ident => $handler:path;)+) => {
        &[$(RouteSpec {
            method: routes!(@name $method),
            head: routes!(@head $method),
            path: $path,
            access: Access::$access,
            route: || routes!(@route $method).to($handler),
        }),+]
    };
    (@route get) => { reading() };
    // An event stream answers `GET` alone: a `HEAD` of it would hold the
    // connection open with nothing to send.
    (@route stream) => { web::get() };
    (@route $method:ident) => { web::$method() };
    (@head get) => { true };
    (@head $method:ident) => { false };
    (@name get) => { "GET" };
    (@name stream) => { "GET" };
    (@name post) => { "POST" };
    (@name put) => { "PUT" };
    (@name delete) => { "DELETE" };
    (@name patch) => { "PATCH" };
}

pub static ROUTES: &[RouteSpec] = routes! {
    // The pages players keep open and reload come first: the router tries
    // the routes in this order, and a request matched early skips the rest.
    get  "/t/{tid:\\d+}/standings"                         Public   => standings::standings;
    get  "/t/{tid:\\d+}/rounds/{n:\\d+}"                   Public   => rounds::show;
    stream "/t/{tid:\\d+}/events"                          Public   => super::live::events;
    stream "/t/{tid:\\d+}/games/{gid:\\d+}/events"         Public   => super::live::game_events;
    get  "/t/{tid:\\d+}/crosstable"                        Public   => tables::crosstable_page;
    get  "/t/{tid:\\d+}/players/{pid:\\d+}"                Public   => tables::player_page;
    get  "/t/{tid:\\d+}/display"                           Public   => display::show;
    get  "/player/{key}"                                  PlayerLink => personal::page;
    post "/player/{key}/results"                          PlayerLink => personal::report;
    post "/player/{key}/next-round"                       PlayerLink => personal::next_round;
    get  "/player/{key}/games/{gid:\\d+}/record"           PlayerLink => boards::record_page;
    get  "/t/{tid:\\d+}/games/{gid:\\d+}/live"             Public   => boards::live_page;
    get  "/t/{tid:\\d+}/rounds/{n:\\d+}/boards"            Public   => boards::round_page;
    get  "/t/{tid:\\d+}/display/boards"                   Public   => boards::display_page;
    get  "/"                                              Public   => home::home;
    get  "/healthz"                                       Public   => super::healthz;
    get  "/static/kraal.css"                              Public   => super::pages::stylesheet;
    get  "/static/kraal.js"                               Public   => super::pages::script;
    get  "/static/board.js"                               Public   => super::pages::board_script;
    get  "/manifest.webmanifest"                          Public   => super::pages::manifest;
    get  "/sw.js"                                         Public   => super::pages::worker;
    get  "/player/{key}/manifest.webmanifest"             PlayerLink => personal::manifest;
    get  "/favicon.ico"                                   Public   => super::pages::favicon;
    get  "/static/icons/{name}"                           Public   => super::pages::icon;
    get  "/setup"                                         Setup    => account::setup_form;
    post "/setup"                                         Setup    => account::setup;
    get  "/login"                                         Public   => account::login_form;
    post "/login"                                         Public   => account::login;
    post "/logout"                                        Public   => account::logout;
    get  "/account"                                       SignedIn => account::account;
    post "/account/tokens"                                SignedIn => account::create_token;
    post "/account/tokens/{id:\\d+}/revoke"               SignedIn => account::revoke_token;
    post "/account/password"                              SignedIn => account::change_password;
    get  "/admin/users"                                   Admin    => admin::users_page;
    post "/admin/users"                                   Admin    => admin::create_user;
    post "/admin/federation"                              Admin    => admin::set_federation;
    get  "/admin/health"                                  Admin    => admin::health_page;
    get  "/people"                                        Public   => people::list_page;
    post "/people"                                        SignedIn => people::add;
    get  "/people.csv"                                    Public   => people::export_csv;
    post "/people/import"                                 SignedIn => people::import;
    post "/people/pull"                                   SignedIn => people::pull;
    get  "/people/{id:\\d+}"                              Public   => people::person_page;
    post "/people/{id:\\d+}/merge"                        SignedIn => people::merge;
    post "/merges/{id:\\d+}/undo"                         SignedIn => people::undo_merge;
    get  "/ratings"                                       Public   => people::ratings_page;
    get  "/seasons"                                       Public   => seasons::list;
    post "/seasons"                                       SignedIn => seasons::create;
    get  "/seasons/{id:\\d+}"                             Public   => seasons::show;
    get  "/seasons/{id:\\d+}/standings.csv"               Public   => seasons::standings_csv;
    get  "/seasons/{id:\\d+}/edit"                        SignedIn => seasons::edit_form;
    post "/seasons/{id:\\d+}/edit"                        SignedIn => seasons::update;
    post "/seasons/{id:\\d+}/delete"                      SignedIn => seasons::delete;
    get  "/t/new"                                         SignedIn => tournaments::new_form;
    post "/t"                                             SignedIn => tournaments::create;
    get  "/t/{tid:\\d+}"                                  Public   => tournaments::show;
    get  "/t/{tid:\\d+}/edit"                             Referee  => tournaments::edit_form;
    post "/t/{tid:\\d+}/edit"                             Referee  => tournaments::update;
    post "/t/{tid:\\d+}/referees"                         Admin    => tournaments::assign_referee;
    post "/t/{tid:\\d+}/referees/{uid:\\d+}/remove"       Admin    => tournaments::unassign_referee;
    get  "/t/{tid:\\d+}/audit"                            Referee  => tournaments::audit_page;
    post "/t/{tid:\\d+}/publication"                      Referee  => tournaments::publish_to;
    post "/t/{tid:\\d+}/publication/send-now"             Referee  => tournaments::send_now;
    post "/t/{tid:\\d+}/publication/stop"                 Referee  => tournaments::stop_publishing;
    post "/t/{tid:\\d+}/archive"                          Referee  => tournaments::archive;
    post "/t/{tid:\\d+}/delete"                           Admin    => tournaments::delete;
    post "/t/{tid:\\d+}/players"                          Referee  => players::add;
    get  "/t/{tid:\\d+}/players.csv"                      Public   => players::export_csv;
    get  "/t/{tid:\\d+}/players/{pid:\\d+}/edit"          Referee  => players::edit_form;
    post "/t/{tid:\\d+}/players/{pid:\\d+}/edit"          Referee  => players::update;
    post "/t/{tid:\\d+}/players/{pid:\\d+}/withdraw"      Referee  => players::withdraw;
    post "/t/{tid:\\d+}/players/{pid:\\d+}/reinstate"     Referee  => players::reinstate;
    post "/t/{tid:\\d+}/players/{pid:\\d+}/refresh"       Referee  => players::refresh;
    post "/t/{tid:\\d+}/relations"                        Referee  => players::add_relation;
    post "/t/{tid:\\d+}/byes"                             Referee  => players::request_bye;
    post "/t/{tid:\\d+}/players/{pid:\\d+}/byes/{n:\\d+}/cancel" Referee => personal::cancel_bye;
    post "/t/{tid:\\d+}/players/{pid:\\d+}/link/renew"    Referee  => personal::renew;
    post "/t/{tid:\\d+}/players/{pid:\\d+}/link/revoke"   Referee  => personal::revoke;
    post "/t/{tid:\\d+}/relations/{rid:\\d+}/remove"      Referee  => players::remove_relation;
    post "/t/{tid:\\d+}/forbidden"                        Referee  => forbidden::add;
    post "/t/{tid:\\d+}/forbidden/{fid:\\d+}/remove"      Referee  => forbidden::remove;
    post "/t/{tid:\\d+}/forbidden/{fid:\\d+}/waive"       Referee  => forbidden::waive;
    post "/t/{tid:\\d+}/forbidden/{fid:\\d+}/unwaive"     Referee  => forbidden::clear_waiver;
    get  "/t/{tid:\\d+}/import"                           Referee  => players::import_form;
    post "/t/{tid:\\d+}/import"                           Referee  => players::import;
    post "/t/{tid:\\d+}/rounds"                            Referee  => rounds::create;
    get  "/t/{tid:\\d+}/rounds/{n:\\d+}/slips"             Public   => rounds::slips;
    get  "/t/{tid:\\d+}/rounds/{n:\\d+}/scoresheets"       Public   => games::blank_sheets;
    get  "/t/{tid:\\d+}/games/{gid:\\d+}"                  Public   => games::show;
    post "/t/{tid:\\d+}/games/{gid:\\d+}/records"          Referee  => games::submit;
    post "/t/{tid:\\d+}/games/{gid:\\d+}/ruling"           Referee  => games::rule;
    get  "/t/{tid:\\d+}/games.txt"                          Referee  => games::games_txt;
    get  "/t/{tid:\\d+}/event.json"                         Referee  => tournaments::event_json;
    get  "/t/{tid:\\d+}/export.trf"                         Referee  => tournaments::export_trf;
    get  "/p/{pid:\\d+}/{key:[0-9a-f]{32}}"               PlayerLink => games::link_page;
    post "/p/{pid:\\d+}/{key:[0-9a-f]{32}}"               PlayerLink => games::link_submit;
    post "/t/{tid:\\d+}/rounds/{n:\\d+}/publish"           Referee  => rounds::publish;
    post "/t/{tid:\\d+}/rounds/{n:\\d+}/undo"              Referee  => rounds::undo;
    post "/t/{tid:\\d+}/rounds/{n:\\d+}/clear"             Referee  => rounds::clear_results;
    post "/t/{tid:\\d+}/rounds/{n:\\d+}/lock"              Referee  => rounds::lock;
    post "/t/{tid:\\d+}/rounds/{n:\\d+}/date"              Referee  => rounds::set_date;
    post "/t/{tid:\\d+}/rounds/{n:\\d+}/clock"             Referee  => rounds::set_clock;
    get  "/t/{tid:\\d+}/rounds/{n:\\d+}/links"             Referee  => personal::cards;
    post "/t/{tid:\\d+}/rounds/{n:\\d+}/swap"              Referee  => rounds::swap;
    get  "/t/{tid:\\d+}/rounds/{n:\\d+}/results"           Referee  => results::results_form;
    post "/t/{tid:\\d+}/rounds/{n:\\d+}/results"           Referee  => results::save_results;
    get  "/t/{tid:\\d+}/standings.csv"                     Public   => standings::standings_csv_route;
    get  "/t/{tid:\\d+}/crosstable.csv"                    Public   => tables::crosstable_csv;
    get  "/t/{tid:\\d+}/bracket"                           Public   => tables::bracket_page;
    get  "/t/{tid:\\d+}/rounds/{n:\\d+}/pairings.csv"      Public   => tables::pairings_csv;
    get  "/t/{tid:\\d+}/teams"                           Public   => teams::list;
    post "/t/{tid:\\d+}/teams"                           Referee  => teams::add;
    post "/t/{tid:\\d+}/teams/import"                    Referee  => teams::import;
    get  "/t/{tid:\\d+}/teams/{team:\\d+}"              Public   => teams::show;
    post "/t/{tid:\\d+}/teams/{team:\\d+}/captain-link" Referee  => teams::renew_link;
    get  "/t/{tid:\\d+}/rounds/{n:\\d+}/lineups/{team:\\d+}" Referee => teams::lineup_form;
    post "/t/{tid:\\d+}/rounds/{n:\\d+}/lineups/{team:\\d+}" Referee => teams::lineup_save;
    post "/t/{tid:\\d+}/rounds/{n:\\d+}/matches/{mid:\\d+}/start" Referee => teams::start;
    get  "/t/{tid:\\d+}/rounds/{n:\\d+}/cards"             Public   => teams::cards;
    get  "/t/{tid:\\d+}/rounds/{n:\\d+}/matches.csv"       Public   => teams::matches_csv_route;
    get  "/captain/{token}"                               Public   => teams::captain;
    post "/captain/{token}"                               Public   => teams::captain_save;
    get  "/api/v1/me"                                     SignedIn => account::api_me;
    get  "/api/v1/openapi.json"                           Public   => super::openapi;
    post "/api/v1/tournaments"                            SignedIn => api::create_tournament;
    get  "/api/v1/tournaments"                            Public   => api::list_tournaments;
    get  "/api/v1/tournaments/{tid:\\d+}/publication"     Referee  => api::get_publication;
    put  "/api/v1/tournaments/{tid:\\d+}/publication"     Referee  => api::put_publication;
    delete "/api/v1/tournaments/{tid:\\d+}/publication"   Referee  => api::delete_publication;
    put  "/api/v1/published/{origin:[0-9A-Za-z_-]{8,64}}" Publisher => api::receive_published;
    put  "/api/v1/published/{origin:[0-9A-Za-z_-]{8,64}}/games/{round:\\d+}/{table:\\d+}/{game:\\d+}" Publisher => api::receive_records;
    patch "/api/v1/tournaments/{tid:\\d+}"                Referee  => api::patch_tournament;
    get  "/api/v1/tournaments/{tid:\\d+}"                 Public   => api::get_tournament;
    delete "/api/v1/tournaments/{tid:\\d+}"               Admin    => api::delete_tournament;
    get  "/api/v1/health/data"                            Admin    => api::data_health;
    post "/api/v1/tournaments/{tid:\\d+}/players"          Referee  => api::add_player;
    post "/api/v1/people"                                 SignedIn => api::create_person;
    get  "/api/v1/people"                                 Public   => api::search_people;
    get  "/api/v1/people/{id:\\d+}"                       Public   => api::get_person;
    post "/api/v1/people/{id:\\d+}/merge"                 SignedIn => api::merge_person;
    delete "/api/v1/merges/{id:\\d+}"                     SignedIn => api::undo_merge;
    get  "/api/v1/ratings"                                Public   => api::ratings;
    post "/api/v1/seasons"                                SignedIn => api::create_season;
    get  "/api/v1/seasons/{id:\\d+}/standings"            Public   => api::season_standings;
    get  "/api/v1/seasons"                                Public   => api::list_seasons;
    patch "/api/v1/seasons/{id:\\d+}"                    SignedIn => api::patch_season;
    delete "/api/v1/seasons/{id:\\d+}"                   SignedIn => api::delete_season;
    post "/api/v1/tournaments/{tid:\\d+}/relations"        Referee  => api::add_relation;
    post "/api/v1/tournaments/{tid:\\d+}/forbidden"        Referee  => api::add_forbidden;
    delete "/api/v1/tournaments/{tid:\\d+}/forbidden/{fid:\\d+}" Referee => api::remove_forbidden;
    put  "/api/v1/tournaments/{tid:\\d+}/forbidden/{fid:\\d+}/waiver" Referee => api::waive_forbidden;
    delete "/api/v1/tournaments/{tid:\\d+}/forbidden/{fid:\\d+}/waiver" Referee => api::clear_forbidden_waiver;
    post "/api/v1/tournaments/{tid:\\d+}/teams"            Referee  => api::add_team;
    get  "/api/v1/tournaments/{tid:\\d+}/teams"            Public   => api::list_teams;
    put  "/api/v1/tournaments/{tid:\\d+}/rounds/{n:\\d+}/lineups/{team:\\d+}" Referee => api::put_lineup;
    post "/api/v1/tournaments/{tid:\\d+}/rounds"           Referee  => api::pair_round;
    get  "/api/v1/tournaments/{tid:\\d+}/rounds/{n:\\d+}"  Public   => api::get_round;
    patch "/api/v1/tournaments/{tid:\\d+}/rounds/{n:\\d+}" Referee  => api::patch_round;
    get  "/api/v1/tournaments/{tid:\\d+}/standings"        Public   => api::standings;
    get  "/api/v1/tournaments/{tid:\\d+}/rounds/{n:\\d+}/links" Referee => api::get_round_links;
    put  "/api/v1/tournaments/{tid:\\d+}/rounds/{n:\\d+}/clock" Referee => api::put_clock;
    post "/api/v1/tournaments/{tid:\\d+}/players/{pid:\\d+}/link" Referee => api::renew_link;
    delete "/api/v1/tournaments/{tid:\\d+}/players/{pid:\\d+}/link" Referee => api::revoke_link;
    delete "/api/v1/tournaments/{tid:\\d+}/players/{pid:\\d+}/byes/{n:\\d+}" Referee => api::cancel_bye;
    get  "/api/v1/player/{key}"                           PlayerLink => api::get_own;
    post "/api/v1/player/{key}/results"                   PlayerLink => api::post_report;
    post "/api/v1/player/{key}/next-round"                PlayerLink => api::post_next_round;
    post "/api/v1/player/{key}/games/{gid:\\d+}/plies"    PlayerLink => api::post_ply;
    post "/api/v1/player/{key}/games/{gid:\\d+}/plies/{n:\\d+}/rectify" PlayerLink => api::post_rectify;
    post "/api/v1/player/{key}/games/{gid:\\d+}/plies/{n:\\d+}/stand" PlayerLink => api::post_stand;
    get  "/api/v1/games/{gid:\\d+}/live"                   Public   => api::get_live;
    get  "/api/v1/player/{key}/games/{gid:\\d+}/plies"     PlayerLink => api::get_plies;
    stream "/api/v1/tournaments/{tid:\\d+}/rounds/{n:\\d+}/live" Public => super::live::round_feed;
    put  "/api/v1/games/{gid:\\d+}"                        Referee  => api::put_game;
    get  "/api/v1/games/{gid:\\d+}"                        Referee  => api::get_game;
    put  "/api/v1/games/{gid:\\d+}/scoresheet"             Referee  => api::put_scoresheet;
};

/// The paths of [`ROUTES`], each once, in the table's order: the app
/// registers one resource per path, holding all of its methods.
pub fn paths() -> Vec<&'static str> {
    let mut seen = Vec::new();
    for r in ROUTES {
        if !seen.contains(&r.path) {
            seen.push(r.path);
        }
    }
    seen
}

/// The methods `path` (a pattern of [`ROUTES`]) answers, as an `Allow`
/// header lists them: `GET, HEAD` for a reading route.
pub fn allow(path: &str) -> Vec<&'static str> {
    let mut methods = Vec::new();
    for r in ROUTES.iter().filter(|r| r.path == path) {
        methods.push(r.method);
        if r.head {
            methods.push("HEAD");
        }
    }
    methods
}

/// Every path of the table with the methods it takes, for the guard.
pub fn handled() -> super::handled::Handled {
    super::handled::Handled::new(paths().into_iter().map(|p| (p, allow(p))))
}

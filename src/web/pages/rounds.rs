//! Rounds: pair, publish, undo; the results page built for speed at a venue;
//! the standings and their CSV.

use std::collections::HashMap;

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;

use crate::director::model::Round;
use crate::director::rounds;
use crate::director::TournamentData;
use crate::director::{self, pair::Then, swap::Swap};
use crate::results::{fill_from_first, parse_pairing_score, tally, GameResult, ResultEdit};
use crate::standings::{show_points, SeparatedBy, Standing};
use crate::web::auth::can_edit;
use crate::web::auth::Referee;
use crate::web::error::AppError;
use crate::web::layout::{absolute_url, qr_svg, render, see_other, Ctx};
use crate::web::views::round::{
    load_data, load_round, pairing_views, player_link, seats, GameView, PairingView, Seat,
};
use crate::web::views::team::{match_views, MatchView};
use crate::web::AppState;

pub async fn create(r: Referee, state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    let tid = r.tournament.id;
    let round = state
        .run(move |c| director::pair::pair_next(c, tid, Then::Draft, None, &r.user))
        .await?
        .round;
    Ok(see_other(&format!(
        "/t/{}/rounds/{}",
        round.tournament_id, round.number
    )))
}

pub async fn publish(
    r: Referee,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    state
        .write(Some(r.user.id), move |w| rounds::publish(w, tid, n))
        .await?;
    Ok(see_other(&format!("/t/{tid}/rounds/{n}")))
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct LockForm {
    /// `yes` locks the round, `no` unlocks it.
    lock: String,
}

/// Locks a published round (its players' links take no more records) or
/// unlocks it.
pub async fn lock(
    r: Referee,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
    form: web::Form<LockForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let lock = match form.lock.trim() {
        "yes" => true,
        "no" => false,
        other => {
            return Err(AppError::invalid(
                "lock",
                format!("'{other}' is neither yes (lock) nor no (unlock)"),
            ))
        }
    };
    state
        .write(Some(r.user.id), move |w| {
            rounds::set_locked(w, tid, n, lock)
        })
        .await?;
    Ok(see_other(&format!("/t/{tid}/rounds/{n}#records-h")))
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct DateForm {
    date: String,
}

/// The day round `n` is played: its month is its games' rating period.
pub async fn set_date(
    r: Referee,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
    form: web::Form<DateForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let day = crate::rounds::parse_day(&form.date).map_err(|problem| {
        AppError::from(crate::director::model::DbError::Invalid(
            crate::field::FieldError::new("date", problem),
        ))
    })?;
    state
        .write(Some(r.user.id), move |w| rounds::set_date(w, tid, n, day))
        .await?;
    Ok(see_other(&format!("/t/{tid}/rounds/{n}#date")))
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct ClockForm {
    /// `HH:MM` today (UTC offset `offset`), or a full ISO 8601 time; empty
    /// is now.
    starts_at: String,
    /// Minutes; empty is the event's default (OGR 8).
    minutes: String,
    /// The browser's offset from UTC in minutes, as `Date` gives it
    /// (`getTimezoneOffset`, so UTC+2 is `-120`); filled by the page's
    /// script, empty without it (then a bare time is UTC).
    offset: String,
}

/// `POST /t/{tid}/rounds/{n}/clock`: starts (or sets) the round clock.
pub async fn set_clock(
    r: Referee,
    ctx: Ctx,
    req: actix_web::HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
    form: web::Form<ClockForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let form = form.into_inner();
    let minutes = match form.minutes.trim() {
        "" => Ok(None),
        m => m.parse::<i64>().map(Some).map_err(|_| {
            crate::field::FieldError::new(
                "minutes",
                crate::field::Problem::NotWholeNumber {
                    text: m.to_string(),
                },
            )
        }),
    };
    // Without the page's script the offset is empty: a time of day is UTC.
    let offset: i32 = form.offset.trim().parse().unwrap_or(0);
    let now = chrono::Utc::now().naive_utc();
    let clock = minutes.and_then(|minutes| {
        crate::clock::read_in_zone(
            &form.starts_at,
            offset,
            minutes,
            r.tournament.clock_limit().minutes,
            now,
        )
    });
    let (field, message) = match clock {
        Ok(clock) => {
            let written = state
                .write(Some(r.user.id), move |w| {
                    rounds::set_clock(w, tid, n, clock)
                })
                .await;
            match written {
                Ok(_) => return Ok(see_other(&format!("/t/{tid}/rounds/{n}#clock"))),
                Err(AppError::Invalid { field, message }) => (field, message),
                // Anything but a refused value (the round gone, the
                // database) is the error it is.
                Err(other) => return Err(other),
            }
        }
        Err(e) => (e.field.to_string(), e.to_string()),
    };
    // The round page again, with what was typed and the field named.
    let data = load_data(&state, tid).await?;
    let url = absolute_url(&req, &format!("/t/{tid}/rounds/{n}"));
    let flags = match data.round(n, true) {
        Ok(round) if round.is_published() => flag_words(&state, &data, &round).await?,
        _ => HashMap::new(),
    };
    let mut page = round_page(ctx, data, n, true, flags, String::new(), url)?;
    let field = match field.as_str() {
        "minutes" => "clock-minutes",
        _ => "clock-start",
    };
    page.clock = ClockTyped {
        starts_at: form.starts_at,
        minutes: form.minutes,
        field,
        message,
    };
    render(&page, crate::web::layout::FORM_ERROR)
}

/// The clock form as typed, when it comes back with a problem: the field
/// at fault (`clock-start` or `clock-minutes`) and what is wrong.
#[derive(Debug, Default)]
pub struct ClockTyped {
    starts_at: String,
    minutes: String,
    field: &'static str,
    message: String,
}

/// The question asked before an action on round `n` (`action`, the last
/// segment of its address): the button that does it, reading as the
/// question, and the one that keeps the round as it is.
fn round_question(
    ctx: Ctx,
    t: crate::director::model::Tournament,
    n: i32,
    action: &str,
    [button, keep]: [String; 2],
    consequences: Vec<String>,
) -> crate::web::layout::ConfirmPage {
    crate::web::layout::ConfirmPage {
        ctx,
        question: format!("{button}?"),
        consequences,
        action: format!("/t/{}/rounds/{n}/{action}", t.id),
        button,
        back: format!("/t/{}/rounds/{n}", t.id),
        back_label: format!("Round {n}"),
        keep,
        t,
    }
}

/// Undoes the last round, after asking: without `confirm=yes` the page
/// says what undoing will do.
pub async fn undo(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
    form: web::Form<crate::web::layout::Confirm>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    if !form.given() {
        let data = load_data(&state, tid).await?;
        let round = data.round(n, true)?;
        let tables = data.pairings_of(&round).len();
        let mut consequences = vec![format!(
            "The {tables} pairings of round {n} are deleted; round {n} can then be paired again."
        )];
        if round.is_published() {
            consequences.push(format!(
                "Round {n} is published: players who have seen its pairings will find them gone."
            ));
        }
        consequences.push("The undo is recorded in the audit trail.".into());
        let page = round_question(
            ctx,
            data.tournament,
            n,
            "undo",
            [format!("Undo round {n}"), format!("Keep round {n}")],
            consequences,
        );
        return render(&page, StatusCode::OK);
    }
    state
        .write(Some(r.user.id), move |w| rounds::undo(w, tid, n))
        .await?;
    Ok(see_other(&format!("/t/{tid}")))
}

#[derive(Template, WebTemplate)]
#[template(path = "round.html")]
pub struct RoundPage {
    ctx: Ctx,
    t: crate::director::model::Tournament,
    round: Round,
    rounds: Vec<i32>,
    pairings: Vec<PairingView>,
    /// A team round's matches, each with its boards (the same pairings).
    matches: Vec<MatchView>,
    can_edit: bool,
    missing: usize,
    updated: String,
    /// The search box's text and the players it finds.
    q: String,
    found: Vec<Seat>,
    seats: Vec<Seat>,
    /// The date the sheet heading shows.
    date: String,
    /// The live page's address, and its QR code (SVG) for the printed sheet.
    url: String,
    qr: String,
    /// For the round's referees: the flags of games with records, in words
    /// (whether something needs a look, and what).
    flags: HashMap<i32, (bool, String, String)>,
    /// Why the round cannot be undone, if it cannot.
    undo_blocker: Option<String>,
    /// Whether its results can be cleared (the last round, with results).
    can_clear: bool,
    /// The clock form as typed, when it comes back with a problem.
    clock: ClockTyped,
    /// The banner while the publication is failing (referees only).
    banner: Option<crate::web::views::publication::Banner>,
}

impl RoundPage {
    /// The days the round may take, when its stored day lies outside them
    /// (stored before the date rules): its games are not rated and the
    /// event does not leave the server until a referee corrects it.
    fn date_outside(&self) -> Option<crate::calendar::Range> {
        let today = chrono::Utc::now().date_naive();
        let days = crate::calendar::round_range(self.t.starts_on, self.t.ends_on, today);
        (!days.holds(self.round.played_on)).then_some(days)
    }

    fn flag(&self, game: &i32) -> Option<&(bool, String, String)> {
        self.flags.get(game)
    }
    fn iso(&self, at: impl std::borrow::Borrow<chrono::NaiveDateTime>) -> String {
        crate::web::views::personal::iso(*at.borrow())
    }
    fn hm(&self, at: impl std::borrow::Borrow<chrono::NaiveDateTime>) -> String {
        at.borrow().format("%H:%M").to_string()
    }
    /// The round's usual limit (OGR 8), and what it rests on.
    fn limit(&self) -> crate::clock::DefaultLimit {
        self.t.clock_limit()
    }
    fn is_knockout(&self) -> bool {
        self.t.system == crate::tournament::System::Knockout
    }
    fn tiebreak_pace(&self) -> &'static str {
        crate::clock::TIEBREAK_PACE
    }
}

/// The flags of a round's games in words, for its referees: whether any
/// needs a look, the words, and the kinds ([`director::scoresheets::Flags::kinds`]).
pub async fn flag_words(
    state: &AppState,
    data: &TournamentData,
    round: &Round,
) -> Result<HashMap<i32, (bool, String, String)>, AppError> {
    let games = director::scoresheets::round_games(data, round);
    let tid = data.tournament.id;
    let flags = state
        .run(move |c| director::scoresheets::flags_of(c, tid, &games))
        .await?;
    Ok(flags
        .into_iter()
        .map(|(g, f)| (g, (f.any(), f.lines().join("; "), f.kinds().join(" "))))
        .collect())
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct Search {
    q: String,
}

pub async fn show(
    ctx: Ctx,
    req: actix_web::HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
    query: web::Query<Search>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let q = query.into_inner().q.trim().to_string();
    let url = absolute_url(&req, &format!("/t/{tid}/rounds/{n}"));
    if ctx.user.is_none() && q.is_empty() {
        // What a player's phone asks for: the same bytes for everyone
        // until the tournament changes (the address in the QR code is
        // the one the page was asked at).
        let key = format!("round/{n}@{url}");
        return crate::web::cache::public_page(&state, &req, false, tid, &key, move |data| {
            round_page(ctx, data, n, false, HashMap::new(), q, url)?
                .render()
                .map_err(|e| AppError::Internal(e.to_string()))
        })
        .await;
    }
    let data = load_data(&state, tid).await?;
    let can_edit = can_edit(&state, &ctx, tid).await?;
    let flags = match data.round(n, can_edit) {
        Ok(round) if can_edit && round.is_published() => flag_words(&state, &data, &round).await?,
        _ => HashMap::new(),
    };
    let revision = data.tournament.revision;
    let mut page = round_page(ctx, data, n, can_edit, flags, q, url)?;
    page.banner = crate::web::views::publication::failing(
        &state,
        tid,
        revision,
        can_edit,
        format!("/t/{tid}/rounds/{n}"),
    )
    .await?;
    render(&page, StatusCode::OK)
}

/// The round page of round `n` as `ctx` sees it; `q` searches the seats.
fn round_page(
    ctx: Ctx,
    data: TournamentData,
    n: i32,
    can_edit: bool,
    flags: HashMap<i32, (bool, String, String)>,
    q: String,
    url: String,
) -> Result<RoundPage, AppError> {
    let round = data.round(n, can_edit)?;
    let pairings = pairing_views(&data, &round);
    let seats = seats(&pairings);
    let found = seats
        .iter()
        .filter(|s| crate::roster::name_matches(&s.name, &q))
        .cloned()
        .collect();
    Ok(RoundPage {
        undo_blocker: data.undo_blocker(n),
        can_clear: data.can_clear_results(n),
        flags,
        qr: qr_svg(&url),
        url,
        date: crate::web::layout::sheet_date(&round),
        q,
        found,
        seats,
        matches: match_views(&data, &round, &pairings),
        pairings,
        missing: data.missing_results(&round),
        rounds: data
            .rounds
            .iter()
            .filter(|r| r.is_published() || can_edit)
            .map(|r| r.number)
            .collect(),
        ctx,
        t: data.tournament,
        round,
        can_edit,
        updated: crate::web::layout::updated_now(),
        clock: ClockTyped::default(),
        banner: None,
    })
}

/// Clears every result of the last round, after asking: without
/// `confirm=yes` the page says what clearing will do.
pub async fn clear_results(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
    form: web::Form<crate::web::layout::Confirm>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    if !form.given() {
        let data = load_data(&state, tid).await?;
        let round = data.round(n, true)?;
        let games = data.results_in(&round);
        let mut consequences = vec![format!(
            "The results of the {games} games of round {n} that have one are cleared; the pairings stay and the results can be entered again."
        )];
        if data.tournament.system == crate::tournament::System::Knockout {
            consequences.push("Tiebreak sets added because main games were level go too; they come back if the main games are level again.".into());
        }
        consequences.push(
            "Referees' rulings on these games are withdrawn; the players' records stay.".into(),
        );
        consequences.push("Standings go back to before this round's results. The clearing is recorded in the audit trail.".into());
        let page = round_question(
            ctx,
            data.tournament,
            n,
            "clear",
            [
                format!("Clear the results of round {n}"),
                "Keep the results".into(),
            ],
            consequences,
        );
        return render(&page, StatusCode::OK);
    }
    state
        .write(Some(r.user.id), move |w| rounds::clear_results(w, tid, n))
        .await?;
    Ok(see_other(&format!("/t/{tid}/rounds/{n}")))
}

#[derive(Template, WebTemplate)]
#[template(path = "slips.html")]
pub struct SlipsPage {
    ctx: Ctx,
    t: crate::director::model::Tournament,
    round: Round,
    /// The tables with two players (a bye needs no slip).
    pairings: Vec<PairingView>,
    date: String,
    /// For the round's referees: each pairing's player link and its QR
    /// code, by pairing id.
    links: HashMap<i32, (String, String)>,
    /// For the round's referees: each player's personal link and its QR
    /// code, by player id, printed on a stub for that player alone.
    personal: HashMap<i32, (String, String)>,
}

impl SlipsPage {
    fn link(&self, pairing: &i32) -> Option<&(String, String)> {
        self.links.get(pairing)
    }
    fn sides(&self, p: &PairingView) -> Vec<(Option<i32>, String)> {
        vec![
            (p.first_id, p.first.clone()),
            (p.second_id, p.second.clone()),
        ]
    }
    fn personal_link(&self, player: &Option<i32>) -> Option<&(String, String)> {
        self.personal.get(&(*player)?)
    }
}

/// `GET /t/{tid}/rounds/{n}/slips`: one printable result slip per table.
pub async fn slips(
    ctx: Ctx,
    req: actix_web::HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let data = load_data(&state, tid).await?;
    let can_edit = can_edit(&state, &ctx, tid).await?;
    let round = data.round(n, can_edit)?;
    let pairings: Vec<PairingView> = pairing_views(&data, &round)
        .into_iter()
        .filter(|p| p.second_id.is_some())
        .collect();
    let mut links = HashMap::new();
    let mut personal = HashMap::new();
    if can_edit && round.is_published() {
        for p in &pairings {
            let link = player_link(&state, &req, p.id).await?;
            links.insert(p.id, (qr_svg(&link), link));
        }
        for l in crate::web::views::personal::round_links(&state, &req, &data, &round).await? {
            if let Some(url) = l.url {
                personal.insert(l.player, (qr_svg(&url), url));
            }
        }
    }
    let page = SlipsPage {
        ctx,
        links,
        personal,
        pairings,
        date: crate::web::layout::sheet_date(&round),
        t: data.tournament,
        round,
    };
    render(&page, StatusCode::OK)
}

/// A field of the results page that could not be used, and why.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The `id` of the field, so the page can tie the message to it.
    pub field: String,
    pub message: String,
}

/// A quick entry (`7 4-2`) named back before it is stored.
#[derive(Debug, Clone)]
pub struct QuickEntry {
    pub pairing: PairingView,
    pub score: String,
    /// For a knock-out table whose main games were level: the tiebreak set
    /// (1, 2, ...) the score goes into, and that set's games with the
    /// results the score gives them. The main games are never touched.
    pub set: Option<usize>,
    pub set_games: Vec<(GameView, GameResult)>,
}

impl QuickEntry {
    /// What the tiebreak set the entry goes into says now, once one of its
    /// games has a result.
    pub fn set_now(&self) -> Option<String> {
        self.set?;
        self.pairing
            .set_scores()
            .pop()
            .filter(|_| self.set_games.iter().any(|(g, _)| g.result.is_some()))
    }
}

/// What a quick entry asks.
#[derive(Debug, Clone)]
enum Quick {
    /// Store this, once the referee confirms.
    Store(Box<QuickEntry>),
    /// The table already says so: nothing to store.
    AlreadySo(String),
}

#[derive(Template, WebTemplate)]
#[template(path = "results.html")]
pub struct ResultsPage {
    ctx: Ctx,
    t: crate::director::model::Tournament,
    round: Round,
    /// The pairings shown: all of them, or those with missing results.
    pairings: Vec<PairingView>,
    missing_only: bool,
    /// Games still without a result in the whole round.
    missing: usize,
    /// Values that could not be read, shown back for correcting.
    typed: HashMap<String, String>,
    problems: Vec<Problem>,
    saved: usize,
    quick: Option<QuickEntry>,
    /// A quick entry that changed nothing, said back.
    notice: Option<String>,
    /// Entries not saved because a referee's ruling set the game's result.
    ruled: Vec<crate::conflict::RulingStands>,
    /// The flags of games with records, in words.
    flags: HashMap<i32, (bool, String, String)>,
    /// The banner while the publication is failing.
    banner: Option<crate::web::views::publication::Banner>,
}

impl ResultsPage {
    fn new(ctx: Ctx, data: TournamentData, round: Round, missing_only: bool) -> ResultsPage {
        let missing = data.missing_results(&round);
        let pairings = pairing_views(&data, &round)
            .into_iter()
            .filter(|p| p.second_id.is_some() && (!missing_only || p.has_missing()))
            .collect();
        ResultsPage {
            ctx,
            t: data.tournament,
            round,
            pairings,
            missing_only,
            missing,
            typed: HashMap::new(),
            problems: Vec::new(),
            saved: 0,
            quick: None,
            notice: None,
            ruled: Vec::new(),
            flags: HashMap::new(),
            banner: None,
        }
    }
    fn flag(&self, game: &i32) -> Option<&String> {
        self.flags
            .get(game)
            .filter(|(bad, _, _)| *bad)
            .map(|(_, w, _)| w)
    }
    /// The disputed games: table, game and what each player says.
    fn disputes(&self) -> Vec<(i32, String, String)> {
        self.pairings
            .iter()
            .flat_map(|p| {
                p.games.iter().filter(|g| g.disputed()).map(move |g| {
                    let game = format!(
                        "{}{}",
                        if g.tiebreak {
                            "tiebreak game "
                        } else {
                            "game "
                        },
                        g.number
                    );
                    (p.table, game, self.reports_said(p, g))
                })
            })
            .collect()
    }
    /// What the players reported of `g`, in the desk's words (results from
    /// the starter's side, as the selects read them).
    fn reports_said(&self, p: &PairingView, g: &GameView) -> String {
        [(&p.first, g.reports.first), (&p.second, g.reports.second)]
            .into_iter()
            .filter_map(|(who, r)| Some(format!("{who} says {}", r?.short())))
            .collect::<Vec<_>>()
            .join(", ")
    }
    fn results(&self) -> &'static [GameResult] {
        GameResult::ALL
    }
    fn typed(&self, field: &str) -> String {
        self.typed.get(field).cloned().unwrap_or_default()
    }
    /// The value a game's select shows: what was typed if it could not be
    /// used, otherwise what is stored now.
    fn shown(&self, game: &GameView) -> String {
        self.typed
            .get(&format!("g{}", game.id))
            .cloned()
            .unwrap_or_else(|| game.stored().to_string())
    }
    fn invalid(&self, field: &str) -> bool {
        self.problems.iter().any(|p| p.field == field)
    }
    /// The ids of the messages about `field`, for `aria-describedby`.
    fn described_by(&self, field: &str) -> String {
        self.problems
            .iter()
            .enumerate()
            .filter(|(_, p)| p.field == field)
            .map(|(i, _)| format!("problem-{i}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
    /// Tables whose knock-out tiebreak set waits for results (OGR 9.4).
    fn open_sets(&self) -> Vec<i32> {
        self.pairings
            .iter()
            .filter(|p| p.games.iter().any(|g| g.tiebreak && g.result.is_none()))
            .map(|p| p.table)
            .collect()
    }
}

impl PairingView {
    /// The score from one player's side (`first`: the first-listed player),
    /// empty until a result.
    pub fn score_from(&self, first: bool) -> String {
        let t = &self.tally;
        if t.decided == 0 {
            return String::new();
        }
        let (mine, theirs) = if first {
            (t.first, t.second)
        } else {
            (t.second, t.first)
        };
        format!("{}-{}", show_points(mine), show_points(theirs))
    }

    /// The score named by who it went to, as players read it beside the
    /// names: `2-0 for Thabo Mokoena` (from the winner's side), `1-1
    /// drawn`; `so far` while main games wait for their result; empty until
    /// a result.
    pub fn score_for(&self) -> String {
        let (score, whom) = self.score_parts();
        if whom.is_empty() {
            score
        } else {
            format!("{score} {whom}")
        }
    }

    /// [`Self::score_for`] in its two parts: the score from the winner's
    /// side (`2-0`), and whom it is for (`for Thabo Mokoena`, `drawn`, `so
    /// far`), which a narrow page writes smaller.
    pub fn score_parts(&self) -> (String, String) {
        let t = &self.tally;
        if t.decided == 0 || self.second_id.is_none() {
            return (String::new(), String::new());
        }
        let (hi, lo) = (t.first.max(t.second), t.first.min(t.second));
        let score = format!("{}-{}", show_points(hi), show_points(lo));
        let so_far = if self.games.iter().any(|g| !g.tiebreak && g.result.is_none()) {
            " so far"
        } else {
            ""
        };
        let whom = match t.first.cmp(&t.second) {
            std::cmp::Ordering::Greater => format!("for {}{so_far}", self.first),
            std::cmp::Ordering::Less => format!("for {}{so_far}", self.second),
            std::cmp::Ordering::Equal if so_far.is_empty() => "drawn".to_string(),
            std::cmp::Ordering::Equal => "so far".to_string(),
        };
        (score, whom)
    }

    /// The mini-match from one player's side (`first`: the first-listed
    /// player) in a word: `won`, `drawn`, `lost`; empty while a main game
    /// waits for its result.
    pub fn outcome_for(&self, first: bool) -> &'static str {
        let t = &self.tally;
        if t.decided == 0 || self.games.iter().any(|g| !g.tiebreak && g.result.is_none()) {
            return "";
        }
        let (mine, theirs) = if first {
            (t.first, t.second)
        } else {
            (t.second, t.first)
        };
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => "won",
            std::cmp::Ordering::Equal => "drawn",
            std::cmp::Ordering::Less => "lost",
        }
    }

    /// Some game of this pairing has no result yet.
    pub fn has_missing(&self) -> bool {
        self.games.iter().any(|g| g.result.is_none())
    }
    /// Each tiebreak set's score from the first player's side, in order
    /// (`to play` for a set not yet played, `1-0 so far` for one half played).
    pub fn set_scores(&self) -> Vec<String> {
        let tb: Vec<&GameView> = self.games.iter().filter(|g| g.tiebreak).collect();
        tb.chunks(2)
            .map(|set| {
                let t = tally(set.iter().map(|g| (g.first_started, g.result)));
                let score = format!("{}-{}", show_points(t.first), show_points(t.second));
                match t.decided as usize {
                    0 => "to play".to_string(),
                    n if n < set.len() => format!("{score} so far"),
                    _ => score,
                }
            })
            .collect()
    }
    /// The games of the last tiebreak set, once there is one.
    pub fn last_set(&self) -> Vec<&GameView> {
        let tb: Vec<&GameView> = self.games.iter().filter(|g| g.tiebreak).collect();
        tb[tb.len().saturating_sub(2)..].to_vec()
    }
}

fn missing_only(query: &HashMap<String, String>) -> bool {
    query.get("missing").is_some_and(|v| v == "1")
}

pub async fn results_form(
    _r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
    query: web::Query<HashMap<String, String>>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let data = load_round(&state, tid, n).await?;
    let round = data.round(n, true)?;
    let flags = flag_words(&state, &data, &round).await?;
    let revision = data.tournament.revision;
    let mut page = ResultsPage::new(ctx, data, round, missing_only(&query));
    page.flags = flags;
    page.banner = crate::web::views::publication::failing(
        &state,
        tid,
        revision,
        true,
        format!("/t/{tid}/rounds/{n}/results"),
    )
    .await?;
    page.saved = query.get("saved").and_then(|v| v.parse().ok()).unwrap_or(0);
    render(&page, StatusCode::OK)
}

/// Reads a results form into edits. Only the games whose value the person
/// changed count: each game carries the value it was rendered with (`o`)
/// and its version then (`v`), so a form opened before a colleague's save
/// neither blanks their results nor overwrites them. A blank select means
/// "no change"; clearing a result is its own choice (`clear`).
///
/// Fields: `s{pairing}` a pairing score (fills the main games, OGR 9.4's
/// tiebreak set excepted), `ts{pairing}` the score of the last tiebreak set,
/// `g{game}` one game. `only` limits the save to one pairing.
fn read_form(
    pairings: &[PairingView],
    games_per_pairing: u32,
    form: &HashMap<String, String>,
    only: Option<i32>,
    problems: &mut Vec<Problem>,
    typed: &mut HashMap<String, String>,
) -> Vec<ResultEdit> {
    let mut edits = Vec::new();
    let mut problem = |field: String, message: String, value: &str| {
        typed.insert(field.clone(), value.to_string());
        problems.push(Problem { field, message });
    };
    for p in pairings
        .iter()
        .filter(|p| p.second_id.is_some() && only.is_none_or(|o| o == p.id))
    {
        let seen = |g: &GameView| match form.get(&format!("o{}", g.id)) {
            Some(o) if o.is_empty() => None,
            Some(o) => GameResult::parse(o),
            None => g.result,
        };
        let mut wanted: Vec<(i32, Option<GameResult>)> = Vec::new();
        let mut by_score = |field: String, games: Vec<&GameView>, n: u32| {
            let text = form.get(&field).map(|s| s.trim()).unwrap_or("");
            if text.is_empty() || games.is_empty() {
                return false;
            }
            match parse_pairing_score(text, n) {
                Ok((first, _)) => {
                    let starts: Vec<bool> = games.iter().map(|g| g.first_started).collect();
                    for (g, r) in games.into_iter().zip(fill_from_first(first, &starts)) {
                        wanted.push((g.id, Some(r)));
                    }
                }
                Err(m) => problem(
                    field,
                    format!("Table {}: {}", p.table, crate::wording::field::score(&m)),
                    text,
                ),
            }
            true
        };
        let main: Vec<&GameView> = p.games.iter().filter(|g| !g.tiebreak).collect();
        let main_by_score = by_score(format!("s{}", p.id), main, games_per_pairing);
        let set_by_score = by_score(format!("ts{}", p.id), p.last_set(), 2);
        for g in &p.games {
            let covered = if g.tiebreak {
                set_by_score && p.last_set().iter().any(|x| x.id == g.id)
            } else {
                main_by_score
            };
            if covered {
                continue;
            }
            let field = format!("g{}", g.id);
            let text = form.get(&field).map(|s| s.trim()).unwrap_or("");
            match text {
                "" => {}
                "clear" => wanted.push((g.id, None)),
                _ => match GameResult::parse(text) {
                    Some(r) => wanted.push((g.id, Some(r))),
                    None => problem(
                        field,
                        format!(
                            "Table {}, game {}: '{text}' is not a result (1-0, 0-1, ½-½, +-, -+, --, np)",
                            p.table, g.number
                        ),
                        text,
                    ),
                },
            }
        }
        for (id, r) in wanted {
            let Some(g) = p.games.iter().find(|g| g.id == id) else {
                continue;
            };
            if r != seen(g) {
                edits.push(ResultEdit {
                    game: id,
                    wanted: r,
                    seen_version: form.get(&format!("v{}", g.id)).and_then(|v| v.parse().ok()),
                    by: crate::results::EnteredBy::Referee,
                });
            }
        }
    }
    edits
}

/// Reads a quick entry, `table score` (`7 4-2`, `12 3½-2½`). A knock-out
/// table whose main games were level is in its tiebreak sets: the score is
/// that of its last set (the one being played), never of the main games.
fn read_quick(
    text: &str,
    pairings: &[PairingView],
    games_per_pairing: u32,
) -> Result<Quick, String> {
    let text = text.trim();
    let (table, score) = text
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("'{text}' is not a table and a score, like 7 4-2"))?;
    let table: i32 = table
        .parse()
        .map_err(|_| format!("'{table}' is not a table number"))?;
    let pairing = pairings
        .iter()
        .find(|p| p.table == table && p.second_id.is_some())
        .ok_or_else(|| format!("there is no table {table} with two players in this round"))?;
    let score = score.trim().to_string();
    let set_games = pairing.last_set();
    if set_games.is_empty() {
        let (first, _) = parse_pairing_score(&score, games_per_pairing)
            .map_err(|m| format!("Table {table}: {}", crate::wording::field::score(&m)))?;
        let main: Vec<&GameView> = pairing.games.iter().filter(|g| !g.tiebreak).collect();
        let starts: Vec<bool> = main.iter().map(|g| g.first_started).collect();
        let fills = fill_from_first(first, &starts);
        if main.iter().zip(&fills).all(|(g, r)| g.result == Some(*r)) {
            return Ok(Quick::AlreadySo(format!(
                "Table {table} already says {score}: nothing to store."
            )));
        }
        return Ok(Quick::Store(Box::new(QuickEntry {
            pairing: pairing.clone(),
            score,
            set: None,
            set_games: Vec::new(),
        })));
    }
    let set = pairing.set_scores().len();
    let (first, _) = parse_pairing_score(&score, set_games.len() as u32).map_err(|_| {
        format!(
            "Table {table} was level {} after its main games and plays tiebreak set {set}, of two games: '{score}' is not a score of that set (like {table} 2-0 or {table} 1½-½)",
            pairing.score
        )
    })?;
    let starts: Vec<bool> = set_games.iter().map(|g| g.first_started).collect();
    let fills = fill_from_first(first, &starts);
    if set_games
        .iter()
        .zip(&fills)
        .all(|(g, r)| g.result == Some(*r))
    {
        return Ok(Quick::AlreadySo(format!(
            "Table {table} already says {score} in tiebreak set {set} (main games {}): nothing to store.",
            pairing.score
        )));
    }
    Ok(Quick::Store(Box::new(QuickEntry {
        pairing: pairing.clone(),
        score,
        set: Some(set),
        set_games: set_games.into_iter().cloned().zip(fills).collect(),
    })))
}

/// Saves what the results form asks, through the one save-a-result use
/// case; a game changed meanwhile by someone else is reported with what it
/// says now, never overwritten. A quick entry is named back first.
pub async fn save_results(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let form = form.into_inner();
    let mut data = load_round(&state, tid, n).await?;
    let round = data.round(n, true)?;
    let filter = missing_only(&form);
    let games_per_pairing = data.tournament.games_per_pairing as u32;
    let views = pairing_views(&data, &round);
    if let Some(q) = form.get("quick").filter(|q| !q.trim().is_empty()) {
        let mut page = ResultsPage::new(ctx, data, round, filter);
        match read_quick(q, &views, games_per_pairing) {
            Ok(Quick::Store(entry)) => page.quick = Some(*entry),
            Ok(Quick::AlreadySo(notice)) => page.notice = Some(notice),
            Err(message) => {
                page.typed.insert("quick".into(), q.clone());
                page.problems.push(Problem {
                    field: "quick".into(),
                    message,
                });
                return render(&page, StatusCode::UNPROCESSABLE_ENTITY);
            }
        }
        return render(&page, StatusCode::OK);
    }
    let only = form.get("save").and_then(|v| v.parse().ok());
    let mut problems = Vec::new();
    let mut typed = HashMap::new();
    // "Confirm" beside a result both players reported: that game alone.
    let confirmed = form.get("confirm").and_then(|c| {
        let (game, result) = c.split_once(':')?;
        let game: i32 = game.parse().ok()?;
        Some(ResultEdit {
            game,
            wanted: Some(GameResult::parse(result)?),
            seen_version: form.get(&format!("v{game}")).and_then(|v| v.parse().ok()),
            by: crate::results::EnteredBy::Referee,
        })
    });
    let edits = match confirmed {
        Some(edit) => vec![edit],
        None => read_form(
            &views,
            games_per_pairing,
            &form,
            only,
            &mut problems,
            &mut typed,
        ),
    };
    // Games whose ruling the referee confirmed this entry replaces.
    let replacing: Vec<i32> = form
        .iter()
        .filter(|(k, v)| k.starts_with('r') && v.as_str() == "yes")
        .filter_map(|(k, _)| k[1..].parse().ok())
        .collect();
    let user = r.user.clone();
    let report = state
        .run(move |c| director::results::save_replacing(c, tid, &edits, &replacing, &user))
        .await?;
    for c in &report.conflicts {
        problems.push(Problem {
            field: format!("g{}", c.meanwhile.game_id),
            message: format!(
                "{} The page shows it now: set yours again if it is right.",
                c.meanwhile
            ),
        });
    }
    for (game, why) in &report.refused {
        problems.push(Problem {
            field: format!("g{game}"),
            message: why.to_string(),
        });
    }
    let saved = report.saved.len();
    if problems.is_empty() && report.ruled.is_empty() {
        let filter = if filter { "&missing=1" } else { "" };
        // After a quick entry the page comes back to the quick-entry box,
        // ready for the next table; after a table's own button, to it.
        let anchor = only
            .filter(|_| !form.contains_key("quick_stored"))
            .and_then(|pid| views.iter().find(|p| p.id == pid))
            .map(|p| format!("#t{}", p.table))
            .unwrap_or_default();
        return Ok(see_other(&format!(
            "/t/{tid}/rounds/{n}/results?saved={saved}{filter}{anchor}"
        )));
    }
    let status = if report.conflicts.is_empty() && report.ruled.is_empty() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::CONFLICT
    };
    // The page shows the round as this save left it, from what the save
    // returned rather than from a second read.
    data.take_saved(&report);
    let mut page = ResultsPage::new(ctx, data, round, filter);
    page.typed = typed;
    page.problems = problems;
    page.saved = saved;
    page.ruled = report.ruled;
    render(&page, status)
}

#[derive(Template, WebTemplate)]
#[template(path = "standings.html")]
pub struct StandingsPage {
    ctx: Ctx,
    t: crate::director::model::Tournament,
    /// Active players, ranked.
    rows: Vec<Standing>,
    /// Withdrawn players, listed after, unranked.
    withdrawn: Vec<Standing>,
    clubs: HashMap<u32, String>,
    /// `players` or `teams`: whose pages the names link to.
    kind: &'static str,
    rounds_published: usize,
    /// Results still missing in published rounds.
    missing: usize,
    /// The tiebreak columns shown (none for a knock-out), and whether the
    /// column is written with two decimals (some value needs more than
    /// halves) rather than in halves.
    columns: Vec<(crate::tournament::Tiebreak, bool)>,
    updated: String,
}

/// The club of every line the standings can show.
fn rows_clubs(data: &TournamentData) -> HashMap<u32, String> {
    data.entrants()
        .iter()
        .map(|e| (e.id, data.club_of(e.id).to_string()))
        .collect()
}

impl StandingsPage {
    fn new(ctx: Ctx, data: TournamentData) -> StandingsPage {
        let (rows, withdrawn) = data.standings_split();
        let knockout = data.tournament.system == crate::tournament::System::Knockout;
        let columns = if knockout {
            Vec::new()
        } else {
            let tiebreaks = &data.tournament.tiebreaks;
            let fine = crate::standings::tiebreak::fine_columns(
                rows.iter().chain(&withdrawn),
                tiebreaks.len(),
            );
            tiebreaks.iter().copied().zip(fine).collect()
        };
        StandingsPage {
            ctx,
            rows,
            withdrawn,
            clubs: rows_clubs(&data),
            kind: if data.is_team_event() {
                "teams"
            } else {
                "players"
            },
            rounds_published: data.published().len(),
            missing: data.provisional(),
            columns,
            updated: crate::web::layout::updated_now(),
            t: data.tournament,
        }
    }
    /// A tiebreak value in its column's format.
    fn tb(&self, column: &usize, v: &crate::standings::TiebreakValue) -> String {
        match self.columns.get(*column) {
            Some((_, true)) => v.show_decimal(),
            _ => v.show(),
        }
    }
    /// What put the `i`th ranked line below the one above, with the values
    /// that decided it: `Buchholz 12 (14½ above)`; `level` for a shared
    /// rank, nothing for the first line.
    fn separated(&self, i: &usize) -> String {
        let Some(prev) = i.checked_sub(1).and_then(|p| self.rows.get(p)) else {
            return String::new();
        };
        let cur = &self.rows[*i];
        match cur.separated_by {
            None => "level".to_string(),
            Some(SeparatedBy::Knockout) => SeparatedBy::Knockout.label().to_string(),
            Some(SeparatedBy::Score) => format!(
                "points {} ({} above)",
                show_points(cur.score),
                show_points(prev.score)
            ),
            Some(SeparatedBy::Tiebreak(tb)) => {
                let k = self.t.tiebreaks.iter().position(|t| *t == tb).unwrap_or(0);
                match (cur.tiebreaks.get(k), prev.tiebreaks.get(k)) {
                    (Some(v), Some(p)) => format!(
                        "{} {} ({} above)",
                        tb.label(),
                        self.tb(&k, v),
                        self.tb(&k, p)
                    ),
                    _ => tb.label().to_string(),
                }
            }
        }
    }
    fn club(&self, id: &u32) -> &str {
        self.clubs.get(id).map(String::as_str).unwrap_or("")
    }
    fn pts(&self, p: &i64) -> String {
        show_points(*p)
    }
}

pub async fn standings(
    ctx: Ctx,
    req: actix_web::HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<i32>,
) -> Result<HttpResponse, AppError> {
    let signed_in = ctx.user.is_some();
    crate::web::cache::public_page(
        &state,
        &req,
        signed_in,
        path.into_inner(),
        "standings",
        move |data| {
            StandingsPage::new(ctx, data)
                .render()
                .map_err(|e| AppError::Internal(e.to_string()))
        },
    )
    .await
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct CsvHeaders {
    headers: String,
}

/// `GET /t/{tid}/standings.csv[?headers=keys]`: the header row in words,
/// or by the keys scripts read.
pub async fn standings_csv_route(
    state: web::Data<AppState>,
    path: web::Path<i32>,
    query: web::Query<CsvHeaders>,
) -> Result<HttpResponse, AppError> {
    let headers =
        crate::export::standings::Headers::parse(query.headers.trim()).ok_or_else(|| {
            AppError::invalid(
                "headers",
                format!(
                    "\"{}\" is not a header style: leave it out for words, or give \"keys\"",
                    query.headers
                ),
            )
        })?;
    let data = load_data(&state, path.into_inner()).await?;
    crate::web::layout::csv_download(
        crate::export::standings::csv(&data, headers),
        &data.tournament.name,
        "standings",
    )
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct SwapForm {
    a: String,
    b: String,
    /// Set when the referee has read the warnings and confirms.
    confirm: String,
}

/// Swaps two players of a draft round by hand. When the swap breaks a rule
/// the referee is shown every one and must confirm; the swap is audited
/// with the rules it broke.
pub async fn swap(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
    form: web::Form<SwapForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let parse = |field: &str, v: &str| {
        v.trim()
            .parse::<i32>()
            .map_err(|_| AppError::invalid(field, "choose a player"))
    };
    let (a, b) = (parse("a", &form.a)?, parse("b", &form.b)?);
    let confirmed = form.confirm == "yes";
    let user = r.user.clone();
    let outcome = state
        .run(move |c| director::swap::swap(c, tid, n, (a, b), confirmed, &user))
        .await?;
    match outcome {
        Swap::Done => Ok(see_other(&format!("/t/{tid}/rounds/{n}"))),
        Swap::NeedsConfirmation(broken) => {
            let data = load_data(&state, tid).await?;
            let page = SwapPage {
                ctx,
                round: data.round(n, true)?,
                t: data.tournament,
                a,
                b,
                broken,
            };
            render(&page, StatusCode::OK)
        }
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "swap.html")]
pub struct SwapPage {
    ctx: Ctx,
    t: crate::director::model::Tournament,
    round: Round,
    a: i32,
    b: i32,
    broken: Vec<String>,
}

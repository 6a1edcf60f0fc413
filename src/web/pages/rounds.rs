//! Rounds: pair, publish, undo, lock, date and clock; a round's page and
//! its result slips; swapping two players.

use std::collections::HashMap;

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;

use crate::director::model::Round;
use crate::director::rounds;
use crate::director::TournamentData;
use crate::director::{self, pair::Then, swap::Swap};
use crate::field::{Chosen, Problem};
use crate::ids::{EntryId, GameId, PairingId, RoundNo, TournamentId};
use crate::refusal::Kind;
use crate::web::auth::can_edit;
use crate::web::auth::Referee;
use crate::web::error::AppError;
use crate::web::layout::{absolute_url, qr_svg, render, see_other, Ctx};
use crate::web::views::round::{
    flag_words, load_data, pairing_views, player_link, seats, PairingView, Seat,
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
    path: web::Path<(TournamentId, RoundNo)>,
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
    path: web::Path<(TournamentId, RoundNo)>,
    form: web::Form<LockForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let lock = match form.lock.trim() {
        "yes" => true,
        "no" => false,
        other => {
            return Err(AppError::invalid(
                "lock",
                Problem::NotYesNo {
                    text: other.to_string(),
                },
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
    path: web::Path<(TournamentId, RoundNo)>,
    form: web::Form<DateForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let day = crate::rounds::parse_day(&form.date)
        .map_err(|problem| AppError::from(crate::field::FieldError::new("date", problem)))?;
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
    path: web::Path<(TournamentId, RoundNo)>,
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
                Err(e) if e.is(Kind::Invalid) => {
                    let (field, message) = e.said();
                    (field.to_string(), message)
                }
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
    n: RoundNo,
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
    path: web::Path<(TournamentId, RoundNo)>,
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
    rounds: Vec<RoundNo>,
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
    flags: HashMap<GameId, (bool, String, String)>,
    /// Why the round cannot be undone, if it cannot.
    undo_blocker: Option<crate::web::error::Said>,
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

    fn flag(&self, game: &GameId) -> Option<&(bool, String, String)> {
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

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct Search {
    q: String,
}

pub async fn show(
    ctx: Ctx,
    req: actix_web::HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo)>,
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
                .map_err(AppError::internal)
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
    n: RoundNo,
    can_edit: bool,
    flags: HashMap<GameId, (bool, String, String)>,
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
        undo_blocker: data.undo_blocker(n).map(|(r, last)| {
            let words =
                crate::wording::rounds::undo_blocked(&r, last.0, crate::wording::Lang::default());
            crate::web::error::Said::of(&crate::refusal::Refusal::Round(r), words)
        }),
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
    path: web::Path<(TournamentId, RoundNo)>,
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
    links: HashMap<PairingId, (String, String)>,
    /// For the round's referees: each player's personal link and its QR
    /// code, by player id, printed on a stub for that player alone.
    personal: HashMap<EntryId, (String, String)>,
}

impl SlipsPage {
    fn link(&self, pairing: &PairingId) -> Option<&(String, String)> {
        self.links.get(pairing)
    }
    fn sides(&self, p: &PairingView) -> Vec<(Option<EntryId>, String)> {
        vec![
            (p.first_id, p.first.clone()),
            (p.second_id, p.second.clone()),
        ]
    }
    fn personal_link(&self, player: &Option<EntryId>) -> Option<&(String, String)> {
        self.personal.get(&(*player)?)
    }
}

/// `GET /t/{tid}/rounds/{n}/slips`: one printable result slip per table.
pub async fn slips(
    ctx: Ctx,
    req: actix_web::HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo)>,
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
    path: web::Path<(TournamentId, RoundNo)>,
    form: web::Form<SwapForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let parse = |field: &'static str, v: &str| {
        v.trim().parse::<EntryId>().map_err(|_| {
            AppError::invalid(
                field,
                Problem::NotChosen {
                    what: Chosen::Player,
                },
            )
        })
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
    a: EntryId,
    b: EntryId,
    broken: Vec<String>,
}

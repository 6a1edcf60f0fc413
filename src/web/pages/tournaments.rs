//! Creating, showing and editing tournaments; assigning their referees; the
//! audit trail.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;
use serde::Deserialize;

use crate::director::model::Tournament;
use crate::director::tournaments;
use crate::field::{Chosen, Problem};
use crate::ids::{TournamentId, UserId};
use crate::refusal::Kind;
use crate::tournament::{ByeValue, Lock, Ranking, RawTournament, RuleSet, System, Tiebreak};
use crate::web::auth::{Admin, Referee, SignedIn};
use crate::web::error::AppError;
use crate::web::layout::{render, see_other, Ctx, FormErrors, FORM_ERROR};
use crate::web::views::tournament::load_page;
use crate::web::AppState;

/// How many ordered tiebreak choices the form offers.
const TIEBREAK_SLOTS: usize = 7;

#[derive(Template, WebTemplate)]
#[template(path = "tournament_form.html")]
pub struct TournamentForm {
    ctx: Ctx,
    /// `None` while creating.
    id: Option<TournamentId>,
    raw: RawTournament,
    chosen_tiebreaks: Vec<String>,
    errors: FormErrors,
    /// Settings the event's progress has fixed, shown read-only with why.
    locks: Vec<Lock>,
}

impl TournamentForm {
    fn new(
        ctx: Ctx,
        id: Option<TournamentId>,
        raw: RawTournament,
        errors: FormErrors,
    ) -> TournamentForm {
        let mut chosen: Vec<String> = raw
            .tiebreaks
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        // Show the tiebreaks that will apply, not blanks.
        if chosen.is_empty() && raw.system != "knockout" {
            let team = System::parse(&raw.system).is_some_and(System::is_team);
            let list = if team {
                crate::tournament::team_tiebreaks(
                    Ranking::parse(&raw.ranking).unwrap_or(Ranking::GamePoints),
                )
            } else {
                crate::tournament::DEFAULT_TIEBREAKS.to_vec()
            };
            chosen = list.iter().map(|t| t.as_str().to_string()).collect();
        }
        chosen.resize(TIEBREAK_SLOTS, String::new());
        TournamentForm {
            ctx,
            id,
            raw,
            chosen_tiebreaks: chosen,
            errors,
            locks: Vec::new(),
        }
    }

    fn with_locks(mut self, locks: Vec<Lock>) -> TournamentForm {
        self.locks = locks;
        self
    }

    /// Why `field` can no longer change, if it cannot.
    fn locked(&self, field: &str) -> Option<&str> {
        self.locks
            .iter()
            .find(|l| l.field == field)
            .map(|l| crate::wording::field::since(l.since))
    }

    /// A setting's label as the form lists it, for a locked one shown as text.
    fn label_of(&self, field: &str) -> String {
        let r = &self.raw;
        let named = |v: Option<&'static str>, raw: &str| v.map_or(raw.to_string(), str::to_string);
        match field {
            "system" => named(System::parse(&r.system).map(System::label), &r.system),
            "rules" => named(RuleSet::parse(&r.rules).map(RuleSet::label), &r.rules),
            "ranking" => named(Ranking::parse(&r.ranking).map(Ranking::label), &r.ranking),
            "bye_value" => named(
                ByeValue::parse(&r.bye_value).map(ByeValue::label),
                &r.bye_value,
            ),
            "tiebreaks" => crate::tournament::parse_tiebreaks(&r.tiebreaks)
                .map(|l| l.iter().map(|t| t.label()).collect::<Vec<_>>().join(", "))
                .unwrap_or_else(|_| r.tiebreaks.clone()),
            _ => String::new(),
        }
    }

    /// The systems with what the form fills in when one is chosen: its
    /// usual rounds (empty where the field decides) and bye value.
    fn system_defaults(&self) -> Vec<(System, String, &'static str)> {
        System::ALL
            .iter()
            .map(|s| {
                (
                    *s,
                    s.usual_rounds().map(|r| r.to_string()).unwrap_or_default(),
                    s.usual_bye_value().as_str(),
                )
            })
            .collect()
    }
    fn rule_sets(&self) -> &'static [RuleSet] {
        RuleSet::ALL
    }
    fn rankings(&self) -> &'static [Ranking] {
        Ranking::ALL
    }
    fn bye_values(&self) -> &'static [ByeValue] {
        ByeValue::ALL
    }
    fn confirmations(&self) -> &'static [crate::tournament::Confirmation] {
        crate::tournament::Confirmation::ALL
    }
    fn live_board_choices(&self) -> &'static [crate::tournament::LiveBoards] {
        crate::tournament::LiveBoards::ALL
    }
    fn tiebreak_options(&self) -> &'static [Tiebreak] {
        Tiebreak::ALL
    }
}

/// The form as posted: tiebreaks come as ordered choices `tb1`..`tb5`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TournamentPost {
    #[serde(flatten)]
    raw: RawTournament,
    tb1: String,
    tb2: String,
    tb3: String,
    tb4: String,
    tb5: String,
    tb6: String,
    tb7: String,
}

impl TournamentPost {
    fn into_raw(self) -> RawTournament {
        let mut raw = self.raw;
        if raw.tiebreaks.trim().is_empty() {
            raw.tiebreaks = [
                self.tb1, self.tb2, self.tb3, self.tb4, self.tb5, self.tb6, self.tb7,
            ]
            .into_iter()
            .filter(|t| !t.trim().is_empty())
            .collect::<Vec<_>>()
            .join(",");
            // A new team event whose tiebreaks were left at the individual
            // defaults the form opened with gets the team defaults.
            let team = System::parse(&raw.system).is_some_and(System::is_team);
            if team
                && raw.tiebreaks
                    == crate::tournament::format_tiebreaks(crate::tournament::DEFAULT_TIEBREAKS)
            {
                raw.tiebreaks = String::new();
            }
        }
        raw
    }
}

pub async fn new_form(_who: SignedIn, ctx: Ctx) -> TournamentForm {
    let raw = RawTournament {
        system: "swiss".into(),
        rules: "gar".into(),
        ranking: "game_points".into(),
        // Empty: the system's usual value, which the page fills in as
        // soon as a system is chosen.
        bye_value: String::new(),
        rounds: System::Swiss
            .usual_rounds()
            .map(|r| r.to_string())
            .unwrap_or_default(),
        ..Default::default()
    };
    TournamentForm::new(ctx, None, raw, FormErrors::default())
}

pub async fn create(
    who: SignedIn,
    ctx: Ctx,
    state: web::Data<AppState>,
    form: web::Form<TournamentPost>,
) -> Result<HttpResponse, AppError> {
    let raw = form.into_inner().into_raw();
    match raw.check() {
        Ok(fields) => {
            let created = state
                .write(Some(who.0.id), move |w| {
                    tournaments::create(w, &fields, &who.0)
                })
                .await;
            match created {
                Ok(t) => Ok(see_other(&format!("/t/{}", t.id))),
                // A date outside its range, refused where it is stored.
                Err(e) if e.is(Kind::Invalid) => {
                    let (field, message) = e.said();
                    let mut errors = FormErrors::default();
                    errors.add(field, message);
                    render(&TournamentForm::new(ctx, None, raw, errors), FORM_ERROR)
                }
                Err(other) => Err(other),
            }
        }
        Err(errors) => render(
            &TournamentForm::new(ctx, None, raw, errors.into()),
            FORM_ERROR,
        ),
    }
}

pub async fn edit_form(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
) -> Result<TournamentForm, AppError> {
    let id = r.tournament.id;
    let locks = state
        .run(move |c| crate::director::settings::locks(c, id))
        .await?;
    let raw = RawTournament::from_fields(&r.tournament.fields());
    Ok(TournamentForm::new(ctx, Some(id), raw, FormErrors::default()).with_locks(locks))
}

pub async fn update(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    form: web::Form<TournamentPost>,
) -> Result<HttpResponse, AppError> {
    let raw = form.into_inner().into_raw();
    let id = r.tournament.id;
    let checked = raw.check();
    let refused = match checked {
        Ok(fields) => {
            let user = r.user.clone();
            match state
                .run(move |c| crate::director::settings::update(c, id, &fields, &user))
                .await
            {
                Ok(_) => return Ok(see_other(&format!("/t/{id}"))),
                Err(e) if e.is(Kind::Invalid) || e.is(Kind::Conflict) && e.field().is_some() => {
                    let status = actix_web::ResponseError::status_code(&e);
                    let (field, message) = e.said();
                    let mut errors = FormErrors::default();
                    errors.add(field, message);
                    (
                        errors,
                        if e.is(Kind::Invalid) {
                            FORM_ERROR
                        } else {
                            status
                        },
                    )
                }
                Err(other) => return Err(other),
            }
        }
        Err(errors) => (errors.into(), FORM_ERROR),
    };
    let locks = state
        .run(move |c| crate::director::settings::locks(c, id))
        .await?;
    render(
        &TournamentForm::new(ctx, Some(id), raw, refused.0).with_locks(locks),
        refused.1,
    )
}

pub async fn show(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let page = load_page(
        &state,
        ctx,
        path.into_inner(),
        Default::default(),
        FormErrors::default(),
    )
    .await?;
    render(&page, StatusCode::OK)
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct AssignForm {
    pub user_id: String,
}

pub async fn assign_referee(
    admin: Admin,
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    form: web::Form<AssignForm>,
) -> Result<HttpResponse, AppError> {
    let tid = path.into_inner();
    let uid: UserId = form.user_id.trim().parse().map_err(|_| {
        AppError::invalid(
            "user_id",
            Problem::NotChosen {
                what: Chosen::Referee,
            },
        )
    })?;
    state
        .write(Some(admin.0.id), move |w| {
            tournaments::assign_referee(w, tid, uid)
        })
        .await?;
    Ok(see_other(&format!("/t/{tid}")))
}

pub async fn unassign_referee(
    admin: Admin,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, UserId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, uid) = path.into_inner();
    state
        .write(Some(admin.0.id), move |w| {
            tournaments::unassign_referee(w, tid, uid)
        })
        .await?;
    Ok(see_other(&format!("/t/{tid}")))
}

#[derive(Template, WebTemplate)]
#[template(path = "audit.html")]
pub struct AuditPage {
    ctx: Ctx,
    t: Tournament,
    trail: crate::director::audit::Trail,
    filter: AuditQuery,
}

/// The audit page's filters, as GET query parameters.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct AuditQuery {
    pub round: String,
    pub player: String,
    pub referee: String,
    pub page: String,
}

impl AuditQuery {
    fn filter(&self) -> crate::director::audit::TrailFilter {
        crate::director::audit::TrailFilter {
            round: self.round.trim().parse().ok(),
            player: self.player.trim().parse().ok(),
            referee: Some(self.referee.trim().to_string()).filter(|r| !r.is_empty()),
            page: self.page.trim().parse().unwrap_or(1),
        }
    }
}

impl AuditPage {
    /// The address of page `n` with the same filters.
    fn page_url(&self, n: &usize) -> String {
        let q = serde_urlencoded::to_string([
            ("round", self.filter.round.as_str()),
            ("player", self.filter.player.as_str()),
            ("referee", self.filter.referee.as_str()),
            ("page", &n.to_string()),
        ])
        .unwrap_or_default();
        format!("/t/{}/audit?{q}", self.t.id)
    }
    fn is(&self, value: &str, chosen: &str) -> bool {
        value == chosen
    }
    fn subject(&self, s: &crate::change::Subject) -> String {
        crate::wording::audit::subject(s)
    }
    fn value(&self, v: &Option<crate::change::Value>) -> String {
        v.as_ref()
            .map(crate::wording::audit::value)
            .unwrap_or_default()
    }
}

pub async fn audit_page(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    query: web::Query<AuditQuery>,
) -> Result<AuditPage, AppError> {
    let id = r.tournament.id;
    let filter = query.into_inner();
    let f = filter.filter();
    let trail = state
        .run(move |c| crate::director::audit::trail(c, id, &f))
        .await?;
    Ok(AuditPage {
        ctx,
        t: r.tournament,
        trail,
        filter,
    })
}

/// The whole tournament as one file, for `kraal import event` on another
/// server. Referees only: it holds what only they see (kept-apart pairs and
/// their reasons, relatives, the audit trail).
pub async fn event_json(r: Referee, state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    let tid = r.tournament.id;
    let bytes = state
        .run(move |c| crate::export::event::json(c, tid))
        .await?;
    Ok(crate::web::layout::download(
        "application/json",
        bytes,
        &r.tournament.name,
        "event.json",
    ))
}

/// The event as FIDE TRF. Referees only, for the same reason as the event
/// file: it carries relatives and waived bans.
pub async fn export_trf(r: Referee, state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    let data = crate::web::views::round::load_data(&state, r.tournament.id).await?;
    let text = crate::export::trf::text(&data)?;
    Ok(crate::web::layout::download(
        "text/plain; charset=utf-8",
        text,
        &r.tournament.name,
        "export.trf",
    ))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PublicationForm {
    pub to: String,
    pub token: String,
}

/// `POST /t/{tid}/publication`: publish to a federation's server.
pub async fn publish_to(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    form: web::Form<PublicationForm>,
) -> Result<HttpResponse, AppError> {
    let tid = r.tournament.id;
    match crate::director::publications::check(&form.to, &form.token) {
        Ok((to, token)) => {
            state
                .write(Some(r.user.id), move |w| {
                    crate::director::publications::set(w, tid, &to, &token)
                })
                .await?;
            Ok(see_other(&format!("/t/{tid}#publication")))
        }
        Err(e) => {
            let mut errors = FormErrors::default();
            errors.add(e.field, e.to_string());
            let page = load_page(&state, ctx, tid, Default::default(), errors).await?;
            render(&page, crate::web::layout::FORM_ERROR)
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SendNowForm {
    /// The page the button was pressed on.
    pub back: String,
}

/// `POST /t/{tid}/publication/send-now`: the publication's wait between
/// tries starts again from nothing, so the sender tries at once; back to
/// the page the button was on.
pub async fn send_now(
    r: Referee,
    state: web::Data<AppState>,
    form: web::Form<SendNowForm>,
) -> Result<HttpResponse, AppError> {
    let tid = r.tournament.id;
    let back = crate::web::views::publication::back_to(tid, &form.back);
    // A page left open after publishing stopped: nothing to send.
    let publishing = state
        .run(move |c| crate::director::publications::find(c, tid))
        .await?
        .is_some_and(|p| p.active);
    if publishing {
        state
            .write(Some(r.user.id), move |w| {
                crate::director::publications::send_now(w, tid)
            })
            .await?;
    }
    Ok(see_other(&back))
}

/// `POST /t/{tid}/publication/stop`
pub async fn stop_publishing(
    r: Referee,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    let tid = r.tournament.id;
    state
        .write(Some(r.user.id), move |w| {
            crate::director::publications::stop(w, tid)
        })
        .await?;
    Ok(see_other(&format!("/t/{tid}#publication")))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ArchiveForm {
    /// `yes` withdraws the tournament from public view, `no` returns it.
    pub archived: String,
}

/// `POST /t/{tid}/archive`: withdraws the tournament from public view
/// (`archived=yes`) or returns it (`archived=no`).
pub async fn archive(
    r: Referee,
    state: web::Data<AppState>,
    form: web::Form<ArchiveForm>,
) -> Result<HttpResponse, AppError> {
    let archived = match form.archived.trim() {
        "yes" => true,
        "no" => false,
        other => {
            return Err(AppError::from(crate::field::FieldError::new(
                "archived",
                crate::field::Problem::NotYesNo {
                    text: other.to_string(),
                },
            )))
        }
    };
    let tid = r.tournament.id;
    state
        .write(Some(r.user.id), move |w| {
            tournaments::set_archived(w, tid, archived)
        })
        .await?;
    state.archived.outdate();
    Ok(see_other(&format!("/t/{tid}")))
}

/// `POST /t/{tid}/delete` (admins): without `confirm=yes`, the question
/// naming the tournament; with it, the tournament is gone.
pub async fn delete(
    admin: Admin,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    form: web::Form<crate::web::layout::Confirm>,
) -> Result<HttpResponse, AppError> {
    let tid = path.into_inner();
    if !form.given() {
        let (t, paired, copy) = state.run(move |c| tournaments::deletion(c, tid)).await?;
        let page = crate::web::layout::ConfirmPage {
            ctx,
            question: format!("Delete {}?", t.name),
            consequences: vec![
                format!(
                    "{} goes with every player, round ({paired} paired), result and audit entry of it; the server's own trail records the deletion.",
                    t.name
                ),
                if copy {
                    "It is a published copy: the venue's next publication makes a new one.".into()
                } else {
                    "A tournament with a published round is not deleted: archive it instead.".into()
                },
            ],
            action: format!("/t/{tid}/delete"),
            button: format!("Delete {}", t.name),
            back: format!("/t/{tid}"),
            back_label: t.name.clone(),
            keep: format!("Keep {}", t.name),
            t,
        };
        return render(&page, StatusCode::OK);
    }
    state
        .write(Some(admin.0.id), move |w| tournaments::delete(w, tid))
        .await?;
    Ok(see_other("/"))
}

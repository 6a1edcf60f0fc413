//! Players: add, edit, withdraw and reinstate; relatives; CSV in and out.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;
use serde::Deserialize;

use crate::director::model::Tournament;
use crate::director::players;
use crate::director::tournaments;
use crate::export::players as players_csv;
use crate::field::{Chosen, Problem};
use crate::ids::{EntryId, RoundNo, TournamentId};
use crate::refusal::Kind;
use crate::roster::PlayerFields;
use crate::web::auth::Referee;
use crate::web::error::AppError;
use crate::web::layout::{render, see_other, Ctx, FormErrors, FORM_ERROR};
use crate::web::views::tournament::{load_page, PlayerRaw};
use crate::web::AppState;

impl PlayerRaw {
    fn check(&self) -> Result<PlayerFields, FormErrors> {
        PlayerFields::parse(
            &self.name,
            &self.club,
            &self.rating,
            &self.seed,
            &self.federation_id,
        )
        .map_err(FormErrors::from)
    }

    fn from_fields(f: &PlayerFields) -> PlayerRaw {
        let opt = |v: Option<i32>| v.map(|n| n.to_string()).unwrap_or_default();
        PlayerRaw {
            name: f.name.clone(),
            club: f.club.clone(),
            rating: opt(f.rating),
            seed: opt(f.seed),
            federation_id: f.federation_id.clone(),
            person: String::new(),
        }
    }
}

pub async fn add(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    form: web::Form<PlayerRaw>,
) -> Result<HttpResponse, AppError> {
    let raw = form.into_inner();
    let tid = r.tournament.id;
    if !raw.person.trim().is_empty() {
        return add_person(r, ctx, state, raw).await;
    }
    match raw.check() {
        Ok(fields) => {
            state
                .write(Some(r.user.id), move |w| players::create(w, tid, &fields))
                .await?;
            Ok(see_other(&format!("/t/{tid}#players")))
        }
        Err(errors) => render(&load_page(&state, ctx, tid, raw, errors).await?, FORM_ERROR),
    }
}

/// Enters a person of the registry, named by number or federation id.
async fn add_person(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    raw: PlayerRaw,
) -> Result<HttpResponse, AppError> {
    let tid = r.tournament.id;
    let mut errors = FormErrors::default();
    let seed = match raw.seed.trim() {
        "" => None,
        s => match PlayerFields::parse("-", "", "", s, "") {
            Ok(f) => f.seed,
            Err(e) => {
                errors = FormErrors::from(e);
                None
            }
        },
    };
    let asked = raw.person.trim().to_string();
    let person = state.run(move |c| players::person_named(c, &asked)).await?;
    let Some(person) = person else {
        errors.problem(
            "person",
            Problem::NobodyNamed {
                text: raw.person.trim().to_string(),
            },
        );
        return render(&load_page(&state, ctx, tid, raw, errors).await?, FORM_ERROR);
    };
    if !errors.is_empty() {
        return render(&load_page(&state, ctx, tid, raw, errors).await?, FORM_ERROR);
    }
    let current = crate::web::views::rating_book(&state)
        .await?
        .current(person.id);
    let id = person.id;
    let entered = state
        .write(Some(r.user.id), move |w| {
            crate::director::registry::enter(w, tid, id, current, seed)
        })
        .await;
    match entered {
        Ok(_) => Ok(see_other(&format!("/t/{tid}#players"))),
        Err(e) if e.is(Kind::Invalid) || e.is(Kind::Conflict) => {
            errors.add("person", e.said().1);
            render(&load_page(&state, ctx, tid, raw, errors).await?, FORM_ERROR)
        }
        Err(e) => Err(e),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "player_form.html")]
pub struct PlayerForm {
    ctx: Ctx,
    t: Tournament,
    id: EntryId,
    raw: PlayerRaw,
    errors: FormErrors,
    /// The player's personal link and its QR code (`None`: revoked).
    link: Option<(String, String)>,
}

pub async fn edit_form(
    r: Referee,
    ctx: Ctx,
    req: actix_web::HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, EntryId)>,
) -> Result<PlayerForm, AppError> {
    let (tid, pid) = path.into_inner();
    let (p, key) = state.run(move |c| players::edit(c, tid, pid)).await?;
    let link = key.map(|k| {
        let url = crate::web::layout::absolute_url(&req, &format!("/player/{k}"));
        (crate::web::layout::qr_svg(&url), url)
    });
    Ok(PlayerForm {
        ctx,
        t: r.tournament,
        id: pid,
        raw: PlayerRaw::from_fields(&p.fields()),
        errors: FormErrors::default(),
        link,
    })
}

pub async fn update(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, EntryId)>,
    form: web::Form<PlayerRaw>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    let raw = form.into_inner();
    match raw.check() {
        Ok(fields) => {
            state
                .write(Some(r.user.id), move |w| {
                    players::update(w, tid, pid, &fields)
                })
                .await?;
            Ok(see_other(&format!("/t/{tid}#players")))
        }
        Err(errors) => render(
            &PlayerForm {
                ctx,
                t: r.tournament,
                id: pid,
                raw,
                errors,
                link: None,
            },
            FORM_ERROR,
        ),
    }
}

/// Withdraws a player, after asking: without `confirm=yes` the page says
/// what the withdrawal does.
pub async fn withdraw(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, EntryId)>,
    form: web::Form<crate::web::layout::Confirm>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    if !form.given() {
        let (p, paired) = state.run(move |c| players::withdrawal(c, tid, pid)).await?;
        let next = paired + 1;
        let page = crate::web::layout::ConfirmPage {
            ctx,
            question: format!("Withdraw {}?", p.name),
            consequences: vec![
                format!("{} is not paired from round {next} on.", p.name),
                if paired > 0 {
                    format!("Rounds 1 to {paired}, already paired, stand as they are.")
                } else {
                    "No round has been paired yet.".into()
                },
                format!(
                    "The standings list {} after the active players, without a rank. A withdrawal can be undone (Reinstate).",
                    p.name
                ),
            ],
            action: format!("/t/{tid}/players/{pid}/withdraw"),
            button: format!("Withdraw {}", p.name),
            back: format!("/t/{tid}#players"),
            back_label: r.tournament.name.clone(),
            keep: format!("Keep {} in", p.name),
            t: r.tournament,
        };
        return render(&page, StatusCode::OK);
    }
    state
        .write(Some(r.user.id), move |w| players::withdraw(w, tid, pid))
        .await?;
    Ok(see_other(&format!("/t/{tid}#players")))
}

pub async fn reinstate(
    r: Referee,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, EntryId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    state
        .write(Some(r.user.id), move |w| players::reinstate(w, tid, pid))
        .await?;
    Ok(see_other(&format!("/t/{tid}#players")))
}

/// Copies the person's fields and current rating into the entry again
/// (before round 1).
pub async fn refresh(
    r: Referee,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, EntryId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    let person = state
        .run(move |c| Ok(players::find(c, tid, pid)?.person_id))
        .await?;
    let book = crate::web::views::rating_book(&state).await?;
    let current = person.and_then(|p| book.current(p));
    state
        .write(Some(r.user.id), move |w| {
            crate::director::registry::refresh(w, tid, pid, current)
        })
        .await?;
    Ok(see_other(&format!("/t/{tid}#players")))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct RelationForm {
    pub a: String,
    pub b: String,
}

pub async fn add_relation(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    form: web::Form<RelationForm>,
) -> Result<HttpResponse, AppError> {
    let tid = r.tournament.id;
    let mut errors = FormErrors::default();
    let a = form
        .a
        .trim()
        .parse::<EntryId>()
        .map_err(|_| {
            errors.problem(
                "a",
                Problem::NotChosen {
                    what: Chosen::FirstPlayer,
                },
            )
        })
        .ok();
    let b = form
        .b
        .trim()
        .parse::<EntryId>()
        .map_err(|_| {
            errors.problem(
                "b",
                Problem::NotChosen {
                    what: Chosen::SecondPlayer,
                },
            )
        })
        .ok();
    if let (Some(a), Some(b)) = (a, b) {
        match state
            .write(Some(r.user.id), move |w| {
                players::add_relation(w, tid, a, b)
            })
            .await
        {
            Ok(_) => return Ok(see_other(&format!("/t/{tid}#relatives"))),
            Err(e) if e.is(Kind::Conflict) => errors.add("b", e.said().1),
            Err(e) if e.is(Kind::NotFound) => errors.add(
                "b",
                AppError::invalid("b", Problem::NotBothInEvent).said().1,
            ),
            Err(e) => return Err(e),
        }
    }
    render(
        &load_page(&state, ctx, tid, Default::default(), errors).await?,
        FORM_ERROR,
    )
}

pub async fn remove_relation(
    r: Referee,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, i32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, rid) = path.into_inner();
    state
        .write(Some(r.user.id), move |w| {
            players::remove_relation(w, tid, rid)
        })
        .await?;
    Ok(see_other(&format!("/t/{tid}#relatives")))
}

#[derive(Template, WebTemplate)]
#[template(path = "import.html")]
pub struct ImportPage {
    ctx: Ctx,
    t: Tournament,
    csv: String,
    problems: Vec<players_csv::ImportError>,
    /// Players just imported: how many and their names.
    imported: Option<usize>,
    added: Vec<String>,
    warnings: Vec<String>,
}

pub async fn import_form(r: Referee, ctx: Ctx) -> ImportPage {
    ImportPage {
        ctx,
        t: r.tournament,
        csv: String::new(),
        problems: Vec::new(),
        imported: None,
        added: Vec::new(),
        warnings: Vec::new(),
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ImportForm {
    pub csv: String,
}

/// Imports all the players of a CSV, or none: every bad line is listed.
pub async fn import(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    form: web::Form<ImportForm>,
) -> Result<HttpResponse, AppError> {
    let csv = form.into_inner().csv;
    let tid = r.tournament.id;
    match players_csv::read(&csv) {
        Ok(plan) => {
            let count = plan.players.len();
            let book = crate::web::views::rating_book(&state).await?;
            let mut warnings = plan.warnings.clone();
            let done = state
                .write(Some(r.user.id), move |w| {
                    players::import_lines(w, tid, plan.players.clone(), &plan.relatives, &book)
                })
                .await?;
            let names: Vec<&str> = done.existing.iter().map(String::as_str).collect();
            let entered = players_csv::ImportPlan {
                players: done.listed.clone(),
                relatives: Vec::new(),
                warnings: Vec::new(),
            };
            warnings.extend(players_csv::already_entered(&entered, &names));
            let (listed, unmatched, registry) = (done.listed, done.unmatched, done.registry);
            // Entries travel by federation id: one with an id is rated
            // here once the person is in this registry, and wherever the
            // event is published; one without is rated nowhere.
            let without: Vec<&str> = listed
                .iter()
                .filter(|p| p.federation_id.is_empty())
                .map(|p| p.name.as_str())
                .collect();
            if registry && !without.is_empty() {
                warnings.push(format!(
                    "no federation id, so their games are not rated here or where the event is published: {}",
                    without.join(", ")
                ));
            }
            let unknown: Vec<String> = unmatched
                .iter()
                .map(|&i| &listed[i])
                .filter(|p| !p.federation_id.is_empty())
                .map(|p| format!("{} ({})", p.name, p.federation_id))
                .collect();
            if registry && !unknown.is_empty() {
                warnings.push(format!(
                    "not in this server's registry yet, so rated only where the event is published (by federation id): {}",
                    unknown.join(", ")
                ));
            }
            // The page says what was added, and what is worth a second look.
            render(
                &ImportPage {
                    ctx,
                    t: r.tournament,
                    csv: String::new(),
                    problems: Vec::new(),
                    imported: Some(count),
                    added: listed.iter().map(|p| p.name.clone()).collect(),
                    warnings,
                },
                StatusCode::OK,
            )
        }
        Err(problems) => render(
            &ImportPage {
                ctx,
                t: r.tournament,
                csv,
                problems,
                imported: None,
                added: Vec::new(),
                warnings: Vec::new(),
            },
            FORM_ERROR,
        ),
    }
}

/// `GET /t/{tid}/players.csv`: the player list, public like the page.
pub async fn export_csv(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let tid = path.into_inner();
    let (t, list, relations) = state.run(move |c| players::sheet(c, tid)).await?;
    let fields: Vec<PlayerFields> = list.iter().map(|p| p.fields()).collect();
    let rows: Vec<players_csv::Row<'_>> = list
        .iter()
        .zip(&fields)
        .map(|(p, f)| players_csv::Row {
            id: p.id.0,
            fields: f,
            withdrawn_from_round: p.withdrawn_from_round.map(|r| r.0),
            relatives: relations
                .iter()
                .filter_map(|r| {
                    if r.a == p.id {
                        Some(r.b_name.as_str())
                    } else if r.b == p.id {
                        Some(r.a_name.as_str())
                    } else {
                        None
                    }
                })
                .collect(),
        })
        .collect();
    crate::web::layout::csv_download(players_csv::write(&rows), &t.name, "players")
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ByeForm {
    pub player: String,
    pub round: String,
    pub points: String,
}

/// Records a bye a player asked for (absent from one round, half or zero).
pub async fn request_bye(
    r: Referee,
    ctx: Ctx,
    state: web::Data<AppState>,
    form: web::Form<ByeForm>,
) -> Result<HttpResponse, AppError> {
    let tid = r.tournament.id;
    let mut errors = FormErrors::default();
    let player = form
        .player
        .trim()
        .parse::<EntryId>()
        .map_err(|_| {
            errors.problem(
                "bye_player",
                Problem::NotChosen {
                    what: Chosen::Player,
                },
            )
        })
        .ok();
    let next = state
        .run(move |c| tournaments::rounds_paired(c, tid))
        .await?
        + 1;
    let round = match form.round.trim().parse::<RoundNo>() {
        Ok(n) if n.0 >= next && n.0 <= r.tournament.last_round() => Some(n),
        Ok(n) => {
            errors.problem(
                "bye_round",
                Problem::RoundNotToPair {
                    round: n.0,
                    next,
                    last: r.tournament.last_round(),
                },
            );
            None
        }
        Err(_) => {
            errors.problem("bye_round", Problem::NoRoundNumber);
            None
        }
    };
    let half = form.points == "half";
    if let (Some(player), Some(round)) = (player, round) {
        match state
            .write(Some(r.user.id), move |w| {
                crate::director::rounds::request_bye(w, tid, player, round, half, false)
            })
            .await
        {
            Ok(()) => return Ok(see_other(&format!("/t/{tid}#byes"))),
            Err(e) if e.is(Kind::Conflict) => errors.add("bye_round", e.said().1),
            Err(e) if e.is(Kind::NotFound) => errors.add(
                "bye_player",
                AppError::invalid("bye_player", Problem::NotInEvent)
                    .said()
                    .1,
            ),
            Err(e) => return Err(e),
        }
    }
    render(
        &load_page(&state, ctx, tid, Default::default(), errors).await?,
        FORM_ERROR,
    )
}

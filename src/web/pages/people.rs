//! The registry's pages: the people list and search, a person's page
//! (events, games, rating line), merges, and the rating list.

use std::collections::HashMap;

use actix_web::{web, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;
use serde::Deserialize;

use crate::director::model::{Entry, Merge, Person};
use crate::director::people;
use crate::director::ratings::Book;
use crate::ids::{EntryId, PersonId, RoundNo, TournamentId, UserId};
use crate::rating::{Period, Rating};
use crate::refusal::Kind;
use crate::registry::{PersonFields, PersonText};
use crate::web::auth::SignedIn;
use crate::web::error::AppError;
use crate::web::layout::{render, see_other, Ctx, FormErrors, FORM_ERROR};
use crate::web::views::{period_of, rating_book as book, this_year};
use crate::web::AppState;

/// A rating as the pages show it: whole points, `?` while provisional.
pub struct Shown {
    pub rating: i64,
    pub rd: i64,
    pub provisional: bool,
}

impl Shown {
    pub fn of(r: Rating) -> Shown {
        Shown {
            rating: r.rating.round() as i64,
            rd: r.rd.round() as i64,
            provisional: r.provisional(),
        }
    }
}

impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}{}",
            self.rating,
            if self.provisional { "?" } else { "" }
        )
    }
}

/// The add form as typed.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct PersonRaw {
    pub name: String,
    pub federation_id: String,
    pub club: String,
    pub born: String,
    pub rating: String,
    pub rd: String,
    pub volatility: String,
    pub period: String,
}

impl PersonRaw {
    fn check(&self) -> Result<PersonFields, FormErrors> {
        PersonFields::parse(
            &PersonText {
                name: &self.name,
                federation_id: &self.federation_id,
                club: &self.club,
                born: &self.born,
                rating: &self.rating,
                rd: &self.rd,
                volatility: &self.volatility,
                period: &self.period,
            },
            this_year(),
        )
        .map_err(FormErrors::from)
    }
}

pub struct PersonRow {
    pub person: Person,
    pub rating: Option<Shown>,
}

#[derive(Template, WebTemplate)]
#[template(path = "people.html")]
pub struct PeoplePage {
    ctx: Ctx,
    q: String,
    people: Vec<PersonRow>,
    raw: PersonRaw,
    errors: FormErrors,
    /// The registry import as pasted, with its problems or its outcome.
    csv: String,
    problems: Vec<crate::export::players::ImportError>,
    imported: Option<String>,
    /// The federation's server the list can be pulled from, if named.
    federation: Option<String>,
    /// Why the last pull changed nothing.
    pull_failed: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub struct SearchQuery {
    #[serde(default)]
    q: String,
}

async fn people_page(
    state: &AppState,
    ctx: Ctx,
    q: String,
    raw: PersonRaw,
    errors: FormErrors,
) -> Result<PeoplePage, AppError> {
    let query = q.clone();
    let fixed = state.federation_url.clone();
    let (found, federation) = state
        .run(move |c| {
            Ok((
                people::search(c, &query, 200)?,
                crate::director::registry::federation_url(c, fixed.as_deref())?,
            ))
        })
        .await?;
    let book = book(state).await?;
    let people = found
        .into_iter()
        .map(|p| PersonRow {
            rating: book.current(p.id).map(Shown::of),
            person: p,
        })
        .collect();
    Ok(PeoplePage {
        ctx,
        q,
        people,
        raw,
        errors,
        csv: String::new(),
        problems: Vec::new(),
        imported: None,
        federation,
        pull_failed: None,
    })
}

#[derive(Debug, Default, Deserialize)]
pub struct ImportForm {
    #[serde(default)]
    csv: String,
}

/// `POST /people/import`: the registry's CSV (see `export::people`), all
/// lines or none; people whose federation id is known already are skipped
/// and named.
pub async fn import(
    who: SignedIn,
    ctx: Ctx,
    state: web::Data<AppState>,
    form: web::Form<ImportForm>,
) -> Result<HttpResponse, AppError> {
    let csv = form.into_inner().csv;
    // What the page says after the import: its outcome, or the file again
    // with its problems.
    let (imported, csv, problems, status) = match crate::export::people::read(&csv, this_year()) {
        Ok(list) => {
            let names: Vec<String> = list
                .iter()
                .map(|p| {
                    format!(
                        "{} ({})",
                        p.name,
                        p.federation_id.clone().unwrap_or_default()
                    )
                })
                .collect();
            let (created, skipped) = state
                .write(Some(who.0.id), move |w| people::import(w, &list))
                .await?;
            let mut said = format!("Imported {} people.", created.len());
            if !skipped.is_empty() {
                let known: Vec<&str> = skipped.iter().map(|&i| names[i].as_str()).collect();
                said.push_str(&format!(
                    " Already in the registry by federation id, left as they are: {}.",
                    known.join(", ")
                ));
            }
            (
                Some(said),
                String::new(),
                Vec::new(),
                actix_web::http::StatusCode::OK,
            )
        }
        Err(problems) => (None, csv, problems, FORM_ERROR),
    };
    let mut page = people_page(
        &state,
        ctx,
        String::new(),
        PersonRaw::default(),
        FormErrors::default(),
    )
    .await?;
    page.imported = imported;
    page.csv = csv;
    page.problems = problems;
    render(&page, status)
}

/// `POST /people/pull`: the federation's rating list into this registry
/// (`director::registry::pull`), all or nothing; when the federation's
/// server cannot be reached, the page says so and nothing changes.
pub async fn pull(
    who: SignedIn,
    ctx: Ctx,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    let fixed = state.federation_url.clone();
    let federation = state
        .run(move |c| crate::director::registry::federation_url(c, fixed.as_deref()))
        .await?;
    let policy = state.outbound;
    let fetched = match federation {
        None => Err("No federation server is named: an admin names it on the Users page.".into()),
        Some(url) => web::block(move || crate::outbound::rating_list(policy, &url, this_year()))
            .await
            .map_err(AppError::internal)?
            .map_err(|e| format!("The federation's list was not pulled: {e}")),
    };
    let (said, failed, status) = match fetched {
        Ok(list) => {
            let pulled = state
                .write(Some(who.0.id), move |w| {
                    crate::director::registry::pull(w, &list)
                })
                .await?;
            (
                Some(pulled.to_string()),
                None,
                actix_web::http::StatusCode::OK,
            )
        }
        Err(message) => (
            None,
            Some(message),
            actix_web::http::StatusCode::BAD_GATEWAY,
        ),
    };
    let mut page = people_page(
        &state,
        ctx,
        String::new(),
        PersonRaw::default(),
        FormErrors::default(),
    )
    .await?;
    page.imported = said;
    page.pull_failed = failed;
    render(&page, status)
}

/// `GET /people.csv`: the rating list, everyone in the registry.
pub async fn export_csv(state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    let book = book(&state).await?;
    crate::web::layout::csv_download(crate::export::people::csv(&book), "registry", "ratings")
}

/// `GET /people?q=`
pub async fn list_page(
    ctx: Ctx,
    state: web::Data<AppState>,
    query: web::Query<SearchQuery>,
) -> Result<PeoplePage, AppError> {
    people_page(
        &state,
        ctx,
        query.into_inner().q,
        PersonRaw::default(),
        FormErrors::default(),
    )
    .await
}

/// `POST /people`
pub async fn add(
    who: SignedIn,
    ctx: Ctx,
    state: web::Data<AppState>,
    form: web::Form<PersonRaw>,
) -> Result<HttpResponse, AppError> {
    let raw = form.into_inner();
    match raw.check() {
        Ok(fields) => {
            let p = state
                .write(Some(who.0.id), move |w| people::create(w, &fields))
                .await;
            match p {
                Ok(p) => Ok(see_other(&format!("/people/{}", p.id))),
                Err(e) if e.is(Kind::Conflict) => {
                    let mut errors = FormErrors::default();
                    errors.add("federation_id", e.said().1);
                    render(
                        &people_page(&state, ctx, String::new(), raw, errors).await?,
                        FORM_ERROR,
                    )
                }
                Err(e) => Err(e),
            }
        }
        Err(errors) => render(
            &people_page(&state, ctx, String::new(), raw, errors).await?,
            FORM_ERROR,
        ),
    }
}

/// A game as the person's page lists it.
pub struct GameLine {
    pub date: chrono::NaiveDate,
    pub tournament_id: TournamentId,
    pub tournament: String,
    pub round: RoundNo,
    pub opponent: String,
    pub opponent_person: Option<PersonId>,
    /// `1`, `½`, `0`, or the forfeit's spelling.
    pub result: &'static str,
    pub rated: bool,
}

/// The rating line as an SVG drawing: one point a month, the RD as a band,
/// a rating axis on the left (with its values) and a month axis below
/// (the first, the last and one between).
pub struct Chart {
    pub width: u32,
    pub height: u32,
    pub line: String,
    pub band: String,
    pub low: i64,
    pub high: i64,
    pub first: String,
    pub last: String,
    pub points: Vec<(f64, f64, String)>,
    /// The plotting area: left, top, right, bottom.
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
    /// Rating values marked on the left axis, with their height.
    pub rating_ticks: Vec<(f64, i64)>,
    /// Months marked below, with their place across.
    pub month_ticks: Vec<(f64, String)>,
}

impl Chart {
    fn of(line: &[(Period, Rating, u32)]) -> Option<Chart> {
        if line.is_empty() {
            return None;
        }
        // Narrow enough that its words stay legible on a phone.
        let (width, height) = (480.0_f64, 230.0_f64);
        // Room on the left for the rating values and the axis name, below
        // for the months and theirs.
        let (left, top, right, bottom) = (62.0_f64, 10.0_f64, 470.0_f64, 182.0_f64);
        let low = line
            .iter()
            .map(|(_, r, _)| r.rating - r.rd)
            .fold(f64::INFINITY, f64::min);
        let high = line
            .iter()
            .map(|(_, r, _)| r.rating + r.rd)
            .fold(f64::NEG_INFINITY, f64::max);
        let (low, high) = ((low / 50.0).floor() * 50.0, (high / 50.0).ceil() * 50.0);
        let span = (high - low).max(1.0);
        let n = line.len();
        let x = |i: usize| {
            if n == 1 {
                (left + right) / 2.0
            } else {
                left + (right - left) * i as f64 / (n - 1) as f64
            }
        };
        let y = |v: f64| top + (bottom - top) * (high - v) / span;
        let coords = |f: &dyn Fn(&Rating) -> f64| -> Vec<String> {
            line.iter()
                .enumerate()
                .map(|(i, (_, r, _))| format!("{:.1},{:.1}", x(i), y(f(r))))
                .collect()
        };
        let upper = coords(&|r| r.rating + r.rd);
        let mut lower = coords(&|r| r.rating - r.rd);
        lower.reverse();
        let points = line
            .iter()
            .enumerate()
            .map(|(i, (p, r, g))| {
                (
                    x(i),
                    y(r.rating),
                    format!(
                        "{p}: {}, RD {:.0}, {g} game{}",
                        Shown::of(*r),
                        r.rd,
                        if *g == 1 { "" } else { "s" }
                    ),
                )
            })
            .collect();
        // Low, high and a round value between them.
        let middle = ((low + high) / 2.0 / 50.0).round() * 50.0;
        let mut values = vec![low, high];
        if middle > low && middle < high {
            values.insert(1, middle);
        }
        let rating_ticks = values.iter().map(|&v| (y(v), v as i64)).collect();
        let mut marks = vec![0];
        if n > 2 {
            marks.push(n / 2);
        }
        if n > 1 {
            marks.push(n - 1);
        }
        let month_ticks = marks
            .into_iter()
            .map(|i| (x(i), line[i].0.to_string()))
            .collect();
        Some(Chart {
            width: width as u32,
            height: height as u32,
            line: coords(&|r| r.rating).join(" "),
            band: upper.into_iter().chain(lower).collect::<Vec<_>>().join(" "),
            low: low as i64,
            high: high as i64,
            first: line[0].0.to_string(),
            last: line[n - 1].0.to_string(),
            points,
            left,
            top,
            right,
            bottom,
            rating_ticks,
            month_ticks,
        })
    }

    /// A coordinate as the drawing writes it.
    pub fn at(&self, v: impl Coordinate) -> String {
        format!("{:.1}", v.value())
    }
}

/// A number of the drawing, however the template holds it.
pub trait Coordinate {
    fn value(&self) -> f64;
}

impl Coordinate for f64 {
    fn value(&self) -> f64 {
        *self
    }
}

impl<T: Coordinate + ?Sized> Coordinate for &T {
    fn value(&self) -> f64 {
        (**self).value()
    }
}

pub struct RatedMonth {
    pub period: Period,
    pub shown: Shown,
    pub rd: f64,
    pub games: u32,
}

#[derive(Template, WebTemplate)]
#[template(path = "person.html")]
pub struct PersonPage {
    ctx: Ctx,
    person: Person,
    merged_into: Option<Person>,
    current: Option<Shown>,
    chart: Option<Chart>,
    months: Vec<RatedMonth>,
    entries: Vec<Entry>,
    games: Vec<GameLine>,
    merges: Vec<Merge>,
    names: HashMap<PersonId, String>,
    accounts: HashMap<UserId, String>,
    error: Option<String>,
}

impl PersonPage {
    /// Who made a merge.
    fn account(&self, id: &Option<UserId>) -> String {
        id.and_then(|id| self.accounts.get(&id).cloned())
            .unwrap_or_else(|| "an account since removed".into())
    }

    /// A person of a merge: two of them often share a name, so the
    /// number goes with it.
    fn name_of(&self, id: &PersonId) -> String {
        match self.names.get(id) {
            Some(name) => format!("{name} (#{id})"),
            None => format!("person {id}"),
        }
    }
}

async fn person_page_of(
    state: &AppState,
    ctx: Ctx,
    id: PersonId,
    error: Option<String>,
) -> Result<PersonPage, AppError> {
    let mut r = state.run(move |c| people::record(c, id)).await?;
    // An archived event's entry and games are listed only for whoever may
    // see the event (its rating stays as it was).
    let archived = state.archived.ids(state).await?;
    let mut hidden = Vec::new();
    for e in &r.entries {
        let t = e.tournament_id;
        if archived.contains(&t)
            && !crate::web::archive::may_see(state, ctx.user.as_ref(), t).await?
        {
            hidden.push(t);
        }
    }
    r.entries.retain(|e| !hidden.contains(&e.tournament_id));
    r.games.retain(|g| !hidden.contains(&g.tournament_id));
    let book: std::sync::Arc<Book> = book(state).await?;
    let own: HashMap<EntryId, ()> = r.entries.iter().map(|e| (e.player_id, ())).collect();
    let names: HashMap<TournamentId, String> = r
        .entries
        .iter()
        .map(|e| (e.tournament_id, e.tournament.clone()))
        .collect();
    let mut games: Vec<GameLine> = r
        .games
        .iter()
        .filter_map(|g| {
            let (me, other) = if own.contains_key(&g.first) {
                (g.first, g.second)
            } else {
                (g.second, g.first)
            };
            let (opponent, opponent_person) = r.players.get(&other).cloned()?;
            let result = match g.played_score_of(me) {
                Some(1.0) => "1",
                Some(0.5) => "½",
                Some(_) => "0",
                None => g.result.short(),
            };
            let rated = g.played_score_of(me).is_some()
                && opponent_person.is_some()
                && !r.left_out.contains(&g.game_id);
            Some(GameLine {
                date: g.played_on,
                tournament_id: g.tournament_id,
                tournament: names.get(&g.tournament_id).cloned().unwrap_or_default(),
                round: g.round,
                opponent,
                opponent_person,
                result,
                rated,
            })
        })
        .collect();
    games.reverse();
    let line = book.line(id);
    let months = line
        .iter()
        .rev()
        .map(|(period, rating, games)| RatedMonth {
            period: *period,
            shown: Shown::of(*rating),
            rd: rating.rd,
            games: *games,
        })
        .collect();
    Ok(PersonPage {
        ctx,
        current: book.current(id).map(Shown::of),
        chart: Chart::of(&line),
        months,
        person: r.person,
        merged_into: r.merged_into,
        entries: r.entries,
        games,
        merges: r.merges,
        names: r.names,
        accounts: r.accounts,
        error,
    })
}

/// `GET /people/{id}`
pub async fn person_page(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<PersonId>,
) -> Result<PersonPage, AppError> {
    person_page_of(&state, ctx, path.into_inner(), None).await
}

#[derive(Debug, Default, Deserialize)]
pub struct MergeForm {
    #[serde(default)]
    into: String,
    /// `yes` once the person has read who is merged into whom.
    #[serde(default)]
    confirm: String,
}

/// The person a merge form names, by number (`12`, `#12`) or federation id.
fn merge_target(
    conn: &mut crate::director::model::DbConnection,
    into: &str,
) -> Result<PersonId, crate::director::model::DbError> {
    match into.trim_start_matches('#').parse::<PersonId>() {
        Ok(n) => Ok(n),
        Err(_) => match people::by_federation_id(conn, into)? {
            Some(p) => Ok(p.id),
            None => Err(crate::director::model::DbError::from(
                crate::field::FieldError::new(
                    "into",
                    crate::field::Problem::Unknown {
                        text: into.to_string(),
                        choices: &["a person's number", "a federation id"],
                    },
                ),
            )),
        },
    }
}

/// One side of a merge as the question names it.
pub struct MergeSide {
    pub person: Person,
    pub entries: Vec<Entry>,
}

#[derive(Template, WebTemplate)]
#[template(path = "person_merge.html")]
pub struct MergeQuestion {
    ctx: Ctx,
    /// The person merged away.
    from: MergeSide,
    /// The person who stays.
    into: MergeSide,
}

impl MergeQuestion {
    /// Each side with its role and the words heading it.
    fn sides(&self) -> [(&'static str, &'static str, &MergeSide); 2] {
        [
            ("from", "Merged away", &self.from),
            ("into", "Stays", &self.into),
        ]
    }
}

/// `POST /people/{id}/merge`: merges this person into the one named by
/// number or federation id, after asking: without `confirm=yes` the page
/// names both people, with their numbers, federation ids and events.
pub async fn merge(
    who: SignedIn,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<PersonId>,
    form: web::Form<MergeForm>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let form = form.into_inner();
    let into = form.into.trim().to_string();
    let done = if form.confirm != "yes" {
        let asked = state
            .run(move |c| {
                let target = merge_target(c, &into)?;
                let side = |c: &mut crate::director::model::DbConnection,
                            p: PersonId,
                            field: &'static str| {
                    let person = if field == "into" {
                        people::named(c, field, p)?
                    } else {
                        people::find(c, p)?
                    };
                    let entries = people::entries(c, p)?;
                    Ok::<_, crate::director::model::DbError>(MergeSide { person, entries })
                };
                let from = side(c, id, "person")?;
                let into = side(c, target, "into")?;
                crate::registry::check_merge(
                    id.0,
                    target.0,
                    into.person.merged_into.map(|m| m.0),
                    from.person.merged_into.map(|m| m.0),
                )?;
                // An event both are entered in: the merge would refuse it,
                // so the question is not asked.
                // An entry of a published copy stays where it is.
                if let Some(both) = from.entries.iter().filter(|e| !e.copy).find(|e| {
                    into.entries
                        .iter()
                        .any(|o| o.tournament_id == e.tournament_id)
                }) {
                    return Err(crate::director::model::DbError::from(
                        crate::field::FieldError::new(
                            "into",
                            crate::field::Problem::BothEntered {
                                tournament: both.tournament.clone(),
                            },
                        ),
                    ));
                }
                Ok((from, into))
            })
            .await;
        match asked {
            Ok((from, into)) => {
                return render(
                    &MergeQuestion { ctx, from, into },
                    actix_web::http::StatusCode::OK,
                )
            }
            Err(e) => Err(e),
        }
    } else {
        state
            .write(Some(who.0.id), move |w| {
                let target = merge_target(w.conn(), &into)?;
                people::merge(w, id, target)
            })
            .await
            .map(|m| m.merge.into_id)
    };
    match done {
        Ok(into_id) => Ok(see_other(&format!("/people/{into_id}"))),
        Err(e) if e.is(Kind::Invalid) || e.is(Kind::Conflict) => render(
            &person_page_of(&state, ctx, id, Some(e.said().1)).await?,
            FORM_ERROR,
        ),
        Err(e) => Err(e),
    }
}

/// `POST /merges/{id}/undo`
pub async fn undo_merge(
    who: SignedIn,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i32>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let done = state
        .write(Some(who.0.id), move |w| people::unmerge(w, id))
        .await;
    match done {
        Ok(m) => Ok(see_other(&format!("/people/{}", m.person_id))),
        Err(e) if e.is(Kind::Invalid) => {
            let m = state.run(move |c| people::find_merge(c, id)).await?;
            render(
                &person_page_of(&state, ctx, m.into_id, Some(e.said().1)).await?,
                FORM_ERROR,
            )
        }
        Err(e) => Err(e),
    }
}

pub struct ListedRow {
    pub rank: usize,
    pub person: PersonId,
    pub name: String,
    pub federation_id: String,
    pub shown: Shown,
    pub games: u32,
    pub total: u32,
}

/// Lines of the rating list a page shows: a phone reads a page of them;
/// the whole list is the CSV.
pub const LIST_PAGE: usize = 200;

#[derive(Template, WebTemplate)]
#[template(path = "ratings.html")]
pub struct RatingsPage {
    ctx: Ctx,
    period: Period,
    until: Period,
    rows: Vec<ListedRow>,
    /// Everyone rated after the month (or matching the search).
    total: usize,
    page: usize,
    pages: usize,
    q: String,
}

#[derive(Debug, Default, Deserialize)]
pub struct PeriodForm {
    period: Option<String>,
    page: Option<usize>,
    q: Option<String>,
}

/// `GET /ratings?period=YYYY-MM`: the rating list after that month.
pub async fn ratings_page(
    ctx: Ctx,
    state: web::Data<AppState>,
    query: web::Query<PeriodForm>,
) -> Result<RatingsPage, AppError> {
    let book = book(&state).await?;
    let period = period_of(query.period.as_deref(), book.until)?;
    let q = query.q.clone().unwrap_or_default().trim().to_string();
    let wanted = q.to_lowercase();
    let fid = crate::roster::federation_id_spelling(&q);
    let matching: Vec<(usize, crate::director::ratings::Listed)> = book
        .list(period)
        .into_iter()
        .enumerate()
        .filter(|(_, l)| {
            wanted.is_empty()
                || l.person.name.to_lowercase().contains(&wanted)
                || l.person.federation_id.as_deref() == Some(fid.as_str())
        })
        .collect();
    let total = matching.len();
    let pages = total.div_ceil(LIST_PAGE).max(1);
    let page = query.page.unwrap_or(1).clamp(1, pages);
    let rows = matching
        .into_iter()
        .skip((page - 1) * LIST_PAGE)
        .take(LIST_PAGE)
        .map(|(i, l)| ListedRow {
            rank: i + 1,
            person: l.person.id,
            name: l.person.name.clone(),
            federation_id: l.person.federation_id.clone().unwrap_or_default(),
            shown: Shown::of(l.rating),
            games: l.games,
            total: l.total,
        })
        .collect();
    Ok(RatingsPage {
        ctx,
        period,
        until: book.until,
        rows,
        total,
        page,
        pages,
        q,
    })
}

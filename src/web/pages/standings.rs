//! The standings page and its CSV.

use std::collections::HashMap;

use actix_web::{web, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;

use crate::director::TournamentData;
use crate::field::Problem;
use crate::ids::TournamentId;
use crate::standings::{show_points, SeparatedBy, Standing};
use crate::web::error::AppError;
use crate::web::layout::Ctx;
use crate::web::views::round::load_data;
use crate::web::AppState;

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
    path: web::Path<TournamentId>,
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
                .map_err(AppError::internal)
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
    path: web::Path<TournamentId>,
    query: web::Query<CsvHeaders>,
) -> Result<HttpResponse, AppError> {
    let headers =
        crate::export::standings::Headers::parse(query.headers.trim()).ok_or_else(|| {
            AppError::invalid(
                "headers",
                Problem::Unknown {
                    text: query.headers.trim().to_string(),
                    choices: &["keys"],
                },
            )
        })?;
    let data = load_data(&state, path.into_inner()).await?;
    crate::web::layout::csv_download(
        crate::export::standings::csv(&data, headers),
        &data.tournament.name,
        "standings",
    )
}

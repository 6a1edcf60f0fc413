//! The results desk: the page built for speed at a venue, where a referee
//! enters a round's results table by table or by quick entry, and saves
//! them with the versions the page showed.

use std::collections::HashMap;

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;

use crate::director::model::Round;
use crate::director::TournamentData;
use crate::director::{self};
use crate::field::Problem as FieldProblem;
use crate::ids::{GameId, PairingId, RoundNo, TournamentId};
use crate::results::{fill_from_first, parse_pairing_score, tally, GameResult, ResultEdit};
use crate::standings::show_points;
use crate::web::auth::Referee;
use crate::web::error::AppError;
use crate::web::layout::{render, see_other, Ctx};
use crate::web::views::round::{flag_words, load_round, pairing_views, GameView, PairingView};
use crate::web::AppState;

/// A field of the results page that could not be used, and why.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The `id` of the field, so the page can tie the message to it.
    pub field: String,
    pub message: String,
    /// The refusal's code, where the problem is one (as the API's `code`).
    pub code: Option<&'static str>,
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
    flags: HashMap<GameId, (bool, String, String)>,
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
    fn flag(&self, game: &GameId) -> Option<&String> {
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
    path: web::Path<(TournamentId, RoundNo)>,
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
    only: Option<PairingId>,
    problems: &mut Vec<Problem>,
    typed: &mut HashMap<String, String>,
) -> Vec<ResultEdit> {
    let mut edits = Vec::new();
    let mut problem = |field: String, message: String, value: &str| {
        typed.insert(field.clone(), value.to_string());
        problems.push(Problem {
            field,
            message,
            code: None,
        });
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
        let mut wanted: Vec<(GameId, Option<GameResult>)> = Vec::new();
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
) -> Result<Quick, FieldProblem> {
    let text = text.trim();
    let (table, score) = text
        .split_once(char::is_whitespace)
        .ok_or_else(|| FieldProblem::NotAQuickEntry { text: text.into() })?;
    let table: i32 = table
        .parse()
        .map_err(|_| FieldProblem::NotATable { text: table.into() })?;
    let pairing = pairings
        .iter()
        .find(|p| p.table == table && p.second_id.is_some())
        .ok_or(FieldProblem::NoTable { table })?;
    let score = score.trim().to_string();
    let set_games = pairing.last_set();
    if set_games.is_empty() {
        let (first, _) =
            parse_pairing_score(&score, games_per_pairing).map_err(|m| FieldProblem::AtTable {
                table,
                problem: Box::new(m),
            })?;
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
        FieldProblem::NotASetScore {
            table,
            level: pairing.score.clone(),
            set,
            text: score.clone(),
        }
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
    path: web::Path<(TournamentId, RoundNo)>,
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
            Err(problem) => {
                page.typed.insert("quick".into(), q.clone());
                let refused = crate::field::FieldError::new("quick", problem);
                page.problems.push(Problem {
                    field: "quick".into(),
                    message: refused.to_string(),
                    code: Some(crate::refusal::Refusal::Invalid(refused).code()),
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
        let game: GameId = game.parse().ok()?;
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
    let replacing: Vec<GameId> = form
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
            code: None,
        });
    }
    for (game, why) in &report.refused {
        problems.push(Problem {
            field: format!("g{game}"),
            message: why.to_string(),
            code: None,
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

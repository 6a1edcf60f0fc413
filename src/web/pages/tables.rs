//! What players look up: their own page, the crosstable, the knock-out
//! bracket, and the CSV of pairings and of the crosstable.

use crate::refusal::Thing;
use std::collections::HashMap;

use actix_web::{web, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;

use crate::director::model::Player;
use crate::director::model::Tournament;
use crate::director::TournamentData;
use crate::ids::{EntryId, RoundNo, TournamentId};
use crate::results::GameResult;
use crate::standings::{show_points, Outcome};
use crate::web::cache::public_page;
use crate::web::error::AppError;
use crate::web::layout::Ctx;
use crate::web::views::round::{load_data, pairing_views, pairing_views_of, GameView, PairingView};
use crate::web::AppState;

/// One cell of the crosstable: what a player did in one round, written so
/// it cannot be misread: the opponent's rank, then `W`, `½` or `L` for the
/// mini-match (`+`/`−` for a forfeit), then the games' score from this
/// player's side.
#[derive(Debug, Clone)]
pub struct Cell {
    /// The opponent's rank; empty for a bye or a round not played.
    pub opponent: String,
    /// `W`, `½`, `L`, `+`, `−`, `bye`, or `–` (not played).
    pub mark: String,
    /// The score from this player's side, `4-2`; for a bye its points.
    pub score: String,
}

impl Cell {
    /// The cell as one piece of text (the CSV's).
    pub fn text(&self) -> String {
        [&self.opponent, &self.mark, &self.score]
            .into_iter()
            .filter(|s| !s.is_empty())
            .cloned()
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[derive(Debug, Clone)]
pub struct CrossRow {
    pub rank: usize,
    pub id: u32,
    pub name: String,
    pub score: String,
    pub cells: Vec<Cell>,
}

/// The crosstable in standings order.
pub fn crosstable(data: &TournamentData) -> Vec<CrossRow> {
    let standings = data.standings();
    let rank_of: HashMap<u32, usize> = standings
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id, i + 1))
        .collect();
    let scoring = data.standings_scoring();
    let entrants: HashMap<u32, crate::standings::Entrant> =
        data.entrants().into_iter().map(|e| (e.id, e)).collect();
    let rank = |id: &u32| rank_of.get(id).map(|r| r.to_string()).unwrap_or_default();
    // Who sits opposite whom in each published round: a pairing whose
    // result is still missing is told apart from a round not played.
    let seats: Vec<HashMap<EntryId, &crate::director::model::Pairing>> = if data.is_team_event() {
        Vec::new()
    } else {
        data.published().iter().map(|r| data.seats_of(r)).collect()
    };
    let pending_against = |player: u32, round: usize| -> Option<u32> {
        let player = EntryId::of_engine(player);
        let p = seats.get(round)?.get(&player)?;
        let other = if p.first_player_id == Some(player) {
            p.second_player_id
        } else {
            p.first_player_id
        }?;
        Some(other.engine())
    };
    standings
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let cells = entrants[&s.id]
                .rounds
                .iter()
                .enumerate()
                .map(|(round, o)| {
                    let cell = |opponent: String, mark: &str, score: String| Cell {
                        opponent,
                        mark: mark.to_string(),
                        score,
                    };
                    match o {
                        Outcome::Played {
                            opponent,
                            points,
                            opponent_points,
                            ..
                        } => cell(
                            rank(opponent),
                            match points.cmp(opponent_points) {
                                std::cmp::Ordering::Greater => "W",
                                std::cmp::Ordering::Equal => "½",
                                std::cmp::Ordering::Less => "L",
                            },
                            format!("{}-{}", show_points(*points), show_points(*opponent_points)),
                        ),
                        Outcome::ForfeitWin { opponent } => {
                            cell(rank(opponent), "+", String::new())
                        }
                        Outcome::ForfeitLoss { opponent } => {
                            cell(rank(opponent), "−", String::new())
                        }
                        Outcome::AllocatedBye | Outcome::RequestedBye { .. } => {
                            cell(String::new(), "bye", show_points(scoring.round_score(o)))
                        }
                        Outcome::Absent => match pending_against(s.id, round) {
                            Some(opponent) => cell(rank(&opponent), "?", String::new()),
                            None => cell(String::new(), "–", String::new()),
                        },
                    }
                })
                .collect();
            CrossRow {
                rank: i + 1,
                id: s.id,
                name: s.name.clone(),
                score: show_points(s.score),
                cells,
            }
        })
        .collect()
}

#[derive(Template, WebTemplate)]
#[template(path = "crosstable.html")]
pub struct CrosstablePage {
    ctx: Ctx,
    t: Tournament,
    rounds: Vec<usize>,
    rows: Vec<CrossRow>,
    /// `players` or `teams`: whose pages the names link to.
    kind: &'static str,
    updated: String,
}

pub async fn crosstable_page(
    ctx: Ctx,
    req: actix_web::HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let signed_in = ctx.user.is_some();
    public_page(
        &state,
        &req,
        signed_in,
        path.into_inner(),
        "crosstable",
        |data| {
            let rows = crosstable(&data);
            CrosstablePage {
                ctx,
                rounds: (1..=data.published().len()).collect(),
                rows,
                kind: if data.is_team_event() {
                    "teams"
                } else {
                    "players"
                },
                updated: crate::web::layout::updated_now(),
                t: data.tournament,
            }
            .render()
            .map_err(AppError::internal)
        },
    )
    .await
}

pub async fn crosstable_csv(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let data = load_data(&state, path.into_inner()).await?;
    let rows = crosstable(&data);
    let rounds: Vec<String> = (1..=data.published().len())
        .map(|r| format!("round {r}"))
        .collect();
    let mut header = vec!["rank", "name", "points"];
    header.extend(rounds.iter().map(String::as_str));
    let bytes = crate::export::table(
        &header,
        rows.iter().map(|r| {
            let mut rec = vec![r.rank.to_string(), r.name.clone(), r.score.clone()];
            rec.extend(r.cells.iter().map(Cell::text));
            rec
        }),
    );
    crate::web::layout::csv_download(bytes, &data.tournament.name, "crosstable")
}

/// `GET /t/{tid}/rounds/{n}/pairings.csv`: table, players, score, each game.
pub async fn pairings_csv(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let data = load_data(&state, tid).await?;
    let round = data.round(n, false)?;
    let rows = pairing_views(&data, &round).into_iter().map(|p| {
        let games = p
            .games
            .iter()
            .map(|g| {
                format!(
                    "{}{}:{}",
                    if g.tiebreak { "TB" } else { "" },
                    g.number,
                    g.result.map_or("?", GameResult::short)
                )
            })
            .collect::<Vec<_>>()
            .join(" ");
        let second = match (&p.bye, p.second_id) {
            (Some(b), None) => format!("bye ({b})"),
            _ => p.second.clone(),
        };
        vec![p.table.to_string(), p.first, second, p.score, games]
    });
    let bytes = crate::export::table(&["table", "first", "second", "score", "games"], rows);
    crate::web::layout::csv_download(bytes, &data.tournament.name, &format!("round-{n}"))
}

/// A player's pairing in one round, from their side.
pub struct PlayerRound {
    pub round: RoundNo,
    pub pairing: PairingView,
    pub opponent: String,
    pub opponent_id: Option<EntryId>,
    pub score: String,
    /// The player is the pairing's first-listed one.
    pub first: bool,
}

impl PlayerRound {
    /// The mini-match for this player in a word (`won`, `drawn`, `lost`),
    /// empty while a main game waits for its result.
    pub fn outcome(&self) -> &'static str {
        self.pairing.outcome_for(self.first)
    }
    /// A game's result for this player (`won`, `lost`, ...), `–` without one.
    pub fn result_of(&self, g: &GameView) -> &'static str {
        g.result
            .map_or("–", |r| r.for_player(g.first_started == self.first))
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "player.html")]
pub struct PlayerPage {
    ctx: Ctx,
    t: Tournament,
    player: Player,
    rank: Option<usize>,
    score: String,
    rounds: Vec<PlayerRound>,
    /// The round being played now (published, this player's results
    /// missing): where to sit.
    pending: Option<usize>,
    updated: String,
}

impl PlayerPage {
    fn now_playing(&self) -> Option<&PlayerRound> {
        self.pending.and_then(|i| self.rounds.get(i))
    }
}

pub async fn player_page(
    ctx: Ctx,
    req: actix_web::HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, EntryId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    let signed_in = ctx.user.is_some();
    let key = format!("player/{pid}");
    public_page(&state, &req, signed_in, tid, &key, move |data| {
        player_view(ctx, data, pid)?
            .render()
            .map_err(AppError::internal)
    })
    .await
}

/// Player `pid`'s page: their games round by round and where they stand.
fn player_view(ctx: Ctx, data: TournamentData, pid: EntryId) -> Result<PlayerPage, AppError> {
    let player = data
        .players
        .iter()
        .find(|p| p.id == pid)
        .cloned()
        .ok_or_else(|| AppError::not_found(Thing::PlayerInTournament))?;
    let standings = data.standings();
    let me = standings.iter().find(|s| s.id == pid.engine());
    let mut rounds = Vec::new();
    let sits = |p: &crate::director::model::Pairing| {
        p.first_player_id == Some(pid) || p.second_player_id == Some(pid)
    };
    for r in data.published() {
        for p in pairing_views_of(&data, r, sits) {
            let first = p.first_id == Some(pid);
            let (opponent, opponent_id) = if first {
                (p.second.clone(), p.second_id)
            } else {
                (p.first.clone(), p.first_id)
            };
            let score = p.score_from(first);
            rounds.push(PlayerRound {
                round: r.number,
                pairing: p,
                opponent,
                opponent_id,
                score,
                first,
            });
        }
    }
    let pending = rounds
        .iter()
        .rposition(|r| r.opponent_id.is_some() && r.pairing.has_missing());
    Ok(PlayerPage {
        ctx,
        pending,
        rank: me.map(|s| s.rank),
        score: me.map(|s| show_points(s.score)).unwrap_or_default(),
        t: data.tournament,
        player,
        rounds,
        updated: crate::web::layout::updated_now(),
    })
}

/// One round of the bracket.
pub struct BracketRound {
    pub number: RoundNo,
    pub matches: Vec<PairingView>,
}

#[derive(Template, WebTemplate)]
#[template(path = "bracket.html")]
pub struct BracketPage {
    ctx: Ctx,
    t: Tournament,
    rounds: Vec<BracketRound>,
}

pub async fn bracket_page(
    ctx: Ctx,
    req: actix_web::HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let signed_in = ctx.user.is_some();
    public_page(
        &state,
        &req,
        signed_in,
        path.into_inner(),
        "bracket",
        |data| {
            let rounds = data
                .published()
                .into_iter()
                .map(|r| BracketRound {
                    number: r.number,
                    matches: pairing_views(&data, r),
                })
                .collect();
            BracketPage {
                ctx,
                t: data.tournament,
                rounds,
            }
            .render()
            .map_err(AppError::internal)
        },
    )
    .await
}

//! A round as the pages and the API read it: its pairings with their
//! games, where each player sits, and the link players send records
//! through. Built once from the loaded tournament; pages render it and the
//! API serialises it.

use actix_web::HttpRequest;
use serde::Serialize;

use crate::director::model::{Game, Pairing, Round};
use crate::director::{scoresheets, TournamentData};
use crate::ids::{EntryId, GameId, PairingId, RoundNo, TournamentId};
use crate::pairing::explain::Explanation;
use crate::reports::Reports;
use crate::results::{tally, GameResult, PairingTally};
use crate::tournament::ByeKind;
use crate::web::error::AppError;
use crate::web::layout::absolute_url;
use crate::web::AppState;

/// The tournament with everything stored about it, loaded off the
/// request's thread.
pub async fn load_data(state: &AppState, tid: TournamentId) -> Result<TournamentData, AppError> {
    state.run(move |c| crate::director::load(c, tid)).await
}

/// The tournament with its players and round `n` only
/// ([`crate::director::load_round`]), for a page of that round alone.
pub async fn load_round(
    state: &AppState,
    tid: TournamentId,
    n: RoundNo,
) -> Result<TournamentData, AppError> {
    state
        .run(move |c| crate::director::load_round(c, tid, n))
        .await
}

/// One game as a row of the pairings page.
#[derive(Debug, Clone, Serialize)]
pub struct GameView {
    pub id: GameId,
    pub number: i32,
    pub starter: String,
    pub first_started: bool,
    pub result: Option<GameResult>,
    pub tiebreak: bool,
    pub version: i32,
    /// The result came from the players' reports.
    pub reported: bool,
    /// What each player reported, in the pairing's order (first-listed
    /// player first), from the starter's side.
    pub reports: Reports,
}

impl GameView {
    /// The two players reported different results: the desk decides.
    pub fn disputed(&self) -> bool {
        self.reports.disputed() && self.result.is_none_or(|_| self.reported)
    }

    /// Both players reported the same result and a referee is to confirm it
    /// (`players_then_referee`).
    pub fn awaiting_referee(&self) -> Option<GameResult> {
        self.reports.agreed().filter(|_| self.result.is_none())
    }
}

/// One pairing as the pages and the API show it.
#[derive(Debug, Clone, Serialize)]
pub struct PairingView {
    pub id: PairingId,
    pub table: i32,
    pub first_id: Option<EntryId>,
    pub first: String,
    pub second_id: Option<EntryId>,
    pub second: String,
    pub bye: Option<ByeKind>,
    /// The score from the first player's side, `1½-½`; empty until a result.
    pub score: String,
    /// The main games added up, from the first player's side.
    pub tally: PairingTally,
    pub games: Vec<GameView>,
    pub explanation: Option<Explanation>,
    /// The explanation as sentences naming the players.
    pub why: Vec<String>,
    /// For a knock-out: who went through, once decided.
    pub winner: Option<String>,
    /// For a board of a team match: the board (1-4) and the match's id.
    pub board: Option<i32>,
    pub match_id: Option<PairingId>,
}

impl PairingView {
    /// A game of the pairing is disputed between its players.
    pub fn disputed(&self) -> bool {
        self.games.iter().any(GameView::disputed)
    }
}

pub fn pairing_views(data: &TournamentData, round: &Round) -> Vec<PairingView> {
    pairing_views_of(data, round, |_| true)
}

/// As [`pairing_views`], for the pairings `keep` picks: a player's page
/// shows one a round, and building the round's other rows for it (their
/// engines' explanations read from JSON, their names found) was most of
/// that page's work.
pub fn pairing_views_of(
    data: &TournamentData,
    round: &Round,
    keep: impl Fn(&Pairing) -> bool,
) -> Vec<PairingView> {
    let names = data.player_names();
    let name = |id: Option<EntryId>| {
        id.and_then(|i| names.get(&i).map(|s| s.to_string()))
            .unwrap_or_default()
    };
    let knockout = data.tournament.system == crate::tournament::System::Knockout;
    let name_of = data.name_of();
    let mut reported: std::collections::HashMap<GameId, Vec<&crate::director::model::Report>> =
        std::collections::HashMap::new();
    for r in &data.reports {
        reported.entry(r.game_id).or_default().push(r);
    }
    data.pairings_of(round)
        .into_iter()
        // A team match's own row holds teams, not players: its boards are
        // the pairings.
        .filter(|p| p.first_player_id.is_some() && keep(p))
        .map(|p: &Pairing| {
            let games: Vec<&Game> = data.games_of(p.id);
            let t = tally(
                games
                    .iter()
                    .filter(|g| !g.tiebreak)
                    .map(|g| (g.starter_player_id == p.first_player_id, g.result)),
            );
            let mut view = PairingView {
                id: p.id,
                table: p.table_no,
                first_id: p.first_player_id,
                first: name(p.first_player_id),
                second_id: p.second_player_id,
                second: name(p.second_player_id),
                bye: p.bye,
                score: String::new(),
                tally: t,
                games: games
                    .iter()
                    .map(|g| GameView {
                        id: g.id,
                        number: g.number,
                        starter: name(g.starter_player_id),
                        first_started: g.starter_player_id == p.first_player_id,
                        result: g.result,
                        tiebreak: g.tiebreak,
                        version: g.version,
                        reported: g.reported,
                        reports: {
                            let mut two = Reports::default();
                            for r in reported.get(&g.id).into_iter().flatten() {
                                if Some(r.player_id) == p.first_player_id {
                                    two.first = Some(r.result);
                                } else if Some(r.player_id) == p.second_player_id {
                                    two.second = Some(r.result);
                                }
                            }
                            two
                        },
                    })
                    .collect(),
                explanation: serde_json::from_str(&p.explanation).ok(),
                why: serde_json::from_str::<Explanation>(&p.explanation)
                    .map(|e| {
                        let name = |id| name_of(id).unwrap_or_else(|| format!("player {id}"));
                        crate::wording::pairing::explanation(&e, &name)
                    })
                    .unwrap_or_default(),
                winner: if knockout && p.second_player_id.is_some() {
                    data.knockout_winner(p).map(|w| name(Some(w)))
                } else {
                    None
                },
                board: p.board,
                match_id: p.team_pairing_id,
            };
            view.score = view.score_from(true);
            view
        })
        .collect()
}

/// Where a player sits in a round: the "where do I sit?" list.
#[derive(Debug, Clone)]
pub struct Seat {
    pub id: EntryId,
    pub name: String,
    pub table: i32,
    /// The opponent's name; empty for a bye.
    pub opponent: String,
}

/// Every player of the round with their table, in alphabetical order.
pub fn seats(pairings: &[PairingView]) -> Vec<Seat> {
    let mut list: Vec<Seat> = pairings
        .iter()
        .flat_map(|p| {
            [
                (p.first_id, &p.first, &p.second),
                (p.second_id, &p.second, &p.first),
            ]
            .into_iter()
            .filter_map(move |(id, name, other)| {
                Some(Seat {
                    id: id?,
                    name: name.clone(),
                    table: p.table,
                    opponent: if p.second_id.is_some() {
                        other.clone()
                    } else {
                        String::new()
                    },
                })
            })
        })
        .collect();
    list.sort_by_key(|s| (s.name.to_lowercase(), s.id));
    list
}

impl GameView {
    /// The stored spelling of the result (`1-0`, `1/2-1/2`), empty without
    /// one: what the results form carries and compares.
    pub fn stored(&self) -> &'static str {
        self.result.map_or("", GameResult::as_str)
    }
}

/// The players' link of a pairing, as an absolute address.
pub async fn player_link(
    state: &AppState,
    req: &HttpRequest,
    pairing_id: PairingId,
) -> Result<String, AppError> {
    let key = state
        .run(move |c| scoresheets::link_key(c, pairing_id))
        .await?;
    Ok(absolute_url(req, &format!("/p/{pairing_id}/{key}")))
}

/// The flags of a round's games in words, for its referees: whether any
/// needs a look, the words, and the kinds ([`crate::crate::director::scoresheets::Flags::kinds`]).
pub async fn flag_words(
    state: &AppState,
    data: &TournamentData,
    round: &Round,
) -> Result<std::collections::HashMap<GameId, (bool, String, String)>, AppError> {
    let games = crate::director::scoresheets::round_games(data, round);
    let tid = data.tournament.id;
    let flags = state
        .run(move |c| crate::director::scoresheets::flags_of(c, tid, &games))
        .await?;
    Ok(flags
        .into_iter()
        .map(|(g, f)| (g, (f.any(), f.lines().join("; "), f.kinds().join(" "))))
        .collect())
}

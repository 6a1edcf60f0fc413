//! A team match as the round page, the match cards and the API read it.

use crate::director::model::Round;
use crate::director::TournamentData;
use crate::standings::show_points;

use super::round::PairingView;
use crate::ids::{PairingId, TeamId};

/// A team match as the round page, the cards and the API show it.
#[derive(Debug, Clone)]
pub struct MatchView {
    pub id: PairingId,
    /// The match number; its boards play on tables `4k-3`..`4k`.
    pub table: i32,
    pub first_team_id: TeamId,
    pub first_team: String,
    pub second_team_id: Option<TeamId>,
    pub second_team: String,
    /// `5½-2½` from the first team's side; empty until a result.
    pub score: String,
    /// The game points behind it, board by board.
    pub points: crate::director::teams::MatchScore,
    pub complete: bool,
    /// Some board has started (a result, or the referee's mark).
    pub started: bool,
    pub boards: Vec<PairingView>,
}

impl MatchView {
    pub fn is_bye(&self) -> bool {
        self.second_team_id.is_none()
    }
}

/// The matches of a team round with their boards (taken from `pairings`,
/// the round's pairing views); empty for an individual event.
pub fn match_views(
    data: &TournamentData,
    round: &Round,
    pairings: &[PairingView],
) -> Vec<MatchView> {
    let team = |id: Option<TeamId>| {
        id.and_then(|i| data.team(i))
            .map_or(String::new(), |t| t.name.clone())
    };
    data.matches_of(round)
        .into_iter()
        .map(|m| {
            let s = data.match_score(round, m);
            let boards: Vec<PairingView> = pairings
                .iter()
                .filter(|p| p.match_id == Some(m.id))
                .cloned()
                .collect();
            MatchView {
                id: m.id,
                table: m.table_no,
                first_team_id: m.first_team_id.unwrap_or_default(),
                first_team: team(m.first_team_id),
                second_team_id: m.second_team_id,
                second_team: team(m.second_team_id),
                score: if s.decided == 0 {
                    String::new()
                } else {
                    format!("{}-{}", show_points(s.first), show_points(s.second))
                },
                complete: s.complete(),
                points: s,
                started: data
                    .boards_of(round, m.id)
                    .iter()
                    .any(|b| data.board_started(b)),
                boards,
            }
        })
        .collect()
}

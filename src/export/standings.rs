//! The standings as CSV: rank, name, club, points, then each tiebreak under
//! its stored name; values as plain decimals a spreadsheet reads. In a team
//! event the lines are teams (a team's tiebreaks include its match and game
//! points where the tournament lists them).

use crate::director::TournamentData;
use crate::standings::decimal;

/// The standings as CSV: rank, name, club, points, then each tiebreak under
/// its name. The same bytes as `kraal export standings`.
pub fn csv(data: &TournamentData) -> Result<Vec<u8>, csv::Error> {
    let rows = data.standings();
    let tbs = data.tournament.tiebreaks.to_vec();
    let mut header = vec!["rank", "name", "club", "points"];
    header.extend(tbs.iter().map(|t| t.as_str()));
    super::table(
        &header,
        rows.iter().map(|s| {
            let mut rec = vec![
                s.rank.to_string(),
                s.name.clone(),
                data.club_of(s.id).to_string(),
                decimal(s.score, crate::pairing::POINT),
            ];
            rec.extend(s.tiebreaks.iter().map(|v| decimal(v.raw, v.denom)));
            rec
        }),
    )
}

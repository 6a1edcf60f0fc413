//! The standings as CSV: rank, name, club, points, then each tiebreak under
//! its stored name; values as plain decimals a spreadsheet reads.

use std::collections::HashMap;

use crate::director::TournamentData;
use crate::standings::decimal;

/// The standings as CSV: rank, name, club, points, then each tiebreak under
/// its name. The same bytes as `kraal export standings`.
pub fn csv(data: &TournamentData) -> Result<Vec<u8>, csv::Error> {
    let rows = data.standings();
    let clubs: HashMap<u32, &str> = data
        .players
        .iter()
        .map(|p| (p.id as u32, p.club.as_str()))
        .collect();
    let tbs = data.tournament.tiebreaks.to_vec();
    let mut header = vec!["rank", "name", "club", "points"];
    header.extend(tbs.iter().map(|t| t.as_str()));
    super::table(
        &header,
        rows.iter().map(|s| {
            let mut rec = vec![
                s.rank.to_string(),
                s.name.clone(),
                clubs.get(&s.id).copied().unwrap_or("").to_string(),
                decimal(s.score, crate::pairing::POINT),
            ];
            rec.extend(s.tiebreaks.iter().map(|v| decimal(v.raw, v.denom)));
            rec
        }),
    )
}

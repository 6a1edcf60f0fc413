//! The standings as CSV: rank, name, club, rating, federation id, games
//! played (games over the board, so a six-game pairing is six), points,
//! each tiebreak, and whether the standings are provisional (`yes` while
//! a published round has games without a result); values as plain decimals a
//! spreadsheet reads, with the decimals the standings page gives. The
//! header row names the columns as a reader would ("Federation ID",
//! "Buchholz"), or with [`Headers::Keys`] by the names scripts use
//! (`federation_id`, `buchholz`). In a team event the lines are teams (no
//! rating or federation id; the matches played; a team's tiebreaks include
//! its match and game points where the tournament lists them).

use std::collections::HashMap;

use crate::director::TournamentData;
use crate::results::GameResult;
use crate::standings::{decimal, tiebreak::fine_columns, Outcome};

/// How the header row names the columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Headers {
    /// "Rank", "Name", ..., each tiebreak by its name.
    #[default]
    Words,
    /// `rank`, `name`, ..., each tiebreak by its key (`?headers=keys`).
    Keys,
}

impl Headers {
    /// The `headers` query parameter: `keys`, or `words` (the default).
    pub fn parse(text: &str) -> Option<Headers> {
        match text {
            "" | "words" => Some(Headers::Words),
            "keys" => Some(Headers::Keys),
            _ => None,
        }
    }
}

/// The standings as CSV (see the module). The same bytes as `kraal export
/// standings` (with `--headers keys` for [`Headers::Keys`]).
pub fn csv(data: &TournamentData, headers: Headers) -> Result<Vec<u8>, csv::Error> {
    let rows = data.standings();
    let tbs = data.tournament.tiebreaks.to_vec();
    let fine = fine_columns(&rows, tbs.len());
    let teams = data.is_team_event();
    let played_words = if teams {
        ("Matches played", "matches_played")
    } else {
        ("Games played", "games_played")
    };
    let mut columns: Vec<(&str, &str)> = vec![("Rank", "rank"), ("Name", "name"), ("Club", "club")];
    if !teams {
        columns.push(("Rating", "rating"));
        columns.push(("Federation ID", "federation_id"));
    }
    columns.push(played_words);
    columns.push(("Points", "points"));
    columns.extend(tbs.iter().map(|t| (t.label(), t.as_str())));
    columns.push(("Provisional", "provisional"));
    let provisional = if data.provisional() > 0 { "yes" } else { "no" };
    let header: Vec<&str> = columns
        .iter()
        .map(|(words, key)| match headers {
            Headers::Words => *words,
            Headers::Keys => *key,
        })
        .collect();
    let played = if teams {
        data.entrants()
            .iter()
            .map(|e| {
                let n = e
                    .rounds
                    .iter()
                    .filter(|o| matches!(o, Outcome::Played { .. }))
                    .count();
                (e.id, n)
            })
            .collect()
    } else {
        games_played(data)
    };
    super::table(
        &header,
        rows.iter().map(|s| {
            let mut rec = vec![
                s.rank.to_string(),
                s.name.clone(),
                data.club_of(s.id).to_string(),
            ];
            if !teams {
                let player = data.players.iter().find(|p| p.id.engine() == s.id);
                rec.push(
                    player
                        .and_then(|p| p.rating)
                        .map(|r| r.to_string())
                        .unwrap_or_default(),
                );
                rec.push(player.map(|p| p.federation_id.clone()).unwrap_or_default());
            }
            rec.push(played.get(&s.id).copied().unwrap_or(0).to_string());
            rec.push(decimal(s.score, crate::pairing::POINT));
            rec.extend(s.tiebreaks.iter().zip(&fine).map(|(v, f)| v.csv(*f)));
            rec.push(provisional.to_string());
            rec
        }),
    )
}

/// Each player's games played over the board in the published rounds:
/// every game of a pairing with a result on the board counts, tiebreak
/// games too; forfeits, games not played and games still without a result
/// do not.
fn games_played(data: &TournamentData) -> HashMap<u32, usize> {
    let mut played: HashMap<u32, usize> = HashMap::new();
    for round in data.published() {
        for p in data.pairings_of(round) {
            let (Some(a), Some(b)) = (p.first_player_id, p.second_player_id) else {
                continue;
            };
            let games = data
                .games_of(p.id)
                .iter()
                .filter(|g| {
                    g.result
                        .is_some_and(|r| !r.is_forfeit() && r != GameResult::NotPlayed)
                })
                .count();
            for player in [a, b] {
                *played.entry(player.engine()).or_default() += games;
            }
        }
    }
    played
}

//! Teams as CSV: one line per player, naming the team they play for.
//!
//! Columns (header row required, names case-insensitive, any order):
//! `team` and `name` (required), `club`, `rating`, and either `board`
//! (1-4, the roster player's board) or `substitute` (`yes`, `y`, `1` or
//! `true`; the board is then left empty). Each team needs exactly one
//! player on each of boards 1-4 (OGR 10.1); substitutes are optional. The
//! team's club is its players' club when all its roster players share
//! one, and empty otherwise. Either every team is entered or none is.

use std::collections::HashMap;

use super::players::ImportError;
use crate::roster::PlayerFields;
pub use crate::roster::{TeamImport, TeamPlan};

const COLUMNS: &[&str] = &["team", "name", "club", "rating", "board", "substitute"];

/// Reads a team CSV; on any problem returns every problem found, located
/// by the file's own line numbers (the header is line 1).
pub fn read(text: &str) -> Result<TeamImport, Vec<ImportError>> {
    let mut reader = super::import_reader(text);
    let (index, mut errors) = super::import_header(&mut reader, COLUMNS, &[])?;
    require_columns(&index, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut rosters = Rosters::default();
    let mut seen_names: HashMap<String, u64> = HashMap::new();
    for (line, record) in super::import_rows(&mut reader, text, &mut errors) {
        let get = |col: &str| super::field(&index, &record, col);
        let team = match crate::roster::team_fields(get("team"), "") {
            Ok((team, _)) => team,
            Err(e) => {
                errors.push(err(line, "team", e.to_string()));
                continue;
            }
        };
        let fields = match PlayerFields::parse(get("name"), get("club"), get("rating"), "", "") {
            Ok(f) => f,
            Err(list) => {
                errors.extend(list.into_iter().map(|e| err(line, e.field, e.to_string())));
                continue;
            }
        };
        if let Some(before) = seen_names.insert(fields.name.to_lowercase(), line) {
            errors.push(err(
                line,
                "name",
                format!(
                    "{} is already listed on line {before}: a player belongs to one team",
                    fields.name
                ),
            ));
            continue;
        }
        match board(line, get("board"), get("substitute")) {
            Ok(board) => rosters.add(line, team, fields, board),
            Err(e) => errors.push(e),
        }
    }
    rosters.check_boards(&mut errors);
    let Rosters { players, teams, .. } = rosters;
    if players.is_empty() && errors.is_empty() {
        errors.push(err(2, "", "the file has a header but no players".into()));
    }
    if errors.is_empty() {
        Ok(TeamImport { players, teams })
    } else {
        errors.sort_by_key(|e| e.line);
        Err(errors)
    }
}

/// A problem at `line` of the file, in `column`.
fn err(line: u64, column: &str, message: String) -> ImportError {
    ImportError {
        line,
        column: column.to_string(),
        message,
    }
}

/// The header names the team and the player, and the board (or, for a
/// file of substitutes only, the substitute column).
fn require_columns(index: &super::Header, errors: &mut Vec<ImportError>) {
    for needed in ["team", "name"] {
        if !index.contains_key(needed) {
            errors.push(err(
                1,
                needed,
                format!("the header has no '{needed}' column"),
            ));
        }
    }
    if !index.contains_key("board") && !index.contains_key("substitute") {
        errors.push(err(
            1,
            "board",
            "the header needs a 'board' column (and 'substitute' for substitutes)".into(),
        ));
    }
}

/// The board of the player on `line`, 1 to 4, or none for a substitute
/// (who has no board of their own).
fn board(line: u64, board: &str, substitute: &str) -> Result<Option<usize>, ImportError> {
    let substitute = match substitute.to_ascii_lowercase().as_str() {
        "" | "no" | "n" | "0" | "false" => false,
        "yes" | "y" | "1" | "true" => true,
        other => {
            return Err(err(
                line,
                "substitute",
                format!("'{other}' is not yes or no"),
            ))
        }
    };
    match (board, substitute) {
        ("", true) => Ok(None),
        (b, true) => Err(err(
            line,
            "board",
            format!("a substitute has no board of their own (board '{b}' given): leave it empty"),
        )),
        ("", false) => Err(err(
            line,
            "board",
            "give the board (1-4), or mark the player a substitute".into(),
        )),
        (b, false) => match b.parse::<usize>() {
            Ok(n) if (1..=4).contains(&n) => Ok(Some(n)),
            _ => Err(err(
                line,
                "board",
                format!("'{b}' is not a board (1, 2, 3 or 4)"),
            )),
        },
    }
}

/// The teams as the file's lines build them.
#[derive(Default)]
struct Rosters {
    /// The players, in file order.
    players: Vec<PlayerFields>,
    /// The teams, in the order they first appear.
    teams: Vec<TeamPlan>,
    /// Per team: (line, board, player) of each roster player, to report
    /// gaps and doubles.
    boards: Vec<Vec<(u64, usize, usize)>>,
    /// Per team: the line it first appears on.
    first_line: Vec<u64>,
}

impl Rosters {
    /// The player of `line` in `team` (a new team where its name, in any
    /// case, is not met before), on `board` or a substitute.
    fn add(&mut self, line: u64, team: String, fields: PlayerFields, board: Option<usize>) {
        let t = match self
            .teams
            .iter()
            .position(|t| t.name.eq_ignore_ascii_case(&team))
        {
            Some(t) => t,
            None => {
                self.teams.push(TeamPlan {
                    line,
                    name: team.clone(),
                    club: String::new(),
                    members: Vec::new(),
                    substitutes: Vec::new(),
                });
                self.boards.push(Vec::new());
                self.first_line.push(line);
                self.teams.len() - 1
            }
        };
        let idx = self.players.len();
        self.players.push(fields);
        match board {
            Some(b) => self.boards[t].push((line, b, idx)),
            None => self.teams[t].substitutes.push(idx),
        }
    }

    /// One player on each board of each team (OGR 10.1); the rosters in
    /// board order, and a team's club its players' where they share one.
    fn check_boards(&mut self, errors: &mut Vec<ImportError>) {
        let (players, teams) = (&self.players, &mut self.teams);
        for (t, list) in self.boards.iter().enumerate() {
            for b in 1..=4 {
                let on: Vec<&(u64, usize, usize)> = list.iter().filter(|x| x.1 == b).collect();
                match on.as_slice() {
                    [] => errors.push(err(
                        self.first_line[t],
                        "board",
                        format!(
                            "{} has nobody on board {b}: a team has four players, one per board (OGR 10.1)",
                            teams[t].name
                        ),
                    )),
                    [_] => {}
                    [_, rest @ ..] => {
                        for x in rest {
                            errors.push(err(
                                x.0,
                                "board",
                                format!("{} already has a player on board {b}", teams[t].name),
                            ))
                        }
                    }
                }
            }
            let mut roster: Vec<&(u64, usize, usize)> = list.iter().collect();
            roster.sort_by_key(|x| x.1);
            teams[t].members = roster.iter().map(|x| x.2).collect();
            let clubs: Vec<&str> = roster.iter().map(|x| players[x.2].club.as_str()).collect();
            if clubs.windows(2).all(|w| w[0] == w[1]) {
                teams[t].club = clubs.first().copied().unwrap_or("").to_string();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_team_file_gives_rosters_in_board_order_and_substitutes() {
        let plan = read(
            "team,name,club,rating,board,substitute\n\
             Soweto A,Thabo Nkosi,Soweto MC,1700,2,\n\
             Soweto A,Sipho Dlamini,Soweto MC,1800,1,\n\
             Soweto A,Lerato Mokoena,Soweto MC,,3,\n\
             Soweto A,Zanele Khumalo,Soweto MC,,4,\n\
             Soweto A,Bheki Zulu,Soweto MC,,,yes\n",
        )
        .unwrap();
        assert_eq!(plan.teams.len(), 1);
        let t = &plan.teams[0];
        let names: Vec<&str> = t
            .members
            .iter()
            .map(|&i| plan.players[i].name.as_str())
            .collect();
        assert_eq!(
            names,
            [
                "Sipho Dlamini",
                "Thabo Nkosi",
                "Lerato Mokoena",
                "Zanele Khumalo"
            ]
        );
        assert_eq!(plan.players[t.substitutes[0]].name, "Bheki Zulu");
        assert_eq!(t.club, "Soweto MC");
    }

    #[test]
    fn every_problem_names_its_line_and_column() {
        let errors = read(
            "team,name,board,substitute\n\
             Tembisa,Ayanda Ndlovu,1,\n\
             Tembisa,Nomsa Shabalala,1,\n\
             Tembisa,Kagiso Molefe,five,\n\
             Tembisa,Ayanda Ndlovu,,yes\n",
        )
        .unwrap_err();
        let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert!(
            shown.contains(&"line 3, column board: Tembisa already has a player on board 1".into()),
            "{shown:?}"
        );
        assert!(
            shown.contains(&"line 4, column board: 'five' is not a board (1, 2, 3 or 4)".into()),
            "{shown:?}"
        );
        assert!(
            shown
                .iter()
                .any(|s| s
                    .starts_with("line 5, column name: Ayanda Ndlovu is already listed on line 2")),
            "{shown:?}"
        );
        assert!(
            shown
                .iter()
                .any(|s| s.starts_with("line 2, column board: Tembisa has nobody on board 2")),
            "{shown:?}"
        );
    }
}

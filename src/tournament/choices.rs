//! The choices a tournament is set up with, as named values with one
//! spelling each: system, rule set, scoring, ranking, byes, tiebreaks.
//! They name nothing above them, so that what is wrong with a value
//! (`crate::field`) can carry one.

named_values! {
    /// How rounds are paired.
    System {
        Swiss => "swiss", "Swiss system";
        RoundRobin => "round_robin", "Round robin";
        Knockout => "knockout", "Knock-out";
        TeamLeague => "team_league", "Team league (round robin)";
        TeamSwiss => "team_swiss", "Team Swiss";
    }
}

named_values! {
    /// Where a round stands: a draft only its referees see, or published.
    RoundStatus {
        Draft => "draft", "draft";
        Published => "published", "published";
    }
}

named_values! {
    /// Whose record of a game a scoresheet is: each player keeps one (OGR
    /// 6.2.6), and the referee may add a corrected copy.
    RecordSide {
        Dark => "dark", "dark's record";
        Light => "light", "light's record";
        Referee => "referee", "the referee's copy";
    }
}

named_values! {
    /// What a referee decides about a game whose records and entered result
    /// disagree.
    RulingKind {
        Keep => "keep", "keep the entered result (the opponent played on, OGR 5.7)";
        Board => "board", "set the result the board shows";
        Other => "other", "set another result";
    }
}

named_values! {
    /// What a player without an opponent in a round has.
    ByeKind {
        Allocated => "allocated", "pairing-allocated bye";
        Half => "half", "requested bye, half a pairing";
        Zero => "zero", "requested bye, no points";
    }
}

named_values! {
    /// What the standings rank by first.
    Ranking {
        GamePoints => "game_points", "Game points (1, ½, 0 per game)";
        MatchPoints => "match_points", "Match points (pairing won 2, drawn 1, lost 0)";
    }
}

named_values! {
    /// What a pairing-allocated bye is worth.
    ByeValue {
        Win => "win", "a won pairing";
        Draw => "draw", "a drawn pairing";
        Nothing => "none", "nothing";
    }
}

named_values! {
    /// Who must agree before a result the players report through their
    /// links is stored: nobody else (`off`: one player's report stands
    /// until the opponent contradicts it), the other player too
    /// (`players`, the default), or both players and then a referee on the
    /// results desk (`players_then_referee`).
    Confirmation {
        Off => "off", "no confirmation: one player's report is stored";
        Players => "players", "both players report the same result";
        PlayersThenReferee => "players_then_referee", "both players, then a referee confirms";
    }
}

named_values! {
    /// Who may watch the games recorded at the board as they are played
    /// (the live boards and their feeds): everyone (`public`, the
    /// default), the event's referees, or nobody. The scoresheet pages
    /// follow `records_public` instead.
    LiveBoards {
        Public => "public", "everyone";
        Referees => "referees", "the event's referees only";
        Off => "off", "nobody: no live boards";
    }
}

named_values! {
    /// Tiebreaks, applied in the order the organiser lists them.
    Tiebreak {
        DirectEncounter => "direct_encounter", "Direct encounter";
        Buchholz => "buchholz", "Buchholz";
        BuchholzCut1 => "buchholz_cut1", "Buchholz cut-1";
        MedianBuchholz => "median_buchholz", "Median Buchholz";
        SonnebornBerger => "sonneborn_berger", "Sonneborn-Berger";
        Wins => "wins", "Number of wins";
        Progressive => "progressive", "Progressive score";
        MatchPoints => "match_points", "Match points";
        GamePoints => "game_points", "Game points";
        Board1 => "board_1", "Board 1 points";
        Board2 => "board_2", "Board 2 points";
        Board3 => "board_3", "Board 3 points";
        Board4 => "board_4", "Board 4 points";
    }
}

impl Tiebreak {
    /// Tiebreaks that only mean something between teams: a player's match
    /// and game points are already their score, and has no boards.
    pub fn teams_only(self) -> bool {
        matches!(
            self,
            Tiebreak::MatchPoints
                | Tiebreak::GamePoints
                | Tiebreak::Board1
                | Tiebreak::Board2
                | Tiebreak::Board3
                | Tiebreak::Board4
        )
    }

    /// A column heading short enough for a team's wide standings (the full
    /// label goes in its `title`); `None` where the label is short already.
    pub fn short(self) -> Option<&'static str> {
        match self {
            Tiebreak::DirectEncounter => Some("H2H"),
            Tiebreak::MatchPoints => Some("MP"),
            Tiebreak::GamePoints => Some("GP"),
            Tiebreak::Board1 => Some("B1"),
            Tiebreak::Board2 => Some("B2"),
            Tiebreak::Board3 => Some("B3"),
            Tiebreak::Board4 => Some("B4"),
            Tiebreak::Wins => Some("Wins"),
            _ => None,
        }
    }

    /// The board a board-points tiebreak counts (1-4).
    pub fn board(self) -> Option<usize> {
        match self {
            Tiebreak::Board1 => Some(1),
            Tiebreak::Board2 => Some(2),
            Tiebreak::Board3 => Some(3),
            Tiebreak::Board4 => Some(4),
            _ => None,
        }
    }
}

/// A team event's tiebreaks when the organiser does not say (OGR 10.6 and
/// what it leaves open): head-to-head first, as 10.6 demands; then the
/// other measure of points (a team that won its matches narrowly against
/// one that won them big, or the reverse); then board points from board 1
/// down, which rewards the stronger boards as team events usually do; then
/// matches won.
pub fn team_tiebreaks(ranking: Ranking) -> Vec<Tiebreak> {
    let other = match ranking {
        Ranking::GamePoints => Tiebreak::MatchPoints,
        Ranking::MatchPoints => Tiebreak::GamePoints,
    };
    vec![
        Tiebreak::DirectEncounter,
        other,
        Tiebreak::Board1,
        Tiebreak::Board2,
        Tiebreak::Board3,
        Tiebreak::Board4,
        Tiebreak::Wins,
    ]
}

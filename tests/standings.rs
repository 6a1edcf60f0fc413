//! Standings of small tournaments worked out by hand.

use kraal::pairing::PlayerId;
use kraal::standings::{compute, Entrant, Outcome, Scoring};
use kraal::tournament::{ByeValue, Ranking, Tiebreak};

fn played(opponent: PlayerId, points: i64, opponent_points: i64, games_won: u32) -> Outcome {
    Outcome::Played {
        opponent,
        points,
        opponent_points,
        games_won,
    }
}

fn entrant(id: PlayerId, name: &str, rounds: Vec<Outcome>) -> Entrant {
    Entrant {
        id,
        name: name.into(),
        order: id,
        rounds,
        boards: Vec::new(),
        stage: 0,
    }
}

/// Four players, two-game pairings, three rounds (a complete round robin).
///
/// R1: A 2-0 B, C 1-1 D.  R2: A 1½-½ C, B 2-0 D.  R3: A ½-1½ D, B 1-1 C.
/// Scores: A 4, B 3, C 2½, D 2½.
fn four_players() -> Vec<Entrant> {
    vec![
        entrant(
            1,
            "Ayanda",
            vec![
                played(2, 20, 0, 2),
                played(3, 15, 5, 1),
                played(4, 5, 15, 0),
            ],
        ),
        entrant(
            2,
            "Bongani",
            vec![
                played(1, 0, 20, 0),
                played(4, 20, 0, 2),
                played(3, 10, 10, 1),
            ],
        ),
        entrant(
            3,
            "Chipo",
            vec![
                played(4, 10, 10, 1),
                played(1, 5, 15, 0),
                played(2, 10, 10, 1),
            ],
        ),
        entrant(
            4,
            "Dumisani",
            vec![
                played(3, 10, 10, 1),
                played(2, 0, 20, 0),
                played(1, 15, 5, 1),
            ],
        ),
    ]
}

const GAME: Scoring = Scoring {
    games_per_pairing: 2,
    ranking: Ranking::GamePoints,
    bye: ByeValue::Win,
};

#[test]
fn game_point_standings_with_every_tiebreak_by_hand() {
    let all = [
        Tiebreak::DirectEncounter,
        Tiebreak::Buchholz,
        Tiebreak::BuchholzCut1,
        Tiebreak::MedianBuchholz,
        Tiebreak::SonnebornBerger,
        Tiebreak::Wins,
        Tiebreak::Progressive,
    ];
    let table = compute(&four_players(), &GAME, &all);
    let names: Vec<_> = table.iter().map(|s| s.name.as_str()).collect();
    // Chipo and Dumisani are level on 2½ and drew each other 1-1, so direct
    // encounter does not separate them; Buchholz does: Chipo met D(2½) A(4) B(3) = 9½,
    // Dumisani met C(2½) B(3) A(4) = 9½; cut-1 drops the 2½ for both (7);
    // Sonneborn-Berger: Chipo 2½·½ + 4·¼ + 3·½ = 3.75, Dumisani 2½·½ + 3·0 + 4·¾ = 4.25.
    assert_eq!(names, ["Ayanda", "Bongani", "Dumisani", "Chipo"]);
    let scores: Vec<_> = table.iter().map(|s| s.score).collect();
    assert_eq!(scores, [40, 30, 25, 25]);
    let d = &table[2];
    let c = &table[3];
    let shown =
        |s: &kraal::standings::Standing| s.tiebreaks.iter().map(|v| v.show()).collect::<Vec<_>>();
    // Direct encounter: 1 each (their 1-1). Progressive: Dumisani 1 + 1 + 2½,
    // Chipo 1 + 1½ + 2½.
    assert_eq!(shown(d), ["1", "9½", "7", "3", "4.25", "2", "4½"]);
    assert_eq!(shown(c), ["1", "9½", "7", "3", "3.75", "2", "5"]);
    assert_eq!(d.separated_by.map(|s| s.as_str()), Some("score"));
    assert_eq!(c.separated_by.map(|s| s.as_str()), Some("sonneborn_berger"));
    assert_eq!((c.rank, d.rank), (4, 3));
}

#[test]
fn direct_encounter_decides_between_players_who_met() {
    // Level on 2½: Chipo beat Dumisani 1½-½ in this version of round 1.
    let mut field = four_players();
    field[2].rounds[0] = played(4, 15, 5, 1);
    field[3].rounds[0] = played(3, 5, 15, 0);
    field[3].rounds[2] = played(1, 20, 0, 2); // Dumisani 2-0 Ayanda keeps him on 2½
    field[0].rounds[2] = played(4, 0, 20, 0);
    field[2].rounds[2] = played(2, 5, 15, 0);
    field[1].rounds[2] = played(3, 15, 5, 1);
    let table = compute(
        &field,
        &GAME,
        &[Tiebreak::DirectEncounter, Tiebreak::Buchholz],
    );
    // Ayanda 2 + 1½ + 0 and Bongani 0 + 2 + 1½ are level on 3½; Ayanda won
    // their pairing 2-0. Chipo and Dumisani are level on 2½; Chipo won theirs 1½-½.
    let got: Vec<_> = table
        .iter()
        .map(|s| (s.name.as_str(), s.score, s.tiebreaks[0].show()))
        .collect();
    assert_eq!(
        got,
        [
            ("Ayanda", 35, "2".to_string()),
            ("Bongani", 35, "0".to_string()),
            ("Chipo", 25, "1½".to_string()),
            ("Dumisani", 25, "½".to_string())
        ]
    );
    assert_eq!(
        table[1].separated_by.map(|s| s.as_str()),
        Some("direct_encounter")
    );
    assert_eq!(
        table[3].separated_by.map(|s| s.as_str()),
        Some("direct_encounter")
    );
}

#[test]
fn match_points_and_byes() {
    // Three players, a bye each round, two-game pairings, match points.
    let field = vec![
        entrant(
            1,
            "Kea",
            vec![
                Outcome::AllocatedBye,
                played(3, 10, 10, 1),
                played(2, 20, 0, 2),
            ],
        ),
        entrant(
            2,
            "Lindiwe",
            vec![
                played(3, 15, 5, 1),
                Outcome::AllocatedBye,
                played(1, 0, 20, 0),
            ],
        ),
        entrant(
            3,
            "Mpho",
            vec![
                played(2, 5, 15, 0),
                played(1, 10, 10, 1),
                Outcome::RequestedBye { half: true },
            ],
        ),
    ];
    let scoring = Scoring {
        ranking: Ranking::MatchPoints,
        ..GAME
    };
    let table = compute(&field, &scoring, &[Tiebreak::Buchholz]);
    let got: Vec<_> = table
        .iter()
        .map(|s| (s.name.as_str(), s.score, s.rank))
        .collect();
    // Kea: bye 2 + draw 1 + win 2 = 5; Lindiwe: 2 + 2 + 0 = 4; Mpho: 0 + 1 + 1 = 2.
    assert_eq!(got, [("Kea", 50, 1), ("Lindiwe", 40, 2), ("Mpho", 20, 3)]);
}

#[test]
fn players_level_on_everything_share_a_rank() {
    let field = vec![
        entrant(1, "Naledi", vec![played(2, 10, 10, 1)]),
        entrant(2, "Olwethu", vec![played(1, 10, 10, 1)]),
    ];
    let table = compute(&field, &GAME, &[Tiebreak::Buchholz, Tiebreak::Wins]);
    assert_eq!((table[0].rank, table[1].rank), (1, 1));
    assert_eq!(table[1].separated_by, None);
    assert_eq!(
        table[0].name, "Naledi",
        "pairing number orders a shared rank"
    );
}

//! Small tournaments on which the engine and the handbook differ, each a
//! Kraal JSON file as `kraal pair FILE` reads it, with the handbook's
//! pairing worked by hand from the articles.

/// Eight players after three rounds. The 3.5 bracket {1, 2, 3} has S1 = {1},
/// S2 = {2, 3}; 1-2 is allowed, so 3 floats (the MDP 6 has met all three and
/// floats too). No criterion separates the downfloaters 1, 2 and 3 (none had
/// a downfloat last round, C7 sees the same next bracket), so the first
/// candidate in the order of section 4 (transpositions of S2) stands.
pub const S1_S2_ORDER: &str = r#"{"rules": "official", "total_rounds": 20, "games_per_pairing": 2, "players": [{"id": 1, "name": "P01", "rating": 1990}, {"id": 2, "name": "P02", "rating": 1980}, {"id": 3, "name": "P03", "rating": 1970}, {"id": 4, "name": "P04", "rating": 1960}, {"id": 5, "name": "P05", "rating": 1950}, {"id": 6, "name": "P06", "rating": 1940}, {"id": 7, "name": "P07", "rating": 1930}, {"id": 8, "name": "P08", "rating": 1920}], "rounds": [{"pairings": [{"first": 1, "second": 5, "games": [0, 1]}, {"first": 2, "second": 6, "games": [0, 0.5]}, {"first": 3, "second": 7, "games": [0, 1]}, {"first": 4, "second": 8, "games": [0, 1]}], "byes": []}, {"pairings": [{"first": 1, "second": 6, "games": [0, 0.5]}, {"first": 2, "second": 8, "games": [1, 0.5]}, {"first": 3, "second": 5, "games": [1, 0.5]}, {"first": 4, "second": 7, "games": [0.5, 1]}], "byes": []}, {"pairings": [{"first": 1, "second": 7, "games": [1, 1]}, {"first": 2, "second": 4, "games": [0.5, 1]}, {"first": 3, "second": 6, "games": [1, 0]}, {"first": 5, "second": 8, "games": [1, 0]}], "byes": []}]}"#;

/// Twelve players after two rounds. The 2-point bracket {2, 3, 4, 8, 9, 12}
/// (BSN 1-6) has S1 = {2, 3, 4}, S2 = {8, 9, 12}; no transposition of S2 is
/// free of rematches, so the exchanges are tried in order: the first is BSN 3
/// with BSN 4 (sum difference 1), giving S1 = {2, 3, 8}, S2 = {4, 9, 12},
/// whose transposition {4, 12, 9} pairs 2-4, 3-12, 8-9.
pub const EXCHANGE_ORDER: &str = r#"{"rules": "official", "total_rounds": 20, "games_per_pairing": 2, "players": [{"id": 1, "name": "P01", "rating": 1990}, {"id": 2, "name": "P02", "rating": 1980}, {"id": 3, "name": "P03", "rating": 1970}, {"id": 4, "name": "P04", "rating": 1960}, {"id": 5, "name": "P05", "rating": 1950}, {"id": 6, "name": "P06", "rating": 1940}, {"id": 7, "name": "P07", "rating": 1930}, {"id": 8, "name": "P08", "rating": 1920}, {"id": 9, "name": "P09", "rating": 1910}, {"id": 10, "name": "P10", "rating": 1900}, {"id": 11, "name": "P11", "rating": 1890}, {"id": 12, "name": "P12", "rating": 1880}], "rounds": [{"pairings": [{"first": 1, "second": 7, "games": [0.5, 0]}, {"first": 2, "second": 8, "games": [0, 1]}, {"first": 3, "second": 9, "games": [0, 1]}, {"first": 4, "second": 10, "games": [1, 0]}, {"first": 5, "second": 11, "games": [0, 0]}, {"first": 6, "second": 12, "games": [0, 1]}], "byes": []}, {"pairings": [{"first": 1, "second": 5, "games": [1, 0]}, {"first": 2, "second": 9, "games": [1, 0]}, {"first": 3, "second": 8, "games": [0, 1]}, {"first": 4, "second": 12, "games": [0, 1]}, {"first": 6, "second": 10, "games": [0, 0.5]}, {"first": 7, "second": 11, "games": [0, 0]}], "byes": []}]}"#;

/// Nine players after five rounds. Player 3 (bottom, 3 points) cannot take
/// the bye (C2), so the 5-point bracket is the penultimate one and floats 5
/// down to meet 3. Its MDPs are 4 (meets 6, the only one left) and 9, who
/// may meet 1 or 2: the transposition order pairs 9 with 1 first, and no
/// criterion prefers 9-2, so 2 floats and takes the bye in the collapsed
/// last bracket.
pub const BYE_ORDER: &str = r#"{"rules": "official", "total_rounds": 20, "games_per_pairing": 2, "players": [{"id": 1, "name": "P01", "rating": 1990}, {"id": 2, "name": "P02", "rating": 1980}, {"id": 3, "name": "P03", "rating": 1970}, {"id": 4, "name": "P04", "rating": 1960}, {"id": 5, "name": "P05", "rating": 1950}, {"id": 6, "name": "P06", "rating": 1940}, {"id": 7, "name": "P07", "rating": 1930}, {"id": 8, "name": "P08", "rating": 1920}, {"id": 9, "name": "P09", "rating": 1910}], "rounds": [{"pairings": [{"first": 1, "second": 5, "games": [0.5, 1]}, {"first": 2, "second": 6, "games": [0.5, 1]}, {"first": 3, "second": 7, "games": [0, 0]}, {"first": 4, "second": 8, "games": [0, 1]}], "byes": [{"player": 9, "kind": "allocated"}]}, {"pairings": [{"first": 1, "second": 2, "games": [1, 0]}, {"first": 4, "second": 5, "games": [0.5, 1]}, {"first": 6, "second": 8, "games": [0, 0.5]}, {"first": 7, "second": 9, "games": [0, 0]}], "byes": [{"player": 3, "kind": "allocated"}]}, {"pairings": [{"first": 1, "second": 8, "games": [0, 0]}, {"first": 2, "second": 3, "games": [1, 1]}, {"first": 4, "second": 9, "games": [0.5, 1]}, {"first": 5, "second": 7, "games": [0.5, 1]}], "byes": [{"player": 6, "kind": "allocated"}]}, {"pairings": [{"first": 1, "second": 3, "games": [1, 1]}, {"first": 2, "second": 4, "games": [0.5, 0]}, {"first": 6, "second": 7, "games": [0, 1]}, {"first": 8, "second": 9, "games": [1, 1]}], "byes": [{"player": 5, "kind": "allocated"}]}, {"pairings": [{"first": 1, "second": 4, "games": [0, 0.5]}, {"first": 2, "second": 8, "games": [0, 0]}, {"first": 3, "second": 6, "games": [0.5, 0.5]}, {"first": 5, "second": 9, "games": [0.5, 0]}], "byes": [{"player": 7, "kind": "allocated"}]}]}"#;

/// Seven players after four rounds. Scores: 6, 7 on 6; 1, 3 on 5; 2, 4 on
/// 3.5; 5 on 3. 5 already had the bye, so C5 gives it to 2 or 4, and 5 must
/// meet 3, 6 or 7 (it played 1, 2 and 4). The 6 bracket {6, 7} (who met)
/// floats both. In the 5 bracket 6 may meet nobody, so it has one pair:
/// 7-1, 7-3 or 1-3; C7 floats the lowest scores, so 7-1 (6 and 3 float) or
/// 7-3 (6 and 1). C8 judges the next bracket by C1 to C7, completion (C4)
/// included. After 7-3, {6, 1, 2, 4} could pair 1-2 and 6-4, but that
/// leaves 5 for the bye it may not have (C2): it pairs once, floating 6 and
/// a 3.5. After 7-1, {6, 3, 2, 4} pairs 6-4 and floats 3 (5 points) and 2
/// (3.5): lower scores. So 7-1, 6-4, and the last bracket {3, 2, 5} pairs
/// 3-5 with the bye to 2. The 2017 text (C7 counting rematches alone in the
/// next bracket, the collapsed last bracket) chose 7-3, 1-2, 6-5, bye 4.
pub const NEXT_BRACKET: &str = r#"{"rules": "official", "total_rounds": 20, "games_per_pairing": 2, "players": [{"id": 1, "name": "P01", "rating": 1990}, {"id": 2, "name": "P02", "rating": 1980}, {"id": 3, "name": "P03", "rating": 1970}, {"id": 4, "name": "P04", "rating": 1960}, {"id": 5, "name": "P05", "rating": 1950}, {"id": 6, "name": "P06", "rating": 1940}, {"id": 7, "name": "P07", "rating": 1930}], "rounds": [{"pairings": [{"first": 1, "second": 4, "games": [1, 0]}, {"first": 2, "second": 5, "games": [1, 1]}, {"first": 3, "second": 6, "games": [0, 1]}], "byes": [{"player": 7, "kind": "allocated"}]}, {"pairings": [{"first": 1, "second": 6, "games": [0.5, 0]}, {"first": 2, "second": 7, "games": [0.5, 0]}, {"first": 3, "second": 4, "games": [1, 0]}], "byes": [{"player": 5, "kind": "allocated"}]}, {"pairings": [{"first": 2, "second": 3, "games": [0, 1]}, {"first": 4, "second": 5, "games": [1, 0.5]}, {"first": 6, "second": 7, "games": [0.5, 1]}], "byes": [{"player": 1, "kind": "allocated"}]}, {"pairings": [{"first": 1, "second": 5, "games": [0.5, 1]}, {"first": 2, "second": 6, "games": [0, 0]}, {"first": 4, "second": 7, "games": [0, 0]}], "byes": [{"player": 3, "kind": "allocated"}]}]}"#;

/// Nine players after one round: 8 lost by forfeit, 4 won by forfeit, 9 had
/// the allocated bye. 4 and 9 scored without playing, so they received a
/// downfloat (1.4.3); 8 scored nothing without playing, which is no float.
/// In the last bracket {7 (MDP), 3, 5, 6, 8} 7 meets 5 and the remainder
/// {3, 6, 8} floats one player to the bye. Nobody there repeats a float, so
/// C9 decides: 8's forfeit is an unplayed game, 3 and 6 have none, and the
/// first candidate that floats one of them (S1 {3} against S2 {6, 8}
/// transposed: 3-8) gives the bye to 6.
pub const ZERO_POINT_FORFEIT: &str = r#"{"rules": "official", "total_rounds": 20, "games_per_pairing": 2, "players": [{"id": 1, "name": "P01", "rating": 1990}, {"id": 2, "name": "P02", "rating": 1980}, {"id": 3, "name": "P03", "rating": 1970}, {"id": 4, "name": "P04", "rating": 1960}, {"id": 5, "name": "P05", "rating": 1950}, {"id": 6, "name": "P06", "rating": 1940}, {"id": 7, "name": "P07", "rating": 1930}, {"id": 8, "name": "P08", "rating": 1920}, {"id": 9, "name": "P09", "rating": 1910}], "rounds": [{"pairings": [{"first": 1, "second": 5, "games": [1, 1]}, {"first": 2, "second": 6, "games": [1, 1]}, {"first": 3, "second": 7, "games": [0, 0]}, {"first": 4, "second": 8, "forfeit": "second"}], "byes": [{"player": 9, "kind": "allocated"}]}]}"#;

/// Seven players after two rounds. The MDPs 1 (2.5) and 4 (2) meet the
/// 1.5 bracket {2, 5}; 1-2 with 4-5 and 1-5 with 4-2 tie up to C16. Player
/// 2 had an upfloat last round and upfloats again either way: C17 wants the
/// smaller score difference for that repeated upfloat, so 2 meets 4.
pub const REPEATED_UPFLOAT: &str = r#"{"rules": "official", "total_rounds": 20, "games_per_pairing": 2, "players": [{"id": 1, "name": "P01", "rating": 1990}, {"id": 2, "name": "P02", "rating": 1980}, {"id": 3, "name": "P03", "rating": 1970}, {"id": 4, "name": "P04", "rating": 1960}, {"id": 5, "name": "P05", "rating": 1950}, {"id": 6, "name": "P06", "rating": 1940}, {"id": 7, "name": "P07", "rating": 1930}], "rounds": [{"pairings": [{"first": 1, "second": 4, "games": [1, 1]}, {"first": 2, "second": 5, "games": [1, 0.5]}, {"first": 3, "second": 6, "games": [0, 0]}], "byes": [{"player": 7, "kind": "allocated"}]}, {"pairings": [{"first": 1, "second": 7, "games": [0, 0.5]}, {"first": 2, "second": 6, "games": [0, 0]}, {"first": 3, "second": 5, "games": [1, 0]}], "byes": [{"player": 4, "kind": "allocated"}]}]}"#;

//! perft from the empty board against the counts of independent reference
//! engines, under both rule sets.

use kraal::rules::movegen::perft;
use kraal::rules::{Game, PlayRules, RuleSet};

const SHARED: [u64; 6] = [24, 552, 12144, 255024, 5150880, 99862272];

fn count(rules: PlayRules, depth: u32) -> u64 {
    let game = Game::new(rules);
    perft(&game.position, &rules, &game.spent, depth)
}

#[test]
fn depths_one_to_six_are_the_same_under_both_rule_sets() {
    for rules in RuleSet::ALL.iter().map(|r| r.play()) {
        let counts: Vec<u64> = (1..=6).map(|d| count(rules, d)).collect();
        assert_eq!(counts, SHARED, "{}", rules.name);
    }
}

#[test]
fn depth_seven_differs_by_the_barren_line() {
    let gar = count(PlayRules::GAR, 7);
    let official = count(PlayRules::OFFICIAL, 7);
    assert_eq!(gar, 1_905_799_824);
    assert_eq!(official, 1_904_695_632);
}

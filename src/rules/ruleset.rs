//! Rule sets: the one named value a tournament stores and both engines
//! read. The rules engine reads a rule set's [`PlayRules`] (the seeds
//! disagree on a few points of play, each a field there); the pairing engines
//! read which avoidance table applies (docs/pairing.md). A new rule set is one
//! new value here.

use serde::Serialize;

named_values! {
    /// Which rule documents govern play, games per pairing and which
    /// relatives and club-mates the pairings keep apart.
    RuleSet {
        Official => "official", "Official Game Rules (OGR)";
        Gar => "gar", "Generally Accepted Rules (GAR)";
    }
}

impl RuleSet {
    /// How the game is played under this rule set.
    pub fn play(self) -> PlayRules {
        match self {
            RuleSet::Official => PlayRules::OFFICIAL,
            RuleSet::Gar => PlayRules::GAR,
        }
    }

    /// Games per pairing the rule set prescribes: OGR 9.2 two, GAR six.
    pub fn default_games_per_pairing(self) -> i32 {
        match self {
            RuleSet::Official => 2,
            RuleSet::Gar => 6,
        }
    }
}

impl Default for RuleSet {
    /// `gar`, the rules most clubs play.
    fn default() -> Self {
        RuleSet::Gar
    }
}

/// What happens when a player forms a line but every opponent cow on the
/// board stands in a line of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AllProtected {
    /// No shot: the line is barren (OGR 3.1.8.2).
    Barren,
    /// Any cow may then be shot (GAR stage 1).
    ShootAny,
}

/// The parameters the rule sets differ in, and those they share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct PlayRules {
    /// The rule set these are the rules of.
    pub name: RuleSet,
    /// What a line shoots when all opponent cows are protected.
    pub all_protected: AllProtected,
    /// An arrangement (line and which cow on which junction) that shot, was
    /// barren or was paralysed can never shoot again (OGR 3.2.4.1.2-4).
    pub spent_arrangements: bool,
    /// A cow that broke a line and formed a new one may not go straight back
    /// to its old junction on the player's next move if that forms a line
    /// (GAR stage 2).
    pub no_return: bool,
    /// Plies without a shot, once a player is down to three, after which the
    /// game is drawn: ten moves each (OGR 4.3.2).
    pub draw_plies: u16,
    /// Cows each player starts with (OGR 3.1.2).
    pub cows: u8,
    /// A player with this many cows on the board and none to place flies
    /// (OGR 3.3.1).
    pub fly_at: u8,
    /// A player with this many cows (board and hand) has lost (OGR 4.2.3).
    pub lose_at: u8,
}

impl PlayRules {
    /// The Official Game Rules (seed 000): barren lines, spent arrangements.
    pub const OFFICIAL: PlayRules = PlayRules {
        name: RuleSet::Official,
        all_protected: AllProtected::Barren,
        spent_arrangements: true,
        no_return: false,
        draw_plies: 20,
        cows: 12,
        fly_at: 3,
        lose_at: 2,
    };

    /// Mind Sports South Africa's Generally Accepted Rules (seeds 001/002).
    pub const GAR: PlayRules = PlayRules {
        name: RuleSet::Gar,
        all_protected: AllProtected::ShootAny,
        spent_arrangements: false,
        no_return: true,
        draw_plies: 20,
        cows: 12,
        fly_at: 3,
        lose_at: 2,
    };
}

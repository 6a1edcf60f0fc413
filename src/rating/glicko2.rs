//! One Glicko-2 rating period, as Glickman's "Example of the Glicko-2
//! system" (glicko.net/glicko/glicko2.pdf) writes it, step for step.
//!
//! The steps are followed literally, constants included, so that any
//! federation that checks a published rating by hand against the paper
//! gets the same number; nothing is "improved". The one addition is the
//! ceiling on RD ([`MAX_RD`]), which the paper's step 6 leaves open: an
//! absent player's RD would otherwise grow past that of a newcomer, who is
//! the least known player there is.

use std::f64::consts::PI;

/// The paper's ratio between the Glicko and Glicko-2 scales (step 2).
pub const SCALE: f64 = 173.7178;

/// The paper's convergence tolerance ε for the volatility (step 5).
pub const EPSILON: f64 = 0.000_001;

/// No rating is less known than a newcomer's, so no RD exceeds theirs.
pub const MAX_RD: f64 = 350.0;

/// RD from which a rating is shown as provisional: while the 95% interval
/// (±2 RD) is still ±220 points or wider, it says little about the player.
pub const PROVISIONAL_RD: f64 = 110.0;

const MAX_PHI: f64 = MAX_RD / SCALE;

/// A player's rating on the Glicko scale, as published.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    pub rating: f64,
    /// Rating deviation: the rating is within ±2 RD of the player's
    /// strength with 95% confidence.
    pub rd: f64,
    /// How erratic the player's results are (σ): it sets how fast RD grows
    /// when the player is away and how far one surprising period moves them.
    pub volatility: f64,
}

impl Rating {
    /// A newcomer: the paper's suggested start (step 1).
    pub const NEW: Rating = Rating {
        rating: 1500.0,
        rd: 350.0,
        volatility: 0.06,
    };

    /// Whether the rating is still too uncertain to be shown as settled.
    pub fn provisional(&self) -> bool {
        self.rd >= PROVISIONAL_RD
    }
}

/// The system's constant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// τ: how far a surprising period may change a volatility. The paper
    /// advises 0.3 to 1.2; smaller keeps ratings steadier against upsets.
    pub tau: f64,
}

impl Default for Settings {
    /// τ = 0.5, the value the paper's example uses.
    fn default() -> Settings {
        Settings { tau: 0.5 }
    }
}

/// A rating on the Glicko-2 scale (step 2): the history keeps ratings on
/// the published scale and converts at each period, so one conversion
/// path serves both [`rate_period`] and the history, bit for bit.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scaled {
    pub mu: f64,
    pub phi: f64,
    pub sigma: f64,
}

impl Scaled {
    pub fn of(r: Rating) -> Scaled {
        Scaled {
            mu: (r.rating - 1500.0) / SCALE,
            phi: r.rd / SCALE,
            sigma: r.volatility,
        }
    }

    /// Back to the published scale; RD is capped here, after the
    /// conversion, since 350 / SCALE * SCALE need not be 350 to the bit.
    pub fn rating(self) -> Rating {
        Rating {
            rating: SCALE * self.mu + 1500.0,
            rd: (SCALE * self.phi).min(MAX_RD),
            volatility: self.sigma,
        }
    }
}

/// g(φ) of step 3: how much an opponent's uncertainty blunts what a game
/// against them says.
pub(crate) fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// The sums over a player's games of steps 3 and 4, gathered in one pass
/// so the history reads each adjacency once.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Sums {
    /// Σ g(φj)² E (1 − E), i.e. 1/v.
    inv_v: f64,
    /// Σ g(φj) (sj − E), i.e. Δ/v.
    gain: f64,
}

impl Sums {
    /// One game of a player at `mu` against an opponent at `mu_j` whose
    /// g(φj) is `g_j`, scored `s`.
    #[inline]
    pub fn add(&mut self, mu: f64, mu_j: f64, g_j: f64, s: f64) {
        let e = 1.0 / (1.0 + (-g_j * (mu - mu_j)).exp());
        self.inv_v += g_j * g_j * e * (1.0 - e);
        self.gain += g_j * (s - e);
    }
}

/// Step 6 alone: a period without games widens RD by the volatility, up
/// to the ceiling. Rating and volatility are passed through untouched
/// rather than converted to the Glicko-2 scale and back, so an idle
/// player's rating stays the same number to the last bit.
pub(crate) fn idle(player: Rating) -> Rating {
    let phi = player.rd / SCALE;
    Rating {
        rd: (SCALE * pre_period_phi(phi, player.volatility)).min(MAX_RD),
        ..player
    }
}

/// φ* of step 6, capped: the cap applies before step 7 too, so a newcomer
/// is rated from RD 350, not from above it.
fn pre_period_phi(phi: f64, sigma: f64) -> f64 {
    (phi * phi + sigma * sigma).sqrt().min(MAX_PHI)
}

/// Steps 2 to 8 for a player with at least one game, from `sums` over
/// those games (gathered with the player's μ as [`Scaled::of`] gives it).
pub(crate) fn update(player: Rating, sums: Sums, tau: f64) -> Rating {
    // Every game adds a positive term unless the expected score rounds to
    // exactly 0 or 1 (ratings thousands of points apart): then the games
    // carry no information and v would be infinite, so only time passes.
    if sums.inv_v <= 0.0 {
        return idle(player);
    }
    let p = Scaled::of(player);
    let v = 1.0 / sums.inv_v;
    let delta = v * sums.gain;
    let sigma = volatility(p.phi, p.sigma, v, delta, tau);
    let phi_star = pre_period_phi(p.phi, sigma);
    let phi = (1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v))
        .sqrt()
        .min(MAX_PHI);
    Scaled {
        mu: p.mu + phi * phi * sums.gain,
        phi,
        sigma,
    }
    .rating()
}

/// σ′ of step 5: the root of f by the Illinois algorithm, with the
/// paper's starting bracket and its update rule as written, so the
/// iterates (and the last digits of σ′) are the paper's.
fn volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64) -> f64 {
    debug_assert!(tau > 0.0, "τ must be positive");
    let a = (sigma * sigma).ln();
    let phi2 = phi * phi;
    let delta2 = delta * delta;
    let tau2 = tau * tau;
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi2 + v + ex;
        ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) - (x - a) / tau2
    };
    // 5.2: the starting values.
    let mut big_a = a;
    let mut big_b = if delta2 > phi2 + v {
        (delta2 - phi2 - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    // 5.3 and 5.4.
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    while (big_b - big_a).abs() > EPSILON {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    // 5.5.
    (big_a / 2.0).exp()
}

/// One rating period for `player`: `games` are each opponent's rating at
/// the start of the period and the player's score (1, 0.5 or 0). All the
/// games of a period count as played at once, against ratings fixed for
/// the period, so the order of games within it never matters to the
/// result's meaning (only to its last bits, through the sum's order).
///
/// Without games only step 6 applies: RD grows, rating and volatility stay.
pub fn rate_period(player: Rating, games: &[(Rating, f64)], settings: Settings) -> Rating {
    if games.is_empty() {
        return idle(player);
    }
    let mu = Scaled::of(player).mu;
    let mut sums = Sums::default();
    for &(opponent, score) in games {
        debug_assert!((0.0..=1.0).contains(&score), "score {score}");
        let o = Scaled::of(opponent);
        sums.add(mu, o.mu, g(o.phi), score);
    }
    update(player, sums, settings.tau)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, rd: f64) -> Rating {
        Rating {
            rating,
            rd,
            volatility: 0.06,
        }
    }

    #[test]
    fn the_papers_example() {
        let player = r(1500.0, 200.0);
        let games = [
            (r(1400.0, 30.0), 1.0),
            (r(1550.0, 100.0), 0.0),
            (r(1700.0, 300.0), 0.0),
        ];
        let after = rate_period(player, &games, Settings::default());
        assert!((after.rating - 1464.0506705).abs() < 1e-7, "{after:?}");
        assert!((after.rd - 151.5165241).abs() < 1e-7, "{after:?}");
        assert!((after.volatility - 0.0599960).abs() < 1e-7, "{after:?}");
    }

    #[test]
    fn a_period_without_games_widens_rd_only() {
        let player = r(1500.0, 200.0);
        let after = rate_period(player, &[], Settings::default());
        assert!((after.rd - 200.2714).abs() < 1e-4, "{after:?}");
        assert_eq!(after.rating, 1500.0);
        assert_eq!(after.volatility, 0.06);
    }

    #[test]
    fn rd_never_exceeds_a_newcomers() {
        let idle = rate_period(Rating::NEW, &[], Settings::default());
        assert!(idle.rd <= MAX_RD, "{idle:?}");
        let near = rate_period(r(1500.0, 349.99), &[], Settings::default());
        assert!(near.rd <= MAX_RD, "{near:?}");
        let far = rate_period(r(1500.0, 600.0), &[], Settings::default());
        assert!(far.rd <= MAX_RD, "{far:?}");
        let played = rate_period(r(1500.0, 600.0), &[(Rating::NEW, 0.5)], Settings::default());
        assert!(played.rd <= MAX_RD, "{played:?}");
    }

    #[test]
    fn a_newcomer_who_beats_a_newcomer_gains() {
        let after = rate_period(Rating::NEW, &[(Rating::NEW, 1.0)], Settings::default());
        assert!(after.rating > 1500.0 && after.rd < 350.0, "{after:?}");
        assert!(after.provisional());
        assert!(!r(1500.0, 109.9).provisional());
    }

    #[test]
    fn games_thousands_of_points_apart_carry_nothing() {
        let after = rate_period(r(9000.0, 30.0), &[(r(0.0, 30.0), 1.0)], Settings::default());
        assert_eq!(after.rating, 9000.0);
        assert!(after.rd.is_finite() && after.volatility == 0.06);
    }
}

//! Property tests of Glicko-2 rating: what any rating system must do
//! (symmetry, a win worth more than a draw worth more than a loss, games
//! making a rating surer) holding over the whole range of realistic
//! ratings, and the cached recomputation from a month giving exactly what
//! rating from scratch gives.

#![allow(clippy::unwrap_used)]

use kraal::rating::{rate, rate_from, rate_period, Game, Period, Rating, Settings, Start};
use proptest::prelude::*;

fn settings() -> Settings {
    Settings::default()
}

/// A rating anyone could have: 400 to 2800, RD from a settled 30 to a
/// newcomer's 350, volatility from steady to erratic.
fn any_rating() -> impl Strategy<Value = Rating> {
    (400.0..2800.0f64, 30.0..=350.0f64, 0.03..0.2f64).prop_map(|(rating, rd, volatility)| Rating {
        rating,
        rd,
        volatility,
    })
}

fn any_score() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), Just(0.5), Just(1.0)]
}

fn any_games() -> impl Strategy<Value = Vec<(Rating, f64)>> {
    prop::collection::vec((any_rating(), any_score()), 1..12)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn first() -> Period {
    "2024-01".parse().unwrap()
}

fn month(k: u32) -> Period {
    (0..k).fold(first(), |p, _| p.next())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_draw_between_equals_leaves_them_equal(r in any_rating()) {
        let a = rate_period(r, &[(r, 0.5)], settings());
        prop_assert!(close(a.rating, r.rating), "{r:?} -> {a:?}");
        let games = [Game { period: first(), first: 0, second: 1, score: 0.5 }];
        let h = rate(2, &[], &games, first(), settings());
        let after = h.after(first()).unwrap();
        prop_assert_eq!(after.get(0), after.get(1));
        let starts = [0, 1].map(|person| Start { person, rating: r, after: first().prev() });
        let h = rate(2, &starts, &games, first(), settings());
        let after = h.after(first()).unwrap();
        prop_assert_eq!(after.get(0), after.get(1));
    }

    #[test]
    fn a_win_mirrors_the_loss(r in any_rating()) {
        let won = rate_period(r, &[(r, 1.0)], settings());
        let lost = rate_period(r, &[(r, 0.0)], settings());
        let (gain, loss) = (won.rating - r.rating, lost.rating - r.rating);
        prop_assert!(gain > 0.0 && loss < 0.0, "{gain} {loss}");
        prop_assert!((gain + loss).abs() < 1e-9, "{gain} {loss}");
        prop_assert!(close(won.rd, lost.rd) && close(won.volatility, lost.volatility));
        // The same game written from either side is the same game.
        let a = [Game { period: first(), first: 0, second: 1, score: 1.0 }];
        let b = [Game { period: first(), first: 1, second: 0, score: 0.0 }];
        prop_assert_eq!(rate(2, &[], &a, first(), settings()), rate(2, &[], &b, first(), settings()));
    }

    #[test]
    fn a_win_is_worth_more_than_a_draw_more_than_a_loss(
        r in any_rating(),
        opponent in any_rating(),
        others in prop::collection::vec((any_rating(), any_score()), 0..6),
    ) {
        let with = |score: f64| {
            let mut games = others.clone();
            games.push((opponent, score));
            rate_period(r, &games, settings()).rating
        };
        let (won, drawn, lost) = (with(1.0), with(0.5), with(0.0));
        prop_assert!(won >= drawn && drawn >= lost, "{won} {drawn} {lost}");
        if others.is_empty() {
            prop_assert!(won >= r.rating && lost <= r.rating, "{} {won} {lost}", r.rating);
        }
    }

    /// Games alone always make a rating surer: RD after a period with
    /// games is below what it would be after the period without them at
    /// the volatility the games left. So when the volatility did not rise,
    /// RD is below that of a plain absence.
    #[test]
    fn games_never_make_a_rating_less_sure(r in any_rating(), games in any_games()) {
        let played = rate_period(r, &games, settings());
        let idle_at = rate_period(Rating { volatility: played.volatility, ..r }, &[], settings());
        prop_assert!(played.rd <= idle_at.rd, "{played:?} {idle_at:?}");
        if played.volatility <= r.volatility {
            let idle = rate_period(r, &[], settings());
            prop_assert!(played.rd <= idle.rd, "{played:?} {idle:?}");
        }
    }

    #[test]
    fn volatility_stays_positive_and_finite(r in any_rating(), games in any_games()) {
        let after = rate_period(r, &games, settings());
        prop_assert!(after.volatility > 0.0 && after.volatility.is_finite(), "{after:?}");
        prop_assert!(after.rating.is_finite() && after.rd > 0.0 && after.rd <= 350.0, "{after:?}");
    }
}

/// What the paper's step 5 does and the literal "games never widen RD"
/// would forbid: a period of results far from expectation raises the
/// volatility, and the RD that follows from it can end above that of an
/// idle month. Glicko-2 reads such a period as a sign the rating is out of
/// date, and this is kept as the paper has it.
#[test]
fn a_surprising_period_may_leave_rd_above_an_idle_one() {
    let settled = Rating {
        rating: 2360.0,
        rd: 30.0,
        volatility: 0.06,
    };
    let weaker = Rating {
        rating: 1500.0,
        rd: 30.0,
        volatility: 0.06,
    };
    let played = rate_period(settled, &[(weaker, 0.0); 5], settings());
    let idle = rate_period(settled, &[], settings());
    assert!(played.volatility > settled.volatility);
    assert!(played.rd > idle.rd, "{played:?} {idle:?}");
    let expected = rate_period(settled, &[(weaker, 1.0); 5], settings());
    assert!(expected.rd < idle.rd, "{expected:?} {idle:?}");
}

/// A random history: `(month, first, second, score)` games among `people`
/// and imports `(person, rating, month it takes effect)`.
fn any_history() -> impl Strategy<Value = (u32, Vec<Game>, Vec<Start>)> {
    (2u32..25).prop_flat_map(|people| {
        let game =
            (0u32..8, 0..people, 1..people, any_score()).prop_map(move |(m, a, step, score)| {
                Game {
                    period: month(m),
                    first: a,
                    second: (a + step) % people,
                    score,
                }
            });
        let starts = prop::collection::btree_map(0..people, (any_rating(), 0u32..8), 0..4)
            .prop_map(|m| {
                m.into_iter()
                    .map(|(person, (rating, at))| Start {
                        person,
                        rating,
                        after: month(at).prev(),
                    })
                    .collect::<Vec<_>>()
            });
        (Just(people), prop::collection::vec(game, 0..120), starts)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn rate_from_is_rate(
        (people, games, starts) in any_history(),
        from in 0u32..10,
        until in 0u32..10,
        cached_until in 0u32..10,
        changed in 0u32..8,
    ) {
        let (from, until) = (month(from), month(until));
        let full = rate(people as usize, &starts, &games, until, settings());
        prop_assert_eq!(&rate_from(&full, from, &starts, &games, until, settings()), &full);
        // A cache rated up to another month, and a cache from before the
        // month `changed` lost its games.
        let cached = rate(people as usize, &starts, &games, month(cached_until), settings());
        prop_assert_eq!(&rate_from(&cached, from, &starts, &games, until, settings()), &full);
        let kept: Vec<Game> = games.iter().copied().filter(|g| g.period != month(changed)).collect();
        let fresh = rate(people as usize, &starts, &kept, until, settings());
        let from_changed = rate_from(&full, month(changed).min(from), &starts, &kept, until, settings());
        prop_assert_eq!(&from_changed, &fresh);
        for &period in fresh.periods() {
            for (_, r, _) in fresh.after(period).unwrap().rated() {
                prop_assert!(r.rd <= 350.0 && r.volatility > 0.0 && r.volatility.is_finite());
            }
        }
    }
}

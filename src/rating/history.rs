//! Ratings over time, recomputed from the games every time.
//!
//! Nothing rated is stored: the games and the imported starting ratings are
//! the only facts, and a history is a function of them. A corrected result
//! from three months ago then changes every rating it should, and no stored
//! rating can drift from the games it claims to come from. That is only
//! affordable if rating is fast, hence the layout below: the games are
//! bucketed by period once (a counting sort), each period's games become
//! flat adjacency arrays (offsets, opponents, scores) reused from period to
//! period, and each period's ratings are one dense row of the history.
//!
//! A server keeps one [`History`] and, when the games of a month change,
//! calls [`rate_from`] with that month: the periods before it are copied,
//! the rest recomputed, with the same result as [`rate`] from scratch.

use std::fmt;

use super::glicko2::{g, idle, update, Rating, Scaled, Settings, Sums};
use super::period::Period;

/// An imported starting rating (another federation's list, a rating from
/// before this system kept games): the player's rating going into the
/// period after `after`, replacing whatever they had.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Start {
    pub person: u32,
    pub rating: Rating,
    /// The last period the imported rating already accounts for.
    pub after: Period,
}

/// One rated game: `score` is what `first` scored (1, 0.5 or 0); `second`
/// scored the rest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Game {
    pub period: Period,
    pub first: u32,
    pub second: u32,
    pub score: f64,
}

/// A person not yet rated. A NaN RD marks the slot rather than a separate
/// bitmap: every rating the steps produce has a finite RD, so the marker
/// costs no memory and the check is the load the rating needs anyway.
const UNRATED: Rating = Rating {
    rating: f64::NAN,
    rd: f64::NAN,
    volatility: f64::NAN,
};

fn is_rated(r: &Rating) -> bool {
    !r.rd.is_nan()
}

/// Every rated person's rating and games after each period, for persons
/// `0..people`.
///
/// Kept as dense rows, one per period: `people` ratings and `people` game
/// counts, unrated persons marked (see `UNRATED`). 20,000 people over 36
/// months is 20 MB, and a row is a slice, so a whole list is read without
/// building anything.
#[derive(Clone)]
pub struct History {
    people: usize,
    periods: Vec<Period>,
    ratings: Vec<Rating>,
    games: Vec<u32>,
}

impl fmt::Debug for History {
    /// The shape only: the rows are hundreds of thousands of ratings.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("History")
            .field("people", &self.people)
            .field("first", &self.periods.first())
            .field("last", &self.periods.last())
            .finish()
    }
}

impl PartialEq for History {
    /// Equal to the bit: [`rate_from`] promises exactly what [`rate`]
    /// gives, and the unrated marker is a NaN, which `==` on floats would
    /// call unequal to itself.
    fn eq(&self, other: &History) -> bool {
        let bits = |r: &Rating| (r.rating.to_bits(), r.rd.to_bits(), r.volatility.to_bits());
        self.people == other.people
            && self.periods == other.periods
            && self.games == other.games
            && self
                .ratings
                .iter()
                .map(bits)
                .eq(other.ratings.iter().map(bits))
    }
}

/// The ratings after one period: person `p` is `Some((rating, games
/// played in the period))` once rated, `None` before.
#[derive(Debug, Clone, Copy)]
pub struct Snapshot<'a> {
    ratings: &'a [Rating],
    games: &'a [u32],
}

impl<'a> Snapshot<'a> {
    /// The number of people (rated or not).
    pub fn len(&self) -> usize {
        self.ratings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ratings.is_empty()
    }

    /// `person`'s rating and games in the period; `None` if not yet rated
    /// (or no such person).
    pub fn get(&self, person: u32) -> Option<(Rating, u32)> {
        let i = person as usize;
        let rating = *self.ratings.get(i)?;
        is_rated(&rating).then(|| (rating, self.games[i]))
    }

    /// Every person in order, `None` for the unrated.
    pub fn iter(&self) -> impl Iterator<Item = Option<(Rating, u32)>> + 'a {
        let games = self.games;
        self.ratings
            .iter()
            .zip(games)
            .map(|(r, &n)| is_rated(r).then_some((*r, n)))
    }

    /// The rated people only, as `(person, rating, games)`.
    pub fn rated(&self) -> impl Iterator<Item = (u32, Rating, u32)> + 'a {
        self.iter()
            .enumerate()
            .filter_map(|(p, x)| x.map(|(r, n)| (p as u32, r, n)))
    }
}

impl History {
    fn empty(people: usize) -> History {
        History {
            people,
            periods: Vec::new(),
            ratings: Vec::new(),
            games: Vec::new(),
        }
    }

    pub fn people(&self) -> usize {
        self.people
    }

    /// The periods rated, consecutive months, oldest first.
    pub fn periods(&self) -> &[Period] {
        &self.periods
    }

    fn row(&self, k: usize) -> Snapshot<'_> {
        let n = self.people;
        Snapshot {
            ratings: &self.ratings[k * n..(k + 1) * n],
            games: &self.games[k * n..(k + 1) * n],
        }
    }

    fn index(&self, period: Period) -> Option<usize> {
        let first = self.periods.first()?;
        let k = usize::try_from(period.ordinal() - first.ordinal()).ok()?;
        (k < self.periods.len()).then_some(k)
    }

    /// The ratings after `period`, if it was rated.
    pub fn after(&self, period: Period) -> Option<Snapshot<'_>> {
        self.index(period).map(|k| self.row(k))
    }

    /// The last period rated and the ratings after it: the current list.
    pub fn latest(&self) -> Option<(Period, Snapshot<'_>)> {
        let k = self.periods.len().checked_sub(1)?;
        Some((self.periods[k], self.row(k)))
    }

    /// `person`'s line, `(period, rating after it, games in it)`, from
    /// their first rated period on (nothing for a person never rated).
    pub fn person(&self, person: u32) -> impl Iterator<Item = (Period, Rating, u32)> + '_ {
        self.periods
            .iter()
            .enumerate()
            .filter_map(move |(k, &p)| self.row(k).get(person).map(|(r, n)| (p, r, n)))
    }
}

/// The first period there is anything to rate in: a game, or an import
/// taking effect.
fn first_period(starts: &[Start], games: &[Game]) -> Option<Period> {
    let games = games.iter().map(|g| g.period);
    games.chain(starts.iter().map(|s| s.after.next())).min()
}

/// Rates persons `0..people` from the first period with a game or an
/// import taking effect up to and including `until` (games after it are
/// left out).
///
/// A person is unrated until their first game, when they start from
/// [`Rating::NEW`], or until their import takes effect, when they start
/// from it (an import replaces whatever rating they had: it is the
/// federation's word from then on). In each period everyone with games is
/// rated against their opponents' ratings at the start of the period (an
/// unrated opponent counts as new); everyone else already rated only grows
/// their RD. The games of a period are taken in input order, which fixes
/// the order of each sum and so the last bits of the result.
///
/// At most one import per person (of two, the later in input order
/// wins). Panics if a game or an import names a person `>= people`.
pub fn rate(
    people: usize,
    starts: &[Start],
    games: &[Game],
    until: Period,
    settings: Settings,
) -> History {
    let mut history = History::empty(people);
    if let Some(first) = first_period(starts, games) {
        extend(&mut history, first, until, starts, games, settings);
    }
    history
}

/// [`rate`], reusing the periods of `previous` before `from`: the same
/// result, bit for bit, provided nothing before `from` changed since
/// `previous` was rated (same people, same games and imports taking effect
/// before `from`, in the same order).
///
/// What cannot be reused is recomputed: if the first period to rate is no
/// longer `previous`'s first (an earlier game was added or the first one
/// removed), everything is.
pub fn rate_from(
    previous: &History,
    from: Period,
    starts: &[Start],
    games: &[Game],
    until: Period,
    settings: Settings,
) -> History {
    let n = previous.people;
    let mut history = History::empty(n);
    let Some(first) = first_period(starts, games) else {
        return history;
    };
    let keep = if previous.periods.first() == Some(&first) {
        let reusable = |p: &&Period| **p < from && **p <= until;
        previous.periods.iter().take_while(reusable).count()
    } else {
        0
    };
    history.periods.extend_from_slice(&previous.periods[..keep]);
    history
        .ratings
        .extend_from_slice(&previous.ratings[..keep * n]);
    history.games.extend_from_slice(&previous.games[..keep * n]);
    let start = history.periods.last().map_or(first, |p| p.next());
    extend(&mut history, start, until, starts, games, settings);
    history
}

/// One game as seen from its period's bucket.
#[derive(Clone, Copy)]
struct Played {
    first: u32,
    second: u32,
    score: f64,
}

/// Rates the periods `start..=until` onto `history`, whose last row (if
/// any) is the state going into `start`.
fn extend(
    history: &mut History,
    start: Period,
    until: Period,
    starts: &[Start],
    games: &[Game],
    settings: Settings,
) {
    if start > until {
        return;
    }
    let n = history.people;
    let base = start.ordinal();
    let count = (until.ordinal() - base + 1) as usize;
    let index = |p: Period| {
        usize::try_from(p.ordinal() - base)
            .ok()
            .filter(|&k| k < count)
    };
    let (bounds, played) = games_by_period(games, count, index);
    let mut imports = imports_by_period(starts, n, index).into_iter().peekable();

    let mut state = match history.periods.len() {
        0 => vec![UNRATED; n],
        k => history.ratings[(k - 1) * n..k * n].to_vec(),
    };
    history.periods.reserve(count);
    history.ratings.reserve(count * n);
    history.games.reserve(count * n);
    let mut scratch = Scratch::new(n);
    for k in 0..count {
        while let Some((_, person, rating)) = imports.next_if(|&(at, _, _)| at == k) {
            state[person as usize] = rating;
        }
        scratch.adjacency(&played[bounds[k]..bounds[k + 1]]);
        scratch.rate(&mut state, settings);
        history.periods.push(Period::from_ordinal(base + k as i64));
        history.ratings.extend_from_slice(&state);
        history.games.extend_from_slice(&scratch.degree);
    }
}

/// The games by period, in input order within each: a counting sort. The
/// games of period `k` (by `index`) are `played[bounds[k]..bounds[k + 1]]`;
/// those outside the periods rated are left out.
fn games_by_period(
    games: &[Game],
    count: usize,
    index: impl Fn(Period) -> Option<usize>,
) -> (Vec<usize>, Vec<Played>) {
    let mut bounds = vec![0usize; count + 1];
    for game in games {
        if let Some(k) = index(game.period) {
            bounds[k + 1] += 1;
        }
    }
    for k in 0..count {
        bounds[k + 1] += bounds[k];
    }
    let mut fill = bounds[..count].to_vec();
    let blank = Played {
        first: 0,
        second: 0,
        score: 0.0,
    };
    let mut played = vec![blank; bounds[count]];
    for game in games {
        if let Some(k) = index(game.period) {
            debug_assert_ne!(game.first, game.second, "a self-game in {}", game.period);
            debug_assert!((0.0..=1.0).contains(&game.score), "score {}", game.score);
            played[fill[k]] = Played {
                first: game.first,
                second: game.second,
                score: game.score,
            };
            fill[k] += 1;
        }
    }
    (bounds, played)
}

/// The imports by the period (by `index`) they take effect in: (period,
/// person, rating), at most one a person.
fn imports_by_period(
    starts: &[Start],
    n: usize,
    index: impl Fn(Period) -> Option<usize>,
) -> Vec<(usize, u32, Rating)> {
    let mut imports: Vec<(usize, u32, Rating)> = starts
        .iter()
        .filter_map(|s| index(s.after.next()).map(|k| (k, s.person, s.rating)))
        .collect();
    imports.sort_by_key(|&(k, _, _)| k);
    debug_assert!(
        {
            let mut seen = vec![false; n];
            starts
                .iter()
                .all(|s| !std::mem::replace(&mut seen[s.person as usize], true))
        },
        "two imports for one person"
    );
    imports
}

/// Per-period scratch, reused: the adjacency (CSR) and each player's μ
/// and g(φ) at the start of the period, computed once per player rather
/// than once per game against them.
struct Scratch {
    /// Each player's games in the period.
    degree: Vec<u32>,
    /// Where each player's opponents and scores start.
    offsets: Vec<usize>,
    cursor: Vec<usize>,
    opponent: Vec<u32>,
    score: Vec<f64>,
    mu: Vec<f64>,
    g_of: Vec<f64>,
}

impl Scratch {
    fn new(n: usize) -> Self {
        Scratch {
            degree: vec![0u32; n],
            offsets: vec![0usize; n + 1],
            cursor: vec![0usize; n],
            opponent: Vec::new(),
            score: Vec::new(),
            mu: vec![0.0f64; n],
            g_of: vec![0.0f64; n],
        }
    }

    /// Lays out a period's games by player: each one's opponents and their
    /// scores against them.
    fn adjacency(&mut self, games: &[Played]) {
        let n = self.degree.len();
        self.degree.fill(0);
        for game in games {
            self.degree[game.first as usize] += 1;
            self.degree[game.second as usize] += 1;
        }
        for p in 0..n {
            self.offsets[p + 1] = self.offsets[p] + self.degree[p] as usize;
        }
        self.cursor.copy_from_slice(&self.offsets[..n]);
        self.opponent.resize(2 * games.len(), 0);
        self.score.resize(2 * games.len(), 0.0);
        for game in games {
            let (a, b) = (game.first as usize, game.second as usize);
            self.opponent[self.cursor[a]] = game.second;
            self.score[self.cursor[a]] = game.score;
            self.cursor[a] += 1;
            self.opponent[self.cursor[b]] = game.first;
            self.score[self.cursor[b]] = 1.0 - game.score;
            self.cursor[b] += 1;
        }
    }

    /// Rates the period laid out by [`Scratch::adjacency`] onto `state`:
    /// each player who played (a first game rates the unrated) by their
    /// games, each rated player who did not by the time gone by.
    fn rate(&mut self, state: &mut [Rating], settings: Settings) {
        for (p, rating) in state.iter_mut().enumerate() {
            if self.degree[p] > 0 {
                if !is_rated(rating) {
                    *rating = Rating::NEW;
                }
                let s = Scaled::of(*rating);
                self.mu[p] = s.mu;
                self.g_of[p] = g(s.phi);
            }
        }
        for (p, rating) in state.iter_mut().enumerate() {
            if self.degree[p] > 0 {
                let mut sums = Sums::default();
                for i in self.offsets[p]..self.offsets[p + 1] {
                    let o = self.opponent[i] as usize;
                    sums.add(self.mu[p], self.mu[o], self.g_of[o], self.score[i]);
                }
                *rating = update(*rating, sums, settings.tau);
            } else if is_rated(rating) {
                *rating = idle(*rating);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::glicko2::{rate_period, MAX_RD};
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn p(text: &str) -> Period {
        text.parse().unwrap()
    }

    fn game(period: &str, first: u32, second: u32, score: f64) -> Game {
        Game {
            period: p(period),
            first,
            second,
            score,
        }
    }

    fn settings() -> Settings {
        Settings::default()
    }

    #[test]
    fn nothing_to_rate_gives_no_periods() {
        let h = rate(3, &[], &[], p("2024-05"), settings());
        assert!(h.periods().is_empty());
        assert!(h.latest().is_none());
        let h = rate(
            3,
            &[],
            &[game("2024-06", 0, 1, 1.0)],
            p("2024-05"),
            settings(),
        );
        assert!(h.periods().is_empty());
    }

    #[test]
    fn a_first_game_rates_from_new_against_start_of_period_ratings() {
        let games = [
            game("2024-01", 0, 1, 1.0),
            game("2024-01", 1, 2, 0.5),
            game("2024-02", 0, 2, 0.0),
            game("2024-02", 0, 1, 0.5),
        ];
        let h = rate(4, &[], &games, p("2024-02"), settings());
        assert_eq!(h.periods(), &[p("2024-01"), p("2024-02")]);
        let jan = h.after(p("2024-01")).unwrap();
        let s = settings();
        let new = Rating::NEW;
        assert_eq!(jan.get(0), Some((rate_period(new, &[(new, 1.0)], s), 1)));
        let one = rate_period(new, &[(new, 0.0), (new, 0.5)], s);
        assert_eq!(jan.get(1), Some((one, 2)));
        assert_eq!(jan.get(3), None, "no game, no rating");
        let feb = h.after(p("2024-02")).unwrap();
        let (r0, r1, r2) = (jan.get(0).unwrap().0, one, jan.get(2).unwrap().0);
        let want = rate_period(r0, &[(r2, 0.0), (r1, 0.5)], s);
        assert_eq!(feb.get(0), Some((want, 2)));
        assert_eq!(feb.get(1), Some((rate_period(r1, &[(r0, 0.5)], s), 1)));
        assert_eq!(feb.get(3), None);
        assert_eq!(feb.rated().count(), 3);
        let line: Vec<_> = h.person(2).collect();
        assert_eq!(line.len(), 2);
        assert_eq!((line[0].0, line[0].2), (p("2024-01"), 1));
        assert_eq!(h.person(3).count(), 0);
    }

    #[test]
    fn an_import_starts_a_person_at_the_imported_rating() {
        let imported = Rating {
            rating: 1843.0,
            rd: 72.0,
            volatility: 0.058,
        };
        let starts = [
            Start {
                person: 0,
                rating: imported,
                after: p("2023-12"),
            },
            Start {
                person: 3,
                rating: imported,
                after: p("2024-01"),
            },
        ];
        let games = [game("2024-02", 1, 2, 1.0), game("2024-02", 3, 1, 0.5)];
        let h = rate(4, &starts, &games, p("2024-03"), settings());
        assert_eq!(
            h.periods()[0],
            p("2024-01"),
            "the import takes effect after 2023-12"
        );
        assert!(h.after(p("2023-12")).is_none());
        let jan = h.after(p("2024-01")).unwrap();
        let (r, n) = jan.get(0).unwrap();
        assert_eq!((r.rating, r.volatility, n), (1843.0, 0.058, 0));
        assert!(r.rd > 72.0 && r.rd < 73.0, "one idle month: {r:?}");
        assert_eq!(jan.get(3), None, "not yet in force");
        let feb = h.after(p("2024-02")).unwrap();
        let want = rate_period(imported, &[(Rating::NEW, 0.5)], settings());
        assert_eq!(feb.get(3), Some((want, 1)));
        assert!((feb.get(3).unwrap().0.rating - 1843.0).abs() < 20.0);
    }

    #[test]
    fn an_import_replaces_an_earlier_rating() {
        let imported = Rating {
            rating: 2100.0,
            rd: 50.0,
            volatility: 0.05,
        };
        let starts = [Start {
            person: 0,
            rating: imported,
            after: p("2024-01"),
        }];
        let games = [game("2024-01", 0, 1, 0.0)];
        let h = rate(2, &starts, &games, p("2024-02"), settings());
        assert!(h.after(p("2024-01")).unwrap().get(0).unwrap().0.rating < 1500.0);
        let feb = h.after(p("2024-02")).unwrap().get(0).unwrap().0;
        assert_eq!(feb, rate_period(imported, &[], settings()));
    }

    #[test]
    fn an_idle_period_grows_rd_and_keeps_the_rating() {
        let games = [game("2024-01", 0, 1, 1.0), game("2024-03", 1, 2, 1.0)];
        let h = rate(3, &[], &games, p("2024-04"), settings());
        let line: Vec<_> = h.person(0).collect();
        assert_eq!(line.len(), 4);
        for pair in line.windows(2) {
            let (a, b) = (pair[0].1, pair[1].1);
            assert!(b.rd > a.rd, "{pair:?}");
            assert_eq!(
                (b.rating, b.volatility, pair[1].2),
                (a.rating, a.volatility, 0)
            );
        }
        assert_eq!(h.person(2).next().unwrap().0, p("2024-03"));
    }

    #[test]
    fn games_after_until_are_left_out() {
        let mut games = vec![game("2024-01", 0, 1, 1.0), game("2024-02", 1, 2, 0.5)];
        let without = rate(3, &[], &games, p("2024-02"), settings());
        games.push(game("2024-03", 0, 2, 1.0));
        games.push(game("2025-07", 0, 1, 0.0));
        let with = rate(3, &[], &games, p("2024-02"), settings());
        assert_eq!(with, without);
        assert_eq!(with.latest().unwrap().0, p("2024-02"));
    }

    #[test]
    fn rd_never_exceeds_350() {
        let starts = [Start {
            person: 2,
            rating: Rating {
                rating: 1500.0,
                rd: 349.9,
                volatility: 0.2,
            },
            after: p("2019-12"),
        }];
        let mut games = vec![game("2020-01", 0, 1, 1.0)];
        games.push(game("2022-06", 0, 3, 0.5));
        let h = rate(4, &starts, &games, p("2022-12"), settings());
        assert_eq!(h.periods().len(), 36);
        for &period in h.periods() {
            for (person, r, _) in h.after(period).unwrap().rated() {
                assert!(r.rd <= MAX_RD, "{person} in {period}: {r:?}");
            }
        }
        let first = h.after(p("2020-01")).unwrap().get(2).unwrap().0;
        assert_eq!(first.rd, MAX_RD, "an idle month would take 349.9 past 350");
        assert_eq!(h.latest().unwrap().1.get(2).unwrap().0.rd, MAX_RD);
    }

    fn random(seed: u64, people: u32, count: usize) -> (Vec<Start>, Vec<Game>) {
        let mut rng = StdRng::seed_from_u64(seed);
        let periods = [
            p("2023-11"),
            p("2023-12"),
            p("2024-01"),
            p("2024-02"),
            p("2024-03"),
        ];
        let games = (0..count)
            .map(|_| {
                let first = rng.random_range(0..people);
                let second = (first + rng.random_range(1..people)) % people;
                let score = [0.0, 0.5, 1.0][rng.random_range(0..3)];
                let period = periods[rng.random_range(0..periods.len())];
                Game {
                    period,
                    first,
                    second,
                    score,
                }
            })
            .collect();
        let mut starts = Vec::new();
        for person in 0..people {
            if rng.random_bool(0.2) {
                let rating = Rating {
                    rating: rng.random_range(1000.0..2400.0),
                    rd: rng.random_range(40.0..350.0),
                    volatility: rng.random_range(0.04..0.09),
                };
                let after = periods[rng.random_range(0..periods.len())].prev();
                starts.push(Start {
                    person,
                    rating,
                    after,
                });
            }
        }
        (starts, games)
    }

    #[test]
    fn rate_from_any_month_is_rate() {
        for seed in 0..8 {
            let (starts, games) = random(seed, 40, 300);
            let until = p("2024-04");
            let full = rate(40, &starts, &games, until, settings());
            let early = rate(40, &starts, &games, p("2024-01"), settings());
            for from in [
                "2023-09", "2023-11", "2023-12", "2024-02", "2024-04", "2024-06",
            ] {
                let again = rate_from(&full, p(from), &starts, &games, until, settings());
                assert_eq!(again, full, "seed {seed} from {from}");
                let on = rate_from(&early, p(from), &starts, &games, until, settings());
                assert_eq!(on, full, "seed {seed} from {from}, extending");
            }
            // A month's games changed: only that month on is recomputed.
            let mut changed = games.clone();
            changed.retain(|g| g.period != p("2024-02") || g.first % 3 != 0);
            let fresh = rate(40, &starts, &changed, until, settings());
            let again = rate_from(&full, p("2024-02"), &starts, &changed, until, settings());
            assert_eq!(again, fresh, "seed {seed}");
            assert_ne!(fresh, full);
        }
    }

    #[test]
    fn rate_from_recomputes_what_moved_before_from() {
        let (starts, games) = random(99, 30, 200);
        let until = p("2024-03");
        let full = rate(30, &starts, &games, until, settings());
        let mut earlier = games.clone();
        earlier.push(game("2023-06", 0, 1, 1.0));
        let again = rate_from(&full, p("2024-03"), &starts, &earlier, until, settings());
        assert_eq!(again, rate(30, &starts, &earlier, until, settings()));
        let none = rate_from(&full, p("2024-03"), &[], &[], until, settings());
        assert!(none.periods().is_empty());
    }
}

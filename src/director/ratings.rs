//! The federation's ratings: every game between two people of the registry,
//! rated by Glicko-2 month by month (`crate::rating`). Nothing rated is
//! stored; a [`Book`] is computed from the games and kept until a change is
//! recorded anywhere, then recomputed from the first month whose games or
//! imports differ (docs/ratings.md).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chrono::NaiveDate;

use crate::db::people::{self, Person, PlayedGame};
use crate::db::{DbConnection, DbError};
use crate::ids::{EntryId, GameId, PersonId, TournamentId};
use crate::rating::{self, Game, History, Period, Rating, Settings, Start};

/// The ratings at one moment: the people, the inputs and their history.
pub struct Book {
    /// The newest recorded change when the book was computed.
    stamp: i32,
    /// The month rated as if it ended now.
    pub until: Period,
    /// Everyone in the registry, by id; a person's index here is their
    /// index in the history.
    pub people: Vec<Person>,
    index: HashMap<PersonId, u32>,
    starts: Vec<Start>,
    /// Sorted by period (the order the games are stored in within one).
    games: Vec<Game>,
    pub history: History,
}

/// A person's line of the rating list.
#[derive(Debug, Clone)]
pub struct Listed<'a> {
    pub person: &'a Person,
    pub rating: Rating,
    /// Games rated in the period.
    pub games: u32,
    /// Games rated up to the period, the period's included.
    pub total: u32,
}

impl Book {
    pub fn index_of(&self, person: PersonId) -> Option<u32> {
        self.index.get(&person).copied()
    }

    /// The person's rating after the latest period, if rated.
    pub fn current(&self, person: PersonId) -> Option<Rating> {
        let i = self.index_of(person)?;
        let (_, snapshot) = self.history.latest()?;
        snapshot.get(i).map(|(r, _)| r)
    }

    /// The person's line: their first rated month, every month they
    /// played in, and the latest month (their current rating). Months in
    /// which nothing happened to them are left out, so the line grows with
    /// the games a person plays, never with the calendar.
    pub fn line(&self, person: PersonId) -> Vec<(Period, Rating, u32)> {
        let Some(i) = self.index_of(person) else {
            return Vec::new();
        };
        let all: Vec<(Period, Rating, u32)> = self.history.person(i).collect();
        let last = all.len().saturating_sub(1);
        all.into_iter()
            .enumerate()
            .filter(|(k, (_, _, games))| *k == 0 || *k == last || *games > 0)
            .map(|(_, row)| row)
            .collect()
    }

    /// Everyone rated after `period`, best first (ties by name, then id);
    /// people merged away are not listed. A month before the first rated
    /// one lists nobody.
    pub fn list(&self, period: Period) -> Vec<Listed<'_>> {
        let Some(snapshot) = self.history.after(period) else {
            return Vec::new();
        };
        // The games are sorted by period: those up to `period` come first.
        let mut totals = vec![0u32; self.people.len()];
        for g in self.games.iter().take_while(|g| g.period <= period) {
            for p in [g.first, g.second] {
                if let Some(n) = totals.get_mut(p as usize) {
                    *n += 1;
                }
            }
        }
        let mut rows: Vec<Listed> = snapshot
            .rated()
            .filter_map(|(i, rating, games)| {
                let person = &self.people[i as usize];
                person.merged_into.is_none().then_some(Listed {
                    person,
                    rating,
                    games,
                    total: totals.get(i as usize).copied().unwrap_or(0),
                })
            })
            .collect();
        rows.sort_by(|a, b| {
            b.rating
                .rating
                .total_cmp(&a.rating.rating)
                .then_with(|| a.person.name.cmp(&b.person.name))
                .then_with(|| a.person.id.cmp(&b.person.id))
        });
        rows
    }
}

/// The server's ratings, computed on demand and kept.
pub struct Ratings {
    settings: Settings,
    book: Mutex<Option<Arc<Book>>>,
    /// Each tournament's games played on the board, as last read, with the
    /// tournament's revision then: a change reads again only the
    /// tournaments it touched (a result, a round's day), not a million
    /// games.
    games: Mutex<HashMap<TournamentId, Kept>>,
}

/// A tournament's revision and its games played on the board then.
type Kept = (i32, Arc<Vec<PlayedGame>>);

impl Ratings {
    pub fn new(settings: Settings) -> Ratings {
        Ratings {
            settings,
            book: Mutex::new(None),
            games: Mutex::new(HashMap::new()),
        }
    }

    /// Every game played on the board, by tournament, reading again only
    /// the tournaments whose revision moved (and forgetting deleted ones).
    fn played(&self, conn: &mut DbConnection) -> Result<Vec<Arc<Vec<PlayedGame>>>, DbError> {
        let revisions = people::revisions(conn)?;
        let mut kept = self.games.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|tid, _| revisions.iter().any(|(t, _)| t == tid));
        let mut all = Vec::with_capacity(revisions.len());
        for (tid, revision) in revisions {
            match kept.get(&tid) {
                Some((r, games)) if *r == revision => all.push(games.clone()),
                _ => {
                    let games = Arc::new(people::games(conn, people::Of::Tournament(tid))?);
                    kept.insert(tid, (revision, games.clone()));
                    all.push(games);
                }
            }
        }
        Ok(all)
    }

    /// The ratings as of now: the kept book while nothing was recorded
    /// since and the month is the same, else a new one, recomputed from the
    /// first month that changed. One computation at a time; readers who
    /// arrive meanwhile wait for it and share it.
    pub fn book(&self, conn: &mut DbConnection, today: NaiveDate) -> Result<Arc<Book>, DbError> {
        let stamp = people::stamp(conn)?;
        let until = Period::of(today);
        let mut kept = self.book.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(book) = kept.as_ref() {
            if book.stamp == stamp && book.until == until {
                return Ok(book.clone());
            }
        }
        let book = Arc::new(self.compute(conn, stamp, until, kept.as_deref())?);
        *kept = Some(book.clone());
        Ok(book)
    }

    fn compute(
        &self,
        conn: &mut DbConnection,
        stamp: i32,
        until: Period,
        previous: Option<&Book>,
    ) -> Result<Book, DbError> {
        let everyone = people::all(conn)?;
        let index: HashMap<PersonId, u32> = everyone
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id, i as u32))
            .collect();
        let mut starts = starts_of(&everyone);
        // Nothing is rated before the earliest day a date may take: an
        // import from before it takes effect in that first month.
        let before_first = Period::of(crate::calendar::earliest()).prev();
        for s in &mut starts {
            s.after = s.after.max(before_first);
        }
        let entry_person: HashMap<EntryId, u32> = people::entry_people(conn)?
            .into_iter()
            .filter_map(|(entry, person)| Some((entry, *index.get(&person)?)))
            .collect();
        let played = self.played(conn)?;
        let mut games: Vec<(Game, (NaiveDate, GameId))> = played
            .iter()
            .flat_map(|t| t.iter())
            .filter_map(|g| {
                let first = *entry_person.get(&g.first)?;
                let second = *entry_person.get(&g.second)?;
                (first != second).then_some((
                    Game {
                        period: Period::of(g.played_on),
                        first,
                        second,
                        score: g.played_score_of(g.first)?,
                    },
                    (g.played_on, g.game_id),
                ))
            })
            .collect();
        // By month, and within one by day and game (the order the games
        // were played in, whichever tournament they belong to).
        games.sort_by_key(|g| (g.0.period, g.1));
        let games: Vec<Game> = games.into_iter().map(|(g, _)| g).collect();
        let history = match previous.and_then(|p| changed_from(p, &everyone, &starts, &games)) {
            Some(from) => {
                let previous = previous.map(|p| &p.history).expect("checked");
                rating::rate_from(previous, from, &starts, &games, until, self.settings)
            }
            None => rating::rate(everyone.len(), &starts, &games, until, self.settings),
        };
        Ok(Book {
            stamp,
            until,
            people: everyone,
            index,
            starts,
            games,
            history,
        })
    }
}

/// The imported ratings by person index. A person merged away lends theirs
/// to whoever they are merged into when that person has none of their own
/// (the first such by id), so that a merge never loses a rating brought in
/// and an undo finds every row as it was.
fn starts_of(everyone: &[Person]) -> Vec<Start> {
    let index: HashMap<PersonId, usize> = everyone
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id, i))
        .collect();
    let root = |mut p: usize| {
        while let Some(&into) = everyone[p].merged_into.and_then(|id| index.get(&id)) {
            p = into;
        }
        &everyone[p]
    };
    let mut by_person: HashMap<PersonId, Start> = HashMap::new();
    for (i, p) in everyone.iter().enumerate() {
        let Some(start) = p.start() else { continue };
        let owner = root(i);
        let own = owner.id == p.id;
        if own || (owner.start().is_none() && !by_person.contains_key(&owner.id)) {
            by_person.insert(
                owner.id,
                Start {
                    person: index[&owner.id] as u32,
                    rating: start.rating,
                    after: start.after,
                },
            );
        }
    }
    let mut starts: Vec<Start> = by_person.into_values().collect();
    starts.sort_by_key(|s| s.person);
    starts
}

/// The first month the previous book cannot be reused from, or `None` when
/// nothing of it can (other people: a merge or a new person moves indices).
fn changed_from(
    previous: &Book,
    everyone: &[Person],
    starts: &[Start],
    games: &[Game],
) -> Option<Period> {
    let same_people = previous.people.len() == everyone.len()
        && previous
            .people
            .iter()
            .zip(everyone)
            .all(|(a, b)| a.id == b.id && a.merged_into == b.merged_into);
    if !same_people {
        return None;
    }
    let mut from: Option<Period> = None;
    let mut earliest = |p: Period| from = Some(from.map_or(p, |f: Period| f.min(p)));
    if previous.starts != starts {
        for s in previous.starts.iter().chain(starts) {
            if !previous.starts.contains(s) || !starts.contains(s) {
                earliest(s.after.next());
            }
        }
    }
    // The first game that differs, walking both in order.
    let differs = previous
        .games
        .iter()
        .zip(games)
        .position(|(a, b)| a != b)
        .or((previous.games.len() != games.len()).then(|| previous.games.len().min(games.len())));
    if let Some(i) = differs {
        let a = previous.games.get(i).map(|g| g.period);
        let b = games.get(i).map(|g| g.period);
        match (a, b) {
            (Some(a), Some(b)) => earliest(a.min(b)),
            (Some(p), None) | (None, Some(p)) => earliest(p),
            (None, None) => {}
        }
    }
    // Nothing changed in the games or imports: the new month (or nothing)
    // is what is left to rate.
    Some(from.unwrap_or(previous.until))
}

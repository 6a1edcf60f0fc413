//! A season table: points for places across a season's events, the best
//! few results counting, ranked with a countback.
//!
//! A season rewards turning up and finishing high, not the rating of the
//! field, so it is scored by place from a points table (the motor-racing
//! scale by default, which clubs already know), not by game points. It
//! takes each event's final standings as places, after every tiebreak the
//! event itself applied, and only splits what those tiebreaks could not.

use std::cmp::Ordering;

/// 25, 18, 15, 12, 10, 8, 6, 4, 2, 1 for places 1 to 10: steep at the top
/// so winning an event matters more than finishing near the top of many.
pub const DEFAULT_POINTS: [f64; 10] = [25.0, 18.0, 15.0, 12.0, 10.0, 8.0, 6.0, 4.0, 2.0, 1.0];

/// A person's final place in one event. People the event's tiebreaks left
/// equal cover the places `place..=shared_to` together, and all of them
/// carry the same two numbers; a lone person has `shared_to == place`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// An opaque id: the table ranks whoever the caller names.
    pub person: u32,
    pub place: u32,
    pub shared_to: u32,
}

/// One event of the season.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// What the event's points are multiplied by (a championship worth
    /// double is 2).
    pub weight: f64,
    pub places: Vec<Place>,
}

/// What one event gave a person.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EventResult {
    /// The event's index in the input.
    pub event: usize,
    /// The first of the places the person covered (as countback reads it).
    pub place: u32,
    pub points: f64,
    /// Whether it is among the person's best results; a dropped result is
    /// still listed, so a reader sees what it would have given.
    pub counted: bool,
}

/// One line of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Shared by people equal on points and countback; the next rank skips
    /// as many as shared (1, 2, 2, 4).
    pub rank: u32,
    pub person: u32,
    /// The sum of the counted results.
    pub points: f64,
    /// In event order.
    pub results: Vec<EventResult>,
}

/// What `place` is worth before the event's weight: people who share
/// places share their points equally, since nothing the event measured
/// put one ahead of the other; places past the table are worth nothing.
fn place_points(points: &[f64], place: &Place) -> f64 {
    debug_assert!(
        place.place >= 1 && place.shared_to >= place.place,
        "{place:?}"
    );
    let last = place.shared_to.max(place.place);
    let covered = f64::from(last - place.place + 1);
    let sum: f64 = (place.place..=last)
        .map_while(|p| (p as usize).checked_sub(1).map(|i| points.get(i)))
        .map_while(|p| p.copied())
        .sum();
    sum / covered
}

/// Points as compared: shares are averages and weights may be fractions,
/// so two totals that are equal on paper can differ in the last bit of a
/// float; to 1e-9 of a point they are the same.
fn key(points: f64) -> i64 {
    (points * 1e9).round() as i64
}

/// Countback on places sorted ascending: more first places ahead, then
/// more second places, and so on. At the first difference the list with
/// the better place there has more of that place; when one list is the
/// other's start, the longer has more of the next place.
fn countback(a: &[u32], b: &[u32]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x.cmp(y);
        }
    }
    b.len().cmp(&a.len())
}

/// The season table of `events` scored with the points table `points`
/// ([`DEFAULT_POINTS`] as a rule), counting each person's `best` results
/// (`None`: all of them).
///
/// The best results are those with the most points; between results of
/// equal points the one from the earlier event (in input order) counts,
/// so which result is dropped is fixed and never depends on sort order.
///
/// People are ranked by counted points, then by countback over all their
/// results of the season, counted or dropped (a shared place counts as
/// its first place): dropping a result is about points, and a win is
/// still a win. People still equal share the rank. Rows come by rank,
/// then person id.
pub fn table(points: &[f64], best: Option<usize>, events: &[Event]) -> Vec<Row> {
    let mut all: Vec<(u32, EventResult)> = Vec::new();
    for (event, e) in events.iter().enumerate() {
        for place in &e.places {
            let result = EventResult {
                event,
                place: place.place,
                points: place_points(points, place) * e.weight,
                counted: false,
            };
            all.push((place.person, result));
        }
    }
    // Stable: each person's results stay in event order.
    all.sort_by_key(|&(person, _)| person);

    struct Line {
        row: Row,
        places: Vec<u32>,
    }
    let mut lines: Vec<Line> = all
        .chunk_by(|a, b| a.0 == b.0)
        .map(|chunk| {
            let mut results: Vec<EventResult> = chunk.iter().map(|&(_, r)| r).collect();
            let mut order: Vec<usize> = (0..results.len()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(key(results[i].points)));
            let count = best.unwrap_or(results.len()).min(results.len());
            let mut total = 0.0;
            for &i in &order[..count] {
                results[i].counted = true;
                total += results[i].points;
            }
            let mut places: Vec<u32> = results.iter().map(|r| r.place).collect();
            places.sort_unstable();
            Line {
                row: Row {
                    rank: 0,
                    person: chunk[0].0,
                    points: total,
                    results,
                },
                places,
            }
        })
        .collect();

    let level = |a: &Line, b: &Line| {
        key(b.row.points)
            .cmp(&key(a.row.points))
            .then_with(|| countback(&a.places, &b.places))
    };
    lines.sort_by(|a, b| level(a, b).then(a.row.person.cmp(&b.row.person)));
    for i in 0..lines.len() {
        lines[i].row.rank = if i > 0 && level(&lines[i - 1], &lines[i]).is_eq() {
            lines[i - 1].row.rank
        } else {
            i as u32 + 1
        };
    }
    lines.into_iter().map(|l| l.row).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    // The people of a small club season, by id.
    const THABO: u32 = 7;
    const NALEDI: u32 = 3;
    const SIPHO: u32 = 12;
    const LERATO: u32 = 5;
    const BONGANI: u32 = 9;
    const ZANELE: u32 = 21;

    fn alone(person: u32, place: u32) -> Place {
        Place {
            person,
            place,
            shared_to: place,
        }
    }

    fn shared(person: u32, place: u32, shared_to: u32) -> Place {
        Place {
            person,
            place,
            shared_to,
        }
    }

    fn event(weight: f64, places: Vec<Place>) -> Event {
        Event { weight, places }
    }

    fn row(rows: &[Row], person: u32) -> &Row {
        rows.iter().find(|r| r.person == person).unwrap()
    }

    #[test]
    fn shared_places_share_their_points() {
        let open = event(
            1.0,
            vec![
                alone(THABO, 1),
                shared(NALEDI, 2, 3),
                shared(SIPHO, 2, 3),
                alone(LERATO, 4),
            ],
        );
        let rows = table(&DEFAULT_POINTS, None, &[open]);
        assert_eq!(row(&rows, NALEDI).points, 16.5);
        assert_eq!(row(&rows, SIPHO).points, 16.5);
        assert_eq!(row(&rows, NALEDI).results[0].place, 2);
        let ranks: Vec<(u32, u32)> = rows.iter().map(|r| (r.rank, r.person)).collect();
        assert_eq!(ranks, [(1, THABO), (2, NALEDI), (2, SIPHO), (4, LERATO)]);
    }

    #[test]
    fn a_weight_of_two_doubles_the_points() {
        let club = event(1.0, vec![alone(THABO, 1), alone(NALEDI, 2)]);
        let championship = event(2.0, vec![alone(NALEDI, 1), shared(THABO, 2, 3)]);
        let rows = table(&DEFAULT_POINTS, None, &[club, championship]);
        assert_eq!(row(&rows, NALEDI).results[1].points, 50.0);
        assert_eq!(row(&rows, NALEDI).points, 68.0);
        assert_eq!(row(&rows, THABO).results[1].points, 33.0);
        assert_eq!(row(&rows, THABO).points, 58.0);
        assert_eq!(rows[0].person, NALEDI);
    }

    #[test]
    fn the_best_two_of_three_count() {
        let events = [
            event(1.0, vec![alone(THABO, 3), alone(NALEDI, 1)]),
            event(1.0, vec![alone(THABO, 1), alone(NALEDI, 6)]),
            event(1.0, vec![alone(THABO, 2), alone(NALEDI, 2)]),
        ];
        let rows = table(&DEFAULT_POINTS, Some(2), &events);
        let thabo = row(&rows, THABO);
        assert_eq!(thabo.points, 43.0);
        let counted: Vec<bool> = thabo.results.iter().map(|r| r.counted).collect();
        assert_eq!(counted, [false, true, true]);
        assert_eq!(
            thabo.results[0].points, 15.0,
            "a dropped result keeps its points"
        );
        let naledi = row(&rows, NALEDI);
        assert_eq!(naledi.points, 43.0);
        let counted: Vec<bool> = naledi.results.iter().map(|r| r.counted).collect();
        assert_eq!(counted, [true, false, true]);
    }

    #[test]
    fn of_equal_results_the_earlier_event_counts() {
        let events = [
            event(1.0, vec![alone(SIPHO, 4)]),
            event(1.0, vec![alone(SIPHO, 2)]),
            event(1.0, vec![alone(SIPHO, 4)]),
        ];
        let rows = table(&DEFAULT_POINTS, Some(2), &events);
        let counted: Vec<bool> = rows[0].results.iter().map(|r| r.counted).collect();
        assert_eq!(counted, [true, true, false]);
        assert_eq!(rows[0].points, 30.0);
    }

    #[test]
    fn countback_decides_a_tie_on_points() {
        // Lerato (2nd, 7th, 10th: 18 + 6 + 1) and Bongani (1st: 25) are
        // level on points; Bongani's win comes first.
        let events = [
            event(
                1.0,
                vec![alone(BONGANI, 1), alone(LERATO, 2), alone(ZANELE, 3)],
            ),
            event(1.0, vec![alone(ZANELE, 1), alone(LERATO, 7)]),
            event(1.0, vec![alone(LERATO, 10), alone(ZANELE, 12)]),
        ];
        let rows = table(&DEFAULT_POINTS, None, &events);
        let ranks: Vec<(u32, u32, f64)> =
            rows.iter().map(|r| (r.rank, r.person, r.points)).collect();
        assert_eq!(
            ranks,
            [(1, ZANELE, 40.0), (2, BONGANI, 25.0), (3, LERATO, 25.0)],
            "a win beats a second, however many results follow"
        );
    }

    #[test]
    fn countback_reads_dropped_results_and_then_lower_places() {
        // Both count 25 + 18 = 43 of their best two; Sipho's dropped third
        // place beats Thabo's dropped fourth.
        let events = [
            event(1.0, vec![alone(THABO, 1), alone(SIPHO, 2)]),
            event(1.0, vec![alone(SIPHO, 1), alone(THABO, 2)]),
            event(1.0, vec![alone(SIPHO, 3), alone(THABO, 4)]),
        ];
        let rows = table(&DEFAULT_POINTS, Some(2), &events);
        let ranks: Vec<(u32, u32)> = rows.iter().map(|r| (r.rank, r.person)).collect();
        assert_eq!(ranks, [(1, SIPHO), (2, THABO)]);
        assert_eq!(rows[0].points, rows[1].points);
    }

    #[test]
    fn a_full_tie_shares_the_rank_and_the_next_skips() {
        let events = [
            event(
                1.0,
                vec![alone(THABO, 1), alone(NALEDI, 2), alone(SIPHO, 3)],
            ),
            event(
                1.0,
                vec![alone(THABO, 1), alone(SIPHO, 2), alone(NALEDI, 3)],
            ),
            event(1.0, vec![alone(LERATO, 1)]),
        ];
        let rows = table(&DEFAULT_POINTS, None, &events);
        let ranks: Vec<(u32, u32)> = rows.iter().map(|r| (r.rank, r.person)).collect();
        assert_eq!(ranks, [(1, THABO), (2, NALEDI), (2, SIPHO), (4, LERATO)]);
    }

    #[test]
    fn equal_on_paper_is_equal_despite_float_rounding() {
        // 0.1 + 0.2 differs from 0.3 in the last bit.
        let points = [0.1, 0.2, 0.3];
        let events = [
            event(
                1.0,
                vec![alone(NALEDI, 1), alone(THABO, 2), alone(SIPHO, 3)],
            ),
            event(1.0, vec![alone(THABO, 1)]),
        ];
        let rows = table(&points, None, &events);
        assert_eq!(
            (row(&rows, THABO).points, row(&rows, SIPHO).points),
            (0.1 + 0.2, 0.3)
        );
        assert_ne!(0.1 + 0.2, 0.3);
        // Level on points; Thabo's first place wins the countback.
        let ranks: Vec<(u32, u32)> = rows.iter().map(|r| (r.rank, r.person)).collect();
        assert_eq!(ranks, [(1, THABO), (2, SIPHO), (3, NALEDI)]);
    }

    #[test]
    fn places_past_the_table_give_nothing() {
        let big = event(
            1.0,
            vec![
                alone(THABO, 9),
                shared(NALEDI, 10, 11),
                shared(SIPHO, 10, 11),
                alone(LERATO, 12),
                shared(BONGANI, 13, 14),
                shared(ZANELE, 13, 14),
            ],
        );
        let rows = table(&DEFAULT_POINTS, None, &[big]);
        assert_eq!(row(&rows, THABO).points, 2.0);
        assert_eq!(row(&rows, NALEDI).points, 0.5);
        assert_eq!(row(&rows, LERATO).points, 0.0);
        assert_eq!(row(&rows, ZANELE).points, 0.0);
        let ranks: Vec<(u32, u32)> = rows.iter().map(|r| (r.rank, r.person)).collect();
        assert_eq!(
            ranks,
            [
                (1, THABO),
                (2, NALEDI),
                (2, SIPHO),
                (4, LERATO),
                (5, BONGANI),
                (5, ZANELE)
            ],
            "a 12th place is still ahead of a 13th on countback"
        );
    }

    #[test]
    fn no_events_no_rows() {
        assert!(table(&DEFAULT_POINTS, Some(3), &[]).is_empty());
    }
}

/// A season as asked for, checked: its name, its points table, how many
/// results count, and its events with their weights. Whether each event
/// exists and is an individual one is the database's to say.
#[derive(Debug, Clone, PartialEq)]
pub struct SeasonFields {
    pub name: String,
    pub points: Vec<f64>,
    pub best: Option<usize>,
    /// (tournament id, weight), in the order given.
    pub events: Vec<(i32, f64)>,
}

/// The most places a points table scores, and the most points a place
/// gives: more is a typing error, not a season.
pub const MAX_POINTS_PLACES: usize = 100;
pub const MAX_PLACE_POINTS: i64 = 1000;
pub const MAX_WEIGHT: i64 = 100;
/// The most results that may count: what the stored column holds (a
/// larger number was stored wrapped, -1 for 2^32 - 1).
pub const MAX_BEST: i64 = i32::MAX as i64;

impl SeasonFields {
    /// Checks every field; `points` and `weight` default to the usual table
    /// and 1.
    pub fn check(
        name: &str,
        points: Option<&[f64]>,
        best: Option<i64>,
        events: &[(i32, Option<f64>)],
    ) -> Result<SeasonFields, Vec<crate::field::FieldError>> {
        use crate::field::{FieldError, Problem};
        let mut errors = Vec::new();
        errors.extend(crate::roster::check_printable("name", name).err());
        // The length as sent, before spaces are tidied (as every name's).
        let sent = name.chars().count();
        let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
        if name.is_empty() {
            errors.push(FieldError::new("name", Problem::Empty));
        } else if sent > 100 {
            errors.push(FieldError::new("name", Problem::TooLong { max: 100 }));
        }
        let points = points.map_or(DEFAULT_POINTS.to_vec(), <[f64]>::to_vec);
        if points.is_empty() {
            errors.push(FieldError::new("points", Problem::Empty));
        } else if points.len() > MAX_POINTS_PLACES {
            errors.push(FieldError::new(
                "points",
                Problem::TooMany {
                    max: MAX_POINTS_PLACES,
                },
            ));
        } else if let Some(bad) = points
            .iter()
            .find(|p| !p.is_finite() || **p < 0.0 || **p > MAX_PLACE_POINTS as f64)
        {
            errors.push(FieldError::new(
                "points",
                Problem::DecimalOutOfRange {
                    text: bad.to_string(),
                    min: 0,
                    max: MAX_PLACE_POINTS,
                },
            ));
        }
        let best = match best {
            None => None,
            Some(n) if (1..=MAX_BEST).contains(&n) => Some(n as usize),
            Some(n) if n < 1 => {
                errors.push(FieldError::new("best", Problem::BelowOne { value: n }));
                None
            }
            Some(n) => {
                errors.push(FieldError::new(
                    "best",
                    Problem::OutOfRange {
                        value: n,
                        min: 1,
                        max: MAX_BEST,
                    },
                ));
                None
            }
        };
        let mut seen = std::collections::HashSet::new();
        let mut checked = Vec::with_capacity(events.len());
        for &(tournament, weight) in events {
            if !seen.insert(tournament) {
                errors.push(FieldError::new("events", Problem::Twice { id: tournament }));
            }
            let weight = weight.unwrap_or(1.0);
            if !weight.is_finite() || weight <= 0.0 || weight > MAX_WEIGHT as f64 {
                errors.push(FieldError::new(
                    "weight",
                    Problem::DecimalOutOfRange {
                        text: weight.to_string(),
                        min: 0,
                        max: MAX_WEIGHT,
                    },
                ));
            }
            checked.push((tournament, weight));
        }
        if events.is_empty() {
            errors.push(FieldError::new("events", Problem::NoEvent));
        }
        if errors.is_empty() {
            Ok(SeasonFields {
                name,
                points,
                best,
                events: checked,
            })
        } else {
            Err(errors)
        }
    }
}

#[cfg(test)]
mod fields_tests {
    use super::*;
    use crate::field::Problem;

    #[test]
    fn defaults_and_refusals() {
        let s = SeasonFields::check(
            "Free State Grand Prix 2026",
            None,
            None,
            &[(3, None), (5, Some(2.0))],
        )
        .unwrap();
        assert_eq!(s.points, DEFAULT_POINTS.to_vec());
        assert_eq!(s.events, vec![(3, 1.0), (5, 2.0)]);
        let e = SeasonFields::check(
            "",
            Some(&[25.0, -1.0]),
            Some(0),
            &[(3, None), (3, Some(0.0))],
        )
        .unwrap_err();
        let fields: Vec<_> = e.iter().map(|e| e.field).collect();
        assert_eq!(fields, vec!["name", "points", "best", "events", "weight"]);
        assert_eq!(e[3].problem, Problem::Twice { id: 3 });
    }

    #[test]
    fn a_season_needs_an_event() {
        let e = SeasonFields::check("Highveld Circuit 2027", None, Some(3), &[]).unwrap_err();
        assert_eq!(e.len(), 1);
        assert_eq!((e[0].field, &e[0].problem), ("events", &Problem::NoEvent));
    }

    #[test]
    fn the_results_that_count_are_no_more_than_the_column_holds() {
        let events = [(1, None)];
        let most = SeasonFields::check("Highveld Circuit 2027", None, Some(MAX_BEST), &events);
        assert_eq!(most.unwrap().best, Some(i32::MAX as usize));
        let e = SeasonFields::check("Highveld Circuit 2027", None, Some(4_294_967_295), &events)
            .unwrap_err();
        assert_eq!(e[0].field, "best");
    }
}

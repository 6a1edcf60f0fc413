//! The days a tournament and its rounds may take.
//!
//! A tournament's dates lie between 2000-01-01 (no event of a federation's
//! history that Kraal keeps is older) and two years from today; the last
//! day is not before the first. A round is played within its tournament's
//! dates; where the tournament has none, between 2000-01-01 and a year
//! from today, so that a federation can still enter its history. Every way
//! a date comes in (the tournament's form and API, a round's date, a
//! pairing with a date, an event file) asks these functions, with "today"
//! given by the caller.
//!
//! A round stored before these rules with a date outside its bounds keeps
//! working in its event, but is left out of the ratings and keeps its event
//! from being exported or published until a referee corrects it.

use chrono::{Months, NaiveDate};

use crate::field::{FieldError, Problem};

/// The earliest day any date may be: the ratings begin no earlier.
pub fn earliest() -> NaiveDate {
    NaiveDate::from_ymd_opt(2000, 1, 1).unwrap_or(NaiveDate::MIN)
}

/// The first and last day a date may take, both included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub first: NaiveDate,
    pub last: NaiveDate,
}

impl Range {
    pub fn holds(&self, day: NaiveDate) -> bool {
        self.first <= day && day <= self.last
    }

    /// `day` brought within the range (its first day if the range is empty).
    pub fn clamp(&self, day: NaiveDate) -> NaiveDate {
        if day > self.last {
            self.last
        } else if day < self.first {
            self.first
        } else {
            day
        }
        .max(self.first)
    }
}

fn months_on(today: NaiveDate, months: u32) -> NaiveDate {
    today
        .checked_add_months(Months::new(months))
        .unwrap_or(NaiveDate::MAX)
}

/// The days a tournament's own dates may take: 2000-01-01 to two years
/// from today.
pub fn tournament_range(today: NaiveDate) -> Range {
    Range {
        first: earliest(),
        last: months_on(today, 24),
    }
}

/// The days a round of a tournament with these dates may be played on:
/// the tournament's dates; a missing first day is 2000-01-01 and a missing
/// last day a year from today (or the first day, if that is later). Never
/// before 2000-01-01 nor past two years from today, whatever is stored.
pub fn round_range(
    starts_on: Option<NaiveDate>,
    ends_on: Option<NaiveDate>,
    today: NaiveDate,
) -> Range {
    let outer = tournament_range(today);
    let first = starts_on.unwrap_or(outer.first).max(outer.first);
    let last = ends_on
        .unwrap_or_else(|| months_on(today, 12).max(first))
        .min(outer.last);
    Range { first, last }
}

/// The tournament's dates checked: each within [`tournament_range`] (the
/// last day not before the first is checked with the other fields).
pub fn check_tournament(
    starts_on: Option<NaiveDate>,
    ends_on: Option<NaiveDate>,
    today: NaiveDate,
) -> Vec<FieldError> {
    let range = tournament_range(today);
    [("starts_on", starts_on), ("ends_on", ends_on)]
        .into_iter()
        .filter_map(|(field, day)| {
            let day = day?;
            (!range.holds(day)).then(|| outside(field, day, range))
        })
        .collect()
}

/// A round's day checked against its range, refused under `field`.
pub fn check_round(field: &'static str, day: NaiveDate, range: Range) -> Result<(), FieldError> {
    if range.holds(day) {
        Ok(())
    } else {
        Err(outside(field, day, range))
    }
}

fn outside(field: &'static str, date: NaiveDate, range: Range) -> FieldError {
    FieldError::new(
        field,
        Problem::DateOutside {
            date,
            first: range.first,
            last: range.last,
        },
    )
}

/// The day a new round is played on when none is given: today while
/// today lies within the tournament's dates (or the tournament has none);
/// otherwise the tournament's first day for round 1 and the previous
/// round's day for a later one, kept within the round's range.
pub fn default_round_day(
    number: i32,
    starts_on: Option<NaiveDate>,
    ends_on: Option<NaiveDate>,
    previous: Option<NaiveDate>,
    today: NaiveDate,
) -> NaiveDate {
    let range = round_range(starts_on, ends_on, today);
    if (starts_on.is_none() && ends_on.is_none()) || range.holds(today) {
        return range.clamp(today);
    }
    match previous {
        Some(day) if number > 1 => range.clamp(day),
        _ => range.clamp(starts_on.unwrap_or(range.first)),
    }
}

/// A stored round whose day lies outside its bounds: left out of the
/// ratings and in the way of the event's export until it is corrected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutOfBounds {
    pub tournament_id: i32,
    pub tournament: String,
    pub round: i32,
    pub date: NaiveDate,
    pub range: Range,
}

/// The refusal of an export or a publication for a round outside its
/// bounds, naming the round, its day and the days it may take.
pub fn export_refused(round: i32, date: NaiveDate, range: Range) -> FieldError {
    FieldError::new(
        "rounds",
        Problem::RoundDateOutside {
            round,
            date,
            first: range.first,
            last: range.last,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    #[test]
    fn a_tournament_lies_between_2000_and_two_years_from_today() {
        let today = d("2026-11-28");
        assert!(check_tournament(Some(d("2000-01-01")), Some(d("2028-11-28")), today).is_empty());
        let refused = check_tournament(Some(d("1066-10-14")), Some(d("2028-11-29")), today);
        assert_eq!(
            refused,
            vec![
                FieldError::new(
                    "starts_on",
                    Problem::DateOutside {
                        date: d("1066-10-14"),
                        first: d("2000-01-01"),
                        last: d("2028-11-28")
                    }
                ),
                FieldError::new(
                    "ends_on",
                    Problem::DateOutside {
                        date: d("2028-11-29"),
                        first: d("2000-01-01"),
                        last: d("2028-11-28")
                    }
                ),
            ]
        );
    }

    #[test]
    fn a_round_lies_within_its_tournament_or_else_a_year_from_today() {
        let today = d("2026-11-28");
        let event = round_range(Some(d("2026-12-05")), Some(d("2026-12-06")), today);
        assert_eq!(
            (event.first, event.last),
            (d("2026-12-05"), d("2026-12-06"))
        );
        assert!(check_round("date", d("2026-12-04"), event).is_err());
        let none = round_range(None, None, today);
        assert_eq!((none.first, none.last), (d("2000-01-01"), d("2027-11-28")));
        assert!(check_round("date", d("1066-10-14"), none).is_err());
        assert!(check_round("date", d("2003-05-17"), none).is_ok());
        let open = round_range(Some(d("2026-01-10")), None, today);
        assert_eq!(open.last, d("2027-11-28"));
    }

    #[test]
    fn a_new_round_defaults_to_today_inside_the_dates_else_to_the_event() {
        let (s, e) = (Some(d("2026-12-05")), Some(d("2026-12-07")));
        assert_eq!(
            default_round_day(1, s, e, None, d("2026-12-06")),
            d("2026-12-06")
        );
        assert_eq!(
            default_round_day(1, s, e, None, d("2026-11-28")),
            d("2026-12-05")
        );
        assert_eq!(
            default_round_day(3, s, e, Some(d("2026-12-06")), d("2026-11-28")),
            d("2026-12-06")
        );
        assert_eq!(
            default_round_day(3, s, e, Some(d("2026-12-06")), d("2027-01-15")),
            d("2026-12-06")
        );
        assert_eq!(
            default_round_day(2, None, None, Some(d("2026-01-01")), d("2026-11-28")),
            d("2026-11-28")
        );
    }
}

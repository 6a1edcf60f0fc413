//! The rating period: one calendar month.
//!
//! Glicko-2 wants enough games in a period for each player that the
//! period's result says something (the paper suggests 10-15), and club
//! play is monthly; a month is also what a federation publishes a list
//! for, so the periods a reader sees are the lists they know.

use std::fmt;
use std::str::FromStr;

use chrono::Datelike;

/// A calendar month, in UTC: the days whose games are rated together.
///
/// The fields are public so a period reads as what it is; a month outside
/// 1..=12 is a caller's mistake ([`Period::new`] and [`FromStr`] refuse
/// one). Ordered by time, since the fields are compared year first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Period {
    pub year: i32,
    pub month: u32,
}

/// Why a text is not a period: the form asks for `YYYY-MM`, and these
/// tell the writer which part to fix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PeriodError {
    /// Not four digits, a dash and two digits.
    #[error("not a month written YYYY-MM")]
    Format,
    /// A year before 1900 (no rated game is that old; a typo is likelier).
    #[error("year outside 1900-9999")]
    Year,
    /// Month 00 or above 12.
    #[error("month outside 01-12")]
    Month,
}

impl Period {
    /// The month a reader asked for in `field` (`YYYY-MM`), `until` when
    /// none was asked; a month after `until` is refused, nothing being
    /// rated there yet.
    pub fn asked(
        field: &'static str,
        asked: Option<&str>,
        until: Period,
    ) -> Result<Period, crate::field::FieldError> {
        use crate::field::{FieldError, Problem};
        let Some(text) = asked.map(str::trim).filter(|t| !t.is_empty()) else {
            return Ok(until);
        };
        let period = text
            .parse::<Period>()
            .map_err(|_| FieldError::new(field, Problem::NotAMonth { text: text.into() }))?;
        if period > until {
            return Err(FieldError::new(
                field,
                Problem::FutureMonth { text: text.into() },
            ));
        }
        Ok(period)
    }

    /// The years a period may be written with: four digits, and none
    /// before organised rated play could have begun.
    pub const YEARS: std::ops::RangeInclusive<i32> = 1900..=9999;

    /// The month, if `month` is one (1..=12).
    pub fn new(year: i32, month: u32) -> Option<Period> {
        (1..=12).contains(&month).then_some(Period { year, month })
    }

    /// The month `date` falls in; callers pass the UTC date, so a game
    /// played late on the last evening of a month in South Africa (UTC+2)
    /// may fall in the next month's period, the same for every reader.
    pub fn of(date: chrono::NaiveDate) -> Period {
        Period {
            year: date.year(),
            month: date.month(),
        }
    }

    /// The month after this one.
    pub fn next(self) -> Period {
        Period::from_ordinal(self.ordinal() + 1)
    }

    /// The month before this one.
    pub fn prev(self) -> Period {
        Period::from_ordinal(self.ordinal() - 1)
    }

    /// Months since the start of year 0: periods become array indices by
    /// subtraction, which is what the history's counting sort needs.
    pub(crate) fn ordinal(self) -> i64 {
        debug_assert!((1..=12).contains(&self.month), "month {}", self.month);
        i64::from(self.year) * 12 + i64::from(self.month) - 1
    }

    pub(crate) fn from_ordinal(ordinal: i64) -> Period {
        Period {
            year: ordinal.div_euclid(12) as i32,
            month: ordinal.rem_euclid(12) as u32 + 1,
        }
    }
}

impl fmt::Display for Period {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year, self.month)
    }
}

impl FromStr for Period {
    type Err = PeriodError;

    /// Exactly `YYYY-MM`, ASCII digits only: a period names a URL and a
    /// cache key, so one spelling per month keeps them one.
    fn from_str(s: &str) -> Result<Period, PeriodError> {
        let b = s.as_bytes();
        let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
        if b.len() != 7 || b[4] != b'-' || !digits(0..4) || !digits(5..7) {
            return Err(PeriodError::Format);
        }
        let number =
            |r: std::ops::Range<usize>| b[r].iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
        let year = number(0..4) as i32;
        let month = number(5..7);
        if !Period::YEARS.contains(&year) {
            return Err(PeriodError::Year);
        }
        Period::new(year, month).ok_or(PeriodError::Month)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(year: i32, month: u32) -> Period {
        Period::new(year, month).unwrap()
    }

    #[test]
    fn reads_and_writes_yyyy_mm() {
        assert_eq!("2024-03".parse(), Ok(p(2024, 3)));
        assert_eq!("1900-01".parse(), Ok(p(1900, 1)));
        assert_eq!("9999-12".parse(), Ok(p(9999, 12)));
        assert_eq!(p(2024, 3).to_string(), "2024-03");
        assert_eq!(p(2024, 12).to_string(), "2024-12");
        for text in ["1999-01", "2025-10", "2031-07"] {
            assert_eq!(text.parse::<Period>().unwrap().to_string(), text);
        }
    }

    #[test]
    fn refuses_what_is_not_a_month() {
        for (text, why) in [
            ("2024-00", PeriodError::Month),
            ("2024-13", PeriodError::Month),
            ("2024-99", PeriodError::Month),
            ("1899-12", PeriodError::Year),
            ("0000-01", PeriodError::Year),
            ("2024-3", PeriodError::Format),
            ("24-03", PeriodError::Format),
            ("2024/03", PeriodError::Format),
            ("2024-03-01", PeriodError::Format),
            (" 2024-03", PeriodError::Format),
            ("2024-03 ", PeriodError::Format),
            ("+024-03", PeriodError::Format),
            ("2024--3", PeriodError::Format),
            ("2024-+3", PeriodError::Format),
            ("2O24-03", PeriodError::Format),
            ("２０２４-03", PeriodError::Format),
            ("10000-01", PeriodError::Format),
            ("", PeriodError::Format),
        ] {
            assert_eq!(text.parse::<Period>(), Err(why), "{text:?}");
        }
        assert_eq!(Period::new(2024, 0), None);
        assert_eq!(Period::new(2024, 13), None);
    }

    #[test]
    fn steps_across_the_year_end() {
        assert_eq!(p(2024, 12).next(), p(2025, 1));
        assert_eq!(p(2025, 1).prev(), p(2024, 12));
        assert_eq!(p(2024, 5).next(), p(2024, 6));
        assert_eq!(p(2024, 6).prev(), p(2024, 5));
        assert!(p(2024, 12) < p(2025, 1));
        assert!(p(2025, 1) < p(2025, 2));
        let mut at = p(1999, 1);
        for _ in 0..400 {
            assert_eq!(at.next().prev(), at);
            assert_eq!(at.next().ordinal(), at.ordinal() + 1);
            at = at.next();
        }
    }

    #[test]
    fn a_date_falls_in_its_month() {
        let date = chrono::NaiveDate::from_ymd_opt(2024, 2, 29).unwrap();
        assert_eq!(Period::of(date), p(2024, 2));
        let date = chrono::NaiveDate::from_ymd_opt(2023, 12, 31).unwrap();
        assert_eq!(Period::of(date), p(2023, 12));
    }
}

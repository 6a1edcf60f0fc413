//! The round clock (OGR article 8): when play starts, how long a round may
//! last, and how much of it is left.
//!
//! OGR 8 limits a game, not a round: 30 minutes a player where there are
//! stop clocks (8.1, so a game lasts up to an hour), and without them 20
//! minutes a game without recording or 60 with recording (8.4). A round's
//! pairing plays its games one after the other, so its default limit is a
//! game's limit times the games per pairing. The GAR (seeds 001/002) set no
//! time limit; Kraal applies OGR 8 under both rule sets. A knock-out's
//! tiebreak games are played at 20 seconds a move without recording (OGR
//! 9.4): the clock says so, but a tiebreak set has no round limit of its own.

use chrono::{DateTime, Duration, NaiveDateTime, NaiveTime};
use serde::Serialize;

use crate::field::{FieldError, Problem};

/// The longest round a referee may set: a six-game pairing with recording
/// lasts six hours; twelve leaves room for a long day.
pub const MAX_MINUTES: i32 = 12 * 60;

/// Where the default limit of a round comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// OGR 8.1: stop clocks, 30 minutes a player.
    StopClocks,
    /// OGR 8.4: no stop clocks, games recorded: 60 minutes a game.
    Recording,
    /// OGR 8.4: no stop clocks, no recording: 20 minutes a game.
    NoRecording,
}

impl Basis {
    /// The minutes one game may take.
    pub fn game_minutes(self) -> i32 {
        match self {
            Basis::StopClocks => 60,
            Basis::Recording => 60,
            Basis::NoRecording => 20,
        }
    }

    /// The article the limit comes from.
    pub fn article(self) -> &'static str {
        match self {
            Basis::StopClocks => "OGR 8.1",
            Basis::Recording | Basis::NoRecording => "OGR 8.4",
        }
    }

    /// Why, in a referee's words.
    pub fn reason(self) -> &'static str {
        match self {
            Basis::StopClocks => {
                "stop clocks on every board: 30 minutes a player, so up to 60 minutes a game"
            }
            Basis::Recording => "no stop clocks, every game recorded: 60 minutes a game",
            Basis::NoRecording => "no stop clocks, no recording: 20 minutes a game",
        }
    }
}

/// A round's default limit and what it rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DefaultLimit {
    pub minutes: i32,
    pub basis: Basis,
    pub games: i32,
}

/// The default limit of a round of `games` games a pairing, with stop
/// clocks on the boards (`clocks`) or not, and with every game recorded
/// (`recorded`) or not.
pub fn default_limit(clocks: bool, recorded: bool, games: i32) -> DefaultLimit {
    let basis = match (clocks, recorded) {
        (true, _) => Basis::StopClocks,
        (false, true) => Basis::Recording,
        (false, false) => Basis::NoRecording,
    };
    DefaultLimit {
        minutes: basis.game_minutes() * games.max(1),
        basis,
        games,
    }
}

/// The pace of a knock-out's tiebreak games (OGR 9.4).
pub const TIEBREAK_PACE: &str = "20 seconds a move, without recording (OGR 9.4)";

/// A round's clock: play starts at `starts_at` (UTC) and lasts `minutes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundClock {
    pub starts_at: NaiveDateTime,
    pub minutes: i32,
}

/// How a clock looks at a moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tone {
    /// Play has not started.
    Waiting,
    /// More than five minutes left.
    Running,
    /// Five minutes or less.
    Amber,
    /// One minute or less.
    Red,
    /// Time is up.
    Over,
}

impl RoundClock {
    pub fn ends_at(&self) -> NaiveDateTime {
        self.starts_at + Duration::minutes(i64::from(self.minutes))
    }

    /// Seconds left at `now` (the whole limit before the start, 0 after
    /// the end).
    pub fn seconds_left(&self, now: NaiveDateTime) -> i64 {
        if now < self.starts_at {
            return i64::from(self.minutes) * 60;
        }
        (self.ends_at() - now).num_seconds().max(0)
    }

    pub fn tone(&self, now: NaiveDateTime) -> Tone {
        if now < self.starts_at {
            return Tone::Waiting;
        }
        match self.seconds_left(now) {
            0 => Tone::Over,
            s if s <= 60 => Tone::Red,
            s if s <= 300 => Tone::Amber,
            _ => Tone::Running,
        }
    }
}

/// Reads a start time: ISO 8601 with its offset (`2026-11-27T09:30:00+02:00`
/// or `...Z`), kept in UTC. A time without an offset is refused: a venue's
/// clock and the server's may not agree on the zone.
pub fn parse_start(text: &str) -> Result<NaiveDateTime, FieldError> {
    let t = text.trim();
    DateTime::parse_from_rfc3339(t)
        .map(|d| d.naive_utc())
        .map_err(|_| {
            FieldError::new(
                "starts_at",
                Problem::NotATime {
                    text: t.to_string(),
                },
            )
        })
}

/// Reads a clock a referee sets: a start (none: `now`) and a limit in
/// minutes (none: `default_minutes`, the event's OGR 8 limit).
pub fn read(
    starts_at: Option<&str>,
    minutes: Option<i64>,
    default_minutes: i32,
    now: NaiveDateTime,
) -> Result<RoundClock, FieldError> {
    let starts_at = match starts_at.map(str::trim).filter(|s| !s.is_empty()) {
        Some(text) => parse_start(text)?,
        None => now,
    };
    let minutes = match minutes {
        Some(m) => check_minutes(m)?,
        None => default_minutes,
    };
    Ok(RoundClock { starts_at, minutes })
}

/// Reads a clock from the round page's form, where the start may be a time
/// of day (`HH:MM`) today in the referee's zone: `utc_offset` is the
/// browser's `getTimezoneOffset()`, minutes behind UTC (UTC+2 is `-120`).
/// Any other start is read as [`read`] reads it.
pub fn read_in_zone(
    starts_at: &str,
    utc_offset: i32,
    minutes: Option<i64>,
    default_minutes: i32,
    now: NaiveDateTime,
) -> Result<RoundClock, FieldError> {
    let Ok(time) = NaiveTime::parse_from_str(starts_at.trim(), "%H:%M") else {
        return read(Some(starts_at), minutes, default_minutes, now);
    };
    let behind = Duration::minutes(utc_offset.into());
    let today_there = (now - behind).date();
    let clock = read(None, minutes, default_minutes, now)?;
    Ok(RoundClock {
        starts_at: today_there.and_time(time) + behind,
        ..clock
    })
}

/// Checks a round's limit in minutes.
pub fn check_minutes(minutes: i64) -> Result<i32, FieldError> {
    if (1..=i64::from(MAX_MINUTES)).contains(&minutes) {
        Ok(minutes as i32)
    } else {
        Err(FieldError::new(
            "minutes",
            Problem::OutOfRange {
                value: minutes,
                min: 1,
                max: i64::from(MAX_MINUTES),
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> NaiveDateTime {
        parse_start(text).unwrap()
    }

    #[test]
    fn the_default_limit_follows_ogr_article_8() {
        assert_eq!(default_limit(false, false, 2).minutes, 40);
        assert_eq!(default_limit(false, true, 2).minutes, 120);
        assert_eq!(default_limit(true, false, 6).minutes, 360);
        assert_eq!(default_limit(false, false, 6).basis.article(), "OGR 8.4");
        assert_eq!(default_limit(true, true, 2).basis.article(), "OGR 8.1");
    }

    #[test]
    fn the_clock_turns_amber_five_minutes_and_red_one_minute_before_the_end() {
        let clock = RoundClock {
            starts_at: at("2026-11-27T09:30:00+02:00"),
            minutes: 40,
        };
        assert_eq!(clock.ends_at(), at("2026-11-27T08:10:00Z"));
        assert_eq!(clock.tone(at("2026-11-27T07:29:00Z")), Tone::Waiting);
        assert_eq!(clock.tone(at("2026-11-27T08:04:59Z")), Tone::Running);
        assert_eq!(clock.tone(at("2026-11-27T08:05:00Z")), Tone::Amber);
        assert_eq!(clock.tone(at("2026-11-27T08:09:00Z")), Tone::Red);
        assert_eq!(clock.tone(at("2026-11-27T08:10:00Z")), Tone::Over);
        assert_eq!(clock.seconds_left(at("2026-11-27T08:09:30Z")), 30);
    }

    #[test]
    fn a_start_without_its_offset_or_a_limit_out_of_range_is_refused() {
        assert_eq!(
            parse_start("2026-11-27 09:30").unwrap_err().field,
            "starts_at"
        );
        assert!(check_minutes(0).is_err());
        assert!(check_minutes(721).is_err());
        assert_eq!(check_minutes(40), Ok(40));
    }

    #[test]
    fn a_time_of_day_on_the_round_page_is_today_in_the_referees_zone() {
        // 23:00 UTC is already the next day in Johannesburg (UTC+2).
        let now = at("2026-11-26T23:00:00Z");
        let c = read_in_zone("09:30", -120, Some(40), 60, now).unwrap();
        assert_eq!(c.starts_at, at("2026-11-27T07:30:00Z"));
        assert_eq!(c.minutes, 40);
        // West of UTC the offset counts the other way.
        let c = read_in_zone("09:30", 180, None, 60, now).unwrap();
        assert_eq!((c.starts_at, c.minutes), (at("2026-11-26T12:30:00Z"), 60));
        // A full time is read as the API reads it; a wrong one names the field.
        let c = read_in_zone("2026-11-27T08:00:00+02:00", -120, None, 60, now).unwrap();
        assert_eq!(c.starts_at, at("2026-11-27T06:00:00Z"));
        assert_eq!(
            read_in_zone("half past nine", -120, None, 60, now)
                .unwrap_err()
                .field,
            "starts_at"
        );
        assert_eq!(read_in_zone("", 0, None, 60, now).unwrap().starts_at, now);
    }
}
